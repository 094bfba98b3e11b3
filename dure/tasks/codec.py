"""The one codec between task/answer/score records and JSON lines.

Encoding is deterministic (fields in declared order, no spaces, UTF-8 kept), so the same tasks give
byte-identical files. Decoding checks every field and raises :class:`TaskError` / :class:`AnswerError` naming
the file, line and field at fault.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from dure.tasks.errors import AnswerError, TaskError
from dure.tasks.frozen import FrozenDict, freeze, freeze_object, thaw
from dure.tasks.model import Answer, Completion, RepoRef, Score, Task, TaskKind, VerifierSpec, expected_id


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def loads(text: str) -> Any:
    """Strict JSON: NaN and Infinity are rejected, as the JSON standard says."""
    return json.loads(text, parse_constant=_reject_constant)


def task_to_json(task: Task) -> dict[str, Any]:
    """A task as plain JSON data (the shape the task schema describes)."""
    return {
        "id": task.id,
        "kind": task.kind.value,
        "layer": task.layer,
        "phase": task.phase,
        "repo": {
            "name": task.repo.name,
            "version": task.repo.version,
            "source": task.repo.source,
            "sha256": task.repo.sha256,
        },
        "prompt": task.prompt,
        "inputs": thaw(task.inputs),
        "answer": thaw(task.answer),
        "answer_schema": thaw(task.answer_schema),
        "verifier": {"name": task.verifier.name, "params": thaw(task.verifier.params)},
        "workspace": task.workspace,
        "difficulty": thaw(task.difficulty),
        "provenance": thaw(task.provenance),
        "audit": thaw(task.audit),
    }


def encode_task(task: Task) -> str:
    """One JSON line (without the newline) for a task."""
    return _dumps(task_to_json(task))


class _Reader:
    """Typed access to the fields of one decoded JSON object, with errors that name the field."""

    def __init__(self, data: object, prefix: str, source: str | None, line: int | None) -> None:
        self.prefix, self.source, self.line = prefix, source, line
        if not isinstance(data, dict):
            raise self.error("", f"expected a JSON object, got {type(data).__name__}")
        self.data: dict[str, Any] = data

    def error(self, key: str, reason: str) -> TaskError:
        return TaskError(f"{self.prefix}{key}" or "task", reason, source=self.source, line=self.line)

    def get(self, key: str, kind: type | tuple[type, ...], default: object = ...) -> Any:
        if key not in self.data:
            if default is ...:
                raise self.error(key, "missing")
            return default
        value = self.data[key]
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
            names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
            raise self.error(key, f"expected {names}, got {type(value).__name__}")
        return value

    def sub(self, key: str) -> _Reader:
        return _Reader(self.get(key, dict), f"{self.prefix}{key}.", self.source, self.line)

    def json(self, key: str, *, default: object = ...) -> FrozenDict:
        return freeze_object(self.get(key, dict, default if default is ... else {}))


def task_from_json(
    data: object, *, source: str | None = None, line: int | None = None, check_id: bool = True
) -> Task:
    """A task from decoded JSON, checking every field (and, by default, that the id fits the content)."""
    fields = _Reader(data, "", source, line)
    kind_name = fields.get("kind", str)
    try:
        kind = TaskKind(kind_name)
    except ValueError:
        raise fields.error("kind", f"unknown task kind {kind_name!r}") from None
    repo, verifier = fields.sub("repo"), fields.sub("verifier")
    if "answer" not in fields.data:
        raise fields.error("answer", "missing")
    task = Task(
        id=fields.get("id", str),
        kind=kind,
        layer=fields.get("layer", int),
        phase=fields.get("phase", int),
        repo=RepoRef(
            repo.get("name", str), repo.get("version", str), repo.get("source", str), repo.get("sha256", str)
        ),
        prompt=fields.get("prompt", str),
        inputs=fields.json("inputs"),
        answer=freeze(fields.data["answer"]),
        answer_schema=fields.json("answer_schema"),
        verifier=VerifierSpec(verifier.get("name", str), verifier.json("params", default={})),
        workspace=fields.get("workspace", str, ""),
        difficulty=fields.json("difficulty", default={}),
        provenance=fields.json("provenance", default={}),
        audit=fields.json("audit", default={}),
    )
    if check_id and task.id != (wanted := expected_id(task)):
        raise fields.error("id", f"{task.id!r} does not match the task's content (expected {wanted!r})")
    return task


def decode_task(text: str, *, source: str | None = None, line: int | None = None) -> Task:
    """A task from one JSON line."""
    try:
        data = loads(text)
    except (ValueError, RecursionError) as problem:
        raise TaskError("task", f"not JSON: {problem}", source=source, line=line) from None
    return task_from_json(data, source=source, line=line)


def read_tasks(path: Path | str) -> list[Task]:
    """Every task of a JSONL file; blank lines are skipped, the first bad line raises :class:`TaskError`."""
    path = Path(path)
    tasks: list[Task] = []
    with path.open(encoding="utf-8") as stream:
        for number, text in enumerate(stream, start=1):
            if text.strip():
                tasks.append(decode_task(text, source=str(path), line=number))
    return tasks


def write_tasks(path: Path | str, tasks: Iterable[Task]) -> int:
    """Write tasks as JSONL (``\\n`` line ends, UTF-8); returns how many were written."""
    count = 0
    with Path(path).open("w", encoding="utf-8", newline="\n") as stream:
        for task in tasks:
            stream.write(encode_task(task) + "\n")
            count += 1
    return count


def encode_answer(answer: Answer | Completion) -> str:
    if isinstance(answer, Completion):
        return _dumps({"task_id": answer.task_id, "completion": answer.text})
    return _dumps({"task_id": answer.task_id, "answer": thaw(answer.value)})


def decode_answer(text: str, *, source: str | None = None, line: int | None = None) -> Answer | Completion:
    """One answer line: ``{"task_id": ..., "answer": <JSON>}`` is an :class:`Answer`;
    ``{"task_id": ..., "completion": "<free text>"}`` is a :class:`Completion` (the answer is extracted when
    it is scored).
    """
    try:
        data = loads(text)
    except (ValueError, RecursionError) as problem:
        raise AnswerError(f"not JSON: {problem}", source=source, line=line) from None
    if not isinstance(data, dict):
        raise AnswerError(f"expected a JSON object, got {type(data).__name__}", source=source, line=line)
    task_id = data.get("task_id")
    if not isinstance(task_id, str) or not task_id:
        raise AnswerError("task_id: missing or not a string", source=source, line=line)
    if "answer" in data:
        return Answer(task_id, freeze(data["answer"]))
    completion = data.get("completion")
    if isinstance(completion, str):
        return Completion(task_id, completion)
    reason = f"{task_id}: needs an 'answer' value or a 'completion' string"
    raise AnswerError(reason, source=source, line=line)


def score_to_json(score: Score) -> dict[str, Any]:
    return {
        "value": score.value,
        "passed": score.passed,
        "components": thaw(score.components),
        "details": thaw(score.details),
        "error": score.error,
    }


def score_from_json(data: object) -> Score:
    fields = _Reader(data, "score.", None, None)
    return Score(
        value=float(fields.get("value", (int, float))),
        passed=fields.get("passed", bool),
        components=fields.json("components", default={}),
        details=fields.json("details", default={}),
        error=fields.get("error", (str, type(None)), None),
    )


def iter_lines(path: Path | str) -> Iterator[tuple[int, str]]:
    """``(line number, text)`` for every non-blank line of a UTF-8 file."""
    with Path(path).open(encoding="utf-8", errors="replace") as stream:
        for number, text in enumerate(stream, start=1):
            if text.strip():
                yield number, text

"""Read a dataset from disk, whatever wrote it: ``dure generate``, ``dure curriculum``, ``dure export``, or a
plain task JSONL file.

Everything is read into frozen records so that the summary and the page are pure functions of them; files are
read in sorted order so the same directory always gives the same report.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from dure.errors import DureError
from dure.tasks.codec import decode_task, iter_lines, loads
from dure.tasks.model import Task


class ReportError(DureError):
    """A dataset or scores file the report cannot read: names the path and what is wrong."""

    def __init__(self, path: Path | str, reason: str) -> None:
        self.path = str(path)
        self.reason = reason
        super().__init__(f"{self.path}: {reason}")


class Layout(StrEnum):
    """What wrote the dataset; decides where tasks and run reports are found."""

    GENERATE = "generate"  # tasks/*.jsonl + reports/*.json
    CURRICULUM = "curriculum"  # phase-N.jsonl (+ curriculum.json)
    EXPORT = "export"  # data/<phase>/<kind>/<split>-*.parquet (+ dure_manifest.json)
    JSONL = "jsonl"  # one task file

    @property
    def group(self) -> str:
        """What one group of tasks is in this layout."""
        return {"generate": "shard", "curriculum": "phase file", "export": "split"}.get(self.value, "file")


@dataclass(frozen=True, slots=True)
class Entry:
    """One task as it sits in the dataset: the group it came from (shard, phase file, split) and the phase
    it is placed in there (a curriculum or export can place one task in two phases)."""

    task: Task
    group: str
    phase: int


@dataclass(frozen=True, slots=True)
class RunReport:
    """One repository's ``reports/<shard>.json`` from ``dure generate``: drops, trace checks, failure."""

    repository: str
    shard: str
    tasks: int
    drops: tuple[tuple[str, str, int], ...]  # (kind, reason, count), sorted
    trace_checked: int
    trace_misses: int
    tests_ran: bool | None
    trace_error: str | None
    error: str | None

    @property
    def dropped(self) -> int:
        return sum(count for _, _, count in self.drops)


@dataclass(frozen=True, slots=True)
class Dataset:
    """Everything read from one dataset: its tasks, run reports and a few top-level facts to show."""

    source: str
    layout: Layout
    entries: tuple[Entry, ...]
    runs: tuple[RunReport, ...] = ()
    facts: tuple[tuple[str, str], ...] = ()  # scalar top-level keys of curriculum.json / dure_manifest.json


@dataclass(frozen=True, slots=True)
class ScoreRecord:
    """One line of a ``dure score --out`` file (``task_id`` is None for a malformed answer line)."""

    task_id: str | None
    kind: str | None
    phase: int | None
    value: float
    passed: bool
    error: str | None


PHASE_FILE = re.compile(r"phase-(\d+)\.jsonl")


def detect(path: Path) -> Layout:
    """The layout of ``path``; a directory that holds none of the known layouts is a :class:`ReportError`."""
    if path.is_file():
        return Layout.JSONL
    if not path.is_dir():
        raise ReportError(path, "no such file or directory")
    if (path / "tasks").is_dir() and any((path / "tasks").glob("*.jsonl")):
        return Layout.GENERATE
    if any(PHASE_FILE.fullmatch(p.name) for p in path.glob("phase-*.jsonl")):
        return Layout.CURRICULUM
    if (path / "dure_manifest.json").is_file() or any((path / "data").glob("**/*.parquet")):
        return Layout.EXPORT
    raise ReportError(
        path,
        "not a dataset: expected tasks/*.jsonl (dure generate), phase-N.jsonl (dure curriculum), "
        "data/**/*.parquet (dure export) or a task JSONL file",
    )


def load_dataset(path: Path) -> Dataset:
    """Read the dataset at ``path`` (a directory of a known layout, or one task file)."""
    layout = detect(path)
    if layout is Layout.GENERATE:
        shards = sorted((path / "tasks").glob("*.jsonl"))
        entries = [e for shard in shards for e in _jsonl_entries(shard, shard.stem)]
        runs = tuple(_run_report(p) for p in sorted((path / "reports").glob("*.json")))
        return Dataset(str(path), layout, tuple(entries), runs)
    if layout is Layout.CURRICULUM:
        numbered = sorted(
            (int(match.group(1)), file)
            for file in path.glob("phase-*.jsonl")
            if (match := PHASE_FILE.fullmatch(file.name))
        )
        entries = [e for phase, file in numbered for e in _jsonl_entries(file, file.stem, phase)]
        return Dataset(str(path), layout, tuple(entries), facts=_facts(path / "curriculum.json"))
    if layout is Layout.EXPORT:
        from dure.report.parquet import export_entries  # noqa: PLC0415 - pyarrow loads only for exports

        files = sorted((path / "data").glob("**/*.parquet"))
        if not files:
            raise ReportError(path, "an export with no data/**/*.parquet files")
        entries = [e for file in files for e in export_entries(file)]
        return Dataset(str(path), layout, tuple(entries), facts=_facts(path / "dure_manifest.json"))
    return Dataset(str(path), layout, tuple(_jsonl_entries(path, path.stem)))


def _jsonl_entries(path: Path, group: str, phase: int | None = None) -> Iterator[Entry]:
    try:
        for number, text in iter_lines(path):
            task = decode_task(text, source=str(path), line=number)
            yield Entry(task, group, task.phase if phase is None else phase)
    except OSError as problem:
        raise ReportError(path, f"cannot read: {problem.strerror or problem}") from None


def _read_json(path: Path) -> Any:
    try:
        return loads(path.read_text(encoding="utf-8"))
    except OSError as problem:
        raise ReportError(path, f"cannot read: {problem.strerror or problem}") from None
    except (ValueError, RecursionError) as problem:
        raise ReportError(path, f"not JSON: {str(problem)[:200]}") from None


def _facts(path: Path) -> tuple[tuple[str, str], ...]:
    """The scalar top-level keys of an optional JSON side file (absent or unreadable: nothing to show)."""
    if not path.is_file():
        return ()
    try:
        data = _read_json(path)
    except ReportError:
        return ()
    if not isinstance(data, dict):
        return ()
    scalars = (str, int, float, bool)
    return tuple(sorted((str(k), json.dumps(v)) for k, v in data.items() if isinstance(v, scalars)))


def _run_report(path: Path) -> RunReport:
    data = _read_json(path)
    if not isinstance(data, dict):
        raise ReportError(path, "expected a JSON object (a dure generate report)")
    tasks = _counts(path, data.get("tasks", {}), "tasks")
    drops = _counts(path, data.get("drops", {}), "drops")
    found = data.get("trace")
    trace: dict[str, Any] = found if isinstance(found, dict) else {}
    ran = trace.get("tests_ran")
    return RunReport(
        repository=str(data.get("repository", path.stem)),
        shard=path.stem,
        tasks=sum(count for _, _, count in tasks),
        drops=drops,
        trace_checked=_int(trace.get("checked")),
        trace_misses=_int(trace.get("misses")),
        tests_ran=ran if isinstance(ran, bool) else None,
        trace_error=str(trace["error"]) if trace.get("error") else None,
        error=str(data["error"]) if data.get("error") else None,
    )


def _counts(path: Path, table: object, key: str) -> tuple[tuple[str, str, int], ...]:
    """A report's ``{outer: {inner: count}}`` table as sorted triples."""
    if not isinstance(table, Mapping) or not all(isinstance(v, Mapping) for v in table.values()):
        raise ReportError(path, f"{key}: expected an object of objects of counts")
    return tuple(sorted((str(o), str(i), _int(n)) for o, inner in table.items() for i, n in inner.items()))


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def load_scores(path: Path) -> tuple[ScoreRecord, ...]:
    """Every line of a ``dure score --out`` file; a line that is no score record is a :class:`ReportError`."""
    records: list[ScoreRecord] = []
    try:
        for number, text in iter_lines(path):
            records.append(_score_record(path, number, text))
    except OSError as problem:
        raise ReportError(path, f"cannot read: {problem.strerror or problem}") from None
    return tuple(records)


def _score_record(path: Path, number: int, text: str) -> ScoreRecord:
    where = f"{path}:{number}"
    try:
        data = loads(text)
    except (ValueError, RecursionError) as problem:
        raise ReportError(where, f"not JSON: {str(problem)[:200]}") from None
    if not isinstance(data, dict):
        raise ReportError(where, "expected a JSON object (a dure score --out line)")
    value, passed = data.get("value"), data.get("passed")
    if isinstance(value, bool) or not isinstance(value, int | float) or not isinstance(passed, bool):
        raise ReportError(where, "expected a number 'value' and a boolean 'passed'")
    task_id, kind, phase, error = (data.get(k) for k in ("task_id", "kind", "phase", "error"))
    return ScoreRecord(
        task_id=task_id if isinstance(task_id, str) else None,
        kind=kind if isinstance(kind, str) else None,
        phase=phase if isinstance(phase, int) and not isinstance(phase, bool) else None,
        value=float(value),
        passed=passed,
        error=error if isinstance(error, str) else None,
    )


def with_prompt(task: Task, prompt: str) -> Task:
    """An exported task with its prompt put back (ground truth leaves it out)."""
    return dataclasses.replace(task, prompt=prompt)


__all__ = [
    "Dataset",
    "Entry",
    "Layout",
    "ReportError",
    "RunReport",
    "ScoreRecord",
    "detect",
    "load_dataset",
    "load_scores",
]

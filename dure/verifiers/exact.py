"""``exact``: one qualified name, or one location (an object such as ``{"file": ..., "qualname": ...}``).

Only spellings that provably name the same thing are equated: surrounding space and backticks, ``mod:obj`` for
``mod.obj``, a trailing ``()``; for ``file``/``path`` fields ``./`` prefixes, backslashes and ``a/../b``
segments; for ``line`` fields a number written as a string. An object answer must give every field of the
reference (extra fields are ignored); the score is 1.0 when all match, else 0 (the per-field verdicts are in
the details).
"""

from __future__ import annotations

import posixpath

from dure.tasks.errors import AnswerError, TaskError
from dure.tasks.frozen import FrozenDict, JsonValue
from dure.tasks.model import Score, Task
from dure.verifiers._registry import register
from dure.verifiers.base import FORMAT, AuditCase, Expect, Verifier
from dure.verifiers.sets import normalize_qualname

MAX_CHARS = 10_000
PATH_FIELDS = frozenset({"file", "path"})
LINE_FIELDS = frozenset({"line", "lineno"})


def normalize_path(text: str) -> str:
    text = text.strip().strip("`").strip().replace("\\", "/")
    normal = posixpath.normpath(text) if text else text
    return normal.removeprefix("./")


def normalize_field(key: str, value: JsonValue, error: type[AnswerError | TaskError]) -> str | int:
    """The one spelling of one field value; a value of the wrong type raises ``error``."""
    if key in LINE_FIELDS:
        if isinstance(value, str) and value.strip().isdigit() and len(value) < 20:
            return int(value.strip())
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise _error(error, key, "must be a line number")
    if not isinstance(value, str):
        raise _error(error, key, "must be a string")
    if len(value) > MAX_CHARS:
        raise _error(error, key, f"longer than {MAX_CHARS} characters")
    return normalize_path(value) if key in PATH_FIELDS else normalize_qualname(value)


def _error(error: type[AnswerError | TaskError], key: str, reason: str) -> AnswerError | TaskError:
    return (
        TaskError(f"answer.{key}", reason)
        if error is TaskError
        else AnswerError(f"{key or 'answer'}: {reason}")
    )


@register
class ExactVerifier(Verifier):
    name = "exact"
    description = "one qualified name or location, equal after normalising spellings that name the same thing"
    components = (FORMAT, "exact")

    def check(self, task: Task, answer: JsonValue) -> Score:
        reference = task.answer
        if isinstance(reference, FrozenDict):
            if not isinstance(answer, FrozenDict):
                raise AnswerError(f"expected an object with fields {sorted(reference)}")
            missing = sorted(key for key in reference if key not in answer)
            if missing:
                raise AnswerError(f"missing fields {missing}")
            fields = {
                key: normalize_field(key, answer[key], AnswerError) == normalize_field(key, gold, TaskError)
                for key, gold in reference.items()
            }
            exact = all(fields.values())
            return self.score(float(exact), {FORMAT: 1.0, "exact": float(exact)}, {"fields": fields})
        if isinstance(answer, FrozenDict | tuple):
            raise AnswerError("expected a single string")
        exact = normalize_field("", answer, AnswerError) == normalize_field("", reference, TaskError)
        return self.score(float(exact), {FORMAT: 1.0, "exact": float(exact)})

    def audit_cases(self, task: Task) -> tuple[AuditCase, ...]:
        reference = task.answer
        if isinstance(reference, FrozenDict):
            respelled = FrozenDict({key: _respell(key, value) for key, value in reference.items()})
            cases = [AuditCase("respelled", respelled, Expect.EQUIVALENT)]
            for key, value in reference.items():
                near = FrozenDict({**reference, key: _near_miss(key, value)})
                cases.append(AuditCase(f"wrong {key}", near, Expect.WRONG, 0.0))
            return (*cases, AuditCase("empty", FrozenDict(), Expect.WRONG, 0.0))
        return (
            AuditCase("respelled", _respell("", reference), Expect.EQUIVALENT),
            AuditCase("near miss", _near_miss("", reference), Expect.WRONG, 0.0),
            AuditCase("empty", "", Expect.WRONG, 0.0),
            AuditCase("wrong type", (reference,), Expect.WRONG, 0.0),
        )


def _respell(key: str, value: JsonValue) -> JsonValue:
    if key in LINE_FIELDS:
        return str(value)
    if key in PATH_FIELDS and isinstance(value, str):
        return f"./{value}"
    return f" `{value}` " if isinstance(value, str) else value


def _near_miss(key: str, value: JsonValue) -> JsonValue:
    """A plausible wrong answer: the enclosing name, the next line, or a sibling file."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value + 1
    if not isinstance(value, str):
        return None
    if key in PATH_FIELDS:
        head, _, tail = value.rpartition("/")
        return f"{head}/_{tail}" if head else f"_{tail}"
    parent = normalize_qualname(value).rpartition(".")[0]
    return parent or f"{value}_"

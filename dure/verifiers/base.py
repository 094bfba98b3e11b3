"""What every verifier is: a named object whose ``verify(task, answer)`` returns a :class:`Score`.

Subclasses implement :meth:`Verifier.check`, raising :class:`AnswerError` for a malformed answer and
:class:`TaskError` for a task whose parameters they cannot use; :meth:`Verifier.verify` turns both into a
zero score with the reason. Every score a verifier returns has exactly its declared ``components`` keys.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from dure.tasks.errors import AnswerError, TaskError
from dure.tasks.frozen import FrozenDict, JsonValue, freeze_object
from dure.tasks.model import Score, Task

FORMAT = "format"  # every verifier's first component: 1.0 when the answer had the required form


class Expect(StrEnum):
    EQUIVALENT = "equivalent"  # a rewrite of the reference answer: must score 1.0
    WRONG = "wrong"  # a wrong baseline: must not pass, and must score at most ``max_value``


@dataclass(frozen=True, slots=True)
class AuditCase:
    """One answer the self-audit scores, and what the score must be."""

    name: str
    answer: JsonValue
    expect: Expect
    max_value: float = 1.0


class Verifier(ABC):
    """Base of all verifiers; instances are stateless and shared."""

    name: ClassVar[str]
    description: ClassVar[str]
    components: ClassVar[tuple[str, ...]]
    judges_together: ClassVar[bool] = False  # verify_many costs less than verify per answer

    @abstractmethod
    def check(self, task: Task, answer: JsonValue) -> Score:
        """Score ``answer``, raising :class:`AnswerError` (bad answer) or :class:`TaskError` (bad task)."""

    @abstractmethod
    def audit_cases(self, task: Task) -> tuple[AuditCase, ...]:
        """Equivalent rewrites and wrong baselines of the task's reference answer, for the self-audit."""

    def verify(self, task: Task, answer: JsonValue) -> Score:
        """The score of ``answer``; a malformed answer (or unusable task) scores 0 with an ``error``."""
        try:
            return self.check(task, answer)
        except AnswerError as bad:
            return Score.failed(f"malformed answer: {bad}", self.components)
        except TaskError as bad:
            return Score.failed(f"bad task {task.id}: {bad}", self.components)

    def verify_many(self, task: Task, answers: Sequence[JsonValue]) -> list[Score]:
        """The score of each answer to one task, in order; a verifier that can judge several answers in one
        pass (one checker run for all of them) overrides this, giving the same scores :meth:`verify` gives."""
        return [self.verify(task, answer) for answer in answers]

    def verify_across(self, work: Sequence[tuple[Task, Sequence[JsonValue]]]) -> list[list[Score]]:
        """The scores of the answers to several tasks, task by task; a verifier that can judge several tasks
        in one pass (one checker run for a repository's tasks) overrides this, giving the same scores."""
        return [self.verify_many(task, answers) for task, answers in work]

    def ceilings_across(
        self, work: Sequence[tuple[Task, Sequence[tuple[JsonValue, float]]]]
    ) -> list[list[float | None]]:
        """For each ``(answer, limit)``: a value the answer's score is certain not to exceed, found more
        cheaply than the score (``None`` where the verifier finds none). The self-audit needs only to know
        that a wrong baseline stays within its limit; ``limit`` tells the verifier how hard to look. A
        verifier whose scores are costly (a checker run) overrides this; the default finds none."""
        return [[None] * len(items) for _, items in work]

    def score(
        self, value: float, components: Mapping[str, float], details: Mapping[str, object] | None = None
    ) -> Score:
        """A score with exactly this verifier's component keys; ``passed`` is ``value == 1.0``."""
        if set(components) != set(self.components):
            raise RuntimeError(f"verifier {self.name!r} gave components {sorted(components)}")
        value = _unit(value)
        ordered = FrozenDict({key: _unit(components[key]) for key in self.components})
        return Score(value, value == 1.0, ordered, freeze_object(details or {}))


def _unit(number: float) -> float:
    """A finite float in [0, 1] (a NaN here is a verifier bug: it must not reach a trainer)."""
    if not math.isfinite(number):
        raise RuntimeError(f"a verifier computed a non-finite number: {number!r}")
    return min(1.0, max(0.0, float(number)))


def param(task: Task, key: str, kind: type | tuple[type, ...], default: object = ...) -> object:
    """A verifier parameter of the task, type-checked; a missing or mistyped one is a :class:`TaskError`."""
    params = task.verifier.params
    if key not in params:
        if default is ...:
            raise TaskError(f"verifier.params.{key}", "missing")
        return default
    value = params[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind in (int, float, (int, float))):
        raise TaskError(f"verifier.params.{key}", f"has the wrong type ({type(value).__name__})")
    return value


def string_items(value: object, what: str, *, limit: int, error: type[AnswerError | TaskError]) -> list[str]:
    """A JSON array of strings, at most ``limit`` long, as a list; anything else raises ``error``."""
    if not isinstance(value, tuple):
        raise _raise(error, what, f"expected a JSON array of strings, got {_json_type(value)}")
    if len(value) > limit:
        raise _raise(error, what, f"{len(value)} items, more than the limit of {limit}")
    for index, item in enumerate(value):
        if not isinstance(item, str):
            raise _raise(error, what, f"item {index} is {_json_type(item)}, not a string")
    return list(value)


def _raise(error: type[AnswerError | TaskError], what: str, reason: str) -> AnswerError | TaskError:
    if error is TaskError:
        return TaskError(what, reason)
    return AnswerError(f"{what}: {reason}")


def _json_type(value: object) -> str:
    names = {tuple: "an array", FrozenDict: "an object", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    return names.get(type(value), "a number" if isinstance(value, int | float) else type(value).__name__)


def clip(text: str, limit: int = 200) -> str:
    """A string cut to ``limit`` characters for details and error messages."""
    return text if len(text) <= limit else text[: limit - 1] + "…"

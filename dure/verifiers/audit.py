"""The self-audit: a task is kept only if its verifier accepts every rewrite of the reference answer and
scores every wrong baseline as low as it deserves (see each verifier's ``audit_cases``)."""

from __future__ import annotations

import json
from dataclasses import dataclass

from dure.scoring import score_many
from dure.tasks.frozen import JsonValue, thaw
from dure.tasks.model import Task
from dure.verifiers._registry import get_verifier
from dure.verifiers.base import AuditCase, Expect

#: Bounds such as ``2(n-1)/(2n-1)`` are computed in another order than the scores they bound.
TOLERANCE = 1e-9


@dataclass(frozen=True, slots=True)
class CaseResult:
    name: str
    expect: Expect
    value: float
    max_value: float
    error: str | None

    @property
    def ok(self) -> bool:
        if self.expect is Expect.EQUIVALENT:
            return self.value == 1.0
        return self.value < 1.0 and self.value <= self.max_value + TOLERANCE

    @property
    def false_negative(self) -> bool:
        return self.expect is Expect.EQUIVALENT and not self.ok

    @property
    def false_positive(self) -> bool:
        return self.expect is Expect.WRONG and not self.ok


@dataclass(frozen=True, slots=True)
class TaskAudit:
    task_id: str
    kind: str
    cases: tuple[CaseResult, ...]
    error: str | None = None  # the audit could not run (unknown verifier, bad task)

    @property
    def ok(self) -> bool:
        return self.error is None and all(case.ok for case in self.cases)

    @property
    def reason(self) -> str | None:
        """Why the task would be dropped, or ``None`` when it passes."""
        if self.error is not None:
            return self.error
        failed = [case for case in self.cases if not case.ok]
        if not failed:
            return None
        return "; ".join(f"{c.name} ({c.expect.value}) scored {c.value:.3f}" for c in failed)


def _text(answer: JsonValue) -> str:
    return json.dumps(thaw(answer), ensure_ascii=False)


def audit_task(task: Task) -> TaskAudit:
    """Score the reference (plain, in ``<answer>`` tags, fenced) and every audit case of the task."""
    try:
        verifier = get_verifier(task.verifier.name)
        cases = verifier.audit_cases(task)
    except Exception as problem:  # the audit reports a broken task rather than stopping the run
        return TaskAudit(task.id, task.kind.value, (), f"{type(problem).__name__}: {problem}")
    reference = _text(task.answer)
    texts = [
        (AuditCase("reference", task.answer, Expect.EQUIVALENT), reference),
        (
            AuditCase("reference in tags", task.answer, Expect.EQUIVALENT),
            f"Done.\n<answer>{reference}</answer>",
        ),
        (AuditCase("reference fenced", task.answer, Expect.EQUIVALENT), f"So:\n```json\n{reference}\n```\n"),
    ]
    texts += [(case, _text(case.answer)) for case in cases]
    scores = score_many(task, [text for _, text in texts])  # one checker run for every case that needs one
    results = [
        CaseResult(case.name, case.expect, result.value, case.max_value, result.error)
        for (case, _), result in zip(texts, scores, strict=True)
    ]
    return TaskAudit(task.id, task.kind.value, tuple(results))

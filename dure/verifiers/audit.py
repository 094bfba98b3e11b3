"""The self-audit: a task is kept only if its verifier accepts every rewrite of the reference answer and
scores every wrong baseline as low as it deserves (see each verifier's ``audit_cases``)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from dure.scoring import score_across
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
    bounded: bool = False  # ``value`` is a ceiling of the score, which stays within the limit

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
    return audit_many([task])[0]


def audit_many(tasks: Sequence[Task]) -> list[TaskAudit]:
    """The audits of several tasks, each passing or failing as :func:`audit_task` does, with the answers of
    all of them judged together where their verifier can (one checker run for a repository's type-completion
    tasks). A wrong baseline whose score the verifier bounds within its limit more cheaply than it scores it
    (:meth:`~dure.verifiers.base.Verifier.ceilings_across`) is not scored: its result holds the bound."""
    planned = [_cases(task) for task in tasks]
    runnable = {index: item for index, item in enumerate(planned) if not isinstance(item, TaskAudit)}
    bounded = _bounded(tasks, runnable)
    work = [
        (tasks[index], [text for number, (_, text) in enumerate(item) if (index, number) not in bounded])
        for index, item in runnable.items()
    ]
    scored = iter(score_across(work))
    audits = []
    for index, (task, item) in enumerate(zip(tasks, planned, strict=True)):
        if isinstance(item, TaskAudit):
            audits.append(item)
            continue
        scores = iter(next(scored))
        results = []
        for number, (case, _) in enumerate(item):
            if (index, number) in bounded:
                ceiling = bounded[index, number]
                results.append(CaseResult(case.name, case.expect, ceiling, case.max_value, None, True))
            else:
                result = next(scores)
                results.append(CaseResult(case.name, case.expect, result.value, case.max_value, result.error))
        audits.append(TaskAudit(task.id, task.kind.value, tuple(results)))
    return audits


def _bounded(
    tasks: Sequence[Task], runnable: Mapping[int, list[tuple[AuditCase, str]]]
) -> dict[tuple[int, int], float]:
    """(task, case) -> a ceiling of the score, for the wrong baselines the verifier shows within limit."""
    by_verifier: dict[str, list[tuple[int, list[tuple[int, AuditCase]]]]] = {}
    for index, item in runnable.items():
        wrong = [(number, case) for number, (case, _) in enumerate(item) if case.expect is Expect.WRONG]
        if wrong:
            by_verifier.setdefault(tasks[index].verifier.name, []).append((index, wrong))
    found: dict[tuple[int, int], float] = {}
    for name, members in by_verifier.items():
        work = [(tasks[index], [(c.answer, c.max_value) for _, c in wrong]) for index, wrong in members]
        try:
            ceilings = get_verifier(name).ceilings_across(work)
        except Exception:  # no ceiling: the baselines are scored as usual
            continue
        for (index, wrong), given in zip(members, ceilings, strict=True):
            for (number, case), ceiling in zip(wrong, given, strict=True):
                within = CaseResult(case.name, case.expect, ceiling or 0.0, case.max_value, None).ok
                if ceiling is not None and within:
                    found[index, number] = ceiling
    return found


def _cases(task: Task) -> TaskAudit | list[tuple[AuditCase, str]]:
    """The audit's answers to the task with their texts, or the audit's error when there are none."""
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
    return texts + [(case, _text(case.answer)) for case in cases]

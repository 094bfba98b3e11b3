"""The numbers behind the report page, computed once from a :class:`Dataset` (and optionally its scores).

:func:`summarise` is pure and sorts everything, so the page (a pure function of the summary) is the same bytes
for the same inputs.
"""

from __future__ import annotations

import json
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from dure.report.data import Dataset, RunReport, ScoreRecord
from dure.tasks.frozen import thaw
from dure.tasks.model import Task

DIFFICULTY_FEATURES = ("hops", "files", "answer_size", "distance", "fan_in", "fan_out")
DEFAULT_SAMPLES = 3

Count = tuple[str, int]


@dataclass(frozen=True, slots=True)
class Distribution:
    """The values of one numeric feature (sorted), with the statistics a table shows."""

    name: str
    values: tuple[float, ...]

    @property
    def count(self) -> int:
        return len(self.values)

    @property
    def mean(self) -> float:
        return statistics.fmean(self.values) if self.values else 0.0

    @property
    def median(self) -> float:
        return statistics.median(self.values) if self.values else 0.0


@dataclass(frozen=True, slots=True)
class AuditRow:
    """What the audit recorded under one field for the tasks of one kind: in words, and a mean if numeric."""

    kind: str
    field: str
    tasks: int
    summary: str
    mean: float | None


@dataclass(frozen=True, slots=True)
class Sample:
    """One task shown in full: its prompt and its reference answer as pretty JSON."""

    kind: str
    id: str
    repository: str
    phase: int
    verifier: str
    prompt: str
    answer: str
    difficulty: str


@dataclass(frozen=True, slots=True)
class ScoreRow:
    """Scores of one kind or phase; ``mean`` counts a missing answer as 0, as ``dure score`` does."""

    label: str
    tasks: int
    answers: int  # answer lines: a task may have several samples
    missing: int  # tasks without any answer (they count as 0)
    errors: int
    passed: int  # answer lines that passed
    pass_rate: float  # mean over tasks of the share of its samples that passed
    mean: float  # mean over tasks of its samples' mean score


@dataclass(frozen=True, slots=True)
class ScoreSummary:
    """Pass rates and mean scores by kind and by phase, and the lines that matched no task."""

    by_kind: tuple[ScoreRow, ...]
    by_phase: tuple[ScoreRow, ...]
    total: ScoreRow
    malformed: int
    unknown: int
    values: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class DatasetSummary:
    """Everything the report page shows, already counted and sorted."""

    source: str
    layout: str
    group_label: str  # what a group is: shard, phase file, split or file
    tasks: int
    rows: int
    placements: int  # distinct (task, phase) pairs: a task placed in two phases counts in both
    kinds: tuple[str, ...]
    phases: tuple[int, ...]
    kind_phase: tuple[tuple[str, int, int], ...]  # (kind, phase, tasks)
    repositories: tuple[Count, ...]
    groups: tuple[Count, ...]  # rows per shard / phase file / split
    difficulty: tuple[Distribution, ...]
    answer_size: tuple[Distribution, ...]  # one per kind
    audit: tuple[AuditRow, ...]
    runs: tuple[RunReport, ...]
    samples: tuple[Sample, ...]
    facts: tuple[tuple[str, str], ...]
    scores: ScoreSummary | None = None

    @property
    def drop_reasons(self) -> tuple[Count, ...]:
        """Drops over every repository, by reason, most frequent first."""
        totals: Counter[str] = Counter()
        for run in self.runs:
            for _, reason, count in run.drops:
                totals[reason] += count
        return tuple(sorted(totals.items(), key=lambda item: (-item[1], item[0])))


def summarise(
    dataset: Dataset, scores: Sequence[ScoreRecord] | None = None, *, samples: int = DEFAULT_SAMPLES
) -> DatasetSummary:
    """The summary of ``dataset``; tasks listed twice (a task in two phase files) are counted once."""
    unique: dict[str, Task] = {}
    for entry in dataset.entries:
        unique.setdefault(entry.task.id, entry.task)
    tasks = [unique[key] for key in sorted(unique)]
    placed = {(e.task.id, e.phase): e.task.kind.value for e in dataset.entries}
    kind_phase = Counter((kind, phase) for (_, phase), kind in placed.items())
    return DatasetSummary(
        source=dataset.source,
        layout=dataset.layout.value,
        group_label=dataset.layout.group,
        tasks=len(tasks),
        rows=len(dataset.entries),
        placements=len(placed),
        kinds=tuple(sorted({t.kind.value for t in tasks})),
        phases=tuple(sorted({phase for _, phase in placed})),
        kind_phase=tuple((k, p, n) for (k, p), n in sorted(kind_phase.items())),
        repositories=_counted(f"{t.repo.name} {t.repo.version}" for t in tasks),
        groups=_counted(entry.group for entry in dataset.entries),
        difficulty=tuple(_distribution(name, tasks) for name in DIFFICULTY_FEATURES),
        answer_size=_answer_sizes(tasks),
        audit=_audit(tasks),
        runs=tuple(sorted(dataset.runs, key=lambda run: run.shard)),
        samples=_samples(tasks, samples),
        facts=dataset.facts,
        scores=None if scores is None else summarise_scores(tasks, scores),
    )


def _counted(labels: Iterable[str]) -> tuple[Count, ...]:
    return tuple(sorted(Counter(labels).items()))


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _distribution(name: str, tasks: Sequence[Task]) -> Distribution:
    values = (_number(task.difficulty.get(name)) for task in tasks)
    return Distribution(name, tuple(sorted(v for v in values if v is not None)))


def _answer_sizes(tasks: Sequence[Task]) -> tuple[Distribution, ...]:
    by_kind: dict[str, list[float]] = defaultdict(list)
    for task in tasks:
        size = _number(task.difficulty.get("answer_size"))
        by_kind[task.kind.value].append(size if size is not None else float(_answer_items(task)))
    return tuple(Distribution(kind, tuple(sorted(values))) for kind, values in sorted(by_kind.items()))


def _answer_items(task: Task) -> int:
    """The answer's size when difficulty does not say: items of a list or object, else 1."""
    answer = thaw(task.answer)
    return len(answer) if isinstance(answer, list | dict) else 1


def _audit(tasks: Sequence[Task]) -> tuple[AuditRow, ...]:
    fields: dict[tuple[str, str], list[object]] = defaultdict(list)
    for task in tasks:
        for key, value in thaw(task.audit).items():
            if isinstance(value, dict):
                for inner, item in value.items():
                    fields[task.kind.value, f"{key}.{inner}"].append(item)
            else:
                fields[task.kind.value, str(key)].append(value)
    return tuple(_audit_row(kind, name, values) for (kind, name), values in sorted(fields.items()))


def _audit_row(kind: str, name: str, values: list[object]) -> AuditRow:
    numbers = [_number(v) for v in values]
    if all(isinstance(v, bool) for v in values):
        share = sum(bool(v) for v in values) / len(values)
        return AuditRow(kind, name, len(values), f"true for {share:.0%}", share)
    if all(n is not None for n in numbers):
        found = [n for n in numbers if n is not None]
        text = f"mean {statistics.fmean(found):.3g}, min {min(found):g}, max {max(found):g}"
        return AuditRow(kind, name, len(values), text, statistics.fmean(found))
    labels = Counter(v if isinstance(v, str) else json.dumps(v, sort_keys=True) for v in values)
    text = ", ".join(f"{label}: {n}" for label, n in sorted(labels.items(), key=lambda i: (-i[1], i[0])))
    return AuditRow(kind, name, len(values), text, None)


def _samples(tasks: Sequence[Task], per_kind: int) -> tuple[Sample, ...]:
    """The first ``per_kind`` tasks of each kind by id: deterministic, and stable as a dataset grows."""
    taken: Counter[str] = Counter()
    chosen: list[Sample] = []
    for task in sorted(tasks, key=lambda t: (t.kind.value, t.id)):
        if taken[task.kind.value] >= per_kind:
            continue
        taken[task.kind.value] += 1
        difficulty = ", ".join(f"{k} {v}" for k, v in sorted(thaw(task.difficulty).items()))
        chosen.append(
            Sample(
                kind=task.kind.value,
                id=task.id,
                repository=f"{task.repo.name} {task.repo.version}",
                phase=task.phase,
                verifier=task.verifier.name,
                prompt=task.prompt,
                answer=json.dumps(thaw(task.answer), indent=2, sort_keys=True, ensure_ascii=False),
                difficulty=difficulty,
            )
        )
    return tuple(chosen)


def summarise_scores(tasks: Sequence[Task], records: Sequence[ScoreRecord]) -> ScoreSummary:
    """Scores matched to tasks by id. Several samples of a task all count: a task's pass rate is the share
    of its samples that passed and its score their mean, and a task without an answer counts as 0."""
    known = {task.id: task for task in tasks}
    found: dict[str, list[ScoreRecord]] = defaultdict(list)
    unknown = malformed = 0
    for record in records:
        if record.task_id is None:
            malformed += 1
        elif record.task_id not in known:
            unknown += 1
        else:
            found[record.task_id].append(record)
    by_kind: dict[str, list[Task]] = defaultdict(list)
    by_phase: dict[int, list[Task]] = defaultdict(list)
    for task in tasks:
        by_kind[task.kind.value].append(task)
        by_phase[task.phase].append(task)
    return ScoreSummary(
        by_kind=tuple(_score_row(label, group, found) for label, group in sorted(by_kind.items())),
        by_phase=tuple(_score_row(f"phase {p}", group, found) for p, group in sorted(by_phase.items())),
        total=_score_row("all", tasks, found),
        malformed=malformed,
        unknown=unknown,
        values=tuple(sorted(record.value for group in found.values() for record in group)),
    )


def _score_row(label: str, tasks: Sequence[Task], found: Mapping[str, list[ScoreRecord]]) -> ScoreRow:
    answered = [found[task.id] for task in tasks if found.get(task.id)]
    count = len(tasks)
    return ScoreRow(
        label=label,
        tasks=count,
        answers=sum(len(group) for group in answered),
        missing=count - len(answered),
        errors=sum(record.error is not None for group in answered for record in group),
        passed=sum(record.passed for group in answered for record in group),
        pass_rate=sum(sum(r.passed for r in g) / len(g) for g in answered) / count if count else 0.0,
        mean=sum(sum(r.value for r in g) / len(g) for g in answered) / count if count else 0.0,
    )

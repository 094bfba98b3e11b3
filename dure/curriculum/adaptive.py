"""Phase 4: the tasks a model solves sometimes, balanced across task kinds and repository categories.

A task solved in every sample teaches nothing more, one never solved gives no reward signal; those in
between carry the most information (``p * (1 - p)`` is largest at ``p = 0.5``). Picking them greedily would
let whichever kind or repository category has most such tasks dominate phase 4, so that training gains there
at the others' expense. Instead every stratum, a (task kind, repository category) pair, is filled best-first
in turns: round one takes each stratum's most informative task, round two the second, and so on, up to an
equal quota per stratum and an optional overall size. Everything is deterministic; the seed only breaks
ties between equally informative tasks.
"""

from __future__ import annotations

import hashlib
import math
import re
import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache, cached_property
from pathlib import Path

from dure.corpus.manifest import canonical_name, load_manifest
from dure.curriculum.phases import CurriculumError
from dure.tasks.codec import iter_lines, loads
from dure.tasks.model import Task

UNCATEGORISED = "uncategorised"
DEFAULT_CORPORA = ("default", "main")
_VERSIONED = re.compile(r"(?P<name>.+?)-\d[\w.+!-]*")  # "pluggy-1.7.0", a local checkout's folder name


@dataclass(frozen=True, slots=True)
class PassRate:
    """How one task fared over its scored samples."""

    task_id: str
    samples: int
    passed: int
    mean_value: float

    @property
    def rate(self) -> float:
        """The fraction of samples that passed."""
        return self.passed / self.samples

    @property
    def informativeness(self) -> float:
        """``p * (1 - p)``: the variance of the pass/fail reward, 0 for tasks always or never solved."""
        return self.rate * (1.0 - self.rate)


@dataclass(frozen=True, slots=True)
class Scores:
    """A ``dure score --out`` file read into pass rates; ``unattributed`` counts lines without a task id
    (answer lines that could not be read, hence belong to no task)."""

    rates: Mapping[str, PassRate]
    unattributed: int = 0


def read_scores(path: Path | str) -> Scores:
    """Pass rates per task from the JSONL ``dure score TASKS ANSWERS --out SCORES`` writes (one line per
    scored answer, several per task when several samples were scored). A line that is not such a record is a
    :class:`CurriculumError` naming the file and line: a damaged file would give wrong rates silently."""
    samples: dict[str, list[tuple[bool, float]]] = defaultdict(list)
    unattributed = 0
    for number, text in iter_lines(path):
        where = f"{path}:{number}"
        try:
            data = loads(text)
        except (ValueError, RecursionError) as problem:
            raise CurriculumError(f"{where}: not JSON: {problem}") from None
        if not isinstance(data, dict):
            raise CurriculumError(f"{where}: expected a JSON object, got {type(data).__name__}")
        task_id, passed, value = data.get("task_id", ...), data.get("passed"), data.get("value")
        if task_id is None:
            unattributed += 1
            continue
        if not isinstance(task_id, str) or not task_id:
            raise CurriculumError(f"{where}: task_id: expected a task id string or null, got {task_id!r}")
        if not isinstance(passed, bool):
            raise CurriculumError(f"{where}: passed: expected true or false, got {passed!r}")
        if not isinstance(value, int | float) or isinstance(value, bool) or not 0.0 <= value <= 1.0:
            raise CurriculumError(f"{where}: value: expected a number in [0, 1], got {value!r}")
        samples[task_id].append((passed, float(value)))
    rates = {
        task_id: PassRate(
            task_id,
            len(results),
            sum(passed for passed, _ in results),
            math.fsum(value for _, value in results) / len(results),
        )
        for task_id, results in sorted(samples.items())
    }
    return Scores(rates, unattributed)


def pass_rates(path: Path | str) -> dict[str, PassRate]:
    """Pass rate and mean score value of every task in a scores file (see :func:`read_scores`)."""
    return dict(read_scores(path).rates)


@cache
def repository_categories(corpora: tuple[str, ...] = DEFAULT_CORPORA) -> Mapping[str, str]:
    """Repository name (registry normal form) to its ``domain`` in the given manifests; the first manifest
    that lists a package decides."""
    found: dict[str, str] = {}
    for corpus in corpora:
        for spec in load_manifest(corpus).packages:
            found.setdefault(canonical_name(spec.name), spec.domain)
    return found


def category_of(repo_name: str, categories: Mapping[str, str]) -> str:
    """The repository's category: its manifest domain, also for a ``name-1.2.3`` folder name; else
    :data:`UNCATEGORISED`."""
    name = canonical_name(repo_name)
    if name in categories:
        return categories[name]
    versioned = _VERSIONED.fullmatch(name)
    if versioned is not None:
        return categories.get(versioned["name"], UNCATEGORISED)
    return UNCATEGORISED


class Verdict(StrEnum):
    """What phase 4 made of a task; the values are published names."""

    KEPT = "kept"
    OVER_QUOTA = "over-quota"  # sometimes solved, but its stratum's quota or the size cap was reached
    ALWAYS = "always-solved"  # pass rate at or above the band's top
    NEVER = "never-solved"  # pass rate at or below the band's bottom
    FEW_SAMPLES = "too-few-samples"
    UNSCORED = "unscored"


@dataclass(frozen=True, slots=True)
class AdaptiveSettings:
    """Phase-4 choices: keep pass rates strictly inside ``band``, judge tasks with ``min_samples`` or more,
    at most ``per_stratum`` tasks per (kind, category) and ``size`` in all, ``seed`` for ties.

    Without ``per_stratum``, the quota is the median number (rounded up) of sometimes-solved tasks per
    stratum, unless ``size`` is given: then the strata are filled in turns until ``size`` tasks are kept.
    """

    band: tuple[float, float] = (0.0, 1.0)
    min_samples: int = 2
    per_stratum: int | None = None
    size: int | None = None
    seed: int = 0

    def __post_init__(self) -> None:
        low, high = self.band
        if not 0.0 <= low < high <= 1.0:
            raise CurriculumError(f"band: need 0 <= low < high <= 1, got {low} and {high}")
        if self.min_samples < 1:
            raise CurriculumError(f"min_samples: need at least 1, got {self.min_samples}")
        for name in ("per_stratum", "size"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise CurriculumError(f"{name}: need at least 1, got {value}")


@dataclass(frozen=True, slots=True)
class Judgement:
    """Phase 4's verdict on one task, with its pass rate and the reason in words; ``rank`` is the task's
    place (0 best) among the sometimes-solved tasks of its stratum."""

    task_id: str
    kind: str
    category: str
    verdict: Verdict
    rate: PassRate | None
    rank: int | None
    reason: str


@dataclass(frozen=True, slots=True)
class StratumReport:
    """Counts for one kind or one category: tasks, what happened to them, and the mean pass rate of those
    scored (where the model stands) and of those kept."""

    name: str
    tasks: int
    verdicts: Mapping[Verdict, int]
    mean_rate_scored: float | None
    mean_rate_kept: float | None

    @property
    def in_band(self) -> int:
        """Tasks solved sometimes: kept or over quota."""
        return self.verdicts.get(Verdict.KEPT, 0) + self.verdicts.get(Verdict.OVER_QUOTA, 0)


@dataclass(frozen=True)  # no slots: judgement() caches its index in the instance
class Selection:
    """Phase 4: the kept task ids in selection order (strata interleaved, best first), a judgement per task
    (sorted by id), the quota used, and scored ids that name no task."""

    settings: AdaptiveSettings
    quota: int | None
    kept: tuple[str, ...]
    judgements: tuple[Judgement, ...]
    unknown: tuple[str, ...] = ()
    unattributed: int = 0

    @cached_property
    def _by_id(self) -> dict[str, Judgement]:
        return {judgement.task_id: judgement for judgement in self.judgements}

    def judgement(self, task_id: str) -> Judgement | None:
        """The judgement on a task, if it was among the tasks judged."""
        return self._by_id.get(task_id)

    def report(self, by: str) -> list[StratumReport]:
        """Counts per ``"kind"`` or per ``"category"``, sorted by name."""
        if by not in ("kind", "category"):
            raise ValueError(f"report by 'kind' or 'category', not {by!r}")
        groups: dict[str, list[Judgement]] = defaultdict(list)
        for judgement in self.judgements:
            groups[judgement.kind if by == "kind" else judgement.category].append(judgement)
        return [_stratum_report(name, groups[name]) for name in sorted(groups)]


def _stratum_report(name: str, judgements: Sequence[Judgement]) -> StratumReport:
    verdicts: dict[Verdict, int] = defaultdict(int)
    for judgement in judgements:
        verdicts[judgement.verdict] += 1
    scored = [j.rate.rate for j in judgements if j.rate is not None]
    kept = [j.rate.rate for j in judgements if j.verdict is Verdict.KEPT and j.rate is not None]
    counts = {verdict: verdicts[verdict] for verdict in Verdict if verdicts[verdict]}
    return StratumReport(name, len(judgements), counts, _mean(scored), _mean(kept))


def _mean(values: Sequence[float]) -> float | None:
    return math.fsum(values) / len(values) if values else None


def _ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def _tie(seed: int, task_id: str) -> str:
    return hashlib.sha256(f"{seed}\0{task_id}".encode()).hexdigest()


def _tally(rate: PassRate) -> str:
    samples = "1 sample" if rate.samples == 1 else f"{rate.samples} samples"
    return f"passed {rate.passed} of {samples} (rate {rate.rate:.2f})"


def _screen(rate: PassRate | None, settings: AdaptiveSettings) -> tuple[Verdict, str] | None:
    """The verdict on a task that is not sometimes solved, or None for one that is."""
    low, high = settings.band
    if rate is None:
        return Verdict.UNSCORED, "not judged: no scored samples"
    if rate.samples < settings.min_samples:
        return Verdict.FEW_SAMPLES, f"not judged: {_tally(rate)}, {settings.min_samples} needed"
    if rate.rate <= low:
        why = "never solved" if rate.passed == 0 else f"too hard, rate not above the band's {low:g}"
        return Verdict.NEVER, f"dropped, {why}: {_tally(rate)}"
    if rate.rate >= high:
        why = (
            "always solved"
            if rate.passed == rate.samples
            else f"too easy, rate not below the band's {high:g}"
        )
        return Verdict.ALWAYS, f"dropped, {why}: {_tally(rate)}"
    return None


def _quota(settings: AdaptiveSettings, sizes: Iterable[int]) -> int | None:
    """The per-stratum cap: as set; else none when a size is set; else the median stratum size (rounded
    up), so the strata larger than most are cut down to the typical one."""
    listed = list(sizes)
    if settings.per_stratum is not None or settings.size is not None or not listed:
        return settings.per_stratum
    return max(1, math.ceil(statistics.median(listed)))


def _fill(
    strata: Mapping[tuple[str, str], list[PassRate]], quota: int | None, settings: AdaptiveSettings
) -> tuple[list[str], dict[str, tuple[int, int]]]:
    """Rank each stratum best-first and take the strata in turns (round r takes every stratum's r-th best,
    most informative first) up to the quota and size. Returns the chosen ids in order and, per candidate,
    its rank and its stratum's size."""
    order: list[tuple[int, float, int, str, str]] = []
    ranks: dict[str, tuple[int, int]] = {}
    for members in strata.values():
        keys = {r.task_id: (-r.informativeness, -r.samples, _tie(settings.seed, r.task_id)) for r in members}
        members.sort(key=lambda r: keys[r.task_id])
        for rank, rate in enumerate(members):
            ranks[rate.task_id] = (rank, len(members))
            if quota is None or rank < quota:
                order.append((rank, *keys[rate.task_id], rate.task_id))
    order.sort()
    return [entry[-1] for entry in order][: settings.size], ranks


def adaptive(
    tasks: Iterable[Task],
    rates: Mapping[str, PassRate],
    *,
    settings: AdaptiveSettings | None = None,
    categories: Mapping[str, str] | None = None,
    unattributed: int = 0,
) -> Selection:
    """Choose phase 4 from ``tasks`` given their pass ``rates`` (see the module docstring for the rule).

    ``categories`` maps repository names to categories (default: the shipped manifests' domains).
    """
    settings = settings or AdaptiveSettings()
    categories = repository_categories() if categories is None else categories
    ordered = sorted(tasks, key=lambda task: task.id)
    where = {task.id: (task.kind.value, category_of(task.repo.name, categories)) for task in ordered}
    screened = {task.id: _screen(rates.get(task.id), settings) for task in ordered}
    strata: dict[tuple[str, str], list[PassRate]] = defaultdict(list)
    for task in ordered:
        if screened[task.id] is None:
            strata[where[task.id]].append(rates[task.id])
    quota = _quota(settings, (len(members) for members in strata.values()))
    chosen, ranks = _fill(strata, quota, settings)
    kept = set(chosen)
    judgements: list[Judgement] = []
    for task in ordered:
        kind, category = where[task.id]
        rate, screen = rates.get(task.id), screened[task.id]
        if screen is not None or rate is None:
            verdict, reason = screen or (Verdict.UNSCORED, "not judged: no scored samples")
            judgements.append(Judgement(task.id, kind, category, verdict, rate, None, reason))
            continue
        rank, size = ranks[task.id]
        place = f"{_ordinal(rank + 1)} of {size} in stratum ({kind}, {category})"
        if task.id in kept:
            verdict, reason = Verdict.KEPT, f"kept: {_tally(rate)}, {place}"
        else:
            limit = f"over its quota {quota}" if quota is not None and rank >= quota else "size reached"
            verdict, reason = Verdict.OVER_QUOTA, f"not kept: {_tally(rate)}, {place}, {limit}"
        judgements.append(Judgement(task.id, kind, category, verdict, rate, rank, reason))
    known = set(where)
    unknown = tuple(sorted(task_id for task_id in rates if task_id not in known))
    return Selection(settings, quota, tuple(chosen), tuple(judgements), unknown, unattributed)

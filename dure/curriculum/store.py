"""Reading the tasks, building the curriculum and writing it: ``phase-N.jsonl`` files and ``curriculum.json``.

Everything is read and checked before anything is written, every file is written atomically, and all output
is sorted, so the same input gives byte-identical files.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dure.curriculum.adaptive import (
    DEFAULT_CORPORA,
    AdaptiveSettings,
    Scores,
    Selection,
    StratumReport,
    adaptive,
    category_of,
    repository_categories,
)
from dure.curriculum.phases import CurriculumError, Placement, assign
from dure.files import write_atomic
from dure.tasks.codec import encode_task, read_tasks
from dure.tasks.model import Task

PHASES = (1, 2, 3, 4)
REPORT_FILE = "curriculum.json"
FORMAT_VERSION = 1


def phase_file(phase: int) -> str:
    """The file name of a phase's tasks."""
    return f"phase-{phase}.jsonl"


def task_files(path: Path | str) -> list[Path]:
    """The task files ``path`` designates: itself if a file; ``tasks/*.jsonl`` of a ``dure generate``
    output directory; the phase 1-3 files of a ``dure curriculum`` directory; else the ``*.jsonl`` files of a
    directory. Sorted, so the order is reproducible."""
    path = Path(path)
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise CurriculumError(f"{path}: no such file or directory")
    folder = path / "tasks" if (path / "tasks").is_dir() else path
    found = sorted(folder.glob("*.jsonl"))
    if (folder / REPORT_FILE).is_file():  # a curriculum: its phase-4 mix repeats tasks of phases 1-3
        found = [file for file in found if file.name != phase_file(4)]
    if not found:
        raise CurriculumError(f"{path}: no task files (expected a .jsonl file or a directory of them)")
    return found


def load_tasks(path: Path | str) -> list[Task]:
    """Every task of a task file or directory (see :func:`task_files`); a task id seen twice is an error."""
    tasks: list[Task] = []
    seen: dict[str, Path] = {}
    for file in task_files(path):
        for task in read_tasks(file):
            if task.id in seen:
                raise CurriculumError(
                    f"{file}: task id {task.id!r} appears more than once (also in {seen[task.id]})"
                )
            seen[task.id] = file
            tasks.append(task)
    return tasks


@dataclass(frozen=True, slots=True)
class Curriculum:
    """Tasks sorted by id, their phase 1-3 placements (same order), their repository categories, and phase 4
    when pass rates were given."""

    tasks: tuple[Task, ...]
    placements: tuple[Placement, ...]
    categories: tuple[str, ...]
    selection: Selection | None = None
    corpora: tuple[str, ...] = DEFAULT_CORPORA

    def phase(self, number: int) -> list[Task]:
        """A phase's tasks with ``phase`` set to it: phases 1-3 sorted by id, phase 4 in selection order."""
        if number == 4:
            if self.selection is None:
                return []
            by_id = {task.id: task for task in self.tasks}
            return [dataclasses.replace(by_id[task_id], phase=4) for task_id in self.selection.kept]
        return [
            dataclasses.replace(task, phase=placement.phase)
            for task, placement in zip(self.tasks, self.placements, strict=True)
            if placement.phase == number
        ]


def make_curriculum(
    tasks: Iterable[Task],
    scores: Scores | None = None,
    *,
    settings: AdaptiveSettings | None = None,
    corpora: tuple[str, ...] = DEFAULT_CORPORA,
) -> Curriculum:
    """Place every task in phases 1-3 and, given ``scores``, choose phase 4 (see :func:`adaptive`)."""
    ordered = tuple(sorted(tasks, key=lambda task: task.id))
    categories = repository_categories(corpora)
    selection = None
    if scores is not None:
        selection = adaptive(
            ordered,
            scores.rates,
            settings=settings,
            categories=categories,
            unattributed=scores.unattributed,
        )
    return Curriculum(
        tasks=ordered,
        placements=tuple(assign(ordered)),
        categories=tuple(category_of(task.repo.name, categories) for task in ordered),
        selection=selection,
        corpora=corpora,
    )


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 6)


def _stratum_json(report: StratumReport) -> dict[str, Any]:
    return {
        "tasks": report.tasks,
        "in_band": report.in_band,
        **{verdict.value: count for verdict, count in sorted(report.verdicts.items())},
        "mean_pass_rate_scored": _round(report.mean_rate_scored),
        "mean_pass_rate_kept": _round(report.mean_rate_kept),
    }


def _placement_json(curriculum: Curriculum, index: int) -> dict[str, Any]:
    task, placement = curriculum.tasks[index], curriculum.placements[index]
    record: dict[str, Any] = {
        "id": task.id,
        "kind": task.kind.value,
        "repo": task.repo.name,
        "category": curriculum.categories[index],
        "phase": placement.phase,
        "reason": placement.reason,
    }
    if task.phase != placement.phase:
        record["stamped_phase"] = task.phase
    judgement = curriculum.selection.judgement(task.id) if curriculum.selection else None
    if judgement is not None:
        rate = judgement.rate
        record["phase_4"] = {
            "verdict": judgement.verdict.value,
            "reason": judgement.reason,
            "pass_rate": None if rate is None else _round(rate.rate),
            "mean_value": None if rate is None else _round(rate.mean_value),
            "samples": 0 if rate is None else rate.samples,
            "stratum": {"kind": judgement.kind, "category": judgement.category},
            "rank": judgement.rank,
        }
    return record


def curriculum_document(curriculum: Curriculum) -> dict[str, Any]:
    """What ``curriculum.json`` holds: settings, counts per phase and kind, every placement, phase 4's
    report."""
    selection = curriculum.selection
    phases: dict[str, dict[str, int]] = {}
    for number in PHASES:
        kinds = Counter(task.kind.value for task in curriculum.phase(number))
        phases[str(number)] = dict(sorted(kinds.items()))
    settings: dict[str, Any] = {"corpora": list(curriculum.corpora), "adaptive": None}
    adaptive_report: dict[str, Any] | None = None
    if selection is not None:
        chosen = selection.settings
        settings["adaptive"] = {
            "band": list(chosen.band),
            "min_samples": chosen.min_samples,
            "per_stratum": chosen.per_stratum,
            "size": chosen.size,
            "seed": chosen.seed,
        }
        adaptive_report = {
            "quota_per_stratum": selection.quota,
            "kept": len(selection.kept),
            "unknown_task_ids": list(selection.unknown),
            "unattributed_score_lines": selection.unattributed,
            "by_kind": {r.name: _stratum_json(r) for r in selection.report("kind")},
            "by_category": {r.name: _stratum_json(r) for r in selection.report("category")},
        }
    return {
        "format": FORMAT_VERSION,
        "settings": settings,
        "tasks": len(curriculum.tasks),
        "phases": phases,
        "files": [phase_file(n) for n in PHASES if n < 4 or selection is not None],
        "restamped": sum(
            t.phase != p.phase for t, p in zip(curriculum.tasks, curriculum.placements, strict=True)
        ),
        "phase_4": adaptive_report,
        "placements": [_placement_json(curriculum, index) for index in range(len(curriculum.tasks))],
    }


def write_curriculum(out: Path | str, curriculum: Curriculum) -> dict[str, Any]:
    """Write ``phase-1.jsonl`` .. ``phase-3.jsonl`` (empty phases too), ``phase-4.jsonl`` when phase 4 was
    chosen (a stale one is removed otherwise), and ``curriculum.json`` last. Returns the document written."""
    out = Path(out)
    document = curriculum_document(curriculum)  # computed first: a problem leaves nothing half-written
    for number in PHASES:
        target = out / phase_file(number)
        if number == 4 and curriculum.selection is None:
            target.unlink(missing_ok=True)
            continue
        write_atomic(target, "".join(encode_task(task) + "\n" for task in curriculum.phase(number)))
    text = json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False, allow_nan=False)
    write_atomic(out / REPORT_FILE, text + "\n")
    return document


def phase_counts(curriculum: Curriculum) -> Mapping[int, Counter[str]]:
    """Tasks per kind in each phase."""
    return {number: Counter(task.kind.value for task in curriculum.phase(number)) for number in PHASES}

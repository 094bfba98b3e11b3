"""Curriculum phases (see DESIGN.md, "Curriculum").

Phases 1-3 follow from each task's layer and difficulty features (:func:`assign`), so they are reproducible
and every placement comes with its reason. Phase 4 mixes tasks adaptively from measured pass rates
(:func:`adaptive`): the tasks a model solves sometimes, balanced across task kinds and repository categories.
"""

from __future__ import annotations

from dure.curriculum.adaptive import (
    DEFAULT_CORPORA,
    UNCATEGORISED,
    AdaptiveSettings,
    Judgement,
    PassRate,
    Scores,
    Selection,
    StratumReport,
    Verdict,
    adaptive,
    category_of,
    pass_rates,
    read_scores,
    repository_categories,
)
from dure.curriculum.phases import CurriculumError, Placement, assign, place
from dure.curriculum.store import (
    Curriculum,
    curriculum_document,
    load_tasks,
    make_curriculum,
    phase_file,
    task_files,
    write_curriculum,
)

__all__ = [
    "DEFAULT_CORPORA",
    "UNCATEGORISED",
    "AdaptiveSettings",
    "Curriculum",
    "CurriculumError",
    "Judgement",
    "PassRate",
    "Placement",
    "Scores",
    "Selection",
    "StratumReport",
    "Verdict",
    "adaptive",
    "assign",
    "category_of",
    "curriculum_document",
    "load_tasks",
    "make_curriculum",
    "pass_rates",
    "phase_file",
    "place",
    "read_scores",
    "repository_categories",
    "task_files",
    "write_curriculum",
]

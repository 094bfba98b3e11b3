"""Phases 1-3: a pure function of a task's layer and difficulty features, explained in words.

The rule itself is :func:`dure.generators.difficulty.phase_of` (the generators stamp ``task.phase`` with it),
so a task lands in the same phase here as when it was generated. This module adds the sentence that says why,
so a trainer can check any placement by reading it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from dure.errors import DureError
from dure.generators.difficulty import SHORT_CHAIN, phase_of
from dure.tasks.model import Task

FEATURES = ("hops", "files", "answer_size", "fan_in", "fan_out", "distance")
LONG_CHAIN = 10  # Layer-2 hops from which a chain is long (phase 3)
MANY_FILES = 5  # Layer-2 files beyond which a task is cross-module (phase 3)
_DEFAULTS = {"hops": 0, "files": 1}  # what phase_of assumes when a feature is not recorded


class CurriculumError(DureError):
    """Input the curriculum cannot use: a task or score line that is malformed, or no tasks where some were
    expected. Names the file and line (or the task) at fault."""


@dataclass(frozen=True, slots=True)
class Placement:
    """Where one task goes in phases 1-3 and why (``reason`` starts with ``phase N:``)."""

    task_id: str
    phase: int
    reason: str


def difficulty_of(task: Task) -> dict[str, int]:
    """The task's recorded difficulty features, checked to be non-negative integers."""
    found: dict[str, int] = {}
    for name in FEATURES:
        if name not in task.difficulty:
            continue
        value = task.difficulty[name]
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise CurriculumError(
                f"task {task.id}: difficulty.{name}: expected a non-negative integer, got {value!r}"
            )
        found[name] = value
    return found


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _why(layer: int, hops: int, files: int) -> tuple[int, str]:
    """The phase this module's reading of the rule gives, and the deciding features in words."""
    hop_text, file_text = _count(hops, "hop"), _count(files, "file")
    if layer == 1:
        if files <= 1 and hops <= SHORT_CHAIN:
            return 1, f"Layer 1, {file_text}, {hop_text} (at most {SHORT_CHAIN})"
        if files > 1:
            return 2, f"Layer 1, {file_text} (more than 1)"
        return 2, f"Layer 1, {file_text}, {hop_text} (more than {SHORT_CHAIN})"
    if hops >= LONG_CHAIN:
        return 3, f"Layer {layer}, {hop_text} ({LONG_CHAIN} or more)"
    if files > MANY_FILES:
        return 3, f"Layer {layer}, {file_text} (more than {MANY_FILES})"
    return 2, f"Layer {layer}, {hop_text} (fewer than {LONG_CHAIN}), {file_text} (at most {MANY_FILES})"


def place(task: Task) -> Placement:
    """The phase :func:`phase_of` gives the task, with a one-line explanation of the deciding features."""
    difficulty = difficulty_of(task)
    phase = phase_of(task.layer, difficulty)
    hops = difficulty.get("hops", _DEFAULTS["hops"])
    files = difficulty.get("files", _DEFAULTS["files"])
    implied, why = _why(task.layer, hops, files)
    if implied != phase:  # the rule moved on; still say which features it looked at
        why = f"Layer {task.layer}, {_count(hops, 'hop')}, {_count(files, 'file')}"
    missing = [name for name in ("hops", "files") if name not in difficulty]
    if missing:
        assumed = ", ".join(f"{name} {_DEFAULTS[name]}" for name in missing)
        why += f"; not recorded, taken as {assumed}"
    return Placement(task.id, phase, f"phase {phase}: {why}")


def assign(tasks: Iterable[Task]) -> list[Placement]:
    """One placement per task, in the order given; the same task always gets the same placement."""
    return [place(task) for task in tasks]

"""What ``dure export`` reads: a task JSONL file, a ``dure generate`` folder or a ``dure curriculum`` folder.

In a curriculum folder the phase of a task is the file it is in (``phase-N.jsonl``). Phase 4 there is a
mix drawn from the other phases, so a task of the mix also keeps its place in its own phase: the export's
``all`` config then holds every task once without reading the mix.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from dure.curriculum.phases import place
from dure.errors import DureError
from dure.tasks.codec import encode_task, read_tasks
from dure.tasks.model import Task

CURRICULUM_FILE = "curriculum.json"
MIX_PHASE = 4
_PHASE_FILE = re.compile(r"phase-(\d+)\.jsonl")


class ExportError(DureError):
    """The export cannot be made: unreadable input, no tasks, an output folder in the way."""


@dataclass(frozen=True, slots=True)
class InputFile:
    """One file read, by its path relative to TASKS (absolute paths would make exports differ by place)."""

    name: str
    sha256: str
    tasks: int


@dataclass(frozen=True, slots=True)
class Placed:
    """A task in one phase of the export."""

    task: Task
    phase: int


@dataclass(frozen=True, slots=True)
class Inputs:
    """Every task to export, each in the phases it belongs to, in a stable order."""

    layout: str  # "file", "generate" or "curriculum"
    placed: tuple[Placed, ...]
    files: tuple[InputFile, ...]
    mix_phase: int | None  # the curriculum's mixed phase, whose tasks also sit in their own phases
    curriculum: object = None  # curriculum.json's content, when there is one that parses


def _read(path: Path) -> list[Task]:
    try:
        return read_tasks(path)
    except (OSError, UnicodeDecodeError) as problem:
        reason = problem.strerror if isinstance(problem, OSError) and problem.strerror else str(problem)
        raise ExportError(f"{path}: cannot read: {reason}") from None


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _task_files(root: Path) -> tuple[str, list[Path]]:
    if (root / CURRICULUM_FILE).is_file() or any(_PHASE_FILE.fullmatch(p.name) for p in root.glob("*.jsonl")):
        return "curriculum", sorted(p for p in root.glob("phase-*.jsonl") if _PHASE_FILE.fullmatch(p.name))
    if (root / "tasks").is_dir():
        return "generate", sorted((root / "tasks").glob("*.jsonl"))
    return "generate", sorted(root.glob("*.jsonl"))


def read_inputs(source: Path, phases: frozenset[int] = frozenset()) -> Inputs:
    """The tasks of ``source`` placed in their phases (only ``phases``, when given); raises
    :class:`ExportError` / :class:`dure.tasks.errors.TaskError` naming the file and line at fault."""
    if not source.exists():
        raise ExportError(f"{source}: no such file or directory")
    if source.is_dir():
        layout, paths = _task_files(source)
        if not paths:
            raise ExportError(f"{source}: no task files (*.jsonl, tasks/*.jsonl or phase-N.jsonl) in it")
    else:
        layout, paths = "file", [source]
    base = source if source.is_dir() else source.parent
    files: list[InputFile] = []
    read: list[tuple[int | None, Task]] = []  # (phase of the file, or None: the task's own)
    for path in paths:
        tasks = _read(path)
        files.append(InputFile(path.relative_to(base).as_posix(), _digest(path), len(tasks)))
        match = _PHASE_FILE.fullmatch(path.name) if layout == "curriculum" else None
        read += [(int(match.group(1)) if match else None, task) for task in tasks]
    if not read:
        raise ExportError(f"{source}: no tasks to export (the task files are empty)")
    mix = MIX_PHASE if layout == "curriculum" else None
    placed = _place(read, mix)
    if phases:
        placed = [p for p in placed if p.phase in phases]
        if not placed:
            wanted = ", ".join(str(p) for p in sorted(phases))
            raise ExportError(f"{source}: no tasks in phase {wanted}")
    curriculum = _curriculum(source / CURRICULUM_FILE) if layout == "curriculum" else None
    return Inputs(layout, tuple(placed), tuple(files), mix, curriculum)


def _curriculum(path: Path) -> object:
    """The curriculum's own description, recorded in the manifest; a missing or broken one is left out."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _place(read: list[tuple[int | None, Task]], mix: int | None) -> list[Placed]:
    """Each task in each phase once; a task of the mix also in its own phase. Two different tasks under
    one id (a hand-edited file) are an error rather than a silent pick."""
    seen: dict[tuple[int, str], Task] = {}
    order: list[tuple[int, str]] = []
    home: dict[str, int] = {}

    def put(phase: int, task: Task) -> None:
        key = (phase, task.id)
        earlier = seen.get(key)
        if earlier is None:
            seen[key] = task
            order.append(key)
        elif earlier != task and encode_task(earlier) != encode_task(task):
            raise ExportError(f"task {task.id} appears twice in phase {phase} with different content")

    for phase, task in read:
        where = task.phase if phase is None else phase
        put(where, task)
        if where != mix:
            home.setdefault(task.id, where)
    if mix is not None:
        for phase, task in read:
            if phase == mix:
                own = home.get(task.id) or place(task).phase
                if own != mix:  # the mix's copy carries phase 4; in its own phase it carries that phase
                    put(own, dataclasses.replace(task, phase=own))
    return [Placed(seen[key], key[0]) for key in order]


__all__ = ["CURRICULUM_FILE", "MIX_PHASE", "ExportError", "InputFile", "Inputs", "Placed", "read_inputs"]

"""``dure workspace TASK_ID --tasks FILE --out DIR``: write the tree an agent works in for one task."""

from __future__ import annotations

from pathlib import Path

import click

from dure.cli._base import ExitCode, reports_errors
from dure.tasks.codec import read_tasks
from dure.tasks.errors import TaskError
from dure.workspace import materialise


@click.command()
@click.argument("task_id")
@click.option(
    "--tasks",
    "tasks_path",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="The task file (JSONL) holding TASK_ID.",
)
@click.option(
    "--out", required=True, type=click.Path(file_okay=False, path_type=Path), help="A new or empty directory."
)
@reports_errors
def workspace(task_id: str, tasks_path: Path, out: Path) -> int:
    """Materialise the workspace of TASK_ID: the pinned source tree with the task's patch applied."""
    found = [task for task in read_tasks(tasks_path) if task.id == task_id]
    if not found:
        raise TaskError("id", f"{tasks_path}: no task with id {task_id!r}")
    root = materialise(found[0], out)
    click.echo(f"{task_id}: workspace written to {root}")
    return int(ExitCode.OK)

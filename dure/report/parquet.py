"""Read the tasks back out of a ``dure export`` parquet file.

A row holds the task in ``reward_model.ground_truth`` (the task as JSON without its prompt) and the prompt as
chat messages in ``prompt``; the split comes from ``extra_info.split`` or else the file name
(``<split>-*.parquet``). A row whose ground truth is not a dure task (an unknown kind included) is an error
naming the file and row, not a silent skip.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import pyarrow.parquet as pq

from dure.integrations.core import task_of
from dure.report.data import Entry, ReportError, with_prompt
from dure.tasks.errors import TaskError
from dure.tasks.model import Task


def export_entries(path: Path) -> Iterator[Entry]:
    """The tasks of one export file, in row order, each with its split as the group."""
    try:
        rows = pq.read_table(path).to_pylist()
    except (OSError, ValueError) as problem:
        raise ReportError(path, f"cannot read parquet: {str(problem)[:200]}") from None
    default_split = path.name.split("-", 1)[0].removesuffix(".parquet")
    for number, row in enumerate(rows):
        task = _task(path, number, row)
        yield Entry(task, _split(row, default_split), _phase(row, task.phase))


def _task(path: Path, number: int, row: Mapping[str, object]) -> Task:
    reward_model = row.get("reward_model")
    truth = reward_model.get("ground_truth") if isinstance(reward_model, Mapping) else None
    if isinstance(truth, Mapping):
        truth = json.dumps(truth)
    if not isinstance(truth, str):
        raise ReportError(f"{path}: row {number}", "no reward_model.ground_truth string")
    try:
        task = task_of(truth)
    except TaskError as problem:
        raise ReportError(f"{path}: row {number}", f"ground truth is not a dure task: {problem}") from None
    return with_prompt(task, prompt_text(row.get("prompt")))


def prompt_text(prompt: object) -> str:
    """The prompt a row's messages carry: the user messages' contents (a plain string is taken as is)."""
    if isinstance(prompt, str):
        return prompt
    if not isinstance(prompt, Sequence):
        return ""
    messages = [m for m in prompt if isinstance(m, Mapping) and isinstance(m.get("content"), str)]
    users = [m for m in messages if m.get("role") == "user"] or messages
    return "\n\n".join(str(m["content"]) for m in users)


def _split(row: Mapping[str, object], default: str) -> str:
    extra = row.get("extra_info")
    split = extra.get("split") if isinstance(extra, Mapping) else None
    return split if isinstance(split, str) and split else default


def _phase(row: Mapping[str, object], default: int) -> int:
    """The phase the row is placed in (a task can be exported in two phases), else the task's own."""
    extra = row.get("extra_info")
    for value in (row.get("phase"), extra.get("phase") if isinstance(extra, Mapping) else None):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return default

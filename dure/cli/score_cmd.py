"""``dure score TASKS ANSWERS``: score an answer file against a task file; a summary by kind and phase."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import click

from dure.cli._base import ExitCode, reports_errors
from dure.curriculum import load_tasks
from dure.scoring import DEFAULT_TIMEOUT, BatchItem, score_batch
from dure.tasks.codec import decode_answer, iter_lines, read_tasks, score_to_json
from dure.tasks.errors import AnswerError, TaskError
from dure.tasks.model import Answer, Score, Task


@dataclass
class AnswerFile:
    """The answer lines matched to tasks, and what could not be matched."""

    items: list[BatchItem] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    malformed: list[tuple[int, str]] = field(default_factory=list)
    unknown: list[tuple[int, str]] = field(default_factory=list)


def read_answers(path: Path, tasks: dict[str, Task]) -> AnswerFile:
    found = AnswerFile()
    for number, text in iter_lines(path):
        try:
            line = decode_answer(text, source=str(path), line=number)
        except AnswerError as problem:
            found.malformed.append((number, str(problem)))
            continue
        task = tasks.get(line.task_id)
        if task is None:
            found.unknown.append((number, line.task_id))
            continue
        found.items.append((task, line if isinstance(line, Answer) else line.text))
        found.lines.append(number)
    return found


def summary_rows(tasks: dict[str, Task], scored: list[tuple[Task, Score]]) -> list[tuple[str, ...]]:
    """One row per (kind, phase): tasks, answers, missing, errors, passed, mean (missing answers count 0)."""
    values: dict[tuple[str, int], list[Score]] = defaultdict(list)
    answered: set[str] = set()
    for task, result in scored:
        values[task.kind.value, task.phase].append(result)
        answered.add(task.id)
    totals: Counter[tuple[str, int]] = Counter((t.kind.value, t.phase) for t in tasks.values())
    missing = Counter((t.kind.value, t.phase) for t in tasks.values() if t.id not in answered)
    rows: list[tuple[str, ...]] = []
    for key in sorted(totals):
        results = values.get(key, [])
        count = len(results) + missing[key]
        mean = sum(r.value for r in results) / count if count else 0.0
        errors = sum(r.error is not None for r in results)
        passed = sum(r.passed for r in results)
        rows.append((key[0], str(key[1]), str(totals[key]), str(len(results)), str(missing[key]), str(errors),
                     str(passed), f"{mean:.3f}"))  # fmt: skip
    return rows


def print_table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> None:
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        click.echo("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())


@click.command()
@click.argument("tasks_path", metavar="TASKS", type=click.Path(exists=True, path_type=Path))
@click.argument(
    "answers_path", metavar="ANSWERS", type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="Write one score per line here.")
@click.option("--workers", type=click.IntRange(min=0), default=None, help="Processes (0: score in this one).")
@click.option(
    "--timeout", type=click.FloatRange(min=0.01), default=DEFAULT_TIMEOUT, help="Seconds per answer."
)
@reports_errors
def score(tasks_path: Path, answers_path: Path, out: Path | None, workers: int | None, timeout: float) -> int:
    """Score the answers in ANSWERS against the tasks in TASKS (a JSONL file, or a `dure generate` or
    `dure curriculum` directory).

    An answer line is {"task_id": ..., "answer": <JSON>} or {"task_id": ..., "completion": "<free text>"}.
    Exits 1 when a line is malformed, names an unknown task, or a task has no answer.
    """
    listed = load_tasks(tasks_path) if tasks_path.is_dir() else read_tasks(tasks_path)
    tasks = {task.id: task for task in listed}
    if len(tasks) != len(listed):
        duplicate = Counter(task.id for task in listed).most_common(1)[0][0]
        raise TaskError("id", f"{tasks_path}: task id {duplicate!r} appears more than once")
    found = read_answers(answers_path, tasks)
    results = score_batch(found.items, workers=workers, timeout=timeout)
    for _, reason in found.malformed:
        click.echo(f"dure: {reason} (scored 0)", err=True)
    for number, task_id in found.unknown:
        click.echo(f"dure: {answers_path}:{number}: unknown task id {task_id!r}", err=True)
    if out is not None:
        write_scores(out, found, results)
    scored = [(task, result) for (task, _), result in zip(found.items, results, strict=True)]
    answered = {task.id for task, _ in scored}
    missing = sum(task_id not in answered for task_id in tasks)
    header = ("kind", "phase", "tasks", "answers", "missing", "errors", "passed", "mean")
    print_table(header, summary_rows(tasks, scored))
    counts = f"{len(results)} scored, {len(found.malformed)} malformed, {len(found.unknown)} unknown task ids"
    click.echo(f"{counts}, {missing} tasks without an answer")
    clean = not (found.malformed or found.unknown or missing)
    return int(ExitCode.OK if clean else ExitCode.FAILURE)


def write_scores(out: Path, found: AnswerFile, results: list[Score]) -> None:
    with out.open("w", encoding="utf-8", newline="\n") as stream:
        for number, ((task, _), result) in zip(
            found.lines, zip(found.items, results, strict=True), strict=True
        ):
            record = {"line": number, "task_id": task.id, "kind": task.kind.value, "phase": task.phase}
            stream.write(json.dumps({**record, **score_to_json(result)}, ensure_ascii=False) + "\n")
        for number, reason in found.malformed:
            record = {"line": number, "task_id": None, **score_to_json(Score.failed(reason))}
            stream.write(json.dumps(record, ensure_ascii=False) + "\n")

"""``dure curriculum TASKS --out DIR [--scores SCORES]``: curriculum phases, explained per task."""

from __future__ import annotations

from pathlib import Path

import click

from dure.cli._base import ExitCode, reports_errors
from dure.cli.score_cmd import print_table
from dure.curriculum import (
    DEFAULT_CORPORA,
    AdaptiveSettings,
    Curriculum,
    Selection,
    StratumReport,
    Verdict,
    load_tasks,
    make_curriculum,
    phase_file,
    read_scores,
    write_curriculum,
)
from dure.curriculum.store import PHASES, phase_counts

_VERDICT_COLUMNS = (
    ("unscored", Verdict.UNSCORED),
    ("few", Verdict.FEW_SAMPLES),
    ("never", Verdict.NEVER),
    ("always", Verdict.ALWAYS),
    ("over", Verdict.OVER_QUOTA),
    ("kept", Verdict.KEPT),
)


def shown_phases(curriculum: Curriculum) -> tuple[int, ...]:
    """Phases 1-3, and 4 when it was chosen."""
    return PHASES if curriculum.selection is not None else PHASES[:3]


def phase_rows(curriculum: Curriculum) -> list[tuple[str, ...]]:
    """One row per kind: tasks in each phase, then the number of tasks (phase 4 repeats tasks of 1-3)."""
    counts, phases = phase_counts(curriculum), shown_phases(curriculum)
    kinds = sorted({kind for counter in counts.values() for kind in counter})
    rows = [
        (kind, *(str(counts[n][kind]) for n in phases), str(sum(counts[n][kind] for n in PHASES[:3])))
        for kind in kinds
    ]
    totals = (str(sum(counts[n].values())) for n in phases)
    return [*rows, ("all", *totals, str(len(curriculum.tasks)))]


def balance_rows(reports: list[StratumReport]) -> list[tuple[str, ...]]:
    """One row per kind or category: tasks, each verdict, and the mean pass rate of the kept."""
    rows = []
    for report in reports:
        cells = (str(report.verdicts.get(verdict, 0)) for _, verdict in _VERDICT_COLUMNS)
        means = (_rate(report.mean_rate_scored), _rate(report.mean_rate_kept))
        rows.append((report.name, str(report.tasks), *cells, *means))
    return rows


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _print_selection(selection: Selection) -> None:
    columns = tuple(name for name, _ in _VERDICT_COLUMNS)
    for by in ("kind", "category"):
        click.echo()
        header = (by, "tasks", *columns, "pass(scored)", "pass(kept)")
        print_table(header, balance_rows(selection.report(by)))
    quota = "none" if selection.quota is None else str(selection.quota)
    size = selection.settings.size
    click.echo(
        f"\nphase 4: {len(selection.kept)} tasks kept; quota per (kind, category): {quota}"
        + (f"; size: {size}" if size is not None else "")
    )
    if selection.unknown:
        count = len(selection.unknown)
        ids = "1 scored task id is" if count == 1 else f"{count} scored task ids are"
        click.echo(f"dure: {ids} not in TASKS (ignored)", err=True)
    if selection.unattributed:
        click.echo(f"dure: {_lines(selection.unattributed)} without a task id (skipped)", err=True)


def _lines(count: int) -> str:
    return "1 score line" if count == 1 else f"{count} score lines"


@click.command()
@click.argument("tasks_path", metavar="TASKS", type=click.Path(exists=True, path_type=Path))
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True, metavar="DIR",
              help="Output directory: phase-N.jsonl and curriculum.json.")  # fmt: skip
@click.option("--scores", "scores_path", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Scores from `dure score TASKS ANSWERS --out SCORES`, several samples per task: "
                   "enables phase 4.")  # fmt: skip
@click.option("--band", type=(click.FloatRange(0, 1), click.FloatRange(0, 1)), default=(0.0, 1.0),
              show_default=True, metavar="LOW HIGH",
              help="Phase 4 keeps tasks whose pass rate is strictly between LOW and HIGH.")  # fmt: skip
@click.option("--min-samples", type=click.IntRange(1), default=2, show_default=True,
              help="Phase 4 judges only tasks with at least this many scored samples.")  # fmt: skip
@click.option("--per-stratum", type=click.IntRange(1), default=None,
              help="Phase-4 tasks per (kind, category) at most [default: the median stratum, "
                   "or no cap with --size].")  # fmt: skip
@click.option("--size", type=click.IntRange(1), default=None,
              help="Phase-4 tasks at most, strata filled in turns.")  # fmt: skip
@click.option("--seed", type=int, default=0, show_default=True,
              help="Breaks ties between equally informative tasks.")  # fmt: skip
@click.option("--corpus", "corpora", multiple=True,
              help="Manifest (name or .toml) whose domains are the repository categories (repeatable) "
                   "[default: default, main].")  # fmt: skip
@reports_errors
def curriculum(
    *,
    tasks_path: Path,
    out: Path,
    scores_path: Path | None,
    band: tuple[float, float],
    min_samples: int,
    per_stratum: int | None,
    size: int | None,
    seed: int,
    corpora: tuple[str, ...],
) -> int:
    """Split the tasks in TASKS (a JSONL file or a `dure generate` output directory) into curriculum phases.

    Phases 1-3 follow from each task's layer and difficulty features; phase 4, with --scores, keeps the tasks
    a model solves sometimes, balanced across task kinds and repository categories. Every placement and its
    reason is in DIR/curriculum.json.
    """
    if scores_path is None:
        context = click.get_current_context()
        given = [
            f"--{name.replace('_', '-')}"
            for name in ("band", "min_samples", "per_stratum", "size", "seed")
            if context.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT
        ]
        if given:
            raise click.UsageError(f"{', '.join(given)} choose phase 4 and need --scores")
    if band[0] >= band[1]:
        raise click.BadParameter(
            f"LOW must be below HIGH, got {band[0]:g} and {band[1]:g}", param_hint="--band"
        )
    settings = AdaptiveSettings(
        band=band, min_samples=min_samples, per_stratum=per_stratum, size=size, seed=seed
    )
    tasks = load_tasks(tasks_path)
    scores = read_scores(scores_path) if scores_path is not None else None
    made = make_curriculum(tasks, scores, settings=settings, corpora=corpora or DEFAULT_CORPORA)
    document = write_curriculum(out, made)
    print_table(("kind", *(f"phase {n}" for n in shown_phases(made)), "tasks"), phase_rows(made))
    if made.selection is not None:
        _print_selection(made.selection)
    if document["restamped"]:
        click.echo(f"{document['restamped']} tasks placed in another phase than the one they carried")
    written = [phase_file(n) for n in shown_phases(made)]
    click.echo(f"\nwrote {', '.join(written)} and curriculum.json to {out}")
    return int(ExitCode.OK)

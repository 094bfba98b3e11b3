"""``dure report DIR``: a static HTML page describing a dataset, and how answers scored when given scores."""

from __future__ import annotations

from pathlib import Path

import click

from dure.cli._base import ExitCode, reports_errors
from dure.report import DEFAULT_SAMPLES, write_report


@click.command()
@click.argument("path", metavar="DIR", type=click.Path(exists=True, path_type=Path))
@click.option(
    "--scores",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A scores file from 'dure score --out': adds pass rates by kind and phase.",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the page here (default DIR/report.html).",
)
@click.option(
    "--samples",
    type=click.IntRange(min=0),
    default=DEFAULT_SAMPLES,
    show_default=True,
    help="Sample tasks shown per kind.",
)
@reports_errors
def report(path: Path, scores: Path | None, out: Path | None, samples: int) -> int:
    """Write a static HTML report of the dataset in DIR.

    DIR is the output of 'dure generate', 'dure curriculum' or 'dure export', or one task JSONL file.
    """
    written, summary = write_report(path, out, scores=scores, samples=samples)
    click.echo(str(written))
    line = (
        f"{summary.tasks} tasks, {len(summary.repositories)} repositories, {len(summary.kinds)} kinds, "
        f"{len(summary.phases)} phases ({summary.layout})"
    )
    if summary.scores is not None:
        total = summary.scores.total
        line += f"; pass rate {total.pass_rate:.1%}, mean score {total.mean:.3f} over {total.tasks} tasks"
    click.echo(line)
    return int(ExitCode.OK)

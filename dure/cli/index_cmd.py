"""``dure index``: build the index of a directory or of every repository of a corpus."""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from dure.analyzers import RepoIndex, build_index
from dure.analyzers.export import write_graph
from dure.analyzers.model import Certainty
from dure.cli._base import ExitCode, reports_errors, skip_teardown
from dure.errors import DureError

if TYPE_CHECKING:
    from click._termui_impl import ProgressBar  # loaded by click.progressbar, for long runs only

PROGRESS_MINIMUM = 200  # files: below this a run is too short for a progress bar


class _ProgressBar:
    """A click progress bar on stderr, opened on the first report of a long enough run."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.bar: ProgressBar[int] | None = None

    def __call__(self, done: int, total: int) -> None:
        if total < PROGRESS_MINIMUM:
            return
        if self.bar is None:
            self.bar = click.progressbar(length=total, label=f"parsing {self.label}", file=sys.stderr)
            self.bar.__enter__()
        self.bar.update(done - self.bar.pos)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None


def _index_with_progress(
    root: Path,
    label: str,
    *,
    use_cache: bool,
    jedi: bool,
    report: Callable[[RepoIndex], None],
    retain: list[object] | None,
) -> RepoIndex:
    """Build the index of ``root`` and ``report`` it (while a helper may still write the cache)."""
    progress = _ProgressBar(label)

    def closed_then_reported(index: RepoIndex) -> None:
        progress.close()
        report(index)

    try:
        return build_index(
            root,
            cache=None if use_cache else False,
            progress=progress,
            jedi=jedi,
            meanwhile=closed_then_reported,
            retain=retain,
        )
    finally:
        progress.close()


def _summary(name: str, index: RepoIndex) -> str:
    counts = index.certainty_counts()
    stats = index.statistics
    cached = " (cached)" if stats.reused else ""
    return (
        f"{name}: {stats.files} files, {stats.lines} lines, {index.definition_count} definitions, "
        f"{index.call_site_count} call sites; edges {counts[Certainty.CERTAIN]} certain, "
        f"{counts[Certainty.POSSIBLE]} possible, {counts[Certainty.UNRESOLVED]} unresolved; "
        f"{len(index.diagnostics)} diagnostics; {stats.seconds:.2f} s{cached}"
        + (
            f"; jedi {index.jedi.resolved}/{index.jedi.sites} sites in {index.jedi.seconds:.2f} s"
            if index.jedi
            else ""
        )
    )


def _corpus_targets(corpus_name: str) -> list[tuple[str, Path]]:
    """``(label, root)`` of every repository of a corpus, fetched if needed."""
    from dure.corpus import resolve_repositories  # noqa: PLC0415 - 40 ms of imports indexing a PATH skips

    repositories = resolve_repositories(None, corpus=corpus_name, progress=lambda m: click.echo(m, err=True))
    return [(f"{r.name}-{r.version}" if r.version else r.name, r.root) for r in repositories]


@click.command()
@click.argument("path", required=False, type=click.Path(path_type=Path))
@click.option(
    "--corpus",
    "corpus_name",
    default=None,
    help="Index every repository of a manifest (default, main, FILE).",
)
@click.option(
    "--json",
    "json_out",
    type=click.Path(path_type=Path),
    default=None,
    help="Write the graph as JSON: a file for PATH, a directory (one file per repository) for --corpus.",
)
@click.option("--no-cache", is_flag=True, help="Ignore and do not write the index cache.")
@click.option(
    "--diagnostics/--no-diagnostics", default=False, help="Print every skipped file as path:line: reason."
)
@click.option("--jedi", is_flag=True, help="Let jedi propose possible targets for unresolved calls (slow).")
@reports_errors
def index(
    *,
    path: Path | None,
    corpus_name: str | None,
    json_out: Path | None,
    no_cache: bool,
    diagnostics: bool,
    jedi: bool,
) -> int:
    """Index PATH (a directory) or every repository of a corpus, and print a summary.

    Without PATH and --corpus, indexes the default corpus (fetching it on first use).
    """
    if path is not None and corpus_name is not None:
        raise click.UsageError("give PATH or --corpus, not both")
    if path is not None:
        if not path.is_dir():
            raise DureError(f"{path}: not a directory")
        targets = [(path.resolve().name, path)]
    else:
        targets = _corpus_targets(corpus_name or "default")
    failed = 0
    # One repository's build is kept to the end, where the process exits without freeing it (0.13 s on
    # Django); a corpus's builds are freed one by one, or they would add up.
    retain: list[object] | None = [] if len(targets) == 1 else None
    for label, root in targets:

        def report(built: RepoIndex, label: str = label) -> None:
            click.echo(_summary(label, built))
            if diagnostics:
                for diagnostic in built.diagnostics:
                    click.echo(f"  {diagnostic}", err=True)
            if json_out is not None:
                write_graph(built, json_out if path is not None else json_out / f"{label}.json")

        # The index lives until it is written: the cyclic collector need not walk its millions of objects.
        # They are made with collection off, and the first collection after it is back on would walk them
        # all (0.05 s on Django): they are frozen first.
        gc.disable()
        try:
            built = _index_with_progress(
                root, label, use_cache=not no_cache, jedi=jedi, report=report, retain=retain
            )
            if retain is not None:
                retain.append(built)
        except DureError as problem:
            failed += 1
            click.echo(f"dure: error: {label}: {problem}", err=True)
        except OSError as problem:
            failed += 1
            where = f"{problem.filename}: " if problem.filename else ""
            click.echo(f"dure: error: {label}: {where}{problem.strerror or problem}", err=True)
        finally:
            gc.freeze()
            gc.enable()
    if retain:
        skip_teardown(retain)
    return int(ExitCode.FAILURE if failed else ExitCode.OK)

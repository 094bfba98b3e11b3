"""``dure generate``: tasks from a corpus or from local directories, audited, in sharded JSONL."""

from __future__ import annotations

import os
import sys
from collections import Counter
from pathlib import Path

import click
from click._termui_impl import ProgressBar

from dure.cli._base import ExitCode, reports_errors
from dure.corpus import Repository
from dure.corpus.manifest import load_manifest
from dure.corpus.resolve import fetch_many
from dure.errors import DureError
from dure.generators import pipeline
from dure.generators._registry import generator_for, kinds_of_layer
from dure.generators.pipeline import RepoReport, RunSettings
from dure.tasks.model import LAYER_OF_KIND, TaskKind

DEFAULT_OUT = Path("dure-out")
DEFAULT_PER_REPO = 20


class _Bars:
    """One click progress bar per repository (serial runs), on stderr."""

    def __init__(self) -> None:
        self.name: str | None = None
        self.bar: ProgressBar[int] | None = None

    def __call__(self, name: str, done: int, wanted: int) -> None:
        if name != self.name:
            self.close()
            self.name = name
            self.bar = click.progressbar(length=wanted, label=f"{name:<20}", file=sys.stderr)
            self.bar.__enter__()
        assert self.bar is not None
        self.bar.update(done - self.bar.pos)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
        self.bar = None


def _kinds(layer: int, names: tuple[str, ...]) -> tuple[TaskKind, ...]:
    available = kinds_of_layer(layer)
    if not names:
        if not available:
            raise DureError(f"no generator produces Layer-{layer} tasks yet")
        return available
    chosen: list[TaskKind] = []
    for name in (part.strip() for text in names for part in text.split(",")):
        if not name:
            continue
        generator_for(name)  # an unknown kind is a clear error naming the known ones
        kind = TaskKind(name)
        if LAYER_OF_KIND[kind] != layer:
            raise DureError(f"task kind {name!r} belongs to Layer {LAYER_OF_KIND[kind]}, not {layer}")
        if kind not in chosen:
            chosen.append(kind)
    return tuple(chosen)


def _repositories(corpus: str | None, repos: tuple[Path, ...]) -> tuple[list[Repository], list[str]]:
    """The repositories to run on, and the packages that could not be fetched (reported, skipped)."""
    found: list[Repository] = []
    for path in repos:
        if not path.is_dir():
            raise DureError(f"{path}: not a directory")
        found.append(Repository(path.resolve().name, None, path.resolve()))
    if repos and corpus is None:
        return found, []
    manifest = load_manifest(corpus or "default")
    failures = []
    for outcome in fetch_many(manifest.packages, progress=lambda message: click.echo(message, err=True)):
        if outcome.root is None:
            failures.append(f"{outcome.spec.key}: {outcome.error}")
        else:
            found.append(Repository(outcome.spec.name, outcome.spec.version, outcome.root, outcome.spec))
    return found, failures


def _table(title: str, rows: dict[str, Counter[str]], columns: list[str]) -> list[str]:
    if not rows:
        return []
    width = max(len(title), *(len(r) for r in rows))
    head = f"{title:<{width}}  " + "  ".join(f"{c:>11}" for c in columns) + f"  {'total':>7}"
    lines = [head, "-" * len(head)]
    for name, counts in rows.items():
        cells = "  ".join(f"{counts.get(c, 0):>11}" for c in columns)
        lines.append(f"{name:<{width}}  {cells}  {sum(counts.values()):>7}")
    return lines


def summary(reports: list[RepoReport]) -> str:
    """The end-of-run summary: tasks by kind and phase, drops by reason, one line per repository."""
    tasks: dict[str, Counter[str]] = {}
    drops: dict[str, Counter[str]] = {}
    for report in reports:
        for kind, phases in report.tasks.items():
            tasks.setdefault(kind, Counter()).update({f"phase {p}": n for p, n in phases.items()})
        for kind, reasons in report.drops.items():
            drops.setdefault(kind, Counter()).update(reasons)
    phase_names = sorted({c for counts in tasks.values() for c in counts})
    reason_names = sorted({c for counts in drops.values() for c in counts})
    lines = [*_table("tasks", dict(sorted(tasks.items())), phase_names), ""]
    lines += [*_table("dropped", dict(sorted(drops.items())), reason_names), ""]
    for report in reports:
        lines.append(_repo_line(report))
    return "\n".join(lines)


def _one_line(text: str) -> str:
    """A multi-line reason (a traceback inside) as its first and last lines."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return lines[0] if len(lines) < 2 else f"{lines[0]} ... {lines[-1]}"


def _repo_line(report: RepoReport) -> str:
    if report.error is not None:
        return f"{report.name}: FAILED: {report.error}"
    trace = report.trace
    if trace.get("checked"):
        rate = trace.get("miss_rate") or 0.0
        traced = f"trace checked {trace['checked']}, missed {trace['misses']} ({100 * rate:.1f} %)"
    elif trace.get("error"):
        traced = f"trace not run: {_one_line(str(trace['error']))}"
    else:
        traced = "trace not needed"
    done = " (finished earlier)" if report.skipped else ""
    return f"{report.name}: {report.task_count} tasks{done}; {traced}"


@click.command()
@click.option("--layer", type=click.IntRange(1, 2), default=1, show_default=True, help="Task layer.")
@click.option("--corpus", default=None, help="A manifest: default, main or a .toml FILE (default: default).")
@click.option(
    "--repo",
    "repos",
    multiple=True,
    type=click.Path(path_type=Path),
    help="A local directory to generate from (repeatable; replaces the corpus unless --corpus is given).",
)
@click.option(
    "--kinds", multiple=True, help="Task kinds, comma-separated (default: every kind of the layer)."
)
@click.option("--per-repo", type=click.IntRange(1), default=DEFAULT_PER_REPO, show_default=True,
              help="Tasks of each kind per repository.")  # fmt: skip
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of every generator's choices.")
@click.option("--out", type=click.Path(path_type=Path), default=DEFAULT_OUT, show_default=True,
              help="Output directory: tasks/<repo>.jsonl and reports/<repo>.json.")  # fmt: skip
@click.option("--workers", type=click.IntRange(1), default=None,
              help="Repositories processed at once (default: the number of cores).")  # fmt: skip
@reports_errors
def generate(
    *,
    layer: int,
    corpus: str | None,
    repos: tuple[Path, ...],
    kinds: tuple[str, ...],
    per_repo: int,
    seed: int,
    out: Path,
    workers: int | None,
) -> int:
    """Generate audited tasks with exact answers from every repository of a corpus (or --repo DIRs).

    Finished repositories are skipped on a re-run with the same settings; an interrupted run resumes.
    """
    chosen = _kinds(layer, kinds)
    repositories, fetch_failures = _repositories(corpus, repos)
    for failure in fetch_failures:
        click.echo(f"dure: error: {failure}", err=True)
    settings = RunSettings(kinds=chosen, per_repo=per_repo, seed=seed)
    processes = workers if workers is not None else min(os.cpu_count() or 1, max(len(repositories), 1))
    bars = _Bars()

    def finished(report: RepoReport) -> None:
        bars.close()
        if processes > 1 or report.skipped or report.error:
            click.echo(_repo_line(report), err=True)

    reports = pipeline.generate(
        repositories,
        settings,
        out,
        workers=processes,
        on_report=finished,
        progress=bars if processes == 1 else None,
    )
    bars.close()
    click.echo(summary(reports))
    click.echo(f"\ntasks in {out / 'tasks'}")
    failed = fetch_failures or any(report.error for report in reports)
    return int(ExitCode.FAILURE if failed else ExitCode.OK)

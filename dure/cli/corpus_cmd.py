"""``dure corpus``: fetch and list the repositories of a manifest, and what running their tests needs."""

from __future__ import annotations

from pathlib import Path

import click

from dure.cache import cache_root
from dure.cli._base import ExitCode, reports_errors
from dure.corpus import cached_root, fetch_many, list_cached, load_manifest, select, sources_dir

CORPUS_HELP = "Manifest: a shipped name (default, main) or a path to a TOML file."


def _progress(message: str) -> None:
    click.echo(message, err=True)


@click.group()
def corpus() -> None:
    """Fetch and list corpus repositories."""


@corpus.command()
@click.argument("target", required=False)
@click.option("--corpus", "corpus_name", default="default", show_default=True, help=CORPUS_HELP)
@reports_errors
def fetch(target: str | None, corpus_name: str) -> int:
    """Download, verify and unpack source distributions into the cache.

    TARGET is a package of the manifest, a manifest (name or TOML file) or a local directory;
    without it, every package of the manifest. Cached packages need no network.
    """
    selection = select(target, corpus=corpus_name)
    if selection.directory is not None:
        click.echo(f"{selection.directory.name}\tlocal\t{selection.directory}")
        return int(ExitCode.OK)
    outcomes = fetch_many(selection.packages, progress=_progress)
    failed = 0
    for outcome in outcomes:
        if outcome.root is not None:
            click.echo(f"{outcome.spec.name}\t{outcome.spec.version}\t{outcome.root}")
        else:
            failed += 1
            click.echo(f"dure: error: {outcome.error}", err=True)
    if failed:
        click.echo(f"{failed} of {len(outcomes)} packages could not be fetched", err=True)
        return int(ExitCode.FAILURE)
    return int(ExitCode.OK)


@corpus.command(name="list")
@click.option("--corpus", "corpus_name", default="default", show_default=True, help=CORPUS_HELP)
@reports_errors
def list_(corpus_name: str) -> int:
    """Show each package of the manifest: name, version, whether it is cached, and where."""
    manifest = load_manifest(corpus_name)
    click.echo(f"# corpus {manifest.name}: {manifest.path}")
    click.echo(f"# cache: {sources_dir()}")
    cached = 0
    for spec in manifest.packages:
        root = cached_root(spec)
        cached += root is not None
        tests = "tests" if spec.has_tests else "no-tests"
        status = "cached" if root is not None else "missing"
        click.echo(f"{spec.name}\t{spec.version}\t{status}\t{tests}\t{root or '-'}")
    known = {spec.key for spec in manifest.packages}
    others = [source for source in list_cached() if source.root.name not in known]
    for source in others:
        click.echo(f"{source.name}\t{source.version}\tcached (not in {manifest.name})\t\t{source.root}")
    summary = f"{cached} of {len(manifest.packages)} packages cached"
    click.echo(f"{summary}; {len(others)} other cached sources under {_display(cache_root())}", err=True)
    return int(ExitCode.OK)


#: What every test run needs besides a package's own test dependencies (see ``dure.analyzers._requirements``).
TEST_RUNNERS = ("pytest", "coverage")


@corpus.command()
@click.option("--corpus", "corpus_name", default="default", show_default=True, help=CORPUS_HELP)
@reports_errors
def requirements(corpus_name: str) -> int:
    """Print what the test interpreter needs to run the tests of the manifest's packages, as a pip
    requirements file (``pip install -r``): the test runners, then each package's test dependencies."""
    manifest = load_manifest(corpus_name)
    click.echo(f"# test requirements of corpus {manifest.name} ({manifest.path})")
    click.echo("# for $DURE_TEST_PYTHON: pip install -r THIS_FILE")
    written = set(TEST_RUNNERS)
    for runner in TEST_RUNNERS:
        click.echo(runner)
    for spec in manifest.packages:
        if spec.tests is None:
            continue
        new = [dep for dep in spec.tests.deps if dep not in written]
        written.update(new)
        status = "" if spec.tests.status == "pass" else f" (tests {spec.tests.status})"
        click.echo(f"# {spec.name} {spec.version}{status}")
        for dep in new:
            click.echo(dep)
    return int(ExitCode.OK)


def _display(path: Path) -> str:
    home = Path.home()
    return f"~/{path.relative_to(home)}" if path.is_relative_to(home) else str(path)

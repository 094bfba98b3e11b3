#!/usr/bin/env python3
"""Speed benchmark of ``dure index`` against PyCG, Jarvis, pyan3 and a bare ``ast.parse``.

Every tool runs as its own subprocess on the same files: every ``.py`` file of the corpus package's import
package (``rich/``, ``django/``) as its source distribution ships it, copied into a clean tree so that a tool
given the directory (``dure index``) sees exactly the files the others are given as arguments. The sdist's
``tests/``, ``docs/``, ``extras/`` and build files lie outside the import package and are left out.

For each run: wall seconds, CPU seconds (user + system of that child), peak resident memory of that child
(``os.wait4``), status (ok, crash with its last error line, timeout, unavailable) and the edges the tool
reported, counted from its own output. The floor (``ast.parse``), dure's cold index (empty ``DURE_CACHE``)
and the baseline's run in rounds, alternating, reported as medians (``--rounds``, default 5): this machine's
speed drifts by a factor of two within minutes, and a ratio of two runs minutes apart measures that drift.
Then, on the last cold run's cache: warm (the same command again) and after one file changed (a comment
appended, then the file restored).

Usage::

    python benchmarks/index.py --setup        # one virtualenv per anchor tool, sources downloaded
    python benchmarks/index.py [--repos rich,django] [--tools ast,dure,pycg,jarviscg,pyan3]
                               [--timeout 600] [--out benchmarks/results/index.json]
                               [--baseline REV]   # also dure's source at git revision REV, cold
                               [--rounds 5]       # rounds of the floor and the cold runs

Everything downloaded lives under the cache directory: ``--cache-dir``, else ``$DURE_BENCH_CACHE``, else
``${XDG_CACHE_HOME:-~/.cache}/dure-bench`` (``venvs/<tool>``, ``sdists/``, ``sources/``, ``trees/``).
"""

from __future__ import annotations

import argparse
import compileall
import contextlib
import dataclasses
import datetime
import hashlib
import io
import json
import os
import platform
import re
import select
import shutil
import signal
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / "benchmarks" / "results" / "index.json"
DEFAULT_TOOLS = ("ast", "dure", "dure-jedi", "pycg", "jarviscg", "pyan3")
DEFAULT_REPOS = ("rich", "django")
PYPI_SIMPLE = "https://pypi.org/simple/{name}/"
MIB = 1024 * 1024

# ----------------------------------------------------------------------------------------------------
# What is measured
# ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Corpus:
    """A source distribution from PyPI, pinned by version and sha256."""

    name: str
    version: str
    sha256: str
    package: str  # the import package directory inside the sdist: the files every tool gets
    edited: str  # the file changed for dure's "one file changed" run, relative to the tree


CORPORA: Mapping[str, Corpus] = {
    corpus.name: corpus
    for corpus in (
        Corpus(
            "rich",
            "15.0.0",
            "edd07a4824c6b40189fb7ac9bc4c52536e9780fbbfbddf6f1e2502c31b068c36",
            "rich",
            "rich/console.py",
        ),
        Corpus(
            "django",
            "5.2.19",
            "ad03d8abc51dbff95ebf34b27123cf0c26a3b62db7ba0cd520783686362533d1",
            "django",
            "django/db/models/query.py",
        ),
    )
}


@dataclass(frozen=True)
class Tree:
    """The benchmark's copy of a corpus package: exactly the files every tool analyses."""

    corpus: Corpus
    root: Path
    files: tuple[str, ...]  # relative to root, forward slashes, sorted
    lines: int


@dataclass(frozen=True)
class EdgeCount:
    total: int
    internal: int  # caller and callee both inside the corpus package
    by_certainty: Mapping[str, int] | None = None


@dataclass(frozen=True)
class Measurement:
    """How one child process ran."""

    status: str  # ok | crash | timeout | unavailable
    wall_s: float | None
    cpu_s: float | None
    peak_mib: float | None
    exit_code: int | None
    error: str | None


@dataclass(frozen=True)
class Result:
    """One row of the report."""

    repo: str
    tool: str
    status: str  # ok | crash | timeout | bad-output | unavailable
    wall_s: float | None
    cpu_s: float | None
    peak_mib: float | None
    exit_code: int | None
    edges: int | None
    edges_internal: int | None
    edges_by_certainty: Mapping[str, int] | None
    note: str | None  # the error line of a failure, or what a successful run reported besides edges
    runs: tuple[float, ...] = ()  # wall seconds of each round, for a row that is a median of rounds


@dataclass(frozen=True)
class Anchor:
    """A third-party call-graph tool, installed in its own virtualenv."""

    name: str
    requirements: tuple[str, ...]
    argv: Callable[[Path, Tree, Path], list[str]]  # (venv, tree, output file) -> command
    count: Callable[[Path, str], EdgeCount]  # (output file, package) -> edges


# ----------------------------------------------------------------------------------------------------
# Counting edges in each tool's output
# ----------------------------------------------------------------------------------------------------


def _inside(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def count_adjacency(path: Path, package: str) -> EdgeCount:
    """PyCG and Jarvis write ``{caller: [callee, ...]}``."""
    graph: dict[str, list[str]] = json.loads(path.read_text(encoding="utf-8"))
    total = internal = 0
    for caller, callees in graph.items():
        total += len(callees)
        if _inside(caller, package):
            internal += sum(1 for callee in callees if _inside(callee, package))
    return EdgeCount(total, internal)


DOT_NODE = re.compile(r'^\s*"(?P<id>[^"]+)" \[.*?tooltip="(?P<name>[^"\\]*)')
DOT_EDGE = re.compile(r'^\s*"(?P<source>[^"]+)" -> "(?P<target>[^"]+)"')


def count_dot(path: Path, package: str) -> EdgeCount:
    """pyan3 ``--dot``: node ids are mangled, the tooltip's first line is the full name."""
    names: dict[str, str] = {}
    edges: list[tuple[str, str]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if edge := DOT_EDGE.match(line):
            edges.append((edge["source"], edge["target"]))
        elif node := DOT_NODE.match(line):
            names[node["id"]] = node["name"]
    internal = sum(
        1 for s, t in edges if _inside(names.get(s, ""), package) and _inside(names.get(t, ""), package)
    )
    return EdgeCount(len(edges), internal)


def count_dure(path: Path, package: str) -> EdgeCount:
    """``dure index --json``: ``{"nodes": [...], "edges": [{"caller", "callee", "certainty", ...}]}``."""
    edges: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["edges"]
    by_certainty = Counter(str(edge.get("certainty")) for edge in edges)
    internal = sum(
        1 for edge in edges if _inside(str(edge["caller"]), package) and _inside(str(edge["callee"]), package)
    )
    return EdgeCount(len(edges), internal, dict(sorted(by_certainty.items())))


# ----------------------------------------------------------------------------------------------------
# The anchors: pinned versions that install and import on Linux with Python 3.11
# ----------------------------------------------------------------------------------------------------


def _bin(venv: Path, name: str) -> str:
    return str(venv / "bin" / name)


def _pycg_argv(venv: Path, tree: Tree, out: Path) -> list[str]:
    return [_bin(venv, "python"), "-m", "pycg", *tree.files, "--package", ".", "-o", str(out)]


def _jarvis_argv(venv: Path, tree: Tree, out: Path) -> list[str]:
    return [_bin(venv, "jarviscg"), *tree.files, "--package", ".", "-o", str(out)]


def _pyan_argv(venv: Path, tree: Tree, out: Path) -> list[str]:
    options = ["--root", ".", "--uses", "--no-defines", "--dot", "--file", str(out)]
    return [_bin(venv, "pyan3"), *tree.files, *options]


ANCHORS: Mapping[str, Anchor] = {
    anchor.name: anchor
    for anchor in (
        # 0.0.8 does not import on Linux; 0.0.7 needs pkg_resources, gone from setuptools 81.
        Anchor("pycg", ("pycg==0.0.7", "setuptools<81"), _pycg_argv, count_adjacency),
        # Jarvis is published by a fork's maintainers as pre-releases only (pip needs the exact pin or --pre).
        Anchor("jarviscg", ("jarviscg==0.1.0rc7",), _jarvis_argv, count_adjacency),
        Anchor("pyan3", ("pyan3==2.9.0",), _pyan_argv, count_dot),
    )
}

# ----------------------------------------------------------------------------------------------------
# Cache directory, sources, virtualenvs
# ----------------------------------------------------------------------------------------------------


def default_cache_dir() -> Path:
    if explicit := os.environ.get("DURE_BENCH_CACHE"):
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "dure-bench"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _sdist_url(corpus: Corpus) -> str:
    """The sdist's download address from the index's JSON simple API (PEP 691), found by its sha256."""
    request = urllib.request.Request(
        PYPI_SIMPLE.format(name=corpus.name), headers={"Accept": "application/vnd.pypi.simple.v1+json"}
    )
    with urllib.request.urlopen(request, timeout=60) as reply:
        project = json.load(reply)
    for entry in project["files"]:
        if entry["filename"].endswith(".tar.gz") and entry["hashes"].get("sha256") == corpus.sha256:
            return str(entry["url"])
    raise SystemExit(f"no sdist of {corpus.name} {corpus.version} with sha256 {corpus.sha256} on PyPI")


def fetch_sdist(corpus: Corpus, cache: Path) -> Path:
    """Download the pinned sdist once, verifying its sha256."""
    target = cache / "sdists" / f"{corpus.name}-{corpus.version}.tar.gz"
    if target.exists() and _sha256(target) == corpus.sha256:
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".part")
    with urllib.request.urlopen(_sdist_url(corpus), timeout=300) as reply, partial.open("wb") as out:
        shutil.copyfileobj(reply, out)
    if (actual := _sha256(partial)) != corpus.sha256:
        partial.unlink()
        raise SystemExit(f"{corpus.name} {corpus.version}: sha256 {actual}, expected {corpus.sha256}")
    partial.replace(target)
    return target


def unpack_sdist(corpus: Corpus, cache: Path) -> Path:
    """The unpacked sdist's top directory (reused when present)."""
    target = cache / "sources" / f"{corpus.name}-{corpus.version}"
    if not (target / corpus.package).is_dir():
        archive = fetch_sdist(corpus, cache)
        shutil.rmtree(target, ignore_errors=True)
        with tempfile.TemporaryDirectory(dir=cache) as scratch, tarfile.open(archive) as tar:
            tar.extractall(scratch, filter="data")
            (top,) = Path(scratch).iterdir()
            target.parent.mkdir(parents=True, exist_ok=True)
            top.replace(target)
    return target


def build_tree(corpus: Corpus, cache: Path) -> Tree:
    """Every ``.py`` file of the import package in a clean tree: the one file list of every tool.

    A tree that already holds exactly these files is kept: deleting and copying a thousand files just before
    the runs leaves the file system in a state (inodes freed seconds ago) that makes creating files slower
    for a minute or more, which would burden whichever tool writes files first."""
    source = unpack_sdist(corpus, cache)
    root = cache / "trees" / f"{corpus.name}-{corpus.version}"
    originals = {
        path.relative_to(source).as_posix(): path.read_bytes()
        for path in sorted((source / corpus.package).rglob("*.py"))
    }
    if not _tree_holds(root, originals):
        shutil.rmtree(root, ignore_errors=True)
        for relative, data in originals.items():
            copy = root / relative
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_bytes(data)
    lines = sum(len(data.splitlines()) for data in originals.values())
    return Tree(corpus, root, tuple(originals), lines)


def _tree_holds(root: Path, originals: dict[str, bytes]) -> bool:
    """Whether the files under ``root`` are exactly ``originals`` (path and content), and nothing else."""
    if not root.is_dir():
        return False
    present = {path.relative_to(root).as_posix(): path for path in root.rglob("*") if not path.is_dir()}
    return present.keys() == originals.keys() and all(
        present[relative].read_bytes() == data for relative, data in originals.items()
    )


def _stamp(venv: Path) -> Path:
    return venv / "bench-requirements.txt"


def venv_ready(anchor: Anchor, venvs: Path) -> bool:
    stamp = _stamp(venvs / anchor.name)
    return stamp.exists() and stamp.read_text(encoding="utf-8").split() == list(anchor.requirements)


def setup_anchor(anchor: Anchor, venvs: Path) -> str | None:
    """Create the anchor's virtualenv with its pins; the pip error line when that fails."""
    if venv_ready(anchor, venvs):
        return None
    venv = venvs / anchor.name
    shutil.rmtree(venv, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    install = subprocess.run(
        [_bin(venv, "python"), "-m", "pip", "install", "--quiet", *anchor.requirements],
        capture_output=True,
        text=True,
        check=False,
    )
    if install.returncode != 0:
        return last_error_line(install.stderr, install.returncode)
    _stamp(venv).write_text("\n".join(anchor.requirements) + "\n", encoding="utf-8")
    return None


def installed_versions(venv: Path) -> list[str]:
    freeze = subprocess.run(
        [_bin(venv, "python"), "-m", "pip", "freeze", "--all"], capture_output=True, text=True, check=False
    )
    return freeze.stdout.split()


# ----------------------------------------------------------------------------------------------------
# Running one child process
# ----------------------------------------------------------------------------------------------------

ERROR_LINE = re.compile(r"^([A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt)\b|Error:|error:|\S+: error:)")


def last_error_line(stderr: str, exit_code: int | None) -> str:
    """The exception line of a traceback, else the last line written, else the exit code."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    for line in reversed(lines):
        if ERROR_LINE.match(line):
            return line[:300]
    return lines[-1][:300] if lines else f"exit code {exit_code}"


def _wait_for_exit(pid: int, timeout: float) -> bool:
    """Whether the child exited within ``timeout`` seconds (it is left for ``os.wait4`` to reap)."""
    descriptor = os.pidfd_open(pid)
    try:
        ready, _, _ = select.select([descriptor], [], [], timeout)
    finally:
        os.close(descriptor)
    return bool(ready)


def run_child(
    argv: Sequence[str], cwd: Path, env: Mapping[str, str], log: Path, timeout: float
) -> Measurement:
    """Run one command in its own process group; wall, CPU and peak RSS of that child alone."""
    with (log.with_suffix(".stdout")).open("wb") as out, (log.with_suffix(".stderr")).open("wb") as err:
        start = time.perf_counter()
        try:
            child = subprocess.Popen(
                argv,
                cwd=cwd,
                env=dict(env),
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                start_new_session=True,
            )
        except OSError as problem:
            return Measurement("unavailable", None, None, None, None, f"{argv[0]}: {problem.strerror}")
        exited = _wait_for_exit(child.pid, timeout)
        if not exited:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.pid, signal.SIGKILL)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
    exit_code = os.waitstatus_to_exitcode(status)
    child.returncode = exit_code  # reaped by wait4: keep Popen from waiting again
    cpu = usage.ru_utime + usage.ru_stime
    peak = usage.ru_maxrss * 1024 / MIB  # ru_maxrss is in KiB on Linux
    if not exited:
        return Measurement("timeout", wall, cpu, peak, None, f"timeout: killed after {timeout:g} s")
    if exit_code != 0:
        stderr = log.with_suffix(".stderr").read_text(encoding="utf-8", errors="replace")
        return Measurement("crash", wall, cpu, peak, exit_code, last_error_line(stderr, exit_code))
    return Measurement("ok", wall, cpu, peak, exit_code, None)


def to_result(
    repo: str, tool: str, run: Measurement, count: Callable[[], EdgeCount] | None, note: str | None = None
) -> Result:
    """Count edges of a successful run; unreadable output makes the row ``bad-output``."""
    edges: EdgeCount | None = None
    status, error = run.status, run.error
    if run.status == "ok" and count is not None:
        try:
            edges = count()
        except (OSError, ValueError, KeyError, TypeError) as problem:
            status, error = "bad-output", f"output unreadable: {type(problem).__name__}: {problem}"[:300]
    return Result(
        repo=repo,
        tool=tool,
        status=status,
        wall_s=run.wall_s,
        cpu_s=run.cpu_s,
        peak_mib=run.peak_mib,
        exit_code=run.exit_code,
        edges=edges.total if edges else None,
        edges_internal=edges.internal if edges else None,
        edges_by_certainty=edges.by_certainty if edges else None,
        note=error or note,
    )


def unavailable(repo: str, tool: str, why: str) -> Result:
    return Result(repo, tool, "unavailable", None, None, None, None, None, None, None, why)


# ----------------------------------------------------------------------------------------------------
# The tools
# ----------------------------------------------------------------------------------------------------

AST_BASELINE = """
import ast, json, sys
files = lines = 0
for name in open(sys.argv[1], encoding="utf-8").read().split("\\n"):
    if name:
        source = open(name, "rb").read()
        ast.parse(source, name)
        files += 1
        lines += len(source.splitlines())
print(json.dumps({"files": files, "lines": lines}))
"""


@dataclass(frozen=True)
class Context:
    """What every tool run needs: where to write, how long to wait, which environment."""

    work: Path  # scratch directory of this benchmark run
    venvs: Path
    timeout: float
    dure: str
    env: Mapping[str, str]
    baseline: Baseline | None = None
    rounds: int = 1  # how often the floor and the cold runs are repeated, alternating


@dataclass(frozen=True)
class Baseline:
    """dure's source at another git revision (``--baseline``), timed cold beside the installed dure."""

    revision: str  # as given
    commit: str  # the full hash it names
    source: Path  # the revision's ``dure`` package is ``source / "dure"``


def extract_baseline(revision: str, cache: Path) -> Baseline:
    """Unpack the ``dure`` package of ``revision`` (from this repository's git history) under the cache."""
    commit = subprocess.run(
        ["git", "-C", str(REPO_ROOT), "rev-parse", "--verify", f"{revision}^{{commit}}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    source = cache / "baselines" / commit
    if not (source / "dure" / "__init__.py").exists():
        source.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(
            ["git", "-C", str(REPO_ROOT), "archive", commit, "dure"], capture_output=True, check=True
        ).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(source, filter="data")
    return Baseline(revision, commit, source)


def baseline_env(baseline: Baseline, env: Mapping[str, str], cwd: Path) -> dict[str, str]:
    """An environment whose ``import dure`` (run in ``cwd``) finds the baseline's package first; checked,
    since an import hook of the installed dure could still win."""
    env = {**env, "PYTHONPATH": os.pathsep.join(filter(None, [str(baseline.source), env.get("PYTHONPATH")]))}
    probe = [sys.executable, "-c", "import dure; print(dure.__file__)"]
    found = subprocess.run(probe, cwd=cwd, env=env, capture_output=True, text=True, check=False).stdout
    found = found.strip()
    if not found.startswith(str(baseline.source)):
        raise SystemExit(f"--baseline: python imports dure from {found or 'nowhere'}, not {baseline.source}")
    return env


def compile_dure(ctx: Context) -> list[str]:
    """Compile the bytecode of every dure package about to be timed, as ``pip install`` does for the anchor
    tools: where ``PYTHONDONTWRITEBYTECODE`` is set, an editable install would otherwise compile dure's
    source again on every run. Returns the packages compiled."""
    probe = [sys.executable, "-c", "import dure, os; print(os.path.dirname(dure.__file__))"]
    installed = subprocess.run(probe, env=ctx.env, capture_output=True, text=True, check=False).stdout
    packages = [installed.strip()] if installed.strip() else []
    if ctx.baseline is not None:
        packages.append(str(ctx.baseline.source / "dure"))
    for package in packages:
        compileall.compile_dir(package, quiet=1)
    return packages


def baseline_facts(baseline: Baseline | None) -> dict[str, str] | None:
    return {"revision": baseline.revision, "commit": baseline.commit} if baseline else None


def run_ast(tree: Tree, ctx: Context) -> Result:
    listing = ctx.work / f"{tree.corpus.name}-files.txt"
    listing.write_text("\n".join(tree.files) + "\n", encoding="utf-8")
    log = ctx.work / f"{tree.corpus.name}-ast"
    argv = [sys.executable, "-c", AST_BASELINE, str(listing)]
    run = run_child(argv, tree.root, ctx.env, log, ctx.timeout)
    note = None
    if run.status == "ok":
        parsed = json.loads(log.with_suffix(".stdout").read_text(encoding="utf-8"))
        note = f"{parsed['files']} files, {parsed['lines']} lines parsed"
    return to_result(tree.corpus.name, "ast.parse", run, None, note)


def run_anchor(anchor: Anchor, tree: Tree, ctx: Context) -> Result:
    repo = tree.corpus.name
    venv = ctx.venvs / anchor.name
    if not venv_ready(anchor, ctx.venvs):
        return unavailable(repo, anchor.name, f"not set up: run `benchmarks/index.py --setup` ({venv})")
    out = ctx.work / f"{repo}-{anchor.name}.out"
    run = run_child(anchor.argv(venv, tree, out), tree.root, ctx.env, out, ctx.timeout)
    return to_result(repo, anchor.name, run, lambda: anchor.count(out, tree.corpus.package))


@contextlib.contextmanager
def one_file_changed(path: Path) -> Iterator[None]:
    """Append a comment to ``path`` for the duration; restore its bytes afterwards."""
    original = path.read_bytes()
    path.write_bytes(original + b"\n# edited by the benchmark\n")
    try:
        yield
    finally:
        path.write_bytes(original)


def run_dure(tree: Tree, ctx: Context, with_floor: bool) -> list[Result]:
    """``ast.parse`` (``with_floor``), dure cold (empty cache) and the baseline's cold run, alternating for
    ``ctx.rounds`` rounds and reported as medians; then warm (the last cold run's cache again) and one file
    changed. A machine whose speed drifts during the run then weighs on the floor and the cold runs alike."""
    repo = tree.corpus.name
    rounds: dict[str, list[Result]] = {}
    cache = ctx.work
    for number in range(ctx.rounds):
        if with_floor:
            rounds.setdefault("ast.parse", []).append(run_ast(tree, ctx))
        cache = ctx.work / f"{repo}-dure-cache-{number}"
        cache.mkdir()
        rounds.setdefault("cold", []).append(_dure_once(tree, ctx, cache, "cold"))
        if rounds["cold"][-1].status != "ok":
            break
        if ctx.baseline is not None:
            rounds.setdefault("baseline", []).append(run_dure_baseline(tree, ctx, ctx.baseline, number))
    results = [median_of(runs) for runs in rounds.values()]
    if rounds["cold"][-1].status != "ok":
        return results
    results.append(_dure_once(tree, ctx, cache, "warm"))
    with one_file_changed(tree.root / tree.corpus.edited):
        results.append(_dure_once(tree, ctx, cache, "one file changed"))
    return results


def _dure_once(tree: Tree, ctx: Context, cache: Path, variant: str) -> Result:
    repo = tree.corpus.name
    env = {**ctx.env, "DURE_CACHE": str(cache)}
    out = ctx.work / f"{repo}-dure-{variant}.json"
    argv = [ctx.dure, "index", str(tree.root), "--json", str(out)]
    run = run_child(argv, tree.root, env, out, ctx.timeout)
    return to_result(repo, f"dure ({variant})", run, lambda: count_dure(out, tree.corpus.package))


def median_of(runs: Sequence[Result]) -> Result:
    """One row for several runs of one tool: the median wall and CPU seconds, the highest peak; a failed
    run stands for them all."""
    failed = [run for run in runs if run.status != "ok"]
    if failed or len(runs) == 1:
        return failed[0] if failed else runs[0]
    walls = [run.wall_s for run in runs if run.wall_s is not None]
    cpus = [run.cpu_s for run in runs if run.cpu_s is not None]
    peaks = [run.peak_mib for run in runs if run.peak_mib is not None]
    return dataclasses.replace(
        runs[-1],
        wall_s=statistics.median(walls) if walls else None,
        cpu_s=statistics.median(cpus) if cpus else None,
        peak_mib=max(peaks) if peaks else None,
        runs=tuple(walls),
    )


def run_dure_baseline(tree: Tree, ctx: Context, baseline: Baseline, number: int) -> Result:
    """Cold, with the baseline revision's source, right after the installed dure's cold run."""
    repo = tree.corpus.name
    cache = ctx.work / f"{repo}-dure-baseline-cache-{number}"
    cache.mkdir()
    env = {**baseline_env(baseline, ctx.env, tree.root), "DURE_CACHE": str(cache)}
    out = ctx.work / f"{repo}-dure-baseline.json"
    argv = [sys.executable, "-m", "dure", "index", str(tree.root), "--json", str(out)]
    run = run_child(argv, tree.root, env, out, ctx.timeout)
    label = f"dure {baseline.revision} (cold)"
    return to_result(repo, label, run, lambda: count_dure(out, tree.corpus.package))


def run_dure_jedi(tree: Tree, ctx: Context) -> Result:
    """Cold, without the cache, with the jedi fallback for unresolved calls: what jedi costs."""
    repo = tree.corpus.name
    out = ctx.work / f"{repo}-dure-jedi.json"
    argv = [ctx.dure, "index", str(tree.root), "--json", str(out), "--no-cache", "--jedi"]
    run = run_child(argv, tree.root, ctx.env, out, ctx.timeout)
    return to_result(repo, "dure --jedi (cold)", run, lambda: count_dure(out, tree.corpus.package))


def run_tool(tool: str, tree: Tree, ctx: Context, tools: Sequence[str]) -> list[Result]:
    if tool == "ast":
        return [] if "dure" in tools else [run_ast(tree, ctx)]  # with dure, its rounds run the floor
    if tool == "dure":
        return run_dure(tree, ctx, with_floor="ast" in tools)
    if tool == "dure-jedi":
        return [run_dure_jedi(tree, ctx)]
    return [run_anchor(ANCHORS[tool], tree, ctx)]


# ----------------------------------------------------------------------------------------------------
# Report
# ----------------------------------------------------------------------------------------------------


def _first_line(argv: Sequence[str]) -> str:
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired) as problem:
        return f"unavailable ({problem})"
    text = (done.stdout or done.stderr).strip()
    return text.splitlines()[0] if text else f"exit code {done.returncode}"


def _read_first(path: str, key: str) -> str | None:
    with contextlib.suppress(OSError):
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            if line.startswith(key):
                return line.split(":", 1)[1].strip()
    return None


def _memory_gib() -> float | None:
    total = _read_first("/proc/meminfo", "MemTotal")  # "24684084 kB"
    return round(int(total.split()[0]) / MIB, 1) if total else None


def _peak_floor(ctx: Context) -> float | None:
    """Peak RSS reported for ``true``: what a child inherits from this process before its ``exec``."""
    return run_child(["true"], ctx.work, ctx.env, ctx.work / "floor", 60).peak_mib


def machine_info(ctx: Context, tools: Sequence[str]) -> dict[str, Any]:
    versions: dict[str, Any] = {"python": sys.version.split()[0]}
    if "dure" in tools:
        versions["dure"] = _first_line([ctx.dure, "--version"])
        describe = ["git", "-C", str(REPO_ROOT), "describe", "--always", "--dirty"]
        versions["dure_source"] = _first_line(describe)
    for tool in tools:
        if tool in ANCHORS and venv_ready(ANCHORS[tool], ctx.venvs):
            versions[tool] = {
                "requirements": list(ANCHORS[tool].requirements),
                "installed": installed_versions(ctx.venvs / tool),
            }
    return {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "platform": platform.platform(),
        "cpu": _read_first("/proc/cpuinfo", "model name"),
        "cores": os.cpu_count(),
        "usable_cores": len(os.sched_getaffinity(0)),
        "memory_gib": _memory_gib(),
        "load_average_at_start": os.getloadavg(),
        "peak_mib_floor": _peak_floor(ctx),
        "versions": versions,
    }


def _fmt(value: float | None, digits: int = 2) -> str:
    return "" if value is None else f"{value:.{digits}f}"


def _ratio(value: float | None, floor: float | None, status: str) -> str:
    if value is None or not floor or status == "unavailable":
        return ""
    return f"{value / floor:.1f}x"


def _edges(result: Result) -> str:
    if result.edges is None:
        return ""
    text = f"{result.edges:,}"
    if result.edges_by_certainty:
        text += " (" + ", ".join(f"{k} {v:,}" for k, v in result.edges_by_certainty.items()) + ")"
    return text


def markdown(report: Mapping[str, Any], results: Sequence[Result]) -> str:
    machine = report["machine"]
    lines = [
        "# `dure index` speed benchmark",
        "",
        f"{machine['date']}, {machine['usable_cores']} cores ({machine['cpu']}), "
        f"{machine['memory_gib']} GiB, Python {machine['versions']['python']}, load average at start "
        f"{', '.join(f'{x:.2f}' for x in machine['load_average_at_start'])}.",
        "Ratios are over the `ast.parse` time of the same run and corpus (under load, the CPU ratio is the "
        "steadier one). "
        f"Peak memory includes the {_fmt(machine['peak_mib_floor'], 0)} MiB a child inherits from the "
        "benchmark before it execs (the peak reported for `true`).",
    ]
    if report.get("bytecode_compiled"):
        lines.append(
            "dure's bytecode is compiled before the runs, as `pip install` compiles the other tools' "
            "(`PYTHONDONTWRITEBYTECODE` would otherwise make an editable install compile dure on every run)."
        )
    if baseline := report.get("baseline"):
        lines.append(
            f"`dure {baseline['revision']} (cold)` is dure's source at commit {baseline['commit'][:12]}, "
            "run as Python source (its analyzers not compiled) right after the installed dure's cold index, "
            "with the same interpreter and a cache of its own."
        )
    for corpus in report["corpora"]:
        rows = [r for r in results if r.repo == corpus["name"]]
        base = next((r for r in rows if r.tool == "ast.parse" and r.status == "ok"), None)
        wall, cpu = (base.wall_s, base.cpu_s) if base else (None, None)
        lines += [
            "",
            f"## {corpus['name']} {corpus['version']} ({corpus['files']} files, {corpus['lines']:,} lines)",
            "",
            "| tool | status | wall s | CPU s | peak MiB | edges | internal edges "
            "| x ast wall | x ast CPU | note |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
        ]
        for r in rows:
            note = (r.note or "").replace("|", "\\|")
            if r.runs:
                spread = f"median of {len(r.runs)} rounds ({min(r.runs):.2f}-{max(r.runs):.2f} s)"
                note = f"{note}; {spread}" if note else spread
            internal = "" if r.edges_internal is None else f"{r.edges_internal:,}"
            lines.append(
                f"| {r.tool} | {r.status} | {_fmt(r.wall_s)} | {_fmt(r.cpu_s)} | {_fmt(r.peak_mib, 0)} "
                f"| {_edges(r)} | {internal} | {_ratio(r.wall_s, wall, r.status)} "
                f"| {_ratio(r.cpu_s, cpu, r.status)} | {note} |"
            )
    lines += ["", "Versions:", ""]
    for tool, version in machine["versions"].items():
        shown = version if isinstance(version, str) else " ".join(version["installed"])
        lines.append(f"- {tool}: {shown}")
    return "\n".join(lines) + "\n"


def write_report(out: Path, report: Mapping[str, Any], results: Sequence[Result]) -> str:
    """Write the JSON results and the Markdown table next to it; return the Markdown."""
    out.parent.mkdir(parents=True, exist_ok=True)
    document = {**report, "results": [dataclasses.asdict(result) for result in results]}
    out.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    text = markdown(report, results)
    out.with_suffix(".md").write_text(text, encoding="utf-8")
    return text


# ----------------------------------------------------------------------------------------------------
# Command line
# ----------------------------------------------------------------------------------------------------


def _names(value: str, known: Sequence[str]) -> tuple[str, ...]:
    names = tuple(name.strip() for name in value.split(",") if name.strip())
    if unknown := [name for name in names if name not in known]:
        raise argparse.ArgumentTypeError(f"unknown: {', '.join(unknown)} (known: {', '.join(known)})")
    return names


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--setup", action="store_true", help="create the anchors' virtualenvs, fetch sources")
    parser.add_argument(
        "--repos", type=lambda v: _names(v, list(CORPORA)), default=DEFAULT_REPOS, help="rich,django"
    )
    parser.add_argument(
        "--tools",
        type=lambda v: _names(v, ["ast", "dure", "dure-jedi", *ANCHORS]),
        default=DEFAULT_TOOLS,
        help="ast,dure,pycg,jarviscg,pyan3",
    )
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per tool run (default 600)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="JSON results (.md beside it)")
    parser.add_argument("--cache-dir", type=Path, default=None, help="default: $DURE_BENCH_CACHE")
    parser.add_argument("--dure", default=None, help="the dure executable (default: the one beside python)")
    parser.add_argument(
        "--baseline",
        metavar="REV",
        default=None,
        help="also time a cold `dure index` with dure's source at git revision REV, beside the installed one",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=5,
        help="rounds of ast.parse, cold dure and the baseline's cold dure, alternating; medians (default 5)",
    )
    return parser.parse_args(argv)


def _dure_executable(explicit: str | None) -> str:
    if explicit:
        return explicit
    beside = Path(sys.executable).parent / "dure"
    return str(beside) if beside.exists() else shutil.which("dure") or "dure"


def setup(cache: Path, repos: Sequence[str]) -> int:
    failures = 0
    for anchor in ANCHORS.values():
        print(f"setting up {anchor.name}: {' '.join(anchor.requirements)}", file=sys.stderr)
        if error := setup_anchor(anchor, cache / "venvs"):
            print(f"  {anchor.name}: not installable: {error}", file=sys.stderr)
            failures += 1
    for name in repos:
        print(f"fetching {name}: {unpack_sdist(CORPORA[name], cache)}", file=sys.stderr)
    return 1 if failures else 0


def benchmark(args: argparse.Namespace, cache: Path) -> int:
    tools: tuple[str, ...] = args.tools
    ordered = (*(t for t in tools if t == "ast"), *(t for t in tools if t != "ast"))  # the floor first
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="dure-bench-") as scratch:
        ctx = Context(
            Path(scratch),
            cache / "venvs",
            args.timeout,
            _dure_executable(args.dure),
            {**os.environ, "PYTHONHASHSEED": "0"},  # one hash seed for every tool and run
            extract_baseline(args.baseline, cache) if args.baseline else None,
            args.rounds,
        )
        if "dure" in tools and "compiled with mypyc" not in _first_line([ctx.dure, "--version"]):
            print(
                "note: the installed dure runs its analyzers as Python source (an editable install?); "
                "`pip install .` compiles them, as users get them",
                file=sys.stderr,
            )
        trees = [build_tree(CORPORA[name], cache) for name in args.repos]
        compiled = compile_dure(ctx) if "dure" in tools or "dure-jedi" in tools else []
        report: dict[str, Any] = {
            "machine": machine_info(ctx, ordered),
            "bytecode_compiled": compiled,
            "baseline": baseline_facts(ctx.baseline),
            "timeout_s": args.timeout,
            "corpora": [
                {**dataclasses.asdict(t.corpus), "files": len(t.files), "lines": t.lines} for t in trees
            ],
        }
        for tree in trees:
            for tool in ordered:
                print(f"{tree.corpus.name}: {tool} ...", file=sys.stderr, flush=True)
                for result in run_tool(tool, tree, ctx, ordered):
                    results.append(result)
                    print(f"  {result.tool}: {result.status} {_fmt(result.wall_s)} s", file=sys.stderr)
                    write_report(args.out, report, results)
    print(write_report(args.out, report, results), end="")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    cache: Path = args.cache_dir or default_cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    if args.setup:
        return setup(cache, args.repos)
    return benchmark(args, cache)


if __name__ == "__main__":
    sys.exit(main())

"""Running a type checker (mypy or pyright) on variants of one module, in the sandbox, with a warm cache.

Each process keeps a private work directory under the system temporary directory: one source tree per
repository, import root and checker settings (copied once, shared by all the modules of that repository)
with its own mypy cache, reused across answers. One run checks any number of variants of a module, each
written as its own probe file and judged by the diagnostics of that file alone, so judging several slots
separately costs one checker start, not one per slot. Before each check every rewritten file gets a
modification time strictly above every earlier one of that path, in whole seconds: mypy's cache trusts size
plus whole-second mtime, so a same-length edit within one second would otherwise be judged from the stale
cache. Files given inline (a repository not in the corpus cache) are synced into the shared tree before each
check, with the same mtime rule. The mypy daemon is never used.

The checker runs through :func:`dure.sandbox.run_sandboxed` (time and memory limits, process-group kill, no
network). As root the sandbox drops to ``nobody``, who cannot read a virtual environment under ``/root``:
the checker's installed files are then linked (or copied) once into a read-only runtime directory, and a
Python interpreter ``nobody`` can run, of the same version, executes it. Output goes to a file (the sandbox
keeps only the tail of stdout), is parsed strictly, and a checker that did not really run is an error.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import hashlib
import importlib.metadata
import json
import os
import re
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from dure.errors import DureError
from dure.sandbox import SAFE_PATH, Limits, SandboxResult, run_sandboxed, sandbox_user

ENGINES = ("mypy", "pyright")
MAX_TREES = 8  # repositories kept warm per process
MYPY_BOOT = (
    "import sys; sys.path[:0] = [sys.argv.pop(1)]; sys.argv[0] = 'mypy'; "
    "from mypy.__main__ import console_entry; console_entry()"
)
REDIRECT = 'out=$1; shift; exec "$@" > "$out"'
_SOURCE_SUFFIXES = (".py", ".pyi")


class CheckerError(DureError):
    """The type checker could not be run, crashed, or gave output that does not prove it checked."""


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One error the checker reported in the module (columns left out: annotations shift them)."""

    line: int
    code: str
    message: str

    @property
    def key(self) -> str:
        return f"{self.line}:{self.code}:{self.message}"


@dataclass(frozen=True, slots=True)
class Context:
    """What the checker needs besides the module: the import root (a directory, or files given inline)."""

    key: str  # digest naming the warm tree: repository, import root and checker settings, not the module
    module_path: str  # the module's path relative to the import root
    root: Path | None = None
    files: Mapping[str, str] | None = None
    files_digest: str = ""  # names ``files``, so a shared tree re-syncs them only when another set was last


@dataclass(frozen=True, slots=True)
class CheckerSettings:
    engine: str  # "mypy" or "pyright"
    flags: tuple[str, ...] = ("--strict",)  # mypy flags; for pyright, flags[0] is the typeCheckingMode
    python_version: str | None = None
    timeout: float = 120.0


@functools.cache
def checker_version(engine: str) -> str:
    """The installed version of a checker, read from package metadata once (no process started)."""
    if engine == "mypy":
        return importlib.metadata.version("mypy")
    if engine == "pyright":
        package = _site_file("pyright", "pyright/dist/package.json")
        return str(json.loads(package.read_text(encoding="utf-8"))["version"])
    raise CheckerError(f"unknown type checker {engine!r}; known: {', '.join(ENGINES)}")


def _site_file(distribution: str, relpath: str) -> Path:
    return Path(str(importlib.metadata.distribution(distribution).locate_file(relpath)))


@functools.cache
def _base_dir() -> Path:
    """``$TMP/dure-types-<uid>``: ours, not writable by others (refused otherwise)."""
    base = Path(tempfile.gettempdir()) / f"dure-types-{os.geteuid()}"
    with contextlib.suppress(FileExistsError):
        base.mkdir(mode=0o755)
    info = base.lstat()
    if not base.is_dir() or base.is_symlink() or info.st_uid != os.geteuid() or info.st_mode & 0o022:
        raise CheckerError(f"{base} is not a private directory of this user; remove it")
    return base


def _requirement_closure(name: str) -> list[importlib.metadata.Distribution]:
    seen: dict[str, importlib.metadata.Distribution] = {}
    todo = [name]
    while todo:
        current = re.sub(r"[-_.]+", "-", todo.pop()).lower()
        if current in seen:
            continue
        try:
            dist = importlib.metadata.distribution(current)
        except importlib.metadata.PackageNotFoundError:
            continue  # an optional or marker-excluded requirement that is not installed
        seen[current] = dist
        for requirement in dist.requires or []:
            if "extra ==" not in requirement:
                match = re.match(r"[A-Za-z0-9_.-]+", requirement)
                if match:
                    todo.append(match.group(0))
    return list(seen.values())


@functools.cache
def _runtime(engine: str) -> Path:
    """A directory the sandbox user can read, holding the checker's installed files (built atomically)."""
    dists = _requirement_closure("mypy" if engine == "mypy" else "pyright")
    site = Path(str(dists[0].locate_file(""))).resolve()
    if sandbox_user() is None:
        return site
    digest = hashlib.sha256(f"{site}:{sorted(d.version for d in dists)}".encode()).hexdigest()[:12]
    target = _base_dir() / f"runtime-{engine}-{checker_version(engine)}-{digest}"
    if target.is_dir():
        return target
    staging = Path(tempfile.mkdtemp(prefix="staging-", dir=_base_dir()))
    for dist in dists:
        for entry in dist.files or []:
            source = Path(str(dist.locate_file(entry))).resolve()
            if site not in source.parents or "__pycache__" in source.parts or not source.is_file():
                continue
            destination = staging / source.relative_to(site)
            destination.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(source, destination)
            except OSError:
                shutil.copy2(source, destination)
    _open_tree(staging)
    try:
        staging.rename(target)
    except OSError:  # another worker finished first
        shutil.rmtree(staging, ignore_errors=True)
    return target


def _open_tree(root: Path) -> None:
    """Directories ``rwxr-xr-x``: readable by the sandbox user, writable by us only."""
    for path in [root, *root.rglob("*")]:
        if path.is_dir() and not path.is_symlink():
            path.chmod(0o755)


@functools.cache
def _mypy_python() -> str:
    """An interpreter the sandbox user can run that imports the checker runtime (probed once)."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    candidates = [sys.executable]
    if sandbox_user() is not None:
        candidates += [shutil.which(name, path=SAFE_PATH) or "" for name in (version, "python3")]
    problems = []
    for python in dict.fromkeys(c for c in candidates if c):
        result = run_sandboxed([python, "-I", "-S", "-c", MYPY_BOOT, str(_runtime("mypy")), "--version"])
        if result.ok and result.stdout.startswith("mypy "):
            return python
        problems.append(f"{python}: {(result.stderr or result.stdout).strip()[-200:]}")
    raise CheckerError("no Python the sandbox user can run imports mypy: " + "; ".join(problems))


@functools.cache
def _node() -> str:
    node = shutil.which("node", path=SAFE_PATH)
    if node is None:
        raise CheckerError("pyright needs node on " + SAFE_PATH)
    return node


class _Tree:
    """A repository's source tree, cache and output directories, and the last mtime written per file."""

    def __init__(self, path: Path, context: Context) -> None:
        self.path = path
        self.src = path / "src"
        self.cache = path / "cache"
        self.out = path / "out"
        self.texts: dict[str, str] = {}  # inline files as last written
        self.synced = ""  # files_digest of the inline files last written
        if context.files is not None:
            for relpath, text in context.files.items():
                _write_new(self.src / relpath, text)
            self.texts, self.synced = dict(context.files), context.files_digest
        elif context.root is not None:
            shutil.copytree(context.root, self.src, ignore=_only_sources, symlinks=False)
            for copied in self.src.rglob("*"):
                if copied.is_file():
                    copied.chmod(0o644)
        self.src.mkdir(parents=True, exist_ok=True)
        _open_tree(path)
        for private in (self.cache, self.out):
            private.mkdir(mode=0o755)
            owner = sandbox_user()
            if owner is not None:
                os.chown(private, *owner)
        self.mtimes: dict[Path, int] = {}

    def sync(self, context: Context) -> None:
        """Make the inline files the context's: rewrite those that differ, remove those it lacks."""
        if context.files is None or context.files_digest == self.synced:
            return
        for relpath, text in context.files.items():
            if self.texts.get(relpath) != text:
                self.write(relpath, text)
        for relpath in set(self.texts) - set(context.files):
            (self.src / relpath).unlink(missing_ok=True)
        self.texts, self.synced = dict(context.files), context.files_digest

    def write(self, relpath: str, text: str) -> Path:
        """Write a module and give it an mtime strictly greater, in whole seconds, than any before."""
        target = self.src / relpath
        if not target.resolve().is_relative_to(self.src.resolve()):
            raise CheckerError(f"module path {relpath!r} leaves the source tree")
        previous = self.mtimes.get(target, int(target.stat().st_mtime) if target.exists() else 0)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        target.chmod(0o644)
        stamp = max(int(time.time()), previous + 1)
        os.utime(target, (stamp, stamp))
        self.mtimes[target] = stamp
        return target


def _write_new(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(0o644)


def _only_sources(folder: str, names: list[str]) -> list[str]:
    return [
        name
        for name in names
        if not (Path(folder, name).is_dir() or name.endswith(_SOURCE_SUFFIXES) or name == "py.typed")
        or name in {"__pycache__", ".git", ".mypy_cache"}
    ]


def probe_path(relpath: str, index: int = 0) -> str:
    """Where variant ``index`` of a module is written: a sibling of the module that nothing imports.

    The module itself stays as pinned, so the checker re-checks only the probes against its warm cache instead
    of every module of its import cycle (verdicts only count errors in the checked module anyway).
    """
    path = PurePosixPath(relpath)
    return str(path.with_name(f"_dure_probe{index or ''}_{path.name}"))


class TypeChecker:
    """A process's checker: warm trees by repository, one check at a time (a lock serialises threads)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._trees: dict[str, _Tree] = {}
        self._work: Path | None = None

    def _tree(self, context: Context) -> _Tree:
        tree = self._trees.pop(context.key, None)
        if tree is None:
            if self._work is None:
                self._work = Path(tempfile.mkdtemp(prefix=f"work-{os.getpid()}-", dir=_base_dir()))
                self._work.chmod(0o755)
                atexit.register(shutil.rmtree, self._work, True)
            tree = _Tree(self._work / context.key[:24], context)
        self._trees[context.key] = tree  # most recently used last
        while len(self._trees) > MAX_TREES:
            oldest = next(iter(self._trees))
            shutil.rmtree(self._trees.pop(oldest).path, ignore_errors=True)
        return tree

    def check(self, context: Context, text: str, settings: CheckerSettings) -> tuple[Diagnostic, ...]:
        """The errors the checker reports in the module when its text is ``text``."""
        return self.check_many(context, [text], settings)[0]

    def check_many(
        self, context: Context, texts: Sequence[str], settings: CheckerSettings
    ) -> tuple[tuple[Diagnostic, ...], ...]:
        """The errors in each variant of the module, all checked in one run (each as its own probe file)."""
        return self.check_batch([(context, texts)], settings)[0]

    def check_batch(
        self, requests: Sequence[tuple[Context, Sequence[str]]], settings: CheckerSettings
    ) -> list[tuple[tuple[Diagnostic, ...], ...]]:
        """The errors in each variant of several modules of one tree, all checked in one run.

        Every context must name the same warm tree (``key``) and inline files (``files_digest``): a run sees
        one source tree. The variants of each module are numbered on from those of earlier requests for the
        same module, so every probe file is distinct and nothing imports any of them.
        """
        requests = [(context, texts) for context, texts in requests]
        if not any(texts for _, texts in requests):
            return [() for _ in requests]
        first = requests[0][0]
        if any((c.key, c.files_digest) != (first.key, first.files_digest) for c, _ in requests):
            raise CheckerError("a batched check needs one source tree: the contexts differ")
        with self._lock:
            tree = self._tree(first)
            tree.sync(first)
            numbered: dict[str, int] = {}
            placed: list[list[Path]] = []
            for context, texts in requests:
                start = numbered.get(context.module_path, 0)
                numbered[context.module_path] = start + len(texts)
                placed.append(
                    [
                        tree.write(probe_path(context.module_path, start + offset), text)
                        for offset, text in enumerate(texts)
                    ]
                )
            targets = [target for group in placed for target in group]
            output = tree.out / "result.json"
            output.unlink(missing_ok=True)
            if settings.engine == "mypy":
                argv = _mypy_argv(tree, targets, settings)
            elif settings.engine == "pyright":
                argv = _pyright_argv(tree, targets, settings)
            else:
                raise CheckerError(f"unknown type checker {settings.engine!r}")
            limits = Limits(timeout=settings.timeout, memory=4 * 1024**3, processes=256)
            result = run_sandboxed(["/bin/sh", "-c", REDIRECT, "sh", str(output), *argv], limits=limits)
            raw = output.read_text(encoding="utf-8", errors="replace") if output.exists() else ""
        if settings.engine == "mypy":
            found = parse_mypy(result, raw, targets)
        else:
            found = parse_pyright(result, raw, targets, checker_version("pyright"))
        results, start = [], 0
        for group in placed:
            results.append(found[start : start + len(group)])
            start += len(group)
        return results


def _mypy_argv(tree: _Tree, targets: Sequence[Path], settings: CheckerSettings) -> list[str]:
    argv = [_mypy_python(), "-I", "-S", "-c", MYPY_BOOT, str(_runtime("mypy")), *settings.flags]
    if settings.python_version:
        argv += ["--python-version", settings.python_version]
    argv += ["--no-site-packages", "--follow-imports", "silent", "--cache-dir", str(tree.cache)]
    return [*argv, "--show-traceback", "--no-color-output", "-O", "json", *map(str, targets)]


def _pyright_argv(tree: _Tree, targets: Sequence[Path], settings: CheckerSettings) -> list[str]:
    config: dict[str, object] = {"typeCheckingMode": settings.flags[0] if settings.flags else "strict"}
    if settings.python_version:
        config["pythonVersion"] = settings.python_version
    config_path = tree.path / "pyrightconfig.json"
    if not config_path.exists():
        config_path.write_text(json.dumps(config), encoding="utf-8")
    script = _runtime("pyright") / "pyright" / "dist" / "index.js"
    return [_node(), str(script), "--outputjson", "--project", str(config_path), *map(str, targets)]


def parse_mypy(
    result: SandboxResult, raw: str, targets: Sequence[Path]
) -> tuple[tuple[Diagnostic, ...], ...]:
    """Errors in each target from mypy's JSON lines; raises :class:`CheckerError` unless mypy really ran."""
    if result.exit_code not in (0, 1) or result.limits_hit:
        raise CheckerError(_failure("mypy", result, raw))
    found: dict[Path, list[Diagnostic]] = {target: [] for target in targets}
    errors = 0
    for line in raw.splitlines():
        if not line.strip():
            continue
        try:
            item = json.loads(line)
            severity, file, number = item["severity"], item["file"], int(item["line"])
            message, code = str(item["message"]), str(item["code"] or "")
        except (ValueError, KeyError, TypeError):
            raise CheckerError(f"mypy printed a line that is not a diagnostic: {line[:200]!r}") from None
        if severity != "error":
            continue
        errors += 1
        if Path(file) in found:
            found[Path(file)].append(Diagnostic(number, code, message))
    if (result.exit_code == 1) != (errors > 0):
        raise CheckerError(_failure("mypy", result, raw))
    return tuple(tuple(found[target]) for target in targets)


def parse_pyright(
    result: SandboxResult, raw: str, targets: Sequence[Path], version: str
) -> tuple[tuple[Diagnostic, ...], ...]:
    """Errors in each target from pyright's JSON report; raises :class:`CheckerError` unless it really ran."""
    if result.exit_code not in (0, 1) or result.limits_hit:
        raise CheckerError(_failure("pyright", result, raw))
    try:
        report = json.loads(raw)
        analyzed = int(report["summary"]["filesAnalyzed"])
        diagnostics = list(report["generalDiagnostics"])
        reported = str(report["version"])
    except (ValueError, KeyError, TypeError):
        raise CheckerError(_failure("pyright", result, raw)) from None
    if analyzed < len(targets) or reported != version:
        raise CheckerError(
            f"pyright {reported} analysed {analyzed} files (expected {version}, at least {len(targets)})"
        )
    found: dict[Path, list[Diagnostic]] = {target: [] for target in targets}
    errors = 0
    for item in diagnostics:
        if item.get("severity") != "error":
            continue
        errors += 1
        file = Path(str(item.get("file", "")))
        if file in found:
            line = int(item["range"]["start"]["line"]) + 1
            found[file].append(Diagnostic(line, str(item.get("rule", "")), str(item.get("message", ""))))
    if (result.exit_code == 1) != (errors > 0):
        raise CheckerError(_failure("pyright", result, raw))
    return tuple(tuple(found[target]) for target in targets)


def _failure(engine: str, result: SandboxResult, raw: str) -> str:
    said = (result.stderr.strip() or raw.strip())[-300:]
    limits = f", limits hit: {', '.join(result.limits_hit)}" if result.limits_hit else ""
    return f"{engine} did not run to completion (exit code {result.exit_code}{limits}): {said}"


_CHECKERS: dict[int, TypeChecker] = {}


def get_checker() -> TypeChecker:
    """This process's checker (a forked worker gets its own, with its own work directory and caches)."""
    pid = os.getpid()
    if pid not in _CHECKERS:
        _CHECKERS[pid] = TypeChecker()
    return _CHECKERS[pid]


def checker_banner(engine: str) -> str:
    """What the checker says its version is, for score details (``mypy 2.4.1``, ``pyright 1.1.414``)."""
    return f"{engine} {checker_version(engine)}"

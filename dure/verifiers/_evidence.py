"""What the execution-evidence verifiers (``coverage``, ``differential``) share.

- Claimed items and their spans: ``params["items"]`` maps each qualified name an answer may claim to
  ``{"file": relpath, "start": line, "end": line}`` in the task's workspace.
- The lines that must never run if an item is dead (:func:`evidence_lines`): a function's body (its
  ``def`` line runs at import), the method bodies of a class, every line of other statements except the test
  line of an ``if``/``while`` and the header of a ``for``/``with``; never an import (it always runs).
- The sandboxed runs: the workspace is materialised into a scratch directory, a helper script from
  :mod:`dure.verifiers._sandboxed` rides along in an *outbox* directory the sandbox user may write to, and
  results come back as JSON files there (the sandbox returns only the tail of the output).
- The test interpreter: ``$DURE_TEST_PYTHON``, else this interpreter; it needs pytest, coverage and
  hypothesis.
  A leading ``python``/``python3`` of the task's test command is replaced by it.
- A result cache per key: in memory, then ``CACHE/evidence/<kind>/<key>.json``, filled under a file lock so
  concurrent workers run each expensive job once.
"""

from __future__ import annotations

import ast
import contextlib
import fcntl
import functools
import hashlib
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

from dure import sandbox
from dure.cache import cache_root
from dure.errors import DureError
from dure.tasks.errors import AnswerError, TaskError
from dure.tasks.frozen import FrozenDict, JsonValue
from dure.tasks.model import Task, canonical_json
from dure.verifiers.base import param, string_items
from dure.verifiers.sets import MAX_ITEMS, Gold, gold_of, normalize_qualname
from dure.workspace import workspace_file

PYTHON_ENV = "DURE_TEST_PYTHON"
DEFAULT_TIMEOUT = 180.0
MEMORY_CACHE_SIZE = 64
PYTHON_NAMES = frozenset({"python", "python3"})


class EvidenceError(DureError):
    """The evidence could not be gathered (tests do not run, the interpreter is unusable): no verdict."""


@dataclass(frozen=True, slots=True)
class Span:
    file: str
    start: int
    end: int


def spans_of(task: Task) -> dict[str, Span]:
    """The task's ``items`` parameter: qualified name -> span, names normalised."""
    return _spans(task.verifier.params)


@functools.lru_cache(maxsize=1024)
def _spans(params: FrozenDict) -> dict[str, Span]:
    raw = params.get("items")
    if not isinstance(raw, FrozenDict) or not raw:
        raise TaskError("verifier.params.items", "must map each claimable item to {file, start, end}")
    spans: dict[str, Span] = {}
    for name, spec in raw.items():
        where = f"verifier.params.items.{name}"
        if not isinstance(spec, FrozenDict):
            raise TaskError(where, "must be an object {file, start, end}")
        file, start, end = spec.get("file"), spec.get("start"), spec.get("end")
        if not isinstance(file, str) or not file.endswith(".py") or file.startswith("/") or ".." in file:
            raise TaskError(f"{where}.file", "must be a relative path to a .py file")
        if not (isinstance(start, int) and isinstance(end, int) and 1 <= start <= end):
            raise TaskError(where, "start and end must be line numbers with start <= end")
        spans[normalize_qualname(name)] = Span(file, start, end)
    return spans


def test_command(task: Task) -> list[str]:
    """The task's ``test_command`` with a leading ``python`` replaced by the test interpreter."""
    argv = string_items(param(task, "test_command", tuple), "verifier.params.test_command", limit=200,
                        error=TaskError)  # fmt: skip
    if not argv:
        raise TaskError("verifier.params.test_command", "must not be empty")
    if argv[0] in PYTHON_NAMES:
        argv[0] = test_python()
    return argv


def test_python() -> str:
    return os.environ.get(PYTHON_ENV) or sys.executable


def timeout_of(task: Task) -> float:
    value = param(task, "timeout", (int, float), DEFAULT_TIMEOUT)
    assert isinstance(value, int | float)
    return float(value)


# -- evidence lines ---------------------------------------------------------------------------------------


def _lines_of(node: ast.stmt) -> set[int]:
    end = node.end_lineno if node.end_lineno is not None else node.lineno
    return set(range(node.lineno, end + 1))


def _body_lines(body: list[ast.stmt]) -> set[int]:
    lines: set[int] = set()
    for index, statement in enumerate(body):
        if not (index == 0 and _is_docstring(statement)):
            lines |= _lines_of(statement)
    return lines


def _is_docstring(node: ast.stmt) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


def _statement_evidence(node: ast.stmt) -> set[int]:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return _body_lines(node.body)
    if isinstance(node, ast.ClassDef):
        return set().union(*(_statement_evidence(s) for s in node.body if not _runs_at_definition(s)))
    if isinstance(node, ast.Import | ast.ImportFrom | ast.Global | ast.Nonlocal | ast.Pass):
        return set()
    if isinstance(node, ast.If | ast.While):
        return _body_lines(node.body) | _body_lines(node.orelse)
    if isinstance(node, ast.For | ast.AsyncFor | ast.With | ast.AsyncWith):
        return _body_lines(node.body) | _body_lines(getattr(node, "orelse", []))
    return _lines_of(node)


def _runs_at_definition(node: ast.stmt) -> bool:
    """A class-body statement that runs when the class is defined (everything but nested defs)."""
    return not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)


def _first_line(node: ast.stmt) -> int:
    decorators = getattr(node, "decorator_list", [])
    return min([node.lineno, *(int(d.lineno) for d in decorators)])


def statements_in(tree: ast.Module, span: Span) -> list[ast.stmt]:
    """The outermost statements lying wholly inside ``span``."""
    found: list[ast.stmt] = []

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            end = node.end_lineno or node.lineno
            if _first_line(node) >= span.start and end <= span.end:
                found.append(node)
            elif _first_line(node) <= span.end and end >= span.start:
                for field in ("body", "orelse", "finalbody", "handlers"):
                    children = getattr(node, field, [])
                    visit([c for c in children if isinstance(c, ast.stmt)])
                for handler in getattr(node, "handlers", []):
                    visit(handler.body)

    visit(tree.body)
    return found


def evidence_lines(source: str, span: Span) -> frozenset[int]:
    """The lines of ``span`` that must never run if what it holds is dead (see the module docstring)."""
    try:
        tree = ast.parse(source)
    except SyntaxError as problem:
        raise TaskError(
            f"verifier.params.items ({span.file})", f"the file does not parse: {problem}"
        ) from None
    statements = statements_in(tree, span)
    if not statements:
        raise TaskError(
            "verifier.params.items", f"{span.file}:{span.start}-{span.end} holds no whole statement"
        )
    return frozenset(set().union(*(_statement_evidence(s) for s in statements)))


_EVIDENCE: dict[str, dict[str, frozenset[int]]] = {}


def evidence_of(task: Task) -> dict[str, frozenset[int]]:
    """Item -> evidence lines, for every item of the task (computed once per task id)."""
    found = _EVIDENCE.get(task.id)
    if found is None:
        sources: dict[str, str | None] = {}
        found = {}
        for name, span in spans_of(task).items():
            if span.file not in sources:
                sources[span.file] = workspace_file(task, span.file)
            text = sources[span.file]
            if text is None:
                raise TaskError(f"verifier.params.items.{name}", f"{span.file} is not in the workspace")
            found[name] = evidence_lines(text, span)
        if len(_EVIDENCE) > 4 * MEMORY_CACHE_SIZE:
            _EVIDENCE.clear()
        _EVIDENCE[task.id] = found
    return found


# -- sandboxed runs ---------------------------------------------------------------------------------------


def helper_source(name: str) -> str:
    return files("dure.verifiers._sandboxed").joinpath(name).read_text(encoding="utf-8")


@contextlib.contextmanager
def outbox(helpers: tuple[str, ...] = ()) -> Iterator[Path]:
    """A scratch directory the sandbox user can read and write, holding the named helper scripts."""
    folder = Path(tempfile.mkdtemp(prefix="dure-outbox-"))
    try:
        for name in helpers:
            (folder / name).write_text(helper_source(name), encoding="utf-8")
        user = sandbox.sandbox_user()  # the sandbox's own choice of user (nobody when running as root)
        if user is not None:
            for path in [folder, *folder.iterdir()]:
                os.chown(path, *user)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


TRAMPOLINE_FAILED = ("os.execvp(argv[0], argv)", "in _execvpe\n")


def run(
    argv: list[str], tree: Path, box: Path, timeout: float, env: Mapping[str, str]
) -> sandbox.SandboxResult:
    """Run ``argv`` in a sandboxed copy of ``tree`` with the outbox and the tree's ``src/`` importable.

    pytest's root is the copy itself: left to find it, pytest would climb past the copy to the first
    ``setup.py`` or ini file above it (in the temporary directory, say), and name every test from there."""
    if argv[1:3] == ["-m", "pytest"] and not any(a.startswith("--rootdir") for a in argv):
        argv = [*argv, "--rootdir=."]
    path = os.pathsep.join([str(box), ".", "src"])
    limits = sandbox.Limits(timeout=timeout, memory=4 * 1024**3, processes=256)
    full_env = {"PYTHONPATH": path, "DURE_OUTBOX": str(box), **env}
    result = sandbox.run_sandboxed(argv, directory=tree, limits=limits, env=full_env)
    # the trampoline could not exec: 3.12 prints its source line, 3.11 only the frames inside ``os``
    if result.exit_code is None or any(mark in result.stderr for mark in TRAMPOLINE_FAILED):
        raise EvidenceError(
            f"the test interpreter {argv[0]} could not run in the sandbox ({result.stderr.strip()[-200:]}); "
            f"set {PYTHON_ENV} to an interpreter the sandbox user can run"
        )
    return result


def read_json(path: Path, what: str, result: sandbox.SandboxResult) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        reason = "timed out" if result.timed_out else f"exit code {result.exit_code}"
        tail = (result.stderr.strip() or result.stdout.strip())[-400:]
        raise EvidenceError(f"{what} left no result ({reason}): {tail}") from None


# -- the result cache -------------------------------------------------------------------------------------


def cache_key(*parts: object) -> str:
    return hashlib.sha256(canonical_json(parts).encode("utf-8")).hexdigest()[:32]


def task_base_key(task: Task) -> list[object]:
    """What a run's result depends on besides the answer: repository, workspace, command, interpreter."""
    workspace = hashlib.sha256(task.workspace.encode("utf-8")).hexdigest()
    command = test_command(task)
    return [
        task.repo.name,
        task.repo.version,
        task.repo.sha256,
        workspace,
        command,
        test_python(),
        sandbox.SANDBOX_VERSION,
    ]


class ResultCache:
    """JSON results by key: in memory, then on disk; ``get_or_run`` runs a job once across processes.

    A job that fails with :class:`EvidenceError` is not retried by this process (nor cached on disk, so a
    new process tries again).
    """

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.memory: dict[str, Any] = {}
        self.failures: dict[str, str] = {}  # this process tries a failing job once, not once per answer

    def folder(self) -> Path:
        return cache_root() / "evidence" / self.kind

    def get_or_run(self, key: str, job: Callable[[], Any]) -> Any:
        if key in self.memory:
            return self.memory[key]
        if key in self.failures:
            raise EvidenceError(self.failures[key])
        folder = self.folder()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{key}.json"
        with (folder / f"{key}.lock").open("w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                value = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                try:
                    value = job()
                except EvidenceError as problem:
                    self.failures[key] = str(problem)
                    raise
                scratch = path.with_suffix(f".{os.getpid()}.tmp")
                scratch.write_text(json.dumps(value, sort_keys=True), encoding="utf-8")
                os.replace(scratch, path)
        if len(self.memory) >= MEMORY_CACHE_SIZE:
            self.memory.pop(next(iter(self.memory)))
        self.memory[key] = value
        return value


# -- set scoring with evidence ----------------------------------------------------------------------------


def claimed(task: Task, answer: JsonValue) -> tuple[Gold, set[str]]:
    """The task's reference sets and the answer's claimed items (normalised, ignored items dropped)."""
    gold = gold_of(task.answer, task.verifier.params)
    items = string_items(answer, "answer", limit=MAX_ITEMS, error=AnswerError)
    return gold, {gold.normalize(item) for item in items} - gold.ignored

"""What a repository's own tests execute: the calls they make and the lines they run.

One run of the test suite, in a subprocess, under a pytest plugin that records calls with
:class:`dure.analyzers.tracing.CallRecorder` (``sys.setprofile``) and lines with coverage.py. Generators use
it to cross-check static answers (a traced edge a static answer lacks drops the task) and to keep executed
code out of dead-code answers.

The run reuses the evidence verifiers' machinery (:mod:`dure.verifiers._evidence`): the sandbox (a private
copy of the tree, time and memory limits, no network), the outbox that carries the plugins in and the
results out, the ``_dure_pytest`` plugin (outcomes, and lines under coverage.py from before collection, so
import-time lines count) and the on-disk result cache. Our own plugin (:mod:`._evidence_plugin`) adds the
call recorder. The tests run on this interpreter unless ``$DURE_TEST_PYTHON`` names another, as for the
evidence verifiers (as root, the sandbox runs them as ``nobody``, who may not reach this one); the test
dependencies are checked here, in this interpreter's installed distributions. A result is cached under
``CACHE/evidence/runtime/`` by a digest of the tree, the command and its environment, the interpreters, the
analyzer version and the module names; failures are not cached.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dure.analyzers import _requirements, tracing
from dure.analyzers.builder import ANALYZER_VERSION
from dure.corpus.manifest import TestSpec
from dure.errors import DureError
from dure.sandbox import SANDBOX_VERSION
from dure.verifiers import _evidence
from dure.verifiers._evidence import EvidenceError

CACHE_KIND = "runtime"
PLUGIN = "_dure_evidence"  # the module name our plugin has in the outbox
_OUTPUT_TAIL = 400
_DURE = Path(tracing.__file__).resolve().parents[1]  # this dure package
#: The call recorder and the one module it imports, as the tested process gets them (see _copy_recorder).
_RECORDER_FILES = ("errors.py", "analyzers/tracing.py")


@dataclass(frozen=True, slots=True)
class TestEvidence:
    """The outcome of one run of a repository's tests.

    ``edges`` are the call edges (caller, callee) between the repository's own definitions, named as the
    index names them; ``sites`` the same calls with the caller's line that made each (caller, line, callee),
    which tell the index's call sites apart, and ``positions`` with the span of the instruction that made
    each (caller, line, column, end line, end column, callee), which tell apart the calls of one line;
    ``executed`` maps a file (relative to the repository root,
    POSIX) to the lines the tests ran, import time included; ``passed``/``failed`` count test outcomes
    (errors in setup or teardown count as failed, skipped tests not at all); ``seconds`` is the run's
    duration (the cached run's, on a cache hit). ``error`` says why the tests could not run here (a missing
    test dependency, a timeout); the other fields are then empty.
    """

    __test__ = False  # not a pytest test class

    edges: frozenset[tuple[str, str]] = frozenset()
    sites: frozenset[tracing.Site] = frozenset()
    positions: frozenset[tracing.Position] = frozenset()
    executed: Mapping[str, frozenset[int]] = field(default_factory=dict)
    passed: int = 0
    failed: int = 0
    seconds: float = 0.0
    error: str | None = None

    @property
    def ran(self) -> bool:
        return self.error is None


def collect_evidence(
    root: Path, tests: TestSpec, *, module_of: Mapping[str, str], timeout: float = 600.0, cache: bool = True
) -> TestEvidence:
    """Run the tests of the tree at ``root`` once and return what they executed; never raises.

    ``module_of`` maps each analysed file (POSIX, relative to ``root``) to the module name the index gives
    it; traced names use it, and only edges between those modules' definitions are kept. ``root`` is only
    read: the tests run in a private copy.
    """
    unmet = missing_requirement(tests)
    if unmet is not None:
        return TestEvidence(error=unmet)
    try:
        argv = pytest_command(tests.command)
        modules = dict(module_of)
        env = tests.environment()
        job = functools.partial(_run, root, argv, modules, env, timeout)
        if not cache:
            return _from_json(job())
        key = evidence_key(root, tests, modules)
        return _cached(key, job)
    except (DureError, OSError, ValueError, KeyError, TypeError) as problem:
        return TestEvidence(error=str(problem) or type(problem).__name__)


# -- what the run needs -----------------------------------------------------------------------------------


def missing_requirement(tests: TestSpec) -> str | None:
    """Why the tests cannot run: pytest or a declared test dependency is not installed in the test
    interpreter (``$DURE_TEST_PYTHON``, else this one), which is asked when it is another."""
    python = _evidence.test_python()
    if _is_this_interpreter(python):
        return _requirements.unmet(tests.deps, sys.executable)
    return _unmet_in(python, tests.deps)


#: How long the test interpreter may take to say what it lacks.
REQUIREMENTS_TIMEOUT = 60.0


def _is_this_interpreter(python: str) -> bool:
    """Whether ``python`` names this interpreter (as a path: two virtualenvs share their base's binary)."""
    found = shutil.which(python) or python
    return os.path.abspath(found) == os.path.abspath(sys.executable)


def _unmet_in(python: str, requirements: Sequence[str]) -> str | None:
    """:func:`dure.analyzers._requirements.unmet`, answered by the interpreter ``python``."""
    source = Path(_requirements.__file__).read_text(encoding="utf-8")
    try:
        done = subprocess.run(
            [python, "-c", source, json.dumps(list(requirements))],
            capture_output=True,
            text=True,
            timeout=REQUIREMENTS_TIMEOUT,
            cwd=os.path.abspath(os.sep),  # nothing of the current directory shadows what it imports
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as problem:
        return f"cannot run the test interpreter {python}: {problem}"
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        last = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        return f"the test interpreter {python} cannot check the test dependencies: {last}"
    try:
        answer = json.loads(lines[-1])
    except ValueError:
        return f"the test interpreter {python} gave no answer about the test dependencies: {lines[-1]!r}"
    return answer if isinstance(answer, str) else None


def pytest_command(command: Sequence[str]) -> list[str]:
    """The test command run by the test interpreter (``$DURE_TEST_PYTHON``, else this one, as for the
    evidence verifiers: as root the sandbox runs it as ``nobody``); only pytest carries the plugins.
    """
    argv = list(command)
    if argv and argv[0] in ("pytest", "py.test"):
        argv[:1] = ["python", "-m", "pytest"]
    if len(argv) < 3 or argv[0] not in _evidence.PYTHON_NAMES or argv[1:3] != ["-m", "pytest"]:
        raise EvidenceError(f"only a pytest command (python -m pytest ...) can be traced, not {command!r}")
    return [_evidence.test_python(), *argv[1:]]


# -- the cache --------------------------------------------------------------------------------------------


def evidence_key(root: Path, tests: TestSpec, module_of: Mapping[str, str]) -> str:
    """What a run's result depends on: the tree, the command and its environment, the interpreter (its
    version and its installation), the analyzer version (the recorder and the plugin) and the names given.
    """
    interpreter = [sys.version, sys.executable, _evidence.test_python(), SANDBOX_VERSION]
    command = [list(tests.command), sorted(tests.env)]
    return _evidence.cache_key(CACHE_KIND, tree_digest(root), command, interpreter, ANALYZER_VERSION,
                               dict(module_of))  # fmt: skip


def tree_digest(root: Path) -> str:
    """A digest of the files the tests may read (data files as well as Python files), names included."""
    hasher = hashlib.sha256()
    for relpath, path in sorted(_tree_files(root)):
        content = path.read_bytes()
        hasher.update(f"{relpath}\0{len(content)}\0".encode())
        hasher.update(content)
    return hasher.hexdigest()


def _tree_files(root: Path) -> Iterator[tuple[str, Path]]:
    """Every regular file under ``root``, bytecode and hidden directories (``.git``, ``.tox``) aside."""
    for directory, subdirectories, names in os.walk(root):
        subdirectories[:] = [d for d in subdirectories if not d.startswith(".") and d != "__pycache__"]
        for name in names:
            path = Path(directory, name)
            if not name.endswith((".pyc", ".pyo")) and path.is_file():
                yield path.relative_to(root).as_posix(), path


def _cached(key: str, job: functools.partial[dict[str, Any]]) -> TestEvidence:
    """The cached result for ``key``, running ``job`` when there is none or it is unreadable."""
    store = _evidence.ResultCache(CACHE_KIND)  # disk only: a repository's evidence is asked for once
    try:
        return _from_json(store.get_or_run(key, job))
    except (KeyError, TypeError, ValueError):  # valid JSON of the wrong shape: rebuild it
        (store.folder() / f"{key}.json").unlink(missing_ok=True)
        return _from_json(_evidence.ResultCache(CACHE_KIND).get_or_run(key, job))


def _from_json(data: Mapping[str, Any]) -> TestEvidence:
    return TestEvidence(
        edges=frozenset((str(a), str(b)) for a, b in data["edges"]),
        sites=frozenset((str(a), int(line), str(b)) for a, line, b in data["sites"]),
        positions=frozenset(
            (str(a), int(line), int(column), int(end), int(end_column), str(b))
            for a, line, column, end, end_column, b in data["positions"]
        ),
        executed={str(f): frozenset(int(n) for n in lines) for f, lines in data["executed"].items()},
        passed=int(data["passed"]),
        failed=int(data["failed"]),
        seconds=float(data["seconds"]),
    )


# -- the run ----------------------------------------------------------------------------------------------


def _copy_recorder(box: Path) -> Path:
    """Copy the recorder's sources into the outbox, as a ``dure`` package of their own, and return the
    recorder's path. The sandbox user may not be able to read the installed package (a virtualenv in
    root's home), and the installed analyzers may be compiled modules that a test interpreter cannot load."""
    for relative in _RECORDER_FILES:
        target = box / "dure" / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(_DURE / relative, target)
    for package in (box / "dure", box / "dure" / "analyzers"):
        (package / "__init__.py").write_text("", encoding="utf-8")
    return box / "dure" / "analyzers" / "tracing.py"


def _run(
    root: Path, argv: list[str], modules: dict[str, str], env: Mapping[str, str], timeout: float
) -> dict[str, Any]:
    """Run the tests once in the sandbox under both plugins and return the result as cacheable JSON."""
    command = [*argv, "-p", "_dure_pytest", "-p", PLUGIN]
    with _evidence.outbox(("_dure_pytest.py",)) as box:
        plugin = Path(__file__).with_name("_evidence_plugin.py").read_text(encoding="utf-8")
        (box / f"{PLUGIN}.py").write_text(plugin, encoding="utf-8")
        (box / "modules.json").write_text(json.dumps(modules), encoding="utf-8")
        tracer = _copy_recorder(box)
        run_env = {**env, "DURE_COVERAGE": "1", "DURE_TRACER": str(tracer)}
        result = _evidence.run(command, root, box, timeout, run_env)
        if result.timed_out:
            raise EvidenceError(f"the tests did not finish within {timeout:g}s")
        outcome = _evidence.read_json(box / "pytest.json", "the test run", result)
        calls = _evidence.read_json(box / "calls.json", "the call recorder", result)
    outcomes: dict[str, str] = outcome["outcomes"]
    passed = sum(1 for o in outcomes.values() if o == "passed")
    failed = sum(1 for o in outcomes.values() if o.endswith("failed"))
    if result.exit_code not in (0, 1) or passed + failed == 0:
        raise EvidenceError(f"the tests did not run (exit code {result.exit_code}, {passed + failed} tests "
                            f"ran): {_why(result.stdout, result.stderr)}")  # fmt: skip
    if outcome["elsewhere"]:
        raise EvidenceError(f"the tests imported the repository's modules from elsewhere, not from the tree: "
                            f"{', '.join(outcome['elsewhere'])}")  # fmt: skip
    prefixes = frozenset(modules.values())
    edges = sorted(e for e in calls["edges"] if _inside(e[0], prefixes) and _inside(e[1], prefixes))
    sites = sorted(s for s in calls["sites"] if _inside(s[0], prefixes) and _inside(s[2], prefixes))
    positions = sorted(p for p in calls["positions"] if _inside(p[0], prefixes) and _inside(p[5], prefixes))
    executed = {f: sorted(n for n in map(int, lines) if n > 0) for f, lines in outcome["lines"].items()}
    executed = {f: lines for f, lines in executed.items() if lines}  # an empty module "runs" line 0
    return {"edges": edges, "sites": sites, "positions": positions, "executed": executed, "passed": passed,
            "failed": failed, "seconds": round(result.duration, 3)}  # fmt: skip


def _why(stdout: str, stderr: str) -> str:
    """The reason pytest gives (its last ``E`` line, such as an import error) and its summary line."""
    lines = [line.strip() for line in stdout.splitlines() if line.strip()]
    reasons = [line[1:].strip() for line in lines if line.startswith("E ")]
    found = [*reasons[-1:], *lines[-1:]]
    return "; ".join(found)[-_OUTPUT_TAIL:] if found else stderr.strip()[-_OUTPUT_TAIL:]


def _inside(name: str, modules: frozenset[str]) -> bool:
    """Is ``name`` a module of ``modules`` or defined in one (``pkg.mod.f`` under ``pkg.mod``)?"""
    parts = name.split(".")
    return any(".".join(parts[:end]) in modules for end in range(len(parts), 0, -1))


__all__ = ["TestEvidence", "collect_evidence", "evidence_key", "missing_requirement", "tree_digest"]

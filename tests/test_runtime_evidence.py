"""Runtime evidence: one run of a repository's own tests gives the call edges and executed lines, named as
the index names them (``src/`` layouts included), cached by the tree; every failure is an error, not a raise.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import TemporaryRepo
from evidence_support import sandbox_python

from dure.analyzers import build_index, runtime
from dure.analyzers.model import DefinitionKind
from dure.analyzers.runtime import TestEvidence, collect_evidence, evidence_key, missing_requirement
from dure.analyzers.tracing import CallRecorder
from dure.cache import cache_root
from dure.corpus import resolve_repositories
from dure.corpus.manifest import TestSpec
from dure.verifiers import _evidence

TESTS = TestSpec(command=("python", "-m", "pytest", "-q", "-p", "no:cacheprovider"), deps=("pytest",))

CALC = """\
def double(x):
    return add(x, x)


def add(a, b):
    return a + b


def unused():
    return 0


class Counter:
    def __init__(self):
        self.count = 0

    def bump(self):
        self.count = add(self.count, 1)
        return self.count
"""

TEST_CALC = """\
from pkg.calc import Counter, add, double


def test_double():
    assert double(2) == 4


def test_counter():
    counter = Counter()
    assert counter.bump() == 1


def test_fails():
    assert add(1, 1) == 3
"""

FLAT = {
    "pkg/__init__.py": '"""The fixture package."""\nVERSION = "1.0"\n',
    "pkg/calc.py": CALC,
    "tests/test_calc.py": TEST_CALC,
    "README": "not Python\n",
}

SRC = {
    "src/spkg/__init__.py": "from spkg.core import greet\n",
    "src/spkg/core.py": (
        'def greet(name):\n    return "hello " + shout(name)\n\n\ndef shout(name):\n    return name.upper()\n'
    ),
    "tests/test_core.py": "import spkg\n\n\ndef test_greet():\n    assert spkg.greet('a') == 'hello A'\n",
}


@pytest.fixture(scope="module", autouse=True)
def _test_python() -> Iterator[None]:
    """An interpreter the sandbox user can run (as root the sandbox drops to ``nobody``)."""
    saved = os.environ.get(_evidence.PYTHON_ENV)
    os.environ[_evidence.PYTHON_ENV] = sandbox_python()
    yield
    if saved is None:
        os.environ.pop(_evidence.PYTHON_ENV, None)
    else:
        os.environ[_evidence.PYTHON_ENV] = saved


def modules_of(root: Path) -> dict[str, str]:
    """What a caller passes: each analysed file's module name, from the index."""
    index = build_index(root, cache=False)
    return {d.file: d.qualname for d in index.definitions.values() if d.kind is DefinitionKind.MODULE}


def evidence(root: Path, tests: TestSpec = TESTS, **options: Any) -> TestEvidence:
    return collect_evidence(root, tests, module_of=modules_of(root), **options)


def facts(found: TestEvidence) -> tuple[object, ...]:
    """Everything but the duration."""
    return found.edges, found.executed, found.passed, found.failed, found.error


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


@pytest.fixture
def count_runs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the test runs (a cache hit runs nothing)."""
    runs: list[int] = []
    real: Callable[..., dict[str, Any]] = runtime._run

    def counting(*args: Any) -> dict[str, Any]:
        runs.append(1)
        return real(*args)

    monkeypatch.setattr(runtime, "_run", counting)
    return runs


def test_edges_lines_and_outcomes_of_a_flat_package(temporary_repo: TemporaryRepo) -> None:
    root = temporary_repo(FLAT)
    before = snapshot(root)
    found = evidence(root, cache=False)
    assert found.error is None
    assert found.ran
    assert found.edges == {
        ("tests.test_calc.test_double", "pkg.calc.double"),
        ("pkg.calc.double", "pkg.calc.add"),
        ("tests.test_calc.test_counter", "pkg.calc.Counter.__init__"),
        ("tests.test_calc.test_counter", "pkg.calc.Counter.bump"),
        ("pkg.calc.Counter.bump", "pkg.calc.add"),
        ("tests.test_calc.test_fails", "pkg.calc.add"),
    }
    assert found.sites == {  # the same calls, by the line of the caller that made each
        ("tests.test_calc.test_double", 5, "pkg.calc.double"),
        ("pkg.calc.double", 2, "pkg.calc.add"),
        ("tests.test_calc.test_counter", 9, "pkg.calc.Counter.__init__"),
        ("tests.test_calc.test_counter", 10, "pkg.calc.Counter.bump"),
        ("pkg.calc.Counter.bump", 18, "pkg.calc.add"),
        ("tests.test_calc.test_fails", 14, "pkg.calc.add"),
    }
    assert {(p[0], p[1], p[5]) for p in found.positions} == found.sites  # and by the call's span
    assert ("tests.test_calc.test_counter", 10, 11, 10, 25, "pkg.calc.Counter.bump") in found.positions
    assert found.executed == {
        "pkg/__init__.py": {1, 2},
        "pkg/calc.py": {1, 2, 5, 6, 9, 13, 14, 15, 17, 18, 19},
        "tests/test_calc.py": {1, 4, 5, 8, 9, 10, 13, 14},
    }
    assert (found.passed, found.failed) == (2, 1)
    assert found.seconds > 0
    assert snapshot(root) == before  # the tests ran in a copy


def test_a_src_layout_is_named_as_the_index_names_it(temporary_repo: TemporaryRepo) -> None:
    root = temporary_repo(SRC)
    found = evidence(root, cache=False)
    assert found.error is None
    assert found.edges == {
        ("tests.test_core.test_greet", "spkg.core.greet"),
        ("spkg.core.greet", "spkg.core.shout"),
    }
    assert found.executed == {
        "src/spkg/__init__.py": {1},
        "src/spkg/core.py": {1, 2, 5, 6},
        "tests/test_core.py": {1, 4, 5},
    }
    assert (found.passed, found.failed) == (1, 0)


def test_the_recorder_runs_where_the_installed_package_is_out_of_reach(
    temporary_repo: TemporaryRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """dure installed in a directory only its owner may enter (a virtualenv in root's home): the sandbox user
    (``nobody``, when running as root) cannot read it, so the recorder goes into the outbox as a copy."""
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    for relative in runtime._RECORDER_FILES:
        copy = private / "dure" / relative
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_bytes((runtime._DURE / relative).read_bytes())
    monkeypatch.setattr(runtime, "_DURE", private / "dure")
    found = evidence(temporary_repo(FLAT), cache=False)
    assert found.error is None
    assert ("pkg.calc.double", "pkg.calc.add") in found.edges
    assert (found.passed, found.failed) == (2, 1)


def test_the_recorder_takes_module_names_from_the_caller(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "m.py").write_text("def f():\n    return g()\n\n\ndef g():\n    return 1\n")
    spec = importlib.util.spec_from_file_location("m_under_test", tmp_path / "src" / "m.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    named, default = CallRecorder(tmp_path, {"src/m.py": "m"}), CallRecorder(tmp_path)
    for recorder in (named, default):
        with recorder:
            module.f()
    assert ("m.f", "m.g") in named.trace().edges
    assert ("src.m.f", "src.m.g") in default.trace().edges


def test_without_c_calls_the_recorder_keeps_the_python_calls(tmp_path: Path) -> None:
    source = "def f(xs):\n    return sorted(xs, key=g) + [len(xs)]\n\n\ndef g(x):\n    return -x\n"
    (tmp_path / "m.py").write_text(source)
    spec = importlib.util.spec_from_file_location("m_without_c_calls", tmp_path / "m.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    full, calls_only = CallRecorder(tmp_path), CallRecorder(tmp_path, c_calls=False)
    for recorder in (full, calls_only):
        with recorder:
            module.f([1, 2])
    assert full.trace().edges == {("m.f", "m.g"), ("m.f", "builtins.sorted"), ("m.f", "builtins.len")}
    assert calls_only.trace().edges == {("m.f", "m.g")}
    assert calls_only.trace().through == frozenset()


def test_a_missing_test_dependency_is_an_error(temporary_repo: TemporaryRepo, count_runs: list[int]) -> None:
    root = temporary_repo(FLAT)
    tests = TestSpec(command=TESTS.command, deps=("pytest", "dure-no-such-distribution>=1"))
    found = evidence(root, tests)
    assert not found.ran
    assert found.error is not None
    assert "dure-no-such-distribution is not installed" in found.error
    assert found.edges == frozenset()
    assert found.executed == {}
    assert count_runs == []


def test_requirements_are_read_with_markers_and_versions() -> None:
    assert missing_requirement(TESTS) is None
    assert missing_requirement(TestSpec(TESTS.command, deps=("absent-dist; python_version < '3'",))) is None
    unmet = missing_requirement(TestSpec(TESTS.command, deps=("pytest>=999",)))
    assert unmet is not None
    assert "pytest>=999" in unmet
    unreadable = missing_requirement(TestSpec(TESTS.command, deps=("not a requirement!",)))
    assert unreadable is not None
    assert "cannot read" in unreadable


def test_a_suite_that_fails_to_import_is_an_error(temporary_repo: TemporaryRepo) -> None:
    root = temporary_repo({**FLAT, "tests/test_broken.py": "import dure_no_such_module\n"})
    found = evidence(root, cache=False)
    assert found.error is not None
    assert "did not run" in found.error
    assert "dure_no_such_module" in found.error


def test_a_suite_without_tests_is_an_error(temporary_repo: TemporaryRepo) -> None:
    root = temporary_repo({"pkg/__init__.py": "", "tests/test_nothing.py": "X = 1\n"})
    found = evidence(root, cache=False)
    assert found.error is not None
    assert "0 tests ran" in found.error


def test_a_timeout_is_an_error(temporary_repo: TemporaryRepo) -> None:
    slow = "import time\n\n\ndef test_sleeps():\n    time.sleep(60)\n"
    root = temporary_repo({"pkg/__init__.py": "", "tests/test_slow.py": slow})
    found = evidence(root, cache=False, timeout=3)
    assert found.error == "the tests did not finish within 3s"


def test_only_pytest_commands_are_traced(temporary_repo: TemporaryRepo) -> None:
    root = temporary_repo(FLAT)
    found = evidence(root, TestSpec(command=("python", "-m", "unittest")), cache=False)
    assert found.error is not None
    assert "only a pytest command" in found.error


def test_the_cache_is_reused_and_a_corrupt_entry_rebuilt(
    temporary_repo: TemporaryRepo, count_runs: list[int]
) -> None:
    root = temporary_repo(FLAT)
    first = evidence(root)
    assert first.ran
    assert evidence(root) == first  # the duration too: it is the cached run's
    assert len(count_runs) == 1
    (entry,) = (cache_root() / "evidence" / "runtime").glob(
        f"{evidence_key(root, TESTS, modules_of(root))}.json"
    )
    for corrupt in ("{not json", '{"edges": 3}'):
        entry.write_text(corrupt, encoding="utf-8")
        assert facts(evidence(root)) == facts(first)
    assert len(count_runs) == 3
    assert facts(evidence(root, cache=False)) == facts(first)
    assert len(count_runs) == 4


def test_the_key_follows_the_tree_the_command_and_the_names(temporary_repo: TemporaryRepo) -> None:
    root = temporary_repo(FLAT)
    modules = modules_of(root)
    key = evidence_key(root, TESTS, modules)
    assert evidence_key(root, TESTS, dict(reversed(modules.items()))) == key
    assert evidence_key(root, TestSpec(command=(*TESTS.command, "-x")), modules) != key
    assert evidence_key(root, TESTS, {**modules, "pkg/calc.py": "other"}) != key
    (root / "README").write_text("changed\n", encoding="utf-8")
    assert evidence_key(root, TESTS, modules) != key
    (root / "pkg" / "__pycache__").mkdir()
    (root / "pkg" / "__pycache__" / "calc.cpython-311.pyc").write_bytes(b"\0")
    assert evidence_key(root, TESTS, modules) == evidence_key(root, TESTS, modules_of(root))


@pytest.mark.slow
def test_runtime_evidence_of_docstring_parser() -> None:
    (repository,) = resolve_repositories("docstring-parser", corpus="default")
    assert repository.spec is not None
    assert repository.spec.tests is not None
    index = build_index(repository.root)
    modules = {d.file: d.qualname for d in index.definitions.values() if d.kind is DefinitionKind.MODULE}
    found = collect_evidence(repository.root, repository.spec.tests, module_of=modules)
    assert found.error is None
    assert found.passed > 100
    assert found.failed == 0
    assert len(found.edges) > 100
    outside = sorted(e for e in found.edges if e[0] not in index.definitions or e[1] not in index.definitions)
    assert not outside, outside[:20]
    product = {
        d.file for d in index.definitions.values() if d.kind is DefinitionKind.MODULE and not d.is_test
    }
    ran = {file for file in product if found.executed.get(file)}
    assert len(ran) >= 0.8 * len(product), sorted(product - ran)
    assert set(found.executed) <= {
        p.relative_to(repository.root).as_posix() for p in repository.root.rglob("*.py")
    }


def test_the_interpreter_replaces_python(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(_evidence.PYTHON_ENV, sys.executable)
    assert runtime.pytest_command(["python3", "-m", "pytest", "-q"]) == [sys.executable, "-m", "pytest", "-q"]
    assert runtime.pytest_command(["pytest", "-q"]) == [sys.executable, "-m", "pytest", "-q"]


def test_requirements_are_checked_in_the_test_interpreter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tests run on ``$DURE_TEST_PYTHON``: what it holds decides, not what dure's interpreter holds."""
    other = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(other)], check=True)
    python = str(other / "bin" / "python")
    monkeypatch.setenv(_evidence.PYTHON_ENV, python)
    bare = missing_requirement(TESTS)
    assert bare == f"pytest is not installed in {python}"  # although this interpreter has pytest

    site = next(other.glob("lib/python*/site-packages"))

    def install(name: str, version: str) -> None:
        info = site / f"{name.replace('-', '_')}-{version}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")

    install("pytest", "8.0")
    assert missing_requirement(TESTS) == (
        f"coverage is not installed in {python} (dure's pytest plugin measures the tests with it)"
    )
    install("coverage", "7.4")
    install("dure-only-there", "1.2")
    packaging = Path(importlib.util.find_spec("packaging").origin).parent  # type: ignore[union-attr,arg-type]
    (site / "packaging").symlink_to(packaging)
    assert missing_requirement(TestSpec(TESTS.command, deps=("dure-only-there>=1",))) is None
    assert runtime._requirements.unmet(["dure-only-there>=1"], sys.executable) is not None  # not here
    unmet = missing_requirement(TestSpec(TESTS.command, deps=("dure-only-there>=2",)))
    assert unmet == (
        f"the test dependency 'dure-only-there>=2' is not met: dure-only-there 1.2 is installed in {python}"
    )


def test_a_test_interpreter_that_cannot_run_is_a_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(_evidence.PYTHON_ENV, str(tmp_path / "no-such-python"))
    unmet = missing_requirement(TESTS)
    assert unmet is not None
    assert unmet.startswith(f"cannot run the test interpreter {tmp_path / 'no-such-python'}")
    broken = tmp_path / "broken-python"
    broken.write_text("#!/bin/sh\necho 'no python here' >&2\nexit 3\n")
    broken.chmod(0o755)
    monkeypatch.setenv(_evidence.PYTHON_ENV, str(broken))
    assert missing_requirement(TESTS) == (
        f"the test interpreter {broken} cannot check the test dependencies: no python here"
    )

"""Shared fixtures and the one-line vocabulary of the index tests.

``temporary_repo({...})`` writes a repository from a mapping of relative paths to contents; the ``assert_*``
helpers state one fact about its index and, on failure, print the input and what the index said.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from dure.analyzers import QueryResult, RepoIndex, build_index

# Unknown syntax raises in tests instead of becoming a diagnostic (read by the builder at run time).
os.environ.setdefault("DURE_STRICT", "1")

RepoFiles = Mapping[str, str | bytes]

#: The ground-truth cases are inputs to the index (some are test files of their own little repositories).
collect_ignore = ["cases"]


@pytest.fixture
def checker_runs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of files of every type-checker run the types verifier makes from now on."""
    from dure.verifiers import types  # noqa: PLC0415 - only the tests that count runs pay for the import

    runs: list[int] = []
    real = types._check_batch

    def counted(settings: Any, requests: list[tuple[Any, list[str]]]) -> Any:
        runs.append(sum(len(texts) for _, texts in requests))
        return real(settings, requests)

    monkeypatch.setattr(types, "_check_batch", counted)
    return runs


@pytest.fixture
def forks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The pids of the processes forked from now on (by the index builder's helpers and writers)."""
    started: list[int] = []
    real_fork = os.fork

    def counted_fork() -> int:
        pid = real_fork()
        if pid:
            started.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", counted_fork)
    return started


TemporaryRepo = Callable[[RepoFiles], Path]


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Every test writes its caches under a per-session directory, never the user's."""
    directory = tmp_path_factory.mktemp("dure-cache")
    saved = os.environ.get("DURE_CACHE")
    os.environ["DURE_CACHE"] = str(directory)
    yield directory
    if saved is None:
        os.environ.pop("DURE_CACHE", None)
    else:
        os.environ["DURE_CACHE"] = saved


def write_repo(root: Path, files: RepoFiles) -> Path:
    """Write ``files`` (relative path -> text or bytes) under ``root``; an empty path names a directory."""
    root.mkdir(parents=True, exist_ok=True)
    for relpath, content in files.items():
        path = root / relpath
        if relpath.endswith("/"):
            path.mkdir(parents=True, exist_ok=True)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


@pytest.fixture
def temporary_repo(tmp_path: Path) -> TemporaryRepo:
    """``temporary_repo({"pkg/__init__.py": "", ...})`` -> the directory holding those files."""
    count = 0

    def make(files: RepoFiles) -> Path:
        nonlocal count
        count += 1
        return write_repo(tmp_path / f"repo{count}", files)

    return make


@pytest.fixture
def indexed(temporary_repo: TemporaryRepo) -> Callable[[RepoFiles], RepoIndex]:
    """``indexed({...})`` -> the uncached index of a temporary repository holding those files."""

    def make(files: RepoFiles) -> RepoIndex:
        return build_index(temporary_repo(files), cache=False)

    return make


def _describe(index: RepoIndex) -> str:
    edges = "\n".join(
        f"  {e.caller} -> {e.callee} [{e.certainty.value}] {e.file}:{e.line}" for e in index.edges()
    )
    sources = "\n".join(
        f"--- {path.relative_to(index.root)}\n{path.read_text(encoding='utf-8', errors='replace')}"
        for path in sorted(index.root.rglob("*.py"))
        if path.is_file()
    )
    return f"input:\n{sources}\nedges:\n{edges}"


def _check(
    index: RepoIndex, result: QueryResult, got: object, expected: object, certain: bool | None
) -> None:
    query = f"{result.query}({result.subject})"
    assert got == expected, f"{query} = {got!r}, expected {expected!r}\n{_describe(index)}"
    if certain is not None:
        assert result.certain is certain, (
            f"{query}: certain={result.certain}, want {certain}; {result.reasons}\n{_describe(index)}"
        )


def assert_callers(
    index: RepoIndex,
    qualname: str,
    expected: set[str],
    *,
    certain: bool | None = None,
    possible: set[str] | None = None,
) -> None:
    """The certain callers of ``qualname`` are ``expected``; if given, the possible ones are ``possible``."""
    result = index.callers(qualname)
    _check(index, result, set(result.value), expected, certain)
    if possible is not None:
        _check(index, result, set(result.possible), possible, None)


def assert_callees(
    index: RepoIndex,
    qualname: str,
    expected: set[str],
    *,
    certain: bool | None = None,
    possible: set[str] | None = None,
) -> None:
    result = index.callees(qualname)
    _check(index, result, set(result.value), expected, certain)
    if possible is not None:
        _check(index, result, set(result.possible), possible, None)


def assert_subclasses(
    index: RepoIndex, qualname: str, expected: set[str], *, certain: bool | None = None
) -> None:
    result = index.subclasses(qualname)
    _check(index, result, set(result.value), expected, certain)


def assert_external_deps(
    index: RepoIndex,
    qualname: str,
    expected: set[str],
    *,
    certain: bool | None = None,
    possible: set[str] | None = None,
) -> None:
    result = index.external_deps(qualname)
    _check(index, result, set(result.value), expected, certain)
    if possible is not None:
        _check(index, result, set(result.possible), possible, None)


def assert_paths(
    index: RepoIndex, source: str, target: str, expected: set[tuple[str, ...]], *, certain: bool | None = None
) -> None:
    result = index.shortest_paths(source, target)
    _check(index, result, set(result.value), expected, certain)


def assert_definition(index: RepoIndex, name: str, expected: str, *, certain: bool | None = None) -> None:
    result = index.definition(name)
    _check(index, result, set(result.value), {expected}, certain)

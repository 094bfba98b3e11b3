"""Finding a repository's Python files, naming their modules and reading them safely.

Every problem with one file becomes a :class:`Diagnostic` (``path:line: reason``) and the file is skipped:
syntax errors (Python 2 code among them), undecodable bytes, NUL bytes, files too large to be hand-written
source, nesting too deep for the parser, symlink loops.
"""

from __future__ import annotations

import ast
import io
import os
import tokenize
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from dure.analyzers.model import Diagnostic

#: Directories never indexed: tool caches, virtual environments, build output, VCS metadata.
SKIPPED_DIRECTORIES = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".tox",
        ".nox",
        ".venv",
        "venv",
        "env",
        "__pycache__",
        "node_modules",
        "build",
        "dist",
        ".eggs",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        "site-packages",
    }
)

#: Files larger than this are generated data, not source an agent should reason about.
MAX_SOURCE_BYTES = 4 * 1024 * 1024

TEST_DIRECTORY_NAMES = frozenset({"test", "tests", "testing"})


@dataclass(frozen=True, slots=True)
class SourceFile:
    """One Python file of a repository and the module name it gets."""

    path: Path  # absolute
    relpath: str  # relative to the indexed directory, with forward slashes
    module: str
    is_package: bool  # an ``__init__.py``
    is_test: bool


@dataclass(frozen=True, slots=True)
class Discovery:
    files: tuple[SourceFile, ...]
    diagnostics: tuple[Diagnostic, ...]


def is_test_path(parts: tuple[str, ...]) -> bool:
    """Test files: under ``test``/``tests``/``testing``, ``test_*.py``, ``*_test.py``, ``conftest.py``."""
    name = parts[-1]
    if name == "conftest.py" or name.startswith("test_") or name.endswith("_test.py"):
        return True
    return any(part in TEST_DIRECTORY_NAMES for part in parts[:-1])


def _module_name(parts: tuple[str, ...], prefix: tuple[str, ...]) -> tuple[str, bool]:
    stem = parts[-1][: -len(".py")]
    is_package = stem == "__init__"
    names = prefix + parts[:-1] + (() if is_package else (stem,))
    return ".".join(names), is_package


def _source_roots(root: Path) -> list[tuple[Path, tuple[str, ...]]]:
    """Where module names start: the directory itself (with its own name if it is a package) and ``src/``."""
    if (root / "__init__.py").is_file():
        return [(root, (root.resolve().name,))]
    roots: list[tuple[Path, tuple[str, ...]]] = [(root, ())]
    src = root / "src"
    if src.is_dir() and not (src / "__init__.py").exists():
        roots.insert(0, (src, ()))
    return roots


def discover(root: Path) -> Discovery:
    """List the Python files under ``root`` with their module names, following symlinks without looping."""
    root = root.absolute()
    files: dict[str, SourceFile] = {}
    diagnostics: list[Diagnostic] = []
    for base, prefix in _source_roots(root):
        skip = {"src"} if base == root and len(_source_roots(root)) > 1 else set()
        for path, parts in _walk(base, diagnostics, root, skip):
            relpath = path.relative_to(root).as_posix()
            if relpath in files:
                continue
            module, is_package = _module_name(parts, prefix)
            files[relpath] = SourceFile(path, relpath, module, is_package, is_test_path(parts))
    ordered = tuple(sorted(files.values(), key=lambda f: f.relpath))
    return Discovery(ordered, tuple(diagnostics))


def _walk(
    base: Path, diagnostics: list[Diagnostic], root: Path, skip: set[str]
) -> Iterator[tuple[Path, tuple[str, ...]]]:
    """Yield ``(path, parts relative to base)`` for every ``.py`` file; iterative, loop-safe."""
    seen: set[str] = set()
    stack: list[tuple[Path, tuple[str, ...]]] = [(base, ())]
    while stack:
        directory, parts = stack.pop()
        real = os.path.realpath(directory)
        if real in seen:
            diagnostics.append(
                Diagnostic(_rel(directory, root), 0, "symlink loop: directory already visited")
            )
            continue
        seen.add(real)
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError as problem:
            diagnostics.append(
                Diagnostic(_rel(directory, root), 0, f"cannot list directory: {problem.strerror}")
            )
            continue
        for entry in reversed(entries):
            name = entry.name
            try:
                is_dir = entry.is_dir()
                is_file = entry.is_file()
            except OSError as problem:
                diagnostics.append(Diagnostic(_rel(Path(entry.path), root), 0, f"unreadable: {problem}"))
                continue
            if is_dir:
                if name in SKIPPED_DIRECTORIES or name.startswith(".") or name.endswith(".egg-info"):
                    continue
                if not parts and name in skip:
                    continue
                stack.append((Path(entry.path), (*parts, name)))
            elif is_file and name.endswith(".py"):
                yield Path(entry.path), (*parts, name)
            elif entry.is_symlink() and name.endswith(".py"):
                diagnostics.append(Diagnostic(_rel(Path(entry.path), root), 0, "broken symlink"))


def _rel(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix() or "."
    except ValueError:
        return str(path)


@dataclass(frozen=True, slots=True)
class ParsedSource:
    text: str
    tree: ast.Module


def read_source(path: Path, relpath: str, data: bytes | None = None) -> ParsedSource | Diagnostic:
    """Decode and parse one file, or say precisely why it cannot be."""
    try:
        if data is None:
            data = path.read_bytes()
    except OSError as problem:
        return Diagnostic(relpath, 0, f"cannot read: {problem.strerror or problem}")
    if len(data) > MAX_SOURCE_BYTES:
        return Diagnostic(
            relpath, 0, f"skipped: {len(data)} bytes is larger than {MAX_SOURCE_BYTES} (generated?)"
        )
    nul = data.find(b"\0")
    if nul >= 0:
        return Diagnostic(relpath, data.count(b"\n", 0, nul) + 1, "source contains a NUL byte")
    text = _decode(data, relpath)
    if isinstance(text, Diagnostic):
        return text
    try:
        with warnings.catch_warnings():  # SyntaxWarning (invalid escapes...) is not an error in the code
            warnings.simplefilter("ignore")
            tree = ast.parse(text, filename=relpath, type_comments=False)
    except SyntaxError as problem:
        return Diagnostic(relpath, problem.lineno or 0, f"syntax error: {problem.msg}")
    except (RecursionError, MemoryError):
        return Diagnostic(relpath, 0, "nested too deeply for the Python parser")
    except ValueError as problem:  # e.g. source code string cannot contain null bytes
        return Diagnostic(relpath, 0, f"cannot parse: {problem}")
    return ParsedSource(text, tree)


def count_lines(text: str) -> int:
    """Lines as an editor counts them: a final newline does not start another line."""
    return text.count("\n") + (0 if not text or text.endswith("\n") else 1)


def _decode(data: bytes, relpath: str) -> str | Diagnostic:
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as problem:
        return Diagnostic(relpath, problem.lineno or 1, f"bad encoding declaration: {problem.msg}")
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as problem:
        line = data.count(b"\n", 0, problem.start) + 1
        return Diagnostic(relpath, line, f"cannot decode as {encoding}: byte {data[problem.start]:#04x}")
    except LookupError:
        return Diagnostic(relpath, 1, f"unknown encoding {encoding!r}")

"""The workspace an agent sees: the pinned source tree with the task's patch applied.

A task's ``workspace`` field is a unified diff against the pinned repository (empty when the agent sees the
repository as released). :func:`materialise` copies the source tree from the corpus cache (fetching it when
needed) or from the local directory the task records, applies the patch strictly (every context and removed
line must match where the hunk says, with no fuzz and no offset) and renames the finished tree into place,
so a failure leaves no partial output. :func:`parse_patch` and :func:`apply_file_patch` are the pure-Python
patch reader and applier.
"""

from __future__ import annotations

import difflib
import os
import re
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from dure.corpus.fetch import MARKER, fetch_package
from dure.corpus.manifest import PackageSpec
from dure.errors import DureError
from dure.tasks.model import RepoRef, Task

DEV_NULL = "/dev/null"
_HUNK = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_NO_NEWLINE = "\\ No newline at end of file"


class WorkspaceError(DureError):
    """A workspace cannot be built: a patch that does not parse or apply, an output directory in the way."""

    def __init__(self, reason: str, *, file: str | None = None, hunk: int | None = None) -> None:
        self.reason = reason
        self.file = file
        self.hunk = hunk
        where = f"{file}: " if file else ""
        which = f"hunk {hunk}: " if hunk is not None else ""
        super().__init__(f"{where}{which}{reason}")


@dataclass(frozen=True, slots=True)
class Hunk:
    """One ``@@`` block: where it starts in the old and new file, and its lines with their ``' -+'`` mark."""

    old_start: int
    old_count: int
    new_start: int
    new_count: int
    lines: tuple[tuple[str, str], ...]  # (mark, text with its line end, if any)

    @property
    def header(self) -> str:
        return f"@@ -{self.old_start},{self.old_count} +{self.new_start},{self.new_count} @@"


@dataclass(frozen=True, slots=True)
class FilePatch:
    """The changes to one file; ``old`` is ``None`` for a new file, ``new`` is ``None`` for a deleted one."""

    old: str | None
    new: str | None
    hunks: tuple[Hunk, ...]

    @property
    def path(self) -> str:
        name = self.new if self.new is not None else self.old
        assert name is not None  # a patch with neither side is rejected when parsed
        return name


def _lines(text: str) -> list[str]:
    """``text`` split after every ``\\n`` only (a form feed or a lone ``\\r`` stays inside its line)."""
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def _patch_path(raw: str, what: str) -> str | None:
    name = raw.rstrip("\n").split("\t", 1)[0].strip()
    if name == DEV_NULL:
        return None
    if name.startswith(("a/", "b/")):
        name = name[2:]
    parts = PurePosixPath(name).parts
    if not name or name.startswith("/") or ".." in parts or "\\" in name:
        raise WorkspaceError(f"unsafe or empty path in the {what} line: {raw.strip()!r}")
    return str(PurePosixPath(*parts))


def parse_patch(text: str) -> tuple[FilePatch, ...]:
    """The file patches of a unified diff; anything that is not a well-formed diff is a WorkspaceError."""
    lines = _lines(text)
    patches: list[FilePatch] = []
    index = 0
    while index < len(lines):
        if not lines[index].startswith("--- "):
            index += 1  # "diff --git", "index ..." and other header lines carry nothing we need
            continue
        if index + 1 >= len(lines) or not lines[index + 1].startswith("+++ "):
            raise WorkspaceError(f"line {index + 2} of the patch: expected '+++ ' after '--- '")
        old = _patch_path(lines[index][4:], "---")
        new = _patch_path(lines[index + 1][4:], "+++")
        if old is None and new is None:
            raise WorkspaceError(f"line {index + 1} of the patch: both sides are {DEV_NULL}")
        hunks, index = _parse_hunks(lines, index + 2, new or old or "")
        if not hunks:
            raise WorkspaceError("no hunks", file=new or old)
        patches.append(FilePatch(old, new, tuple(hunks)))
    return tuple(patches)


def _parse_hunks(lines: list[str], index: int, path: str) -> tuple[list[Hunk], int]:
    hunks: list[Hunk] = []
    while index < len(lines) and lines[index].startswith("@@"):
        match = _HUNK.match(lines[index])
        if match is None:
            raise WorkspaceError(f"malformed hunk header {lines[index].strip()!r}", file=path,
                                 hunk=len(hunks) + 1)  # fmt: skip
        old_start, old_count, new_start, new_count = (
            int(group) if group is not None else 1 for group in match.groups()
        )
        body: list[tuple[str, str]] = []
        index += 1
        old_seen = new_seen = 0
        while (old_seen < old_count or new_seen < new_count) and index < len(lines):
            line = lines[index]
            mark, content = (line[0], line[1:]) if line not in ("\n", "") else (" ", "\n")
            if mark not in " -+":
                break
            body.append((mark, content))
            old_seen += mark in " -"
            new_seen += mark in " +"
            index += 1
            if index < len(lines) and lines[index].rstrip("\r\n") == _NO_NEWLINE:
                body[-1] = (mark, content.removesuffix("\n"))
                index += 1
        if (old_seen, new_seen) != (old_count, new_count):
            raise WorkspaceError(
                f"the hunk has {old_seen} old and {new_seen} new lines, its header says {old_count} and "
                f"{new_count}",
                file=path,
                hunk=len(hunks) + 1,
            )
        hunks.append(Hunk(old_start, old_count, new_start, new_count, tuple(body)))
    return hunks, index


def apply_file_patch(original: str | None, patch: FilePatch) -> str | None:
    """The new text of one file (``None`` when the patch deletes it); a hunk that does not match raises."""
    if (original is None) != (patch.old is None):
        reason = "the file already exists" if original is not None else "the file does not exist"
        raise WorkspaceError(reason, file=patch.path)
    old_lines = _lines(original or "")
    result: list[str] = []
    position = 0  # index into old_lines of the next line not yet copied
    for number, hunk in enumerate(patch.hunks, start=1):
        start = hunk.old_start - 1 if hunk.old_count else hunk.old_start
        if start < position:
            raise WorkspaceError(f"{hunk.header} overlaps the previous hunk", file=patch.path, hunk=number)
        result.extend(old_lines[position:start])
        cursor = start
        for mark, content in hunk.lines:
            if mark in " -":
                found = old_lines[cursor] if cursor < len(old_lines) else None
                if found != content:
                    raise WorkspaceError(
                        f"{hunk.header} does not apply: line {cursor + 1} is {found!r}, the patch expects "
                        f"{content!r}",
                        file=patch.path,
                        hunk=number,
                    )
                cursor += 1
            if mark in " +":
                result.append(content)
        position = cursor
    result.extend(old_lines[position:])
    if patch.new is None:
        if result:
            raise WorkspaceError("the patch deletes the file but leaves lines in it", file=patch.path)
        return None
    return "".join(result)


def _read(path: Path) -> str | None:
    if not path.exists():
        return None
    return path.read_bytes().decode("utf-8", errors="surrogateescape")


def apply_patch(root: Path, patches: tuple[FilePatch, ...]) -> None:
    """Apply ``patches`` to the tree at ``root`` in place (callers work on a copy they can discard)."""
    for patch in patches:
        old_path = root / patch.old if patch.old is not None else None
        if old_path is None and (root / patch.path).exists():
            raise WorkspaceError("the patch creates the file, but it already exists", file=patch.path)
        text = apply_file_patch(_read(old_path) if old_path is not None else None, patch)
        if old_path is not None and (patch.new != patch.old or text is None):
            old_path.unlink()
        if text is not None and patch.new is not None:
            target = root / patch.new
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(text.encode("utf-8", errors="surrogateescape"))


def source_root(repo: RepoRef, *, cache: Path | None = None) -> Path:
    """The pinned source tree: the local directory the task records, else the corpus cache (fetching it)."""
    local = Path(repo.source)
    if local.is_absolute() and local.is_dir():
        return local
    spec = PackageSpec(repo.name, repo.version, repo.sha256, domain="", has_tests=False, tests=None)
    return fetch_package(spec, cache=cache)


def workspace_file(task: Task, relpath: str, *, cache: Path | None = None) -> str | None:
    """One file of the task's workspace (``None`` when it does not exist there), without copying the tree."""
    wanted = str(PurePosixPath(relpath))
    text = _read(source_root(task.repo, cache=cache) / wanted)
    for patch in parse_patch(task.workspace):
        if wanted in (patch.old, patch.new):
            text = apply_file_patch(text if patch.old == wanted else None, patch)
            if patch.new != wanted:
                text = None
    return text


def make_patch(changes: Mapping[str, tuple[str | None, str | None]]) -> str:
    """A unified diff turning each file's old text into its new one (``None``: the file does not exist).

    Files come in sorted order with three lines of context, so the same changes give the same bytes;
    :func:`parse_patch` and :func:`apply_file_patch` read it back exactly, a missing final newline included.
    """
    parts: list[str] = []
    for relpath in sorted(changes):
        old, new = changes[relpath]
        if old == new:
            continue
        name = str(PurePosixPath(relpath))
        diff = difflib.unified_diff(
            _lines(old or ""),
            _lines(new or ""),
            fromfile=f"a/{name}" if old is not None else DEV_NULL,
            tofile=f"b/{name}" if new is not None else DEV_NULL,
        )
        for line in diff:
            parts.append(line if line.endswith("\n") else f"{line}\n{_NO_NEWLINE}\n")
    return "".join(parts)


def _ignore_marker(directory: str, names: list[str]) -> list[str]:
    return [MARKER] if MARKER in names else []


def materialise(task: Task, out_dir: Path | str, *, cache: Path | None = None) -> Path:
    """Write the task's workspace to ``out_dir`` (which must not exist or be empty) and return it."""
    out = Path(out_dir).absolute()
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise WorkspaceError(f"{out} exists and is not an empty directory")
    patches = parse_patch(task.workspace)
    source = source_root(task.repo, cache=cache)
    out.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=".dure-workspace-", dir=out.parent))
    try:
        tree = scratch / "tree"
        shutil.copytree(source, tree, symlinks=True, ignore=_ignore_marker)
        apply_patch(tree, patches)
        if out.exists():
            out.rmdir()
        os.rename(tree, out)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return out


__all__ = [
    "FilePatch",
    "Hunk",
    "WorkspaceError",
    "apply_file_patch",
    "apply_patch",
    "make_patch",
    "materialise",
    "parse_patch",
    "source_root",
    "workspace_file",
]

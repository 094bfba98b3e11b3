"""The index cache: per-file summaries keyed by content hash, and the last whole index of each directory.

Writes are atomic (a temporary file renamed into place); a corrupt or foreign entry is ignored and rebuilt.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dure.analyzers.index import RepoIndex
from dure.analyzers.summary import FileResult
from dure.cache import cache_root

if TYPE_CHECKING:
    from dure.analyzers.source import SourceFile


def _atomic_write(path: Path, payload: object) -> None:
    write_pickled(path, pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL))


def write_pickled(path: Path, data: bytes) -> None:
    """Write an already pickled entry atomically (workers pickle a summary once, for the cache and the
    pool alike)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".pkl")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _load(path: Path) -> Any:
    try:
        with path.open("rb") as stream:
            return pickle.load(stream)
    except Exception:  # a damaged cache entry can fail in any way: it is rebuilt, never trusted
        return None


class IndexCache:
    """One cache directory for one analyzer version."""

    def __init__(self, directory: Path, root: Path) -> None:
        self.directory = directory
        self.root_key = hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:32]

    @classmethod
    def open(cls, root: Path, cache: Path | bool | None, version: str) -> IndexCache | None:
        if cache is False:
            return None
        base = cache_root() / "index" if cache is None or cache is True else Path(cache)
        return cls(base / f"v{version}", root)

    def summary_path(self, digest: str, source: SourceFile) -> Path:
        identity = hashlib.sha256(
            f"{source.relpath}\0{source.module}\0{source.is_test}".encode()
        ).hexdigest()[:16]
        return self.directory / "files" / digest[:2] / f"{digest}-{identity}.pkl"

    def load_summary(self, digest: str, source: SourceFile) -> FileResult | None:
        loaded = _load(self.summary_path(digest, source))
        return loaded if isinstance(loaded, FileResult) else None

    def _index_path(self) -> Path:
        return self.directory / "repos" / f"{self.root_key}.pkl"

    def load_index(self, fingerprint: str) -> RepoIndex | None:
        loaded = _load(self._index_path())
        if isinstance(loaded, tuple) and len(loaded) == 2 and loaded[0] == fingerprint:
            index = loaded[1]
            return index if isinstance(index, RepoIndex) else None
        return None

    def save_index(self, fingerprint: str, index: RepoIndex) -> None:
        with contextlib.suppress(OSError):
            _atomic_write(self._index_path(), (fingerprint, index))

"""The index cache: per-file summaries keyed by content hash, and the last whole index of each directory.

The summaries of every repository live in one SQLite database (``summaries.sqlite``), written one
transaction per build: a cold index of a large repository creates one file, not one per source file (on
ext4, creating a thousand files shortly after a thousand were deleted cost over a second of system time,
as the inode allocator steps over the recently freed ones). The whole index of a directory is one pickle,
written atomically (a temporary file renamed into place). A corrupt or foreign entry is ignored and
rebuilt; a database that cannot be read is replaced.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import sqlite3
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dure.analyzers.index import RepoIndex
from dure.analyzers.summary import FileResult
from dure.cache import cache_root

if TYPE_CHECKING:
    from dure.analyzers.source import SourceFile

SUMMARIES = "summaries.sqlite"
#: How long a build waits for another process's write to the summaries to finish, in seconds.
BUSY_TIMEOUT = 60.0
#: Keys per query (SQLite allows at least 999 parameters).
QUERY_KEYS = 500


def _atomic_write(path: Path, payload: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".pkl")
    try:
        with os.fdopen(handle, "wb") as stream:
            pickle.dump(payload, stream, protocol=pickle.HIGHEST_PROTOCOL)
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


def _unpickled_result(data: bytes) -> FileResult | None:
    try:
        loaded = pickle.loads(data)
    except Exception:  # a damaged entry can fail in any way: it is rebuilt, never trusted
        return None
    return loaded if isinstance(loaded, FileResult) else None


def summary_key(digest: str, source: SourceFile) -> str:
    """A summary's key: the file's content digest and its identity (path, module, test or not)."""
    identity = hashlib.sha256(f"{source.relpath}\0{source.module}\0{source.is_test}".encode()).hexdigest()
    return f"{digest}-{identity[:16]}"


class IndexCache:
    """One cache directory for one analyzer version. It holds no open connection, so it can be used on
    both sides of a ``fork``."""

    def __init__(self, directory: Path, root: Path) -> None:
        self.directory = directory
        self.root_key = hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:32]

    @classmethod
    def open(cls, root: Path, cache: Path | bool | None, version: str) -> IndexCache | None:
        if cache is False:
            return None
        base = cache_root() / "index" if cache is None or cache is True else Path(cache)
        return cls(base / f"v{version}", root)

    @property
    def summaries_path(self) -> Path:
        return self.directory / SUMMARIES

    # -- file summaries ------------------------------------------------------------------------------------

    def load_summaries(self, keys: Iterable[str]) -> dict[str, FileResult]:
        """The summaries stored under ``keys`` (those missing or damaged are left out)."""
        found: dict[str, FileResult] = {}
        for key, data in self._rows(keys):
            result = _unpickled_result(data)
            if result is not None:
                found[key] = result
        return found

    def _rows(self, keys: Iterable[str]) -> list[tuple[str, bytes]]:
        """The pickled summaries stored under ``keys``."""
        wanted = list(dict.fromkeys(keys))
        if not wanted or not self.summaries_path.is_file():
            return []
        rows: list[tuple[str, bytes]] = []
        try:
            with contextlib.closing(self._connect()) as connection:
                for start in range(0, len(wanted), QUERY_KEYS):
                    part = wanted[start : start + QUERY_KEYS]
                    placeholders = ",".join("?" * len(part))
                    query = f"SELECT key, data FROM summary WHERE key IN ({placeholders})"
                    rows.extend(connection.execute(query, part))
        except sqlite3.OperationalError:  # locked past the timeout, no table yet, unreadable: all missing
            return []
        except sqlite3.DatabaseError:  # not a database, or a damaged one
            self._discard_damaged()
            return []
        return rows

    def load_summary(self, digest: str, source: SourceFile) -> FileResult | None:
        key = summary_key(digest, source)
        return self.load_summaries([key]).get(key)

    def save_summaries(self, entries: Iterable[tuple[str, bytes]]) -> None:
        """Store pickled summaries by key, in one transaction. The cache is an optimisation: a write that
        fails leaves the entries to be rebuilt."""
        rows = list(entries)
        if not rows:
            return
        for _attempt in range(2):
            try:
                self._write(rows)
            except (sqlite3.OperationalError, OSError):  # locked past the timeout, a full disk, read-only
                return
            except sqlite3.DatabaseError:  # not a database, or a damaged one: written anew, once
                self._discard_damaged()
            else:
                return

    def stored_keys(self) -> set[str]:
        """Every key the summaries hold (for tests and maintenance)."""
        if not self.summaries_path.is_file():
            return set()
        try:
            with contextlib.closing(self._connect()) as connection:
                return {key for (key,) in connection.execute("SELECT key FROM summary")}
        except sqlite3.DatabaseError:
            return set()

    def copy_summaries_from(self, other: IndexCache, keys: Iterable[str]) -> None:
        """Store here the summaries ``other`` holds under ``keys`` (a scratch tree's private cache starts
        from the summaries of the tree it copies)."""
        self.save_summaries(other._rows(keys))

    def _connect(self) -> sqlite3.Connection:
        connection = sqlite3.connect(self.summaries_path, timeout=BUSY_TIMEOUT, isolation_level=None)
        connection.execute("PRAGMA synchronous=OFF")  # a cache: what a crash loses is rebuilt
        return connection

    def _write(self, rows: list[tuple[str, bytes]]) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        with contextlib.closing(self._connect()) as connection:
            connection.execute("PRAGMA journal_mode=WAL")  # readers never wait for a writer
            connection.execute(
                "CREATE TABLE IF NOT EXISTS summary (key TEXT PRIMARY KEY, data BLOB NOT NULL) WITHOUT ROWID"
            )
            connection.execute("BEGIN IMMEDIATE")
            try:
                connection.executemany("INSERT OR REPLACE INTO summary (key, data) VALUES (?, ?)", rows)
            except BaseException:
                connection.execute("ROLLBACK")
                raise
            connection.execute("COMMIT")

    def _discard_damaged(self) -> None:
        """A database that is not one (or is damaged) is removed, with its journal files."""
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(OSError):
                os.unlink(f"{self.summaries_path}{suffix}")

    # -- whole indexes ---------------------------------------------------------------------------------------

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

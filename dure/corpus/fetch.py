"""Download a pinned source distribution, check its sha256, and unpack it into the cache.

Layout: ``CACHE/sources/NAME-VERSION/`` is the sdist's top directory, holding a marker file
(:data:`MARKER`) that records what was fetched. A directory with a matching marker is used without any
network access. Work happens in ``CACHE/tmp/`` and the finished tree is renamed into place, so a failure
leaves nothing behind and two processes fetching the same package cannot see half a tree (the loser of the
race discards its copy).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import tarfile
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from dure.cache import cache_root
from dure.corpus.index import find_sdist, open_url
from dure.corpus.manifest import PackageSpec
from dure.errors import FetchError

MARKER = ".dure-source.json"
CHUNK = 1 << 16

Progress = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class CachedSource:
    """An unpacked source distribution found in the cache."""

    name: str
    version: str
    sha256: str
    root: Path


def sources_dir(cache: Path | None = None) -> Path:
    """``CACHE/sources``: where unpacked source distributions live."""
    return (cache if cache is not None else cache_root()) / "sources"


def cached_root(spec: PackageSpec, *, cache: Path | None = None) -> Path | None:
    """The unpacked root of ``spec`` if it is in the cache with the pinned sha256, else None."""
    root = sources_dir(cache) / spec.key
    marker = _read_marker(root)
    return root if marker is not None and marker.sha256 == spec.sha256 else None


def list_cached(cache: Path | None = None) -> list[CachedSource]:
    """Every complete unpacked source distribution in the cache, sorted by directory name."""
    folder = sources_dir(cache)
    if not folder.is_dir():
        return []
    found = (_read_marker(child) for child in sorted(folder.iterdir()))
    return [source for source in found if source is not None]


def fetch_package(
    spec: PackageSpec,
    *,
    cache: Path | None = None,
    index: str | None = None,
    progress: Progress | None = None,
) -> Path:
    """The unpacked root of ``spec``, downloaded if not cached from ``index`` (else :func:`index_url`).

    Raises :class:`FetchError` (no network, hash mismatch, unsafe or unreadable archive) or its subclass
    :class:`PackageNotFoundError` (not on the index); in both cases the cache is left as it was.
    """
    existing = cached_root(spec, cache=cache)
    if existing is not None:
        return existing
    link = find_sdist(spec, index)
    if progress is not None:
        progress(f"fetching {spec.name} {spec.version} from {link.url}")
    tmp_parent = (cache if cache is not None else cache_root()) / "tmp"
    tmp_parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f"{spec.key}-", dir=tmp_parent))
    try:
        archive = work / link.filename
        _download(spec, link.url, archive)
        unpacked = _unpack(spec, archive, work / "unpacked")
        marker = {"name": spec.name, "version": spec.version, "sha256": spec.sha256, "url": link.url}
        (unpacked / MARKER).write_text(json.dumps(marker, indent=2) + "\n", encoding="utf-8")
        return _install(spec, unpacked, sources_dir(cache) / spec.key, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        _remove_if_empty(tmp_parent)


def _download(spec: PackageSpec, url: str, target: Path) -> None:
    digest = hashlib.sha256()
    try:
        with open_url(url, spec.name) as response, target.open("wb") as out:
            while chunk := response.read(CHUNK):
                digest.update(chunk)
                out.write(chunk)
    except OSError as problem:  # a connection lost mid-way (HTTP failures arrive as FetchError)
        raise FetchError(spec.name, f"download of {url} failed: {problem}") from None
    if digest.hexdigest() != spec.sha256:
        reason = f"sha256 mismatch for {target.name}: expected {spec.sha256}, got {digest.hexdigest()}"
        raise FetchError(spec.name, reason)


def _unpack(spec: PackageSpec, archive: Path, target: Path) -> Path:
    """Extract ``archive`` into ``target``; return the sdist's top directory (``target`` if there is none)."""
    target.mkdir()
    try:
        if zipfile.is_zipfile(archive):
            _unzip(archive, target)
        else:
            with tarfile.open(archive) as tar:
                tar.extractall(target, filter=_strict_filter)
    except tarfile.FilterError as problem:
        raise FetchError(spec.name, f"unsafe archive {archive.name}: {problem}") from None
    except (tarfile.TarError, zipfile.BadZipFile, EOFError, OSError) as problem:
        raise FetchError(spec.name, f"cannot unpack {archive.name}: {problem}") from None
    entries = list(target.iterdir())
    if len(entries) == 1 and entries[0].is_dir() and not entries[0].is_symlink():
        return entries[0]
    return target


def _strict_filter(member: tarfile.TarInfo, dest: str) -> tarfile.TarInfo | None:
    """The ``data`` filter, and no absolute or ``..`` member names even where they would stay inside."""
    _check_name(member.name)
    return tarfile.data_filter(member, dest)


def _unzip(archive: Path, target: Path) -> None:
    with zipfile.ZipFile(archive) as bundle:
        for member in bundle.namelist():
            _check_name(member)
        bundle.extractall(target)


def _check_name(name: str) -> None:
    parts = PurePosixPath(name.replace("\\", "/")).parts
    if name.startswith(("/", "\\")) or ".." in parts or (parts and ":" in parts[0]):
        raise tarfile.FilterError(f"member {name!r} would land outside the target")


def _install(spec: PackageSpec, unpacked: Path, root: Path, work: Path) -> Path:
    """Rename ``unpacked`` to ``root``, replacing a stale tree; losing a race to another process is fine."""
    root.parent.mkdir(parents=True, exist_ok=True)
    if root.exists() and cached_root(spec, cache=root.parent.parent) is None:
        os.replace(root, work / "stale")  # a tree without our marker, or of another sha256: set it aside
    try:
        os.rename(unpacked, root)
    except OSError as problem:
        if cached_root(spec, cache=root.parent.parent) is not None:
            return root  # another process finished first
        raise FetchError(spec.name, f"cannot move the unpacked tree to {root}: {problem}") from None
    return root


def _read_marker(root: Path) -> CachedSource | None:
    try:
        data = json.loads((root / MARKER).read_text(encoding="utf-8"))
        return CachedSource(str(data["name"]), str(data["version"]), str(data["sha256"]), root)
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _remove_if_empty(folder: Path) -> None:
    with contextlib.suppress(OSError):  # not empty: another fetch is using it
        folder.rmdir()

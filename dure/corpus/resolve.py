"""From what a user typed (a manifest, a package name, a directory) to repositories on disk."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from dure.corpus.fetch import Progress, fetch_package
from dure.corpus.manifest import Manifest, PackageSpec, load_manifest, shipped_manifests
from dure.errors import FetchError, UnknownPackageError


@dataclass(frozen=True, slots=True)
class Repository:
    """A source tree to analyse: an unpacked, pinned source distribution or any local directory."""

    name: str
    version: str | None  # None for a local directory
    root: Path
    spec: PackageSpec | None = None  # None for a local directory


@dataclass(frozen=True, slots=True)
class Selection:
    """What a target designates: some packages of a manifest, or one local directory."""

    manifest: Manifest | None
    packages: tuple[PackageSpec, ...] = ()
    directory: Path | None = None


@dataclass(frozen=True, slots=True)
class FetchOutcome:
    """The result of fetching one package in bulk: its root, or the error that stopped it."""

    spec: PackageSpec
    root: Path | None
    error: FetchError | None = None


def select(target: str | Path | None, *, corpus: str | Path = "default") -> Selection:
    """What ``target`` names, looked up in this order.

    ``None``: every package of the ``corpus`` manifest; a shipped manifest name or a ``.toml`` file: every
    package of that manifest; a package name of the ``corpus`` manifest: that package; an existing directory:
    that directory. Anything else is :class:`UnknownPackageError`.
    """
    if target is None:
        manifest = load_manifest(corpus)
        return Selection(manifest, manifest.packages)
    text = str(target)
    if text in shipped_manifests() or (text.endswith(".toml") and Path(text).is_file()):
        manifest = load_manifest(text)
        return Selection(manifest, manifest.packages)
    manifest = load_manifest(corpus)
    spec = manifest.get(text) if _looks_like_name(target) else None
    if spec is not None:
        return Selection(manifest, (spec,))
    if Path(text).is_dir():
        return Selection(None, directory=Path(text).resolve())
    raise UnknownPackageError(text, str(manifest.path))


def resolve_repositories(
    target: str | Path | None,
    *,
    corpus: str | Path = "default",
    cache: Path | None = None,
    index: str | None = None,
    progress: Progress | None = None,
) -> list[Repository]:
    """The repositories ``target`` names (see :func:`select`), fetching packages that are not cached yet.

    Stops at the first :class:`FetchError`; use :func:`fetch_many` to fetch a whole corpus and collect errors.
    """
    selection = select(target, corpus=corpus)
    if selection.directory is not None:
        return [Repository(selection.directory.name, None, selection.directory)]
    return [
        Repository(
            spec.name, spec.version, fetch_package(spec, cache=cache, index=index, progress=progress), spec
        )
        for spec in selection.packages
    ]


def fetch_many(
    specs: Sequence[PackageSpec],
    *,
    cache: Path | None = None,
    index: str | None = None,
    progress: Progress | None = None,
) -> list[FetchOutcome]:
    """Fetch every package; never raises a :class:`FetchError`, returns one outcome per package instead."""
    outcomes = []
    for spec in specs:
        try:
            root = fetch_package(spec, cache=cache, index=index, progress=progress)
        except FetchError as problem:
            outcomes.append(FetchOutcome(spec, None, problem))
        else:
            outcomes.append(FetchOutcome(spec, root))
    return outcomes


def _looks_like_name(target: str | Path) -> bool:
    text = str(target)
    return isinstance(target, str) and "/" not in text and "\\" not in text and not text.startswith(".")

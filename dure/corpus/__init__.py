"""The corpus: pinned source distributions from manifests, fetched into the cache, or local directories."""

from __future__ import annotations

from dure.corpus.fetch import CachedSource, cached_root, fetch_package, list_cached, sources_dir
from dure.corpus.index import SdistLink, find_sdist, index_url
from dure.corpus.manifest import (
    Manifest,
    PackageSpec,
    TestSpec,
    canonical_name,
    load_manifest,
    manifest_dir,
    shipped_manifests,
)
from dure.corpus.resolve import FetchOutcome, Repository, Selection, fetch_many, resolve_repositories, select

__all__ = [
    "CachedSource",
    "FetchOutcome",
    "Manifest",
    "PackageSpec",
    "Repository",
    "SdistLink",
    "Selection",
    "TestSpec",
    "cached_root",
    "canonical_name",
    "fetch_many",
    "fetch_package",
    "find_sdist",
    "index_url",
    "list_cached",
    "load_manifest",
    "manifest_dir",
    "resolve_repositories",
    "select",
    "shipped_manifests",
    "sources_dir",
]

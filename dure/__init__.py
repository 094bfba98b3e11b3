"""dure: exact, machine-checked tasks for coding agents from real Python repositories.

The public API. Everything a user or another tool needs is importable from here; the modules behind it may
move.
"""

from __future__ import annotations

from dure.analyzers import QueryResult, RepoIndex, Statistics, build_index
from dure.analyzers.export import graph_document, write_graph
from dure.analyzers.model import (
    CallEdge,
    CallSite,
    CallTarget,
    Certainty,
    ClassInfo,
    Definition,
    DefinitionKind,
    Diagnostic,
    Import,
    ImportCondition,
    Parameter,
    ParameterKind,
    Uncertainty,
    UncertaintyKind,
)
from dure.corpus import (
    Manifest,
    PackageSpec,
    Repository,
    TestSpec,
    fetch_package,
    list_cached,
    load_manifest,
    resolve_repositories,
)
from dure.errors import (
    AnalysisError,
    DureError,
    FetchError,
    ManifestError,
    QueryError,
    UnknownPackageError,
)

__all__ = [
    "AnalysisError",
    "CallEdge",
    "CallSite",
    "CallTarget",
    "Certainty",
    "ClassInfo",
    "Definition",
    "DefinitionKind",
    "Diagnostic",
    "DureError",
    "FetchError",
    "Import",
    "ImportCondition",
    "Manifest",
    "ManifestError",
    "PackageSpec",
    "Parameter",
    "ParameterKind",
    "QueryError",
    "QueryResult",
    "RepoIndex",
    "Repository",
    "Statistics",
    "TestSpec",
    "Uncertainty",
    "UncertaintyKind",
    "UnknownPackageError",
    "build_index",
    "fetch_package",
    "graph_document",
    "list_cached",
    "load_manifest",
    "resolve_repositories",
    "write_graph",
]

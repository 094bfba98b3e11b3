"""dure: exact, machine-checked tasks for coding agents from real Python repositories.

The public API. Everything a user or another tool needs is importable from here; the modules behind it may
move.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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
    from dure.sandbox import Limits, SandboxResult, run_sandboxed
    from dure.scoring import extract_answer, score, score_answer, score_batch
    from dure.tasks import (
        Answer,
        AnswerError,
        Completion,
        RepoRef,
        Score,
        Task,
        TaskError,
        TaskKind,
        UnknownVerifierError,
        VerifierSpec,
        decode_task,
        encode_task,
        make_task,
        read_tasks,
        task_id,
        task_schema,
        validate_task_json,
        write_tasks,
    )
    from dure.verifiers import DEFAULT_VERIFIER, Verifier, get_verifier, register
    from dure.verifiers.audit import audit_task
    from dure.verifiers.types import baseline_of
    from dure.workspace import WorkspaceError, materialise

# Where each public name lives: importing dure stays cheap, a name's module loads on first use.
_LOCATIONS = {
    "AnalysisError": "dure.errors",
    "Answer": "dure.tasks",
    "AnswerError": "dure.tasks",
    "CallEdge": "dure.analyzers.model",
    "CallSite": "dure.analyzers.model",
    "CallTarget": "dure.analyzers.model",
    "Certainty": "dure.analyzers.model",
    "ClassInfo": "dure.analyzers.model",
    "Completion": "dure.tasks",
    "DEFAULT_VERIFIER": "dure.verifiers",
    "Definition": "dure.analyzers.model",
    "DefinitionKind": "dure.analyzers.model",
    "Diagnostic": "dure.analyzers.model",
    "DureError": "dure.errors",
    "FetchError": "dure.errors",
    "Import": "dure.analyzers.model",
    "ImportCondition": "dure.analyzers.model",
    "Limits": "dure.sandbox",
    "Manifest": "dure.corpus",
    "ManifestError": "dure.errors",
    "PackageSpec": "dure.corpus",
    "Parameter": "dure.analyzers.model",
    "ParameterKind": "dure.analyzers.model",
    "QueryError": "dure.errors",
    "QueryResult": "dure.analyzers",
    "RepoIndex": "dure.analyzers",
    "RepoRef": "dure.tasks",
    "Repository": "dure.corpus",
    "SandboxResult": "dure.sandbox",
    "Score": "dure.tasks",
    "Statistics": "dure.analyzers",
    "Task": "dure.tasks",
    "TaskError": "dure.tasks",
    "TaskKind": "dure.tasks",
    "TestSpec": "dure.corpus",
    "Uncertainty": "dure.analyzers.model",
    "UncertaintyKind": "dure.analyzers.model",
    "UnknownPackageError": "dure.errors",
    "UnknownVerifierError": "dure.tasks",
    "Verifier": "dure.verifiers",
    "VerifierSpec": "dure.tasks",
    "WorkspaceError": "dure.workspace",
    "audit_task": "dure.verifiers.audit",
    "baseline_of": "dure.verifiers.types",
    "build_index": "dure.analyzers",
    "decode_task": "dure.tasks",
    "encode_task": "dure.tasks",
    "extract_answer": "dure.scoring",
    "fetch_package": "dure.corpus",
    "get_verifier": "dure.verifiers",
    "graph_document": "dure.analyzers.export",
    "list_cached": "dure.corpus",
    "load_manifest": "dure.corpus",
    "make_task": "dure.tasks",
    "materialise": "dure.workspace",
    "read_tasks": "dure.tasks",
    "register": "dure.verifiers",
    "resolve_repositories": "dure.corpus",
    "run_sandboxed": "dure.sandbox",
    "score": "dure.scoring",
    "score_answer": "dure.scoring",
    "score_batch": "dure.scoring",
    "task_id": "dure.tasks",
    "task_schema": "dure.tasks",
    "validate_task_json": "dure.tasks",
    "write_graph": "dure.analyzers.export",
    "write_tasks": "dure.tasks",
}

__all__ = [
    "DEFAULT_VERIFIER",
    "AnalysisError",
    "Answer",
    "AnswerError",
    "CallEdge",
    "CallSite",
    "CallTarget",
    "Certainty",
    "ClassInfo",
    "Completion",
    "Definition",
    "DefinitionKind",
    "Diagnostic",
    "DureError",
    "FetchError",
    "Import",
    "ImportCondition",
    "Limits",
    "Manifest",
    "ManifestError",
    "PackageSpec",
    "Parameter",
    "ParameterKind",
    "QueryError",
    "QueryResult",
    "RepoIndex",
    "RepoRef",
    "Repository",
    "SandboxResult",
    "Score",
    "Statistics",
    "Task",
    "TaskError",
    "TaskKind",
    "TestSpec",
    "Uncertainty",
    "UncertaintyKind",
    "UnknownPackageError",
    "UnknownVerifierError",
    "Verifier",
    "VerifierSpec",
    "WorkspaceError",
    "audit_task",
    "baseline_of",
    "build_index",
    "decode_task",
    "encode_task",
    "extract_answer",
    "fetch_package",
    "get_verifier",
    "graph_document",
    "list_cached",
    "load_manifest",
    "make_task",
    "materialise",
    "read_tasks",
    "register",
    "resolve_repositories",
    "run_sandboxed",
    "score",
    "score_answer",
    "score_batch",
    "task_id",
    "task_schema",
    "validate_task_json",
    "write_graph",
    "write_tasks",
]


def __getattr__(name: str) -> Any:
    location = _LOCATIONS.get(name)
    if location is None:
        raise AttributeError(f"module 'dure' has no attribute {name!r}")
    value = getattr(importlib.import_module(location), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})

"""Static and dynamic analysis of a repository, gathered in a :class:`RepoIndex`."""

import importlib
from importlib.machinery import EXTENSION_SUFFIXES

from dure.analyzers.builder import build_index
from dure.analyzers.index import RepoIndex, Statistics
from dure.analyzers.queries import QueryResult

__all__ = ["QueryResult", "RepoIndex", "Statistics", "build_index", "compiled"]


def compiled(module: str = "dure.analyzers.evaluator") -> bool:
    """Whether ``module`` runs compiled by mypyc (a wheel built by ``pip install``), not as Python source
    (an editable install, or a wheel built without a C compiler)."""
    path = getattr(importlib.import_module(module), "__file__", None) or ""
    return path.endswith(tuple(EXTENSION_SUFFIXES))

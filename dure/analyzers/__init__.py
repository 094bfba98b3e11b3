"""Static and dynamic analysis of a repository, gathered in a :class:`RepoIndex`."""

from dure.analyzers.builder import build_index
from dure.analyzers.index import RepoIndex, Statistics
from dure.analyzers.queries import QueryResult

__all__ = ["QueryResult", "RepoIndex", "Statistics", "build_index"]

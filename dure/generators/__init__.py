"""Task generators, one module per task family (see DESIGN.md, "Task kinds").

A generator turns a :class:`Source` (a repository, its index and what its tests execute) into candidate
tasks; :func:`generate` runs the generators over repositories, checks every candidate and writes the shards.
Third parties add kinds with :func:`register` or an entry point in the ``dure.generators`` group.
"""

from __future__ import annotations

from dure.generators._registry import generator_for, kinds_of_layer, register
from dure.generators.base import Candidate, Drop, DropReason, Generator, Source
from dure.generators.pipeline import RepoReport, RunSettings, generate

__all__ = [
    "Candidate",
    "Drop",
    "DropReason",
    "Generator",
    "RepoReport",
    "RunSettings",
    "Source",
    "generate",
    "generator_for",
    "kinds_of_layer",
    "register",
]

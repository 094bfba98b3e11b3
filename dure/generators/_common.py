"""Pieces the archaeology generators share: how names are spelled, the answer forms, target choice."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import TypeVar

from dure.analyzers.index import RepoIndex
from dure.analyzers.model import Definition, DefinitionKind
from dure.tasks.frozen import freeze_object
from dure.tasks.model import VerifierSpec

T = TypeVar("T")

NAMING = (
    "Name every definition by its qualified name: the dotted module path from the repository root (a "
    "`src/` folder is not part of it), then the class and function names, e.g. `pkg.module.Class.method`; "
    "a nested function is named inside its enclosing function (`pkg.module.outer.inner`), and code at "
    "module level counts as the module itself (`pkg.module`)."
)

ANSWER_FORMAT = (
    "Answer with a JSON array of qualified-name strings, in any order, inside <answer></answer> tags or a "
    "```json fenced block."
)

NAME_LIST_SCHEMA: dict[str, object] = {
    "type": "array",
    "items": {"type": "string", "minLength": 1},
    "uniqueItems": True,
}

MIN_DECOYS = 20
CALLABLE_KINDS = frozenset({DefinitionKind.FUNCTION, DefinitionKind.METHOD})


def is_special(qualname: str) -> bool:
    """A special method (``__init__``, ``__call__``): the interpreter calls these implicitly."""
    name = qualname.rpartition(".")[2]
    return name.startswith("__") and name.endswith("__") and len(name) > 4


def is_plain_name(qualname: str) -> bool:
    """A name an agent can write: no lambda or comprehension markers."""
    return "<" not in qualname


def callables(index: RepoIndex) -> list[Definition]:
    """Functions and methods an agent can name, in qualified-name order."""
    return [
        d
        for name, d in sorted(index.definitions.items())
        if d.kind in CALLABLE_KINDS and is_plain_name(name) and not is_special(name)
    ]


def preferred_order(items: Sequence[T], rng: random.Random, rank: Iterable[int]) -> list[T]:
    """``items`` shuffled by ``rng`` and then stably sorted by ``rank`` (lower first): the best kind of
    target first, in a seeded random order within each kind."""
    ranked = list(zip(rank, [rng.random() for _ in items], range(len(items)), strict=True))
    ranked.sort()
    return [items[position] for _, _, position in ranked]


def verifier(name: str, params: Mapping[str, object] | None = None) -> VerifierSpec:
    """The verifier block of a task, its parameters frozen."""
    return VerifierSpec(name, freeze_object(params or {}))


def files_of(index: RepoIndex, names: Iterable[str]) -> list[str]:
    """The files defining ``names`` (those the index knows)."""
    found = {index.definitions[n].file for n in names if n in index.definitions}
    return sorted(found)


def decoys(pool: Iterable[str], exclude: Iterable[str], answer_size: int) -> list[str]:
    """Plausible wrong items for a set task, best first from ``pool``: enough that listing every candidate
    scores at most 0.5 (twice the answer's size, plus one), and at least 20 when the pool has them."""
    banned = set(exclude)
    wanted = max(2 * answer_size + 1, MIN_DECOYS)
    chosen: list[str] = []
    for item in pool:
        if item not in banned and item not in chosen:
            chosen.append(item)
            if len(chosen) == wanted:
                break
    return chosen


def nearest_first(names: Iterable[str], anchor: str) -> list[str]:
    """``names`` ordered by how much of ``anchor``'s dotted path they share (most first), then by name."""

    def shared(name: str) -> int:
        count = 0
        for a, b in zip(name.split("."), anchor.split("."), strict=False):
            if a != b:
                break
            count += 1
        return count

    return sorted(names, key=lambda name: (-shared(name), name))

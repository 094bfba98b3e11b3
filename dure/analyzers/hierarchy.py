"""Class hierarchy: C3 linearisation inside the repository and transitive subclasses."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping


def c3_linearise(cls: str, bases_of: Callable[[str], tuple[str, ...]]) -> tuple[tuple[str, ...], bool]:
    """The C3 MRO of ``cls`` over repository classes; ``(mro, consistent)``.

    An inconsistent hierarchy (which Python rejects at class creation) falls back to a depth-first order
    and reports ``consistent=False``. Iterative: deep hierarchies do not overflow the stack.
    """
    result: dict[str, tuple[str, ...]] = {}
    consistent = True
    order = _post_order(cls, bases_of)
    for name in order:
        bases = [b for b in bases_of(name) if b in result]
        sequences = [list(result[b]) for b in bases] + [list(bases)]
        merged = _merge(sequences)
        if merged is None:
            consistent = False
            merged = list(dict.fromkeys(x for seq in sequences for x in seq))
        result[name] = (name, *merged)
    return result.get(cls, (cls,)), consistent


def _post_order(cls: str, bases_of: Callable[[str], tuple[str, ...]]) -> list[str]:
    order: list[str] = []
    visited: set[str] = set()
    stack: list[tuple[str, bool]] = [(cls, False)]
    while stack:
        name, expanded = stack.pop()
        if expanded:
            order.append(name)
            continue
        if name in visited:
            continue
        visited.add(name)
        stack.append((name, True))
        stack.extend((base, False) for base in reversed(bases_of(name)) if base not in visited)
    return order


def _merge(sequences: list[list[str]]) -> list[str] | None:
    sequences = [s for s in sequences if s]
    merged: list[str] = []
    while sequences:
        for sequence in sequences:
            head = sequence[0]
            if not any(head in other[1:] for other in sequences):
                break
        else:
            return None
        merged.append(head)
        sequences = [[x for x in s if x != head] for s in sequences]
        sequences = [s for s in sequences if s]
    return merged


def transitive_subclasses(direct: Mapping[str, Iterable[str]], cls: str) -> frozenset[str]:
    """All classes that inherit from ``cls``, directly or not (``cls`` itself excluded)."""
    seen: set[str] = set()
    stack = list(direct.get(cls, ()))
    while stack:
        name = stack.pop()
        if name not in seen and name != cls:
            seen.add(name)
            stack.extend(direct.get(name, ()))
    return frozenset(seen)

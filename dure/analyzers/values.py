"""Abstract values: what a ref may evaluate to, and how sure we are.

A value is a small tuple:

=====================  ======================================================================
``("F", q, bound)``    the function, method or lambda ``q`` (``bound``: reached through an instance)
``("C", q, exact)``    the repository class ``q`` (not ``exact``: ``q`` or one of its subclasses)
``("I", q, exact)``    an instance of the repository class ``q``
``("M", m)``           the repository module ``m``
``("X", path)``        an object outside the repository, by import path (``builtins.len``)
``("XI", path)``       an instance of an external class (``builtins.str``)
``("S", cls)``         the ``super()`` proxy inside a method of ``cls``
``("Q", values)``      a container whose items are ``values``
=====================  ======================================================================
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

Value = tuple[Any, ...]


class Vals(NamedTuple):
    """Possible values of an expression.

    ``complete``: the expression evaluates to one of ``values`` (nothing unknown contributes).
    ``exact``: complete, a single value, and nothing on the way lowered certainty (annotations, unknown
    decorators, flow-insensitive merges of different values).
    """

    values: frozenset[Value]
    complete: bool
    exact: bool

    def is_exact(self) -> bool:
        return self.exact and self.complete and len(self.values) == 1


NOTHING = Vals(frozenset(), True, True)
UNKNOWN_VALS = Vals(frozenset(), False, False)


# Below, ``tuple.__new__(Vals, ...)`` is ``Vals(...)`` without the named tuple's Python-level ``__new__``:
# these run hundreds of thousands of times per index.


def single(value: Value, *, exact: bool = True) -> Vals:
    return tuple.__new__(Vals, (frozenset((value,)), True, exact))


#: Past this many candidates a value says nothing useful (and sets would grow without bound): unknown.
MAX_VALUES = 40


def union(parts: list[Vals]) -> Vals:
    """Flow-insensitive merge: exact only if every part is exact and they agree on one value."""
    if not parts:
        return UNKNOWN_VALS
    if len(parts) == 1:
        return parts[0]
    values: set[Value] = set()
    complete = True
    exact = True
    for part in parts:
        values |= part.values
        complete = complete and part.complete
        exact = exact and part.exact
    if len(values) > MAX_VALUES:
        return UNKNOWN_VALS
    return tuple.__new__(Vals, (frozenset(values), complete, exact and len(values) == 1))


def inexact(vals: Vals) -> Vals:
    return tuple.__new__(Vals, (vals.values, vals.complete, False))


def incomplete(vals: Vals) -> Vals:
    return tuple.__new__(Vals, (vals.values, False, False))


def _sort_key(value: Value) -> tuple[Any, ...]:
    """Values sort as themselves; containers all alike (comparing their items would cost a sort of each)."""
    return value if value[0] != "Q" else ("Q",)


def ordered(values: frozenset[Value]) -> Iterable[Value]:
    """``values`` in a fixed order: evaluation is memoised with a cycle guard, so what a cycle cuts short
    depends on the order values are visited in, and that order must not depend on the hash seed.

    Containers keep no fixed order among themselves: reading from a container value evaluates nothing (its
    attributes are external, calling it gives unknown), so the order they are visited in cannot matter.
    """
    return values if len(values) < 2 else sorted(values, key=_sort_key)

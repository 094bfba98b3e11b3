"""Immutable JSON values, so a task can be shared by many verifier calls without one corrupting the next.

JSON arrays become tuples and objects become :class:`FrozenDict`, a ``dict`` subclass that refuses mutation
(``json.dumps`` still writes it natively, and it pickles for the process pool).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, NoReturn, TypeAlias, Union

JsonValue: TypeAlias = Union[bool, int, float, str, tuple["JsonValue", ...], "FrozenDict", None]


class FrozenDict(dict[str, JsonValue]):
    """A JSON object that cannot change after it is built; hashable, picklable, written by ``json`` as is."""

    __slots__ = ("_hash",)
    _hash: int

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("FrozenDict is immutable")

    __setitem__ = _refuse
    __delitem__ = _refuse
    __ior__ = _refuse
    clear = _refuse
    pop = _refuse
    popitem = _refuse
    setdefault = _refuse
    update = _refuse

    def __hash__(self) -> int:  # type: ignore[override]
        try:
            return self._hash
        except AttributeError:
            value = hash(tuple(sorted(self.items())))
            object.__setattr__(self, "_hash", value)
            return value

    def __reduce__(self) -> tuple[type[FrozenDict], tuple[dict[str, JsonValue]]]:
        return (FrozenDict, (dict(self),))

    def __repr__(self) -> str:
        return f"FrozenDict({dict.__repr__(self)})"


EMPTY = FrozenDict()


def freeze(value: Any) -> JsonValue:
    """Deep-freeze plain JSON data (``dict``/``list``/scalars); raises :class:`TypeError` on anything else."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise TypeError(f"not a JSON number: {value!r}")
        return value
    if isinstance(value, FrozenDict):
        return value
    if isinstance(value, Mapping):
        frozen: dict[str, JsonValue] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"JSON object keys must be strings, not {type(key).__name__}")
            frozen[key] = freeze(item)
        return FrozenDict(frozen)
    if isinstance(value, list | tuple):
        return tuple(freeze(item) for item in value)
    raise TypeError(f"not JSON data: {type(value).__name__}")


def freeze_object(value: Any) -> FrozenDict:
    """Like :func:`freeze`, for a value that must be a JSON object."""
    frozen = freeze(value if value is not None else {})
    if not isinstance(frozen, FrozenDict):
        raise TypeError(f"expected a JSON object, not {type(value).__name__}")
    return frozen


def thaw(value: JsonValue) -> Any:
    """Plain, mutable JSON data (``dict``/``list``) from a frozen value."""
    if isinstance(value, FrozenDict):
        return {key: thaw(item) for key, item in value.items()}
    if isinstance(value, tuple):
        return [thaw(item) for item in value]
    return value

"""The generator registry: built-ins register with :func:`register`; third parties through entry points.

A plugin is an entry point in the ``dure.generators`` group whose object is a :class:`Generator` subclass.
Plugins are loaded when the registry is first listed, never when ``DURE_NO_PLUGINS`` is set.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
from typing import TypeVar

from dure.errors import DureError
from dure.generators.base import Generator
from dure.tasks.model import LAYER_OF_KIND, TaskKind

ENTRY_POINT_GROUP = "dure.generators"
KILL_SWITCH = "DURE_NO_PLUGINS"
#: The built-in generator modules, imported on first use (each registers its generator).
BUILTIN_MODULES = (
    "dure.generators.callers",
    "dure.generators.subclasses",
    "dure.generators.external_deps",
    "dure.generators.call_path",
    "dure.generators.definition",
    "dure.generators.type_completion",
    "dure.generators.dead_code",
)

G = TypeVar("G", bound=type[Generator])

_BY_KIND: dict[TaskKind, Generator] = {}
_LOADED: list[bool] = []  # set once the built-ins and plugins are imported


class UnknownKindError(DureError):
    """A task kind no installed generator produces."""


def register(cls: G) -> G:
    """Class decorator: one shared instance of the generator, for each kind it produces."""
    instance = cls()
    for kind in cls.kinds:
        if kind in _BY_KIND:
            raise ValueError(f"task kind {kind.value!r} has two generators")
        _BY_KIND[kind] = instance
    return cls


def _load() -> None:
    if _LOADED:
        return
    _LOADED.append(True)
    for module in BUILTIN_MODULES:
        importlib.import_module(module)
    if os.environ.get(KILL_SWITCH):
        return
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        obj = entry.load()
        if not (isinstance(obj, type) and issubclass(obj, Generator)):
            raise DureError(f"generator plugin {entry.value} is not a Generator subclass")
        register(obj)


def kinds_of_layer(layer: int) -> tuple[TaskKind, ...]:
    """The kinds of ``layer`` that some generator produces, in the order of :class:`TaskKind`."""
    _load()
    return tuple(kind for kind in TaskKind if LAYER_OF_KIND[kind] == layer and kind in _BY_KIND)


def generator_for(kind: TaskKind | str) -> Generator:
    """The generator of ``kind``; raises :class:`UnknownKindError` naming the kinds there are."""
    _load()
    try:
        return _BY_KIND[TaskKind(kind)]
    except (ValueError, KeyError):
        known = ", ".join(sorted(k.value for k in _BY_KIND))
        raise UnknownKindError(f"no generator for task kind {kind!r} (known: {known})") from None

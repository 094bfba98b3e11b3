"""The generator registry: built-ins register with :func:`register`; third parties through entry points.

A plugin is an entry point in the ``dure.generators`` group whose object is a :class:`Generator` subclass.
Plugins are loaded when the registry is first used, never when ``DURE_NO_PLUGINS`` is set; built-in
kinds import their module on first use.
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
#: The module of each built-in kind, imported when the kind is first asked for (it registers its generator):
#: heavy libraries (LibCST, the type checkers, vulture) load only for the kinds that use them.
BUILTIN_MODULES = {
    TaskKind.CALLERS: "dure.generators.callers",
    TaskKind.CALLEES: "dure.generators.callers",
    TaskKind.SUBCLASSES: "dure.generators.subclasses",
    TaskKind.EXTERNAL_DEPS: "dure.generators.external_deps",
    TaskKind.CALL_PATH: "dure.generators.call_path",
    TaskKind.DEFINITION: "dure.generators.definition",
    TaskKind.TYPE_COMPLETION: "dure.generators.type_completion",
    TaskKind.DEAD_CODE: "dure.generators.dead_code",
}

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


def _load_plugins() -> None:
    if _LOADED:
        return
    _LOADED.append(True)
    if os.environ.get(KILL_SWITCH):
        return
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        obj = entry.load()
        if not (isinstance(obj, type) and issubclass(obj, Generator)):
            raise DureError(f"generator plugin {entry.value} is not a Generator subclass")
        register(obj)


def kinds_of_layer(layer: int) -> tuple[TaskKind, ...]:
    """The kinds of ``layer`` that some generator produces, in the order of :class:`TaskKind`."""
    _load_plugins()
    known = _BY_KIND.keys() | BUILTIN_MODULES.keys()
    return tuple(kind for kind in TaskKind if LAYER_OF_KIND[kind] == layer and kind in known)


def generator_for(kind: TaskKind | str) -> Generator:
    """The generator of ``kind``; raises :class:`UnknownKindError` naming the kinds there are."""
    _load_plugins()
    try:
        wanted = TaskKind(kind)
    except ValueError:
        wanted = None
    if wanted is not None and wanted not in _BY_KIND and wanted in BUILTIN_MODULES:
        importlib.import_module(BUILTIN_MODULES[wanted])
    if wanted is None or wanted not in _BY_KIND:
        known = ", ".join(sorted(k.value for k in _BY_KIND.keys() | BUILTIN_MODULES.keys()))
        raise UnknownKindError(f"no generator for task kind {kind!r} (known: {known})")
    return _BY_KIND[wanted]

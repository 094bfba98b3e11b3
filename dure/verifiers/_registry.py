"""The verifier registry: built-ins register with :func:`register`; third parties through entry points.

A plugin is an entry point in the ``dure.verifiers`` group whose name is the verifier's name and whose object
is a :class:`Verifier` subclass (or instance). Plugins load lazily, only when a task names a verifier that is
not built in, and never when ``DURE_NO_PLUGINS`` is set (the kill switch for a broken environment).
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
from typing import TypeVar

from dure.tasks.errors import UnknownVerifierError
from dure.verifiers.base import Verifier

ENTRY_POINT_GROUP = "dure.verifiers"
KILL_SWITCH = "DURE_NO_PLUGINS"

V = TypeVar("V", bound=type[Verifier])

_BUILTIN: dict[str, Verifier] = {}
_PLUGINS: dict[str, Verifier | UnknownVerifierError] = {}
#: Built-ins whose modules import heavy libraries (LibCST, checkers, coverage): loaded on first use.
_DEFERRED = {
    "coverage": "dure.verifiers.coverage",
    "differential": "dure.verifiers.differential",
    "property": "dure.verifiers.properties",
    "types": "dure.verifiers.types",
}


def register(cls: V) -> V:
    """Class decorator: make one shared instance of a built-in verifier available under its ``name``."""
    if cls.name in _BUILTIN:
        raise ValueError(f"verifier {cls.name!r} is registered twice")
    _BUILTIN[cls.name] = cls()
    return cls


def builtin_names() -> tuple[str, ...]:
    return tuple(sorted({*_BUILTIN, *_DEFERRED}))


def plugin_names() -> tuple[str, ...]:
    """Names of the verifiers installed plugins offer (not loaded; empty under the kill switch)."""
    if os.environ.get(KILL_SWITCH):
        return ()
    return tuple(sorted({entry.name for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)}))


def get_verifier(name: str) -> Verifier:
    """The verifier called ``name``; raises :class:`UnknownVerifierError` saying why none is available."""
    found = _BUILTIN.get(name)
    if found is None and name in _DEFERRED:
        importlib.import_module(_DEFERRED[name])  # registers it
        found = _BUILTIN.get(name)
    if found is not None:
        return found
    if os.environ.get(KILL_SWITCH):
        raise UnknownVerifierError(name, builtin_names(), f"plugins are disabled by {KILL_SWITCH}")
    if name not in _PLUGINS:
        _PLUGINS[name] = _load_plugin(name)
    loaded = _PLUGINS[name]
    if isinstance(loaded, UnknownVerifierError):
        raise loaded
    return loaded


def _load_plugin(name: str) -> Verifier | UnknownVerifierError:
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP, name=name):
        try:
            obj = entry.load()
            verifier = obj() if isinstance(obj, type) and issubclass(obj, Verifier) else obj
        except Exception as problem:  # a plugin's import error must name the plugin, not crash scoring
            return UnknownVerifierError(name, builtin_names(), f"plugin {entry.value} failed: {problem!r}")
        if not isinstance(verifier, Verifier) or verifier.name != name:
            return UnknownVerifierError(
                name, builtin_names(), f"plugin {entry.value} is not a {name!r} Verifier"
            )
        return verifier
    return UnknownVerifierError(name, builtin_names())

"""What the builtin classes have: an attribute a builtin class lacks names no function.

``x.get()`` where ``x`` may be a list or a ``Registry`` calls ``Registry.get`` if it calls anything: a list
has no ``get``. The index asks the running interpreter's builtin classes (Python 3.11 or later), and where
a class lacks the attribute it claims no target of that value rather than ``builtins.list.get``.
"""

from __future__ import annotations

import builtins
import functools
import sys
import types

from dure.analyzers.values import NOTHING, UNKNOWN_VALS, Vals, single

#: Builtin classes with no subclasses whose instances hold no attributes of their own, and whose attributes
#: no later Python adds to: one they lack is on no value of theirs (``None.x`` raises). (``bool`` is left
#: out: Python 3.12 gave ``int``, so ``bool``, ``is_integer``.)
_CLOSED_CLASSES: dict[str, type] = {"builtins.NoneType": type(None)}
#: The container values of these kinds are made by calling a generator or ``async def`` function: of
#: exactly these classes, which the ``builtins`` module does not name.
_MADE_BY_CALLS: dict[str, type] = {
    "builtins.generator": types.GeneratorType,
    "builtins.coroutine": types.CoroutineType,
    "builtins.async_generator": types.AsyncGeneratorType,
}


@functools.cache
def builtin_class(path: str) -> type | None:
    """The builtin class ``path`` names (``builtins.str``), if any."""
    known = _CLOSED_CLASSES.get(path) or _MADE_BY_CALLS.get(path)
    if known is not None:
        return known
    name = path.removeprefix("builtins.")
    found = getattr(builtins, name, None) if name != path and "." not in name else None
    return found if isinstance(found, type) else None


def _instances_have(cls: type, attr: str) -> bool:
    """Whether instances of ``cls`` have ``attr`` from their class: found along its MRO, not on its
    metaclass (``str.mro`` and ``int.__name__`` exist, ``"".mro`` and ``(1).__name__`` do not)."""
    return any(attr in klass.__dict__ for klass in cls.__mro__)


@functools.cache
def external_member(path: str, attr: str, *, instance: bool = False) -> Vals:
    """Attribute ``attr`` of the external object at ``path`` (``instance``: of an instance of that class).
    Where ``path`` is a builtin class without such an attribute: nothing for a closed class (the value is
    not the one read from); else unknown (an instance may be of a subclass the index does not see, an
    exception holds attributes of its own). A data attribute of ``sys`` or ``os`` (``sys.path``) is an
    instance of the builtin class the running interpreter has it of (``sys.path.insert`` is
    ``builtins.list.insert``)."""
    if not instance:
        data = module_data_class(path, attr)
        if data is not None:
            return single(("XI", data))
    cls = builtin_class(path)
    if cls is None or (_instances_have(cls, attr) if instance else hasattr(cls, attr)):
        return single(("X", f"{path}.{attr}"))
    return NOTHING if path in _CLOSED_CLASSES else UNKNOWN_VALS


#: Standard-library modules whose data attributes hold instances of builtin classes.
DATA_MODULES = frozenset({"sys", "os", "os.path"})
#: Data attributes the index follows by name (writes to ``sys.modules`` replace modules).
TRACKED_DATA = frozenset({("sys", "modules")})
#: The builtin classes such a data attribute may be an instance of.
DATA_CLASSES = (str, bytes, int, float, bool, list, tuple, dict, set, frozenset)


@functools.cache
def module_data_class(module: str, attr: str) -> str | None:
    """``builtins.list`` for ``("sys", "path")``: the builtin class of a data attribute of one of
    :data:`DATA_MODULES`, as the running interpreter has it (they are imported already); else None."""
    if module not in DATA_MODULES or (module, attr) in TRACKED_DATA:
        return None
    imported = sys.modules.get(module)
    value = getattr(imported, attr, None) if imported is not None else None
    cls = type(value)
    return f"builtins.{cls.__name__}" if cls in DATA_CLASSES else None


@functools.cache
def container_member(kind: str, attr: str) -> Vals:
    """Attribute ``attr`` of a container value of ``kind`` (``list``, ``coroutine``): made by a literal, by
    calling the builtin class itself or by calling a generator or ``async def`` function, so an instance
    of exactly that class; nothing where the class lacks ``attr``."""
    path = f"builtins.{kind}"
    cls = builtin_class(path)
    if cls is None or _instances_have(cls, attr):
        return single(("X", f"{path}.{attr}"))
    return NOTHING


def names_a_missing_attribute(path: str) -> bool:
    """Whether ``path`` (``builtins.object.__get__``) is an attribute its builtin class lacks."""
    owner, _, attr = path.rpartition(".")
    cls = builtin_class(owner) if owner else None
    return cls is not None and not hasattr(cls, attr)

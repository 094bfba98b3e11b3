"""Evaluating refs to abstract values, flow-insensitively, with memoisation and a recursion guard."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from dure.analyzers.builtin_classes import container_member, external_member
from dure.analyzers.program import BUILTIN_NAMES, Program, ScopeKey
from dure.analyzers.summary import OWN_NAME, STARRED, Binding, Ref, Scope
from dure.analyzers.values import (
    MAX_VALUES,
    NOTHING,
    UNKNOWN_VALS,
    Vals,
    Value,
    incomplete,
    inexact,
    ordered,
    single,
    union,
)

#: Decorators (by import path) that return the function they decorate, or a wrapper that calls it as is.
TRANSPARENT_DECORATORS = frozenset(
    {
        "builtins.staticmethod",
        "builtins.classmethod",
        "builtins.property",
        "functools.lru_cache",
        "functools.cache",
        "functools.cached_property",
        "functools.total_ordering",
        "abc.abstractmethod",
        "abc.abstractclassmethod",
        "abc.abstractstaticmethod",
        "abc.abstractproperty",
        "typing.final",
        "typing.override",
        "typing.no_type_check",
        # an overload stub binds a dummy until the implementation, under the same name, replaces it; calls
        # of the name run the implementation (see Evaluator.called_bodies)
        "typing.overload",
        "typing_extensions.overload",
        "typing_extensions.final",
        "typing_extensions.override",
        "dataclasses.dataclass",
        "atexit.register",
        "enum.unique",
    }
)
#: Decorators of the signatures a type checker reads and the interpreter replaces by the implementation.
OVERLOAD_DECORATORS = frozenset({"typing.overload", "typing_extensions.overload"})
#: Decorator factories whose result is transparent (``@functools.wraps(f)``, ``@lru_cache(maxsize=8)``).
TRANSPARENT_FACTORIES = frozenset({"functools.wraps", "functools.lru_cache", "dataclasses.dataclass"})
#: Class decorators that write the class's ``__init__`` (unless given ``init=False``), by import path.
INIT_WRITERS = frozenset(
    {
        "dataclasses.dataclass",
        "attr.s",
        "attr.attrs",
        "attr.define",
        "attr.mutable",
        "attr.frozen",
        "attrs.define",
        "attrs.mutable",
        "attrs.frozen",
    }
)
#: The special methods ``@dataclass`` and attrs write (unless told ``repr=False``, ``eq=False``), by the
#: option that turns each off.
GENERATED_METHODS = {"__repr__": "repr", "__eq__": "eq", "__hash__": "eq"}
#: ``functools.partial``: as a decorator, it passes the function after the arguments it binds.
PARTIAL = ("X", "functools.partial")
#: Calling these builtin classes gives an instance of them.
BUILTIN_TYPES = frozenset(
    {
        "str",
        "bytes",
        "bytearray",
        "int",
        "float",
        "complex",
        "bool",
        "list",
        "dict",
        "set",
        "frozenset",
        "tuple",
        "object",
        "range",
        "memoryview",
        "slice",
    }
)
#: Bases from outside the repository whose classes enumerations are made by (their members are instances).
ENUM_BASES = frozenset(
    {"enum.Enum", "enum.IntEnum", "enum.StrEnum", "enum.Flag", "enum.IntFlag", "enum.ReprEnum"}
)
#: Bases from outside the repository whose metaclass leaves class attributes as they are written.
PLAIN_METACLASS_BASES = frozenset(
    {"abc.ABC", "typing.Generic", "typing.Protocol", "typing_extensions.Protocol", "object"}
)
#: Bases from outside the repository that define no ``__get__``: their subclasses' instances are no
#: descriptors, unless the repository gives them one.
DESCRIPTOR_BUILTINS = frozenset({"builtins.property", "builtins.classmethod", "builtins.staticmethod"})
#: Builtins whose result holds what iterating one argument gives: the kind of the result (a container value
#: of that builtin type) and the position of that argument. ``map(f, xs)`` holds what ``f`` returns, and
#: ``enumerate(xs)`` pairs (see :meth:`Evaluator.unpacked_item`).
ITEM_BUILDERS = {
    "builtins.list": ("list", 0),
    "builtins.tuple": ("tuple", 0),
    "builtins.set": ("set", 0),
    "builtins.frozenset": ("frozenset", 0),
    "builtins.sorted": ("list", 0),
    "builtins.reversed": ("reversed", 0),
    "builtins.filter": ("filter", 1),
    "builtins.map": ("map", 1),
    "builtins.enumerate": ("enumerate", 0),
    "builtins.iter": ("iterator", 0),
}
#: The builders of :data:`ITEM_BUILDERS` whose result calls a function as it is iterated.
LAZY_BUILDERS = frozenset({"builtins.map", "builtins.filter"})
#: Container values whose items are pairs of a key or count and an item they hold.
PAIRED = frozenset({"enumerate", "dict_items"})
#: Methods of a dict that give what it holds: views (by the kind of container value they give) and reads.
DICT_VIEWS = {"values": "dict_values", "items": "dict_items"}
#: Functions that return their second argument as it is (a type checker's cast).
IDENTITY_CASTS = frozenset({"typing.cast", "typing_extensions.cast"})
DICT_READS = frozenset({*DICT_VIEWS, "get", "pop", "setdefault"})
#: The kinds of container value whose items are known where it is made: what a generator yields.
GENERATORS = frozenset({"generator", "async_generator"})
SYS_MODULES = frozenset({("X", "sys.modules")})
#: ``import __main__``: the module run as a script, which may be any module of the repository.
MAIN_MODULE = ("X", "__main__")
#: What ``*args`` and ``**kwargs`` hold when no caller is known.
PACKED_PARAMETERS = {"var_positional": "builtins.tuple", "var_keyword": "builtins.dict"}
#: Builtin classes whose class pattern with one positional sub-pattern (``int(x)``) matches the subject.
SELF_MATCHING = frozenset(
    f"builtins.{name}"
    for name in (
        "bool",
        "bytearray",
        "bytes",
        "dict",
        "float",
        "frozenset",
        "int",
        "list",
        "set",
        "str",
        "tuple",
    )
)
NON_DESCRIPTOR_MODULES = ("collections.", "enum.", "typing.", "typing_extensions.", "abc.")
MAX_DEPTH = 40
#: A property that a repository decorator built around an accessor (see :meth:`Evaluator.decorate`).
MADE_PROPERTY_VALUE: Value = ("XI", "builtins.property")
MADE_PROPERTY = single(MADE_PROPERTY_VALUE)
PROPERTY_CLASSES = frozenset({("X", "builtins.property"), ("X", "functools.cached_property")})
_A_STRING = single(("XI", "builtins.str"))  # what every string literal evaluates to (built once)
_AN_INT = single(("XI", "builtins.int"))
#: What a computation in progress gives when it is asked for again (a cycle): unknown.
IN_PROGRESS = Vals(frozenset(), False, False)
#: In the memo, for a result computed from a parameter: its value is in the table of dependent values, until
#: parameter values change (a false value, so that telling a memoised value apart stays one test).
READS_PARAMETER: Literal[False] = False

ParamFlow = Callable[[ScopeKey, int], Vals | None]
MembersFold = tuple[frozenset[Value], int]  # the values of some parts and how many parts there were
_K = TypeVar("_K", bound=tuple[Any, str])
_R = TypeVar("_R")


def _incomplete_union(folds: list[MembersFold]) -> Vals:
    """``incomplete(union(parts))`` over the parts of several folds, without listing the parts again."""
    count = sum(fold[1] for fold in folds)
    values = frozenset().union(*[fold[0] for fold in folds]) if count else frozenset()
    if count > 1 and len(values) > MAX_VALUES:
        values = frozenset()
    return Vals(values, False, False)


def _is_property_mutator(scope: Scope) -> bool:
    """A ``@name.setter`` or ``@name.deleter`` definition: reading the property runs its getter."""
    return any(
        d[0] == "a" and d[2] in ("setter", "deleter") and d[1] == ("n", scope.owner.rpartition(".")[2])
        for d in scope.decorators
    )


def _imports_itself(binding: Binding, where: ScopeKey, module: str) -> bool:
    """Whether ``binding`` is ``from module import ...`` made in ``module`` itself."""
    return binding.kind == "from" and binding.a == module and where[0] == module


class Evaluator:
    """``evaluate(ref, scope)`` for every ref the collector wrote; results are memoised per scope."""

    def __init__(self, program: Program) -> None:
        self.program = program
        # (scope, ref), (scope, binding), (*value, attr) for members or ("returns", qualname); an entry being
        # computed holds IN_PROGRESS, so that asking for it again inside its own computation gives unknown;
        # an entry that read a parameter holds READS_PARAMETER, and its value is in ``dependent``
        self.memo: dict[tuple[Any, ...], Vals | Literal[False]] = {}
        self.dependent: dict[tuple[Any, ...], Vals] = {}
        self.depth = 0  # computations in progress
        self.cuts = 0  # computations cut short so far (a cycle, or too deep): their callers saw unknown
        # getattr(objects, computed name) by (objects, name prefix), and the members of one object by (object,
        # name prefix); see _kept: those that read a parameter are apart, dropped with the dependent entries
        self.computed: dict[tuple[Vals, str], Vals] = {}
        self.dependent_computed: dict[tuple[Vals, str], Vals] = {}
        self.stable_members: dict[tuple[Value, str], MembersFold] = {}
        self.dependent_members: dict[tuple[Value, str], MembersFold] = {}
        # what one class gives for an attribute of its instances, by (class, attribute), also kept (see _kept)
        self.class_instance_members: dict[tuple[str, str], Vals] = {}
        self.dependent_instance_members: dict[tuple[str, str], Vals] = {}
        self.outside_stores = 0  # Program.outside_stores when those were computed
        self.class_attributes: dict[tuple[str, bool, str], list[str]] = {}
        # parameter values read so far, and parameter-dependent results used: a computation read a parameter
        # when the count moved while it ran
        self.reads = 0
        self.param_flow: ParamFlow | None = None
        self.transparency: dict[str, bool] = {}
        self.modules_by_prefix: dict[str, Vals] = {}  # see _modules_starting (never cleared)
        self.outside_metaclasses: dict[str, str | None] = {}  # see outside_metaclass (bases are fixed)
        self.field_classes: dict[str, bool] = {}  # see _is_field
        self.metaclass_memo: dict[str, list[str]] = {}  # see metaclasses

    def reset(self) -> None:
        self.program.clear_memo()
        self.memo.clear()
        self.computed.clear()
        self.stable_members.clear()
        self.class_instance_members.clear()
        self.forget_parameter_dependent()
        self.class_attributes.clear()
        self.transparency.clear()
        self.outside_metaclasses.clear()
        self.field_classes.clear()
        self.metaclass_memo.clear()

    def forget_parameter_dependent(self) -> None:
        """Drop what was computed from parameter values, before they change (the flow pass)."""
        self.dependent.clear()
        self.dependent_computed.clear()
        self.dependent_members.clear()
        self.dependent_instance_members.clear()

    def _memoised(self, memo_key: Any, compute: Callable[[Any], Vals], cached: Literal[False] | None) -> Vals:
        """Memoised, cycle-safe and depth-bounded ``compute(memo_key)`` that tracks dependence on parameters.

        Callers look ``memo`` up first, and call this with what they found unless it was a value: most
        lookups hit, and a hit then costs no call. A cycle finds IN_PROGRESS there, which is unknown. Only
        READS_PARAMETER sends to the table of dependent values: a key never seen is not looked up twice. The
        key holds the arguments of ``compute``: one argument of fixed arity keeps the call cheap.
        """
        if cached is READS_PARAMETER:
            found = self.dependent.get(memo_key)
            if found is not None:
                self.reads += 1
                return found
        if self.depth > MAX_DEPTH:
            self.cuts += 1
            return UNKNOWN_VALS
        memo = self.memo
        memo[memo_key] = IN_PROGRESS
        self.depth += 1
        reads = self.reads
        try:
            result = compute(memo_key)
        except BaseException:
            del memo[memo_key]
            raise
        finally:
            self.depth -= 1
        if self.reads != reads:
            memo[memo_key] = READS_PARAMETER
            self.dependent[memo_key] = result
        else:
            memo[memo_key] = result
        return result

    # -- refs -----------------------------------------------------------------------------------------

    def evaluate(self, ref: Ref, key: ScopeKey) -> Vals:
        memo_key = (key, ref)
        cached = self.memo.get(memo_key)
        if cached:
            if cached is IN_PROGRESS:
                self.cuts += 1
            return cached
        return self._memoised(memo_key, self._evaluate, cached)

    def evaluate_before(self, ref: Ref, key: ScopeKey, line: int) -> Vals:
        """``ref`` as evaluated when the statement at ``line`` runs: ``class A(A):`` names the older ``A``."""
        if ref[0] == "a":
            return self.attribute(self.evaluate_before(ref[1], key, line), ref[2])
        scope = self.program.scope(key)
        if ref[0] != "n" or scope.kind not in ("module", "class"):
            return self.evaluate(ref, key)
        earlier = [b for b in scope.bindings.get(ref[1], ()) if b.line < line and not b.type_only]
        if not earlier:
            return self.evaluate(ref, key)
        last = max((i for i, b in enumerate(earlier) if not b.guarded), default=0)
        return union([self.binding(b, key) for b in earlier[last:]])

    def _evaluate(self, memo_key: tuple[ScopeKey, Ref]) -> Vals:
        key, ref = memo_key
        tag = ref[0]
        if tag == "n":
            return self.name(ref[1], key) if len(ref) == 2 else self.name_as_bound(ref, key[0])
        if tag == "a":
            return self.attribute(self.evaluate(ref[1], key), ref[2])
        if tag == "c":
            func = ref[1]
            if func[0] == "a" and func[2] in DICT_READS:
                read = self._dict_read(func[1], func[2], ref[2], key)
                if read is not None:
                    return read
            if func[0] == "a" and func[2] == "pop":
                read = self._list_pop(func[1], key)
                if read is not None:
                    return read
            return self.call_result(self.evaluate(func, key), ref[2], key)
        if tag in ("s", "sp"):
            return _A_STRING
        if tag == "d":
            return self.undecorated(ref[1])
        if tag == "k":
            return single(("XI", f"builtins.{ref[1]}"))
        if tag == "q":
            return single(("Q", self._items(ref[2], key), ref[1]))
        if tag == "i":
            if type(ref[2]) is str:
                module = self._sys_module(ref, key)
                if module is not None:
                    return module
                if ref[1][0] == "a" and ref[1][2] == "__dict__":
                    return self._namespace_item(self.evaluate(ref[1][1], key), ref[2])
            return self.item(ref[1], key)
        if tag == "or":
            return union([self.evaluate(r, key) for r in ref[1]])
        if tag == "super":
            owner = self.program.scope(key).owner
            if owner in self.program.borrowed or owner in self.program.foreign_selves:
                return incomplete(single(("S", ref[1])))  # ``self`` may be no instance of the class: fails
            return single(("S", ref[1]))
        if tag == "superof":
            return self._super_of(self.evaluate(ref[1], key))
        if tag == "aw":
            return self.awaited(self.evaluate(ref[1], key))
        if tag == "op":
            return self.operated(ref[1], ref[2], ref[3], key)
        if tag == "it":
            return self.item(ref[1], key, iterating=True)
        if tag == "ni":
            return self.instances(self.evaluate(ref[1], key), exact=False)
        if tag == "mp":
            return self.matched_positional(ref[1], ref[2], key)
        return UNKNOWN_VALS

    def _namespace_item(self, owners: Vals, name: str) -> Vals:
        """``C.__dict__["name"]``: what the body of class ``C`` itself binds to ``name`` (no lookup on its
        bases, no descriptor applied); ``module.__dict__["name"]``: the module's global."""
        parts: list[Vals] = []
        for value in ordered(owners.values):
            if value[0] == "C" and value[2] and value[1] in self.program.def_scope:
                found = self.program.bindings(self.program.def_scope[value[1]], name)
                parts.append(union([self.binding(b, where) for b, where in found]) if found else UNKNOWN_VALS)
            elif value[0] == "M":
                parts.append(self.module_member(value[1], name))
            else:
                return UNKNOWN_VALS
        found_all = union(parts) if parts else UNKNOWN_VALS
        return found_all if owners.complete else incomplete(found_all)

    def _sys_module(self, ref: Ref, key: ScopeKey) -> Vals | None:
        """``sys.modules["pkg.mod"]`` or ``sys.modules[__name__]`` naming a module of the repository that
        nothing replaces there: that module (None: not such an item)."""
        name = key[0] if ref[2] == OWN_NAME else ref[2]
        program = self.program
        if name == "__main__" and name not in program.summaries:  # the script run, whichever it is
            return single(MAIN_MODULE) if self.evaluate(ref[1], key).values == SYS_MODULES else None
        if name not in program.summaries or name in program.replaced_modules:
            return None
        if self.evaluate(ref[1], key).values != SYS_MODULES:
            return None
        if ref[2] == OWN_NAME and program.lookup(key, "__name__"):
            return None  # ``__name__`` rebound
        return single(("M", name))

    def matched_positional(self, instance: Ref, position: int, key: ScopeKey) -> Vals:
        """What the positional sub-pattern ``position`` of a class pattern matches against: the attribute
        the class's ``__match_args__`` names there (of ``int(x)`` and the other builtins that match
        themselves, the subject)."""
        subjects = self.evaluate(instance, key)
        parts: list[Vals] = []
        for value in ordered(subjects.values):
            name = self._match_arg(value[1], position, exact=value[2]) if value[0] == "I" else None
            if name is not None:
                parts.append(self.attribute(single(value, exact=subjects.exact), name))
            elif value[0] == "XI" and value[1] in SELF_MATCHING and position == 0:
                parts.append(single(value))
            else:
                parts.append(UNKNOWN_VALS)
        if not parts:
            return UNKNOWN_VALS
        found = union(parts)
        return found if subjects.complete else incomplete(found)

    def _match_arg(self, cls: str, position: int, *, exact: bool) -> str | None:
        """The attribute ``__match_args__[position]`` names for instances of ``cls`` (and its subclasses
        unless ``exact``) when they agree on it and each class spells it as a tuple of strings."""
        classes = [cls] if exact else [cls, *sorted(self.program.subclasses(cls))]
        names = set()
        for klass in classes:
            found = self.program.class_member(klass, "__match_args__")
            bindings = found[0][1] if found else []
            binding = bindings[0][0] if len(bindings) == 1 else None
            if binding is None or binding.kind != "val" or binding.a[0] != "q" or binding.a[1] != "tuple":
                return None
            items = binding.a[2]
            if position >= len(items) or items[position][0] != "s":
                return None
            names.add(items[position][1])
        return names.pop() if len(names) == 1 else None

    @staticmethod
    def _super_of(classes: Vals) -> Vals:
        """``super(C, obj)``: the proxy that looks attributes up after ``C`` in the MRO of ``obj``'s class,
        an instance of ``C`` or of a subclass (the interpreter checks), as ``super()`` in ``C`` does. Only a
        class known exactly: ``super(type(self), self)`` starts after whichever subclass ``self`` is of."""
        proxies = [
            single(("S", value[1])) for value in ordered(classes.values) if value[0] == "C" and value[2]
        ]
        if not proxies:
            return UNKNOWN_VALS
        found = union(proxies)
        return found if classes.complete and len(proxies) == len(classes.values) else incomplete(found)

    @staticmethod
    def awaited(awaitables: Vals) -> Vals:
        """What ``await`` gives: what a coroutine of the repository returns; anything else is unknown."""
        parts = [v[1] for v in ordered(awaitables.values) if v[0] == "Q" and v[2] == "coroutine"]
        if not parts:
            return UNKNOWN_VALS
        result = union(parts)
        if len(parts) < len(awaitables.values) or not awaitables.complete:
            return incomplete(result)
        return result

    def _items(self, refs: tuple[Ref, ...], key: ScopeKey) -> Vals:
        return union([self.evaluate(r, key) for r in refs]) if refs else NOTHING

    def item(self, base: Ref, key: ScopeKey, *, iterating: bool = False) -> Vals:
        """An item of a container (iterated, or subscripted): complete for a literal used in place, and for
        an instance of a repository class, which gives what its ``__next__`` (after ``__iter__``) or
        ``__getitem__`` returns. Any other container may have been filled elsewhere."""
        container = self.evaluate(base, key)
        sure = container.complete
        parts: list[Vals] = []
        for value in ordered(container.values):
            if value[0] == "Q" and (value[2] in PAIRED or (iterating and value[2] == "dict")):
                parts.append(UNKNOWN_VALS)  # tuples it does not hold; a dict's keys (it holds its values)
            elif value[0] == "Q":
                parts.append(value[1])
                sure = sure and (base[0] == "q" or value[2] in GENERATORS)
            elif value[0] == "I":
                parts.append(self._protocol_items(value, iterating))
            else:
                sure = False
        # what ``box[k] = v`` adds is a value, not a key: not what iterating a dict gives
        dicts = iterating and container.values and all(_is_dict(value) for value in container.values)
        added = None if dicts else self.container_adds(base, key)
        if added is not None:
            parts.append(added)
            sure = False
        if not parts:
            return UNKNOWN_VALS
        items = union(parts)
        if not sure:
            return incomplete(items)
        return Vals(items.values, items.complete, items.exact and len(items.values) == 1)

    def _dict_read(self, base: Ref, method: str, args: tuple[Ref, ...], key: ScopeKey) -> Vals | None:
        """``d.values()``, ``d.items()``, ``d.get(k)``... of a dict the index holds the values of (None: not
        such a dict, the call is evaluated as any other). Only a dict literal read in place holds no other
        values."""
        container = self.evaluate(base, key)
        if not container.values or not all(v[0] == "Q" and v[2] == "dict" for v in container.values):
            return None
        parts = [v[1] for v in ordered(container.values)]
        added = self.container_adds(base, key)
        if added is not None:
            parts.append(added)
        held = union(parts)
        if not (container.complete and base[0] == "q" and added is None):
            held = incomplete(held)
        if method in DICT_VIEWS:
            return single(("Q", held, DICT_VIEWS[method]))
        fallback = self.evaluate(args[1], key) if len(args) > 1 else single(("XI", "builtins.NoneType"))
        return incomplete(union([held, fallback]))  # the key may be missing, or the default is ignored

    def _list_pop(self, base: Ref, key: ScopeKey) -> Vals | None:
        """``box.pop()`` of a list the index holds the items of: one of them (None: not such a list)."""
        container = self.evaluate(base, key)
        if not container.values or not all(v[0] == "Q" and v[2] == "list" for v in container.values):
            return None
        return incomplete(self.item(base, key))

    def unpacked_item(self, iterable: Ref, key: ScopeKey, position: int) -> Vals:
        """A name of an unpacked loop target, ``position`` in it: of ``enumerate(xs)``, the count, then an
        item of ``xs``; of anything else, unknown."""
        container = self.evaluate(iterable, key)
        parts = [
            _unpacked_pair_part(value, position) if value[0] == "Q" else UNKNOWN_VALS
            for value in ordered(container.values)
        ]
        if not parts:
            return UNKNOWN_VALS
        found = union(parts)
        return found if container.complete else incomplete(found)

    def _protocol_items(self, instance: Value, iterating: bool) -> Vals:
        """What iterating (else subscripting) an instance gives; complete when every step is known."""
        if not iterating:
            return self._special_returns(instance, "__getitem__")
        iterators = self._special_returns(instance, "__iter__")
        parts = []
        for iterator in ordered(iterators.values):
            if iterator[0] == "I":
                parts.append(self._special_returns(iterator, "__next__"))
            elif iterator[0] == "Q":  # a generator's yields; a container may be filled elsewhere too
                parts.append(iterator[1] if iterator[2] in GENERATORS else incomplete(iterator[1]))
            else:
                parts.append(UNKNOWN_VALS)
        found = union(parts)
        return found if iterators.complete else incomplete(found)

    def _special_returns(self, instance: Value, method: str) -> Vals:
        """What the special method ``method`` of an instance returns (the interpreter looks it up on the
        class): complete when the lookup finds functions only."""
        found = self.instance_member(instance[1], method, exact=instance[2])
        functions = [value for value in ordered(found.values) if value[0] == "F"]
        if not functions:
            return UNKNOWN_VALS
        returned = union([self.returns(function[1]) for function in functions])
        return returned if found.complete and len(functions) == len(found.values) else incomplete(returned)

    def container_identity(self, ref: Ref, key: ScopeKey) -> tuple[object, ...] | None:
        """Where a container lives (a variable's scope, an object's attribute, or an item of either), to
        match additions. Items of one container share a place whatever their key: ``d["a"]["b"] = f`` and
        ``d[k]["b"]`` may meet."""
        if ref[0] == "i":
            holder = self.container_identity(ref[1], key)
            return ("item", holder) if holder is not None else None
        if ref[0] == "n":
            found = self.program.lookup(key, ref[1])
            return ("var", found[0][1], ref[1]) if found else None
        if ref[0] == "a":
            owners = self.evaluate(ref[1], key).values
            if len(owners) == 1:
                owner = next(iter(owners))
                if owner[0] in ("I", "C", "M"):
                    return ("attr", owner[1], ref[2])
        return None

    def container_adds(self, base: Ref, key: ScopeKey) -> Vals | None:
        identity = self.container_identity(base, key)
        adds = self.program.container_adds.get(identity) if identity is not None else None
        if not adds:
            return None
        return union([self.evaluate(value, where) for value, where in adds])

    # -- names ----------------------------------------------------------------------------------------

    def name(self, name: str, key: ScopeKey, *, runtime: bool = True) -> Vals:
        found = self.program.lookup(key, name, runtime=runtime)
        if found is None:
            dynamic = key[0] in self.program.dynamic_namespaces  # globals()[...] may define or shadow it
            if name in BUILTIN_NAMES:
                if name in self.program.rebound_builtins:  # ``builtins.name = f`` somewhere
                    return incomplete(single(("X", f"builtins.{name}")))
                return single(("X", f"builtins.{name}"), exact=not dynamic)
            return UNKNOWN_VALS
        if len(found) == 1:  # most names: skip building a list for union, which returns its one part
            binding, where = found[0]
            result = self.binding(binding, where)
        else:
            result = union([self.binding(b, where) for b, where in found])
        dynamic_namespaces = self.program.dynamic_namespaces
        if dynamic_namespaces and any(w[1] == 0 and w[0] in dynamic_namespaces for _, w in found):
            return incomplete(result)  # globals()[...] = ... may have replaced it
        return result

    def name_as_bound(self, ref: Ref, module: str) -> Vals:
        """A flow-ordered read ``("n", name, count, scope)`` in ``module``: what the bindings of
        ``name`` that reach it give, those made after the last of its first ``count`` bindings there that
        no block guards (the body runs in order, and no loop holds the read). Reads the index cannot order
        (see :attr:`Scope.unordered`, and test modules, whose imports depend on ``sys.path``) are plain."""
        _, name, count, scope_id = ref
        key = (module, scope_id)
        program = self.program
        scope = program.scope(key)
        if name in scope.unordered or module in program.test_directories:
            return self.name(name, key)
        if scope_id == 0 and self._module_name_unordered(module, name):
            return self.name(name, key)
        if count == 0 and scope.kind == "class":  # read before the class body binds it (if it does)
            if name in scope.bindings and name not in scope.nonlocal_names:
                return self.name(name, (module, 0))  # the class namespace, then the module's
            return self.name(name, key)
        if count < 0:
            return self.binding(scope.bindings[name][-count - 1], key)
        reaching = [b for b in scope.bindings[name][:count] if not b.type_only]
        start = max((i for i, b in enumerate(reaching) if not b.guarded), default=0)
        reaching = reaching[start:]
        if not reaching:
            return self.name(name, key)
        if len(reaching) == 1:
            return self.binding(reaching[0], key)
        return union([self.binding(b, key) for b in reaching])

    def _module_name_unordered(self, module: str, name: str) -> bool:
        """Whether a read in the body of ``module`` may see bindings it does not follow: made from another
        module (``mod.name = v``), by a star import, or through ``globals()``/``exec``."""
        program = self.program
        scope = program.summaries[module].scopes[0]
        return (
            ((module, 0), name) in program.extra_bindings
            or "*" in scope.bindings
            or module in program.dynamic_namespaces
        )

    def binding(self, binding: Binding, key: ScopeKey) -> Vals:
        """The values one binding gives (memoised and cycle-safe like :meth:`evaluate`)."""
        memo_key = (key, binding)  # a binding has six fields, a ref at most three: keys never collide
        cached = self.memo.get(memo_key)
        if cached:
            if cached is IN_PROGRESS:
                self.cuts += 1
            return cached
        return self._memoised(memo_key, self._binding, cached)

    def _binding(self, memo_key: tuple[ScopeKey, Binding]) -> Vals:
        key, binding = memo_key
        kind = binding.kind  # the most frequent kinds first
        if kind == "param":
            return self.parameter(key, binding.a)
        if kind == "val":
            return self.evaluate(binding.a, key)
        if kind in ("def", "class"):
            return self.definition(binding.a, (key[0], binding.b))
        if kind == "from":
            return self.imported(binding.a, binding.b)
        if kind == "valin":
            return self.evaluate(binding.a, binding.b)
        if kind == "import":  # ``import a.b as c`` binds what ``a.b`` holds, most often the submodule
            parent, dot, last = str(binding.a).rpartition(".")
            summary = self.program.summaries.get(parent) if dot else None
            if summary is not None and last in summary.scopes[0].bindings:
                return self.imported(parent, last)
            return self.module_path(binding.a)
        if kind == "iter":
            return self.item(binding.a, key, iterating=True)
        if kind == "iterpart":
            return self.unpacked_item(binding.a, key, binding.b)
        if kind == "enter":
            managed = self._managed(binding.a, key, asynchronous=bool(binding.b))
            if managed is not None:
                return managed
            return self.entered(self.evaluate(binding.a, key), asynchronous=bool(binding.b))
        if kind == "exc":
            return self._caught(self.evaluate(binding.a, key))
        if kind == "ann":
            return self.annotated(binding.a, key)
        if kind == "aug":
            return self.augmented(binding.a, binding.b, key)
        return UNKNOWN_VALS

    def operated(self, left: Ref, dunder: str, right: Ref, key: ScopeKey) -> Vals:
        """``a + b``: what ``a.__add__(b)`` returns, never ``NotImplemented``, with which the method declines:
        the interpreter then returns what ``b.__radd__(a)`` does (both declining raises ``TypeError``).

        The reflected method also runs first when ``b``'s class derives from ``a``'s and overrides it: a right
        operand that may be an instance of a repository class defining the reflected method (other than where
        ``a``'s value is exactly the same class) makes the result include it, and not exact.
        """
        forward = self.evaluate(("c", ("a", left, dunder), (right,)), key)
        reflected_name = f"__r{dunder[2:]}"
        declines = NOT_IMPLEMENTED in forward.values
        if not declines and not self._may_reflect_first(left, right, reflected_name, key):
            return forward
        reflected = self._reflected_result(left, reflected_name, right, key)
        # a reflected result only partly known adds nothing but its incompleteness: its known values (often
        # everything its own operands could be) would crowd out the forward method's few
        reflected_part = _implemented_values(reflected) if reflected.complete else UNKNOWN_VALS
        result = union([_implemented_values(forward), reflected_part])
        return result if declines else inexact(result)

    def _reflected_result(self, left: Ref, reflected_name: str, right: Ref, key: ScopeKey) -> Vals:
        """What ``right.__radd__(left)`` gives. A builtin's reflected method declines an instance of a
        repository class that derives from no outside class (the operation raises: nothing)."""
        right_vals = self.evaluate(right, key)
        if right_vals.complete and all(
            v[0] == "XI" and v[1].startswith("builtins.") for v in right_vals.values
        ):
            left_vals = self.evaluate(left, key)
            external = self.program.external_bases
            if left_vals.complete and all(
                v[0] == "I" and v[2] and not external.get(v[1]) for v in left_vals.values
            ):
                return NOTHING
        return self.evaluate(("c", ("a", right, reflected_name), (left,)), key)

    def _may_reflect_first(self, left: Ref, right: Ref, reflected_name: str, key: ScopeKey) -> bool:
        """Whether ``right``'s value may be an instance of a repository class that derives from ``left``'s
        class and has a reflected method of its own: the interpreter then tries that method first."""
        program = self.program
        left_classes: set[str] = set()
        for value in self.evaluate(left, key).values:
            if value[0] == "I":
                left_classes.add(value[1])
                if not value[2]:
                    left_classes |= program.subclasses(value[1])
        if not left_classes:
            return False
        for value in self.evaluate(right, key).values:
            if value[0] != "I":
                continue
            candidates = [value[1]] if value[2] else [value[1], *sorted(program.subclasses(value[1]))]
            for cls in candidates:
                if left_classes.isdisjoint(program.mro(cls)[1:]):
                    continue
                if any(v[0] == "F" for v in self.instance_member(cls, reflected_name, exact=True).values):
                    return True
        return False

    def _caught(self, classes: Vals) -> Vals:
        """``except E as e``: an instance of ``E`` or of a subclass, as surely as ``self`` is one of its
        class (Python checks), when ``E`` is one class of the repository. An outside class's instance may
        be of a subclass the value cannot name."""
        caught = self.instances(classes, exact=False)
        sure = classes.is_exact() and caught.complete and all(v[0] == "I" for v in caught.values)
        return Vals(caught.values, caught.complete, sure and len(caught.values) == 1)

    def augmented(self, dunder: str, name: str, key: ScopeKey) -> Vals:
        """``name += y``: what ``__iadd__`` (else ``__add__``) of the name's other values returns (builtin
        values keep their type)."""
        bindings = self.program.scope(key).bindings.get(name, ())
        others = [self.binding(b, key) for b in bindings if b.kind != "aug"]
        parts: list[Vals] = []
        for value in ordered(union(others).values) if others else ():
            if value[0] == "I":
                method = self.instance_member(value[1], dunder, exact=value[2])
                if not method.values - {("X", f"builtins.object.{dunder}")}:  # none: ``x = x + y``
                    method = self.instance_member(value[1], "__" + dunder[3:], exact=value[2])
                functions = [v[1] for v in ordered(method.values) if v[0] == "F"]
                parts.extend([_implemented(self.returns(function)) for function in functions])
                if not functions or len(functions) != len(method.values) or not method.complete:
                    parts.append(UNKNOWN_VALS)
            elif value[0] == "XI":
                parts.append(single(value))
            else:
                parts.append(UNKNOWN_VALS)
        return union(parts) if parts else UNKNOWN_VALS

    def module_path(self, path: str) -> Vals:
        return single(("M", path)) if self.program.is_module(path) else single(("X", path))

    def imported(self, module: str, name: str) -> Vals:
        """``from module import name``: a repository definition, a submodule or an external path.

        A package that imports its own submodule (``from . import mod`` in ``pkg/__init__.py``) binds the
        name to that import, which Python answers with the submodule when the package has no such attribute
        yet: that binding stands for the submodule, not for a lookup of itself (a cycle, thus unknown).
        """
        program = self.program
        full = f"{module}.{name}" if module else name
        if module in program.replaced_modules:  # ``sys.modules[module] = obj``: what obj has is not known
            return UNKNOWN_VALS
        if module in program.summaries:
            found = program.module_member_bindings(module, name)
            if found:
                result = union(
                    [
                        self._submodule(f"{module}.{b.b}")
                        if _imports_itself(b, where, module)
                        else self.binding(b, where)
                        for b, where in found
                    ]
                )
                return self._maybe_submodule(module, name, result)
        if program.is_module(full):
            return single(("M", full))
        if program.is_module(module):
            return UNKNOWN_VALS  # a repository module that does not define the name
        return single(("X", full))

    def _maybe_submodule(self, package: str, name: str, found: Vals) -> Vals:
        """What attribute ``name`` of ``package`` holds, ``found`` from the package's own bindings: when a
        submodule of that name exists that the package does not import itself, the first import of it
        anywhere sets the attribute to the submodule (either, then)."""
        if name not in self.program.shadowed_submodules.get(package, ()):
            return found
        return inexact(union([found, single(("M", f"{package}.{name}"))]))

    def _submodule(self, path: str) -> Vals:
        return single(("M", path)) if self.program.is_module(path) else UNKNOWN_VALS

    # -- definitions and decorators ---------------------------------------------------------------------

    def undecorated(self, qualname: str) -> Vals:
        """The object a ``def``/``class``/``lambda`` creates, before any decorator."""
        key = self.program.def_scope.get(qualname)
        if key is None:
            return UNKNOWN_VALS
        kind = self.program.scope(key).kind
        return single(("C", qualname, True) if kind == "class" else ("F", qualname, False))

    def definition(self, qualname: str, key: ScopeKey) -> Vals:
        """The object the ``def``/``class`` statement whose body is ``key`` binds to ``qualname``: what its
        decorators return, innermost first (a name defined twice may be decorated differently each time)."""
        if key not in self.program.bodies(qualname):  # a binding copied to another module's scope
            found = self.program.def_scope.get(qualname)
            if found is None:
                return UNKNOWN_VALS
            key = found
        scope = self.program.scope(key)
        current = single(("C", qualname, True) if scope.kind == "class" else ("F", qualname, False))
        if scope.parent is None or not scope.decorators:
            return current
        outer = (key[0], scope.parent)
        for decorator in reversed(scope.decorators):
            current = self.decorate(decorator, current, outer)
        return current

    def decorate(self, decorator: Ref, current: Vals, key: ScopeKey) -> Vals:
        """``@decorator`` over a definition valued ``current``.

        A transparent decorator keeps the value; a repository decorator gives what it returns (a
        ``functools.wraps`` wrapper, an instance of a decorator class); an unknown one keeps the function only
        as a possible target.
        """
        partial = self._partial_application(decorator, current, key)
        if partial is not None:
            return partial
        if self.is_transparent(decorator, key):
            return current
        applied = self.call_result(self.evaluate(decorator, key), (), key)
        if applied.values and all(v[0] in ("F", "I", "C") for v in applied.values):
            return applied if applied.complete else union([inexact(current), applied])
        if self._makes_properties(decorator, key):
            return MADE_PROPERTY
        return inexact(current)

    def _makes_properties(self, decorator: Ref, key: ScopeKey) -> bool:
        """A repository decorator that returns a property it builds (``return property(accessor)``): the
        name it decorates is then read through an accessor the index does not follow."""
        functions = self.evaluate(decorator, key)
        if not functions.values or not functions.complete:
            return False
        for value in functions.values:
            if value[0] != "F":
                return False
            for body in self.called_bodies(value[1]):
                scope = self.program.scope(body)
                if not scope.returns or not all(self._builds_property(ref, body) for ref in scope.returns):
                    return False
        return True

    def _builds_property(self, ref: Ref, key: ScopeKey) -> bool:
        if ref[0] != "c":
            return False
        made = self.evaluate(ref[1], key)
        return bool(made.values) and made.complete and made.values <= PROPERTY_CLASSES

    def _partial_application(self, decorator: Ref, current: Vals, key: ScopeKey) -> Vals | None:
        """``@functools.partial(g, x, ...)`` over ``f`` is ``g(x, ..., f)``: when every ``g`` is a function
        returning its first parameter, that is ``x`` (``f`` when nothing is bound); else None. (A call's ref
        keeps two arguments, so where ``f`` lands among more parameters is not known.)"""
        args = decorator[2] if decorator[0] == "c" else ()
        if not args or STARRED in args:
            return None
        factory = self.evaluate(decorator[1], key)
        if not factory.values or any(value != PARTIAL for value in factory.values):
            return None
        functions = self.evaluate(args[0], key)
        if not functions.complete or not functions.values:
            return None
        for value in functions.values:
            if value[0] != "F" or not self._is_plain_function(value[1]):
                return None
            if not self.returns_first_argument(value[1]):
                return None
        return self.evaluate(args[1], key) if len(args) > 1 else current

    def is_transparent(self, decorator: Ref, key: ScopeKey) -> bool:
        if decorator[0] == "a" and decorator[2] in ("setter", "getter", "deleter"):
            return True
        if decorator[0] == "c":
            factory = self.evaluate(decorator[1], key)
            if all(v[0] == "X" and v[1] in TRANSPARENT_FACTORIES for v in factory.values) and factory.values:
                return True
            if PARTIAL in factory.values:
                return False  # ``@partial(deco, x)`` passes the function after ``x``, not first
            result = self.evaluate(decorator, key)
            return (
                bool(result.values)
                and result.complete
                and all(v[0] == "F" and self.returns_first_argument(v[1]) for v in result.values)
            )
        vals = self.evaluate(decorator, key)
        if not vals.values or not vals.complete:
            return False
        return all(
            (v[0] == "X" and v[1] in TRANSPARENT_DECORATORS)
            or (v[0] == "F" and self.returns_first_argument(v[1]))
            for v in vals.values
        )

    def returns_first_argument(self, qualname: str) -> bool:
        """A repository decorator that returns its argument (a registration decorator)."""
        known = self.transparency.get(qualname)
        if known is not None:
            return known
        self.transparency[qualname] = False  # recursion guard
        bodies = self.called_bodies(qualname)
        answer = bool(bodies) and all(self._returns_first_argument(self.program.scope(key)) for key in bodies)
        self.transparency[qualname] = answer
        return answer

    @staticmethod
    def _returns_first_argument(scope: Scope) -> bool:
        if not scope.params or not scope.returns or scope.is_generator:
            return False
        return all(r == ("n", scope.params[0].name) for r in scope.returns)

    def called_bodies(self, qualname: str) -> list[ScopeKey]:
        """The bodies calling ``qualname`` may run: all its definitions but ``@overload`` stubs (replaced by
        the implementation, and raising if called) and, beside a property's getter, its setter and deleter."""
        bodies = self.program.bodies(qualname)
        if len(bodies) == 1 and not self.program.scope(bodies[0]).decorators:
            return list(bodies)  # nearly every function
        called = [key for key in bodies if not self._is_overload_stub(key)]
        getters = [key for key in called if not _is_property_mutator(self.program.scope(key))]
        return getters or called

    def _is_overload_stub(self, key: ScopeKey) -> bool:
        scope = self.program.scope(key)
        parent = self.program.parent(key)
        if parent is None:
            return False
        for decorator in scope.decorators:
            values = self.evaluate(decorator, parent).values
            if values and all(v[0] == "X" and v[1] in OVERLOAD_DECORATORS for v in values):
                return True
        return False

    # -- parameters ---------------------------------------------------------------------------------------

    def flows_in(self, key: ScopeKey, index: int) -> bool:
        """Whether parameter ``index`` of the function at ``key`` holds what its callers pass (not
        ``self``/``cls``, ``*args`` or ``**kwargs``)."""
        scope = self.program.scope(key)
        if index == 0 and scope.method_of and scope.method_kind in ("class", "instance", "property"):
            return False
        return scope.params[index].kind not in ("var_positional", "var_keyword")

    def parameter(self, key: ScopeKey, index: int) -> Vals:
        scope = self.program.scope(key)
        param = scope.params[index]
        if index == 0 and scope.method_of:
            borrowers = self.program.borrowed.get(scope.owner, ())
            if scope.method_kind == "class" or (scope.method_kind == "instance" and _is_new(scope.owner)):
                return union([single(("C", cls, False)) for cls in (scope.method_of, *borrowers)])
            if scope.method_kind in ("instance", "property"):
                own = [single(("I", cls, False)) for cls in (scope.method_of, *borrowers)]
                foreign = self.program.foreign_selves.get(scope.owner)
                return union(own if foreign is None else [*own, foreign])
        self.reads += 1  # its value changes when arguments flow in
        if param.kind in PACKED_PARAMETERS:  # a tuple (a dict) of what callers pass there
            flowed = self.param_flow(key, index) if self.param_flow is not None else None
            return flowed if flowed is not None else single(("XI", PACKED_PARAMETERS[param.kind]))
        if self.param_flow is not None:
            flowed = self.param_flow(key, index)
            if flowed is not None:
                return flowed
        parts: list[Vals] = [UNKNOWN_VALS]
        parent = (key[0], scope.parent) if scope.parent is not None else None
        if param.annotation is not None:
            parts.append(self.annotated(param.annotation, parent or key))
        if param.default is not None and parent is not None:
            parts.append(inexact(self.evaluate(param.default, parent)))
        return union(parts)

    def annotated(self, annotation: Ref, key: ScopeKey) -> Vals:
        """Instances of the classes an annotation names; never exact (annotations are not enforced)."""
        if annotation[0] == "i":  # Optional[X], list[X]: only the outer name is meaningful
            return UNKNOWN_VALS
        types = self._annotation_types(annotation, key)
        return Vals(self.instances(types, exact=False).values, False, False)

    def _annotation_types(self, annotation: Ref, key: ScopeKey) -> Vals:
        if annotation[0] == "n":
            return self.name(annotation[1], key, runtime=False)
        return self.evaluate(annotation, key)

    # -- attributes ---------------------------------------------------------------------------------------

    def attribute(self, base: Vals, attr: str) -> Vals:
        values = base.values
        if not values:
            return UNKNOWN_VALS
        if len(values) == 1:  # most bases: union would return the one part
            (value,) = values
            result = self.member(value, attr)
        else:
            result = union([self.member(value, attr) for value in ordered(values)])
        if not base.complete or attr in self.program.attrs_stored_on_unknown:
            return incomplete(result)
        if not base.exact:
            return inexact(result)
        return result

    def member(self, value: Value, attr: str) -> Vals:
        tag = value[0]
        if attr == "__class__":
            return self.class_of(value)
        if tag == "M":
            return self.module_member(value[1], attr)
        if tag == "X":
            if value == MAIN_MODULE:
                return self._script_member(attr)
            found = external_member(value[1], attr)
            return self._patched(found) if self.program.patched_externals else found
        if tag == "XI":
            found = external_member(value[1], attr, instance=True)
            return self._patched(found) if self.program.patched_externals else found
        if tag == "I":
            found = self.instance_member(value[1], attr, exact=value[2])
            program = self.program
            if program.is_reclassed(value[1]) or program.intercepts_attributes(value[1], exact=value[2]):
                return incomplete(found)
            return found
        if tag == "C":
            return self.class_member(value[1], attr, exact=value[2])
        if tag == "S":
            return self.super_member(value[1], attr)
        if tag == "Q":
            return container_member(value[2], attr)
        if tag == "F" and self.method_kind(value[1]) == "property":
            if attr == "fget":  # the getter, unbound
                return single(("F", value[1], False))
            if attr in ("fset", "fdel"):  # a def of the same name, perhaps: not followed
                return UNKNOWN_VALS
            return single(("X", f"builtins.property.{attr}"))
        return UNKNOWN_VALS

    def _patched(self, found: Vals) -> Vals:
        """``found``, an external attribute read at run time, or what code stored on it (a test's
        ``monkeypatch.setattr(time, "time", fake)``): then not exact. (``from time import time`` binds the
        original once, at import: not this.)"""
        patched = self.program.patched_externals
        stored = [
            self.binding(binding, where)
            for value in found.values
            if value[0] == "X" and value[1] in patched
            for binding, where in patched[value[1]]
        ]
        return inexact(union([found, *stored])) if stored else found

    def _script_member(self, attr: str) -> Vals:
        """``__main__.attr``: the module-level ``attr`` of any module that may be the script run (not
        exactly known, and perhaps none of them)."""
        program = self.program
        found = [
            self.module_member(module, attr)
            for module, summary in sorted(program.summaries.items())
            if attr in summary.scopes[0].bindings
        ]
        return incomplete(union(found)) if found else UNKNOWN_VALS

    def class_of(self, value: Value) -> Vals:
        """``obj.__class__`` (and ``type(obj)``): the class of an instance, of the same exactness."""
        tag = value[0]
        if tag == "I":
            found = single(("C", value[1], value[2]))
            return incomplete(found) if self.program.is_reclassed(value[1]) else found
        if tag == "XI":
            return single(("X", value[1]))
        if tag == "Q":
            return single(("X", f"builtins.{value[2]}"))
        return UNKNOWN_VALS

    def method_kind(self, qualname: str) -> str | None:
        key = self.program.def_scope.get(qualname)
        return self.program.scope(key).method_kind if key is not None else None

    def module_member(self, module: str, attr: str) -> Vals:
        program = self.program
        if module in program.replaced_modules:  # importing it gives another object: not followed
            return UNKNOWN_VALS
        if module in program.summaries:
            found = program.module_member_bindings(module, attr)
            if found:
                if len(found) == 1:
                    binding, where = found[0]
                    result = self.binding(binding, where)
                else:
                    result = union([self.binding(b, where) for b, where in found])
                if module in program.dynamic_namespaces:  # ``globals()[k] = v`` may have replaced it
                    return incomplete(result)
                return self._maybe_submodule(module, attr, result)
        if program.is_module(f"{module}.{attr}"):
            return single(("M", f"{module}.{attr}"))
        return UNKNOWN_VALS

    def _dispatch_classes(self, cls: str, exact: bool) -> list[str]:
        return [cls] if exact else [cls, *sorted(self.program.subclasses(cls))]

    def instance_member(self, cls: str, attr: str, *, exact: bool) -> Vals:
        memo_key = ("I", cls, exact, attr)
        cached = self.memo.get(memo_key)
        if cached:
            if cached is IN_PROGRESS:
                self.cuts += 1
            return cached
        return self._memoised(memo_key, self._dispatched_member, cached)

    def _dispatched_member(self, memo_key: tuple[str, str, bool, str]) -> Vals:
        _, cls, exact, attr = memo_key
        if exact:
            return union([self._instance_member(cls, attr)])
        dispatched = self.program.dispatch_classes(cls, attr)
        result = union([self._instance_member(klass, attr) for klass in dispatched])
        if self.program.open_dispatch(cls, attr) or self.program.may_have_dynamic_subclass(cls):
            return incomplete(result)  # an unnamed base, or a class made at run time, may make it another
        return result

    def _instance_member(self, cls: str, attr: str) -> Vals:
        """What ``cls`` gives for ``attr`` on its instances: the subclasses of many classes dispatch to the
        same classes, so it is kept (see :meth:`_kept`) until an assignment from outside adds to it."""
        if self.outside_stores != self.program.outside_stores:
            self.outside_stores = self.program.outside_stores
            self.class_instance_members.clear()
            self.dependent_instance_members.clear()
        stable, dependent = self.class_instance_members, self.dependent_instance_members
        return self._kept(stable, dependent, (cls, attr), self._class_instance_member)

    def _class_instance_member(self, cls: str, attr: str) -> Vals:
        program = self.program
        if attr in GENERATED_METHODS:
            generated = self._generated_method(cls, attr)
            if generated is not None:
                return generated
        parts: list[Vals] = []
        class_scopes = program.class_scopes
        elsewhere = attr in program.attrs_stored_elsewhere  # rarely: most attributes are stored by methods
        mro = program.mro(cls)
        for klass in mro:
            scope = class_scopes.get(klass)
            stores = scope.instance_attrs.get(attr) if scope else None
            if stores:
                module = program.def_scope[klass][0]
                parts.extend([self.evaluate(ref, (module, where)) for ref, where in stores])
            extra = program.extra_instance_attrs.get((klass, attr)) if elsewhere else None
            if extra:
                parts.extend([self.binding(b, where) for b, where in extra])
        if parts and (
            any(_sets_computed_names(class_scopes.get(klass)) for klass in mro)
            or not program.computed_stores.isdisjoint(mro)
        ):
            parts.append(UNKNOWN_VALS)  # a method sets attributes by computed names (``setattr(self, k, v)``)
        for klass, bindings in program.class_member(cls, attr):
            parts.append(self._accessed(klass, bindings, through_instance=True, attr=attr))
            if self._is_field(klass, attr):  # the default, or what the constructor was given
                parts.append(UNKNOWN_VALS)
        if attr in program.metaclass_instance_attrs:
            parts.extend(self._stored_by_metaclass(cls, attr))
        if not parts:
            parts.append(self._inherited_from_outside(cls, attr, instance=True))
        if program.computed_class_members and not program.computed_class_members.isdisjoint(mro):
            return incomplete(union(parts))  # ``setattr(cls, name, f)`` may have set any member
        return union(parts)

    def _stored_by_metaclass(self, cls: str, attr: str) -> list[Vals]:
        """What the methods of the metaclass of ``cls`` store as ``cls.attr`` (``cls.m = f`` in its
        ``__init__``), beside what the class body binds."""
        found: list[Vals] = []
        program = self.program
        for meta in self.metaclasses(cls):
            for klass in program.mro(meta):
                scope = program.class_scopes.get(klass)
                stores = scope.instance_attrs.get(attr) if scope is not None else None
                if stores:
                    module = program.def_scope[klass][0]
                    found.extend(self.evaluate(ref, (module, where)) for ref, where in stores)
        return found

    def metaclasses(self, cls: str) -> list[str]:
        """The repository metaclasses of ``cls``: those the first class on its MRO that names one names."""
        found = self.metaclass_memo.get(cls)
        if found is None:
            found = self.metaclass_memo[cls] = self._metaclasses(cls)
        return found

    def _metaclasses(self, cls: str) -> list[str]:
        program = self.program
        for klass in program.mro(cls):
            scope = program.class_scope(klass)
            outer = program.parent(program.def_scope[klass]) if scope is not None else None
            if scope is None or scope.metaclass is None or outer is None:
                continue
            return [
                value[1] for value in ordered(self.evaluate(scope.metaclass, outer).values) if value[0] == "C"
            ]
        return []

    def _generated_method(self, cls: str, attr: str) -> Vals | None:
        """``__repr__``, ``__eq__`` or ``__hash__`` that ``@dataclass`` (or attrs) wrote on a class of the MRO
        of ``cls`` before any class that defines it: no function of the repository (``__hash__`` is ``None``
        or a generated one); None when the lookup finds a written one first."""
        program = self.program
        for klass in program.mro(cls):
            scope = program.class_scopes.get(klass)
            if scope is None or attr in scope.bindings:
                return None
            if not scope.decorators:
                continue
            writes = self.field_classes.get(klass)
            if writes is None:
                writes = self.field_classes[klass] = self._writes_fields(klass)
            texts = "".join(scope.decorator_texts).replace(" ", "")
            if writes and f"{GENERATED_METHODS[attr]}=False" not in texts:
                return single(("X", f"builtins.object.{attr}"))
        return None

    def _is_field(self, cls: str, attr: str) -> bool:
        """Whether ``attr`` is a field of class ``cls`` that a written ``__init__`` stores on each instance:
        a name annotated in the body of a class under ``@dataclass`` or attrs' decorators (``ClassVar``s
        aside)."""
        scope = self.program.class_scope(cls)
        if scope is None or attr not in scope.fields:
            return False
        writes = self.field_classes.get(cls)
        if writes is None:
            writes = self.field_classes[cls] = self._writes_fields(cls)
        return writes

    def _writes_fields(self, cls: str) -> bool:
        """Whether a decorator of class ``cls`` writes an ``__init__`` that stores its fields."""
        key = self.program.def_scope[cls]
        scope = self.program.scope(key)
        parent = self.program.parent(key)
        if parent is None:
            return False
        for decorator in scope.decorators:
            called = decorator[1] if decorator[0] == "c" else decorator
            if any(
                value[0] == "X" and value[1] in INIT_WRITERS for value in self.evaluate(called, parent).values
            ):
                return True
        return False

    def _inherited_from_outside(self, cls: str, attr: str, *, instance: bool) -> Vals:
        """What ``cls`` finds for ``attr`` past its repository MRO: the external bases', ``object``'s, or
        unknown when a base the index cannot name may define it (its special methods as any other)."""
        program = self.program
        if any(program.unresolved_bases.get(klass) for klass in program.mro(cls)):
            return UNKNOWN_VALS
        external = program.external_ancestors(cls)
        if external:  # the first external base's, but another may be the one to define it
            return incomplete(external_member(external[0], attr, instance=instance))
        if attr == "__dict__":  # the instance's attributes, as a dict
            return single(("XI", "builtins.dict"))
        if attr.startswith("__") and attr.endswith("__"):
            return single(("X", f"builtins.object.{attr}"))
        return UNKNOWN_VALS

    def _accessed(
        self, klass: str, bindings: list[tuple[Binding, ScopeKey]], *, through_instance: bool, attr: str
    ) -> Vals:
        """The value of class attribute ``attr`` of ``klass`` (``bindings``), read from the class or an
        instance."""
        if len(bindings) == 1:  # most members: union would return the one part
            binding, where = bindings[0]
            result = self._bind_access(self.binding(binding, where), through_instance)
        else:
            result = union(
                [self._bind_access(self.binding(b, where), through_instance) for b, where in bindings]
            )
        if all(b.kind == "val" for b, _ in bindings):
            metaclass = self.outside_metaclass(klass)
            member = not (attr.startswith("_") and attr.endswith("_")) and not any(
                v[0] == "F"
                for v in result.values  # a function stays a method
            )
            if metaclass == "enum" and member:
                return single(("I", klass, True))  # a member of the enumeration, not its value
            if metaclass == "other":
                return incomplete(result)
        return result

    def outside_metaclass(self, cls: str) -> str | None:
        """What metaclass from outside the repository builds ``cls``: ``enum`` (its plain class attributes
        become members, instances of the class), ``other`` (one that may replace them: Django's model and
        choices metaclasses, ``NamedTuple``'s...), or None (``type``, or one that leaves them alone)."""
        if cls in self.outside_metaclasses:
            return self.outside_metaclasses[cls]
        bases = [b for b in self.program.external_ancestors(cls) if b not in PLAIN_METACLASS_BASES]
        found: str | None = None
        if any(b in ENUM_BASES for b in bases):
            found = "enum"
        elif any(not b.startswith("builtins.") for b in bases):
            found = "other"
        self.outside_metaclasses[cls] = found
        return found

    def _bind_access(self, vals: Vals, through_instance: bool) -> Vals:
        """Attribute access on a class or instance: methods get bound, properties return their value."""
        values: set[Value] = set()
        parts: list[Vals] = []
        for value in ordered(vals.values):
            if value[0] == "I" and self._may_be_descriptor(value[1], exact=value[2]):
                parts.append(self._descriptor_result(value[1], exact=value[2]))
                continue
            if value == MADE_PROPERTY_VALUE and through_instance:  # what its accessor returns
                parts.append(UNKNOWN_VALS)
                continue
            if value[0] == "K":  # ``classmethod(f)``: bound to the class, read from it or an instance
                values.add(("F", value[1], True))
                continue
            if value[0] != "F":
                values.add(value)
                continue
            key = self.program.def_scope.get(value[1])
            scope = self.program.scope(key) if key else None
            kind = scope.method_kind if scope else None
            if kind == "property" and through_instance:
                parts.append(self.returns(value[1]))
            elif kind == "class":
                values.add(("F", value[1], True))
            elif kind == "static" or scope is None or scope.method_of is None:
                values.add(("F", value[1], False))
            else:
                values.add(("F", value[1], through_instance))
        parts.append(tuple.__new__(Vals, (frozenset(values), vals.complete, vals.exact)))  # Vals(...), faster
        return union(parts) if len(parts) > 1 else parts[0]

    def _may_be_descriptor(self, cls: str, *, exact: bool) -> bool:
        """Whether an instance of ``cls`` found as a class attribute may be a descriptor: its ``__get__``
        then runs on every read, and gives the value read."""
        found = self.instance_member(cls, "__get__", exact=exact)
        if any(v[0] == "F" for v in found.values):
            return True
        if found.complete:
            return False
        return any(
            b in DESCRIPTOR_BUILTINS or not b.startswith(("builtins.", *NON_DESCRIPTOR_MODULES))
            for b in self.program.external_ancestors(cls)
        )

    def _descriptor_result(self, cls: str, *, exact: bool) -> Vals:
        """What reading the descriptor gives: what its one ``__get__`` returns when that is exact, else
        unknown (a descriptor's ``__get__`` serves every attribute it is stored as, and what it gives for
        each cannot be told apart)."""
        getters = self.instance_member(cls, "__get__", exact=exact)
        if getters.is_exact() and next(iter(getters.values))[0] == "F":
            returned = self.returns(next(iter(getters.values))[1])
            if returned.is_exact():
                return returned
        return UNKNOWN_VALS

    def class_member(self, cls: str, attr: str, *, exact: bool) -> Vals:
        memo_key = ("C", cls, exact, attr)
        cached = self.memo.get(memo_key)
        if cached:
            if cached is IN_PROGRESS:
                self.cuts += 1
            return cached
        return self._memoised(memo_key, self._class_member, cached)

    def _class_member(self, memo_key: tuple[str, str, bool, str]) -> Vals:
        _, cls, exact, attr = memo_key
        parts: list[Vals] = []
        program = self.program
        for klass in [cls] if exact else program.dispatch_classes(cls, attr):
            for owner, bindings in program.class_member(klass, attr):
                parts.append(self._accessed(owner, bindings, through_instance=False, attr=attr))
                break
            else:
                parts.append(self._inherited_from_outside(klass, attr, instance=False))
            if program.computed_class_members and not program.computed_class_members.isdisjoint(
                program.mro(klass)
            ):
                parts.append(UNKNOWN_VALS)  # ``setattr(cls, name, f)`` may have set any member
            if attr in program.metaclass_instance_attrs:
                parts.extend(self._stored_by_metaclass(klass, attr))
        if not exact and program.may_have_dynamic_subclass(cls):
            return incomplete(union(parts))
        return union(parts)

    def super_member(self, cls: str, attr: str) -> Vals:
        parts: list[Vals] = []
        for klass in self.program.dispatch_classes(cls, attr):
            mro = self.program.mro(klass)
            rest = mro[mro.index(cls) + 1 :] if cls in mro else ()
            parts.append(self._member_after(cls, rest, attr))
        return union(parts)

    def _member_after(self, cls: str, rest: tuple[str, ...], attr: str) -> Vals:
        program = self.program
        for klass in rest:
            key = program.def_scope.get(klass)
            found = program.bindings(key, attr) if key else []
            if found:
                return self._accessed(klass, found, through_instance=True, attr=attr)
        owners = (cls, *rest)
        if any(program.unresolved_bases.get(k) for k in owners):
            return UNKNOWN_VALS
        external = tuple(dict.fromkeys(b for k in owners for b in program.external_bases.get(k, ())))
        # The lookup continues in ``object`` or in the one external base (unknown where that lacks ``attr``:
        # the instance is then of a subclass the index does not see, as a mixin's ``super().dispatch()``).
        if not external:
            return external_member("builtins.object", attr, instance=True)
        if len(external) == 1:
            return external_member(external[0], attr, instance=True)
        return incomplete(union([external_member(base, attr, instance=True) for base in external]))

    # -- calls ----------------------------------------------------------------------------------------

    def call_result(self, func: Vals, args: tuple[Ref, ...], key: ScopeKey) -> Vals:
        values = func.values
        if not values:
            return UNKNOWN_VALS
        if len(values) == 1:  # most callees: union would return the one part
            (value,) = values
            result = self._result_of(value, args, key)
        else:
            result = union([self._result_of(value, args, key) for value in ordered(values)])
        return result if func.complete else incomplete(result)

    def _result_of(self, value: Value, args: tuple[Ref, ...], key: ScopeKey) -> Vals:
        tag = value[0]
        if tag == "F":
            return self.returns(value[1])
        if tag == "C":
            return self.constructed(value[1], exact=value[2])
        if tag == "I":
            return union(
                [
                    self.returns(v[1])
                    for v in ordered(self.instance_member(value[1], "__call__", exact=value[2]).values)
                    if v[0] == "F"
                ]
            )
        if tag == "X":
            return self._external_result(value[1], args, key)
        return UNKNOWN_VALS

    def constructed(self, cls: str, *, exact: bool) -> Vals:
        """What calling class ``cls`` gives: an instance of it, unless a metaclass's ``__call__`` or a
        ``__new__`` that returns something else may give another object (what they return, then)."""
        classes = [cls] if exact else [cls, *sorted(self.program.subclasses(cls))]
        instance = single(("I", cls, exact))
        others = [found for klass in classes for found in self._other_constructions(klass)]
        if not others:
            return instance
        return inexact(union([instance, *others]))

    def _other_constructions(self, cls: str) -> list[Vals]:
        """What a metaclass ``__call__``, or a ``__new__`` returning other objects, makes ``cls()`` give."""
        program = self.program
        found: list[Vals] = []
        for klass in program.mro(cls):
            scope = program.class_scope(klass)
            if scope is None or scope.metaclass is None:
                continue
            parent = program.parent(program.def_scope[klass])
            metaclass = self.evaluate(scope.metaclass, parent) if parent is not None else UNKNOWN_VALS
            if not metaclass.complete:
                found.append(UNKNOWN_VALS)
            for meta in ordered(metaclass.values):
                if meta[0] == "C":
                    calls = self.instance_member(meta[1], "__call__", exact=True)
                    found.extend(self.returns(f[1]) for f in ordered(calls.values) if f[0] == "F")
            break
        for owner, bindings in program.class_member(cls, "__new__"):
            if any(b.kind == "def" for b, _ in bindings):
                returned = self.returns(f"{owner}.__new__")
                allowed = {cls, *program.mro(cls), *program.subclasses(cls)}
                if not returned.complete or any(
                    (v[0] == "I" and v[1] not in allowed)
                    or (v[0] not in ("I", "XI"))
                    or (v[0] == "XI" and v[1] != "builtins.NoneType")
                    for v in returned.values
                ):
                    found.append(returned)
        return found

    def _external_result(self, path: str, args: tuple[Ref, ...], key: ScopeKey) -> Vals:
        if path == "builtins.iter" and len(args) == 1 and args[0] is not STARRED:
            iterator = self._own_iterator(self.evaluate(args[0], key))
            if iterator is not None:
                return iterator
        held = self._held_items(path, args, key)
        # else the builtin instance it is (one value, as ``set()``); a ``map`` or ``filter`` stays one, whose
        # iteration calls a function (see ``CALLING_ITERATORS`` in :mod:`dure.analyzers.callgraph`)
        if held is not None and (held.values or path in LAZY_BUILDERS):
            return single(("Q", held, ITEM_BUILDERS[path][0]))
        if path == "builtins.next" and args and STARRED not in args:  # an item, or the default
            parts = [self.item(args[0], key, iterating=True), *[self.evaluate(a, key) for a in args[1:2]]]
            return incomplete(union(parts))
        name = path.removeprefix("builtins.")
        if path.startswith("builtins.") and name in BUILTIN_TYPES:
            return single(("XI", path))
        if path in IDENTITY_CASTS and len(args) >= 2 and STARRED not in args[:2]:
            return self.evaluate(args[1], key)  # ``cast(T, value)`` is ``value``
        if path == "builtins.getattr" and len(args) >= 2:
            if args[1][0] == "s":
                found = self.attribute(self.evaluate(args[0], key), args[1][1])
            else:
                found = self.computed_members(self.evaluate(args[0], key), args[1])
            if len(args) > 2:  # the default, when the object lacks the attribute
                return union([found, self.evaluate(args[2], key) if args[2] != STARRED else UNKNOWN_VALS])
            return found
        if path in ("importlib.import_module", "builtins.__import__") and args:
            if args[0][0] == "s":
                return self._imported_by_name(path, args, key)
            return self._modules_starting(args[0][1] if args[0][0] == "sp" else "")
        if path == "builtins.type" and len(args) == 1:
            objects = self.evaluate(args[0], key)
            found = (
                union([self.class_of(v) for v in ordered(objects.values)]) if objects.values else UNKNOWN_VALS
            )
            return found if objects.complete else incomplete(found)
        if path == "builtins.object.__new__" and args:  # ``super().__new__(cls)``: an instance of ``cls``
            classes = self.evaluate(args[0], key)
            made = [single(("I", v[1], v[2])) for v in ordered(classes.values) if v[0] == "C"]
            if not made:
                return UNKNOWN_VALS
            found = union(made)
            return found if classes.complete and len(made) == len(classes.values) else incomplete(found)
        if path in ("builtins.globals", "builtins.vars") and not args:
            return single(("Q", self.namespace(key[0]), "dict"))
        if path == "functools.partial" and args:
            return inexact(self.evaluate(args[0], key))
        if path == "functools.update_wrapper" and args and args[0] is not STARRED:
            return self.evaluate(args[0], key)  # the wrapper, given the wrapped function's metadata
        if path == "builtins.staticmethod" and len(args) == 1 and STARRED not in args:
            return self._plain_functions(self.evaluate(args[0], key))
        if path == "builtins.classmethod" and len(args) == 1 and STARRED not in args:
            return self._class_methods(self.evaluate(args[0], key))
        return UNKNOWN_VALS

    def _imported_by_name(self, path: str, args: tuple[Ref, ...], key: ScopeKey) -> Vals:
        """``import_module("pkg.mod")`` gives ``pkg.mod``, ``import_module(".mod", "pkg")`` too (the package
        spelt, or ``__package__`` or ``__name__``); ``__import__("pkg.mod")`` gives ``pkg`` unless a
        ``fromlist`` asks for ``pkg.mod`` (a call's ref holds neither keywords nor a third argument: either,
        then)."""
        name = str(args[0][1])
        if path == "builtins.__import__":
            top = self.module_path(name.partition(".")[0])
            return inexact(union([top, self.module_path(name)])) if "." in name else top
        if not name.startswith("."):
            return self.module_path(name)
        package = self._package_named(args[1], key[0]) if len(args) > 1 else None
        if package is None:
            return UNKNOWN_VALS
        try:
            return self.module_path(importlib.util.resolve_name(name, package))
        except ImportError:  # beyond the top-level package: the call raises
            return UNKNOWN_VALS

    def _package_named(self, ref: Ref, module: str) -> str | None:
        """The package a relative ``import_module`` is given: spelt, ``__package__`` or ``__name__`` of the
        module calling it."""
        if ref[0] == "s":
            return str(ref[1])
        if ref[0] != "n" or ref[1] not in ("__package__", "__name__"):
            return None
        if self.program.lookup((module, 0), ref[1]) is not None:
            return None  # bound by the module itself
        summary = self.program.summaries.get(module)
        if ref[1] == "__name__" or (summary is not None and summary.is_package):
            return module
        return module.rpartition(".")[0]

    def _own_iterator(self, iterated: Vals) -> Vals | None:
        """What ``iter(obj)`` gives when every ``obj`` is an instance whose class's ``__iter__`` is the
        repository's: what that returns (``self``, often); else None."""
        if not iterated.values or any(value[0] != "I" for value in iterated.values):
            return None
        parts: list[Vals] = []
        for value in ordered(iterated.values):
            methods = self.instance_member(value[1], "__iter__", exact=value[2])
            functions = [found[1] for found in ordered(methods.values) if found[0] == "F"]
            if not functions:
                return None
            parts.extend(self.returns(function) for function in functions)
            if not methods.complete or len(functions) != len(methods.values):
                parts.append(UNKNOWN_VALS)
        found = union(parts)
        return found if iterated.complete else incomplete(found)

    def _class_methods(self, funcs: Vals) -> Vals:
        """What ``classmethod(f)`` gives: a ``("K", f, False)`` value, which a read from its class or an
        instance binds to the class (see :meth:`_bind_access`), when every ``f`` is a function that is no
        method; else unknown."""
        found: set[Value] = set()
        for value in funcs.values:
            if value[0] != "F" or not self._is_plain_function(value[1]):
                return UNKNOWN_VALS
            found.add(("K", value[1], False))
        return Vals(frozenset(found), funcs.complete, funcs.exact) if found else UNKNOWN_VALS

    def _is_plain_function(self, qualname: str) -> bool:
        """Whether ``qualname`` is a function of the repository that is no method."""
        key = self.program.def_scope.get(qualname)
        scope = self.program.scope(key) if key is not None else None
        return scope is not None and scope.method_of is None

    def _plain_functions(self, funcs: Vals) -> Vals:
        """What ``staticmethod(f)`` gives: ``f`` itself, read from its class or an instance and called
        (a staticmethod object is callable), when every ``f`` is a class, an external name or a function
        that is no method (a method's first parameter would be taken for its instance); else unknown."""
        for value in funcs.values:
            if value[0] not in ("C", "X") and (value[0] != "F" or not self._is_plain_function(value[1])):
                return UNKNOWN_VALS
        return funcs if funcs.values else UNKNOWN_VALS

    def _held_items(self, path: str, args: tuple[Ref, ...], key: ScopeKey) -> Vals | None:
        """The items of what a builtin of :data:`ITEM_BUILDERS` makes from its arguments (None: another
        callable, or arguments it does not take so)."""
        built = ITEM_BUILDERS.get(path)
        if built is None or len(args) <= built[1] or STARRED in args[: built[1] + 1]:
            return None
        if path == "builtins.map":
            return self.call_result(self.evaluate(args[0], key), (), key)
        return self.item(args[built[1]], key, iterating=True)

    def _modules_starting(self, prefix: str) -> Vals:
        """Any repository module whose name starts with ``prefix`` (a computed import): the same few prefixes
        are asked for at every such call, and the modules never change."""
        found = self.modules_by_prefix.get(prefix)
        if found is None:
            modules = frozenset(("M", m) for m in self.program.modules if m.startswith(prefix))
            found = self.modules_by_prefix[prefix] = Vals(modules, False, False)
        return found

    def computed_members(self, objects: Vals, name: Ref) -> Vals:
        """``getattr(obj, computed)``: any attribute of a known object whose name fits the known prefix."""
        prefix = name[1] if name[0] == "sp" else ""
        return self._kept(self.computed, self.dependent_computed, (objects, prefix), self._computed_members)

    def _computed_members(self, objects: Vals, prefix: str) -> Vals:
        folds = [
            self._members_fold(value, prefix)
            for value in ordered(objects.values)
            if value[0] in ("M", "I", "C")
        ]
        return _incomplete_union(folds)

    def _members_fold(self, value: Value, prefix: str) -> MembersFold:
        """The members of one object whose names start with ``prefix``, folded as :func:`union` would see
        them (``getattr`` on every module of the repository asks for thousands)."""
        return self._kept(self.stable_members, self.dependent_members, (value, prefix), self._fold)

    def _fold(self, value: Value, prefix: str) -> MembersFold:
        parts = self._members(value, prefix)
        return (frozenset().union(*[part.values for part in parts]), len(parts))

    def _kept(self, stable: dict[_K, _R], dependent: dict[_K, _R], key: _K, compute: Callable[..., _R]) -> _R:
        """``compute(*key)``, kept when nothing on the way was cut short: asking again would only find the
        same memoised values, until the parameter-dependent ones are dropped (so are those that read them)."""
        known = stable.get(key)
        if known is not None:
            return known
        known = dependent.get(key)
        if known is not None:
            self.reads += 1
            return known
        cuts = self.cuts
        reads = self.reads
        result = compute(*key)
        if self.cuts == cuts:
            (dependent if self.reads != reads else stable)[key] = result
        return result

    def _members(self, value: Value, prefix: str) -> list[Vals]:
        if value[0] == "M":
            names = self.program.module_names(value[1], prefix)
            return [self.module_member(value[1], n) for n in names]
        return [self.member(value, attr) for attr in self._class_attributes(value, prefix)]

    def _class_attributes(self, value: Value, prefix: str) -> list[str]:
        """Names starting with ``prefix`` bound in the class bodies along the MROs of the classes ``value``
        may be, each once, in the order they are first met (subclasses share most of them)."""
        memo_key = (value[1], value[2], prefix)
        known = self.class_attributes.get(memo_key)
        if known is not None:
            return known
        owners: dict[str, None] = {}
        for klass in self._dispatch_classes(value[1], value[2]):
            owners.update(dict.fromkeys(self.program.mro(klass)))
        attributes: dict[str, None] = {}
        for owner in owners:
            scope = self.program.class_scope(owner)
            if scope is not None:
                attributes.update(dict.fromkeys(a for a in scope.bindings if a.startswith(prefix)))
        found = self.class_attributes[memo_key] = list(attributes)
        return found

    def namespace(self, module: str) -> Vals:
        """The values of a module's global names (``globals()``)."""
        if module not in self.program.summaries:
            return UNKNOWN_VALS
        return _incomplete_union([self._members_fold(("M", module), "")])

    def returns(self, qualname: str) -> Vals:
        """What calling the function ``qualname`` returns."""
        memo_key = ("returns", qualname)
        cached = self.memo.get(memo_key)
        if cached:
            if cached is IN_PROGRESS:
                self.cuts += 1
            return cached
        return self._memoised(memo_key, self._returns, cached)

    def _returns(self, memo_key: tuple[str, str]) -> Vals:
        bodies = self.called_bodies(memo_key[1])
        if len(bodies) == 1:
            return self._returned_by(bodies[0])
        return union([self._returned_by(key) for key in bodies]) if bodies else UNKNOWN_VALS

    def _returned_by(self, key: ScopeKey) -> Vals:
        """What a call that runs the body ``key`` returns."""
        scope = self.program.scope(key)
        if scope.is_generator:  # a generator object: its items are what it yields
            kind = "async_generator" if scope.is_async else "generator"
            return single(("Q", union([self.evaluate(y, key) for y in scope.yields]), kind))
        if scope.returns:
            result = union([self.evaluate(r, key) for r in scope.returns])
        elif scope.kind in ("function", "lambda") and not scope.ends_in_raise:
            result = single(("XI", "builtins.NoneType"))  # it falls off its end
        else:
            result = UNKNOWN_VALS
        return single(("Q", result, "coroutine")) if scope.is_async else result

    def instances(self, classes: Vals, *, exact: bool) -> Vals:
        values: set[Value] = set()
        complete = classes.complete
        for value in classes.values:
            if value[0] == "C":
                values.add(("I", value[1], exact and value[2]))
            elif value[0] == "X":
                values.add(("XI", value[1]))
            elif value[0] == "Q":
                values |= self.instances(value[1], exact=exact).values
            else:
                complete = False
        return Vals(frozenset(values), complete, classes.exact and exact and len(values) == 1)

    def _managed(self, manager: Ref, key: ScopeKey, *, asynchronous: bool) -> Vals | None:
        """``with f() as x`` where ``f`` is a generator function under ``contextlib.contextmanager`` (or
        ``asynccontextmanager``): ``x`` is what it yields (possible: its first yield). None for any other
        context manager."""
        if manager[0] != "c":
            return None
        functions = self.evaluate(manager[1], key).values
        wanted = CONTEXT_MANAGER_DECORATORS[asynchronous]
        parts: list[Vals] = []
        for value in ordered(functions):
            body = self.program.def_scope.get(value[1]) if value[0] == "F" else None
            if body is None or not self._decorated_by(body, wanted):
                return None
            scope = self.program.scope(body)
            parts.append(
                union([self.evaluate(y, body) for y in scope.yields]) if scope.yields else UNKNOWN_VALS
            )
        return incomplete(union(parts)) if parts else None

    def _decorated_by(self, body: ScopeKey, path: str) -> bool:
        """Whether the definition whose body is ``body`` is under a decorator naming ``path``."""
        scope = self.program.scope(body)
        if scope.parent is None or not scope.decorators:
            return False
        outer = (body[0], scope.parent)
        return any(("X", path) in self.evaluate(decorator, outer).values for decorator in scope.decorators)

    def entered(self, managers: Vals, *, asynchronous: bool = False) -> Vals:
        """The ``as`` target of ``with``: what ``__enter__`` (``__aenter__``) returns."""
        method = "__aenter__" if asynchronous else "__enter__"
        parts: list[Vals] = []
        for value in ordered(managers.values):
            if value[0] == "I":
                enter = self.instance_member(value[1], method, exact=value[2])
                parts.extend([self.returns(v[1]) for v in ordered(enter.values) if v[0] == "F"])
        if not parts:
            return UNKNOWN_VALS
        return self.awaited(union(parts)) if asynchronous else union(parts)  # async with awaits __aenter__()


def _unpacked_pair_part(container: Value, position: int) -> Vals:
    """What ``position`` of an item of a paired container value gives (an ``enumerate``: a count and an item;
    ``dict.items()``: a key the index does not hold and a value); unknown for other containers."""
    kind = container[2]
    if kind not in PAIRED:
        return UNKNOWN_VALS
    if position == 1:
        held: Vals = container[1]
        return held
    if position > 1:
        return NOTHING  # no such element: unpacking fails
    return _AN_INT if kind == "enumerate" else UNKNOWN_VALS


NOT_IMPLEMENTED = ("X", "builtins.NotImplemented")
#: The decorators that turn a generator function into a context manager factory (by ``async with``).
CONTEXT_MANAGER_DECORATORS = {False: "contextlib.contextmanager", True: "contextlib.asynccontextmanager"}


def _implemented(result: Vals) -> Vals:
    """What an operator gives when its method returns ``result``: never ``NotImplemented``, which makes the
    interpreter try the reflected method instead (whose result the index does not know here)."""
    if NOT_IMPLEMENTED not in result.values:
        return result
    return incomplete(Vals(result.values - {NOT_IMPLEMENTED}, result.complete, False))


def _sets_computed_names(scope: Scope | None) -> bool:
    """Whether a method of the class (``scope``) sets attributes of its instances by computed names (or
    replaces their ``__dict__``)."""
    return scope is not None and ("*" in scope.instance_attrs or "__dict__" in scope.instance_attrs)


def _implemented_values(result: Vals) -> Vals:
    """The values of ``result`` other than ``NotImplemented`` (a method that only ever declines adds none)."""
    values = result.values - {NOT_IMPLEMENTED}
    return tuple.__new__(Vals, (values, result.complete, result.exact or not values))


def _is_dict(value: Value) -> bool:
    return (value[0] == "Q" and value[2] == "dict") or value == ("XI", "builtins.dict")


def _is_new(qualname: str) -> bool:
    """``__new__`` is a static method whose first parameter is the class (the interpreter makes it so)."""
    return qualname.endswith(".__new__")

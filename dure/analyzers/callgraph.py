"""Resolving every recorded call site to its targets, each with a certainty.

Two passes: the first resolves every site with parameters unknown; the second re-resolves the sites that
call through a parameter, feeding it the arguments of the first pass's callers (a function passed as an
argument gives *possible* targets, complete only when every caller is known).
"""

from __future__ import annotations

import builtins
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from dure.analyzers.builtin_classes import names_a_missing_attribute
from dure.analyzers.evaluator import INIT_WRITERS, MADE_PROPERTY_VALUE, NOT_IMPLEMENTED, Evaluator
from dure.analyzers.expressions import REFLECTED_COMPARISONS
from dure.analyzers.model import Certainty, SiteRow
from dure.analyzers.program import Program, ScopeKey
from dure.analyzers.refs import BINARY_DUNDER_NAMES, ref_text
from dure.analyzers.summary import STARRED, UNKNOWN, Binding, CallRecord, ModuleSummary, Ref, Scope
from dure.analyzers.values import UNKNOWN_VALS, Vals, Value, incomplete, inexact, ordered, single, union

#: Builtins that call a protocol method of their argument.
BUILTIN_PROTOCOLS = {
    "builtins.len": "__len__",
    "builtins.iter": "__iter__",
    "builtins.next": "__next__",
    "builtins.repr": "__repr__",
    "builtins.str": "__str__",
    "builtins.hash": "__hash__",
    "builtins.bool": "__bool__",
    "builtins.abs": "__abs__",
    "builtins.reversed": "__reversed__",
    "builtins.format": "__format__",
    "builtins.int": "__int__",
    "builtins.float": "__float__",
    "builtins.complex": "__complex__",
    "builtins.bytes": "__bytes__",
    "builtins.round": "__round__",
    "builtins.dir": "__dir__",
    "builtins.divmod": "__divmod__",
    "builtins.pow": "__pow__",
    "builtins.hex": "__index__",
    "builtins.oct": "__index__",
    "builtins.bin": "__index__",
    "operator.index": "__index__",
    "copy.copy": "__copy__",
    "copy.deepcopy": "__deepcopy__",
    "math.floor": "__floor__",
    "math.ceil": "__ceil__",
    "math.trunc": "__trunc__",
    "os.fspath": "__fspath__",
    "os.fsencode": "__fspath__",
    "os.fsdecode": "__fspath__",
    "operator.truth": "__bool__",
    "operator.neg": "__neg__",
    "operator.pos": "__pos__",
    "operator.invert": "__invert__",
    "operator.abs": "__abs__",
    "operator.length_hint": "__len__",
}
#: Of those, the ones that may answer from a table passed to them instead (``copy.deepcopy(x, memo)``).
MEMOISED_PROTOCOLS = frozenset({"copy.deepcopy"})
#: Sites that name what they run (a call, an attribute read, store or deletion): no protocol on a parameter.
NAMED_KINDS = frozenset({"call", "deco", "attr", "attrset", "attrdel"})
#: Callables outside the repository that never call the functions passed to them (type tests, decorators
#: that wrap or mark a function, or register it for a type checker): no callback edge from their call sites.
NEVER_CALL_ARGUMENTS = frozenset(
    {
        "builtins.isinstance",
        "builtins.issubclass",
        "builtins.callable",
        "builtins.id",
        "builtins.super",
        "builtins.type",
        "builtins.staticmethod",
        "builtins.classmethod",
        "builtins.property",
        "builtins.property.getter",
        "builtins.property.setter",
        "builtins.property.deleter",
        "functools.cache",
        "functools.lru_cache",
        "functools.cached_property",
        "functools.wraps",
        "functools.update_wrapper",
        "abc.abstractmethod",
        "typing.final",
        "typing.overload",
        "typing.override",
        "typing.no_type_check",
        "typing_extensions.final",
        "typing_extensions.overload",
        "typing_extensions.override",
        # they store, compare, name or show what they are given (special methods run apart)
        "builtins.getattr",
        "builtins.setattr",
        "builtins.hasattr",
        "builtins.delattr",
        "builtins.len",
        "builtins.repr",
        "builtins.str",
        "builtins.print",
        "builtins.format",
        "builtins.hash",
        "builtins.list",
        "builtins.tuple",
        "builtins.set",
        "builtins.frozenset",
        "builtins.list.append",
        "builtins.list.insert",
        "builtins.list.remove",
        "builtins.list.index",
        "builtins.list.count",
        "builtins.set.add",
        "builtins.set.discard",
        "builtins.set.remove",
        "builtins.dict.get",
        "builtins.dict.pop",
        "builtins.dict.setdefault",
        "builtins.dict.__setitem__",
        "builtins.str.join",
        "builtins.str.format",
        "builtins.object.__setattr__",
    }
)
#: Callables outside the repository that run code named by their data, not by their arguments: unpickling
#: calls whatever reconstructors the bytes name, pickling and copying call the protocol methods
#: (``__reduce_ex__``, ``__getstate__``, ``__deepcopy__``, ...) of every object reachable from the argument.
RUNS_UNNAMED_CODE = frozenset(
    {
        "pickle.load",
        "pickle.loads",
        "pickle.dump",
        "pickle.dumps",
        "pickle.Pickler.dump",
        "pickle.Unpickler.load",
        "copy.copy",
        "copy.deepcopy",
        "copy.replace",
    }
)


@dataclass(frozen=True, slots=True)
class Consumption:
    """How a builtin uses the iterables it is given, at the call: ``iter()`` on the arguments at
    ``positions`` (``None``: every one), then ``next()`` on the iterator (``drains``: it consumes them now,
    not lazily), after asking their length (``sized``: ``list(x)`` calls ``x.__len__`` for a length hint)."""

    positions: tuple[int, ...] | None = (0,)
    drains: bool = True
    sized: bool = False
    only_argument: bool = False  # ``min(xs)`` iterates, ``min(a, b)`` compares


#: Builtins that iterate what they are given (the interpreter then calls its protocol methods from the
#: caller's frame).
CONSUMERS: dict[str, Consumption] = {
    "builtins.list": Consumption(sized=True),
    "builtins.tuple": Consumption(sized=True),
    "builtins.sorted": Consumption(sized=True),
    "builtins.str.join": Consumption(sized=True),
    "builtins.set": Consumption(),
    "builtins.frozenset": Consumption(),
    "builtins.sum": Consumption(),
    "builtins.any": Consumption(),
    "builtins.all": Consumption(),
    "builtins.min": Consumption(only_argument=True),
    "builtins.max": Consumption(only_argument=True),
    "builtins.enumerate": Consumption(drains=False),
    "builtins.zip": Consumption(None, drains=False),
    "builtins.map": Consumption((1, 2, 3, 4), drains=False),
    "builtins.filter": Consumption((1,), drains=False),
    "builtins.list.extend": Consumption(sized=True),
    "builtins.set.update": Consumption(None),
    "builtins.dict.fromkeys": Consumption(),
    # the standard library's C functions and classes that iterate what they are given when called, also from
    # the caller's frame: ``itertools`` (its combinatorics make a tuple of each argument first, as
    # ``tuple(x)`` does), ``functools.reduce`` and ``collections.deque``
    "itertools.combinations": Consumption(sized=True),
    "itertools.combinations_with_replacement": Consumption(sized=True),
    "itertools.permutations": Consumption(sized=True),
    "itertools.product": Consumption(None, sized=True),
    "itertools.islice": Consumption(drains=False),
    "itertools.cycle": Consumption(drains=False),
    "itertools.accumulate": Consumption(drains=False),
    "itertools.groupby": Consumption(drains=False),
    "itertools.pairwise": Consumption(drains=False),
    "itertools.zip_longest": Consumption(None, drains=False),
    "itertools.compress": Consumption((0, 1), drains=False),
    "itertools.dropwhile": Consumption((1,), drains=False),
    "itertools.takewhile": Consumption((1,), drains=False),
    "itertools.filterfalse": Consumption((1,), drains=False),
    "itertools.starmap": Consumption((1,), drains=False),
    "functools.reduce": Consumption((1,)),
    "collections.deque": Consumption(),
}
#: Builtins and C functions of the standard library that call the callables they are given from the caller's
#: frame (``map``, ``filter`` and ``itertools`` lazily, as their result is iterated), by import path: the
#: positions and the keywords of those callables. One the index cannot name leaves the site unresolved.
CALLED_ARGUMENTS: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    "builtins.sorted": ((), ("key",)),
    "builtins.min": ((), ("key",)),
    "builtins.max": ((), ("key",)),
    "builtins.list.sort": ((), ("key",)),
    "builtins.map": ((0,), ()),
    "builtins.filter": ((0,), ()),
    "functools.reduce": ((0,), ()),
    "itertools.groupby": ((1,), ("key",)),
    "itertools.starmap": ((0,), ()),
    "itertools.dropwhile": ((0,), ()),
    "itertools.takewhile": ((0,), ()),
    "itertools.filterfalse": ((0,), ()),
    "itertools.accumulate": ((1,), ("func",)),
    **{f"bisect.{name}": ((), ("key",)) for name in ("bisect", "bisect_left", "bisect_right")},
    **{f"bisect.{name}": ((), ("key",)) for name in ("insort", "insort_left", "insort_right")},
}
#: Builtins that call special methods of the items they iterate (of their arguments, given several): the
#: comparisons of ``sorted``, ``min``, ``max`` and ``list.sort`` without ``key=``, the additions of ``sum``
#: (``0 + x`` runs ``x.__radd__``). Possible calls: whether there are two items to compare, and which of two
#: operands the interpreter asks, depend on the data.
ITEM_PROTOCOLS: dict[str, tuple[str, ...]] = {
    "builtins.sorted": ("__lt__", "__gt__"),
    "builtins.min": ("__lt__", "__gt__"),
    "builtins.max": ("__gt__", "__lt__"),
    "builtins.list.sort": ("__lt__", "__gt__"),
    "builtins.sum": ("__radd__", "__add__"),
}
#: The ``operator`` functions that apply a binary operator to their two arguments: the special method of the
#: first (possible: it may decline, or the second's reflected method may run first).
OPERATOR_FUNCTIONS = {
    **{f"operator.{dunder.strip('_')}": dunder for dunder in BINARY_DUNDER_NAMES.values()},
    "operator.and_": "__and__",
    "operator.or_": "__or__",
    "operator.concat": "__add__",
    **{f"operator.{name}": f"__{name}__" for name in ("lt", "le", "eq", "ne", "gt", "ge")},
    "operator.getitem": "__getitem__",
    "operator.setitem": "__setitem__",
    "operator.delitem": "__delitem__",
}
#: ``operator.contains(a, b)`` asks ``a.__contains__(b)``.
OPERATOR_CONTAINS = "operator.contains"
#: Decorators, by the last name they are spelt with, that make a property of the function below them.
PROPERTY_MAKERS = frozenset({"property", "cached_property", "setter", "getter", "deleter"})
#: Decorators, by the last name they are spelt with, that answer from a cache instead of calling.
MEMOISING_DECORATORS = frozenset({"lru_cache", "cache"})
#: Functions of the standard library that order the items of their first argument with what they are given
#: (a heap, a sorted list): the items' ``__lt__`` may run.
ORDERING_FUNCTIONS = frozenset(
    {
        *(f"heapq.{name}" for name in ("heappush", "heappop", "heapify", "heappushpop", "heapreplace")),
        *(f"bisect.{name}" for name in ("bisect", "bisect_left", "bisect_right", "insort")),
        *(f"bisect.{name}" for name in ("insort_left", "insort_right")),
    }
)
#: The functions of ``heapq`` that pick the smallest or largest of their second argument's items.
HEAP_SELECTIONS = frozenset({"heapq.nsmallest", "heapq.nlargest"})
#: Builtins that ask their argument for its items as a mapping does (``keys()``, then ``obj[key]``) when it
#: has ``keys``; so does ``**obj`` in a call.
#: Callables that read a mapping given as their last positional argument (``keys()``, then ``[k]``), by
#: how many positional arguments they then have.
MAPPING_READERS = {
    "builtins.dict": 1,
    "builtins.dict.update": 1,
    "collections.OrderedDict": 1,
    "collections.defaultdict": 2,
    "collections.defaultdict.update": 1,
    "collections.OrderedDict.update": 1,
}
#: Builtins that take integers: an argument that is no ``int`` answers ``__index__``.
INDEX_TAKERS = frozenset({"builtins.range"})
DATA_PROTOCOLS = frozenset(
    {*ORDERING_FUNCTIONS, *HEAP_SELECTIONS, *MAPPING_READERS, *INDEX_TAKERS, "builtins.filter"}
    | {*OPERATOR_FUNCTIONS, OPERATOR_CONTAINS, "builtins.str.format"}
)
#: Builtins that read the attribute their second argument names (a property's getter runs).
ATTRIBUTE_READERS = frozenset({"builtins.getattr", "builtins.hasattr"})
#: The builtin descriptors a repository decorator may build around an accessor (see ``MADE_PROPERTY``).
PROPERTY_BUILDERS = frozenset({"property", "cached_property"})
#: What builds a class the way a ``class`` statement does: the position of the bases, the arguments given.
CLASS_BUILDERS = {"builtins.type": (1, 3), "builtins.type.__new__": (2, 4)}
#: ``object``'s own attribute access, called directly: it runs properties and descriptors, past the hooks.
OBJECT_ATTRIBUTE_SLOTS = frozenset(
    {"builtins.object.__setattr__", "builtins.object.__delattr__", "builtins.object.__getattribute__"}
)
ATTRIBUTE_ACCESSORS = ATTRIBUTE_READERS | {"builtins.setattr", "builtins.delattr"} | OBJECT_ATTRIBUTE_SLOTS
#: What reading from any instance (of a class without ``__slots__``) or module finds: never ``__getattr__``.
OBJECT_ATTRIBUTES = frozenset(dir(object)) | {"__dict__", "__module__"}
#: What a module has besides: reading it never runs the module's ``__getattr__``.
MODULE_ATTRIBUTES = frozenset(
    {"__name__", "__doc__", "__file__", "__spec__", "__loader__", "__package__", "__path__", "__cached__"}
    | {"__builtins__", "__annotations__"}
)
#: Builtins that ask a class's metaclass (its hook, when the repository defines one).
TYPE_CHECKS = {"builtins.isinstance": "__instancecheck__", "builtins.issubclass": "__subclasscheck__"}
#: Builtins that call back into the objects they are given (see _calls_back).
CALLS_BACK = frozenset(
    {*BUILTIN_PROTOCOLS, *CONSUMERS, *ITEM_PROTOCOLS, *ATTRIBUTE_READERS, "builtins.print"}
)
PROTOCOLS = {"with": ("__enter__", "__exit__"), "awith": ("__aenter__", "__aexit__")}
#: The special methods that show an object as text: a builtin container shows its items' ``repr()``.
SHOWING = frozenset({"__str__", "__repr__", "__format__"})
#: Comparisons of two builtin sequences, which compare their items with ``==`` first.
SEQUENCE_COMPARISONS = frozenset({"__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"})
#: Builtin containers whose text and comparisons are made of their items' (a dict's: its values').
ITEM_CONTAINERS = frozenset({"list", "tuple", "set", "frozenset", "dict"})
#: How deep containers of containers are looked into for their items' special methods.
MAX_NESTING = 3
#: A conversion of ``%``-formatting: mapping key, width, precision and type letter.
PERCENT_CONVERSION = re.compile(r"%(\([^)]*\))?[#0 +\-]*(\*|\d+)?(?:\.(\*|\d+))?[hlL]?(.)", re.DOTALL)
#: How ``%``-formatting shows an argument, by type letter (the numeric ones call no method of ours).
PERCENT_SHOWS = {"s": "__str__", "r": "__repr__", "a": "__repr__"}
STRING_INSTANCE = ("XI", "builtins.str")
NONE_REF = ("k", "NoneType")
#: Classes whose instances are tuples: ``%``-formatting takes them for its arguments.
TUPLE_CLASSES = frozenset({"builtins.tuple", "typing.NamedTuple", "typing_extensions.NamedTuple"})
#: The binary operator an in-place one gives way to when it declines (returns ``NotImplemented``).
IN_PLACE = {f"__i{dunder[2:]}": dunder for dunder in BINARY_DUNDER_NAMES.values()}
#: What the interpreter calls when a class defines no such special method (``object``'s gives way to it):
#: truth falls back to the length, ``str()`` to ``repr()``, ``format()`` to ``str()``, ``!=`` to ``==``,
#: an in-place operator to the binary one, ``in`` to iteration, iteration to indexing (``__getitem__``).
FALLBACKS = {
    "__bool__": "__len__",
    "__str__": "__repr__",
    "__format__": "__str__",
    "__ne__": "__eq__",
    "__contains__": "__iter__",
    "__iter__": "__getitem__",
    "__int__": "__index__",
    "__float__": "__index__",
    "__reversed__": "__getitem__",  # after ``__len__``: see SEQUENCE_FALLBACKS
    **IN_PLACE,
}
#: A second method the interpreter calls when a class defines no such special method: ``reversed()``
#: of a sequence asks its length, then its items.
SEQUENCE_FALLBACKS = {"__reversed__": "__len__"}
ITERATION = {"iter": ("__iter__", "__next__"), "aiter": ("__aiter__", "__anext__")}
#: The kinds of container value that call a function as they are iterated, from the frame that iterates
#: them: ``map(f, xs)`` and ``filter(f, xs)`` (their site names ``f`` where they are made).
CALLING_ITERATORS = frozenset({"map", "filter"})
LAZY_CALLERS = frozenset({"builtins.map", "builtins.filter"})
#: The method the interpreter tries on the right operand *first* when its class derives from the left
#: operand's: ``a + b`` runs ``b.__radd__(a)``, ``a < b`` runs ``b.__gt__(a)``. A comparison's is tried
#: first whenever the right operand's class derives from the left's, and gives way only when it is
#: ``object``'s own; an arithmetic one is tried first only when overridden.
REFLECTED = {
    **{dunder: f"__r{dunder[2:]}" for dunder in BINARY_DUNDER_NAMES.values()},
    **REFLECTED_COMPARISONS,
}


#: What a ``property(...)`` accessor the index cannot name stands for among the accessors found.
UNKNOWN_ACCESSOR = "?"
#: Among the accessors found: a class that may be the instance's binds the name to no property, so a
#: read there runs none (a plain attribute or a method shadows the base class's property).
NO_ACCESSOR = "="
#: How many functions away an argument passed on through parameters is followed (see _passed_values).
MAX_PASSES = 8
#: Rounds of :meth:`CallResolver.follow_new_callers`: how deep callbacks of callbacks are followed.
FOLLOW_ROUNDS = 1
#: A new caller counts there only from a site with at most this many targets: one that may call any of
#: many functions (a signal's receivers) would re-resolve them all, for targets as loose as its own.
FOCUSED_TARGETS = 3
#: Modules whose classes give a subclass no ``__init__`` call worth naming: builtin classes (``Error()`` of
#: ``class Error(Exception)`` names the class only, as calls of builtins do), typing constructs that are no
#: real base (``NamedTuple``, ``Protocol``, ``Generic``), ``abc.ABC`` (none of its own) and enumerations
#: (calling one looks a member up).
NO_EXTERNAL_INIT = ("builtins.", "typing.", "typing_extensions.", "abc.", "enum.")


@dataclass(slots=True)
class ResolvedTarget:
    callee: str
    certainty: Certainty
    offset: int = 0  # how many leading parameters the call supplies implicitly (self, cls)


@dataclass(slots=True)
class ResolvedSite:
    record: CallRecord
    module: str
    key: ScopeKey  # (module, scope of the record): where its refs are evaluated
    targets: list[ResolvedTarget] = field(default_factory=list)
    reads_parameters: bool = False  # its first resolution read a value computed from a parameter
    position: int = 0  # among its module's sites (calls, then property reads): names it across processes


@dataclass(frozen=True, slots=True)
class _Properties:
    """The repository's properties: the names reading (``setter_names``: assigning) which may run one, and
    the accessor functions; ``assigned``: ``name = property(getter, setter)`` in a class body, by (class,
    name)."""

    names: frozenset[str]
    getters: frozenset[str]
    setter_names: frozenset[str]
    setters: frozenset[str]
    assigned: dict[tuple[str, str], tuple[Ref | None, Ref | None]]
    deleter_names: frozenset[str]


def _assigned_properties(scope: Scope) -> dict[tuple[str, str], tuple[Ref | None, Ref | None]]:
    """``name = property(getter, setter)`` in the class body ``scope``: the refs of the accessors given
    (as written: found from the summary alone; ``None`` is no accessor)."""
    found: dict[tuple[str, str], tuple[Ref | None, Ref | None]] = {}
    for name, bindings in scope.bindings.items():
        if len(bindings) != 1 or bindings[0].kind != "val":
            continue
        ref = bindings[0].a
        if ref[0] != "c" or ref[1] != ("n", "property") or not ref[2]:
            continue
        given = [None if arg == ("k", "NoneType") else arg for arg in ref[2][:2]]
        getter, setter = given[0], given[1] if len(given) > 1 else None
        if getter is not None or setter is not None:
            found[(scope.owner, name)] = (getter, setter)
    return found


class CallResolver:
    def __init__(self, program: Program, evaluator: Evaluator) -> None:
        self.program = program
        self.evaluator = evaluator
        self.modules: set[str] = set()  # whose sites this resolver resolves
        self.sites: list[ResolvedSite] = []  # those the first pass resolved, in the order of its modules
        self.incoming: dict[str, list[tuple[ResolvedSite, ResolvedTarget]]] = defaultdict(list)
        self.escaped_callers: set[str] = set()
        self.pending: list[ResolvedSite] = []  # sites with no target yet that the flow pass may resolve
        self._retry: list[ResolvedSite] = []  # resolved sites the flow pass re-resolves
        # attribute names the first pass called (or read, or stored) on receivers it could not fully name
        self.unresolved_names: set[str] = set()
        self._callers_known: dict[str, bool] = {}  # see _all_callers_known
        self._properties_memo: dict[tuple[str, str, bool, bool], list[str]] = {}
        self._all_accessors_memo: dict[tuple[Value, bool, bool], dict[str, int]] = {}
        self._defined_methods: dict[str, bool] = {}  # see _class_defines
        self._unsure_constructions: set[str] = set()  # classes whose __init__ or __new__ is decorated
        self._answering_memo: dict[tuple[str, str, str], frozenset[str]] = {}
        self._passed_memo: dict[tuple[ScopeKey, int], tuple[Vals | None]] = {}  # see _passed_values
        # Keep values that a long chain of passed-on parameters cut short too: with the callers the flow pass
        # found, such chains branch at every step, and walking each anew grows exponentially. A cut value is
        # incomplete, so keeping it loses targets, never certainty.
        self._memoise_cut = False

    # -- passes --------------------------------------------------------------------------------------

    def first_pass(self, modules: Iterable[str]) -> None:
        """Resolve the sites of ``modules`` with parameters unknown; those with no target that the flow pass
        may resolve (a protocol use on a parameter: arguments may tell its class) wait in ``pending``."""
        for module in modules:
            self.modules.add(module)
            for position, record in enumerate(self.records(module)):
                site = ResolvedSite(record, module, (module, record.scope), position=position)
                self._first_resolution(site)
                if site.targets:
                    self.sites.append(site)
                elif record.kind not in NAMED_KINDS and self._on_parameter(site):
                    self.pending.append(site)

    def records(self, module: str) -> list[CallRecord]:
        """The sites of ``module`` in a fixed order: its calls, then the attribute reads that may run a
        property getter."""
        summary = self.program.summaries[module]
        return [*summary.calls, *self._property_reads(summary), *self._hooked_imports(summary)]

    def note_callers(self, every_site: Iterable[ResolvedSite] | None = None) -> None:
        """Before the flow pass: note the callers the first pass found. ``every_site``: the first pass's
        sites of every module in their global order, when other resolvers did some (they count as callers;
        only this resolver's own are re-resolved)."""
        self._retry = self._index_incoming(self.sites if every_site is None else every_site)

    def flow(self) -> list[ResolvedSite]:
        """The second pass (after :meth:`note_callers`); returns the pending sites it resolved."""
        return self._flow_through_parameters(self._retry)

    def reresolved(self) -> list[ResolvedSite]:
        """The first pass's sites that the flow pass resolved again (their targets may have changed)."""
        return [site for site in self._retry if site.reads_parameters]

    def _first_resolution(self, site: ResolvedSite) -> None:
        """Resolve ``site`` and note whether that read a parameter: if not, the flow pass, which only changes
        parameter values, would resolve it to the same targets again."""
        reads = self.evaluator.reads
        site.targets = self.resolve(site)
        site.reads_parameters = self.evaluator.reads != reads

    def _on_parameter(self, site: ResolvedSite) -> bool:
        root = site.record.func
        while root[0] in ("a", "c", "i"):
            root = root[1]
        found = self.program.lookup(site.key, root[1]) if root[0] == "n" else None
        return bool(found) and any(b.kind == "param" for b, _ in found or ())

    def _property_reads(self, summary: ModuleSummary) -> list[CallRecord]:
        """Attribute reads that may run code: a property getter (their name is a property's somewhere) and,
        where the repository defines ``__getattr__``, the hook of a class or module that lacks the name (a
        read that is called is resolved with its call)."""
        names = self.property_names | self._decorated_method_names
        program = self.program
        if not (self._getattr_hooks_defined or program.computed_class_members or program.computed_properties):
            loads = [load for load in summary.attribute_loads if load[4] in names]
        else:
            called = {  # resolved with its call (a protocol use of the value read is no call of it)
                (c.scope, c.line, c.column, c.func)
                for c in summary.calls
                if c.func[0] == "a" and c.kind in ("call", "deco")
            }
            unhooked = self._unhooked_selves(summary)
            loads = [
                load
                for load in summary.attribute_loads
                if load[4] in names
                or (
                    load[4] not in OBJECT_ATTRIBUTES
                    and (load[0], load[3]) not in unhooked
                    and (load[0], load[1], load[2], ("a", load[3], load[4])) not in called
                )
            ]
        return [
            CallRecord(scope, line, column, "attr", ("a", base, attr), (), (), f"{ref_text(base)}.{attr}")
            for scope, line, column, base, attr in loads
        ]

    def _unhooked_selves(self, summary: ModuleSummary) -> set[tuple[int, Ref]]:
        """``(scope, ("n", self))`` for the methods whose ``self`` no ``__getattr__`` can serve: no class
        the instance may be (the method's class, a subclass) has one on its MRO. Reads of ``self.x``, the
        commonest, then need no record."""
        hookable = self._hookable_classes | self._computed_below
        return {
            (scope.id, ("n", scope.params[0].name))
            for scope in summary.scopes
            if scope.method_of is not None
            and scope.method_kind == "instance"
            and scope.params
            and scope.method_of not in hookable
        }

    _hookable_cache: frozenset[str] | None = None

    @property
    def _hookable_classes(self) -> frozenset[str]:
        """The classes an instance of which may be of a class with ``__getattr__`` on its MRO."""
        if self._hookable_cache is None:
            program = self.program
            hooked = {
                cls
                for definer in program._definers.get("__getattr__", ())
                for cls in (definer, *program.subclasses(definer))
            }
            self._hookable_cache = frozenset(
                {ancestor for cls in hooked for ancestor in program.mro(cls)} | hooked
            )
        return self._hookable_cache

    def _hooked_imports(self, summary: ModuleSummary) -> list[CallRecord]:
        """``from mod import name`` where ``mod`` is a repository module with a ``__getattr__``: if the
        module does not bind ``name``, importing it runs the hook (PEP 562)."""
        hooked = self._modules_with_getattr
        if not hooked:
            return []
        return [
            CallRecord(scope.id, b.line, 0, "attr", ("from", b.a, b.b), (), (), f"{b.a}.{b.b}")
            for scope in summary.scopes
            for bindings in scope.bindings.values()
            for b in bindings
            if b.kind == "from" and b.a in hooked and b.b != "*"
        ]

    _hooked_modules_cache: frozenset[str] | None = None

    @property
    def _modules_with_getattr(self) -> frozenset[str]:
        if self._hooked_modules_cache is None:
            self._hooked_modules_cache = frozenset(
                module
                for module, summary in self.program.summaries.items()
                if "__getattr__" in summary.scopes[0].bindings
            )
        return self._hooked_modules_cache

    def _flow_through_parameters(self, retry: list[ResolvedSite]) -> list[ResolvedSite]:
        if not retry and not self.pending:
            return []
        self.evaluator.param_flow = self._parameter_values
        self.evaluator.forget_parameter_dependent()
        self._passed_memo.clear()
        for site in retry:
            if site.reads_parameters:
                site.targets = self.resolve(site)
        resolved = []
        for site in self.pending:
            if site.reads_parameters:
                site.targets = self.resolve(site)
            if site.targets:
                resolved.append(site)
        self.evaluator.param_flow = None
        self.evaluator.forget_parameter_dependent()
        return resolved

    def follow_new_callers(
        self,
        sites: list[ResolvedSite],
        changed: list[ResolvedSite] | None = None,
        rounds: int = FOLLOW_ROUNDS,
    ) -> None:
        """After the flow pass (``sites``: every site, in their global order): calls that only the flow pass
        found pass arguments too, so the functions they reach get callers the flow pass did not count (a
        function passed to a function that calls it with a function it calls: a callback of a callback).
        Re-resolve, through parameters, the sites of those functions that read one; again while that finds
        more callers, at most ``rounds`` times. A target a site had stays possible: chains of passed-on
        parameters are cut shorter here (see :attr:`_memoise_cut`).

        ``changed``: the sites whose targets the flow pass set, the only ones that can add a caller (None:
        any site). Every other site's targets were counted by :meth:`_index_incoming`."""
        counted: dict[str, set[tuple[str, int]]] = {}
        for _ in range(rounds):
            grown = self._new_callees(sites if changed is None else changed, counted)
            bodies = {self.program.def_scope[c] for c in grown}
            if not bodies:
                return
            inside: dict[ScopeKey, bool] = {}
            affected = [
                site for site in sites if site.reads_parameters and self._inside(site.key, bodies, inside)
            ]
            if not affected:
                return
            self.incoming = _incoming(sites)
            counted.clear()  # counted again from the new incoming calls
            self.evaluator.param_flow = self._parameter_values
            self.evaluator.forget_parameter_dependent()
            self._passed_memo.clear()
            self._memoise_cut = True
            for site in affected:
                before = site.targets
                site.targets = self.resolve(site)
                found = {target.callee for target in site.targets}
                site.targets.extend(
                    ResolvedTarget(t.callee, Certainty.POSSIBLE, t.offset)
                    for t in before
                    if t.certainty is not Certainty.UNRESOLVED and t.callee not in found
                )
            self._memoise_cut = False
            self.evaluator.param_flow = None
            self.evaluator.forget_parameter_dependent()
            changed = affected

    def _new_callees(self, sites: list[ResolvedSite], counted: dict[str, set[tuple[str, int]]]) -> set[str]:
        """The repository's functions that ``sites`` with few targets call and :attr:`incoming` lacks that
        site for; each caller found is added to ``counted`` (the callers of each callee, by module and
        position, filled from :attr:`incoming` on first use)."""
        unresolved = Certainty.UNRESOLVED
        def_scope = self.program.def_scope
        grown: set[str] = set()
        for site in sites:
            focused = len(site.targets) <= FOCUSED_TARGETS
            place = (site.module, site.position)
            for target in site.targets:
                if target.certainty is unresolved or target.callee not in def_scope:
                    continue
                callee = target.callee
                callers = counted.get(callee)
                if callers is None:
                    known = self.incoming.get(callee, ())
                    callers = counted[callee] = {(s.module, s.position) for s, _ in known}
                if place not in callers:
                    callers.add(place)
                    if focused:
                        grown.add(callee)
        return grown

    def _inside(self, key: ScopeKey, bodies: set[ScopeKey], memo: dict[ScopeKey, bool]) -> bool:
        """Whether scope ``key`` is one of ``bodies`` or nested in one (``memo``: the answers so far, for
        these ``bodies``)."""
        known = memo.get(key)
        if known is None:
            parent = self.program.parent(key)
            known = key in bodies or (parent is not None and self._inside(parent, bodies, memo))
            memo[key] = known
        return known

    def _index_incoming(self, sites: Iterable[ResolvedSite]) -> list[ResolvedSite]:
        """Note every target reached as an incoming call, and return this resolver's sites worth a second
        pass: those with something unresolved, which a parameter's arguments may explain (one walk over the
        sites)."""
        unresolved = Certainty.UNRESOLVED
        incoming = self.incoming
        own = self.modules
        retry: list[ResolvedSite] = []
        for site in sites:
            has_unresolved = False
            for target in site.targets:
                if target.certainty is not unresolved:
                    incoming[target.callee].append((site, target))
                else:
                    has_unresolved = True
            if has_unresolved:
                if site.module in own:
                    retry.append(site)
                if site.record.func[0] == "a":
                    self.unresolved_names.add(site.record.func[2])
            elif site.reads_parameters and site.module in own and _calls_back(site):
                retry.append(site)
        return retry

    def _parameter_values(self, key: ScopeKey, index: int) -> Vals | None:
        """Arguments every known caller passes for parameter ``index`` of the function at ``key``; an
        argument that is the caller's own parameter, passed on as it is, is what the caller's callers pass
        (up to :data:`MAX_PASSES` functions away)."""
        return self._passed_values(key, index, ())

    def _passed_values(self, key: ScopeKey, index: int, passing: tuple[ScopeKey, ...]) -> Vals | None:
        """:meth:`_parameter_values`, through ``passing`` (the functions on the way, none of them
        revisited). Memoised when ``passing`` cut nothing short."""
        memo_key = (key, index)
        known = self._passed_memo.get(memo_key)
        if known is not None:
            return known[0]
        scope = self.program.scope(key)
        callers = self.incoming.get(scope.owner)
        if not callers:
            return None
        param = scope.params[index]
        if param.kind in ("var_positional", "var_keyword"):
            packing = self._packed_arguments if param.kind == "var_positional" else self._keyword_arguments
            packed = packing(key, index, callers)
            self._passed_memo[memo_key] = (packed,)
            return packed
        parts: list[Vals] = []
        complete = self._all_callers_known(key)
        cut = False
        for site, target in callers:
            argument = self._argument(site.record, index - target.offset, param.name)
            if argument == STARRED:  # what *xs or **kw holds, or the default when they hold nothing for it
                complete = False
            if argument is None or argument == STARRED:
                if param.default is None:
                    complete = False
                    continue
                parent = self.program.parent(key)
                if parent is not None:
                    parts.append(self.evaluator.evaluate(param.default, parent))
                continue
            passed = self._passed_on(argument, site.key)
            if passed == memo_key:  # a recursive call passing the parameter on adds no value to it
                continue
            if passed is not None:
                if passed[0] in passing or passed[0] == key or len(passing) >= MAX_PASSES:
                    cut = True
                else:
                    flowed = self._passed_values(*passed, (*passing, key))
                    if flowed is not None:
                        parts.append(flowed)
                        continue
            saved, self.evaluator.param_flow = self.evaluator.param_flow, None  # the caller's own value
            parts.append(self.evaluator.evaluate(argument, site.key))
            self.evaluator.param_flow = saved
        merged = union(parts) if parts else Vals(frozenset(), False, False)
        complete = merged.complete and complete
        # A builtin value (a str) every known caller passes is as sure as they are; a function or an object of
        # the repository passed in is one of several things callers could pass.
        exact = complete and merged.exact and all(v[0] == "XI" for v in merged.values)
        result = Vals(merged.values, complete, exact)
        if not cut or self._memoise_cut:
            self._passed_memo[memo_key] = (result,)
        return result

    def _packed_arguments(
        self, key: ScopeKey, index: int, callers: list[tuple[ResolvedSite, ResolvedTarget]]
    ) -> Vals:
        """``*args``: a tuple of the positional arguments the known callers pass from its position on (its
        items incomplete where a caller spreads ``*xs``, or callers may be unknown)."""
        complete = self._all_callers_known(key)
        parts: list[Vals] = []
        saved, self.evaluator.param_flow = self.evaluator.param_flow, None  # the callers' own values
        try:
            for site, target in callers:
                start = index - target.offset
                if start < 0:
                    complete = False
                    continue
                for argument in site.record.args[start:]:
                    if argument == STARRED:
                        complete = False
                    else:
                        parts.append(self.evaluator.evaluate(argument, site.key))
        finally:
            self.evaluator.param_flow = saved
        items = union(parts) if parts else Vals(frozenset(), True, False)
        return single(("Q", items if complete else incomplete(items), "tuple"))

    def _keyword_arguments(
        self, key: ScopeKey, index: int, callers: list[tuple[ResolvedSite, ResolvedTarget]]
    ) -> Vals:
        """``**kwargs``: a dict of the keyword arguments the known callers pass that name no other
        parameter (its values incomplete where a caller spreads ``**kw``, or callers may be unknown).
        The arguments are evaluated through parameters, as the flow pass evaluates everything: keyword
        arguments are common, and values evaluated without would stay memoised for the rest of the pass
        (measured on Django: 72 possible targets lost elsewhere)."""
        scope = self.program.scope(key)
        named = {p.name for p in scope.params if p.kind in ("positional_or_keyword", "keyword_only")}
        complete = self._all_callers_known(key)
        parts: list[Vals] = []
        for site, _ in callers:
            for keyword, argument in site.record.keywords:
                if keyword is None:
                    complete = False
                elif keyword not in named:
                    parts.append(self.evaluator.evaluate(argument, site.key))
        values = union(parts) if parts else Vals(frozenset(), True, False)
        return single(("Q", values if complete else incomplete(values), "dict"))

    def _passed_on(self, argument: Ref, key: ScopeKey) -> tuple[ScopeKey, int] | None:
        """The function and position of the parameter ``argument`` names, when it is a parameter of the
        function at ``key`` (or one enclosing it) that only its callers give a value, bound nowhere else."""
        if argument[0] != "n":
            return None
        found = self.program.lookup(key, argument[1])
        if not found or len(found) != 1:
            return None
        binding, where = found[0]
        if binding.kind != "param" or not self.evaluator.flows_in(where, binding.a):
            return None
        return where, binding.a

    def _all_callers_known(self, key: ScopeKey) -> bool:
        """Whether the sites the first pass found calling the function at ``key`` are all that call it, so
        that the arguments they pass are all its parameters can hold. Not when code the index cannot follow
        may call it: the function is used as a value, a call on a receiver the first pass could not name
        uses its name (the flow pass may name it, too late to count), its class may be instantiated by such
        code, the interpreter calls it implicitly, a class outside the repository (or one the index cannot
        name) is among its class's ancestors, or a decorator the index cannot see through wraps it."""
        scope = self.program.scope(key)
        known = self._callers_known.get(scope.owner)
        if known is None:
            known = self._callers_known[scope.owner] = self._no_hidden_callers(key)
        return known

    def _no_hidden_callers(self, key: ScopeKey) -> bool:
        program, scope = self.program, self.program.scope(key)
        if scope.owner in self.escaped_callers:
            return False
        name = scope.owner.rpartition(".")[2]
        cls = scope.method_of
        if cls is not None:
            if name in self.unresolved_names:
                return False
            if name in ("__init__", "__new__"):
                instantiated = {cls, *program.subclasses(cls)}
                if not instantiated.isdisjoint(self.escaped_callers):
                    return False
            elif name.startswith("__") and name.endswith("__"):
                return False
            ancestry = program.mro(cls)
            if program.external_ancestors(cls) or any(program.unresolved_bases.get(c) for c in ancestry):
                return False
        elif scope.parent == 0 and name in self.unresolved_names:
            return False  # a module's function, which a call on a receiver the index cannot name may reach
        return all(self._undecorated(body) for body in self.evaluator.called_bodies(scope.owner))

    def _undecorated(self, key: ScopeKey) -> bool:
        """Whether calling the function through its name runs the body ``key`` as called: no decorator the
        index cannot see through wraps it."""
        parent = self.program.parent(key)
        decorators = self.program.scope(key).decorators
        return parent is None or all(self.evaluator.is_transparent(d, parent) for d in decorators)

    @staticmethod
    def _argument(record: CallRecord, position: int, name: str) -> Ref | None:
        """What the call passes for the parameter at ``position`` (counted among the explicit arguments)
        called ``name``: its ref, :data:`STARRED` when ``*xs`` or ``**kw`` may fill it, None when nothing
        does."""
        for keyword, ref in record.keywords:
            if keyword == name:
                return ref
        if position < 0:
            return None
        if STARRED in record.args[: position + 1]:
            return STARRED
        if position < len(record.args):
            return record.args[position]
        if any(keyword is None for keyword, _ in record.keywords):
            return STARRED
        return None

    # -- one site ------------------------------------------------------------------------------------

    def resolve(self, site: ResolvedSite) -> list[ResolvedTarget]:
        record = site.record
        kind = record.kind
        if kind in ("call", "deco"):
            return self._explicit(site)
        if kind == "attr":
            return self._property_access(site)
        if kind == "attrset":
            return self._property_access(site, setter=True)
        if kind == "attrdel":
            return self._deletion(site)
        if kind == "classdef":
            return self._class_creation(record.func[1])
        receiver = self.evaluator.evaluate(record.func, site.key)
        return self._implicit(site, receiver)

    def _implicit(self, site: ResolvedSite, receiver: Vals) -> list[ResolvedTarget]:
        """The targets of an implicit call (an operator, iteration, ``with``...) on ``receiver``."""
        record = site.record
        kind = record.kind
        if kind == "raise":
            return self._raised(receiver)
        if kind in ("hash", "hashes"):
            return self._hashing(receiver, compared=kind == "hashes", sure=True)
        if kind == "subkey":  # ``d[k]``: the receiver is the container, the argument the key
            hashes = _hashes_keys(receiver)
            if hashes is None:
                return []
            return self._hashing(
                self.evaluator.evaluate(record.args[0], site.key), compared=True, sure=hashes
            )
        if kind in ITERATION:
            return [
                *self._iteration(receiver, *ITERATION[kind]),
                *self._calls_made_elsewhere(site, record.func),
            ]
        if kind in PROTOCOLS:
            return self._protocol(receiver, PROTOCOLS[kind])
        if kind.startswith("rop:"):  # whether it runs depends on the left operand: at most possible
            reflected = self._protocol(receiver, (kind[4:],))
            for target in reflected:
                target.certainty = Certainty.POSSIBLE
            return reflected
        dunder = kind[3:]
        targets = self._protocol(receiver, (dunder,))
        if dunder in IN_PLACE and any(self._may_decline(t.callee) for t in targets):
            targets.extend(_possibly(self._protocol(receiver, (IN_PLACE[dunder],))))
        if record.args and any(t.certainty is Certainty.CERTAIN for t in targets):
            self._yield_to_reflected(site, receiver, dunder, targets)
        if dunder in SHOWING:
            targets.extend(self._items_called(receiver, "__repr__"))
        elif dunder == "__mod__" and record.args and STRING_INSTANCE in receiver.values:
            targets.extend(self._percent_formatted(site))
        elif dunder in SEQUENCE_COMPARISONS and record.args and _is_item_container(receiver):
            compared = union([receiver, self.evaluator.evaluate(record.args[0], site.key)])
            targets.extend(self._items_called(compared, "__eq__"))
        if kind == "op:__contains__" and any(t.callee.endswith(".__iter__") for t in targets):
            targets.extend(self._searched(targets))
        if kind == "op:__getitem__":
            targets.extend(self._subscript_hooks(receiver))
        if record.args and kind in KEYED_OPERATIONS:
            hashes = _hashes_keys(receiver)
            if hashes is not None:
                keys = self.evaluator.evaluate(record.args[0], site.key)
                targets.extend(self._hashing(keys, compared=True, sure=hashes))
            elif _is_sequence(receiver):
                targets.extend(self._searched_for(record.func, record.args[0], site))
        return targets

    def _may_decline(self, method: str) -> bool:
        """Whether the repository's special method ``method`` may return ``NotImplemented``."""
        return method in self.program.def_scope and NOT_IMPLEMENTED in self.evaluator.returns(method).values

    def _items_called(self, containers: Vals, dunder: str, depth: int = 0) -> list[ResolvedTarget]:
        """``dunder`` of the items of the builtin containers among ``containers`` (their values, for a
        dict), and of their items' items: a list's ``repr()`` is its items', comparing two lists compares
        their items. Possible: the container may be empty, or the comparison stop early. In callee order:
        containers are visited in an order that depends on the hash seed (see :func:`ordered`)."""
        targets: list[ResolvedTarget] = []
        if not _is_item_container(containers):
            return targets
        for value in ordered(containers.values):
            if value[0] != "Q" or value[2] not in ITEM_CONTAINERS:
                continue
            items: Vals = value[1]
            targets.extend(self._protocol(items, (dunder,)))
            if depth < MAX_NESTING:
                targets.extend(self._items_called(items, dunder, depth + 1))
        for target in targets:
            target.certainty = Certainty.POSSIBLE
        if not targets or depth:
            return targets
        return sorted(_deduplicate(targets), key=lambda target: target.callee)

    def _percent_formatted(self, site: ResolvedSite) -> list[ResolvedTarget]:
        """``"%s and %r" % (a, b)``: ``%s`` shows its argument with ``str()``, ``%r`` and ``%a`` with
        ``repr()``. Each argument gets its own conversion when a literal format pairs off with a literal
        tuple (or with one argument that is no tuple); else every argument may get any conversion the format
        holds: possible."""
        record = site.record
        given = record.args[0]
        letters = percent_conversions(record.func[1]) if record.func[0] == "s" else None
        if letters is None or given is STARRED:
            return self._possibly_shown(site, letters)
        if given[0] == "q" and given[1] == "tuple":
            if len(given[2]) != len(letters) or STARRED in given[2]:
                return self._possibly_shown(site, letters)
            pairs = list(zip(given[2], letters, strict=True))
        elif len(letters) == 1:
            pairs = [(given, letters[0])]
        else:
            return self._possibly_shown(site, letters)
        targets: list[ResolvedTarget] = []
        for argument, letter in pairs:
            shown = self.evaluator.evaluate(argument, site.key)
            if self._may_be_tuple(shown):
                return self._possibly_shown(site, letters)  # a tuple argument is the arguments
            dunder = PERCENT_SHOWS.get(letter)
            if dunder is not None:
                targets.extend(self._protocol(shown, (dunder,)))
                targets.extend(self._items_called(shown, "__repr__"))
        return targets

    def _may_be_tuple(self, shown: Vals) -> bool:
        """Whether ``shown`` may be a tuple (a named tuple's instance is one)."""
        for value in shown.values:
            if value[0] == "Q" and value[2] == "tuple":
                return True
            if value[0] == "XI" and value[1] in TUPLE_CLASSES:
                return True
            if value[0] == "I" and not TUPLE_CLASSES.isdisjoint(self.program.external_ancestors(value[1])):
                return True
        return False

    def _possibly_shown(self, site: ResolvedSite, letters: list[str] | None) -> list[ResolvedTarget]:
        """Every ``%``-formatting argument (a tuple's items, a dict's values) with every conversion the
        format may hold (``str()`` and ``repr()`` when the format is not known): possible."""
        dunders = {PERCENT_SHOWS[letter] for letter in letters or "sr" if letter in PERCENT_SHOWS}
        shown = self.evaluator.evaluate(site.record.args[0], site.key)
        targets: list[ResolvedTarget] = []
        for dunder in sorted(dunders):
            targets.extend(self._protocol(shown, (dunder,)))
            targets.extend(self._items_called(shown, dunder))
            targets.extend(self._items_called(shown, "__repr__"))
        for target in targets:
            target.certainty = Certainty.POSSIBLE
        return _deduplicate(targets)

    def _searched_for(self, sequence: Ref, probe: Ref, site: ResolvedSite) -> list[ResolvedTarget]:
        """``x in a_list`` (and ``a_list.index(x)``, ``.count(x)``, ``.remove(x)``) compares ``x`` with the
        items (``item == x``, and ``x.__eq__`` when that gives way): the ``__eq__`` of their classes may run
        (possible: the search may stop at once, or at an identical item)."""
        evaluator = self.evaluator
        compared = union(
            [evaluator.item(sequence, site.key, iterating=True), evaluator.evaluate(probe, site.key)]
        )
        targets: list[ResolvedTarget] = []
        for value in ordered(compared.values):
            if value[0] == "I":
                for target in self._dunder(value[1], "__eq__", exact=value[2], unique=False):
                    target.certainty = Certainty.POSSIBLE
                    targets.append(target)
        return _deduplicate(targets)

    def _hashing(self, keys: Vals, *, compared: bool, sure: bool) -> list[ResolvedTarget]:
        """A set or dict hashing ``keys``: their class's ``__hash__`` (certain when ``sure`` the container
        hashes and the key is known exactly) and, when ``compared`` with other keys, its ``__eq__`` on equal
        hashes (possible)."""
        targets: list[ResolvedTarget] = []
        unique = sure and keys.is_exact()
        for value in ordered(keys.values):
            if value[0] != "I":
                continue
            hashed = self._dunder(value[1], "__hash__", exact=value[2], unique=unique)
            targets.extend(hashed)
            if compared and hashed:
                for target in self._dunder(value[1], "__eq__", exact=value[2], unique=False):
                    target.certainty = Certainty.POSSIBLE
                    targets.append(target)
        return _deduplicate(targets)

    _getattr_cache: bool | None = None

    @property
    def _getattr_hooks_defined(self) -> bool:
        """Whether a class or module of the repository defines ``__getattr__``."""
        if self._getattr_cache is None:
            self._getattr_cache = bool(self.program._definers.get("__getattr__")) or any(
                "__getattr__" in summary.scopes[0].bindings for summary in self.program.summaries.values()
            )
        return self._getattr_cache

    def _attribute_fallbacks(self, func: Ref, site: ResolvedSite) -> list[ResolvedTarget]:
        """``obj.name(...)`` where looking ``name`` up finds nothing runs ``__getattr__`` of ``obj``'s class
        (of its module, for a module): what it returns is then called, and stays unresolved."""
        attr = func[2]
        if attr in OBJECT_ATTRIBUTES:
            return []  # every instance and module has it
        receiver = self.evaluator.evaluate(func[1], site.key)
        if len(receiver.values) != 1:
            return []  # one of several objects: which lacks ``name`` is too loose a guess to claim
        (value,) = receiver.values
        unique = receiver.is_exact()
        if value[0] == "I":
            return self._instance_fallbacks(value[1], attr, exact=value[2], unique=unique)
        if value[0] == "M":
            return self._module_fallback(value[1], attr, unique=unique)
        return []

    def _computed_member_access(self, site: ResolvedSite) -> list[ResolvedTarget]:
        """``obj.name`` (``obj.name = v``) on an instance of a class whose members code sets by computed names
        (``setattr(cls, name, property(f))``): the member may be a descriptor, whose code the index cannot
        name."""
        ref = site.record.func
        program = self.program
        if not (program.computed_class_members or program.computed_properties) or ref[2] in OBJECT_ATTRIBUTES:
            return []
        receiver = self.evaluator.evaluate(ref[1], site.key)
        if program.computed_properties and not receiver.complete:  # the object may be of such a class
            return [ResolvedTarget(site.record.text, Certainty.UNRESOLVED)]
        affected = self._computed_member_classes
        for value in receiver.values:
            if value[0] == "I" and (value[1] in affected if value[2] else value[1] in self._computed_below):
                return [ResolvedTarget(site.record.text, Certainty.UNRESOLVED)]
        return []

    def _decorated_member_read(self, site: ResolvedSite) -> list[ResolvedTarget]:
        """``obj.m`` (not called) where ``m`` is a method under a decorator that may make a descriptor of it
        (one the index cannot see into, as pydantic's ``computed_field``): the read possibly calls the
        method, through the descriptor's ``__get__``."""
        ref = site.record.func
        attr = ref[2]
        if attr not in self._decorated_method_names:
            return []
        program = self.program
        targets: list[ResolvedTarget] = []
        for value in ordered(self.evaluator.evaluate(ref[1], site.key).values):
            if value[0] != "I":
                continue
            classes = [value[1]] if value[2] else [value[1], *sorted(program.subclasses(value[1]))]
            for cls in classes:
                for owner, bindings in program.class_member(cls, attr):
                    member = self.evaluator.instance_member(owner, attr, exact=True)
                    if member.is_exact() and all(v[0] == "F" for v in member.values):
                        continue  # a function (bound or not), not one an unknown decorator may have made
                    targets.extend(
                        ResolvedTarget(binding.a, Certainty.POSSIBLE)
                        for binding, _ in bindings
                        if binding.kind == "def"
                    )
        return _deduplicate(targets)

    _decorated_names_cache: frozenset[str] | None = None

    @property
    def _decorated_method_names(self) -> frozenset[str]:
        """The names of the methods defined under a decorator (the candidates of
        :meth:`_decorated_member_read`; read from the summaries, so both halves read the same sites)."""
        if self._decorated_names_cache is None:
            self._decorated_names_cache = frozenset(
                scope.owner.rpartition(".")[2]
                for summary in self.program.summaries.values()
                for scope in summary.scopes
                if scope.method_of is not None and scope.decorators and scope.method_kind != "property"
            )
        return self._decorated_names_cache

    _computed_member_cache: tuple[frozenset[str], frozenset[str]] | None = None

    @property
    def _computed_member_classes(self) -> frozenset[str]:
        """The classes with a class on their MRO whose members code sets by computed names."""
        return self._computed_members[0]

    @property
    def _computed_below(self) -> frozenset[str]:
        """The classes that are, or have a subclass that is, one of :attr:`_computed_member_classes`."""
        return self._computed_members[1]

    @property
    def _computed_members(self) -> tuple[frozenset[str], frozenset[str]]:
        if self._computed_member_cache is None:
            program = self.program
            computed = program.computed_class_members
            affected = frozenset(
                cls for cls in program.class_scopes if computed and not computed.isdisjoint(program.mro(cls))
            )
            below = set(affected)
            for cls in program.class_scopes:
                if cls not in below and not affected.isdisjoint(program.subclasses(cls)):
                    below.add(cls)
            self._computed_member_cache = (affected, frozenset(below))
        return self._computed_member_cache

    def _attribute_read(self, site: ResolvedSite) -> list[ResolvedTarget]:
        """``getattr(obj, name)``, ``hasattr(obj, name)``: a property's getter, else ``__getattr__``."""
        args = site.record.args
        if args[1][0] == "s":
            targets = self._property_targets(self.evaluator.evaluate(args[0], site.key), args[1][1])
            if self._getattr_hooks_defined and args[0] is not STARRED:  # a missing one: __getattr__
                read: Ref = ("a", args[0], args[1][1])
                targets.extend(_possibly(self._attribute_fallbacks(read, site)))
            return targets
        if STARRED in args[:2]:
            return []
        receiver = self.evaluator.evaluate(args[0], site.key)  # a computed name: any property, or none bound
        targets = self._any_property_accessors(receiver, setter=False)
        if self._getattr_hooks_defined:
            targets.extend(self._any_name_hooks(receiver))
        return targets

    def _attribute_write(self, site: ResolvedSite) -> list[ResolvedTarget]:
        """``setattr(obj, name, value)``: a property's setter, and the class's own ``__setattr__``."""
        args = site.record.args
        if args[0] is STARRED:
            return []
        receiver = self.evaluator.evaluate(args[0], site.key)
        targets = self._protocol(receiver, ("__setattr__",)) if self._class_defines("__setattr__") else []
        if args[1][0] == "s":
            targets.extend(self._property_targets(receiver, args[1][1], setter=True))
        elif args[1] is not STARRED:  # a computed name: any property's setter
            targets.extend(self._any_property_accessors(receiver, setter=True))
        return targets

    def _attribute_access(self, path: str, site: ResolvedSite) -> list[ResolvedTarget]:
        """What ``getattr``, ``hasattr``, ``setattr``, ``delattr`` and ``object``'s own attribute slots run
        on the object they are given."""
        if path in OBJECT_ATTRIBUTE_SLOTS:
            return self._object_slot(path, site)
        if len(site.record.args) < 2:
            return []
        if path in ATTRIBUTE_READERS:
            return self._attribute_read(site)
        if path == "builtins.setattr":
            return self._attribute_write(site)
        return self._attribute_delete(site)

    def _attribute_delete(self, site: ResolvedSite) -> list[ResolvedTarget]:
        """``delattr(obj, name)``: the class's own ``__delattr__``, else a property's deleter."""
        args = site.record.args
        if args[0] is STARRED or args[1] is STARRED:
            return []
        if args[1][0] == "s":
            if not self._deletion_runs_code(args[1][1], hooked=True):
                return []
            receiver = self.evaluator.evaluate(args[0], site.key)
            return self._deleting(receiver, args[1][1], hooked=True, text=site.record.text)
        receiver = self.evaluator.evaluate(args[0], site.key)
        targets = self._protocol(receiver, ("__delattr__",)) if self._class_defines("__delattr__") else []
        return targets + self._any_deleter(site)

    def _any_deleter(self, site: ResolvedSite) -> list[ResolvedTarget]:
        """Deleting a computed name may run any deleter or descriptor's ``__delete__``: unresolved."""
        index = self._property_index
        if not (index.deleter_names or index.names):
            return []
        return [ResolvedTarget(site.record.text, Certainty.UNRESOLVED)]

    def _object_slot(self, path: str, site: ResolvedSite) -> list[ResolvedTarget]:
        """``object.__setattr__(obj, name, v)``, ``super().__setattr__(name, v)`` (``__delattr__``,
        ``__getattribute__`` alike): what ``object``'s own attribute access runs on ``obj``, past any hook
        of its class: a property's setter (deleter, getter) or a descriptor's method."""
        record = site.record
        bound = self._slot_receiver(record.func, site)
        args = record.args if bound is None else (UNKNOWN, *record.args)
        if len(args) < 2 or STARRED in args[:2]:
            return []
        receiver = bound if bound is not None else self.evaluator.evaluate(args[0], site.key)
        name = args[1]
        slot = path.rpartition(".")[2]
        if slot == "__delattr__":
            if name[0] != "s":
                return self._any_deleter(site)
            if not self._deletion_runs_code(name[1], hooked=False):
                return []
            return self._deleting(receiver, name[1], hooked=False, text=record.text)
        setter = slot == "__setattr__"
        if name[0] == "s":
            if name[1] not in (self.setter_names if setter else self.property_names):
                return []
            targets = self._property_targets(receiver, name[1], setter=setter, hooked=False)
            if not receiver.complete:
                targets.append(ResolvedTarget(record.text, Certainty.UNRESOLVED))
            return targets
        targets = self._any_property_accessors(receiver, setter=setter, hooked=False)
        if not receiver.complete and (self.setter_names if setter else self.property_names):
            targets.append(ResolvedTarget(record.text, Certainty.UNRESOLVED))
        return targets

    def _slot_receiver(self, func: Ref, site: ResolvedSite) -> Vals | None:
        """The object a called ``object`` slot is bound to (``super().__setattr__``, ``obj.__setattr__``),
        None when it is called unbound (``object.__setattr__``, a name for it), its object first."""
        if func[0] != "a":
            return None
        base = self.evaluator.evaluate(func[1], site.key)
        if base.values == frozenset({("X", "builtins.object")}):
            return None
        instances = [("I", value[1], False) if value[0] == "S" else value for value in ordered(base.values)]
        if base.complete and all(value[0] == "I" for value in instances):
            return union([single(value) for value in instances])
        return UNKNOWN_VALS

    def _any_property_accessors(
        self, receiver: Vals, *, setter: bool, hooked: bool = True
    ) -> list[ResolvedTarget]:
        """What reading (writing) a computed name on ``receiver`` (an instance) may run (possible): the
        getter (setter) of any property, the ``__get__`` (``__set__``) of any descriptor, of its classes
        (``hooked``: see :meth:`_property_targets`)."""
        found: dict[str, int] = {}
        for value in ordered(receiver.values):
            if value[0] == "I":
                found.update(self._all_accessors(value, setter=setter, hooked=hooked))
        possible = Certainty.POSSIBLE
        return [ResolvedTarget(callee, possible, offset) for callee, offset in sorted(found.items())]

    def _all_accessors(self, instance: Value, *, setter: bool, hooked: bool) -> dict[str, int]:
        memo_key = (instance, setter, hooked)
        found = self._all_accessors_memo.get(memo_key)
        if found is None:
            index, program = self._property_index, self.program
            wanted = index.setter_names if setter else index.names
            cls, exact = instance[1], instance[2]
            names = sorted(
                {
                    name
                    for klass in ([cls] if exact else [cls, *program.subclasses(cls)])
                    for owner in program.mro(klass)
                    if (scope := program.class_scopes.get(owner)) is not None
                    for name in scope.bindings.keys() & wanted
                }
            )
            receiver = single(instance)
            found = self._all_accessors_memo[memo_key] = {
                target.callee: target.offset
                for name in names
                for target in self._property_targets(receiver, name, setter=setter, hooked=hooked)
                if target.certainty is not Certainty.UNRESOLVED
            }
        return found

    def _module_hooks(self, receiver: Vals, name: str) -> list[ResolvedTarget]:
        """The module-level function ``name`` (``__dir__``) of the repository modules ``receiver`` may be:
        certain for one module, exactly known, that binds nothing else under that name."""
        modules = [v[1] for v in ordered(receiver.values) if v[0] == "M" and v[1] in self.program.summaries]
        targets: list[ResolvedTarget] = []
        for module in modules:
            hook = self.evaluator.module_member(module, name)
            functions = [v[1] for v in ordered(hook.values) if v[0] == "F"]
            certain = receiver.is_exact() and hook.is_exact() and len(functions) == 1
            certain = certain and module not in self.program.dynamic_namespaces
            certainty = Certainty.CERTAIN if certain else Certainty.POSSIBLE
            targets.extend(ResolvedTarget(function, certainty) for function in functions)
        return targets

    def _any_name_hooks(self, receiver: Vals) -> list[ResolvedTarget]:
        """The ``__getattr__`` hooks that reading a computed name on ``receiver`` may run (possible): its
        module's, or those on the MRO of any class the instance may be."""
        hooks: set[str] = set()
        program, evaluator = self.program, self.evaluator
        for value in ordered(receiver.values):
            if value[0] == "M" and value[1] in program.summaries:
                found = evaluator.module_member(value[1], "__getattr__")
            elif value[0] == "I":
                classes = [value[1]] if value[2] else [value[1], *sorted(program.subclasses(value[1]))]
                found = union([evaluator.instance_member(c, "__getattr__", exact=True) for c in classes])
            else:
                continue
            hooks.update(v[1] for v in found.values if v[0] == "F")
        return [ResolvedTarget(hook, Certainty.POSSIBLE, 1) for hook in sorted(hooks)]

    def _instance_fallbacks(self, cls: str, attr: str, *, exact: bool, unique: bool) -> list[ResolvedTarget]:
        """The ``__getattr__`` that reading ``attr`` on an instance of ``cls`` runs: certain only when no
        class the instance may be has ``attr`` and one ``__getattr__`` serves them all; else possible."""
        program = self.program
        classes = [cls] if exact else [cls, *sorted(program.subclasses(cls))]
        hooks: set[str] = set()
        certain = unique and not self._attribute_stores_computed
        certain = certain and attr not in program.attrs_stored_on_unknown
        certain = certain and (exact or not program.open_dispatch(cls, "__getattr__"))
        certain = certain and not (exact is False and program.may_have_dynamic_subclass(cls))
        for klass in classes:
            found = self._finds_attribute(klass, attr)
            if found is not False:
                certain = False
                continue
            if program.is_reclassed(klass) or program.intercepts_attributes(klass, exact=True):
                certain = False
            vals = self.evaluator.instance_member(klass, "__getattr__", exact=True)
            functions = [v[1] for v in ordered(vals.values) if v[0] == "F"]
            if len(functions) != len(vals.values) or not vals.complete:
                certain = False
            hooks.update(functions)
        certainty = Certainty.CERTAIN if certain and len(hooks) == 1 else Certainty.POSSIBLE
        return [ResolvedTarget(hook, certainty, 1) for hook in sorted(hooks)]

    def _finds_attribute(self, cls: str, attr: str) -> bool | None:
        """Whether the normal lookup of ``attr`` on an instance of ``cls`` may find it (None: a base from
        outside the repository may have it)."""
        program = self.program
        if program.class_member(cls, attr):
            return True
        class_scopes = program.class_scopes
        for klass in program.mro(cls):
            scope = class_scopes.get(klass)
            if scope is not None and attr in scope.instance_attrs:
                return True
            if (klass, attr) in program.extra_instance_attrs:
                return True
        for base in program.external_ancestors(cls):
            builtin = _builtin_class(base)
            if builtin is None:
                return None
            if hasattr(builtin, attr):
                return True
        return False

    def _module_fallback(self, module: str, attr: str, *, unique: bool) -> list[ResolvedTarget]:
        """PEP 562: ``module.name`` for a name the module does not bind runs the module's ``__getattr__``."""
        program = self.program
        if module not in program.summaries or module in program.replaced_modules or attr in MODULE_ATTRIBUTES:
            return []
        if program.module_member_bindings(module, attr) or program.is_module(f"{module}.{attr}"):
            return []
        hook = self.evaluator.module_member(module, "__getattr__")
        functions = [v[1] for v in ordered(hook.values) if v[0] == "F"]
        certain = unique and hook.is_exact() and len(functions) == 1
        certain = certain and module not in program.dynamic_namespaces
        certainty = Certainty.CERTAIN if certain else Certainty.POSSIBLE
        return [ResolvedTarget(function, certainty) for function in functions]

    _computed_stores_cache: bool | None = None

    @property
    def _attribute_stores_computed(self) -> bool:
        """Whether code of the repository may store attributes under computed names (``setattr(obj, name,
        v)``, writes to an instance's ``__dict__``): an attribute the class never names may exist then."""
        if self._computed_stores_cache is None:
            summaries = self.program.summaries.values()
            self._computed_stores_cache = any(
                _stores_computed(record) for summary in summaries for record in summary.calls
            )
        return self._computed_stores_cache

    def _subscript_hooks(self, receiver: Vals) -> list[ResolvedTarget]:
        """Possible calls of ``obj[k]`` beside ``__getitem__``: a dict subclass's ``__missing__`` (for a key
        it lacks); of ``C[k]``, the metaclass's ``__getitem__``, else ``C.__class_getitem__``."""
        hooks = self._protocol(receiver, ("__missing__",))
        for value in ordered(receiver.values):
            if value[0] != "C":
                continue
            found = self._metaclass_methods(value[1], ("__getitem__",))
            if not found:
                found = [
                    f"{owner}.__class_getitem__"
                    for owner in self._defining_class(value[1], "__class_getitem__")
                ]
            hooks.extend(ResolvedTarget(callee, Certainty.POSSIBLE, 1) for callee in found)
        for hook in hooks:
            hook.certainty = Certainty.POSSIBLE
        return hooks

    def _searched(self, targets: list[ResolvedTarget]) -> list[ResolvedTarget]:
        """``x in obj`` without ``__contains__`` iterates ``obj``: ``__next__`` on what its ``__iter__``
        returned, until ``x`` is found (possible: it may be found at once, or the iterator be empty)."""
        iterators = [self.evaluator.returns(t.callee) for t in targets if t.callee.endswith(".__iter__")]
        steps = self._protocol(union(iterators), ("__next__",))
        for step in steps:
            step.certainty = Certainty.POSSIBLE
        return steps

    def _yield_to_reflected(
        self, site: ResolvedSite, left: Vals, dunder: str, targets: list[ResolvedTarget]
    ) -> None:
        """``a + b`` runs ``b.__radd__`` first, and maybe not ``a.__add__`` at all, when ``b``'s class
        derives from ``a``'s and overrides it (a comparison: defines its reflection, ``object``'s aside).
        A certain operator target becomes possible where the right operand may be such an instance."""
        right: Vals | None = None
        for target in targets:
            method = target.callee.rpartition(".")[2]
            names = {REFLECTED[name] for name in (dunder, method) if name in REFLECTED}
            if target.certainty is not Certainty.CERTAIN or not names:
                continue
            if right is None:
                right = self.evaluator.evaluate(site.record.args[0], site.key)
            classes = [v[1] for v in ordered(left.values) if v[0] == "I"]
            if any(
                self._may_answer_first(cls, target.callee, name, right) for cls in classes for name in names
            ):
                target.certainty = Certainty.POSSIBLE

    def _may_answer_first(self, cls: str, forward: str, reflected: str, right: Vals) -> bool:
        """Whether the right operand ``right`` may be an instance of a class deriving from ``cls`` whose
        ``reflected`` method the interpreter runs before ``forward`` (and which may answer)."""
        answering = self._answering_subclasses(cls, forward, reflected)
        if not answering:
            return False
        if not right.complete or self.program.may_have_dynamic_subclass(cls):
            return True
        for value in right.values:
            if value[0] == "I" and (
                value[1] in answering
                or (not value[2] and not answering.isdisjoint(self.program.subclasses(value[1])))
            ):
                return True
        return False

    def _answering_subclasses(self, cls: str, forward: str, reflected: str) -> frozenset[str]:
        """The repository's subclasses of ``cls`` whose ``reflected`` method is tried before ``forward``
        and is another function: overridden, for an arithmetic operator (as the interpreter compares
        them); anything but ``object``'s, for a comparison."""
        memo_key = (cls, forward, reflected)
        found = self._answering_memo.get(memo_key)
        if found is not None:
            return found
        member = self.evaluator.instance_member
        own = member(cls, reflected, exact=True)
        gives_way = {("F", forward, True), ("X", f"builtins.object.{reflected}")}
        answering = []
        for subclass in sorted(self.program.subclasses(cls)):
            theirs = member(subclass, reflected, exact=True)
            if reflected in REFLECTED_COMPARISONS:
                answers = not theirs.complete or not theirs.values <= gives_way
            else:
                answers = theirs != own and not (theirs.complete and theirs.values <= gives_way)
            if answers:
                answering.append(subclass)
        found = self._answering_memo[memo_key] = frozenset(answering)
        return found

    def _raised(self, exception: Vals) -> list[ResolvedTarget]:
        unique = exception.is_exact()
        targets: list[ResolvedTarget] = []
        for value in ordered(exception.values):
            if value[0] == "C":  # a builtin exception class runs no code of the repository
                targets.extend(self._targets_of(value, unique))
        return targets

    def _iteration(self, receiver: Vals, start: str, step: str) -> list[ResolvedTarget]:
        """``for x in obj``: ``obj.__iter__()``, then ``__next__`` on what it returned."""
        targets = self._protocol(receiver, (start,))
        iterators = [  # not what the fallback (``__getitem__``) returns: an item
            self.evaluator.returns(t.callee)
            for t in targets
            if t.certainty is not Certainty.UNRESOLVED and t.callee.endswith(f".{start}")
        ]
        if iterators:
            merged = union(iterators)
            certain = receiver.is_exact() and merged.is_exact()
            for target in self._protocol(merged, (step,)):
                target.certainty = (
                    Certainty.CERTAIN
                    if certain and target.certainty is Certainty.CERTAIN
                    else (Certainty.POSSIBLE)
                )
                targets.append(target)
        return _deduplicate(targets)

    def _explicit(self, site: ResolvedSite) -> list[ResolvedTarget]:
        record = site.record
        func = self.evaluator.evaluate(record.func, site.key)
        targets: list[ResolvedTarget] = []
        unique = func.is_exact()
        for value in ordered(func.values):
            targets.extend(self._targets_of(value, unique))
            if value[0] == "X":
                through = self._through_external(value[1], site)
                if not unique:  # ``fn(x)`` where ``fn`` may be ``repr``: ``x.__repr__`` is one possibility
                    for target in through:
                        if target.certainty is Certainty.CERTAIN:
                            target.certainty = Certainty.POSSIBLE
                targets.extend(through)
        if record.func[0] == "a" and self._getattr_hooks_defined:
            targets.extend(self._attribute_fallbacks(record.func, site))
        if not func.complete or (func.values and not targets) or not func.values:
            targets.append(ResolvedTarget(record.text, Certainty.UNRESOLVED))
        for keyword, ref in record.keywords:
            if keyword is None:  # ``f(**obj)`` reads ``obj`` as a mapping
                targets.extend(self._read_as_mapping(self.evaluator.evaluate(ref, site.key)))
        return _deduplicate(targets)

    def _through_external(self, path: str, site: ResolvedSite) -> list[ResolvedTarget]:
        """What a builtin or external callable calls back: protocol methods, properties, callbacks."""
        record = site.record
        evaluate = self.evaluator.evaluate
        targets: list[ResolvedTarget] = []
        if path in BUILTIN_PROTOCOLS and record.args:
            given = evaluate(record.args[0], site.key)
            called = self._protocol(given, (BUILTIN_PROTOCOLS[path],))
            if BUILTIN_PROTOCOLS[path] in SHOWING:
                called.extend(self._items_called(given, "__repr__"))
            if path in MEMOISED_PROTOCOLS and (len(record.args) > 1 or record.keywords):
                for target in called:
                    target.certainty = Certainty.POSSIBLE
            if path == "builtins.dir":  # a module's own ``__dir__`` (PEP 562)
                called.extend(self._module_hooks(given, "__dir__"))
            targets.extend(called)
        if path == "builtins.print":
            targets.extend(self._printed(site))
        if path in ATTRIBUTE_ACCESSORS:
            targets.extend(self._attribute_access(path, site))
        if path in RUNS_UNNAMED_CODE:
            targets.append(ResolvedTarget(f"{path}: code named by its data", Certainty.UNRESOLVED))
        consumption = CONSUMERS.get(path)
        if consumption is not None:
            targets.extend(self._consumed(consumption, site))
        if path in ITEM_PROTOCOLS:
            targets.extend(self._item_protocols(path, site))
        if path == "builtins.map" and len(record.args) >= 2 and STARRED not in record.args[:2]:
            targets.extend(self._mapped_builtins(site))
        if path in DATA_PROTOCOLS:
            targets.extend(self._data_protocols(path, site))
        if path in TYPE_CHECKS and len(record.args) >= 2:
            targets.extend(self._type_check_hooks(TYPE_CHECKS[path], record.args[1], site))
        if path in CLASS_BUILDERS:
            targets.extend(self._class_built(path, site))
        if path == "builtins.type.__call__" and record.func[0] == "a" and record.func[1][0] in SUPER_REFS:
            proxies = evaluate(record.func[1], site.key).values  # ``super()``, ``super(Meta, cls)``
            for proxy in ordered(proxies):
                if proxy[0] == "S":
                    targets.extend(self._made_by_metaclass(proxy[1]))
        if (
            path in SEARCHING_METHODS
            and record.args
            and record.args[0] is not STARRED
            and record.func[0] == "a"
        ):
            targets.extend(self._searched_for(record.func[1], record.args[0], site))
        if path in HASHING_METHODS and record.args and record.args[0] is not STARRED:
            exact = self.evaluator.evaluate(record.func, site.key).is_exact()
            keys = evaluate(record.args[0], site.key)
            targets.extend(self._hashing(keys, compared=True, sure=exact))
        if path not in NEVER_CALL_ARGUMENTS:
            targets.extend(self._called_back(site))
        if path in CALLED_ARGUMENTS and self._calls_unknown_callable(site, *CALLED_ARGUMENTS[path]):
            targets.append(
                ResolvedTarget(f"{path}: calls a callable the index cannot name", Certainty.UNRESOLVED)
            )
        return targets

    def _calls_unknown_callable(
        self, site: ResolvedSite, positions: tuple[int, ...], keywords: tuple[str, ...]
    ) -> bool:
        """Whether a callable that ``site`` hands over at ``positions`` or ``keywords`` may be one the index
        cannot name (an unpacked argument may be any of them)."""
        record = site.record
        handed = [record.args[p] for p in positions if p < len(record.args)]
        handed += [ref for keyword, ref in record.keywords if keyword in keywords]
        unpacked = (STARRED in record.args and bool(positions)) or any(k is None for k, _ in record.keywords)
        return unpacked or any(
            ref is not STARRED and not self.evaluator.evaluate(ref, site.key).complete for ref in handed
        )

    def _printed(self, site: ResolvedSite) -> list[ResolvedTarget]:
        """``print(...)``: ``str()`` of every argument, then the writes to its stream."""
        targets: list[ResolvedTarget] = []
        for argument in site.record.args:
            if argument is not STARRED:
                shown = self.evaluator.evaluate(argument, site.key)
                targets.extend(self._protocol(shown, ("__str__",)))
                targets.extend(self._items_called(shown, "__repr__"))
        return targets + self._printed_to(site)

    def _printed_to(self, site: ResolvedSite) -> list[ResolvedTarget]:
        """``print(..., file=stream)`` calls ``stream.write`` (the line's end at least) from the caller's
        frame, and ``stream.flush`` when told to flush (possible: the flag may be false). A stream whose
        methods the index cannot name leaves the site unresolved; the standard streams' methods are no calls
        of the repository."""
        keywords = dict(site.record.keywords)
        if None in keywords:  # ``print(*args, **options)``: any stream
            return [ResolvedTarget("print: writes to a stream the index cannot name", Certainty.UNRESOLVED)]
        stream = keywords.get("file")
        if stream is None:
            return []
        targets: list[ResolvedTarget] = []
        for method, always in (("write", True), ("flush", False)):
            if not always and "flush" not in keywords:
                continue
            found = self.evaluator.evaluate(("a", stream, method), site.key)
            if not found.complete:
                return [
                    ResolvedTarget(f"print: {method} of a stream the index cannot name", Certainty.UNRESOLVED)
                ]
            unique = always and found.is_exact()
            for value in ordered(found.values):
                if value[0] != "X":
                    targets.extend(self._targets_of(value, unique))
        return targets

    def _called_back(self, site: ResolvedSite) -> list[ResolvedTarget]:
        """The functions, classes and callable objects handed to code outside the repository, which may call
        them (possible)."""
        record = site.record
        evaluate = self.evaluator.evaluate
        targets: list[ResolvedTarget] = []
        arguments = [*record.args, *[ref for _, ref in record.keywords]] if record.keywords else record.args
        calls_instances = self._class_defines("__call__")
        for argument in arguments:
            if argument[0] in ("n", "a", "d", "or", "c"):
                for value in ordered(evaluate(argument, site.key).values):
                    if value[0] in ("F", "C"):
                        targets.extend(self._targets_of(value, False))
                    elif value[0] == "I" and calls_instances:  # a callable object, called back
                        called = self._dunder(value[1], "__call__", exact=value[2], unique=False)
                        targets.extend(_possibly(called))
        return targets

    def _data_protocols(self, path: str, site: ResolvedSite) -> list[ResolvedTarget]:
        """The special methods of the objects handed to a function of :data:`DATA_PROTOCOLS`."""
        args = site.record.args
        if path in ORDERING_FUNCTIONS or path in HEAP_SELECTIONS or path in INDEX_TAKERS:
            return self._ordered_or_indexed(path, site)
        if path == "builtins.filter" and len(args) == 2 and args[0] == NONE_REF:
            items = self.evaluator.item(args[1], site.key, iterating=True)
            return _possibly(self._protocol(items, ("__bool__",)))  # its items' truth
        if len(args) == MAPPING_READERS.get(path) and args[-1] is not STARRED:
            return self._read_as_mapping(self.evaluator.evaluate(args[-1], site.key))
        if path in OPERATOR_FUNCTIONS or path == OPERATOR_CONTAINS:
            dunder = OPERATOR_FUNCTIONS.get(path, "__contains__")
            if not args or args[0] is STARRED:
                return []
            return _possibly(self._protocol(self.evaluator.evaluate(args[0], site.key), (dunder,)))
        if path == "builtins.str.format":  # ``"{}".format(obj)`` formats each argument it names
            given = [ref for ref in (*args, *(ref for _, ref in site.record.keywords)) if ref is not STARRED]
            if not given:
                return []
            shown = union([self.evaluator.evaluate(ref, site.key) for ref in given])
            return _possibly(self._protocol(shown, ("__format__",)))
        return []

    def _ordered_or_indexed(self, path: str, site: ResolvedSite) -> list[ResolvedTarget]:
        """``heapq.heappush(heap, x)``, ``bisect.insort(a, x)``: the ``__lt__`` of the items and of ``x``
        (``nsmallest(n, xs)``: of the items of ``xs``), possible: whether two items meet depends on the data;
        ``range(x)``: ``x.__index__`` unless ``x`` is an int."""
        args = site.record.args
        if STARRED in args:
            return []
        evaluator = self.evaluator
        if path in INDEX_TAKERS:
            given = [evaluator.evaluate(arg, site.key) for arg in args]
            return self._protocol(union(given), ("__index__",)) if given else []
        if path in HEAP_SELECTIONS:
            compared = evaluator.item(args[1], site.key, iterating=True) if len(args) > 1 else None
        elif args:
            parts = [evaluator.item(args[0], site.key, iterating=True)]
            parts.extend(evaluator.evaluate(arg, site.key) for arg in args[1:2])
            compared = union(parts)
        else:
            compared = None
        if compared is None or any(keyword == "key" for keyword, _ in site.record.keywords):
            return []
        return _possibly(self._protocol(compared, ("__lt__",)))

    def _read_as_mapping(self, given: Vals) -> list[ResolvedTarget]:
        """``dict(obj)`` and ``**obj``: ``obj.keys()``, then ``obj[key]`` for each key (possible: there may
        be none), when its class has a ``keys`` method; an object without one is iterated instead."""
        targets: list[ResolvedTarget] = []
        for value in ordered(given.values):
            if value[0] != "I":
                continue
            keys = self._dunder(value[1], "keys", exact=value[2], unique=given.is_exact())
            if keys:
                targets.extend(keys)
                items = self._dunder(value[1], "__getitem__", exact=value[2], unique=False)
                targets.extend(_possibly(items))
        return targets

    def _class_defines(self, method: str) -> bool:
        """Whether a class of the repository defines ``method`` (``__call__``: else no object handed on is
        called; ``__setattr__``: else no assignment calls one)."""
        found = self._defined_methods.get(method)
        if found is None:
            definers = self.program._definers.get(method) or set()
            found = self._defined_methods[method] = bool(self.program.class_scopes.keys() & definers)
        return found

    def _item_protocols(self, path: str, site: ResolvedSite) -> list[ResolvedTarget]:
        """The special methods of :data:`ITEM_PROTOCOLS` the builtin ``path`` calls on the items it gets."""
        record = site.record
        if path != "builtins.sum" and any(keyword == "key" for keyword, _ in record.keywords):
            return []  # it compares what the key function returns
        args = record.args
        if STARRED in args:
            return []
        if path == "builtins.list.sort":
            if record.func[0] != "a":
                return []
            items = self.evaluator.item(record.func[1], site.key, iterating=True)
        elif len(args) == 1:
            items = self.evaluator.item(args[0], site.key, iterating=True)
        elif len(args) > 1 and path in ("builtins.min", "builtins.max"):
            items = union([self.evaluator.evaluate(arg, site.key) for arg in args])
        else:
            return []
        targets = self._protocol(items, ITEM_PROTOCOLS[path])
        for target in targets:
            target.certainty = Certainty.POSSIBLE
        return targets

    def _type_check_hooks(self, hook: str, classes: Ref, site: ResolvedSite) -> list[ResolvedTarget]:
        """``isinstance(x, C)`` may call ``__instancecheck__`` of ``C``'s metaclass (not when ``type(x)`` is
        ``C``), ``issubclass`` its ``__subclasscheck__``; a tuple of classes, each one's."""
        found = self.evaluator.evaluate(classes, site.key).values
        named = [v for v in ordered(found) if v[0] == "C"]
        for value in ordered(found):
            if value[0] == "Q":
                named.extend(v for v in ordered(value[1].values) if v[0] == "C")
        return [
            ResolvedTarget(method, Certainty.POSSIBLE, 1)
            for value in named
            for method in self._metaclass_methods(value[1], (hook,))
        ]

    def _mapped_builtins(self, site: ResolvedSite) -> list[ResolvedTarget]:
        """``map(str, xs)``: a builtin of :data:`BUILTIN_PROTOCOLS` mapped over the items calls their special
        method (possible: ``map`` is lazy, and the items may be none)."""
        args = site.record.args
        functions = self.evaluator.evaluate(args[0], site.key).values
        dunders = tuple(
            BUILTIN_PROTOCOLS[v[1]] for v in ordered(functions) if v[0] == "X" and v[1] in BUILTIN_PROTOCOLS
        )
        if not dunders:
            return []
        targets = self._protocol(self.evaluator.item(args[1], site.key, iterating=True), dunders)
        for target in targets:
            target.certainty = Certainty.POSSIBLE
        return targets

    def _consumed(self, consumption: Consumption, site: ResolvedSite) -> list[ResolvedTarget]:
        """The protocol methods a builtin that iterates its arguments calls on them."""
        args = site.record.args
        if STARRED in args or (consumption.only_argument and len(args) != 1):
            return []
        positions = range(len(args)) if consumption.positions is None else consumption.positions
        targets: list[ResolvedTarget] = []
        for position in positions:
            if position >= len(args):
                break
            receiver = self.evaluator.evaluate(args[position], site.key)
            if consumption.sized:
                targets.extend(
                    self._protocol(receiver, ("__len__",)) or self._protocol(receiver, ("__length_hint__",))
                )
            if consumption.drains:
                targets.extend(self._iteration(receiver, "__iter__", "__next__"))
                targets.extend(self._calls_made_elsewhere(site, args[position]))
            else:
                targets.extend(self._protocol(receiver, ("__iter__",)))
        return targets

    def _calls_made_elsewhere(self, site: ResolvedSite, iterated: Ref) -> list[ResolvedTarget]:
        """Iterating ``iterated`` here runs the function of a ``map`` or ``filter`` it may be, from this
        frame; one made in another frame (returned by a call, handed in, stored) names a function this
        site cannot: unresolved. One made here names it at its own site."""
        values = self.evaluator.evaluate(iterated, site.key).values
        if not any(v[0] == "Q" and v[2] in CALLING_ITERATORS for v in values):
            return []
        if self._made_here(iterated, site.key, 0):
            return []
        return [ResolvedTarget(site.record.text, Certainty.UNRESOLVED)]

    def _made_here(self, ref: Ref, key: ScopeKey, depth: int) -> bool:
        """Whether ``ref`` is a ``map``/``filter`` call of this scope over iterables made here too (or
        calling nothing), or a local name that only such calls bind."""
        if depth > MAX_NESTING:
            return False
        if ref[0] == "n":
            found = self.program.lookup(key, ref[1])
            return bool(found) and all(
                where == key and binding.kind == "val" and self._made_here(binding.a, key, depth + 1)
                for binding, where in found or ()
            )
        if ref[0] != "c":
            return False
        called = self.evaluator.evaluate(ref[1], key).values
        if not called or any(v[0] != "X" or v[1] not in LAZY_CALLERS for v in called):
            return False
        for argument in ref[2]:
            if argument == STARRED:
                return False
            inner = self.evaluator.evaluate(argument, key).values
            lazy = any(v[0] == "Q" and v[2] in CALLING_ITERATORS for v in inner)
            if lazy and not self._made_here(argument, key, depth + 1):
                return False
        return True

    def _targets_of(self, value: Value, unique: bool) -> list[ResolvedTarget]:
        certainty = Certainty.CERTAIN if unique else Certainty.POSSIBLE
        tag = value[0]
        if tag == "F":
            if certainty is Certainty.CERTAIN and self._memoised(value[1]):
                certainty = Certainty.POSSIBLE  # the cache may answer without calling it
            offset = 1 if value[2] else 0
            if value[1] in self.program.code_swapped:
                return [ResolvedTarget(value[1], Certainty.POSSIBLE, offset), *self._swapped_code(value[1])]
            return [ResolvedTarget(value[1], certainty, offset)]
        if tag == "C":
            return self._constructor(value[1], exact=value[2], unique=unique)
        if tag == "I":
            return self._dunder(value[1], "__call__", exact=value[2], unique=unique)
        if tag == "X" and not names_a_missing_attribute(value[1]):  # ``obj.__get__`` where no class has one
            return [ResolvedTarget(value[1], certainty)]
        return []

    def _swapped_code(self, function: str) -> list[ResolvedTarget]:
        """The functions whose code ``function.__code__ = g.__code__`` gives it (possible; unresolved where
        the code assigned is not another function's)."""
        targets: list[ResolvedTarget] = []
        for stored, key in self.program.code_swapped[function]:
            copied = stored[0] == "a" and stored[2] == "__code__"  # ``g.__code__``
            owners = self.evaluator.evaluate(stored[1], key) if copied else UNKNOWN_VALS
            functions = [v[1] for v in ordered(owners.values) if v[0] == "F"]
            targets.extend(ResolvedTarget(f, Certainty.POSSIBLE) for f in functions)
            if not owners.complete or len(functions) != len(owners.values):
                targets.append(ResolvedTarget(f"{function}.__code__", Certainty.UNRESOLVED))
        return targets

    def _constructor(self, cls: str, *, exact: bool, unique: bool) -> list[ResolvedTarget]:
        """``C()`` runs ``__new__`` and ``__init__`` found along the MRO (with neither: the class itself)."""
        classes = [cls] if exact else [cls, *sorted(self.program.subclasses(cls))]
        per_class = [self._construction(klass) for klass in classes]
        same = unique and all(targets == per_class[0] for targets in per_class)
        same = same and self._unsure_constructions.isdisjoint(classes)
        # a metaclass may skip both methods, a ``__new__`` returning something else only ``__init__``
        skips_new = any(self._custom_metaclass(klass) for klass in classes)
        skips_init = skips_new or any(self._new_returns_another(klass) for klass in classes)
        certainty = {
            True: Certainty.CERTAIN if same and not skips_new else Certainty.POSSIBLE,  # ``__new__``
            False: Certainty.CERTAIN if same and not skips_init else Certainty.POSSIBLE,
        }
        metaclass_calls = [
            ResolvedTarget(c, Certainty.CERTAIN if unique else Certainty.POSSIBLE, 0)
            for klass in classes
            for c in self._metaclass_call(klass)
        ]
        external_inits = [
            ResolvedTarget(init, Certainty.POSSIBLE, 1)
            for klass in classes
            for init in [*self._external_init(klass), *self._initialisers_of_others(klass)]
        ]
        return _deduplicate(
            [
                ResolvedTarget(callee, certainty[callee.endswith(".__new__")], offset)
                for targets in per_class
                for callee, offset in targets
            ]
            + metaclass_calls
            + external_inits
            + [  # ``setattr(C, name, f)``: its ``__init__`` may be any function so stored
                ResolvedTarget(f"{klass}: members set by computed names", Certainty.UNRESOLVED)
                for klass in classes
                if self._members_computed(klass)
            ][:1]
        )

    def _members_computed(self, cls: str) -> bool:
        computed = self.program.computed_class_members
        return bool(computed) and not computed.isdisjoint(self.program.mro(cls))

    def _external_init(self, cls: str) -> list[str]:
        """``__init__`` of the external classes ``cls`` derives from, when no class of the repository on its
        MRO defines one: one of them runs (possible: their own MROs and metaclasses are not seen). Bases
        from :data:`NO_EXTERNAL_INIT` are left out."""
        if self._defining_class(cls, "__init__"):
            return []
        return [
            f"{base}.__init__"
            for base in self.program.external_ancestors(cls)
            if not base.startswith(NO_EXTERNAL_INIT)
        ]

    def _metaclass_call(self, cls: str) -> list[str]:
        """``__call__`` of a repository metaclass: it runs when the class is called."""
        program = self.program
        for klass in program.mro(cls):
            scope = program.class_scope(klass)
            if scope is None or scope.metaclass is None:
                continue
            parent = program.parent(program.def_scope[klass])
            if parent is None:
                continue
            for value in ordered(self.evaluator.evaluate(scope.metaclass, parent).values):
                if value[0] == "C":
                    return [f"{owner}.__call__" for owner in self._defining_class(value[1], "__call__")]
        return []

    def _construction(self, cls: str) -> list[tuple[str, int]]:
        if self.evaluator.outside_metaclass(cls) == "enum":
            return [(cls, 0)]  # ``Color(value)`` looks a member up: no ``__new__`` or ``__init__`` runs
        hits: list[tuple[str, int]] = []
        generated = self._generated_init(cls)
        for name in ("__new__", "__init__"):
            if name == "__init__" and generated is not None:
                hits.extend(generated)
                continue
            if self._members_computed(cls):  # ``setattr(cls, name, f)`` in a class decorator may have set it
                self._unsure_constructions.add(cls)
            for owner, bindings in self.program.class_member(cls, name):
                plain = all(b.kind == "def" for b, _ in bindings) and not self._decorated(bindings)
                if plain:  # ``__new__`` gets the class, ``__init__`` the instance
                    hits.append((f"{owner}.{name}", 1))
                    continue
                assigned = self.evaluator.class_member(owner, name, exact=True)  # ``__init__ = setup``
                functions = [value[1] for value in ordered(assigned.values) if value[0] == "F"]
                if assigned.is_exact() and len(functions) == 1 and len(assigned.values) == 1:
                    hits.append((functions[0], 1))
                elif functions or any(b.kind == "def" for b, _ in bindings):  # decorated, or rebound
                    hits.extend((function, 1) for function in functions)
                    self._unsure_constructions.add(cls)
        return hits or [(cls, 0)]

    def _decorated(self, bindings: list[tuple[Binding, ScopeKey]]) -> bool:
        """Whether a ``def`` among ``bindings`` is under a decorator that is not transparent."""
        evaluator = self.evaluator
        for binding, where in bindings:
            if binding.kind != "def" or not isinstance(binding.b, int):
                continue
            scope = self.program.summaries[where[0]].scopes[binding.b]
            if any(not evaluator.is_transparent(decorator, where) for decorator in scope.decorators):
                return True
        return False

    def _generated_init(self, cls: str) -> list[tuple[str, int]] | None:
        """When the ``__init__`` that calling ``cls`` runs is one ``@dataclass`` (or attrs) wrote, found on
        the MRO before any written in the repository: what it calls (``__post_init__``); else None. A
        generated ``__init__`` does not call the bases' own."""
        program = self.program
        for klass in program.mro(cls):
            scope = program.class_scope(klass)
            if scope is None:
                continue
            if program.bindings(program.def_scope[klass], "__init__"):
                return None
            if self._writes_init(klass, scope):
                hook = "__attrs_post_init__" if self._attrs_class(klass, scope) else "__post_init__"
                return [
                    (f"{owner}.{hook}", 1)
                    for owner, bindings in program.class_member(cls, hook)
                    if any(b.kind == "def" for b, _ in bindings)
                ]
        return None

    def _writes_init(self, klass: str, scope: Scope) -> bool:
        """Whether a class decorator of ``klass`` writes its ``__init__`` (``@dataclass``, attrs' ``@define``
        and ``@attr.s``, unless given ``init=False``)."""
        return any(
            path in INIT_WRITERS and "init=False" not in text.replace(" ", "")
            for path, text in self._class_decorators(klass, scope)
        )

    def _attrs_class(self, klass: str, scope: Scope) -> bool:
        return any(path.startswith(("attr.", "attrs.")) for path, _ in self._class_decorators(klass, scope))

    def _class_decorators(self, klass: str, scope: Scope) -> list[tuple[str, str]]:
        """The import paths of the external decorators of class ``klass`` (of the decorator factory, for
        ``@dataclass(frozen=True)``), with their text as written."""
        parent = self.program.parent(self.program.def_scope[klass])
        if parent is None or not scope.decorators:
            return []
        found = []
        for ref, text in zip(scope.decorators, scope.decorator_texts, strict=False):
            called = ref[1] if ref[0] == "c" else ref
            for value in self.evaluator.evaluate(called, parent).values:
                if value[0] == "X":
                    found.append((value[1], text))
        return found

    def _custom_metaclass(self, cls: str) -> bool:
        """A metaclass of the repository (or one the index cannot name) may run neither ``__new__`` nor
        ``__init__``. Those of outside bases are taken to run both (``type.__call__``), as all but the enum
        metaclass of the standard library do (see :meth:`_construction`)."""
        program = self.program
        for klass in program.mro(cls):
            scope = program.class_scope(klass)
            parent = program.parent(program.def_scope[klass]) if scope is not None else None
            if scope is not None and scope.metaclass is not None and parent is not None:
                metaclass = self.evaluator.evaluate(scope.metaclass, parent)
                if not metaclass.complete or any(v[0] != "X" for v in metaclass.values):
                    return True
        return False

    def _new_returns_another(self, cls: str) -> bool:
        """A ``__new__`` that may return something other than an instance of ``cls``: ``__init__`` is then
        skipped."""
        program = self.program
        for owner in self._defining_class(cls, "__new__"):
            if any(self._builds_another_class(key) for key in program.bodies(f"{owner}.__new__")):
                return True
            returned = self.evaluator.returns(f"{owner}.__new__")
            if not returned.complete:  # what it returns is not all known: perhaps no instance of ``cls``
                return True
            allowed = {cls, *program.mro(cls), *program.subclasses(cls)}
            foreign = [v for v in returned.values if (v[0] == "I" and v[1] not in allowed) or v[0] == "XI"]
            if any(v != ("XI", "builtins.NoneType") for v in foreign):  # None: a flow-insensitive default
                return True
        return False

    def _builds_another_class(self, key: ScopeKey) -> bool:
        """Whether the ``__new__`` at ``key`` may return what ``super().__new__(X)`` (or
        ``object.__new__(X)``) builds for an ``X`` other than its own first parameter: the ``__init__`` that
        runs is then ``X``'s, such as a subclass's (``Literal("")`` giving an ``Empty``)."""
        scope = self.program.scope(key)
        return not scope.params or bool(self._other_classes_built(key))

    def _other_classes_built(self, key: ScopeKey) -> list[Ref]:
        """The ``X`` of each ``super().__new__(X)`` the ``__new__`` at ``key`` returns, directly or through a
        local name, other than its own first parameter. Asked of the body, as the values of ``cls`` merge
        every caller's."""
        scope = self.program.scope(key)
        own = ("n", scope.params[0].name) if scope.params else None
        refs = list(scope.returns)
        for ref in scope.returns:
            if ref[0] == "n":
                refs.extend(b.a for b in scope.bindings.get(ref[1], ()) if b.kind == "val")
        return [
            ref[2][0] if ref[2] else ("n", "")
            for ref in refs
            if ref[0] == "c" and ref[1][0] == "a" and ref[1][2] == "__new__" and ref[2][:1] != (own,)
        ]

    def _initialisers_of_others(self, cls: str) -> list[str]:
        """The ``__init__`` of the classes the ``__new__`` of ``cls`` may build instead (see
        :meth:`_other_classes_built`): Python runs it on what ``__new__`` returns."""
        found: list[str] = []
        for owner in self._defining_class(cls, "__new__"):
            for key in self.program.bodies(f"{owner}.__new__"):
                built = [self.evaluator.evaluate(ref, key) for ref in self._other_classes_built(key)]
                for value in (v for vals in built for v in ordered(vals.values) if v[0] == "C"):
                    found.extend(c for c, _ in self._construction(value[1]) if c.endswith(".__init__"))
        return sorted(set(found))

    def _defining_class(self, cls: str, name: str) -> list[str]:
        for owner, bindings in self.program.class_member(cls, name):
            if any(b.kind == "def" for b, _ in bindings):
                return [owner]
        return []

    def _dunder(self, cls: str, name: str, *, exact: bool, unique: bool) -> list[ResolvedTarget]:
        """The special method ``name`` that instances of ``cls`` run; where a class they may be defines none
        (only ``object``'s), what the interpreter runs instead (:data:`FALLBACKS`)."""
        vals = self.evaluator.instance_member(cls, name, exact=exact)
        if not vals.values and not vals.complete:  # a base the index cannot name may define it
            return [ResolvedTarget(f"{cls}.{name}", Certainty.UNRESOLVED)]
        functions = [v for v in ordered(vals.values) if v[0] == "F"]
        certain = unique and vals.is_exact() and len(functions) == 1
        certain = certain and name not in self.program.attrs_stored_on_unknown  # ``cls.__iter__ = f``
        targets = [
            ResolvedTarget(v[1], Certainty.CERTAIN if certain else Certainty.POSSIBLE, 1) for v in functions
        ]
        instead = FALLBACKS.get(name)
        if instead is not None and ("X", f"builtins.object.{name}") in vals.values:
            only = vals.complete and len(vals.values) == 1  # no class it may be defines ``name``
            targets += self._dunder(cls, instead, exact=exact, unique=unique and only)
            if name in SEQUENCE_FALLBACKS:
                targets += self._dunder(cls, SEQUENCE_FALLBACKS[name], exact=exact, unique=unique and only)
        return targets

    def _protocol(self, receiver: Vals, dunders: tuple[str, ...]) -> list[ResolvedTarget]:
        """The special methods ``dunders`` that the interpreter runs on ``receiver``: its class's, or for a
        class, its metaclass's (possible: a subclass may have another metaclass)."""
        targets: list[ResolvedTarget] = []
        unique = receiver.is_exact()
        for value in ordered(receiver.values):
            if value[0] == "I":
                for dunder in dunders:
                    targets.extend(self._dunder(value[1], dunder, exact=value[2], unique=unique))
            elif value[0] == "C" and self.program.metaclass_defined:
                methods = self._metaclass_methods(value[1], dunders)
                targets.extend(ResolvedTarget(method, Certainty.POSSIBLE, 1) for method in methods)
        return _deduplicate(targets)

    def _class_built(self, path: str, site: ResolvedSite) -> list[ResolvedTarget]:
        """``type(name, bases, ns)`` and ``type.__new__(meta, name, bases, ns)`` (``super().__new__`` in a
        metaclass) build a class, and run the ``__init_subclass__`` its bases find from this frame."""
        position, count = CLASS_BUILDERS[path]
        args = site.record.args
        if len(args) != count or STARRED in args or not self._class_defines("__init_subclass__"):
            return []
        bases = _bases_given(self.evaluator.evaluate(args[position], site.key))
        if bases is None:
            return [
                ResolvedTarget(
                    f"{site.record.text}: __init_subclass__ of bases the index cannot name",
                    Certainty.UNRESOLVED,
                )
            ]
        program = self.program
        found = sorted({hook for base in bases if (hook := self._init_subclass_of(program.mro(base)))})
        certainty = Certainty.CERTAIN if len(bases) == 1 else Certainty.POSSIBLE
        return [ResolvedTarget(hook, certainty) for hook in found]

    def _init_subclass_of(self, classes: Sequence[str]) -> str | None:
        """The first ``__init_subclass__`` that the classes of a new class's MRO after it define."""
        program = self.program
        for klass in classes:
            if any(
                b.kind == "def" for b, _ in program.bindings(program.def_scope[klass], "__init_subclass__")
            ):
                return f"{klass}.__init_subclass__"
        return None

    def _class_creation(self, cls: str) -> list[ResolvedTarget]:
        """A ``class`` statement runs its metaclass's ``__new__``/``__init__`` and the bases'
        ``__init_subclass__`` (repository code only). ``type.__new__`` runs ``__init_subclass__``: from the
        class statement when ``type`` builds the class, else maybe from a metaclass's own ``__new__``."""
        targets: list[ResolvedTarget] = []
        for method in self._metaclass_methods(cls, ("__prepare__", "__new__", "__init__")):
            targets.append(ResolvedTarget(method, Certainty.CERTAIN))
        hook = self._init_subclass_of(self.program.mro(cls)[1:])
        if hook is not None:
            certainty = Certainty.CERTAIN if self._built_by_type(cls) else Certainty.POSSIBLE
            targets.append(ResolvedTarget(hook, certainty))
        targets.extend(self._set_name_hooks(cls))
        return targets

    def _set_name_hooks(self, cls: str) -> list[ResolvedTarget]:
        """``type.__new__`` calls ``__set_name__`` of every value of the new class's namespace whose class
        defines one (a descriptor learning its name); only the bindings a class body ends with count. Under
        a metaclass written in Python (the repository's, ``abc.ABCMeta``) the caller is the metaclass's
        ``__new__``, not the class statement: no edge is claimed then."""
        simple = self._set_name_classes
        program = self.program
        scope = program.class_scope(cls)
        if not simple or scope is None or not self._built_by_type(cls):
            return []
        key = program.def_scope[cls]
        scopes = program.summaries[key[0]].scopes
        targets: list[ResolvedTarget] = []
        for name, written in scope.bindings.items():
            if not any(_may_make(binding, simple, scopes) for binding in written):
                continue
            final = program.bindings(key, name)
            for binding, where in final:
                made = self.evaluator.binding(binding, where)
                unique = len(final) == 1 and made.is_exact()
                targets.extend(self._protocol(made if unique else inexact(made), ("__set_name__",)))
        return targets

    def _built_by_type(self, cls: str) -> bool:
        """Whether ``type`` itself builds class ``cls``: no class on its MRO names a metaclass, and every base
        from outside the repository is a builtin (whose metaclass is ``type``, or written in C)."""
        program = self.program
        for klass in program.mro(cls):
            scope = program.class_scope(klass)
            if scope is not None and scope.metaclass is not None:
                return False
        return all(_builtin_class(base) is not None for base in program.external_ancestors(cls))

    _set_name_cache: frozenset[str] | None = None

    @property
    def _set_name_classes(self) -> frozenset[str]:
        """Simple names of the repository classes whose instances have a ``__set_name__`` (a class body
        value made by calling one, or a method decorated with one, may be such an instance)."""
        if self._set_name_cache is None:
            program = self.program
            definers = program.class_scopes.keys() & (program._definers.get("__set_name__") or set())
            classes = set(definers) | {sub for cls in definers for sub in program.subclasses(cls)}
            self._set_name_cache = frozenset(cls.rpartition(".")[2] for cls in classes)
        return self._set_name_cache

    def _made_by_metaclass(self, meta: str) -> list[ResolvedTarget]:
        """``super().__call__(...)`` in a method of the metaclass ``meta`` is ``type.__call__``: it builds an
        instance of the class called, one of those whose metaclass is ``meta`` or derives from it, running
        that class's ``__new__``/``__init__`` (possible: which class is not known here)."""
        made = self._classes_by_metaclass.get(meta, ())
        return [
            ResolvedTarget(callee, Certainty.POSSIBLE, offset)
            for cls in made
            for callee, offset in self._construction(cls)
            if callee != cls
        ]

    _metaclass_table: dict[str, list[str]] | None = None

    @property
    def _classes_by_metaclass(self) -> dict[str, list[str]]:
        """The repository's classes by each repository metaclass on their metaclass's MRO."""
        if self._metaclass_table is None:
            table: dict[str, list[str]] = defaultdict(list)
            program = self.program
            for cls in sorted(program.class_scopes):
                meta = self._metaclass_of(cls)
                for klass in program.mro(meta) if meta is not None else ():
                    table[klass].append(cls)
            self._metaclass_table = dict(table)
        return self._metaclass_table

    def _metaclass_of(self, cls: str) -> str | None:
        """The repository metaclass ``cls`` gets from its own ``metaclass=`` or its bases', if any."""
        metaclasses = self.evaluator.metaclasses(cls)
        return metaclasses[0] if metaclasses else None

    def _metaclass_methods(self, cls: str, names: tuple[str, ...]) -> list[str]:
        meta = self._metaclass_of(cls)
        if meta is None:
            return []
        return [f"{owner}.{name}" for name in names for owner in self._defining_class(meta, name)]

    def _property_access(self, site: ResolvedSite, *, setter: bool = False) -> list[ResolvedTarget]:
        """``obj.p`` runs the getter of property ``p``; ``obj.p = v`` runs its setter.

        A read of a property's name on a receiver the index cannot name may run that property: unresolved.
        """
        ref = site.record.func
        if ref[0] == "from":
            return self._module_fallback(ref[1], ref[2], unique=True)
        if ref[0] != "a":
            return []
        named = ref[2] in (self.setter_names if setter else self.property_names)
        hooked = setter and self._class_defines("__setattr__")
        computed = self._computed_member_access(site)
        if not named and not hooked:
            if setter:
                return computed
            return [*self._attribute_fallbacks(ref, site), *computed, *self._decorated_member_read(site)]
        receiver = self.evaluator.evaluate(ref[1], site.key)
        targets = self._property_targets(receiver, ref[2], setter=setter) if named else []
        if hooked:  # ``obj.x = v`` calls ``type(obj).__setattr__``
            targets.extend(self._protocol(receiver, ("__setattr__",)))
        if named and not receiver.complete:
            targets.append(ResolvedTarget(site.record.text, Certainty.UNRESOLVED))
        if computed:  # the property found may have been replaced under a computed name
            for target in targets:
                if target.certainty is Certainty.CERTAIN:
                    target.certainty = Certainty.POSSIBLE
            targets.extend(computed)
        return _deduplicate(targets)

    def _deletion(self, site: ResolvedSite) -> list[ResolvedTarget]:
        """``del obj.attr``: see :meth:`_deleting`."""
        ref = site.record.func
        if ref[0] != "a":
            return []
        if not self._deletion_runs_code(ref[2], hooked=True):
            return []
        receiver = self.evaluator.evaluate(ref[1], site.key)
        return self._deleting(receiver, ref[2], hooked=True, text=site.record.text)

    def _deletion_runs_code(self, attr: str, *, hooked: bool) -> bool:
        """Whether deleting ``attr`` may run repository code: a deleter, a descriptor's ``__delete__``, or
        (``hooked``: through ``type(obj).__delattr__``) a class's ``__delattr__``."""
        index = self._property_index
        return (
            attr in index.deleter_names
            or attr in index.names
            or (hooked and self._class_defines("__delattr__"))
        )

    def _deleting(self, receiver: Vals, attr: str, *, hooked: bool, text: str) -> list[ResolvedTarget]:
        """What deleting ``attr`` of ``receiver`` runs: ``type(obj).__delattr__`` when ``hooked`` (``del
        obj.attr``, ``delattr``), and what ``object``'s runs (also ``object.__delattr__(obj, ...)``,
        ``super().__delattr__``): the deleter of property ``attr``, or the ``__delete__`` of the descriptor
        the class attribute ``attr`` holds."""
        deleter = attr in self._property_index.deleter_names
        descriptor = attr in self._property_index.names
        hook = hooked and self._class_defines("__delattr__")
        targets = self._protocol(receiver, ("__delattr__",)) if hook else []
        unique = receiver.is_exact()
        for value in ordered(receiver.values):
            if value[0] != "I":
                continue
            through = self._object_hook_runs(value, "__delattr__") if hooked else Certainty.CERTAIN
            if through is None:
                continue  # a hook written in Python runs, and any deleter runs from there
            sure = unique and through is Certainty.CERTAIN
            if deleter:
                targets.extend(self._deleters(value[1], attr, exact=value[2], unique=sure))
            if descriptor:
                targets.extend(self._descriptor_methods(value, attr, sure, "__delete__"))
        if (deleter or descriptor) and not receiver.complete:
            targets.append(ResolvedTarget(text, Certainty.UNRESOLVED))
        return _deduplicate(targets)

    def _object_hook_runs(self, instance: Value, hook: str) -> Certainty | None:
        """Whether ``type(obj).<hook>`` (``__setattr__``, ``__delattr__``) is ``object``'s for ``instance``:
        only ``object``'s runs a property's setter (deleter) or a descriptor's ``__set__`` (``__delete__``)
        from the frame that assigns (deletes); a hook written in Python runs them, if at all, from its own.
        CERTAIN: ``object``'s; POSSIBLE: ``object``'s or another (a subclass's, an external base's, one
        assigned from outside); None: never ``object``'s."""
        found = self.evaluator.instance_member(instance[1], hook, exact=instance[2])
        default = ("X", f"builtins.object.{hook}")
        if default not in found.values:
            hooks_only = found.complete and bool(found.values) and all(v[0] == "F" for v in found.values)
            return None if hooks_only else Certainty.POSSIBLE
        only = found.complete and len(found.values) == 1 and hook not in self.program.attrs_stored_on_unknown
        return Certainty.CERTAIN if only else Certainty.POSSIBLE

    def _deleters(self, cls: str, attr: str, *, exact: bool, unique: bool) -> list[ResolvedTarget]:
        """The deleters of property ``attr`` that instances of ``cls`` (or of its subclasses) may run."""
        program = self.program
        found: set[str] = set()
        classes = [cls] if exact else [cls, *sorted(program.subclasses(cls))]
        for klass in classes:
            for _owner, bindings in program.class_member(klass, attr):
                for binding, where in bindings:
                    if binding.kind != "def" or not isinstance(binding.b, int):
                        continue
                    texts = program.summaries[where[0]].scopes[binding.b].decorator_texts
                    if any(text.endswith(".deleter") for text in texts):
                        found.update(self._wrapped_accessor(binding, where))
        unknown = [ResolvedTarget(attr, Certainty.UNRESOLVED)] if UNKNOWN_ACCESSOR in found else []
        found.discard(UNKNOWN_ACCESSOR)
        certain = not unknown and unique and len(found) == 1
        certain = certain and (exact or not program.open_dispatch(cls, attr))
        certainty = Certainty.CERTAIN if certain else Certainty.POSSIBLE
        return [*unknown, *(ResolvedTarget(deleter, certainty, 1) for deleter in sorted(found))]

    def _property_targets(
        self, receiver: Vals, attr: str, *, setter: bool = False, hooked: bool = True
    ) -> list[ResolvedTarget]:
        """The getters (``setter``: setters) of property ``attr`` and the ``__get__`` (``__set__``) of the
        descriptor it names that reading (assigning) ``attr`` on ``receiver`` runs. ``hooked``: the
        assignment goes through ``type(obj).__setattr__`` (``obj.attr = v``, ``setattr``), not straight to
        ``object``'s (``object.__setattr__(obj, ...)``, ``super().__setattr__``)."""
        targets: list[ResolvedTarget] = []
        unique = receiver.is_exact()
        for value in ordered(receiver.values):
            if value[0] == "I" and setter and hooked:
                through = self._object_hook_runs(value, "__setattr__")
                if through is None:
                    continue  # a hook written in Python runs, and any setter runs from there
                if through is not Certainty.CERTAIN:
                    unique = False
            if value[0] in ("I", "C") and not setter:
                targets.extend(self._descriptor_getters(value, attr, unique))
            if value[0] == "C" and self.program.metaclass_defined:
                targets.extend(self._metaclass_properties(value[1], attr, setter=setter))
            if value[0] == "I" and setter:
                targets.extend(self._descriptor_setters(value, attr, unique))
            if value[0] == "S" and not setter:  # ``super().p`` (a proxy sets no attribute through a property)
                getters = self._super_getters(value[1], attr)
                certain = unique and len(getters) == 1 and getters[0] != UNKNOWN_ACCESSOR
                certain = certain and not self._caches(getters[0])
                if UNKNOWN_ACCESSOR in getters:
                    getters.remove(UNKNOWN_ACCESSOR)
                    targets.append(ResolvedTarget(attr, Certainty.UNRESOLVED))
                targets.extend(
                    ResolvedTarget(g, Certainty.CERTAIN if certain else Certainty.POSSIBLE, 1)
                    for g in getters
                )
            if value[0] != "I":
                continue
            found = self._property_functions(value[1], attr, exact=value[2], setter=setter)
            if UNKNOWN_ACCESSOR in found:
                found = [g for g in found if g != UNKNOWN_ACCESSOR]
                targets.append(ResolvedTarget(attr, Certainty.UNRESOLVED))
                unique = False
            if NO_ACCESSOR in found:
                found = [g for g in found if g != NO_ACCESSOR]
                unique = False
            certain = unique and len(found) == 1 and not self._caches(found[0])
            targets.extend(
                ResolvedTarget(g, Certainty.CERTAIN if certain else Certainty.POSSIBLE, 1) for g in found
            )
        return _deduplicate(targets)

    def _metaclass_properties(self, cls: str, attr: str, *, setter: bool) -> list[ResolvedTarget]:
        """``C.p`` runs the getter of property ``p`` of ``C``'s metaclass, which wins over ``C``'s own
        ``p`` (possible: a subclass of ``C`` may have another metaclass)."""
        meta = self._metaclass_of(cls)
        if meta is None:
            return []
        found = self._property_functions(meta, attr, exact=False, setter=setter)
        return [
            ResolvedTarget(function, Certainty.POSSIBLE, 1)
            for function in found
            if function not in (UNKNOWN_ACCESSOR, NO_ACCESSOR)
        ]

    def _super_getters(self, cls: str, attr: str) -> list[str]:
        """The getters of property ``attr`` that ``super().attr`` in a method of ``cls`` may run: found after
        ``cls`` on the MRO of each class ``self`` may be an instance of."""
        program = self.program
        found: set[str] = set()
        for klass in program.dispatch_classes(cls, attr):
            mro = program.mro(klass)
            for later in mro[mro.index(cls) + 1 :] if cls in mro else ():
                if program.class_scope(later) is None:
                    continue
                bindings = program.bindings(program.def_scope[later], attr)
                if bindings:
                    found.update(self._property_functions(later, attr, exact=True, setter=False))
                    break
        return sorted(found)

    def _descriptor_getters(self, receiver: Value, attr: str, unique: bool) -> list[ResolvedTarget]:
        """``obj.attr`` (or ``Cls.attr``) where the class attribute ``attr`` is a descriptor runs its
        ``__get__``. Read through an instance, one that defines neither ``__set__`` nor ``__delete__`` gives
        way to the instance's own attribute (``functools.cached_property`` stores one): possible then."""
        return self._descriptor_methods(receiver, attr, unique, "__get__")

    def _descriptor_setters(self, receiver: Value, attr: str, unique: bool) -> list[ResolvedTarget]:
        """``obj.attr = v`` where the class attribute ``attr`` is a descriptor defining ``__set__`` runs it
        (a data descriptor wins over the instance's own attribute)."""
        return self._descriptor_methods(receiver, attr, unique, "__set__")

    def _descriptor_methods(
        self, receiver: Value, attr: str, unique: bool, method: str
    ) -> list[ResolvedTarget]:
        """The ``method`` (``__get__``, ``__set__``) of the descriptors class attribute ``attr`` may hold for
        ``receiver``; certain when there is one, exactly known."""
        program, evaluator = self.program, self.evaluator
        classes = [receiver[1]] if receiver[2] else [receiver[1], *sorted(program.subclasses(receiver[1]))]
        targets: list[ResolvedTarget] = []
        certain = unique
        for klass in classes:
            for _owner, bindings in program.class_member(klass, attr):
                for binding, where in bindings:
                    stored = evaluator.binding(binding, where)
                    certain = certain and stored.is_exact() and len(bindings) == 1
                    for value in ordered(stored.values):
                        if value == MADE_PROPERTY_VALUE:  # its accessor: the index does not follow it
                            targets.append(ResolvedTarget(attr, Certainty.UNRESOLVED))
                        if value[0] != "I":
                            certain = False  # no descriptor of the repository there: a plain read
                            continue
                        found = evaluator.instance_member(value[1], method, exact=value[2])
                        functions = [f[1] for f in ordered(found.values) if f[0] == "F"]
                        certain = certain and bool(functions)
                        certain = certain and found.is_exact() and len(functions) == 1
                        shadowed = method == "__get__" and receiver[0] == "I"
                        if functions and shadowed and not self._data_descriptor(value[1], value[2]):
                            certain = False
                        targets.extend(ResolvedTarget(f, Certainty.POSSIBLE, 1) for f in functions)
        if certain and len(targets) == 1 and targets[0].certainty is Certainty.POSSIBLE:
            targets[0].certainty = Certainty.CERTAIN
        return targets

    def _memoised(self, function: str) -> bool:
        """Whether ``function`` is under ``functools.lru_cache`` or ``functools.cache``: calling it runs it
        only when the cache lacks the arguments."""
        key = self.program.def_scope.get(function)
        texts = self.program.scope(key).decorator_texts if key is not None else ()
        return any(text.rpartition(".")[2].partition("(")[0] in MEMOISING_DECORATORS for text in texts)

    def _caches(self, getter: str) -> bool:
        """Whether ``getter`` is a ``cached_property``'s: it runs on the first read only."""
        key = self.program.def_scope.get(getter)
        texts = self.program.scope(key).decorator_texts if key is not None else ()
        return any(text.rpartition(".")[2] == "cached_property" for text in texts)

    def _data_descriptor(self, cls: str, exact: bool) -> bool:
        """Whether every class an instance of ``cls`` may be defines ``__set__`` or ``__delete__``."""
        member = self.evaluator.instance_member
        return any(
            vals.is_exact() and next(iter(vals.values))[0] == "F"
            for vals in (member(cls, "__set__", exact=exact), member(cls, "__delete__", exact=exact))
        )

    def _property_functions(self, cls: str, attr: str, *, exact: bool, setter: bool) -> list[str]:
        """The getters (setters) of property ``attr`` that instances of ``cls`` may run (kept: they only read
        class bodies, and every read of a property's name on ``self`` asks again across the subclasses)."""
        memo_key = (cls, attr, exact, setter)
        found = self._properties_memo.get(memo_key)
        if found is None:
            found = self._properties_memo[memo_key] = self._find_property_functions(cls, attr, exact, setter)
        return found

    def _find_property_functions(self, cls: str, attr: str, exact: bool, setter: bool) -> list[str]:
        index = self._property_index
        wanted = index.setters if setter else index.getters
        found: set[str] = set()
        shadowed = False
        classes = [cls] if exact else [cls, *self.program.subclasses(cls)]
        for klass in classes:
            for owner, bindings in self.program.class_member(klass, attr):
                accessors: set[str] = set()
                for binding, where in bindings:
                    if binding.kind == "def" and binding.a in wanted:
                        accessors.update(self._wrapped_accessor(binding, where))
                accessor = index.assigned.get((owner, attr), (None, None))[1 if setter else 0]
                if accessor is not None:
                    accessors.update(self._accessors(owner, accessor))
                shadowed = shadowed or not accessors
                found.update(accessors)
        if shadowed and found:
            found.add(NO_ACCESSOR)
        return sorted(found)

    def _wrapped_accessor(self, binding: Binding, where: ScopeKey) -> list[str]:
        """The function a ``@property`` (``@p.setter``) ``def`` gives the property: the ``def`` itself, or
        what the decorators below ``@property`` made of it (:data:`UNKNOWN_ACCESSOR` among them when that
        may be something else)."""
        scope = self.program.summaries[where[0]].scopes[binding.b]
        texts = scope.decorator_texts
        marks = [i for i, text in enumerate(texts) if text.rpartition(".")[2] in PROPERTY_MAKERS]
        below = scope.decorators[marks[0] + 1 :] if marks else ()
        if not below:
            return [binding.a]
        made = single(("F", binding.a, False))
        for decorator in reversed(below):
            made = self.evaluator.decorate(decorator, made, where)
        functions = [value[1] for value in ordered(made.values) if value[0] == "F"]
        if not made.is_exact() or len(functions) != len(made.values):
            functions.append(UNKNOWN_ACCESSOR)
        return functions

    def _accessors(self, owner: str, accessor: Ref) -> list[str]:
        """The functions ``accessor`` (an argument of ``property(...)`` in the body of class ``owner``) may
        be; :data:`UNKNOWN_ACCESSOR` among them when it may be something else."""
        key = self.program.def_scope.get(owner)
        if key is None:
            return [UNKNOWN_ACCESSOR]
        found = self.evaluator.evaluate(accessor, key)
        functions = [value[1] for value in ordered(found.values) if value[0] == "F"]
        if not found.complete or len(functions) != len(found.values):
            functions.append(UNKNOWN_ACCESSOR)
        return functions

    @property
    def property_names(self) -> frozenset[str]:
        return self._property_index.names

    @property
    def setter_names(self) -> frozenset[str]:
        return self._property_index.setter_names

    _property_cache: _Properties | None = None

    @property
    def _property_index(self) -> _Properties:
        if self._property_cache is None:
            getters: set[str] = set()
            setters: set[str] = set()
            deleters: set[str] = set()
            assigned: dict[tuple[str, str], tuple[Ref | None, Ref | None]] = {}
            for summary in self.program.summaries.values():
                for scope in summary.scopes:
                    if scope.kind == "class":
                        assigned.update(_assigned_properties(scope))
                    if scope.method_kind != "property":
                        continue
                    if any(t.endswith(".setter") for t in scope.decorator_texts):
                        setters.add(scope.owner)
                    elif any(t.endswith(".deleter") for t in scope.decorator_texts):
                        deleters.add(scope.owner)
                    else:
                        getters.add(scope.owner)
            self._property_cache = _Properties(
                frozenset(g.rpartition(".")[2] for g in getters)
                | {attr for (_, attr), (getter, _) in assigned.items() if getter is not None}
                | self._descriptor_names(),
                frozenset(getters),
                frozenset(g.rpartition(".")[2] for g in setters)
                | {attr for (_, attr), (_, setter) in assigned.items() if setter is not None}
                | self._descriptor_names(),
                frozenset(setters),
                assigned,
                frozenset(d.rpartition(".")[2] for d in deleters),
            )
        return self._property_cache

    def _descriptor_names(self) -> frozenset[str]:
        """Names of class attributes that may hold a descriptor of the repository (a class whose MRO defines
        ``__get__``): made by calling such a class, or a method decorated with one, by its name as written.
        Found from the summaries and the class hierarchy alone, so that both halves read the same sites."""
        program = self.program
        definers = program.class_scopes.keys() & (program._definers.get("__get__") or set())
        descriptors = set(definers) | {sub for cls in definers for sub in program.subclasses(cls)}
        simple = {cls.rpartition(".")[2] for cls in descriptors}
        simple |= _descriptor_factories(program, simple | PROPERTY_BUILDERS)
        if not simple:
            return frozenset()
        names: set[str] = set()
        for summary in program.summaries.values():
            for scope in summary.scopes:
                if scope.kind == "class":
                    for name, bindings in scope.bindings.items():
                        if any(b.kind == "val" and _called_name(b.a) in simple for b in bindings):
                            names.add(name)
                elif scope.method_of is not None and (
                    any(text.rpartition(".")[2].partition("(")[0] in simple for text in scope.decorator_texts)
                    or _wraps_a_property(scope)
                ):
                    names.add(scope.owner.rpartition(".")[2])
        return frozenset(names)


def property_factories(program: Program) -> frozenset[str]:
    """The last names of ``property``, ``cached_property`` and the repository's functions that return what
    they make (``return property(getter)``)."""
    return frozenset(PROPERTY_BUILDERS | _descriptor_factories(program, set(PROPERTY_BUILDERS)))


def _descriptor_factories(program: Program, classes: set[str]) -> set[str]:
    """The last names of the functions that return an instance of one of ``classes`` (``return
    Cached(func)``, ``return property(accessor)``), or return such a function they define (a decorator
    factory): decorating a method with one makes it a descriptor."""
    makers: set[str] = set()
    for summary in program.summaries.values():
        for scope in summary.scopes:
            if scope.kind == "function" and any(_called_name(ref) in classes for ref in scope.returns):
                makers.add(scope.owner)
    factories = set(makers)
    for maker in makers:
        key = program.def_scope.get(maker)
        parent = program.parent(key) if key is not None else None
        if parent is not None and program.scope(parent).kind == "function":
            enclosing = program.scope(parent)
            if ("n", maker.rpartition(".")[2]) in enclosing.returns:
                factories.add(enclosing.owner)
    return {function.rpartition(".")[2] for function in factories}


def _wraps_a_property(scope: Scope) -> bool:
    """A property under a decorator that may return anything (``@wrap(ctx) @property``): the name holds
    what that returns, perhaps a descriptor (the collector does not call the method a property)."""
    return scope.method_kind != "property" and any(
        text.rpartition(".")[2] in ("property", "cached_property") for text in scope.decorator_texts
    )


def _calls_back(site: ResolvedSite) -> bool:
    """Whether ``site`` calls a builtin that calls its arguments' special methods back (``abs(x)``): what a
    parameter it passes holds may add targets."""
    return site.record.kind == "call" and any(t.callee in CALLS_BACK for t in site.targets)


def _may_make(binding: Binding, simple: frozenset[str], scopes: list[Scope]) -> bool:
    """Whether a class body's ``binding`` may hold an instance of a class named in ``simple``: a call of
    one, or a ``def`` decorated with one."""
    if binding.kind == "val":
        return _called_name(binding.a) in simple
    if binding.kind != "def" or not isinstance(binding.b, int):
        return False
    texts = scopes[binding.b].decorator_texts
    return any(text.rpartition(".")[2].partition("(")[0] in simple for text in texts)


def _stores_computed(record: CallRecord) -> bool:
    """Whether ``record`` may store attributes under names not written in the code: ``setattr`` with a
    computed name; ``obj.__dict__`` (or ``vars(obj)``) written by a method or by subscript."""
    func = record.func
    if func[0] == "n" and func[1] == "setattr":
        return len(record.args) < 2 or record.args[1][0] != "s"
    if func[0] != "a":
        return False
    if record.kind == "op:__setitem__":
        return _names_instance_dict(func)
    return record.kind == "call" and _names_instance_dict(func[1])


def _names_instance_dict(ref: Ref) -> bool:
    """``obj.__dict__`` or ``vars(obj)``."""
    if ref[0] == "a":
        return bool(ref[2] == "__dict__")
    return bool(ref[0] == "c" and ref[1] == ("n", "vars"))


def _builtin_class(path: str) -> type | None:
    """The class of the running Python that an external base ``builtins.NAME`` names."""
    prefix, _, name = path.partition(".")
    found = getattr(builtins, name, None) if prefix == "builtins" and "." not in name else None
    return found if isinstance(found, type) else None


def _called_name(ref: Ref) -> str | None:
    """The last name of what ``ref`` calls (``Bound`` for ``pkg.Bound(...)``), if it is a call."""
    if ref[0] != "c":
        return None
    func = ref[1]
    return func[1] if func[0] == "n" else func[2] if func[0] == "a" else None


_RANK = {Certainty.CERTAIN: 0, Certainty.POSSIBLE: 1, Certainty.UNRESOLVED: 2}
_CERTAINTY_VALUES = {certainty: certainty.value for certainty in Certainty}


#: The refs of ``super()`` and ``super(C, obj)``.
SUPER_REFS = frozenset({"super", "superof"})
#: Operations that look their key up in a set or dict (``k in d``; ``d[k]`` has a record of its own).
KEYED_OPERATIONS = frozenset({"op:__contains__"})
#: Builtin containers that hash their keys.
HASHING_CONTAINERS = frozenset(
    {
        "builtins.dict",
        "builtins.set",
        "builtins.frozenset",
        "collections.OrderedDict",
        "collections.defaultdict",
    }
)
#: Their methods that hash their first argument (and compare it with what hashes alike).
HASHING_METHODS = frozenset(
    f"builtins.{kind}.{method}"
    for kind, methods in (
        ("dict", ("get", "pop", "setdefault", "__getitem__", "__contains__")),
        ("set", ("add", "discard", "remove", "__contains__")),
        ("frozenset", ("__contains__",)),
    )
    for method in methods
)


def _possibly(targets: list[ResolvedTarget]) -> list[ResolvedTarget]:
    """``targets``, each made possible (a call that depends on the data)."""
    for target in targets:
        target.certainty = Certainty.POSSIBLE
    return targets


def _is_item_container(values: Vals) -> bool:
    """Whether ``values`` may be a builtin container whose items the index holds."""
    return any(value[0] == "Q" and value[2] in ITEM_CONTAINERS for value in values.values)


def percent_conversions(template: str) -> list[str] | None:
    """The type letters of the conversions of a ``%``-format, in order; None when a conversion takes its
    argument from a mapping or its width from the arguments (they no longer pair off)."""
    letters: list[str] = []
    for match in PERCENT_CONVERSION.finditer(template):
        key, width, precision, letter = match.groups()
        if letter == "%" and not (key or width or precision):
            continue
        if key is not None or width == "*" or precision == "*":
            return None
        letters.append(letter)
    return letters


def _is_sequence(container: Vals) -> bool:
    """Whether ``container`` may be a list or tuple (``in`` compares with its items)."""
    return any(
        (value[0] == "Q" and value[2] in ("list", "tuple")) or (value[0] == "XI" and value[1] in SEQUENCES)
        for value in container.values
    )


SEQUENCES = frozenset({"builtins.list", "builtins.tuple", "collections.deque"})
#: Methods of sequences that compare their argument with the items, as ``in`` does.
SEARCHING_METHODS = frozenset(
    {
        "builtins.list.index",
        "builtins.list.count",
        "builtins.list.remove",
        "builtins.tuple.index",
        "builtins.tuple.count",
    }
)


def _hashes_keys(container: Vals) -> bool | None:
    """Whether ``container`` is surely a set or dict (True), may be one (False), or is none (None)."""
    hashing = [
        (value[0] == "Q" and value[2] in ("dict", "set"))
        or (value[0] == "XI" and value[1] in HASHING_CONTAINERS)
        for value in container.values
    ]
    if not any(hashing):
        return None
    return all(hashing) and container.complete


def _deduplicate(targets: list[ResolvedTarget]) -> list[ResolvedTarget]:
    if len(targets) < 2:
        return targets
    best: dict[str, ResolvedTarget] = {}
    for target in targets:
        known = best.get(target.callee)
        if known is None or _RANK[target.certainty] < _RANK[known.certainty]:
            best[target.callee] = target
    return list(best.values())


def _incoming(sites: Iterable[ResolvedSite]) -> dict[str, list[tuple[ResolvedSite, ResolvedTarget]]]:
    """Every target of ``sites`` but the unresolved ones, by callee, with its site."""
    incoming: dict[str, list[tuple[ResolvedSite, ResolvedTarget]]] = defaultdict(list)
    unresolved = Certainty.UNRESOLVED
    for site in sites:
        for target in site.targets:
            if target.certainty is not unresolved:
                incoming[target.callee].append((site, target))
    return incoming


def site_row(site: ResolvedSite, caller: str, file: str) -> SiteRow:
    """A resolved site as the index stores it (see :data:`~dure.analyzers.model.SiteRow`): call site objects
    are only built for the queries that ask for them."""
    record = site.record
    return (
        caller,
        file,
        record.line,
        record.column,
        record.text,
        tuple([(t.callee, _CERTAINTY_VALUES[t.certainty]) for t in site.targets]),
        record.kind not in ("call", "deco"),
    )


def _bases_given(bases: Vals) -> list[str] | None:
    """The repository classes a tuple of bases holds, or None when the index cannot name them all."""
    if not bases.complete or len(bases.values) != 1:
        return None
    (value,) = bases.values
    if value[0] != "Q" or not value[1].complete:
        return None
    found = [item[1] for item in ordered(value[1].values)]
    return found if all(item[0] == "C" for item in value[1].values) else None

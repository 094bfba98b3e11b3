"""Per-file facts, before anything is resolved across files.

A :class:`ModuleSummary` depends on one file's content only, so it is what the index cache stores per content
hash. Values are described by small tuples (*refs*) that the resolver evaluates later, once every module is
known:

================================  ==========================================================
``("n", name)``                   a name, looked up in the scope of the record that holds it
``("n", name, count, scope)``     a name read in the body of function ``scope`` where its first ``count``
                                  bindings there have run (see :meth:`Evaluator.name_as_bound`)
``("n", name, -k, scope)``        the same, when exactly the ``k``-th binding reaches it (the name of an
                                  ``except`` clause, read in its handler)
``("a", base, attr)``             an attribute of another ref
``("c", func, args)``             the value returned by calling ``func`` (first positional args kept)
``("d", qualname)``               the object a ``def``/``class``/``lambda`` creates, before decoration
``("super", cls, self)``          ``super()`` inside a method of ``cls`` whose first parameter is ``self``
``("superof", cls)``              ``super(cls, obj)``, ``cls`` a ref
``("s", text)``                   a string literal
``("sp", prefix)``                a string built at run time that starts with ``prefix``
``("k", type)``                   an instance of a builtin type (``"str"``, ``"int"``, ``"list"``, ...)
``("q", type, items)``            a literal container and the refs of its items (dict values)
``("i", base, key)``              an item of a container (``key`` the constant subscript, :data:`OWN_NAME`
                                  for ``__name__``, or None)
``("or", refs)``                  one of several values (``a or b``, ``x if c else y``)
``("aw", ref)``                   what ``await`` gives for the value of ``ref``
``("op", left, dunder, right)``   what a binary operator gives (``a + b``: ``"__add__"``)
``("it", ref)``                   an item of what ``ref`` gives, when iterated (``yield from ref``)
``("u",)``                        unknown
``("u", "*")``                    a starred argument (``f(*xs)``): unknown, and so is every position after it
================================  ==========================================================
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, NamedTuple

from dure.analyzers.model import (
    Definition,
    DefinitionKind,
    Diagnostic,
    Import,
    ImportCondition,
    Parameter,
    ParameterKind,
)

Ref = tuple[Any, ...]
UNKNOWN: Ref = ("u",)
STARRED: Ref = ("u", "*")
#: The key of ``("i", base, key)`` for ``base[__name__]`` (no module name has angle brackets).
OWN_NAME = "<__name__>"


class Binding(NamedTuple):
    """One way a name gets a value in a scope.

    ``kind`` is one of ``def``, ``class`` (a = qualname), ``import`` (a = dotted module path), ``from``
    (a = absolute module path, b = name), ``val`` (a = ref), ``param`` (a = index), ``iter`` (a = ref of the
    iterable), ``enter`` (a = ref of the context manager), ``exc`` (a = ref of the exception class),
    ``ann`` (a = ref of the annotation, no value), ``aug`` (a = in-place dunder, b = the name: ``x += y``),
    ``iterpart`` (a = ref of the iterable, b = position in the unpacked target: ``for i, x in ...``),
    ``valin`` (a = ref evaluated in scope b: assignments from elsewhere) and ``unknown`` (a = reason).
    """

    kind: str
    a: Any = None
    b: Any = None
    type_only: bool = False  # under ``if TYPE_CHECKING:``: never bound at run time
    guarded: bool = False  # under if/for/while/try/with/match, or made from another scope (``global``)
    line: int = 0


class ParamInfo(NamedTuple):
    name: str
    kind: str  # a ParameterKind value
    annotation: Ref | None
    default: Ref | None


class CallRecord(NamedTuple):
    """A call site, explicit or implicit, as written."""

    scope: int
    line: int
    column: int
    kind: str  # call, deco, iter, aiter, with, awith, op:<dunder>, attr
    func: Ref  # the called ref (for protocols: the receiver)
    args: tuple[Ref, ...]
    keywords: tuple[tuple[str | None, Ref], ...]
    text: str
    end: tuple[int, int] = (0, 0)  # (line, byte column) where the called name ends, for jedi


class ContainerAdd(NamedTuple):
    """``box.append(v)``, ``box[k] = v``, ``box.add(v)``...: ``v`` becomes one of the container's items."""

    scope: int
    container: Ref
    value: Ref


class ValueUse(NamedTuple):
    """A function or class used as a value (passed, stored, returned): it may be called from elsewhere."""

    scope: int
    ref: Ref
    line: int


class AttributeStore(NamedTuple):
    """``base.attr = value`` where base is not the method's own ``self``: a possible monkeypatch."""

    scope: int
    base: Ref
    attr: str
    value: Ref
    line: int


@dataclass(slots=True)
class Scope:
    """A namespace: module, class body, function, lambda or comprehension."""

    id: int
    kind: str  # module, class, function, lambda, comprehension
    owner: str  # the qualified name that calls made here are attributed to
    parent: int | None
    bindings: dict[str, list[Binding]] = field(default_factory=dict)
    global_names: set[str] = field(default_factory=set)
    nonlocal_names: set[str] = field(default_factory=set)
    #: names whose bindings may run in another order than they are written: bound by ``:=`` (inside an
    #: expression) or from a nested function (``nonlocal``); their flow-ordered reads see every binding
    unordered: frozenset[str] = frozenset()
    # functions and lambdas
    params: tuple[ParamInfo, ...] = ()
    method_of: str | None = None  # qualname of the class for a function defined in a class body
    method_kind: str | None = None  # instance, class, static, property
    returns: list[Ref] = field(default_factory=list)
    yields: list[Ref] = field(default_factory=list)  # of a generator: what it yields
    is_generator: bool = False
    is_async: bool = False
    ends_in_raise: bool = False  # the body's last statement raises: it never falls off its end
    returns_annotation: Ref | None = None
    decorators: tuple[Ref, ...] = ()
    decorator_texts: tuple[str, ...] = ()
    # classes
    bases: tuple[Ref, ...] = ()
    base_texts: tuple[str, ...] = ()
    metaclass: Ref | None = None
    instance_attrs: dict[str, list[tuple[Ref, int]]] = field(default_factory=dict)  # (value, scope id)
    #: names annotated in the class body (``ClassVar`` and ``InitVar`` aside): what a written ``__init__``
    #: (``@dataclass``) stores on each instance
    fields: set[str] = field(default_factory=set)

    def bind(self, name: str, binding: Binding) -> None:
        self.bindings.setdefault(name, []).append(binding)


@dataclass(slots=True)
class ModuleSummary:
    """Everything one file says, unresolved."""

    module: str
    relpath: str
    is_package: bool
    is_test: bool
    definitions: list[Definition] = field(default_factory=list)
    def_scopes: dict[str, int] = field(default_factory=dict)  # qualname -> scope id of its body
    scopes: list[Scope] = field(default_factory=list)
    imports: list[Import] = field(default_factory=list)
    calls: list[CallRecord] = field(default_factory=list)
    uses: list[ValueUse] = field(default_factory=list)
    attribute_stores: list[AttributeStore] = field(default_factory=list)
    container_adds: list[ContainerAdd] = field(default_factory=list)
    attribute_loads: list[tuple[int, int, int, Ref, str]] = field(
        default_factory=list
    )  # scope, line, col, base, attr
    strings: dict[str, int] = field(default_factory=dict)  # identifier-like string literal -> first line
    all_names: tuple[str, ...] | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def __reduce__(self) -> tuple[Any, tuple[tuple[Any, ...]]]:
        """Pickled as plain tuples: summaries cross the process pool and fill the cache, and pickling
        named tuples and slotted dataclasses one by one costs a Python call per record each way."""
        return _summary_from_rows, (_summary_rows(self),)


@dataclass(frozen=True, slots=True)
class FileResult:
    """What parsing one file gave: its summary, or the diagnostic that explains why there is none."""

    relpath: str
    summary: ModuleSummary | None
    diagnostic: Diagnostic | None
    lines: int

    def __reduce__(self) -> tuple[type[FileResult], tuple[str, ModuleSummary | None, Diagnostic | None, int]]:
        """By its fields: compiled, a frozen class cannot be unpickled attribute by attribute."""
        return FileResult, (self.relpath, self.summary, self.diagnostic, self.lines)


_SCOPE_FIELDS = tuple(f.name for f in fields(Scope))
_DEFINITION_FIELDS = tuple(f.name for f in fields(Definition))
_IMPORT_FIELDS = tuple(f.name for f in fields(Import))
_DEFINITION_KINDS = {kind.value: kind for kind in DefinitionKind}
_PARAMETER_KINDS = {kind.value: kind for kind in ParameterKind}
_IMPORT_CONDITIONS = {condition.value: condition for condition in ImportCondition}
_BINDINGS, _PARAMS = _SCOPE_FIELDS.index("bindings"), _SCOPE_FIELDS.index("params")
_KIND, _PARAMETERS = _DEFINITION_FIELDS.index("kind"), _DEFINITION_FIELDS.index("parameters")
_CONDITION = _IMPORT_FIELDS.index("condition")


def _summary_rows(summary: ModuleSummary) -> tuple[Any, ...]:
    return (
        summary.module,
        summary.relpath,
        summary.is_package,
        summary.is_test,
        [_definition_row(d) for d in summary.definitions],
        summary.def_scopes,
        [_scope_row(scope) for scope in summary.scopes],
        [_import_row(i) for i in summary.imports],
        [tuple(call) for call in summary.calls],
        [tuple(use) for use in summary.uses],
        [tuple(store) for store in summary.attribute_stores],
        [tuple(add) for add in summary.container_adds],
        summary.attribute_loads,
        summary.strings,
        summary.all_names,
        [(d.path, d.line, d.reason) for d in summary.diagnostics],
    )


def _summary_from_rows(rows: tuple[Any, ...]) -> ModuleSummary:
    (module, relpath, is_package, is_test, definitions, def_scopes, scopes, imports) = rows[:8]
    (calls, uses, stores, adds, loads, strings, all_names, diagnostics) = rows[8:]
    return ModuleSummary(
        module,
        relpath,
        is_package,
        is_test,
        [_definition_from_row(row) for row in definitions],
        def_scopes,
        [_scope_from_row(row) for row in scopes],
        [_import_from_row(row) for row in imports],
        [tuple.__new__(CallRecord, row) for row in calls],
        [tuple.__new__(ValueUse, row) for row in uses],
        [tuple.__new__(AttributeStore, row) for row in stores],
        [tuple.__new__(ContainerAdd, row) for row in adds],
        loads,
        strings,
        all_names,
        [Diagnostic(*row) for row in diagnostics],
    )


def _scope_row(scope: Scope) -> tuple[Any, ...]:
    row = [getattr(scope, name) for name in _SCOPE_FIELDS]
    row[_BINDINGS] = {name: [tuple(b) for b in bindings] for name, bindings in scope.bindings.items()}
    row[_PARAMS] = tuple(tuple(p) for p in scope.params)
    return tuple(row)


def _scope_from_row(row: tuple[Any, ...]) -> Scope:
    scope = Scope(*row)
    scope.bindings = {
        name: [tuple.__new__(Binding, b) for b in bindings] for name, bindings in scope.bindings.items()
    }
    scope.params = tuple(tuple.__new__(ParamInfo, p) for p in scope.params)
    return scope


def _definition_row(definition: Definition) -> tuple[Any, ...]:
    row = [getattr(definition, name) for name in _DEFINITION_FIELDS]
    row[_KIND] = definition.kind.value
    row[_PARAMETERS] = tuple(
        (p.name, p.kind.value, p.annotation, p.has_default) for p in definition.parameters
    )
    return tuple(row)


def _definition_from_row(row: tuple[Any, ...]) -> Definition:
    values = list(row)
    values[_KIND] = _DEFINITION_KINDS[values[_KIND]]
    values[_PARAMETERS] = tuple(Parameter(n, _PARAMETER_KINDS[k], a, d) for n, k, a, d in values[_PARAMETERS])
    return Definition(*values)


def _import_row(record: Import) -> tuple[Any, ...]:
    row = [getattr(record, name) for name in _IMPORT_FIELDS]
    row[_CONDITION] = record.condition.value
    return tuple(row)


def _import_from_row(row: tuple[Any, ...]) -> Import:
    values = list(row)
    values[_CONDITION] = _IMPORT_CONDITIONS[values[_CONDITION]]
    return Import(*values)

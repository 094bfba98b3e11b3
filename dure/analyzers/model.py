"""The facts an index holds: small, frozen, picklable records.

Everything here crosses module boundaries and reaches disk (the index cache, ``dure index --json``), so it is
plain data: qualified names are strings, locations are ``(file, line)`` pairs with files relative to the
indexed directory.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Certainty(StrEnum):
    """How sure the index is that a call site reaches a target."""

    CERTAIN = "certain"  # exactly this target
    POSSIBLE = "possible"  # one of several (dynamic dispatch, a function passed as a value, ...)
    UNRESOLVED = "unresolved"  # the index cannot say what is called; the callee names the expression


class DefinitionKind(StrEnum):
    MODULE = "module"
    CLASS = "class"
    FUNCTION = "function"
    METHOD = "method"
    LAMBDA = "lambda"


class ParameterKind(StrEnum):
    POSITIONAL_ONLY = "positional_only"
    POSITIONAL_OR_KEYWORD = "positional_or_keyword"
    VAR_POSITIONAL = "var_positional"
    KEYWORD_ONLY = "keyword_only"
    VAR_KEYWORD = "var_keyword"


class ImportCondition(StrEnum):
    """Under what condition an import statement runs."""

    ALWAYS = "always"
    TRY_EXCEPT = (
        "try_except"  # inside ``try:`` with an ``except ImportError``-like handler (or in the handler)
    )
    TYPE_CHECKING = "type_checking"  # under ``if TYPE_CHECKING:``: never runs
    CONDITIONAL = "conditional"  # under another ``if`` or inside a function body


class UncertaintyKind(StrEnum):
    """Dynamic features that can make a static answer wrong."""

    GETATTR = "getattr"  # getattr/hasattr/delattr with a computed name
    SETATTR = "setattr"  # setattr with a computed name
    EVAL = "eval"  # eval/exec/compile
    DYNAMIC_IMPORT = "dynamic_import"  # __import__/importlib.import_module with a computed name
    MONKEYPATCH = "monkeypatch"  # assignment to an attribute of a module or class from outside it
    STRING_NAME = "string_name"  # a string literal that spells the name of a definition
    UNKNOWN_DECORATOR = "unknown_decorator"  # a decorator the index cannot see through
    NAMESPACE = "namespace"  # globals()/locals()/vars()/__dict__ access


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A problem with one input file; the file (or the part at fault) is skipped, the run goes on."""

    path: str
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.reason}"


@dataclass(frozen=True, slots=True)
class Parameter:
    name: str
    kind: ParameterKind
    annotation: str | None  # as written in the source, None when absent
    has_default: bool


@dataclass(frozen=True, slots=True)
class Definition:
    """A module, class, function, method or lambda, named by its qualified name (``pkg.mod.Class.method``)."""

    qualname: str
    kind: DefinitionKind
    module: str
    file: str
    line: int
    end_line: int
    parent: str | None = None  # the enclosing definition (the module for top-level ones)
    decorators: tuple[str, ...] = ()  # as written, without the ``@``
    parameters: tuple[Parameter, ...] = ()
    returns: str | None = None  # return annotation as written
    docstring: str | None = None
    is_async: bool = False
    is_test: bool = False  # defined in a test file

    @property
    def name(self) -> str:
        return self.qualname.rpartition(".")[2]


@dataclass(frozen=True, slots=True)
class Import:
    """One name bound by an import statement, resolved to a repository definition or an external path."""

    module: str  # the importing module
    scope: str  # the definition whose namespace receives the name
    name: str  # the local name bound ("*" for a star import)
    target: str  # the absolute dotted path imported (relative imports made absolute)
    file: str
    line: int
    condition: ImportCondition = ImportCondition.ALWAYS
    is_star: bool = False
    level: int = 0  # number of leading dots as written
    resolved: str | None = None  # qualified name of the repository definition it reaches
    external: str | None = None  # dotted path outside the repository

    @property
    def is_external(self) -> bool:
        return self.resolved is None and self.external is not None


@dataclass(frozen=True, slots=True)
class ClassInfo:
    """A class's bases (as written and resolved) and its method resolution order inside the repository."""

    qualname: str
    bases: tuple[str, ...]  # as written
    resolved_bases: tuple[str, ...]  # repository classes, in order
    external_bases: tuple[str, ...]  # dotted paths of bases outside the repository
    unresolved_bases: tuple[str, ...]  # bases the index cannot name (written text)
    mro: tuple[str, ...]  # C3 linearisation of the repository part, starting with the class itself
    metaclass: str | None = None


@dataclass(frozen=True, slots=True)
class CallTarget:
    callee: (
        str  # qualified name, ``builtins.NAME``, an external dotted path, or the expression when unresolved
    )
    certainty: Certainty


@dataclass(frozen=True, slots=True)
class CallSite:
    """One call (explicit, or implicit through a protocol) at a place in the code."""

    caller: str  # qualified name of the innermost enclosing definition (the module for module-level code)
    file: str
    line: int
    column: int
    expression: (
        str  # the called expression as written (``self.run``), or ``for``/``with``/``+`` for protocols
    )
    targets: tuple[CallTarget, ...]
    implicit: bool = False  # a protocol call (iteration, ``with``, operators, ``__call__``, property access)


#: A call site as stored: ``(caller, file, line, column, expression, ((callee, certainty value), ...),
#: implicit)``, the fields of :class:`CallSite` with its targets as pairs.
SiteRow = tuple[str, str, int, int, str, tuple[tuple[str, str], ...], bool]


@dataclass(frozen=True, slots=True)
class CallEdge:
    caller: str
    callee: str
    certainty: Certainty
    file: str
    line: int


@dataclass(frozen=True, slots=True)
class Uncertainty:
    """A dynamic feature and what it could affect.

    ``affects`` holds selectors: ``def:QUALNAME`` (that definition), ``member:QUALNAME`` (any attribute of
    that class or module), ``subclasses:QUALNAME`` (attributes of its subclasses), ``prefix:QUALNAME:TEXT``
    (attributes of it starting with TEXT), ``name:NAME`` (any definition called NAME), ``attr:PREFIX`` (any
    attribute starting with PREFIX, on an unknown object), ``modules`` (any module) and ``*`` (anything).
    """

    kind: UncertaintyKind
    scope: str
    file: str
    line: int
    detail: str
    affects: tuple[str, ...] = field(default=("*",))

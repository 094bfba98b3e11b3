"""Type strings: parsed safely, resolved in a module's scope, and written in one canonical spelling.

A type string is parsed as a Python *expression* and accepted only when it is made of names, attributes,
subscripts, tuples and lists, ``|`` unions, ``None``, ``...``, string constants (forward references, or
values inside ``Literal[...]``) and integer or boolean literal values. Anything else (calls, lambdas,
comprehensions, f-strings, walrus, operators other than ``|``) raises :class:`UnsafeType`; such a string is
never written to disk or shown to a checker.

Canonical spelling: every name is resolved through the module's imports and definitions to its qualified
name; ``typing`` aliases of builtins and ``collections.abc`` become those (``typing.List`` is
``builtins.list``); ``Optional[X]``, ``Union[...]`` and ``|`` become one flattened, de-duplicated, sorted
union; forward-reference quotes are dropped; module TypeVars are renamed by order of first appearance in the
function (``~0``, ``~1``, ... with their bound or constraints), so a consistent renaming spells the same.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Iterable
from dataclasses import dataclass, field

from dure.errors import DureError

MAX_TYPE_CHARS = 1000
MAX_TYPE_NODES = 300
MAX_FORWARD_DEPTH = 5
TOP_TYPES = frozenset({"typing.Any", "builtins.object"})

_ABC = (  # typing aliases of collections.abc
    *("Callable", "Iterable", "Iterator", "Generator", "Mapping", "MutableMapping", "Sequence"),
    *("MutableSequence", "MutableSet", "Collection", "Container", "Sized", "Hashable", "Reversible"),
    *("Awaitable", "Coroutine", "AsyncIterable", "AsyncIterator", "AsyncGenerator", "KeysView"),
    *("ItemsView", "ValuesView", "MappingView", "ByteString"),
)
ALIASES: dict[str, str] = {
    **{f"typing.{name}": f"collections.abc.{name}" for name in _ABC},
    "typing.AbstractSet": "collections.abc.Set",
    "typing.List": "builtins.list",
    "typing.Dict": "builtins.dict",
    "typing.Set": "builtins.set",
    "typing.FrozenSet": "builtins.frozenset",
    "typing.Tuple": "builtins.tuple",
    "typing.Type": "builtins.type",
    "typing.Text": "builtins.str",
    "typing.Deque": "collections.deque",
    "typing.DefaultDict": "collections.defaultdict",
    "typing.OrderedDict": "collections.OrderedDict",
    "typing.Counter": "collections.Counter",
    "typing.ChainMap": "collections.ChainMap",
    "typing.Pattern": "re.Pattern",
    "typing.Match": "re.Match",
    "typing.ContextManager": "contextlib.AbstractContextManager",
    "typing.AsyncContextManager": "contextlib.AbstractAsyncContextManager",
    "types.NoneType": "None",
    "builtins.None": "None",
}
_UNION, _OPTIONAL, _LITERAL = "typing.Union", "typing.Optional", "typing.Literal"
_TYPEVAR_FACTORIES = frozenset({"typing.TypeVar", "typing.ParamSpec", "typing.TypeVarTuple"})


class UnsafeType(DureError):
    """A type string that is not a plain type expression (and so is never written anywhere)."""


def parse_type(text: object) -> ast.expr:
    """The expression of a type string; raises :class:`UnsafeType` for anything but a plain type."""
    if not isinstance(text, str):
        raise UnsafeType(f"a type must be a string, not {type(text).__name__}")
    if not text.strip():
        raise UnsafeType("the type is empty")
    if len(text) > MAX_TYPE_CHARS:
        raise UnsafeType(f"the type is longer than {MAX_TYPE_CHARS} characters")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as problem:
        raise UnsafeType(f"not a Python expression: {type(problem).__name__}") from None
    nodes = list(ast.walk(tree))
    if len(nodes) > MAX_TYPE_NODES:
        raise UnsafeType(f"the type has more than {MAX_TYPE_NODES} parts")
    for node in nodes:
        _check_node(node)
    return tree.body


_ALLOWED = (ast.Expression, ast.Name, ast.Attribute, ast.Subscript, ast.Tuple, ast.List, ast.Load)


def _check_node(node: ast.AST) -> None:
    if isinstance(node, _ALLOWED):
        return
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return
    if isinstance(node, ast.BitOr):
        return
    if isinstance(node, ast.Constant) and (
        node.value is None or node.value is Ellipsis or isinstance(node.value, str | int)
    ):
        return
    negative = isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
    if negative and isinstance(node.operand, ast.Constant) and type(node.operand.value) is int:  # type: ignore[attr-defined]
        return
    if isinstance(node, ast.USub):
        return
    raise UnsafeType(f"{type(node).__name__} is not allowed in a type")


def safe_source(text: str) -> str:
    """The one-line source dure writes for a (safe) type string."""
    return ast.unparse(parse_type(text))


@dataclass(frozen=True, slots=True)
class Scope:
    """What names mean where an annotation stands: the module's bindings, then the enclosing classes'."""

    module: str
    bindings: dict[str, str] = field(default_factory=dict)  # local name -> qualified name
    typevars: dict[str, str] = field(default_factory=dict)  # qualified name -> declaration signature

    def resolve(self, dotted: str) -> str:
        """The qualified name ``dotted`` refers to (unbound roots are taken as absolute module paths)."""
        root, _, rest = dotted.partition(".")
        if root in self.bindings:
            resolved = self.bindings[root] + (f".{rest}" if rest else "")
        elif not rest and hasattr(builtins, root):
            resolved = f"builtins.{root}"
        else:
            resolved = dotted
        if resolved.startswith("typing_extensions."):
            resolved = "typing." + resolved.removeprefix("typing_extensions.")
        return ALIASES.get(resolved, resolved)

    def unbound_roots(self, expr: ast.expr) -> set[str]:
        """Roots of names in ``expr`` bound neither in scope nor in builtins (imported for a check)."""
        roots = set()
        for node in ast.walk(expr):
            if isinstance(node, ast.Name) and node.id not in self.bindings and not hasattr(builtins, node.id):
                roots.add(node.id)
        return roots


class Canon:
    """Canonical spellings of the annotations of one function, sharing one TypeVar renaming."""

    def __init__(self, scope: Scope) -> None:
        self.scope = scope
        self.renamed: dict[str, str] = {}

    def spell(self, expr: ast.expr) -> str:
        return self._spell(expr, 0)

    def _spell(self, node: ast.expr, depth: int) -> str:
        if isinstance(node, ast.Constant):
            return self._constant(node, depth)
        if isinstance(node, ast.BinOp):
            return _union(self._members(node, depth))
        if isinstance(node, ast.Subscript):
            return self._subscript(node, depth)
        if isinstance(node, ast.Tuple | ast.List):
            inner = ", ".join(self._spell(item, depth) for item in node.elts)
            return f"[{inner}]" if isinstance(node, ast.List) else f"({inner})"
        dotted = _dotted(node)
        if dotted is None:  # e.g. an attribute of a subscript
            return ast.unparse(node)
        return self._name(self.scope.resolve(dotted))

    def _name(self, qualified: str) -> str:
        signature = self.scope.typevars.get(qualified)
        if signature is None:
            return qualified
        if qualified not in self.renamed:
            self.renamed[qualified] = f"~{len(self.renamed)}{signature}"
        return self.renamed[qualified]

    def _constant(self, node: ast.Constant, depth: int) -> str:
        if node.value is None:
            return "None"
        if node.value is Ellipsis:
            return "..."
        if isinstance(node.value, str) and depth < MAX_FORWARD_DEPTH:
            return self._spell(parse_type(node.value), depth + 1)  # a forward reference: quotes dropped
        return repr(node.value)

    def _members(self, node: ast.expr, depth: int) -> list[str]:
        if isinstance(node, ast.BinOp):
            return self._members(node.left, depth) + self._members(node.right, depth)
        return split_union(self._spell(node, depth))

    def _subscript(self, node: ast.Subscript, depth: int) -> str:
        base = self._spell(node.value, depth)
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if base == _LITERAL:
            values = sorted({_literal(item) for item in items})
            return _union([f"{_LITERAL}[{value}]" for value in values])
        if base == _UNION:
            return _union([part for item in items for part in self._members(item, depth)])
        if base == _OPTIONAL:
            return _union([*self._members(node.slice, depth), "None"])
        args = ", ".join(self._spell(item, depth) for item in items)
        if isinstance(node.slice, ast.Tuple) and not items:
            args = "()"
        return f"{base}[{args}]"


def split_union(spelled: str) -> list[str]:
    """The members of a canonical spelling's top-level union (``|`` inside brackets or quotes stays)."""
    members, depth, start, quote = [], 0, 0, ""
    for index, char in enumerate(spelled):
        if quote:
            quote = "" if char == quote and spelled[index - 1] != "\\" else quote
        elif char in "'\"":
            quote = char
        elif char in "[(":
            depth += 1
        elif char in "])":
            depth -= 1
        elif depth == 0 and spelled.startswith(" | ", index - 1) and char == "|":
            members.append(spelled[start : index - 1])
            start = index + 2
    members.append(spelled[start:])
    return members


def _literal(node: ast.expr) -> str:
    if isinstance(node, ast.Constant):
        return repr(node.value)
    return ast.unparse(node)


def _union(members: Iterable[str]) -> str:
    unique = sorted(set(members))
    return " | ".join(unique)


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return None if base is None else f"{base}.{node.attr}"
    return None


def top_type_count(spelled: str) -> int:
    """How many ``Any``/``object`` a canonical spelling holds (more than the reference: weaker)."""
    return sum(spelled.count(name) for name in TOP_TYPES)

"""Turning expressions into refs (see :mod:`dure.analyzers.summary`), without deep recursion."""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping

from dure.analyzers.summary import OWN_NAME, STARRED, UNKNOWN, Ref

MAX_DEPTH = 24
GETATTR: Ref = ("n", "getattr")
MAX_ITEMS = 64
MAX_STRING = 200

BINARY_DUNDER_NAMES: dict[type[ast.operator], str] = {
    ast.Add: "__add__",
    ast.Sub: "__sub__",
    ast.Mult: "__mul__",
    ast.MatMult: "__matmul__",
    ast.Div: "__truediv__",
    ast.FloorDiv: "__floordiv__",
    ast.Mod: "__mod__",
    ast.Pow: "__pow__",
    ast.LShift: "__lshift__",
    ast.RShift: "__rshift__",
    ast.BitOr: "__or__",
    ast.BitXor: "__xor__",
    ast.BitAnd: "__and__",
}
_CONTAINER_TYPES: dict[type[ast.AST], str] = {ast.List: "list", ast.Tuple: "tuple", ast.Set: "set"}
#: Called for ``super()`` only: (class, self parameter) of the enclosing method, or None.
SuperContext = Callable[[], tuple[str, str] | None]
_COMPREHENSION_TYPES: dict[type[ast.AST], str] = {
    ast.ListComp: "list",
    ast.SetComp: "set",
    ast.DictComp: "dict",
    ast.GeneratorExp: "generator",
}


def lambda_name(owner: str, node: ast.Lambda) -> str:
    return f"{owner}.<lambda:{node.lineno}>"


def constant_ref(value: object) -> Ref:
    if isinstance(value, str):
        return ("s", value) if len(value) <= MAX_STRING else ("k", "str")
    if value is None:
        return ("k", "NoneType")
    if value is Ellipsis:
        return ("k", "ellipsis")
    return ("k", type(value).__name__)


def ref_of(node: ast.expr, owner: str, super_context: SuperContext, depth: int = 0) -> Ref:
    """The ref of an expression; ``owner`` names lambdas, ``super_context`` gives (class, self) in a method.

    Dispatched on the exact node type (parsed trees hold no subclasses), the commonest first: this runs for
    most expressions of every file. ``super_context`` is called only for a ``super()`` call.
    """
    if depth > MAX_DEPTH:
        return UNKNOWN
    if type(node) is ast.Name:
        return ("n", node.id)
    down = depth + 1
    if type(node) is ast.Attribute:
        value = node.value
        if type(value) is ast.Name and down <= MAX_DEPTH:  # ``self.x``: the commonest attribute, inline
            return ("a", ("n", value.id), node.attr)
        return ("a", ref_of(value, owner, super_context, down), node.attr)
    if type(node) is ast.Constant:
        return constant_ref(node.value)
    if type(node) is ast.Call:
        func = node.func
        if type(func) is ast.Name and func.id == "super" and not node.args:
            context = super_context()
            return ("super", *context) if context else UNKNOWN
        if type(func) is ast.Name and func.id == "super" and len(node.args) == 2 and not node.keywords:
            cls = node.args[0]
            if type(cls) is not ast.Starred and type(node.args[1]) is not ast.Starred:
                return ("superof", ref_of(cls, owner, super_context, down))  # ``super(C, obj)``
        func_ref = ref_of(func, owner, super_context, down)
        args = [
            STARRED if type(a) is ast.Starred else ref_of(a, owner, super_context, down)
            for a in node.args[: kept_arguments(func_ref)]
        ]
        return ("c", func_ref, tuple(args))
    if type(node) is ast.List or type(node) is ast.Tuple or type(node) is ast.Set:
        items = tuple([ref_of(e, owner, super_context, down) for e in node.elts[:MAX_ITEMS]])
        return ("q", _CONTAINER_TYPES[type(node)], items)
    if type(node) is ast.Subscript:
        key = node.slice
        if type(key) is ast.Slice:  # a slice of a container holds the same kind of items
            return ref_of(node.value, owner, super_context, down)
        if type(key) is ast.Constant:
            constant = key.value if isinstance(key.value, str | int) else None
        else:
            constant = OWN_NAME if type(key) is ast.Name and key.id == "__name__" else None
        return ("i", ref_of(node.value, owner, super_context, down), constant)
    if type(node) is ast.Dict:
        values = tuple([ref_of(v, owner, super_context, down) for v in node.values[:MAX_ITEMS]])
        return ("q", "dict", values)
    if type(node) is ast.BinOp:
        return _binop_ref(node, owner, super_context, down)
    if type(node) is ast.BoolOp:
        return ("or", tuple([ref_of(v, owner, super_context, down) for v in node.values]))
    if type(node) is ast.IfExp:
        choices = (node.body, node.orelse)
        return ("or", tuple([ref_of(c, owner, super_context, down) for c in choices]))
    if type(node) is ast.Lambda:
        return ("d", lambda_name(owner, node))
    if type(node) is ast.NamedExpr:
        return ref_of(node.value, owner, super_context, down)
    if type(node) is ast.Await:
        return ("aw", ref_of(node.value, owner, super_context, down))
    if type(node) is ast.JoinedStr:
        return _fstring_ref(node)
    comprehension = _COMPREHENSION_TYPES.get(type(node))
    return ("k", comprehension) if comprehension else UNKNOWN


def renamed(ref: Ref, names: Mapping[str, Ref]) -> Ref:
    """``ref`` with each plain name of ``names`` replaced by its ref there (the same object when none is)."""
    if ref[0] == "n":
        return names.get(ref[1], ref) if len(ref) == 2 else ref
    changed = False
    parts = []
    for part in ref:
        if type(part) is tuple and part:
            new = renamed(part, names) if type(part[0]) is str else _renamed_items(part, names)
            changed = changed or new is not part
            parts.append(new)
        else:
            parts.append(part)
    return tuple(parts) if changed else ref


def _renamed_items(items: tuple[Ref, ...], names: Mapping[str, Ref]) -> tuple[Ref, ...]:
    """A tuple of refs (arguments, items), renamed."""
    new = tuple([renamed(item, names) for item in items])
    return items if all(a is b for a, b in zip(new, items, strict=True)) else new


def kept_arguments(func: Ref) -> int:
    """How many positional arguments the ref of a call of ``func`` keeps: two, and ``getattr``'s default."""
    return 3 if func == GETATTR else 2


def no_super_context() -> None:
    """The ``super_context`` of an expression that cannot see a method's class (a lambda's body)."""


def _fstring_ref(node: ast.JoinedStr) -> Ref:
    prefix = []
    for part in node.values:
        if type(part) is ast.Constant and isinstance(part.value, str):
            prefix.append(part.value)
        else:
            return ("sp", "".join(prefix))
    return ("s", "".join(prefix))


def _binop_ref(node: ast.BinOp, owner: str, super_context: SuperContext, depth: int) -> Ref:
    """``a + b`` is what ``a.__add__(b)`` returns (or ``b.__radd__(a)``: see ``Evaluator.operated``); string
    formatting and concatenation give strings."""
    left = node.left
    if type(left) is ast.Constant and isinstance(left.value, str):
        return ("sp", left.value) if type(node.op) is ast.Add else ("k", "str")
    dunder = BINARY_DUNDER_NAMES.get(type(node.op))
    if dunder is None:
        return UNKNOWN
    return (
        "op",
        ref_of(left, owner, super_context, depth),
        dunder,
        ref_of(node.right, owner, super_context, depth),
    )


def ref_text(ref: Ref) -> str:
    """A source-like spelling of a ref (``self.items``, ``make().run``)."""
    parts: list[str] = []
    for _ in range(MAX_DEPTH):
        tag = ref[0]
        if tag == "a":
            parts.append(f".{ref[2]}")
            ref = ref[1]
        elif tag == "c":
            parts.append("()")
            ref = ref[1]
        elif tag == "i":
            parts.append("[]")
            ref = ref[1]
        elif tag == "op":  # spelled as the method call the operator makes
            parts.append(f".{ref[2]}()")
            ref = ref[1]
        elif tag == "n":
            parts.append(ref[1])
            break
        else:
            parts.append(f"<{tag}>")
            break
    return "".join(reversed(parts))


def text_of(node: ast.expr) -> str:
    """A short source-like spelling of a called expression (``self.run``, ``a.b().c``)."""
    if type(node) is ast.Name:
        return node.id
    if type(node) is ast.Attribute and type(node.value) is ast.Name:
        return f"{node.value.id}.{node.attr}"
    parts: list[str] = []
    current: ast.expr = node
    for _ in range(MAX_DEPTH):
        if type(current) is ast.Attribute:
            parts.append(f".{current.attr}")
            current = current.value
        elif type(current) is ast.Name:
            parts.append(current.id)
            break
        elif type(current) is ast.Call:
            parts.append("()")
            current = current.func
        elif type(current) is ast.Subscript:
            parts.append("[]")
            current = current.value
        else:
            parts.append(f"<{type(current).__name__.lower()}>")
            break
    parts.reverse()
    if parts[0][0] == ".":  # the walk stopped inside a chain of attributes
        parts[0] = parts[0][1:]
    return "".join(parts)

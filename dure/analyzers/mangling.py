"""Private name mangling, done to the syntax tree before it is summarised, as the compiler does it.

Inside a class, ``self.__x`` is ``self._Class__x`` and ``def __x`` binds ``_Class__x``: a subclass's
``def __x`` does not override it, while a subclass's ``def _Class__x`` does. Mangled here, every later
step sees the names the running program uses. What is renamed: attribute names anywhere in the class
(its methods too), and the names bound and read by the class body itself, definitions included. A
definition keeps its qualified name (``Class.__x``, as ``__qualname__`` has it); the name it binds is
kept in :data:`BOUND_AS` on its node. Names local to functions are left as written (mangled or not, they
agree with each other), as are parameters, keywords and strings (``getattr(self, "__x")`` is not
mangled by Python either).
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_left

#: A private name somewhere in the text: ``__x`` not ending in ``__``. A cheap superset (it also matches
#: inside ``a__b``), so that files without one skip the walk.
PRIVATE_NAME = re.compile(r"__[^\W_]+(?:_[^\W_]+)*_?(?!\w)")
#: The attribute of a function or class node, set when the name it binds is not the name it was given.
BOUND_AS = "dure_bound_as"
#: Nodes whose body is a scope of its own: the class body's names are not theirs.
FUNCTION_NODES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def may_need_mangling(text: str) -> bool:
    return "class" in text and PRIVATE_NAME.search(text) is not None


def mangled(name: str, class_name: str) -> str:
    """``name`` as spelt inside class ``class_name``."""
    if not name.startswith("__") or name.endswith("__") or "." in name:
        return name
    stripped = class_name.lstrip("_")
    return f"_{stripped}{name}" if stripped else name


def private_name_lines(text: str) -> list[int]:
    """The lines, in order, where :data:`PRIVATE_NAME` matches: a node spanning none holds no private name."""
    lines: list[int] = []
    line, counted = 1, 0
    for match in PRIVATE_NAME.finditer(text):
        line += text.count("\n", counted, match.start())
        counted = match.start()
        if not lines or lines[-1] != line:
            lines.append(line)
    return lines


def mangle_private_names(tree: ast.Module, private_lines: list[int] | None = None) -> None:
    """Rename, in place, what the compiler mangles in the classes of ``tree``. With ``private_lines`` (see
    :func:`private_name_lines`), the walk skips the statements and expressions that span none of them: in
    a typical file, most of the tree."""
    # (node, class whose names it is in or "", whether it is in that class's own body scope)
    stack: list[tuple[ast.AST, str, bool]] = [(tree, "", False)]
    while stack:
        node, owner, in_body = stack.pop()
        if private_lines is not None and not _spans_any(node, private_lines):
            continue
        if owner:
            _rename(node, owner, in_body)
        if type(node) is ast.ClassDef:
            for child in [*node.decorator_list, *node.bases, *node.keywords]:
                stack.append((child, owner, in_body))
            for statement in node.body:
                stack.append((statement, node.name, True))
            continue
        if isinstance(node, FUNCTION_NODES):
            for field, child in ast.iter_fields(node):
                inner = in_body and field not in ("body", "args")
                for item in child if isinstance(child, list) else [child]:
                    if isinstance(item, ast.AST):
                        stack.append((item, owner, inner))
            if type(node) is not ast.Lambda:  # defaults are evaluated where the function is defined
                stack.extend((default, owner, in_body) for default in _defaults(node.args))
            continue
        for child in ast.iter_child_nodes(node):
            stack.append((child, owner, in_body))


def _spans_any(node: ast.AST, lines: list[int]) -> bool:
    """Whether ``node`` may span one of ``lines``: a node without a position (the tree, ``arguments``, a
    comprehension's clauses) may; a definition spans its decorators too."""
    first = getattr(node, "lineno", None)
    if first is None:
        return True
    decorators = getattr(node, "decorator_list", None)
    if decorators:
        first = min(first, decorators[0].lineno)
    at = bisect_left(lines, first)
    return at < len(lines) and lines[at] <= (node.end_lineno or first)  # type: ignore[attr-defined]


def _defaults(args: ast.arguments) -> list[ast.expr]:
    return [d for d in [*args.defaults, *args.kw_defaults] if d is not None]


def _rename(node: ast.AST, owner: str, in_body: bool) -> None:
    if isinstance(node, ast.Attribute):
        node.attr = mangled(node.attr, owner)
    elif in_body and isinstance(node, ast.Name):
        node.id = mangled(node.id, owner)
    elif in_body and isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        bound = mangled(node.name, owner)
        if bound != node.name:
            setattr(node, BOUND_AS, bound)

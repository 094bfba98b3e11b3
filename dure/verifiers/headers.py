"""Rewriting function headers with LibCST one header at a time, instead of parsing the whole module.

Stripping or filling annotations touches only the ``def ...:`` header of a few functions, yet parsing a module
with LibCST costs tens of milliseconds for every variant. Here ``ast`` finds the functions, the tokenizer
finds where each header ends (the first ``:`` outside brackets), and only that header is parsed by LibCST
(with ``...`` for a body), rewritten by the same transformation the whole-module walk would apply, and
spliced back. LibCST prints every node it leaves alone exactly as written, so the result is the text the
whole-module rewrite gives; when a header cannot be cut out cleanly the caller falls back to that rewrite.
"""

from __future__ import annotations

import ast
import io
import tokenize
from collections.abc import Callable, Collection, Iterator

import libcst as cst

#: ``edit(qualname, in_class, header)``: the rewritten header of the function ``qualname`` of the module.
HeaderEdit = Callable[[str, bool, cst.FunctionDef], cst.FunctionDef]
_BODY = " ...\n"
_OPENING, _CLOSING = frozenset("([{"), frozenset(")]}")


def rewrite_headers(text: str, qualnames: Collection[str], edit: HeaderEdit) -> str | None:
    """``text`` with the header of every function named in ``qualnames`` (at module level or in classes,
    not nested in functions, as the module walk finds them) rewritten by ``edit``; ``None`` when a header
    cannot be rewritten on its own (the caller then rewrites the whole module)."""
    if "\r" in text or "\f" in text:  # a lone header's newline or indentation could read differently
        return None
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return None
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    spans: list[tuple[int, int, str, bool, list[str]]] = []
    for qualname, in_class, node in _functions(tree.body, (), in_class=False):
        if qualname in qualnames:
            span = _header_span(lines, starts, node)
            decorators = [ast.get_source_segment(text, d) or "" for d in node.decorator_list]
            if span is None or "" in decorators:
                return None
            spans.append((*span, qualname, in_class, decorators))
    pieces, done = [], 0
    for start, end, qualname, in_class, decorators in sorted(spans):
        header = _rewritten(text[start:end], decorators, qualname, in_class, edit)
        if header is None:
            return None
        pieces += [text[done:start], header]
        done = end
    pieces.append(text[done:])
    return "".join(pieces)


def _functions(
    body: list[ast.stmt], path: tuple[str, ...], *, in_class: bool
) -> Iterator[tuple[str, bool, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Functions at module level and in classes, inside any compound statement but never inside a function."""
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield ".".join((*path, node.name)), in_class, node
        elif isinstance(node, ast.ClassDef):
            yield from _functions(node.body, (*path, node.name), in_class=True)
        else:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.stmt):
                    yield from _functions([child], path, in_class=in_class)
                elif isinstance(child, ast.ExceptHandler | ast.match_case):
                    yield from _functions(child.body, path, in_class=in_class)


def _header_span(
    lines: list[str], starts: list[int], node: ast.FunctionDef | ast.AsyncFunctionDef
) -> tuple[int, int] | None:
    """Offsets of the header in the text: from ``def`` (or ``async``) to just past its colon."""
    row = node.lineno - 1
    try:
        column = len(lines[row].encode("utf-8")[: node.col_offset].decode("utf-8"))
    except (IndexError, UnicodeDecodeError):
        return None
    following = io.StringIO("\n".join(lines[row:]))
    depth = 0
    try:
        for token in tokenize.generate_tokens(following.readline):
            if token.type != tokenize.OP:
                continue
            if token.string in _OPENING:
                depth += 1
            elif token.string in _CLOSING:
                depth -= 1
            elif token.string == ":" and depth == 0:
                end_row, end_column = token.end
                return starts[row] + column, starts[row + end_row - 1] + end_column
    except (tokenize.TokenError, SyntaxError):
        return None
    return None


def _rewritten(
    header: str, decorators: list[str], qualname: str, in_class: bool, edit: HeaderEdit
) -> str | None:
    """The header rewritten by ``edit``, which sees the function's decorators too (``@staticmethod`` decides
    whether the first parameter is a receiver); the decorators themselves are left as written."""
    source = header + _BODY
    try:
        module = cst.parse_module(source)
        decorated = (
            cst.parse_module("".join(f"@{d}\n" for d in decorators) + source) if decorators else module
        )
    except cst.ParserSyntaxError:
        return None
    function, seen = module.body[0], decorated.body[0]
    if module.code != source or len(module.body) != 1 or not isinstance(function, cst.FunctionDef):
        return None
    if not isinstance(seen, cst.FunctionDef) or len(seen.decorators) != len(decorators):
        return None
    edited = edit(qualname, in_class, function.with_changes(decorators=seen.decorators))
    code = module.with_changes(body=[edited.with_changes(decorators=function.decorators)]).code
    return code.removesuffix(_BODY) if code.endswith(_BODY) else None

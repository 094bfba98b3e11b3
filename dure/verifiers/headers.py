"""Reading and rewriting function headers with LibCST without parsing the whole module.

Stripping or filling annotations, or reading them, touches only the ``def ...:`` headers (and decorators) of
a module's functions, yet parsing a module with LibCST costs tens of milliseconds for every variant. Here
``ast`` finds the functions, the tokenizer finds where each header ends (the first ``:`` outside brackets),
and only the headers, each with its decorators and ``...`` for a body, are parsed by LibCST, in one small
module. An edit applies the same transformation the whole-module walk would, and the header is spliced back.
LibCST prints every node it leaves alone exactly as written, so the result is the text the whole-module
rewrite gives; when a header cannot be cut out cleanly the caller falls back to that rewrite.
"""

from __future__ import annotations

import ast
import io
import tokenize
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass

import libcst as cst

from dure.verifiers.parsing import parsed

#: ``edit(qualname, in_class, header)``: the rewritten header of the function ``qualname`` of the module.
HeaderEdit = Callable[[str, bool, cst.FunctionDef], cst.FunctionDef]
_BODY = " ...\n"
_OPENING, _CLOSING = frozenset("([{"), frozenset(")]}")


@dataclass(frozen=True, slots=True)
class _Span:
    """Where a function's header lies in the text, and the decorators written above it."""

    start: int  # offset of ``def`` (or ``async``)
    end: int  # just past the header's colon
    qualname: str
    in_class: bool
    decorators: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Header:
    """A function's header as LibCST reads it without the module around it (its body replaced by ``...``)."""

    qualname: str
    in_class: bool
    function: cst.FunctionDef  # with its decorators
    module: cst.Module  # the headers alone (``module.code_for_node`` prints their parts as written)


def rewrite_headers(text: str, qualnames: Collection[str], edit: HeaderEdit) -> str | None:
    """``text`` with the header of every function named in ``qualnames`` (at module level or in classes,
    not nested in functions, as the module walk finds them) rewritten by ``edit``; ``None`` when a header
    cannot be rewritten on its own (the caller then rewrites the whole module)."""
    spans = _spans(text, qualnames.__contains__)
    parsed = _parse_all(text, spans) if spans is not None else None
    if spans is None or parsed is None:
        return None
    module, functions = parsed
    pieces, done = [], 0
    for span, function in sorted(zip(spans, functions, strict=True), key=lambda pair: pair[0].start):
        edited = edit(span.qualname, span.in_class, function)
        code = module.code_for_node(edited.with_changes(decorators=()))
        if not code.endswith(_BODY):
            return None
        pieces += [text[done : span.start], code.removesuffix(_BODY)]
        done = span.end
    pieces.append(text[done:])
    return "".join(pieces)


def headers(text: str) -> list[Header] | None:
    """Every function at module level or in classes, in source order, as LibCST reads its header (what a
    whole-module walk that does not enter functions sees); ``None`` when a header cannot be cut out."""
    spans = _spans(text, lambda _: True)
    parsed = _parse_all(text, spans) if spans is not None else None
    if spans is None or parsed is None:
        return None
    module, functions = parsed
    return [
        Header(span.qualname, span.in_class, function, module)
        for span, function in zip(spans, functions, strict=True)
    ]


def _spans(text: str, wanted: Callable[[str], bool]) -> list[_Span] | None:
    if "\r" in text or "\f" in text:  # a lone header's newline or indentation could read differently
        return None
    try:
        tree = parsed(text)
    except (SyntaxError, ValueError, RecursionError):
        return None
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    spans = []
    for qualname, in_class, node in _functions(tree.body, (), in_class=False):
        if wanted(qualname):
            span = _header_span(lines, starts, node)
            decorators = [_segment(text, lines, starts, d) for d in node.decorator_list]
            if span is None or None in decorators:
                return None
            spans.append(_Span(*span, qualname, in_class, tuple(d for d in decorators if d is not None)))
    return spans


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
        column = _column(lines[row], node.col_offset)
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


def _parse_all(text: str, spans: list[_Span]) -> tuple[cst.Module, list[cst.FunctionDef]] | None:
    """All the headers, each with its decorators and ``...`` for a body, parsed in one module (a header
    reads the same alone as in its file); ``None`` when LibCST does not read one back exactly."""
    source = "".join(
        "".join(f"@{decorator}\n" for decorator in span.decorators) + text[span.start : span.end] + _BODY
        for span in spans
    )
    try:
        module = cst.parse_module(source)
    except cst.ParserSyntaxError:
        return None
    if module.code != source or len(module.body) != len(spans):
        return None
    functions = []
    for span, function in zip(spans, module.body, strict=True):
        if not isinstance(function, cst.FunctionDef) or len(function.decorators) != len(span.decorators):
            return None
        functions.append(function)
    return module, functions


def _segment(text: str, lines: list[str], starts: list[int], node: ast.expr) -> str | None:
    """The source of ``node`` (``ast.get_source_segment`` splits the whole text again on every call)."""
    if node.end_lineno is None or node.end_col_offset is None:
        return None
    try:
        start = starts[node.lineno - 1] + _column(lines[node.lineno - 1], node.col_offset)
        end = starts[node.end_lineno - 1] + _column(lines[node.end_lineno - 1], node.end_col_offset)
    except (IndexError, UnicodeDecodeError):
        return None
    return text[start:end]


def _column(line: str, byte_offset: int) -> int:
    """The character column of a UTF-8 byte offset in ``line`` (``ast`` counts bytes)."""
    return len(line.encode("utf-8")[:byte_offset].decode("utf-8"))

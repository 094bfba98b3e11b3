"""Planting dead code in a module with LibCST, without changing what the module does.

Every edit keeps the module's formatting (LibCST round-trips the untouched code byte for byte) and only adds
statements: renamed copies of live functions and methods (a ``def`` binds a new private name and runs
nothing), a module flag bound to ``False``, a branch under that flag, a statement after a ``return`` and an
import of a name its module already defines. Because nothing is removed, every original line has a place in
the patched text; the LibCST positions of the added statements give that map exactly (a text diff cannot:
a copy repeats the lines of its original). What to plant is decided by :mod:`dure.generators.dead_code`.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

import libcst as cst

FUNCTION = (ast.FunctionDef, ast.AsyncFunctionDef)
_LINE_END = re.compile(r"\r\n|\r|\n")


class InjectionError(Exception):
    """A planned edit does not fit the module (the definition is missing, or has no block body)."""


# -- reading a module ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DefInfo:
    """A function or class as written: ``direct`` when it sits straight in the module body or in the body of
    a top-level class (no ``if``/``try`` around it), ``container`` the name of that class for a method."""

    qualname: str
    name: str
    node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
    container: str | None
    direct: bool

    @property
    def is_function(self) -> bool:
        return isinstance(self.node, FUNCTION)

    @property
    def top_level(self) -> bool:
        """Defined straight in the module body."""
        return self.direct and self.container is None

    @property
    def span(self) -> tuple[int, int]:
        start = min([self.node.lineno, *(d.lineno for d in self.node.decorator_list)])
        return start, self.node.end_lineno or self.node.lineno

    def body_lines(self) -> Iterator[int]:
        """The lines whose execution shows the definition is used: its body, or its methods' bodies (never
        the ``def`` line itself, which runs when the function is defined)."""
        node = self.node
        functions = (
            [node] if isinstance(node, FUNCTION) else [n for n in ast.walk(node) if isinstance(n, FUNCTION)]
        )
        for function in functions:
            assert isinstance(function, FUNCTION)
            header = {function.lineno, *(d.lineno for d in function.decorator_list)}
            end = function.end_lineno or function.lineno
            yield from (n for n in range(function.body[0].lineno, end + 1) if n not in header)

    def executed(self, lines: frozenset[int]) -> bool:
        return any(line in lines for line in self.body_lines())


def blocks_of(statement: ast.stmt) -> list[list[ast.stmt]]:
    """The statement lists nested in a compound statement (its branches, handlers and cases)."""
    blocks: list[list[ast.stmt]] = []
    for name in ("body", "orelse", "finalbody"):
        value = getattr(statement, name, None)
        if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
            blocks.append(value)
    blocks.extend(handler.body for handler in getattr(statement, "handlers", ()))
    blocks.extend(case.body for case in getattr(statement, "cases", ()))
    return blocks


def walk_definitions(tree: ast.Module, module: str) -> list[DefInfo]:
    """Every function and class of a module, outer ones first, named as the index names them."""
    found: list[DefInfo] = []

    def visit(body: list[ast.stmt], prefix: str, container: str | None, direct: bool, level: str) -> None:
        for statement in body:
            if isinstance(statement, (*FUNCTION, ast.ClassDef)):
                qualname = f"{prefix}.{statement.name}"
                found.append(DefInfo(qualname, statement.name, statement, container, direct))
                if isinstance(statement, ast.ClassDef):
                    top = level == "module" and direct
                    visit(statement.body, qualname, statement.name if top else None, top, "class")
                else:
                    visit(statement.body, qualname, None, False, "function")
                continue
            for block in blocks_of(statement):
                visit(block, prefix, None, False, level)

    visit(tree.body, module, None, True, "module")
    return found


class _Concrete:
    """A module's LibCST tree, parsed once for all its plans (LibCST trees are immutable: an edit builds a
    new tree sharing every statement it did not touch), and the code of each of its top-level statements,
    generated once."""

    __slots__ = ("codes", "holds", "module", "nodes")

    def __init__(self) -> None:
        self.module: cst.Module | None = None
        self.nodes: dict[int, cst.CSTNode] = {}  # id -> header, body and footer nodes of ``module``
        self.codes: dict[int, str] = {}
        self.holds: dict[int, bool] = {}  # id -> whether the statement defines a function or class

    def parsed(self, text: str) -> cst.Module:
        if self.module is None:
            self.module = cst.parse_module(text)
            parts = (*self.module.header, *self.module.body, *self.module.footer)
            self.nodes = {id(node): node for node in parts}
        return self.module

    def code(self, module: cst.Module, node: cst.CSTNode) -> str:
        """``module.code_for_node(node)``, kept when ``node`` is a top-level node of the parsed tree."""
        if self.nodes.get(id(node)) is not node:
            return module.code_for_node(node)
        if id(node) not in self.codes:
            self.codes[id(node)] = module.code_for_node(node)
        return self.codes[id(node)]

    def holds_definition(self, statement: cst.BaseStatement) -> bool:
        """:func:`_holds_definition`, kept for a top-level statement of the parsed tree."""
        if self.nodes.get(id(statement)) is not statement:
            return _holds_definition(statement)
        if id(statement) not in self.holds:
            self.holds[id(statement)] = _holds_definition(statement)
        return self.holds[id(statement)]


@dataclass(frozen=True, slots=True)
class ModuleView:
    """One module of the released tree: text, syntax tree, definitions and the lines the tests ran."""

    name: str
    file: str
    text: str
    tree: ast.Module
    definitions: tuple[DefInfo, ...]
    executed: frozenset[int]
    _concrete: _Concrete = field(default_factory=_Concrete, compare=False, repr=False)

    @classmethod
    def read(cls, name: str, file: str, text: str, executed: frozenset[int]) -> ModuleView:
        tree = ast.parse(text)
        return cls(name, file, text, tree, tuple(walk_definitions(tree, name)), executed)

    def bound_names(self) -> set[str]:
        """Names the module binds anywhere (an over-approximation of its globals: enough to judge whether
        copied code reads naturally here)."""
        names = {d.name for d in self.definitions}
        for node in ast.walk(self.tree):
            if isinstance(node, ast.alias):
                names.add((node.asname or node.name).partition(".")[0])
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
        return names

    def imported_names(self) -> set[str]:
        """Names bound by the module's top-level imports."""
        names: set[str] = set()
        for node in self.tree.body:
            if isinstance(node, ast.Import | ast.ImportFrom):
                names.update((a.asname or a.name).partition(".")[0] for a in node.names)
        return names

    @property
    def star_import(self) -> bool:
        return any(
            isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names) for n in ast.walk(self.tree)
        )

    @property
    def future_annotations(self) -> bool:
        return any(
            isinstance(n, ast.ImportFrom)
            and n.module == "__future__"
            and any(a.name == "annotations" for a in n.names)
            for n in self.tree.body
        )

    def concrete(self) -> cst.Module:
        """The module's LibCST tree, parsed once."""
        return self._concrete.parsed(self.text)

    def statement_code(self, module: cst.Module, node: cst.CSTNode) -> str:
        """``module.code_for_node(node)``, generated once for a top-level node of :meth:`concrete`."""
        self.concrete()
        return self._concrete.code(module, node)

    def holds_definition(self, statement: cst.BaseStatement) -> bool:
        """Whether a top-level statement defines a function or class, worked out once for those of
        :meth:`concrete`."""
        self.concrete()
        return self._concrete.holds_definition(statement)

    def code_of(self, module: cst.Module) -> str:
        """``module.code`` for an edit of :meth:`concrete`: the top-level statements the edit kept reuse their
        code (a module's code is that of its header, body and footer nodes, one after the other)."""
        original = self.concrete()
        same_frame = (
            module.header is original.header
            and module.footer is original.footer
            and module.default_indent == original.default_indent
            and module.default_newline == original.default_newline
        )
        if not (same_frame and module.has_trailing_newline and module.body):
            return module.code
        nodes = (*module.header, *module.body, *module.footer)
        return "".join(self._concrete.code(module, node) for node in nodes)

    @property
    def double_quotes(self) -> bool:
        """Whether the module writes its strings with double quotes rather than single ones."""
        return self.text.count('"') >= self.text.count("'")


# -- what to plant ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Twin:
    """A live private function (or method) defined elsewhere, whose copy, under the same name, is planted
    after ``anchor``: a top-level definition of the module, or a method of its class ``container``."""

    module: ModuleView
    info: DefInfo
    container: str | None
    anchor: str
    strip_types: bool


@dataclass(frozen=True, slots=True)
class Plan:
    """What to plant in one module; ``renames`` maps each copied chain member's name to its copy's."""

    chain: tuple[DefInfo, ...] = ()
    renames: Mapping[str, str] = field(default_factory=dict)
    twins: tuple[Twin, ...] = ()
    flag: str | None = None
    branch_hosts: tuple[DefInfo, ...] = ()  # functions that test the flag first thing
    tail_host: DefInfo | None = None
    imported: tuple[int, str, str] | None = None  # line of the existing import, new statement, bound name

    @property
    def hard_kinds(self) -> int:
        """How many of the kinds no tool finds the plan holds: chain, twin, flag branch."""
        return bool(self.chain) + bool(self.twins) + bool(self.branch_hosts)


@dataclass(frozen=True, slots=True)
class Planted:
    """The patched module, where the planted items are, and where each original line went."""

    text: str
    chain: tuple[str, ...]  # qualnames of the chain copies, head first
    twins: tuple[str, ...]
    twins_of: tuple[str, ...]  # the live functions elsewhere that they copy
    branch_lines: tuple[int, ...]
    tail_line: int | None
    import_name: str | None
    lines: Mapping[int, int]  # original line -> patched line

    @property
    def definitions(self) -> tuple[str, ...]:
        return self.chain + self.twins


def _qualname(module: str, container: str | None, name: str) -> str:
    return f"{module}.{container}.{name}" if container else f"{module}.{name}"


Statement = cst.SimpleStatementLine | cst.BaseCompoundStatement  # what a body holds
MARK = "# dure-planted-"  # a comment line put before each planted statement while the module is built


class _Marks:
    """Numbers the planted statements with a comment line each, so that one code generation of the patched
    module says where every one of them went (a position provider costs a full generation per kind)."""

    def __init__(self) -> None:
        self.nodes: list[Statement] = []

    def __call__(self, node: Statement) -> Statement:
        comment = cst.EmptyLine(indent=True, comment=cst.Comment(f"{MARK}{len(self.nodes)}"))
        marked = node.with_changes(leading_lines=(comment, *node.leading_lines))
        self.nodes.append(marked)
        return marked


def _unmarked(code: str) -> tuple[str, dict[int, int]]:
    """``code`` without its mark lines, and mark number -> the line (in that text) that followed the mark."""
    kept: list[str] = []
    starts: dict[int, int] = {}
    position = 0
    for match in [*_LINE_END.finditer(code), None]:
        end = match.end() if match is not None else len(code)
        line = code[position:end]
        if not line:
            break
        stripped = line.strip()
        if stripped.startswith(MARK) and stripped[len(MARK) :].isdigit():
            starts[int(stripped[len(MARK) :])] = len(kept) + 1
        else:
            kept.append(line)
        position = end
    return "".join(kept), starts


def _unchanged(node: Statement) -> Statement:
    return node


def plant(view: ModuleView, plan: Plan) -> Planted:
    """Apply ``plan`` to the module's text and locate what was planted."""
    if MARK in view.text:
        raise InjectionError(f"the module already holds the text {MARK!r}")
    module = view.concrete()
    mark = _Marks()
    if plan.imported is not None:
        line, statement = plan.imported[0], plan.imported[1]
        module = insert_import_after(module, line, statement, mark=mark, code=view.statement_code)
    originals = {info.name: find_function(module, info.container, info.name) for info in plan.chain}
    for info in plan.chain:
        copy = renamed_copy(
            originals[info.name], plan.renames[info.name], plan.renames, method=bool(info.container)
        )
        module = insert_after(module, info.container, info.name, mark(copy))
    for twin in plan.twins:
        source = find_function(twin.module.concrete(), twin.info.container, twin.info.name)
        method = twin.container is not None
        copy = renamed_copy(source, twin.info.name, {}, method=method, strip_types=twin.strip_types)
        module = insert_after(module, twin.container, twin.anchor, mark(copy))
    tail: int | None = None
    if plan.tail_host is not None:
        tail = len(mark.nodes)
        module = append_after_return(module, plan.tail_host.container, plan.tail_host.name, mark=mark)
    branches: list[int] = []
    if plan.branch_hosts and plan.flag is not None:
        for host in plan.branch_hosts:
            guard = branch_source(view, host, plan.flag)
            branches.append(len(mark.nodes))
            module = prepend_statement(module, host.container, host.name, guard, mark=mark)
        module = insert_flag(module, plan.flag, mark=mark, holds=view.holds_definition)
    text, starts = _unmarked(view.code_of(module))
    if sorted(starts) != list(range(len(mark.nodes))):
        raise InjectionError("a planted statement did not come out where it was put")
    inserted: set[int] = set()
    for number, node in enumerate(mark.nodes):
        lines = len(_LINE_END.findall(module.code_for_node(node))) - 1  # without its mark
        inserted.update(range(starts[number], starts[number] + lines))

    def first_line(number: int) -> int:  # the statement's own line, after the blank and comment lines it owns
        return starts[number] + len(mark.nodes[number].leading_lines) - 1

    return Planted(
        text=text,
        chain=tuple(_qualname(view.name, i.container, plan.renames[i.name]) for i in plan.chain),
        twins=tuple(_qualname(view.name, t.container, t.info.name) for t in plan.twins),
        twins_of=tuple(t.info.qualname for t in plan.twins),
        branch_lines=tuple(sorted(first_line(branch) for branch in branches)),
        tail_line=first_line(tail) if tail is not None else None,
        import_name=plan.imported[2] if plan.imported else None,
        lines=_line_map(view.text, text, inserted),
    )


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` as the parser numbers them (a form feed does not end a line)."""
    lines = _LINE_END.split(text)
    return lines[:-1] if lines and lines[-1] == "" else lines


def _line_map(old: str, new: str, inserted: set[int]) -> dict[int, int]:
    """Old line -> new line, given the new lines that were inserted (and nothing else changed)."""
    old_lines, new_lines = split_lines(old), split_lines(new)
    kept = [number for number in range(1, len(new_lines) + 1) if number not in inserted]
    if len(kept) != len(old_lines) or any(old_lines[i] != new_lines[n - 1] for i, n in enumerate(kept)):
        raise InjectionError("the patched text is not the original with lines inserted")
    return {index + 1: number for index, number in enumerate(kept)}


def branch_source(view: ModuleView, host: DefInfo, flag: str) -> str:
    """``if FLAG: print("host", arguments...)``, the trace a debugging flag typically guards."""
    node = host.node
    assert isinstance(node, FUNCTION)
    arguments = [a.arg for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)]
    if host.container is not None:
        arguments = arguments[1:]
    label = f"{host.container}.{host.name}" if host.container else host.name
    quote = '"' if view.double_quotes else "'"
    return f"if {flag}:\n    print({', '.join([f'{quote}{label}{quote}', *arguments[:3]])})\n"


# -- LibCST edits -------------------------------------------------------------------------------------------


def _body_of(module: cst.Module, container: str | None) -> Sequence[cst.BaseStatement]:
    if container is None:
        return module.body
    for statement in module.body:
        if isinstance(statement, cst.ClassDef) and statement.name.value == container:
            if not isinstance(statement.body, cst.IndentedBlock):
                raise InjectionError(f"class {container} has no indented body")
            return statement.body.body
    raise InjectionError(f"no top-level class {container}")


def _with_body(module: cst.Module, container: str | None, body: Sequence[cst.BaseStatement]) -> cst.Module:
    if container is None:
        return module.with_changes(body=tuple(body))
    statements: list[cst.BaseStatement] = []
    for statement in module.body:
        if isinstance(statement, cst.ClassDef) and statement.name.value == container:
            block = statement.body
            assert isinstance(block, cst.IndentedBlock)
            statements.append(statement.with_changes(body=block.with_changes(body=tuple(body))))
        else:
            statements.append(statement)
    return module.with_changes(body=tuple(statements))


def find_function(module: cst.Module, container: str | None, name: str) -> cst.FunctionDef:
    """The function (``container`` ``None``) or method defined directly in the module or class body."""
    for statement in _body_of(module, container):
        if isinstance(statement, cst.FunctionDef) and statement.name.value == name:
            if not isinstance(statement.body, cst.IndentedBlock):
                raise InjectionError(f"{name} has no indented body")
            return statement
    raise InjectionError(f"no definition {name} directly in {container or 'the module'}")


def _is_docstring(statement: cst.BaseStatement) -> bool:
    return (
        isinstance(statement, cst.SimpleStatementLine)
        and len(statement.body) == 1
        and isinstance(statement.body[0], cst.Expr)
        and isinstance(statement.body[0].value, cst.SimpleString | cst.ConcatenatedString)
    )


def _summary_docstring(statement: cst.SimpleStatementLine) -> cst.SimpleStatementLine:
    """The docstring cut to its first paragraph, as written (a copy keeps the summary, not the details)."""
    expression = statement.body[0]
    assert isinstance(expression, cst.Expr)
    value = expression.value
    if not isinstance(value, cst.SimpleString) or len(value.quote) != 3:
        return statement
    opening = len(value.prefix) + len(value.quote)
    lines = value.value[opening : -len(value.quote)].split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    end = next((i for i in range(first or 0, len(lines)) if not lines[i].strip()), None)
    if first is None or end is None or end == len(lines) - 1:
        return statement
    closing = f"\n{lines[-1]}{value.quote}" if not lines[-1].strip() else value.quote
    text = value.value[:opening] + "\n".join(lines[:end]) + closing
    return statement.with_changes(body=[expression.with_changes(value=value.with_changes(value=text))])


class _CallRenamer(cst.CSTTransformer):
    """Renames the calls ``name(...)`` (module level) or ``receiver.name(...)`` (methods) of ``renames``."""

    def __init__(self, renames: Mapping[str, str], receiver: str | None) -> None:
        super().__init__()
        self.renames = renames
        self.receiver = receiver

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        func = updated_node.func
        if self.receiver is None and isinstance(func, cst.Name) and func.value in self.renames:
            return updated_node.with_changes(func=func.with_changes(value=self.renames[func.value]))
        if (
            self.receiver is not None
            and isinstance(func, cst.Attribute)
            and isinstance(func.value, cst.Name)
            and func.value.value == self.receiver
            and func.attr.value in self.renames
        ):
            attr = func.attr.with_changes(value=self.renames[func.attr.value])
            return updated_node.with_changes(func=func.with_changes(attr=attr))
        return updated_node


class _AnnotationStripper(cst.CSTTransformer):
    def leave_Param(self, original_node: cst.Param, updated_node: cst.Param) -> cst.Param:
        return updated_node.with_changes(annotation=None)


def _blank_lines(node: cst.FunctionDef, default: int) -> list[cst.EmptyLine]:
    """As many blank lines as the original has before it (its comments left behind), else ``default``."""
    count = sum(1 for line in node.leading_lines if line.comment is None)
    return [cst.EmptyLine(indent=False) for _ in range(count or default)]


def renamed_copy(
    node: cst.FunctionDef,
    new_name: str,
    renames: Mapping[str, str],
    *,
    method: bool,
    strip_types: bool = False,
) -> cst.FunctionDef:
    """A copy of ``node`` called ``new_name``, without decorators, with its docstring cut to the summary
    and the calls of ``renames`` retargeted (``self.name(...)`` in a method, ``name(...)`` elsewhere)."""
    if not isinstance(node.body, cst.IndentedBlock):
        raise InjectionError(f"{node.name.value} has no indented body")
    receiver = None
    if method:
        positional = node.params.posonly_params or node.params.params
        if not positional:
            raise InjectionError(f"method {node.name.value} has no receiver parameter")
        receiver = positional[0].name.value
    body = node.body.visit(_CallRenamer(renames, receiver))
    assert isinstance(body, cst.IndentedBlock)
    statements = list(body.body)
    if statements and _is_docstring(statements[0]):
        first = statements[0]
        assert isinstance(first, cst.SimpleStatementLine)
        statements[0] = _summary_docstring(first)
    if len(statements) < 2 and _is_docstring(statements[0]):
        raise InjectionError(f"{node.name.value} has nothing but a docstring")
    params = node.params
    if strip_types:
        stripped = params.visit(_AnnotationStripper())
        assert isinstance(stripped, cst.Parameters)
        params = stripped
    return node.with_changes(
        name=cst.Name(new_name),
        decorators=(),
        body=body.with_changes(body=tuple(statements)),
        leading_lines=_blank_lines(node, 1 if method else 2),
        lines_after_decorators=(),
        params=params,
        returns=None if strip_types else node.returns,
    )


def insert_after(
    module: cst.Module, container: str | None, anchor: str, new: cst.BaseStatement
) -> cst.Module:
    """``new`` placed right after the definition ``anchor`` of the module or of its class ``container``."""
    body = list(_body_of(module, container))
    for position, statement in enumerate(body):
        if isinstance(statement, cst.FunctionDef | cst.ClassDef) and statement.name.value == anchor:
            body.insert(position + 1, new)
            return _with_body(module, container, body)
    raise InjectionError(f"no definition {anchor} directly in {container or 'the module'}")


class _DefinitionFinder(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.found = False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.found = True
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self.found = True
        return False


def _holds_definition(statement: cst.BaseStatement) -> bool:
    finder = _DefinitionFinder()
    statement.visit(finder)
    return finder.found


def insert_flag(
    module: cst.Module,
    name: str,
    *,
    mark: Callable[[Statement], Statement] = _unchanged,
    holds: Callable[[cst.BaseStatement], bool] | None = None,
) -> cst.Module:
    """``name = False`` at module level, just before the first statement that defines a function or class,
    so it is bound before any code of the module can run (``holds``: that test, a kept one maybe)."""
    holds = holds or _holds_definition
    body = list(module.body)
    position = next((i for i, s in enumerate(body) if holds(s)), len(body))
    flag = cst.parse_statement(f"{name} = False\n", config=module.config_for_parsing)
    if position > 0:
        flag = flag.with_changes(leading_lines=[cst.EmptyLine(indent=False)])
    body.insert(position, mark(flag))
    return module.with_changes(body=tuple(body))


def _replace_function(
    module: cst.Module, container: str | None, name: str, statements: Sequence[cst.BaseStatement]
) -> cst.Module:
    node = find_function(module, container, name)
    assert isinstance(node.body, cst.IndentedBlock)
    new = node.with_changes(body=node.body.with_changes(body=tuple(statements)))
    body = [new if s is node else s for s in _body_of(module, container)]
    return _with_body(module, container, body)


def prepend_statement(
    module: cst.Module,
    container: str | None,
    name: str,
    source: str,
    *,
    mark: Callable[[Statement], Statement] = _unchanged,
) -> cst.Module:
    """The statement ``source`` as the first statement of a function (after its docstring)."""
    node = find_function(module, container, name)
    assert isinstance(node.body, cst.IndentedBlock)
    statement = cst.parse_statement(source, config=module.config_for_parsing)
    statements = list(node.body.body)
    position = 1 if statements and _is_docstring(statements[0]) else 0
    if position >= len(statements):
        raise InjectionError(f"{name} has nothing but a docstring")
    statements.insert(position, mark(statement))
    return _replace_function(module, container, name, statements)


def append_after_return(
    module: cst.Module,
    container: str | None,
    name: str,
    *,
    mark: Callable[[Statement], Statement] = _unchanged,
) -> cst.Module:
    """A function with a copy of its second-last statement after its final ``return`` (a stale line)."""
    node = find_function(module, container, name)
    assert isinstance(node.body, cst.IndentedBlock)
    statements = list(node.body.body)
    if len(statements) < 2 or not isinstance(statements[-1], cst.SimpleStatementLine):
        raise InjectionError(f"{name} does not end with a simple statement")
    last = statements[-1].body
    if len(last) != 1 or not isinstance(last[0], cst.Return):
        raise InjectionError(f"{name} does not end with a return")
    before = statements[-2]
    if not isinstance(before, cst.SimpleStatementLine | cst.BaseCompoundStatement):
        raise InjectionError(f"{name}: unexpected statement before its return")
    statements.append(mark(before.with_changes(leading_lines=())))
    return _replace_function(module, container, name, statements)


def insert_import_after(
    module: cst.Module,
    line: int,
    source: str,
    *,
    mark: Callable[[Statement], Statement] = _unchanged,
    code: Callable[[cst.Module, cst.CSTNode], str] = cst.Module.code_for_node,
) -> cst.Module:
    """The import statement ``source`` right after the top-level statement that starts on ``line``
    (``code``: how to generate a statement's code, a kept one maybe)."""
    body = list(module.body)
    first = 1 + len(module.header)  # the first line of each top-level statement, its own lines included
    for position, statement in enumerate(body):
        start = first + len(statement.leading_lines)
        first += len(_LINE_END.findall(code(module, statement)))
        if isinstance(statement, cst.SimpleStatementLine) and start == line:
            new = cst.parse_statement(source, config=module.config_for_parsing)
            body.insert(position + 1, mark(new))
            return module.with_changes(body=tuple(body))
    raise InjectionError(f"no top-level statement starts on line {line}")


def free_names(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """Names a function reads that it does not bind itself (module globals or builtins), nested scopes
    included; an over-approximation is fine: it only decides whether a copy reads well elsewhere."""
    bound: set[str] = set()
    loaded: set[str] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Name):
            (loaded if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node is not function:
            bound.add(node.name)
        elif isinstance(node, ast.alias):
            bound.add((node.asname or node.name).partition(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
    return loaded - bound


__all__ = [
    "FUNCTION",
    "DefInfo",
    "InjectionError",
    "ModuleView",
    "Plan",
    "Planted",
    "Twin",
    "blocks_of",
    "free_names",
    "plant",
    "split_lines",
    "walk_definitions",
]

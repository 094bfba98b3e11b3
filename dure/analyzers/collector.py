"""One pass over a module's syntax tree that records its definitions, bindings, imports and call sites.

Statements are walked recursively (Python bounds their nesting); expressions are walked with an explicit
stack, because generated code can nest them far deeper than the interpreter's recursion limit.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, ClassVar

from dure.analyzers.model import (
    Definition,
    DefinitionKind,
    Import,
    ImportCondition,
    Parameter,
    ParameterKind,
)
from dure.analyzers.refs import BINARY_DUNDER_NAMES, lambda_name, ref_of, text_of
from dure.analyzers.source import SourceFile, count_lines
from dure.analyzers.summary import (
    UNKNOWN,
    AttributeStore,
    Binding,
    CallRecord,
    ContainerAdd,
    ModuleSummary,
    ParamInfo,
    Ref,
    Scope,
    ValueUse,
)

IDENTIFIER_LIKE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*\Z")

BINARY_DUNDERS = BINARY_DUNDER_NAMES
COMPARE_DUNDERS: dict[type[ast.cmpop], str] = {
    ast.Eq: "__eq__",
    ast.NotEq: "__ne__",
    ast.Lt: "__lt__",
    ast.LtE: "__le__",
    ast.Gt: "__gt__",
    ast.GtE: "__ge__",
}
#: Container methods that add an item, and the position of the added item among their arguments.
CONTAINER_ADDERS = {"append": 0, "add": 0, "appendleft": 0, "insert": 1, "extend": 0, "setdefault": 1}
IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    if handler.type is None:
        return True
    names = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(
        isinstance(n, ast.Name | ast.Attribute) and text_of(n).split(".")[-1] in IMPORT_ERRORS for n in names
    )


def _is_getattr(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr"


def _docstring(body: list[ast.stmt]) -> str | None:
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        value = body[0].value.value
        return value if isinstance(value, str) else None
    return None


class ModuleCollector:
    """Builds the :class:`ModuleSummary` of one parsed file."""

    def __init__(self, source: SourceFile, text: str) -> None:
        self.lines = text.split("\n")
        lines = count_lines(text)
        self.summary = ModuleSummary(source.module, source.relpath, source.is_package, source.is_test)
        self.package = source.module if source.is_package else source.module.rpartition(".")[0]
        self.condition = ImportCondition.ALWAYS
        self.type_only = False
        self.block_depth = 0  # nesting of if/for/while/try/with/match inside the current scope
        self.line = 0  # line of the statement being collected
        self._super_contexts: dict[int, tuple[str, str] | None] = {}
        self.docstring_nodes: set[int] = set()
        module_scope = self._new_scope("module", source.module, None)
        self.scope = module_scope
        self.summary.definitions.append(
            Definition(
                source.module,
                DefinitionKind.MODULE,
                source.module,
                source.relpath,
                1,
                max(lines, 1),
                is_test=source.is_test,
            )
        )
        self.summary.def_scopes[source.module] = module_scope.id

    # -- scopes -------------------------------------------------------------------------------------

    def _new_scope(self, kind: str, owner: str, parent: int | None) -> Scope:
        scope = Scope(len(self.summary.scopes), kind, owner, parent)
        self.summary.scopes.append(scope)
        return scope

    @contextmanager
    def _inside(self, scope: Scope) -> Iterator[None]:
        saved = self.scope
        self.scope = scope
        try:
            yield
        finally:
            self.scope = saved

    def _binding_scope(self, name: str) -> Scope:
        """The scope an assignment to ``name`` binds in (honours ``global``; skips comprehensions)."""
        scope = self.scope
        while scope.kind == "comprehension" and scope.parent is not None:
            scope = self.summary.scopes[scope.parent]
        if name in scope.global_names:
            return self.summary.scopes[0]
        if name in scope.nonlocal_names:  # the nearest enclosing function binds it
            outer = scope
            while outer.parent is not None:
                outer = self.summary.scopes[outer.parent]
                if outer.kind in ("function", "lambda"):
                    return outer
        return scope

    def bind(self, name: str, binding: Binding, *, here: bool = False) -> None:
        """Bind ``name`` where Python would (``here``: in the current scope, for comprehension targets)."""
        scope = self.scope if here else self._binding_scope(name)
        guarded = self.block_depth > 0 or scope is not self._binding_scope_ignoring_global(name)
        binding = binding._replace(type_only=self.type_only, guarded=guarded, line=self.line)
        scope.bind(name, binding)

    def _binding_scope_ignoring_global(self, name: str) -> Scope:
        scope = self.scope
        while scope.kind == "comprehension" and scope.parent is not None:
            scope = self.summary.scopes[scope.parent]
        return scope

    @contextmanager
    def _block(self) -> Iterator[None]:
        self.block_depth += 1
        try:
            yield
        finally:
            self.block_depth -= 1

    @contextmanager
    def _new_body(self, scope: Scope) -> Iterator[None]:
        """A function or class body: blocks of the enclosing scope do not guard its bindings."""
        saved = self.block_depth
        self.block_depth = 0
        try:
            with self._inside(scope):
                yield
        finally:
            self.block_depth = saved

    def _super_context(self) -> tuple[str, str] | None:
        """``(class, self parameter)`` of the method the current scope is in, for ``super()``."""
        if self.scope.id in self._super_contexts:
            return self._super_contexts[self.scope.id]
        scope = self.scope
        while scope.kind in ("comprehension", "lambda") and scope.parent is not None:
            scope = self.summary.scopes[scope.parent]
        context = (
            (scope.method_of, scope.params[0].name)
            if scope.kind == "function" and scope.method_of and scope.params
            else None
        )
        self._super_contexts[self.scope.id] = context
        return context

    def ref(self, node: ast.expr) -> Ref:
        return ref_of(node, self.scope.owner, self._super_context())

    def segment(self, node: ast.expr) -> str:
        """The source text of ``node`` (cheap for one-line nodes; column offsets count UTF-8 bytes)."""
        if node.lineno == node.end_lineno and node.lineno <= len(self.lines):
            line = self.lines[node.lineno - 1]
            if line.isascii():
                return line[node.col_offset : node.end_col_offset]
            return line.encode()[node.col_offset : node.end_col_offset].decode(errors="replace")
        return ast.unparse(node)

    def optional_segment(self, node: ast.expr | None) -> str | None:
        return self.segment(node) if node is not None else None

    # -- statements ---------------------------------------------------------------------------------

    def collect(self, tree: ast.Module) -> ModuleSummary:
        module = self.summary.definitions[0]
        self.summary.definitions[0] = replace(module, docstring=_docstring(tree.body))
        self.body(tree.body)
        return self.summary

    def body(self, statements: list[ast.stmt]) -> None:
        if statements:
            first = statements[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                self.docstring_nodes.add(id(first.value))
        for statement in statements:
            self.line = statement.lineno
            handler = self.STATEMENTS.get(type(statement))
            if handler is None:
                raise NotImplementedError(f"unhandled statement {type(statement).__name__}")
            handler(self, statement)

    def function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        outer = self.scope
        qualname = f"{outer.owner}.{node.name}"
        for decorator in node.decorator_list:
            self.expr(decorator)
        self._defaults(node.args)
        scope = self._new_scope("function", qualname, outer.id)
        scope.is_async = isinstance(node, ast.AsyncFunctionDef)
        scope.decorators = tuple(self.ref(d) for d in node.decorator_list)
        scope.decorator_texts = tuple(self.segment(d) for d in node.decorator_list)
        if outer.kind == "class":
            scope.method_of = outer.owner
            scope.method_kind = self._method_kind(scope.decorator_texts)
        scope.params = self._params(node.args)
        scope.returns_annotation = self._annotation_ref(node.returns)
        self.summary.def_scopes.setdefault(qualname, scope.id)
        kind = DefinitionKind.METHOD if outer.kind == "class" else DefinitionKind.FUNCTION
        self._define(node, qualname, kind, scope)
        self._decorate(node, qualname, scope.decorators)
        self.bind(node.name, Binding("def", qualname, scope.id))
        self._param_indexes(scope)
        with self._new_body(scope):
            self.body(node.body)

    @staticmethod
    def _param_indexes(scope: Scope) -> None:
        for index, param in enumerate(scope.params):
            scope.bindings[param.name] = [Binding("param", index)]

    @staticmethod
    def _method_kind(decorators: tuple[str, ...]) -> str:
        for text in decorators:
            last = text.rpartition(".")[2]
            if last == "staticmethod":
                return "static"
            if last == "classmethod":
                return "class"
            if last in ("property", "cached_property") or last in ("setter", "getter", "deleter"):
                return "property"
        return "instance"

    def _params(self, args: ast.arguments) -> tuple[ParamInfo, ...]:
        defaults: list[ast.expr | None] = [None] * (
            len(args.posonlyargs) + len(args.args) - len(args.defaults)
        )
        defaults += args.defaults
        positional = [(a, ParameterKind.POSITIONAL_ONLY) for a in args.posonlyargs]
        positional += [(a, ParameterKind.POSITIONAL_OR_KEYWORD) for a in args.args]
        params = [self._param(a, kind, d) for (a, kind), d in zip(positional, defaults, strict=True)]
        if args.vararg:
            params.append(self._param(args.vararg, ParameterKind.VAR_POSITIONAL, None))
        for arg, default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
            params.append(self._param(arg, ParameterKind.KEYWORD_ONLY, default))
        if args.kwarg:
            params.append(self._param(args.kwarg, ParameterKind.VAR_KEYWORD, None))
        return tuple(params)

    def _param(self, arg: ast.arg, kind: ParameterKind, default: ast.expr | None) -> ParamInfo:
        return ParamInfo(
            arg.arg,
            kind.value,
            self._annotation_ref(arg.annotation),
            self.ref(default) if default is not None else None,
        )

    def _annotation_ref(self, node: ast.expr | None) -> Ref | None:
        if node is None:
            return None
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                parsed = ast.parse(node.value, mode="eval").body
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                return UNKNOWN
            return self.ref(parsed)
        return self.ref(node)

    def _defaults(self, args: ast.arguments) -> None:
        for default in [*args.defaults, *args.kw_defaults]:
            if default is not None:
                self.expr(default)
                self._use(default)

    def _define(
        self,
        node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef,
        qualname: str,
        kind: DefinitionKind,
        scope: Scope,
    ) -> None:
        parameters: tuple[Parameter, ...] = ()
        returns = None
        if not isinstance(node, ast.ClassDef):
            parameters = tuple(self._parameter(node.args))
            returns = self.segment(node.returns) if node.returns else None
        self.summary.definitions.append(
            Definition(
                qualname,
                kind,
                self.summary.module,
                self.summary.relpath,
                node.lineno,
                node.end_lineno or node.lineno,
                self.scope.owner,
                scope.decorator_texts,
                parameters,
                returns,
                _docstring(node.body),
                isinstance(node, ast.AsyncFunctionDef),
                self.summary.is_test,
            )
        )

    def _parameter(self, args: ast.arguments) -> Iterator[Parameter]:
        _unparse = self.optional_segment
        positional_defaults = len(args.posonlyargs) + len(args.args) - len(args.defaults)
        for index, arg in enumerate([*args.posonlyargs, *args.args]):
            kind = (
                ParameterKind.POSITIONAL_ONLY
                if index < len(args.posonlyargs)
                else ParameterKind.POSITIONAL_OR_KEYWORD
            )
            yield Parameter(arg.arg, kind, _unparse(arg.annotation), index >= positional_defaults)
        if args.vararg:
            yield Parameter(
                args.vararg.arg, ParameterKind.VAR_POSITIONAL, _unparse(args.vararg.annotation), False
            )
        for arg, default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
            yield Parameter(
                arg.arg, ParameterKind.KEYWORD_ONLY, _unparse(arg.annotation), default is not None
            )
        if args.kwarg:
            yield Parameter(args.kwarg.arg, ParameterKind.VAR_KEYWORD, _unparse(args.kwarg.annotation), False)

    def _decorate(
        self,
        node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef,
        qualname: str,
        decorators: tuple[Ref, ...],
    ) -> None:
        """Record ``@dec`` as a call of ``dec`` with the definition (innermost decorator first)."""
        argument: Ref = ("d", qualname)  # the undecorated object
        for decorator, ref in zip(reversed(node.decorator_list), reversed(decorators), strict=True):
            self._call(decorator, "deco", ref, text_of(decorator), args=(argument,))
            argument = ("c", ref, (argument,))

    def class_(self, node: ast.ClassDef) -> None:
        outer = self.scope
        qualname = f"{outer.owner}.{node.name}"
        for expression in [*node.decorator_list, *node.bases, *(k.value for k in node.keywords)]:
            self.expr(expression)
        scope = self._new_scope("class", qualname, outer.id)
        scope.decorators = tuple(self.ref(d) for d in node.decorator_list)
        scope.decorator_texts = tuple(self.segment(d) for d in node.decorator_list)
        scope.bases = tuple(self._base_ref(b) for b in node.bases)
        scope.base_texts = tuple(self.segment(b) for b in node.bases)
        metaclass = next((k.value for k in node.keywords if k.arg == "metaclass"), None)
        scope.metaclass = self.ref(metaclass) if metaclass is not None else None
        self.summary.def_scopes.setdefault(qualname, scope.id)
        self._define(node, qualname, DefinitionKind.CLASS, scope)
        self._call(node, "classdef", ("d", qualname), f"class {node.name}")  # metaclass, __init_subclass__
        self._decorate(node, qualname, scope.decorators)
        self.bind(node.name, Binding("class", qualname, scope.id))
        with self._new_body(scope):
            self.body(node.body)

    def _base_ref(self, node: ast.expr) -> Ref:
        while isinstance(node, ast.Subscript):  # Generic[T], Base[int]
            node = node.value
        return self.ref(node)

    def return_(self, node: ast.Return) -> None:
        if node.value is not None:
            self.expr(node.value)
            self._use(node.value)
        scope = self._function_scope()
        if scope is not None:
            scope.returns.append(self.ref(node.value) if node.value is not None else ("k", "NoneType"))

    def _function_scope(self) -> Scope | None:
        scope = self.scope
        while scope.kind == "comprehension" and scope.parent is not None:
            scope = self.summary.scopes[scope.parent]
        return scope if scope.kind in ("function", "lambda") else None

    def assign(self, node: ast.Assign) -> None:
        self.expr(node.value)
        if not (_is_getattr(node.value) and all(isinstance(t, ast.Name) for t in node.targets)):
            self._use(node.value)  # a getattr result bound to a local is followed through the local
        value = self.ref(node.value)
        for target in node.targets:
            self.target(target, value, node.value)
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            self._set_all(node.value, extend=False)

    def ann_assign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.expr(node.value)
            self._use(node.value)
            self.target(node.target, self.ref(node.value), node.value)
        elif isinstance(node.target, ast.Name):
            annotation = self._annotation_ref(node.annotation)
            self.bind(node.target.id, Binding("ann", annotation))
        elif isinstance(node.target, ast.Attribute):
            self.expr(node.target.value)

    def aug_assign(self, node: ast.AugAssign) -> None:
        self.expr(node.value)
        self.expr(node.target)
        dunder = BINARY_DUNDERS.get(type(node.op))
        if dunder:
            in_place = "__i" + dunder[2:]
            self._call(node, f"op:{in_place}", self.ref(node.target), in_place)
        if isinstance(node.target, ast.Name):
            if node.target.id == "__all__":
                self._set_all(node.value, extend=True)
            elif dunder:
                self.bind(node.target.id, Binding("aug", "__i" + dunder[2:]))
            else:
                self.bind(node.target.id, Binding("unknown", "augmented assignment"))

    def target(self, target: ast.expr, value: Ref, value_node: ast.expr | None) -> None:
        """Bind an assignment target to ``value`` (tuples pairwise when the value is a literal tuple)."""
        if isinstance(target, ast.Name):
            self.bind(target.id, Binding("val", value))
        elif isinstance(target, ast.Tuple | ast.List):
            items = value_node.elts if isinstance(value_node, ast.Tuple | ast.List) else None
            pairwise = (
                items is not None
                and len(items) == len(target.elts)
                and not any(isinstance(e, ast.Starred) for e in (*target.elts, *items))
            )
            starred = any(isinstance(e, ast.Starred) for e in target.elts)
            for index, element in enumerate(target.elts):
                if pairwise and items is not None:
                    self.target(element, self.ref(items[index]), items[index])
                elif value != UNKNOWN and not starred:
                    self.target(element, ("i", value, index), None)
                else:
                    self.target(element, UNKNOWN, None)
        elif isinstance(target, ast.Starred):
            self.target(target.value, UNKNOWN, None)
        elif isinstance(target, ast.Attribute):
            self.expr(target.value)
            self._attribute_store(target, value)
        elif isinstance(target, ast.Subscript):
            self.expr(target)
            self.summary.container_adds.append(ContainerAdd(self.scope.id, self.ref(target.value), value))

    def _attribute_store(self, target: ast.Attribute, value: Ref) -> None:
        self._call(target, "attrset", self.ref(target), text_of(target))
        context = self._super_context()
        function = self._function_scope()
        on_self = context and isinstance(target.value, ast.Name) and target.value.id == context[1]
        if on_self and context and function is not None and function.method_kind == "instance":
            class_scope = self.summary.scopes[self.summary.def_scopes[context[0]]]
            class_scope.instance_attrs.setdefault(target.attr, []).append((value, self.scope.id))
            return
        self.summary.attribute_stores.append(
            AttributeStore(self.scope.id, self.ref(target.value), target.attr, value, target.lineno)
        )

    def for_(self, node: ast.For | ast.AsyncFor) -> None:
        self.expr(node.iter)
        iterable = self.ref(node.iter)
        kind = "aiter" if isinstance(node, ast.AsyncFor) else "iter"
        self._call(node.iter, kind, iterable, "async for" if kind == "aiter" else "for")
        with self._block():
            self._bind_iteration(node.target, iterable)
            self.body(node.body)
            self.body(node.orelse)

    def _bind_iteration(self, target: ast.expr, iterable: Ref) -> None:
        here = self.scope.kind == "comprehension"
        if isinstance(target, ast.Name):
            self.bind(target.id, Binding("iter", iterable), here=here)
        elif isinstance(target, ast.Tuple | ast.List):
            for element in target.elts:
                if isinstance(element, ast.Name):
                    self.bind(element.id, Binding("unknown", "unpacked loop variable"), here=here)
                else:
                    self.target(element, UNKNOWN, None)
        else:
            self.target(target, UNKNOWN, None)

    def while_(self, node: ast.While) -> None:
        self.expr(node.test)
        with self._block():
            self.body(node.body)
            self.body(node.orelse)

    def if_(self, node: ast.If) -> None:
        self.expr(node.test)
        if _is_type_checking(node.test):
            saved = (self.condition, self.type_only)
            self.condition, self.type_only = ImportCondition.TYPE_CHECKING, True
            self.body(node.body)
            self.condition, self.type_only = saved
            self.body(node.orelse)
            return
        with self._condition(ImportCondition.CONDITIONAL), self._block():
            self.body(node.body)
            self.body(node.orelse)

    @contextmanager
    def _condition(self, condition: ImportCondition) -> Iterator[None]:
        saved = self.condition
        if saved in (ImportCondition.ALWAYS, ImportCondition.CONDITIONAL):
            self.condition = condition
        try:
            yield
        finally:
            self.condition = saved

    def with_(self, node: ast.With | ast.AsyncWith) -> None:
        with self._block():
            self._with(node)

    def _with(self, node: ast.With | ast.AsyncWith) -> None:
        kind = "awith" if isinstance(node, ast.AsyncWith) else "with"
        for item in node.items:
            self.expr(item.context_expr)
            manager = self.ref(item.context_expr)
            self._call(item.context_expr, kind, manager, "async with" if kind == "awith" else "with")
            if item.optional_vars is not None:
                if isinstance(item.optional_vars, ast.Name):
                    self.bind(item.optional_vars.id, Binding("enter", manager, kind == "awith"))
                else:
                    self.target(item.optional_vars, UNKNOWN, None)
        self.body(node.body)

    def try_(self, node: ast.Try | ast.TryStar) -> None:
        with self._block():
            self._try(node)

    def _try(self, node: ast.Try | ast.TryStar) -> None:
        guarded = any(_catches_import_error(h) for h in node.handlers)
        with self._condition(ImportCondition.TRY_EXCEPT if guarded else self.condition):
            self.body(node.body)
            for handler in node.handlers:
                if handler.type is not None:
                    self.expr(handler.type)
                if handler.name:
                    exception = self.ref(handler.type) if handler.type is not None else ("k", "BaseException")
                    self.bind(handler.name, Binding("exc", exception))
                self.body(handler.body)
        self.body(node.orelse)
        self.body(node.finalbody)

    def import_(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.asname:
                self.bind(alias.asname, Binding("import", alias.name))
                self._import(alias.asname, alias.name, node, 0)
            else:
                top = alias.name.partition(".")[0]
                self.bind(top, Binding("import", top))
                self._import(top, alias.name, node, 0)

    def import_from(self, node: ast.ImportFrom) -> None:
        base = self._absolute(node.module, node.level)
        for alias in node.names:
            if alias.name == "*":
                self.bind("*", Binding("from", base, "*"))
                self._import("*", base, node, node.level, star=True)
                continue
            local = alias.asname or alias.name
            self.bind(local, Binding("from", base, alias.name))
            self._import(local, f"{base}.{alias.name}" if base else alias.name, node, node.level)

    def _absolute(self, module: str | None, level: int) -> str:
        if level == 0:
            return module or ""
        parts = self.package.split(".") if self.package else []
        if level > 1:
            parts = parts[: len(parts) - (level - 1)] if level - 1 <= len(parts) else []
        if module:
            parts.append(module)
        return ".".join(parts)

    def _import(self, name: str, target: str, node: ast.stmt, level: int, *, star: bool = False) -> None:
        condition = self.condition
        if condition is ImportCondition.ALWAYS and self.scope.kind != "module":
            condition = ImportCondition.CONDITIONAL
        self.summary.imports.append(
            Import(
                self.summary.module,
                self.scope.owner,
                name,
                target,
                self.summary.relpath,
                node.lineno,
                condition,
                star,
                level,
            )
        )

    def global_(self, node: ast.Global) -> None:
        self.scope.global_names.update(node.names)

    def nonlocal_(self, node: ast.Nonlocal) -> None:
        self.scope.nonlocal_names.update(node.names)

    def expression_statement(self, node: ast.Expr) -> None:
        self.expr(node.value)
        call = node.value
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.args:
            receiver = call.func.value
            if isinstance(receiver, ast.Name) and receiver.id == "__all__" and call.func.attr == "extend":
                self._set_all(call.args[0], extend=True)

    def plain(self, node: ast.stmt) -> None:
        """Statements whose only effect of interest is the expressions they hold."""
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.expr(child)
        if isinstance(node, ast.Delete):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    self.bind(target.id, Binding("unknown", "deleted"))

    def raise_(self, node: ast.Raise) -> None:
        """``raise E`` instantiates the class ``E`` (``raise E(...)`` is an ordinary call)."""
        self.plain(node)
        if isinstance(node.exc, ast.Name | ast.Attribute):
            self._call(node.exc, "raise", self.ref(node.exc), text_of(node.exc))

    def match(self, node: ast.Match) -> None:
        with self._block():
            self._match(node)

    def _match(self, node: ast.Match) -> None:
        self.expr(node.subject)
        for case in node.cases:
            for child in ast.walk(case.pattern):
                name = getattr(child, "name", None) or getattr(child, "rest", None)
                if isinstance(name, str):
                    self.bind(name, Binding("unknown", "match capture"))
                if isinstance(child, ast.expr):
                    self.expr(child)
            if case.guard is not None:
                self.expr(case.guard)
            self.body(case.body)

    def type_alias(self, node: ast.stmt) -> None:
        name = getattr(node, "name", None)
        if isinstance(name, ast.Name):
            self.bind(name.id, Binding("unknown", "type alias"))

    def _set_all(self, value: ast.expr, *, extend: bool) -> None:
        if self.scope.kind != "module":
            return
        if isinstance(value, ast.List | ast.Tuple):
            names = tuple(
                e.value for e in value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
            )
            for element in value.elts:
                if isinstance(element, ast.Constant):
                    self.docstring_nodes.add(id(element))
            previous = self.summary.all_names or () if extend else ()
            self.summary.all_names = previous + names

    STATEMENTS: ClassVar[dict[type[ast.stmt], Callable[[ModuleCollector, Any], None]]] = {}  # filled below

    # -- expressions --------------------------------------------------------------------------------

    def expr(self, root: ast.expr) -> None:
        """Record every call, protocol use, lambda and comprehension inside ``root`` (iteratively)."""
        stack: list[tuple[ast.AST, Scope]] = [(root, self.scope)]
        saved = self.scope
        try:
            while stack:
                node, scope = stack.pop()
                self.scope = scope
                self._expression(node, stack)
        finally:
            self.scope = saved

    def _expression(self, node: ast.AST, stack: list[tuple[ast.AST, Scope]]) -> None:
        kind = type(node)
        if kind is ast.Name:  # the most common node, and a leaf
            return
        if kind is ast.Constant:
            if isinstance(node.value, str):  # type: ignore[attr-defined]
                self._string(node)  # type: ignore[arg-type]
            return
        scope = self.scope
        if isinstance(node, ast.Call):
            self._call_node(node)
            func = node.func
            stack.append((func.value if isinstance(func, ast.Attribute) else func, scope))
            stack.extend((a, scope) for a in node.args)
            stack.extend((k.value, scope) for k in node.keywords)
            return
        if isinstance(node, ast.Attribute):
            if isinstance(node.ctx, ast.Load):  # a property read is a call; most reads are not: kept light
                load = (scope.id, node.lineno, node.col_offset, self.ref(node.value), node.attr)
                self.summary.attribute_loads.append(load)
            stack.append((node.value, scope))
            return
        if isinstance(node, ast.Lambda):
            self._lambda(node, stack)
            return
        if isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
            self._comprehension(node, stack)
            return
        if isinstance(node, ast.BinOp):
            dunder = BINARY_DUNDERS.get(type(node.op))
            if dunder:
                self._call(node, f"op:{dunder}", self.ref(node.left), dunder)
        elif isinstance(node, ast.Compare):
            self._compare(node)
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load | ast.Store | ast.Del):
            dunder = {ast.Load: "__getitem__", ast.Store: "__setitem__", ast.Del: "__delitem__"}[
                type(node.ctx)
            ]
            self._call(node, f"op:{dunder}", self.ref(node.value), dunder)
        elif isinstance(node, ast.NamedExpr):
            self.bind(node.target.id, Binding("val", self.ref(node.value)))
            stack.append((node.value, scope))
            return
        elif isinstance(node, ast.Yield | ast.YieldFrom):
            function = self._function_scope()
            if function is not None:
                function.is_generator = True
            if node.value is not None:
                self._use(node.value)
        elif isinstance(node, ast.Await):
            pass
        elif isinstance(node, ast.List | ast.Tuple | ast.Set | ast.Dict):
            for item in node.values if isinstance(node, ast.Dict) else node.elts:
                if item is not None:
                    self._use(item)
        stack.extend((child, scope) for child in ast.iter_child_nodes(node))

    def _compare(self, node: ast.Compare) -> None:
        left = node.left
        for operator, right in zip(node.ops, node.comparators, strict=True):
            if isinstance(operator, ast.In | ast.NotIn):
                self._call(node, "op:__contains__", self.ref(right), "__contains__")
            elif type(operator) in COMPARE_DUNDERS:
                dunder = COMPARE_DUNDERS[type(operator)]
                self._call(node, f"op:{dunder}", self.ref(left), dunder)
            left = right

    def _string(self, node: ast.Constant) -> None:
        if id(node) in self.docstring_nodes:
            return
        value = node.value
        if isinstance(value, str) and len(value) <= 100 and IDENTIFIER_LIKE.match(value):
            self.summary.strings.setdefault(value, node.lineno)

    def _call_node(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in CONTAINER_ADDERS and node.args:
            position = CONTAINER_ADDERS[func.attr]
            if position < len(node.args):
                added = node.args[position]
                value = ("i", self.ref(added), None) if func.attr == "extend" else self.ref(added)
                self.summary.container_adds.append(ContainerAdd(self.scope.id, self.ref(func.value), value))
        args = tuple(UNKNOWN if isinstance(a, ast.Starred) else self.ref(a) for a in node.args)
        keywords = tuple((k.arg, self.ref(k.value)) for k in node.keywords)
        self._call(node, "call", self.ref(node.func), text_of(node.func), args=args, keywords=keywords)
        for argument in [*node.args, *(k.value for k in node.keywords)]:
            self._use(argument)

    def _call(
        self,
        node: ast.AST,
        kind: str,
        func: Ref,
        text: str,
        *,
        args: tuple[Ref, ...] = (),
        keywords: tuple[tuple[str | None, Ref], ...] = (),
    ) -> None:
        line = getattr(node, "lineno", 0)
        column = getattr(node, "col_offset", 0)
        callee = node.func if isinstance(node, ast.Call) else node
        end = (getattr(callee, "end_lineno", None) or line, getattr(callee, "end_col_offset", None) or column)
        record = CallRecord(self.scope.id, line, column, kind, func, args, keywords, text, end)
        self.summary.calls.append(record)

    def _use(self, node: ast.expr) -> None:
        """Note a name, attribute or lambda used as a value: what it denotes may be called elsewhere."""
        if isinstance(node, ast.Name | ast.Attribute | ast.Lambda) or _is_getattr(node):
            self.summary.uses.append(ValueUse(self.scope.id, self.ref(node), node.lineno))
        elif isinstance(node, ast.Starred):
            self._use(node.value)

    def _lambda(self, node: ast.Lambda, stack: list[tuple[ast.AST, Scope]]) -> None:
        outer = self.scope
        qualname = lambda_name(outer.owner, node)
        for default in [*node.args.defaults, *node.args.kw_defaults]:
            if default is not None:
                stack.append((default, outer))
        scope = self._new_scope("lambda", qualname, outer.id)
        scope.params = self._params(node.args)
        self._param_indexes(scope)
        scope.returns.append(ref_of(node.body, qualname, None))
        if qualname not in self.summary.def_scopes:
            self.summary.def_scopes[qualname] = scope.id
            self.summary.definitions.append(
                Definition(
                    qualname,
                    DefinitionKind.LAMBDA,
                    self.summary.module,
                    self.summary.relpath,
                    node.lineno,
                    node.end_lineno or node.lineno,
                    outer.owner,
                    parameters=tuple(self._parameter(node.args)),
                    is_test=self.summary.is_test,
                )
            )
        stack.append((node.body, scope))

    def _comprehension(
        self,
        node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp,
        stack: list[tuple[ast.AST, Scope]],
    ) -> None:
        outer = self.scope
        scope = self._new_scope("comprehension", outer.owner, outer.id)
        for index, generator in enumerate(node.generators):
            iter_scope = outer if index == 0 else scope
            stack.append((generator.iter, iter_scope))
            with self._inside(iter_scope):
                iterable = self.ref(generator.iter)
                self._call(generator.iter, "iter", iterable, "for")
            with self._inside(scope):
                self._bind_iteration(generator.target, iterable)
            stack.extend((condition, scope) for condition in generator.ifs)
        elements = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
        stack.extend((element, scope) for element in elements)


ModuleCollector.STATEMENTS = {
    ast.FunctionDef: ModuleCollector.function,
    ast.AsyncFunctionDef: ModuleCollector.function,
    ast.ClassDef: ModuleCollector.class_,
    ast.Return: ModuleCollector.return_,
    ast.Assign: ModuleCollector.assign,
    ast.AnnAssign: ModuleCollector.ann_assign,
    ast.AugAssign: ModuleCollector.aug_assign,
    ast.For: ModuleCollector.for_,
    ast.AsyncFor: ModuleCollector.for_,
    ast.While: ModuleCollector.while_,
    ast.If: ModuleCollector.if_,
    ast.With: ModuleCollector.with_,
    ast.AsyncWith: ModuleCollector.with_,
    ast.Try: ModuleCollector.try_,
    ast.TryStar: ModuleCollector.try_,
    ast.Import: ModuleCollector.import_,
    ast.ImportFrom: ModuleCollector.import_from,
    ast.Global: ModuleCollector.global_,
    ast.Nonlocal: ModuleCollector.nonlocal_,
    ast.Expr: ModuleCollector.expression_statement,
    ast.Match: ModuleCollector.match,
    ast.Raise: ModuleCollector.raise_,
    ast.Assert: ModuleCollector.plain,
    ast.Delete: ModuleCollector.plain,
    ast.Pass: ModuleCollector.plain,
    ast.Break: ModuleCollector.plain,
    ast.Continue: ModuleCollector.plain,
}
if hasattr(ast, "TypeAlias"):  # Python 3.12+
    ModuleCollector.STATEMENTS[ast.TypeAlias] = ModuleCollector.type_alias


def collect(source: SourceFile, tree: ast.Module, text: str) -> ModuleSummary:
    """The summary of one parsed module."""
    return ModuleCollector(source, text).collect(tree)

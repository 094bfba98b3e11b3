"""The scope bookkeeping of the collector: namespaces, where a name binds, parameters, source text."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from contextlib import contextmanager

from dure.analyzers.model import Definition, DefinitionKind, ImportCondition, Parameter, ParameterKind
from dure.analyzers.refs import ref_of
from dure.analyzers.source import SourceFile, count_lines
from dure.analyzers.summary import UNKNOWN, Binding, ModuleSummary, ParamInfo, Ref, Scope


class ScopeTracker:
    """State shared by the statement and expression passes: the summary being built and the current scope."""

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
        kind, a, b = binding[:3]  # not ``_replace``: this runs for every binding of every file
        scope.bind(name, Binding(kind, a, b, self.type_only, guarded, self.line))

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
        """The ref of ``node`` in the current scope; a name (half of all refs) spelt here directly."""
        if type(node) is ast.Name:
            return ("n", node.id)
        return ref_of(node, self.scope.owner, self._super_context)

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

    def _function_scope(self) -> Scope | None:
        scope = self.scope
        while scope.kind == "comprehension" and scope.parent is not None:
            scope = self.summary.scopes[scope.parent]
        return scope if scope.kind in ("function", "lambda") else None

    @staticmethod
    def _param_indexes(scope: Scope) -> None:
        for index, param in enumerate(scope.params):
            scope.bindings[param.name] = [Binding("param", index)]

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

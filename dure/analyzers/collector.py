"""One pass over a module's syntax tree that records its definitions, bindings, imports and call sites.

Statements are walked here, recursively (Python bounds their nesting). Expressions are walked by
:class:`~dure.analyzers.expressions.ExpressionCollector` and scopes kept by
:class:`~dure.analyzers.scopes.ScopeTracker`.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any, ClassVar

from dure.analyzers.expressions import BINARY_DUNDERS, ExpressionCollector, is_getattr
from dure.analyzers.mangling import (
    BOUND_AS,
    mangle_private_names,
    may_need_mangling,
    private_name_lines,
)
from dure.analyzers.model import Definition, DefinitionKind, Import, ImportCondition, Parameter
from dure.analyzers.refs import text_of
from dure.analyzers.source import SourceFile
from dure.analyzers.summary import UNKNOWN, ModuleSummary, Ref, Scope

IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})
#: Annotations that make a class body's name no field of its instances.
NOT_FIELDS = frozenset({"ClassVar", "InitVar"})


def _postpones_annotations(statements: list[ast.stmt]) -> bool:
    """``from __future__ import annotations`` at the top of a module: no annotation runs."""
    for statement in statements:
        if type(statement) is ast.ImportFrom and statement.module == "__future__":
            if any(alias.name == "annotations" for alias in statement.names):
                return True
        elif not (type(statement) is ast.Expr and type(statement.value) is ast.Constant):
            return False  # future imports come first, after the docstring
    return False


def _class_variable(annotation: ast.expr) -> bool:
    """Whether ``annotation`` spells ``ClassVar`` or ``InitVar`` (``typing.ClassVar[int]``, in a string)."""
    for node in ast.walk(annotation):
        if type(node) is ast.Name and node.id in NOT_FIELDS:
            return True
        if type(node) is ast.Attribute and node.attr in NOT_FIELDS:
            return True
        if (
            type(node) is ast.Constant
            and isinstance(node.value, str)
            and any(n in node.value for n in NOT_FIELDS)
        ):
            return True
    return False


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


def _docstring(body: list[ast.stmt]) -> str | None:
    if body and type(body[0]) is ast.Expr and type(body[0].value) is ast.Constant:
        value = body[0].value.value
        return value if isinstance(value, str) else None
    return None


#: Decorators that return the function they are given: a property under them is still a property.
KIND_KEEPING_DECORATORS = frozenset({"abstractmethod", "override", "final", "overload"})


class ModuleCollector(ExpressionCollector):
    """Builds the :class:`ModuleSummary` of one parsed file.

    Nested blocks and bodies save and restore the walk's state by hand, not with context managers (50,000
    blocks in a large repository), and without ``finally``: an exception abandons the whole file.
    """

    def collect(self, tree: ast.Module) -> ModuleSummary:
        self.flow_scope = self.summary.scopes[0]  # the module body runs in order too
        self.annotations_run = not _postpones_annotations(tree.body)
        self.body(tree.body)
        return self.summary

    def _annotation_calls(self, annotation: ast.expr | None) -> None:
        """The calls an annotation makes when it runs (``Annotated[int, Field(gt=0)]``, ``conint(gt=0)``),
        in the current scope: the outermost ones, whose walk records those inside them."""
        if annotation is None or not self.annotations_run:
            return
        pending: list[ast.AST] = [annotation]
        while pending:
            node = pending.pop()
            if type(node) is ast.Call:
                self.expr(node)
            else:
                pending.extend(ast.iter_child_nodes(node))

    def body(self, statements: list[ast.stmt]) -> None:
        if statements:
            first = statements[0]
            if type(first) is ast.Expr and type(first.value) is ast.Constant:
                self.docstring_nodes.add(id(first.value))
        handlers = self.STATEMENTS
        for statement in statements:
            self.line = statement.lineno
            handler = handlers.get(type(statement))
            if handler is None:
                raise NotImplementedError(f"unhandled statement {type(statement).__name__}")
            handler(self, statement)

    def _scope_body(self, scope: Scope, statements: list[ast.stmt]) -> None:
        """A function or class body: blocks of the enclosing scope do not guard its bindings, and a
        function's body runs in order from its start, whatever loop it is defined in (a class body's reads
        are plain: its names are read as attributes from anywhere)."""
        saved = (self.scope, self.block_depth, self.flow_scope, self.flow_on, self.flow_names, self.flow_held)
        self.scope, self.block_depth = scope, 0
        self.flow_scope = scope if scope.kind == "function" else None
        self.flow_on, self.flow_names, self.flow_held = True, {}, None
        self.body(statements)
        (self.scope, self.block_depth, self.flow_scope, self.flow_on, self.flow_names, self.flow_held) = saved

    def _blocks(self, *bodies: list[ast.stmt]) -> None:
        """Bodies of an if/for/while/try/with/match: the bindings in them are guarded."""
        self.block_depth += 1
        for statements in bodies:
            self.body(statements)
        self.block_depth -= 1

    def function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        outer = self.scope
        qualname = f"{outer.owner}.{node.name}"
        for decorator in node.decorator_list:
            self.expr(decorator)
        self._defaults(node.args)
        self._signature_annotations(node)
        scope = self._new_scope("function", qualname, outer.id)
        scope.is_async = type(node) is ast.AsyncFunctionDef
        if node.decorator_list:
            scope.decorators = tuple([self.ref(d) for d in node.decorator_list])
            scope.decorator_texts = tuple([self.segment(d) for d in node.decorator_list])
        if outer.kind == "class":
            scope.method_of = outer.owner
            scope.method_kind = self._method_kind(scope.decorator_texts)
        parameters = self._parameters(node.args, scope)
        scope.returns_annotation = self._annotation_ref(node.returns)
        self.body_of(qualname, scope)
        kind = DefinitionKind.METHOD if outer.kind == "class" else DefinitionKind.FUNCTION
        returns = self.segment(node.returns) if node.returns else None
        self._define(node, qualname, kind, scope, parameters=parameters, returns=returns)
        if node.decorator_list:
            self._decorate(node, qualname, scope.decorators)
        self.bind(getattr(node, BOUND_AS, node.name), "def", qualname, scope.id)
        self._scope_body(scope, node.body)
        scope.ends_in_raise = type(node.body[-1]) is ast.Raise

    @staticmethod
    def _method_kind(decorators: tuple[str, ...]) -> str:
        """The kind of method the decorators (outermost first) make. A property wrapped by a decorator
        that may return anything (``@wrap_prop(ctx)`` over ``@property``) is whatever that returns, not a
        property: only decorators that return what they are given may sit above one."""
        wrapped = False
        for text in decorators:
            last = text.rpartition(".")[2]
            if last == "staticmethod":
                return "static"
            if last == "classmethod":
                return "class"
            if last in ("property", "cached_property") or last in ("setter", "getter", "deleter"):
                return "instance" if wrapped else "property"
            wrapped = wrapped or last not in KIND_KEEPING_DECORATORS
        return "instance"

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
        *,
        parameters: tuple[Parameter, ...] = (),
        returns: str | None = None,
    ) -> None:
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
                type(node) is ast.AsyncFunctionDef,
                self.summary.is_test,
            )
        )

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
        self.body_of(qualname, scope)
        self._define(node, qualname, DefinitionKind.CLASS, scope)
        self._call(node, "classdef", ("d", qualname), f"class {node.name}")  # metaclass, __init_subclass__
        self._decorate(node, qualname, scope.decorators)
        self.bind(getattr(node, BOUND_AS, node.name), "class", qualname, scope.id)
        self._scope_body(scope, node.body)

    def _base_ref(self, node: ast.expr) -> Ref:
        while isinstance(node, ast.Subscript):  # Generic[T], Base[int]
            node = node.value
        return self.ref(node)

    def return_(self, node: ast.Return) -> None:
        value: Ref = ("k", "NoneType")
        if node.value is not None:
            self.expr(node.value)
            value = self.ref(node.value)
            self._use_ref(node.value, value)
        scope = self._function_scope()
        if scope is not None:
            scope.returns.append(value)

    def assign(self, node: ast.Assign) -> None:
        value_node = node.value
        if self.flow_scope is not None:
            for target in node.targets:
                self.flow_before(target)
        self.expr(value_node)
        value = self.ref(value_node)
        # a getattr result bound to a local is followed through the local
        if not (is_getattr(value_node) and all(type(t) is ast.Name for t in node.targets)):
            self._use_ref(value_node, value)
        sets_all = False
        held = self.hold()
        for target in node.targets:
            self.target(target, value, value_node)
            sets_all = sets_all or (type(target) is ast.Name and target.id == "__all__")
        self.release(held)
        if sets_all:
            self._set_all(value_node, extend=False)

    def _signature_annotations(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        """A ``def`` evaluates its parameters' and return annotations where it stands."""
        if not self.annotations_run:
            return
        args = node.args
        for arg in [*args.posonlyargs, *args.args, args.vararg, *args.kwonlyargs, args.kwarg]:
            if arg is not None:
                self._annotation_calls(arg.annotation)
        self._annotation_calls(node.returns)

    def ann_assign(self, node: ast.AnnAssign) -> None:
        target = node.target
        if self.scope.kind == "class" and type(target) is ast.Name and not _class_variable(node.annotation):
            self.scope.fields.add(target.id)
        if self.scope.kind != "function":  # a module's or a class's annotations run, a function's never
            self._annotation_calls(node.annotation)
        if node.value is not None:
            self.flow_before(node.target)
            self.expr(node.value)
            value = self.ref(node.value)
            self._use_ref(node.value, value)
            held = self.hold()
            self.target(node.target, value, node.value)
            self.release(held)
        elif isinstance(node.target, ast.Name):
            annotation = self._annotation_ref(node.annotation)
            self.bind(node.target.id, "ann", annotation)
        elif isinstance(node.target, ast.Attribute):
            self.expr(node.target.value)

    def aug_assign(self, node: ast.AugAssign) -> None:
        self.expr(node.value)
        self.expr(node.target)
        target = node.target
        if isinstance(target, ast.Subscript):  # ``box[k] += v`` reads ``box[k]`` before it stores it
            self._call(target, "op:__getitem__", self.ref(target.value), "__getitem__")
        elif isinstance(target, ast.Attribute):  # ``obj.p += v``: a property's getter, then its setter
            base = self.ref(target.value)
            self.summary.attribute_loads.append(
                (self.scope.id, target.lineno, target.col_offset, base, target.attr)
            )
            self._call(target, "attrset", self.ref(target), text_of(target))
        dunder = BINARY_DUNDERS.get(type(node.op))
        if dunder:
            in_place = "__i" + dunder[2:]
            self._call(node, f"op:{in_place}", self.ref(node.target), in_place, args=(self.ref(node.value),))
            self._reflected(node, node.value, f"__r{dunder[2:]}")  # when ``+=`` falls back to ``+``
        if isinstance(node.target, ast.Name):
            if node.target.id == "__all__":
                self._set_all(node.value, extend=True)
            elif dunder:
                self.bind(node.target.id, "aug", "__i" + dunder[2:], node.target.id)
            else:
                self.bind(node.target.id, "unknown", "augmented assignment")

    def for_(self, node: ast.For | ast.AsyncFor) -> None:
        self.flow_before(node.target)  # ``for x in x.children``: the iterable is read once, first
        self.expr(node.iter)
        iterable = self.ref(node.iter)
        kind = "aiter" if isinstance(node, ast.AsyncFor) else "iter"
        self._call(node.iter, kind, iterable, "async for" if kind == "aiter" else "for")
        self.block_depth += 1
        flow_on, self.flow_on = self.flow_on, False
        self._bind_iteration(node.target, iterable)
        self.body(node.body)
        self.body(node.orelse)
        self.flow_on = flow_on
        self.block_depth -= 1

    def while_(self, node: ast.While) -> None:
        flow_on, self.flow_on = self.flow_on, False  # the test runs again after the body
        self.expr(node.test)
        self.truth_test(node.test)
        self._blocks(node.body, node.orelse)
        self.flow_on = flow_on

    def if_(self, node: ast.If) -> None:
        self.expr(node.test)
        self.truth_test(node.test)
        if _is_type_checking(node.test):
            saved = (self.condition, self.type_only)
            self.condition, self.type_only = ImportCondition.TYPE_CHECKING, True
            self.body(node.body)
            self.condition, self.type_only = saved
            self.body(node.orelse)
            return
        outer = self.condition
        self.condition = self._narrowed(ImportCondition.CONDITIONAL)
        self._blocks(node.body, node.orelse)
        self.condition = outer

    def _narrowed(self, condition: ImportCondition) -> ImportCondition:
        """The condition of imports inside a block: ``TYPE_CHECKING`` is never narrowed."""
        if self.condition in (ImportCondition.ALWAYS, ImportCondition.CONDITIONAL):
            return condition
        return self.condition

    def with_(self, node: ast.With | ast.AsyncWith) -> None:
        self.block_depth += 1
        self._with(node)
        self.block_depth -= 1

    def _with(self, node: ast.With | ast.AsyncWith) -> None:
        kind = "awith" if isinstance(node, ast.AsyncWith) else "with"
        for item in node.items:
            self.expr(item.context_expr)
            manager = self.ref(item.context_expr)
            self._call(item.context_expr, kind, manager, "async with" if kind == "awith" else "with")
            if item.optional_vars is not None:
                if isinstance(item.optional_vars, ast.Name):
                    self.bind(item.optional_vars.id, "enter", manager, kind == "awith")
                else:
                    self.target(item.optional_vars, UNKNOWN, None)
        self.body(node.body)

    def _handler(self, name: str, exception: Ref, body: list[ast.stmt]) -> None:
        """``except E as name:``. In a function body, read in order, the name is exactly what was caught
        until the handler rebinds it; Python deletes it when the handler ends, so reads after the ``try``
        see the bindings made before it."""
        scope = self.flow_scope
        ordered = (
            scope is not None
            and self.scope is scope
            and self.flow_on
            and self.flow_held is None
            and name not in scope.global_names
            and name not in scope.nonlocal_names
        )
        before = self.flow_names.get(name)
        self.bind(name, "exc", exception)
        if ordered and scope is not None:
            self.flow_names[name] = ("n", name, -len(scope.bindings[name]), scope.id)
        self.body(body)
        if ordered:
            if before is None:
                self.flow_names.pop(name, None)
            else:
                self.flow_names[name] = before

    def try_(self, node: ast.Try | ast.TryStar) -> None:
        self.block_depth += 1
        self._try(node)
        self.block_depth -= 1

    def _try(self, node: ast.Try | ast.TryStar) -> None:
        guarded = any(_catches_import_error(h) for h in node.handlers)
        saved = self.condition
        self.condition = self._narrowed(ImportCondition.TRY_EXCEPT if guarded else self.condition)
        self.body(node.body)
        for handler in node.handlers:
            if handler.type is not None:
                self.expr(handler.type)
            if handler.name:
                exception = self.ref(handler.type) if handler.type is not None else ("k", "BaseException")
                self._handler(handler.name, exception, handler.body)
            else:
                self.body(handler.body)
        self.condition = saved
        self.body(node.orelse)
        self.body(node.finalbody)

    def import_(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.asname:
                self.bind(alias.asname, "import", alias.name)
                self._import(alias.asname, alias.name, node, 0)
            else:
                top = alias.name.partition(".")[0]
                self.bind(top, "import", top)
                self._import(top, alias.name, node, 0)

    def import_from(self, node: ast.ImportFrom) -> None:
        base = self._absolute(node.module, node.level)
        for alias in node.names:
            if alias.name == "*":
                self.bind("*", "from", base, "*")
                self._import("*", base, node, node.level, star=True)
                continue
            local = alias.asname or alias.name
            self.bind(local, "from", base, alias.name)
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
        if type(call) is ast.Call and type(call.func) is ast.Attribute and call.args:
            receiver = call.func.value
            if type(receiver) is ast.Name and receiver.id == "__all__":
                self._change_all(call.func.attr, call.args)

    def _change_all(self, method: str, args: list[ast.expr]) -> None:
        """``__all__.extend([...])``, ``.append(name)``, ``.insert(i, name)``, ``.remove(name)``."""
        if method == "extend":
            self._set_all(args[0], extend=True)
        elif method in ("append", "insert"):
            self._set_all(ast.List([args[-1]]), extend=True)
        elif method == "remove" and self.scope.kind == "module" and self.summary.all_names is not None:
            name = args[0]
            if type(name) is ast.Constant and type(name.value) is str:
                self.docstring_nodes.add(id(name))
                self.summary.all_names = tuple(n for n in self.summary.all_names if n != name.value)

    def plain(self, node: ast.stmt) -> None:
        """Statements whose only effect of interest is the expressions they hold."""
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.expr(child)
        if isinstance(node, ast.Assert):
            self.truth_test(node.test)
        if isinstance(node, ast.Delete):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    self.bind(target.id, "unknown", "deleted")
                elif isinstance(target, ast.Attribute):  # a deleter, ``__delete__`` or ``__delattr__`` runs
                    self._call(target, "attrdel", self.ref(target), text_of(target))

    def raise_(self, node: ast.Raise) -> None:
        """``raise E`` instantiates the class ``E`` (``raise E(...)`` is an ordinary call), and so does
        ``raise ... from C`` for its cause ``C``."""
        self.plain(node)
        for raised in (node.exc, node.cause):
            if isinstance(raised, ast.Name | ast.Attribute):
                self._call(raised, "raise", self.ref(raised), text_of(raised))

    def match(self, node: ast.Match) -> None:
        self.block_depth += 1
        self._match(node)
        self.block_depth -= 1

    def _match(self, node: ast.Match) -> None:
        self.expr(node.subject)
        subject = self.ref(node.subject)
        for case in node.cases:
            self._pattern(case.pattern, subject)
            alternatives = case.pattern.patterns if type(case.pattern) is ast.MatchOr else [case.pattern]
            for alternative in alternatives:
                if type(alternative) is ast.MatchValue:  # ``subject == value``
                    value = alternative.value
                    self._call(alternative, "op:__eq__", subject, "__eq__", args=(self.ref(value),))
                    self._reflected(alternative, value, "__eq__")
            if case.guard is not None:
                self.expr(case.guard)
            self.body(case.body)

    def _pattern(self, pattern: ast.pattern, value: Ref | None) -> None:
        """Bind the captures of ``pattern``, matched against a subject whose ref is ``value`` (None: one the
        index does not follow), and record the attribute reads of its class patterns.

        ``Cls(a, b=c)`` matches an instance of ``Cls`` (or of a subclass), then reads from it the attributes
        ``Cls.__match_args__`` names by position (``("mp", instance, 0)``) and ``b`` by keyword; what they
        match against is what those attributes hold."""
        if isinstance(pattern, ast.MatchAs):
            inner, name = pattern.pattern, pattern.name
            if inner is not None:
                self._pattern(inner, value)
            if name is not None:
                if type(inner) is ast.MatchClass:
                    self.bind(name, "val", ("ni", self.ref(inner.cls)))
                elif value is not None:
                    self.bind(name, "val", value)
                else:
                    self.bind(name, "unknown", "match capture")
        elif isinstance(pattern, ast.MatchClass):
            self.expr(pattern.cls)
            instance = ("ni", self.ref(pattern.cls))
            for position, positional in enumerate(pattern.patterns):
                self._pattern(positional, ("mp", instance, position))
            for attr, keyword in zip(pattern.kwd_attrs, pattern.kwd_patterns, strict=True):
                self.summary.attribute_loads.append(
                    (self.scope.id, keyword.lineno, keyword.col_offset, instance, attr)
                )
                self._pattern(keyword, ("a", instance, attr))
        elif isinstance(pattern, ast.MatchSequence):  # ``[a, b]``: items of the subject
            for item in pattern.patterns:
                self._pattern(
                    item, ("it", value) if value is not None and type(item) is not ast.MatchStar else None
                )
        elif isinstance(pattern, ast.MatchMapping):  # ``{"k": v}``: values of the subject
            for key, item in zip(pattern.keys, pattern.patterns, strict=True):
                self.expr(key)
                constant = (
                    key.value if type(key) is ast.Constant and isinstance(key.value, str | int) else None
                )
                self._pattern(item, ("i", value, constant) if value is not None else None)
            if pattern.rest is not None:
                self.bind(pattern.rest, "unknown", "match capture")
        else:
            for child in ast.iter_child_nodes(pattern):
                if isinstance(child, ast.pattern):
                    self._pattern(child, None)
                elif isinstance(child, ast.expr):
                    self.expr(child)
            name = getattr(pattern, "name", None) or getattr(pattern, "rest", None)
            if isinstance(name, str):
                self.bind(name, "unknown", "match capture")

    def type_alias(self, node: ast.stmt) -> None:
        name = getattr(node, "name", None)
        if isinstance(name, ast.Name):
            self.bind(name.id, "unknown", "type alias")

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
    if may_need_mangling(text):
        mangle_private_names(tree, private_name_lines(text))
    return ModuleCollector(source, text, _docstring(tree.body)).collect(tree)

"""The expression pass of the collector: calls, protocol uses, lambdas and comprehensions.

Expressions are walked with an explicit stack, because generated code can nest them far deeper than the
interpreter's recursion limit.
"""

from __future__ import annotations

import ast
import re

from dure.analyzers.model import Definition, DefinitionKind
from dure.analyzers.refs import BINARY_DUNDER_NAMES, lambda_name, ref_of, text_of
from dure.analyzers.scopes import ScopeTracker
from dure.analyzers.summary import (
    UNKNOWN,
    AttributeStore,
    Binding,
    CallRecord,
    ContainerAdd,
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


def is_getattr(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr"


def _children(node: ast.AST) -> list[ast.AST]:
    """``list(ast.iter_child_nodes(node))``, without its generators: the expression walk's inner loop."""
    children: list[ast.AST] = []
    for name in node._fields:
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            children.append(value)
        elif isinstance(value, list):
            children.extend(item for item in value if isinstance(item, ast.AST))
    return children


class ExpressionCollector(ScopeTracker):
    """Records what expressions call, bind and use; the statement pass builds on it."""

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
        stack.extend([(child, scope) for child in _children(node)])

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
        if isinstance(node, ast.Name | ast.Attribute | ast.Lambda) or is_getattr(node):
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

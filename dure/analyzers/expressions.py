"""The expression pass of the collector: calls, protocol uses, lambdas and comprehensions.

Expressions are walked with an explicit stack, because generated code can nest them far deeper than the
interpreter's recursion limit.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from dure.analyzers.model import Definition, DefinitionKind
from dure.analyzers.refs import (
    BINARY_DUNDER_NAMES,
    constant_ref,
    lambda_name,
    no_super_context,
    ref_of,
    text_of,
)
from dure.analyzers.scopes import ScopeTracker
from dure.analyzers.summary import (
    STARRED,
    UNKNOWN,
    AttributeStore,
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
SUBSCRIPT_DUNDERS: dict[type[ast.expr_context], str] = {
    ast.Load: "__getitem__",
    ast.Store: "__setitem__",
    ast.Del: "__delitem__",
}
UNARY_DUNDERS: dict[type[ast.unaryop], str] = {
    ast.USub: "__neg__",
    ast.UAdd: "__pos__",
    ast.Invert: "__invert__",
}
#: What an f-string replacement field calls on its value, by its conversion (none, ``!s``, ``!r``, ``!a``).
FORMAT_DUNDERS = {-1: "__format__", ord("s"): "__str__", ord("r"): "__repr__", ord("a"): "__repr__"}
#: The call kind of an operator's dunder (``op:__add__``); ``op:__bool__`` is a truth test.
OPERATOR_KINDS: dict[str, str] = {
    dunder: f"op:{dunder}"
    for dunder in (
        *BINARY_DUNDER_NAMES.values(),
        *COMPARE_DUNDERS.values(),
        *SUBSCRIPT_DUNDERS.values(),
        *UNARY_DUNDERS.values(),
        *FORMAT_DUNDERS.values(),
        "__bool__",
        "__await__",
    )
}
#: The call kind of a reflected operator's dunder (``rop:__radd__``): a possible call only.
REFLECTED_COMPARISONS = {
    "__eq__": "__eq__",
    "__ne__": "__ne__",
    "__lt__": "__gt__",
    "__gt__": "__lt__",
    "__le__": "__ge__",
    "__ge__": "__le__",
}
REFLECTED_KINDS: dict[str, str] = {
    dunder: f"rop:{dunder}"
    for dunder in (*[f"__r{d[2:]}" for d in BINARY_DUNDER_NAMES.values()], *REFLECTED_COMPARISONS.values())
}
#: Literal expressions: their values are builtins.
LITERALS: frozenset[type[ast.AST]] = frozenset(
    {
        ast.Constant,
        ast.JoinedStr,
        ast.List,
        ast.Tuple,
        ast.Dict,
        ast.Set,
        ast.Compare,
        ast.ListComp,
        ast.SetComp,
        ast.DictComp,
        ast.GeneratorExp,
    }
)
#: Expressions whose truth test may run a special method of the repository (others give a builtin value).
TESTED_VALUES: frozenset[type[ast.AST]] = frozenset(
    {ast.Name, ast.Attribute, ast.Subscript, ast.Call, ast.NamedExpr, ast.Await}
)
#: Builtins that return a bool (or an int): testing what they return runs no code of the repository.
GIVES_BOOL = frozenset({"isinstance", "issubclass", "hasattr", "callable", "bool", "len", "any", "all"})
#: Container methods that add an item, and the position of the added item among their arguments.
CONTAINER_ADDERS = {"append": 0, "add": 0, "appendleft": 0, "insert": 1, "extend": 0, "setdefault": 1}


#: Builds a record (a named tuple) from a tuple without the Python-level ``__new__`` of named tuples.
_new_record = tuple.__new__


def is_getattr(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr"


def _subclasses(*bases: type[ast.AST]) -> set[type[ast.AST]]:
    return {kind for base in bases for kind in base.__subclasses__()}


#: Nodes the expression walk has nothing to do for: names (leaves, the most common node) and the context
#: and operator markers. They are never pushed on the walk's stack.
INERT: frozenset[type[ast.AST]] = frozenset(
    {ast.Name} | _subclasses(ast.expr_context, ast.operator, ast.boolop, ast.cmpop, ast.unaryop)
)
Stack = list[tuple[ast.AST, Scope]]
#: Expressions whose value, used other than by calling it, may be called elsewhere.
VALUE_NODES: frozenset[type[ast.AST]] = frozenset({ast.Name, ast.Attribute, ast.Lambda})
#: Expressions whose value is one of their parts': a starred one, ``a if c else b``, ``a or b``.
CHOICE_NODES: frozenset[type[ast.AST]] = frozenset({ast.Starred, ast.IfExp, ast.BoolOp})
#: The nodes :meth:`ExpressionCollector._use` may record (a getattr call, a starred value).
MAY_BE_USES: frozenset[type[ast.AST]] = VALUE_NODES | CHOICE_NODES | {ast.Call}


#: Subscripts whose key may be an instance of a repository class, which a dict hashes.
KEYS_THAT_MAY_HASH: frozenset[type[ast.AST]] = frozenset({ast.Name, ast.Attribute, ast.Call})


def _push(stack: Stack, scope: Scope, *nodes: ast.expr | None) -> None:
    """Push the given children of a node but the absent and the inert ones, in order."""
    for node in nodes:
        if node is not None and type(node) not in INERT:
            stack.append((node, scope))


def _push_children(node: ast.AST, scope: Scope, stack: Stack) -> None:
    """Push ``ast.iter_child_nodes(node)`` but the inert ones, in order: the expression walk's inner loop."""
    for name in node._fields:
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            if type(value) not in INERT:
                stack.append((value, scope))
        elif isinstance(value, list):
            stack.extend(
                [(item, scope) for item in value if isinstance(item, ast.AST) and type(item) not in INERT]
            )


class ExpressionCollector(ScopeTracker):
    """Records what expressions call, bind and use; the statement pass builds on it."""

    def expr(self, root: ast.expr) -> None:
        """Record every call, protocol use, lambda and comprehension inside ``root`` (iteratively)."""
        if type(root) in INERT:
            return
        stack: Stack = [(root, self.scope)]
        saved = self.scope
        handlers = self.EXPRESSIONS
        generic = ExpressionCollector._generic
        try:
            while stack:
                node, scope = stack.pop()
                self.scope = scope
                handlers.get(type(node), generic)(self, node, stack)
        finally:
            self.scope = saved

    def _generic(self, node: ast.AST, stack: Stack) -> None:
        _push_children(node, self.scope, stack)

    def _leaf(self, node: ast.AST, stack: Stack) -> None:
        """A name: nothing to record (comprehensions and lambdas push them unfiltered)."""

    def _constant(self, node: ast.Constant, stack: Stack) -> None:
        """Note an identifier-like string (a name looked up at run time, perhaps), but a docstring."""
        value = node.value
        if type(value) is not str or len(value) > 100:
            return
        strings = self.summary.strings
        if value not in strings and id(node) not in self.docstring_nodes and IDENTIFIER_LIKE.match(value):
            strings[value] = node.lineno

    def _call_expression(self, node: ast.Call, stack: Stack) -> None:
        """Record a call and its arguments' uses, then walk the callee's receiver and the arguments.

        The ref of each argument is computed once, for the call and for its use; names, the commonest
        arguments, are spelt here, and constants that hold no string are not walked.
        """
        scope = self.scope
        func = node.func
        arguments = node.args
        uses = self.summary.uses
        refs: list[Ref] = []
        walk: Stack = []
        for argument in arguments:
            if type(argument) is ast.Name:
                ref: Ref = self.name_ref(argument.id)
                uses.append(_new_record(ValueUse, (scope.id, ref, argument.lineno)))
            elif type(argument) is ast.Constant:
                ref = constant_ref(argument.value)
                if type(argument.value) is str:
                    walk.append((argument, scope))
            elif type(argument) is ast.Starred:
                ref = STARRED
                self._use(argument.value)
                self._call(argument, "iter", self.ref(argument.value), "*")  # ``f(*xs)`` iterates ``xs``
                walk.append((argument, scope))
            else:
                ref = self.ref(argument)
                self._use_ref(argument, ref)
                walk.append((argument, scope))
            refs.append(ref)
        args = tuple(refs)
        keywords: tuple[tuple[str | None, Ref], ...] = ()
        if node.keywords:
            keywords = tuple([(k.arg, self.ref(k.value)) for k in node.keywords])
            for keyword, (_, ref) in zip(node.keywords, keywords, strict=True):
                if type(keyword.value) is not ast.Constant:
                    self._use_ref(keyword.value, ref)
        if arguments and type(func) is ast.Attribute and func.attr in CONTAINER_ADDERS:
            self._container_add(func, arguments, args)
        elif type(func) is ast.Attribute and func.attr == "update" and (arguments or node.keywords):
            self._dict_update(func, args, keywords)
            self._computed_writes(func, arguments)
        elif type(func) is ast.Name and func.id == "setattr" and len(arguments) > 1:
            self._computed_writes(func, arguments)
        line, column = node.lineno, node.col_offset
        end = (func.end_lineno or line, func.end_col_offset or column)
        func_ref = self.ref(func)
        record = (scope.id, line, column, "call", func_ref, args, keywords, text_of(func), end)
        self.summary.calls.append(_new_record(CallRecord, record))
        if type(func) is ast.Attribute and func_ref[0] == "a":  # ``obj.p()`` reads ``p``: a getter runs
            self.summary.attribute_loads.append(
                (scope.id, func.lineno, func.col_offset, func_ref[1], func.attr)
            )
        callee = func.value if type(func) is ast.Attribute else func
        if type(callee) not in INERT:
            stack.append((callee, scope))
        stack += walk
        if node.keywords:
            stack.extend([(k.value, scope) for k in node.keywords if type(k.value) not in INERT])

    def _attribute(self, node: ast.Attribute, stack: Stack) -> None:
        scope = self.scope
        if type(node.ctx) is ast.Load:  # a property read is a call; most reads are not: kept light
            load = (scope.id, node.lineno, node.col_offset, self.ref(node.value), node.attr)
            self.summary.attribute_loads.append(load)
        if type(node.value) not in INERT:
            stack.append((node.value, scope))

    def _binary(self, node: ast.BinOp, stack: Stack) -> None:
        dunder = BINARY_DUNDERS.get(type(node.op))
        if dunder:
            right = self.ref(node.right)
            self._call(node, OPERATOR_KINDS[dunder], self.ref(node.left), dunder, args=(right,))
            self._reflected(node, node.right, f"__r{dunder[2:]}")
        _push(stack, self.scope, node.left, node.right)

    def _reflected(self, node: ast.expr | ast.stmt | ast.pattern, right: ast.expr, dunder: str) -> None:
        """``a + b`` may run ``b.__radd__`` (when ``a`` has no ``__add__`` for it, or ``b``'s class derives
        from ``a``'s); a literal on the right is a builtin, whose reflected methods run no repository code."""
        if type(right) not in LITERALS:
            self._call(node, REFLECTED_KINDS[dunder], self.ref(right), dunder)

    def _comparison(self, node: ast.Compare, stack: Stack) -> None:
        self._compare(node)
        scope = self.scope
        _push(stack, scope, node.left)
        stack.extend([(c, scope) for c in node.comparators if type(c) not in INERT])

    def _subscript(self, node: ast.Subscript, stack: Stack) -> None:
        dunder = SUBSCRIPT_DUNDERS.get(type(node.ctx))
        if dunder is not None:
            receiver = node.value
            container = self.ref(receiver)
            # ``sys.modules[key] = obj`` keeps its key (see dynamic.module_replacements); others need none
            keyed = dunder == "__setitem__" and type(receiver) is ast.Attribute and receiver.attr == "modules"
            args = (self.ref(node.slice),) if keyed else ()
            self._call(node, OPERATOR_KINDS[dunder], container, dunder, args=args)
            if type(node.slice) in KEYS_THAT_MAY_HASH:  # a dict hashes the key (a record of its own)
                self._call(node.slice, "subkey", container, "__hash__", args=(self.ref(node.slice),))
        _push(stack, self.scope, node.value, node.slice)

    def truth_test(self, node: ast.expr) -> None:
        """``if node:`` and every other test: ``bool()`` of the value runs ``__bool__`` (else ``__len__``).
        Of ``a and b`` at a test, ``b`` is tested here, ``a`` by the walk (see :meth:`_boolean`); ``not x``
        is tested by the walk too."""
        while type(node) is ast.BoolOp:
            node = node.values[-1]
        kind = type(node)
        if kind not in TESTED_VALUES:
            return
        if kind is ast.Call and type(node.func) is ast.Name and node.func.id in GIVES_BOOL:  # type: ignore[attr-defined]
            return
        self._call(node, "op:__bool__", self.ref(node), "__bool__")

    def _unary(self, node: ast.UnaryOp, stack: Stack) -> None:
        if type(node.op) is ast.Not:
            self.truth_test(node.operand)
        else:
            dunder = UNARY_DUNDERS[type(node.op)]
            self._call(node, OPERATOR_KINDS[dunder], self.ref(node.operand), dunder)
        _push(stack, self.scope, node.operand)

    def _await(self, node: ast.Await, stack: Stack) -> None:
        """``await x`` calls ``x.__await__`` (a coroutine's is the interpreter's)."""
        self._call(node, OPERATOR_KINDS["__await__"], self.ref(node.value), "__await__")
        _push(stack, self.scope, node.value)

    def _boolean(self, node: ast.BoolOp, stack: Stack) -> None:
        """``a and b``/``a or b`` tests every operand but the last (whose value it gives)."""
        for value in node.values[:-1]:
            self.truth_test(value)
        scope = self.scope
        stack.extend([(value, scope) for value in node.values if type(value) not in INERT])

    def _conditional(self, node: ast.IfExp, stack: Stack) -> None:
        self.truth_test(node.test)
        _push(stack, self.scope, node.test, node.body, node.orelse)

    def _formatted(self, node: ast.FormattedValue, stack: Stack) -> None:
        """An f-string's ``{value}`` formats it (``!s``/``!r``: ``str()``/``repr()`` first)."""
        dunder = FORMAT_DUNDERS.get(node.conversion, "__format__")
        self._call(node, OPERATOR_KINDS[dunder], self.ref(node.value), dunder)
        _push(stack, self.scope, node.value, node.format_spec)

    def _named(self, node: ast.NamedExpr, stack: Stack) -> None:
        self.bind(node.target.id, "val", self.ref(node.value), unordered=True)
        stack.append((node.value, self.scope))

    def _yield(self, node: ast.Yield | ast.YieldFrom, stack: Stack) -> None:
        function = self._function_scope()
        if function is not None:
            function.is_generator = True
            if type(node) is ast.YieldFrom:
                function.yields.append(("it", self.ref(node.value)))
                self._call(node, "iter", self.ref(node.value), "yield from")  # it iterates its operand
            else:
                function.yields.append(self.ref(node.value) if node.value is not None else ("k", "NoneType"))
        if node.value is not None:
            self._use(node.value)
        _push_children(node, self.scope, stack)

    def _sequence(self, node: ast.List | ast.Tuple | ast.Set, stack: Stack) -> None:
        if type(node) is ast.Set:
            self._hashed(node.elts)
        for item in node.elts:
            if type(item) in MAY_BE_USES:
                self._use(item)
            if type(item) is ast.Starred and not isinstance(getattr(node, "ctx", None), ast.Store):
                # ``[*xs]`` iterates ``xs`` (a set display has no context: it is always read)
                self._call(item, "iter", self.ref(item.value), "*")
        scope = self.scope
        stack.extend([(item, scope) for item in node.elts if type(item) not in INERT])

    def _hashed(self, keys: Sequence[ast.expr | None]) -> None:
        """A set or dict display hashes its items (keys): ``__hash__``, and ``__eq__`` when two of them
        hash alike. Constants and ``**`` splats call no repository code."""
        kind = "hashes" if len(keys) > 1 else "hash"  # several items may compare
        for key in keys:
            if key is not None and type(key) is not ast.Constant and type(key) is not ast.Starred:
                self._call(key, kind, self.ref(key), "__hash__")

    def _dict(self, node: ast.Dict, stack: Stack) -> None:
        self._hashed(node.keys)
        for item in [*node.keys, *node.values]:  # a key is handed on too (``Schema({validator: str})``)
            if item is not None and type(item) in MAY_BE_USES:
                self._use(item)
        scope = self.scope
        stack.extend([(key, scope) for key in node.keys if key is not None and type(key) not in INERT])
        stack.extend([(item, scope) for item in node.values if type(item) not in INERT])

    def _compare(self, node: ast.Compare) -> None:
        left = node.left
        for operator, right in zip(node.ops, node.comparators, strict=True):
            kind = type(operator)
            if kind is ast.In or kind is ast.NotIn:  # the item is kept: a set or dict hashes it
                item = () if type(left) is ast.Constant else (self.ref(left),)
                self._call(node, "op:__contains__", self.ref(right), "__contains__", args=item)
            else:
                dunder = COMPARE_DUNDERS.get(kind)
                if dunder is not None:
                    operand = (self.ref(right),)
                    self._call(node, OPERATOR_KINDS[dunder], self.ref(left), dunder, args=operand)
                    self._reflected(node, right, REFLECTED_COMPARISONS[dunder])
            left = right

    def _container_add(self, func: ast.Attribute, arguments: list[ast.expr], args: tuple[Ref, ...]) -> None:
        """``box.append(v)`` and the like: ``v`` becomes one of the container's items."""
        position = CONTAINER_ADDERS[func.attr]
        if position < len(arguments):
            added = arguments[position]
            ref = self.ref(added) if type(added) is ast.Starred else args[position]
            value = ("it", ref) if func.attr == "extend" else ref  # extend iterates its argument
            self.summary.container_adds.append(ContainerAdd(self.scope.id, self.ref(func.value), value))

    def _dict_update(
        self, func: ast.Attribute, args: tuple[Ref, ...], keywords: tuple[tuple[str | None, Ref], ...]
    ) -> None:
        """``box.update(other, k=v)``: the values of ``other`` and each ``v`` become items of ``box``."""
        container = self.ref(func.value)
        values: list[Ref] = [("i", args[0], None)] if args and args[0] != STARRED else []
        values += [ref if keyword is not None else ("i", ref, None) for keyword, ref in keywords]
        for value in values:
            self.summary.container_adds.append(ContainerAdd(self.scope.id, container, value))

    def _call(
        self,
        node: ast.expr | ast.stmt | ast.pattern,
        kind: str,
        func: Ref,
        text: str,
        *,
        args: tuple[Ref, ...] = (),
    ) -> None:
        """Record an implicit call (an operator, a protocol, a decorator...) at ``node``."""
        line, column = node.lineno, node.col_offset
        callee = node.func if type(node) is ast.Call else node
        end = (callee.end_lineno or line, callee.end_col_offset or column)
        record = (self.scope.id, line, column, kind, func, args, (), text, end)
        self.summary.calls.append(_new_record(CallRecord, record))

    def _use(self, node: ast.expr) -> None:
        """Note a name, attribute or lambda used as a value: what it denotes may be called elsewhere."""
        kind = type(node)
        if kind in VALUE_NODES or (kind is ast.Call and is_getattr(node)):
            self.summary.uses.append(_new_record(ValueUse, (self.scope.id, self.ref(node), node.lineno)))
        elif kind in CHOICE_NODES:
            self._use_choices(node)

    def _use_ref(self, node: ast.expr, ref: Ref) -> None:
        """:meth:`_use` of a node whose ref is known (a starred node's is not its value's)."""
        kind = type(node)
        if kind in VALUE_NODES or (kind is ast.Call and is_getattr(node)):
            self.summary.uses.append(_new_record(ValueUse, (self.scope.id, ref, node.lineno)))
        elif kind in CHOICE_NODES:
            self._use_choices(node)

    def _use_choices(self, node: ast.expr) -> None:
        """The values a starred node, ``a if c else b`` or ``a or b`` may be are used too."""
        if isinstance(node, ast.Starred):
            self._use(node.value)
        elif isinstance(node, ast.IfExp):
            self._use(node.body)
            self._use(node.orelse)
        elif isinstance(node, ast.BoolOp):
            for value in node.values:
                self._use(value)

    def _lambda(self, node: ast.Lambda, stack: Stack) -> None:
        outer = self.scope
        qualname = lambda_name(outer.owner, node)
        for default in [*node.args.defaults, *node.args.kw_defaults]:
            if default is not None:
                stack.append((default, outer))
        scope = self._new_scope("lambda", qualname, outer.id)
        parameters = self._parameters(node.args, scope)
        body = ref_of(node.body, qualname, no_super_context)
        scope.returns.append(body)
        self.scope = scope  # what the lambda returns is used, as by a ``return`` (``lambda _: handler``)
        try:
            self._use_ref(node.body, body)
        finally:
            self.scope = outer
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
                    parameters=parameters,
                    is_test=self.summary.is_test,
                )
            )
        stack.append((node.body, scope))

    def _comprehension(
        self,
        node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp,
        stack: Stack,
    ) -> None:
        outer = self.scope
        scope = self._new_scope("comprehension", outer.owner, outer.id)
        for index, generator in enumerate(node.generators):
            iter_scope = outer if index == 0 else scope
            stack.append((generator.iter, iter_scope))
            self.scope = iter_scope
            iterable = self.ref(generator.iter)
            self._call(generator.iter, "iter", iterable, "for")
            self.scope = scope
            self._bind_iteration(generator.target, iterable)
            self.scope = outer
            self.scope = scope
            for condition in generator.ifs:
                self.truth_test(condition)
            self.scope = outer
            stack.extend((condition, scope) for condition in generator.ifs)
        elements = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
        stack.extend((element, scope) for element in elements)
        if isinstance(node, ast.DictComp | ast.SetComp):
            self.scope = scope
            self._hashed([node.key if isinstance(node, ast.DictComp) else node.elt, None])
            self.scope = outer

    def target(self, target: ast.expr, value: Ref, value_node: ast.expr | None) -> None:
        """Bind an assignment target to ``value`` (tuples pairwise when the value is a literal tuple)."""
        if isinstance(target, ast.Name):
            self.bind(target.id, "val", value)
        elif isinstance(target, ast.Tuple | ast.List):
            items = value_node.elts if isinstance(value_node, ast.Tuple | ast.List) else None
            pairwise = (
                items is not None
                and len(items) == len(target.elts)
                and not any(isinstance(e, ast.Starred) for e in (*target.elts, *items))
            )
            if not pairwise and items is not None and self._starred_pairs(target.elts, items):
                return
            if not pairwise and value_node is not None and value != UNKNOWN:
                self._call(value_node, "iter", value, "unpacking")  # ``a, b = obj`` iterates ``obj``
            for index, element in enumerate(target.elts):
                if pairwise and items is not None:
                    self.target(element, self.ref(items[index]), items[index])
                elif value != UNKNOWN:  # an item of what iterating the value gives (a starred one: a list)
                    self.target(element, ("it", value), None)
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
            self._namespace_store(target, value)

    def _starred_pairs(self, elements: list[ast.expr], items: list[ast.expr]) -> bool:
        """``a, *b, c = x, y, z, w``: each plain name its item, the starred one a new list of the items
        between. False (nothing bound) unless one target is starred and no item is."""
        stars = [i for i, e in enumerate(elements) if isinstance(e, ast.Starred)]
        if len(stars) != 1 or len(items) < len(elements) - 1:
            return False
        if any(isinstance(item, ast.Starred) for item in items):
            return False
        star = stars[0]
        after = len(elements) - star - 1
        middle = items[star : len(items) - after]
        for element, item in zip(elements[:star], items[:star], strict=True):
            self.target(element, self.ref(item), item)
        starred = elements[star]
        assert isinstance(starred, ast.Starred)
        packed = ast.List(elts=middle, ctx=ast.Load())
        self.target(starred.value, self.ref(packed), None)
        for element, item in zip(elements[star + 1 :], items[len(items) - after :], strict=True):
            self.target(element, self.ref(item), item)
        return True

    def _computed_writes(self, func: ast.expr, arguments: list[ast.expr]) -> None:
        """``setattr(obj, name, v)`` with a computed name, ``obj.__dict__.update(...)`` or
        ``vars(obj).update(...)``: attributes of ``obj`` set by names the index cannot read."""
        if type(func) is ast.Attribute:
            namespace_of = _namespace_owner(func.value)
            if namespace_of is not None:
                self._open_instance(namespace_of)
            return
        name = arguments[1]
        if not (type(name) is ast.Constant and type(name.value) is str):
            self._open_instance(arguments[0])

    def _open_instance(self, obj: ast.expr) -> None:
        """``setattr(self, name, v)`` with a computed name, ``self.__dict__.update(...)`` and the like in a
        method may set any attribute of the instance: its attributes' values are not all known (``"*"``)."""
        context = self._super_context()
        function = self._function_scope()
        on_self = context and type(obj) is ast.Name and obj.id == context[1]
        if on_self and context and function is not None and function.method_kind == "instance":
            class_scope = self.summary.scopes[self.summary.def_scopes[context[0]]]
            class_scope.instance_attrs.setdefault("*", []).append((UNKNOWN, self.scope.id))

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

    def _namespace_store(self, target: ast.Subscript, value: Ref) -> None:
        """``obj.__dict__["name"] = value`` is ``obj.name = value`` (a computed name stays an uncertainty,
        see :func:`dure.analyzers.dynamic.namespace_writes`)."""
        owner, key = target.value, target.slice
        namespace_of = _namespace_owner(owner)
        if namespace_of is not None and type(key) is ast.Constant and type(key.value) is str:
            self.summary.attribute_stores.append(
                AttributeStore(self.scope.id, self.ref(namespace_of), key.value, value, target.lineno)
            )
        elif namespace_of is not None:
            self._open_instance(namespace_of)

    def _bind_iteration(self, target: ast.expr, iterable: Ref) -> None:
        here = self.scope.kind == "comprehension"
        if isinstance(target, ast.Name):
            self.bind(target.id, "iter", iterable, here=here)
        elif isinstance(target, ast.Tuple | ast.List):
            starred = any(isinstance(element, ast.Starred) for element in target.elts)
            for position, element in enumerate(target.elts):
                if isinstance(element, ast.Name) and not starred:
                    self.bind(element.id, "iterpart", iterable, position, here=here)
                elif isinstance(element, ast.Name):
                    self.bind(element.id, "unknown", "unpacked loop variable", here=here)
                else:
                    self.target(element, UNKNOWN, None)
        else:
            self.target(target, UNKNOWN, None)

    EXPRESSIONS: ClassVar[dict[type[ast.AST], Callable[[ExpressionCollector, Any, Stack], None]]] = {}


ExpressionCollector.EXPRESSIONS = {
    ast.Name: ExpressionCollector._leaf,
    ast.Constant: ExpressionCollector._constant,
    ast.Call: ExpressionCollector._call_expression,
    ast.Attribute: ExpressionCollector._attribute,
    ast.Lambda: ExpressionCollector._lambda,
    ast.ListComp: ExpressionCollector._comprehension,
    ast.SetComp: ExpressionCollector._comprehension,
    ast.GeneratorExp: ExpressionCollector._comprehension,
    ast.DictComp: ExpressionCollector._comprehension,
    ast.BinOp: ExpressionCollector._binary,
    ast.Compare: ExpressionCollector._comparison,
    ast.Subscript: ExpressionCollector._subscript,
    ast.NamedExpr: ExpressionCollector._named,
    ast.Yield: ExpressionCollector._yield,
    ast.YieldFrom: ExpressionCollector._yield,
    ast.List: ExpressionCollector._sequence,
    ast.Tuple: ExpressionCollector._sequence,
    ast.Set: ExpressionCollector._sequence,
    ast.Dict: ExpressionCollector._dict,
    ast.UnaryOp: ExpressionCollector._unary,
    ast.Await: ExpressionCollector._await,
    ast.BoolOp: ExpressionCollector._boolean,
    ast.IfExp: ExpressionCollector._conditional,
    ast.FormattedValue: ExpressionCollector._formatted,
}


def _namespace_owner(node: ast.expr) -> ast.expr | None:
    """The object whose namespace ``node`` is: ``obj.__dict__`` and ``vars(obj)`` (None: not a namespace)."""
    if type(node) is ast.Attribute and node.attr == "__dict__":
        return node.value
    if (
        type(node) is ast.Call
        and type(node.func) is ast.Name
        and node.func.id == "vars"
        and len(node.args) == 1
        and not node.keywords
    ):
        return node.args[0]
    return None

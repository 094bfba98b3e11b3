"""The scope bookkeeping of the collector: namespaces, where a name binds, parameters, source text."""

from __future__ import annotations

import ast
from typing import Any

from dure.analyzers.model import Definition, DefinitionKind, ImportCondition, Parameter, ParameterKind
from dure.analyzers.refs import ref_of, renamed
from dure.analyzers.source import SourceFile
from dure.analyzers.summary import UNKNOWN, Binding, ModuleSummary, ParamInfo, Ref, Scope

#: Builds a named tuple (binding, parameter) from a complete tuple without its Python-level ``__new__``.
_new_tuple = tuple.__new__
#: A function's parameters as the resolver reads them and as written, built side by side.
Signature = tuple[list[ParamInfo], list[Parameter]]
POSITIONAL_ONLY = ParameterKind.POSITIONAL_ONLY
POSITIONAL_OR_KEYWORD = ParameterKind.POSITIONAL_OR_KEYWORD
VAR_POSITIONAL = ParameterKind.VAR_POSITIONAL
KEYWORD_ONLY = ParameterKind.KEYWORD_ONLY
VAR_KEYWORD = ParameterKind.VAR_KEYWORD
#: ``kind.value`` of each parameter kind: an enum's ``value`` is a Python-level property.
_KIND_VALUES: dict[ParameterKind, str] = {kind: kind.value for kind in ParameterKind}


class ScopeTracker:
    """State shared by the statement and expression passes: the summary being built and the current scope."""

    def __init__(self, source: SourceFile, text: str, docstring: str | None) -> None:
        self.lines = text.split("\n")
        lines = len(self.lines) - (not self.lines[-1])  # count_lines(text): a final newline ends the last
        self.summary = ModuleSummary(source.module, source.relpath, source.is_package, source.is_test)
        self.package = source.module if source.is_package else source.module.rpartition(".")[0]
        self.condition = ImportCondition.ALWAYS
        self.type_only = False
        self.block_depth = 0  # nesting of if/for/while/try/with/match inside the current scope
        self.line = 0  # line of the statement being collected
        self._super_contexts: dict[int, tuple[str, str] | None] = {}
        self.docstring_nodes: set[int] = set()
        #: Parameters as written, one object per distinct value (a frozen dataclass is slow to build).
        self._written_parameters: dict[tuple[str, ParameterKind, str | None, bool], Parameter] = {}
        #: The function whose body is walked in the order it runs (statement by statement, loops aside):
        #: a read there of a name it binds more than once is the values of the bindings made before it.
        self.flow_scope: Scope | None = None
        self.flow_on = True  # False in a loop, where a later binding may reach an earlier read
        self.flow_names: dict[str, Ref] = {}  # name -> its flow-ordered ref at this point of the body
        self.flow_held: list[str] | None = None  # names bound by the assignment being made (see hold)
        self._stub_bodies: set[str] = set()  # qualnames whose body in def_scopes is under TYPE_CHECKING
        #: annotations of signatures and of module and class variables run (no ``from __future__ import
        #: annotations``): the calls in them are made where they are written
        self.annotations_run = True
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
                docstring=docstring,
                is_test=source.is_test,
            )
        )
        self.summary.def_scopes[source.module] = module_scope.id

    def body_of(self, qualname: str, scope: Scope) -> None:
        """Name ``scope`` the body of ``qualname``: the first statement that defines it, except that one
        that runs beats a stub under ``if TYPE_CHECKING:`` (a ``def`` there, the class in the ``else``)."""
        bodies = self.summary.def_scopes
        if qualname in bodies and (self.type_only or qualname not in self._stub_bodies):
            return
        bodies[qualname] = scope.id
        if self.type_only:
            self._stub_bodies.add(qualname)
        else:
            self._stub_bodies.discard(qualname)

    def _new_scope(self, kind: str, owner: str, parent: int | None) -> Scope:
        scope = Scope(len(self.summary.scopes), kind, owner, parent)
        self.summary.scopes.append(scope)
        return scope

    def _declared_scope(self, name: str, local: Scope) -> Scope:
        """The scope a ``global`` or ``nonlocal`` declaration in ``local`` sends ``name`` to."""
        if name in local.global_names:
            return self.summary.scopes[0]
        # nonlocal: the nearest enclosing function that binds it (one that declares it nonlocal too passes
        # it on); when none has bound it yet (it binds it further down), the nearest that does not pass it on
        enclosing: list[Scope] = []
        outer = local
        while outer.parent is not None:
            outer = self.summary.scopes[outer.parent]
            if outer.kind in ("function", "lambda") and name not in outer.nonlocal_names:
                enclosing.append(outer)
        binding = next((scope for scope in enclosing if name in scope.bindings), None)
        return binding or (enclosing[0] if enclosing else local)

    def bind(
        self,
        name: str,
        kind: str,
        a: Any = None,
        b: Any = None,
        *,
        here: bool = False,
        unordered: bool = False,
    ) -> None:
        """Bind ``name`` where Python would (``here``: in the current scope, for comprehension targets;
        ``unordered``: by ``:=``, which binds in the middle of an expression).

        Takes the binding's fields rather than a :class:`Binding`: this runs for every binding of every
        file, and the record is built once, complete.
        """
        local = self.scope  # the scope an assignment binds in, comprehensions skipped
        while local.kind == "comprehension" and local.parent is not None:
            local = self.summary.scopes[local.parent]
        if here:
            scope = self.scope
        elif name in local.global_names or name in local.nonlocal_names:
            scope = self._declared_scope(name, local)
        else:
            scope = local
        guarded = self.block_depth > 0 or scope is not local
        binding = _new_tuple(Binding, (kind, a, b, self.type_only, guarded, self.line))
        bindings = scope.bindings.get(name)
        if bindings is None:
            scope.bindings[name] = [binding]
        else:
            bindings.append(binding)
        if scope is self.flow_scope:
            if unordered or scope is not local:
                scope.unordered |= {name}
            elif self.flow_held is not None:
                self.flow_names.pop(name, None)  # read as a plain name until the assignment is made
                self.flow_held.append(name)
            elif bindings is not None:
                self.flow_names[name] = ("n", name, len(bindings), scope.id)
        elif scope is not local:  # ``nonlocal``, ``global``: bound whenever that runs
            scope.unordered |= {name}

    def flow_before(self, target: ast.expr) -> None:
        """Before the value of an assignment to ``target`` is read: a name it rebinds, read in that value
        (``s = s.strip()``), is the values bound so far."""
        scope = self.flow_scope
        if scope is None or self.scope is not scope:
            return
        if type(target) is ast.Name:
            bound = scope.bindings.get(target.id)
            if bound and target.id not in self.flow_names and target.id not in scope.unordered:
                self.flow_names[target.id] = ("n", target.id, len(bound), scope.id)
        elif type(target) is ast.Tuple or type(target) is ast.List:
            for element in target.elts:
                self.flow_before(element)
        elif type(target) is ast.Starred:
            self.flow_before(target.value)

    def hold(self) -> list[str] | None:
        """Start binding the targets of an assignment whose value was read: until :meth:`release`, a name
        it binds reads as every binding (``a, b = b, a`` reads ``a`` after binding it)."""
        held, self.flow_held = self.flow_held, [] if self.scope is self.flow_scope else None
        return held

    def release(self, held: list[str] | None) -> None:
        """The targets are bound: later reads of them see the new bindings."""
        scope = self.flow_scope
        if self.flow_held and scope is not None:
            for name in self.flow_held:
                if name not in scope.unordered:
                    self.flow_names[name] = ("n", name, len(scope.bindings[name]), scope.id)
        self.flow_held = held

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
            return self.name_ref(node.id)
        ref = ref_of(node, self.scope.owner, self._super_context)
        if self.flow_names and self.flow_on and self.scope is self.flow_scope:
            return renamed(ref, self.flow_names)
        return ref

    def name_ref(self, name: str) -> Ref:
        """The ref of reading ``name`` here: flow-ordered in the body of :attr:`flow_scope`; in a class
        body, before the body binds it, ``("n", name, 0, scope)`` (the class may bind it later, and the read
        then looks it up in the module, not the class)."""
        if self.flow_names and self.flow_on and self.scope is self.flow_scope:
            return self.flow_names.get(name) or ("n", name)
        scope = self.scope
        if scope.kind == "class" and name not in scope.bindings and name not in scope.global_names:
            return ("n", name, 0, scope.id)
        return ("n", name)

    def segment(self, node: ast.expr) -> str:
        """The source text of ``node`` (cheap for one-line nodes; column offsets count UTF-8 bytes)."""
        if node.lineno == node.end_lineno and node.lineno <= len(self.lines):
            line = self.lines[node.lineno - 1]
            if line.isascii():
                return line[node.col_offset : node.end_col_offset]
            return line.encode()[node.col_offset : node.end_col_offset].decode(errors="replace")
        return ast.unparse(node)

    def _function_scope(self) -> Scope | None:
        scope = self.scope
        while scope.kind == "comprehension" and scope.parent is not None:
            scope = self.summary.scopes[scope.parent]
        return scope if scope.kind in ("function", "lambda") else None

    def _parameters(self, args: ast.arguments, scope: Scope) -> tuple[Parameter, ...]:
        """Give ``scope`` its function's parameters and bind them; return them as written.

        One pass over the signature builds both forms: this runs for every function of every file.
        """
        signature: Signature = ([], [])
        posonly, positional, defaults = args.posonlyargs, args.args, args.defaults
        first_default = len(posonly) + len(positional) - len(defaults)
        for index, arg in enumerate([*posonly, *positional] if posonly else positional):
            kind = POSITIONAL_ONLY if index < len(posonly) else POSITIONAL_OR_KEYWORD
            if index < first_default:
                self._parameter(signature, arg, kind, None, False)
            else:
                self._parameter(signature, arg, kind, defaults[index - first_default], True)
        vararg, keyword_only, kwarg = args.vararg, args.kwonlyargs, args.kwarg
        if vararg:
            self._parameter(signature, vararg, VAR_POSITIONAL, None, False)
        if keyword_only:
            for arg, default in zip(keyword_only, args.kw_defaults, strict=True):
                self._parameter(signature, arg, KEYWORD_ONLY, default, default is not None)
        if kwarg:
            self._parameter(signature, kwarg, VAR_KEYWORD, None, False)
        params, written = signature
        scope.params = tuple(params)
        for index, param in enumerate(params):
            scope.bindings[param.name] = [_new_tuple(Binding, ("param", index, None, False, False, 0))]
        return tuple(written)

    def _parameter(
        self,
        signature: Signature,
        arg: ast.arg,
        kind: ParameterKind,
        default: ast.expr | None,
        has_default: bool,
    ) -> None:
        name, annotation = arg.arg, arg.annotation
        info = (
            name,
            _KIND_VALUES[kind],
            None if annotation is None else self._annotation_ref(annotation),
            None if default is None else self.ref(default),
        )
        signature[0].append(_new_tuple(ParamInfo, info))
        key = (name, kind, None if annotation is None else self.segment(annotation), has_default)
        parameter = self._written_parameters.get(key)
        if parameter is None:
            parameter = self._written_parameters[key] = Parameter(*key)
        signature[1].append(parameter)

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

"""Annotation slots of a module and the template dure fills with type strings (the agent never edits code).

A slot names one annotation: ``"<module>.<Class>.<function>:return"`` or
``"<module>.<Class>.<function>:param:<name>"`` (classes optional and nested as needed; ``*args`` and
``**kwargs`` are ``param:args`` and ``param:kwargs``). Functions nested in functions have no slots.

The template is the module with each slot's annotation replaced by a unique placeholder name by LibCST,
formatting preserved (only the headers of the functions with slots are parsed, see
:mod:`dure.verifiers.headers`). :meth:`Template.render` puts a type string at each placeholder in one pass,
so filling an answer costs a string substitution, not a parse. Annotations never
span lines here, so every filling keeps the module's line numbers.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import libcst as cst

from dure.verifiers.headers import rewrite_headers
from dure.verifiers.parsing import parsed
from dure.verifiers.typenorm import Scope

PLACEHOLDER = "__dure_slot_{}__"
_PLACEHOLDER_RE = re.compile(r"__dure_slot_(\d+)__")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


class SlotError(ValueError):
    """A slot name that does not follow the grammar or does not match the module exactly once."""


@dataclass(frozen=True, slots=True)
class Slot:
    name: str  # as written in answers
    function: str  # qualified name of the function, module included
    param: str | None  # None for the return annotation

    @property
    def path(self) -> tuple[str, ...]:
        """Classes and function name inside the module."""
        return tuple(self.function.split("."))


def parse_slot(name: str, module: str) -> Slot:
    """The slot a name stands for in ``module``; raises :class:`SlotError`."""
    function, sep, rest = name.partition(":")
    if not sep or not function.startswith(f"{module}."):
        raise SlotError(f"slot {name!r} is not '{module}.<function>:return' or ':param:<name>'")
    inner = function.removeprefix(f"{module}.")
    if not all(_IDENT.match(part) for part in inner.split(".")):
        raise SlotError(f"slot {name!r} does not name a function")
    if rest == "return":
        return Slot(name, inner, None)
    kind, _, param = rest.partition(":")
    if kind != "param" or not _IDENT.match(param):
        raise SlotError(f"slot {name!r} is not '...:return' or '...:param:<name>'")
    return Slot(name, inner, param)


@dataclass(frozen=True, slots=True)
class Template:
    """A module with a placeholder at each slot, and what names mean at each slot."""

    text: str
    lines: int  # lines of the module itself (probes and imports are appended after)
    index: Mapping[str, int]  # slot name -> placeholder number
    scopes: Mapping[str, Scope]  # slot name -> scope of its annotation
    function_of: Mapping[str, str]  # slot name -> its function (slots of one function share TypeVars)
    position: Mapping[str, int]  # slot name -> order in its signature (params first, then return)

    def render(self, texts: Mapping[str, str]) -> str:
        """The module with ``texts[slot]`` at each slot's placeholder (every slot must be given)."""
        by_number = {self.index[slot]: text for slot, text in texts.items()}
        return _PLACEHOLDER_RE.sub(lambda match: by_number[int(match.group(1))], self.text)


def build_template(source: str, module: str, slot_names: list[str], *, is_package: bool) -> Template:
    """Parse ``source`` once and put a placeholder at every slot; raises :class:`SlotError`."""
    slots = [parse_slot(name, module) for name in slot_names]
    index = {slot.name: number for number, slot in enumerate(slots)}
    filler = _Filler(slots, index)
    text = rewrite_headers(source, filler.by_function, filler.fill_function)
    if text is None:  # a header that cannot be cut out alone: the whole module, as the same filler sees it
        filler = _Filler(slots, index)
        try:
            tree = cst.parse_module(source)
        except cst.ParserSyntaxError as problem:
            raise SlotError(f"the module does not parse: {str(problem).splitlines()[0]}") from None
        text = tree.visit(filler).code
    for slot in slots:
        if filler.found.get(slot.name, 0) != 1:
            raise SlotError(f"slot {slot.name!r} matches {filler.found.get(slot.name, 0)} annotations")
    scopes = module_scopes(source, module, is_package=is_package)
    pinned = _pinned_names(parsed(source), slots)
    return Template(
        text=text,
        lines=len(text.splitlines()),
        index=index,
        scopes={
            slot.name: scopes.for_function(slot.path, pinned.get(slot.function, set())) for slot in slots
        },
        function_of={slot.name: slot.function for slot in slots},
        position=filler.position,
    )


class _Filler(cst.CSTTransformer):
    def __init__(self, slots: list[Slot], index: dict[str, int]) -> None:
        super().__init__()
        self.by_function: dict[str, list[Slot]] = {}
        for slot in slots:
            self.by_function.setdefault(slot.function, []).append(slot)
        self.index = index
        self.stack: list[str] = []
        self.found: dict[str, int] = {}
        self.position: dict[str, int] = {}

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self.stack.append(node.name.value)
        return True

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef) -> cst.ClassDef:
        self.stack.pop()
        return updated

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.stack.append(node.name.value)
        return False  # slots are never in nested functions: their bodies are not walked (most of the module)

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        qualname = ".".join(self.stack)
        self.stack.pop()
        return self.fill_function(qualname, False, updated)

    def fill_function(self, qualname: str, in_class: bool, node: cst.FunctionDef) -> cst.FunctionDef:
        """``node`` with a placeholder at each slot of the function ``qualname`` (a header edit)."""
        for slot in self.by_function.get(qualname, ()):
            node = self._fill(node, slot)
        return node

    def _annotation(self, slot: Slot) -> cst.Annotation:
        self.found[slot.name] = self.found.get(slot.name, 0) + 1
        return cst.Annotation(cst.Name(PLACEHOLDER.format(self.index[slot.name])))

    def _fill(self, node: cst.FunctionDef, slot: Slot) -> cst.FunctionDef:
        params = node.params
        every = [*params.posonly_params, *params.params, *params.kwonly_params]
        for extra in (params.star_arg, params.star_kwarg):
            if isinstance(extra, cst.Param):
                every.append(extra)
        if slot.param is None:
            self.position[slot.name] = len(every)
            annotation = self._annotation(slot).with_changes(
                whitespace_before_indicator=cst.SimpleWhitespace(" ")
            )
            return node.with_changes(returns=annotation)
        for number, param in enumerate(every):
            if param.name.value == slot.param:
                self.position[slot.name] = number
                return node.with_changes(params=_replace_param(params, param, self._annotated(param, slot)))
        return node

    def _annotated(self, param: cst.Param, slot: Slot) -> cst.Param:
        changes: dict[str, object] = {"annotation": self._annotation(slot)}
        if param.default is not None:
            space = cst.SimpleWhitespace(" ")
            changes["equal"] = cst.AssignEqual(whitespace_before=space, whitespace_after=space)
        return param.with_changes(**changes)


def _replace_param(params: cst.Parameters, old: cst.Param, new: cst.Param) -> cst.Parameters:
    def swap(items: Sequence[cst.Param]) -> list[cst.Param]:
        return [new if item is old else item for item in items]

    return params.with_changes(
        posonly_params=swap(params.posonly_params),
        params=swap(params.params),
        kwonly_params=swap(params.kwonly_params),
        star_arg=new if params.star_arg is old else params.star_arg,
        star_kwarg=new if params.star_kwarg is old else params.star_kwarg,
    )


@dataclass(frozen=True, slots=True)
class ModuleScopes:
    """The module's bindings, and each class's own bindings, for resolving annotation names."""

    module: Scope
    classes: Mapping[tuple[str, ...], dict[str, str]]

    def for_function(self, path: tuple[str, ...], pinned: set[str]) -> Scope:
        """The scope of a function's annotations; TypeVars in ``pinned`` names keep their own names."""
        bindings = dict(self.module.bindings)
        for depth in range(1, len(path)):
            bindings.update(self.classes.get(path[:depth], {}))
        scope = Scope(self.module.module, bindings)
        fixed = {scope.resolve(name) for name in pinned}
        scope.typevars.update((k, v) for k, v in self.module.typevars.items() if k not in fixed)
        return scope


def module_scopes(source: str, module: str, *, is_package: bool) -> ModuleScopes:
    """Bindings of the module (imports, definitions, TypeVars) and of its classes, read with ``ast``."""
    tree = parsed(source)
    package = module if is_package else module.rpartition(".")[0]
    bindings: dict[str, str] = {}
    calls: dict[str, ast.Call] = {}
    for node in _top_level(tree.body):
        _bind(node, module, package, bindings, calls)
    scope = Scope(module, bindings)
    for name, call in calls.items():
        factory = ast.unparse(call.func)
        if scope.resolve(factory) in {"typing.TypeVar", "typing.ParamSpec", "typing.TypeVarTuple"}:
            details = [ast.unparse(arg) for arg in call.args[1:]]
            details += sorted(ast.unparse(keyword) for keyword in call.keywords)
            scope.typevars[f"{module}.{name}"] = f"({', '.join(details)})" if details else ""
    classes: dict[tuple[str, ...], dict[str, str]] = {}
    _collect_classes(tree.body, (), module, classes)
    return ModuleScopes(scope, classes)


def _pinned_names(tree: ast.Module, slots: list[Slot]) -> dict[str, set[str]]:
    """Per function with slots: names in its annotations that are not slots, and in its classes' bases.

    A TypeVar used there is bound outside the answer, so renaming it in the answer changes the meaning.
    """
    wanted: dict[str, set[str | None]] = {}
    for slot in slots:
        wanted.setdefault(slot.function, set()).add(slot.param)
    found: dict[str, set[str]] = {}

    def visit(body: list[ast.stmt], path: tuple[str, ...], outer: set[str]) -> None:
        for node in _top_level(body):
            if isinstance(node, ast.ClassDef):
                bases = _names([*node.bases, *(k.value for k in node.keywords)])
                visit(node.body, (*path, node.name), outer | bases)
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                qualname = ".".join((*path, node.name))
                if qualname in wanted:
                    args = node.args
                    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
                    fixed = [a.annotation for a in every if a is not None and a.arg not in wanted[qualname]]
                    if None not in wanted[qualname] and node.returns is not None:
                        fixed.append(node.returns)
                    found.setdefault(qualname, set()).update(outer | _names(fixed))

    visit(tree.body, (), set())
    return found


def _names(nodes: list[ast.expr | None]) -> set[str]:
    names: set[str] = set()
    for node in nodes:
        for inner in ast.walk(node) if node is not None else ():
            if isinstance(inner, ast.Name):
                names.add(inner.id)
            elif isinstance(inner, ast.Constant) and isinstance(inner.value, str):
                try:
                    names |= _names([ast.parse(inner.value, mode="eval").body])
                except (SyntaxError, ValueError, RecursionError):
                    continue
    return names


def _top_level(body: list[ast.stmt]) -> list[ast.stmt]:
    """Statements at this level, looking into ``if``/``try``/``with`` blocks (not functions or classes)."""
    found: list[ast.stmt] = []
    for node in body:
        found.append(node)
        if isinstance(node, ast.If | ast.With):
            found += _top_level(node.body) + _top_level(getattr(node, "orelse", []))
        elif isinstance(node, ast.Try):
            inner = node.body + node.orelse + node.finalbody
            inner += [stmt for handler in node.handlers for stmt in handler.body]
            found += _top_level(inner)
    return found


def _bind(
    node: ast.stmt, owner: str, package: str, bindings: dict[str, str], calls: dict[str, ast.Call]
) -> None:
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.asname:
                bindings[alias.asname] = alias.name
            else:
                root = alias.name.partition(".")[0]
                bindings[root] = root
    elif isinstance(node, ast.ImportFrom):
        base = _absolute(node.module, node.level, package)
        for alias in node.names:
            if alias.name != "*":
                bindings[alias.asname or alias.name] = f"{base}.{alias.name}" if base else alias.name
    elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        bindings[node.name] = f"{owner}.{node.name}"
    elif isinstance(node, ast.Assign | ast.AnnAssign):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            if isinstance(target, ast.Name):
                bindings[target.id] = f"{owner}.{target.id}"
                if isinstance(node.value, ast.Call):
                    calls[target.id] = node.value


def _absolute(module: str | None, level: int, package: str) -> str:
    if level == 0:
        return module or ""
    parts = package.split(".") if package else []
    base = ".".join(parts[: len(parts) - (level - 1)]) if level - 1 <= len(parts) else ""
    return f"{base}.{module}" if module and base else (module or base)


def _collect_classes(
    body: list[ast.stmt], path: tuple[str, ...], module: str, out: dict[tuple[str, ...], dict[str, str]]
) -> None:
    for node in _top_level(body):
        if isinstance(node, ast.ClassDef):
            inner = (*path, node.name)
            owner = ".".join((module, *inner))
            bindings: dict[str, str] = {}
            for statement in _top_level(node.body):
                _bind(statement, owner, "", bindings, {})
            out[inner] = {name: value for name, value in bindings.items() if value.startswith(owner + ".")}
            _collect_classes(node.body, inner, module, out)

"""From per-file summaries to whole-repository facts: bases and MROs, imports, calls, escapes, uncertainty."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from dure.analyzers.callgraph import property_factories, site_row
from dure.analyzers.dynamic import (
    DYNAMIC_CALLEES,
    affected_attributes,
    dict_owner,
    dynamic_uncertainties,
    module_replacements,
    namespace_writes,
    string_uncertainties,
)
from dure.analyzers.evaluator import MAIN_MODULE, SYS_MODULES, Evaluator
from dure.analyzers.halves import Afterwards, resolve_sites
from dure.analyzers.inference import JediReport, add_jedi_targets
from dure.analyzers.model import (
    Certainty,
    ClassInfo,
    Definition,
    Import,
    SiteRow,
    Uncertainty,
    UncertaintyKind,
)
from dure.analyzers.namespaces import DICT_WRITERS, builtin_aliases, namespace_writers
from dure.analyzers.program import Program, ScopeKey
from dure.analyzers.summary import (
    OWN_NAME,
    STARRED,
    UNKNOWN,
    AttributeStore,
    Binding,
    CallRecord,
    ModuleSummary,
    Ref,
    Scope,
)
from dure.analyzers.values import NOTHING, UNKNOWN_VALS, Vals, ordered, single, union


@dataclass(frozen=True, slots=True)
class Resolved:
    definitions: dict[str, Definition]
    imports: tuple[Import, ...]
    classes: dict[str, ClassInfo]
    call_sites: list[SiteRow]
    uncertainties: tuple[Uncertainty, ...]
    escaped: frozenset[str]  # definitions used as values: unknown code may call them
    unresolved_attributes: frozenset[str]  # attribute names called on receivers the index cannot name
    unresolved_calls: int  # call sites whose callee is an unknown value (not an attribute)
    rebound: frozenset[str]  # definitions whose name is bound more than once in its scope
    jedi: JediReport | None = None  # what the jedi fallback did, when it ran
    # sys.modules or computed imports hand modules starting with these to unknown code ("": any module)
    escaping_module_prefixes: frozenset[str] = frozenset({""})
    # functions that classes bind under a special method's name (``__add__`` made by a decorator that returns
    # a wrapper, ``__eq__ = _same``): the interpreter calls them implicitly, as it calls special methods
    special_implementations: frozenset[str] = frozenset()


def resolve(
    summaries: Mapping[str, ModuleSummary],
    *,
    jedi_root: Path | None = None,
    helper: bool = False,
    afterwards: Afterwards | None = None,
    retain: list[object] | None = None,
) -> Resolved:
    """Whole-repository facts; with ``jedi_root``, jedi proposes possible targets for unresolved calls.
    ``helper``: a forked process may resolve half of the call sites (the facts are the same either way),
    and then do ``afterwards``. ``retain``: where the resolution's working state goes instead of being
    freed (see :func:`~dure.analyzers.builder.build_index`)."""
    program = Program(summaries)
    evaluator = Evaluator(program)
    if retain is not None:
        retain.append(evaluator)  # and the program through it
    definitions: dict[str, Definition] = {}
    for summary in summaries.values():
        for definition in summary.definitions:
            definitions.setdefault(definition.qualname, definition)
    _resolve_bases(program, evaluator)
    replaced = _replaced_modules(program, evaluator)  # before anything reads those modules' members
    _dynamic_classes(program, evaluator)
    _borrowed_methods(program, evaluator)
    _foreign_selves(program, evaluator)
    reclassed = _reclassed_by_methods(program)
    uncertainties = [*replaced, *reclassed, *_attribute_stores(program, evaluator)]
    _container_adds(program, evaluator)
    program.dynamic_namespaces.update(namespace_writers(program.summaries))
    site_free: list[_SiteFreeFacts] = []
    resolved_sites = resolve_sites(
        program,
        evaluator,
        helper=helper,
        afterwards=afterwards,
        meanwhile=lambda: site_free.append(_site_free_facts(program, evaluator, definitions)),
    )
    other = site_free[0]
    sites, escaped = resolved_sites.sites, resolved_sites.escaped
    if retain is not None:
        retain.append(sites)
    jedi_report = (
        add_jedi_targets(jedi_root, sites, summaries, definitions) if jedi_root is not None else None
    )
    call_sites: list[SiteRow] = []
    unresolved_attributes: set[str] = set()
    unresolved_calls = 0
    unresolved = Certainty.UNRESOLVED
    for site in sites:
        summary = program.summaries[site.module]
        record = site.record
        caller = summary.scopes[record.scope].owner
        call_sites.append(site_row(site, caller, summary.relpath))
        dynamic = has_unresolved = False  # one walk over the targets for both
        for target in site.targets:
            dynamic = dynamic or target.callee in DYNAMIC_CALLEES
            has_unresolved = has_unresolved or target.certainty is unresolved
        if dynamic:
            uncertainties.extend(dynamic_uncertainties(site, caller, evaluator))
        if has_unresolved:
            if record.func[0] == "a":
                unresolved_attributes.add(record.func[2])
            else:
                unresolved_calls += 1
    uncertainties.extend(other.uncertainties)
    return Resolved(
        definitions,
        other.imports,
        other.classes,
        call_sites,
        tuple(uncertainties),
        escaped,
        frozenset(unresolved_attributes),
        unresolved_calls,
        other.rebound,
        jedi_report,
        _escaping_module_prefixes(program, evaluator, uncertainties),
        other.special_implementations,
    )


@dataclass(frozen=True, slots=True)
class _SiteFreeFacts:
    """The facts that need no call site (computed while the resolution helper finishes its half)."""

    uncertainties: list[Uncertainty]  # names spelled in strings, namespace writes, unknown decorators
    imports: tuple[Import, ...]
    classes: dict[str, ClassInfo]
    rebound: frozenset[str]
    special_implementations: frozenset[str]


def _site_free_facts(
    program: Program, evaluator: Evaluator, definitions: dict[str, Definition]
) -> _SiteFreeFacts:
    return _SiteFreeFacts(
        [
            *string_uncertainties(program, definitions),
            *namespace_writes(program, evaluator),
            *_unknown_decorators(program, evaluator),
        ],
        tuple(_resolve_imports(program, evaluator)),
        _class_infos(program, evaluator, program.summaries),
        frozenset(_rebound(program)),
        _special_implementations(program, evaluator),
    )


def _special_implementations(program: Program, evaluator: Evaluator) -> frozenset[str]:
    """The functions of other names that classes bind as special methods: what ``x + y`` runs where
    ``__add__`` is a decorator's wrapper (sympy's ``_sympifyit``), ``__eq__ = _same``, or a descriptor's
    ``__get__`` gives (``__bool__ = new_method_proxy(bool)``, Django's lazy objects)."""
    found: set[str] = set()
    for cls, scope in sorted(program.class_scopes.items()):
        for name in scope.bindings:
            if not _is_dunder(name):
                continue
            for value in evaluator.instance_member(cls, name, exact=True).values:
                if value[0] == "F" and not _is_dunder(value[1].rpartition(".")[2]):
                    found.add(value[1])
                elif value[0] == "I" and program.def_scope.get(f"{value[1]}.__get__") is not None:
                    given = evaluator.returns(f"{value[1]}.__get__").values
                    found.update(
                        v[1] for v in given if v[0] == "F" and not _is_dunder(v[1].rpartition(".")[2])
                    )
    return frozenset(found)


def _is_dunder(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def _escaping_module_prefixes(
    program: Program, evaluator: Evaluator, uncertainties: list[Uncertainty]
) -> frozenset[str]:
    """Modules whose objects can reach code the index cannot follow: through ``sys.modules`` (any module) or
    computed imports (the modules their known prefix allows)."""
    prefixes = {
        selector.partition(":")[2]
        for u in uncertainties
        if u.kind is UncertaintyKind.DYNAMIC_IMPORT
        for selector in u.affects
    }
    for module, summary in program.summaries.items():
        if _hands_out_sys_modules(module, summary, evaluator):
            return frozenset({""})
    return frozenset(prefixes)


#: The refs that take something out of another ref: only they can read ``sys.modules``.
_DERIVED = frozenset({"a", "c", "i"})


def _hands_out_sys_modules(module: str, summary: ModuleSummary, evaluator: Evaluator) -> bool:
    """Whether a value use or a call of ``module`` takes a module out of ``sys.modules`` (other refs are
    skipped before a call: most are plain names)."""
    for use in summary.uses:
        if use.ref[0] in _DERIVED and _mentions_sys_modules(use.ref, (module, use.scope), evaluator):
            return True
    for call in summary.calls:
        if call.kind != "call":
            continue  # ``name in sys.modules`` hands out no module
        for ref in (call.func, *call.args):
            if ref[0] in _DERIVED and _mentions_sys_modules(ref, (module, call.scope), evaluator):
                return True
    return False


def _mentions_sys_modules(ref: Ref, key: ScopeKey, evaluator: Evaluator) -> bool:
    """A module taken out of ``sys.modules`` by a computed key, or a module of the repository by name."""
    while ref[0] in _DERIVED:
        base = ref[1]
        if evaluator.evaluate(base, key).values == SYS_MODULES:
            if ref[0] == "i" and isinstance(ref[2], str):  # sys.modules["__main__"]: not ours
                return ref[2] == OWN_NAME or evaluator.program.is_module(ref[2])
            return ref[0] != "a" or ref[2] in ("get", "values", "items", "setdefault", "pop")
        ref = base
    return False


def _rebound(program: Program) -> set[str]:
    """Definitions whose name their scope binds more than once (``if``/``else`` variants, reassignment)."""
    found: set[str] = set()
    for summary in program.summaries.values():
        for scope in summary.scopes:
            for bindings in scope.bindings.values():
                if len(bindings) > 1:
                    found.update(b.a for b in bindings if b.kind in ("def", "class"))
    return found


#: What calling these creates a class from (name, bases, namespace): the position of the bases.
CLASS_FACTORIES = {"builtins.type": 1, "types.new_class": 1}


def _dynamic_classes(program: Program, evaluator: Evaluator) -> None:
    """``type(name, bases, namespace)`` makes a subclass the index cannot see: an instance of a class it may
    derive from may be one of it, with other methods (see :meth:`Program.may_have_dynamic_subclass`)."""
    for module, summary in program.summaries.items():
        for call in summary.calls:
            if call.kind != "call" or len(call.args) < 2 or not _may_create_class(call.func):
                continue
            factory = evaluator.evaluate(call.func, (module, call.scope)).values
            if len(factory) != 1:
                continue
            (value,) = factory
            position = CLASS_FACTORIES.get(value[1]) if value[0] == "X" else None
            if position is None or (value[1] == "builtins.type" and len(call.args) != 3):
                continue
            program.add_dynamic_subclass(
                _bases_of(evaluator.evaluate(call.args[position], (module, call.scope)))
            )


def _may_create_class(func: Ref) -> bool:
    """A call spelled ``type(...)`` or ``new_class(...)``: only those are evaluated (most calls are not)."""
    return (func[0] == "n" and func[1] in ("type", "new_class")) or (
        func[0] == "a" and func[2] == "new_class"
    )


def _bases_of(bases: Vals) -> list[tuple[str, bool]] | None:
    """The repository classes a tuple of bases holds (``(qualname, exact)``), or None when it is unknown."""
    found: list[tuple[str, bool]] = []
    for value in bases.values:
        if value[0] != "Q" or not value[1].complete:
            return None
        found.extend((item[1], item[2]) for item in value[1].values if item[0] == "C")
    return found if bases.complete and bases.values else None


def _resolve_bases(program: Program, evaluator: Evaluator) -> None:
    for module, summary in program.summaries.items():
        for scope in summary.scopes:
            if scope.kind != "class" or scope.parent is None:
                continue
            repo: list[str] = []
            external: list[str] = []
            unknown: list[str] = []
            line = next(d.line for d in summary.definitions if d.qualname == scope.owner)
            for ref, text in zip(scope.bases, scope.base_texts, strict=True):
                vals = evaluator.evaluate_before(ref, (module, scope.parent), line)
                classes = [v for v in vals.values if v[0] in ("C", "X")]
                if not vals.complete or len(classes) != 1 or len(vals.values) != 1:
                    unknown.append(text)
                    continue
                value = classes[0]
                if value[0] == "C":
                    repo.append(value[1])
                elif value[1] != "builtins.object":
                    external.append(value[1])
            program.class_bases.setdefault(scope.owner, tuple(repo))
            program.external_bases.setdefault(scope.owner, tuple(external))
            program.unresolved_bases.setdefault(scope.owner, tuple(unknown))
    evaluator.reset()


def _attribute_stores(program: Program, evaluator: Evaluator) -> list[Uncertainty]:
    """``module.f = g`` / ``Class.m = g`` from outside: an extra binding, and an uncertainty record."""
    found: list[Uncertainty] = []
    handed = _ArgumentsHanded(program, evaluator)
    _computed_setattrs(program, evaluator, handed)
    for module, summary in sorted(program.summaries.items()):
        for store, stored_on in _stores(summary, module, evaluator):
            key = (module, store.scope)
            owner = summary.scopes[store.scope].owner
            receivers = stored_on
            if not stored_on.complete:
                program.store_on_unknown(store.attr)
                made = _classes_given_first(handed, summary.scopes[store.scope], store.base)
                receivers = union([stored_on, handed.modules(summary, store.scope, store.base), made])
            if store.attr == "__class__":
                found.append(_reclassing(program, receivers, owner, summary.relpath, store.line))
            if store.attr == "__code__":  # ``f.__code__ = g.__code__``: calling ``f`` runs ``g``'s body
                for value in receivers.values:
                    if value[0] == "F":
                        program.code_swapped[value[1]].append((store.value, key))
            if store.attr in ("__bases__", "__dict__"):  # another MRO, another namespace
                program.computed_class_members.update(v[1] for v in receivers.values if v[0] == "C")
                if store.attr == "__dict__":
                    program.computed_stores.update(v[1] for v in receivers.values if v[0] == "I")
            for value in ordered(receivers.values):
                binding = Binding("valin", store.value, key)
                if value[0] in ("I", "S"):  # ``super().__setattr__("x", v)`` stores on ``self``
                    program.store_elsewhere(value[1], store.attr, binding, key)
                    continue
                if value[0] == "X":  # ``builtins.len = f``: calls resolved to it may reach ``f``
                    if value[1] == "builtins":
                        program.rebound_builtins.add(store.attr)
                    if value == MAIN_MODULE:
                        _store_on_scripts(program, store.attr, binding, key)
                    else:  # ``time.time = fake``: a read of ``time.time`` may give ``fake``
                        program.patched_externals[f"{value[1]}.{store.attr}"].append((binding, key))
                    found.append(_monkeypatch(owner, summary.relpath, store.line, f"{value[1]}.{store.attr}"))
                    continue
                if value[0] == "M":
                    target_key = program.module_scope(value[1])
                elif value[0] == "C":
                    target_key = program.def_scope.get(value[1])
                else:
                    continue
                if target_key is None:
                    continue
                if value[0] == "C" and _metaclass_sets(program, evaluator, value[1]):
                    binding = Binding("unknown", "a metaclass __setattr__ stores it")  # maybe something else
                program.bind_elsewhere(target_key, store.attr, binding, key)
                if not (owner == value[1] or owner.startswith(value[1] + ".")):
                    found.append(_monkeypatch(owner, summary.relpath, store.line, f"{value[1]}.{store.attr}"))
    evaluator.reset()
    return list(dict.fromkeys(found))  # a store the collector saw twice (as written and as setattr) is one


def _metaclass_sets(program: Program, evaluator: Evaluator, cls: str) -> bool:
    """Whether a metaclass of ``cls`` from the repository defines ``__setattr__``: ``C.name = v`` then
    stores whatever it decides."""
    return any(program.class_member(meta, "__setattr__") for meta in evaluator.metaclasses(cls))


class _ArgumentsHanded:
    """The modules the callers of a function hand it as a parameter a store is made on (``def install(m):
    m.helper = fake`` called as ``install(core)``): a monkeypatching helper rebinds ``core.helper``."""

    def __init__(self, program: Program, evaluator: Evaluator) -> None:
        self.program, self.evaluator = program, evaluator
        self._made_with: dict[str, set[str]] | None = None

    def modules(self, summary: ModuleSummary, scope_id: int, base: Ref) -> Vals:
        """The modules handed as ``base``, a parameter of the plain function whose body is ``scope_id``."""
        handed = self.values(summary, scope_id, base)
        return Vals(frozenset(v for v in handed.values if v[0] == "M"), True, False)

    def values(self, summary: ModuleSummary, scope_id: int, base: Ref) -> Vals:
        """What the callers hand as ``base``, a parameter of the plain function whose body is ``scope_id``
        (nothing for another ref)."""
        scope = summary.scopes[scope_id]
        if base[0] != "n" or scope.kind != "function" or scope.method_of is not None:
            return NOTHING
        position = next((i for i, param in enumerate(scope.params) if param.name == base[1]), None)
        if position is None or scope.params[position].kind not in POSITIONAL_KINDS:
            return NOTHING
        found: list[Vals] = []
        for module, call in self.calls_named(scope.owner.rpartition(".")[2]):
            key = (module, call.scope)
            if not any(
                v[0] == "F" and v[1] == scope.owner for v in self.evaluator.evaluate(call.func, key).values
            ):
                continue
            given = call.args[position] if position < len(call.args) else dict(call.keywords).get(base[1])
            if given is not None and given is not STARRED:
                found.append(self.evaluator.evaluate(given, key))
        return union(found) if found else NOTHING

    def classes_made_with(self, function: str) -> set[str]:
        """The classes handed to ``function`` as first argument as they are made: as a class decorator,
        to their ``__init_subclass__`` (a base's) or their metaclass's ``__init__``."""
        if self._made_with is None:
            program, evaluator = self.program, self.evaluator
            self._made_with = defaultdict(set)
            for cls, scope in program.class_scopes.items():
                parent = program.parent(program.def_scope[cls])
                if parent is None:
                    continue
                handed = [f"{base}.__init_subclass__" for base in program.mro(cls)[1:]]
                for decorator in scope.decorators:
                    handed.extend(v[1] for v in evaluator.evaluate(decorator, parent).values if v[0] == "F")
                handed.extend(f"{meta}.__init__" for meta in evaluator.metaclasses(cls))
                for receiver in handed:
                    self._made_with[receiver].add(cls)
        return self._made_with.get(function, set())

    def calls_named(self, name: str) -> list[tuple[str, CallRecord]]:
        return self.program.calls_by_name.get(name, [])


def _classes_given_first(handed: _ArgumentsHanded, scope: Scope, base: Ref) -> Vals:
    """The classes handed as ``base``, when it is the first parameter of a class decorator (or of an
    ``__init_subclass__``, or a metaclass's ``__init__``): ``cls.__init__ = f`` in a decorator sets it on the
    classes it decorates."""
    if base[0] != "n" or not scope.params or base[1] != scope.params[0].name:
        return NOTHING
    classes = handed.classes_made_with(scope.owner)
    return union([single(("C", cls, True)) for cls in sorted(classes)]) if classes else NOTHING


#: The kinds of parameter an argument given by position fills.
POSITIONAL_KINDS = frozenset({"positional_only", "positional_or_keyword"})


def _store_on_scripts(program: Program, attr: str, binding: Binding, key: ScopeKey) -> None:
    """``__main__.attr = value``: the script run may be any module; each that binds ``attr`` at module
    level gets the binding."""
    for module, summary in program.summaries.items():
        if attr in summary.scopes[0].bindings:
            program.bind_elsewhere((module, 0), attr, binding, key)


def _monkeypatch(owner: str, file: str, line: int, assigned: str) -> Uncertainty:
    return Uncertainty(
        UncertaintyKind.MONKEYPATCH, owner, file, line, f"assigns {assigned}", (f"def:{assigned}",)
    )


def _reclassing(program: Program, receivers: Vals, owner: str, file: str, line: int) -> Uncertainty:
    """``obj.__class__ = K``: what the instances of ``obj``'s classes dispatch to is no longer certain."""
    program.reclassed.update(value[1] for value in receivers.values if value[0] == "I")
    # a module given a class of its own: its attributes may be that class's properties
    program.dynamic_namespaces.update(
        v[1] for v in receivers.values if v[0] == "M" and v[1] in program.summaries
    )
    affected = affected_attributes(receivers, None)
    return Uncertainty(UncertaintyKind.MONKEYPATCH, owner, file, line, "assigns __class__", affected)


def _borrowed_methods(program: Program, evaluator: Evaluator) -> None:
    """Methods bound as members of classes unrelated to their own, in a class body (``m = A.m``,
    ``m = A.__dict__["m"]``) or from outside (``B.m = A.m``): there ``self`` is an instance of the other
    class."""
    for cls, scope in program.class_scopes.items():
        key = program.def_scope[cls]
        for bindings in scope.bindings.values():
            for binding in bindings:
                if binding.kind == "val" and binding.a[0] in ("a", "i"):
                    _note_borrowed(program, cls, evaluator.evaluate(binding.a, key))
    for module, summary in program.summaries.items():
        for store in summary.attribute_stores:
            if store.value[0] not in ("a", "i"):
                continue
            key = (module, store.scope)
            for value in evaluator.evaluate(store.base, key).values:
                if value[0] == "C":
                    _note_borrowed(program, value[1], evaluator.evaluate(store.value, key))
    evaluator.reset()


def _note_borrowed(program: Program, cls: str, members: Vals) -> None:
    for value in members.values:
        if value[0] != "F":
            continue
        key = program.def_scope.get(value[1])
        owner = program.scope(key).method_of if key is not None else None
        if owner is not None and owner not in program.mro(cls):
            program.borrowed[value[1]].add(cls)


def _foreign_selves(program: Program, evaluator: Evaluator) -> None:
    """Methods read from a class and called with a first argument that may be no instance of theirs
    (``A.greet(B())``), or handed on unbound (``map(A.greet, items)``): their ``self`` may then be anything
    that argument is. Only receivers spelt as a class may give an unbound method (a name bound to a class
    or by an import, ``cls``, an attribute named as a class, ``x.__class__``, ``type(x)``): that keeps
    this cheap."""
    methods = _instance_method_names(program)
    if not methods:
        return
    class_names = {cls.rpartition(".")[2] for cls in program.class_scopes} | {"__class__"}
    evaluated = False
    for name in sorted(methods):
        for module, record in program.calls_by_name.get(name, ()):
            func = record.func
            if func[0] != "a" or not (record.args or record.keywords):  # ``A.m()`` fails before ``m`` runs
                continue
            key = (module, record.scope)
            if not _may_be_class(program, func[1], key, class_names):
                continue
            evaluated = True
            first = record.args[0] if record.args else None
            for method in _unbound_methods(program, evaluator, func, key):
                if first is None or first == STARRED:
                    program.foreign_selves[method] = UNKNOWN_VALS
                else:
                    _note_foreign(program, method, evaluator.evaluate(first, key))
    for module, summary in program.summaries.items():
        for use in summary.uses:
            ref = use.ref
            if ref[0] != "a" or ref[2] not in methods:
                continue
            key = (module, use.scope)
            if _may_be_class(program, ref[1], key, class_names):
                evaluated = True
                for method in _unbound_methods(program, evaluator, ref, key):
                    program.foreign_selves[method] = UNKNOWN_VALS
    if evaluated:
        evaluator.reset()


def _instance_method_names(program: Program) -> set[str]:
    return {
        name
        for scope in program.class_scopes.values()
        for name, bindings in scope.bindings.items()
        if any(b.kind == "def" and _is_instance_method(program, b.a) for b in bindings)
    }


def _is_instance_method(program: Program, qualname: str) -> bool:
    key = program.def_scope.get(qualname)
    return key is not None and program.scope(key).method_kind == "instance"


def _may_be_class(program: Program, base: Ref, key: ScopeKey, class_names: set[str]) -> bool:
    tag = base[0]
    if tag == "a":
        return base[2] in class_names
    if tag == "c":
        return base[1] == ("n", "type") and len(base[2]) == 1
    if tag != "n":
        return False
    name = base[1]
    if name in class_names:
        return True
    scope = program.scope(key)
    if scope.params and name == scope.params[0].name and scope.method_kind == "instance":
        return False  # ``self``
    found = program.lookup(key, name)
    return bool(found) and all(
        b.kind in ("class", "import", "from") or (b.kind == "param" and b.a == 0 and _gets_class(program, at))
        for b, at in found or ()
    )


def _gets_class(program: Program, key: ScopeKey) -> bool:
    """Whether the first parameter of the function at ``key`` is a class (``cls``)."""
    scope = program.scope(key)
    return scope.method_of is not None and (
        scope.method_kind == "class" or scope.owner.endswith((".__new__", ".__init_subclass__"))
    )


def _unbound_methods(program: Program, evaluator: Evaluator, ref: Ref, key: ScopeKey) -> list[str]:
    """The instance methods of the repository that ``ref`` (``A.m``) gives unbound."""
    found = []
    for value in evaluator.evaluate(ref, key).values:
        if value[0] != "F" or value[2]:
            continue
        scope_key = program.def_scope.get(value[1])
        scope = program.scope(scope_key) if scope_key is not None else None
        if scope is not None and scope.method_of is not None and scope.method_kind == "instance":
            found.append(value[1])
    return found


def _note_foreign(program: Program, method: str, passed: Vals) -> None:
    """Keep what ``passed`` holds besides instances of ``method``'s class and its subclasses."""
    owner = program.scope(program.def_scope[method]).method_of
    foreign = [
        value
        for value in passed.values
        if not (value[0] == "I" and owner in program.mro(value[1]))
        and value[1] not in program.borrowed.get(method, ())
    ]
    if not foreign and passed.complete:
        return
    parts = [Vals(frozenset(foreign), passed.complete, False)]
    if method in program.foreign_selves:
        parts.append(program.foreign_selves[method])
    program.foreign_selves[method] = union(parts)


def _reclassed_by_methods(program: Program) -> list[Uncertainty]:
    """``self.__class__ = K`` in a method of class ``C``: an instance of ``C`` (or of a subclass) may become
    a ``K``, so what it dispatches to is no longer certain."""
    found: list[Uncertainty] = []
    for _, summary in sorted(program.summaries.items()):
        lines: dict[str, int] | None = None
        for scope in summary.scopes:
            stores = scope.instance_attrs.get("__class__") if scope.kind == "class" else None
            if not stores:
                continue
            if lines is None:
                lines = {definition.qualname: definition.line for definition in summary.definitions}
            instances = single(("I", scope.owner, False))
            for _, where in stores:
                method = summary.scopes[where].owner
                found.append(_reclassing(program, instances, method, summary.relpath, lines.get(method, 0)))
    return found


#: Calls that set a named attribute, ``(obj, "name", value)``, by import path.
ATTRIBUTE_SETTERS = frozenset({"builtins.setattr", "unittest.mock.patch.object", "mock.patch.object"})
#: Of those, the ones whose replacement may be left out (a ``MagicMock`` then takes the attribute's place).
MOCK_SETTERS = frozenset({"unittest.mock.patch.object", "mock.patch.object"})
#: ``patch.multiple(target, name=new, ...)``, by import path.
MULTIPLE_PATCHERS = frozenset({"unittest.mock.patch.multiple", "mock.patch.multiple"})
#: Calls that replace what a dotted import path names, ``("pkg.mod.name", new)``, by import path.
PATH_PATCHERS = frozenset({"unittest.mock.patch", "mock.patch"})


def _stores(
    summary: ModuleSummary, module: str, evaluator: Evaluator
) -> Iterator[tuple[AttributeStore, Vals]]:
    """The module's attribute stores, written or called, each with the objects it may store on."""
    stores = [*summary.attribute_stores, *_constant_setattrs(summary, module, evaluator)]
    for store in [*stores, *_deletions(summary, module, evaluator)]:
        yield store, evaluator.evaluate(store.base, (module, store.scope))
    for store, path in _multiple_patches(summary, module, evaluator):
        key = (module, store.scope)
        yield (
            store,
            _named_by_path(evaluator, path) if path is not None else evaluator.evaluate(store.base, key),
        )
    for store, path in _dotted_patches(summary, module, evaluator):
        yield store, _named_by_path(evaluator, path)


def _constant_setattrs(summary: ModuleSummary, module: str, evaluator: Evaluator) -> list[AttributeStore]:
    """``setattr(obj, "name", value)`` is ``obj.name = value``, and so are ``object.__setattr__(obj,
    "name", value)`` and ``obj.__setattr__("name", value)``; so are ``mock.patch.object(obj, "name",
    value)`` (without a value, a mock's) and a test's ``monkeypatch.setattr(obj, "name", value)`` (a
    ``setattr`` method of an object outside the repository, such as pytest's fixture), and pytest-mock's
    ``mocker.patch.object``: the tests run with ``obj.name`` replaced."""
    stores = []
    for call in summary.calls:
        if call.kind != "call" or len(call.args) < 2:
            continue
        bound = _bound_setattr(call.func) and call.args[0][0] == "s"
        if call.args[1][0] != "s" and not bound:
            continue
        key = (module, call.scope)
        func = evaluator.evaluate(call.func, key)
        arguments = _setattr_arguments(call, func, evaluator, key)
        if arguments is not None:
            target, name, value = arguments
            if name[0] == "s":
                stores.append(AttributeStore(call.scope, target, name[1], value, call.line))
            continue
        if call.args[1][0] != "s":
            continue
        outside = _outside_method(call.func, func)
        named = bool(func.values) and all(v[0] == "X" and v[1] in ATTRIBUTE_SETTERS for v in func.values)
        mocks = outside == ("patch", "object") or (named and all(v[1] in MOCK_SETTERS for v in func.values))
        if len(call.args) >= 3 and (named or outside == ("setattr",) or mocks):
            value = call.args[2]
        elif mocks:
            value = _keyword(call.keywords, "new")
        else:
            continue
        stores.append(AttributeStore(call.scope, call.args[0], call.args[1][1], value, call.line))
    return stores


def _computed_setattrs(program: Program, evaluator: Evaluator, handed: _ArgumentsHanded) -> None:
    """``setattr(obj, name, value)`` with a computed name (or ``object.__setattr__`` alike) and writes to
    ``obj.__dict__`` / ``vars(obj)``: any attribute of ``obj`` may be set. What the stored attributes of an
    instance's class hold is then not all known, nor are a class's members or a module's globals. (A method
    that does it to ``self`` is seen by the collector; this finds the others.)"""
    on_first_parameter: set[str] = set()  # functions that do it to their first parameter
    factories = property_factories(program)
    for module, summary in program.summaries.items():
        setters = builtin_aliases(summary, SETATTR)
        for call in summary.calls:
            key = (module, call.scope)
            target = _computed_store_target(call, evaluator, key, setters)
            if target is None:
                continue
            scope = summary.scopes[call.scope]
            if target[0] == "n" and scope.params and target[1] == scope.params[0].name:
                on_first_parameter.add(scope.owner)
            objects = evaluator.evaluate(target, key)
            if not objects.complete:  # a helper's parameter: what its callers hand it
                objects = union([objects, handed.values(summary, call.scope, target)])
            may_be_class = not objects.complete or any(value[0] == "C" for value in objects.values)
            if may_be_class and _builds_property(call, factories):
                program.computed_properties = True
            for value in objects.values:
                if value[0] == "I":
                    program.computed_stores.add(value[1])
                elif value[0] == "C":
                    program.computed_class_members.add(value[1])
                elif value[0] == "M" and value[1] in program.summaries:
                    program.dynamic_namespaces.add(value[1])
    for function in _handing_on_first(program, evaluator, handed, on_first_parameter):
        program.computed_class_members.update(handed.classes_made_with(function))
    rewritten = _namespace_rewriting_metaclasses(program) | program.computed_stores
    if rewritten:  # made by a metaclass that rewrites the namespace or whose instances get computed names
        program.computed_class_members.update(
            cls
            for cls in program.class_scopes
            if any(not rewritten.isdisjoint(program.mro(meta)) for meta in evaluator.metaclasses(cls))
        )


def _handing_on_first(
    program: Program, evaluator: Evaluator, handed: _ArgumentsHanded, functions: set[str]
) -> set[str]:
    """``functions`` and the functions that hand their own first parameter on, as the first argument, to
    one of them, transitively: ``prepare(cls)`` in an ``__init_subclass__`` sets members of the classes
    it is handed when ``prepare`` does."""
    found = set(functions)
    work = sorted(functions)
    while work:
        function = work.pop()
        for module, call in handed.calls_named(function.rpartition(".")[2]):
            scope = program.summaries[module].scopes[call.scope]
            first = call.args[0] if call.args else None
            if scope.owner in found or first is None or first[0] != "n" or scope.kind != "function":
                continue
            if not scope.params or scope.params[0].name != first[1]:
                continue
            called = evaluator.evaluate(call.func, (module, call.scope))
            if any(value[0] == "F" and value[1] == function for value in called.values):
                found.add(scope.owner)
                work.append(scope.owner)
    return found


def _namespace_rewriting_metaclasses(program: Program) -> set[str]:
    """Metaclasses that give a class another namespace than its body wrote: their ``__prepare__``, or a
    ``__new__`` that writes the namespace it is handed (``ns["m"] = f``, ``ns.update(...)``)."""
    found: set[str] = set()
    for cls, scope in program.class_scopes.items():
        if "__prepare__" in scope.bindings:
            found.add(cls)
        new = program.def_scope.get(f"{cls}.__new__")
        if new is None:
            continue
        summary = program.summaries[new[0]]
        params = summary.scopes[new[1]].params
        if len(params) < 4:
            continue
        namespace = params[3].name
        writes = any(
            add.scope == new[1] and add.container[0] == "n" and add.container[1] == namespace
            for add in summary.container_adds
        ) or any(
            call.scope == new[1]
            and call.func[0] == "a"
            and call.func[2] in DICT_WRITERS
            and call.func[1][0] == "n"
            and call.func[1][1] == namespace
            for call in summary.calls
        )
        if writes:
            found.add(cls)
    return found


def _builds_property(call: CallRecord, factories: frozenset[str]) -> bool:
    """Whether the value ``setattr(obj, name, value)`` stores is made by ``property(...)`` or a function of
    the repository that returns one (``factories``, by last name), as sympy's ``make_property(fact)``."""
    if call.kind != "call" or len(call.args) < 3:
        return False
    value = call.args[2]
    if value[0] != "c":
        return False
    maker = value[1]
    name = maker[1] if maker[0] == "n" else maker[2] if maker[0] == "a" else None
    return name in factories


def _computed_store_target(
    call: CallRecord, evaluator: Evaluator, key: ScopeKey, setters: frozenset[str]
) -> Ref | None:
    """The object whose attribute ``call`` sets by a computed name, if it does. ``setters``: the names
    ``setattr`` has in the module."""
    owner = dict_owner(call)
    if owner is not None:
        return owner
    args, func = call.args, call.func
    if call.kind != "call" or len(args) < 2:
        return None
    named = func[0] == "n" and func[1] in setters and len(args) >= 3 and args[1][0] != "s"
    if not (named or _bound_setattr(func) or (func[0] == "a" and func[2] in ("setattr", "object"))):
        return None
    called = evaluator.evaluate(call.func, key)
    if called.values and all(value[0] == "X" and value[1] in MOCK_SETTERS for value in called.values):
        return args[0] if args[1][0] != "s" else None  # ``patch.object(obj, name, new)``
    arguments = _setattr_arguments(call, called, evaluator, key)
    if arguments is None or arguments[1][0] == "s":
        return None
    return arguments[0]


DELATTR = frozenset({("X", "builtins.delattr")})
SETATTR = frozenset({"setattr"})
#: ``object.__setattr__`` as the evaluator names it, read from a class or bound to an instance.
OBJECT_SETATTR = "builtins.object.__setattr__"
#: The ``__setattr__`` methods that set an attribute as ``setattr`` does, read from their class.
SETATTR_METHODS = frozenset({OBJECT_SETATTR, "builtins.type.__setattr__"})


def _bound_setattr(func: Ref) -> bool:
    """Whether ``func`` spells ``x.__setattr__``."""
    return bool(func[0] == "a" and func[2] == "__setattr__")


def _setattr_arguments(
    call: CallRecord, func: Vals, evaluator: Evaluator, key: ScopeKey
) -> tuple[Ref, Ref, Ref] | None:
    """``(obj, name, value)`` of a call that sets an attribute the way ``setattr`` does: the builtin, or
    ``object.__setattr__`` (``type.__setattr__``) read from a class (``object.__setattr__(obj, name,
    value)``) or bound to an instance that does not define its own (``obj.__setattr__(name, value)``);
    else None."""
    if not func.values or not all(value[0] == "X" for value in func.values):
        return None
    called = {value[1] for value in func.values}
    args = call.args
    unbound = len(called) == 1 and called <= SETATTR_METHODS and _read_from_class(call, evaluator, key)
    if called == {"builtins.setattr"} or unbound:
        return (args[0], args[1], args[2]) if len(args) >= 3 else None
    if called == {OBJECT_SETATTR} and _bound_setattr(call.func):
        return call.func[1], args[0], args[1]
    return None


def _read_from_class(call: CallRecord, evaluator: Evaluator, key: ScopeKey) -> bool:
    """Whether ``call`` calls ``C.__setattr__`` on a class ``C`` (the instance is then its first argument)."""
    if not _bound_setattr(call.func):
        return False
    owner = evaluator.evaluate(call.func[1], key)
    return bool(owner.values) and all(value[0] in ("X", "C") for value in owner.values)


def _deletions(summary: ModuleSummary, module: str, evaluator: Evaluator) -> Iterator[AttributeStore]:
    """``del obj.name`` and ``delattr(obj, "name")``: a store of what the index cannot know (a class's
    member then comes from a base, a module's is gone)."""
    for call in summary.calls:
        if call.kind == "attrdel" and call.func[0] == "a":
            yield AttributeStore(call.scope, call.func[1], call.func[2], UNKNOWN, call.line)
        elif call.kind == "call" and len(call.args) == 2 and call.args[1][0] == "s" and call.func[0] == "n":
            deleter = evaluator.evaluate(call.func, (module, call.scope)).values
            if deleter == DELATTR:
                yield AttributeStore(call.scope, call.args[0], call.args[1][1], UNKNOWN, call.line)


def _multiple_patches(
    summary: ModuleSummary, module: str, evaluator: Evaluator
) -> Iterator[tuple[AttributeStore, str | None]]:
    """``mock.patch.multiple(target, name=new, ...)``: each keyword replaces ``name`` of the target, an
    object or a dotted path (then given too; else None)."""
    for call in summary.calls:
        func = call.func
        if (
            call.kind != "call"
            or not call.args
            or not call.keywords
            or func[0] != "a"
            or func[2] != "multiple"
        ):
            continue
        called = evaluator.evaluate(func, (module, call.scope)).values
        if not called or not all(value[0] == "X" and value[1] in MULTIPLE_PATCHERS for value in called):
            continue
        target = call.args[0]
        path = str(target[1]) if target[0] == "s" else None
        for name, value in call.keywords:
            if name is not None:
                yield AttributeStore(call.scope, target, name, value, call.line), path


def _dotted_patches(
    summary: ModuleSummary, module: str, evaluator: Evaluator
) -> Iterator[tuple[AttributeStore, str]]:
    """``mock.patch("pkg.mod.name", new)`` (without ``new``, a mock), pytest-mock's ``mocker.patch`` and a
    test's ``monkeypatch.setattr("pkg.mod.name", new)``: ``name`` of what ``pkg.mod`` names is replaced.
    Each as a store (its base the string) and the dotted path of the object stored on."""
    for call in summary.calls:
        if call.kind != "call" or not call.args or call.args[0][0] != "s":
            continue
        path, dot, attr = call.args[0][1].rpartition(".")
        if not dot or not path or not attr:
            continue
        func = evaluator.evaluate(call.func, (module, call.scope))
        outside = _outside_method(call.func, func)
        if outside == ("setattr",) and len(call.args) == 2:
            value = call.args[1]
        elif outside == ("patch",) or (
            func.values and all(v[0] == "X" and v[1] in PATH_PATCHERS for v in func.values)
        ):
            value = call.args[1] if len(call.args) > 1 else _keyword(call.keywords, "new")
        else:
            continue
        yield AttributeStore(call.scope, call.args[0], attr, value, call.line), path


def _named_by_path(evaluator: Evaluator, path: str) -> Vals:
    """What a dotted import path names, as ``mock.patch`` finds it: the longest prefix that is a module
    of the repository, then attributes; a path outside the repository names an external object."""
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        module = ".".join(parts[:cut])
        if evaluator.program.is_module(module):
            found = single(("M", module))
            for attr in parts[cut:]:
                found = evaluator.attribute(found, attr)
            return found
    return single(("X", path))


def _keyword(keywords: tuple[tuple[str | None, Ref], ...], name: str) -> Ref:
    """The value passed as keyword ``name``, else unknown (a ``**kwargs`` may hold it; a mock replaces
    what is patched without one)."""
    return next((ref for keyword, ref in keywords if keyword == name), UNKNOWN)


def _outside_method(ref: Ref, func: Vals) -> tuple[str, ...] | None:
    """For ``x.setattr(...)``, ``x.patch(...)`` and ``x.patch.object(...)`` where no value the call may be
    is the repository's own code (pytest's ``monkeypatch`` and pytest-mock's ``mocker`` fixtures): the
    attribute names after ``x``; else None."""
    if ref[0] != "a" or not all(v[0] in ("X", "XI") for v in func.values):
        return None
    if ref[2] in ("setattr", "patch"):
        return (ref[2],)
    if ref[2] == "object" and ref[1][0] == "a" and ref[1][2] == "patch":
        return ("patch", "object")
    return None


def _replaced_modules(program: Program, evaluator: Evaluator) -> list[Uncertainty]:
    """``sys.modules[name] = obj``: what importing ``name`` gives is no longer the module the index read."""
    found = []
    for module, record in module_replacements(program, evaluator):
        if module is not None:
            program.replaced_modules.add(module)
        found.append(record)
    return found


def _container_adds(program: Program, evaluator: Evaluator) -> None:
    for module, summary in program.summaries.items():
        for add in summary.container_adds:
            key = (module, add.scope)
            identity = evaluator.container_identity(add.container, key)
            if identity is not None:
                program.container_adds[identity].append((add.value, key))
    evaluator.reset()


def _unknown_decorators(program: Program, evaluator: Evaluator) -> list[Uncertainty]:
    found = []
    for module, summary in sorted(program.summaries.items()):
        for scope in summary.scopes:
            if not scope.decorators or scope.parent is None:
                continue
            outer = (module, scope.parent)
            opaque = [
                text
                for ref, text in zip(scope.decorators, scope.decorator_texts, strict=True)
                if not evaluator.is_transparent(ref, outer)
            ]
            if opaque:
                definition_line = next((d.line for d in summary.definitions if d.qualname == scope.owner), 0)
                found.append(
                    Uncertainty(
                        UncertaintyKind.UNKNOWN_DECORATOR,
                        scope.owner,
                        summary.relpath,
                        definition_line,
                        f"decorated with {', '.join(opaque)}",
                        (f"def:{scope.owner}",),
                    )
                )
    return found


def _resolve_imports(program: Program, evaluator: Evaluator) -> list[Import]:
    resolved: list[Import] = []
    for _module, summary in sorted(program.summaries.items()):
        for record in summary.imports:
            target: str | None = record.target
            if record.level == 0:
                target = program.test_path_import(record.module, record.target)
            if target is None:  # which module this is depends on the order pytest collects the tests in
                resolved.append(_with(record, None, None))
                continue
            if record.is_star:
                inside = program.is_module(target)
                resolved.append(_with(record, target if inside else None, None if inside else target))
                continue
            vals = evaluator.module_path(target) if program.is_module(target) else None
            if vals is None:
                module_part, _, name = target.rpartition(".")
                vals = evaluator.imported(module_part, name) if module_part else evaluator.module_path(name)
            inside_value = next((v for v in vals.values if v[0] in ("F", "C", "M")), None)
            if inside_value is not None and len(vals.values) == 1:
                resolved.append(_with(record, inside_value[1], None))
            elif program.is_module(target.rpartition(".")[0] or target):
                resolved.append(_with(record, None, None))  # names something the repository lacks
            else:
                resolved.append(_with(record, None, target))
    return resolved


def _with(record: Import, resolved: str | None, external: str | None) -> Import:
    return Import(
        record.module,
        record.scope,
        record.name,
        record.target,
        record.file,
        record.line,
        record.condition,
        record.is_star,
        record.level,
        resolved,
        external,
    )


def _metaclass_name(program: Program, evaluator: Evaluator, scope: Scope) -> str | None:
    key = program.def_scope.get(scope.owner)
    parent = program.parent(key) if key is not None else None
    if scope.metaclass is None or parent is None:
        return None
    values = evaluator.evaluate(scope.metaclass, parent).values
    named = [v[1] for v in values if v[0] in ("C", "X")]
    return named[0] if len(named) == 1 and len(values) == 1 else None


def _class_infos(
    program: Program, evaluator: Evaluator, summaries: Mapping[str, ModuleSummary]
) -> dict[str, ClassInfo]:
    infos: dict[str, ClassInfo] = {}
    for summary in summaries.values():
        for scope in summary.scopes:
            if scope.kind != "class" or scope.owner in infos:
                continue
            metaclass = _metaclass_name(program, evaluator, scope)
            infos[scope.owner] = ClassInfo(
                scope.owner,
                scope.base_texts,
                program.class_bases.get(scope.owner, ()),
                program.external_bases.get(scope.owner, ()),
                program.unresolved_bases.get(scope.owner, ()),
                program.mro(scope.owner),
                metaclass,
            )
    return infos

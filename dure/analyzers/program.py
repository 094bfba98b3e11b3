"""The whole program's namespaces: modules, scopes, name lookup and the class hierarchy."""

from __future__ import annotations

import bisect
import builtins
from collections import defaultdict
from collections.abc import Mapping

from dure.analyzers.hierarchy import c3_linearise, transitive_subclasses
from dure.analyzers.summary import Binding, CallRecord, ModuleSummary, Ref, Scope
from dure.analyzers.values import Vals

ScopeKey = tuple[str, int]  # (module, scope id)
BUILTIN_NAMES = frozenset(dir(builtins))
_MISSING: list[tuple[Binding, ScopeKey]] = []  # a memo miss, told apart from a memoised None


class Program:
    """Read-only view over every module summary, with LEGB lookup and repository packages."""

    # Tables derived on first use (see clear_memo for when they are dropped).
    _made_class_scopes: dict[str, Scope] | None = None
    _made_shadowed_submodules: dict[str, frozenset[str]] | None = None
    _made_metaclass_defined: bool | None = None
    _made_calls_by_name: dict[str, list[tuple[str, CallRecord]]] | None = None
    _made_body_definers: dict[str, set[str]] | None = None
    _made_definers: dict[str, set[str]] | None = None  # these two read bindings made elsewhere
    _made_intercepting: frozenset[str] | None = None
    # computed from the class bases alone
    _made_mro_table: dict[str, tuple[str, ...]] | None = None
    _made_direct_subclasses: dict[str, list[str]] | None = None
    _made_direct_bases: dict[str, list[str]] | None = None
    _made_open_classes: list[str] | None = None
    _made_open_positions: dict[str, list[tuple[str, int]]] | None = None
    _made_metaclass_instance_attrs: frozenset[str] | None = None

    def __init__(self, summaries: Mapping[str, ModuleSummary]) -> None:
        self.summaries = dict(summaries)
        self.modules = frozenset(self.summaries)
        self.module_rank = {module: rank for rank, module in enumerate(sorted(self.summaries))}
        self.packages = frozenset(
            ".".join(parts[:i])
            for m in self.modules
            for parts in [m.split(".")]
            for i in range(1, len(parts))
        ) | {m for m, s in self.summaries.items() if s.is_package}
        self.def_scope: dict[str, ScopeKey] = {}
        for module, summary in self.summaries.items():
            for qualname, scope_id in summary.def_scopes.items():
                self.def_scope.setdefault(qualname, (module, scope_id))
        self.redefined = _redefined(self.summaries)
        # test modules whose directory is not a package, by module: the directory pytest puts first on
        # sys.path to import them (see test_path_import)
        self.test_directories = _test_directories(self.summaries)
        self._test_path_memo: dict[str, list[str]] = {}
        # bindings made from another scope (see bind_elsewhere, store_elsewhere), and the names they bind: a
        # name outside these sets is bound in a scope only if that scope's own bindings name it
        self.extra_bindings: dict[tuple[ScopeKey, str], list[tuple[Binding, ScopeKey]]] = defaultdict(list)
        self.extra_instance_attrs: dict[tuple[str, str], list[tuple[Binding, ScopeKey]]] = defaultdict(list)
        self.names_bound_elsewhere: set[str] = set()
        self.attrs_stored_elsewhere: set[str] = set()
        self.attrs_stored_on_unknown: set[str] = set()  # obj.attr = value where obj may be anything
        # classes a class made at run time (``type(name, bases, ns)``) may derive from; all of them when the
        # bases of one are unknown
        self.dynamic_ancestors: set[str] = set()
        self.dynamic_ancestors_unknown = False
        self.reclassed: set[str] = set()  # classes some of whose instances get another __class__ assigned
        # classes whose instances get attributes by computed names from outside their methods
        self.computed_stores: set[str] = set()
        # methods also bound in classes unrelated to their own (``m = A.m`` in class ``B``): by method, those
        # classes, whose instances its ``self`` may be
        self.borrowed: dict[str, set[str]] = defaultdict(set)
        # instance methods called unbound with a first argument that may be no instance of their class
        # (``A.m(B())``), or handed on unbound: by method, what else their ``self`` may be
        self.foreign_selves: dict[str, Vals] = {}
        # classes whose members code sets by computed names (``setattr(cls, name, f)``)
        self.computed_class_members: set[str] = set()
        # whether such code may store a ``property`` on a class: an attribute read on an object the index
        # cannot name may then run its getter
        self.computed_properties = False
        self.outside_stores = 0  # how many store_elsewhere made: what read the instance attributes may change
        self.container_adds: dict[tuple[object, ...], list[tuple[Ref, ScopeKey]]] = defaultdict(list)
        self._eager_call_lines: dict[str, list[int]] = {}
        self._eager_read_lines: dict[str, dict[str, list[int]]] = {}
        self.dynamic_namespaces: set[str] = set()  # modules whose globals are written through globals()
        self.replaced_modules: set[str] = set()  # modules that ``sys.modules[name] = obj`` replaces
        self.rebound_builtins: set[str] = set()  # builtins that ``builtins.name = f`` rebinds
        # functions whose ``__code__`` is assigned, and the values assigned (``g.__code__``) where
        self.code_swapped: dict[str, list[tuple[Ref, ScopeKey]]] = defaultdict(list)
        # external attributes stored on (``time.time = fake``, a test's ``monkeypatch.setattr``), by import
        # path: the stores' values, which a read of the attribute may give instead
        self.patched_externals: dict[str, list[tuple[Binding, ScopeKey]]] = defaultdict(list)
        self._bindings_memo: dict[tuple[ScopeKey, str, bool], list[tuple[Binding, ScopeKey]]] = {}
        self._member_memo: dict[tuple[str, str, bool], list[tuple[Binding, ScopeKey]] | None] = {}
        self._dispatch_memo: dict[tuple[str, str], tuple[list[str], list[str]]] = {}
        self._names_memo: dict[tuple[str, str], list[str]] = {}  # scope bindings never change: never cleared
        self._class_member_memo: dict[tuple[str, str], list[tuple[str, list[tuple[Binding, ScopeKey]]]]] = {}
        self.class_bases: dict[str, tuple[str, ...]] = {}  # filled by the resolver (repository bases)
        self.external_bases: dict[str, tuple[str, ...]] = {}
        self.unresolved_bases: dict[str, tuple[str, ...]] = {}
        self._hierarchy_size = (0, 0, 0)  # the sizes of the three tables above when memos were last cleared
        self._open_memo: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
        self._subclass_memo: dict[str, frozenset[str]] = {}
        self._bases_memo: dict[str, frozenset[str]] = {}

    def is_module(self, name: str) -> bool:
        return name in self.modules or name in self.packages

    def scope(self, key: ScopeKey) -> Scope:
        return self.summaries[key[0]].scopes[key[1]]

    def bodies(self, qualname: str) -> tuple[ScopeKey, ...]:
        """The scopes of every statement that defines ``qualname``, in source order: one, but for a name
        defined several times (``@overload`` stubs before the implementation, a ``def`` in each branch of an
        ``if``, a property's setter), and none for a name that is not a definition of the repository."""
        found = self.redefined.get(qualname)
        if found is not None:
            return found
        key = self.def_scope.get(qualname)
        return (key,) if key is not None else ()

    def parent(self, key: ScopeKey) -> ScopeKey | None:
        parent = self.scope(key).parent
        return (key[0], parent) if parent is not None else None

    def module_scope(self, module: str) -> ScopeKey | None:
        return (module, 0) if module in self.summaries else None

    def class_scope(self, qualname: str) -> Scope | None:
        return self.class_scopes.get(qualname)

    @property
    def class_scopes(self) -> dict[str, Scope]:
        found = self._made_class_scopes
        if found is None:
            found = self._made_class_scopes = self._make_class_scopes()
        return found

    def _make_class_scopes(self) -> dict[str, Scope]:
        """The body of every class by qualified name (definitions never change: kept by ``clear_memo``)."""
        scopes = {qualname: self.scope(key) for qualname, key in self.def_scope.items()}
        return {qualname: scope for qualname, scope in scopes.items() if scope.kind == "class"}

    @property
    def shadowed_submodules(self) -> dict[str, frozenset[str]]:
        found = self._made_shadowed_submodules
        if found is None:
            found = self._made_shadowed_submodules = self._make_shadowed_submodules()
        return found

    def _make_shadowed_submodules(self) -> dict[str, frozenset[str]]:
        """By package: the names its ``__init__`` binds at module level, without importing them, to something
        other than its submodule of that name (``sub = S()`` beside ``pkg/sub.py``): importing the submodule
        anywhere rebinds the attribute."""
        found: dict[str, frozenset[str]] = {}
        for module, summary in self.summaries.items():
            if not summary.is_package:
                continue
            bindings = summary.scopes[0].bindings
            names = frozenset(
                name
                for name in bindings
                if self.is_module(f"{module}.{name}")
                and not any(b.kind in ("import", "from") for b in bindings[name])
            )
            if names:
                found[module] = names
        return found

    @property
    def metaclass_defined(self) -> bool:
        found = self._made_metaclass_defined
        if found is None:
            found = self._made_metaclass_defined = self._make_metaclass_defined()
        return found

    def _make_metaclass_defined(self) -> bool:
        """Whether a class of the repository names a metaclass (else no class object has special methods of
        the repository's)."""
        return any(scope.metaclass is not None for scope in self.class_scopes.values())

    @property
    def metaclass_instance_attrs(self) -> frozenset[str]:
        found = self._made_metaclass_instance_attrs
        if found is None:
            found = self._made_metaclass_instance_attrs = self._make_metaclass_instance_attrs()
        return found

    def _make_metaclass_instance_attrs(self) -> frozenset[str]:
        """The attributes the methods of metaclasses (classes deriving from ``type``) store on their
        instances, which are classes (``cls.name = f`` in a metaclass's ``__init__``)."""
        return frozenset(
            attr
            for cls, scope in self.class_scopes.items()
            if scope.instance_attrs and "builtins.type" in self.external_ancestors(cls)
            for attr in scope.instance_attrs
        )

    def bind_elsewhere(self, key: ScopeKey, name: str, binding: Binding, where: ScopeKey) -> None:
        """``module.name = value`` or ``Class.name = value``, run in scope ``where``, binds in ``key``."""
        self.extra_bindings[(key, name)].append((binding, where))
        self.names_bound_elsewhere.add(name)

    def store_elsewhere(self, cls: str, attr: str, binding: Binding, where: ScopeKey) -> None:
        """``obj.attr = value`` on an instance of ``cls``, run in scope ``where`` outside its methods."""
        self.extra_instance_attrs[(cls, attr)].append((binding, where))
        self.attrs_stored_elsewhere.add(attr)
        self.outside_stores += 1

    def add_dynamic_subclass(self, bases: list[tuple[str, bool]] | None) -> None:
        """A class made at run time with these bases (``(class, exact)``; None: unknown ones)."""
        if bases is None:
            self.dynamic_ancestors_unknown = True
            return
        for cls, exact in bases:
            for base in [cls] if exact else [cls, *self.subclasses(cls)]:
                self.dynamic_ancestors.update(self.mro(base))

    def may_have_dynamic_subclass(self, cls: str) -> bool:
        """Whether an instance of ``cls`` or of a subclass may be of a class made at run time."""
        return self.dynamic_ancestors_unknown or cls in self.dynamic_ancestors

    def is_reclassed(self, cls: str) -> bool:
        """Whether an instance of ``cls`` may have been given another class (``obj.__class__ = K``)."""
        return bool(self.reclassed) and not self.reclassed.isdisjoint(self.mro(cls))

    def store_on_unknown(self, attr: str) -> None:
        """``obj.attr = value`` where ``obj`` may be any object: no object's ``attr`` is known for sure."""
        self.attrs_stored_on_unknown.add(attr)
        self.outside_stores += 1

    def bindings(self, key: ScopeKey, name: str, *, runtime: bool = True) -> list[tuple[Binding, ScopeKey]]:
        """The bindings of ``name`` made directly in scope ``key`` (and by assignments from elsewhere).

        In a module or class body, a later unguarded binding replaces the earlier ones: what code running
        after the body sees starts at the last binding made outside any ``if``/``try``/loop.
        """
        bound_here = self.summaries[key[0]].scopes[key[1]].bindings
        if name not in bound_here and name not in self.names_bound_elsewhere:
            return []  # most asks, along MROs and star imports: no need for the memo
        memo_key = (key, name, runtime)
        found = self._bindings_memo.get(memo_key)
        if found is None:
            found = self._bindings_memo[memo_key] = self._bindings(key, name, runtime)
        return found

    def clear_memo(self) -> None:
        """Forget derived tables (after bases were resolved or bindings added from elsewhere).

        The tables of the class hierarchy are dropped only when bases were added since the last call: the
        resolver only ever adds them, so unchanged sizes mean unchanged tables.
        """
        self._bindings_memo.clear()
        self._member_memo.clear()
        self._dispatch_memo.clear()
        self._class_member_memo.clear()
        self._made_definers = None  # these read bindings made from elsewhere
        self._made_intercepting = None
        self._open_memo.clear()
        hierarchy = (len(self.class_bases), len(self.external_bases), len(self.unresolved_bases))
        if hierarchy != self._hierarchy_size:
            self._hierarchy_size = hierarchy
            self._made_mro_table = None
            self._made_direct_subclasses = None
            self._made_direct_bases = None
            self._made_open_classes = None
            self._made_open_positions = None
            self._made_metaclass_instance_attrs = None
            self._subclass_memo.clear()
            self._bases_memo.clear()

    def _bindings(self, key: ScopeKey, name: str, runtime: bool) -> list[tuple[Binding, ScopeKey]]:
        scope = self.summaries[key[0]].scopes[key[1]]
        bound = scope.bindings.get(name, ())
        own = [b for b in bound if not b.type_only] if runtime else list(bound)
        if len(own) > 1 and scope.kind in ("module", "class") and name != "*":  # star imports accumulate
            last = max((i for i, b in enumerate(own) if not b.guarded), default=0)
            # a function's ``global`` write runs when it is called, whatever line it is on: it keeps them all
            if last and name not in scope.unordered and not self._earlier_value_seen(key[0], name, own, last):
                own = own[last:]
        found = [(own[0], key)] if len(own) == 1 else [(b, key) for b in own]
        if key[0] in self.test_directories:
            found = self._on_test_path(key[0], found)
        extra = self.extra_bindings.get((key, name))
        return found + extra if extra else found

    def test_path_import(self, module: str, path: str) -> str | None:
        """The module an absolute import of ``path`` in ``module`` gets: pytest (its default ``prepend``
        import mode) imports a test module of a directory that is not a package with that directory first on
        ``sys.path``, so ``import helpers`` in ``tests/test_x.py`` is ``tests/helpers.py``. None when that is
        not certain: another such directory, or the top of the repository, holds a module of that name too
        (which one wins depends on the order pytest collects them in)."""
        directory = self.test_directories.get(module)
        if directory is None:
            return path
        top = path.partition(".")[0]
        holders = self._test_path_memo.get(top)
        if holders is None:
            holders = self._test_path_memo[top] = sorted(
                {d for d in self.test_directories.values() if self.is_module(f"{d}.{top}")}
            )
        if not holders:
            return path
        if holders == [directory] and not self.is_module(top):
            return f"{directory}.{path}"
        return None

    def _on_test_path(
        self, module: str, found: list[tuple[Binding, ScopeKey]]
    ) -> list[tuple[Binding, ScopeKey]]:
        """The bindings ``found`` in ``module``, their imports found as :meth:`test_path_import` finds them
        (a relative import, made absolute, starts with a directory of the repository: it stays as it is)."""
        return [(_imported_on_test_path(self, module, b), where) for b, where in found]

    def _earlier_value_seen(self, module: str, name: str, bindings: list[Binding], last: int) -> bool:
        """Whether import-time code may see ``name`` bound as before its last unguarded binding: a call
        between the first binding and that one, a read of the name from import-time code there (on its
        line too: ``x = x + 1``, ``f = wrap(f)``), or a later binding whose value reads the name."""
        first, final = bindings[0].line, bindings[last].line
        if self._eager_call_between(module, first, final):
            return True
        if any(name in names_read(b.a) for b in bindings[last:] if type(b.a) is tuple):
            return True
        lines = self._eager_reads(module).get(name)
        if not lines:
            return False
        if bindings[last].kind == "aug":  # ``x += y`` reads x; its value is computed from the other bindings
            final -= 1
        index = bisect.bisect_right(lines, first)
        return index < len(lines) and lines[index] <= final

    def _eager_reads(self, module: str) -> dict[str, list[int]]:
        """The lines where import-time code (module and class bodies, and their comprehensions; the
        defaults of the definitions they make) reads each name, by name, sorted (memoised)."""
        found = self._eager_read_lines.get(module)
        if found is not None:
            return found
        summary = self.summaries[module]
        scopes = summary.scopes
        eager = _eager_scopes(scopes)
        reads: dict[str, set[int]] = defaultdict(set)

        def note(ref: object, line: int) -> None:
            for read in names_read(ref):
                reads[read].add(line)

        for index in eager:
            for bindings in scopes[index].bindings.values():
                for binding in bindings:
                    if type(binding.a) is tuple:
                        note(binding.a, binding.line)
                    elif binding.kind in ("def", "class") and type(binding.b) is int:
                        made = scopes[binding.b]  # defaults and the metaclass are read right away (bases
                        # are evaluated as bound before the statement: ``class A(A)``)
                        note((*[param.default for param in made.params], made.metaclass), binding.line)
        for call in summary.calls:
            if call.scope in eager:
                note(call.func, call.line)
                note(call.args, call.line)
                note(tuple(ref for _, ref in call.keywords), call.line)
        for scope_id, line, _column, base, _attr in summary.attribute_loads:
            if scope_id in eager:
                note(base, line)
        found = self._eager_read_lines[module] = {name: sorted(lines) for name, lines in reads.items()}
        return found

    def _eager_call_between(self, module: str, first: int, last: int) -> bool:
        """Whether code runs between two bindings at import time (a call could see the earlier one): a call
        site of the module or a class body, or of their comprehensions, explicit or implicit (an operator,
        iteration, ``with``, a class statement's hooks, an attribute read, which may run a property), or an
        import of a repository module."""
        lines = self._eager_call_lines.get(module)
        if lines is None:
            summary = self.summaries[module]
            eager = _eager_scopes(summary.scopes)
            found = {call.line for call in summary.calls if call.scope in eager}
            found.update(load[1] for load in summary.attribute_loads if load[0] in eager)  # a property
            found.update(
                record.line
                for record in summary.imports
                if (record.scope == module or record.scope in self.class_scopes)
                and (self.is_module(record.target) or self.is_module(record.target.rpartition(".")[0]))
            )
            lines = self._eager_call_lines[module] = sorted(found)
        index = bisect.bisect_right(lines, first)
        return index < len(lines) and lines[index] < last

    def lookup(
        self, key: ScopeKey, name: str, *, runtime: bool = True
    ) -> list[tuple[Binding, ScopeKey]] | None:
        """LEGB lookup of ``name`` from scope ``key``; None when the name is a builtin or unbound."""
        module, index = key
        scopes = self.summaries[module].scopes
        here = scopes[index]
        if name in here.global_names:
            here = scopes[0]
        elif here.kind != "module" and name in here.bindings and name not in here.nonlocal_names:
            if here.kind == "class":
                return self.bindings(key, name, runtime=runtime)
            found = _local_bindings(here, key, name, runtime)
            return found if module not in self.test_directories else self._on_test_path(module, found)
        while here.kind != "module":  # enclosing scopes, class bodies aside
            if here.parent is None:
                return None
            here = scopes[here.parent]
            if here.kind in ("class", "module"):
                continue
            if name in here.bindings and name not in here.nonlocal_names:
                found = _local_bindings(here, (module, here.id), name, runtime)
                return found if module not in self.test_directories else self._on_test_path(module, found)
        return self.module_member_bindings(module, name, runtime=runtime)

    def module_member_bindings(
        self, module: str, name: str, *, runtime: bool = True, _seen: frozenset[str] = frozenset()
    ) -> list[tuple[Binding, ScopeKey]] | None:
        """Bindings of a module-level name, following ``from m import *`` (cycle-safe)."""
        if not _seen:
            memo_key = (module, name, runtime)
            found = self._member_memo.get(memo_key, _MISSING)
            if found is _MISSING:
                found = self._member_memo[memo_key] = self.module_member_bindings(
                    module, name, runtime=runtime, _seen=frozenset({""})
                )
            return found
        key = (module, 0)
        found = self.bindings(key, name, runtime=runtime)
        if "*" not in self.summaries[module].scopes[0].bindings:
            return found or None  # no star import to follow, nor to shadow what the module binds
        if found:
            shadowing = self._later_star_import(key, name, found, runtime=runtime, seen=_seen | {module})
            return shadowing if shadowing is not None else found
        for star, star_key in self.bindings(key, "*", runtime=runtime):
            source = star.a
            if source in self.summaries and source not in _seen and self._exported(source, name):
                inner = self.module_member_bindings(source, name, runtime=runtime, _seen=_seen | {module})
                if inner:
                    return inner
            elif source not in self.summaries:
                return [(Binding("from", source, name), star_key)]  # maybe from an external star import
        return None

    def _later_star_import(
        self,
        key: ScopeKey,
        name: str,
        found: list[tuple[Binding, ScopeKey]],
        *,
        runtime: bool,
        seen: frozenset[str],
    ) -> list[tuple[Binding, ScopeKey]] | None:
        """``def f`` then ``from m import *`` where m exports ``f``: the star import rebinds ``f``."""
        last = max(b.line for b, _ in found)
        for star, star_key in self.bindings(key, "*", runtime=runtime)[::-1]:
            if star.line <= last:
                continue
            source = star.a
            if source in self.summaries:
                if source in seen or not self._exported(source, name):
                    continue
                inner = self.module_member_bindings(source, name, runtime=runtime, _seen=seen)
                if inner:
                    return inner if not star.guarded else [*found, *inner]
            else:  # an external module may or may not export the name
                return [*found, (Binding("from", source, name, guarded=True), star_key)]
        return None

    def module_names(self, module: str, prefix: str) -> list[str]:
        """The global names of ``module`` that start with ``prefix`` (``*`` aside), in binding order."""
        found = self._names_memo.get((module, prefix))
        if found is None:
            bound = self.summaries[module].scopes[0].bindings
            found = [n for n in bound if n.startswith(prefix) and n != "*"]
            self._names_memo[(module, prefix)] = found
        return found

    def _exported(self, module: str, name: str) -> bool:
        exported = self.summaries[module].all_names
        return name in exported if exported is not None else not name.startswith("_")

    # -- classes ----------------------------------------------------------------------------------------

    def mro(self, cls: str) -> tuple[str, ...]:
        return self._mro_table.get(cls) or (cls,)

    @property
    def _mro_table(self) -> dict[str, tuple[str, ...]]:
        found = self._made_mro_table
        if found is None:
            found = self._made_mro_table = self._make_mro_table()
        return found

    def _make_mro_table(self) -> dict[str, tuple[str, ...]]:
        table: dict[str, tuple[str, ...]] = {}
        for cls in self.class_bases:
            table[cls] = c3_linearise(cls, lambda c: self.class_bases.get(c, ()))[0]
        return table

    @property
    def direct_subclasses(self) -> dict[str, list[str]]:
        found = self._made_direct_subclasses
        if found is None:
            found = self._made_direct_subclasses = self._make_direct_subclasses()
        return found

    def _make_direct_subclasses(self) -> dict[str, list[str]]:
        children: dict[str, list[str]] = defaultdict(list)
        for cls, bases in self.class_bases.items():
            for base in bases:
                children[base].append(cls)
        return children

    def subclasses(self, cls: str) -> frozenset[str]:
        found = self._subclass_memo.get(cls)
        if found is None:
            found = self._subclass_memo[cls] = transitive_subclasses(self.direct_subclasses, cls)
        return found

    @property
    def _definers(self) -> dict[str, set[str]]:
        found = self._made_definers
        if found is None:
            found = self._made_definers = self._make_definers()
        return found

    def _make_definers(self) -> dict[str, set[str]]:
        """Attribute name -> classes whose body, methods (``self.x = ...``) or outside code define it."""
        table = dict(self._body_definers)  # its sets are shared: a name outside code defines gets a new one
        added: dict[str, set[str]] = defaultdict(set)
        for key, name in self.extra_bindings:
            scope = self.scope(key)
            if scope.kind == "class":
                added[name].add(scope.owner)
        for cls, name in self.extra_instance_attrs:
            added[name].add(cls)
        for name, classes in added.items():
            table[name] = table.get(name, set()) | classes
        return table

    @property
    def calls_by_name(self) -> dict[str, list[tuple[str, CallRecord]]]:
        found = self._made_calls_by_name
        if found is None:
            found = self._made_calls_by_name = self._make_calls_by_name()
        return found

    def _make_calls_by_name(self) -> dict[str, list[tuple[str, CallRecord]]]:
        """The explicit calls of a name or an attribute (``f(...)``, ``x.f(...)``) by that name, with their
        modules."""
        table: dict[str, list[tuple[str, CallRecord]]] = defaultdict(list)
        for module, summary in self.summaries.items():
            for call in summary.calls:
                func = call.func
                if call.kind == "call" and func[0] in ("n", "a"):
                    table[func[1] if func[0] == "n" else func[2]].append((module, call))
        return dict(table)

    @property
    def _body_definers(self) -> dict[str, set[str]]:
        found = self._made_body_definers
        if found is None:
            found = self._made_body_definers = self._make_body_definers()
        return found

    def _make_body_definers(self) -> dict[str, set[str]]:
        """The part of :attr:`_definers` that class bodies and methods give (never cleared: it only reads the
        summaries)."""
        table: dict[str, set[str]] = defaultdict(set)
        for summary in self.summaries.values():
            for scope in summary.scopes:
                if scope.kind == "class":
                    for name in (*scope.bindings, *scope.instance_attrs):
                        table[name].add(scope.owner)
        return dict(table)

    def intercepts_attributes(self, cls: str, *, exact: bool) -> bool:
        """Whether an instance of ``cls`` (or of a subclass, unless ``exact``) may have a class defining
        ``__getattribute__`` (every attribute read then runs it, and it may give anything), or be a class
        (an instance of a metaclass)."""
        intercepting = self._intercepting
        if not intercepting:
            return False
        return cls in intercepting or (not exact and not intercepting.isdisjoint(self.subclasses(cls)))

    @property
    def _intercepting(self) -> frozenset[str]:
        found = self._made_intercepting
        if found is None:
            found = self._made_intercepting = self._make_intercepting()
        return found

    def _make_intercepting(self) -> frozenset[str]:
        """The classes with a class defining ``__getattribute__`` on their MRO (asked for on every attribute
        of an instance: walking the subclasses' MROs each time cost 2 % of a resolution), and metaclasses
        (their instances are classes, whose attributes their own bodies bind)."""
        metaclasses = {c for c in self.class_bases if "builtins.type" in self.external_ancestors(c)}
        definers = self._definers.get("__getattribute__")
        if not definers:
            return frozenset(metaclasses)
        return frozenset(
            {c for c in {*self.class_bases, *definers} if not definers.isdisjoint(self.mro(c))} | metaclasses
        )

    def dispatch_classes(self, cls: str, attr: str) -> list[str]:
        """``cls`` and the subclasses where looking up ``attr`` can give something else than on ``cls``.

        Classes with a base the index cannot name may be subclasses of anything: those whose known part
        defines ``attr`` are included too (see :meth:`open_dispatch`).
        """
        known, open_ = self._dispatch(cls, attr)
        return known + open_

    def open_dispatch(self, cls: str, attr: str) -> list[str]:
        """Classes with unnamed bases (maybe subclasses of ``cls``) that would find ``attr`` elsewhere."""
        return self._dispatch(cls, attr)[1]

    def _dispatch(self, cls: str, attr: str) -> tuple[list[str], list[str]]:
        """Both parts of :meth:`dispatch_classes`, memoised (members and calls ask for the same ones)."""
        found = self._dispatch_memo.get((cls, attr))
        if found is None:
            found = self._dispatch_memo[(cls, attr)] = (
                self._dispatch_known(cls, attr),
                self._open_dispatch(cls, attr),
            )
        return found

    def _open_dispatch(self, cls: str, attr: str) -> list[str]:
        candidates = self._open_definers(attr)
        if not candidates:
            return []
        ancestors = set(self.mro(cls))
        subclasses = self.subclasses(cls)
        # ``klass`` finds ``attr`` elsewhere unless its MRO meets an ancestor of ``cls`` by the first definer
        return sorted(k for k, reach in candidates if k not in subclasses and ancestors.isdisjoint(reach))

    def _open_definers(self, attr: str) -> list[tuple[str, tuple[str, ...]]]:
        """Classes with an unnamed base whose known MRO defines ``attr``, each with the start of its MRO up to
        the first class defining it (memoised per name)."""
        found = self._open_memo.get(attr)
        if found is None:
            first: dict[str, int] = {}  # open class -> where its MRO first meets a definer
            positions = self._open_positions
            for definer in self._definers.get(attr, ()):
                for klass, index in positions.get(definer, ()):
                    if index < first.get(klass, index + 1):
                        first[klass] = index
            found = [(klass, self.mro(klass)[: first[klass] + 1]) for klass in sorted(first)]
            self._open_memo[attr] = found
        return found

    @property
    def _open_positions(self) -> dict[str, list[tuple[str, int]]]:
        found = self._made_open_positions
        if found is None:
            found = self._made_open_positions = self._make_open_positions()
        return found

    def _make_open_positions(self) -> dict[str, list[tuple[str, int]]]:
        """Class -> ``(open class, index)`` for every MRO of a class with an unnamed base that holds it: a
        name's definers then lead straight to the open classes that meet them, not every open class."""
        positions: dict[str, list[tuple[str, int]]] = defaultdict(list)
        for klass in self._open_classes:
            for index, owner in enumerate(self.mro(klass)):
                positions[owner].append((klass, index))
        return positions

    @property
    def _open_classes(self) -> list[str]:
        found = self._made_open_classes
        if found is None:
            found = self._made_open_classes = self._make_open_classes()
        return found

    def _make_open_classes(self) -> list[str]:
        return sorted(k for k, unknown in self.unresolved_bases.items() if unknown)

    def _dispatch_known(self, cls: str, attr: str) -> list[str]:
        subclasses = self.subclasses(cls)
        if not subclasses:
            return [cls]
        ancestors = set(self.mro(cls))
        definers = self._definers.get(attr, set())
        candidates: set[str] = set()
        if len(subclasses) < len(definers):  # the same set, from the fewer side
            outside = definers - ancestors
            for klass in subclasses:
                if klass in outside or not outside.isdisjoint(self._strict_bases(klass)):
                    candidates.add(klass)
            return [cls, *sorted(candidates)]
        for definer in definers:
            if definer in ancestors:
                continue
            if definer in subclasses:
                candidates.add(definer)
            candidates.update(subclasses & self.subclasses(definer))
        return [cls, *sorted(candidates)]

    def _strict_bases(self, cls: str) -> frozenset[str]:
        """Every class ``cls`` inherits from, directly or not: ``cls`` is among their :meth:`subclasses`."""
        found = self._bases_memo.get(cls)
        if found is None:
            found = self._bases_memo[cls] = transitive_subclasses(self._direct_bases, cls)
        return found

    @property
    def _direct_bases(self) -> dict[str, list[str]]:
        found = self._made_direct_bases
        if found is None:
            found = self._made_direct_bases = self._make_direct_bases()
        return found

    def _make_direct_bases(self) -> dict[str, list[str]]:
        """The inverse of :attr:`direct_subclasses`, from the same snapshot of the resolved bases."""
        bases: dict[str, list[str]] = defaultdict(list)
        for base, children in self.direct_subclasses.items():
            for child in children:
                bases[child].append(base)
        return bases

    def external_ancestors(self, cls: str) -> tuple[str, ...]:
        """External bases anywhere in the repository MRO of ``cls``, in MRO order."""
        seen: dict[str, None] = {}
        for klass in self.mro(cls):
            for base in self.external_bases.get(klass, ()):
                seen.setdefault(base)
        return tuple(seen)

    def class_member(self, cls: str, name: str) -> list[tuple[str, list[tuple[Binding, ScopeKey]]]]:
        """``[(class, bindings)]`` for the first class in the MRO of ``cls`` whose body binds ``name``, or
        ``[]`` (memoised: its parts, the MRO and the bindings, are)."""
        found = self._class_member_memo.get((cls, name))
        if found is None:
            found = self._class_member_memo[(cls, name)] = self._class_member(cls, name)
        return found

    def _class_member(self, cls: str, name: str) -> list[tuple[str, list[tuple[Binding, ScopeKey]]]]:
        class_scopes = self.class_scopes
        anywhere = name in self.names_bound_elsewhere
        for klass in self.mro(cls):
            scope = class_scopes.get(klass)
            if scope is not None and not anywhere and name not in scope.bindings:
                if name == "__hash__" and "__eq__" in scope.bindings:
                    return [(klass, [(UNHASHABLE, self.def_scope[klass])])]
                continue  # what bindings() would say, without a call
            key = self.def_scope.get(klass)
            if key is None:
                continue
            found = self.bindings(key, name)
            if found:
                return [(klass, found)]
        return []


def _eager_scopes(scopes: list[Scope]) -> set[int]:
    """The scopes whose code runs at import time: the module, class bodies, and their comprehensions."""
    eager = set()
    for scope in scopes:
        outer = scope
        while outer.kind == "comprehension" and outer.parent is not None:
            outer = scopes[outer.parent]
        if outer.kind in ("module", "class"):
            eager.add(scope.id)
    return eager


#: What a class body that defines ``__eq__`` and no ``__hash__`` binds ``__hash__`` to: ``None``.
UNHASHABLE = Binding("val", ("k", "NoneType"))


def names_read(ref: object) -> set[str]:
    """The names a ref (or a tuple of refs) reads: the ``("n", name)`` parts anywhere inside it."""
    found: set[str] = set()
    stack = [ref]
    while stack:
        part = stack.pop()
        if type(part) is not tuple or not part:
            continue
        if part[0] == "n" and type(part[1]) is str:
            found.add(part[1])
            continue
        stack.extend(item for item in part if type(item) is tuple)
    return found


def _local_bindings(scope: Scope, key: ScopeKey, name: str, runtime: bool) -> list[tuple[Binding, ScopeKey]]:
    """What :meth:`Program.bindings` gives for a name bound in a function, lambda or comprehension: all its
    bindings, as such scopes have no import-time order and assignments from elsewhere only add bindings to
    modules and classes. Built each time: most local names are looked up once, and a memo would cost more."""
    bound = scope.bindings[name]
    if len(bound) == 1:  # most local names: no comprehension to run
        binding = bound[0]
        return [(binding, key)] if not (runtime and binding.type_only) else []
    if runtime:
        return [(b, key) for b in bound if not b.type_only]
    return [(b, key) for b in bound]


#: The scopes a ``def``, ``class`` or ``lambda`` opens.
DEFINITION_SCOPES = frozenset({"function", "class", "lambda"})


def _imported_on_test_path(program: Program, module: str, binding: Binding) -> Binding:
    if binding.kind not in ("import", "from"):
        return binding
    path = program.test_path_import(module, binding.a)
    if path == binding.a:
        return binding
    if path is None:
        return binding._replace(kind="unknown", a=f"{binding.a}: depends on the order tests run in", b=None)
    return binding._replace(a=path)


def _test_directories(summaries: Mapping[str, ModuleSummary]) -> dict[str, str]:
    """Test modules (``conftest.py`` among them) in a directory without ``__init__.py``, below the top:
    their directory's module prefix, by module."""
    found: dict[str, str] = {}
    for module, summary in summaries.items():
        if summary.is_test and not summary.is_package:
            directory = module.rpartition(".")[0]
            parent = summaries.get(directory)
            if directory and (parent is None or not parent.is_package):
                found[module] = directory
    return found


def _redefined(summaries: Mapping[str, ModuleSummary]) -> dict[str, tuple[ScopeKey, ...]]:
    """The qualnames defined by more than one statement, with the scope of each."""
    bodies: dict[str, list[ScopeKey]] = defaultdict(list)
    for module, summary in summaries.items():
        definitions = [scope for scope in summary.scopes if scope.kind in DEFINITION_SCOPES]
        if len(definitions) == len({scope.owner for scope in definitions}):
            continue  # every qualname of the module is defined once
        for scope in definitions:
            bodies[scope.owner].append((module, scope.id))
    return {qualname: tuple(keys) for qualname, keys in bodies.items() if len(keys) > 1}

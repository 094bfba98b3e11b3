"""Which uncertainty records could change facts about a definition.

An :class:`~dure.analyzers.model.Uncertainty` names what it could affect with selectors (``member:pkg.A``,
``attr:get_``, ``name:run``...). :func:`affects` answers for one record and one definition;
:class:`Affected` answers for every record at once, from tables keyed the way selectors match (by
definition, by parent, by name...), so that a query over a large repository does not test its thousands
of records one by one: on Django, ``callers`` of every function went from 48 s to a fraction of a second.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dure.analyzers.model import Definition, DefinitionKind, Uncertainty, UncertaintyKind

if TYPE_CHECKING:
    import networkx as nx

    from dure.analyzers.index import RepoIndex

#: Uncertainty kinds that may bind a name or an attribute to something else than the index found: a
#: computed ``setattr``, a write through ``__dict__``, ``exec``, a namespace handed out, an assignment from
#: outside. A call the index resolved through that name may then reach another target.
REBINDING_KINDS = frozenset(
    {UncertaintyKind.SETATTR, UncertaintyKind.EVAL, UncertaintyKind.NAMESPACE, UncertaintyKind.MONKEYPATCH}
)


def affects(index: RepoIndex, record: Uncertainty, qualname: str) -> bool:
    """Whether the uncertainty ``record`` could change facts about the definition ``qualname``."""
    return any(selects(index, selector, qualname) for selector in record.affects)


def selects(index: RepoIndex, selector: str, qualname: str) -> bool:
    """Whether one selector of an uncertainty's ``affects`` (see :class:`Uncertainty`) names ``qualname``."""
    if selector == "*":
        return True
    parent, _, name = qualname.rpartition(".")
    kind, _, rest = selector.partition(":")
    if kind == "def":
        return rest == qualname
    if kind == "member":
        return rest == parent
    if kind == "subclasses":
        return parent in subclasses_of(index, rest)
    if kind == "prefix":
        owner, _, prefix = rest.rpartition(":")
        return (owner == parent or parent in subclasses_of(index, owner)) and name.startswith(prefix)
    if kind == "name":
        return rest == name
    definition = index.definitions.get(qualname)
    if kind == "attr":
        return name.startswith(rest) and reachable_by_attribute(index, definition)
    if kind == "imported":
        return qualname in imported_into(index, rest)
    if kind == "modules":
        return _is_module(definition) and qualname.startswith(rest)
    return False


def affecting(index: RepoIndex, qualname: str) -> tuple[Uncertainty, ...]:
    """The uncertainty records that could change facts about ``qualname``, in the index's order."""
    table: Affected = index._memo("affected", lambda: Affected(index))
    return table.records(qualname)


class Affected:
    """:func:`affects` for every record of an index at once (see the module's docstring)."""

    def __init__(self, index: RepoIndex) -> None:
        self.index = index
        self.uncertainties = index.uncertainties
        self.always: list[int] = []
        self.by_definition: dict[str, list[int]] = {}
        self.by_parent: dict[str, list[int]] = {}  # member:P, and subclasses:C for each subclass P of C
        self.by_name: dict[str, list[int]] = {}
        self.prefixed: dict[str, list[tuple[str, int]]] = {}  # prefix:O:T, for O and each of its subclasses
        self.attribute_prefixes: dict[str, list[int]] = {}  # attr:T
        self.module_prefixes: dict[str, list[int]] = {}  # modules:T
        for number, record in enumerate(self.uncertainties):
            for selector in record.affects:
                self._add(selector, number)

    def _add(self, selector: str, number: int) -> None:
        if selector == "*":
            self.always.append(number)
            return
        kind, _, rest = selector.partition(":")
        if kind == "def":
            self.by_definition.setdefault(rest, []).append(number)
        elif kind == "member":
            self.by_parent.setdefault(rest, []).append(number)
        elif kind == "subclasses":
            for subclass in subclasses_of(self.index, rest):
                self.by_parent.setdefault(subclass, []).append(number)
        elif kind == "prefix":
            owner, _, prefix = rest.rpartition(":")
            for parent in (owner, *subclasses_of(self.index, owner)):
                self.prefixed.setdefault(parent, []).append((prefix, number))
        elif kind == "name":
            self.by_name.setdefault(rest, []).append(number)
        elif kind == "attr":
            self.attribute_prefixes.setdefault(rest, []).append(number)
        elif kind == "imported":
            for imported in imported_into(self.index, rest):
                self.by_definition.setdefault(imported, []).append(number)
        elif kind == "modules":
            self.module_prefixes.setdefault(rest, []).append(number)

    def records(self, qualname: str) -> tuple[Uncertainty, ...]:
        parent, _, name = qualname.rpartition(".")
        found = {*self.always, *self.by_definition.get(qualname, ()), *self.by_parent.get(parent, ())}
        found.update(self.by_name.get(name, ()))
        found.update(number for prefix, number in self.prefixed.get(parent, ()) if name.startswith(prefix))
        if self.attribute_prefixes or self.module_prefixes:
            definition = self.index.definitions.get(qualname)
            if self.attribute_prefixes and reachable_by_attribute(self.index, definition):
                for prefix, numbers in self.attribute_prefixes.items():
                    if name.startswith(prefix):
                        found.update(numbers)
            if self.module_prefixes and _is_module(definition):
                for prefix, numbers in self.module_prefixes.items():
                    if qualname.startswith(prefix):
                        found.update(numbers)
        return tuple(self.uncertainties[number] for number in sorted(found))


def _is_module(definition: Definition | None) -> bool:
    return definition is not None and definition.kind is DefinitionKind.MODULE


def reachable_by_attribute(index: RepoIndex, definition: Definition | None) -> bool:
    """What ``getattr(unknown, name)`` can return: a method, or a function of a module that can reach
    unknown code (used as a value, or any module once ``sys.modules`` or a computed import is used)."""
    if definition is None:
        return False
    if definition.kind is DefinitionKind.METHOD:
        return True
    if definition.kind is not DefinitionKind.FUNCTION:
        return False
    parent = index.definitions.get(definition.parent or "")
    if parent is None or parent.kind is not DefinitionKind.MODULE:
        return False
    escaping = parent.qualname in index.escaped
    return escaping or any(parent.qualname.startswith(prefix) for prefix in index.escaping_module_prefixes)


def imported_into(index: RepoIndex, module: str) -> frozenset[str]:
    """The repository definitions ``module`` imports."""

    def build() -> dict[str, frozenset[str]]:
        table: dict[str, set[str]] = {}
        for record in index.imports:
            if record.resolved:
                table.setdefault(record.module, set()).add(record.resolved)
        return {m: frozenset(names) for m, names in table.items()}

    table: dict[str, frozenset[str]] = index._memo("imported-into", build)
    return table.get(module, frozenset())


def subclasses_of(index: RepoIndex, cls: str) -> frozenset[str]:
    """The classes inheriting from ``cls`` inside the repository, transitively (each class asked once)."""
    import networkx as nx  # noqa: PLC0415 - 0.1 s to import; building an index never needs it

    known: dict[str, frozenset[str]] = index._memo("transitive-subclasses", dict)
    found = known.get(cls)
    if found is None:
        graph = class_graph(index)
        found = known[cls] = frozenset(nx.descendants(graph, cls)) if cls in graph else frozenset()
    return found


def class_graph(index: RepoIndex) -> nx.DiGraph[str]:
    """Base -> subclass edges inside the repository."""

    def build() -> nx.DiGraph[str]:
        import networkx as nx  # noqa: PLC0415 - see subclasses_of

        graph: nx.DiGraph[str] = nx.DiGraph()
        for base, children in index.subclass_map().items():
            graph.add_edges_from((base, child) for child in children)
        return graph

    graph: nx.DiGraph[str] = index._memo("class-graph", build)
    return graph

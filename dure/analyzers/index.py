"""The repository index: facts plus the queries every generator asks."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dure.analyzers import queries
from dure.analyzers.model import (
    CallEdge,
    CallSite,
    CallTarget,
    Certainty,
    ClassInfo,
    Definition,
    DefinitionKind,
    Diagnostic,
    Import,
    Parameter,
    ParameterKind,
    Uncertainty,
)

if TYPE_CHECKING:
    import networkx as nx

    from dure.analyzers.inference import JediReport
    from dure.analyzers.queries import QueryResult
    from dure.analyzers.resolution import Resolved


@dataclass(frozen=True, slots=True)
class Statistics:
    files: int  # Python files found
    modules: int  # files analysed (the rest have diagnostics)
    lines: int
    parsed: int  # files parsed in this run (the rest came from the cache)
    seconds: float
    reused: bool  # the whole index came from the cache


class RepoIndex:
    """Everything the analyzers know about one repository snapshot. Built by :func:`build_index`."""

    def __init__(
        self, root: Path, facts: Resolved, diagnostics: tuple[Diagnostic, ...], statistics: Statistics
    ) -> None:
        self.root = root
        self._definitions: dict[str, Definition] | None = facts.definitions
        self._call_sites: tuple[CallSite, ...] | None = None
        self._raw: dict[str, Any] = {"call_sites": facts.call_sites}
        self.imports: tuple[Import, ...] = facts.imports
        self.classes: dict[str, ClassInfo] = facts.classes
        self.uncertainties: tuple[Uncertainty, ...] = facts.uncertainties
        self.escaped: frozenset[str] = facts.escaped
        self.unresolved_attributes: frozenset[str] = facts.unresolved_attributes
        self.unresolved_calls: int = facts.unresolved_calls
        self.rebound: frozenset[str] = facts.rebound
        self.jedi: JediReport | None = facts.jedi
        self.escaping_module_prefixes: frozenset[str] = facts.escaping_module_prefixes
        self.special_implementations: frozenset[str] = facts.special_implementations
        self.diagnostics = diagnostics
        self.statistics = statistics
        self._derived: dict[str, Any] = {}

    @classmethod
    def from_facts(
        cls, root: Path, facts: Resolved, diagnostics: tuple[Diagnostic, ...], statistics: Statistics
    ) -> RepoIndex:
        return cls(root, facts, diagnostics, statistics)

    @property
    def definitions(self) -> dict[str, Definition]:
        if self._definitions is None:
            self._definitions = {row[0]: _definition_from_row(row) for row in self._raw.pop("definitions")}
        return self._definitions

    @property
    def call_sites(self) -> tuple[CallSite, ...]:
        if self._call_sites is None:
            self._call_sites = tuple(_site_from_row(row) for row in self._raw.pop("call_sites"))
        return self._call_sites

    def __getstate__(self) -> dict[str, Any]:
        """Plain tuples for the large tables: unpickling them is an order of magnitude faster."""
        state = dict(self.__dict__)
        state["_derived"] = {}
        raw = dict(self._raw)
        if self._definitions is not None:
            raw["definitions"] = [_definition_row(d) for d in self._definitions.values()]
        if self._call_sites is not None:
            raw["call_sites"] = [_site_row(s) for s in self._call_sites]
        state.update(_raw=raw, _definitions=None, _call_sites=None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def with_timing(self, seconds: float, *, reused: bool) -> RepoIndex:
        copy = RepoIndex.__new__(RepoIndex)
        copy.__setstate__(self.__getstate__())
        copy.statistics = replace(self.statistics, seconds=seconds, reused=reused, parsed=0)
        return copy

    # -- derived views (computed once, not cached on disk) ----------------------------------------------

    def _memo(self, name: str, build: Any) -> Any:
        if name not in self._derived:
            self._derived[name] = build()
        return self._derived[name]

    def node_rows(self) -> list[tuple[str, int, str, str, int]]:
        """``(file, line, qualname, kind, end_line)`` per definition, cheap even before they are loaded."""
        if self._definitions is None:
            file, line, end_line = _FILE, _LINE, _END_LINE
            return [(row[file], row[line], row[0], row[1], row[end_line]) for row in self._raw["definitions"]]
        return [(d.file, d.line, d.qualname, d.kind.value, d.end_line) for d in self._definitions.values()]

    def edge_rows(self) -> list[tuple[str, int, str, str, str]]:
        """``(file, line, caller, callee, certainty)`` per edge, cheap even before call sites are loaded."""
        if self._call_sites is None:
            return [
                (row[1], row[2], row[0], callee, certainty)
                for row in self._raw["call_sites"]
                for callee, certainty in row[5]
            ]
        return [
            (s.file, s.line, s.caller, t.callee, t.certainty.value)
            for s in self._call_sites
            for t in s.targets
        ]

    def edges(self) -> list[CallEdge]:
        """One edge per (call site, target)."""
        return [
            CallEdge(site.caller, target.callee, target.certainty, site.file, site.line)
            for site in self.call_sites
            for target in site.targets
        ]

    def certainty_counts(self) -> dict[Certainty, int]:
        """Targets by certainty (from the stored rows when the call sites are not loaded yet)."""
        counts = dict.fromkeys(Certainty, 0)
        if self._call_sites is None:
            by_value = Counter(certainty for row in self._raw["call_sites"] for _, certainty in row[5])
            for value, count in by_value.items():
                counts[Certainty(value)] = count
            return counts
        for site in self.call_sites:
            for target in site.targets:
                counts[target.certainty] += 1
        return counts

    @property
    def definition_count(self) -> int:
        return len(self._raw["definitions"]) if self._definitions is None else len(self._definitions)

    @property
    def call_site_count(self) -> int:
        return len(self._raw["call_sites"]) if self._call_sites is None else len(self._call_sites)

    def sites_by_caller(self) -> dict[str, list[CallSite]]:
        def build() -> dict[str, list[CallSite]]:
            table: dict[str, list[CallSite]] = defaultdict(list)
            for site in self.call_sites:
                table[site.caller].append(site)
            return table

        result: dict[str, list[CallSite]] = self._memo("by_caller", build)
        return result

    def sites_by_callee(self) -> dict[str, list[tuple[CallSite, Certainty]]]:
        def build() -> dict[str, list[tuple[CallSite, Certainty]]]:
            table: dict[str, list[tuple[CallSite, Certainty]]] = defaultdict(list)
            for site in self.call_sites:
                for target in site.targets:
                    if target.certainty is not Certainty.UNRESOLVED:
                        table[target.callee].append((site, target.certainty))
            return table

        result: dict[str, list[tuple[CallSite, Certainty]]] = self._memo("by_callee", build)
        return result

    def graph(self, *, possible: bool = False) -> nx.DiGraph[str]:
        """The call graph between repository definitions: certain edges, plus possible ones if asked."""

        def build() -> nx.DiGraph[str]:
            import networkx as nx  # noqa: PLC0415 - 0.1 s to import; building an index never needs it

            graph: nx.DiGraph[str] = nx.DiGraph()
            graph.add_nodes_from(self.definitions)
            allowed = {Certainty.CERTAIN, Certainty.POSSIBLE} if possible else {Certainty.CERTAIN}
            for site in self.call_sites:
                for target in site.targets:
                    if target.certainty in allowed and target.callee in self.definitions:
                        graph.add_edge(site.caller, target.callee)
            return graph

        result: nx.DiGraph[str] = self._memo(f"graph-{possible}", build)
        return result

    def subclass_map(self) -> dict[str, list[str]]:
        def build() -> dict[str, list[str]]:
            table: dict[str, list[str]] = defaultdict(list)
            for info in self.classes.values():
                for base in info.resolved_bases:
                    table[base].append(info.qualname)
            return table

        result: dict[str, list[str]] = self._memo("subclasses", build)
        return result

    # -- queries ------------------------------------------------------------------------------------------

    def callers(self, qualname: str) -> QueryResult:
        return queries.callers(self, qualname)

    def callees(self, qualname: str) -> QueryResult:
        return queries.callees(self, qualname)

    def subclasses(self, qualname: str) -> QueryResult:
        return queries.subclasses(self, qualname)

    def external_deps(self, qualname: str) -> QueryResult:
        return queries.external_deps(self, qualname)

    def shortest_paths(self, source: str, target: str) -> QueryResult:
        return queries.shortest_paths(self, source, target)

    def definition(self, name: str) -> QueryResult:
        return queries.definition(self, name)


def _site_row(site: CallSite) -> tuple[Any, ...]:
    targets = tuple((t.callee, t.certainty.value) for t in site.targets)
    return (site.caller, site.file, site.line, site.column, site.expression, targets, site.implicit)


def _site_from_row(row: tuple[Any, ...]) -> CallSite:
    caller, file, line, column, expression, targets, implicit = row
    return CallSite(
        caller,
        file,
        line,
        column,
        expression,
        tuple(CallTarget(callee, Certainty(c)) for callee, c in targets),
        implicit,
    )


_DEFINITION_FIELDS = tuple(f.name for f in fields(Definition))
_FILE, _LINE, _END_LINE = (_DEFINITION_FIELDS.index(name) for name in ("file", "line", "end_line"))


def _definition_row(definition: Definition) -> tuple[Any, ...]:
    values = {name: getattr(definition, name) for name in _DEFINITION_FIELDS}
    values["kind"] = definition.kind.value
    values["parameters"] = tuple(
        (p.name, p.kind.value, p.annotation, p.has_default) for p in definition.parameters
    )
    return tuple(values.values())


def _definition_from_row(row: tuple[Any, ...]) -> Definition:
    values = dict(zip(_DEFINITION_FIELDS, row, strict=True))
    values["kind"] = DefinitionKind(values["kind"])
    values["parameters"] = tuple(Parameter(n, ParameterKind(k), a, h) for n, k, a, h in values["parameters"])
    return Definition(**values)

"""Queries over a :class:`RepoIndex`, each saying whether its answer is certain and, if not, why."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING

from dure.analyzers.affected import REBINDING_KINDS, affecting, subclasses_of
from dure.analyzers.model import (
    Certainty,
    DefinitionKind,
    Import,
    ImportCondition,
    Uncertainty,
)
from dure.errors import QueryError

if TYPE_CHECKING:
    import networkx as nx

    from dure.analyzers.index import RepoIndex

#: Uncertainty kinds inside a function that make its own callees uncertain.
SCOPE_KINDS = frozenset({"getattr", "setattr", "eval", "dynamic_import", "namespace"})


@dataclass(frozen=True, slots=True)
class QueryResult:
    """An answer; ``certain`` means no uncertain fact could change it.

    ``value`` holds the items known for certain (for ``shortest_paths``, the paths); ``possible`` the items
    that may also belong to the answer; ``reasons`` says what keeps the answer from being certain.
    """

    query: str
    subject: str
    value: frozenset[str] | tuple[tuple[str, ...], ...]
    possible: frozenset[str]
    certain: bool
    reasons: tuple[str, ...] = ()


def _require(index: RepoIndex, query: str, qualname: str) -> None:
    if qualname not in index.definitions:
        raise QueryError(query, qualname, "no such definition in the index")


def caller_doubts(index: RepoIndex, qualname: str) -> list[str]:
    """Why code the index cannot see might call ``qualname``; empty when all its callers are known."""
    definition = index.definitions[qualname]
    reasons: list[str] = []
    name = definition.name
    parent = index.definitions.get(definition.parent or "")
    if qualname in index.escaped:
        reasons.append(f"{qualname} is used as a value; unknown code may call it")
    # such a call's receiver may be an instance, or the function's module where the index lost track of it
    module_function = parent is not None and parent.kind is DefinitionKind.MODULE
    if name in index.unresolved_attributes and (definition.kind is DefinitionKind.METHOD or module_function):
        reasons.append(f"a call of .{name}() on an unknown receiver may reach it")
    if name.startswith("__") and name.endswith("__"):
        reasons.append("special methods are called implicitly by the interpreter")
    elif qualname in index.special_implementations:
        reasons.append(f"{qualname} is bound as a special method: the interpreter calls it implicitly")
    if any("property" in d or d.endswith((".setter", ".getter")) for d in definition.decorators):
        reasons.append("a property is read through attribute access on receivers the index may not know")
    if parent is not None and parent.kind is DefinitionKind.CLASS:
        info = index.classes.get(parent.qualname)
        if info is not None and any(index.classes[c].external_bases for c in info.mro if c in index.classes):
            reasons.append(f"{parent.qualname} inherits from a class outside the repository that may call it")
    for record in affecting(index, qualname):
        reasons.append(f"{record.file}:{record.line}: {record.kind.value}: {record.detail}")
    if qualname in index.rebound:
        reasons.append(f"the name {name} is bound more than once in its scope")
    return reasons


def callers(index: RepoIndex, qualname: str) -> QueryResult:
    """Definitions that call ``qualname`` directly."""
    _require(index, "callers", qualname)
    certain: set[str] = set()
    possible: set[str] = set()
    for site, certainty in index.sites_by_callee().get(qualname, ()):
        (certain if certainty is Certainty.CERTAIN else possible).add(site.caller)
    possible -= certain
    reasons = caller_doubts(index, qualname)
    if possible:
        reasons.append(f"{len(possible)} caller(s) reach it only possibly")
    return QueryResult(
        "callers", qualname, frozenset(certain), frozenset(possible), not reasons, tuple(reasons)
    )


def callee_doubts(index: RepoIndex, qualname: str) -> list[str]:
    """Why the calls ``qualname`` makes may reach other targets than the index found."""
    reasons = []
    rebinding: dict[int, tuple[str, tuple[Uncertainty, ...]]] = {}  # by identity: see rebinding_records
    for site in index.sites_by_caller().get(qualname, ()):
        if any(t.certainty is Certainty.UNRESOLVED for t in site.targets):
            reasons.append(f"{site.file}:{site.line}: cannot resolve {site.expression}")
        elif any(t.certainty is Certainty.POSSIBLE for t in site.targets):
            reasons.append(f"{site.file}:{site.line}: {site.expression} has several possible targets")
        for target in site.targets:
            if target.certainty is not Certainty.UNRESOLVED:
                found = rebinding_records(index, target.callee)
                if found:  # most targets share their records with others: one reason for them all
                    rebinding.setdefault(id(found), (target.callee, found))
    for record in _in_scope(index).get(qualname, ()):
        reasons.append(f"{record.file}:{record.line}: {record.kind.value}: {record.detail}")
    reasons.extend(_rebinding_reason(callee, records) for callee, records in rebinding.values())
    return reasons


def _rebinding_reason(callee: str, records: tuple[Uncertainty, ...]) -> str:
    first = records[0]
    others = len(records) - 1
    more = f" (and {others} more place{'s' if others > 1 else ''})" if others else ""
    return f"{first.file}:{first.line}: {first.kind.value}: {first.detail}{more} may rebind {callee}"


def _in_scope(index: RepoIndex) -> dict[str, list[Uncertainty]]:
    """The uncertainties of :data:`SCOPE_KINDS`, by the scope they are in."""

    def build() -> dict[str, list[Uncertainty]]:
        table: dict[str, list[Uncertainty]] = {}
        for record in index.uncertainties:
            if record.kind.value in SCOPE_KINDS:
                table.setdefault(record.scope, []).append(record)
        return table

    table: dict[str, list[Uncertainty]] = index._memo("uncertainties-in-scope", build)
    return table


def rebinding_records(index: RepoIndex, callee: str) -> tuple[Uncertainty, ...]:
    """What may make a call resolved to ``callee`` reach something else: code that may rebind the name or
    the attribute it was reached through (see :data:`~dure.analyzers.affected.REBINDING_KINDS`). Callees
    with the same records share one tuple, which tells them apart by identity."""
    known: dict[str, tuple[Uncertainty, ...]] = index._memo("rebinding-records", dict)
    found = known.get(callee)
    if found is None:
        shared: dict[tuple[Uncertainty, ...], tuple[Uncertainty, ...]] = index._memo("rebinding-groups", dict)
        records = tuple(r for r in affecting(index, callee) if r.kind in REBINDING_KINDS)
        found = known[callee] = shared.setdefault(records, records)
    return found


def callees(index: RepoIndex, qualname: str) -> QueryResult:
    """What ``qualname`` calls directly: repository definitions, builtins and external paths."""
    _require(index, "callees", qualname)
    certain: set[str] = set()
    possible: set[str] = set()
    for site in index.sites_by_caller().get(qualname, ()):
        for target in site.targets:
            if target.certainty is Certainty.CERTAIN:
                certain.add(target.callee)
            elif target.certainty is Certainty.POSSIBLE:
                possible.add(target.callee)
    reasons = callee_doubts(index, qualname)
    return QueryResult(
        "callees", qualname, frozenset(certain), frozenset(possible - certain), not reasons, tuple(reasons)
    )


def subclasses(index: RepoIndex, qualname: str) -> QueryResult:
    """Classes inheriting from ``qualname``, transitively, inside the repository."""
    _require(index, "subclasses", qualname)
    found = subclasses_of(index, qualname)
    reasons = [
        f"{info.qualname} has bases the index cannot name: {', '.join(info.unresolved_bases)}"
        for info in index.classes.values()
        if info.unresolved_bases
    ]
    return QueryResult("subclasses", qualname, found, frozenset(), not reasons, tuple(reasons))


def external_deps(index: RepoIndex, qualname: str) -> QueryResult:
    """Top-level external modules ``qualname`` uses, directly or through the repository's own calls."""
    _require(index, "external_deps", qualname)
    import networkx as nx  # noqa: PLC0415 - see subclasses_of

    graph = index.graph(possible=True)
    reached = {qualname} | (nx.descendants(graph, qualname) if qualname in graph else set())
    certain_reached = {qualname} | (
        nx.descendants(index.graph(), qualname) if qualname in index.graph() else set()
    )
    certain: set[str] = set()
    possible: set[str] = set()
    reasons: list[str] = []
    by_caller = index.sites_by_caller()
    for function in sorted(reached):
        for site in by_caller.get(function, ()):
            for target in site.targets:
                module = _external_module(index, target.callee)
                if module is None or target.certainty is Certainty.UNRESOLVED:
                    continue
                sure = target.certainty is Certainty.CERTAIN and function in certain_reached
                (certain if sure else possible).add(module)
        if function in certain_reached:
            reasons.extend(callee_doubts(index, function))
    return QueryResult(
        "external_deps",
        qualname,
        frozenset(certain),
        frozenset(possible - certain),
        not reasons and not (possible - certain),
        tuple(reasons),
    )


def _external_module(index: RepoIndex, callee: str) -> str | None:
    if callee in index.definitions or callee.startswith("builtins."):
        return None
    top = callee.partition(".")[0]
    return None if top in index.definitions else top


def shortest_paths(index: RepoIndex, source: str, target: str) -> QueryResult:
    """Every shortest call path from ``source`` to ``target`` over certain edges."""
    _require(index, "shortest_paths", source)
    _require(index, "shortest_paths", target)
    import networkx as nx  # noqa: PLC0415 - see subclasses_of

    graph = index.graph()
    try:
        paths = tuple(sorted(tuple(p) for p in nx.all_shortest_paths(graph, source, target)))
    except nx.NetworkXNoPath:
        paths = ()
    reasons = _path_doubts(index, source, target, paths)
    return QueryResult(
        "shortest_paths", f"{source} -> {target}", paths, frozenset(), not reasons, tuple(reasons)
    )


def _path_doubts(index: RepoIndex, source: str, target: str, paths: tuple[tuple[str, ...], ...]) -> list[str]:
    if not paths:
        return ["no certain path"]
    import networkx as nx  # noqa: PLC0415 - see subclasses_of

    length = len(paths[0]) - 1
    wider = index.graph(possible=True)
    wider_paths = tuple(sorted(tuple(p) for p in nx.all_shortest_paths(wider, source, target)))
    if wider_paths != paths:
        return ["possible edges give other or shorter paths"]
    forward = _distances(wider, source, reverse=False, limit=length)
    backward = _distances(wider, target, reverse=True, limit=length)
    by_caller = index.sites_by_caller()
    unknown_from = min(
        (
            d
            for node, d in forward.items()
            if any(t.certainty is Certainty.UNRESOLVED for s in by_caller.get(node, ()) for t in s.targets)
        ),
        default=None,
    )
    if unknown_from is None:
        return []
    for node, distance in backward.items():
        if unknown_from + 1 + distance <= length and node in index.definitions and caller_doubts(index, node):
            return [f"an unresolved call may reach {node}, giving a path as short"]
    return []


def _distances(graph: nx.DiGraph[str], start: str, *, reverse: bool, limit: int) -> dict[str, int]:
    distances = {start: 0}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        if distances[node] >= limit:
            continue
        for neighbour in graph.predecessors(node) if reverse else graph.successors(node):
            if neighbour not in distances:
                distances[neighbour] = distances[node] + 1
                queue.append(neighbour)
    return distances


def definition(index: RepoIndex, name: str) -> QueryResult:
    """The definition a dotted name reaches, following re-exports through imports and star imports.

    Where the name depends on which import succeeds (``try: from ._fast import f`` / ``except
    ImportError: from ._slow import f``), ``value`` holds the first choice and ``possible`` the others.
    """
    reasons: list[str] = []
    alternatives: set[str] = set()
    current, rest = _longest_known_prefix(index, name)
    if current is None:
        raise QueryError("definition", name, "no module or definition of the repository starts this name")
    for part in rest:
        found = _member(index, current, part, reasons, alternatives, seen=frozenset())
        if found is None:
            raise QueryError("definition", name, f"{current} has no attribute {part} the index can follow")
        current = found
    if current in index.rebound:
        reasons.append(f"{current} is bound more than once in its scope")
    alternatives.discard(current)
    return QueryResult(
        "definition", name, frozenset({current}), frozenset(alternatives), not reasons, tuple(reasons)
    )


def _member(
    index: RepoIndex,
    owner: str,
    part: str,
    reasons: list[str],
    alternatives: set[str],
    *,
    seen: frozenset[str],
) -> str | None:
    """What ``owner.part`` names: a definition, an import's target, or a star-imported module's member."""
    candidate = f"{owner}.{part}"
    if candidate in index.definitions:
        return candidate
    records = [r for r in _export_table(index).get((owner, part), ()) if r.resolved]
    if records:
        for record in records:
            if record.condition is not ImportCondition.ALWAYS:
                reasons.append(f"{record.file}:{record.line}: the import is {record.condition.value}")
        if len({r.resolved for r in records}) > 1:
            reasons.append(f"{owner}.{part} is imported from {len(records)} places")
            alternatives.update(r.resolved for r in records[1:] if r.resolved)
        return records[0].resolved
    for star in _star_table(index).get(owner, ()):
        if star.resolved and star.resolved not in seen:
            found = _member(index, star.resolved, part, reasons, alternatives, seen=seen | {owner})
            if found is not None:
                return found
    return None


def _longest_known_prefix(index: RepoIndex, name: str) -> tuple[str | None, list[str]]:
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        prefix = ".".join(parts[:end])
        if prefix in index.definitions:
            return prefix, parts[end:]
    return None, parts


def _export_table(index: RepoIndex) -> dict[tuple[str, str], list[Import]]:
    """Module-level imports by (module, bound name), in source order."""

    def build() -> dict[tuple[str, str], list[Import]]:
        table: dict[tuple[str, str], list[Import]] = {}
        for record in index.imports:
            if record.scope == record.module and not record.is_star:
                table.setdefault((record.module, record.name), []).append(record)
        return table

    table: dict[tuple[str, str], list[Import]] = index._memo("exports", build)
    return table


def _star_table(index: RepoIndex) -> dict[str, list[Import]]:
    def build() -> dict[str, list[Import]]:
        table: dict[str, list[Import]] = {}
        for record in index.imports:
            if record.is_star and record.scope == record.module:
                table.setdefault(record.module, []).append(record)
        return table

    table: dict[str, list[Import]] = index._memo("stars", build)
    return table

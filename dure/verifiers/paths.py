"""``path``: a shortest call path from ``source`` to ``target`` in the task's graph.

Parameters: ``graph`` (the edges, ``[[caller, callee], ...]``), ``source`` and ``target``. The reference
answer is one shortest path (a list of nodes); any path of the graph with the same length passes, not only
the stored one. A wrong answer earns partial credit by overlap: the share of its distinct edges that lie on
*some* shortest path, over the longer of the shortest length and its own length. That share is 1.0 exactly
when the answer is a valid shortest path, so partial credit never reaches a pass.
"""

from __future__ import annotations

import functools
import itertools
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass

from dure.tasks.errors import AnswerError, TaskError
from dure.tasks.frozen import FrozenDict, JsonValue
from dure.tasks.model import Score, Task
from dure.verifiers._registry import register
from dure.verifiers.base import FORMAT, AuditCase, Expect, Verifier, string_items
from dure.verifiers.sets import normalize_qualname

MAX_NODES = 10_000
MAX_EQUIVALENTS = 20  # other shortest paths the self-audit tries


@dataclass(frozen=True, slots=True)
class Graph:
    successors: dict[str, frozenset[str]]
    from_source: dict[str, int]  # BFS distance from the source
    to_target: dict[str, int]  # BFS distance to the target
    source: str
    target: str

    @property
    def length(self) -> int | None:
        """Edges on a shortest path, ``None`` when the target is unreachable."""
        return self.from_source.get(self.target)

    def has_edge(self, caller: str, callee: str) -> bool:
        return callee in self.successors.get(caller, ())

    def on_shortest_path(self, caller: str, callee: str) -> bool:
        length, start, rest = self.length, self.from_source.get(caller), self.to_target.get(callee)
        if length is None or start is None or rest is None:
            return False
        return start + 1 + rest == length and self.has_edge(caller, callee)

    def shortest_paths(self, limit: int) -> Iterator[tuple[str, ...]]:
        """Up to ``limit`` shortest paths, in sorted order."""
        if self.length is None:
            return
        stack: list[tuple[str, ...]] = [(self.source,)]
        found = 0
        while stack and found < limit:
            path = stack.pop()
            if path[-1] == self.target and len(path) == self.length + 1:
                found += 1
                yield path
                continue
            nexts = [n for n in self.successors.get(path[-1], ()) if self.on_shortest_path(path[-1], n)]
            stack.extend((*path, n) for n in sorted(nexts, reverse=True))


def _distances(start: str, neighbours: dict[str, set[str]]) -> dict[str, int]:
    seen = {start: 0}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for nxt in neighbours.get(node, ()):
            if nxt not in seen:
                seen[nxt] = seen[node] + 1
                queue.append(nxt)
    return seen


@functools.lru_cache(maxsize=1024)
def graph_of(params: FrozenDict) -> Graph:
    """The task's graph with distances from the source and to the target (cached: tasks are immutable)."""
    source, target, edges = params.get("source"), params.get("target"), params.get("graph")
    if not isinstance(source, str) or not isinstance(target, str):
        raise TaskError("verifier.params", "'source' and 'target' must be strings")
    if not isinstance(edges, tuple):
        raise TaskError("verifier.params.graph", "must be an array of [caller, callee] pairs")
    forward: dict[str, set[str]] = {}
    backward: dict[str, set[str]] = {}
    for edge in edges:
        pair = string_items(edge, "verifier.params.graph", limit=2, error=TaskError)
        if len(pair) != 2:
            raise TaskError("verifier.params.graph", f"an edge must be a pair, got {pair!r}")
        caller, callee = (normalize_qualname(name) for name in pair)
        forward.setdefault(caller, set()).add(callee)
        backward.setdefault(callee, set()).add(caller)
    source, target = normalize_qualname(source), normalize_qualname(target)
    successors = {node: frozenset(nexts) for node, nexts in forward.items()}
    return Graph(successors, _distances(source, forward), _distances(target, backward), source, target)


@register
class PathVerifier(Verifier):
    name = "path"
    description = (
        "a call path; any valid shortest path of the task's graph passes, overlap earns partial credit"
    )
    components = (FORMAT, "valid", "shortest", "overlap")

    def check(self, task: Task, answer: JsonValue) -> Score:
        graph = graph_of(task.verifier.params)
        nodes = [
            normalize_qualname(n) for n in string_items(answer, "answer", limit=MAX_NODES, error=AnswerError)
        ]
        edges = list(itertools.pairwise(nodes))
        length = graph.length
        if length is None:  # no path exists: the answer is the empty list
            exact = not nodes
            return self.score(
                float(exact), {FORMAT: 1.0, "valid": exact, "shortest": exact, "overlap": exact}
            )
        valid = bool(nodes) and nodes[0] == graph.source and nodes[-1] == graph.target
        valid = valid and all(graph.has_edge(a, b) for a, b in edges)
        shortest = valid and len(edges) == length
        hits = {edge for edge in edges if graph.on_shortest_path(*edge)}
        overlap = 1.0 if shortest else len(hits) / max(length, len(edges), 1)
        details = {"length": len(edges), "shortest_length": length, "edges_on_a_shortest_path": len(hits)}
        components = {FORMAT: 1.0, "valid": float(valid), "shortest": float(shortest), "overlap": overlap}
        return self.score(1.0 if shortest else min(overlap, 0.999), components, details)

    def audit_cases(self, task: Task) -> tuple[AuditCase, ...]:
        graph = graph_of(task.verifier.params)
        reference = string_items(task.answer, "answer", limit=MAX_NODES, error=TaskError)
        cases = [AuditCase("respelled", tuple(f" {node} " for node in reference), Expect.EQUIVALENT)]
        for index, path in enumerate(graph.shortest_paths(MAX_EQUIVALENTS)):
            cases.append(AuditCase(f"shortest path {index + 1}", path, Expect.EQUIVALENT))
        if not reference:
            return (*cases, AuditCase("endpoints", (graph.source, graph.target), Expect.WRONG, 0.0))
        cases.append(AuditCase("empty", (), Expect.WRONG, 0.0))
        if len(reference) > 2:
            cases.append(AuditCase("endpoints only", (reference[0], reference[-1]), Expect.WRONG, 0.999))
            cases.append(AuditCase("reversed", tuple(reversed(reference)), Expect.WRONG, 0.999))
            cases.append(AuditCase("one node dropped", (*reference[:1], *reference[2:]), Expect.WRONG, 0.999))
        everything = tuple(
            sorted(set(graph.successors) | {n for ns in graph.successors.values() for n in ns})
        )
        if everything != tuple(reference):
            cases.append(AuditCase("every node", everything, Expect.WRONG, 0.5))
        return tuple(cases)

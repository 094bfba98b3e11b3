"""``call-path``: a shortest chain of direct calls from one function to another.

Pairs come from the certain call graph: ``b`` at distance 2 to 6 from ``a``, asked only when no possible or
unresolved call could give another or a shorter path (:func:`dure.analyzers.queries.shortest_paths`). The
graph the ``path`` verifier needs travels with the task: every certain edge between nodes that lie within
the shortest length of both ends (the edges of all shortest paths, and the near misses around them).
"""

from __future__ import annotations

from collections.abc import Iterator

import networkx as nx

from dure.analyzers.index import RepoIndex
from dure.analyzers.queries import shortest_paths
from dure.generators._common import NAMING, callables, files_of, is_plain_name, preferred_order, verifier
from dure.generators._registry import register
from dure.generators.base import Candidate, Drop, DropReason, Generator, Source, TraceCheck, provenance
from dure.generators.difficulty import features, phase_of
from dure.tasks.model import TaskKind, make_task

MIN_LENGTH, MAX_LENGTH = 2, 6
MAX_GRAPH_EDGES = 400
SCHEMA: dict[str, object] = {"type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 2}


@register
class CallPathGenerator(Generator):
    name = "call-path"
    kinds = (TaskKind.CALL_PATH,)
    description = "a shortest call path from one function to another"

    def candidates(self, source: Source, kind: TaskKind) -> Iterator[Candidate | Drop]:
        index = source.index
        graph = index.graph()
        rng = source.rng(kind)
        pairs: list[tuple[str, str, int]] = []
        for definition in callables(index):
            if definition.qualname not in graph:
                continue
            reach = nx.single_source_shortest_path_length(graph, definition.qualname, cutoff=MAX_LENGTH)
            ends = sorted(
                (name, d)
                for name, d in reach.items()
                if d >= MIN_LENGTH and is_plain_name(name) and name in index.definitions
            )
            if ends:
                end, distance = ends[rng.randrange(len(ends))]
                pairs.append((definition.qualname, end, distance))
        rank = [-min(distance, 4) for _, _, distance in pairs]  # longer chains first, up to 4 calls
        for start, end, distance in preferred_order(pairs, rng, rank):
            result = shortest_paths(index, start, end)
            subject = f"{start} -> {end}"
            if not result.certain:
                yield Drop(kind, DropReason.UNCERTAIN, subject, result.reasons[0])
                continue
            paths = [tuple(str(n) for n in p) for p in result.value if isinstance(p, tuple)]
            if any(not is_plain_name(n) for p in paths for n in p):
                yield Drop(kind, DropReason.UNCHECKABLE, subject, "a path goes through an unnameable node")
                continue
            edges = _task_graph(graph, start, end, distance)
            if len(edges) > MAX_GRAPH_EDGES:
                yield Drop(kind, DropReason.UNCHECKABLE, subject, f"{len(edges)} edges around the paths")
                continue
            yield _candidate(source, kind, (start, end), paths, edges)


def _task_graph(graph: nx.DiGraph[str], start: str, end: str, length: int) -> list[tuple[str, str]]:
    """Certain edges among the nodes on or next to a shortest path from ``start`` to ``end``."""
    forward = nx.single_source_shortest_path_length(graph, start, cutoff=length)
    backward = nx.single_source_shortest_path_length(graph.reverse(copy=False), end, cutoff=length)
    near = {n for n in forward if n in backward and forward[n] + backward[n] <= length + 1}
    return sorted((a, b) for a, b in graph.subgraph(near).edges)


def _candidate(
    source: Source,
    kind: TaskKind,
    ends: tuple[str, str],
    paths: list[tuple[str, ...]],
    edges: list[tuple[str, str]],
) -> Candidate:
    start, end = ends
    index = source.index
    reference = list(paths[0])
    on_paths = sorted({n for p in paths for n in p})
    difficulty = features(
        hops=len(reference) - 1,
        files=files_of(index, on_paths),
        answer_size=len(reference),
        fan_out=sum(1 for a, _ in edges if a == start),
        fan_in=sum(1 for _, b in edges if b == end),
    )
    prompt = (
        f"Find a shortest chain of direct calls in this repository from `{start}` to `{end}`: a list of "
        f"definitions that starts with `{start}`, ends with `{end}`, and in which each one calls the next "
        "directly in its own body. Any chain of the shortest length is accepted.\n\n"
        f"{NAMING}\n\n"
        "Answer with a JSON array of qualified-name strings in call order, inside <answer></answer> tags or "
        "a ```json fenced block."
    )
    first = index.definitions[start]
    task = make_task(
        kind=kind,
        repo=source.repo,
        prompt=prompt,
        inputs={"source": start, "target": end, "file": first.file, "line": first.line},
        answer=reference,
        answer_schema=SCHEMA,
        verifier=verifier("path", {"source": start, "target": end, "graph": [list(e) for e in edges]}),
        phase=phase_of(1, difficulty),
        difficulty=difficulty,
        provenance=provenance(source, kind, query="shortest_paths", certain=True, paths=len(paths)),
    )
    secrets = tuple(n for n in on_paths if n not in (start, end))
    return Candidate(task, secrets=secrets, trace_check=_trace_check(index, start, end, len(reference) - 1))


def _trace_check(index: RepoIndex, start: str, end: str, length: int) -> TraceCheck:
    """A traced edge missing from the index that gives a shorter path than the answer's."""

    def check(edges: frozenset[tuple[str, str]]) -> str | None:
        graph = index.graph()
        missing = [(a, b) for a, b in edges if not graph.has_edge(a, b)]
        if not missing:
            return None
        combined: nx.DiGraph[str] = nx.DiGraph(graph)
        combined.add_edges_from(missing)
        if start in combined and end in combined and nx.has_path(combined, start, end):
            shorter = nx.shortest_path_length(combined, start, end)
            if shorter < length:
                return f"the tests' calls give a path of {shorter} calls, shorter than {length}"
        return None

    return check

"""``external-deps``: the external modules a function uses, directly or through the repository's own calls.

The answer is a set of top-level module names (``os``, ``re``, ``attr``): a module counts when the function,
or a repository function it reaches by certain calls, calls a function or class of it. Asked only when every
call site on the way resolves; functions whose answer needs following calls come first, and "none" is
asked only of functions that reach at least two others.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import networkx as nx

from dure.analyzers.queries import external_deps
from dure.generators._common import callables, decoys, files_of, preferred_order, verifier
from dure.generators._registry import register
from dure.generators.base import Candidate, Drop, DropReason, Generator, Source, provenance
from dure.generators.difficulty import features, phase_of
from dure.tasks.model import TaskKind, make_task

MAX_ANSWER = 15
MIN_REACHED_WHEN_EMPTY = 3  # "none" is worth asking only when several functions must be read to say it
#: Plausible wrong modules after the repository's own: the standard library, public modules only.
STDLIB_DECOYS = sorted(m for m in sys.stdlib_module_names if not m.startswith("_"))
SCHEMA: dict[str, object] = {
    "type": "array",
    "items": {"type": "string", "pattern": r"^[A-Za-z_][A-Za-z0-9_]*$"},
    "uniqueItems": True,
}


@register
class ExternalDepsGenerator(Generator):
    name = "external-deps"
    kinds = (TaskKind.EXTERNAL_DEPS,)
    description = "the external modules a function depends on, directly and through repository calls"

    def candidates(self, source: Source, kind: TaskKind) -> Iterator[Candidate | Drop]:
        index = source.index
        graph = index.graph()
        subjects = callables(index)
        reached = [
            nx.single_source_shortest_path_length(graph, d.qualname)
            if d.qualname in graph
            else {d.qualname: 0}
            for d in subjects
        ]
        rank = [0 if len(r) > 2 else 1 if len(r) > 1 else 2 for r in reached]
        every_module = sorted(_all_external(source))
        for position in preferred_order(range(len(subjects)), source.rng(kind), rank):
            subject = subjects[position]
            result = external_deps(index, subject.qualname)
            if not result.certain:
                reason = result.reasons[0] if result.reasons else "possible calls reach other modules"
                yield Drop(kind, DropReason.UNCERTAIN, subject.qualname, reason)
                continue
            answer = sorted(str(item) for item in result.value)
            if not answer and len(reached[position]) < MIN_REACHED_WHEN_EMPTY:
                yield Drop(kind, DropReason.TRIVIAL, subject.qualname, "no external calls, nothing to follow")
                continue
            if len(answer) > MAX_ANSWER:
                yield Drop(kind, DropReason.UNCHECKABLE, subject.qualname, "answer too large")
                continue
            inside = [name for name in reached[position] if name in index.definitions]
            difficulty = features(
                hops=max(reached[position].values()),
                files=files_of(index, inside),
                answer_size=len(answer),
                fan_out=len(inside) - 1,
            )
            prompt = (
                f"Which modules from outside this repository does `{subject.qualname}` depend on? Count a "
                "module when this function, or any function or method of this repository that it reaches "
                "through a chain of calls, calls a function or class of that module (standard library "
                "included; builtins such as `len` or `open` are not modules). Give top-level module names "
                "only: `os` for `os.path.join`.\n\n"
                "Answer with a JSON array of module names, in any order, inside <answer></answer> tags or a "
                "```json fenced block."
            )
            pool = [*every_module, *STDLIB_DECOYS]
            near = decoys(pool, answer, len(answer))
            task = make_task(
                kind=kind,
                repo=source.repo,
                prompt=prompt,
                inputs={"symbol": subject.qualname, "file": subject.file, "line": subject.line},
                answer=answer,
                answer_schema=SCHEMA,
                verifier=verifier("set", {"candidates": sorted(near), "normalize": "strip"}),
                phase=phase_of(1, difficulty),
                difficulty=difficulty,
                provenance=provenance(source, kind, query="external_deps", certain=True),
            )
            yield Candidate(task)


def _all_external(source: Source) -> set[str]:
    """Every top-level external module some call of the repository reaches (plausible wrong answers)."""
    index = source.index
    found = set()
    for edge in index.edges():
        callee = edge.callee
        top = callee.partition(".")[0]
        if (
            callee not in index.definitions
            and not callee.startswith("builtins.")
            and top not in index.definitions
        ):
            found.add(top)
    return found

"""``subclasses``: every class of the repository that inherits from a given class, directly or not.

Asked only when every class of the repository has bases the index can name (a base it cannot name could be
the subject). Classes with several subclasses spread over files come first.
"""

from __future__ import annotations

from collections.abc import Iterator

from dure.analyzers.index import RepoIndex
from dure.analyzers.queries import subclasses
from dure.generators._common import (
    ANSWER_FORMAT,
    NAME_LIST_SCHEMA,
    NAMING,
    decoys,
    files_of,
    is_plain_name,
    nearest_first,
    preferred_order,
    verifier,
)
from dure.generators._registry import register
from dure.generators.base import Candidate, Drop, DropReason, Generator, Source, provenance
from dure.generators.difficulty import features, phase_of
from dure.tasks.model import TaskKind, make_task

MAX_ANSWER = 30


@register
class SubclassesGenerator(Generator):
    name = "subclasses"
    kinds = (TaskKind.SUBCLASSES,)
    description = "all subclasses of a class in the repository, transitively"

    def candidates(self, source: Source, kind: TaskKind) -> Iterator[Candidate | Drop]:
        index = source.index
        classes = sorted(name for name in index.classes if is_plain_name(name) and name in index.definitions)
        results = [subclasses(index, name) for name in classes]
        rank = [
            0 if len(files_of(index, map(str, r.value))) > 1 and len(r.value) > 1 else 1 if r.value else 2
            for r in results
        ]
        for position in preferred_order(range(len(classes)), source.rng(kind), rank):
            name, result = classes[position], results[position]
            if not result.certain:
                yield Drop(kind, DropReason.UNCERTAIN, name, result.reasons[0])
                continue
            answer = sorted(str(item) for item in result.value)
            if len(answer) > MAX_ANSWER or not all(map(is_plain_name, answer)):
                yield Drop(kind, DropReason.UNCHECKABLE, name, "answer too large or unnameable")
                continue
            subject = index.definitions[name]
            hops = max((_levels(index, item, name) for item in answer), default=0)
            difficulty = features(
                hops=hops,
                files=[subject.file, *files_of(index, answer)],
                answer_size=len(answer),
                fan_in=len(answer),
            )
            prompt = (
                f"List every class in this repository that inherits from `{name}`, directly or through other "
                f"classes (test code included).\n\n{NAMING}\n\n{ANSWER_FORMAT}"
            )
            near = decoys(nearest_first(classes, name), [*answer, name], len(answer))
            task = make_task(
                kind=kind,
                repo=source.repo,
                prompt=prompt,
                inputs={"symbol": name, "file": subject.file, "line": subject.line},
                answer=answer,
                answer_schema=NAME_LIST_SCHEMA,
                verifier=verifier("set", {"candidates": sorted(near)}),
                phase=phase_of(1, difficulty),
                difficulty=difficulty,
                provenance=provenance(source, kind, query="subclasses", certain=True),
            )
            yield Candidate(task, secrets=tuple(answer))


def _levels(index: RepoIndex, child: str, base: str) -> int:
    """Inheritance steps from ``child`` up to ``base`` along resolved bases (1 for a direct subclass)."""
    frontier, seen, steps = {child}, {child}, 0
    while frontier and base not in frontier:
        steps += 1
        frontier = {b for c in frontier if c in index.classes for b in index.classes[c].resolved_bases} - seen
        seen |= frontier
    return steps

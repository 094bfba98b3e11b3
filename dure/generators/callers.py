"""``callers`` and ``callees``: every direct caller (callee) of one function or method of the repository.

Asked only when the index is certain of the whole set: no unknown receiver, escape, dynamic access or
rebinding could add a caller, and every call site in a callee question resolves. Callers that reach the
subject only possibly, and (for callees) calls of classes, special methods, builtins and external code are
put in the verifier's ``ignored`` set: listing them neither helps nor hurts. Targets with 1-20 answers
spread over several files come first.
"""

from __future__ import annotations

from collections.abc import Iterator

from dure.analyzers.index import RepoIndex
from dure.analyzers.model import Certainty, Definition
from dure.analyzers.queries import callee_doubts, caller_doubts
from dure.generators._common import (
    ANSWER_FORMAT,
    CALLABLE_KINDS,
    NAME_LIST_SCHEMA,
    NAMING,
    callables,
    decoys,
    files_of,
    is_plain_name,
    is_special,
    nearest_first,
    preferred_order,
    verifier,
)
from dure.generators._registry import register
from dure.generators.base import Candidate, Drop, DropReason, Generator, Source, TraceCheck, provenance
from dure.generators.difficulty import features, phase_of
from dure.tasks.model import TaskKind, make_task

MAX_ANSWER = 20


@register
class CallersGenerator(Generator):
    name = "callers"
    kinds = (TaskKind.CALLERS, TaskKind.CALLEES)
    description = "all direct callers (callees) of a function or method in the repository"

    def candidates(self, source: Source, kind: TaskKind) -> Iterator[Candidate | Drop]:
        index = source.index
        subjects = callables(index)
        answers = [_answer(index, kind, d) for d in subjects]
        rank = [_rank(index, answer) for answer in answers]
        for position in preferred_order(range(len(subjects)), source.rng(kind), rank):
            subject, answer = subjects[position], answers[position]
            doubts = (caller_doubts if kind is TaskKind.CALLERS else callee_doubts)(index, subject.qualname)
            if doubts:
                yield Drop(kind, DropReason.UNCERTAIN, subject.qualname, doubts[0])
                continue
            required, ignored = answer
            if not required and kind is TaskKind.CALLEES:
                yield Drop(kind, DropReason.TRIVIAL, subject.qualname, "it calls no repository function")
                continue
            if len(required) > MAX_ANSWER or not all(map(is_plain_name, required)):
                yield Drop(kind, DropReason.UNCHECKABLE, subject.qualname, "answer too large or unnameable")
                continue
            yield _candidate(source, kind, subject, required, ignored)


def _answer(index: RepoIndex, kind: TaskKind, subject: Definition) -> tuple[list[str], list[str]]:
    """The required and ignored items of a question about ``subject``."""
    required: set[str] = set()
    ignored: set[str] = set()
    if kind is TaskKind.CALLERS:
        for site, certainty in index.sites_by_callee().get(subject.qualname, ()):
            (required if certainty is Certainty.CERTAIN else ignored).add(site.caller)
    else:
        for site in index.sites_by_caller().get(subject.qualname, ()):
            for target in site.targets:
                callee = index.definitions.get(target.callee)
                asked = (
                    target.certainty is Certainty.CERTAIN
                    and callee is not None
                    and callee.kind in CALLABLE_KINDS
                    and not is_special(callee.qualname)
                    and callee.qualname not in index.special_implementations
                )
                (required if asked else ignored).add(target.callee)
    return sorted(required), sorted(ignored - required)


def _rank(index: RepoIndex, answer: tuple[list[str], list[str]]) -> int:
    """0 for 1-20 answers over several files, 1 for 1-20 in one file, 2 for the rest (no callers last)."""
    required = answer[0]
    if not 1 <= len(required) <= MAX_ANSWER:
        return 2
    return 0 if len(files_of(index, required)) > 1 else 1


def _candidate(
    source: Source, kind: TaskKind, subject: Definition, required: list[str], ignored: list[str]
) -> Candidate:
    index = source.index
    qualname = subject.qualname
    what = "method" if "." in (subject.parent or "") and subject.parent in index.classes else "function"
    if kind is TaskKind.CALLERS:
        question = (
            f"List every definition in this repository that calls the {what} `{qualname}` directly: "
            "functions, methods, and module-level or class-body code whose own code contains the call "
            "(test code included)."
        )
        fan_in, fan_out = len(required), len(index.sites_by_caller().get(qualname, ()))
    else:
        question = (
            f"List every function and method of this repository that the {what} `{qualname}` calls "
            "directly in its own body (not in nested functions). Calls of classes, special methods such as "
            "`__init__`, builtins and other libraries are not asked: listing them neither helps nor hurts."
        )
        fan_in, fan_out = len(index.sites_by_callee().get(qualname, ())), len(required)
    prompt = f"{question}\n\n{NAMING}\n\n{ANSWER_FORMAT}"
    files = [subject.file, *files_of(index, required)]
    difficulty = features(hops=1, files=files, answer_size=len(required), fan_in=fan_in, fan_out=fan_out)
    task = make_task(
        kind=kind,
        repo=source.repo,
        prompt=prompt,
        inputs={"symbol": qualname, "file": subject.file, "line": subject.line},
        answer=required,
        answer_schema=NAME_LIST_SCHEMA,
        verifier=verifier("set", _params(kind, index, subject, required, ignored)),
        phase=phase_of(1, difficulty),
        difficulty=difficulty,
        provenance=provenance(source, kind, query=kind.value, certain=True, ignored=len(ignored)),
    )
    return Candidate(
        task,
        secrets=tuple(required),
        trace_check=_trace_check(kind, qualname, required, ignored, index.special_implementations),
    )


def _params(
    kind: TaskKind, index: RepoIndex, subject: Definition, required: list[str], ignored: list[str]
) -> dict[str, object]:
    """Verifier parameters: the ignored items, and plausible wrong answers near the subject. A callees
    question does not ask for special methods, so none counts against an answer (the interpreter calls
    them implicitly, in more ways than the index follows)."""
    pool = nearest_first((d.qualname for d in callables(index)), subject.qualname)
    near = decoys(pool, [*required, *ignored, subject.qualname], len(required))
    if kind is TaskKind.CALLEES:
        return {
            "ignored": sorted({*ignored, *index.special_implementations} - {*required}),
            "candidates": sorted(d for d in near if not is_special(d)),
            "ignore_special": True,
        }
    return {"ignored": ignored, "candidates": sorted(near)}


def _trace_check(
    kind: TaskKind, subject: str, required: list[str], ignored: list[str], special: frozenset[str]
) -> TraceCheck:
    """A traced call the answer lacks: a caller (callee) of the subject the index did not report. A callee
    question does not ask for special methods, nor for functions bound as one (``special``)."""
    allowed = frozenset(required) | frozenset(ignored) | special

    def check(edges: frozenset[tuple[str, str]]) -> str | None:
        for caller, callee in sorted(edges):
            if kind is TaskKind.CALLERS and callee == subject and caller not in allowed:
                return f"the tests call {subject} from {caller}"
            asked = not is_special(callee)
            if kind is TaskKind.CALLEES and caller == subject and callee not in allowed and asked:
                return f"the tests show {subject} calling {callee}"
        return None

    return check

"""``definition`` (localization): find the function that a description of its behaviour fits.

The description gives what the code shows without naming it: the docstring's first paragraph (the name
masked), the signature's shape (parameters, defaults, annotations, async), what kind of definition it is,
and the calls it makes for certain (repository functions by qualified name, builtins and libraries by
dotted path; its own nested functions as ``<name>.inner``). A description that fits two definitions of
the repository is not used, nor one without a docstring and with fewer than two distinct calls (too little
to go on). The answer is the qualified name.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from dure.analyzers.index import RepoIndex
from dure.analyzers.model import Certainty, Definition, DefinitionKind, ParameterKind
from dure.generators._common import NAMING, callables, preferred_order, verifier
from dure.generators._registry import register
from dure.generators.base import Candidate, Drop, DropReason, Generator, Source, provenance
from dure.generators.difficulty import features, phase_of
from dure.tasks.model import TaskKind, make_task

MAX_DOC_CHARS = 600
MIN_CALLS_WITHOUT_DOC = 2
SCHEMA: dict[str, object] = {"type": "string", "minLength": 1}


@dataclass(frozen=True, slots=True)
class Description:
    """What a definition shows, in a form two definitions can be compared on."""

    where: str
    signature: str
    doc: str
    calls: tuple[str, ...]

    def text(self) -> str:
        lines = [f"- Kind: {self.where}.", f"- Signature: `{self.signature}`."]
        if self.doc:
            quoted = "\n".join(f"  > {line}" if line else "  >" for line in self.doc.splitlines())
            lines.append(f"- Its docstring begins:\n{quoted}")
        else:
            lines.append("- It has no docstring.")
        if self.calls:
            lines.append("- It calls: " + ", ".join(f"`{c}`" for c in self.calls) + ".")
        else:
            lines.append("- It makes no calls the repository's code shows for certain.")
        return "\n".join(lines)


@register
class DefinitionGenerator(Generator):
    name = "definition"
    kinds = (TaskKind.DEFINITION,)
    description = "the qualified name of a function described by what it does"

    def candidates(self, source: Source, kind: TaskKind) -> Iterator[Candidate | Drop]:
        index = source.index
        subjects = [d for d in callables(index) if not d.is_test]
        descriptions = [describe(index, d) for d in subjects]
        counts = Counter(descriptions)
        rank = [0 if d.doc and d.calls else 1 for d in descriptions]
        for position in preferred_order(range(len(subjects)), source.rng(kind), rank):
            subject, description = subjects[position], descriptions[position]
            if counts[description] > 1:
                yield Drop(kind, DropReason.AMBIGUOUS, subject.qualname, "another definition fits")
                continue
            if not description.doc and len(set(description.calls)) < MIN_CALLS_WITHOUT_DOC:
                yield Drop(kind, DropReason.TRIVIAL, subject.qualname, "too little to describe it by")
                continue
            yield _candidate(source, kind, subject, description)


def describe(index: RepoIndex, definition: Definition) -> Description:
    """The masked description of ``definition``."""
    name = definition.name
    parent = index.definitions.get(definition.parent or "")
    if parent is not None and parent.kind is DefinitionKind.CLASS:
        where = "a method of a class"
    elif parent is not None and parent.kind is DefinitionKind.MODULE:
        where = "a module-level function"
    else:
        where = "a function nested in another function"
    if definition.is_async:
        where = f"an async {where.removeprefix('a ').removeprefix('an ')}"
    calls: set[str] = set()
    for site in index.sites_by_caller().get(definition.qualname, ()):
        for target in site.targets:
            if target.certainty is Certainty.CERTAIN and "<" not in target.callee:
                calls.add(_masked_call(target.callee, definition.qualname))
    return Description(
        where, _signature(definition), _masked_doc(definition.docstring, name), tuple(sorted(calls))
    )


def _masked_call(callee: str, qualname: str) -> str:
    """The callee as the description shows it: the definition itself and its nested functions masked."""
    if callee == qualname:
        return "(itself)"
    if callee.startswith(f"{qualname}."):
        return f"<name>{callee[len(qualname) :]}"
    return callee


def _signature(definition: Definition) -> str:
    parts: list[str] = []
    star_seen = False
    for parameter in definition.parameters:
        text = parameter.name
        if parameter.kind is ParameterKind.VAR_POSITIONAL:
            text, star_seen = f"*{text}", True
        elif parameter.kind is ParameterKind.VAR_KEYWORD:
            text = f"**{text}"
        elif parameter.kind is ParameterKind.KEYWORD_ONLY and not star_seen:
            parts.append("*")
            star_seen = True
        if parameter.annotation:
            text += f": {parameter.annotation}"
        if parameter.has_default:
            text += "=..."
        parts.append(text)
        if parameter.kind is ParameterKind.POSITIONAL_ONLY and _last_positional_only(
            definition, parameter.name
        ):
            parts.append("/")
    signature = f"({', '.join(parts)})"
    return f"{signature} -> {definition.returns}" if definition.returns else signature


def _last_positional_only(definition: Definition, name: str) -> bool:
    names = [p.name for p in definition.parameters if p.kind is ParameterKind.POSITIONAL_ONLY]
    return bool(names) and names[-1] == name


def _masked_doc(docstring: str | None, name: str) -> str:
    """The docstring's first paragraph, with the definition's own name replaced, cut to a bounded size."""
    if not docstring:
        return ""
    paragraph = docstring.strip().split("\n\n", 1)[0].strip()
    paragraph = re.sub(rf"(?<![\w.]){re.escape(name)}(?!\w)", "<name>", paragraph)
    return paragraph[:MAX_DOC_CHARS]


def _candidate(source: Source, kind: TaskKind, subject: Definition, description: Description) -> Candidate:
    index = source.index
    prompt = (
        "Which definition in this repository does this description fit? It was written from the code, with "
        f"the definition's own name replaced by `<name>`.\n\n{description.text()}\n\n{NAMING}\n\n"
        "Answer with the qualified name as a JSON string, inside <answer></answer> tags or a ```json fenced "
        "block."
    )
    repo_calls = [c for c in description.calls if c in index.definitions]
    difficulty = features(
        hops=1,
        files=[subject.file],
        answer_size=1,
        fan_out=len(description.calls),
        fan_in=len(index.sites_by_callee().get(subject.qualname, ())),
    )
    task = make_task(
        kind=kind,
        repo=source.repo,
        prompt=prompt,
        inputs={"description": description.text()},
        answer=subject.qualname,
        answer_schema=SCHEMA,
        verifier=verifier("exact"),
        phase=phase_of(1, difficulty),
        difficulty=difficulty,
        provenance=provenance(source, kind, unique=True, repository_calls=len(repo_calls)),
    )
    return Candidate(task, secrets=(subject.qualname, subject.file, subject.name))

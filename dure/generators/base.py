"""What every generator is: a lazy stream of candidate tasks about one repository.

A generator reads a :class:`Source` (the repository, its index and, when its tests can run, what they
execute) and yields :class:`Candidate` tasks, in the order it prefers them, and :class:`Drop` records for the
questions it declined (an uncertain answer, a description that fits two definitions). The pipeline
(:mod:`dure.generators.pipeline`) takes candidates until it has enough, and drops those that leak their
answer, repeat an earlier task, disagree with the runtime trace or fail the self-audit.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import ClassVar

from dure.analyzers.builder import ANALYZER_VERSION
from dure.analyzers.index import RepoIndex
from dure.analyzers.runtime import TestEvidence
from dure.corpus.manifest import TestSpec
from dure.tasks.model import RepoRef, Task, TaskKind


class DropReason(StrEnum):
    """Why a candidate question was not written; the values are the summary table's row names."""

    UNCERTAIN = "uncertain"  # an uncertain fact could change the answer
    AMBIGUOUS = "ambiguous"  # the question fits more than one answer (a description matching two functions)
    TRIVIAL = "trivial"  # nothing to ask (an empty answer where an empty answer is not interesting)
    LEAK = "leak"  # the prompt contains an item of the answer
    DUPLICATE = "duplicate"  # the same task id was already written
    TRACE_MISS = "trace-miss"  # the repository's tests made a call the static answer lacks (index miss)
    NO_EVIDENCE = "no-evidence"  # the kind needs the repository's tests, and they could not run
    BASELINE = "baseline"  # the module is not clean under the pinned checker, or its tests fail
    UNCHECKABLE = "uncheckable"  # the verifier cannot judge the answer yet
    AUDIT = "audit"  # the self-audit failed (the reference does not score 1.0, or a wrong answer passes)
    ERROR = "error"  # the generator raised on this candidate


@dataclass(frozen=True, slots=True)
class Drop:
    """A question not asked, and why (counted in the summary, kept in the per-repository report)."""

    kind: TaskKind
    reason: DropReason
    subject: str
    detail: str = ""


#: Checks a candidate against the calls the repository's tests made: a description of the first traced
#: edge its answer lacks, or ``None`` when the trace agrees.
TraceCheck = Callable[[frozenset[tuple[str, str]]], str | None]


@dataclass(frozen=True, slots=True)
class Candidate:
    """A task ready for the checks, with what the pipeline needs to check it.

    ``secrets`` are strings that must not appear in the prompt (the answer's names, the file of a
    definition); ``trace_check`` compares the answer with the calls the tests made, when they ran.
    """

    task: Task
    secrets: tuple[str, ...] = ()
    trace_check: TraceCheck | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Source:
    """One repository as the generators see it.

    ``root`` is the unpacked source tree (read it, never write it); ``evidence`` runs the repository's tests
    once, on first use, and returns what they executed (its ``error`` says why, when they cannot run here).
    """

    repo: RepoRef
    root: Path
    index: RepoIndex
    tests: TestSpec | None
    seed: int
    evidence: Callable[[], TestEvidence]

    def rng(self, kind: TaskKind | str) -> random.Random:
        """The generator's own random stream: the same for the same seed, repository and kind."""
        material = f"{self.seed}:{self.repo.sha256}:{TaskKind(kind).value}".encode()
        return random.Random(int.from_bytes(hashlib.sha256(material).digest()[:8], "big"))


class Generator(ABC):
    """Base of all generators; instances are stateless and shared."""

    name: ClassVar[str]
    kinds: ClassVar[tuple[TaskKind, ...]]
    description: ClassVar[str]
    #: Audit the candidates the pipeline still needs together (their verifier shares checker runs): the
    #: same tasks are accepted, the candidates just arrive a batch at a time.
    audit_in_batches: ClassVar[bool] = False

    @abstractmethod
    def candidates(self, source: Source, kind: TaskKind) -> Iterator[Candidate | Drop]:
        """Candidate tasks of ``kind`` about ``source``, best first; the pipeline stops when it has enough."""


@functools.cache
def _dure_version() -> str:
    """Read once: package metadata is parsed from disk on every lookup (a millisecond per task)."""
    return importlib.metadata.version("dure")


def provenance(source: Source, kind: TaskKind, **facts: object) -> dict[str, object]:
    """The provenance block every task carries: dure and analyzer versions, the seed, the facts used."""
    return {
        "dure": _dure_version(),
        "analyzer": ANALYZER_VERSION,
        "seed": source.seed,
        "generator": kind.value,
        "facts": facts,
    }


__all__ = ["Candidate", "Drop", "DropReason", "Generator", "Source", "TraceCheck", "provenance"]

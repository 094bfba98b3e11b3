"""The task, answer and score records (see DESIGN.md, "The contracts").

All records are frozen and hold only immutable JSON (:mod:`dure.tasks.frozen`), so one task object can be
scored against millions of answers, shared across threads and sent to worker processes.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from enum import StrEnum

from dure.tasks.frozen import EMPTY, FrozenDict, JsonValue, freeze, freeze_object

ID_HEX_DIGITS = 20


class TaskKind(StrEnum):
    """Task kinds; the values are published names and never change."""

    CALLERS = "callers"
    CALLEES = "callees"
    SUBCLASSES = "subclasses"
    EXTERNAL_DEPS = "external-deps"
    CALL_PATH = "call-path"
    DEFINITION = "definition"
    TYPE_COMPLETION = "type-completion"
    DEAD_CODE = "dead-code"
    CAUSAL_CHAIN = "causal-chain"
    CHANGE_IMPACT = "change-impact"
    PATCH_EQUIVALENCE = "patch-equivalence"


LAYER_OF_KIND: dict[TaskKind, int] = {
    TaskKind.CALLERS: 1,
    TaskKind.CALLEES: 1,
    TaskKind.SUBCLASSES: 1,
    TaskKind.EXTERNAL_DEPS: 1,
    TaskKind.CALL_PATH: 1,
    TaskKind.DEFINITION: 1,
    TaskKind.TYPE_COMPLETION: 1,
    TaskKind.DEAD_CODE: 1,
    TaskKind.CAUSAL_CHAIN: 2,
    TaskKind.CHANGE_IMPACT: 2,
    TaskKind.PATCH_EQUIVALENCE: 2,
}


@dataclass(frozen=True, slots=True)
class RepoRef:
    """The pinned repository a task is about."""

    name: str
    version: str
    source: str  # where it came from: "pypi", a URL, or a local path
    sha256: str  # digest of the source distribution (or of the tree, for a local checkout)


@dataclass(frozen=True, slots=True)
class VerifierSpec:
    """Which verifier checks the task's answers, with its parameters (ignored/forbidden sets, a graph)."""

    name: str
    params: FrozenDict = EMPTY


@dataclass(frozen=True, slots=True)
class Task:
    """One question about one repository, with its exact answer and how answers are checked.

    ``answer`` is the reference answer in exactly the form an agent must give (``answer_schema``), so the
    self-audit can score it; ``workspace`` is a unified diff against the pinned repository (empty when the
    agent sees the repository as released).
    """

    id: str
    kind: TaskKind
    layer: int
    phase: int
    repo: RepoRef
    prompt: str
    inputs: FrozenDict
    answer: JsonValue
    answer_schema: FrozenDict
    verifier: VerifierSpec
    workspace: str = ""
    difficulty: FrozenDict = EMPTY
    provenance: FrozenDict = EMPTY
    audit: FrozenDict = EMPTY


@dataclass(frozen=True, slots=True)
class Answer:
    """One answer line: the task it answers and the answer value (already parsed from the agent's text)."""

    task_id: str
    value: JsonValue


@dataclass(frozen=True, slots=True)
class Completion:
    """One answer line carrying an agent's free text; the answer is extracted from it when it is scored."""

    task_id: str
    text: str


@dataclass(frozen=True, slots=True)
class Score:
    """The verdict on one answer. ``value`` is finite and in [0, 1]; ``passed`` only when ``value`` is 1.0.

    ``components`` always has the same keys for a given verifier (hence kind), whatever the answer was;
    ``error`` says why a malformed answer scored 0.
    """

    value: float
    passed: bool
    components: FrozenDict = EMPTY
    details: FrozenDict = EMPTY
    error: str | None = None

    def __post_init__(self) -> None:
        value = self.value
        if not (isinstance(value, float | int) and math.isfinite(value) and 0.0 <= value <= 1.0):
            raise ValueError(f"score value must be a finite number in [0, 1], not {self.value!r}")
        if self.passed and self.value != 1.0:
            raise ValueError("a passing score must have value 1.0")

    @classmethod
    def failed(cls, error: str, components: tuple[str, ...] = (), **details: JsonValue) -> Score:
        """A zero score for an answer that could not be checked, with every component at 0."""
        return cls(0.0, False, FrozenDict(dict.fromkeys(components, 0.0)), freeze_object(details), error)


def canonical_json(value: object) -> str:
    """The one canonical text of a JSON value: sorted keys, no spaces, UTF-8 kept."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def task_id(repo_sha256: str, kind: TaskKind | str, target: object, parameters: object) -> str:
    """A stable id, ``<kind>-<hex>``, hashing the repository digest, kind, target and parameters."""
    kind = TaskKind(kind)
    payload = canonical_json([repo_sha256, kind.value, freeze(target), freeze(parameters)])
    digest = hashlib.sha256(payload.encode("utf-8")).hexdigest()[:ID_HEX_DIGITS]
    return f"{kind.value}-{digest}"


def id_parameters(verifier: VerifierSpec, workspace: str, answer_schema: FrozenDict) -> FrozenDict:
    """What an id covers besides the repository, kind and target: verifier, workspace and answer form."""
    workspace_digest = hashlib.sha256(workspace.encode("utf-8")).hexdigest()
    return FrozenDict(
        {
            "verifier": verifier.name,
            "params": verifier.params,
            "workspace": workspace_digest,
            "answer_schema": answer_schema,
        }
    )


def make_task(
    *,
    kind: TaskKind | str,
    repo: RepoRef,
    prompt: str,
    inputs: object,
    answer: object,
    answer_schema: object,
    verifier: VerifierSpec,
    phase: int = 1,
    workspace: str = "",
    difficulty: object = None,
    provenance: object = None,
    audit: object = None,
) -> Task:
    """Build a task from plain data, freezing it and computing its id (see :func:`task_id`)."""
    kind = TaskKind(kind)
    frozen_inputs, frozen_schema = freeze_object(inputs), freeze_object(answer_schema)
    return Task(
        id=task_id(repo.sha256, kind, frozen_inputs, id_parameters(verifier, workspace, frozen_schema)),
        kind=kind,
        layer=LAYER_OF_KIND[kind],
        phase=phase,
        repo=repo,
        prompt=prompt,
        inputs=frozen_inputs,
        answer=freeze(answer),
        answer_schema=frozen_schema,
        verifier=verifier,
        workspace=workspace,
        difficulty=freeze_object(difficulty),
        provenance=freeze_object(provenance),
        audit=freeze_object(audit),
    )


def expected_id(task: Task) -> str:
    """The id a task's content calls for (a stored id that differs means the task was edited by hand)."""
    return task_id(
        task.repo.sha256,
        task.kind,
        task.inputs,
        id_parameters(task.verifier, task.workspace, task.answer_schema),
    )


__all__ = [
    "LAYER_OF_KIND",
    "Answer",
    "Completion",
    "RepoRef",
    "Score",
    "Task",
    "TaskKind",
    "VerifierSpec",
    "canonical_json",
    "expected_id",
    "make_task",
    "task_id",
]

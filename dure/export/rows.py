"""One exported row per (task, phase): the one row schema every kind shares, as a fixed pyarrow schema.

Measured with ``datasets``: a column whose type varies between rows, or struct columns whose keys differ
between shards, make ``load_dataset`` fail. So every kind has the same columns with the same types:
the ground truth is a JSON string (:func:`dure.integrations.core.ground_truth_of`), and ``extra_info`` is
a struct with fixed keys whose kind-specific parts (``difficulty``, ``inputs``) are JSON strings.
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from dure.integrations.core import DATA_SOURCE_PREFIX, ground_truth_of
from dure.tasks.frozen import thaw
from dure.tasks.model import Task, TaskKind, canonical_json

ENV_CLASS = "dure"
REWARD_STYLE = "rule"

#: What each kind trains, verl's ``ability`` column.
ABILITY: dict[TaskKind, str] = {
    TaskKind.CALLERS: "call-graph",
    TaskKind.CALLEES: "call-graph",
    TaskKind.CALL_PATH: "call-graph",
    TaskKind.SUBCLASSES: "class-hierarchy",
    TaskKind.EXTERNAL_DEPS: "dependency-analysis",
    TaskKind.DEFINITION: "code-localization",
    TaskKind.TYPE_COMPLETION: "type-inference",
    TaskKind.DEAD_CODE: "dead-code",
    TaskKind.CAUSAL_CHAIN: "debugging",
    TaskKind.CHANGE_IMPACT: "change-impact",
    TaskKind.PATCH_EQUIVALENCE: "patch-equivalence",
}

MESSAGE_TYPE = pa.struct([("role", pa.string()), ("content", pa.string())])
GROUND_TRUTH_STRUCT = pa.struct([("style", pa.string()), ("ground_truth", pa.string())])
REWARD_SPEC_STRUCT = pa.struct([("method", pa.string()), ("ground_truth", pa.string())])
EXTRA_INFO_STRUCT = pa.struct(
    [
        ("index", pa.int64()),  # the row's position in the whole export (files in path order); unique
        ("task_id", pa.string()),
        ("kind", pa.string()),
        ("split", pa.string()),
        ("repo_name", pa.string()),
        ("repo_version", pa.string()),
        ("repo_sha256", pa.string()),
        ("layer", pa.int64()),
        ("phase", pa.int64()),
        ("difficulty", pa.string()),  # JSON object
        ("inputs", pa.string()),  # JSON object
        ("workspace", pa.string()),  # unified diff against the pinned repository; "" for none
    ]
)

#: The one row schema, in its fixed column order, for every kind and phase.
ROW_SCHEMA = pa.schema(
    [
        pa.field("task_id", pa.string(), nullable=False),
        pa.field("task_kind", pa.string(), nullable=False),
        pa.field("phase", pa.int64(), nullable=False),
        # verl
        pa.field("data_source", pa.string(), nullable=False),
        pa.field("prompt", pa.list_(MESSAGE_TYPE), nullable=False),
        pa.field("ability", pa.string(), nullable=False),
        pa.field("reward_model", GROUND_TRUTH_STRUCT, nullable=False),
        pa.field("extra_info", EXTRA_INFO_STRUCT, nullable=False),
        # SkyRL
        pa.field("env_class", pa.string(), nullable=False),
        pa.field("reward_spec", REWARD_SPEC_STRUCT, nullable=False),
        # OpenRLHF
        pa.field("label", pa.string(), nullable=False),
        # verifiers (v0)
        pa.field("question", pa.string(), nullable=False),
        pa.field("answer", pa.string(), nullable=False),
        pa.field("info", EXTRA_INFO_STRUCT, nullable=False),
    ]
)
COLUMNS: tuple[str, ...] = tuple(ROW_SCHEMA.names)


def system_message(task: Task) -> str:
    """What the agent is told before the question: which repository, at which version, and any patch."""
    repo = task.repo
    lines = [
        f"You are working in the Python repository {repo.name}, version {repo.version}.",
        "Explore and read its code as you need, then answer exactly in the form the question asks, "
        "inside <answer></answer> tags or a ```json fenced block.",
    ]
    if task.workspace:
        # Never the diff itself: its removed lines can be the answer (the stripped annotations, say). The
        # environment builds the patched tree with dure.workspace.materialise(task, DIR).
        lines.append(
            "Your working copy differs from that release by a patch that is already applied: "
            "answer about the code as it is in your working copy."
        )
    return "\n".join(lines)


def task_row(task: Task, *, phase: int, split: str, index: int) -> dict[str, Any]:
    """The row of ``task`` in ``phase`` and ``split``; ``index`` is its position in the whole export."""
    truth = ground_truth_of(task)
    info = {
        "index": index,
        "task_id": task.id,
        "kind": task.kind.value,
        "split": split,
        "repo_name": task.repo.name,
        "repo_version": task.repo.version,
        "repo_sha256": task.repo.sha256,
        "layer": task.layer,
        "phase": phase,
        "difficulty": canonical_json(thaw(task.difficulty)),
        "inputs": canonical_json(thaw(task.inputs)),
        "workspace": task.workspace,
    }
    return {
        "task_id": task.id,
        "task_kind": task.kind.value,
        "phase": phase,
        "data_source": f"{DATA_SOURCE_PREFIX}{task.kind.value}",
        "prompt": [
            {"role": "system", "content": system_message(task)},
            {"role": "user", "content": task.prompt},
        ],
        "ability": ABILITY[task.kind],
        "reward_model": {"style": REWARD_STYLE, "ground_truth": truth},
        "extra_info": info,
        "env_class": ENV_CLASS,
        "reward_spec": {"method": REWARD_STYLE, "ground_truth": truth},
        "label": canonical_json({"task_id": task.id, "ground_truth": truth}),
        "question": task.prompt,
        "answer": truth,
        "info": info,
    }


def rows_table(rows: list[dict[str, Any]]) -> pa.Table:
    """Rows as a table with exactly :data:`ROW_SCHEMA` (an empty list gives an empty table of that schema)."""
    return pa.Table.from_pylist(rows, schema=ROW_SCHEMA)


__all__ = ["ABILITY", "COLUMNS", "ENV_CLASS", "EXTRA_INFO_STRUCT", "ROW_SCHEMA", "rows_table", "task_row"]

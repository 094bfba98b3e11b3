"""Prime Intellect ``verifiers`` (0.4, the v1 API): a taskset over a ``dure export`` folder.

In verifiers 0.4 an environment's data half is a ``Taskset`` whose ``load()`` yields ``Task`` objects, each
holding a frozen ``TaskData`` row; a task's ``@vf.reward`` methods score a rollout's ``Trace`` (the
environment awaits ``Task.score(trace)``, verifiers/v1/task.py). A taskset package exports exactly one
``Taskset`` subclass in ``__all__``. (Version 0.4 removed the v0 ``load_environment`` API, so there is no v0
shim: the export's ``question``/``answer``/``info`` columns remain for older setups.)

Usage::

    from dure.integrations.verifiers_env import DureTaskset, DureTasksetConfig
    taskset = DureTaskset(DureTasksetConfig(path="path/to/export", phase="1", split="train"))

verifiers resolves ``--env.taskset.id`` to a top-level package: the ``dure_taskset`` package that ships
with dure re-exports :class:`DureTaskset`, so ``--env.taskset.id dure-taskset --env.taskset.path DIR``
works. Each task's
reward is dure's score of the rollout's last reply (``Trace.last_reply``), scored off the event loop with
the per-answer timeout; ``dure_passed`` and ``dure_format`` are recorded as metrics and a malformed answer's
reason in ``trace.info["dure_error"]``.
"""

from __future__ import annotations

import asyncio
import importlib
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import verifiers.v1 as vf  # type: ignore[import-untyped,import-not-found,unused-ignore]  # untyped, optional

from dure.integrations import core
from dure.verifiers.base import FORMAT

REWARD_NAME = "dure"


class DureData(vf.TaskData):  # type: ignore[misc]  # a pydantic model from an untyped package
    """One exported row: the question (and system message) and the ground truth dure scores against."""

    ground_truth: str = ""
    kind: str = ""
    phase: int | None = None


class DureTaskConfig(vf.TaskConfig):  # type: ignore[misc]
    """Per-task settings, under ``--env.taskset.task.*``."""

    timeout: float | None = None
    """Seconds per answer (default: ``$DURE_REWARD_TIMEOUT``, else 30)."""


class DureTask(vf.Task[DureData, vf.State, DureTaskConfig]):  # type: ignore[misc]
    """A dure task: no tools, no setup; one reward, dure's score of the final reply."""

    @property
    def key(self) -> str:
        """The dure task id: stable across exports, unlike the content hash (which covers ``idx``)."""
        return str(self.data.id or self.hash)

    @vf.reward(weight=1.0)  # type: ignore[untyped-decorator]
    async def dure(self, trace: Any) -> float:
        """dure's score of the last reply, in [0, 1]; never raises."""
        limit = core.safe_timeout(self.config.timeout, core.default_timeout())
        result = await asyncio.to_thread(core.reward, trace.last_reply, self.data.ground_truth, timeout=limit)
        trace.record_metric("dure_passed", 1.0 if result.passed else 0.0)
        trace.record_metric("dure_format", core.finite(result.components.get(FORMAT, 0.0)))
        if result.error:
            trace.info["dure_error"] = result.error
        return core.finite(result.value)


class DureTasksetConfig(vf.TasksetConfig):  # type: ignore[misc]
    """Which exported rows to load: ``path`` is an export folder, or one parquet or JSONL file of rows."""

    path: Path | None = None
    phase: str | None = None
    """The ``data/<phase>/`` folder of the export (``None``: every phase, each task once)."""
    kinds: list[str] = []
    """Task kinds to keep (empty: all)."""
    split: str = "train"
    task: DureTaskConfig = DureTaskConfig()


class DureTaskset(vf.Taskset[DureTask, DureTasksetConfig]):  # type: ignore[misc]
    """The rows of a ``dure export`` folder as verifiers tasks, in file order, each task id once."""

    def load(self) -> Iterator[DureTask]:
        seen: set[str] = set()
        kinds = set(self.config.kinds)
        for row in _rows(self.config):
            data = task_data(row)
            if data is None or data.id in seen or (kinds and data.kind not in kinds):
                continue
            seen.add(data.id)
            yield DureTask(data, self.config.task)


def task_data(row: Mapping[str, Any]) -> DureData | None:
    """The task data of one exported row (``None`` for a row without a ground truth)."""
    truth = core.ground_truth_in(row)
    if not isinstance(truth, str):
        return None
    messages = [m for m in row.get("prompt") or [] if isinstance(m, Mapping)]
    system = "\n\n".join(str(m.get("content") or "") for m in messages if m.get("role") == "system")
    users = [str(m.get("content") or "") for m in messages if m.get("role") == "user"]
    question = users[-1] if users else str(row.get("question") or "")
    task_id = row.get("task_id") or (row.get("extra_info") or {}).get("task_id")
    return DureData(
        id=str(task_id) if task_id else None,
        name=str(task_id) if task_id else None,
        prompt=question,
        system_prompt=system or None,
        ground_truth=truth,
        kind=str(row.get("task_kind") or ""),
        phase=row.get("phase") if isinstance(row.get("phase"), int) else None,
    )


def _rows(config: DureTasksetConfig) -> Iterator[Mapping[str, Any]]:
    if config.path is None:
        raise ValueError("set the taskset's path to a dure export folder (or a parquet or JSONL file)")
    for file in _files(Path(config.path).expanduser(), config.phase, config.split):
        if file.suffix == ".parquet":
            parquet: Any = importlib.import_module("pyarrow.parquet")
            yield from parquet.read_table(file).to_pylist()
        else:
            with file.open(encoding="utf-8") as lines:
                yield from (json.loads(line) for line in lines if line.strip())


def _files(path: Path, phase: str | None, split: str) -> list[Path]:
    if path.is_file():
        return [path]
    data = path / "data"
    if data.is_dir():  # the export layout: data/<phase>/<kind>/<split>-NNNNN-of-NNNNN.parquet
        return sorted(data.glob(f"{phase or '*'}/*/{split}-*.parquet"))
    return sorted([*path.rglob(f"{split}*.parquet"), *path.rglob(f"{split}*.jsonl")])


__all__ = ["DureData", "DureTask", "DureTaskConfig", "DureTaskset", "DureTasksetConfig", "task_data"]

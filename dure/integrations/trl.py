"""TRL: reward functions for ``GRPOTrainer(reward_funcs=...)``.

TRL's ``GRPOTrainer._calculate_rewards`` (trl/trainer/grpo_trainer.py) calls every custom reward function
with keywords only: ``prompts=``, ``completions=`` (strings, or lists of chat messages for a conversational
dataset), ``completion_ids=``, ``trainer_state=`` and every other dataset column as a list, one item per
completion. It awaits coroutine functions (``asyncio.iscoroutinefunction``) together on its own loop, and
turns ``None`` into NaN so that the row is left out of that function's reward.

So :func:`reward_func` returns ``None`` only for a row that is not dure's (its ``data_source`` is not
``dure/<kind>``, or it has no ``data_source`` and no ground truth that holds a dure task), and a finite
score for every dure row: 0.0 when its ground truth is broken (TRL takes numbers only, so no reason).
The ground truth is read from the exported ``reward_model`` column (``reward_spec``, ``ground_truth``,
``answer`` and ``label`` too).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Mapping, Sequence
from typing import Any

from dure.integrations import core
from dure.tasks.model import Score

_NO_COLUMN = object()


def _column(columns: Mapping[str, Any], name: str, index: int) -> object:
    values = columns.get(name, _NO_COLUMN)
    if values is _NO_COLUMN:
        return _NO_COLUMN
    try:
        return values[index]
    except Exception:  # a short or odd column: treat the value as missing
        return None


def _row(columns: Mapping[str, Any], index: int) -> dict[str, object]:
    names = ("data_source", "reward_model", "reward_spec", "ground_truth", "answer", "label")
    return {name: value for name in names if (value := _column(columns, name, index)) is not _NO_COLUMN}


def _count(prompts: object, completions: object) -> int:
    for values in (completions, prompts):
        if isinstance(values, Sequence) and not isinstance(values, str | bytes):
            return len(values)
    return 0


def reward_func(
    prompts: object = None,
    completions: object = None,
    completion_ids: object = None,
    timeout: float | None = None,
    **columns: Any,
) -> list[float | None]:
    """One reward per completion: a score in [0, 1] for dure rows, ``None`` for others; never raises."""
    count = _count(prompts, completions)
    try:
        texts = list(completions) if isinstance(completions, Sequence) else [None] * count
        rows = [_row(columns, index) for index in range(count)]
        ours = [_is_ours(row) for row in rows]
        limit = core.safe_timeout(timeout, core.default_timeout())
        truths = [core.ground_truth_in(row) if mine else None for row, mine in zip(rows, ours, strict=True)]
        picked = [index for index in range(count) if ours[index]]
        scores = core.rewards([texts[i] for i in picked], [truths[i] for i in picked], timeout=limit)
        rewards: list[float | None] = [None] * count
        for index, result in zip(picked, scores, strict=True):
            rewards[index] = core.finite(result.value)
        return rewards
    except Exception:  # the reward boundary: a broken batch scores 0 for every row rather than raising
        return [0.0] * count


def _is_ours(row: Mapping[str, object]) -> bool:
    if "data_source" in row:
        return core.is_dure_source(row["data_source"])
    return not isinstance(core.decode(core.ground_truth_in(row)), Score)


async def reward_func_async(
    prompts: object = None,
    completions: object = None,
    completion_ids: object = None,
    timeout: float | None = None,
    **columns: Any,
) -> list[float | None]:
    """:func:`reward_func` as a coroutine function, which TRL gathers with its other async rewards."""
    call = functools.partial(reward_func, prompts, completions, completion_ids, timeout, **columns)
    return await asyncio.get_running_loop().run_in_executor(None, call)


__all__ = ["reward_func", "reward_func_async"]

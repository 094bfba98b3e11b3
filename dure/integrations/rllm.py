"""rLLM: a reward function for its ``RewardFunction`` protocol, ``(task_info, action) -> RewardOutput``.

rLLM's single-turn environment (rllm/environments/base/single_turn_env.py) calls
``reward_fn(task_info=task, action=action)`` with the dataset row as ``task_info`` and the model's answer
(a string, or an ``Action`` whose ``.action`` is the string) as ``action``, and reads ``reward`` and
``is_correct`` back. The result is rLLM's own ``RewardOutput`` when rllm is installed (it is heavy: torch,
verl), else a dataclass with the same fields (``reward``, ``metadata``, ``is_correct``).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

from dure.integrations import core
from dure.verifiers.base import FORMAT


@dataclass
class RewardOutput:
    """rLLM's ``RewardOutput`` fields, for when rllm itself is not installed."""

    reward: float
    metadata: dict[str, Any] = field(default_factory=dict)
    is_correct: bool | None = None


def _output_type() -> Any:
    try:
        return importlib.import_module("rllm.rewards.reward_types").RewardOutput
    except Exception:  # rllm missing, or a version without that module
        return RewardOutput


class DureReward:
    """The reward function object: ``DureReward(timeout=...)(task_info, action)``; never raises."""

    def __init__(self, timeout: float | None = None) -> None:
        self.timeout = timeout  # None: $DURE_REWARD_TIMEOUT when called, else 30 s

    def __call__(self, task_info: object = None, action: object = None, **kwargs: Any) -> Any:
        answer = getattr(action, "action", action)
        limit = core.safe_timeout(self.timeout, core.default_timeout())
        result = core.reward(answer, core.ground_truth_in(task_info), timeout=limit)
        metadata = {
            "format": core.finite(result.components.get(FORMAT, 0.0)),
            "error": result.error or "",
        }
        return _output_type()(reward=core.finite(result.value), metadata=metadata, is_correct=result.passed)


dure_reward_fn = DureReward()


__all__ = ["DureReward", "RewardOutput", "dure_reward_fn"]

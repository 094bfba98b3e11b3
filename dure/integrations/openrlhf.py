"""OpenRLHF: the ``reward_func`` of ``--remote_rm_url /path/to/this/file.py``, and the HTTP contract.

OpenRLHF loads a ``.py`` remote reward URL with ``importlib`` and calls ``reward_func(queries, prompts,
labels)`` positionally on each micro-batch (openrlhf/utils/remote_rm_utils.py, ``RemoteRewardModel``;
newer versions pass more keywords, which ``**kwargs`` takes). ``queries`` are the decoded prompt plus
response (special tokens kept), ``prompts`` the templated prompts and ``labels`` the ``--label_key``
column: the export's ``label``, JSON ``{"task_id", "ground_truth"}``. It reads back ``rewards`` (for the
advantage), ``scores`` (0-1, for dynamic filtering) and ``extra_logs`` (logged per key).

An HTTP remote reward model receives ``{"query", "prompts", "labels"}`` and answers the same three keys
(:func:`score_request`, served by ``dure serve-reward``). A label that is not dure's scores 0.0, and
``extra_logs["dure_error"]`` is 1.0 for it, so a mis-routed dataset shows in the logs instead of raising.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Mapping, Sequence
from typing import Any

from dure.integrations import core
from dure.tasks.model import Score
from dure.verifiers.base import FORMAT

_TRAILING_SPECIAL = re.compile(r"(?:\s|<\|[^<>|]{1,40}\|>|</s>|<pad>|<eos>|<\|endoftext\|>)+\Z")


def response_of(query: object, prompt: object) -> str:
    """The response in an OpenRLHF query: the text after the prompt, without trailing special tokens.

    The prompt itself may quote an answer format, so it must not be searched for the answer.
    """
    if not isinstance(query, str):
        return core.completion_text(query)
    if isinstance(prompt, str) and prompt:
        at = query.rfind(prompt)
        if at >= 0:
            query = query[at + len(prompt) :]
    return _TRAILING_SPECIAL.sub("", query)


def _items(values: object, count: int) -> list[object]:
    if isinstance(values, Sequence) and not isinstance(values, str | bytes):
        listed = list(values)[:count]
        return listed + [None] * (count - len(listed))
    return [None] * count


def score_request(
    queries: object, prompts: object = None, labels: object = None, *, timeout: float | None = None
) -> dict[str, Any]:
    """``{"rewards", "scores", "extra_logs"}`` as plain lists, one item per query; never raises."""
    count = len(queries) if isinstance(queries, Sequence) and not isinstance(queries, str | bytes) else 0
    try:
        texts = [
            response_of(q, p) for q, p in zip(_items(queries, count), _items(prompts, count), strict=True)
        ]
        truths = [core.ground_truth_in(label) for label in _items(labels, count)]
        limit = core.safe_timeout(timeout, core.default_timeout())
        results = core.rewards(texts, truths, timeout=limit)
    except Exception as problem:  # the reward boundary
        results = [Score.failed(f"internal error: {type(problem).__name__}", (FORMAT,))] * count
    values = [core.finite(result.value) for result in results]
    return {
        "rewards": values,
        "scores": values,
        "extra_logs": {
            "dure_pass": [1.0 if result.passed else 0.0 for result in results],
            "dure_format": [core.finite(result.components.get(FORMAT, 0.0)) for result in results],
            "dure_error": [0.0 if result.error is None else 1.0 for result in results],
        },
        "errors": [result.error or "" for result in results],
    }


def reward_func(
    queries: object, prompts: object = None, labels: object = None, **kwargs: Any
) -> dict[str, Any]:
    """OpenRLHF's custom reward function: torch tensors when torch imports (as OpenRLHF uses), else lists."""
    response = score_request(queries, prompts, labels, timeout=kwargs.get("timeout"))
    del response["errors"]  # strings: not for a tensor
    try:
        torch: Any = importlib.import_module("torch")  # OpenRLHF has torch; dure does not depend on it
    except ImportError:
        return response
    logs: Mapping[str, list[float]] = response["extra_logs"]
    return {
        "rewards": torch.tensor(response["rewards"], dtype=torch.float32),
        "scores": torch.tensor(response["scores"], dtype=torch.float32),
        "extra_logs": {key: torch.tensor(value, dtype=torch.float32) for key, value in logs.items()},
    }


__all__ = ["response_of", "reward_func", "score_request"]

"""The one reward core every trainer adapter wraps: ground truth in, a finite score out, never an exception.

An exported row's ``ground_truth`` is the task itself as canonical JSON, without its prompt (which travels
in the row's ``prompt`` column): everything a verifier needs, and nothing an adapter must look up elsewhere
(the types verifier still finds the repository's other files in the corpus cache, by sha256). Decoded
tasks are kept in a bounded cache, because a trainer scores many completions of the same task in a row.

:func:`reward` bounds the time of one answer: it scores in a worker thread and gives up after ``timeout``
seconds with a zero score (the thread is left to finish; every verifier that runs a checker also has its own
subprocess time limit, so it does end).
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout

from dure.scoring import components_of, score
from dure.tasks.codec import task_from_json, task_to_json
from dure.tasks.errors import TaskError
from dure.tasks.model import Score, Task, TaskKind, canonical_json

DATA_SOURCE_PREFIX = "dure/"
DEFAULT_TIMEOUT = 30.0  # seconds per answer; a type-completion answer may need one checker run
TASK_CACHE_SIZE = 8192
_POOL_THREADS = 8

_pool: ThreadPoolExecutor | None = None


def ground_truth_of(task: Task) -> str:
    """The ``ground_truth`` string of an exported row: the task as canonical JSON, without its prompt."""
    data = task_to_json(task)
    del data["prompt"]
    return canonical_json(data)


@functools.lru_cache(maxsize=TASK_CACHE_SIZE)
def task_of(ground_truth: str) -> Task:
    """The task a ``ground_truth`` string holds; raises :class:`TaskError` for anything else."""
    if not isinstance(ground_truth, str):
        raise TaskError("ground_truth", f"expected a JSON string, got {type(ground_truth).__name__}")
    try:
        data = json.loads(ground_truth)
    except (ValueError, RecursionError) as problem:
        raise TaskError("ground_truth", f"not JSON: {str(problem)[:200]}") from None
    if isinstance(data, dict):
        data.setdefault("prompt", "")
    return task_from_json(data)


def is_dure_source(data_source: object) -> bool:
    """Whether a row's ``data_source`` names one of dure's task kinds (``dure/<kind>``)."""
    if not isinstance(data_source, str) or not data_source.startswith(DATA_SOURCE_PREFIX):
        return False
    return data_source[len(DATA_SOURCE_PREFIX) :] in TaskKind._value2member_map_


def completion_text(completion: object) -> str:
    """The text of a completion: a string, or chat messages (the last assistant message's content)."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, Mapping):
        content = completion.get("content")
        return content if isinstance(content, str) else ""
    if isinstance(completion, Sequence):
        messages = [m for m in completion if isinstance(m, Mapping)]
        replies = [m for m in messages if m.get("role") == "assistant"] or messages
        return completion_text(replies[-1]) if replies else ""
    return ""


def reward(completion: object, ground_truth: object, *, timeout: float = DEFAULT_TIMEOUT) -> Score:
    """The score of one completion (text or chat messages) against a row's ground truth; never raises."""
    try:
        task = task_of(ground_truth) if isinstance(ground_truth, str) else task_of(repr(ground_truth))
    except TaskError as bad:
        return Score.failed(f"bad ground truth: {bad}")
    except Exception as problem:  # the reward boundary: nothing may escape to a trainer
        return Score.failed(f"bad ground truth: {type(problem).__name__}: {str(problem)[:200]}")
    text = completion_text(completion)
    future = _thread_pool().submit(score, task, text)
    try:
        return future.result(timeout=timeout)
    except FutureTimeout:
        return Score.failed(f"timed out after {timeout:g} s", components_of(task))
    except Exception as problem:  # score() never raises; this guards the pool itself
        return Score.failed(f"internal error: {type(problem).__name__}", components_of(task))


def finite(value: float) -> float:
    """``value`` when it is a finite number in [0, 1], else 0.0 (a reward must never be NaN)."""
    if isinstance(value, int | float) and math.isfinite(value) and 0 <= value <= 1:
        return float(value)
    return 0.0


def _thread_pool() -> ThreadPoolExecutor:
    global _pool  # noqa: PLW0603 - one lazily made pool per process, shared by every adapter
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=_POOL_THREADS, thread_name_prefix="dure-reward")
    return _pool


__all__ = [
    "DATA_SOURCE_PREFIX",
    "DEFAULT_TIMEOUT",
    "completion_text",
    "finite",
    "ground_truth_of",
    "is_dure_source",
    "reward",
    "task_of",
]

"""verl: ``compute_score`` for ``custom_reward_function.path`` (``name=compute_score``), plus batch and async.

How verl calls it (verl/workers/reward_manager/ and verl/experimental/reward/reward_loop/):

- ``naive``, ``dapo`` and the reward loop: keywords ``data_source=, solution_str=, ground_truth=,
  extra_info=`` and, in the reward loop, more keywords (``reward_router_address=``, ...) that ``**kwargs``
  takes; a dict result gives the reward from ``["score"]`` and logs every key as ``reward_extra_info``.
- ``prime``: positionally ``(data_source, solution_str, ground_truth, extra_info)`` in a process pool, and
  reads a non-number result as ``result[0]``: :class:`VerlScore` answers ``[0]`` with the score.
- ``batch``: :func:`compute_score_batch` with ``data_sources=, solution_strs=, ground_truths=, extra_infos=``.

Every result has the same keys for every kind: ``score``, ``acc`` (1.0 only for an exact answer; verl's
validation takes ``acc`` as its core metric), ``format`` (1.0 when the answer had the required form) and
``error`` (a string, empty when none). verl averages the numeric keys into metrics and skips string ones,
which it recognises by the first value, so ``error`` is always a string.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Iterable
from typing import Any

from dure.integrations import core
from dure.tasks.model import Score
from dure.verifiers.base import FORMAT


class VerlScore(dict[str, float | str]):
    """A result dict whose ``[0]`` is also the score, which verl's ``prime`` manager reads."""

    def __missing__(self, key: object) -> float | str:
        if key == 0:
            return self["score"]
        raise KeyError(key)


def result_of(result: Score) -> VerlScore:
    """The dict verl logs for one score."""
    return VerlScore(
        score=core.finite(result.value),
        acc=1.0 if result.passed else 0.0,
        format=core.finite(result.components.get(FORMAT, 0.0)),
        error=result.error or "",
    )


def _timeout(kwargs: dict[str, Any]) -> float:
    return core.safe_timeout(kwargs.get("timeout"), core.default_timeout())


def _not_ours(data_source: object, result: Score) -> Score:
    """A bad ground truth on a row that is not dure's says so: the reward function was routed wrongly."""
    if result.error and not core.is_dure_source(data_source) and result.error.startswith("bad ground truth"):
        return Score.failed(
            f"not a dure row (data_source={str(data_source)[:80]!r}): {result.error}", (FORMAT,)
        )
    return result


def compute_score(
    data_source: object,
    solution_str: object,
    ground_truth: object,
    extra_info: object = None,
    **kwargs: Any,
) -> VerlScore:
    """The score of one response; never raises. ``timeout=`` (seconds) overrides ``$DURE_REWARD_TIMEOUT``."""
    try:
        return result_of(
            _not_ours(data_source, core.reward(solution_str, ground_truth, timeout=_timeout(kwargs)))
        )
    except Exception as problem:  # the reward boundary
        return result_of(Score.failed(f"internal error: {type(problem).__name__}", (FORMAT,)))


def compute_score_batch(
    data_sources: Iterable[object] | None = None,
    solution_strs: Iterable[object] | None = None,
    ground_truths: Iterable[object] | None = None,
    extra_infos: Iterable[object] | None = None,
    **kwargs: Any,
) -> list[VerlScore]:
    """Scores for verl's ``batch`` manager, in order, one per response, scored concurrently; never raises."""
    try:
        texts = list(solution_strs) if solution_strs is not None else []
        truths = list(ground_truths) if ground_truths is not None else []
        sources = list(data_sources) if data_sources is not None else []
        truths += [None] * (len(texts) - len(truths))
        sources += [None] * (len(texts) - len(sources))
        scores = core.rewards(texts, truths, timeout=_timeout(kwargs))
        return [result_of(_not_ours(s, r)) for s, r in zip(sources, scores, strict=False)]
    except Exception as problem:  # the reward boundary (e.g. an argument that cannot be iterated)
        failed = result_of(Score.failed(f"internal error: {type(problem).__name__}", (FORMAT,)))
        try:
            count = len(solution_strs)  # type: ignore[arg-type]
        except Exception:
            count = 0
        return [VerlScore(failed) for _ in range(count)]


async def compute_score_async(
    data_source: object,
    solution_str: object,
    ground_truth: object,
    extra_info: object = None,
    **kwargs: Any,
) -> VerlScore:
    """:func:`compute_score` for verl's reward loop, which awaits coroutine functions; scored off the loop."""
    call = functools.partial(compute_score, data_source, solution_str, ground_truth, extra_info, **kwargs)
    return await asyncio.get_running_loop().run_in_executor(None, call)


__all__ = ["VerlScore", "compute_score", "compute_score_async", "compute_score_batch", "result_of"]

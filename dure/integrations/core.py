"""The one reward core every trainer adapter wraps: ground truth in, a finite score out, never an exception.

An exported row's ``ground_truth`` is the task itself as canonical JSON, without its prompt (which travels
in the row's ``prompt`` column): everything a verifier needs, and nothing an adapter must look up elsewhere
(the types verifier still finds the repository's other files in the corpus cache, by sha256). Decoded
tasks are kept in a bounded cache, because a trainer scores many completions of the same task in a row.

:func:`reward` bounds the time of one answer: it scores in a worker thread and gives up after ``timeout``
seconds with a zero score (the thread is left to finish; every verifier that runs a checker also has its own
subprocess time limit, so it does end). The clock starts when a worker thread picks the answer up, not when
it is queued, so a busy trainer does not turn slow-but-valid answers into timeouts.
"""

from __future__ import annotations

import functools
import json
import math
import os
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout

from dure.scoring import components_of, score, score_many
from dure.tasks.codec import task_from_json, task_to_json
from dure.tasks.errors import TaskError
from dure.tasks.model import Score, Task, TaskKind, canonical_json
from dure.verifiers import get_verifier
from dure.verifiers.base import FORMAT

DATA_SOURCE_PREFIX = "dure/"
DEFAULT_TIMEOUT = 30.0  # seconds per answer; a type-completion answer may need one checker run
TIMEOUT_ENV = "DURE_REWARD_TIMEOUT"  # every adapter's default timeout, when set
TASK_CACHE_SIZE = 8192
QUEUE_LIMIT = 600.0  # seconds an answer may wait for a free scoring thread before it scores 0
_POOL_THREADS = max(8, 2 * (os.cpu_count() or 1))
_pool_threads = _POOL_THREADS

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


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
        if isinstance(content, list):  # content parts: [{"type": "text", "text": ...}, ...]
            parts = [p.get("text") for p in content if isinstance(p, Mapping)]
            return "".join(p for p in parts if isinstance(p, str))
        return content if isinstance(content, str) else ""
    if isinstance(completion, Sequence) and not isinstance(completion, bytes | bytearray):
        messages = [m for m in completion if isinstance(m, Mapping)]
        replies = [m for m in messages if m.get("role") == "assistant"] or messages
        return completion_text(replies[-1]) if replies else ""
    return ""


def ground_truth_in(row: object) -> object:
    """The ground truth an exported row (or one of its columns) carries, or ``None``.

    Looks where each trainer's export keeps it: ``reward_model`` (verl), ``reward_spec`` (SkyRL), a
    ``ground_truth`` key, ``answer`` (``verifiers``) and ``label`` (OpenRLHF: JSON with a ``ground_truth``).
    """
    if isinstance(row, str):
        return _from_label(row)
    if not isinstance(row, Mapping):
        return None
    for key in ("reward_model", "reward_spec"):
        nested = row.get(key)
        if isinstance(nested, Mapping) and nested.get("ground_truth") is not None:
            return nested["ground_truth"]
    for key in ("ground_truth", "answer"):
        if row.get(key) is not None:
            return row[key]
    label = row.get("label")
    return _from_label(label) if label is not None else None


def _from_label(label: object) -> object:
    """An OpenRLHF label: ``{"task_id", "ground_truth"}`` as JSON (or a mapping), else the label itself."""
    if isinstance(label, Mapping):
        return label.get("ground_truth", label)
    if isinstance(label, str) and label.startswith("{") and '"ground_truth"' in label[:4096]:
        try:
            data = json.loads(label)
        except (ValueError, RecursionError):
            return label
        if isinstance(data, dict) and isinstance(data.get("ground_truth"), str):
            return data["ground_truth"]
    return label


def decode(ground_truth: object) -> Task | Score:
    """The task of a ground truth, or a zero score saying why there is none; never raises."""
    try:
        if isinstance(ground_truth, bytes):
            ground_truth = ground_truth.decode("utf-8", errors="replace")
        if not isinstance(ground_truth, str):
            shown = "nothing" if ground_truth is None else type(ground_truth).__name__
            raise TaskError("ground_truth", f"expected a JSON string, got {shown}")
        return task_of(ground_truth)
    except TaskError as bad:
        return Score.failed(f"bad ground truth: {bad}", (FORMAT,))
    except Exception as problem:  # the reward boundary: nothing may escape to a trainer
        return Score.failed(f"bad ground truth: {type(problem).__name__}: {str(problem)[:200]}", (FORMAT,))


Item = tuple[tuple[int, ...], Task, tuple[str, ...]]  # answer positions, their task, their texts


class _Chunk:
    """Items a pool thread scores one after another, saying which one it is on and since when.

    Scoring answers in chunks keeps the hand-off to the pool off the per-answer cost; the per-answer clock
    still starts when each item starts. An item is one answer, or several answers to one task that its
    verifier judges together (one checker run for a trainer's samples of one prompt), timed as one answer.
    A chunk whose current item overruns is abandoned: its answers score 0 and the rest of the chunk goes to
    another thread.
    """

    def __init__(self, items: list[Item]) -> None:
        self.items = items
        self.started = threading.Event()
        self.current = (0, 0.0)  # (position in items, monotonic start); replaced whole, so read whole
        self.results: dict[int, Score] = {}
        self.abandoned = False

    def run(self) -> None:
        self.current = (0, time.monotonic())
        self.started.set()
        for position, (indices, task, texts) in enumerate(self.items):
            if self.abandoned:
                return
            self.current = (position, time.monotonic())
            scores = score_many(task, texts) if len(texts) > 1 else [score(task, texts[0])]
            self.results.update(zip(indices, scores, strict=True))


def _fail(chunk: _Chunk, items: Iterable[Item], reason: str) -> None:
    for indices, task, _ in items:
        for index in indices:
            chunk.results.setdefault(index, Score.failed(reason, components_of(task)))


def _await(chunk: _Chunk, future: Future[None], limit: float) -> list[Item]:
    """Wait for ``chunk``; returns the items still to score elsewhere when one of them timed out."""
    if not chunk.started.wait(QUEUE_LIMIT):
        future.cancel()
        chunk.abandoned = True
        _fail(chunk, chunk.items, f"no scoring thread was free for {QUEUE_LIMIT:g} s")
        return []
    while True:
        position, since = chunk.current
        try:
            future.result(timeout=max(0.001, since + limit - time.monotonic()))
            return []
        except FutureTimeout:
            if chunk.current != (position, since):
                continue  # it moved on to the next item meanwhile
            chunk.abandoned = True
            _fail(chunk, [chunk.items[position]], f"timed out after {limit:g} s")
            return chunk.items[position + 1 :]


def _score_all(items: list[Item], limit: float) -> dict[int, Score]:
    pool = _thread_pool()
    size = max(1, min(64, -(-len(items) // _pool_threads)))
    waiting = [_Chunk(items[i : i + size]) for i in range(0, len(items), size)]
    futures = [pool.submit(chunk.run) for chunk in waiting]
    results: dict[int, Score] = {}
    while waiting:
        chunk, future = waiting.pop(0), futures.pop(0)
        try:
            rest = _await(chunk, future, limit)
        except Exception as problem:  # score() never raises; this guards the pool itself
            rest = []
            _fail(chunk, chunk.items, f"internal error: {type(problem).__name__}")
        done = {i for indices, _, _ in rest for i in indices}
        results.update((i, r) for i, r in list(chunk.results.items()) if i not in done)
        if rest:
            waiting.insert(0, _Chunk(rest))
            futures.insert(0, pool.submit(waiting[0].run))
    return results


def _items(answers: list[tuple[int, Task, str]]) -> list[Item]:
    """One item per answer, but the answers to one task whose verifier judges answers together (the types
    verifier: one checker run for all of them) become one item, at the place of the first."""
    items: list[Item] = []
    grouped: dict[str, int] = {}  # task id -> position in items
    for index, task, text in answers:
        if not _judges_together(task):
            items.append(((index,), task, (text,)))
        elif (place := grouped.get(task.id)) is None:
            grouped[task.id] = len(items)
            items.append(((index,), task, (text,)))
        else:
            indices, _, texts = items[place]
            items[place] = ((*indices, index), task, (*texts, text))
    return items


def _judges_together(task: Task) -> bool:
    try:
        return get_verifier(task.verifier.name).judges_together
    except Exception:  # an unknown verifier: scored (to zero, with the reason) one answer at a time
        return False


def reward(completion: object, ground_truth: object, *, timeout: float = DEFAULT_TIMEOUT) -> Score:
    """The score of one completion (text or chat messages) against a row's ground truth; never raises."""
    return rewards([completion], [ground_truth], timeout=timeout)[0]


def rewards(
    completions: Iterable[object], ground_truths: Iterable[object], *, timeout: float = DEFAULT_TIMEOUT
) -> list[Score]:
    """Scores of many completions, in order, scored concurrently in the shared pool; never raises.

    Threads rather than processes: a set, path or exact answer scores in tens of microseconds, far less
    than handing it to another process, and the slow verifiers spend their time in checker subprocesses.
    """
    try:
        results: list[Score | None] = []
        items: list[tuple[int, Task, str]] = []
        for completion, ground_truth in zip(completions, ground_truths, strict=False):
            task = decode(ground_truth)
            if isinstance(task, Score):
                results.append(task)
            else:
                items.append((len(results), task, completion_text(completion)))
                results.append(None)
        scored = _score_all(_items(items), safe_timeout(timeout)) if items else {}
        failed = Score.failed("internal error: not scored", (FORMAT,))
        return [r if r is not None else scored.get(i, failed) for i, r in enumerate(results)]
    except Exception as problem:  # e.g. the pool cannot start a thread: still scores, not an exception
        failed = Score.failed(f"internal error: {type(problem).__name__}: {str(problem)[:200]}", (FORMAT,))
        return [failed] * len(results)


def finite(value: object) -> float:
    """``value`` when it is a finite number in [0, 1], else 0.0 (a reward must never be NaN)."""
    if isinstance(value, int | float) and math.isfinite(value) and 0 <= value <= 1:
        return float(value)
    return 0.0


def safe_timeout(value: object, default: float = DEFAULT_TIMEOUT) -> float:
    """A usable per-answer timeout: ``value`` when it is a positive finite number, else ``default``."""
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            return default
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value) and value > 0:
        return float(value)
    return default


def default_timeout() -> float:
    """The per-answer timeout adapters use when not given one: ``$DURE_REWARD_TIMEOUT``, else 30 s."""
    return safe_timeout(os.environ.get(TIMEOUT_ENV), DEFAULT_TIMEOUT)


def set_threads(count: int) -> None:
    """Score in ``count`` threads from now on (answers already running finish in the old pool)."""
    global _pool, _pool_threads  # the one shared pool is replaced
    with _pool_lock:
        old, _pool, _pool_threads = _pool, None, max(1, int(count))
    if old is not None:
        old.shutdown(wait=False)


def _forget_pool() -> None:
    """In a forked child the parent's pool threads do not exist: start a fresh pool when one is needed."""
    global _pool, _pool_lock  # reset after fork: verl's prime manager forks its scoring workers
    _pool, _pool_lock = None, threading.Lock()


os.register_at_fork(after_in_child=_forget_pool)


def _thread_pool() -> ThreadPoolExecutor:
    global _pool  # noqa: PLW0603 - one lazily made pool per process, shared by every adapter
    if _pool is None:
        with _pool_lock:
            if _pool is None:
                _pool = ThreadPoolExecutor(max_workers=_pool_threads, thread_name_prefix="dure-reward")
    return _pool


__all__ = [
    "DATA_SOURCE_PREFIX",
    "DEFAULT_TIMEOUT",
    "TIMEOUT_ENV",
    "completion_text",
    "decode",
    "default_timeout",
    "finite",
    "ground_truth_in",
    "ground_truth_of",
    "is_dure_source",
    "reward",
    "rewards",
    "safe_timeout",
    "set_threads",
    "task_of",
]

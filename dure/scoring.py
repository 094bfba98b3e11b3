"""The reward boundary: ``score(task, answer_text) -> Score`` and a batch API over a process pool.

Guarantees, for any input: no exception escapes (this is the one place where every exception is caught and
turned into a zero score with the reason), the value is a finite number in [0, 1], the same input gives the
same score, and the component keys depend only on the task's verifier. Answers are extracted from free text:
the last ``<answer>...</answer>``, else the last fenced ``json`` block, else the whole text as JSON.

The batch API keeps a per-answer timeout without ``signal.alarm`` (which only works in the main thread): each
worker records in shared memory when it starts each answer; an answer running past the timeout gets a zero
score, the pool's workers are killed and the other answers are scored again in a fresh pool.
"""

from __future__ import annotations

import json
import multiprocessing
import time
from collections import deque
from collections.abc import Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from dure.tasks.errors import AnswerError
from dure.tasks.frozen import JsonValue, freeze
from dure.tasks.model import Answer, Score, Task
from dure.verifiers import get_verifier
from dure.verifiers.base import FORMAT

MAX_TEXT_CHARS = 1_000_000
DEFAULT_TIMEOUT = 10.0  # seconds per answer in the batch API
DEFAULT_CHUNKSIZE = 256  # answers sent to a worker at once: enough that the hand-over does not dominate
MAX_FAILED_STARTS = 3
_OPEN, _CLOSE, _FENCE = "<answer>", "</answer>", "```json"


def extract_answer(text: str) -> JsonValue:
    """The answer in an agent's text; raises :class:`AnswerError` when there is none that parses."""
    if not isinstance(text, str):
        raise AnswerError(f"the answer text must be a string, not {type(text).__name__}")
    if len(text) > MAX_TEXT_CHARS:
        raise AnswerError(f"the answer text is longer than {MAX_TEXT_CHARS} characters")
    lower = text.lower()
    end = lower.rfind(_CLOSE)
    start = lower.rfind(_OPEN, 0, end) if end >= 0 else -1
    if start >= 0:
        inner = text[start + len(_OPEN) : end].strip()
        fenced = _last_fence(inner, inner.lower())
        return _parse(fenced if fenced is not None else inner, plain_string=fenced is None)
    fenced = _last_fence(text, lower)
    return _parse(fenced if fenced is not None else text.strip(), plain_string=False)


def _last_fence(text: str, lower: str) -> str | None:
    """The body of the last closed ```` ```json ```` block, or ``None``."""
    limit = len(text)
    while (opening := lower.rfind(_FENCE, 0, limit)) >= 0:
        closing = text.find("```", opening + len(_FENCE))
        if closing >= 0:
            return text[opening + len(_FENCE) : closing]
        limit = opening
    return None


def _finite_float(literal: str) -> float:
    number = float(literal)
    if number in (float("inf"), float("-inf")):
        raise ValueError(f"number out of range: {literal[:20]}")
    return number


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def _parse(body: str, *, plain_string: bool) -> JsonValue:
    try:
        return freeze(json.loads(body, parse_float=_finite_float, parse_constant=_reject_constant))
    except RecursionError:
        raise AnswerError("the answer is nested too deeply") from None
    except (ValueError, TypeError) as problem:
        # Inside <answer> tags a bare one-line name (no quotes) is taken as the string it spells.
        if plain_string and body and body[0] not in '[{"' and "\n" not in body:
            return body
        raise AnswerError(f"no JSON answer found: {str(problem)[:200]}") from None


def components_of(task: Task) -> tuple[str, ...]:
    """The component keys every score of this task has (only ``format`` when its verifier is unknown)."""
    try:
        return get_verifier(task.verifier.name).components
    except Exception:  # an unknown or broken verifier still gets a well-formed zero score
        return (FORMAT,)


def score_answer(task: Task, answer: JsonValue) -> Score:
    """The score of an already-parsed answer value; never raises."""
    try:
        verifier = get_verifier(task.verifier.name)
        result = verifier.verify(task, freeze(answer))
        return _checked(result, verifier.components)
    except Exception as problem:  # the reward boundary: nothing may escape to a trainer
        return _internal(problem, components_of(task))


def score(task: Task, answer_text: str) -> Score:
    """The score of an agent's free-text answer to ``task``; never raises, never NaN, deterministic."""
    try:
        answer = extract_answer(answer_text)
    except AnswerError as bad:
        return Score.failed(f"malformed answer: {bad}", components_of(task))
    except Exception as problem:  # the reward boundary: nothing may escape to a trainer
        return _internal(problem, components_of(task))
    return score_answer(task, answer)


def score_many(task: Task, answer_texts: Sequence[str]) -> list[Score]:
    """The scores of several free-text answers to one task, as :func:`score` gives them one by one, but
    judged together where the verifier can (one checker run for every answer); never raises."""
    return score_across([(task, answer_texts)])[0]


def score_across(work: Sequence[tuple[Task, Sequence[str]]]) -> list[list[Score]]:
    """The scores of free-text answers to several tasks, as :func:`score_many` gives them task by task, but
    judged together where the verifier can (one checker run for the tasks of a repository); never raises.
    When judging several tasks together fails, each is judged again alone, so one cannot fail the others."""
    results: list[list[Score | None]] = []
    parsed: list[list[tuple[int, JsonValue]]] = []
    by_verifier: dict[str, list[int]] = {}
    for number, (task, texts) in enumerate(work):
        scores: list[Score | None] = [None] * len(texts)
        found: list[tuple[int, JsonValue]] = []
        for index, text in enumerate(texts):
            try:
                found.append((index, freeze(extract_answer(text))))
            except AnswerError as bad:
                scores[index] = Score.failed(f"malformed answer: {bad}", components_of(task))
            except Exception as problem:  # the reward boundary
                scores[index] = _internal(problem, components_of(task))
        results.append(scores)
        parsed.append(found)
        if found:
            by_verifier.setdefault(task.verifier.name, []).append(number)
    for name, members in by_verifier.items():
        _judge_group(name, [(work[n][0], parsed[n], results[n]) for n in members])
    return [
        [score if score is not None else Score.failed("not scored", components_of(task)) for score in scores]
        for (task, _), scores in zip(work, results, strict=True)
    ]


_Member = tuple[Task, list[tuple[int, JsonValue]], list[Score | None]]


def _judge_group(name: str, members: list[_Member]) -> None:
    """Fill in the scores of tasks that share a verifier, judged in one pass (alone again on failure)."""
    try:
        verifier = get_verifier(name)
        work = [(task, [answer for _, answer in found]) for task, found, _ in members]
        judged = verifier.verify_across(work)
        counts = [len(scores) for scores in judged]
        if counts != [len(answers) for _, answers in work]:
            raise RuntimeError(f"{name} gave {counts} scores for {[len(a) for _, a in work]} answers")
    except Exception as problem:  # the reward boundary: nothing may escape to a trainer
        if len(members) > 1:
            for member in members:
                _judge_group(name, [member])
            return
        task, found, scores = members[0]
        for index, _ in found:
            scores[index] = _internal(problem, components_of(task))
        return
    for (_, found, scores), given in zip(members, judged, strict=True):
        for (index, _), result in zip(found, given, strict=True):
            scores[index] = _checked(result, verifier.components)


def _internal(problem: Exception, keys: tuple[str, ...]) -> Score:
    """The zero score of an answer whose scoring failed inside dure (a bug, never the answer's fault)."""
    return Score.failed(f"internal error: {type(problem).__name__}: {str(problem)[:300]}", keys)


def _checked(result: object, keys: tuple[str, ...]) -> Score:
    """``result`` when it is a well-formed score with exactly ``keys``, else a zero score naming the fault."""
    if not isinstance(result, Score):
        return Score.failed(f"verifier returned {type(result).__name__}, not a Score", keys)
    if tuple(result.components) != keys or not all(_unit(v) for v in result.components.values()):
        return Score.failed(
            f"verifier returned components {list(result.components)}, expected {list(keys)}", keys
        )
    return result


def _unit(value: object) -> bool:
    return isinstance(value, float | int) and not isinstance(value, bool) and 0.0 <= value <= 1.0


BatchItem = tuple[Task, str | Answer]


def _score_item(item: BatchItem) -> Score:
    task, answer = item
    if isinstance(answer, Answer):
        return score_answer(task, answer.value)
    return score(task, answer)


_progress: Any = None  # in a worker: shared array of the monotonic time each answer started


def _init_worker(progress: Any) -> None:
    global _progress  # noqa: PLW0603 - the pool initializer hands each worker its shared array once
    _progress = progress


def _score_chunk(first: int, items: list[BatchItem]) -> list[Score]:
    scores = []
    for offset, item in enumerate(items):
        if _progress is not None:
            _progress[first + offset] = time.monotonic()
        scores.append(_score_item(item))
    return scores


def score_batch(
    items: Iterable[BatchItem],
    *,
    workers: int | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    chunksize: int = DEFAULT_CHUNKSIZE,
) -> list[Score]:
    """Scores of many ``(task, text or Answer)`` pairs, in order, across ``workers`` processes.

    ``workers=0`` scores in this process (no timeout); ``None`` uses every core. An answer that runs longer
    than ``timeout`` seconds scores 0 with a ``timed out`` error; a worker that dies (out of memory, a
    crash) costs only the answer it was scoring.
    """
    batch = list(items)
    if workers == 0 or not batch:
        return [_score_item(item) for item in batch]
    count = workers or multiprocessing.cpu_count()
    return _PoolBatch(batch, count, timeout, max(1, chunksize)).run()


class _PoolBatch:
    """One batch over a process pool, restarted (with its workers killed) when an answer hangs."""

    def __init__(self, items: Sequence[BatchItem], workers: int, timeout: float, chunksize: int) -> None:
        self.items, self.workers, self.timeout = items, workers, timeout
        self.context = multiprocessing.get_context("forkserver")
        self.progress: Any = self.context.Array("d", len(items), lock=False)
        self.results: list[Score | None] = [None] * len(items)
        self.suspects: set[int] = set()  # answers that were running when a worker died
        self.failed_starts = 0  # pools that broke before any answer started
        self.pending = deque(
            range(i, min(i + chunksize, len(items))) for i in range(0, len(items), chunksize)
        )

    def run(self) -> list[Score]:
        while self.pending:
            self._run_pool()
        return [result if result is not None else Score.failed("not scored") for result in self.results]

    def _run_pool(self) -> None:
        before = set(multiprocessing.active_children())
        pool = ProcessPoolExecutor(self.workers, self.context, _init_worker, (self.progress,))
        running: dict[Future[list[Score]], range] = {}
        finished = False
        try:
            while self.pending or running:
                self._submit(pool, running)
                done, _ = wait(running, timeout=0.05, return_when=FIRST_COMPLETED)
                broken = False
                for future in done:
                    try:
                        scores = future.result()
                    except BrokenProcessPool:
                        broken = True
                        continue
                    for index, result in zip(running.pop(future), scores, strict=True):
                        self.results[index] = result
                if broken or self._timed_out(running):
                    self._requeue(running, crashed=broken)
                    return
            finished = True
        finally:
            if not finished:  # stopped early: a worker may be stuck, so kill them all
                for process in set(multiprocessing.active_children()) - before:
                    process.kill()
                    process.join(timeout=5)
                pool.shutdown(wait=False, cancel_futures=True)
            else:
                pool.shutdown(wait=True)

    def _submit(self, pool: ProcessPoolExecutor, running: dict[Future[list[Score]], range]) -> None:
        """Keep at most two chunks per worker in flight, so a submitted chunk starts soon."""
        while self.pending and len(running) < 2 * self.workers:
            chunk = self.pending.popleft()
            for index in chunk:
                self.progress[index] = 0.0
            items = [self.items[index] for index in chunk]
            running[pool.submit(_score_chunk, chunk.start, items)] = chunk

    def _current(self, chunk: range) -> int | None:
        """The answer of ``chunk`` its worker is scoring now (``None`` when the chunk has not started)."""
        started = [index for index in chunk if self.progress[index] > 0.0]
        return started[-1] if started else None

    def _timed_out(self, running: dict[Future[list[Score]], range]) -> bool:
        now = time.monotonic()
        for chunk in running.values():
            current = self._current(chunk)
            if current is not None and now - self.progress[current] > self.timeout:
                return True
        return False

    def _requeue(self, running: dict[Future[list[Score]], range], *, crashed: bool) -> None:
        """Fail the answers that hung (or crashed a worker twice) and queue the rest of the running chunks."""
        now = time.monotonic()
        if crashed and all(self._current(chunk) is None for chunk in running.values()):
            self.failed_starts += 1
            if self.failed_starts >= MAX_FAILED_STARTS:  # workers cannot start at all: give up loudly
                self.pending.extend(running.values())
                for index in (i for chunk in self.pending for i in chunk):
                    reason = "the worker processes could not start"
                    self.results[index] = Score.failed(reason, components_of(self.items[index][0]))
                self.pending.clear()
                return
        for chunk in running.values():
            current = self._current(chunk)
            if current is None:
                self.pending.appendleft(chunk)
                continue
            hung = now - self.progress[current] > self.timeout
            if hung or (crashed and current in self.suspects):
                reason = f"timed out after {self.timeout:g} s" if hung else "the worker process died"
                self.results[current] = Score.failed(reason, components_of(self.items[current][0]))
            elif crashed:
                self.suspects.add(current)
                self.pending.appendleft(range(current, current + 1))
            else:
                self.pending.appendleft(range(current, current + 1))
            for part in (range(chunk.start, current), range(current + 1, chunk.stop)):
                if part:
                    self.pending.append(part)

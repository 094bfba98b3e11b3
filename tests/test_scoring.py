"""The reward boundary: extraction, never raising, never NaN, fixed components, and the batch API."""

from __future__ import annotations

import dataclasses
import json
import math
import os
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from task_factories import all_tasks, exact_task, set_task

from dure.scoring import extract_answer, score, score_answer, score_batch, score_many
from dure.tasks import Answer, AnswerError, Score, Task, VerifierSpec, freeze, thaw
from dure.verifiers import get_verifier

TASKS = all_tasks()
CALLERS = set_task(["pkg.a", "pkg.b"])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('["a"]', ("a",)),
        ('I think\n<answer>["a", "b"]</answer>', ("a", "b")),
        ('<answer>["x"]</answer> and finally <ANSWER>\n["a"]\n</Answer>', ("a",)),
        ('<answer>\n```json\n["a"]\n```\n</answer>', ("a",)),
        ("<answer>pkg.mod.f</answer>", "pkg.mod.f"),
        (
            'Draft:\n```json\n["x"]\n```\nFinal:\n```json\n{"file": "a.py"}\n```\nDone.',
            freeze({"file": "a.py"}),
        ),
        ('```json\n["a"]\n```\nthen an unclosed ```json\n["b"]', ("a",)),
        ('  "pkg.f"  ', "pkg.f"),
    ],
)
def test_extraction(text: str, expected: object) -> None:
    assert extract_answer(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "the answer is pkg.f",
        "<answer>[a, b]</answer>",
        "1e999",
        "NaN",
        "[" * 100_000,
        "x" * 1_000_001,
        '{"a": Infinity}',
        "<answer>\nline one\nline two\n</answer>",
    ],
)
def test_no_answer_is_an_answer_error(text: str) -> None:
    with pytest.raises(AnswerError):
        extract_answer(text)


ADVERSARIAL = [
    "",
    "\x00\ud800",
    "[" * 50_000 + "]" * 50_000,
    '{"a": ' * 5_000 + "1" + "}" * 5_000,
    '["' + "x" * 500_000 + '"]',
    "[" + ",".join(['"n"'] * 20_000) + "]",
    "<answer>\"__import__('os').system('touch /tmp/dure-pwned')\"</answer>",
    '<answer>{"file": ["nested", {"garbage": null}], "qualname": 1e308}</answer>',
    "1" * 5000,
    "<answer>🐍.ƒ</answer>",
    '{"task_id": "x", "answer": [true, false, null]}',
]


@pytest.mark.parametrize("task", TASKS, ids=lambda task: task.id)
@pytest.mark.parametrize("text", ADVERSARIAL, ids=range(len(ADVERSARIAL)))
def test_adversarial_answers_score_zero_without_raising(task: Task, text: str) -> None:
    result = score(task, text)
    assert result.value == 0.0
    assert tuple(result.components) == get_verifier(task.verifier.name).components
    assert not os.path.exists("/tmp/dure-pwned")


@given(text=st.text(max_size=300), task=st.sampled_from(TASKS))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_score_never_raises_never_nan_and_keeps_its_components(text: str, task: Task) -> None:
    result = score(task, text)
    assert isinstance(result, Score)
    assert math.isfinite(result.value)
    assert 0.0 <= result.value <= 1.0
    assert result.passed == (result.value == 1.0)
    assert tuple(result.components) == get_verifier(task.verifier.name).components
    assert all(math.isfinite(v) for v in result.components.values())
    assert score(task, text) == result


json_leaves = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10)
json_values = st.recursive(
    json_leaves,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=15,
)


@given(value=json_values, task=st.sampled_from(TASKS))
@settings(max_examples=300, deadline=None)
def test_any_json_answer_in_answer_tags_scores_cleanly(value: object, task: Task) -> None:
    try:
        text = f"<answer>{json.dumps(value)}</answer>"
    except ValueError:
        return
    result = score(task, text)
    assert 0.0 <= result.value <= 1.0
    assert tuple(result.components) == get_verifier(task.verifier.name).components


@given(texts=st.lists(st.text(max_size=100), max_size=6), task=st.sampled_from(TASKS))
@settings(max_examples=100, deadline=None)
def test_scoring_many_answers_to_one_task_equals_scoring_each(texts: list[str], task: Task) -> None:
    reference = json.dumps(thaw(task.answer))
    answers = [*texts, reference, f"<answer>{reference}</answer>"]
    assert score_many(task, answers) == [score(task, text) for text in answers]


def test_scoring_many_never_raises() -> None:
    ghost = dataclasses.replace(CALLERS, verifier=VerifierSpec("no-such-verifier"))
    assert [s.value for s in score_many(ghost, ['["pkg.a"]', "x"])] == [0.0, 0.0]
    results = score_many(CALLERS, [None, 42, '["pkg.a"]'])  # type: ignore[list-item]
    assert [r.error is not None for r in results] == [True, True, False]
    assert score_many(CALLERS, []) == []


def test_non_string_text_and_unknown_verifiers_score_zero() -> None:
    assert score(CALLERS, None).error is not None  # type: ignore[arg-type]
    ghost = dataclasses.replace(CALLERS, verifier=VerifierSpec("no-such-verifier"))
    result = score(ghost, '["pkg.a"]')
    assert result.value == 0.0
    assert result.error is not None
    assert "unknown verifier" in result.error
    assert tuple(result.components) == ("format",)


def test_reference_answers_score_one_through_text() -> None:
    for task in TASKS:
        assert score(task, f"<answer>{json.dumps(thaw(task.answer))}</answer>").passed
        assert score_answer(task, task.answer).passed


class SlowText(str):
    """An answer string whose normalisation hangs (a stand-in for a verifier stuck on one answer)."""

    __slots__ = ()

    def strip(self, chars: str | None = None) -> str:
        time.sleep(60)
        return str(self)


class CrashText(str):
    """An answer string whose normalisation kills the worker process."""

    __slots__ = ()

    def strip(self, chars: str | None = None) -> str:
        os._exit(3)


def test_batch_matches_serial_scoring() -> None:
    items = [
        (task, text)
        for task in TASKS
        for text in (
            '["pkg.a", "pkg.b"]',
            "<answer>pkg.http.parse_headers</answer>",
            '["a", "b", "d", "e"]',
            "garbage",
        )
    ]
    serial = score_batch(items, workers=0)
    assert score_batch(items, workers=2, chunksize=3) == serial
    assert serial == [score(task, text) for task, text in items]


def test_a_hanging_answer_times_out_and_the_others_are_still_scored() -> None:
    task = exact_task("pkg.f")
    items: list[tuple[Task, str | Answer]] = [(task, '"pkg.f"')] * 5
    items.insert(2, (task, Answer(task.id, SlowText("pkg.f"))))
    started = time.monotonic()
    results = score_batch(items, workers=2, timeout=1.0, chunksize=2)
    assert time.monotonic() - started < 20
    assert results[2].value == 0.0
    assert results[2].error is not None
    assert "timed out" in results[2].error
    assert [r.passed for i, r in enumerate(results) if i != 2] == [True] * 5


def test_an_answer_that_kills_its_worker_costs_only_itself() -> None:
    task = exact_task("pkg.f")
    items: list[tuple[Task, str | Answer]] = [(task, '"pkg.f"')] * 4
    items.insert(1, (task, Answer(task.id, CrashText("pkg.f"))))
    results = score_batch(items, workers=2, timeout=5.0, chunksize=2)
    assert results[1].value == 0.0
    assert results[1].error is not None
    assert "died" in results[1].error
    assert [r.passed for i, r in enumerate(results) if i != 1] == [True] * 4

"""The ``set`` verifier: exact-set reward, ignored items free, forbidden items costly, listing all bad."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from task_factories import set_task

from dure.tasks import freeze
from dure.verifiers import get_verifier

SET = get_verifier("set")
REQUIRED = ["pkg.a", "pkg.b", "pkg.c", "pkg.d"]
TASK = set_task(
    REQUIRED,
    ignored=("pkg.maybe",),
    forbidden=("pkg.live",),
    candidates=tuple(f"pkg.x{i}" for i in range(20)),
)


def value(answer: list[str]) -> float:
    return SET.verify(TASK, freeze(answer)).value


def test_reward_ordering_exact_subset_forbidden_superset_everything() -> None:
    exact = value(REQUIRED)
    subset = value(REQUIRED[:3])
    superset_ordinary = value([*REQUIRED, "pkg.x0"])
    superset_forbidden = value([*REQUIRED, "pkg.live"])
    everything = value([*REQUIRED, "pkg.live", "pkg.maybe", *(f"pkg.x{i}" for i in range(20))])
    assert exact == 1.0
    assert 1.0 > subset > superset_forbidden > everything
    assert superset_ordinary > superset_forbidden
    assert everything < 0.5
    assert value([]) == 0.0


def test_exact_answer_passes_in_any_order_spelling_and_with_ignored_items() -> None:
    for answer in (
        REQUIRED[::-1],
        [*REQUIRED, "pkg.a"],
        [f" `{n}` " for n in REQUIRED],
        [*REQUIRED, "pkg.maybe"],
        ["pkg:a", "pkg.b()", "pkg.c", "pkg.d"],
    ):
        score = SET.verify(TASK, freeze(answer))
        assert score.passed, answer
        assert score.value == 1.0


def test_ignored_items_neither_reward_nor_penalise() -> None:
    assert value(["pkg.a", "pkg.maybe"]) == value(["pkg.a"])
    assert value(["pkg.maybe"]) == 0.0


def test_ignore_special_frees_every_special_method_and_only_those() -> None:
    task = set_task(["pkg.C.run", "pkg.helper"], ignore_special=True)
    exact = SET.verify(task, freeze(["pkg.C.run", "pkg.helper", "pkg.C.__len__", "pkg.Other.__bool__"]))
    assert exact.passed
    assert exact.value == 1.0
    not_special = SET.verify(task, freeze(["pkg.C.run", "pkg.helper", "pkg.C._private_", "pkg.__"]))
    assert not not_special.passed
    plain = SET.verify(set_task(["pkg.C.run"]), freeze(["pkg.C.run", "pkg.C.__len__"]))
    assert not plain.passed  # without the flag a special method is an ordinary wrong item


@pytest.mark.parametrize(
    ("required", "flag"),
    [(["pkg.C.__len__"], True), (["pkg.a"], "yes")],
    ids=["required-special", "not-bool"],
)
def test_a_bad_ignore_special_is_a_task_error(required: list[str], flag: object) -> None:
    score = SET.verify(set_task(required, ignore_special=flag), freeze(required))  # type: ignore[arg-type]
    assert score.value == 0.0
    assert score.error is not None
    assert "bad task" in score.error


def test_components_are_precision_recall_f1() -> None:
    score = SET.verify(TASK, freeze(["pkg.a", "pkg.b", "pkg.x1"]))
    assert score.components == {
        "format": 1.0,
        "precision": pytest.approx(2 / 3),
        "recall": 0.5,
        "f1": pytest.approx(4 / 7),
    }
    assert score.details["false_positives"] == 1
    assert score.details["missing"] == 2


def test_an_empty_reference_accepts_only_the_empty_answer() -> None:
    task = set_task([], candidates=("pkg.a",))
    assert SET.verify(task, ()).passed
    assert SET.verify(task, freeze(["pkg.a"])).value == 0.0


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ("pkg.a", "expected a JSON array of strings, got a string"),
        (freeze({"items": []}), "got an object"),
        (freeze(["pkg.a", 3]), "item 1 is a number"),
        (None, "got null"),
        (tuple(f"n{i}" for i in range(10_001)), "more than the limit"),
    ],
)
def test_malformed_answers_score_zero_with_a_reason(answer: object, message: str) -> None:
    score = SET.verify(TASK, answer)  # type: ignore[arg-type]
    assert score.value == 0.0
    assert not score.passed
    assert score.error is not None
    assert message in score.error
    assert set(score.components) == set(SET.components)


def test_a_task_with_a_required_item_also_forbidden_is_a_task_error() -> None:
    score = SET.verify(set_task(["pkg.a"], forbidden=("pkg.a",)), freeze(["pkg.a"]))
    assert score.value == 0.0
    assert score.error is not None
    assert "bad task" in score.error


@given(
    st.lists(st.sampled_from([*REQUIRED, "pkg.live", "pkg.maybe", "pkg.x0", "pkg.x1", "other"]), max_size=12)
)
@settings(max_examples=200, deadline=None)
def test_only_the_exact_set_scores_one(answer: list[str]) -> None:
    score = SET.verify(TASK, freeze(answer))
    exact = set(answer) - {"pkg.maybe"} == set(REQUIRED)
    assert score.passed == exact
    assert (score.value == 1.0) == exact
    assert 0.0 <= score.value <= 1.0
    # adding a forbidden item never helps
    assert SET.verify(TASK, freeze([*answer, "pkg.live"])).value <= score.value or "pkg.live" in answer

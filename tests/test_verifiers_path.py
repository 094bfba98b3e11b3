"""The ``path`` verifier: any valid shortest path passes; partial credit by overlap never reaches a pass."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from task_factories import EDGES, path_task

from dure.tasks import freeze
from dure.verifiers import get_verifier

PATH = get_verifier("path")
TASK = path_task()
NODES = sorted({node for edge in EDGES for node in edge})


def verify(answer: list[str]) -> float:
    return PATH.verify(TASK, freeze(answer)).value


def test_every_shortest_path_passes_not_only_the_stored_one() -> None:
    assert verify(["a", "b", "d", "e"]) == 1.0
    assert verify(["a", "c", "d", "e"]) == 1.0
    assert verify([" a ", "pkg:b"[4:], "d", "e"]) == 1.0


def test_a_longer_valid_path_gets_partial_credit_only() -> None:
    score = PATH.verify(TASK, freeze(["a", "x", "y", "z", "e"]))
    assert score.components["valid"] == 1.0
    assert score.components["shortest"] == 0.0
    assert score.value < 1.0
    assert not score.passed


@pytest.mark.parametrize(
    "answer",
    [[], ["a", "e"], ["e", "d", "b", "a"], ["a", "d", "e"], ["a", "b", "d"], NODES],
    ids=["empty", "endpoints", "reversed", "skipped node", "wrong end", "every node"],
)
def test_wrong_paths_do_not_pass(answer: list[str]) -> None:
    score = PATH.verify(TASK, freeze(answer))
    assert not score.passed
    assert score.value < 0.7


def test_overlap_rewards_a_path_sharing_more_shortest_edges() -> None:
    assert verify(["a", "b", "d", "x"]) > verify(["a", "b", "q", "r"]) > verify(["q", "r", "s", "t"])


def test_unreachable_target_expects_the_empty_path() -> None:
    task = path_task(source="e", target="a", answer=[])
    assert PATH.verify(task, ()).passed
    assert not PATH.verify(task, freeze(["e", "a"])).passed


def test_malformed_path_scores_zero() -> None:
    score = PATH.verify(TASK, freeze({"path": ["a"]}))
    assert score.value == 0.0
    assert score.error is not None
    assert tuple(score.components) == PATH.components


@given(st.lists(st.sampled_from([*NODES, "q"]), max_size=7))
@settings(max_examples=300, deadline=None)
def test_passes_exactly_for_valid_shortest_paths(answer: list[str]) -> None:
    edges = set(EDGES)
    valid = (
        len(answer) == 4
        and answer[0] == "a"
        and answer[-1] == "e"
        and all((a, b) in edges for a, b in itertools.pairwise(answer))
    )
    score = PATH.verify(TASK, freeze(answer))
    assert score.passed == valid
    assert (score.value == 1.0) == valid

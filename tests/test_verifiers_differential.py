"""The ``differential`` verifier on a fixture repository: removing live code changes tests or calls."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from evidence_support import DEAD, evidence_task, sandbox_python, shared_dir, write_fixture

from dure.scoring import score_answer
from dure.tasks import Task, freeze
from dure.verifiers import _evidence, get_verifier
from dure.verifiers.audit import audit_task
from dure.verifiers.differential import outer_spans, remove_spans

DIFFERENTIAL = get_verifier("differential")


@pytest.fixture(scope="module")
def task() -> Iterator[Task]:
    saved = os.environ.get(_evidence.PYTHON_ENV)
    os.environ[_evidence.PYTHON_ENV] = sandbox_python()
    repo = write_fixture(shared_dir() / "repo")
    yield evidence_task(repo, "differential", DEAD, module="pkg.core", max_examples=20)
    if saved is None:
        os.environ.pop(_evidence.PYTHON_ENV, None)
    else:
        os.environ[_evidence.PYTHON_ENV] = saved


def test_removing_the_dead_code_changes_nothing(task: Task) -> None:
    score = DIFFERENTIAL.verify(task, task.answer)
    assert score.passed, score
    assert score.details["witnesses"] == ()


def test_removing_code_only_the_tests_use_is_refuted_by_a_test(task: Task) -> None:
    score = DIFFERENTIAL.verify(task, freeze([*DEAD, "pkg.core.only_tested"]))
    assert score.value == 0.0
    assert score.components["equivalent"] == 0.0
    witness = score.details["witnesses"][0]  # type: ignore[index]
    assert witness["kind"] == "test"
    assert witness["test"].startswith("tests/test_core.py::")


def test_an_import_no_test_needs_is_refuted_by_a_generated_call(task: Task) -> None:
    score = DIFFERENTIAL.verify(task, freeze([*DEAD, "pkg.core.json"]))
    assert score.value == 0.0
    witness = score.details["witnesses"][0]  # type: ignore[index]
    assert witness["kind"] == "call"
    assert witness["function"] == "encode"
    assert witness["modified"] == "raise NameError"
    assert witness["original"].startswith("return ")


def test_a_partial_unrefuted_answer_gets_set_credit(task: Task) -> None:
    score = DIFFERENTIAL.verify(task, freeze(DEAD[:2]))
    assert 0.0 < score.value < 1.0
    assert score.components["equivalent"] == 1.0


def test_the_self_audit_keeps_the_task(task: Task) -> None:
    result = audit_task(task)
    assert result.ok, result.reason


def test_a_wrong_reference_is_a_broken_task(task: Task) -> None:
    repo = Path(task.repo.source)
    broken = evidence_task(
        repo, "differential", [*DEAD, "pkg.core.helper"], module="pkg.core", max_examples=20
    )
    score = DIFFERENTIAL.verify(broken, broken.answer)
    assert score.error is not None
    assert "removing the reference items changes behaviour" in score.error


@pytest.mark.parametrize("answer", [None, 3, {"x": 1}, [None], ["pkg.core.nothing"]])
def test_malformed_answers_score_zero(task: Task, answer: object) -> None:
    score = score_answer(task, freeze(answer))
    assert score.value == 0.0
    assert tuple(score.components) == DIFFERENTIAL.components


def test_removal_replaces_each_outer_span_by_pass() -> None:
    text = "def f():\n    if X:\n        a()\n        b()\n    return 1\n"
    inner = _evidence.Span("m.py", 3, 4)
    outer = _evidence.Span("m.py", 2, 4)
    assert outer_spans([inner, outer]) == [outer]
    assert remove_spans(text, [outer]) == "def f():\n    pass\n    return 1\n"
    assert remove_spans(text, [inner]) == "def f():\n    if X:\n        pass\n    return 1\n"

"""The ``coverage`` verifier on a fixture repository: executed code refutes a dead-code claim."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from evidence_support import DEAD, evidence_task, sandbox_python, shared_dir, write_fixture

from dure.scoring import score_answer
from dure.tasks import freeze
from dure.verifiers import _evidence, coverage, get_verifier
from dure.verifiers.audit import audit_task

COVERAGE = get_verifier("coverage")


@pytest.fixture(scope="module")
def repo() -> Iterator[Path]:
    saved = os.environ.get(_evidence.PYTHON_ENV)
    os.environ[_evidence.PYTHON_ENV] = sandbox_python()
    yield write_fixture(shared_dir() / "repo")
    if saved is None:
        os.environ.pop(_evidence.PYTHON_ENV, None)
    else:
        os.environ[_evidence.PYTHON_ENV] = saved


def test_the_dead_set_passes_and_executed_code_is_refuted_with_the_test_id(repo: Path) -> None:
    task = evidence_task(repo, "coverage", DEAD)
    assert COVERAGE.verify(task, task.answer).passed
    score = COVERAGE.verify(task, freeze([*DEAD, "pkg.core.only_tested", "pkg.core.live"]))
    assert not score.passed
    refuted = {entry["item"]: entry for entry in score.details["refuted"]}  # type: ignore[union-attr]
    assert set(refuted) == {"pkg.core.only_tested", "pkg.core.live"}
    assert refuted["pkg.core.only_tested"]["test"] == "tests/test_core.py::test_only_tested"
    assert score.components["unrefuted"] == pytest.approx(4 / 6)


def test_test_ids_stay_relative_to_the_tree_under_a_stray_setup_py(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ``setup.py`` above the sandbox's copy (in the temporary directory) must not become pytest's root."""
    scratch = shared_dir()
    (scratch / "setup.py").write_text("raise SystemExit('not a project')\n", encoding="utf-8")
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    task = evidence_task(repo, "coverage", DEAD)
    score = COVERAGE.verify(task, freeze([*DEAD, "pkg.core.only_tested"]))
    refuted = {entry["item"]: entry for entry in score.details["refuted"]}  # type: ignore[union-attr]
    assert refuted["pkg.core.only_tested"]["test"] == "tests/test_core.py::test_only_tested"


def test_per_test_contexts_are_node_ids_not_function_names(repo: Path) -> None:
    lines = coverage.executed_lines(evidence_task(repo, "coverage", DEAD))
    contexts = set(lines["pkg/core.py"].values())
    assert "tests/test_core.py::test_after_return[1]" in contexts
    assert all(c == "" or c.startswith("tests/test_core.py::") for c in contexts)


def test_a_refuted_claim_costs_more_than_an_unrefuted_wrong_one(repo: Path) -> None:
    task = evidence_task(repo, "coverage", DEAD)
    unrefuted_wrong = COVERAGE.verify(task, freeze([*DEAD, "pkg.core.encode"])).value
    refuted = COVERAGE.verify(task, freeze([*DEAD, "pkg.core.only_tested"])).value
    assert 1.0 > unrefuted_wrong > refuted
    assert COVERAGE.verify(task, freeze([])).value == 0.0


def test_a_reference_that_the_tests_execute_is_a_broken_task(repo: Path) -> None:
    task = evidence_task(repo, "coverage", [*DEAD, "pkg.core.live"])
    score = COVERAGE.verify(task, task.answer)
    assert score.value == 0.0
    assert score.error is not None
    assert "pkg.core.live is executed by tests/test_core.py::test_live" in score.error
    assert not audit_task(task).ok


def test_the_self_audit_keeps_a_sound_task(repo: Path) -> None:
    result = audit_task(evidence_task(repo, "coverage", DEAD))
    assert result.ok, result.reason


@pytest.mark.parametrize(
    "answer", [None, "pkg.core.dead", {"a": 1}, [1, 2], ["x" * 10**5], ["__import__('os').system('false')"]]
)
def test_malformed_and_adversarial_answers_score_zero_or_low(repo: Path, answer: object) -> None:
    task = evidence_task(repo, "coverage", DEAD)
    score = score_answer(task, freeze(answer))
    assert score.value < 1.0
    assert tuple(score.components) == COVERAGE.components


def test_the_executed_lines_are_cached_on_disk(repo: Path) -> None:
    task = evidence_task(repo, "coverage", DEAD)
    coverage.executed_lines(task)
    coverage._CACHE.memory.clear()
    before = len(list(coverage._CACHE.folder().glob("*.json")))
    coverage.executed_lines(task)
    assert len(list(coverage._CACHE.folder().glob("*.json"))) == before


def test_tests_that_cannot_run_give_an_error_not_a_pass(repo: Path) -> None:
    task = evidence_task(repo, "coverage", DEAD, test_command=["python", "-m", "pytest", "no_such_dir"])
    score = COVERAGE.verify(task, task.answer)
    assert score.value == 0.0
    assert score.error is not None
    assert "no coverage evidence" in score.error

"""The ``property`` verifier: a task's Hypothesis property, run on the answer in the sandbox."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from evidence_support import sandbox_python

from dure.scoring import score, score_answer
from dure.tasks import RepoRef, Task, VerifierSpec, freeze, make_task
from dure.tasks.frozen import freeze_object
from dure.verifiers import _evidence, get_verifier
from dure.verifiers.audit import audit_task

PROPERTY = get_verifier("property")

# The answer is the coefficients [a, b] of f(x) = a * x + b that agrees with 3 * x + 1 everywhere.
LINEAR = """
@given(x=st.integers(-1000, 1000))
def prop(answer, x):
    a, b = answer
    assert a * x + b == 3 * x + 1
"""


@pytest.fixture(scope="module", autouse=True)
def _interpreter() -> Iterator[None]:
    saved = os.environ.get(_evidence.PYTHON_ENV)
    os.environ[_evidence.PYTHON_ENV] = sandbox_python()
    yield
    if saved is None:
        os.environ.pop(_evidence.PYTHON_ENV, None)
    else:
        os.environ[_evidence.PYTHON_ENV] = saved


def property_task(source: str = LINEAR, answer: object = (3, 1), **params: object) -> Task:
    full = {
        "property": source,
        "wrong_answers": [[3, 0], [0, 1]],
        "equivalent_answers": [[3.0, 1.0]],
        **params,
    }
    return make_task(
        kind="patch-equivalence",
        repo=RepoRef("demo", "1.0", "local", "ab" * 32),
        prompt="Give [a, b] with a * x + b equal to f(x) for every x.",
        inputs={"symbol": "pkg.f"},
        answer=list(answer) if isinstance(answer, tuple) else answer,
        answer_schema={"type": "array"},
        verifier=VerifierSpec("property", freeze_object(full)),
    )


def test_a_correct_answer_passes() -> None:
    task = property_task()
    result = PROPERTY.verify(task, task.answer)
    assert result.passed, result
    assert result.components == {"format": 1.0, "property": 1.0}


def test_a_wrong_answer_fails_with_the_falsifying_example() -> None:
    result = PROPERTY.verify(property_task(), freeze([3, 2]))
    assert result.value == 0.0
    assert "answer=[3, 2]" in result.details["falsifying"]  # type: ignore[operator]
    assert "x=" in result.details["falsifying"]  # type: ignore[operator]
    assert "AssertionError" in result.details["exception"]  # type: ignore[operator]


def test_the_verdict_is_deterministic() -> None:
    from dure.verifiers.properties import run_property  # noqa: PLC0415 - the cache must be cleared first

    task = property_task()
    run_property.cache_clear()
    first = PROPERTY.verify(task, freeze([2, 1]))
    run_property.cache_clear()
    assert PROPERTY.verify(task, freeze([2, 1])) == first


def test_the_property_runs_in_the_sandbox_not_in_this_process(tmp_path: object) -> None:
    source = """
@given(x=st.just(0))
def prop(answer, x):
    import os
    open(os.path.join(os.environ["HOME"], "marker"), "w").write("x")
    assert "dure-sandbox-" in os.getcwd()
"""
    result = PROPERTY.verify(property_task(source), freeze([3, 1]))
    assert result.passed, result


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("def prop(answer):\n    pass\n", "not a function decorated with @given"),
        ("syntax error(", "does not run"),
    ],
)
def test_a_broken_property_is_a_task_error(source: str, message: str) -> None:
    result = PROPERTY.verify(property_task(source), freeze([3, 1]))
    assert result.value == 0.0
    assert result.error is not None
    assert message in result.error


@pytest.mark.parametrize(
    "text", ["not json", "<answer>[1, 2, 3]</answer>", "\"__import__('os').system('false')\"", "[]", "null"]
)
def test_adversarial_answers_score_zero(text: str) -> None:
    result = score(property_task(), text)
    assert result.value == 0.0
    assert tuple(result.components) == PROPERTY.components


def test_a_property_that_hangs_is_stopped() -> None:
    source = "@given(x=st.just(0))\ndef prop(answer, x):\n    while True:\n        pass\n"
    result = score_answer(property_task(source, timeout=2), freeze([3, 1]))
    assert result.value == 0.0
    assert "timed out" in str(result.details.get("exception"))


def test_the_self_audit_keeps_the_task_and_drops_a_trivial_one() -> None:
    assert audit_task(property_task()).ok
    trivial = property_task("@given(x=st.integers())\ndef prop(answer, x):\n    pass\n")
    assert not audit_task(trivial).ok

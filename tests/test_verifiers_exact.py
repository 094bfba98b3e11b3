"""The ``exact`` verifier: one name or location, equal only up to spellings that provably agree."""

from __future__ import annotations

import pytest
from task_factories import exact_task

from dure.tasks import freeze
from dure.verifiers import get_verifier

EXACT = get_verifier("exact")
LOCATION = exact_task()
NAME = exact_task("pkg.http.parse_headers")


@pytest.mark.parametrize(
    "answer",
    [
        {"file": "pkg/http.py", "qualname": "pkg.http.parse_headers"},
        {
            "file": "./pkg/http.py",
            "qualname": " `pkg.http:parse_headers` ",
            "why": "extra fields are ignored",
        },
        {"file": "pkg\\http.py", "qualname": "pkg.http.parse_headers()"},
        {"file": "pkg/sub/../http.py", "qualname": "pkg.http.parse_headers"},
    ],
)
def test_equivalent_spellings_of_a_location_pass(answer: dict[str, str]) -> None:
    assert EXACT.verify(LOCATION, freeze(answer)).passed


@pytest.mark.parametrize(
    "answer",
    [
        {"file": "pkg/http.py", "qualname": "pkg.http"},
        {"file": "pkg/https.py", "qualname": "pkg.http.parse_headers"},
        {"file": "pkg/http.py", "qualname": "pkg.http.Parse_headers"},
    ],
)
def test_near_misses_score_zero(answer: dict[str, str]) -> None:
    score = EXACT.verify(LOCATION, freeze(answer))
    assert score.value == 0.0
    assert score.error is None
    assert False in score.details["fields"].values()


def test_a_name_task_takes_one_string() -> None:
    assert EXACT.verify(NAME, "pkg.http.parse_headers").passed
    assert EXACT.verify(NAME, "pkg.http:parse_headers").passed
    assert not EXACT.verify(NAME, "pkg.http.parse_header").passed
    wrong_type = EXACT.verify(NAME, freeze(["pkg.http.parse_headers"]))
    assert wrong_type.value == 0.0
    assert wrong_type.error is not None


def test_line_numbers_may_be_written_as_strings() -> None:
    task = exact_task({"file": "pkg/http.py", "line": 12})
    assert EXACT.verify(task, freeze({"file": "pkg/http.py", "line": "12"})).passed
    assert not EXACT.verify(task, freeze({"file": "pkg/http.py", "line": 13})).passed
    assert EXACT.verify(task, freeze({"file": "pkg/http.py", "line": True})).error is not None


def test_missing_fields_are_malformed() -> None:
    score = EXACT.verify(LOCATION, freeze({"file": "pkg/http.py"}))
    assert score.error is not None
    assert "qualname" in score.error
    assert tuple(score.components) == ("format", "exact")

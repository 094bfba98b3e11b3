"""Task model, codec, ids and the shipped task schema."""

from __future__ import annotations

import dataclasses
import json
import pickle
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from task_factories import REPO, all_tasks, set_task

from dure.tasks import (
    Answer,
    AnswerError,
    Completion,
    Score,
    TaskError,
    TaskKind,
    decode_answer,
    decode_task,
    encode_answer,
    encode_task,
    freeze,
    read_tasks,
    task_id,
    task_schema,
    task_to_json,
    thaw,
    validate_task_json,
    write_tasks,
)
from dure.tasks.codec import task_from_json
from dure.tasks.schema import schema_errors

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


def test_kind_names_are_the_published_ones() -> None:
    assert [kind.value for kind in TaskKind] == [
        "callers",
        "callees",
        "subclasses",
        "external-deps",
        "call-path",
        "definition",
        "type-completion",
        "dead-code",
        "causal-chain",
        "change-impact",
        "patch-equivalence",
    ]
    assert task_schema()["properties"]["kind"]["enum"] == [kind.value for kind in TaskKind]


@pytest.mark.parametrize("task", all_tasks(), ids=lambda task: task.id)
def test_codec_round_trip_is_exact_and_schema_valid(task: object) -> None:
    line = encode_task(task)  # type: ignore[arg-type]
    assert decode_task(line) == task
    assert encode_task(decode_task(line)) == line
    validate_task_json(json.loads(line))


@given(answer=json_values, params=st.dictionaries(st.text(max_size=8), json_values, max_size=4))
@settings(max_examples=100, deadline=None)
def test_codec_round_trips_any_json_answer_and_params(answer: object, params: dict[str, object]) -> None:
    task = set_task(["pkg.a"])
    task = dataclasses.replace(
        task, answer=freeze(answer), verifier=dataclasses.replace(task.verifier, params=freeze(params))
    )
    line = encode_task(task)
    again = decode_task_unchecked(line)
    assert again == task
    assert thaw(again.answer) == answer
    assert schema_errors(json.loads(line), task_schema()) == []


def decode_task_unchecked(line: str) -> object:
    return task_from_json(json.loads(line), check_id=False)


def test_records_are_deeply_frozen_and_picklable() -> None:
    task = all_tasks()[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        task.prompt = "changed"  # type: ignore[misc]
    with pytest.raises(TypeError):
        task.verifier.params["ignored"] = ()  # type: ignore[index]
    assert isinstance(task.answer, tuple)
    assert pickle.loads(pickle.dumps(task)) == task
    assert hash(task) == hash(pickle.loads(pickle.dumps(task)))


def test_ids_are_stable_and_cover_repo_kind_target_and_parameters() -> None:
    base = task_id(REPO.sha256, "callers", {"symbol": "pkg.f"}, {"p": 1})
    assert base == task_id(REPO.sha256, TaskKind.CALLERS, {"symbol": "pkg.f"}, {"p": 1})
    assert base.startswith("callers-")
    assert len(base.split("-", 1)[1]) == 20
    others = {
        task_id("cd" * 32, "callers", {"symbol": "pkg.f"}, {"p": 1}),
        task_id(REPO.sha256, "callees", {"symbol": "pkg.f"}, {"p": 1}),
        task_id(REPO.sha256, "callers", {"symbol": "pkg.g"}, {"p": 1}),
        task_id(REPO.sha256, "callers", {"symbol": "pkg.f"}, {"p": 2}),
    }
    assert base not in others
    assert len(others) == 4
    assert set_task(["pkg.a"]).id == set_task(["pkg.a"]).id
    assert set_task(["pkg.a"]).id != set_task(["pkg.a"], forbidden=("pkg.z",)).id


def test_a_stored_id_that_does_not_fit_the_content_is_refused() -> None:
    data = task_to_json(all_tasks()[0])
    data["inputs"]["symbol"] = "pkg.other"
    with pytest.raises(TaskError, match="does not match the task's content"):
        decode_task(json.dumps(data))


def test_files_are_byte_identical_and_errors_name_file_line_and_field(tmp_path: Path) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    write_tasks(first, all_tasks())
    write_tasks(second, read_tasks(first))
    assert first.read_bytes() == second.read_bytes()
    lines = first.read_text(encoding="utf-8").splitlines()
    data = json.loads(lines[1])
    data["layer"] = "one"
    first.write_text("\n".join([lines[0], json.dumps(data)]) + "\n", encoding="utf-8")
    with pytest.raises(TaskError, match=r"a\.jsonl:2: layer: expected int, got str"):
        read_tasks(first)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "not JSON"),
        ("[]", "expected a JSON object"),
        ('{"kind": "callers"}', "t.jsonl:7: repo: missing"),
        ('{"kind": "telepathy"}', "unknown task kind"),
        ('{"kind": NaN}', "not JSON"),
    ],
)
def test_malformed_task_lines_get_clear_errors(text: str, message: str) -> None:
    with pytest.raises(TaskError, match=message):
        decode_task(text, source="t.jsonl", line=7)


def test_schema_rejects_what_the_codec_would_never_write() -> None:
    good = task_to_json(all_tasks()[0])
    assert schema_errors(good, task_schema()) == []
    bad = {**good, "phase": 9, "extra": 1, "repo": {**good["repo"], "sha256": "xyz"}}
    errors = schema_errors(bad, task_schema())
    assert any("phase" in error for error in errors)
    assert any("extra" in error for error in errors)
    assert any("sha256" in error for error in errors)
    with pytest.raises(TaskError, match="task schema"):
        validate_task_json(bad)


def test_schema_agrees_with_the_jsonschema_library() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.Draft202012Validator.check_schema(task_schema())
    validator = jsonschema.Draft202012Validator(task_schema())
    for task in all_tasks():
        validator.validate(task_to_json(task))
    assert not validator.is_valid({**task_to_json(all_tasks()[0]), "layer": 0})


def test_answer_lines_round_trip_and_report_problems() -> None:
    answer = Answer("callers-0", freeze(["pkg.a"]))
    assert decode_answer(encode_answer(answer)) == answer
    completion = Completion("callers-0", "<answer>[]</answer>")
    assert decode_answer(encode_answer(completion)) == completion
    with pytest.raises(AnswerError, match=r"a\.jsonl:3: task_id"):
        decode_answer('{"answer": []}', source="a.jsonl", line=3)
    with pytest.raises(AnswerError, match="needs an 'answer'"):
        decode_answer('{"task_id": "x"}')


def test_scores_refuse_nan_and_out_of_range_values() -> None:
    for value in (float("nan"), float("inf"), -0.1, 1.5):
        with pytest.raises(ValueError, match="finite number"):
            Score(value, False)
    with pytest.raises(ValueError, match="passing"):
        Score(0.5, True)

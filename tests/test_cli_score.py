"""``dure score`` and ``dure audit`` on small hand-made task files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from task_factories import all_tasks, set_task

from dure.cli import main
from dure.cli._base import ExitCode
from dure.tasks import thaw, write_tasks


@pytest.fixture
def tasks_file(tmp_path: Path) -> Path:
    path = tmp_path / "tasks.jsonl"
    write_tasks(path, all_tasks())
    return path


def answers_file(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "answers.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def reference_lines() -> list[str]:
    return [json.dumps({"task_id": task.id, "answer": thaw(task.answer)}) for task in all_tasks()]


def test_all_reference_answers_score_and_exit_zero(
    tasks_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "scores.jsonl"
    answers = answers_file(tmp_path, reference_lines())
    code = main(["score", str(tasks_file), str(answers), "--out", str(out), "--workers", "0"])
    assert code == ExitCode.OK
    printed = capsys.readouterr().out
    assert "callers" in printed
    assert "call-path" in printed
    assert "4 scored, 0 malformed, 0 unknown task ids, 0 tasks without an answer" in printed
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [record["value"] for record in records] == [1.0] * 4
    assert all(record["passed"] for record in records)


def test_malformed_unknown_and_missing_are_reported(
    tasks_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    task = all_tasks()[0]
    lines = [
        json.dumps({"task_id": task.id, "completion": 'Let me think.\n<answer>["pkg.a"]</answer>'}),
        "{not json",
        json.dumps({"task_id": "callers-00000000000000000000", "answer": []}),
    ]
    out = tmp_path / "scores.jsonl"
    answers = answers_file(tmp_path, lines)
    code = main(["score", str(tasks_file), str(answers), "--out", str(out), "--workers", "1"])
    assert code == ExitCode.FAILURE
    captured = capsys.readouterr()
    assert "answers.jsonl:2: not JSON" in captured.err
    assert "answers.jsonl:3: unknown task id" in captured.err
    assert "1 scored, 1 malformed, 1 unknown task ids, 3 tasks without an answer" in captured.out
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert records[0]["line"] == 1
    assert 0.0 < records[0]["value"] < 1.0
    assert (records[1]["line"], records[1]["task_id"], records[1]["value"]) == (2, None, 0.0)


def test_a_bad_task_file_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text('{"kind": "callers"}\n', encoding="utf-8")
    code = main(["score", str(tasks), str(answers_file(tmp_path, reference_lines()))])
    assert code == ExitCode.ERROR
    assert "tasks.jsonl:1: repo: missing" in capsys.readouterr().err


def test_audit_passes_good_tasks(tasks_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", str(tasks_file), "-v"]) == ExitCode.OK
    printed = capsys.readouterr().out
    assert "4 tasks audited, 0 would be dropped" in printed
    assert "shortest path 2 (equivalent): 1.000" in printed


def test_audit_drops_a_task_that_listing_everything_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    too_few_distractors = set_task(["pkg.a", "pkg.b", "pkg.c"], candidates=("pkg.d",))
    path = tmp_path / "tasks.jsonl"
    write_tasks(path, [*all_tasks(), too_few_distractors])
    assert main(["audit", str(path)]) == ExitCode.FAILURE
    printed = capsys.readouterr().out
    assert f"DROP  {too_few_distractors.id}: everything (wrong) scored 0.857" in printed
    assert "5 tasks audited, 1 would be dropped" in printed


def test_duplicate_task_ids_are_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tasks = tmp_path / "tasks.jsonl"
    write_tasks(tasks, [all_tasks()[0], all_tasks()[0]])
    assert main(["score", str(tasks), str(answers_file(tmp_path, reference_lines()))]) == ExitCode.ERROR
    assert "appears more than once" in capsys.readouterr().err


def test_a_generate_output_directory_is_read_shard_by_shard(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tasks = all_tasks()
    (tmp_path / "out" / "tasks").mkdir(parents=True)
    write_tasks(tmp_path / "out" / "tasks" / "a-1.0.jsonl", tasks[:2])
    write_tasks(tmp_path / "out" / "tasks" / "b-2.0.jsonl", tasks[2:])
    answers = answers_file(tmp_path, reference_lines())
    assert main(["score", str(tmp_path / "out"), str(answers), "--workers", "0"]) == ExitCode.OK
    assert "4 scored, 0 malformed, 0 unknown task ids, 0 tasks without an answer" in capsys.readouterr().out


def test_a_curriculum_directory_is_read_without_its_phase_4_repeats(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tasks = all_tasks()
    folder = tmp_path / "curriculum"
    folder.mkdir()
    write_tasks(folder / "phase-1.jsonl", tasks[:3])
    write_tasks(folder / "phase-2.jsonl", tasks[3:])
    write_tasks(folder / "phase-4.jsonl", tasks[:2])  # the mix repeats tasks of the other phases
    (folder / "curriculum.json").write_text("{}\n", encoding="utf-8")
    answers = answers_file(tmp_path, reference_lines())
    assert main(["score", str(folder), str(answers), "--workers", "0"]) == ExitCode.OK
    assert "4 scored, 0 malformed, 0 unknown task ids, 0 tasks without an answer" in capsys.readouterr().out

"""``dure generate`` end to end on small repositories: shards, reports, resumption, failures, the CLI."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from dure.analyzers.runtime import TestEvidence
from dure.cli import main
from dure.cli.generate_cmd import summary
from dure.corpus import Repository
from dure.generators import pipeline
from dure.generators.base import DropReason
from dure.generators.pipeline import RunSettings, generate
from dure.scoring import score
from dure.tasks import read_tasks, validate_task_json
from dure.tasks.codec import loads
from dure.tasks.frozen import thaw
from dure.tasks.model import TaskKind
from tests.generator_support import SHOP, source_of

TemporaryRepo = Callable[[dict[str, str]], Path]
KINDS = (TaskKind.CALLERS, TaskKind.CALLEES, TaskKind.SUBCLASSES, TaskKind.CALL_PATH, TaskKind.DEFINITION)
SETTINGS = RunSettings(kinds=KINDS, per_repo=3, seed=7)
NO_TESTS = {key: value for key, value in SHOP.items() if not key.startswith("tests/")}


@pytest.fixture
def shop(temporary_repo: TemporaryRepo) -> Repository:
    root = temporary_repo(NO_TESTS)
    return Repository("shop", None, root)


def _shard(out: Path) -> Path:
    (shard,) = (out / "tasks").glob("*.jsonl")
    return shard


def test_a_run_writes_valid_audited_tasks(shop: Repository, tmp_path: Path) -> None:
    (report,) = generate([shop], SETTINGS, tmp_path / "out")
    assert report.error is None
    assert report.task_count > 5
    lines = _shard(tmp_path / "out").read_text().splitlines()
    assert len(lines) == report.task_count
    for line in lines:
        validate_task_json(loads(line))
    for task in read_tasks(_shard(tmp_path / "out")):
        assert score(task, json.dumps(thaw(task.answer))).passed
        assert task.audit["self_audit"]["passed"] is True
    saved = json.loads((tmp_path / "out" / "reports" / f"{report.shard}.json").read_text())
    assert saved["tasks"] == report.tasks
    assert saved["settings"]["seed"] == 7


def test_the_same_seed_gives_byte_identical_shards(shop: Repository, tmp_path: Path) -> None:
    generate([shop], SETTINGS, tmp_path / "a")
    generate([shop], SETTINGS, tmp_path / "b")
    assert _shard(tmp_path / "a").read_bytes() == _shard(tmp_path / "b").read_bytes()


def test_a_finished_repository_is_skipped_and_other_settings_redo_it(
    shop: Repository, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    generate([shop], SETTINGS, out)
    before = _shard(out).stat().st_mtime_ns
    (again,) = generate([shop], SETTINGS, out)
    assert again.skipped
    assert _shard(out).stat().st_mtime_ns == before
    (redone,) = generate([shop], RunSettings(KINDS, per_repo=1, seed=7), out)
    assert not redone.skipped
    assert len(_shard(out).read_text().splitlines()) == redone.task_count


def test_a_damaged_report_means_the_repository_is_redone(shop: Repository, tmp_path: Path) -> None:
    out = tmp_path / "out"
    (first,) = generate([shop], SETTINGS, out)
    (out / "reports" / f"{first.shard}.json").write_text("{not json")
    (again,) = generate([shop], SETTINGS, out)
    assert not again.skipped
    assert again.tasks == first.tasks


def test_a_failing_repository_is_reported_and_the_run_goes_on(shop: Repository, tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    broken.write_text("a file, not a directory")
    reports = generate([Repository("broken", None, broken), shop], SETTINGS, tmp_path / "out", workers=2)
    assert reports[0].error is not None
    assert reports[1].error is None
    assert [p.name for p in (tmp_path / "out" / "tasks").iterdir()] == [f"{reports[1].shard}.jsonl"]


def test_a_traced_call_the_answer_lacks_drops_the_task(temporary_repo: TemporaryRepo) -> None:
    source = source_of(
        temporary_repo(NO_TESTS),
        evidence=TestEvidence(edges=frozenset({("shop.items.Food", "shop.prices.discount")})),
    )
    tally = pipeline._Tally()
    tasks = list(pipeline._accepted(source, TaskKind.CALLERS, tally, set(), limit=1000))
    assert "shop.prices.discount" not in {thaw(t.inputs)["symbol"] for t in tasks}
    assert tally.drops[TaskKind.CALLERS.value, DropReason.TRACE_MISS.value] == 1
    assert tally.misses == 1
    assert tally.checked > 1
    assert all(t.audit["trace"] == "agrees" for t in tasks)


def test_cli_generate_prints_the_summary(
    shop: Repository, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    argv = ["generate", "--repo", str(shop.root), "--kinds", "callers,subclasses", "--per-repo", "2"]
    assert main([*argv, "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "callers" in printed
    assert "subclasses" in printed
    assert "phase 1" in printed
    assert {t.kind for t in read_tasks(_shard(out))} == {TaskKind.CALLERS, TaskKind.SUBCLASSES}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--kinds", "callers,nonsense"], "no generator for task kind 'nonsense'"),
        (["--kinds", "causal-chain"], "no generator for task kind 'causal-chain'"),
        (["--layer", "2"], "no generator produces Layer-2 tasks yet"),
    ],
)
def test_cli_generate_rejects_unknown_kinds(
    shop: Repository, tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(["generate", "--repo", str(shop.root), "--out", str(tmp_path), *argv]) == 3
    assert message in capsys.readouterr().err


def test_the_summary_shows_a_multi_line_reason_on_one_line() -> None:
    report = pipeline.RepoReport(
        name="pkg",
        shard="pkg-1",
        trace={"checked": 0, "error": "could not run (Traceback:\n  File x\nOSError: no)"},
    )
    (line,) = summary([report]).strip().splitlines()
    assert line == "pkg: 0 tasks; trace not run: could not run (Traceback: ... OSError: no)"

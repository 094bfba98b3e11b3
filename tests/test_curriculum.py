"""Curriculum phases: placements from difficulty features, adaptive phase 4, and ``dure curriculum``."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from dure.cli import cli
from dure.cli._base import ExitCode
from dure.curriculum import (
    UNCATEGORISED,
    AdaptiveSettings,
    CurriculumError,
    PassRate,
    Verdict,
    adaptive,
    assign,
    category_of,
    load_tasks,
    make_curriculum,
    pass_rates,
    place,
    read_scores,
    repository_categories,
    write_curriculum,
)
from dure.generators.difficulty import phase_of
from dure.tasks import RepoRef, Task, VerifierSpec, make_task, write_tasks
from dure.tasks.codec import read_tasks

STRINGS = {"type": "array", "items": {"type": "string"}}
CATEGORIES = {"pluggy": "plugin system", "parsimonious": "PEG parsing"}


def task(
    kind: str = "callers",
    *,
    repo: str = "pluggy",
    hops: int = 1,
    files: int = 1,
    n: int = 0,
    difficulty: dict[str, object] | None = None,
) -> Task:
    """A small task about ``repo`` with the given difficulty features (``n`` makes ids distinct)."""
    features = {"hops": hops, "files": files, "answer_size": 1, "fan_in": 1, "fan_out": 1, "distance": 0}
    return make_task(
        kind=kind,
        repo=RepoRef(repo, "1.0", "pypi", "ab" * 32),
        prompt=f"Question {n} about {repo}.",
        inputs={"symbol": f"{repo}.f{n}"},
        answer=[f"{repo}.g{n}"],
        answer_schema=STRINGS,
        verifier=VerifierSpec("set"),
        difficulty=features if difficulty is None else difficulty,
    )


def rate(task_id: str, passed: int, samples: int = 4) -> PassRate:
    return PassRate(task_id, samples, passed, passed / samples)


def score_lines(outcomes: dict[str, list[bool]]) -> list[str]:
    """``dure score --out`` lines: one per sample."""
    lines = []
    for number, (task_id, results) in enumerate(sorted(outcomes.items()), start=1):
        kind = task_id.rsplit("-", 1)[0]
        for passed in results:
            record = {"line": number, "task_id": task_id, "kind": kind, "phase": 1}
            lines.append(json.dumps({**record, "value": 1.0 if passed else 0.25, "passed": passed}))
    return lines


def invoke(*args: str | Path) -> Result:
    return CliRunner().invoke(cli, ["curriculum", *map(str, args)], standalone_mode=False)


# phases 1-3 ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "hops", "files", "phase", "reason"),
    [
        ("callers", 2, 1, 1, "phase 1: Layer 1, 1 file, 2 hops (at most 2)"),
        ("definition", 0, 1, 1, "phase 1: Layer 1, 1 file, 0 hops (at most 2)"),
        ("callers", 1, 3, 2, "phase 2: Layer 1, 3 files (more than 1)"),
        ("call-path", 3, 1, 2, "phase 2: Layer 1, 1 file, 3 hops (more than 2)"),
        ("causal-chain", 4, 3, 2, "phase 2: Layer 2, 4 hops (fewer than 10), 3 files (at most 5)"),
        ("causal-chain", 12, 2, 3, "phase 3: Layer 2, 12 hops (10 or more)"),
        ("change-impact", 2, 7, 3, "phase 3: Layer 2, 7 files (more than 5)"),
    ],
)
def test_phase_and_reason_follow_the_features(
    kind: str, hops: int, files: int, phase: int, reason: str
) -> None:
    placement = place(task(kind, hops=hops, files=files))
    assert (placement.phase, placement.reason) == (phase, reason)


@pytest.mark.parametrize("kind", ["callers", "causal-chain"])
def test_placements_agree_with_the_generators_rule_everywhere(kind: str) -> None:
    grid = [(hops, files) for hops in range(13) for files in range(8)]
    tasks = [task(kind, hops=hops, files=files, n=10 * hops + files) for hops, files in grid]
    for (hops, files), item, placement in zip(grid, tasks, assign(tasks), strict=True):
        assert placement.task_id == item.id
        assert placement.phase == phase_of(item.layer, {"hops": hops, "files": files})
        assert placement.reason.startswith(f"phase {placement.phase}: Layer {item.layer}, ")
        assert placement.reason.endswith(")")  # the deciding threshold is named, not a generic fallback


def test_missing_features_are_taken_as_the_rule_does_and_said() -> None:
    placement = place(task(difficulty={}))
    assert placement.phase == 1
    assert (
        placement.reason
        == "phase 1: Layer 1, 1 file, 0 hops (at most 2); not recorded, taken as hops 0, files 1"
    )


def test_a_feature_that_is_not_a_count_is_an_error() -> None:
    bad = task(difficulty={"hops": "many", "files": 1})
    with pytest.raises(CurriculumError, match=r"difficulty\.hops: expected a non-negative integer"):
        place(bad)


# pass rates ------------------------------------------------------------------------------------------------


def test_pass_rates_count_samples_and_skip_lines_without_a_task(tmp_path: Path) -> None:
    lines = score_lines({"callers-a": [True, False, False, True], "callees-b": [True]})
    lines.append(json.dumps({"line": 9, "task_id": None, "value": 0.0, "passed": False, "error": "not JSON"}))
    path = tmp_path / "scores.jsonl"
    path.write_text("\n".join(lines) + "\n\n", encoding="utf-8")
    scores = read_scores(path)
    assert scores.unattributed == 1
    assert scores.rates["callers-a"] == PassRate("callers-a", 4, 2, 0.625)
    assert scores.rates["callers-a"].rate == 0.5
    assert pass_rates(path)["callees-b"].samples == 1


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{broken", "not JSON"),
        ("[1, 2]", "expected a JSON object, got list"),
        ('{"task_id": 7, "passed": true, "value": 1.0}', "task_id: expected a task id string or null"),
        ('{"task_id": "callers-a", "passed": "yes", "value": 1.0}', "passed: expected true or false"),
        ('{"task_id": "callers-a", "passed": false, "value": 2.5}', r"value: expected a number in \[0, 1\]"),
    ],
)
def test_a_malformed_score_line_names_file_and_line(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "scores.jsonl"
    path.write_text(score_lines({"callers-a": [True]})[0] + "\n" + line + "\n", encoding="utf-8")
    with pytest.raises(CurriculumError, match=rf"scores\.jsonl:2: {message}"):
        read_scores(path)


# repository categories -------------------------------------------------------------------------------------


def test_categories_come_from_the_shipped_manifests() -> None:
    categories = repository_categories()
    assert category_of("pluggy", categories) == "plugin system"
    assert category_of("Docstring_Parser", categories) == "docstring parsing"
    assert category_of("pluggy-1.7.0", categories) == "plugin system"  # a local checkout's folder name
    assert category_of("my-own-project", categories) == UNCATEGORISED


# phase 4 ---------------------------------------------------------------------------------------------------


def test_phase_4_keeps_only_tasks_solved_sometimes() -> None:
    tasks = [task(n=n) for n in range(6)]
    rates = {
        tasks[0].id: rate(tasks[0].id, 2),
        tasks[1].id: rate(tasks[1].id, 4),  # always
        tasks[2].id: rate(tasks[2].id, 0),  # never
        tasks[3].id: rate(tasks[3].id, 1, samples=1),  # one sample: not judged
        tasks[4].id: rate(tasks[4].id, 3),
        "callers-00000000000000000000": rate("callers-00000000000000000000", 2),
    }
    selection = adaptive(tasks, rates, categories=CATEGORIES)
    verdicts = {j.task_id: j.verdict for j in selection.judgements}
    assert verdicts == {
        tasks[0].id: Verdict.KEPT,
        tasks[1].id: Verdict.ALWAYS,
        tasks[2].id: Verdict.NEVER,
        tasks[3].id: Verdict.FEW_SAMPLES,
        tasks[4].id: Verdict.KEPT,
        tasks[5].id: Verdict.UNSCORED,
    }
    assert selection.kept == (tasks[0].id, tasks[4].id)  # p = 0.5 is more informative than p = 0.75
    assert selection.unknown == ("callers-00000000000000000000",)
    reasons = {j.task_id: j.reason for j in selection.judgements}
    assert (
        reasons[tasks[0].id]
        == "kept: passed 2 of 4 samples (rate 0.50), 1st of 2 in stratum (callers, plugin system)"
    )
    assert reasons[tasks[1].id] == "dropped, always solved: passed 4 of 4 samples (rate 1.00)"
    assert reasons[tasks[3].id] == "not judged: passed 1 of 1 sample (rate 1.00), 2 needed"
    (report,) = selection.report("kind")
    assert (report.name, report.tasks, report.in_band, report.mean_rate_kept) == ("callers", 6, 2, 0.625)
    assert report.mean_rate_scored == pytest.approx((0.5 + 1 + 0 + 1 + 0.75) / 5)


def test_a_narrower_band_drops_the_nearly_always_solved() -> None:
    tasks = [task(n=n) for n in range(3)]
    rates = {t.id: rate(t.id, passed, samples=10) for t, passed in zip(tasks, (1, 5, 9), strict=True)}
    selection = adaptive(tasks, rates, settings=AdaptiveSettings(band=(0.1, 0.9)), categories=CATEGORIES)
    assert selection.kept == (tasks[1].id,)
    verdicts = [j.verdict for j in selection.judgements if j.task_id != tasks[1].id]
    assert sorted(verdicts) == sorted([Verdict.NEVER, Verdict.ALWAYS])


def skewed() -> tuple[list[Task], dict[str, PassRate]]:
    """Ten sometimes-solved callers tasks, two callees, two subclasses (all pluggy), two callers of
    parsimonious: strata of 10, 2, 2 and 2."""
    tasks = [task("callers", n=n) for n in range(10)]
    tasks += [task("callees", n=n) for n in range(2)]
    tasks += [task("subclasses", n=n) for n in range(2)]
    tasks += [task("callers", repo="parsimonious", n=n) for n in range(2)]
    rates = {t.id: rate(t.id, 1 + index % 3) for index, t in enumerate(tasks)}
    return tasks, rates


def kept_by_stratum(tasks: list[Task], kept: tuple[str, ...]) -> Counter[tuple[str, str]]:
    by_id = {t.id: t for t in tasks}
    return Counter((by_id[i].kind.value, CATEGORIES[by_id[i].repo.name]) for i in kept)


def test_phase_4_gives_every_kind_and_category_the_same_quota() -> None:
    tasks, rates = skewed()
    selection = adaptive(tasks, rates, categories=CATEGORIES)
    assert selection.quota == 2  # the median stratum
    assert kept_by_stratum(tasks, selection.kept) == {
        ("callers", "plugin system"): 2,
        ("callees", "plugin system"): 2,
        ("subclasses", "plugin system"): 2,
        ("callers", "PEG parsing"): 2,
    }
    over = [j for j in selection.judgements if j.verdict is Verdict.OVER_QUOTA]
    assert len(over) == 8
    assert all(j.reason.endswith("over its quota 2") for j in over)
    # the kept callers of pluggy are its most informative ones (pass rate 0.5)
    kept_rates = {rates[i].rate for i in selection.kept if i in {t.id for t in tasks[:10]}}
    assert kept_rates == {0.5}
    by_category = {r.name: (r.tasks, r.in_band) for r in selection.report("category")}
    assert by_category == {"PEG parsing": (2, 2), "plugin system": (14, 14)}


def test_phase_4_quota_and_size_options() -> None:
    tasks, rates = skewed()
    wider = adaptive(tasks, rates, settings=AdaptiveSettings(per_stratum=3), categories=CATEGORIES)
    assert kept_by_stratum(tasks, wider.kept)[("callers", "plugin system")] == 3
    assert len(wider.kept) == 9
    capped = adaptive(tasks, rates, settings=AdaptiveSettings(size=5), categories=CATEGORIES)
    assert capped.quota is None
    strata = kept_by_stratum(tasks, capped.kept)
    assert len(capped.kept) == 5
    assert set(strata) == {  # every stratum's best comes before any stratum's second
        ("callers", "plugin system"),
        ("callees", "plugin system"),
        ("subclasses", "plugin system"),
        ("callers", "PEG parsing"),
    }
    every = adaptive(tasks, rates, settings=AdaptiveSettings(size=100), categories=CATEGORIES)
    assert len(every.kept) == 16
    assert kept_by_stratum(tasks, every.kept[:4]) == Counter(dict.fromkeys(strata, 1))


def test_the_seed_only_breaks_ties() -> None:
    tasks = [task(n=n) for n in range(12)]
    rates = {t.id: rate(t.id, 2) for t in tasks}  # all equally informative
    picks = {
        seed: adaptive(tasks, rates, settings=AdaptiveSettings(size=3, seed=seed), categories=CATEGORIES).kept
        for seed in range(8)
    }
    assert len(set(picks.values())) > 1
    again = adaptive(tasks, rates, settings=AdaptiveSettings(size=3, seed=5), categories=CATEGORIES)
    assert again.kept == picks[5]
    better = {**rates, tasks[7].id: rate(tasks[7].id, 3, samples=6)}  # p = 0.5 on more samples wins
    for seed in range(8):
        settings = AdaptiveSettings(size=1, seed=seed)
        assert adaptive(tasks, better, settings=settings, categories=CATEGORIES).kept == (tasks[7].id,)


def test_settings_are_checked() -> None:
    with pytest.raises(CurriculumError, match="band"):
        AdaptiveSettings(band=(0.8, 0.2))
    with pytest.raises(CurriculumError, match="size"):
        AdaptiveSettings(size=0)


# reading and writing ---------------------------------------------------------------------------------------


def generate_layout(root: Path, tasks: list[Task]) -> Path:
    """A directory shaped like ``dure generate`` output: one shard per repository plus reports."""
    by_repo: dict[str, list[Task]] = {}
    for item in tasks:
        by_repo.setdefault(item.repo.name, []).append(item)
    for name, shard in by_repo.items():
        (root / "tasks").mkdir(parents=True, exist_ok=True)
        write_tasks(root / "tasks" / f"{name}-1.0.jsonl", shard)
        (root / "reports").mkdir(exist_ok=True)
        (root / "reports" / f"{name}-1.0.json").write_text("{}", encoding="utf-8")
    return root


def mixed_tasks() -> list[Task]:
    return [
        task("callers", hops=1, files=1, n=1),
        task("callers", hops=1, files=3, n=2),
        task("callees", repo="parsimonious", hops=2, files=1, n=3),
        task("causal-chain", repo="parsimonious", hops=4, files=2, n=4),
        task("change-impact", hops=11, files=4, n=5),
    ]


def test_written_phases_set_the_phase_and_keep_the_id(tmp_path: Path) -> None:
    tasks = mixed_tasks()
    write_curriculum(tmp_path, make_curriculum(tasks))
    found = {n: read_tasks(tmp_path / f"phase-{n}.jsonl") for n in (1, 2, 3)}  # ids are checked on reading
    assert {n: sorted(t.id for t in found[n]) for n in found} == {
        1: sorted([tasks[0].id, tasks[2].id]),
        2: sorted([tasks[1].id, tasks[3].id]),
        3: [tasks[4].id],
    }
    assert all(t.phase == n for n, listed in found.items() for t in listed)
    assert not (tmp_path / "phase-4.jsonl").exists()


def test_a_task_stamped_with_another_phase_is_moved_and_the_move_recorded(tmp_path: Path) -> None:
    stamped = dataclasses.replace(task(hops=1, files=1), phase=3)
    document = write_curriculum(tmp_path, make_curriculum([stamped]))
    assert document["restamped"] == 1
    (placement,) = document["placements"]
    assert (placement["phase"], placement["stamped_phase"]) == (1, 3)
    (moved,) = read_tasks(tmp_path / "phase-1.jsonl")
    assert (moved.id, moved.phase) == (stamped.id, 1)


def test_cli_on_a_generate_directory_and_on_one_file_gives_the_same_bytes(tmp_path: Path) -> None:
    tasks = mixed_tasks()
    layout = generate_layout(tmp_path / "gen", tasks)
    single = tmp_path / "tasks.jsonl"
    write_tasks(single, reversed(tasks))
    scores = tmp_path / "scores.jsonl"
    scores.write_text("\n".join(score_lines({t.id: [True, False] for t in tasks})) + "\n", encoding="utf-8")
    outputs = []
    for source, out in [(layout, "a"), (single, "b"), (layout, "c")]:
        result = invoke(source, "--out", tmp_path / out, "--scores", scores, "--per-stratum", "2")
        assert result.return_value == ExitCode.OK, result.output
        outputs.append({p.name: p.read_bytes() for p in sorted((tmp_path / out).iterdir())})
    assert outputs[0] == outputs[1] == outputs[2]
    assert sorted(outputs[0]) == ["curriculum.json"] + [f"phase-{n}.jsonl" for n in (1, 2, 3, 4)]
    assert "phase 1" in result.stdout
    assert "plugin system" in result.stdout
    assert "PEG parsing" in result.stdout
    document = json.loads(outputs[0]["curriculum.json"])
    assert document["phases"]["3"] == {"change-impact": 1}
    assert document["phases"]["4"] == {"callees": 1, "callers": 2, "causal-chain": 1, "change-impact": 1}
    placement = next(p for p in document["placements"] if p["id"] == tasks[1].id)
    assert placement["reason"] == "phase 2: Layer 1, 3 files (more than 1)"
    assert placement["category"] == "plugin system"
    assert placement["phase_4"]["verdict"] == "kept"
    assert placement["phase_4"]["pass_rate"] == 0.5
    assert document["phase_4"]["by_kind"]["callers"]["kept"] == 2


def test_cli_without_scores_writes_phases_1_to_3_and_removes_a_stale_phase_4(tmp_path: Path) -> None:
    single = tmp_path / "tasks.jsonl"
    write_tasks(single, [task(n=1)])
    out = tmp_path / "out"
    out.mkdir()
    (out / "phase-4.jsonl").write_text("old\n", encoding="utf-8")
    result = invoke(single, "--out", out)
    assert result.return_value == ExitCode.OK
    assert sorted(p.name for p in out.iterdir()) == [
        "curriculum.json",
        "phase-1.jsonl",
        "phase-2.jsonl",
        "phase-3.jsonl",
    ]
    assert (out / "phase-3.jsonl").read_text() == ""  # empty phases still get their file
    assert "phase 3" in result.stdout
    assert "phase 4" not in result.stdout
    assert json.loads((out / "curriculum.json").read_text())["phase_4"] is None


def test_cli_reports_scored_ids_that_are_not_tasks(tmp_path: Path) -> None:
    single = tmp_path / "tasks.jsonl"
    write_tasks(single, [task(n=1)])
    scores = tmp_path / "scores.jsonl"
    scores.write_text("\n".join(score_lines({"callers-ffffffffffffffffffff": [True, False]})) + "\n")
    result = invoke(single, "--out", tmp_path / "out", "--scores", scores)
    assert result.return_value == ExitCode.OK
    assert "1 scored task id is not in TASKS" in result.stderr
    document = json.loads((tmp_path / "out" / "curriculum.json").read_text())
    assert document["phase_4"]["unknown_task_ids"] == ["callers-ffffffffffffffffffff"]


def test_a_corrupt_task_line_is_an_error_naming_file_and_line(tmp_path: Path) -> None:
    layout = generate_layout(tmp_path / "gen", mixed_tasks())
    shard = layout / "tasks" / "pluggy-1.0.jsonl"
    shard.write_text(shard.read_text() + '{"id": "callers-x"\n', encoding="utf-8")
    out = tmp_path / "out"
    result = invoke(layout, "--out", out)
    assert result.return_value == ExitCode.ERROR
    assert "dure: error:" in result.stderr
    assert f"{shard}:4:" in result.stderr
    assert not out.exists()  # nothing written


def test_a_malformed_score_line_is_an_error_and_nothing_is_written(tmp_path: Path) -> None:
    single = tmp_path / "tasks.jsonl"
    write_tasks(single, [task(n=1)])
    scores = tmp_path / "scores.jsonl"
    scores.write_text('{"task_id": "callers-a", "passed": 1, "value": 1.0}\n', encoding="utf-8")
    out = tmp_path / "out"
    result = invoke(single, "--out", out, "--scores", scores)
    assert result.return_value == ExitCode.ERROR
    assert f"dure: error: {scores}:1: passed: expected true or false, got 1" in result.stderr
    assert not out.exists()


def test_a_duplicate_task_id_and_an_empty_directory_are_errors(tmp_path: Path) -> None:
    (tmp_path / "tasks").mkdir()
    with pytest.raises(CurriculumError, match="no task files"):
        load_tasks(tmp_path)
    write_tasks(tmp_path / "tasks" / "a.jsonl", [task(n=1)])
    write_tasks(tmp_path / "tasks" / "b.jsonl", [task(n=1)])
    with pytest.raises(CurriculumError, match="appears more than once"):
        load_tasks(tmp_path)


def test_cli_rejects_an_empty_band(tmp_path: Path) -> None:
    single = tmp_path / "tasks.jsonl"
    write_tasks(single, [task(n=1)])
    scores = tmp_path / "scores.jsonl"
    scores.write_text("\n".join(score_lines({"callers-a": [True, False]})) + "\n", encoding="utf-8")
    args = ["curriculum", str(single), "--out", str(tmp_path / "o"), "--scores", str(scores)]
    result = CliRunner().invoke(cli, [*args, "--band", "0.6", "0.4"])
    assert result.exit_code == ExitCode.USAGE
    assert "LOW must be below HIGH" in result.output


def test_cli_phase_4_options_need_scores(tmp_path: Path) -> None:
    single = tmp_path / "tasks.jsonl"
    write_tasks(single, [task(n=1)])
    result = CliRunner().invoke(cli, ["curriculum", str(single), "--out", str(tmp_path / "o"), "--size", "5"])
    assert result.exit_code == ExitCode.USAGE
    assert "--size choose phase 4 and need --scores" in result.output
    assert not (tmp_path / "o").exists()

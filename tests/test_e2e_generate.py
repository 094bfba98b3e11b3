"""``dure generate --layer 1`` on the default corpus, end to end (slow: fetches packages, runs their tests).

Checks what a run promises: at least 50 tasks of every Layer-1 kind; every line valid under the task schema;
every reference answer scores 1.0; two runs byte-identical (one serial, one with a process pool); and for
every type-completion and dead-code task, the workspace patch applies and the repository's own tests still
pass on the patched tree (patches of different files are checked together, one test run per group; the
tasks of a failing group are then run one by one).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from evidence_support import sandbox_python

from dure.cli import main
from dure.corpus import load_manifest
from dure.generators import kinds_of_layer
from dure.scoring import score
from dure.tasks import read_tasks, validate_task_json
from dure.tasks.codec import loads
from dure.tasks.frozen import thaw
from dure.tasks.model import Task, TaskKind
from dure.verifiers._evidence import PYTHON_ENV
from dure.workspace import apply_patch, materialise, parse_patch

pytestmark = pytest.mark.slow

PER_REPO = 20
MIN_PER_KIND = 50
PATCHED_KINDS = (TaskKind.TYPE_COMPLETION, TaskKind.DEAD_CODE)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    first, second = tmp_path_factory.mktemp("first"), tmp_path_factory.mktemp("second")
    saved = os.environ.get(PYTHON_ENV)
    os.environ[PYTHON_ENV] = sandbox_python()  # the sandbox user cannot run this venv's python as root
    common = ["generate", "--layer", "1", "--per-repo", str(PER_REPO), "--seed", "3"]
    try:
        assert main([*common, "--out", str(first), "--workers", "1"]) == 0
        assert main([*common, "--out", str(second), "--workers", "2"]) == 0
        yield first, second
    finally:
        if saved is None:
            os.environ.pop(PYTHON_ENV, None)
        else:
            os.environ[PYTHON_ENV] = saved


def _tasks(out: Path) -> list[Task]:
    return [task for shard in sorted((out / "tasks").glob("*.jsonl")) for task in read_tasks(shard)]


def test_every_layer_1_kind_has_enough_tasks(runs: tuple[Path, Path]) -> None:
    counts = Counter(task.kind for task in _tasks(runs[0]))
    short = {kind.value: counts[kind] for kind in kinds_of_layer(1) if counts[kind] < MIN_PER_KIND}
    assert not short, f"kinds with fewer than {MIN_PER_KIND} tasks: {short}"


def test_every_line_is_valid_and_every_reference_scores_one(runs: tuple[Path, Path]) -> None:
    for shard in sorted((runs[0] / "tasks").glob("*.jsonl")):
        for line in shard.read_text(encoding="utf-8").splitlines():
            validate_task_json(loads(line))
    for task in _tasks(runs[0]):
        result = score(task, json.dumps(thaw(task.answer)))
        assert result.passed, (task.id, result.error, thaw(result.details))


def test_two_runs_are_byte_identical(runs: tuple[Path, Path]) -> None:
    first, second = (sorted((out / "tasks").glob("*.jsonl")) for out in runs)
    assert [p.name for p in first] == [p.name for p in second]
    for a, b in zip(first, second, strict=True):
        assert a.read_bytes() == b.read_bytes(), a.name


def test_the_trace_cross_check_ran_and_is_reported(runs: tuple[Path, Path]) -> None:
    reports = [json.loads(p.read_text()) for p in sorted((runs[0] / "reports").glob("*.json"))]
    checked = {r["repository"]: r["trace"] for r in reports if r["trace"].get("checked")}
    assert len(checked) >= 4, [r["trace"] for r in reports]
    for trace in checked.values():
        assert trace["miss_rate"] is not None
        assert trace["miss_rate"] < 0.1


def _batches(tasks: list[Task]) -> list[list[Task]]:
    """Tasks grouped so that no two in a group patch the same file (one test run checks a whole group)."""
    groups: list[tuple[str, set[str], list[Task]]] = []
    for task in tasks:
        files = {patch.path for patch in parse_patch(task.workspace)}
        for repo, taken, members in groups:
            if repo == task.repo.name and not taken & files:
                taken.update(files)
                members.append(task)
                break
        else:
            groups.append((task.repo.name, files, [task]))
    return [members for _, _, members in groups]


def _tests_pass(tasks: list[Task], scratch: Path) -> tuple[list[str], int, str]:
    """Run the repository's tests once on a tree with every task's patch applied."""
    first = tasks[0]
    spec = load_manifest("default").get(first.repo.name)
    assert spec is not None
    assert spec.tests is not None
    tree = materialise(first, scratch / first.id)
    for task in tasks[1:]:
        apply_patch(tree, parse_patch(task.workspace))
    argv = [sys.executable if spec.tests.command[0] == "python" else spec.tests.command[0]]
    argv += [*spec.tests.command[1:], "-x", "-W", "ignore"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tree), str(tree / "src")])}
    run = subprocess.run(argv, cwd=tree, env=env, capture_output=True, text=True, timeout=900, check=False)
    return [task.id for task in tasks], run.returncode, run.stdout[-1500:] + run.stderr[-500:]


def test_patched_workspaces_apply_and_keep_the_tests_passing(runs: tuple[Path, Path], tmp_path: Path) -> None:
    patched = [task for task in _tasks(runs[0]) if task.kind in PATCHED_KINDS]
    assert patched
    by_id = {task.id: task for task in patched}
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda group: _tests_pass(group, tmp_path), _batches(patched)))
    suspects = [task_id for ids, code, _ in results if code != 0 for task_id in ids]
    with ThreadPoolExecutor(max_workers=2) as pool:  # a failing group: find the task that breaks the tests
        alone = list(pool.map(lambda task_id: _tests_pass([by_id[task_id]], tmp_path / "alone"), suspects))
    failed = [(ids[0], output) for ids, code, output in alone if code != 0]
    assert not failed, failed[:3]


def _answers(tasks: list[Task], path: Path) -> None:
    """Two samples per task: both right for every third task, both malformed for the next, else one each."""
    lines = []
    for number, task in enumerate(sorted(tasks, key=lambda t: t.id)):
        right = {"task_id": task.id, "answer": thaw(task.answer)}
        malformed = {"task_id": task.id, "completion": "no answer here"}
        pair = [(right, right), (malformed, malformed), (right, malformed)][number % 3]
        lines += [json.dumps(sample) for sample in pair]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_tasks_go_through_curriculum_export_datasets_every_adapter_and_the_report(
    runs: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The README's path from generated tasks to a trainer: every reference answer scores 1.0 through every
    adapter, called as its trainer calls it, on rows loaded back with the real datasets library."""
    datasets = pytest.importorskip("datasets")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    tasks = {task.id: task for task in _tasks(runs[0])}
    answers, scores = tmp_path / "answers.jsonl", tmp_path / "scores.jsonl"
    _answers(list(tasks.values()), answers)
    all_tasks = tmp_path / "tasks.jsonl"
    all_tasks.write_text("".join(p.read_text() for p in sorted((runs[0] / "tasks").glob("*.jsonl"))))
    assert main(["score", str(all_tasks), str(answers), "--out", str(scores), "--workers", "0"]) == 0

    curriculum, export = tmp_path / "curriculum", tmp_path / "export"
    assert main(["curriculum", str(runs[0]), "--out", str(curriculum), "--scores", str(scores)]) == 0
    phase_4 = read_tasks(curriculum / "phase-4.jsonl")
    ordered = sorted(tasks)
    sometimes = {task_id for number, task_id in enumerate(ordered) if number % 3 == 2}
    assert phase_4
    assert {task.id for task in phase_4} <= sometimes  # never the always- or never-solved tasks
    assert main(["export", str(curriculum), "--out", str(export)]) == 0

    cache = str(tmp_path / "hf-cache")
    loaded = datasets.load_dataset(str(export), cache_dir=cache)
    rows = [row for split in loaded.values() for row in split]
    assert {row["task_id"] for row in rows} == set(tasks)
    repositories = {split: {row["extra_info"]["repo_name"] for row in loaded[split]} for split in loaded}
    assert sum(len(names) for names in repositories.values()) == len(set().union(*repositories.values()))
    for kind in {task.kind.value for task in tasks.values()}:
        one_kind = datasets.load_dataset(str(export), kind, cache_dir=cache)
        assert sum(len(split) for split in one_kind.values()) > 0

    from dure.integrations import openrlhf, rllm, skyrl, trl, verl  # noqa: PLC0415 - after the run

    replies = [f"Answer:\n<answer>{json.dumps(thaw(tasks[row['task_id']].answer))}</answer>" for row in rows]
    for row, reply in zip(rows, replies, strict=True):  # verl's naive reward manager, keyword arguments
        result = verl.compute_score(
            data_source=row["data_source"],
            solution_str=reply,
            ground_truth=row["reward_model"]["ground_truth"],
            extra_info=row["extra_info"],
        )
        assert result["score"] == 1.0, (row["task_id"], result["error"])
    columns = {key: [row[key] for row in rows] for key in rows[0] if key != "prompt"}
    assert trl.reward_func(prompts=[r["prompt"] for r in rows], completions=replies, **columns) == [
        1.0
    ] * len(rows)
    prompts = [row["prompt"][-1]["content"] for row in rows]
    labels = [row["label"] for row in rows]
    queries = [prompt + reply for prompt, reply in zip(prompts, replies, strict=True)]
    assert list(openrlhf.reward_func(queries, prompts, labels)["rewards"]) == [1.0] * len(rows)
    for row, reply in zip(rows[:50], replies, strict=False):
        assert skyrl.DureTextEnv(env_config={}, extras=row).step(reply)["reward"] == 1.0
        assert rllm.dure_reward_fn(task_info=row, action=reply).reward == 1.0

    verifiers_env = pytest.importorskip("dure.integrations.verifiers_env")
    taskset = verifiers_env.DureTaskset(verifiers_env.DureTasksetConfig(path=export, split="train"))
    assert {task.data.id for task in taskset} == {row["task_id"] for row in loaded["train"]}

    assert main(["report", str(export), "--scores", str(scores)]) == 0
    page = (export / "report.html").read_text(encoding="utf-8")
    assert "Scores" in page
    assert page.count("<svg") >= 8

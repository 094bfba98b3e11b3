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

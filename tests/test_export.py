"""``dure export``: the folder loads with the real ``datasets``, splits by repository, scores back to 1."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from dure.cli import main
from dure.cli._base import ExitCode
from dure.export import ExportSettings, export_tasks
from dure.export.splits import split_sizes
from dure.integrations.core import reward, task_of
from dure.tasks import RepoRef, Task, VerifierSpec, make_task, thaw, write_tasks
from dure.tasks.frozen import freeze_object

datasets = pytest.importorskip("datasets")

STRINGS = {"type": "array", "items": {"type": "string"}}
REPOS = [RepoRef(f"repo{i}", f"1.{i}", "pypi", f"{i:x}" * 64) for i in range(4)]


@pytest.fixture(autouse=True)
def _offline_datasets(monkeypatch: pytest.MonkeyPatch) -> None:
    """``datasets`` never goes to the network (its cache is passed to every load: see :func:`load`)."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")


HF_CACHE: list[Path] = []  # one cache for the whole module, under pytest's temporary folder


@pytest.fixture(autouse=True)
def _datasets_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    if not HF_CACHE:
        HF_CACHE.append(tmp_path_factory.mktemp("hf-cache"))


def callers_task(repo: RepoRef, n: int, phase: int = 1) -> Task:
    params = {"ignored": [], "forbidden": [], "candidates": [f"pkg.other{n}"]}
    return make_task(
        kind="callers",
        repo=repo,
        prompt=f"List every direct caller of pkg.f{n}.",
        inputs={"symbol": f"pkg.f{n}"},
        answer=[f"pkg.a{n}", f"pkg.b{n}"],
        answer_schema=STRINGS,
        verifier=VerifierSpec("set", freeze_object(params)),
        phase=phase,
        difficulty={"hops": 1},
        provenance={"dure": "0.1.0", "seed": 7},
    )


def path_task(repo: RepoRef, phase: int = 2) -> Task:
    edges = [["a", "b"], ["b", "c"], ["a", "x"], ["x", "y"], ["y", "c"]]
    return make_task(
        kind="call-path",
        repo=repo,
        prompt="Give a shortest call path from a to c.",
        inputs={"source": "a", "target": "c"},
        answer=["a", "b", "c"],
        answer_schema=STRINGS,
        verifier=VerifierSpec("path", freeze_object({"graph": edges, "source": "a", "target": "c"})),
        phase=phase,
        difficulty={"hops": 2, "files": 1},
    )


def definition_task(repo: RepoRef, workspace: str = "") -> Task:
    return make_task(
        kind="definition",
        repo=repo,
        prompt="Where is the function that parses headers defined?",
        inputs={"description": "parses headers"},
        answer={"file": "pkg/http.py", "qualname": "pkg.http.parse_headers"},
        answer_schema={"type": "object"},
        verifier=VerifierSpec("exact"),
        workspace=workspace,
    )


PATCH = "--- a/pkg/http.py\n+++ b/pkg/http.py\n@@ -1,1 +1,1 @@\n-x: int = 1\n+x = 1\n"


def sample_tasks() -> list[Task]:
    tasks: list[Task] = []
    for i, repo in enumerate(REPOS):
        tasks += [callers_task(repo, 0), callers_task(repo, 1), path_task(repo)]
        tasks.append(definition_task(repo, PATCH if i == 0 else ""))
    return tasks


@pytest.fixture
def tasks_file(tmp_path: Path) -> Path:
    path = tmp_path / "tasks.jsonl"
    write_tasks(path, sample_tasks())
    return path


@pytest.fixture
def exported(tasks_file: Path, tmp_path: Path) -> Path:
    out = tmp_path / "export"
    code = main(["export", str(tasks_file), "--out", str(out)])
    assert code == ExitCode.OK
    return out


def load(folder: Path, config: str | None = None) -> Any:
    """``datasets.load_dataset`` with one cache shared by every test of the module, as a user's would be."""
    return datasets.load_dataset(str(folder), config, cache_dir=str(HF_CACHE[0]))


def sizes(loaded: Any) -> dict[str, int]:
    return {split: loaded[split].num_rows for split in loaded}


def test_the_folder_loads_by_default_phase_and_kind_with_the_expected_counts(exported: Path) -> None:
    # 4 repositories at 0.8/0.1/0.1: 2 train, 1 validation, 1 test; 4 tasks a repository
    assert sizes(load(exported)) == {"train": 8, "validation": 4, "test": 4}
    assert sizes(load(exported, "all")) == {"train": 8, "validation": 4, "test": 4}
    assert sizes(load(exported, "phase-1")) == {"train": 6, "validation": 3, "test": 3}
    assert sizes(load(exported, "phase-2")) == {"train": 2, "validation": 1, "test": 1}
    assert sizes(load(exported, "callers")) == {"train": 4, "validation": 2, "test": 2}
    assert sizes(load(exported, "call-path")) == {"train": 2, "validation": 1, "test": 1}


def test_rows_split_by_repository_and_score_back_to_one(exported: Path) -> None:
    loaded = load(exported)
    originals = {task.id: task for task in sample_tasks()}
    repos_of: dict[str, set[str]] = {}
    info_keys = set()
    columns = None
    for split in loaded:
        for row in loaded[split]:
            columns = columns or list(row)
            assert list(row) == columns
            repos_of.setdefault(row["extra_info"]["repo_sha256"], set()).add(split)
            info_keys.add(tuple(row["extra_info"]))
            assert row["info"] == row["extra_info"]
            assert row["extra_info"]["split"] == split
            assert row["data_source"] == f"dure/{row['task_kind']}"
            truth = row["reward_model"]["ground_truth"]
            assert row["reward_spec"]["ground_truth"] == row["answer"] == truth
            assert json.loads(row["label"]) == {"task_id": row["task_id"], "ground_truth": truth}
            task = task_of(truth)
            assert task.id == row["task_id"]
            assert task.id in originals
            assert [m["role"] for m in row["prompt"]] == ["system", "user"]
            assert row["prompt"][1]["content"] == row["question"] == originals[task.id].prompt
            assert row["extra_info"]["workspace"] == task.workspace
            if task.workspace:  # the patch is never shown: its removed lines can be the answer
                assert "x: int" not in row["prompt"][0]["content"]
            answer = json.dumps(thaw(originals[task.id].answer))
            assert reward(f"<answer>{answer}</answer>", truth).value == 1.0
    assert all(len(splits) == 1 for splits in repos_of.values())
    assert len(repos_of) == len(REPOS)
    assert len(info_keys) == 1
    indexes = [row["extra_info"]["index"] for split in loaded for row in loaded[split]]
    assert sorted(indexes) == list(range(16))


def test_manifest_records_every_file_and_two_exports_are_identical(
    exported: Path, tasks_file: Path, tmp_path: Path
) -> None:
    manifest = json.loads((exported / "dure_manifest.json").read_text(encoding="utf-8"))
    listed = {entry["path"]: entry for entry in manifest["files"]}
    on_disk = {p.relative_to(exported).as_posix() for p in exported.rglob("*") if p.is_file()}
    assert set(listed) == on_disk - {"dure_manifest.json"}
    for path, entry in listed.items():
        assert hashlib.sha256((exported / path).read_bytes()).hexdigest() == entry["sha256"]
    assert sum(e["rows"] for e in listed.values() if "rows" in e) == 16 == manifest["rows"]["total"]
    assert manifest["recorded"]["seeds"] == [7]
    assert {r["name"] for r in manifest["repositories"]} == {r.name for r in REPOS}
    assert {r["split"] for r in manifest["repositories"]} == {"train", "validation", "test"}

    again = tmp_path / "again"
    export_tasks(tasks_file, again)
    for path in on_disk:
        assert (again / path).read_bytes() == (exported / path).read_bytes(), path


def test_trainer_file_lists_name_existing_files(exported: Path) -> None:
    lists = json.loads((exported / "trainers" / "files.json").read_text(encoding="utf-8"))
    assert set(lists) == {"all", "phase-1", "phase-2"}
    for config, splits in lists.items():
        for split, paths in splits.items():
            assert paths
            assert all((exported / p).is_file() for p in paths)
            text = (exported / "trainers" / "files" / f"{config}.{split}.txt").read_text(encoding="utf-8")
            assert text.split() == paths
    overrides = (exported / "trainers" / "verl" / "phase-1.overrides").read_text(encoding="utf-8")
    assert overrides.startswith("data.train_files=['data/1/")
    assert "data.val_files=" in overrides
    assert "custom_reward_function.name=compute_score" in (exported / "trainers" / "README.md").read_text()


def test_fewer_than_three_repositories_all_train(tmp_path: Path) -> None:
    source = tmp_path / "two.jsonl"
    write_tasks(source, [callers_task(REPOS[0], 0), callers_task(REPOS[1], 1), path_task(REPOS[1])])
    result = export_tasks(source, tmp_path / "out")
    assert {split for split, _, _ in result.counts} == {"train"}
    assert sizes(load(tmp_path / "out")) == {"train": 3}
    assert sizes(load(tmp_path / "out", "call-path")) == {"train": 1}
    assert split_sizes(2, (0.8, 0.1, 0.1)) == (2, 0, 0)
    assert split_sizes(3, (0.8, 0.1, 0.1)) == (1, 1, 1)
    assert split_sizes(10, (0.8, 0.1, 0.1)) == (8, 1, 1)


def test_curriculum_folder_phase_is_the_file_and_the_mix_keeps_tasks_in_their_phase(tmp_path: Path) -> None:
    folder = tmp_path / "curriculum"
    folder.mkdir()
    one = [callers_task(repo, 0) for repo in REPOS]
    only_in_mix = callers_task(REPOS[0], 5)
    write_tasks(folder / "phase-1.jsonl", one)
    write_tasks(folder / "phase-2.jsonl", [path_task(repo) for repo in REPOS])
    mix = [dataclasses.replace(task, phase=4) for task in (one[0], only_in_mix)]  # as dure curriculum writes
    write_tasks(folder / "phase-4.jsonl", mix)
    (folder / "curriculum.json").write_text('{"phases": 4}\n', encoding="utf-8")
    out = tmp_path / "out"
    export_tasks(folder, out)
    assert sum(sizes(load(out, "phase-4")).values()) == 2
    assert sum(sizes(load(out, "phase-2")).values()) == 4
    # the mix-only task goes home to the phase its difficulty gives (one file, one hop: phase 1)
    assert sum(sizes(load(out, "phase-1")).values()) == 5
    assert sum(sizes(load(out)).values()) == 9  # every task once: the mix is left out of "all"
    assert sum(sizes(load(out, "callers")).values()) == 5

    only = tmp_path / "only-4"
    result = export_tasks(folder, only, ExportSettings(phases=frozenset({4})))
    assert {phase for _, phase, _ in result.counts} == {4}
    assert sum(sizes(load(only)).values()) == 2


def test_bad_input_is_an_error_naming_file_and_line_and_writes_nothing(
    tasks_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = tasks_file.read_text(encoding="utf-8").splitlines()
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join([lines[0], "{not json", *lines[1:]]) + "\n", encoding="utf-8")
    out = tmp_path / "never"
    assert main(["export", str(broken), "--out", str(out)]) == ExitCode.ERROR
    assert f"dure: error: {broken}:2:" in capsys.readouterr().err
    assert not out.exists()
    assert not list(tmp_path.glob(".never*"))

    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n", encoding="utf-8")
    assert main(["export", str(empty), "--out", str(out)]) == ExitCode.ERROR
    assert "no tasks" in capsys.readouterr().err
    assert main(["export", str(tmp_path / "missing.jsonl"), "--out", str(out)]) == ExitCode.ERROR
    assert main(["export", str(tasks_file), "--out", str(out), "--phase", "3"]) == ExitCode.ERROR
    assert main(["export", str(tasks_file), "--out", str(out), "--fractions", "0.5,0.6"]) == ExitCode.ERROR
    assert not out.exists()


def test_refuses_a_folder_that_is_not_an_export_unless_forced(
    exported: Path, tasks_file: Path, tmp_path: Path
) -> None:
    assert main(["export", str(tasks_file), "--out", str(exported)]) == ExitCode.OK  # an earlier export
    other = tmp_path / "mine"
    other.mkdir()
    (other / "notes.txt").write_text("keep me", encoding="utf-8")
    assert main(["export", str(tasks_file), "--out", str(other)]) == ExitCode.ERROR
    assert (other / "notes.txt").is_file()
    assert main(["export", str(tasks_file), "--out", str(other), "--force"]) == ExitCode.OK
    assert not (other / "notes.txt").exists()
    assert (other / "dure_manifest.json").is_file()


def test_a_folder_exported_again_loads_its_new_rows_not_the_cached_ones(tmp_path: Path) -> None:
    """``datasets`` caches a local folder by its card: same counts, other rows, must not hit the cache."""
    first = [callers_task(repo, 0) for repo in REPOS]
    second = [callers_task(repo, 1) for repo in REPOS]  # as many rows, of other tasks
    for name, tasks in (("one", first), ("two", second)):
        write_tasks(tmp_path / f"{name}.jsonl", tasks)
        export_tasks(tmp_path / f"{name}.jsonl", tmp_path / name / "dataset")
    for name, tasks in (("one", first), ("two", second)):
        loaded = load(tmp_path / name / "dataset")
        assert {row["task_id"] for split in loaded.values() for row in split} == {t.id for t in tasks}
    export_tasks(tmp_path / "two.jsonl", tmp_path / "one" / "dataset", force=True)  # the same folder again
    loaded = load(tmp_path / "one" / "dataset")
    assert {row["task_id"] for split in loaded.values() for row in split} == {t.id for t in second}

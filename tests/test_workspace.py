"""``dure workspace``: the pinned tree plus the task's patch, applied strictly, never half written."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
from task_factories import STRINGS

from dure.cli import main
from dure.cli._base import ExitCode
from dure.tasks import RepoRef, Task, VerifierSpec, make_task, write_tasks
from dure.workspace import WorkspaceError, materialise, parse_patch, workspace_file

ORIGINAL = {
    "pkg/__init__.py": "",
    "pkg/mod.py": "def live():\n    return 1\n\n\ndef other():\n    return 2\n",
    "pkg/gone.py": "x = 1\n",
    "README": "no newline at the end",
}


def diff(path: str, old: str | None, new: str | None) -> str:
    lines = difflib.unified_diff(
        (old or "").splitlines(keepends=True),
        (new or "").splitlines(keepends=True),
        fromfile=f"a/{path}" if old is not None else "/dev/null",
        tofile=f"b/{path}" if new is not None else "/dev/null",
    )
    return "".join(
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines
    )


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "pinned"
    for relpath, text in ORIGINAL.items():
        (root / relpath).parent.mkdir(parents=True, exist_ok=True)
        (root / relpath).write_text(text, encoding="utf-8")
    return root


def task_for(root: Path, workspace: str) -> Task:
    return make_task(
        kind="dead-code",
        repo=RepoRef("fixture", "0", str(root), "0" * 64),
        prompt="List the dead code in pkg.mod.",
        inputs={"module": "pkg.mod"},
        answer=[],
        answer_schema=STRINGS,
        verifier=VerifierSpec("set"),
        workspace=workspace,
    )


def files(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): p.read_text() for p in sorted(root.rglob("*")) if p.is_file()}


def test_the_patch_changes_adds_and_removes_files(repo: Path, tmp_path: Path) -> None:
    changed = ORIGINAL["pkg/mod.py"] + "\n\ndef dead():\n    return 3\n"
    patch = (
        diff("pkg/mod.py", ORIGINAL["pkg/mod.py"], changed)
        + diff("pkg/new.py", None, "y = 2\n")
        + diff("pkg/gone.py", ORIGINAL["pkg/gone.py"], None)
        + diff("README", ORIGINAL["README"], "now with one\n")
    )
    out = materialise(task_for(repo, patch), tmp_path / "ws")
    assert files(out) == {
        "README": "now with one\n",
        "pkg/__init__.py": "",
        "pkg/mod.py": changed,
        "pkg/new.py": "y = 2\n",
    }
    assert files(repo) == ORIGINAL  # the pinned tree is untouched
    assert workspace_file(task_for(repo, patch), "pkg/mod.py") == changed
    assert workspace_file(task_for(repo, patch), "pkg/gone.py") is None


def test_an_empty_workspace_is_the_pinned_tree(repo: Path, tmp_path: Path) -> None:
    assert files(materialise(task_for(repo, ""), tmp_path / "ws")) == ORIGINAL


def test_a_hunk_that_does_not_apply_names_file_and_hunk_and_writes_nothing(
    repo: Path, tmp_path: Path
) -> None:
    patch = diff("pkg/mod.py", "def live():\n    return 5\n", "def live():\n    return 6\n")
    with pytest.raises(WorkspaceError, match=r"pkg/mod.py: hunk 1: @@ -1,2 \+1,2 @@ does not apply"):
        materialise(task_for(repo, patch), tmp_path / "ws")
    assert not (tmp_path / "ws").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["pinned"]


@pytest.mark.parametrize(
    ("patch", "message"),
    [
        ("--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n", "header says"),
        ("--- a/x.py\n@@ -1 +1 @@\n", "expected '\\+\\+\\+ '"),
        ("--- a/../x.py\n+++ b/../x.py\n@@ -1 +1 @@\n-a\n+b\n", "unsafe"),
        ("--- a/x.py\n+++ b/x.py\n@@ nonsense @@\n", "malformed hunk header"),
        ("--- a/x.py\n+++ b/x.py\n", "no hunks"),
    ],
)
def test_malformed_patches_are_errors(patch: str, message: str) -> None:
    with pytest.raises(WorkspaceError, match=message):
        parse_patch(patch)


def test_a_new_file_that_exists_is_an_error(repo: Path, tmp_path: Path) -> None:
    with pytest.raises(WorkspaceError, match="already exists"):
        materialise(task_for(repo, diff("pkg/gone.py", None, "z\n")), tmp_path / "ws")


def test_an_existing_output_directory_is_refused(repo: Path, tmp_path: Path) -> None:
    out = tmp_path / "ws"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    with pytest.raises(WorkspaceError, match="not an empty directory"):
        materialise(task_for(repo, ""), out)
    assert files(out) == {"keep.txt": "mine"}
    empty = tmp_path / "empty"
    empty.mkdir()
    assert files(materialise(task_for(repo, ""), empty)) == ORIGINAL


def test_the_cli_writes_the_workspace(repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    task = task_for(repo, diff("pkg/new.py", None, "y = 2\n"))
    tasks = tmp_path / "tasks.jsonl"
    write_tasks(tasks, [task])
    out = tmp_path / "ws"
    assert main(["workspace", task.id, "--tasks", str(tasks), "--out", str(out)]) == ExitCode.OK
    assert (out / "pkg/new.py").read_text() == "y = 2\n"
    assert "workspace written" in capsys.readouterr().out
    assert main(["workspace", task.id, "--tasks", str(tasks), "--out", str(out)]) == ExitCode.ERROR
    assert main(["workspace", "nope", "--tasks", str(tasks), "--out", str(tmp_path / "o")]) == ExitCode.ERROR
    assert "no task with id 'nope'" in capsys.readouterr().err

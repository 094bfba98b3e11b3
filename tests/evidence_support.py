"""A tiny repository with its own tests, and tasks on it, for the execution-evidence verifiers.

``pkg.core`` holds a live function, one only the tests call, a dead function, an unused import, a branch under
a false flag and a statement after ``return``. :func:`sandbox_python` gives an interpreter the sandbox user
can run (as root the sandbox drops to ``nobody``, who cannot enter ``/root``): a bare virtual environment on
the system Python that sees this environment's packages through a ``.pth`` file.
"""

from __future__ import annotations

import atexit
import importlib.metadata
import os
import re
import shutil
import stat
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

from dure.sandbox import sandbox_user
from dure.tasks import RepoRef, Task, VerifierSpec, make_task
from dure.tasks.frozen import freeze_object

CORE = '''\
"""The core of the fixture package."""
import atexit
import os
import json

DEBUG = False


def live(x):
    return helper(x) + 1


def helper(x):
    if DEBUG:
        print("debugging")
    return x * 2


def dead(x):
    return x - 1


def only_tested(x):
    return x + 100


def encode(value: int) -> str:
    return json.dumps(value)


def after_return(x):
    return x
    print("never")
'''

TESTS = """\
import pytest

from pkg.core import after_return, live, only_tested


def test_live():
    assert live(2) == 5


def test_only_tested():
    assert only_tested(1) == 101


@pytest.mark.parametrize("value", [1, 2])
def test_after_return(value):
    assert after_return(value) == value
"""

FILES = {"pkg/__init__.py": "", "pkg/core.py": CORE, "tests/test_core.py": TESTS}
COMMAND = ["python", "-m", "pytest", "-q", "-p", "no:cacheprovider"]


def line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), start=1) if needle in line)


def span(start: str, end: str | None = None) -> dict[str, object]:
    first = line_of(CORE, start)
    return {"file": "pkg/core.py", "start": first, "end": line_of(CORE, end) if end else first}


ITEMS = {
    "pkg.core.os": span("import os"),
    "pkg.core.json": span("import json"),
    "pkg.core.live": span("def live", "return helper"),
    "pkg.core.helper": span("def helper", "return x * 2"),
    "pkg.core.helper#debug": span("if DEBUG", 'print("debugging")'),
    "pkg.core.dead": span("def dead", "return x - 1"),
    "pkg.core.only_tested": span("def only_tested", "return x + 100"),
    "pkg.core.encode": span("def encode", "return json.dumps"),
    "pkg.core.after_return#tail": span('print("never")'),
}
DEAD = ["pkg.core.os", "pkg.core.helper#debug", "pkg.core.dead", "pkg.core.after_return#tail"]


def write_fixture(root: Path) -> Path:
    for relpath, text in FILES.items():
        (root / relpath).parent.mkdir(parents=True, exist_ok=True)
        (root / relpath).write_text(text, encoding="utf-8")
    return root


def shared_dir() -> Path:
    """A fresh directory the sandbox user can read (pytest's tmp_path is private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="dure-test-"))
    folder.chmod(0o755)
    atexit.register(shutil.rmtree, folder, True)
    return folder


#: What the sandboxed runs import: their distributions and everything those require are copied.
SANDBOX_DISTRIBUTIONS = ("pytest", "coverage", "hypothesis")


def _requirement_closure(names: tuple[str, ...]) -> list[importlib.metadata.Distribution]:
    found: dict[str, importlib.metadata.Distribution] = {}
    pending = list(names)
    while pending:
        name = pending.pop()
        key = re.sub(r"[-_.]+", "-", name).lower()
        if key in found:
            continue
        try:
            distribution = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue
        found[key] = distribution
        for requirement in distribution.requires or ():
            if "extra ==" not in requirement:
                pending.append(re.split(r"[\s;<>=!~\[(]", requirement, maxsplit=1)[0])
    return list(found.values())


def _copy_distributions(site: Path) -> None:
    for distribution in _requirement_closure(SANDBOX_DISTRIBUTIONS):
        for file in distribution.files or ():
            if ".." in file.parts:
                continue
            target = site / file
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(Path(str(distribution.locate_file(file))), target)


def _world_readable(path: Path) -> bool:
    """Whether any user can reach ``path`` (every ancestor searchable by others)."""
    return all(part.stat().st_mode & stat.S_IXOTH for part in [path, *path.parents])


def sandbox_python() -> str:
    """An interpreter with pytest, coverage and hypothesis that the sandbox user can run."""
    if sandbox_user() is None:
        return sys.executable
    base = shutil.which(
        f"python{sys.version_info.major}.{sys.version_info.minor}", path="/usr/bin:/usr/local/bin"
    )
    if base is None:
        return sys.executable  # the evidence tests will say the interpreter cannot run
    venv = shared_dir() / "venv"
    subprocess.run([base, "-m", "venv", "--without-pip", str(venv)], check=True, capture_output=True)
    site = next(venv.glob("lib/python*/site-packages"))
    packages = Path(sysconfig.get_paths()["purelib"])
    if _world_readable(packages):
        (site / "dure-test.pth").write_text(f"{packages}\n", encoding="utf-8")
    else:  # this environment lives in a private directory: copy what the sandboxed runs import
        _copy_distributions(site)
    for path in [venv, *venv.rglob("*")]:
        if not path.is_symlink():
            path.chmod(0o755 if path.is_dir() or os.access(path, os.X_OK) else 0o644)
    return str(venv / "bin" / "python")


def evidence_task(
    root: Path, verifier: str, answer: list[str], *, workspace: str = "", **params: object
) -> Task:
    full = {"items": ITEMS, "test_command": COMMAND, "timeout": 60, "candidates": sorted(ITEMS), **params}
    return make_task(
        kind="dead-code",
        repo=RepoRef("fixture", "0", str(root), "0" * 64),
        prompt="List the dead code of pkg.core.",
        inputs={"module": "pkg.core"},
        answer=answer,
        answer_schema={"type": "array", "items": {"type": "string"}},
        verifier=VerifierSpec(verifier, freeze_object(full)),
        workspace=workspace,
    )

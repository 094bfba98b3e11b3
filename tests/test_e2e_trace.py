"""The static index against what really runs: a real package's own test suite under the call recorder.

Every call edge between two definitions of the repository that the tests execute must be in the index,
unless its caller has a call site the index reports as unresolved, or the callee is a special method reached
implicitly (the index does not report those on receivers it cannot name). Slow: it fetches the package.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dure.analyzers import build_index
from dure.analyzers.model import Certainty
from dure.corpus import resolve_repositories

pytestmark = pytest.mark.slow

RECORD = """
import json, sys
from pathlib import Path
import pytest
from dure.analyzers.tracing import CallRecorder
root = Path(sys.argv[1])
sys.path.insert(0, str(root))
recorder = CallRecorder(root)
with recorder:
    status = pytest.main(["-q", "-p", "no:cacheprovider", "-W", "ignore", str(root / sys.argv[2])])
json.dump(sorted(map(list, recorder.trace().edges)), open(sys.argv[3], "w"))
sys.exit(int(status))
"""


def _is_special(qualname: str) -> bool:
    name = qualname.rpartition(".")[2]
    return name.startswith("__") and name.endswith("__")


@pytest.mark.parametrize(
    ("package", "tests"), [("pyflakes", "pyflakes/test"), ("docstring-parser", "docstring_parser")]
)
def test_every_traced_edge_is_in_the_index(tmp_path: Path, package: str, tests: str) -> None:
    (repository,) = resolve_repositories(package, corpus="default")
    root = tmp_path / "repo"
    shutil.copytree(repository.root, root)
    trace_file = tmp_path / "trace.json"
    script = tmp_path / "record.py"
    script.write_text(RECORD)
    run = subprocess.run(
        [sys.executable, str(script), str(root), tests, str(trace_file)],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    traced = {tuple(edge) for edge in json.loads(trace_file.read_text())}
    index = build_index(root, cache=False)
    reported = {(e.caller, e.callee) for e in index.edges() if e.certainty is not Certainty.UNRESOLVED}
    unresolved_callers = {
        site.caller
        for site in index.call_sites
        if any(t.certainty is Certainty.UNRESOLVED for t in site.targets)
    }
    inside = [e for e in traced if e[0] in index.definitions and e[1] in index.definitions]
    assert len(inside) > 100
    missed = sorted(
        e for e in inside if e not in reported and e[0] not in unresolved_callers and not _is_special(e[1])
    )
    assert not missed, f"{len(missed)} executed edges the index does not report: {missed[:20]}"

"""The analyzers that a wheel compiles with mypyc, and whether this run uses them compiled.

An editable install keeps every module as Python source (an edit takes effect at once); a wheel built by
``pip install .`` compiles the modules ``pyproject.toml`` lists. CI also runs this suite on such a wheel with
``DURE_EXPECT_COMPILED=1``: then every listed module must be compiled, so that the run checks what users get.
"""

from __future__ import annotations

import os
import pickle
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from dure.analyzers import compiled
from dure.analyzers.model import Diagnostic
from dure.analyzers.summary import FileResult, ModuleSummary
from dure.cli import cli

ROOT = Path(__file__).resolve().parent.parent
EXPECT_COMPILED = bool(os.environ.get("DURE_EXPECT_COMPILED"))


def _listed() -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed: list[str] = project["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["custom"]["compile"]
    return listed


def test_the_listed_modules_exist_and_are_analyzers() -> None:
    listed = _listed()
    assert listed == sorted(set(listed))
    for path in listed:
        assert (ROOT / path).is_file(), path
        assert path.startswith("dure/analyzers/"), path
    # loaded from disk by the test runs of other repositories: never compiled
    assert "dure/analyzers/tracing.py" not in listed
    assert "dure/analyzers/_evidence_plugin.py" not in listed


@pytest.mark.parametrize("path", _listed())
def test_a_listed_module_is_compiled_exactly_when_expected(path: str) -> None:
    module = path.removesuffix(".py").replace("/", ".")
    assert compiled(module) is EXPECT_COMPILED


def test_a_module_left_as_source_is_not_compiled() -> None:
    assert compiled("dure.analyzers.tracing") is False


def test_version_says_how_the_analyzers_run() -> None:
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0
    build = "analyzers compiled with mypyc" if EXPECT_COMPILED else "analyzers in pure Python"
    assert result.output.startswith("dure ")
    assert result.output.rstrip().endswith(f"({build})")


def test_a_file_result_crosses_processes_by_pickle() -> None:
    """Compiled, a frozen class cannot be unpickled attribute by attribute: it pickles by its fields."""
    summary = ModuleSummary(module="pkg.mod", relpath="pkg/mod.py", is_package=False, is_test=False)
    for result in (
        FileResult("pkg/mod.py", summary, None, 3),
        FileResult("pkg/bad.py", None, Diagnostic("pkg/bad.py", 2, "invalid syntax"), 0),
    ):
        loaded = pickle.loads(pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL))
        assert (loaded.relpath, loaded.diagnostic, loaded.lines) == (
            result.relpath,
            result.diagnostic,
            result.lines,
        )
        if result.summary is None:
            assert loaded.summary is None
        else:
            assert loaded.summary is not None
            assert (loaded.summary.module, loaded.summary.relpath) == ("pkg.mod", "pkg/mod.py")

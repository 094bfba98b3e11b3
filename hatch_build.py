"""Build hook: compile the index's analyzers with mypyc when a wheel is built.

Resolving a repository's call sites is pure Python work over typed code; compiled by mypyc it runs about
1.5 times faster. The modules to compile are listed in ``pyproject.toml``
(``[tool.hatch.build.targets.wheel.hooks.custom] compile``). An editable install stays pure Python, so that
an edited source takes effect at once; ``DURE_PURE_PYTHON=1`` builds a pure-Python wheel too. Without a C
compiler the build says so on stderr and the wheel is pure Python: it works, only slower.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

PURE_ENV = "DURE_PURE_PYTHON"

#: Run in a fresh interpreter in the project's root, so that mypy reads the project's configuration.
#: Errors in modules that are not compiled are not reported (they are checked by the project's own mypy run);
#: third-party packages are not installed in the build environment and are taken as untyped.
_COMPILE = """
import sys
from setuptools import Distribution
from mypyc.build import mypycify

build_lib, build_temp, *paths = sys.argv[1:]
extensions = mypycify(
    ["--follow-imports=silent", "--ignore-missing-imports", *paths],
    opt_level="3",
    target_dir=build_temp,
)
command = Distribution({"ext_modules": extensions}).get_command_obj("build_ext")
command.build_lib = build_lib
command.build_temp = build_temp
command.ensure_finalized()
command.run()
"""


class CompileAnalyzers(BuildHookInterface):
    """Adds the mypyc-compiled extension modules to a (non-editable) wheel."""

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        modules = self.config.get("compile", [])
        if version == "editable" or not modules or os.environ.get(PURE_ENV):
            return
        self._scratch = tempfile.TemporaryDirectory(prefix="dure-mypyc-")
        build_lib = Path(self._scratch.name) / "lib"
        build_temp = Path(self._scratch.name) / "temp"
        argv = [sys.executable, "-c", _COMPILE, str(build_lib), str(build_temp), *modules]
        done = subprocess.run(argv, cwd=self.root, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
            sys.stderr.write(
                "dure: warning: compiling the analyzers with mypyc failed; this wheel is pure Python "
                f"(indexing is about 1.5 times slower). Is a C compiler installed?\n{tail}\n"
            )
            return
        for built in sorted(build_lib.rglob("*.so")) + sorted(build_lib.rglob("*.pyd")):
            build_data["force_include"][str(built)] = built.relative_to(build_lib).as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        scratch = getattr(self, "_scratch", None)
        if scratch is not None:
            scratch.cleanup()

"""Whether an interpreter has what a repository's tests need: pytest, coverage and the declared test
dependencies.

The check belongs in the interpreter that runs the tests (``$DURE_TEST_PYTHON``), which need not be the one
running dure: this module is imported here when the two are the same, and otherwise its source is run by
the test interpreter (it imports nothing of dure; ``packaging`` comes with pytest). Its answer, on stdout, is
JSON: null, or why the tests cannot run.
"""

from __future__ import annotations

import importlib.metadata
import json
import sys
from collections.abc import Iterable


def unmet(requirements: Iterable[str], python: str) -> str | None:
    """Why the tests cannot run on this interpreter (``python`` names it), or ``None``."""
    for runner, why in (("pytest", ""), ("coverage", " (dure's pytest plugin measures the tests with it)")):
        try:
            importlib.metadata.distribution(runner)
        except importlib.metadata.PackageNotFoundError:
            return f"{runner} is not installed in {python}{why}"
    for requirement in requirements:
        problem = _unmet(requirement, python)
        if problem is not None:
            return problem
    return None


def _unmet(requirement: str, python: str) -> str | None:
    """What is wrong with one PEP 508 requirement here, or ``None`` (also when its marker excludes it)."""
    try:
        from packaging.requirements import InvalidRequirement, Requirement  # noqa: PLC0415 - pytest brings it
    except ImportError:
        return f"packaging is not installed in {python}"
    try:
        wanted = Requirement(requirement)
    except InvalidRequirement as problem:
        return f"cannot read the test dependency {requirement!r}: {problem}"
    if wanted.marker is not None and not wanted.marker.evaluate():
        return None
    try:
        version = importlib.metadata.distribution(wanted.name).version
    except importlib.metadata.PackageNotFoundError:
        return f"the test dependency {wanted.name} is not installed in {python}"
    if not wanted.specifier.contains(version, prereleases=True):
        installed = f"{wanted.name} {version} is installed in {python}"
        return f"the test dependency {requirement!r} is not met: {installed}"
    return None


if __name__ == "__main__":  # run by the test interpreter: the requirements as JSON in argv[1]
    print(json.dumps(unmet(json.loads(sys.argv[1]), sys.executable)))

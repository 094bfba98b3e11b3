"""A pytest plugin (``-p _dure_pytest``) that records each test's outcome and, with ``DURE_COVERAGE=1``,
which lines ran under which test: coverage.py with one dynamic context per pytest node id.

Coverage starts when the plugin is imported (before any ``conftest.py``), so import-time lines count too,
under the context ``""``. Results go to ``$DURE_OUTBOX/pytest.json``: ``{"outcomes": {nodeid: outcome},
"lines": {relpath: {line: first context}}, "elsewhere": [workspace files imported from outside it]}``.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Generator
from typing import Any

import pytest

_ROOT = os.getcwd()
_COVERAGE: Any = None
if os.environ.get("DURE_COVERAGE") == "1":
    import coverage

    _COVERAGE = coverage.Coverage(data_file=None, branch=False, config_file=False, source=[_ROOT])
    _COVERAGE.start()

_OUTCOMES: dict[str, str] = {}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, None, None]:
    if _COVERAGE is not None:
        _COVERAGE.switch_context(item.nodeid)
    yield
    if _COVERAGE is not None:
        _COVERAGE.switch_context("")


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call" or report.outcome != "passed":
        previous = _OUTCOMES.get(report.nodeid)
        if previous is None or previous == "passed":
            _OUTCOMES[report.nodeid] = (
                f"{report.when}:{report.outcome}" if report.when != "call" else report.outcome
            )


def _lines() -> dict[str, dict[str, str]]:
    _COVERAGE.stop()
    data = _COVERAGE.get_data()
    found: dict[str, dict[str, str]] = {}
    for path in data.measured_files():
        relpath = os.path.relpath(path, _ROOT)
        if relpath.startswith(".."):
            continue
        by_line = data.contexts_by_lineno(path)
        found[relpath.replace(os.sep, "/")] = {str(n): min(c) for n, c in by_line.items() if c}
    return found


def _elsewhere() -> list[str]:
    """Modules whose file has a twin under the workspace root but that were imported from another place."""
    found = []
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        if not path or os.path.abspath(path).startswith(_ROOT + os.sep):
            continue
        parts = os.path.abspath(path).split(os.sep)
        name = getattr(module, "__name__", "")
        depth = name.count(".") + (2 if parts[-1] == "__init__.py" else 1)
        suffix = os.path.join(*parts[-depth:])
        if "site-packages" in parts and any(
            os.path.isfile(os.path.join(_ROOT, base, suffix)) for base in ("", "src")
        ):
            found.append(f"{name} from {path}")
    return sorted(found)


def pytest_unconfigure(config: pytest.Config) -> None:
    result = {"outcomes": _OUTCOMES, "elsewhere": _elsewhere(), "lines": _lines() if _COVERAGE else {}}
    with open(os.path.join(os.environ["DURE_OUTBOX"], "pytest.json"), "w", encoding="utf-8") as out:
        json.dump(result, out)

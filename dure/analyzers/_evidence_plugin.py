"""A pytest plugin (``-p _dure_evidence``) that records the calls a test session makes, for
:func:`dure.analyzers.runtime.collect_evidence`.

It rides in the outbox next to :mod:`dure.verifiers._sandboxed._dure_pytest` (outcomes, and executed lines
under coverage.py) and starts a :class:`~dure.analyzers.tracing.CallRecorder` when pytest imports it, before
any ``conftest.py``, so calls made at import time count. Calls of C functions are left out: only calls
between the repository's own functions are kept, and C calls are most of the recording's cost. The recorder
is loaded from its file (``$DURE_TRACER``), not as ``dure.analyzers.tracing``: importing that package would
import the analyzers' own dependencies into the tested process, where the tests might then find them
instead of the tree's modules. Module names come from ``$DURE_OUTBOX/modules.json`` (file -> module, the
index's names); the edges go to ``$DURE_OUTBOX/calls.json`` as ``{"edges": [[caller, callee], ...],
"sites": [[caller, line, callee], ...], "positions": [[caller, line, column, end line, end column, callee],
...]}`` (a site is a call with the caller's line that made it, a position the same with the span of the
instruction that made it).
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from dure.analyzers.tracing import CallRecorder


def _load_tracing() -> ModuleType:
    spec = importlib.util.spec_from_file_location("_dure_tracing", os.environ["DURE_TRACER"])
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load the call recorder from {os.environ['DURE_TRACER']}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


_OUTBOX = Path(os.environ["DURE_OUTBOX"])
_MODULES: dict[str, str] = json.loads((_OUTBOX / "modules.json").read_text(encoding="utf-8"))
_RECORDER: CallRecorder = _load_tracing().CallRecorder(Path.cwd(), _MODULES, c_calls=False, lines=True)
_RECORDER.start()


def pytest_unconfigure(config: pytest.Config) -> None:
    _RECORDER.stop()
    trace = _RECORDER.trace()
    calls = {"edges": sorted(trace.edges), "sites": sorted(trace.sites), "positions": sorted(trace.positions)}
    (_OUTBOX / "calls.json").write_text(json.dumps(calls), encoding="utf-8")

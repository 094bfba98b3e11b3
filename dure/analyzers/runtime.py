"""What a repository's own tests execute: the calls they make and the lines they run.

One run of the test suite, in a subprocess, under a pytest plugin that records calls with
:class:`dure.analyzers.tracing.CallRecorder` (``sys.setprofile``) and lines with coverage.py. Generators use
it to cross-check static answers (a traced edge a static answer lacks drops the task) and to keep executed
code out of dead-code answers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class TestEvidence:
    """The outcome of one run of a repository's tests.

    ``edges`` are the call edges (caller, callee) between the repository's own definitions, named as the
    index names them; ``executed`` maps a file (relative to the repository root, POSIX) to the lines the
    tests ran, import time included; ``passed``/``failed`` count test outcomes. ``error`` says why the tests
    could not run here (a missing test dependency, a timeout); the other fields are then empty.
    """

    __test__ = False  # not a pytest test class

    edges: frozenset[tuple[str, str]] = frozenset()
    executed: Mapping[str, frozenset[int]] = field(default_factory=dict)
    passed: int = 0
    failed: int = 0
    seconds: float = 0.0
    error: str | None = None

    @property
    def ran(self) -> bool:
        return self.error is None

"""Run a task's Hypothesis property on an answer: ``python _dure_property.py FUNCTION MAX_EXAMPLES``.

Reads ``$DURE_OUTBOX/property.py`` (the task's source, executed with ``given``, ``st``, ``assume``,
``settings`` and ``hypothesis`` in scope) and ``$DURE_OUTBOX/answer.json``; calls ``FUNCTION(answer)`` under
derandomized settings and writes ``$DURE_OUTBOX/verdict.json``: ``{"passed": bool, "falsifying": str | None,
"exception": str | None, "task_error": str | None}``.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import hypothesis
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException

LIMIT = 2000


def check(function_name: str, examples: int) -> dict[str, Any]:
    box = os.environ["DURE_OUTBOX"]
    with open(os.path.join(box, "property.py"), encoding="utf-8") as stream:
        source = stream.read()
    with open(os.path.join(box, "answer.json"), encoding="utf-8") as stream:
        answer = json.load(stream)
    scope: dict[str, Any] = {"__name__": "dure_property", "given": given, "st": st, "strategies": st,
                             "assume": assume, "settings": settings, "hypothesis": hypothesis}  # fmt: skip
    try:
        exec(compile(source, "<property>", "exec"), scope)
    except Exception as problem:
        return {
            "passed": False,
            "task_error": f"the property does not run: {type(problem).__name__}: {problem}",
        }
    function = scope.get(function_name)
    if not callable(function) or not hasattr(function, "hypothesis"):
        return {"passed": False, "task_error": f"{function_name} is not a function decorated with @given"}
    test = settings(max_examples=examples, derandomize=True, database=None, deadline=None,
                    suppress_health_check=list(HealthCheck))(function)  # fmt: skip
    try:
        test(answer)
    except HypothesisException as problem:
        return {"passed": False, "task_error": f"{type(problem).__name__}: {str(problem)[:LIMIT]}"}
    except Exception as problem:
        notes = [str(note) for note in getattr(problem, "__notes__", [])]
        falsifying = "\n".join(notes)[:LIMIT] or None
        exception = f"{type(problem).__name__}: {problem}"[:LIMIT]
        return {"passed": False, "falsifying": falsifying, "exception": exception}
    return {"passed": True}


if __name__ == "__main__":
    verdict = check(sys.argv[1], int(sys.argv[2]))
    with open(os.path.join(os.environ["DURE_OUTBOX"], "verdict.json"), "w", encoding="utf-8") as out:
        json.dump(verdict, out)

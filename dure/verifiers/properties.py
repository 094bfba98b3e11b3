"""``property``: the answer must satisfy a Hypothesis property that the task supplies.

Parameters: ``property`` (Python source defining a function decorated with ``@given(...)`` whose first
argument is the answer; ``given``, ``st``, ``assume``, ``settings`` and ``hypothesis`` are in scope),
``function`` (its name, default ``prop``), ``max_examples`` (default 100), ``timeout`` (seconds, default 60),
``wrong_answers`` and ``equivalent_answers`` (for the self-audit). The property runs in the sandbox, never in
this process, with derandomized settings and no example database, so the verdict is deterministic. The score
is 1.0 when the property holds, else 0 with the falsifying example in the details. The answer reaches the
property as JSON data only.
"""

from __future__ import annotations

import functools
import json

from dure.tasks.errors import TaskError
from dure.tasks.frozen import FrozenDict, JsonValue, thaw
from dure.tasks.model import Score, Task
from dure.verifiers import _evidence
from dure.verifiers._registry import register
from dure.verifiers.base import FORMAT, AuditCase, Expect, Verifier, clip

DEFAULT_EXAMPLES = 100
DEFAULT_TIMEOUT = 60.0
MAX_ANSWER_CHARS = 1_000_000


def _setting(params: FrozenDict, key: str, kind: type, default: object) -> object:
    value = params.get(key, default)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise TaskError(f"verifier.params.{key}", f"must be {kind.__name__}")
    return value


@functools.lru_cache(maxsize=4096)
def run_property(params: FrozenDict, answer: JsonValue) -> FrozenDict:
    """The sandbox's verdict on ``answer`` (cached: trainers score the same answer many times)."""
    source = _setting(params, "property", str, None)
    function = _setting(params, "function", str, "prop")
    examples = _setting(params, "max_examples", int, DEFAULT_EXAMPLES)
    timeout = params.get("timeout", DEFAULT_TIMEOUT)
    if not isinstance(timeout, int | float) or isinstance(timeout, bool) or timeout <= 0:
        raise TaskError("verifier.params.timeout", "must be a positive number")
    text = json.dumps(thaw(answer), ensure_ascii=False)
    argv = [_evidence.test_python(), "_dure_property.py", str(function), str(examples)]
    with _evidence.outbox(("_dure_property.py",)) as box:
        (box / "property.py").write_text(str(source), encoding="utf-8")
        (box / "answer.json").write_text(text, encoding="utf-8")
        argv[1] = str(box / "_dure_property.py")
        result = _evidence.run(argv, box, box, float(timeout), {})
        if result.timed_out:
            return FrozenDict({"passed": False, "exception": f"timed out after {timeout} s"})
        verdict = _evidence.read_json(box / "verdict.json", "the property", result)
    return FrozenDict({key: value for key, value in verdict.items() if isinstance(value, str | bool)})


@register
class PropertyVerifier(Verifier):
    name = "property"
    description = "a Hypothesis property supplied by the task, run on the answer in the sandbox"
    components = (FORMAT, "property")

    def check(self, task: Task, answer: JsonValue) -> Score:
        if len(json.dumps(thaw(answer))) > MAX_ANSWER_CHARS:
            return Score.failed(f"the answer is longer than {MAX_ANSWER_CHARS} characters", self.components)
        try:
            verdict = run_property(task.verifier.params, answer)
        except _evidence.EvidenceError as problem:
            return Score.failed(f"the property of task {task.id} could not run: {problem}", self.components)
        task_error = verdict.get("task_error")
        if isinstance(task_error, str):
            raise TaskError("verifier.params.property", task_error)
        passed = verdict.get("passed") is True
        details = {
            key: clip(str(verdict[key]), 2000) for key in ("falsifying", "exception") if key in verdict
        }
        return self.score(float(passed), {FORMAT: 1.0, "property": float(passed)}, details)

    def audit_cases(self, task: Task) -> tuple[AuditCase, ...]:
        params = task.verifier.params
        cases = [AuditCase("null", None, Expect.WRONG, 0.0)] if task.answer is not None else []
        for key, expect in (("equivalent_answers", Expect.EQUIVALENT), ("wrong_answers", Expect.WRONG)):
            answers = params.get(key, ())
            if not isinstance(answers, tuple):
                raise TaskError(f"verifier.params.{key}", "must be an array of answers")
            cases += [AuditCase(f"{key} {i + 1}", answer, expect, 0.0) for i, answer in enumerate(answers)]
        return tuple(cases)

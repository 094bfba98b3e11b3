"""``differential``: dead-code claims checked by removing the claimed code and looking for any difference.

Two versions of the workspace run in the sandbox: the original, and one with every claimed item's span
replaced by ``pass``. Each runs the repository's tests (outcome per pytest node id) and calls the public
functions of ``params["module"]`` on Hypothesis-generated inputs (``st.from_type`` where annotated, else small
primitive strategies; derandomized, bounded, one-second timer per call; calls whose outcome is not stable
across two tries are left out). Any difference in a test outcome, a return value's repr or an exception type
refutes the claimed set: the answer scores 0 and the details hold the witness (the test, or the function and
input). An unrefuted answer is scored like ``set``. When the reference set itself is refuted the task is
broken and the self-audit drops it.

Parameters, besides those of ``set``: ``items`` and ``test_command`` as for ``coverage``; ``module`` (dotted
name); ``max_examples`` (default 30); ``timeout``. The original version's results are cached per
workspace, a modified version's per claimed set.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from dure.tasks.errors import TaskError
from dure.tasks.frozen import JsonValue
from dure.tasks.model import Score, Task
from dure.verifiers import _evidence
from dure.verifiers._registry import register
from dure.verifiers.base import FORMAT, AuditCase, Verifier, param
from dure.verifiers.sets import SetVerifier, set_counts
from dure.workspace import materialise

DEFAULT_EXAMPLES = 30
MAX_WITNESSES = 10
UNSTABLE = "unstable"
_CACHE = _evidence.ResultCache("differential")

Outcome = dict[str, Any]


def outer_spans(spans: Iterable[_evidence.Span]) -> list[_evidence.Span]:
    """The spans not inside another one, in file and line order."""
    kept: list[_evidence.Span] = []
    for span in sorted(spans, key=lambda s: (s.file, s.start, -s.end)):
        if kept and kept[-1].file == span.file and span.end <= kept[-1].end:
            continue
        if kept and kept[-1].file == span.file and span.start <= kept[-1].end:
            raise TaskError("verifier.params.items", f"{span.file}: spans overlap at line {span.start}")
        kept.append(span)
    return kept


def remove_spans(text: str, spans: list[_evidence.Span]) -> str:
    """``text`` with each span (one file's, in order) replaced by ``pass`` at its first line's indentation."""
    lines = text.splitlines(keepends=True)
    for span in reversed(spans):
        if span.end > len(lines):
            raise TaskError("verifier.params.items", f"{span.file}:{span.end} is past the end of the file")
        first = lines[span.start - 1]
        indent = first[: len(first) - len(first.lstrip())]
        lines[span.start - 1 : span.end] = [f"{indent}pass\n"]
    return "".join(lines)


def _run_version(task: Task, removed: list[str]) -> Outcome:
    spans = _evidence.spans_of(task)
    module, examples = _module(task), _examples(task)
    timeout = _evidence.timeout_of(task)
    with tempfile.TemporaryDirectory(prefix="dure-differential-") as scratch:
        tree = materialise(task, Path(scratch) / "tree")
        chosen = outer_spans(spans[item] for item in removed)
        for file in sorted({span.file for span in chosen}):
            path = tree / file
            edited = remove_spans(path.read_text(encoding="utf-8"), [s for s in chosen if s.file == file])
            try:
                compile(edited, file, "exec")
            except SyntaxError as problem:
                return {"invalid": f"removing the claimed code leaves {file} invalid: {problem.msg}"}
            path.write_text(edited, encoding="utf-8")
        with _evidence.outbox(("_dure_pytest.py", "_dure_calls.py")) as box:
            tests = _evidence.run(
                [*_evidence.test_command(task), "-p", "_dure_pytest"], tree, box, timeout, {}
            )
            outcomes = _evidence.read_json(box / "pytest.json", "the test run", tests)
            argv = [_evidence.test_python(), str(box / "_dure_calls.py"), module, str(examples)]
            calls_run = _evidence.run(argv, tree, box, timeout, {})
            calls = _evidence.read_json(box / "calls.json", "the calls of the module's functions", calls_run)
    return {"exit_code": tests.exit_code, "tests": outcomes["outcomes"], "calls": calls}


def _module(task: Task) -> str:
    value = param(task, "module", str)
    assert isinstance(value, str)
    return value


def _examples(task: Task) -> int:
    value = param(task, "max_examples", int, DEFAULT_EXAMPLES)
    assert isinstance(value, int)
    return max(1, min(value, 1000))


def original(task: Task) -> Outcome:
    key = _evidence.cache_key("original", _module(task), _examples(task), *_evidence.task_base_key(task))
    result: Outcome = _CACHE.get_or_run(key, lambda: _run_version(task, []))
    if result.get("exit_code") not in (0, 1) or not result.get("tests"):
        raise _evidence.EvidenceError(f"the original tests did not run (exit code {result.get('exit_code')})")
    if result["calls"]["import_error"]:
        raise _evidence.EvidenceError(
            f"the original module does not import: {result['calls']['import_error']}"
        )
    return result


def differences(task: Task, removed: list[str]) -> list[dict[str, str]]:
    """Witnesses of behaviour that changes when ``removed`` is removed (empty: no difference found)."""
    if not removed:
        return []
    before = original(task)
    key = _evidence.cache_key(
        "modified", sorted(removed), _module(task), _examples(task), *_evidence.task_base_key(task)
    )
    after: Outcome = _CACHE.get_or_run(key, lambda: _run_version(task, removed))
    if "invalid" in after:
        return [{"kind": "syntax", "detail": after["invalid"]}]
    return (_test_witnesses(before, after) + _call_witnesses(before, after, task, removed))[:MAX_WITNESSES]


def _test_witnesses(before: Outcome, after: Outcome) -> list[dict[str, str]]:
    found = []
    for test in sorted(set(before["tests"]) | set(after["tests"])):
        old, new = before["tests"].get(test, "not run"), after["tests"].get(test, "not run")
        if old != new:
            found.append({"kind": "test", "test": test, "original": old, "modified": new})
    return found


def _call_witnesses(before: Outcome, after: Outcome, task: Task, removed: list[str]) -> list[dict[str, str]]:
    if after["calls"]["import_error"]:
        return [{"kind": "import", "modified": after["calls"]["import_error"]}]
    gone = {item.rpartition(".")[2] for item in removed if item.rpartition(".")[0] == _module(task)}
    found = []
    for function, rows in sorted(before["calls"]["functions"].items()):
        if function in gone:
            continue
        new_rows = after["calls"]["functions"].get(function)
        if new_rows is None:
            found.append({"kind": "call", "function": function, "modified": "missing"})
            continue
        old_map = {arguments: result for arguments, result in rows if result != UNSTABLE}
        for arguments, result in new_rows:
            if result != UNSTABLE and arguments in old_map and old_map[arguments] != result:
                found.append({"kind": "call", "function": function, "input": arguments,
                              "original": old_map[arguments], "modified": result})  # fmt: skip
                break
    return found


@register
class DifferentialVerifier(Verifier):
    name = "differential"
    description = "dead-code claims refuted by any change in test outcomes or generated calls once removed"
    components = (FORMAT, "precision", "recall", "f1", "equivalent")

    def check(self, task: Task, answer: JsonValue) -> Score:
        gold, given = _evidence.claimed(task, answer)
        spans = _evidence.spans_of(task)
        removed = sorted(item for item in given if item in spans)
        if not gold.required <= spans.keys():
            raise TaskError("verifier.params.items", "every reference item needs a span")
        try:
            witnesses = differences(task, removed)
            if removed != sorted(gold.required) and differences(task, sorted(gold.required)):
                raise TaskError("answer", "removing the reference items changes behaviour")
        except _evidence.EvidenceError as problem:
            return Score.failed(f"no differential evidence for task {task.id}: {problem}", self.components)
        if witnesses and removed == sorted(gold.required):
            raise TaskError("answer", f"removing the reference items changes behaviour: {witnesses[0]}")
        counts = set_counts(gold, given, set())
        equivalent = not witnesses
        details = {
            "true_positives": counts.true_positives,
            "missing": len(gold.required) - counts.true_positives,
            "false_positives": counts.other,
            "removed": len(removed),
            "witnesses": witnesses,
        }
        components = {FORMAT: 1.0, "precision": counts.precision, "recall": counts.recall, "f1": counts.f1,
                      "equivalent": float(equivalent)}  # fmt: skip
        if not equivalent:
            return self.score(0.0, components, details)
        return self.score(1.0 if given == gold.required else min(counts.f1, 0.999), components, details)

    def audit_cases(self, task: Task) -> tuple[AuditCase, ...]:
        return SetVerifier().audit_cases(task)

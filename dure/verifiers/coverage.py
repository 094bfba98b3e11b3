"""``coverage``: dead-code claims checked against what the repository's tests execute.

The answer is a set of claimed-dead items, scored like ``set`` (F1 over the required items, ``ignored`` free,
``forbidden`` costly) with one addition: an item whose evidence lines (:func:`._evidence.evidence_lines`) any
test executes is *refuted* and costs what a forbidden item costs; the details name the test (its pytest node
id) and the line as the witness. A reference item that a test executes is a broken task, which the self-audit
drops.

Parameters, besides those of ``set``: ``items`` (item -> ``{file, start, end}`` in the workspace),
``test_command`` (argv, run from the workspace root; pytest) and ``timeout`` (seconds). The tests run once per
(repository, workspace, command, interpreter) under coverage.py in the sandbox, with one dynamic context per
pytest node id; the executed lines are cached, so scoring an answer afterwards is a few lookups.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from dure.tasks.errors import TaskError
from dure.tasks.frozen import JsonValue
from dure.tasks.model import Score, Task
from dure.verifiers import _evidence
from dure.verifiers._registry import register
from dure.verifiers.base import FORMAT, AuditCase, Verifier, clip
from dure.verifiers.sets import SetVerifier, set_counts
from dure.workspace import materialise

IMPORT_TIME = "(import or collection)"
MAX_WITNESSES = 20

_CACHE = _evidence.ResultCache("coverage")

Executed = dict[str, dict[str, str]]  # relpath -> line (as text) -> first test context that ran it


def executed_lines(task: Task) -> Executed:
    """Every line the task's tests execute, with the first test that runs it (cached)."""
    key = _evidence.cache_key("coverage", *_evidence.task_base_key(task))
    lines: Executed = _CACHE.get_or_run(key, lambda: _run_tests(task))["lines"]
    return lines


def _run_tests(task: Task) -> dict[str, Any]:
    argv = [*_evidence.test_command(task), "-p", "_dure_pytest"]
    with tempfile.TemporaryDirectory(prefix="dure-coverage-") as scratch:
        tree = materialise(task, Path(scratch) / "tree")
        with _evidence.outbox(("_dure_pytest.py",)) as box:
            result = _evidence.run(argv, tree, box, _evidence.timeout_of(task), {"DURE_COVERAGE": "1"})
            data = _evidence.read_json(box / "pytest.json", "the test run", result)
    if result.exit_code not in (0, 1) or not data["outcomes"]:
        raise _evidence.EvidenceError(
            f"the tests did not run (exit code {result.exit_code}, {len(data['outcomes'])} tests): "
            f"{result.stdout.strip()[-300:]}"
        )
    if data["elsewhere"]:
        raise _evidence.EvidenceError(
            f"the tests imported workspace modules from elsewhere: {data['elsewhere']}"
        )
    return {"lines": data["lines"], "tests": len(data["outcomes"])}


def witness(executed: Executed, file: str, lines: frozenset[int]) -> tuple[int, str] | None:
    """The first evidence line a test ran, with that test's id."""
    ran = executed.get(file, {})
    for line in sorted(lines):
        context = ran.get(str(line))
        if context is not None:
            return line, context or IMPORT_TIME
    return None


def refutations(task: Task, items: set[str]) -> dict[str, tuple[int, str]]:
    """Item -> (line, test id) for each of ``items`` (with a span) that the tests execute."""
    spans, evidence = _evidence.spans_of(task), _evidence.evidence_of(task)
    wanted = [item for item in sorted(items) if item in spans and evidence[item]]
    if not wanted:
        return {}
    executed = executed_lines(task)
    found = {}
    for item in wanted:
        hit = witness(executed, spans[item].file, evidence[item])
        if hit is not None:
            found[item] = hit
    return found


@register
class CoverageVerifier(Verifier):
    name = "coverage"
    description = "dead-code claims scored like set; code the repository's tests execute is refuted"
    components = (FORMAT, "precision", "recall", "f1", "unrefuted")

    def check(self, task: Task, answer: JsonValue) -> Score:
        gold, given = _evidence.claimed(task, answer)
        try:
            refuted = refutations(task, given | set(gold.required))
        except _evidence.EvidenceError as problem:
            return Score.failed(f"no coverage evidence for task {task.id}: {problem}", self.components)
        wrong_gold = sorted(set(refuted) & gold.required)
        if wrong_gold:
            line, test = refuted[wrong_gold[0]]
            raise TaskError("answer", f"reference item {wrong_gold[0]} is executed by {test} (line {line})")
        claimed_refuted = set(refuted) & given
        counts = set_counts(gold, given, claimed_refuted)
        spans = _evidence.spans_of(task)
        details = {
            "true_positives": counts.true_positives,
            "missing": len(gold.required) - counts.true_positives,
            "false_positives": counts.other,
            "forbidden": sorted(clip(item) for item in gold.forbidden & given)[:MAX_WITNESSES],
            "refuted": [
                {"item": item, "file": spans[item].file, "line": refuted[item][0], "test": refuted[item][1]}
                for item in sorted(claimed_refuted)[:MAX_WITNESSES]
            ],
        }
        unrefuted = 1.0 - len(claimed_refuted) / len(given) if given else 1.0
        components = {FORMAT: 1.0, "precision": counts.precision, "recall": counts.recall, "f1": counts.f1,
                      "unrefuted": unrefuted}  # fmt: skip
        exact = given == gold.required
        return self.score(1.0 if exact else min(counts.f1, 0.999), components, details)

    def audit_cases(self, task: Task) -> tuple[AuditCase, ...]:
        return SetVerifier().audit_cases(task)

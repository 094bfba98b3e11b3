"""The ``types`` verifier's batched checks: one checker run for the answers of a task, and for the tasks
of a source tree, a warm tree per repository, and no equivalence through a reference the checker cannot
resolve."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from pathlib import Path

import pytest

from dure.cli import main
from dure.cli._base import ExitCode
from dure.scoring import score, score_across, score_answer, score_many
from dure.tasks import RepoRef, Task, VerifierSpec, make_task, write_tasks
from dure.tasks.errors import TaskError
from dure.tasks.frozen import freeze, freeze_object, thaw
from dure.verifiers import types
from dure.verifiers.audit import audit_many, audit_task
from dure.verifiers.typecheck import CheckerError, CheckerSettings, Context, checker_version
from dure.verifiers.types import baseline_of, baseline_with, baselines_with, prepare
from tests.test_verifiers_types import (
    DESCRIBE_RETURN,
    FIND_NAMES,
    FIND_RETURN,
    GOLD,
    SCALED,
    UPPER_RETURN,
    task,
    verdicts,
)

MIXED = {
    **GOLD,
    SCALED: "typing.Any",  # a top type that adds no error: compatible, top_type_credit
    FIND_NAMES: "Sequence[str]",  # weaker, adds no error: compatible
    FIND_RETURN: "int | None",  # exact after normalisation
    UPPER_RETURN: "Names",  # an alias: equivalent through assert_type
    DESCRIBE_RETURN: "int",  # adds an error: wrong
}
EXPECTED = {
    SCALED: (0.5, "compatible"),
    FIND_NAMES: (0.5, "compatible"),
    FIND_RETURN: (1.0, "exact"),
    UPPER_RETURN: (1.0, "equivalent"),
    DESCRIBE_RETURN: (0.0, "wrong"),
}


def levels(answer: Mapping[str, str], engine: str = "mypy") -> dict[str, tuple[float, str]]:
    found = verdicts(score_answer(task(engine), freeze(answer)))
    return {slot: (verdict["credit"], verdict["level"]) for slot, verdict in found.items()}


def test_one_run_judges_every_slot_as_if_it_were_checked_alone() -> None:
    result = score_answer(task(), freeze(MIXED))
    assert result.details["checker_runs"] == 1
    batched = levels(MIXED)
    assert {slot: batched[slot] for slot in EXPECTED} == EXPECTED
    one_by_one = {slot: levels({**GOLD, slot: MIXED[slot]})[slot] for slot in EXPECTED}
    assert one_by_one == EXPECTED
    assert all(batched[slot] == (1.0, "exact") for slot in GOLD if slot not in EXPECTED)


def test_pyright_judges_the_mixed_answer_in_one_run() -> None:
    # "int | None" would leave Optional unused, an error under pyright strict: the reference spelling here.
    mixed = {**MIXED, FIND_RETURN: GOLD[FIND_RETURN]}
    result = score_answer(task("pyright"), freeze(mixed))
    assert result.details["checker_runs"] == 1
    batched = levels(mixed, "pyright")
    assert {slot: batched[slot] for slot in EXPECTED if slot != FIND_RETURN} == {
        slot: level for slot, level in EXPECTED.items() if slot != FIND_RETURN
    }


REPO = RepoRef("fixture-two", "1.0", "local", "ef" * 32)
A_SOURCE = "def count():\n    return 1\n"
A_ANNOTATED = "def count() -> int:\n    return 1\n"
B_SOURCE = "from pkg.a import count\n\n\ndef twice():\n    return 2 * count()\n"
B_ANNOTATED = "from pkg.a import count\n\n\ndef twice() -> int:\n    return 2 * count()\n"


def module_task(
    module: str,
    source: str,
    gold: Mapping[str, str],
    files: Mapping[str, str],
    *,
    engine: str = "mypy",
    flag: str | None = None,
) -> Task:
    params: dict[str, object] = {
        "module": module,
        "path": module.replace(".", "/") + ".py",
        "source": source,
        "files": {"pkg/__init__.py": "", **files},
        "engine": engine,
        "flags": [flag or ("--strict" if engine == "mypy" else "strict")],
        "checker_version": checker_version(engine),
    }

    def build(extra: dict[str, object]) -> Task:
        return make_task(
            kind="type-completion",
            repo=REPO,
            prompt=f"Restore the stripped annotations of {module}.",
            inputs={"module": module, "slots": sorted(gold)},
            answer=dict(gold),
            answer_schema={"type": "object", "additionalProperties": {"type": "string"}},
            verifier=VerifierSpec("types", freeze_object({**params, **extra})),
        )

    return build({"baseline": list(baseline_of(build({})))})


def test_modules_of_one_repository_share_a_tree_and_see_each_others_files() -> None:
    a = module_task("pkg.a", A_SOURCE, {"pkg.a.count:return": "int"}, {"pkg/b.py": B_ANNOTATED})
    b = module_task("pkg.b", B_SOURCE, {"pkg.b.twice:return": "int"}, {"pkg/a.py": A_ANNOTATED})
    context_a = prepare(a.repo, a.answer, a.verifier.params).context
    context_b = prepare(b.repo, b.answer, b.verifier.params).context
    assert context_a.key == context_b.key
    assert context_a.files_digest != context_b.files_digest
    # b's check needs a annotated (its task's files), a's check has a stripped: the shared tree follows each.
    for judged, slot in [(b, "pkg.b.twice:return"), (a, "pkg.a.count:return"), (b, "pkg.b.twice:return")]:
        result = score_answer(judged, freeze({slot: "object"}))
        assert verdicts(result)[slot]["level"] == "compatible", result.details
        assert score_answer(judged, freeze({slot: "str"})).value == 0.0


YAML_SOURCE = "import yaml\n\n\ndef load(text):\n    return yaml.compose(text)\n"
YAML_GOLD = {"pkg.loader.load:param:text": "str", "pkg.loader.load:return": "yaml.Node"}
YAML_RETURN = "pkg.loader.load:return"


def test_a_reference_from_an_unresolved_import_is_never_equivalent_through_the_checker() -> None:
    # mypy runs without site-packages: yaml.Node and yaml.NoSuchThing are both Any, so assert_type accepts it.
    loader = module_task("pkg.loader", YAML_SOURCE, YAML_GOLD, {})
    assert any("yaml" in error for error in loader.verifier.params["baseline"])  # type: ignore[union-attr]
    result = score_answer(loader, freeze({**YAML_GOLD, YAML_RETURN: "yaml.NoSuchThing"}))
    assert verdicts(result)[YAML_RETURN]["credit"] == 0.5
    assert verdicts(result)[YAML_RETURN]["reason"] == "the checker sees the reference as Any"
    assert result.value == 0.75
    assert score_answer(loader, freeze(YAML_GOLD)).value == 1.0
    nested = module_task("pkg.loader", YAML_SOURCE, {**YAML_GOLD, YAML_RETURN: "list[yaml.Node]"}, {})
    wrong = score_answer(nested, freeze({**YAML_GOLD, YAML_RETURN: "list[yaml.Nothing]"}))
    assert verdicts(wrong)[YAML_RETURN]["credit"] < 1.0


@pytest.mark.parametrize(
    ("engine", "flag", "expected"),
    [("mypy", "--strict", 0.5), ("pyright", "basic", 0.5), ("pyright", "strict", 0.0)],
)
def test_a_reference_from_a_missing_module_is_never_equivalent_through_the_checker(
    engine: str, flag: str, expected: float
) -> None:
    # pyright strict already reports the unknown member the answer names; basic mode takes it as Unknown.
    source = YAML_SOURCE.replace("yaml", "dure_missing_module")
    gold = {slot: text.replace("yaml", "dure_missing_module") for slot, text in YAML_GOLD.items()}
    loader = module_task("pkg.loader", source, gold, {}, engine=engine, flag=flag)
    result = score_answer(loader, freeze({**gold, YAML_RETURN: "dure_missing_module.NoSuchThing"}))
    assert verdicts(result)[YAML_RETURN]["credit"] == expected, result.details


ANSWERS = [
    json.dumps(MIXED),
    f"<answer>{json.dumps(GOLD)}</answer>",  # exact: no checker
    json.dumps({**GOLD, UPPER_RETURN: "Names"}),  # equivalent through assert_type
    json.dumps({**GOLD, DESCRIBE_RETURN: "int"}),  # adds an error
    json.dumps(dict.fromkeys(GOLD, "object")),  # top types everywhere
    "no answer here",  # malformed
    json.dumps(["not", "an", "object"]),  # malformed for this verifier
]


def test_answers_judged_together_score_as_they_do_alone_in_one_checker_run(checker_runs: list[int]) -> None:
    alone = [score(task(), text) for text in ANSWERS]
    checker_runs.clear()
    together = score_many(task(), ANSWERS)
    assert len(checker_runs) == 1  # every answer's files in one checker run
    assert [(s.value, s.passed, s.error) for s in together] == [(s.value, s.passed, s.error) for s in alone]
    assert [s.components for s in together] == [s.components for s in alone]
    for one, other in zip(together, alone, strict=True):
        assert one.details.get("slots") == other.details.get("slots")
    assert together[0].details["checker_runs"] == 1
    assert together[1].details["checker_runs"] == 0
    assert together[5].error is not None
    assert together[5].error.startswith("malformed answer")


def test_the_self_audit_of_a_types_task_runs_the_checker_once(checker_runs: list[int]) -> None:
    judged = task()  # its baseline takes a run of its own
    checker_runs.clear()
    audit = audit_task(judged)
    assert audit.ok, audit.reason
    assert len(checker_runs) == 1


PAIR_SOURCE = "def count():\n    return 1\n\n\ndef name():\n    return 'x'\n"
COUNT, NAME = "pkg.pair.count:return", "pkg.pair.name:return"


def pair_tasks() -> list[Task]:
    """Two tasks on one stripped module: one source tree, so their checks can share a run."""
    return [module_task("pkg.pair", PAIR_SOURCE, gold, {}) for gold in ({COUNT: "int"}, {NAME: "str"})]


PAIR_ANSWERS = {
    COUNT: ['{"pkg.pair.count:return": "object"}', '{"pkg.pair.count:return": "str"}', "not json"],
    NAME: ['{"pkg.pair.name:return": "int"}', '{"pkg.pair.name:return": "typing.Any"}'],
}


def test_tasks_of_one_tree_are_judged_in_one_run_and_score_as_they_do_alone(checker_runs: list[int]) -> None:
    tasks = pair_tasks()
    work = [(one, PAIR_ANSWERS[next(iter(one.answer))]) for one in tasks]
    checker_runs.clear()
    alone = [score_many(one, answers) for one, answers in work]
    assert len(checker_runs) == 2
    checker_runs.clear()
    together = score_across(work)
    assert len(checker_runs) == 1
    assert [[(s.value, s.error, s.details) for s in scores] for scores in together] == [
        [(s.value, s.error, s.details) for s in scores] for scores in alone
    ]
    assert [s.value for s in together[0]] == [0.5, 0.0, 0.0]  # object: top credit; str: wrong; malformed


def test_a_shared_run_that_fails_is_run_again_task_by_task(
    checker_runs: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    tasks = pair_tasks()
    work = [(one, PAIR_ANSWERS[next(iter(one.answer))]) for one in tasks]
    alone = [score_many(one, answers) for one, answers in work]
    real = types._check_batch

    def only_alone(settings: CheckerSettings, requests: list[tuple[Context, list[str]]]) -> object:
        if len(requests) > 1:
            raise CheckerError("mypy did not run to completion (a file of another task broke the run)")
        return real(settings, requests)

    monkeypatch.setattr(types, "_check_batch", only_alone)
    together = score_across(work)
    assert [[(s.value, s.error) for s in scores] for scores in together] == [
        [(s.value, s.error) for s in scores] for scores in alone
    ]


def test_a_repositorys_audits_share_one_run(checker_runs: list[int]) -> None:
    tasks = pair_tasks()
    alone = [audit_task(one) for one in tasks]
    checker_runs.clear()
    together = audit_many(tasks)
    assert len(checker_runs) == 1
    assert together == alone
    assert all(audit.ok for audit in together), [audit.reason for audit in together]


def test_baselines_of_several_tasks_take_one_run_and_a_bad_task_fails_alone(checker_runs: list[int]) -> None:
    tasks = pair_tasks()
    broken = dataclasses.replace(
        tasks[0], verifier=VerifierSpec("types", freeze_object({"module": "pkg.pair"}))
    )
    checker_runs.clear()
    found = baselines_with([(tasks[0], ["x: int = ''\n"]), (broken, []), (tasks[1], [])])
    assert len(checker_runs) == 1
    assert found[0] == baseline_with(tasks[0], ["x: int = ''\n"])
    assert isinstance(found[1], TaskError)
    assert found[2] == baseline_with(tasks[1])
    assert not isinstance(found[0], Exception)
    assert [d.code for d in found[0][1][0]] == ["assignment"]


CEILING_ANSWERS = [
    MIXED,  # adds an error: without the variants, every slot counts as compatible
    GOLD,  # exact: no checker
    {**GOLD, UPPER_RETURN: "Names"},  # equivalent, adds no error: the ceiling is the score
    {**GOLD, DESCRIBE_RETURN: "int"},  # one slot adds an error: decided without variants
    dict.fromkeys(GOLD, "object"),  # top types: bounded before any checker run
    dict.fromkeys(GOLD, "complex"),  # the audit's wrong types: every probe fails
    {**GOLD, FIND_NAMES: "Sequence[str]", SCALED: "int"},
    {SCALED: "float"},  # missing slots
]


def test_a_ceiling_is_never_below_the_score_and_is_the_score_without_new_errors(
    checker_runs: list[int],
) -> None:
    answers = [freeze(answer) for answer in CEILING_ANSWERS]
    scores = [result.value for result in score_many(task(), [json.dumps(a) for a in CEILING_ANSWERS])]
    checker_runs.clear()
    (ceilings,) = types.TypesVerifier().ceilings_across([(task(), [(answer, 0.0) for answer in answers])])
    assert len(checker_runs) == 1  # every answer past its limit in one run, without the per-slot variants
    assert checker_runs[0] < len(GOLD) + 1
    assert all(ceiling is not None for ceiling in ceilings)
    assert all(ceiling >= value for ceiling, value in zip(ceilings, scores, strict=True)), (ceilings, scores)
    assert ceilings[1] == scores[1] == 1.0
    assert ceilings[2] == scores[2]  # the combined module adds no error: nothing is left to bound
    assert ceilings[3] == scores[3]  # one pending slot is its own variant
    assert ceilings[0] > scores[0]  # the wrong slot of MIXED is only found by its variant
    assert ceilings[4] == 0.5
    assert ceilings[7] == 1 / len(GOLD)


def test_a_ceiling_within_the_limit_needs_no_checker_run(checker_runs: list[int]) -> None:
    top = freeze(dict.fromkeys(GOLD, "typing.Any"))
    judged = task()
    checker_runs.clear()
    (ceilings,) = types.TypesVerifier().ceilings_across([(judged, [(top, 0.5), (freeze([1]), 0.5)])])
    assert ceilings == [0.5, None]  # at most the top-type credit; a malformed answer has no ceiling
    assert checker_runs == []


def test_the_audit_bounds_the_wrong_baselines_and_keeps_the_verdict(checker_runs: list[int]) -> None:
    judged = task()
    checker_runs.clear()
    audit = audit_task(judged)
    files = sum(checker_runs)
    assert audit.ok, audit.reason
    wrong = {case.name: case for case in audit.cases if case.expect.value == "wrong"}
    assert wrong["all Any"].bounded
    assert wrong["all Any"].value == 0.5
    assert wrong["wrong types"].bounded
    assert not any(case.bounded for case in audit.cases if case.expect.value == "equivalent")
    cases = types.TypesVerifier().audit_cases(task())
    checker_runs.clear()
    scored = score_many(task(), [json.dumps(thaw(case.answer)) for case in cases])
    assert files < sum(checker_runs)  # the scores of every case take more files than their ceilings
    by_name = {case.name: value.value for case, value in zip(cases, scored, strict=True)}
    assert all(case.value >= by_name[name] for name, case in wrong.items())


def test_an_audit_whose_ceilings_fail_scores_the_baselines(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(self: object, work: object) -> object:
        raise RuntimeError("no ceilings today")

    monkeypatch.setattr(types.TypesVerifier, "ceilings_across", broken)
    audit = audit_task(task())
    assert audit.ok, audit.reason
    assert not any(case.bounded for case in audit.cases)


def test_dure_audit_prints_a_bounded_baseline_as_at_most(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "tasks.jsonl"
    write_tasks(path, [task()])
    assert main(["audit", str(path), "-v"]) == ExitCode.OK
    printed = capsys.readouterr().out
    assert "all Any (wrong): at most 0.500" in printed
    assert "reference (equivalent): 1.000" in printed
    assert "1 tasks audited, 0 would be dropped" in printed

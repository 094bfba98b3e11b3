"""The ``types`` verifier on a small fixture package, mypy-clean under ``--strict`` (and pyright strict)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from dure.scoring import score, score_answer
from dure.tasks import RepoRef, Score, Task, TaskKind, VerifierSpec, make_task
from dure.tasks.frozen import freeze, freeze_object, thaw
from dure.verifiers import DEFAULT_VERIFIER, get_verifier
from dure.verifiers.audit import audit_task
from dure.verifiers.typecheck import checker_version
from dure.verifiers.types import baseline_of
from dure.verifiers.typeslots import build_template

REPO = RepoRef("fixture", "1.0", "local", "cd" * 32)
MODULE = "pkg.geometry"
PATH = "pkg/geometry.py"

SOURCE = '''\
"""A small module with annotated functions (the gold of the type-completion tests)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Optional, TypeVar

T = TypeVar("T")
U = TypeVar("U")
Names = list[str]
Label = str
Count = int


class Point:
    def __init__(self, x: float, y: float) -> None:
        self.x = x
        self.y = y

    def scaled(self, factor):
        return Point(self.x * factor, self.y * factor)


def find(names, wanted: str):
    for index, name in enumerate(names):
        if name == wanted:
            return index
    return None


def upper_all(names: list[str]):
    return [name.upper() for name in names]


def first(items, /):
    return items[0]


def describe(count: int):
    return f"{count} items"
'''

GOLD = {
    f"{MODULE}.Point.scaled:param:factor": "float",
    f"{MODULE}.Point.scaled:return": "Point",
    f"{MODULE}.find:param:names": "list[str]",
    f"{MODULE}.find:return": "Optional[int]",
    f"{MODULE}.upper_all:return": "list[str]",
    f"{MODULE}.first:param:items": "Sequence[T]",
    f"{MODULE}.first:return": "T",
    f"{MODULE}.describe:return": "str",
}
SCALED = f"{MODULE}.Point.scaled:param:factor"
FIND_RETURN = f"{MODULE}.find:return"
FIND_NAMES = f"{MODULE}.find:param:names"
UPPER_RETURN = f"{MODULE}.upper_all:return"
DESCRIBE_RETURN = f"{MODULE}.describe:return"


def types_task(engine: str = "mypy", baseline: tuple[str, ...] | None = None, **extra: object) -> Task:
    flags = ["--strict"] if engine == "mypy" else ["strict"]
    params: dict[str, object] = {
        "module": MODULE,
        "path": PATH,
        "source": SOURCE,
        "files": {"pkg/__init__.py": ""},
        "engine": engine,
        "flags": flags,
        "checker_version": checker_version(engine),
        **extra,
    }
    if baseline is not None:
        params["baseline"] = list(baseline)
    return make_task(
        kind="type-completion",
        repo=REPO,
        prompt="Restore the stripped annotations of pkg.geometry.",
        inputs={"module": MODULE, "slots": sorted(GOLD)},
        answer=GOLD,
        answer_schema={"type": "object", "additionalProperties": {"type": "string"}},
        verifier=VerifierSpec("types", freeze_object(params)),
    )


@functools.cache
def task(engine: str = "mypy") -> Task:
    return types_task(engine, baseline_of(types_task(engine)))


def verdicts(result: Score) -> dict[str, Any]:
    """Slot -> {"credit", "level", "reason"} from a score's details."""
    assert result.error is None, result.error
    found: dict[str, Any] = thaw(result.details["slots"])
    return found


def judge(answer: Mapping[str, object], engine: str = "mypy") -> tuple[float, dict[str, str]]:
    result = score_answer(task(engine), freeze(answer))
    return result.value, {slot: verdict["level"] for slot, verdict in verdicts(result).items()}


def with_slot(slot: str, text: object) -> dict[str, object]:
    return {**GOLD, slot: text}


def credit(answer: dict[str, object], slot: str, engine: str = "mypy") -> tuple[float, str]:
    verdict = verdicts(score_answer(task(engine), freeze(answer)))[slot]
    return verdict["credit"], verdict["level"]


def test_the_fixture_is_clean_under_strict_mypy() -> None:
    assert baseline_of(types_task()) == ()


def test_the_template_keeps_formatting_and_line_numbers() -> None:
    template = build_template(SOURCE, MODULE, list(GOLD), is_package=False)
    filled = template.render(GOLD)
    assert len(filled.splitlines()) == len(SOURCE.splitlines())
    assert "    def scaled(self, factor: float) -> Point:" in filled
    assert "def first(items: Sequence[T], /) -> T:" in filled
    assert '"""A small module' in filled


def test_the_reference_answer_scores_one_without_running_the_checker() -> None:
    result = score_answer(task(), freeze(GOLD))
    assert result.value == 1.0
    assert result.passed
    assert result.details["checker_runs"] == 0
    assert set(result.components) == {"format", "exact", "equivalent", "compatible"}


@pytest.mark.parametrize(
    ("slot", "text"),
    [
        (FIND_RETURN, "int | None"),
        (FIND_RETURN, "None | int"),
        (FIND_RETURN, "typing.Union[int, None]"),
        (FIND_RETURN, "'Optional[int]'"),
        (FIND_NAMES, "typing.List[str]"),
        (FIND_NAMES, "typing.List['str']"),
        (f"{MODULE}.Point.scaled:return", "pkg.geometry.Point"),
        (f"{MODULE}.Point.scaled:return", "'Point'"),
    ],
)
def test_other_spellings_are_exact(slot: str, text: str) -> None:
    assert credit(with_slot(slot, text), slot) == (1.0, "exact")


def test_consistent_typevar_renaming_is_exact() -> None:
    items, returned = f"{MODULE}.first:param:items", f"{MODULE}.first:return"
    value, levels = judge({**GOLD, items: "Sequence[U]", returned: "U"})
    assert value == 1.0
    assert levels[items] == levels[returned] == "exact"
    value, levels = judge({**GOLD, items: "Sequence[U]", returned: "T"})
    assert value < 1.0
    assert levels[returned] == "wrong"


def test_a_typevar_bound_outside_the_slots_is_not_renamed() -> None:
    # Only the parameter is a slot; the return annotation stays T, so U there changes the meaning.
    source = SOURCE.replace("def first(items, /):", "def first(items, /) -> T:")
    gold = {slot: text for slot, text in GOLD.items() if slot != f"{MODULE}.first:return"}
    fixed = types_task(baseline=(), source=source)
    fixed = make_task(
        kind="type-completion", repo=REPO, prompt=fixed.prompt, inputs=fixed.inputs, answer=gold,
        answer_schema=fixed.answer_schema, verifier=fixed.verifier,
    )  # fmt: skip
    items = f"{MODULE}.first:param:items"
    result = score_answer(fixed, freeze({**gold, items: "Sequence[U]"}))
    assert verdicts(result)[items]["level"] == "wrong"
    assert score_answer(fixed, freeze({**gold, items: "Sequence[T]"})).value == 1.0


def test_an_equivalent_alias_scores_one_through_assert_type() -> None:
    assert credit(with_slot(UPPER_RETURN, "Names"), UPPER_RETURN) == (1.0, "equivalent")
    assert credit(with_slot(DESCRIBE_RETURN, "Label"), DESCRIBE_RETURN) == (1.0, "equivalent")


def test_a_weaker_type_that_type_checks_scores_half() -> None:
    value, levels = judge(with_slot(FIND_NAMES, "Sequence[str]"))
    assert levels[FIND_NAMES] == "compatible"
    assert value == pytest.approx((len(GOLD) - 0.5) / len(GOLD))
    assert credit(with_slot(FIND_RETURN, "int | str | None"), FIND_RETURN) == (0.5, "compatible")


def test_a_wrong_type_that_adds_an_error_scores_zero() -> None:
    assert credit(with_slot(DESCRIBE_RETURN, "int"), DESCRIBE_RETURN) == (0.0, "wrong")
    assert credit(with_slot(SCALED, "str"), SCALED) == (0.0, "wrong")


def test_only_the_wrong_slot_loses_credit_when_several_are_checked() -> None:
    answer = {**GOLD, DESCRIBE_RETURN: "int", UPPER_RETURN: "Names", FIND_NAMES: "Sequence[str]"}
    result = score_answer(task(), freeze(answer))
    levels = {slot: v["level"] for slot, v in verdicts(result).items()}
    assert levels[DESCRIBE_RETURN] == "wrong"
    assert levels[UPPER_RETURN] == "equivalent"
    assert levels[FIND_NAMES] == "compatible"
    assert result.details["checker_runs"] == 1
    # all three together, each alone, and the reference probes unless an earlier answer had them checked
    assert result.details["checked_variants"] in (4, 5)


@pytest.mark.parametrize("top", ["Any", "typing.Any", "object", "builtins.object"])
def test_any_and_object_never_score_one(top: str) -> None:
    for slot in (DESCRIBE_RETURN, FIND_NAMES, SCALED):
        got, level = credit(with_slot(slot, top), slot)
        assert got < 1.0, (slot, top, level)
    everything, _ = judge(dict.fromkeys(GOLD, top))
    assert everything <= 0.5


def test_top_type_credit_can_be_zero() -> None:
    strict = types_task(baseline=(), top_type_credit=0)
    result = score_answer(strict, freeze(with_slot(DESCRIBE_RETURN, "object")))
    assert verdicts(result)[DESCRIBE_RETURN]["credit"] == 0.0


PWNED = Path("/tmp/dure-types-pwned")


@pytest.mark.parametrize(
    "text",
    [
        f"__import__('os').system('touch {PWNED}')",
        f'\'__import__("os").system("touch {PWNED}")\'',
        "list[__import__('os').system('id')]",
        "lambda: int",
        "[x for x in (int,)]",
        "f'{int}'",
        "(x := int)",
        "int + str",
        "int\nimport os",
        "int; import os",
        "int  # comment",
        "",
        "   ",
        "x" * 5000,
        "[" * 400,
        "Optional[" * 50 + "int" + "]" * 50,
        "\x00",
    ],
)
def test_code_in_type_strings_is_never_run_and_scores_zero(text: str) -> None:
    PWNED.unlink(missing_ok=True)
    got, level = credit(with_slot(DESCRIBE_RETURN, text), DESCRIBE_RETURN)
    assert got == 0.0
    assert level in {"unsafe", "wrong"}
    assert not PWNED.exists()


@pytest.mark.parametrize("text", [None, 3, True, ["str"], {"a": [1, {"b": None}]}])
def test_non_string_types_score_zero_for_their_slot(text: object) -> None:
    assert credit(with_slot(DESCRIBE_RETURN, text), DESCRIBE_RETURN) == (0.0, "unsafe")


def test_unicode_names_are_just_wrong() -> None:
    assert credit(with_slot(DESCRIBE_RETURN, "Ünïcødé"), DESCRIBE_RETURN)[0] == 0.0


@pytest.mark.parametrize("answer", [[], "str", None, 3, ["a", "b"]])
def test_an_answer_that_is_not_an_object_is_malformed(answer: object) -> None:
    result = score_answer(task(), freeze(answer))
    assert result.value == 0.0
    assert result.error is not None
    assert set(result.components) == {"format", "exact", "equivalent", "compatible"}


@pytest.mark.parametrize("text", ["not json", "{", '{"a": ', "```json\n[1,\n```", "<answer>{]</answer>"])
def test_text_that_is_not_json_is_malformed(text: str) -> None:
    result = score(task(), text)
    assert result.value == 0.0
    assert result.error is not None


def test_huge_answers_are_refused() -> None:
    result = score_answer(task(), freeze({f"extra{i}": "int" for i in range(5000)}))
    assert result.value == 0.0
    assert result.error is not None


def test_missing_slots_score_zero_and_extra_slots_are_ignored() -> None:
    partial = {slot: text for slot, text in GOLD.items() if slot != DESCRIBE_RETURN}
    value, levels = judge({**partial, f"{MODULE}.nowhere:return": "int", "garbage": "x"})
    assert levels[DESCRIBE_RETURN] == "missing"
    assert value == pytest.approx((len(GOLD) - 1) / len(GOLD))
    result = score_answer(task(), freeze({**GOLD, "extra": "int"}))
    assert result.value == 1.0
    assert result.details["extra_slots"] == 1


def test_same_length_answers_within_one_second_get_their_own_verdicts() -> None:
    # "Count" and "Label" fill the module to the same size: a cache trusting size + mtime would go stale.
    verdicts = [credit(with_slot(DESCRIBE_RETURN, text), DESCRIBE_RETURN) for text in ("Count", "Label") * 2]
    assert verdicts == [(0.0, "wrong"), (1.0, "equivalent")] * 2


def test_a_checker_version_mismatch_refuses_to_judge() -> None:
    other = types_task(baseline=(), checker_version="0.0.1")
    result = score_answer(other, freeze(with_slot(DESCRIBE_RETURN, "Label")))
    assert result.value == 0.0
    assert "refusing to judge" in (result.error or "")
    anyway = types_task(baseline=(), checker_version="0.0.1", any_version=True)
    assert score_answer(anyway, freeze(with_slot(DESCRIBE_RETURN, "Label"))).value == 1.0


def test_a_checker_that_does_not_run_is_an_error_not_a_pass() -> None:
    broken = types_task(baseline=(), flags=["--no-such-flag"])
    result = score_answer(broken, freeze(with_slot(DESCRIBE_RETURN, "Label")))
    assert result.value == 0.0
    assert "mypy" in (result.error or "")


def test_a_bad_task_is_an_error() -> None:
    bad = types_task(baseline=(), source=SOURCE.replace("def describe", "def describe_renamed"))
    result = score_answer(bad, freeze(GOLD))
    assert result.value == 0.0
    assert "describe" in (result.error or "")


def test_the_registry_and_default_verifier_know_types() -> None:
    assert get_verifier("types").name == "types"
    assert DEFAULT_VERIFIER[TaskKind.TYPE_COMPLETION] == "types"


def test_the_self_audit_passes() -> None:
    audit = audit_task(task())
    assert audit.ok, audit.reason


def test_pyright_exact_equivalent_and_wrong() -> None:
    assert baseline_of(types_task("pyright")) == ()
    assert judge(GOLD, "pyright")[0] == 1.0
    assert credit(with_slot(FIND_RETURN, "int | None"), FIND_RETURN, "pyright") == (1.0, "exact")
    assert credit(with_slot(DESCRIBE_RETURN, "Label"), DESCRIBE_RETURN, "pyright") == (1.0, "equivalent")
    assert credit(with_slot(DESCRIBE_RETURN, "int"), DESCRIBE_RETURN, "pyright") == (0.0, "wrong")
    result = score_answer(task("pyright"), freeze(with_slot(DESCRIBE_RETURN, "int")))
    assert str(result.details["checker"]).startswith("pyright ")


def cached_task(repo: RepoRef) -> Task:
    """The fixture task without its ``files``: the repository must come from the corpus cache."""
    base = types_task(baseline=baseline_of(types_task()))
    params = {key: value for key, value in thaw(base.verifier.params).items() if key != "files"}
    return make_task(
        kind="type-completion",
        repo=repo,
        prompt=base.prompt,
        inputs=base.inputs,
        answer=base.answer,
        answer_schema=base.answer_schema,
        verifier=VerifierSpec("types", freeze_object(params)),
    )


def test_an_exact_answer_scores_one_without_the_repository_at_hand() -> None:
    """A trainer node that never fetched the repository still rewards the reference (no checker needed)."""
    missing = cached_task(RepoRef("not-fetched", "1.0", "local", "ab" * 32))
    assert score_answer(missing, freeze(GOLD)).value == 1.0
    judged = score_answer(missing, freeze(with_slot(UPPER_RETURN, "Names")))
    assert judged.value == 0.0
    assert judged.error is not None
    assert "not in the corpus cache" in judged.error


def test_a_registry_repository_is_fetched_when_an_answer_needs_the_checker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tree = tmp_path / "fixture-2.0"
    (tree / "pkg").mkdir(parents=True)
    (tree / "pkg" / "__init__.py").write_text("")
    (tree / PATH).write_text(SOURCE)
    asked: list[tuple[str, str, str]] = []

    def fetch(spec: Any) -> Path:
        asked.append((spec.name, spec.version, spec.sha256))
        return tree

    monkeypatch.setattr("dure.verifiers.types.fetch_package", fetch)
    registry = RepoRef("fixture", "2.0", "pypi", "ee" * 32)
    result = score_answer(cached_task(registry), freeze(with_slot(UPPER_RETURN, "Names")))
    assert result.error is None, result.error
    assert result.value == 1.0
    assert asked == [("fixture", "2.0", "ee" * 32)]


def test_a_failed_fetch_is_a_clear_zero(monkeypatch: pytest.MonkeyPatch) -> None:
    from dure.errors import FetchError  # noqa: PLC0415

    def offline(spec: Any) -> Path:
        raise FetchError(spec.name, "no network")

    monkeypatch.setattr("dure.verifiers.types.fetch_package", offline)
    registry = RepoRef("fixture", "3.0", "pypi", "dd" * 32)
    result = score_answer(cached_task(registry), freeze(with_slot(UPPER_RETURN, "Names")))
    assert result.value == 0.0
    assert result.error is not None
    assert (
        "fixture 3.0 is not in the corpus cache and could not be fetched: fixture: no network" in result.error
    )

"""The archaeology generators on a small repository whose answers are known by reading it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from dure.generators._registry import generator_for
from dure.generators.base import Candidate, Drop, DropReason
from dure.generators.pipeline import leaks
from dure.scoring import score
from dure.tasks.codec import encode_task
from dure.tasks.frozen import thaw
from dure.tasks.model import Task, TaskKind
from dure.verifiers.audit import audit_task
from tests.generator_support import SHOP, source_of

TemporaryRepo = Callable[[dict[str, str]], Path]


def _candidates(root: Path, kind: TaskKind, seed: int = 0) -> list[Candidate | Drop]:
    return list(generator_for(kind).candidates(source_of(root, seed=seed), kind))


def _tasks(root: Path, kind: TaskKind) -> dict[str, Task]:
    """Tasks by their subject (``inputs.symbol``, or ``source->target`` for paths)."""
    found = {}
    for item in _candidates(root, kind):
        if isinstance(item, Candidate):
            inputs = thaw(item.task.inputs)
            found[inputs.get("symbol") or f"{inputs['source']}->{inputs['target']}"] = item.task
    return found


@pytest.fixture
def shop(temporary_repo: TemporaryRepo) -> Path:
    return temporary_repo(SHOP)


def test_callers_lists_every_direct_caller(shop: Path) -> None:
    task = _tasks(shop, TaskKind.CALLERS)["shop.prices.discount"]
    assert sorted(task.answer) == ["shop.items.Book.price", "shop.items.checkout"]
    assert task.verifier.name == "set"
    assert "shop.items.checkout" not in task.prompt
    assert score(task, '["shop.items.checkout", "shop.items.Book.price"]').passed
    assert score(task, '["shop.items.checkout"]').value < 1.0


def test_callees_ignore_what_is_not_asked(shop: Path) -> None:
    task = _tasks(shop, TaskKind.CALLEES)["shop.prices.discount"]
    assert list(task.answer) == ["shop.prices.round_price"]
    # the builtin-free answer plus an external call listed anyway still passes: externals are ignored
    total = _tasks(shop, TaskKind.CALLEES)["shop.prices.total"]
    assert "math.fsum" in thaw(total.verifier.params)["ignored"]
    assert score(total, '["shop.prices.round_price", "math.fsum"]').passed


def test_subclasses_are_transitive(shop: Path) -> None:
    task = _tasks(shop, TaskKind.SUBCLASSES)["shop.items.Item"]
    assert sorted(task.answer) == ["shop.items.Book", "shop.items.Ebook", "shop.items.Food"]
    assert task.difficulty["hops"] == 2


def test_external_deps_follow_repository_calls(shop: Path) -> None:
    task = _tasks(shop, TaskKind.EXTERNAL_DEPS)["shop.items.checkout"]
    assert list(task.answer) == ["fractions"]
    assert score(task, '["fractions"]').passed
    assert not score(task, '["fractions", "math"]').passed


def test_call_path_carries_its_graph(shop: Path) -> None:
    task = _tasks(shop, TaskKind.CALL_PATH)["shop.items.checkout->shop.prices.round_price"]
    assert list(task.answer) == ["shop.items.checkout", "shop.prices.discount", "shop.prices.round_price"]
    assert ["shop.items.checkout", "shop.prices.discount"] in thaw(task.verifier.params)["graph"]
    assert "shop.prices.discount" not in task.prompt


def test_definition_masks_the_name(shop: Path) -> None:
    found = {t.answer: t for t in _tasks_by_answer(shop)}
    task = found["shop.prices.discount"]
    assert "Take a percentage off a price." in task.prompt
    assert "discount" not in task.prompt.replace("shop.prices.round_price", "")
    assert "prices.py" not in task.prompt
    assert score(task, '"shop.prices.discount"').passed


def test_a_description_masks_calls_of_nested_functions(temporary_repo: TemporaryRepo) -> None:
    root = temporary_repo(
        {
            "m/__init__.py": "",
            "m/render.py": (
                "def render(items):\n"
                '    """Render items as lines."""\n\n'
                "    def line(item):\n        return str(item)\n\n"
                "    return [line(i) for i in items]\n"
            ),
        }
    )
    (task,) = [t for t in _tasks_by_answer(root) if t.answer == "m.render.render"]
    assert "`<name>.line`" in task.prompt
    assert "m.render.render" not in task.prompt


def _tasks_by_answer(root: Path) -> list[Task]:
    return [i.task for i in _candidates(root, TaskKind.DEFINITION) if isinstance(i, Candidate)]


def test_a_description_that_fits_two_functions_is_not_used(temporary_repo: TemporaryRepo) -> None:
    twin = 'def {}(a, b):\n    """Add two numbers."""\n    return abs(a) + abs(b)\n'
    root = temporary_repo({"m/__init__.py": "", "m/a.py": twin.format("plus"), "m/b.py": twin.format("add")})
    items = _candidates(root, TaskKind.DEFINITION)
    assert not [i for i in items if isinstance(i, Candidate)]
    assert {i.reason for i in items if isinstance(i, Drop)} == {DropReason.AMBIGUOUS}


def test_uncertain_questions_are_not_asked(temporary_repo: TemporaryRepo) -> None:
    root = temporary_repo(
        {
            "m/__init__.py": "",
            "m/core.py": (
                "class Job:\n    def target(self):\n        return 1\n\n\n"
                "def dispatch(obj, name):\n    return getattr(obj, name)()\n\n\n"
                "def caller():\n    return Job().target()\n"
            ),
        }
    )
    callers = {i.subject: i for i in _candidates(root, TaskKind.CALLERS) if isinstance(i, Drop)}
    assert callers["m.core.Job.target"].reason is DropReason.UNCERTAIN
    callees = {i.subject: i for i in _candidates(root, TaskKind.CALLEES) if isinstance(i, Drop)}
    assert callees["m.core.dispatch"].reason is DropReason.UNCERTAIN


@pytest.mark.parametrize(
    "kind",
    [
        TaskKind.CALLERS,
        TaskKind.CALLEES,
        TaskKind.SUBCLASSES,
        TaskKind.EXTERNAL_DEPS,
        TaskKind.CALL_PATH,
        TaskKind.DEFINITION,
    ],
)
def test_candidates_pass_the_audit_and_keep_their_answer_out_of_the_prompt(
    shop: Path, kind: TaskKind
) -> None:
    found = [i for i in _candidates(shop, kind) if isinstance(i, Candidate)]
    audits = [audit_task(candidate.task) for candidate in found]
    assert any(audit.ok for audit in audits)
    for candidate, audit in zip(found, audits, strict=True):
        # a repository this small has too few wrong names to make "list everything" a bad answer; the
        # pipeline drops such tasks, and nothing else may fail
        assert audit.ok or (audit.reason or "").startswith("everything"), audit.reason
        assert leaks(candidate.task.prompt, candidate.secrets) is None
        assert candidate.task.phase in (1, 2)


@pytest.mark.parametrize("kind", [TaskKind.CALLERS, TaskKind.CALL_PATH, TaskKind.DEFINITION])
def test_the_same_seed_gives_the_same_tasks(shop: Path, kind: TaskKind) -> None:
    def lines(seed: int) -> list[str]:
        return [encode_task(i.task) for i in _candidates(shop, kind, seed) if isinstance(i, Candidate)]

    assert lines(0) == lines(0)


@pytest.mark.parametrize("kind", [TaskKind.CALLERS, TaskKind.DEFINITION])
def test_another_seed_changes_the_order_not_the_questions(shop: Path, kind: TaskKind) -> None:
    def ids(seed: int) -> list[str]:
        return [i.task.id for i in _candidates(shop, kind, seed) if isinstance(i, Candidate)]

    assert sorted(ids(0)) == sorted(ids(1))


def test_leaks_match_whole_names_only() -> None:
    prompt = "Who calls `pkg.mod.run`? Code in pkg.mod counts."
    assert leaks(prompt, ["pkg.mod"]) == "pkg.mod"
    assert leaks("Who calls `pkg.mod.run`?", ["pkg.mod"]) is None
    assert leaks("Who calls `pkg.mod.run`?", ["pkg.mod.runner", "run"]) is None
    assert leaks("the end of pkg.mod.", ["pkg.mod"]) == "pkg.mod"


def test_trace_checks_drop_answers_the_tests_contradict(shop: Path) -> None:
    (candidate,) = [
        i
        for i in _candidates(shop, TaskKind.CALLERS)
        if isinstance(i, Candidate) and thaw(i.task.inputs)["symbol"] == "shop.prices.discount"
    ]
    assert candidate.trace_check is not None
    agreeing = frozenset({("shop.items.checkout", "shop.prices.discount")})
    assert candidate.trace_check(agreeing) is None
    missing = agreeing | {("tests.test_shop.test_checkout", "shop.prices.discount")}
    assert "tests.test_shop.test_checkout" in (candidate.trace_check(missing) or "")

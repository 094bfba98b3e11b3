"""The dead-code generator: planted dead code no tool finds, what the index proves dead, and the answer sets.

A small shop package with its own tests; the evidence of what the tests run is written by hand (every line
of the functions the tests call, and the module-level lines that run on import), so these tests need no
test run. The slow test runs a real package's tests (for the evidence, and again on planted workspaces).
"""

from __future__ import annotations

import ast
import json
import os
import random
import subprocess
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from conftest import write_repo
from evidence_support import sandbox_python

from dure.analyzers import build_index
from dure.analyzers.model import DefinitionKind
from dure.analyzers.runtime import TestEvidence, collect_evidence
from dure.corpus import resolve_repositories
from dure.generators import dead_code
from dure.generators._registry import generator_for
from dure.generators.base import Candidate, Drop, DropReason, Source
from dure.generators.dead_code import DeadCodeGenerator, VultureTree, vulture_items
from dure.scoring import score_answer
from dure.tasks.frozen import thaw
from dure.tasks.model import RepoRef, Task, TaskKind
from dure.verifiers import _evidence
from dure.verifiers.audit import audit_task
from dure.workspace import materialise, workspace_file

KIND = TaskKind.DEAD_CODE

PRICING = '''\
"""Prices and discounts."""
from typing import TYPE_CHECKING

from .util import clamp, slug

if TYPE_CHECKING:
    from decimal import Decimal

__all__ = ["Cart", "gross_price", "net_price", "report"]

RATE = 0.2


def net_price(amount, rate=RATE):
    """The price without tax.

    Rounded to cents first.
    """
    base = _round_cents(amount)
    return base / (1 + rate)


def _round_cents(amount):
    value = round(amount, 2)
    return clamp(value)


def gross_price(amount):
    total = amount * 1.2
    return _round_cents(total)


def _unused_helper(x):
    return x * 3


def _named_in_a_string(x):
    return x


HANDLERS = {"helper": "_named_in_a_string"}


class Cart:
    def __init__(self):
        self.items = []

    def add(self, price):
        self.items.append(self._check(price))
        return self

    def _check(self, price):
        if price < 0:
            raise ValueError(price)
        return price

    def total(self):
        result = sum(self.items)
        return result

    def _legacy_total(self):
        return 0


def report(cart):
    return str(cart.total())
'''

UTIL = '''\
"""Small helpers."""


def percent(value):
    return value * 100


def clamp(value, low=0.0):
    return max(value, low)


def _normalise(text):
    cleaned = text.strip()
    return cleaned.lower()


def slug(text):
    return _normalise(text).replace(" ", "-")
'''

TESTS = """\
from shop.pricing import Cart, gross_price, net_price
from shop.util import slug


def test_prices():
    assert net_price(1.2) == 1.0
    assert gross_price(1.0) == 1.2


def test_cart():
    assert Cart().add(2).add(3).total() == 5


def test_slug():
    assert slug(" A b ") == "a-b"
"""

FILES = {
    "shop/__init__.py": "",
    "shop/pricing.py": PRICING,
    "shop/util.py": UTIL,
    "tests/test_shop.py": TESTS,
}
#: What the tests run, by function (every line of these; the raise in Cart._check never runs).
RUN = {
    "shop/pricing.py": ("net_price", "_round_cents", "gross_price", "__init__", "add", "_check", "total"),
    "shop/util.py": ("clamp", "_normalise", "slug"),
}
NOT_RUN = {"shop/pricing.py": ("raise ValueError(price)",)}


def import_lines(tree: ast.Module) -> Iterator[int]:
    """The lines that run when a module is imported: its statements, definitions' headers, class bodies."""
    for statement in tree.body:
        yield statement.lineno
        if isinstance(statement, ast.FunctionDef | ast.ClassDef):
            yield from (d.lineno for d in statement.decorator_list)
        checking = isinstance(statement, ast.If) and "TYPE_CHECKING" in ast.unparse(statement.test)
        if isinstance(statement, ast.ClassDef | ast.Try) or (isinstance(statement, ast.If) and not checking):
            yield from import_lines(ast.Module(body=statement.body, type_ignores=[]))


def executed_lines(text: str, functions: Iterable[str], skipped: Iterable[str] = ()) -> frozenset[int]:
    tree = ast.parse(text)
    lines = set(import_lines(tree))
    wanted = set(functions)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name in wanted:
            lines.update(n.lineno for n in ast.walk(node) if isinstance(n, ast.stmt) and n is not node)
    for needle in skipped:
        lines -= {number for number, line in enumerate(text.splitlines(), 1) if needle in line}
    return frozenset(lines)


def fixture_evidence() -> TestEvidence:
    executed = {
        file: executed_lines(FILES[file], functions, NOT_RUN.get(file, ())) for file, functions in RUN.items()
    }
    executed["tests/test_shop.py"] = frozenset(range(1, 16))
    return TestEvidence(executed=executed, passed=3)


def make_source(root: Path, *, seed: int = 0, evidence: TestEvidence | None = None) -> Source:
    found = fixture_evidence() if evidence is None else evidence
    return Source(
        repo=RepoRef("shop", "1.0", str(root), "ab" * 32),
        root=root,
        index=build_index(root, cache=False),
        tests=None,
        seed=seed,
        evidence=lambda: found,
    )


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture repository, shared: generators only read it (each workspace is a fresh copy)."""
    return write_repo(tmp_path_factory.mktemp("shop"), FILES).resolve()


@pytest.fixture(scope="module")
def all_tasks(shop: Path) -> list[Task]:
    """The tasks of one run of the generator with seed 0."""
    return tasks_of(generate(make_source(shop)))


def generate(source: Source) -> list[Candidate | Drop]:
    return list(DeadCodeGenerator().candidates(source, KIND))


def tasks_of(results: list[Candidate | Drop], module: str | None = None) -> list[Task]:
    tasks = [r.task for r in results if isinstance(r, Candidate)]
    return [t for t in tasks if module is None or t.inputs["module"] == module]


@pytest.fixture
def pricing_tasks(all_tasks: list[Task]) -> list[Task]:
    tasks = [t for t in all_tasks if t.inputs["module"] == "shop.pricing"]
    assert tasks, "the pricing module gets tasks"
    return tasks


def params(task: Task) -> dict[str, list[str]]:
    found: dict[str, list[str]] = thaw(task.verifier.params)
    return found


def planted(task: Task) -> list[str]:
    return [str(p) for p in task.provenance["facts"]["planted"]]


def test_the_generator_is_registered() -> None:
    assert isinstance(generator_for("dead-code"), DeadCodeGenerator)


def test_without_test_evidence_nothing_is_claimed_dead(shop: Path) -> None:
    results = generate(make_source(shop, evidence=TestEvidence(error="pytest is missing")))
    assert results == [Drop(KIND, DropReason.NO_EVIDENCE, "shop", "pytest is missing")]


def test_planted_kinds_are_required(pricing_tasks: list[Task]) -> None:
    for task in pricing_tasks:
        answer = set(task.answer)
        kinds = planted(task)
        assert sum(k in kinds for k in ("chain", "twin", "flag-branch")) >= 1
        text = workspace_file(task, "shop/pricing.py")
        assert text is not None
        tree = ast.parse(text)
        defined = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
        new = defined - {n.name for n in ast.walk(ast.parse(PRICING)) if isinstance(n, ast.FunctionDef)}
        for name in new:
            assert any(item.rpartition(".")[2] == name for item in answer), (name, answer)
        if "flag-branch" in kinds:
            branches = [item for item in answer if ":branch:" in item]
            line = text.splitlines()[int(branches[0].rpartition(":")[2]) - 1]
            flag = line.split()[1].rstrip(":")
            assert f"{flag} = False" in text
            assert text.count(flag) == 1 + len(branches), "a fresh flag, bound once, tested by each branch"
    assert any("chain" in planted(t) for t in pricing_tasks)
    assert any("twin" in planted(t) for t in pricing_tasks)
    for task in (t for t in pricing_tasks if "import" in planted(t)):
        assert "shop.pricing:import:percent" in task.answer
        assert "from .util import percent" in str(workspace_file(task, "shop/pricing.py"))


def test_an_unused_import_stays_out_of_the_public_api(shop: Path) -> None:
    source = make_source(shop)
    repo = dead_code._Repository(source, source.evidence())
    pricing, util = repo.view("shop.pricing"), repo.view("shop.util")
    assert pricing is not None
    assert util is not None
    planner = dead_code._Planner(repo, pricing, random.Random(0), dead_code._Used())
    line, statement, bound = planner.import_line() or (0, "", "")
    assert (statement, bound) == ("from .util import percent\n", "percent"), "listed in __all__: no alias"
    assert line == PRICING.splitlines().index("from .util import clamp, slug") + 1
    planted_import = dead_code.plant(pricing, dead_code.Plan(imported=(line, statement, bound)))
    answer = dead_code.classify(pricing, planted_import, repo.original_dead(pricing))
    assert "shop.pricing:import:percent" in answer.required
    assert dead_code._Planner(repo, util, random.Random(0), dead_code._Used()).import_line() is None


def test_a_twin_has_the_name_of_a_live_function_elsewhere(pricing_tasks: list[Task]) -> None:
    task = next(t for t in pricing_tasks if "twin" in planted(t))
    assert "shop.pricing._normalise" in task.answer
    assert "shop.util._normalise" in params(task)["forbidden"]


def test_a_chain_tail_is_called_only_by_its_dead_head(pricing_tasks: list[Task]) -> None:
    task = next(t for t in pricing_tasks if "chain" in planted(t))
    text = workspace_file(task, "shop/pricing.py")
    assert text is not None
    functions = {n.name: n for n in ast.walk(ast.parse(text)) if isinstance(n, ast.FunctionDef)}
    copies = {item.rpartition(".")[2] for item in task.answer} & set(functions) - {"_unused_helper"}

    def called(name: str) -> set[str]:
        calls = [c.func for c in ast.walk(functions[name]) if isinstance(c, ast.Call)]
        return {
            f.id if isinstance(f, ast.Name) else f.attr
            for f in calls
            if isinstance(f, ast.Name | ast.Attribute)
        }

    assert any(called(name) & copies - {name} for name in copies), copies
    assert task.difficulty["hops"] >= 2


def test_proven_dead_original_code_is_required(pricing_tasks: list[Task]) -> None:
    for task in pricing_tasks:
        assert {"shop.pricing._unused_helper", "shop.pricing.Cart._legacy_total"} <= set(task.answer)


def test_executed_code_is_forbidden_and_the_undecidable_ignored(pricing_tasks: list[Task]) -> None:
    for task in pricing_tasks:
        sets = params(task)
        forbidden, ignored = set(sets["forbidden"]), set(sets["ignored"])
        live = {"net_price", "gross_price", "_round_cents", "Cart", "Cart.add", "Cart._check", "Cart.total"}
        assert {f"shop.pricing.{name}" for name in live} <= forbidden
        assert "shop.pricing:import:clamp" in forbidden
        assert "shop.pricing.report" in ignored, "public API never executed"
        assert "shop.pricing.Cart.__init__" in forbidden
        assert "shop.pricing._named_in_a_string" in ignored, "a name written in a string"
        assert "shop.pricing:import:Decimal" in ignored, "a TYPE_CHECKING import"
        assert "shop.pricing:import:slug" in ignored, "an unused import may be a re-export"
        assert not set(task.answer) & (forbidden | ignored)
        assert "shop.pricing.net_price" in sets["candidates"]
        assert not set(sets["candidates"]) & set(task.answer)


def test_the_prompt_explains_the_scheme_without_the_answer(pricing_tasks: list[Task]) -> None:
    for task in pricing_tasks:
        prompt = task.prompt
        for scheme in ("shop.pricing:import:name", "shop.pricing:branch:N", "shop.pricing:unreachable:N"):
            assert scheme in prompt
        for item in task.answer:
            assert item not in prompt
            assert item.rpartition(".")[2] not in prompt or ":" in item


def test_every_task_passes_the_audit_and_the_reference_scores_one(all_tasks: list[Task]) -> None:
    tasks = all_tasks
    assert {t.inputs["module"] for t in tasks} == {"shop.pricing", "shop.util"}
    for task in tasks:
        assert audit_task(task).ok, audit_task(task).reason
        assert score_answer(task, task.answer).value == 1.0
        assert task.phase in (1, 2)
        assert task.difficulty["answer_size"] == len(task.answer)


def test_vulture_scores_are_recorded_and_miss_the_planted_kinds(
    all_tasks: list[Task], tmp_path: Path
) -> None:
    tasks = all_tasks
    for task in tasks:
        record = task.audit["vulture"]
        assert record["required"] == len(task.answer)
        assert 0.0 <= record["score"] < 1.0
        assert record["found"] < record["required"]
    task = next(t for t in tasks if {"twin", "flag-branch"} <= set(planted(t)))
    tree = materialise(task, tmp_path / "shop")
    file = str(task.inputs["file"])
    found = vulture_items(tree, tree / file, str(task.inputs["module"]), (tree / file).read_text())
    hard = [item for item in task.answer if ":branch:" in item or item.endswith("._normalise")]
    assert hard
    assert not set(hard) & set(found)


def test_vulture_on_one_patched_module_finds_what_a_whole_tree_scan_finds(
    all_tasks: list[Task], tmp_path: Path
) -> None:
    """The generator keeps vulture's scan of every file and rescans only the patched module."""
    seen = 0
    for task in all_tasks:
        tree = materialise(task, tmp_path / task.id)
        path = tree / str(task.inputs["file"])
        module, text = str(task.inputs["module"]), path.read_text()
        whole = vulture_items(tree, path, module, text)
        assert VultureTree(tree).items(path, module, text) == whole
        kept = VultureTree(tree)
        kept.items(path, module, "")  # every other file scanned and kept, this one empty
        assert kept.items(path, module, text) == whole
        seen += bool(whole)
    assert seen  # vulture found something in some module, so the comparison says something


CONFIG = "from shop import pricing\n\n\ndef configure(name, value):\n    setattr(pricing, name, value)\n"


def test_no_flag_is_planted_where_the_released_tree_lets_code_rebind_it(
    tmp_path: Path, all_tasks: list[Task], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert any("flag-branch" in planted(t) for t in all_tasks if t.inputs["module"] == "shop.pricing")
    root = write_repo(tmp_path / "shop", {**FILES, "shop/config.py": CONFIG})
    builds: list[int] = []
    real = dead_code._Scratch.index

    def counted(self: dead_code._Scratch) -> object:
        builds.append(1)
        return real(self)

    monkeypatch.setattr(dead_code._Scratch, "index", counted)
    results = generate(make_source(root))
    pricing = tasks_of(results, "shop.pricing")
    assert pricing  # the chain and the twins still fit
    assert not any("flag-branch" in planted(t) for t in pricing)
    assert not [r for r in results if isinstance(r, Drop) and "setattr" in r.detail]  # never tried
    assert len(builds) < len(tasks_of(results))  # no plan failed on a patched index


def test_first_plans_checked_on_one_index_give_the_tasks_checked_module_by_module(
    shop: Path, all_tasks: list[Task], monkeypatch: pytest.MonkeyPatch
) -> None:
    builds: list[Path] = []
    real = dead_code._Scratch.index

    def counted(self: dead_code._Scratch) -> object:
        builds.append(self.root)
        return real(self)

    monkeypatch.setattr(dead_code._Scratch, "index", counted)
    together = generate(make_source(shop))
    shared = len(builds)
    builds.clear()
    monkeypatch.setattr(dead_code, "CHECKED_TOGETHER", 1)
    alone = generate(make_source(shop))
    assert together == alone
    assert tasks_of(together) == all_tasks
    assert shared < len(builds)  # the two modules' first plans share an index


def test_vulture_keeps_the_released_files_whatever_is_patched_when_it_first_reads_them(
    all_tasks: list[Task], tmp_path: Path
) -> None:
    """The scratch tree patches one file after another: the kept scans must be of the released files."""
    for task in all_tasks:
        tree = materialise(task, tmp_path / task.id)
        path = tree / str(task.inputs["file"])
        module, text = str(task.inputs["module"]), path.read_text()
        whole = vulture_items(tree, path, module, text)
        if definitions := [item for item in whole if ":" not in item]:
            break
    found = definitions[0].rpartition(".")[2]  # a function or class vulture finds unused
    other = next(p for p in sorted(tree.rglob("*.py")) if p != path and p.name != "__init__.py")
    released = other.read_text()
    kept = VultureTree(tree)
    other.write_text(released + f"\n\nprint({found!r}, {found})\n")  # uses the finding's name
    try:
        assert kept.items(path, module, text) == whole
    finally:
        other.write_text(released)


CALLS = """\
import json, sys
sys.path.insert(0, sys.argv[1])
from shop.pricing import Cart, gross_price, net_price, report
from shop.util import clamp, slug
print(json.dumps([net_price(12.5), gross_price(3), report(Cart().add(1).add(2)), clamp(-1), slug(" X y ")]))
try:
    Cart().add(-1)
except ValueError as problem:
    print(repr(problem))
"""


def run_python(code: str, root: Path) -> str:
    result = subprocess.run(
        [sys.executable, "-c", code, str(root)], capture_output=True, text=True, check=True, timeout=60
    )
    return result.stdout


def test_the_patch_applies_and_the_package_behaves_the_same(
    shop: Path, all_tasks: list[Task], tmp_path: Path
) -> None:
    expected = run_python(CALLS, shop)
    for number, task in enumerate(all_tasks):
        tree = materialise(task, tmp_path / f"w{number}" / "shop")
        assert run_python(CALLS, tree) == expected
        text = workspace_file(task, str(task.inputs["file"]))
        assert text == (tree / str(task.inputs["file"])).read_text()


def test_the_packages_tests_still_pass(all_tasks: list[Task], tmp_path: Path) -> None:
    task = all_tasks[0]
    tree = materialise(task, tmp_path / "shop")
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
        check=False,
        cwd=tree,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(tree)},
    )
    assert result.returncode == 0, result.stdout


def test_ids_and_tasks_are_deterministic(shop: Path, all_tasks: list[Task]) -> None:
    first = all_tasks
    again = tasks_of(generate(make_source(shop)))
    assert [t.id for t in first] == [t.id for t in again]
    assert [t.workspace for t in first] == [t.workspace for t in again]
    other = tasks_of(generate(make_source(shop, seed=1)))
    assert [t.id for t in other] != [t.id for t in first]
    assert len({t.id for t in first}) == len(first)


def test_a_failing_module_is_a_drop_not_an_exception(shop: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> object:
        raise RuntimeError("boom")

    monkeypatch.setattr(dead_code, "plant", broken)
    results = generate(make_source(shop))
    assert results
    assert all(isinstance(r, Drop) and r.reason is DropReason.ERROR for r in results)
    assert all("boom" in r.detail for r in results if isinstance(r, Drop))


UNREACHABLE = """\
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import json


def walk(items):
    for item in items:
        if item:
            continue
            print(item)
        else:
            pass
    return items
    print("never")


def gen():
    return
    yield 1


def stop():
    sys.exit(1)
    print("after exit")
"""


def test_original_unreachable_statements_and_branches() -> None:
    executed = executed_lines(UNREACHABLE, ["walk"], ["pass", "print"])
    view = dead_code.ModuleView.read("pkg.mod", "pkg/mod.py", UNREACHABLE, executed)
    unchanged = {n: n for n in range(1, 30)}
    plain = dead_code.Planted(UNREACHABLE, (), (), (), (), None, None, unchanged)
    answer = dead_code.classify(view, plain, set())
    assert answer.required == {"pkg.mod:unreachable:13", "pkg.mod:unreachable:17"}
    assert "pkg.mod:unreachable:22" in answer.ignored, "a yield after return makes a generator"
    assert "pkg.mod:unreachable:27" in answer.ignored, "after sys.exit(): dead, but not by the simple rule"
    assert "pkg.mod:branch:11" in answer.forbidden
    assert "pkg.mod:branch:14" in answer.ignored, "an else block the tests never enter"
    assert "pkg.mod:import:json" in answer.ignored, "a TYPE_CHECKING import"
    assert "pkg.mod:import:os" in answer.ignored, "unused, but maybe re-exported"
    assert "pkg.mod:import:TYPE_CHECKING" in answer.forbidden, "read by a line that runs"
    assert "pkg.mod.walk" in answer.forbidden
    assert {"pkg.mod.gen", "pkg.mod.stop"} <= answer.ignored


slow = pytest.mark.slow


@pytest.fixture(scope="module")
def real_package() -> tuple[Source, list[Task]]:
    saved = os.environ.get(_evidence.PYTHON_ENV)
    os.environ[_evidence.PYTHON_ENV] = sandbox_python()
    try:
        repository = resolve_repositories("docstring-parser", corpus="default")[0]
        assert repository.spec is not None
        assert repository.spec.tests is not None
        index = build_index(repository.root)
        modules = {d.file: d.qualname for d in index.definitions.values() if d.kind is DefinitionKind.MODULE}
        evidence = collect_evidence(repository.root, repository.spec.tests, module_of=modules)
    finally:
        if saved is None:
            os.environ.pop(_evidence.PYTHON_ENV, None)
        else:
            os.environ[_evidence.PYTHON_ENV] = saved
    assert evidence.ran, evidence.error
    spec = repository.spec
    source = Source(
        repo=RepoRef(spec.name, spec.version, "pypi", spec.sha256),
        root=repository.root,
        index=index,
        tests=spec.tests,
        seed=0,
        evidence=lambda: evidence,
    )
    return source, tasks_of(generate(source))


@slow
def test_a_real_package_gets_the_same_tasks_when_first_plans_are_checked_module_by_module(
    real_package: tuple[Source, list[Task]], monkeypatch: pytest.MonkeyPatch
) -> None:
    source, tasks = real_package
    monkeypatch.setattr(dead_code, "CHECKED_TOGETHER", 1)
    assert tasks_of(generate(source)) == tasks


@slow
def test_a_real_package_gets_audited_tasks_that_vulture_finds_hard(
    real_package: tuple[Source, list[Task]],
) -> None:
    _, tasks = real_package
    assert len(tasks) >= 10
    for task in tasks:
        assert audit_task(task).ok, audit_task(task).reason
    scores = [float(t.audit["vulture"]["score"]) for t in tasks]
    assert sum(scores) / len(scores) < 0.6
    print(json.dumps({"tasks": len(tasks), "vulture_mean_f1": round(sum(scores) / len(scores), 3)}))


@slow
def test_a_real_packages_tests_pass_on_planted_workspaces(
    real_package: tuple[Source, list[Task]], tmp_path: Path
) -> None:
    source, tasks = real_package
    assert source.tests is not None
    command = [sys.executable, *source.tests.command[1:]]
    for number, task in enumerate(tasks[:4]):
        tree = materialise(task, tmp_path / f"w{number}" / source.root.name)
        result = subprocess.run(command, check=False, cwd=tree, capture_output=True, text=True, timeout=600)
        assert result.returncode == 0, (task.inputs["module"], result.stdout[-2000:])


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_mark_lines_locate_planted_statements_and_leave_nothing_behind(newline: str) -> None:
    from dure.generators._inject import MARK, _unmarked  # noqa: PLC0415

    code = newline.join(["a = 1", f"    {MARK}0", "def f():", f"{MARK}1", "    return 1", "b = 2", ""])
    text, starts = _unmarked(code)
    assert text == newline.join(["a = 1", "def f():", "    return 1", "b = 2", ""])
    assert starts == {0: 2, 1: 3}

"""The ``type-completion`` generator on a small fixture package, and (slow) on pluggy from the corpus."""

from __future__ import annotations

import ast
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from dure.analyzers import build_index
from dure.analyzers.runtime import TestEvidence
from dure.corpus import resolve_repositories
from dure.corpus.fetch import CachedSource
from dure.generators import pipeline, type_completion
from dure.generators.base import Candidate, Drop, DropReason, Source
from dure.generators.type_completion import TypeCompletionGenerator, import_root, strip_annotations
from dure.scoring import score_answer
from dure.tasks.codec import encode_task
from dure.tasks.frozen import freeze, thaw
from dure.tasks.model import RepoRef, Task, TaskKind
from dure.verifiers import types
from dure.verifiers.audit import audit_task
from dure.verifiers.typecheck import CheckerError
from dure.workspace import materialise
from tests.conftest import TemporaryRepo

KIND = TaskKind.TYPE_COMPLETION

SHAPES = '''\
"""Shapes: a module that is clean under mypy --strict."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, overload


class Point:
    def __init__(self, x: float, y: float) -> None:
        self.x = x
        self.y = y

    def scaled(self, factor: float) -> Point:  # a comment that stays
        return Point(self.x * factor, self.y * factor)

    @staticmethod
    def origin(label: str = "o") -> Point:
        return Point(0.0, 0.0)


def total(values: Sequence[float], start: float = 0.0) -> float:
    return sum(values, start)


def describe(count: int, *, label: str="item", **extra: int) -> str:
    return f"{count} {label}{len(extra)}"


def join(
    parts: list[
        str
    ],
) -> str:
    return "".join(parts)


def loose(value: Any) -> str:
    return str(value)


@overload
def double(value: int) -> int: ...
@overload
def double(value: str) -> str: ...
def double(value: int | str) -> int | str:
    return value * 2


def nothing() -> None:
    def inner(a: int) -> int:
        return a

    inner(1)
'''

LEGACY = '''\
"""Legacy: one annotated function next to unannotated code (not clean under --strict)."""


def untyped(a, b):
    return a + b


def halve(value: int) -> float:
    return value / 2
'''

FILES = {"pkg/__init__.py": "", "pkg/shapes.py": SHAPES, "pkg/legacy.py": LEGACY}

ORIGINAL = {
    "pkg.shapes.Point.__init__:param:x": "float",
    "pkg.shapes.Point.__init__:param:y": "float",
    "pkg.shapes.Point.__init__:return": "None",
    "pkg.shapes.Point.scaled:param:factor": "float",
    "pkg.shapes.Point.scaled:return": "Point",
    "pkg.shapes.Point.origin:param:label": "str",
    "pkg.shapes.Point.origin:return": "Point",
    "pkg.shapes.total:param:values": "Sequence[float]",
    "pkg.shapes.total:param:start": "float",
    "pkg.shapes.total:return": "float",
    "pkg.shapes.describe:param:count": "int",
    "pkg.shapes.describe:param:label": "str",
    "pkg.shapes.describe:param:extra": "int",
    "pkg.shapes.describe:return": "str",
    "pkg.shapes.join:param:parts": "list[str]",  # written over three lines: re-spelled on one
    "pkg.shapes.join:return": "str",
    "pkg.legacy.halve:param:value": "int",
    "pkg.legacy.halve:return": "float",
}

STRIPPED_SHAPES = '''\
"""Shapes: a module that is clean under mypy --strict."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, overload


class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def scaled(self, factor):  # a comment that stays
        return Point(self.x * factor, self.y * factor)

    @staticmethod
    def origin(label="o"):
        return Point(0.0, 0.0)


def total(values, start=0.0):
    return sum(values, start)


def describe(count, *, label="item", **extra):
    return f"{count} {label}{len(extra)}"


def join(
    parts,
):
    return "".join(parts)


def loose(value: Any) -> str:
    return str(value)


@overload
def double(value: int) -> int: ...
@overload
def double(value: str) -> str: ...
def double(value: int | str) -> int | str:
    return value * 2


def nothing() -> None:
    def inner(a: int) -> int:
        return a

    inner(1)
'''


def fixture_source(root: Path, seed: int = 0) -> Source:
    return Source(
        repo=RepoRef("fixture", "1.0", str(root), "ab" * 32),
        root=root,
        index=build_index(root, cache=False),
        tests=None,
        seed=seed,
        evidence=lambda: TestEvidence(error="not run"),
    )


def run(source: Source) -> list[Candidate | Drop]:
    return list(TypeCompletionGenerator().candidates(source, KIND))


def tasks_of(items: list[Candidate | Drop]) -> list[Task]:
    return [item.task for item in items if isinstance(item, Candidate)]


@pytest.fixture(scope="module")
def fixture_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("typed-repo")
    for relpath, text in FILES.items():
        (root / relpath).parent.mkdir(parents=True, exist_ok=True)
        (root / relpath).write_text(text, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def items(fixture_root: Path) -> list[Candidate | Drop]:
    return run(fixture_source(fixture_root))


def test_every_fully_annotated_function_is_asked_once(items: list[Candidate | Drop]) -> None:
    tasks = tasks_of(items)
    asked = [slot for task in tasks for slot in thaw(task.answer)]
    assert sorted(asked) == sorted(ORIGINAL)
    for task in tasks:
        assert 1 <= len(thaw(task.inputs)["functions"]) <= type_completion.MAX_FUNCTIONS
        assert len(thaw(task.answer)) <= type_completion.MAX_SLOTS


def test_the_answer_is_the_original_annotations(items: list[Candidate | Drop]) -> None:
    for task in tasks_of(items):
        answer = thaw(task.answer)
        assert answer == {slot: ORIGINAL[slot] for slot in answer}
        schema = thaw(task.answer_schema)
        assert schema["required"] == sorted(answer)
        assert schema["properties"] == {slot: {"type": "string", "minLength": 1} for slot in answer}
        functions = sorted({slot.partition(":")[0] for slot in answer})
        assert list(thaw(task.inputs)["functions"]) == functions


def test_unaskable_functions_are_dropped_with_their_reason(items: list[Candidate | Drop]) -> None:
    drops = {item.subject: item for item in items if isinstance(item, Drop)}
    assert set(drops) == {"pkg.shapes.loose", "pkg.shapes.double", "pkg.shapes.nothing"}
    assert drops["pkg.shapes.loose"].reason is DropReason.UNCHECKABLE
    assert "top type" in drops["pkg.shapes.loose"].detail
    assert drops["pkg.shapes.double"].reason is DropReason.UNCHECKABLE
    assert "overload" in drops["pkg.shapes.double"].detail
    assert drops["pkg.shapes.nothing"].reason is DropReason.TRIVIAL


def test_stripping_removes_annotations_and_nothing_else() -> None:
    targets = frozenset({"Point.__init__", "Point.scaled", "Point.origin", "total", "describe", "join"})
    assert strip_annotations(SHAPES, targets) == STRIPPED_SHAPES
    assert strip_annotations(SHAPES, frozenset()) == SHAPES


def _without_annotations(text: str, functions: set[str]) -> str:
    """The module's AST with the annotations of ``functions`` removed (an independent reference)."""
    tree = ast.parse(text)

    def walk(body: list[ast.stmt], path: tuple[str, ...]) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                walk(node.body, (*path, node.name))
            elif isinstance(node, ast.FunctionDef) and ".".join((*path, node.name)) in functions:
                args = node.args
                every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
                static = any(ast.unparse(d) == "staticmethod" for d in node.decorator_list)
                for number, arg in enumerate(every):
                    if arg is not None and not (number == 0 and path and not static):
                        arg.annotation = None
                node.returns = None

    walk(tree.body, ())
    return ast.dump(tree)


def test_each_workspace_is_the_module_stripped_of_its_functions_annotations(
    items: list[Candidate | Drop], fixture_root: Path, tmp_path: Path
) -> None:
    for number, task in enumerate(tasks_of(items)):
        params = thaw(task.verifier.params)
        file = str(thaw(task.inputs)["file"])
        original = FILES[file]
        out = materialise(task, tmp_path / f"ws{number}")
        stripped = (out / file).read_text(encoding="utf-8")
        assert stripped == params["source"]
        functions = {
            str(name).removeprefix(f"{thaw(task.inputs)['module']}.")
            for name in thaw(task.inputs)["functions"]
        }
        assert ast.dump(ast.parse(stripped)) == _without_annotations(original, functions)
        for other in set(FILES) - {file}:
            assert (out / other).read_text(encoding="utf-8") == FILES[other]


def test_the_prompt_names_the_slots_and_not_the_answer(items: list[Candidate | Drop]) -> None:
    for item in items:
        if not isinstance(item, Candidate):
            continue
        task = item.task
        for slot, text in thaw(task.answer).items():
            assert f"`{slot}`" in task.prompt
            assert not re.search(rf"(?<![\w.]){re.escape(text)}(?!\w|\.\w)", task.prompt), text
        assert set(item.secrets) == set(thaw(task.answer).values())
        assert str(thaw(task.inputs)["file"]) in task.prompt
        for function in thaw(task.inputs)["functions"]:
            assert re.search(rf"`{re.escape(str(function))}` \(line \d+\)", task.prompt)


def test_clean_modules_come_first_with_strict_flags_and_empty_baselines(
    items: list[Candidate | Drop],
) -> None:
    modules = [thaw(task.inputs)["module"] for task in tasks_of(items)]
    assert modules == sorted(modules, key=lambda name: name != "pkg.shapes")
    for task in tasks_of(items):
        params = thaw(task.verifier.params)
        assert params["flags"] == ["--strict"]
        assert params["engine"] == "mypy"
        assert (params["baseline"] == []) is (thaw(task.inputs)["module"] == "pkg.shapes")
        assert thaw(task.provenance)["facts"]["baseline_errors"] == len(params["baseline"])
        assert "pkg/__init__.py" in params["files"]  # the fixture is not in the corpus cache


def test_ids_and_order_are_deterministic(fixture_root: Path, items: list[Candidate | Drop]) -> None:
    again = run(fixture_source(fixture_root))
    assert [task.id for task in tasks_of(again)] == [task.id for task in tasks_of(items)]
    assert tasks_of(again) == tasks_of(items)
    other_seed = tasks_of(run(fixture_source(fixture_root, seed=1)))
    assert sorted(slot for t in other_seed for slot in thaw(t.answer)) == sorted(ORIGINAL)


def test_every_task_passes_the_audit_and_the_reference_scores_one(items: list[Candidate | Drop]) -> None:
    for task in tasks_of(items):
        assert score_answer(task, task.answer).value == 1.0
        audit = audit_task(task)
        assert audit.ok, audit.reason


def test_a_wrong_answer_scores_less_than_one(items: list[Candidate | Drop]) -> None:
    task = next(t for t in tasks_of(items) if "pkg.shapes.total:param:values" in thaw(t.answer))
    answer = {**thaw(task.answer), "pkg.shapes.total:param:values": "int"}
    result = score_answer(task, freeze(answer))
    assert result.error is None
    assert result.value < 1.0


def test_difficulty_and_phase(items: list[Candidate | Drop]) -> None:
    for task in tasks_of(items):
        assert task.difficulty["answer_size"] == len(thaw(task.answer))
        assert task.difficulty["files"] == 1
        assert task.phase == 1
        assert task.layer == 1


def test_import_root_of_flat_and_src_layouts() -> None:
    assert import_root("src/pkg/mod.py", "pkg.mod") == ("src", "pkg/mod.py")
    assert import_root("pkg/__init__.py", "pkg") == ("", "pkg/__init__.py")
    assert import_root("setup.py", "setup") == ("", "setup.py")
    assert import_root("docs/a-b/mod.py", "docs.a-b.mod") is None
    assert import_root("pkg/other.py", "pkg.mod") is None


def test_a_module_that_cannot_be_read_is_dropped_and_the_rest_still_asked(
    temporary_repo: TemporaryRepo,
) -> None:
    root = temporary_repo(FILES)
    source = fixture_source(root)
    (root / "pkg/legacy.py").unlink()
    found = run(source)
    errors = [item for item in found if isinstance(item, Drop) and item.reason is DropReason.ERROR]
    assert [drop.subject for drop in errors] == ["pkg.legacy"]
    assert {thaw(task.inputs)["module"] for task in tasks_of(found)} == {"pkg.shapes"}


def test_a_module_the_checker_fails_on_is_a_baseline_drop(
    temporary_repo: TemporaryRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    def failing(*arguments: object) -> tuple[str, ...]:
        raise CheckerError("mypy did not run to completion")

    monkeypatch.setattr(types, "_check_batch", failing)  # every run, alone or shared by several modules
    found = run(fixture_source(temporary_repo(FILES)))
    assert not tasks_of(found)
    baseline = [item for item in found if isinstance(item, Drop) and item.reason is DropReason.BASELINE]
    assert sorted(drop.subject for drop in baseline) == ["pkg.legacy", "pkg.shapes"]


def test_types_from_imports_the_checker_cannot_resolve_are_not_asked(temporary_repo: TemporaryRepo) -> None:
    """The checker sees ``yaml.Node`` as Any: ``assert_type`` would accept any other ``yaml`` name for it."""
    module = (
        "import yaml\n\nfrom .missing import Thing\n\n\n"
        "def load(text: str) -> yaml.Node:\n    return yaml.compose(text)\n\n\n"
        "def make(count: int) -> list[Thing]:\n    return [Thing() for _ in range(count)]\n\n\n"
        "def size(text: str) -> int:\n    return len(text)\n"
    )
    found = run(fixture_source(temporary_repo({"pkg/__init__.py": "", "pkg/io.py": module})))
    drops = {item.subject: item.detail for item in found if isinstance(item, Drop)}
    assert set(drops) == {"pkg.io.load", "pkg.io.make"}
    assert "yaml.Node" in drops["pkg.io.load"]
    assert "pkg.missing.Thing" in drops["pkg.io.make"]
    assert [thaw(task.answer) for task in tasks_of(found)] == [
        {"pkg.io.size:param:text": "str", "pkg.io.size:return": "int"}
    ]


def test_code_the_checker_deems_unreachable_is_not_asked(temporary_repo: TemporaryRepo) -> None:
    """Unreachable code gets no errors: a wrong answer there would pass (and so would every probe)."""
    windows = 'import sys\n\nassert sys.platform == "win32"\n\n\ndef width(text: str) -> int:\n    return 0\n'
    mixed = (
        "import sys\n\n\n"
        'if sys.platform == "win32":\n\n'
        "    def native(text: str) -> bytes:\n        return text.encode()\n\n\n"
        "class Box:\n    if sys.version_info < (3, 4):\n\n        def old(self, size: int) -> int:\n"
        "            return size\n\n    def new(self, size: int) -> int:\n        return size\n"
    )
    ignored = "# mypy: ignore-errors\n\n\ndef size(text: str) -> int:\n    return len(text)\n"
    files = {
        "pkg/__init__.py": "",
        "pkg/windows.py": windows,
        "pkg/mixed.py": mixed,
        "pkg/ignored.py": ignored,
    }
    found = run(fixture_source(temporary_repo(files)))
    drops = {item.subject: item.detail for item in found if isinstance(item, Drop)}
    assert set(drops) == {"pkg.windows", "pkg.ignored", "pkg.mixed.native", "pkg.mixed.Box.old"}
    assert "module's end" in drops["pkg.windows"]
    assert "unreachable" in drops["pkg.mixed.native"]
    assert [thaw(task.answer) for task in tasks_of(found)] == [
        {"pkg.mixed.Box.new:param:size": "int", "pkg.mixed.Box.new:return": "int"}
    ]


def test_canaries_follow_each_function_in_its_block() -> None:
    text, canaries = type_completion.canaried(LEGACY, ["halve"])
    assert canaries == {10: "halve", 11: ""}
    lines = text.splitlines()
    assert lines[9] == 'dure_canary_0: int = ""'
    assert lines[:9] == LEGACY.splitlines()
    text, canaries = type_completion.canaried(SHAPES, ["Point.scaled"])
    assert text.splitlines()[canaries_line(canaries, "Point.scaled") - 1] == '    dure_canary_0: int = ""'
    fallback = (
        "try:\n    import json\nexcept ImportError:\n\n    def load(text: str) -> int:\n        return 0\n"
    )
    text, canaries = type_completion.canaried(fallback, ["load"])
    assert text.splitlines()[canaries_line(canaries, "load") - 1] == '    dure_canary_0: int = ""'
    compile(text, "fallback.py", "exec")


def canaries_line(canaries: dict[int, str], function: str) -> int:
    return next(line for line, name in canaries.items() if name == function)


def test_a_repository_without_annotations_yields_nothing(temporary_repo: TemporaryRepo) -> None:
    root = temporary_repo({"pkg/__init__.py": "", "pkg/plain.py": "def f(a):\n    return a\n"})
    assert run(fixture_source(root)) == []


@pytest.mark.slow
def test_pluggy_gives_ten_audited_candidates() -> None:
    repository = resolve_repositories("pluggy", corpus="default")[0]
    assert repository.spec is not None
    source = Source(
        repo=RepoRef(repository.name, repository.spec.version, "pypi", repository.spec.sha256),
        root=repository.root,
        index=build_index(repository.root),
        tests=None,
        seed=0,
        evidence=lambda: TestEvidence(error="not run"),
    )
    started = time.perf_counter()
    stream: Iterator[Candidate | Drop] = TypeCompletionGenerator().candidates(source, KIND)
    passed: list[str] = []
    failed: list[tuple[str, str | None]] = []
    for item in stream:
        if isinstance(item, Candidate):
            audit = audit_task(item.task)
            if audit.ok:
                passed.append(item.task.id)
            else:
                failed.append((item.task.id, audit.reason))
            if len(passed) >= 10:
                break
    assert not failed
    assert len(passed) >= 10
    assert time.perf_counter() - started < 600


@pytest.mark.parametrize("limit", [2, 100])
def test_audits_in_batches_accept_what_one_at_a_time_accepts(
    fixture_root: Path, monkeypatch: pytest.MonkeyPatch, checker_runs: list[int], limit: int
) -> None:
    # As a repository of the corpus cache: its tasks name it, so they all check against one source tree.
    cached = [CachedSource("fixture", "1.0", "ab" * 32, fixture_root)]
    monkeypatch.setattr(type_completion, "list_cached", lambda: cached)
    monkeypatch.setattr(types, "list_cached", lambda: cached)

    def accepted(batches: bool) -> tuple[list[str], object, object, int]:
        monkeypatch.setattr(TypeCompletionGenerator, "audit_in_batches", batches)
        checker_runs.clear()
        tally = pipeline._Tally()
        found = list(pipeline._accepted(fixture_source(fixture_root), KIND, tally, set(), limit=limit))
        return [encode_task(task) for task in found], tally.drops, tally.examples, len(checker_runs)

    *batched, batched_runs = accepted(True)
    *single, single_runs = accepted(False)
    assert batched == single
    assert 0 < len(batched[0]) <= limit
    assert batched_runs < single_runs

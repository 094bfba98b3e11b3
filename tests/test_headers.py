"""Header-only rewriting gives exactly the text the whole-module LibCST rewrite gives, or declines."""

from __future__ import annotations

import ast
import random
import sysconfig
from pathlib import Path

import libcst as cst
import pytest

from dure.generators import type_completion
from dure.generators.type_completion import _stripped, _Stripper
from dure.verifiers.headers import rewrite_headers
from dure.verifiers.typeslots import _Filler, parse_slot

TRICKY = """\
import functools
from typing import Callable


def plain(a: int, b: str = "x:y", *args: int, key: dict[str, int] = {"k": 1}, **kw: bytes) -> None:
    pass


async def waits(delay: float=0.5) -> "list[int]":  # a comment after the colon
    return []


def spread(
    first: int,  # the first one
    second: Callable[[int], int] = lambda x: x,
    /,
    *,
    third: tuple[int, ...] = (1, 2),
) -> dict[
    str, int
]:
    return {}


def one_liner(x: int) -> int: return x


class Shape:
    size: int = 0

    @staticmethod
    def make(pad: "Shape") -> "Shape":
        return pad

    @classmethod
    def build(cls, count: int) -> "Shape":
        return cls()

    @functools.lru_cache(
        maxsize=None,
    )
    def cached(self, value: int) -> int:
        return value

    @property
    def area(self) -> int:
        return self.size

    @area.setter
    def area(self, value: int) -> None:
        self.size = value

    if True:
        def inside_if(self, x: int) -> int:
            def nested(y: int) -> int:
                return y
            return nested(x)

    class Inner:
        def deep(self, z: "Shape.Inner") -> None: ...


try:
    def guarded(n: int) -> int:
        return n
except ImportError:
    def guarded(n: int) -> int:
        return -n

class Ünicode:
    def método(self, año: int) -> int:
        return año
"""
NAMES = [
    "plain", "waits", "spread", "one_liner", "Shape.make", "Shape.build", "Shape.cached", "Shape.area",
    "Shape.inside_if", "Shape.Inner.deep", "guarded", "Ünicode.método", "Shape.inside_if.nested", "absent",
]  # fmt: skip


def whole_module_strip(text: str, targets: frozenset[str]) -> str:
    return cst.parse_module(text).visit(_Stripper(targets)).code


def slots_of(text: str, targets: frozenset[str]) -> list[str]:
    """A return and a parameter slot of every function in ``targets`` (as the stripped text spells them)."""
    found = []
    for qualname in sorted(targets):
        found.append(f"m.{qualname}:return")
        node = _find(ast.parse(text), qualname.split("."))
        if node is not None and node.args.args:
            found.append(f"m.{qualname}:param:{node.args.args[-1].arg}")
    return found


def _find(tree: ast.AST, path: list[str]) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == path[-1]:
            return node
    return None


def fills(
    text: str, slot_names: list[str], *, whole: bool
) -> tuple[str | None, dict[str, int], dict[str, int]]:
    slots = [parse_slot(name, "m") for name in slot_names]
    filler = _Filler(slots, {slot.name: number for number, slot in enumerate(slots)})
    if whole:
        code: str | None = cst.parse_module(text).visit(filler).code
    else:
        code = rewrite_headers(text, filler.by_function, filler.fill_function)
    return code, filler.found, filler.position


@pytest.mark.parametrize("name", NAMES)
def test_each_header_is_rewritten_as_the_whole_module_rewrite_does(name: str) -> None:
    targets = frozenset({name})
    assert rewrite_headers(TRICKY, targets, _stripped) == whole_module_strip(TRICKY, targets)
    stripped = whole_module_strip(TRICKY, targets)
    if name.isascii():  # slot names are ASCII identifiers
        slots = slots_of(stripped, targets)
        assert fills(stripped, slots, whole=False) == fills(stripped, slots, whole=True)


def whole_module_functions(text: str) -> list[tuple[str, cst.FunctionDef, bool, cst.Module]]:
    tree = cst.parse_module(text)
    walker = type_completion._Functions()
    tree.visit(walker)
    return [(qualname, node, in_class, tree) for qualname, node, in_class in walker.found]


def signatures_both_ways(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[object, object]:
    from_headers = type_completion.signatures(text, "m", is_package=False)
    with monkeypatch.context() as patched:
        patched.setattr(type_completion, "_functions", whole_module_functions)
        return from_headers, type_completion.signatures(text, "m", is_package=False)


def test_signatures_read_from_the_headers_are_those_of_the_whole_module(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from_headers, whole = signatures_both_ways(TRICKY, monkeypatch)
    assert from_headers == whole
    assert len(whole) == 14  # type: ignore[arg-type]  # every function but the nested one, guarded twice


def test_a_staticmethod_keeps_no_receiver_and_a_method_keeps_self() -> None:
    stripped = rewrite_headers(TRICKY, frozenset({"Shape.make", "Shape.cached"}), _stripped)
    assert stripped is not None
    assert "    def make(pad):\n" in stripped
    assert "    def cached(self, value):\n" in stripped
    assert "    @functools.lru_cache(\n        maxsize=None,\n    )\n" in stripped


def test_every_function_at_once() -> None:
    targets = frozenset(NAMES)
    assert rewrite_headers(TRICKY, targets, _stripped) == whole_module_strip(TRICKY, targets)


@pytest.mark.parametrize(
    "text", ["def f(x: int) -> int:\r\n    return x\r\n", "\fdef f(x: int) -> int:\n    pass\n"]
)
def test_carriage_returns_and_form_feeds_are_left_to_the_whole_module_rewrite(text: str) -> None:
    assert rewrite_headers(text, frozenset({"f"}), _stripped) is None


def test_the_standard_library_sample_rewrites_identically(monkeypatch: pytest.MonkeyPatch) -> None:
    """Real code, every construct it has: a seeded sample of the running Python's own modules."""
    library = Path(sysconfig.get_paths()["stdlib"])
    files = sorted(p for p in library.glob("*.py") if p.stat().st_size < 40_000)  # LibCST is slow on big ones
    rng = random.Random(7)
    checked = 0
    for path in rng.sample(files, 24):
        text = path.read_text(encoding="utf-8")
        body = ast.parse(text).body
        names = sorted(
            {f.name for f in body if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)}
            | {
                f"{c.name}.{f.name}"
                for c in body
                if isinstance(c, ast.ClassDef)
                for f in c.body
                if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
            }
        )
        if not names:
            continue
        targets = frozenset(rng.sample(names, min(6, len(names))))
        fast = rewrite_headers(text, targets, _stripped)
        if fast is None:
            continue
        whole = whole_module_strip(text, targets)
        assert fast == whole, path.name
        slots = slots_of(whole, targets)
        assert fills(whole, slots, whole=False) == fills(whole, slots, whole=True), path.name
        from_headers, from_module = signatures_both_ways(text, monkeypatch)
        assert from_headers == from_module, path.name
        checked += 1
    assert checked >= 15

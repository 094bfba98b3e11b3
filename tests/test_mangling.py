"""Private name mangling, checked against the names the compiler gives."""

from __future__ import annotations

import ast
import sysconfig
from pathlib import Path

import pytest

from dure.analyzers.mangling import (
    BOUND_AS,
    mangle_private_names,
    mangled,
    may_need_mangling,
    private_name_lines,
)


@pytest.mark.parametrize(
    ("name", "owner"),
    [("__x", "K"), ("__x_", "K"), ("__init__", "K"), ("_x", "K"), ("__x", "_K"), ("__x", "__"), ("x", "K")],
)
def test_mangled_matches_the_compiler(name: str, owner: str) -> None:
    namespace: dict[str, object] = {}
    exec(f"class {owner}:\n    {name} = 1\n", namespace)  # the compiler is the reference
    assert mangled(name, owner) in vars(namespace[owner])


def test_attributes_and_class_body_names_are_renamed_locals_are_not() -> None:
    tree = ast.parse(
        "class K:\n"
        "    __a = 1\n"
        "    def __m(self, __p):\n"
        "        __local = self.__b\n"
        "        return getattr(self, '__c')\n"
        "obj.__d\n"
    )
    mangle_private_names(tree)
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    attributes = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    method = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef))
    assert {"_K__a", "__local"} <= names
    assert attributes == {"_K__b", "__d"}  # outside the class, nothing is mangled
    assert (method.name, getattr(method, BOUND_AS)) == ("__m", "_K__m")
    assert method.args.args[1].arg == "__p"


def test_files_without_private_names_skip_the_walk() -> None:
    assert not may_need_mangling("class K:\n    def __init__(self): self.__dict__ = {}\n")
    assert may_need_mangling("class K:\n    def f(self): self.__x = 1\n")


def _renamed(tree: ast.Module) -> list[tuple[object, ...]]:
    """What mangling may rename, in walk order: names, attributes, the names definitions bind."""
    return [
        (
            node.lineno,
            node.col_offset,
            getattr(node, "id", None),
            getattr(node, "attr", None),
            getattr(node, BOUND_AS, None),
        )
        for node in ast.walk(tree)
        if isinstance(node, ast.Name | ast.Attribute | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    ]


def test_skipping_lines_without_private_names_changes_nothing_in_the_standard_library() -> None:
    """The walk that skips what spans no private name renames what the whole walk renames."""
    compared = 0
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    for path in sorted(stdlib.rglob("*.py")):
        if {"test", "tests", "site-packages"} & set(path.relative_to(stdlib).parts):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if not may_need_mangling(text):
            continue
        try:
            whole, pruned = ast.parse(text), ast.parse(text)
        except SyntaxError:
            continue
        mangle_private_names(whole)
        mangle_private_names(pruned, private_name_lines(text))
        assert _renamed(pruned) == _renamed(whole), path
        compared += 1
    assert compared > 50


def test_private_name_lines_are_the_lines_of_every_match() -> None:
    text = "a = 1\nclass K:\n    __x = 1\n\n    def f(self): return self.__y, self.__z\n"
    assert private_name_lines(text) == [3, 5]

"""Private name mangling, checked against the names the compiler gives."""

from __future__ import annotations

import ast

import pytest

from dure.analyzers.mangling import BOUND_AS, mangle_private_names, mangled, may_need_mangling


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

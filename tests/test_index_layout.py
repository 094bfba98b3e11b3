"""What the index finds in a repository: module names, definitions, imports and the class hierarchy."""

from __future__ import annotations

import textwrap
from collections.abc import Callable

import pytest
from conftest import RepoFiles, TemporaryRepo

from dure.analyzers import RepoIndex, build_index
from dure.analyzers.model import DefinitionKind, Import, ImportCondition, ParameterKind

Indexed = Callable[[RepoFiles], RepoIndex]


def modules(index: RepoIndex) -> dict[str, str]:
    """Module name -> file."""
    return {d.qualname: d.file for d in index.definitions.values() if d.kind is DefinitionKind.MODULE}


def imports_of(index: RepoIndex, module: str) -> dict[str, Import]:
    """Local name -> import record, for one module (the last record wins for a name bound twice)."""
    return {i.name: i for i in index.imports if i.module == module}


# -- module names ------------------------------------------------------------------------------------------


def test_flat_layout(indexed: Indexed) -> None:
    index = indexed(
        {
            "pkg/__init__.py": "",
            "pkg/mod.py": "",
            "pkg/sub/__init__.py": "",
            "pkg/sub/deep.py": "",
            "script.py": "",
        }
    )
    assert modules(index) == {
        "pkg": "pkg/__init__.py",
        "pkg.mod": "pkg/mod.py",
        "pkg.sub": "pkg/sub/__init__.py",
        "pkg.sub.deep": "pkg/sub/deep.py",
        "script": "script.py",
    }


def test_src_layout_drops_src(indexed: Indexed) -> None:
    index = indexed(
        {
            "src/pkg/__init__.py": "",
            "src/pkg/mod.py": "def f():\n    pass\n",
            "tests/test_mod.py": "",
            "setup.py": "",
        }
    )
    assert modules(index) == {
        "pkg": "src/pkg/__init__.py",
        "pkg.mod": "src/pkg/mod.py",
        "tests.test_mod": "tests/test_mod.py",
        "setup": "setup.py",
    }
    assert index.definitions["pkg.mod.f"].file == "src/pkg/mod.py"


def test_src_that_is_a_package_keeps_its_name(indexed: Indexed) -> None:
    index = indexed({"src/__init__.py": "", "src/mod.py": ""})
    assert modules(index) == {"src": "src/__init__.py", "src.mod": "src/mod.py"}


def test_directory_that_is_a_package_contributes_its_name(temporary_repo: TemporaryRepo) -> None:
    root = temporary_repo(
        {
            "mylib/__init__.py": "from .core import run\n",
            "mylib/core.py": "def run():\n    pass\n",
            "mylib/sub/__init__.py": "",
        }
    )
    index = build_index(root / "mylib", cache=False)
    assert modules(index) == {"mylib": "__init__.py", "mylib.core": "core.py", "mylib.sub": "sub/__init__.py"}
    assert imports_of(index, "mylib")["run"].resolved == "mylib.core.run"


def test_namespace_packages(indexed: Indexed) -> None:
    index = indexed(
        {
            "ns/a/mod.py": "def f():\n    pass\n",
            "ns/b.py": "from ns.a.mod import f\nfrom ns.a import mod\nimport ns.a.mod as m2\n",
        }
    )
    assert modules(index) == {"ns.a.mod": "ns/a/mod.py", "ns.b": "ns/b.py"}
    found = imports_of(index, "ns.b")
    assert {name: found[name].resolved for name in ("f", "mod", "m2")} == {
        "f": "ns.a.mod.f",
        "mod": "ns.a.mod",
        "m2": "ns.a.mod",
    }


@pytest.mark.parametrize(
    ("path", "is_test"),
    [
        ("tests/helpers.py", True),
        ("test/helpers.py", True),
        ("testing/helpers.py", True),
        ("pkg/tests/unit/deep.py", True),
        ("pkg/test_x.py", True),
        ("pkg/x_test.py", True),
        ("conftest.py", True),
        ("pkg/conftest.py", True),
        ("pkg/testing_utils.py", False),
        ("pkg/attest.py", False),
        ("pkg/contest.py", False),
        ("pkg/latest_test_data.py", False),
        ("mytests/x.py", False),
    ],
)
def test_test_files_are_marked(indexed: Indexed, path: str, is_test: bool) -> None:
    index = indexed({path: "def f():\n    pass\n"})
    (module,) = modules(index)
    assert index.definitions[module].is_test is is_test
    assert index.definitions[f"{module}.f"].is_test is is_test


def test_skipped_directories(indexed: Indexed) -> None:
    index = indexed(
        {
            "pkg/mod.py": "",
            ".venv/lib/x.py": "",
            "venv/x.py": "",
            "build/lib/pkg/mod.py": "",
            "__pycache__/x.py": "",
            "node_modules/x.py": "",
            ".git/hooks/x.py": "",
            "pkg.egg-info/x.py": "",
            "pkg/data.txt": "",
        }
    )
    assert modules(index) == {"pkg.mod": "pkg/mod.py"}


# -- definitions -------------------------------------------------------------------------------------------

DEFINITIONS = '''\
"""Module doc."""
import functools


def plain(a, b: int, /, c: "list[str]" = (), *args: int, d, e: dict[str, int] | None = None, **kw) -> str:
    """Plain doc.

    More.
    """

    def inner(x):
        return lambda y: x + y

    return inner


@functools.lru_cache(maxsize=None)
@staticmethod
async def coroutine():
    pass


class Widget(object):
    """Widget doc."""

    size = 3

    def __init__(self, size: int = 1) -> None:
        self.size = size

    @property
    def area(self):
        return self.size ** 2

    @classmethod
    def make(cls):
        return cls()

    class Inner:
        def method(self):
            pass
'''


@pytest.fixture
def definitions(indexed: Indexed) -> RepoIndex:
    return indexed({"pkg/__init__.py": "", "pkg/defs.py": DEFINITIONS})


def test_definition_kinds_and_spans(definitions: RepoIndex) -> None:
    """A decorated definition starts at its ``def``/``class`` line, as in the ``ast``."""
    got = {
        q: (d.kind.value, d.line, d.end_line, d.parent)
        for q, d in definitions.definitions.items()
        if q.startswith("pkg.defs.")
    }
    assert got == {
        "pkg.defs.plain": ("function", 5, 14, "pkg.defs"),
        "pkg.defs.plain.inner": ("function", 11, 12, "pkg.defs.plain"),
        "pkg.defs.plain.inner.<lambda:12>": ("lambda", 12, 12, "pkg.defs.plain.inner"),
        "pkg.defs.coroutine": ("function", 19, 20, "pkg.defs"),
        "pkg.defs.Widget": ("class", 23, 41, "pkg.defs"),
        "pkg.defs.Widget.__init__": ("method", 28, 29, "pkg.defs.Widget"),
        "pkg.defs.Widget.area": ("method", 32, 33, "pkg.defs.Widget"),
        "pkg.defs.Widget.make": ("method", 36, 37, "pkg.defs.Widget"),
        "pkg.defs.Widget.Inner": ("class", 39, 41, "pkg.defs.Widget"),
        "pkg.defs.Widget.Inner.method": ("method", 40, 41, "pkg.defs.Widget.Inner"),
    }
    assert all(
        d.file == "pkg/defs.py" and d.module == "pkg.defs" and not d.is_test
        for d in definitions.definitions.values()
        if d.module == "pkg.defs"
    )


def test_module_definition(definitions: RepoIndex) -> None:
    module = definitions.definitions["pkg.defs"]
    assert (module.kind, module.line, module.parent, module.file) == (
        DefinitionKind.MODULE,
        1,
        None,
        "pkg/defs.py",
    )
    assert module.end_line >= DEFINITIONS.count("\n")


def test_parameters_as_written(definitions: RepoIndex) -> None:
    plain = definitions.definitions["pkg.defs.plain"]
    got = [(p.name, p.kind, p.annotation, p.has_default) for p in plain.parameters]
    assert got == [
        ("a", ParameterKind.POSITIONAL_ONLY, None, False),
        ("b", ParameterKind.POSITIONAL_ONLY, "int", False),
        ("c", ParameterKind.POSITIONAL_OR_KEYWORD, '"list[str]"', True),
        ("args", ParameterKind.VAR_POSITIONAL, "int", False),
        ("d", ParameterKind.KEYWORD_ONLY, None, False),
        ("e", ParameterKind.KEYWORD_ONLY, "dict[str, int] | None", True),
        ("kw", ParameterKind.VAR_KEYWORD, None, False),
    ]
    assert plain.returns == "str"
    init = definitions.definitions["pkg.defs.Widget.__init__"]
    assert [(p.name, p.annotation, p.has_default) for p in init.parameters] == [
        ("self", None, False),
        ("size", "int", True),
    ]
    assert init.returns == "None"


def test_decorators_as_written(definitions: RepoIndex) -> None:
    got = {q: d.decorators for q, d in definitions.definitions.items() if d.decorators}
    assert got == {
        "pkg.defs.coroutine": ("functools.lru_cache(maxsize=None)", "staticmethod"),
        "pkg.defs.Widget.area": ("property",),
        "pkg.defs.Widget.make": ("classmethod",),
    }


def test_async_flag(definitions: RepoIndex) -> None:
    assert {q for q, d in definitions.definitions.items() if d.is_async} == {"pkg.defs.coroutine"}


def test_docstrings_of_functions_and_classes(definitions: RepoIndex) -> None:
    assert definitions.definitions["pkg.defs.plain"].docstring == "Plain doc.\n\n    More.\n    "
    assert definitions.definitions["pkg.defs.Widget"].docstring == "Widget doc."
    assert definitions.definitions["pkg.defs.Widget.make"].docstring is None


# -- imports -----------------------------------------------------------------------------------------------

IMPORTS: dict[str, str] = {
    "pkg/__init__.py": (
        "from pkg._impl import public\nfrom .sub.deep import deep_f as renamed\n__all__ = ['public']\n"
    ),
    "pkg/_impl.py": "def public():\n    pass\n\n\ndef _private():\n    pass\n",
    "pkg/sub/__init__.py": "",
    "pkg/sub/deep.py": textwrap.dedent("""\
        import os
        import os.path as osp
        import json, collections.abc
        from .. import _impl
        from .._impl import public as pub
        from . import sibling
        from .sibling import *
        from pkg import public as via_init
        from pkg import renamed
        import pkg._impl
        try:
            import ujson as fast_json
        except ImportError:
            fast_json = None
        from typing import TYPE_CHECKING
        if TYPE_CHECKING:
            from collections import OrderedDict
        if os.name == "nt":
            import winreg


        def deep_f():
            import shutil
            return shutil
        """),
    "pkg/sub/sibling.py": "__all__ = ['exported']\n\n\ndef exported():\n    pass\n",
}


@pytest.fixture
def imports(indexed: Indexed) -> RepoIndex:
    return indexed(IMPORTS)


def test_import_records(imports: RepoIndex) -> None:
    got = {
        name: (i.target, i.level, i.line, i.resolved, i.external)
        for name, i in imports_of(imports, "pkg.sub.deep").items()
        if i.scope == "pkg.sub.deep"
    }
    assert got == {
        "os": ("os", 0, 1, None, "os"),
        "osp": ("os.path", 0, 2, None, "os.path"),
        "json": ("json", 0, 3, None, "json"),
        "collections": ("collections.abc", 0, 3, None, "collections.abc"),
        "_impl": ("pkg._impl", 2, 4, "pkg._impl", None),
        "pub": ("pkg._impl.public", 2, 5, "pkg._impl.public", None),
        "sibling": ("pkg.sub.sibling", 1, 6, "pkg.sub.sibling", None),
        "*": ("pkg.sub.sibling", 1, 7, "pkg.sub.sibling", None),
        "via_init": ("pkg.public", 0, 8, "pkg._impl.public", None),
        "renamed": ("pkg.renamed", 0, 9, "pkg.sub.deep.deep_f", None),
        "pkg": ("pkg._impl", 0, 10, "pkg._impl", None),
        "fast_json": ("ujson", 0, 12, None, "ujson"),
        "TYPE_CHECKING": ("typing.TYPE_CHECKING", 0, 15, None, "typing.TYPE_CHECKING"),
        "OrderedDict": ("collections.OrderedDict", 0, 17, None, "collections.OrderedDict"),
        "winreg": ("winreg", 0, 19, None, "winreg"),
    }
    assert all(i.file == "pkg/sub/deep.py" for i in imports_of(imports, "pkg.sub.deep").values())


def test_import_conditions(imports: RepoIndex) -> None:
    found = imports_of(imports, "pkg.sub.deep")
    got = {name: found[name].condition for name in ("os", "fast_json", "OrderedDict", "winreg", "shutil")}
    assert got == {
        "os": ImportCondition.ALWAYS,
        "fast_json": ImportCondition.TRY_EXCEPT,
        "OrderedDict": ImportCondition.TYPE_CHECKING,
        "winreg": ImportCondition.CONDITIONAL,
        "shutil": ImportCondition.CONDITIONAL,
    }
    assert found["shutil"].scope == "pkg.sub.deep.deep_f"


def test_star_import(imports: RepoIndex) -> None:
    (star,) = [i for i in imports.imports if i.is_star]
    assert (star.module, star.name, star.target, star.resolved) == (
        "pkg.sub.deep",
        "*",
        "pkg.sub.sibling",
        "pkg.sub.sibling",
    )
    assert not star.is_external


def test_reexport_through_init_resolves_to_the_real_definition(imports: RepoIndex) -> None:
    found = imports_of(imports, "pkg")
    assert found["public"].resolved == "pkg._impl.public"
    assert found["renamed"].resolved == "pkg.sub.deep.deep_f"
    assert found["renamed"].target == "pkg.sub.deep.deep_f"
    assert found["renamed"].level == 1


def test_external_imports(imports: RepoIndex) -> None:
    external = {i.external for i in imports.imports if i.is_external}
    assert external == {
        "os",
        "os.path",
        "json",
        "collections.abc",
        "ujson",
        "typing.TYPE_CHECKING",
        "collections.OrderedDict",
        "winreg",
        "shutil",
    }
    assert all(i.resolved is None for i in imports.imports if i.is_external)


def test_import_of_a_missing_repository_name_is_neither_resolved_nor_external(indexed: Indexed) -> None:
    index = indexed({"pkg/__init__.py": "", "pkg/a.py": "from pkg.b import nothing\n", "pkg/b.py": ""})
    record = imports_of(index, "pkg.a")["nothing"]
    assert (record.resolved, record.external, record.is_external) == (None, None, False)


def test_import_in_a_try_block_without_import_error_is_not_try_except(indexed: Indexed) -> None:
    source = (
        "try:\n    import a\nexcept ValueError:\n    pass\n"
        "try:\n    import b\nexcept (OSError, ImportError):\n    import c\n"
    )
    found = imports_of(indexed({"m.py": source}), "m")
    assert found["b"].condition is ImportCondition.TRY_EXCEPT
    assert found["c"].condition is ImportCondition.TRY_EXCEPT
    assert found["a"].condition is not ImportCondition.TRY_EXCEPT


# -- class hierarchy ---------------------------------------------------------------------------------------

HIERARCHY = """\
import collections
from collections import OrderedDict as OD


class O: pass
class A(O): pass
class B(O): pass
class C(O): pass
class D(O): pass
class E(O): pass
class K1(A, B, C): pass
class K2(D, B, E): pass
class K3(D, A): pass
class Z(K1, K2, K3): pass
class Top: pass
class Left(Top): pass
class Right(Top): pass
class Bottom(Left, Right): pass
class Error(Exception): pass
class Ordered(collections.OrderedDict): pass
class Aliased(OD, Bottom): pass
class Alias2(Error): pass


def make_base():
    return unknown_factory()


class Dynamic(make_base()): pass
class Child(Dynamic): pass
"""


@pytest.fixture
def hierarchy(indexed: Indexed) -> RepoIndex:
    return indexed({"h.py": HIERARCHY})


def python_mro(source: str, cutoff: str) -> dict[str, tuple[str, ...]]:
    """Each class's ``__mro__`` names (repository classes only), by executing ``source`` up to ``cutoff``."""
    namespace: dict[str, object] = {"__name__": "h"}
    exec(compile(source.partition(cutoff)[0], "h.py", "exec"), namespace)
    return {
        name: tuple(f"h.{c.__name__}" for c in value.__mro__ if c.__module__ == "h")
        for name, value in namespace.items()
        if isinstance(value, type) and value.__module__ == "h"
    }


def test_mro_matches_python(hierarchy: RepoIndex) -> None:
    expected = python_mro(HIERARCHY, "def make_base")
    assert len(expected) == 18
    got = {name.removeprefix("h."): hierarchy.classes[name].mro for name in (f"h.{n}" for n in expected)}
    assert got == expected
    assert got["Z"] == ("h.Z", "h.K1", "h.K2", "h.K3", "h.D", "h.A", "h.B", "h.C", "h.E", "h.O")


def test_resolved_bases_in_order(hierarchy: RepoIndex) -> None:
    assert hierarchy.classes["h.Z"].resolved_bases == ("h.K1", "h.K2", "h.K3")
    assert hierarchy.classes["h.Z"].bases == ("K1", "K2", "K3")
    assert hierarchy.classes["h.O"].resolved_bases == ()


def test_external_bases_are_named(hierarchy: RepoIndex) -> None:
    got = {
        name: (info.resolved_bases, info.external_bases)
        for name, info in hierarchy.classes.items()
        if info.external_bases
    }
    assert got == {
        "h.Error": ((), ("builtins.Exception",)),
        "h.Ordered": ((), ("collections.OrderedDict",)),
        "h.Aliased": (("h.Bottom",), ("collections.OrderedDict",)),
    }
    assert hierarchy.classes["h.Aliased"].bases == ("OD", "Bottom")


def test_unresolved_bases_keep_their_text(hierarchy: RepoIndex) -> None:
    unresolved = {
        name: info.unresolved_bases for name, info in hierarchy.classes.items() if info.unresolved_bases
    }
    assert unresolved == {"h.Dynamic": ("make_base()",)}
    assert hierarchy.classes["h.Child"].resolved_bases == ("h.Dynamic",)
    assert hierarchy.classes["h.Child"].mro == ("h.Child", "h.Dynamic")


def test_base_imported_from_another_module(indexed: Indexed) -> None:
    index = indexed(
        {
            "pkg/__init__.py": "from pkg.base import Base\n",
            "pkg/base.py": "class Base:\n    pass\n",
            "pkg/impl.py": "import pkg\nfrom . import base\n\n\nclass One(pkg.Base):\n    pass\n\n\n"
            "class Two(base.Base):\n    pass\n",
        }
    )
    assert index.classes["pkg.impl.One"].resolved_bases == ("pkg.base.Base",)
    assert index.classes["pkg.impl.Two"].resolved_bases == ("pkg.base.Base",)


def test_star_import_honours_all(indexed: Indexed) -> None:
    index = indexed(
        {
            "pkg/__init__.py": "",
            "pkg/lib.py": "__all__ = ['shown']\n\n\ndef shown():\n    pass\n\n\ndef hidden():\n    pass\n",
            "pkg/use.py": "from pkg.lib import *\n\n\ndef main():\n    shown()\n    hidden()\n",
        }
    )
    callees = index.callees("pkg.use.main")
    assert callees.value == {"pkg.lib.shown"}
    assert "pkg.lib.hidden" not in callees.value | callees.possible
    assert callees.reasons == ("pkg/use.py:6: cannot resolve hidden",)


def test_star_import_skips_private_names_without_all(indexed: Indexed) -> None:
    index = indexed(
        {
            "pkg/__init__.py": "",
            "pkg/lib.py": "def public():\n    pass\n\n\ndef _private():\n    pass\n",
            "pkg/use.py": "from pkg.lib import *\n\n\ndef main():\n    public()\n    _private()\n",
        }
    )
    callees = index.callees("pkg.use.main")
    assert callees.value == {"pkg.lib.public"}
    assert callees.reasons == ("pkg/use.py:6: cannot resolve _private",)

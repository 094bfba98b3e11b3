"""Regressions: each test pins a wrong answer or a crash the index once gave."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import RepoFiles, TemporaryRepo
from test_index_cache import overwrite_stored_summaries

from dure.analyzers import RepoIndex, build_index

Indexed = Callable[[RepoFiles], RepoIndex]

FILES = {
    "pkg/__init__.py": "",
    "pkg/a.py": "def f():\n    g()\n\n\ndef g():\n    pass\n",
    "bad.py": "def (:\n",
}


def test_package_directory_wins_over_module_file(indexed: Indexed) -> None:
    index = indexed(
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "def mod_f():\n    pass\n",
            "pkg/a/__init__.py": "def pkg_f():\n    pass\n",
        }
    )
    assert "pkg.a.pkg_f" in index.definitions  # Python imports pkg/a/__init__.py


def test_docstring_of_a_module(indexed: Indexed) -> None:
    index = indexed({"m.py": '"""Module doc."""\n'})
    assert index.definitions["m"].docstring == "Module doc."


def test_metaclass_is_named(indexed: Indexed) -> None:
    index = indexed({"m.py": "class Meta(type):\n    pass\n\n\nclass A(metaclass=Meta):\n    pass\n"})
    assert index.classes["m.A"].metaclass == "m.Meta"


def test_module_end_line_and_line_count(indexed: Indexed) -> None:
    index = indexed({"m.py": "def f():\n    pass\n"})  # two lines
    assert index.definitions["m"].end_line == 2
    assert index.statistics.lines == 2


def test_two_star_imports(indexed: Indexed) -> None:
    index = indexed(
        {
            "pkg/__init__.py": "",
            "pkg/lib.py": "def shown():\n    pass\n",
            "pkg/other.py": "def anything():\n    pass\n",
            "pkg/use.py": "from pkg.lib import *\nfrom pkg.other import *\n\n\ndef main():\n    shown()\n",
        }
    )
    assert index.callees("pkg.use.main").value == {"pkg.lib.shown"}


def test_definition_through_try_except_prefers_the_try_branch(indexed: Indexed) -> None:
    index = indexed(
        {
            "pkg/__init__.py": (
                "try:\n    from pkg._fast import f\nexcept ImportError:\n    from pkg._slow import f\n"
            ),
            "pkg/_fast.py": "def f():\n    pass\n",
            "pkg/_slow.py": "def f():\n    pass\n",
        }
    )
    result = index.definition("pkg.f")
    assert "pkg._fast.f" in result.value | result.possible


def test_definition_follows_a_star_reexport(indexed: Indexed) -> None:
    index = indexed(
        {
            "pkg/__init__.py": "",
            "pkg/api.py": "from pkg._impl import *\n",
            "pkg/_impl.py": "def f():\n    pass\n",
        }
    )
    assert index.definition("pkg.api.f").value == {"pkg._impl.f"}


def test_string_name_uncertainty_has_its_line(indexed: Indexed) -> None:
    index = indexed({"m.py": "def f():\n    pass\n\n\nNAME = 'f'\n"})
    assert [u.line for u in index.uncertainties] == [5]


def test_getattr_on_own_module(indexed: Indexed) -> None:
    index = indexed(
        {
            "m.py": (
                "import sys\n\n\ndef _helper():\n    pass\n\n\n"
                "def dyn(name):\n    return getattr(sys.modules[__name__], name)()\n"
            )
        }
    )
    assert not index.callers("m._helper").certain


def test_syntax_warning_is_not_a_syntax_error(indexed: Indexed) -> None:
    index = indexed({"m.py": 'x = "\\("\n\n\ndef f():\n    pass\n'})  # pytest runs with filterwarnings=error
    assert index.diagnostics == ()


@pytest.mark.parametrize(
    "content", [b"\x8e\xff\xff\xff\xff\xff\xff\xff\x7f", b"\x80\x05\x96\xff\xff\xff\xff\xff\xff\xff\x7f"]
)
def test_cache_entries_that_overflow_the_unpickler_are_ignored(
    temporary_repo: TemporaryRepo, tmp_path: Path, content: bytes
) -> None:
    root, cache = temporary_repo(FILES), tmp_path / "cache"
    build_index(root, cache=cache)
    for path in cache.rglob("*.pkl"):
        path.write_bytes(content)
    overwrite_stored_summaries(cache, content)
    assert build_index(root, cache=cache).statistics.parsed == 3


UNKNOWN_GETATTR = "def call(obj, name):\n    return getattr(obj, name)()\n"


def test_a_membership_test_on_sys_modules_hands_out_no_module(indexed: Indexed) -> None:
    index = indexed(
        {
            "m.py": "import sys\n\n\ndef _helper():\n    pass\n\n\ndef run():\n    _helper()\n"
            "    return 'json' in sys.modules\n",
            "calls.py": UNKNOWN_GETATTR,
        }
    )
    assert index.callers("m._helper").certain


def test_a_computed_import_reaches_only_the_modules_its_prefix_allows(indexed: Indexed) -> None:
    index = indexed(
        {
            "pkg/__init__.py": "",
            "pkg/data_a.py": "def table():\n    pass\n",
            "pkg/load.py": "from importlib import import_module\n\n\ndef load(kind):\n"
            "    name = f'.data_{kind}'\n    return import_module(name, 'pkg').table()\n",
            "pkg/other.py": "def _helper():\n    pass\n\n\ndef run():\n    _helper()\n",
            "calls.py": UNKNOWN_GETATTR,
        }
    )
    assert index.escaping_module_prefixes == {"pkg.data_"}
    assert index.callers("pkg.other._helper").certain
    assert not index.callers("pkg.data_a.table").certain


def test_vars_of_an_object_exposes_that_object_not_its_module(indexed: Indexed) -> None:
    index = indexed(
        {
            "m.py": "class Options:\n    def __init__(self, **kw):\n        vars(self).update(kw)\n\n\n"
            "def read():\n    return vars()\n"
        }
    )
    exposed = {u.scope: u.affects for u in index.uncertainties if u.kind.value == "namespace"}
    assert exposed == {
        "m.Options.__init__": ("member:m.Options", "subclasses:m.Options"),
        "m.read": ("member:m",),
    }


def test_writes_through_dunder_dict_are_recorded_like_setattr(indexed: Indexed) -> None:
    index = indexed(
        {
            "m.py": "class Record:\n    def __init__(self, **kw):\n"
            "        self.__dict__.update(kw)\n        self.__dict__['k'] = 1\n"
        }
    )
    writes = [(u.kind.value, u.line, u.affects) for u in index.uncertainties]
    assert writes == [
        ("setattr", 3, ("member:m.Record", "subclasses:m.Record")),
        ("setattr", 4, ("member:m.Record", "subclasses:m.Record")),
    ]
    assert [t.callee for s in index.call_sites if s.line == 3 for t in s.targets] == ["builtins.dict.update"]

"""The index's queries on small repositories: the answer, and whether it is certain."""

from __future__ import annotations

import textwrap
from collections.abc import Callable

import pytest
from conftest import (
    RepoFiles,
    assert_callees,
    assert_callers,
    assert_definition,
    assert_external_deps,
    assert_paths,
    assert_subclasses,
)

from dure.analyzers import RepoIndex
from dure.errors import DureError, QueryError

Indexed = Callable[[RepoFiles], RepoIndex]

HELPER = """\
def _helper():
    return 1


def a():
    return _helper()


def b():
    return _helper() + _helper()
"""

# -- callers -----------------------------------------------------------------------------------------------


def test_callers_of_a_private_helper_called_twice(indexed: Indexed) -> None:
    index = indexed({"m.py": HELPER})
    assert_callers(index, "m._helper", {"m.a", "m.b"}, certain=True, possible=set())
    assert [(e.caller, e.line) for e in index.edges() if e.callee == "m._helper"] == [
        ("m.a", 6),
        ("m.b", 10),
        ("m.b", 10),
    ]


def test_callers_across_modules(indexed: Indexed) -> None:
    index = indexed(
        {
            "pkg/__init__.py": "",
            "pkg/core.py": "def work():\n    pass\n",
            "pkg/cli.py": "from pkg.core import work\nfrom pkg import core\n\n\n"
            "def main():\n    work()\n\n\ndef other():\n    core.work()\n",
        }
    )
    assert_callers(index, "pkg.core.work", {"pkg.cli.main", "pkg.cli.other"}, certain=True)


def test_module_level_call_is_attributed_to_the_module(indexed: Indexed) -> None:
    index = indexed({"m.py": "def setup():\n    pass\n\n\nsetup()\n"})
    assert_callers(index, "m.setup", {"m"}, certain=True)


# name -> (code added to m.py, code of another module n.py, words of the reason)
UNCERTAIN_CALLERS: dict[str, tuple[str, str, str]] = {
    "passed as a value": ("\n\nHANDLERS = [_helper]\n", "", "used as a value"),
    "returned": ("\n\ndef factory():\n    return _helper\n", "", "used as a value"),
    "getattr with a computed name": (
        "",
        "import m\n\n\ndef dyn(name):\n    return getattr(m, name)()\n",
        "getattr",
    ),
    "named in a string": ("\n\nNAME = '_helper'\n", "", "string_name"),
    "globals() lookup": ("\n\ndef dyn(name):\n    return globals()[name]()\n", "", "namespace"),
    "eval": ("\n\ndef dyn(code):\n    return eval(code)\n", "", "eval"),
}


@pytest.mark.parametrize("case", UNCERTAIN_CALLERS, ids=list(UNCERTAIN_CALLERS))
def test_callers_are_uncertain_when_unknown_code_may_call(indexed: Indexed, case: str) -> None:
    extra, other, reason = UNCERTAIN_CALLERS[case]
    index = indexed({"m.py": HELPER + extra, "n.py": other})
    assert_callers(index, "m._helper", {"m.a", "m.b"}, certain=False)
    assert any(reason in r for r in index.callers("m._helper").reasons), index.callers("m._helper").reasons


def test_callers_of_a_method_called_on_an_unknown_receiver(indexed: Indexed) -> None:
    known = "class A:\n    def run(self):\n        pass\n\n\ndef g():\n    A().run()\n"
    assert_callers(indexed({"m.py": known}), "m.A.run", {"m.g"}, certain=True)
    index = indexed({"m.py": known + "\n\ndef f(x):\n    x.run()\n"})
    assert_callers(index, "m.A.run", {"m.g"}, certain=False)
    assert index.callers("m.A.run").reasons == ("a call of .run() on an unknown receiver may reach it",)


def test_an_unknown_receiver_does_not_affect_other_method_names(indexed: Indexed) -> None:
    index = indexed(
        {
            "m.py": "class A:\n    def run(self):\n        pass\n\n\ndef g():\n    A().run()\n\n\n"
            "def f(x):\n    x.stop()\n"
        }
    )
    assert_callers(index, "m.A.run", {"m.g"}, certain=True)


def test_possible_callers_through_a_conditional_value(indexed: Indexed) -> None:
    index = indexed(
        {
            "m.py": "def one():\n    pass\n\n\ndef two():\n    pass\n\n\n"
            "def pick(flag):\n    fn = one if flag else two\n    return fn()\n"
        }
    )
    assert_callers(index, "m.one", set(), certain=False, possible={"m.pick"})
    assert_callers(index, "m.two", set(), certain=False, possible={"m.pick"})


def test_dunder_methods_never_have_certain_callers(indexed: Indexed) -> None:
    index = indexed(
        {"m.py": "class A:\n    def __len__(self):\n        return 0\n\n\ndef f():\n    return len(A())\n"}
    )
    assert not index.callers("m.A.__len__").certain


# -- callees -----------------------------------------------------------------------------------------------


def test_callees_certain(indexed: Indexed) -> None:
    index = indexed(
        {
            "m.py": "import os\n\n\ndef f():\n    os.getcwd()\n    g()\n    print(len([]))\n\n\n"
            "def g():\n    pass\n"
        }
    )
    assert_callees(index, "m.f", {"os.getcwd", "m.g", "builtins.print", "builtins.len"}, certain=True)
    assert_callees(index, "m.g", set(), certain=True)


def test_callees_with_an_unresolved_site(indexed: Indexed) -> None:
    index = indexed({"m.py": "import os\n\n\ndef f(x):\n    os.getcwd()\n    x.whatever()\n"})
    assert_callees(index, "m.f", {"os.getcwd"}, certain=False, possible=set())
    assert index.callees("m.f").reasons == ("m.py:6: cannot resolve x.whatever",)


def test_callees_with_several_possible_targets(indexed: Indexed) -> None:
    index = indexed(
        {
            "m.py": "def one():\n    pass\n\n\ndef two():\n    pass\n\n\n"
            "def pick(flag):\n    (one if flag else two)()\n    one()\n"
        }
    )
    assert_callees(index, "m.pick", {"m.one"}, certain=False, possible={"m.two"})


def test_callees_with_getattr_in_scope_are_uncertain(indexed: Indexed) -> None:
    index = indexed(
        {"m.py": "def g():\n    pass\n\n\ndef f(obj, name):\n    g()\n    return getattr(obj, name)\n"}
    )
    assert_callees(index, "m.f", {"m.g", "builtins.getattr"}, certain=False)


# -- subclasses --------------------------------------------------------------------------------------------

CLASSES = """\
class Base:
    pass


class Mid(Base):
    pass


class Leaf(Mid):
    pass


class Other(Base):
    pass
"""


def test_subclasses_are_transitive(indexed: Indexed) -> None:
    index = indexed(
        {
            "pkg/__init__.py": "",
            "pkg/base.py": CLASSES,
            "pkg/more.py": "from pkg.base import Leaf\n\n\nclass Deeper(Leaf):\n    pass\n",
        }
    )
    assert_subclasses(
        index,
        "pkg.base.Base",
        {"pkg.base.Mid", "pkg.base.Leaf", "pkg.base.Other", "pkg.more.Deeper"},
        certain=True,
    )
    assert_subclasses(index, "pkg.base.Mid", {"pkg.base.Leaf", "pkg.more.Deeper"}, certain=True)
    assert_subclasses(index, "pkg.more.Deeper", set(), certain=True)


def test_subclasses_uncertain_when_a_base_is_unresolved(indexed: Indexed) -> None:
    index = indexed(
        {
            "m.py": CLASSES
            + "\n\ndef make_base():\n    return unknown()\n\n\nclass Odd(make_base()):\n    pass\n"
        }
    )
    assert_subclasses(index, "m.Base", {"m.Mid", "m.Leaf", "m.Other"}, certain=False)
    assert index.subclasses("m.Base").reasons == ("m.Odd has bases the index cannot name: make_base()",)


def test_subclasses_with_an_external_base_stay_certain(indexed: Indexed) -> None:
    index = indexed({"m.py": CLASSES + "\n\nclass Err(Exception):\n    pass\n"})
    assert_subclasses(index, "m.Base", {"m.Mid", "m.Leaf", "m.Other"}, certain=True)


# -- external_deps -----------------------------------------------------------------------------------------

EXTERNAL = {
    "pkg/__init__.py": "",
    "pkg/io.py": "import json\nimport os.path\n\n\ndef load(p):\n    return json.loads(os.path.join(p))\n",
    "pkg/net.py": "from urllib.request import urlopen\n\n\ndef fetch(u):\n    return urlopen(u)\n",
    "pkg/app.py": textwrap.dedent("""\
        from xml.etree import ElementTree as ET
        from pkg.io import load
        from pkg import net


        def main(p):
            load(p)
            return helper(p)


        def helper(p):
            print(p)
            return ET.parse(p)


        def fetching(u):
            return net.fetch(u)
        """),
}


def test_external_deps_through_repository_calls(indexed: Indexed) -> None:
    index = indexed(EXTERNAL)
    assert_external_deps(index, "pkg.app.main", {"json", "os", "xml"}, certain=True, possible=set())
    assert_external_deps(index, "pkg.app.helper", {"xml"}, certain=True)
    assert_external_deps(index, "pkg.app.fetching", {"urllib"}, certain=True)
    assert_external_deps(index, "pkg.io.load", {"json", "os"}, certain=True)


def test_external_deps_uncertain_with_an_unresolved_call(indexed: Indexed) -> None:
    index = indexed(
        {**EXTERNAL, "pkg/dyn.py": "from pkg.io import load\n\n\ndef run(x, p):\n    x.go()\n    load(p)\n"}
    )
    assert_external_deps(index, "pkg.dyn.run", {"json", "os"}, certain=False)


def test_external_deps_of_possible_callees_are_possible(indexed: Indexed) -> None:
    index = indexed(
        {
            **EXTERNAL,
            "pkg/choose.py": "from pkg.io import load\nfrom pkg.net import fetch\n\n\n"
            "def run(flag, p):\n    (load if flag else fetch)(p)\n",
        }
    )
    assert_external_deps(index, "pkg.choose.run", set(), certain=False, possible={"json", "os", "urllib"})


# -- shortest_paths ----------------------------------------------------------------------------------------

PATHS = """\
def top():
    left()
    right()
    long1()


def left():
    target()


def right():
    target()


def long1():
    long2()


def long2():
    target()


def target():
    pass


def lonely():
    pass
"""


def test_all_shortest_paths_over_certain_edges(indexed: Indexed) -> None:
    index = indexed({"m.py": PATHS})
    assert_paths(
        index,
        "m.top",
        "m.target",
        {("m.top", "m.left", "m.target"), ("m.top", "m.right", "m.target")},
        certain=True,
    )
    assert_paths(index, "m.long1", "m.target", {("m.long1", "m.long2", "m.target")}, certain=True)
    assert index.shortest_paths("m.top", "m.target").value == (
        ("m.top", "m.left", "m.target"),
        ("m.top", "m.right", "m.target"),
    )


def test_no_path(indexed: Indexed) -> None:
    index = indexed({"m.py": PATHS})
    assert_paths(index, "m.target", "m.top", set(), certain=False)
    assert_paths(index, "m.lonely", "m.target", set(), certain=False)


def test_a_possible_edge_giving_a_shorter_path_makes_it_uncertain(indexed: Indexed) -> None:
    index = indexed(
        {"m.py": PATHS.replace("    long1()\n", "    long1()\n    (target if left else right)()\n")}
    )
    assert_paths(
        index,
        "m.top",
        "m.target",
        {("m.top", "m.left", "m.target"), ("m.top", "m.right", "m.target")},
        certain=False,
    )
    shortened = indexed(
        {"m.py": PATHS.replace("    long2()\n", "    long2()\n    (target if 1 else left)()\n")}
    )
    assert_paths(shortened, "m.long1", "m.target", {("m.long1", "m.long2", "m.target")}, certain=False)


def test_a_possible_edge_giving_only_longer_paths_keeps_it_certain(indexed: Indexed) -> None:
    index = indexed(
        {"m.py": PATHS.replace("def long2():\n", "def long2():\n    (long1 if 1 else lonely)()\n")}
    )
    assert_paths(
        index,
        "m.top",
        "m.target",
        {("m.top", "m.left", "m.target"), ("m.top", "m.right", "m.target")},
        certain=True,
    )


# -- definition --------------------------------------------------------------------------------------------

REEXPORTS = {
    "pkg/__init__.py": "from pkg.api import f\nfrom . import api as API\n",
    "pkg/api.py": "from pkg._impl import f\nfrom ._impl import Klass as Public\n",
    "pkg/_impl.py": "def f():\n    pass\n\n\nclass Klass:\n    def m(self):\n        pass\n",
    "opt/__init__.py": "try:\n    from opt._fast import speed\nexcept ImportError:\n    speed = None\n",
    "opt/_fast.py": "def speed():\n    pass\n",
}


def test_definition_follows_a_reexport_chain(indexed: Indexed) -> None:
    index = indexed(REEXPORTS)
    assert_definition(index, "pkg.f", "pkg._impl.f", certain=True)
    assert_definition(index, "pkg.api.f", "pkg._impl.f", certain=True)
    assert_definition(index, "pkg.API.Public.m", "pkg._impl.Klass.m", certain=True)
    assert_definition(index, "pkg._impl.Klass", "pkg._impl.Klass", certain=True)
    assert_definition(index, "pkg", "pkg", certain=True)


def test_definition_through_a_try_except_import_is_uncertain(indexed: Indexed) -> None:
    index = indexed(REEXPORTS)
    assert_definition(index, "opt.speed", "opt._fast.speed", certain=False)
    assert index.definition("opt.speed").reasons == ("opt/__init__.py:2: the import is try_except",)


def test_definition_through_a_type_checking_import_is_uncertain(indexed: Indexed) -> None:
    index = indexed(
        {
            "pkg/__init__.py": "from typing import TYPE_CHECKING\n\n"
            "if TYPE_CHECKING:\n    from pkg.t import T\n",
            "pkg/t.py": "class T:\n    pass\n",
        }
    )
    assert_definition(index, "pkg.T", "pkg.t.T", certain=False)


def test_definition_of_a_name_bound_twice_is_uncertain(indexed: Indexed) -> None:
    index = indexed({"m.py": "def f():\n    return 1\n\n\nif input():\n    def f():\n        return 2\n"})
    assert not index.definition("m.f").certain


# -- unknown names -----------------------------------------------------------------------------------------

QUERIES: dict[str, Callable[[RepoIndex, str], object]] = {
    "callers": lambda index, name: index.callers(name),
    "callees": lambda index, name: index.callees(name),
    "subclasses": lambda index, name: index.subclasses(name),
    "external_deps": lambda index, name: index.external_deps(name),
    "shortest_paths (source)": lambda index, name: index.shortest_paths(name, "m.target"),
    "shortest_paths (target)": lambda index, name: index.shortest_paths("m.top", name),
    "definition": lambda index, name: index.definition(name),
}


@pytest.mark.parametrize("query", QUERIES, ids=list(QUERIES))
@pytest.mark.parametrize("name", ["m.missing", "nowhere.at.all", "builtins.len"])
def test_unknown_names_raise_query_error(indexed: Indexed, query: str, name: str) -> None:
    index = indexed({"m.py": PATHS})
    with pytest.raises(QueryError) as raised:
        QUERIES[query](index, name)
    assert isinstance(raised.value, DureError)
    assert raised.value.name == name
    assert name in str(raised.value)


def test_reexported_name_is_not_a_definition_for_other_queries(indexed: Indexed) -> None:
    """Only ``definition`` follows imports; the other queries want the real qualified name."""
    index = indexed(REEXPORTS)
    with pytest.raises(QueryError, match=r"callers\(pkg\.f\): no such definition"):
        index.callers("pkg.f")
    with pytest.raises(QueryError, match=r"pkg\.api has no attribute missing"):
        index.definition("pkg.api.missing")


# -- callees a computed rebinding may change -----------------------------------------------------------------

REBOUND = """\
class A:
    def run(self):
        return self.helper()

    def helper(self):
        return 1


def plain():
    return len([])


def make():
    return A()
"""


@pytest.mark.parametrize(
    ("patch", "subject", "target", "doubted"),
    [
        ("def patch(name, value):\n    setattr(A, name, value)\n", "m.A.run", "m.A.helper", "setattr"),
        ("def patch(obj, name):\n    setattr(obj, name, None)\n", "m.A.run", "m.A.helper", "setattr"),
        ("def patch(name):\n    A.__dict__.update({name: None})\n", "m.A.run", "m.A.helper", "setattr"),
        ("def patch(code):\n    exec(code)\n", "m.make", "m.A", "eval"),  # exec may rebind the module's names
        ("def patch(name):\n    globals()[name] = None\n", "m.make", "m.A", "namespace"),
    ],
    ids=[
        "setattr on the class",
        "setattr on an unknown object",
        "a __dict__ write",
        "exec in the module",
        "a globals() write",
    ],
)
def test_a_computed_rebinding_makes_the_callees_it_may_replace_uncertain(
    indexed: Indexed, patch: str, subject: str, target: str, doubted: str
) -> None:
    index = indexed({"m.py": REBOUND + "\n\n" + patch})
    result = index.callees(subject)
    assert target in {*result.value, *result.possible}
    assert not result.certain
    assert any(f": {doubted}: " in reason and f"may rebind {target}" in reason for reason in result.reasons)


def test_a_rebinding_of_one_class_leaves_other_callees_certain(indexed: Indexed) -> None:
    index = indexed({"m.py": REBOUND + "\n\ndef patch(name, value):\n    setattr(A, name, value)\n"})
    assert_callees(index, "m.plain", {"builtins.len"}, certain=True)
    # setattr on A cannot rebind the module's A; it may set A.__init__, so what A() runs is possible
    made = index.callees("m.make")
    assert made.possible == {"m.A"}
    assert not made.value
    assert not any("may rebind m.A" in reason for reason in made.reasons)


def test_callees_without_a_computed_rebinding_stay_certain(indexed: Indexed) -> None:
    index = indexed({"m.py": REBOUND + "\n\ndef patch(value):\n    setattr(A, 'other', value)\n"})
    assert_callees(index, "m.A.run", {"m.A.helper"}, certain=True)

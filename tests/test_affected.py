"""The table of which uncertainties affect which definitions answers exactly as testing each record."""

from __future__ import annotations

from collections.abc import Callable

from conftest import RepoFiles

from dure.analyzers import RepoIndex
from dure.analyzers.affected import affecting, affects

Indexed = Callable[[RepoFiles], RepoIndex]

#: One repository with a record of every selector kind: member, subclasses, prefix, attr, name, def,
#: imported, modules and the namespace of a module.
EVERY_SELECTOR = {
    "pkg/__init__.py": "",
    "pkg/base.py": """\
import importlib


class Base:
    def run(self):
        return self.get_value()

    def configure(self, name, value):
        setattr(self, name, value)

    def get_value(self):
        return 1


class Child(Base):
    def get_other(self):
        return 2


class Grandchild(Child):
    def get_more(self):
        return 3


def patch_class(name, value):
    setattr(Base, name, value)


def patch_prefix(suffix, value):
    setattr(Child, "get_" + suffix, value)


def patch_unknown(obj, name):
    setattr(obj, name, None)


def patch_prefixed_unknown(obj, suffix):
    setattr(obj, f"get_{suffix}", None)


def load(name):
    return importlib.import_module("pkg.plugins." + name)


def load_any(name):
    return importlib.import_module(name)


def run_code(code):
    exec(code)


def namespace():
    return globals()


REGISTRY = {"run": "get_value"}
""",
    "pkg/plugins/__init__.py": "",
    "pkg/plugins/one.py": "from pkg.base import Base\n\n\ndef hook():\n    return Base().run()\n",
    "pkg/user.py": """\
from pkg import base
from pkg.base import Child


def replace():
    base.patch_class = None
    Child.get_other = None


@some_unknown_decorator
def decorated():
    return 1
""",
}


def _names(index: RepoIndex) -> list[str]:
    """Every definition, and names that are no definition (a module's variable, an external function)."""
    return [*index.definitions, "pkg.base.REGISTRY", "pkg.base.Base.missing", "builtins.len", "os.path.join"]


def test_the_table_answers_as_each_record_would(indexed: Indexed) -> None:
    index = indexed(EVERY_SELECTOR)
    kinds = {selector.partition(":")[0] for record in index.uncertainties for selector in record.affects}
    assert {"member", "subclasses", "prefix", "attr", "name", "def", "imported", "modules"} <= kinds
    for qualname in _names(index):
        expected = tuple(record for record in index.uncertainties if affects(index, record, qualname))
        assert affecting(index, qualname) == expected, qualname

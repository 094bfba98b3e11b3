"""The builtin classes' attributes, as the index reads them from the running interpreter."""

from __future__ import annotations

import types

from dure.analyzers.builtin_classes import (
    builtin_class,
    container_member,
    external_member,
    names_a_missing_attribute,
)
from dure.analyzers.values import NOTHING, UNKNOWN_VALS, single


def test_builtin_classes_are_found_by_path() -> None:
    assert builtin_class("builtins.str") is str
    assert builtin_class("builtins.NoneType") is type(None)
    assert builtin_class("builtins.coroutine") is types.CoroutineType  # what calling ``async def`` gives
    assert builtin_class("builtins.len") is None  # a function, not a class
    assert builtin_class("builtins.str.join") is None
    assert builtin_class("os.path") is None


def test_an_attribute_the_class_has_is_named() -> None:
    assert external_member("builtins.str", "join") == single(("X", "builtins.str.join"))
    assert external_member("os.path", "anything") == single(("X", "os.path.anything"))
    assert container_member("list", "append") == single(("X", "builtins.list.append"))
    assert container_member("generator", "send") == single(("X", "builtins.generator.send"))


def test_an_attribute_the_class_lacks_names_nothing() -> None:
    assert external_member("builtins.NoneType", "cursor") == NOTHING  # None.cursor raises
    assert container_member("list", "get") == NOTHING  # a list literal is exactly a list
    # a str may be of a subclass, an exception holds attributes of its own: unknown, not nothing
    assert external_member("builtins.str", "get") == UNKNOWN_VALS
    assert external_member("builtins.ValueError", "detail") == UNKNOWN_VALS
    assert container_member("coroutine", "get") == NOTHING


def test_instances_do_not_have_what_the_metaclass_gives_the_class() -> None:
    assert external_member("builtins.str", "__name__") == single(("X", "builtins.str.__name__"))
    assert external_member("builtins.str", "__name__", instance=True) == UNKNOWN_VALS
    assert external_member("builtins.NoneType", "__name__", instance=True) == NOTHING
    assert external_member("builtins.OSError", "errno", instance=True) == single(
        ("X", "builtins.OSError.errno")
    )


def test_missing_attributes_are_told_by_path() -> None:
    assert names_a_missing_attribute("builtins.object.__get__")
    assert names_a_missing_attribute("builtins.NoneType.cursor")
    assert not names_a_missing_attribute("builtins.object.__init__")
    assert not names_a_missing_attribute("builtins.len")
    assert not names_a_missing_attribute("django.db.models.Model.save")


def test_data_attributes_of_sys_and_os_are_builtin_instances() -> None:
    assert external_member("sys", "path") == single(("XI", "builtins.list"))
    assert external_member("sys", "platform") == single(("XI", "builtins.str"))
    assert external_member("os", "sep") == single(("XI", "builtins.str"))
    # sys.modules is followed by name (a write to it replaces a module); functions stay external names
    assert external_member("sys", "modules") == single(("X", "sys.modules"))
    assert external_member("os", "getcwd") == single(("X", "os.getcwd"))
    assert external_member("json", "decoder") == single(("X", "json.decoder"))

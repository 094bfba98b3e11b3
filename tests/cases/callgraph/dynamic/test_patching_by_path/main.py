from unittest import mock

from _pytest.monkeypatch import MonkeyPatch

import tools


def use():
    return tools.helper()


def use_other():
    return tools.other()


def use_third():
    return tools.third()


def use_service():
    return tools.Service().fetch()


def test_with_patch():
    with mock.patch("tools.helper", tools.replacement):
        return use()


def test_with_a_mock():
    with mock.patch("tools.Service.fetch"):
        return use_service()


def test_with_patch_object_mock():
    with mock.patch.object(tools, "third"):
        return use_third()


def test_with_monkeypatch(monkeypatch):
    monkeypatch.setattr("tools.other", lambda: "patched")
    return use_other()


test_with_patch()
test_with_a_mock()
test_with_patch_object_mock()
patcher = MonkeyPatch()
test_with_monkeypatch(patcher)
patcher.undo()
use()
use_other()
use_third()
use_service()

from unittest import mock

from _pytest.monkeypatch import MonkeyPatch

import tools


def use():
    return tools.helper()


def use_other():
    return tools.other()


def test_with_patch():
    with mock.patch.object(tools, "helper", lambda: "patched"):
        return use()


def test_with_monkeypatch(monkeypatch):
    monkeypatch.setattr(tools, "other", lambda: "patched")
    return use_other()


test_with_patch()
patcher = MonkeyPatch()
test_with_monkeypatch(patcher)
patcher.undo()
use()

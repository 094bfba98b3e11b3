"""The public facade stays in sync with what it exports."""

from __future__ import annotations

import pytest

import dure


def test_all_names_exist_once() -> None:
    missing = [name for name in dure.__all__ if not hasattr(dure, name)]
    assert not missing, f"listed in dure.__all__ but not importable: {missing}"
    assert len(set(dure.__all__)) == len(dure.__all__)


def test_every_public_object_is_listed() -> None:
    for name in dure.__all__:
        getattr(dure, name)  # the facade loads names on first use
    helpers = {"annotations", "TYPE_CHECKING", "Any"}
    public = {name for name in vars(dure) if not name.startswith("_") and name not in helpers}
    modules = {name for name in public if type(getattr(dure, name)).__name__ == "module"}
    assert public - modules == set(dure.__all__)
    assert set(dure.__all__) <= set(dir(dure))


def test_unknown_names_raise_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nonexistent'"):
        dure.nonexistent  # noqa: B018 - the attribute access is the test

"""The public facade stays in sync with what it exports."""

from __future__ import annotations

import dure


def test_all_names_exist_once() -> None:
    missing = [name for name in dure.__all__ if not hasattr(dure, name)]
    assert not missing, f"listed in dure.__all__ but not importable: {missing}"
    assert len(set(dure.__all__)) == len(dure.__all__)


def test_every_public_object_is_listed() -> None:
    public = {name for name in vars(dure) if not name.startswith("_") and name != "annotations"}
    modules = {name for name in public if type(getattr(dure, name)).__name__ == "module"}
    assert public - modules == set(dure.__all__)

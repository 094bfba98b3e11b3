"""The pause of the cyclic collector around a build: what it made is old afterwards, nothing else moves."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from dure.analyzers import cyclic_gc


@pytest.fixture(autouse=True)
def _collector_restored() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.unfreeze()  # what earlier tests froze (the CLI freezes an index it is about to exit with)
    gc.enable()
    yield
    gc.unfreeze()
    if not enabled:
        gc.disable()


def _made(count: int) -> list[list[int]]:
    return [[n] for n in range(count)]


def _in_generation(generation: int, objects: list[list[int]]) -> int:
    ids = {id(obj) for obj in objects}
    return sum(1 for obj in gc.get_objects(generation) if id(obj) in ids)


def test_what_a_pause_made_is_in_the_oldest_generation_and_collection_is_back_on() -> None:
    with cyclic_gc.paused():
        assert not gc.isenabled()
        made = _made(50_000)
    assert gc.isenabled()
    assert gc.get_count()[0] < 700  # no young generation left for the next allocation to walk
    assert _in_generation(0, made) == 0
    assert _in_generation(2, made) == len(made)


def test_an_inner_pause_leaves_the_collector_to_the_outer_one() -> None:
    with cyclic_gc.paused():
        with cyclic_gc.paused():
            made = _made(1_000)
        assert not gc.isenabled()
        assert _in_generation(0, made) == len(made)
    assert gc.isenabled()
    assert _in_generation(2, made) == len(made)


def test_objects_a_caller_froze_stay_frozen() -> None:
    frozen = _made(1_000)
    gc.freeze()
    count = gc.get_freeze_count()
    with cyclic_gc.paused():
        _made(1_000)
    assert gc.get_freeze_count() == count
    assert _in_generation(2, frozen) == 0  # still in the permanent generation, not handed back


def test_collection_is_back_on_after_an_error() -> None:
    with pytest.raises(ValueError, match="inside"), cyclic_gc.paused():
        raise ValueError("inside")
    assert gc.isenabled()


def test_a_pause_that_is_not_aged_leaves_what_it_made_young_for_the_next_collection() -> None:
    with cyclic_gc.paused(aged=False):
        made = _made(1_000)
    assert gc.isenabled()
    assert _in_generation(2, made) == 0  # young (a collection may already have moved them one generation on)

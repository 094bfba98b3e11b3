"""Resolution in two halves: the same index whether the second half runs in a helper process or here, and
whether the helper works, fails at the start or dies after the swap."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import TemporaryRepo
from test_index_cache import snapshot, stored_summaries

from dure.analyzers import RepoIndex, build_index, builder, halves
from dure.analyzers.builder import summarise_file
from dure.analyzers.cache import IndexCache
from dure.analyzers.model import Certainty
from dure.analyzers.source import discover

#: Two modules, one per half; each calls functions of the other with functions and objects of its own,
#: so that the flow pass of either half needs callers that only the other half resolved.
FILES = {
    "a.py": (
        "def apply(fn, value):\n"
        "    return fn(value)\n"
        "\n\n"
        "def close_all(items):\n"
        "    for item in items:\n"
        "        item.close()\n"
        "\n\n"
        "def loud(text):\n"
        "    return text.upper()\n"
        "\n\n"
        "class Box:\n"
        "    def __init__(self, item):\n"
        "        self.item = item\n"
        "\n"
        "    @property\n"
        "    def size(self):\n"
        "        return len(self.item)\n"
        "\n\n"
        "def use_b():\n"
        "    from b import Door, call_twice, shut\n"
        "\n"
        "    call_twice(loud)\n"
        "    shut([Door()])\n"
    ),
    "b.py": (
        "from a import Box, apply, close_all\n"
        "\n\n"
        "def call_twice(fn):\n"
        '    fn("a")\n'
        '    fn("b")\n'
        "\n\n"
        "def shut(things):\n"
        "    for thing in things:\n"
        "        thing.close()\n"
        "\n\n"
        "def shout(text):\n"
        "    return text.upper()\n"
        "\n\n"
        "class Handle:\n"
        "    def close(self):\n"
        "        pass\n"
        "\n\n"
        "class Door:\n"
        "    def close(self):\n"
        "        pass\n"
        "\n\n"
        "def run():\n"
        '    apply(shout, "x")\n'
        "    close_all([Handle()])\n"
        "    return Box([1]).size\n"
    ),
}

#: Edges only the flow pass finds, each through callers in the other module.
FLOW_EDGES = [
    ("a.apply", "b.shout"),
    ("a.close_all", "b.Handle.close"),
    ("b.call_twice", "a.loud"),
    ("b.shut", "b.Door.close"),
]


@pytest.fixture
def halves_forked(monkeypatch: pytest.MonkeyPatch, forks: list[int]) -> list[int]:
    """Splits every repository, allows forking whatever threads earlier tests left; the helpers' pids."""
    monkeypatch.setattr(halves, "SPLIT_MINIMUM", 0)
    monkeypatch.setattr(halves, "may_fork", lambda: True)
    return forks


CASES = Path(__file__).parent / "cases" / "callgraph"


def build(root: Path, workers: int) -> RepoIndex:
    return build_index(root, cache=False, workers=workers)


def edge_certainty(index: RepoIndex, caller: str, callee: str) -> set[Certainty]:
    return {e.certainty for e in index.edges() if (e.caller, e.callee) == (caller, callee)}


def test_the_halves_share_the_modules_by_their_work(monkeypatch: pytest.MonkeyPatch) -> None:
    summaries = {}
    for source in discover(CASES / "imports" / "reexport_chain").files:
        result = summarise_file(source, source.path.read_bytes())
        assert result.summary is not None
        summaries[result.summary.module] = result.summary
    assert halves.split(summaries) == (sorted(summaries), [])  # a small repository is one half
    monkeypatch.setattr(halves, "SPLIT_MINIMUM", 0)
    first, second = halves.split(summaries)
    assert first
    assert second
    assert sorted(first + second) == sorted(summaries)
    assert first == sorted(first)
    assert second == sorted(second)
    work = {m: len(s.uses) + len(s.calls) + 1 for m, s in summaries.items()}
    assert abs(sum(work[m] for m in first) - sum(work[m] for m in second)) <= max(work.values())
    # runs of the modules in name order: more work in one module moves at most those next to the cut
    assert first + second == sorted(summaries)


def test_a_helper_resolves_the_same_index_as_one_process(
    temporary_repo: TemporaryRepo, halves_forked: list[int]
) -> None:
    root = temporary_repo(FILES)
    alone = build(root, workers=1)
    assert not halves_forked
    helped = build(root, workers=2)
    assert len(halves_forked) == 1
    assert snapshot(helped) == snapshot(alone)
    # the flow pass of each half sees the callers the other half found
    for caller, callee in FLOW_EDGES:
        assert edge_certainty(helped, caller, callee) == {Certainty.POSSIBLE}, (caller, callee)
    assert edge_certainty(helped, "b.run", "a.Box.size") == {Certainty.CERTAIN}
    assert {"a.loud", "b.shout"} <= helped.escaped


def test_a_helper_that_fails_at_once_leaves_its_half_to_this_process(
    temporary_repo: TemporaryRepo, halves_forked: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = temporary_repo(FILES)
    alone = build(root, workers=1)

    def broken(*_: object) -> None:
        raise RuntimeError("the helper breaks")

    monkeypatch.setattr(halves, "_helper", broken)
    helped = build(root, workers=2)
    assert len(halves_forked) == 1
    assert snapshot(helped) == snapshot(alone)


def test_a_helper_that_dies_after_the_swap_leaves_its_half_to_this_process(
    temporary_repo: TemporaryRepo, halves_forked: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = temporary_repo(FILES)
    alone = build(root, workers=1)
    parent = os.getpid()
    real_flow: Callable[[halves._Half], object] = halves._Half.flow

    def dying_flow(half: halves._Half) -> object:
        if os.getpid() != parent:
            os._exit(3)  # the helper dies between the swap and its last message
        return real_flow(half)

    monkeypatch.setattr(halves._Half, "flow", dying_flow)
    helped = build(root, workers=2)
    assert len(halves_forked) == 1
    assert snapshot(helped) == snapshot(alone)


def test_the_helper_writes_the_cache_entries_of_this_process_once_its_half_is_sent(
    temporary_repo: TemporaryRepo, halves_forked: list[int], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(builder, "BACKGROUND_WRITES", 1)  # a writer process of its own would be forked
    root, cache = temporary_repo(FILES), tmp_path / "cache"
    first = builder.build_index(root, cache=cache, save_index=False, workers=2)
    assert len(halves_forked) == 1  # the resolution helper, and no writer
    assert stored_summaries(cache) == 2
    again = builder.build_index(root, cache=cache, save_index=False, workers=2)
    assert again.statistics.parsed == 0
    assert snapshot(again) == snapshot(first)


def test_entries_the_helper_fails_to_write_are_written_here(
    temporary_repo: TemporaryRepo, halves_forked: list[int], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    parent = os.getpid()
    real_write = builder._write_entries

    def failing_in_helper(store: IndexCache | None, entries: builder.Unwritten) -> None:
        if os.getpid() != parent:
            raise OSError("the helper cannot write")
        real_write(store, entries)

    monkeypatch.setattr(builder, "_write_entries", failing_in_helper)
    root, cache = temporary_repo(FILES), tmp_path / "cache"
    builder.build_index(root, cache=cache, save_index=False, workers=2)
    assert len(halves_forked) == 1
    assert stored_summaries(cache) == 2

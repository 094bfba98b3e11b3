"""The index cache: whole-index and per-file reuse, corrupt entries rebuilt, nothing written when off."""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import sqlite3
import tempfile
import threading
from collections.abc import Iterable
from pathlib import Path

import pytest
from conftest import TemporaryRepo

from dure.analyzers import RepoIndex, background, build_index, builder
from dure.analyzers import cache as cache_module
from dure.analyzers.cache import IndexCache
from dure.analyzers.model import Certainty
from dure.analyzers.source import SourceFile
from dure.analyzers.summary import FileResult

FILES = {
    "pkg/__init__.py": "",
    "pkg/a.py": "def f():\n    g()\n\n\ndef g():\n    pass\n",
    "pkg/b.py": "from pkg.a import f\n\n\ndef h():\n    f()\n",
    "pkg/c.py": "import os\n\n\ndef k():\n    return os.getcwd()\n",
    "bad.py": "def (:\n",
}


def snapshot(index: RepoIndex) -> tuple[object, ...]:
    """Everything an index says, in comparable form."""
    return (
        index.definitions,
        sorted(index.edges(), key=repr),
        index.imports,
        index.classes,
        index.uncertainties,
        index.diagnostics,
        (index.statistics.files, index.statistics.modules, index.statistics.lines),
    )


def files_under(directory: Path) -> list[Path]:
    return sorted(p for p in directory.rglob("*") if p.is_file()) if directory.exists() else []


def stored_summaries(cache: Path) -> int:
    """How many file summaries the cache directory ``cache`` holds."""
    return len(IndexCache(cache / f"v{builder.ANALYZER_VERSION}", cache).stored_keys())


def summaries_database(cache: Path) -> Path:
    return cache / f"v{builder.ANALYZER_VERSION}" / "summaries.sqlite"


def test_second_build_reuses_the_whole_index(temporary_repo: TemporaryRepo, tmp_path: Path) -> None:
    root, cache = temporary_repo(FILES), tmp_path / "cache"
    first = build_index(root, cache=cache)
    assert (first.statistics.reused, first.statistics.parsed) == (False, 5)
    second = build_index(root, cache=cache)
    assert (second.statistics.reused, second.statistics.parsed) == (True, 0)
    assert snapshot(second) == snapshot(first)
    assert second.callers("pkg.a.f").value == {"pkg.b.h"}


def test_certainty_counts_made_by_the_build_match_the_stored_rows(
    temporary_repo: TemporaryRepo, tmp_path: Path
) -> None:
    files = {
        **FILES,
        "pkg/d.py": "class A:\n    def m(self):\n        pass\n\n\nclass B(A):\n    def m(self):\n"
        "        pass\n\n\ndef use(x: A, y):\n    x.m()\n    y.anything()\n",
    }
    root, cache = temporary_repo(files), tmp_path / "cache"
    built = build_index(root, cache=cache)
    from_edges = dict.fromkeys(Certainty, 0)
    for edge in built.edges():
        from_edges[edge.certainty] += 1
    reloaded = build_index(root, cache=cache)
    assert reloaded.statistics.reused
    assert built.certainty_counts() == reloaded.certainty_counts() == from_edges
    assert all(from_edges.values())  # certain, possible and unresolved edges all counted


def test_modified_file_is_the_only_one_parsed(temporary_repo: TemporaryRepo, tmp_path: Path) -> None:
    root, cache = temporary_repo(FILES), tmp_path / "cache"
    build_index(root, cache=cache)
    (root / "pkg" / "b.py").write_text("from pkg.a import g\n\n\ndef h():\n    g()\n", encoding="utf-8")
    changed = build_index(root, cache=cache)
    assert (changed.statistics.reused, changed.statistics.parsed) == (False, 1)
    assert changed.callers("pkg.a.g").value == {"pkg.a.f", "pkg.b.h"}
    assert changed.callers("pkg.a.f").value == frozenset()
    assert snapshot(changed) == snapshot(build_index(root, cache=False))


def test_added_and_removed_files(temporary_repo: TemporaryRepo, tmp_path: Path) -> None:
    root, cache = temporary_repo(FILES), tmp_path / "cache"
    build_index(root, cache=cache)
    (root / "pkg" / "c.py").unlink()
    (root / "pkg" / "d.py").write_text("from pkg.b import h\n\n\ndef top():\n    h()\n", encoding="utf-8")
    changed = build_index(root, cache=cache)
    assert (changed.statistics.reused, changed.statistics.parsed) == (False, 1)
    assert "pkg.c" not in changed.definitions
    assert changed.callers("pkg.b.h").value == {"pkg.d.top"}


def test_fixed_syntax_error_is_picked_up(temporary_repo: TemporaryRepo, tmp_path: Path) -> None:
    root, cache = temporary_repo(FILES), tmp_path / "cache"
    assert [d.path for d in build_index(root, cache=cache).diagnostics] == ["bad.py"]
    (root / "bad.py").write_text("def fixed():\n    pass\n", encoding="utf-8")
    fixed = build_index(root, cache=cache)
    assert fixed.diagnostics == ()
    assert "bad.fixed" in fixed.definitions


def test_same_content_at_another_path_reuses_summaries(temporary_repo: TemporaryRepo, tmp_path: Path) -> None:
    root, cache = temporary_repo(FILES), tmp_path / "cache"
    first = build_index(root, cache=cache)
    copy = shutil.copytree(root, tmp_path / "elsewhere" / root.name)
    moved = build_index(copy, cache=cache)
    assert (moved.statistics.reused, moved.statistics.parsed) == (False, 0)
    assert snapshot(moved) == snapshot(first)


def test_same_content_under_another_module_name_is_parsed_again(
    temporary_repo: TemporaryRepo, tmp_path: Path
) -> None:
    root, cache = temporary_repo(FILES), tmp_path / "cache"
    build_index(root, cache=cache)
    (root / "pkg" / "a.py").rename(root / "pkg" / "renamed.py")
    moved = build_index(root, cache=cache)
    assert moved.statistics.parsed == 1
    assert {"pkg.renamed.f", "pkg.renamed.g"} <= moved.definitions.keys()
    assert "pkg.a.f" not in moved.definitions


def overwrite_stored_summaries(cache: Path, content: bytes) -> None:
    """Replace every stored summary of the cache directory ``cache`` with ``content``."""
    with contextlib.closing(sqlite3.connect(summaries_database(cache))) as connection, connection:
        connection.execute("UPDATE summary SET data = ?", (content,))


def test_a_cold_build_writes_two_files_whatever_the_number_of_sources(
    temporary_repo: TemporaryRepo, tmp_path: Path
) -> None:
    root, cache = temporary_repo(_chain_of_modules(90)), tmp_path / "cache"
    build_index(root, cache=cache, workers=2)
    written = [p.relative_to(cache / f"v{builder.ANALYZER_VERSION}").as_posix() for p in files_under(cache)]
    assert sorted(written) == sorted(["summaries.sqlite", f"repos/{IndexCache(cache, root).root_key}.pkl"])
    assert stored_summaries(cache) == 91


def test_corrupt_cache_is_ignored_and_rebuilt(temporary_repo: TemporaryRepo, tmp_path: Path) -> None:
    root, cache = temporary_repo(FILES), tmp_path / "cache"
    first = build_index(root, cache=cache)
    pickles = list(cache.rglob("*.pkl"))
    assert len(pickles) == 1  # the whole index
    assert stored_summaries(cache) == 5
    for path in pickles:
        path.write_bytes(b"\x80\x05garbage, not a pickle")
    overwrite_stored_summaries(cache, b"\x80\x05garbage, not a pickle")
    rebuilt = build_index(root, cache=cache)
    assert (rebuilt.statistics.reused, rebuilt.statistics.parsed) == (False, 5)
    assert snapshot(rebuilt) == snapshot(first)
    again = build_index(root, cache=cache)
    assert again.statistics.reused


@pytest.mark.parametrize("content", [b"", b"\x80\x05N.", b"\x80\x05K\x01."], ids=["empty", "None", "an int"])
def test_cache_entries_of_the_wrong_shape_are_ignored(
    temporary_repo: TemporaryRepo, tmp_path: Path, content: bytes
) -> None:
    root, cache = temporary_repo(FILES), tmp_path / "cache"
    first = build_index(root, cache=cache)
    for path in cache.rglob("*.pkl"):
        path.write_bytes(content)
    overwrite_stored_summaries(cache, content)
    rebuilt = build_index(root, cache=cache)
    assert rebuilt.statistics.parsed == 5
    assert snapshot(rebuilt) == snapshot(first)


@pytest.mark.parametrize(
    "content",
    [b"not a database at all, " * 200, b"SQLite format 3\x00" + b"\xff" * 4000],
    ids=["text", "damaged"],
)
def test_a_summaries_file_that_is_no_database_is_replaced(
    temporary_repo: TemporaryRepo, tmp_path: Path, content: bytes
) -> None:
    root, cache = temporary_repo(FILES), tmp_path / "cache"
    first = build_index(root, cache=cache, save_index=False)
    summaries_database(cache).write_bytes(content)
    rebuilt = build_index(root, cache=cache, save_index=False)
    assert rebuilt.statistics.parsed == 5
    assert snapshot(rebuilt) == snapshot(first)
    assert stored_summaries(cache) == 5
    assert build_index(root, cache=cache, save_index=False).statistics.parsed == 0


def test_a_build_beside_a_long_write_reads_the_summaries_and_loses_only_its_entries(
    temporary_repo: TemporaryRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache_module, "BUSY_TIMEOUT", 0.05)
    root, cache = temporary_repo(FILES), tmp_path / "cache"
    build_index(root, cache=cache, save_index=False)
    with contextlib.closing(sqlite3.connect(summaries_database(cache), isolation_level=None)) as other:
        other.execute("BEGIN EXCLUSIVE")  # another process writing, past the timeout
        (root / "pkg" / "d.py").write_text("def d():\n    pass\n", encoding="utf-8")
        beside = build_index(root, cache=cache, save_index=False)
        other.execute("ROLLBACK")
    assert beside.statistics.parsed == 1  # readers never wait for a writer
    assert "pkg.d.d" in beside.definitions
    assert summaries_database(cache).is_file()  # not taken for a damaged one
    assert stored_summaries(cache) == 5  # the new file's entry could not be written
    after = build_index(root, cache=cache, save_index=False)
    assert after.statistics.parsed == 1
    assert snapshot(after) == snapshot(beside)
    assert stored_summaries(cache) == 6


def test_cache_false_writes_nothing(
    temporary_repo: TemporaryRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DURE_CACHE", str(tmp_path / "default-cache"))
    root = temporary_repo(FILES)
    before = files_under(root)
    first = build_index(root, cache=False)
    second = build_index(root, cache=False)
    assert files_under(tmp_path / "default-cache") == []
    assert files_under(root) == before
    assert (second.statistics.reused, second.statistics.parsed) == (False, 5)
    assert snapshot(second) == snapshot(first)


def test_without_saving_the_index_only_the_file_summaries_are_kept(
    temporary_repo: TemporaryRepo, tmp_path: Path
) -> None:
    root, cache = temporary_repo(FILES), tmp_path / "cache"
    first = build_index(root, cache=cache, save_index=False)
    assert not list(cache.glob("v*/repos/*.pkl"))
    assert stored_summaries(cache) == 5
    second = build_index(root, cache=cache, save_index=False)
    assert (second.statistics.reused, second.statistics.parsed) == (False, 0)  # every file from its summary
    assert snapshot(second) == snapshot(first)


def test_entries_written_by_a_background_writer_are_complete_when_the_build_returns(
    temporary_repo: TemporaryRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forks: list[int]
) -> None:
    monkeypatch.setattr(builder, "BACKGROUND_WRITES", 1)  # every build with an entry to write forks one
    monkeypatch.setattr(background, "may_fork", lambda: True)  # whatever threads earlier tests left running
    root, cache = temporary_repo(FILES), tmp_path / "cache"
    first = build_index(root, cache=cache, save_index=False)
    assert len(forks) == 1
    assert stored_summaries(cache) == 5  # the syntax error's diagnostic is kept too
    second = build_index(root, cache=cache, save_index=False)
    assert (second.statistics.parsed, len(forks)) == (0, 1)  # nothing left to write: no writer
    assert snapshot(second) == snapshot(first)


def test_no_background_writer_while_another_thread_runs() -> None:
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert not background.may_fork()
    finally:
        release.set()
        other.join()


@pytest.mark.parametrize("cache", [None, True], ids=["None", "True"])
def test_default_cache_lives_under_dure_cache(
    temporary_repo: TemporaryRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cache: bool | None
) -> None:
    monkeypatch.setenv("DURE_CACHE", str(tmp_path / "default-cache"))
    root = temporary_repo(FILES)
    build_index(root, cache=cache)
    written = files_under(tmp_path / "default-cache")
    assert written
    assert all(p.relative_to(tmp_path / "default-cache").parts[0] == "index" for p in written)
    assert build_index(root, cache=cache).statistics.reused


def test_parallel_build_equals_serial(temporary_repo: TemporaryRepo) -> None:
    files = {
        f"pkg/m{i:03}.py": f"from pkg.m{(i + 1) % 130:03} import f{(i + 1) % 130}\n\n\n"
        f"def f{i}():\n    return f{(i + 1) % 130}()\n"
        for i in range(130)
    }
    root = temporary_repo({"pkg/__init__.py": "", **files})
    seen: list[tuple[int, int]] = []
    parallel = build_index(
        root, cache=False, workers=2, progress=lambda done, total: seen.append((done, total))
    )
    serial = build_index(root, cache=False, workers=1)
    assert snapshot(parallel) == snapshot(serial)
    assert parallel.callers("pkg.m000.f0").value == {"pkg.m129.f129"}
    assert seen[-1] == (131, 131)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)


def _chain_of_modules(count: int) -> dict[str, str]:
    return {
        "pkg/__init__.py": "",
        **{
            f"pkg/m{i:03}.py": f"from pkg.m{(i + 1) % count:03} import f{(i + 1) % count}\n\n\n"
            f"def f{i}():\n    return f{(i + 1) % count}()\n" + "# padding\n" * (i % 7) * 40
            for i in range(count)
        },
    }


def test_parallel_build_fills_the_cache_and_leaves_no_scratch_files(
    temporary_repo: TemporaryRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "scratch"))
    (tmp_path / "scratch").mkdir()
    root, cache = temporary_repo(_chain_of_modules(90)), tmp_path / "cache"
    parallel = build_index(root, cache=cache, workers=2, save_index=False)
    assert stored_summaries(cache) == 91  # helpers' and ours
    assert files_under(tmp_path / "scratch") == []
    assert list((tmp_path / "scratch").iterdir()) == []
    assert snapshot(parallel) == snapshot(build_index(root, cache=False, workers=1))
    assert build_index(root, cache=cache, workers=2).statistics.parsed == 0


def test_a_failing_helper_fails_the_build_and_leaves_no_scratch_files(
    temporary_repo: TemporaryRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "scratch"))
    (tmp_path / "scratch").mkdir()
    real, building = builder.summarise_file, os.getpid()

    def breaks_in_a_helper(source: SourceFile, data: bytes) -> FileResult:
        if os.getpid() != building:
            raise RuntimeError("analyzer bug")
        return real(source, data)

    monkeypatch.setattr(builder, "summarise_file", breaks_in_a_helper)  # forked helpers inherit it
    root = temporary_repo(_chain_of_modules(90))
    with pytest.raises(RuntimeError, match="analyzer bug"):
        build_index(root, cache=False, workers=2)
    assert list((tmp_path / "scratch").iterdir()) == []


def test_without_a_temporary_directory_the_build_runs_in_one_process(
    temporary_repo: TemporaryRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unwritable(*args: object, **kwargs: object) -> None:
        raise PermissionError("read-only file system")

    root = temporary_repo(_chain_of_modules(60))
    serial = build_index(root, cache=False, workers=1)
    monkeypatch.setattr(tempfile, "TemporaryDirectory", unwritable)
    monkeypatch.setattr(builder, "_summarise_shared", lambda *args: pytest.fail("helpers started"))
    assert snapshot(build_index(root, cache=False, workers=2)) == snapshot(serial)


def test_helpers_that_cannot_write_scratch_files_send_their_results(
    temporary_repo: TemporaryRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = builder._receive_chunks
    monkeypatch.setattr(builder, "_receive_chunks", lambda chunks, _: real(chunks, tmp_path / "gone"))
    root = temporary_repo(_chain_of_modules(60))
    parallel = build_index(root, cache=False, workers=2)
    assert snapshot(parallel) == snapshot(build_index(root, cache=False, workers=1))
    assert parallel.statistics.parsed == 61


def test_chunks_hold_every_job_once_largest_first_at_about_equal_cost() -> None:
    sizes = [50_000, 20_000, *([3_000] * 40), *([10] * 300)]
    jobs = [
        (SourceFile(Path(f"m{i}.py"), f"m{i}.py", f"m{i}", False, False), b"x" * size, None)
        for i, size in enumerate(sizes)
    ]
    chunks = builder._chunks(jobs, 2)
    flat = [job for chunk in chunks for job in chunk]
    assert sorted(map(id, flat)) == sorted(map(id, jobs))
    assert [len(job[1]) for job in flat] == sorted(sizes, reverse=True)
    costs = [sum(len(job[1]) + builder.FILE_COST for job in chunk) for chunk in chunks]
    budget = sum(costs) / (2 * builder.CHUNKS_PER_PROCESS)
    assert [len(chunk) for chunk in chunks[:2]] == [1, 1]  # a large file is a chunk of its own
    assert all(cost < budget + 3_000 + builder.FILE_COST for cost in costs[2:])
    assert len(chunks) <= 2 * builder.CHUNKS_PER_PROCESS + 1


def test_summaries_kept_in_memory_serve_every_later_build(
    temporary_repo: TemporaryRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, cache = temporary_repo(FILES), tmp_path / "cache"
    build_index(root, cache=cache, save_index=False)
    loaded: dict[tuple[str, str, str, bool], object] = {}
    first = build_index(root, cache=cache, save_index=False, loaded=loaded)  # type: ignore[arg-type]
    assert len(loaded) == 5  # every file (one that does not parse has its diagnostic)
    asked: list[str] = []
    real = IndexCache.load_summaries

    def recorded(self: IndexCache, keys: Iterable[str]) -> dict[str, FileResult]:
        asked.extend(keys)
        return real(self, asked)

    monkeypatch.setattr(IndexCache, "load_summaries", recorded)
    changed_text = b"from pkg.a import g\n\n\ndef h():\n    g()\n"
    (root / "pkg" / "b.py").write_bytes(changed_text)
    changed = build_index(root, cache=cache, save_index=False, loaded=loaded)  # type: ignore[arg-type]
    assert len(asked) == 1  # only the changed file, then parsed
    assert asked[0].startswith(hashlib.sha256(changed_text).hexdigest())
    assert changed.statistics.parsed == 1
    assert changed.callers("pkg.a.g").value == {"pkg.a.f", "pkg.b.h"}
    assert snapshot(changed) == snapshot(build_index(root, cache=False))
    (root / "pkg" / "b.py").write_text(FILES["pkg/b.py"], encoding="utf-8")
    again = build_index(root, cache=cache, save_index=False, loaded=loaded)  # type: ignore[arg-type]
    assert snapshot(again) == snapshot(first) == snapshot(build_index(root, cache=False))


def _run_queue(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    """Make the builder read ``text`` as the kernel's ``/proc/loadavg``."""
    fake = tmp_path / "loadavg"
    fake.write_text(text)
    monkeypatch.setattr(builder, "RUN_QUEUE", fake)
    monkeypatch.setattr(builder, "_usable_cores", lambda: 2)


@pytest.mark.parametrize(
    ("loadavg", "idle"),
    [
        ("0.10 0.20 0.30 1/96 123\n", 2),  # only this process runs
        ("1.95 1.50 1.20 1/96 123\n", 2),  # a job that has just ended still weighs on the average
        ("1.00 1.00 1.00 2/96 123\n", 1),  # one other process runs
        ("2.00 2.00 2.00 5/96 123\n", 1),  # more than the cores: never fewer than one
    ],
)
def test_idle_cores_follow_the_run_queue_not_the_average(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, loadavg: str, idle: int
) -> None:
    _run_queue(tmp_path, monkeypatch, loadavg)
    assert builder._idle_cores() == idle


def test_idle_cores_fall_back_to_the_load_average(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(builder, "RUN_QUEUE", tmp_path / "missing")
    monkeypatch.setattr(builder, "_usable_cores", lambda: 2)
    monkeypatch.setattr(builder.os, "getloadavg", lambda: (1.2, 1.0, 1.0))
    assert builder._idle_cores() == 1
    monkeypatch.setattr(builder.os, "getloadavg", lambda: (0.1, 0.1, 0.1))
    assert builder._idle_cores() == 2


def test_work_meanwhile_sees_the_index_and_the_cache_is_complete_on_return(
    temporary_repo: TemporaryRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forks: list[int]
) -> None:
    monkeypatch.setattr(builder, "BACKGROUND_WRITES", 1)  # a writer process for every build with entries
    monkeypatch.setattr(background, "may_fork", lambda: True)  # whatever threads earlier tests left running
    root, cache = temporary_repo(FILES), tmp_path / "cache"
    seen: list[RepoIndex] = []
    built = build_index(root, cache=cache, workers=1, meanwhile=seen.append)
    assert seen == [built]
    assert len(forks) == 1  # the entry writer, waited for after the work
    assert stored_summaries(cache) == 5
    again: list[RepoIndex] = []
    reused = build_index(root, cache=cache, workers=1, meanwhile=again.append)
    assert reused.statistics.reused
    assert again == [reused]
    assert snapshot(reused) == snapshot(built)


def test_a_failure_meanwhile_is_raised_once_the_cache_is_written(
    temporary_repo: TemporaryRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(builder, "BACKGROUND_WRITES", 1)
    monkeypatch.setattr(background, "may_fork", lambda: True)
    root, cache = temporary_repo(FILES), tmp_path / "cache"

    def fails(index: RepoIndex) -> None:
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        build_index(root, cache=cache, workers=1, meanwhile=fails)
    assert stored_summaries(cache) == 5
    assert build_index(root, cache=cache, workers=1).statistics.reused

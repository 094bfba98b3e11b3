"""Building an index: discover files, parse and summarise them (cached per content hash), resolve."""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
import time
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from dure.analyzers import cyclic_gc
from dure.analyzers.background import Background
from dure.analyzers.cache import IndexCache, summary_key
from dure.analyzers.collector import collect
from dure.analyzers.halves import splits
from dure.analyzers.index import RepoIndex, Statistics
from dure.analyzers.model import Diagnostic
from dure.analyzers.resolution import resolve
from dure.analyzers.source import Discovery, SourceFile, count_lines, discover, read_source
from dure.analyzers.summary import FileResult, ModuleSummary
from dure.errors import AnalysisError

if TYPE_CHECKING:
    from concurrent.futures import Future
    from multiprocessing.context import BaseContext


def _analyzer_version() -> str:
    """A digest of the analyzers' own source: a cache written by other code is never trusted."""
    hasher = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        hasher.update(path.read_bytes())
    return hasher.hexdigest()[:16]


ANALYZER_VERSION = _analyzer_version()
#: Below this many files to parse, a helper process costs more than it saves.
PARALLEL_THRESHOLD = 32
#: Chunks per process. The chunks a helper has started when this process runs out of work are all that
#: keeps the processes from finishing together, so a chunk is a small share of the work.
CHUNKS_PER_PROCESS = 48
#: What summarising a file costs beyond its bytes, in bytes (opening it, setting up the collector).
FILE_COST = 1024
STRICT_ENV = "DURE_STRICT"  # tests set it: unknown syntax raises instead of becoming a diagnostic

Progress = Callable[[int, int], None]
#: Summaries by file content digest and identity (path, module, test or not), kept across builds.
LoadedSummaries = MutableMapping[tuple[str, str, str, bool], FileResult]
Job = tuple[SourceFile, bytes, str | None]  # a file to summarise, its content, its cache key (None: no cache)


def summarise_file(source: SourceFile, data: bytes) -> FileResult:
    """Parse and summarise one file; every failure becomes a diagnostic."""
    parsed = read_source(source.path, source.relpath, data)
    if isinstance(parsed, Diagnostic):
        return FileResult(source.relpath, None, parsed, 0)
    lines = count_lines(parsed.text)
    try:
        summary = collect(source, parsed.tree, parsed.text)
    except RecursionError:
        return FileResult(
            source.relpath, None, Diagnostic(source.relpath, 0, "nested too deeply to analyse"), 0
        )
    except NotImplementedError as problem:
        if os.environ.get(STRICT_ENV):
            raise
        return FileResult(source.relpath, None, Diagnostic(source.relpath, 0, str(problem)), 0)
    except Exception as problem:  # a defect of the collector on this file: the rest is indexed all the same
        if os.environ.get(STRICT_ENV):
            raise
        reason = f"internal error, file skipped: {type(problem).__name__}: {problem}"
        return FileResult(source.relpath, None, Diagnostic(source.relpath, 0, reason), 0)
    return FileResult(source.relpath, summary, None, lines)


def _pickled_summary(job: Job) -> bytes:
    """Summarise one file in a helper and pickle the result once: the same bytes cross the process pool
    and fill its cache entry."""
    source, data, _ = job
    return pickle.dumps(summarise_file(source, data), protocol=pickle.HIGHEST_PROTOCOL)


#: In a helper process: the chunks of the build that started it, and where their results go.
_helper_chunks: list[list[Job]] = []
_helper_scratch = Path()


def _receive_chunks(chunks: list[list[Job]], scratch: Path) -> None:
    """A helper's initializer. Forked helpers inherit the chunks, file contents included, instead of
    receiving them through a pipe."""
    global _helper_chunks, _helper_scratch
    _helper_chunks, _helper_scratch = chunks, scratch


def _summarise_chunk(index: int) -> str | list[bytes]:
    """Summarise one chunk in a helper; the pickled results go to a scratch file, whose name is all that
    crosses the pipe. A large result sent through the pipe stalls the helper until the building process
    reads it, and that process's reading thread waits for the interpreter lock held by its summarising
    (measured on Django: the helper idled a third of the time). When the file cannot be written, the
    results themselves cross the pipe."""
    blobs = [_pickled_summary(job) for job in _helper_chunks[index]]
    path = _helper_scratch / f"{index}.pkl"
    try:
        path.write_bytes(pickle.dumps(blobs, protocol=pickle.HIGHEST_PROTOCOL))
    except OSError:
        path.unlink(missing_ok=True)
        return blobs
    return str(path)


#: Summaries made by this build and their cache keys: made here (still to pickle) or pickled by a helper.
Unwritten = list[tuple[str, FileResult | bytes]]
#: Below this many cache entries to write, a writer process costs more than it saves.
BACKGROUND_WRITES = 64


class _EntryWriter:
    """Writes the cache entries of the summaries this build made (pickling those made here takes 0.36 s
    on Django) on another core than the one resolving: the helper that resolves half of the call sites once
    its half is sent (see :class:`~dure.analyzers.halves.Afterwards`), else a child forked now, when there
    are many. ``wait`` returns once every entry is written, so a build leaves its cache complete."""

    def __init__(self, store: IndexCache | None, entries: Unwritten, *, helper_resolves: bool) -> None:
        self.store = store
        self.entries = entries if store is not None else []
        self.deferred = helper_resolves and bool(self.entries)  # until a helper takes it, or wait writes them
        self.pending = (
            Background(self.run)
            if self.deferred
            else Background.start(self.run, fork=len(self.entries) >= BACKGROUND_WRITES)
        )

    def run(self) -> None:
        """Here, in a writer, or in the resolution helper."""
        _write_entries(self.store, self.entries)

    def handed_to(self, pid: int) -> None:
        """The resolution helper ``pid`` writes the entries; :meth:`wait` waits for it."""
        self.pending = Background(self.run, pid)

    def wait(self) -> None:
        self.pending.wait()
        self.deferred = False


def _write_entries(store: IndexCache | None, entries: Unwritten) -> None:
    """One transaction for every entry (the cache is an optimisation: a failed write is rebuilt)."""
    if store is None or not entries:
        return
    store.save_summaries(
        (key, made if isinstance(made, bytes) else pickle.dumps(made, protocol=pickle.HIGHEST_PROTOCOL))
        for key, made in entries
    )


def build_index(
    root: Path | str,
    *,
    cache: Path | bool | None = None,
    workers: int | None = None,
    progress: Progress | None = None,
    jedi: bool = False,
    save_index: bool = True,
    loaded: LoadedSummaries | None = None,
    meanwhile: Callable[[RepoIndex], None] | None = None,
    retain: list[object] | None = None,
) -> RepoIndex:
    """Index the Python repository at ``root``.

    ``cache``: a directory, ``True``/``None`` for the default cache (``$DURE_CACHE/index``), ``False`` for
    none. ``workers``: processes for parsing and resolving (default: the idle cores, used only for large runs;
    the index is the same whatever the number).
    ``jedi``: let jedi propose possible targets for call sites that stay unresolved (slow; see
    :mod:`dure.analyzers.inference`). ``save_index``: keep the whole index in the cache too (a tree that
    is never indexed twice as it is, such as a patched scratch copy, only needs its files' summaries).
    ``loaded``: the summaries earlier builds read from the cache, kept in memory by a caller that indexes
    many versions of one tree (a patched scratch copy per task), which this build uses and adds to.
    ``meanwhile``: work on the built index (writing it out) done while another process may still be writing
    the files' cache entries; the build returns once both are done.
    ``retain``: a list that keeps the build's working state (the file summaries, the resolver's memo), for
    a caller about to exit without freeing it: freeing it takes 0.13 s on Django.
    """
    options = BuildOptions(cache, workers, progress, jedi, save_index, loaded, retain)
    started = time.perf_counter()
    # Indexing allocates millions of long-lived objects and no cycles worth collecting: the cyclic
    # collector would rescan them over and over (measured: 2x slower parsing, 1.7x slower resolution).
    with cyclic_gc.paused():
        index, writes = _build(Path(root), options, started)
    try:
        if meanwhile is not None:
            meanwhile(index)
    finally:
        for wait in writes:
            wait()
    return index


@dataclass(frozen=True, slots=True)
class BuildOptions:
    cache: Path | bool | None = None
    workers: int | None = None
    progress: Progress | None = None
    jedi: bool = False
    save_index: bool = True
    loaded: LoadedSummaries | None = None
    retain: list[object] | None = None


def _build(
    root: Path, options: BuildOptions, started: float
) -> tuple[RepoIndex, tuple[Callable[[], None], ...]]:
    """The index, and what waits for the cache writes under way in other processes."""
    if not root.is_dir():
        raise AnalysisError(f"{root}: not a directory")
    store = IndexCache.open(root, options.cache, ANALYZER_VERSION)
    found = discover(root)
    contents, diagnostics = _read_all(found)
    digests = {relpath: hashlib.sha256(data).hexdigest() for relpath, (_, data) in contents.items()}
    fingerprint = _fingerprint(found, digests, jedi=options.jedi)
    if store is not None:
        cached = store.load_index(fingerprint)
        if cached is not None:
            return cached.with_timing(time.perf_counter() - started, reused=True), ()
    results = _stored_summaries(store, options.loaded, contents, digests)
    missing: list[Job] = [
        (source, data, summary_key(digests[relpath], source) if store is not None else None)
        for relpath, (source, data) in contents.items()
        if relpath not in results
    ]
    unwritten: Unwritten = []
    workers = options.workers if options.workers is not None else _idle_cores()  # busy cores stay so
    for result in _summarise(missing, workers, options.progress, unwritten):
        results[result.relpath] = result
    summaries, lines = _modules(found, results, diagnostics)
    if options.retain is not None:
        options.retain.extend([contents, results, unwritten])
    helper = workers > 1 and splits(summaries)
    writer = _EntryWriter(store, unwritten, helper_resolves=helper)
    try:
        facts = resolve(
            summaries,
            jedi_root=root if options.jedi else None,
            helper=helper,
            afterwards=writer if writer.deferred else None,
            retain=options.retain,
        )
        statistics = Statistics(
            len(found.files), len(summaries), lines, len(missing), time.perf_counter() - started, False
        )
        index = RepoIndex.from_facts(root, facts, tuple(diagnostics), statistics)
        saved = _save_index(store if options.save_index else None, fingerprint, index, fork=helper)
    except BaseException:
        writer.wait()
        raise
    return index, (writer.wait, saved.wait)


def _save_index(store: IndexCache | None, fingerprint: str, index: RepoIndex, *, fork: bool) -> Background:
    """Keep the whole index in the cache; in a forked child when ``fork``, so that this process goes on to
    use the index meanwhile (pickling Django's takes 0.1 s)."""
    if store is None:
        return Background.start(lambda: None, fork=False)
    return Background.start(lambda: store.save_index(fingerprint, index), fork=fork)


def _stored_summaries(
    store: IndexCache | None,
    loaded: LoadedSummaries | None,
    contents: dict[str, tuple[SourceFile, bytes]],
    digests: dict[str, str],
) -> dict[str, FileResult]:
    """The files' summaries found in memory, else in the cache (then remembered), by path. The resolution
    pass only reads summaries, so one in memory serves any number of builds."""
    found: dict[str, FileResult] = {}
    wanted: dict[str, tuple[str, SourceFile]] = {}  # cache key -> path, file
    for relpath, (source, _) in contents.items():
        memory_key = (digests[relpath], source.relpath, source.module, source.is_test)
        if loaded is not None and memory_key in loaded:
            found[relpath] = loaded[memory_key]
        elif store is not None:
            wanted[summary_key(digests[relpath], source)] = (relpath, source)
    if store is None or not wanted:
        return found
    for key, hit in store.load_summaries(wanted).items():
        relpath, source = wanted[key]
        found[relpath] = hit
        if loaded is not None:
            loaded[(digests[relpath], source.relpath, source.module, source.is_test)] = hit
    return found


def _read_all(found: Discovery) -> tuple[dict[str, tuple[SourceFile, bytes]], list[Diagnostic]]:
    contents: dict[str, tuple[SourceFile, bytes]] = {}
    diagnostics = list(found.diagnostics)
    for source in found.files:
        try:
            contents[source.relpath] = (source, source.path.read_bytes())
        except OSError as problem:
            diagnostics.append(Diagnostic(source.relpath, 0, f"cannot read: {problem.strerror or problem}"))
    return contents, diagnostics


def _fingerprint(found: Discovery, digests: dict[str, str], *, jedi: bool) -> str:
    hasher = hashlib.sha256(f"{ANALYZER_VERSION}\0jedi={jedi}".encode())
    for source in found.files:
        hasher.update(
            f"{source.relpath}\0{source.module}\0{source.is_test}\0{digests.get(source.relpath)}\n".encode()
        )
    return hasher.hexdigest()


def _summarise(
    missing: list[Job], workers: int, progress: Progress | None, unwritten: Unwritten
) -> list[FileResult]:
    """Summaries of the missing files; with their cache keys, each goes to ``unwritten`` too (pickled
    already when a helper made it)."""
    if len(missing) >= PARALLEL_THRESHOLD and workers > 1:
        try:
            scratch = tempfile.TemporaryDirectory(prefix="dure-summaries-", ignore_cleanup_errors=True)
        except OSError:  # no writable temporary directory: no helpers either
            pass
        else:
            with scratch:
                return _summarise_shared(missing, workers, progress, unwritten, Path(scratch.name))
    return _summarise_here(missing, progress, len(missing), unwritten)


def _idle_cores() -> int:
    """The cores this process may use that no other process keeps busy, at least one: a helper on a busy
    core saves no time and costs CPU time to start and to hand results back (measured on rich with both
    cores busy: +0.13 s CPU, no faster).

    Busy means runnable now (Linux), else the load average: the average still counts, for minutes, a job
    that has just finished."""
    cores = _usable_cores()
    busy = _runnable_others()
    if busy is None:
        try:
            busy = round(os.getloadavg()[0])
        except (AttributeError, OSError):  # not on Windows; unreadable
            busy = 0
    return max(1, min(cores, cores - busy))


def _usable_cores() -> int:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


RUN_QUEUE = Path("/proc/loadavg")
RUN_QUEUE_SAMPLES = 3


def _runnable_others() -> int | None:
    """How many other threads are running or ready to run, by the kernel's run queue count in
    ``/proc/loadavg`` (it counts this process too); the least of a few samples, so that a process that
    merely passes through is not taken for load. None where there is no such file."""
    counts = []
    for _ in range(RUN_QUEUE_SAMPLES):
        try:
            fields = RUN_QUEUE.read_text().split()
            counts.append(int(fields[3].partition("/")[0]) - 1)
        except (OSError, IndexError, ValueError):
            return None
    return max(0, min(counts))


def _summarise_here(
    jobs: list[Job], progress: Progress | None, total: int, unwritten: Unwritten, done: int = 0
) -> list[FileResult]:
    """Summarise in this process; the cache entries are left to write."""
    results = []
    for source, data, key in jobs:
        result = summarise_file(source, data)
        results.append(result)
        if key is not None:
            unwritten.append((key, result))
        done += 1
        if progress is not None:
            progress(done, total)
    return results


def _summarise_shared(
    missing: list[Job], workers: int, progress: Progress | None, unwritten: Unwritten, scratch: Path
) -> list[FileResult]:
    """Summarise with ``workers - 1`` helper processes and this one; ``scratch`` is an empty directory
    for the helpers' results.

    The helpers take chunks from the front of the queue, largest files first; this process takes them from
    the back, cancelling each chunk's future before it starts, until the two meet. Between its own chunks
    it unpickles what the helpers have finished, so that little is left to unpickle once they are done.
    Only chunk numbers and file names cross the pipes (see :func:`_summarise_chunk`), and no process idles
    while another has work.
    """
    from concurrent.futures import ProcessPoolExecutor  # noqa: PLC0415 - 20 ms a small repository skips

    chunks = _chunks(missing, workers)
    results: list[FileResult] = []
    total = len(missing)

    def absorb(index: int, future: Future[str | list[bytes]]) -> None:
        blobs = future.result()
        if isinstance(blobs, str):
            scratch_file = Path(blobs)
            blobs = pickle.loads(scratch_file.read_bytes())
            scratch_file.unlink()
        results.extend(pickle.loads(blob) for blob in blobs)
        unwritten.extend(
            (key, blob) for (_, _, key), blob in zip(chunks[index], blobs, strict=True) if key is not None
        )
        if progress is not None:
            progress(len(results), total)

    pool = ProcessPoolExecutor(
        max_workers=workers - 1,
        mp_context=_fork_context(),
        initializer=_receive_chunks,
        initargs=(chunks, scratch),
    )
    try:
        futures = [pool.submit(_summarise_chunk, index) for index in range(len(chunks))]
        helped = 0  # futures[:helped] are absorbed
        for back in range(len(chunks) - 1, -1, -1):
            while helped < back and futures[helped].done():
                absorb(helped, futures[helped])
                helped += 1
            if not futures[back].cancel():
                break
            results.extend(_summarise_here(chunks[back], progress, total, unwritten, len(results)))
        for index in range(helped, len(futures)):
            if not futures[index].cancelled():
                absorb(index, futures[index])
    finally:  # after a failure here, the helpers do not finish the queue first
        pool.shutdown(cancel_futures=True)
    return results


def _chunks(missing: list[Job], workers: int) -> list[list[Job]]:
    """The jobs, largest files first, cut into chunks of about equal cost."""
    ordered = sorted(missing, key=lambda job: len(job[1]), reverse=True)
    costs = [len(data) + FILE_COST for _, data, _ in ordered]
    budget = sum(costs) / (workers * CHUNKS_PER_PROCESS)
    chunks: list[list[Job]] = []
    chunk: list[Job] = []
    spent = 0
    for job, cost in zip(ordered, costs, strict=True):
        chunk.append(job)
        spent += cost
        if spent >= budget:
            chunks.append(chunk)
            chunk, spent = [], 0
    if chunk:
        chunks.append(chunk)
    return chunks


def _fork_context() -> BaseContext | None:
    """Forked helpers start at once, with everything imported; elsewhere the platform's default."""
    if sys.platform == "linux":
        import multiprocessing  # noqa: PLC0415 - see _summarise_shared

        return multiprocessing.get_context("fork")
    return None


def _modules(
    found: Discovery, results: dict[str, FileResult], diagnostics: list[Diagnostic]
) -> tuple[dict[str, ModuleSummary], int]:
    """The summaries by module, and their lines; failed files and duplicate modules become diagnostics."""
    summaries: dict[str, ModuleSummary] = {}
    lines = 0
    # A package shadows a module of the same name (``pkg/a/__init__.py`` over ``pkg/a.py``), as in Python.
    for source in sorted(found.files, key=lambda f: (not f.is_package, f.relpath)):
        result = results.get(source.relpath)
        if result is None:
            continue
        if result.diagnostic is not None:
            diagnostics.append(result.diagnostic)
            continue
        assert result.summary is not None
        if result.summary.module in summaries:
            diagnostics.append(
                Diagnostic(source.relpath, 0, f"module {result.summary.module} defined twice; skipped")
            )
            continue
        summaries[result.summary.module] = result.summary
        lines += result.lines
    return summaries, lines

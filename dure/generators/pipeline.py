"""``dure generate``: repositories in, audited task shards out.

For each repository: index it (cached), hand a :class:`Source` to the generator of each requested kind, and
take its candidates in order until ``per_repo`` tasks of that kind are accepted. A candidate is accepted
when its prompt does not contain its answer, its id is new, the calls the repository's tests make agree
with it (when they can run) and it passes the self-audit (:func:`dure.verifiers.audit.audit_task`). A
generator whose tasks' audits share checker runs gets its candidates audited a batch at a time (as many as
are still wanted), with the same outcome as one at a time.

Output (``out/``): ``tasks/<repo>.jsonl``, one shard per repository, and ``reports/<repo>.json``, the counts
behind the summary (tasks by kind and phase, drops by reason, trace checks). Both are written atomically,
the report last: a repository whose report records the same run settings is finished and skipped on a
re-run, so an interrupted run resumes where it stopped. The same seed and corpus give byte-identical shards.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import traceback
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from dure.analyzers import build_index
from dure.analyzers.builder import ANALYZER_VERSION
from dure.analyzers.index import RepoIndex
from dure.analyzers.model import DefinitionKind
from dure.analyzers.runtime import TestEvidence, collect_evidence
from dure.corpus.manifest import TestSpec, canonical_name
from dure.corpus.resolve import Repository
from dure.files import write_atomic
from dure.generators._registry import generator_for
from dure.generators.base import Candidate, Drop, DropReason, Source
from dure.tasks.codec import encode_task
from dure.tasks.frozen import freeze_object, thaw
from dure.tasks.model import RepoRef, Task, TaskKind
from dure.verifiers.audit import audit_many

REPORT_FORMAT = 1
MAX_EXAMPLES = 5  # dropped subjects kept per (kind, reason) in a report
#: Kinds whose answers the runtime call trace can contradict.
TRACED_KINDS = frozenset({TaskKind.CALLERS, TaskKind.CALLEES, TaskKind.CALL_PATH})
LOCAL_TESTS = TestSpec(command=("python", "-m", "pytest", "-q", "-p", "no:cacheprovider"), deps=("pytest",))

Progress = Callable[[str, int, int], None]  # (repository, tasks accepted so far, tasks wanted)


@dataclass(frozen=True, slots=True)
class RunSettings:
    """What decides a run's output; a finished repository is skipped only when these are unchanged."""

    kinds: tuple[TaskKind, ...]
    per_repo: int
    seed: int

    def fingerprint(self) -> dict[str, Any]:
        return {
            "kinds": [k.value for k in self.kinds],
            "per_repo": self.per_repo,
            "seed": self.seed,
            "analyzer": ANALYZER_VERSION,
            "format": REPORT_FORMAT,
        }


@dataclass(frozen=True, slots=True)
class RepoReport:
    """What happened to one repository: the counts behind the summary table."""

    name: str
    shard: str
    tasks: dict[str, dict[str, int]] = field(default_factory=dict)  # kind -> phase -> count
    drops: dict[str, dict[str, int]] = field(default_factory=dict)  # kind -> reason -> count
    examples: dict[str, list[str]] = field(default_factory=dict)  # "kind/reason" -> subjects
    trace: dict[str, Any] = field(default_factory=dict)  # ran, error, checked, misses
    error: str | None = None  # the repository failed; nothing was written for it
    skipped: bool = False  # finished by an earlier run with the same settings

    @property
    def task_count(self) -> int:
        return sum(sum(phases.values()) for phases in self.tasks.values())

    def to_json(self, settings: RunSettings) -> dict[str, Any]:
        return {
            "repository": self.name,
            "settings": settings.fingerprint(),
            "tasks": self.tasks,
            "drops": self.drops,
            "examples": self.examples,
            "trace": self.trace,
        }


@dataclass
class _Tally:
    """Mutable counts while one repository is processed."""

    tasks: Counter[tuple[str, int]] = field(default_factory=Counter)
    drops: Counter[tuple[str, str]] = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)
    checked: int = 0
    misses: int = 0

    def drop(self, kind: TaskKind, reason: DropReason, subject: str, detail: str = "") -> None:
        self.drops[kind.value, reason.value] += 1
        found = self.examples.setdefault(f"{kind.value}/{reason.value}", [])
        if len(found) < MAX_EXAMPLES:
            found.append(f"{subject}: {detail}"[:300] if detail else subject)


def shard_name(repository: Repository) -> str:
    """The shard's file stem: ``name-version`` for a corpus package, ``dirname-<digest>`` for a directory."""
    if repository.spec is not None:
        return repository.spec.key
    return f"{canonical_name(repository.name)}-{tree_digest(repository.root)[:12]}"


@cache
def tree_digest(root: Path) -> str:
    """A digest of a local directory's files (paths and contents), standing in for an sdist's sha256."""
    hasher = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root)
        if any(part in {".git", "__pycache__", ".mypy_cache", ".pytest_cache"} for part in relative.parts):
            continue
        if path.is_file() and not path.is_symlink():
            hasher.update(f"{relative.as_posix()}\0".encode())
            hasher.update(hashlib.sha256(path.read_bytes()).digest())
    return hasher.hexdigest()


def repo_ref(repository: Repository) -> RepoRef:
    if repository.spec is not None:
        spec = repository.spec
        return RepoRef(spec.name, spec.version, "pypi", spec.sha256)
    return RepoRef(repository.name, "local", str(repository.root.resolve()), tree_digest(repository.root))


def module_files(index: RepoIndex) -> dict[str, str]:
    """File -> module name, as the index names modules (for the runtime recorder)."""
    return {d.file: d.qualname for d in index.definitions.values() if d.kind is DefinitionKind.MODULE}


class LazyEvidence:
    """Runs the repository's tests on first call only (many kinds never need them), then remembers."""

    def __init__(self, repository: Repository, index: RepoIndex) -> None:
        tests = repository.spec.tests if repository.spec is not None else None
        if tests is None and repository.spec is None and any(d.is_test for d in index.definitions.values()):
            tests = LOCAL_TESTS
        self._repository, self._index, self._tests = repository, index, tests
        self.result: TestEvidence | None = None

    def __call__(self) -> TestEvidence:
        if self.result is None:
            if self._tests is None:
                self.result = TestEvidence(error="the repository has no test command")
            else:
                files = module_files(self._index)
                self.result = collect_evidence(self._repository.root, self._tests, module_of=files)
        return self.result


def generate_repository(
    repository: Repository, settings: RunSettings, progress: Progress | None = None
) -> tuple[list[Task], RepoReport]:
    """The accepted tasks of one repository and its report; raises only when the whole repository fails."""
    index = build_index(repository.root)
    evidence = LazyEvidence(repository, index)
    source = Source(
        repo=repo_ref(repository),
        root=repository.root,
        index=index,
        tests=repository.spec.tests if repository.spec is not None else None,
        seed=settings.seed,
        evidence=evidence,
    )
    tally = _Tally()
    accepted: list[Task] = []
    seen: set[str] = set()
    wanted = settings.per_repo * len(settings.kinds)
    for kind in settings.kinds:
        for task in _accepted(source, kind, tally, seen, settings.per_repo):
            accepted.append(task)
            if progress is not None:
                progress(repository.name, len(accepted), wanted)
    trace: dict[str, Any] = {"checked": tally.checked, "misses": tally.misses}
    if evidence.result is not None:
        trace["tests_ran"] = evidence.result.ran
        trace["error"] = evidence.result.error
    trace["miss_rate"] = round(tally.misses / tally.checked, 4) if tally.checked else None
    report = RepoReport(
        name=repository.name,
        shard=shard_name(repository),
        tasks=_nested(tally.tasks),
        drops=_nested(tally.drops),
        examples=dict(sorted(tally.examples.items())),
        trace=trace,
    )
    return accepted, report


def _nested(counts: Counter[tuple[Any, Any]]) -> dict[str, dict[str, int]]:
    table: dict[str, dict[str, int]] = {}
    for (outer, inner), count in sorted(counts.items(), key=lambda item: (str(item[0][0]), str(item[0][1]))):
        table.setdefault(str(outer), {})[str(inner)] = count
    return table


def _accepted(source: Source, kind: TaskKind, tally: _Tally, seen: set[str], limit: int) -> Iterator[Task]:
    """Up to ``limit`` candidates of ``kind`` that pass every check, with their audit record filled in.

    A generator that audits in batches hands over as many candidates as are still wanted at a time; they
    are checked in stream order, so the accepted tasks and the drops are those of one at a time.
    """
    generator = generator_for(kind)
    stream = generator.candidates(source, kind)
    deferred: deque[Candidate] = deque()  # a batch's repeat of an earlier member waits for its verdict
    taken, ended = 0, False
    while taken < limit and not (ended and not deferred):
        size = limit - taken if generator.audit_in_batches else 1
        batch: list[Candidate] = []
        while len(batch) < size and deferred:
            batch.append(deferred.popleft())
        while len(batch) < size and not ended:
            item = _next_item(source, kind, stream, tally)
            if item is None:
                ended = True
            elif isinstance(item, Drop):
                tally.drop(item.kind, item.reason, item.subject, item.detail)
            else:
                batch.append(item)
        for task in _checked_batch(source, batch, tally, seen, deferred):
            seen.add(task.id)
            tally.tasks[kind.value, task.phase] += 1
            taken += 1
            yield task


def _next_item(
    source: Source, kind: TaskKind, stream: Iterator[Candidate | Drop], tally: _Tally
) -> Candidate | Drop | None:
    """The stream's next item, or ``None`` at its end (a generator bug ends it, counted as an error)."""
    try:
        return next(stream)
    except StopIteration:
        return None
    except Exception as problem:  # a generator bug ends this kind for this repository, not the run
        tally.drop(kind, DropReason.ERROR, source.repo.name, _describe(problem))
        return None


def _checked_batch(
    source: Source, batch: list[Candidate], tally: _Tally, seen: set[str], deferred: deque[Candidate]
) -> list[Task]:
    """The candidates of ``batch`` that pass every check, in order. The batch ends before a repeat of an
    earlier member's id: the repeat and what follows it wait for the next batch, where that member's fate
    decides the repeat, as it would one at a time."""
    ready: list[tuple[Candidate, str, str]] = []
    ids: set[str] = set()
    for position, candidate in enumerate(batch):
        task = candidate.task
        if task.id in ids:
            deferred.extendleft(reversed(batch[position:]))
            break
        subject = str(thaw(task.inputs).get("symbol") or task.id)
        trace_note = _prechecked(source, candidate, subject, tally, seen)
        if trace_note is not None:
            ids.add(task.id)
            ready.append((candidate, subject, trace_note))
    accepted = []
    audits = audit_many([candidate.task for candidate, _, _ in ready])
    for (candidate, subject, trace_note), result in zip(ready, audits, strict=True):
        if not result.ok:
            tally.drop(candidate.task.kind, DropReason.AUDIT, subject, result.reason or "")
            continue
        record = {
            **thaw(candidate.task.audit),
            "self_audit": {"cases": len(result.cases), "passed": True},
            "trace": trace_note,
        }
        accepted.append(dataclasses.replace(candidate.task, audit=freeze_object(record)))
    return accepted


def _prechecked(
    source: Source, candidate: Candidate, subject: str, tally: _Tally, seen: set[str]
) -> str | None:
    """The checks before the audit: no leak, a new id, agreement with the traced calls; returns the trace
    note, or ``None`` when the candidate is dropped."""
    task = candidate.task
    leaked = leaks(task.prompt, candidate.secrets)
    if leaked:
        tally.drop(task.kind, DropReason.LEAK, subject, f"the prompt contains {leaked}")
        return None
    if task.id in seen:
        tally.drop(task.kind, DropReason.DUPLICATE, subject)
        return None
    if candidate.trace_check is None:
        return "not applicable"
    evidence = source.evidence()
    if not evidence.ran:
        return "tests not run"
    tally.checked += 1
    miss = candidate.trace_check(evidence.edges)
    if miss is not None:
        tally.misses += 1
        tally.drop(task.kind, DropReason.TRACE_MISS, subject, miss)
        return None
    return "agrees"


def leaks(prompt: str, secrets: Iterable[str]) -> str | None:
    """The first secret that appears in ``prompt`` as a whole name (not inside a longer dotted name)."""
    for secret in secrets:
        if secret and re.search(rf"(?<![\w.]){re.escape(secret)}(?!\w|\.\w)", prompt):
            return secret
    return None


def _describe(problem: BaseException) -> str:
    where = traceback.extract_tb(problem.__traceback__)[-1:] if problem.__traceback__ else []
    place = f" at {Path(where[0].filename).name}:{where[0].lineno}" if where else ""
    return f"{type(problem).__name__}: {problem}{place}"


def _finished(out: Path, shard: str, settings: RunSettings) -> RepoReport | None:
    report_path, tasks_path = out / "reports" / f"{shard}.json", out / "tasks" / f"{shard}.jsonl"
    if not (report_path.is_file() and tasks_path.is_file()):
        return None
    try:
        data = json.loads(report_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("settings") != settings.fingerprint():
        return None
    return RepoReport(
        name=str(data.get("repository", shard)),
        shard=shard,
        tasks=data.get("tasks", {}),
        drops=data.get("drops", {}),
        examples=data.get("examples", {}),
        trace=data.get("trace", {}),
        skipped=True,
    )


def _save(out: Path, report: RepoReport, tasks: Sequence[Task], settings: RunSettings) -> None:
    lines = "".join(f"{encode_task(task)}\n" for task in tasks)
    write_atomic(out / "tasks" / f"{report.shard}.jsonl", lines)
    document = json.dumps(report.to_json(settings), indent=2, sort_keys=True, ensure_ascii=False)
    write_atomic(out / "reports" / f"{report.shard}.json", document + "\n")


def _run_one(
    repository: Repository, settings: RunSettings, out: Path, progress: Progress | None = None
) -> RepoReport:
    """Process one repository and save its shard; any failure becomes the report's ``error``."""
    try:
        tasks, report = generate_repository(repository, settings, progress)
        _save(out, report, tasks, settings)
    except Exception as problem:  # one failing repository is reported and the run goes on
        return RepoReport(name=repository.name, shard=shard_name(repository), error=_describe(problem))
    return report


def generate(
    repositories: Sequence[Repository],
    settings: RunSettings,
    out: Path,
    *,
    workers: int = 1,
    on_report: Callable[[RepoReport], None] | None = None,
    progress: Progress | None = None,
) -> list[RepoReport]:
    """Generate tasks for every repository into ``out``; one report per repository, in input order."""
    reports: dict[int, RepoReport] = {}
    pending: list[tuple[int, Repository]] = []
    for position, repository in enumerate(repositories):
        done = _finished(out, shard_name(repository), settings)
        if done is not None:
            reports[position] = done
            if on_report is not None:
                on_report(done)
        else:
            pending.append((position, repository))
    if workers <= 1 or len(pending) <= 1:
        for position, repository in pending:
            reports[position] = _run_one(repository, settings, out, progress)
            if on_report is not None:
                on_report(reports[position])
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = {pool.submit(_run_one, repo, settings, out): position for position, repo in pending}
            for future, position in futures.items():
                reports[position] = future.result()
                if on_report is not None:
                    on_report(reports[position])
    return [reports[position] for position in range(len(repositories))]

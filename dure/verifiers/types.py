"""``types``: restore stripped annotations; the answer maps each slot to a type string, dure inserts it.

Slots are named ``"<module>.<Class>.<function>:return"`` or ``"...:param:<name>"`` (see
:mod:`dure.verifiers.typeslots`); the reference answer (``task.answer``) maps every slot to its original
annotation. Parameters (``task.verifier.params``):

``module``            dotted name of the module (required)
``path``              its path relative to the import root, e.g. ``"click/core.py"`` (required)
``source``            the module as the agent sees it, annotations stripped (required)
``files``             other files of the import root, relative path -> text (optional; without it the
                      repository comes from the corpus cache, found by ``task.repo.sha256``, and a
                      repository from the package registry that is not cached yet is fetched, its sha256
                      checked, the first time an answer needs the checker)
``root``              the import root inside the repository source, e.g. ``"src"`` (default ``""``)
``baseline``          the checker's errors on the module with the reference annotations, as
                      ``"line:code:message"`` strings (:func:`baseline_of` computes them)
``engine``            ``"mypy"`` (default) or ``"pyright"``
``flags``             mypy flags (default ``["--strict"]``); for pyright, ``[typeCheckingMode]``
``checker_version``   the checker version the task was made with; another version refuses to judge
``any_version``       ``true`` to judge with another checker version anyway (default ``false``)
``python_version``    passed to the checker (default: the checker's own)
``top_type_credit``   credit for an ``Any``/``object`` answer that type-checks (default 0.5, at most 0.5)
``timeout``           seconds per checker run (default 120)

Credit per slot: 1.0 when equal to the reference after normalisation (:mod:`dure.verifiers.typenorm`);
1.0 when the checker accepts ``assert_type(answer, reference)`` in the module's scope and the answer adds
no error; 0.5 when the answer is another type that adds no error to the module (against ``baseline``);
otherwise 0. ``Any`` and ``object`` never earn equivalence, and neither does any answer for a reference the
checker sees as (partly) ``Any`` because it comes from an import the checker cannot resolve (both sides would
be ``Any``, and ``assert_type`` would accept anything): there only normalised equality scores 1.0. Each slot
that differs is judged as if it alone were changed (when the answer as a whole adds errors), but all such
variants are checked in one checker run. A type string that is not a plain type expression scores 0 for its
slot and is never written or checked. The value is the mean over the reference slots (extra slots are
ignored and counted); a checker that does not run is an error, never a pass.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
import threading
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from dure.corpus.fetch import fetch_package, list_cached
from dure.corpus.manifest import PackageSpec
from dure.errors import FetchError
from dure.tasks.errors import AnswerError, TaskError
from dure.tasks.frozen import FrozenDict, JsonValue
from dure.tasks.model import RepoRef, Score, Task
from dure.verifiers._registry import register
from dure.verifiers.base import FORMAT, AuditCase, Expect, Verifier, clip
from dure.verifiers.typecheck import (
    ENGINES,
    CheckerError,
    CheckerSettings,
    Context,
    Diagnostic,
    checker_banner,
    checker_version,
    get_checker,
)
from dure.verifiers.typenorm import Canon, UnsafeType, parse_type, top_type_count
from dure.verifiers.typeslots import SlotError, Template, build_template

MAX_SLOTS = 1000
EXACT, EQUIVALENT, COMPATIBLE = 1.0, 1.0, 0.5
PROBE_IMPORT = "from typing import assert_type as dure_assert_type"
ANY_CODES = frozenset({"no-any-unimported", "reportUnknownParameterType"})
MAX_REMEMBERED = 4096
#: Digest of context and reference-probe text -> the slots whose reference the checker sees as ``Any``.
_ANY_REFERENCES: dict[str, frozenset[str]] = {}


@dataclass(frozen=True, slots=True)
class Where:
    """What locates a module's checker context: looked up only when an answer needs the checker, so an
    exact answer scores without the repository at hand."""

    repo: RepoRef
    params: FrozenDict
    path: str
    source: str
    settings: CheckerSettings


@dataclass(frozen=True, slots=True)
class Prepared:
    """A task's parsed parameters and template (cached: tasks are immutable and scored many times)."""

    template: Template
    gold: Mapping[str, str]  # slot -> one-line safe source of the reference type
    gold_exprs: Mapping[str, ast.expr]
    where: Where
    settings: CheckerSettings
    baseline: Counter[str] | None
    version: str | None
    any_version: bool
    top_type_credit: float

    @property
    def context(self) -> Context:
        """The checker context (raises :class:`TaskError` when the repository cannot be found)."""
        return _context(self.where)


@dataclass(slots=True)
class _Staged:
    """One answer on its way to a score: its verdicts so far (the checker fills the pending ones)."""

    answer: FrozenDict
    verdicts: dict[str, Verdict]
    candidates: list[str]
    details: dict[str, object]


@dataclass(frozen=True, slots=True)
class Verdict:
    credit: float
    level: str  # exact | equivalent | compatible | wrong | missing | unsafe
    reason: str = ""


def _param(params: FrozenDict, key: str, kind: type | tuple[type, ...], default: object = ...) -> object:
    if key not in params:
        if default is ...:
            raise TaskError(f"verifier.params.{key}", "missing")
        return default
    value = params[key]
    if not isinstance(value, kind) or isinstance(value, bool) is not (kind is bool):
        raise TaskError(f"verifier.params.{key}", f"has the wrong type ({type(value).__name__})")
    return value


@functools.lru_cache(maxsize=256)
def prepare(repo: RepoRef, answer: JsonValue, params: FrozenDict) -> Prepared:
    """Parse a task's reference answer and parameters once; raises :class:`TaskError`."""
    if not isinstance(answer, FrozenDict) or not answer:
        raise TaskError("answer", "must be a non-empty JSON object mapping slots to types")
    module = str(_param(params, "module", str))
    path = str(_param(params, "path", str))
    source = str(_param(params, "source", str))
    try:
        gold_exprs = {slot: parse_type(text) for slot, text in answer.items()}
        template = build_template(source, module, list(answer), is_package=path.endswith("__init__.py"))
    except (UnsafeType, SlotError, SyntaxError) as problem:
        raise TaskError("answer", str(problem)) from None
    settings = _settings(params)
    baseline = params.get("baseline")
    if baseline is not None and not (
        isinstance(baseline, tuple) and all(isinstance(b, str) for b in baseline)
    ):
        raise TaskError("verifier.params.baseline", "must be an array of strings")
    credit = _param(params, "top_type_credit", (int, float), 0.5)
    assert isinstance(credit, int | float)
    if not 0.0 <= credit <= COMPATIBLE:
        raise TaskError("verifier.params.top_type_credit", "must be from 0 to 0.5")
    version = params.get("checker_version")
    return Prepared(
        template=template,
        gold={slot: ast.unparse(expr) for slot, expr in gold_exprs.items()},
        gold_exprs=gold_exprs,
        where=Where(repo, params, path, source, settings),
        settings=settings,
        baseline=Counter(str(item) for item in baseline) if baseline is not None else None,
        version=version if isinstance(version, str) else None,
        any_version=bool(_param(params, "any_version", bool, False)),
        top_type_credit=float(credit),
    )


def _settings(params: FrozenDict) -> CheckerSettings:
    engine = str(_param(params, "engine", str, "mypy"))
    if engine not in ENGINES:
        raise TaskError("verifier.params.engine", f"{engine!r} is not one of {ENGINES}")
    default_flags = ("--strict",) if engine == "mypy" else ("strict",)
    flags = _param(params, "flags", tuple, default_flags)
    if not all(isinstance(flag, str) for flag in flags):  # type: ignore[attr-defined]
        raise TaskError("verifier.params.flags", "must be an array of strings")
    python = _param(params, "python_version", str, None)
    timeout = _param(params, "timeout", (int, float), 120.0)
    assert isinstance(timeout, int | float)
    return CheckerSettings(engine, tuple(flags), python if isinstance(python, str) else None, float(timeout))  # type: ignore[arg-type]


@functools.lru_cache(maxsize=256)
def _context(where: Where) -> Context:
    """The module's checker context; its key leaves the module out, so one warm tree serves the repository."""
    params, path, source, settings = where.params, where.path, where.source, where.settings
    identity: list[object] = [where.repo.sha256, settings.engine, settings.flags, settings.python_version]
    root = str(_param(params, "root", str, ""))
    files = params.get("files")
    if files is not None:
        if not isinstance(files, FrozenDict) or not all(isinstance(v, str) for v in files.values()):
            raise TaskError("verifier.params.files", "must map relative paths to file contents")
        every = {**{key: str(value) for key, value in files.items()}, path: source}
        return Context(
            _digest([*identity, "files", root]),
            path,
            files=every,
            files_digest=_digest(sorted(every.items())),
        )
    tree = _repository_root(where.repo)
    import_root = (tree / root).resolve()
    if not import_root.is_relative_to(tree.resolve()) or not import_root.is_dir():
        raise TaskError("verifier.params.root", f"{root!r} is not a directory of the repository")
    return Context(_digest([*identity, "root", root]), path, root=import_root)


_FETCHING = threading.Lock()  # one download at a time; the others then find it in the cache


def _repository_root(repo: RepoRef) -> Path:
    """The unpacked repository from the corpus cache; one from the package registry is fetched first."""
    with _FETCHING:
        found = [cached for cached in list_cached() if cached.sha256 == repo.sha256]
        if found:
            return found[0].root
        if repo.source != "pypi":
            raise TaskError(
                "repo", f"repository {repo.sha256[:12]} ({repo.source}) is not in the corpus cache"
            )
        spec = PackageSpec(repo.name, repo.version, repo.sha256, domain="", has_tests=False, tests=None)
        try:
            return fetch_package(spec)
        except FetchError as problem:
            reason = (
                f"{repo.name} {repo.version} is not in the corpus cache and could not be fetched: {problem}"
            )
            raise TaskError("repo", reason) from None


def _digest(identity: Sequence[object]) -> str:
    return hashlib.sha256(json.dumps(identity, default=list).encode("utf-8")).hexdigest()


def check_version(prepared: Prepared) -> str:
    """The checker banner; raises :class:`TaskError` when the version differs from the task's."""
    engine = prepared.settings.engine
    installed = checker_version(engine)
    if prepared.version is not None and prepared.version != installed and not prepared.any_version:
        raise TaskError(
            "verifier.params.checker_version",
            f"the task was made with {engine} {prepared.version}, this is {engine} {installed}; "
            "refusing to judge (set any_version to judge anyway)",
        )
    return checker_banner(engine)


@register
class TypesVerifier(Verifier):
    name = "types"
    description = "type strings for stripped annotations: normalised equality, assert_type, or type-checks"
    components = (FORMAT, "exact", "equivalent", "compatible")
    judges_together = True

    def check(self, task: Task, answer: JsonValue) -> Score:
        prepared = prepare(task.repo, task.answer, task.verifier.params)
        staged = self._staged(prepared, answer)
        if staged.candidates:
            job = _Job(prepared, [staged])
            _run_jobs([job])
            if job.problem is not None:
                raise job.problem
        return self._score(prepared, staged)

    def verify_many(self, task: Task, answers: Sequence[JsonValue]) -> list[Score]:
        """Scores of several answers to one task, every answer's checker files in one checker run (a trainer's
        samples of one prompt); each score is the one :meth:`verify` gives."""
        return self.verify_across([(task, answers)])[0]

    def verify_across(self, work: Sequence[tuple[Task, Sequence[JsonValue]]]) -> list[list[Score]]:
        """Scores of the answers to several tasks: the checker files of every task of one source tree go
        into one checker run (the self-audit of a repository's tasks), each score the one :meth:`verify`
        gives. A task whose files break the shared run is judged again alone, so it cannot fail the others."""
        results: list[list[Score | None]] = []
        staged_of: list[tuple[Prepared | None, list[tuple[int, _Staged]], _Job | None]] = []
        for task, answers in work:
            scores: list[Score | None] = [None] * len(answers)
            results.append(scores)
            try:
                prepared = prepare(task.repo, task.answer, task.verifier.params)
            except TaskError as bad:
                scores[:] = [Score.failed(f"bad task {task.id}: {bad}", self.components)] * len(answers)
                staged_of.append((None, [], None))
                continue
            staged: list[tuple[int, _Staged]] = []
            for index, answer in enumerate(answers):
                try:
                    staged.append((index, self._staged(prepared, answer)))
                except AnswerError as bad:
                    scores[index] = Score.failed(f"malformed answer: {bad}", self.components)
            pending = [item for _, item in staged if item.candidates]
            staged_of.append((prepared, staged, _Job(prepared, pending) if pending else None))
        _run_jobs([job for _, _, job in staged_of if job is not None])
        for (task, _), scores, (judged, staged, job) in zip(work, results, staged_of, strict=True):
            problem = job.problem if job is not None else None
            for index, item in staged:
                if problem is not None and item.candidates:
                    scores[index] = Score.failed(f"bad task {task.id}: {problem}", self.components)
                elif judged is not None:
                    scores[index] = self._score(judged, item)
        return [[score for score in scores if score is not None] for scores in results]

    def ceilings_across(
        self, work: Sequence[tuple[Task, Sequence[tuple[JsonValue, float]]]]
    ) -> list[list[float | None]]:
        """Upper bounds of the answers' scores, each found as cheaply as it stays within its limit: first
        from the slots decided without the checker (an ``Any`` or ``object`` slot earns at most the top-type
        credit, any other pending slot at most 1.0); past the limit, from one checker run of each answer's
        combined module without the per-slot variants (a slot only its variant could decide counts as
        compatible, so the bound is the score when the combined module adds no error). ``None`` for a
        malformed answer or a task that cannot be judged."""
        found: list[list[float | None]] = [[None] * len(items) for _, items in work]
        checked: list[tuple[int, list[tuple[int, _Staged]], _Job]] = []
        for number, (task, items) in enumerate(work):
            try:
                prepared = prepare(task.repo, task.answer, task.verifier.params)
            except TaskError:
                continue
            pending: list[tuple[int, _Staged]] = []
            for index, (answer, limit) in enumerate(items):
                try:
                    staged = self._staged(prepared, answer)
                except AnswerError:
                    continue
                ceiling = _ceiling(prepared, staged)
                if ceiling <= limit or not staged.candidates:
                    found[number][index] = ceiling
                else:
                    pending.append((index, staged))
            if pending:
                job = _Job(prepared, [staged for _, staged in pending], variants=False)
                checked.append((number, pending, job))
        _run_jobs([job for _, _, job in checked])
        for number, pending, job in checked:
            if job.problem is None:
                for index, staged in pending:
                    found[number][index] = _value(job.prepared, staged)
        return found

    def _staged(self, prepared: Prepared, answer: JsonValue) -> _Staged:
        """An answer's slots decided without the checker, the rest pending; raises :class:`AnswerError`."""
        if not isinstance(answer, FrozenDict):
            raise AnswerError("expected a JSON object mapping slots to type strings")
        if len(answer) > MAX_SLOTS:
            raise AnswerError(f"{len(answer)} slots, more than the limit of {MAX_SLOTS}")
        verdicts = _static_verdicts(prepared, answer)
        candidates = [slot for slot, verdict in verdicts.items() if verdict.level == "pending"]
        details: dict[str, object] = {"checker": None, "checker_runs": 0, "checked_variants": 0}
        return _Staged(answer, verdicts, candidates, details)

    def _score(self, prepared: Prepared, staged: _Staged) -> Score:
        answer, verdicts, details = staged.answer, staged.verdicts, staged.details
        count = len(prepared.gold)
        levels = Counter(verdict.level for verdict in verdicts.values())
        components = {
            FORMAT: 1.0,
            "exact": levels["exact"] / count,
            "equivalent": (levels["exact"] + levels["equivalent"]) / count,
            "compatible": sum(1 for v in verdicts.values() if v.credit > 0) / count,
        }
        value = _value(prepared, staged)
        details["slots"] = {
            slot: {"credit": v.credit, "level": v.level, "reason": clip(v.reason)}
            for slot, v in verdicts.items()
        }
        details["extra_slots"] = len(set(answer) - set(prepared.gold))
        return self.score(value, components, details)

    def audit_cases(self, task: Task) -> tuple[AuditCase, ...]:
        prepared = prepare(task.repo, task.answer, task.verifier.params)
        gold = prepared.gold
        quoted = {slot: repr(text) for slot, text in gold.items()}
        respelled = {
            slot: ast.unparse(_TypingSpelling().visit(parse_type(text))) for slot, text in gold.items()
        }
        wrong = {
            slot: "bytes" if _canon(prepared, slot, text) == "builtins.complex" else "complex"
            for slot, text in gold.items()
        }
        top = prepared.top_type_credit
        cases = [
            AuditCase("quoted", FrozenDict(quoted), Expect.EQUIVALENT),
            AuditCase("typing spelling", FrozenDict(respelled), Expect.EQUIVALENT),
            AuditCase("empty", FrozenDict(), Expect.WRONG, 0.0),
            AuditCase("all Any", FrozenDict(dict.fromkeys(gold, "typing.Any")), Expect.WRONG, top),
            AuditCase("all object", FrozenDict(dict.fromkeys(gold, "object")), Expect.WRONG, top),
            AuditCase("wrong types", FrozenDict(wrong), Expect.WRONG, COMPATIBLE),
        ]
        return tuple(cases)


def _value(prepared: Prepared, staged: _Staged) -> float:
    return sum(verdict.credit for verdict in staged.verdicts.values()) / len(prepared.gold)


def _ceiling(prepared: Prepared, staged: _Staged) -> float:
    """The most an answer can score before the checker: what :func:`_decide` gives a pending slot at best
    (a top type is never probed, so it earns the top-type credit at most)."""
    best = {"top": prepared.top_type_credit}
    total = sum(
        best.get(verdict.reason, 1.0) if verdict.level == "pending" else verdict.credit
        for verdict in staged.verdicts.values()
    )
    return total / len(prepared.gold)


def _canon(prepared: Prepared, slot: str, text: str) -> str:
    try:
        return Canon(prepared.template.scopes[slot]).spell(parse_type(text))
    except UnsafeType:
        return ""


def _static_verdicts(prepared: Prepared, answer: FrozenDict) -> dict[str, Verdict]:
    """Missing, unsafe and exact slots decided without the checker; the rest are ``pending``."""
    verdicts: dict[str, Verdict] = {}
    parsed: dict[str, ast.expr] = {}
    for slot in prepared.gold:
        if slot not in answer:
            verdicts[slot] = Verdict(0.0, "missing", "no type given")
            continue
        try:
            parsed[slot] = parse_type(answer[slot])
        except UnsafeType as problem:
            verdicts[slot] = Verdict(0.0, "unsafe", str(problem))
    template = prepared.template
    by_function: dict[str, list[str]] = {}
    for slot in sorted(parsed, key=lambda s: template.position[s]):
        by_function.setdefault(template.function_of[slot], []).append(slot)
    for slots in by_function.values():
        scope = template.scopes[slots[0]]
        given, reference = Canon(scope), Canon(scope)
        for slot in slots:
            try:
                mine, theirs = given.spell(parsed[slot]), reference.spell(prepared.gold_exprs[slot])
            except UnsafeType as problem:  # a forward reference that is not a plain type
                verdicts[slot] = Verdict(0.0, "unsafe", str(problem))
                continue
            if mine == theirs:
                verdicts[slot] = Verdict(EXACT, "exact")
            else:
                weaker = top_type_count(mine) > top_type_count(theirs)
                verdicts[slot] = Verdict(0.0, "pending", "top" if weaker else "")
    return {slot: verdicts[slot] for slot in prepared.gold}


#: Files one shared checker run takes at most: a bigger batch saves little more and risks the timeout.
MAX_BATCH_FILES = 200


@dataclass(slots=True)
class _Job:
    """The pending answers of one task on their way through a checker run.

    All pending slots of an answer are checked together, with an ``assert_type`` probe for each; only when
    that adds errors does each slot's own variant (the module with just that slot changed) decide it. Exact
    slots are filled with the answer's own spelling too (TypeVars tie a function's slots together), missing
    and unsafe ones with the reference. The variants, and the files of every answer, are checked in the
    same run, as separate files that nothing imports, so the run count grows with neither the slots nor
    the answers, and each answer's verdicts are those it would get alone. A reference the checker sees as
    (partly) ``Any`` would let ``assert_type`` accept anything, so such a slot is never equivalent through
    the checker.
    """

    prepared: Prepared
    staged: Sequence[_Staged]
    variants: bool = True  # without them, a slot only its variant could decide counts as compatible
    problem: TaskError | None = None  # why the task could not be judged
    banner: str = ""
    context: Context | None = None
    plans: list[_Plan] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    reference_lines: dict[int, str] = field(default_factory=dict)
    remembered: str = ""
    any_references: frozenset[str] | None = None

    def plan(self) -> None:
        """Everything up to the checker run: version, baseline, context and the files to check."""
        prepared = self.prepared
        try:
            self.banner = check_version(prepared)
            if prepared.baseline is None:
                raise TaskError("verifier.params.baseline", "missing (compute it with baseline_of)")
            self.plans = [_plan(prepared, item, variants=self.variants) for item in self.staged]
            self.context = prepared.context
        except CheckerError as problem:
            raise TaskError("checker", str(problem)) from None
        self.texts = [text for plan in self.plans for text in plan.texts]
        reference_text, self.reference_lines = _reference_probes(prepared)
        self.remembered = _digest([self.context.key, self.context.files_digest, reference_text])
        probed = any(plan.probed for plan in self.plans)
        self.any_references = _ANY_REFERENCES.get(self.remembered) if probed else frozenset()
        if self.any_references is None:
            self.texts.append(reference_text)

    @property
    def request(self) -> tuple[Context, list[str]]:
        """The context and the files this job gives the checker run."""
        assert self.context is not None
        return self.context, self.texts

    @property
    def batch_key(self) -> tuple[object, ...]:
        """Jobs with the same key can share a checker run (one source tree, one checker setting)."""
        assert self.context is not None
        return (self.context.key, self.context.files_digest, self.prepared.settings)

    def conclude(self, results: Sequence[tuple[Diagnostic, ...]]) -> None:
        """Turn the checker's results on this job's files into its answers' verdicts and details."""
        any_references = self.any_references
        if any_references is None:
            any_references = _seen_as_any(self.remembered, results[-1], self.reference_lines)
        start = 0
        for item, plan in zip(self.staged, self.plans, strict=True):
            own = results[start : start + len(plan.texts)]
            start += len(plan.texts)
            new_errors = _decide(self.prepared, item, plan, own, any_references)
            item.details["checker"] = self.banner
            item.details["checker_runs"] = 1
            item.details["checked_variants"] = len(plan.texts)
            item.details["new_errors"] = [clip(error) for error in new_errors[:10]]


def _run_jobs(jobs: Sequence[_Job]) -> None:
    """Plan every job, check the files of the jobs of one source tree in shared runs, conclude them; a job
    that cannot be judged records its problem instead."""
    batches: dict[tuple[object, ...], list[_Job]] = {}
    for job in jobs:
        try:
            job.plan()
        except TaskError as bad:
            job.problem = bad
            continue
        batches.setdefault(job.batch_key, []).append(job)
    for batch in batches.values():
        for chunk in _chunks(batch):
            _check_jobs(chunk)


def _chunks(batch: list[_Job]) -> list[list[_Job]]:
    chunks: list[list[_Job]] = [[]]
    size = 0
    for job in batch:
        if chunks[-1] and size + len(job.texts) > MAX_BATCH_FILES:
            chunks.append([])
            size = 0
        chunks[-1].append(job)
        size += len(job.texts)
    return chunks


def _check_jobs(jobs: list[_Job]) -> None:
    """One checker run for ``jobs``; when it fails and holds several jobs, each is run again alone."""
    settings = jobs[0].prepared.settings
    try:
        found = _check_batch(settings, [job.request for job in jobs])
    except CheckerError as problem:
        if len(jobs) > 1:
            for job in jobs:
                _check_jobs([job])
        else:
            jobs[0].problem = TaskError("checker", str(problem))
        return
    for job, results in zip(jobs, found, strict=True):
        job.conclude(results)


@dataclass(frozen=True, slots=True)
class _Plan:
    """The checker files of one answer: the combined module with its probes, then one variant per slot."""

    texts: list[str]
    probed: list[str]
    probe_lines: dict[int, str]


def _plan(prepared: Prepared, staged: _Staged, *, variants: bool = True) -> _Plan:
    answer, verdicts, candidates = staged.answer, staged.verdicts, staged.candidates
    exact = {s: ast.unparse(parse_type(answer[s])) for s, v in verdicts.items() if v.level == "exact"}
    sources = {slot: ast.unparse(parse_type(answer[slot])) for slot in candidates}
    probed = [slot for slot in candidates if verdicts[slot].reason != "top"]
    text, probe_lines = _module_text(prepared, {**exact, **sources}, probed)
    texts = [text]
    if variants and len(candidates) > 1:
        # Each variant holds a subset of the combined module's fillings, each where it stands there: the
        # combined module compiles, so the variants do (syntax is checked per annotation, not across them).
        for slot in candidates:
            texts.append(_module_text(prepared, {**exact, slot: sources[slot]}, [], compiled=True)[0])
    return _Plan(texts, probed, probe_lines)


def _decide(
    prepared: Prepared,
    staged: _Staged,
    plan: _Plan,
    results: Sequence[tuple[Diagnostic, ...]],
    any_references: frozenset[str],
) -> list[str]:
    """Turn one answer's checker results into its pending slots' verdicts; returns its new errors."""
    candidates, verdicts = staged.candidates, staged.verdicts
    errors = results[0]
    new = _new_errors(prepared, errors, plan.probe_lines)
    failed_probes = {plan.probe_lines[d.line] for d in errors if d.line in plan.probe_lines}
    # With new errors and several slots, each slot's own variant decides it; where the variants were not
    # checked (a ceiling, not a score), every slot counts as compatible.
    compatible = dict.fromkeys(candidates, not new or len(candidates) > 1)
    if new and len(results) > 1:
        for slot, alone in zip(candidates, results[1 : 1 + len(candidates)], strict=True):
            compatible[slot] = not _new_errors(prepared, alone)
    for slot in candidates:
        top = verdicts[slot].reason == "top"
        if not compatible[slot]:
            verdicts[slot] = Verdict(0.0, "wrong", "adds type errors to the module")
        elif slot in plan.probed and slot not in failed_probes and slot not in any_references:
            verdicts[slot] = Verdict(EQUIVALENT, "equivalent", "assert_type accepts it")
        elif top:
            verdicts[slot] = Verdict(prepared.top_type_credit, "compatible", "Any/object: never equivalent")
        elif slot in any_references:
            verdicts[slot] = Verdict(COMPATIBLE, "compatible", "the checker sees the reference as Any")
        else:
            verdicts[slot] = Verdict(COMPATIBLE, "compatible", "another type that adds no error")
    return [d.key for d in new]


def _reference_probes(prepared: Prepared) -> tuple[str, dict[int, str]]:
    """The reference module with a one-line function per slot taking the reference type, and a file-level
    setting that makes the checker report an argument whose type comes out as ``Any`` from an import it cannot
    resolve (mypy's ``no-any-unimported``, pyright's ``reportUnknownParameterType``)."""
    lines = prepared.template.render(prepared.gold).splitlines()
    lines += ["", "# mypy: disallow-any-unimported", "# pyright: reportUnknownParameterType=true"]
    probe_lines: dict[int, str] = {}
    for number, (slot, reference) in enumerate(prepared.gold.items()):
        lines.append(f"def dure_reference_{number}(dure_value: {reference}) -> None: ...")
        probe_lines[len(lines)] = slot
    return "\n".join(lines) + "\n", probe_lines


def _seen_as_any(
    remembered: str, errors: tuple[Diagnostic, ...], probe_lines: Mapping[int, str]
) -> frozenset[str]:
    """The slots whose reference the checker reported as (partly) ``Any``; remembered per context and text."""
    found = frozenset(probe_lines[d.line] for d in errors if d.line in probe_lines and d.code in ANY_CODES)
    if len(_ANY_REFERENCES) >= MAX_REMEMBERED:
        _ANY_REFERENCES.clear()
    _ANY_REFERENCES[remembered] = found
    return found


def _module_text(
    prepared: Prepared, sources: Mapping[str, str], probed: list[str], *, compiled: bool = False
) -> tuple[str, dict[int, str]]:
    """The module with ``sources`` at their slots (the reference elsewhere), imports and probes appended;
    checked to compile unless it is known to (``compiled``)."""
    template = prepared.template
    text = template.render({**prepared.gold, **sources})
    lines = text.splitlines()
    roots: set[str] = set()
    for slot, source in sources.items():
        roots |= template.scopes[slot].unbound_roots(parse_type(source))
    lines += ["", *(f"import {root}" for root in sorted(roots) if root.isidentifier())]
    probe_lines: dict[int, str] = {}
    if probed:
        lines.append(PROBE_IMPORT)
    for number, slot in enumerate(probed):
        start = len(lines) + 1
        lines += [
            f"def dure_probe_{number}(dure_value: {sources[slot]}) -> {sources[slot]}:",
            f"    dure_assert_type(dure_value, {prepared.gold[slot]})",
            "    return dure_value",
        ]
        probe_lines.update(dict.fromkeys(range(start, start + 3), slot))
    text = "\n".join(lines) + "\n"
    if compiled:
        return text, probe_lines
    try:
        compile(text, prepared.context.module_path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as problem:
        raise CheckerError(f"the filled module does not compile: {problem}") from None
    return text, probe_lines


def _check_many(prepared: Prepared, texts: list[str]) -> tuple[tuple[Diagnostic, ...], ...]:
    return _check_batch(prepared.settings, [(prepared.context, texts)])[0]


def _check_batch(
    settings: CheckerSettings, requests: Sequence[tuple[Context, Sequence[str]]]
) -> list[tuple[tuple[Diagnostic, ...], ...]]:
    """The one place the verifier runs the checker (tests count the runs here)."""
    return get_checker().check_batch(requests, settings)


def _new_errors(
    prepared: Prepared, errors: tuple[Diagnostic, ...], probe_lines: Mapping[int, str] | None = None
) -> list[Diagnostic]:
    """Errors outside the probes that the baseline does not have (as many times as they occur)."""
    assert prepared.baseline is not None
    budget = Counter(prepared.baseline)
    new = []
    for diagnostic in errors:
        if probe_lines and diagnostic.line in probe_lines:
            continue
        if budget[diagnostic.key] > 0:
            budget[diagnostic.key] -= 1
        else:
            new.append(diagnostic)
    return new


def baseline_of(task: Task) -> tuple[str, ...]:
    """The checker's errors on the module with the reference annotations: the task's ``baseline``."""
    return baseline_with(task)[0]


def baseline_with(
    task: Task, texts: Sequence[str] = ()
) -> tuple[tuple[str, ...], tuple[tuple[Diagnostic, ...], ...]]:
    """The task's ``baseline`` and the checker's errors on ``texts`` (other versions of the module), all in
    one checker run."""
    (found,) = baselines_with([(task, texts)])
    if isinstance(found, Exception):
        raise found
    return found


Baselined = tuple[tuple[str, ...], tuple[tuple[Diagnostic, ...], ...]]


def baselines_with(items: Sequence[tuple[Task, Sequence[str]]]) -> list[Baselined | Exception]:
    """:func:`baseline_with` for several tasks (modules of a repository being prepared), the tasks of one
    source tree in one checker run; each item's result, or the exception it raises alone (a run that fails
    with several items is run again item by item, so one module cannot fail the others)."""
    found: list[Baselined | Exception | None] = [None] * len(items)
    batches: dict[tuple[object, ...], list[tuple[int, Context, list[str]]]] = {}
    for number, (task, texts) in enumerate(items):
        try:
            prepared = prepare(task.repo, task.answer, task.verifier.params)
            check_version(prepared)
            reference = prepared.template.render(prepared.gold) + "\n"
            context = prepared.context
        except Exception as problem:  # the item's own failure, raised by baseline_with
            found[number] = problem
            continue
        key = (context.key, context.files_digest, prepared.settings)
        batches.setdefault(key, []).append((number, context, [reference, *texts]))
    for (_, _, settings), batch in batches.items():
        assert isinstance(settings, CheckerSettings)
        _run_baselines(settings, batch, found)
    return [item if item is not None else RuntimeError("not checked") for item in found]


def _run_baselines(
    settings: CheckerSettings,
    batch: list[tuple[int, Context, list[str]]],
    found: list[Baselined | Exception | None],
) -> None:
    try:
        results = _check_batch(settings, [(context, texts) for _, context, texts in batch])
    except CheckerError as problem:
        if len(batch) == 1:
            found[batch[0][0]] = problem
        else:
            for item in batch:
                _run_baselines(settings, [item], found)
        return
    for (number, _, _), (reference, *others) in zip(batch, results, strict=True):
        found[number] = (tuple(sorted(d.key for d in reference)), tuple(others))


def _typing_spelling(text: str) -> str:
    return ast.unparse(_TypingSpelling().visit(parse_type(text)))


class _TypingSpelling(ast.NodeTransformer):
    """The old spelling: ``X | Y`` as ``typing.Union[X, Y]``, ``list[...]`` as ``typing.List[...]``."""

    NAMES: dict[str, str] = {"list": "List", "dict": "Dict", "set": "Set", "frozenset": "FrozenSet",
                             "tuple": "Tuple", "type": "Type"}  # fmt: skip

    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        members = [self.visit(node.left), self.visit(node.right)]
        union = ast.Attribute(ast.Name("typing", ast.Load()), "Union", ast.Load())
        return ast.Subscript(union, ast.Tuple(members, ast.Load()), ast.Load())

    def visit_Subscript(self, node: ast.Subscript) -> ast.expr:
        self.generic_visit(node)
        if isinstance(node.value, ast.Name) and node.value.id in self.NAMES:
            node.value = ast.Attribute(ast.Name("typing", ast.Load()), self.NAMES[node.value.id], ast.Load())
        return node

"""Resolving the call sites in two halves of the repository's modules, the second in a forked helper.

Resolution memoises what it evaluates, and a value a cycle cut short depends on what was evaluated before:
the halves are therefore fixed by the repository alone (never by the cores at hand), and each half starts
from the same state, with an evaluator of its own. The index is then the same whether the second half runs
in a helper process, at the same time as the first, or here after it (no ``fork``, another thread running,
one core, or a helper that failed). The halves' first passes barely overlap (on Django, 2 % more CPU time
apart than together); with the swap and two flow passes, resolving in halves in one process costs about
15 % more than in one pass, and with a helper takes about a quarter less wall time.

Each half finds the definitions its modules use as values and resolves its sites with parameters unknown;
the halves then swap what they found, since the second (flow) pass needs every caller of a function; then
each re-resolves its own sites through parameters.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO, Protocol

from dure.analyzers.background import may_fork
from dure.analyzers.callgraph import CallResolver, ResolvedSite, ResolvedTarget
from dure.analyzers.evaluator import Evaluator
from dure.analyzers.model import Certainty
from dure.analyzers.program import Program
from dure.analyzers.summary import CallRecord, ModuleSummary
from dure.analyzers.values import Value

#: Below this many call records a repository is one half: a helper process would cost more than it saves.
#: Measured on 2 cores: at 3,600 records (pluggy) the helper saves 4 % of the wall time of ``dure index``,
#: at 10,000 (rich) 11 %; resolving in halves in one process costs 2-6 % more there.
SPLIT_MINIMUM = 4000

#: A site's targets as they cross between processes: callee, certainty, offset.
EncodedTargets = tuple[tuple[str, str, int], ...]
#: A site as it crosses between processes: module, position among the module's sites, targets and whether
#: its first resolution read a parameter.
EncodedSite = tuple[str, int, EncodedTargets, bool]


@dataclass(frozen=True, slots=True)
class SitesResolved:
    sites: list[ResolvedSite]  # the first pass's sites in module order, then those the flow pass resolved
    escaped: frozenset[str]  # definitions used as values: unknown code may call them
    changed: list[ResolvedSite]  # the sites whose targets the flow pass set: the only ones with new callees


class Afterwards(Protocol):
    """Work for the helper once it has sent its half (this process then computes the remaining facts
    alone), such as writing cache entries."""

    def run(self) -> None:
        """In the helper: do the work."""

    def handed_to(self, pid: int) -> None:
        """In this process: the helper ``pid`` took the work. Not called when no helper ran or it failed
        before its half was sent: the work is then this process's to do."""


def resolve_sites(
    program: Program,
    evaluator: Evaluator,
    *,
    helper: bool,
    afterwards: Afterwards | None = None,
    meanwhile: Callable[[], None] = lambda: None,
) -> SitesResolved:
    """Every call site of ``program``, resolved. ``evaluator`` resolves the first half and keeps its
    memo; ``helper``: the second half may run in a forked process, which then does ``afterwards``.
    ``meanwhile``: work on ``evaluator`` that needs no call site, done once the first half's flow pass is
    over (while the helper finishes its half), so that the evaluator has the same memo for it either way."""
    first, second = split(program.summaries)
    half = _Half(program, evaluator, first)
    if not second:
        escaped = half.first_pass()
        half.note_callers(escaped, None)
        late = half.flow()
        meanwhile()
        resolved = SitesResolved(
            [*half.calls.sites, *late], frozenset(escaped), [*half.calls.reresolved(), *late]
        )
    else:
        plan = _Plan(program, second, meanwhile)
        resolved = _with_helper(plan, half, afterwards) if helper and may_fork() else _here(plan, half)
    half.calls.follow_new_callers(resolved.sites, resolved.changed)  # here: the same in every process
    return resolved


def splits(summaries: Mapping[str, ModuleSummary]) -> bool:
    """Whether the modules are resolved in two halves (else in one)."""
    return sum(len(s.calls) for s in summaries.values()) >= SPLIT_MINIMUM


def split(summaries: Mapping[str, ModuleSummary]) -> tuple[list[str], list[str]]:
    """The modules in two halves of about equal work (value uses and call records), each in name order;
    the second is empty for a small repository.

    The halves are runs of the modules in name order, cut where the work before and after is most even:
    an edit that changes the work of some modules moves at most the modules next to the cut from one half
    to the other, so the other modules are resolved in the same company as before (see the module
    docstring: what a half resolves depends a little on what else it resolved)."""
    modules = sorted(summaries)
    if not splits(summaries):
        return modules, []
    costs = [len(summaries[m].uses) + len(summaries[m].calls) + 1 for m in modules]
    total = sum(costs)
    best, best_gap, before = 1, total, 0
    for cut in range(1, len(modules)):
        before += costs[cut - 1]
        gap = abs(total - 2 * before)
        if gap < best_gap:
            best, best_gap = cut, gap
    return modules[:best], modules[best:]


class _Half:
    """One half's resolver, with its own evaluator."""

    def __init__(self, program: Program, evaluator: Evaluator, modules: list[str]) -> None:
        self.program = program
        self.modules = modules
        self.calls = CallResolver(program, evaluator)

    def first_pass(self) -> set[str]:
        """Resolve this half's sites with parameters unknown; return the definitions its modules use as
        values."""
        escaped = escapes(self.program, self.calls.evaluator, self.modules)
        self.calls.first_pass(self.modules)
        return escaped

    def note_callers(self, escaped: set[str], every_site: list[ResolvedSite] | None) -> None:
        """Before the flow pass: the first pass's escapes and sites of both halves (None: this half is
        all). Both halves note them before either re-resolves a site."""
        self.calls.escaped_callers = escaped
        self.calls.note_callers(every_site)

    def flow(self) -> list[ResolvedSite]:
        return self.calls.flow()


def escapes(program: Program, evaluator: Evaluator, modules: Iterable[str]) -> set[str]:
    """The definitions that the value uses of ``modules`` may hand to code the index does not see, and
    those decorated by a function of the repository that keeps them (see :func:`_keeps_first_parameter`)."""
    escaped: set[str] = set()
    keeps: dict[Value, bool] = {}
    for module in modules:
        summary = program.summaries[module]
        for use in summary.uses:
            for value in evaluator.evaluate(use.ref, (module, use.scope)).values:
                if value[0] in ("F", "C", "M"):
                    escaped.add(value[1])
        for record in summary.calls:
            if record.kind != "deco":
                continue
            key = (module, record.scope)
            decorators = evaluator.evaluate(record.func, key).values
            if any(v[0] == "F" and _keeps_first_parameter(program, v, keeps) for v in decorators):
                handed = evaluator.evaluate(record.args[0], key).values
                escaped.update(v[1] for v in handed if v[0] in ("F", "C"))
    return escaped


def _keeps_first_parameter(program: Program, function: Value, known: dict[Value, bool]) -> bool:
    """Whether ``function`` (a function value) may keep what it is handed as first argument where other
    code can reach it (``registry[name] = f``, ``register(f)``, ``functools.wraps(f)``): its body or a
    nested one uses that parameter as a value other than by returning it (an identity decorator keeps
    nothing)."""
    found = known.get(function)
    if found is None:
        found = known[function] = _uses_first_parameter(program, function[1], bound=bool(function[2]))
    return found


def _uses_first_parameter(program: Program, function: str, *, bound: bool) -> bool:
    key = program.def_scope.get(function)
    if key is None:
        return False
    summary = program.summaries[key[0]]
    scope = summary.scopes[key[1]]
    first = 1 if bound or scope.method_kind == "class" else 0  # past ``self`` or ``cls``
    if len(scope.params) <= first:
        return False
    ref = ("n", scope.params[first].name)
    uses = sum(1 for use in summary.uses if use.ref == ref and _within(summary, use.scope, scope.id))
    return uses > scope.returns.count(ref)


def _within(summary: ModuleSummary, scope_id: int, ancestor: int) -> bool:
    """Whether scope ``scope_id`` is ``ancestor`` or nested in it."""
    current: int | None = scope_id
    while current is not None:
        if current == ancestor:
            return True
        current = summary.scopes[current].parent
    return False


@dataclass(frozen=True, slots=True)
class _Plan:
    """Resolving in two halves: the program, the second half's modules, what to do meanwhile."""

    program: Program
    second: list[str]
    meanwhile: Callable[[], None]


def _here(
    plan: _Plan,
    half: _Half,
    *,
    done: tuple[set[str], list[EncodedSite]] | None = None,
    late: list[ResolvedSite] | None = None,
) -> SitesResolved:
    """The second half in this process, with an evaluator of its own, and what remains of the first: its
    first pass unless ``done`` (its escapes and sites), its flow pass and ``meanwhile`` unless ``late``
    (what that resolved; the flow pass re-resolved the first half's sites, so the second half counts callers
    from ``done``)."""
    program = plan.program
    other = _Half(program, Evaluator(program), plan.second)
    escaped = half.first_pass() if done is None else done[0]
    escaped = escaped | other.first_pass()
    first_sites = half.calls.sites if late is None else _Decoder(other.calls).sites(done[1] if done else [])
    every_site = _in_order(program, first_sites, other.calls.sites)
    other.note_callers(escaped, every_site)
    if late is None:
        half.note_callers(escaped, every_site)
        late = half.flow()
        plan.meanwhile()
    other_late = other.flow()
    return SitesResolved(
        [*_in_order(program, half.calls.sites, other.calls.sites), *_in_order(program, late, other_late)],
        frozenset(escaped),
        [*half.calls.reresolved(), *other.calls.reresolved(), *late, *other_late],
    )


def _with_helper(plan: _Plan, half: _Half, afterwards: Afterwards | None) -> SitesResolved:
    """The second half in a forked helper, at the same time as the first here. Should the helper fail, the
    second half is resolved here after all, from the same state, to the same result."""
    from_helper, helper_sends = _pipe()
    helper_receives, to_helper = _pipe()
    pid = os.fork()
    if pid == 0:  # the helper
        from_helper.close()
        to_helper.close()
        code = 1
        try:
            _helper(plan, half.calls.evaluator, helper_receives, helper_sends)
            helper_sends.close()
            if afterwards is not None:
                afterwards.run()
            code = 0
        finally:
            os._exit(code)  # no atexit handlers, no flushing of the parent's buffers
    helper_sends.close()
    helper_receives.close()
    sent = False
    try:
        resolved, sent = _beside_helper(plan, half, from_helper, to_helper)
        return resolved
    finally:
        for end in (from_helper, to_helper):
            with contextlib.suppress(OSError):  # a helper that died leaves unwritten bytes behind
                end.close()
        if sent and afterwards is not None:
            afterwards.handed_to(pid)
        else:
            _reap(pid, stop=not sent)


def _pipe() -> tuple[BinaryIO, BinaryIO]:
    """The reading and writing ends of a pipe, as files that pickles are loaded from and dumped to."""
    read, write = os.pipe()
    return os.fdopen(read, "rb"), os.fdopen(write, "wb")


def _beside_helper(plan: _Plan, half: _Half, receive: BinaryIO, send: BinaryIO) -> tuple[SitesResolved, bool]:
    """The first half here, the second from the helper; and whether the helper sent all of it."""
    program = plan.program
    escaped = half.first_pass()
    ours = (escaped, _encode(half.calls.sites))
    theirs = _receive(receive)
    if theirs is None or not _send(send, ours):
        return _here(plan, half, done=ours), False
    other_escaped, other_encoded = theirs
    decoder = _Decoder(half.calls)
    their_sites = decoder.sites(other_encoded)
    every_site = _in_order(program, half.calls.sites, their_sites)
    escaped = escaped | other_escaped
    half.note_callers(escaped, every_site)
    late = half.flow()
    plan.meanwhile()
    final = _receive(receive)
    if final is None:
        return _here(plan, half, done=ours, late=late), False
    reresolved, other_late = final
    for index, targets in reresolved:
        their_sites[index].targets = _decode_targets(targets)
    their_late = decoder.sites(other_late)
    resolved = SitesResolved(
        [*every_site, *_in_order(program, late, their_late)],
        frozenset(escaped),
        [*half.calls.reresolved(), *(their_sites[index] for index, _ in reresolved), *late, *their_late],
    )
    return resolved, True


def _helper(plan: _Plan, evaluator: Evaluator, receive: BinaryIO, send: BinaryIO) -> None:
    """The helper's side: its half's first pass, the swap (it sends first, then reads, so that neither
    process waits on a full pipe while the other writes), its flow pass."""
    program = plan.program
    half = _Half(program, evaluator, plan.second)
    escaped = half.first_pass()
    _dump(send, (escaped, _encode(half.calls.sites)))
    other_escaped, other_encoded = pickle.load(receive)
    every_site = _in_order(program, _Decoder(half.calls).sites(other_encoded), half.calls.sites)
    half.note_callers(escaped | other_escaped, every_site)
    late = half.flow()
    # what the flow pass changed: the targets of the sites it resolved again, by their place among the
    # sites sent before, and the sites it resolved
    place = {id(site): index for index, site in enumerate(half.calls.sites)}
    reresolved = [(place[id(site)], _encode_targets(site)) for site in half.calls.reresolved()]
    _dump(send, (reresolved, _encode(late)))


def _dump(send: BinaryIO, payload: object) -> None:
    pickle.dump(payload, send, protocol=pickle.HIGHEST_PROTOCOL)
    send.flush()


def _receive(receive: BinaryIO) -> tuple[Any, Any] | None:
    """What the helper sent, or None if it failed."""
    try:
        return pickle.load(receive)  # type: ignore[no-any-return]
    except (EOFError, OSError, pickle.UnpicklingError):
        return None


def _send(send: BinaryIO, payload: object) -> bool:
    try:
        _dump(send, payload)
    except OSError:
        return False
    return True


def _reap(pid: int, *, stop: bool) -> None:
    """Wait for the helper to exit; ``stop`` it first if it may still be running (it failed)."""
    try:
        if stop and os.waitpid(pid, os.WNOHANG)[0] == 0:
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ChildProcessError, ProcessLookupError):
        pass


def _in_order(program: Program, *parts: Sequence[ResolvedSite]) -> list[ResolvedSite]:
    """Sites of both halves in the order one resolver would have found them: by module, then position."""
    rank = program.module_rank
    merged = [site for part in parts for site in part]
    merged.sort(key=lambda site: (rank[site.module], site.position))
    return merged


def _encode(sites: Iterable[ResolvedSite]) -> list[EncodedSite]:
    return [(site.module, site.position, _encode_targets(site), site.reads_parameters) for site in sites]


def _encode_targets(site: ResolvedSite) -> EncodedTargets:
    return tuple([(t.callee, t.certainty.value, t.offset) for t in site.targets])


_CERTAINTIES = {certainty.value: certainty for certainty in Certainty}


def _decode_targets(targets: EncodedTargets) -> list[ResolvedTarget]:
    return [ResolvedTarget(callee, _CERTAINTIES[certainty], offset) for callee, certainty, offset in targets]


class _Decoder:
    """Sites sent by the other half, rebuilt on the records of this process's summaries."""

    def __init__(self, calls: CallResolver) -> None:
        self.calls = calls
        self._records: dict[str, list[CallRecord]] = {}

    def sites(self, encoded: Iterable[EncodedSite]) -> list[ResolvedSite]:
        sites = []
        for module, position, targets, reads in encoded:
            records = self._records.get(module)
            if records is None:
                records = self._records[module] = self.calls.records(module)
            record = records[position]
            sites.append(
                ResolvedSite(
                    record,
                    module,
                    (module, record.scope),
                    _decode_targets(targets),
                    reads,
                    position,
                )
            )
        return sites

#!/usr/bin/env python3
"""Call edges against what really runs: each corpus package's own tests under the call recorder.

A certain edge claims that whenever its call site runs, it calls that target. For every package of a corpus
whose tests run here, the tests run once in the sandbox under dure's call recorder, which notes each call
between the package's own functions with the line of the caller that made it, and with the span of the
instruction that made it (:func:`dure.analyzers.runtime.collect_evidence`). A certain edge to one of the
package's functions is *checked* where the run made a call from its site: from the span of the site's call
expression, when no other call starts where it does (*by span*: the call instruction itself ran, whatever
else its line holds), else from its line, when the index has no other call site on that line of that
caller. It is *confirmed* when the target was called from there, and *contradicted* otherwise.
Contradictions are listed for review: checked by its line, a site can run and still not reach its call (an
exception raised while evaluating the arguments, a branch of ``x if c else f()`` written on one line with
another call).

The same run measures what the index misses. Each call the tests made between the package's functions, from
a line of the caller where the index has call sites, is *found certain* or *found possible* when one of
those sites has the callee as a target of that certainty, *unresolved* when it has none but one of them is
unresolved (the index said it does not know), and *missed* otherwise: a call the index claims it knows all
the targets of went elsewhere. Misses are listed for review. Calls from a line with no site of the index
(the recorder names the line an instruction runs on: a call spread over lines, a decorator) are counted
apart, as *elsewhere*.

The tasks rest on answers more than on edges: ``callers(f)`` and ``callees(f)`` as the generators ask them
(:mod:`dure.generators.callers`), where the index says its answer is certain. Such an answer is *exercised*
when the tests called its subject (callers) or saw it call one of the package's functions (callees), and
*contradicted* by a call the tests made that the answer lacks (for callees, special methods and the
functions classes bind as one are not asked). Contradicted answers are listed for review.

Left out, since the recorder cannot see them called: targets that are classes (a class without
``__init__``: no Python frame runs), generator and coroutine functions (calling one runs none of its code)
and functions under a caching decorator (a cache hit skips the body).

Usage::

    python benchmarks/certain_at_runtime.py [--corpus default|main|heldout|FILE] [--packages a,b]
                                            [--out benchmarks/results/certain_at_runtime.md]

Test dependencies must be installed in the test interpreter (this one, or ``$DURE_TEST_PYTHON``); a package
whose tests cannot run is reported with the reason.
"""

from __future__ import annotations

import argparse
import ast
import json
import platform
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from dure.analyzers import RepoIndex, build_index
from dure.analyzers.model import CallSite, Certainty, DefinitionKind
from dure.analyzers.queries import callee_doubts, caller_doubts
from dure.analyzers.runtime import collect_evidence
from dure.corpus import Repository
from dure.corpus.manifest import load_manifest
from dure.corpus.resolve import fetch_many
from dure.generators.pipeline import module_files

HERE = Path(__file__).resolve().parent
FUNCTIONS = frozenset({DefinitionKind.FUNCTION, DefinitionKind.METHOD})
UNRESOLVED = Certainty.UNRESOLVED
CACHING = ("cache", "lru_cache", "cached", "memoize")


@dataclass(frozen=True, slots=True)
class Contradiction:
    caller: str
    line: int
    callee: str
    file: str
    observed: tuple[str, ...]  # what the caller called from that line


@dataclass(frozen=True, slots=True)
class Miss:
    caller: str
    line: int
    callee: str
    file: str
    known: tuple[str, ...]  # the targets the index has at that line (certain or possible)


@dataclass(frozen=True, slots=True)
class Observed:
    """The calls the tests made between the package's functions, by what the index has for each."""

    certain: int = 0
    possible: int = 0
    unresolved: int = 0
    missed: tuple[Miss, ...] = field(default_factory=tuple)
    elsewhere: int = 0  # made from a line where the index has no call site

    @property
    def at_sites(self) -> int:
        return self.certain + self.possible + self.unresolved + len(self.missed)


@dataclass(frozen=True, slots=True)
class WrongAnswer:
    query: str  # callers or callees
    subject: str
    file: str
    lacking: tuple[str, ...]  # the callers (callees) the tests showed and the answer lacks


@dataclass(frozen=True, slots=True)
class Answers:
    """The certain answers of one query over the package's functions, against the calls the tests made."""

    certain: int = 0
    exercised: int = 0
    contradicted: tuple[WrongAnswer, ...] = field(default_factory=tuple)


@dataclass(frozen=True, slots=True)
class PackageResult:
    name: str
    version: str
    error: str | None = None
    passed: int = 0
    failed: int = 0
    certain: int = 0  # certain edges to the package's own functions
    checked: int = 0
    confirmed: int = 0
    contradicted: tuple[Contradiction, ...] = field(default_factory=tuple)
    by_span: int = 0  # of the checked edges, those told apart from their line's other calls by their span
    observed: Observed = field(default_factory=Observed)
    callers: Answers = field(default_factory=Answers)
    callees: Answers = field(default_factory=Answers)


def lazy_functions(index: RepoIndex) -> set[str]:
    """Generator and coroutine functions: their own body (not a nested one) yields, or they are async."""
    lazy = {d.qualname for d in index.definitions.values() if d.is_async}
    by_file: dict[str, dict[int, str]] = defaultdict(dict)
    for d in index.definitions.values():
        if d.kind in FUNCTIONS:
            by_file[d.file][d.line] = d.qualname
    for relpath, starts in by_file.items():
        try:
            tree = ast.parse((index.root / relpath).read_bytes())
        except (OSError, SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _yields(node):
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                name = starts.get(node.lineno) or starts.get(first)
                if name is not None:
                    lazy.add(name)
    return lazy


def _yields(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    pending: list[ast.AST] = list(function.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Yield | ast.YieldFrom):
            return True
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            pending.extend(ast.iter_child_nodes(node))
    return False


def check(repository: Repository) -> PackageResult:
    version = repository.version or "local"
    tests = repository.spec.tests if repository.spec is not None else None
    if tests is None:
        return PackageResult(repository.name, version, error="no test command")
    index = build_index(repository.root, cache=False)
    evidence = collect_evidence(repository.root, tests, module_of=module_files(index))
    if evidence.error is not None:
        return PackageResult(repository.name, version, error=evidence.error)
    observed: dict[tuple[str, int], set[str]] = defaultdict(set)
    for caller, line, callee in evidence.sites:
        observed[(caller, line)].add(callee)
    at_span: dict[tuple[str, int, int, int, int], set[str]] = defaultdict(set)
    for caller, line, column, end, end_column, callee in evidence.positions:
        at_span[(caller, line, column, end, end_column)].add(callee)
    spans = call_spans(repository.root, _files(index))
    sites_per_line = Counter((site.caller, site.line) for site in index.call_sites)
    sites_per_start = Counter((site.caller, site.line, site.column) for site in index.call_sites)
    lazy = lazy_functions(index)
    definitions = index.definitions
    certain = checked = by_span = confirmed = 0
    contradicted: list[Contradiction] = []
    for site in index.call_sites:
        for edge in site.targets:
            target = definitions.get(edge.callee)
            if edge.certainty is not Certainty.CERTAIN or target is None or target.kind not in FUNCTIONS:
                continue
            certain += 1
            if edge.callee in lazy or _caches(target.decorators):
                continue
            found = _called_from(site, spans, sites_per_start, at_span)
            if found is not None:
                by_span += 1
            elif sites_per_line[(site.caller, site.line)] == 1:
                found = observed.get((site.caller, site.line))
            if not found:
                continue
            checked += 1
            if edge.callee in found:
                confirmed += 1
            else:
                contradicted.append(
                    Contradiction(site.caller, site.line, edge.callee, site.file, tuple(sorted(found)))
                )
    return PackageResult(
        repository.name,
        version,
        None,
        evidence.passed,
        evidence.failed,
        certain,
        checked,
        confirmed,
        tuple(sorted(contradicted, key=lambda c: (c.file, c.line, c.callee))),
        by_span,
        observed_calls(
            index,
            evidence.sites,
            lazy,
            method_call_starts(repository.root, _files(index)),
            calls_made_by(index, evidence.positions, spans),
        ),
        *certain_answers(index, evidence.sites, lazy),
    )


def certain_answers(
    index: RepoIndex, sites: Iterable[tuple[str, int, str]], lazy: set[str]
) -> tuple[Answers, Answers]:
    """The certain ``callers`` and ``callees`` answers of the package's functions, as the generators ask
    them, against the calls the tests made (calls of generator functions left out: see the docstring)."""
    definitions = index.definitions
    into: dict[str, set[str]] = defaultdict(set)
    out_of: dict[str, set[str]] = defaultdict(set)
    for caller, _, callee in sites:
        if callee not in lazy and caller in definitions and callee in definitions:
            into[callee].add(caller)
            out_of[caller].add(callee)
    by_caller, by_callee = index.sites_by_caller(), index.sites_by_callee()
    answers: dict[str, list[int]] = {"callers": [0, 0], "callees": [0, 0]}
    wrong: dict[str, list[WrongAnswer]] = {"callers": [], "callees": []}
    for subject in sorted(q for q, d in definitions.items() if d.kind in FUNCTIONS):
        file = definitions[subject].file
        if not caller_doubts(index, subject):
            answers["callers"][0] += 1
            if into[subject]:
                answers["callers"][1] += 1
                allowed = {site.caller for site, _ in by_callee.get(subject, ())}
                lacking = tuple(sorted(into[subject] - allowed))
                if lacking:
                    wrong["callers"].append(WrongAnswer("callers", subject, file, lacking))
        if not callee_doubts(index, subject):
            answers["callees"][0] += 1
            asked = {
                callee
                for callee in out_of[subject]
                if not _special(callee) and callee not in index.special_implementations
            }
            if asked:
                answers["callees"][1] += 1
                allowed = {
                    target.callee
                    for site in by_caller.get(subject, ())
                    for target in site.targets
                    if target.certainty is not Certainty.UNRESOLVED
                }
                lacking = tuple(sorted(asked - allowed))
                if lacking:
                    wrong["callees"].append(WrongAnswer("callees", subject, file, lacking))
    return (
        Answers(*answers["callers"], tuple(wrong["callers"])),
        Answers(*answers["callees"], tuple(wrong["callees"])),
    )


def _special(qualname: str) -> bool:
    """A special method (``__init__``): callees questions do not ask for them, nor for the functions bound
    as one (see the generators)."""
    name = qualname.rpartition(".")[2]
    return name.startswith("__") and name.endswith("__") and len(name) > 4


Span = tuple[int, int, int, int]  # line, column, end line, end column


def _called_from(
    site: CallSite,
    spans: dict[tuple[str, int, int], tuple[Span, ...]],
    sites_per_start: Counter[tuple[str, int, int]],
    at_span: dict[tuple[str, int, int, int, int], set[str]],
) -> set[str] | None:
    """What the tests called from the expression of an explicit call ``site``, told apart from the other
    calls of its line by its span; None when the span does not name it alone (another site starts where it
    does, a decorator) or nothing was called from there."""
    if site.implicit or sites_per_start[(site.caller, site.line, site.column)] != 1:
        return None
    found: set[str] = set()
    for span in spans.get((site.file, site.line, site.column), ()):
        found |= at_span.get((site.caller, *span), set())
    return found or None


def call_spans(root: Path, files: Iterable[str]) -> dict[tuple[str, int, int], tuple[Span, ...]]:
    """``(file, line, column) -> spans``: for each call that is the only one starting at its place, the spans
    the interpreter may give the instruction that makes it (the recorder's ``positions``): the call's own,
    and for a method name on another line than the call's start, the same span from the method name (how
    Python 3.11 and later place a method call). Decorators are left out: the call applying one has the
    decorator's span, shared with a call in it."""
    spans: dict[tuple[str, int, int], tuple[Span, ...]] = {}
    for file in files:
        try:
            tree = ast.parse((root / file).read_bytes())
        except (OSError, SyntaxError, ValueError):
            continue
        decorators = {
            id(decorator)
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            for decorator in node.decorator_list
        }
        calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
        starts = Counter((node.lineno, node.col_offset) for node in calls)
        for node in calls:
            if (
                id(node) in decorators
                or starts[(node.lineno, node.col_offset)] != 1
                or node.end_lineno is None
            ):
                continue
            end = (node.end_lineno, node.end_col_offset or 0)
            found = [(node.lineno, node.col_offset, *end)]
            func = node.func
            if isinstance(func, ast.Attribute) and func.end_lineno not in (None, node.lineno):
                name_column = (func.end_col_offset or 0) - len(func.attr)
                found.append((func.end_lineno or node.lineno, name_column, *end))
            spans[(file, node.lineno, node.col_offset)] = tuple(found)
    return spans


def method_call_starts(root: Path, files: Iterable[str]) -> dict[tuple[str, int], tuple[int, ...]]:
    """``(file, line) -> lines``: the lines where the method calls whose method name is on ``line`` start,
    for calls spread over lines (``rrule(...)\n.after(dt)``). The recorder names a method call by the line
    of its method name (Python 3.11 and later), the index by the line the call starts on."""
    starts: dict[tuple[str, int], set[int]] = defaultdict(set)
    for file in files:
        try:
            tree = ast.parse((root / file).read_bytes())
        except (OSError, SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                name_line = node.func.end_lineno or node.lineno
                if name_line != node.lineno:
                    starts[(file, name_line)].add(node.lineno)
    return {place: tuple(sorted(lines)) for place, lines in starts.items()}


def observed_calls(
    index: RepoIndex,
    sites: Iterable[tuple[str, int, str]],
    lazy: set[str],
    starts: dict[tuple[str, int], tuple[int, ...]] | None = None,
    made_by: dict[tuple[str, int, str], list[CallSite]] | None = None,
) -> Observed:
    """What the index has for each call the tests made (see the module docstring). ``starts`` (see
    :func:`method_call_starts`): a call made from the line of a method name counts at the line its call
    starts on too. ``made_by`` (see :func:`calls_made_by`): the calls whose spans name the sites that made
    them are judged by those sites alone, not by every site of their line."""
    targets: dict[tuple[str, int], dict[str, Certainty]] = defaultdict(dict)
    unresolved: set[tuple[str, int]] = set()
    files: dict[tuple[str, int], str] = {}
    for edge in index.edges():
        place = (edge.caller, edge.line)
        files[place] = edge.file
        if edge.certainty is Certainty.UNRESOLVED:
            unresolved.add(place)
        elif targets[place].get(edge.callee) is not Certainty.CERTAIN:
            targets[place][edge.callee] = edge.certainty
    definitions = index.definitions
    counts: Counter[str] = Counter()
    missed: list[Miss] = []
    for caller, line, callee in sorted(sites):
        if callee in lazy:
            continue
        makers = (made_by or {}).get((caller, line, callee))
        if makers:
            kind = _judged_by(makers, callee)
            if kind == "missed":
                known = tuple(
                    sorted({t.callee for s in makers for t in s.targets if t.certainty is not UNRESOLVED})
                )
                missed.append(Miss(caller, line, callee, makers[0].file, known))
            else:
                counts[kind] += 1
            continue
        definition = definitions.get(caller)
        earlier = (starts or {}).get((definition.file, line), ()) if definition is not None else ()
        places = [p for p in [(caller, line), *((caller, start) for start in earlier)] if p in files]
        found = {targets[p][callee] for p in places if callee in targets[p]}
        if not places:
            counts["elsewhere"] += 1
        elif found:
            counts[(Certainty.CERTAIN if Certainty.CERTAIN in found else Certainty.POSSIBLE).value] += 1
        elif any(p in unresolved for p in places):
            counts["unresolved"] += 1
        else:
            known = tuple(sorted({t for p in places for t in targets[p]}))
            missed.append(Miss(caller, line, callee, files[places[0]], known))
    return Observed(
        counts["certain"], counts["possible"], counts["unresolved"], tuple(missed), counts["elsewhere"]
    )


def _judged_by(makers: list[CallSite], callee: str) -> str:
    """``certain``, ``possible``, ``unresolved`` or ``missed``: what the sites that made a call say of it."""
    found = {
        t.certainty for s in makers for t in s.targets if t.callee == callee and t.certainty is not UNRESOLVED
    }
    if found:
        return (Certainty.CERTAIN if Certainty.CERTAIN in found else Certainty.POSSIBLE).value
    if any(t.certainty is UNRESOLVED for s in makers for t in s.targets):
        return "unresolved"
    return "missed"


def calls_made_by(
    index: RepoIndex,
    positions: Iterable[tuple[str, int, int, int, int, str]],
    spans: dict[tuple[str, int, int], tuple[Span, ...]],
) -> dict[tuple[str, int, str], list[CallSite]]:
    """``(caller, line, callee) -> sites``: the explicit call sites that made the calls of a caller's line to
    a callee, found by the spans of the instructions that made them, with the sites inside their spans (in
    ``set(map(f, xs))``, ``set`` calls ``f`` through the iterator ``map`` made); only where every such call
    has a span that names a site (see :func:`call_spans`)."""
    starts = Counter((site.caller, site.line, site.column) for site in index.call_sites)
    by_span: dict[tuple[str, int, int, int, int], CallSite] = {}
    for site in index.call_sites:
        if not site.implicit and starts[(site.caller, site.line, site.column)] == 1:
            for span in spans.get((site.file, site.line, site.column), ()):
                by_span[(site.caller, *span)] = site
    by_caller: dict[str, list[CallSite]] = defaultdict(list)
    for site in index.call_sites:
        by_caller[site.caller].append(site)
    made_by: dict[tuple[str, int, str], list[CallSite]] = defaultdict(list)
    unnamed: set[tuple[str, int, str]] = set()
    for caller, line, column, end, end_column, callee in positions:
        site = by_span.get((caller, line, column, end, end_column))
        if site is None:
            unnamed.add((caller, line, callee))
            continue
        inside = ((site.line, site.column), (end, end_column))
        made_by[(caller, line, callee)].extend(
            other for other in by_caller[caller] if inside[0] <= (other.line, other.column) < inside[1]
        )
    return {call: sites for call, sites in made_by.items() if call not in unnamed}


def _files(index: RepoIndex) -> set[str]:
    return {definition.file for definition in index.definitions.values()}


def _caches(decorators: Iterable[str]) -> bool:
    return any(d.split("(")[0].rpartition(".")[2] in CACHING for d in decorators)


def repositories(corpus: str, names: Sequence[str]) -> list[Repository]:
    manifest = load_manifest(corpus)
    wanted = [p for p in manifest.packages if not names or p.name in names]
    found = []
    for outcome in fetch_many(wanted):
        if outcome.root is not None:
            found.append(Repository(outcome.spec.name, outcome.spec.version, outcome.root, outcome.spec))
        else:
            print(f"skipped {outcome.spec.key}: {outcome.error}", file=sys.stderr)
    return found


def markdown(corpus: str, results: Sequence[PackageResult]) -> str:
    ran = [r for r in results if r.error is None]
    checked = sum(r.checked for r in ran)
    confirmed = sum(r.confirmed for r in ran)
    lines = [
        "# Certain call edges against the packages' own test runs",
        "",
        f"Corpus `{corpus}`, Python {platform.python_version()}. A certain edge to one of the package's "
        "functions is checked where the tests made a call from its site: from the span of its call "
        "expression (*by span*), else from its line when the index has no other site on that line (see "
        "`benchmarks/certain_at_runtime.py`).",
        "",
        "| package | tests passed | failed | certain edges | checked | by span | confirmed | contradicted |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in results:
        if r.error is not None:
            reason = " ".join(r.error.split())[:160].replace("|", "/")
            lines.append(f"| {r.name} {r.version} | not run: {reason} | | | | | | |")
        else:
            lines.append(
                f"| {r.name} {r.version} | {r.passed} | {r.failed} | {r.certain} | {r.checked} | "
                f"{r.by_span} | {r.confirmed} | {len(r.contradicted)} |"
            )
    share = f"{confirmed / checked:.2%}" if checked else "-"
    lines += [
        "",
        f"**{len(ran)} packages ran: {confirmed} of {checked} checked certain edges confirmed ({share}).**",
    ]
    contradictions = [(r.name, c) for r in ran for c in r.contradicted]
    if contradictions:
        lines += ["", "## Contradicted (to review)", ""]
        for name, c in contradictions:
            seen = ", ".join(c.observed) or "nothing"
            lines.append(
                f"- {name}: `{c.caller}` line {c.line} ({c.file}) → `{c.callee}`; called from there: {seen}"
            )
    return "\n".join([*lines, *observed_section(ran), *answers_section(ran)]) + "\n"


#: Misses listed per package in the Markdown report (the JSON report has them all).
LISTED_MISSES = 25


def observed_section(ran: Sequence[PackageResult]) -> list[str]:
    """The calls the tests made, by what the index has for each (see the module docstring)."""
    lines = [
        "",
        "## Calls the tests made",
        "",
        "Each call between the package's functions that the tests made from a line where the index has call "
        "sites: found as a certain or possible target there, left unresolved there, or missed (every site on "
        "the line resolved, none to the callee). *Elsewhere*: made from a line with no site of the index.",
        "",
        "| package | calls at sites | certain | possible | unresolved | missed | elsewhere |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    total = Observed()
    for r in ran:
        o = r.observed
        lines.append(
            f"| {r.name} {r.version} | {o.at_sites} | {o.certain} | {o.possible} | {o.unresolved} | "
            f"{len(o.missed)} | {o.elsewhere} |"
        )
        total = Observed(
            total.certain + o.certain,
            total.possible + o.possible,
            total.unresolved + o.unresolved,
            (*total.missed, *o.missed),
            total.elsewhere + o.elsewhere,
        )
    if total.at_sites:
        found = total.certain + total.possible
        lines += [
            "",
            f"**{total.at_sites} calls at sites: {found} found ({found / total.at_sites:.2%}; certain "
            f"{total.certain / total.at_sites:.2%}), {total.unresolved} unresolved, {len(total.missed)} "
            f"missed ({len(total.missed) / total.at_sites:.2%}).**",
        ]
    misses = [(r.name, m) for r in ran for m in r.observed.missed[:LISTED_MISSES]]
    if misses:
        lines += ["", f"### Missed (to review; at most {LISTED_MISSES} per package)", ""]
        for name, m in misses:
            known = ", ".join(f"`{k}`" for k in m.known) or "nothing"
            where = f"`{m.caller}` line {m.line} ({m.file})"
            lines.append(f"- {name}: {where} → `{m.callee}`; the index has {known}")
    return lines


def answers_section(ran: Sequence[PackageResult]) -> list[str]:
    """The certain ``callers``/``callees`` answers against the tests (see the module docstring)."""
    lines = [
        "",
        "## Certain answers",
        "",
        "The `callers` and `callees` answers of the package's functions that the index calls certain, as the "
        "generators ask them: *exercised* when the tests called the subject (callers) or saw it call one of "
        "the package's functions (callees; special methods, and functions bound as one, not asked), "
        "*contradicted* by a call the tests made that the answer lacks.",
        "",
        "| package | callers certain | exercised | contradicted | callees certain | exercised "
        "| contradicted |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    totals = [0] * 6
    for r in ran:
        row = [
            r.callers.certain,
            r.callers.exercised,
            len(r.callers.contradicted),
            r.callees.certain,
            r.callees.exercised,
            len(r.callees.contradicted),
        ]
        totals = [a + b for a, b in zip(totals, row, strict=True)]
        lines.append(f"| {r.name} {r.version} | " + " | ".join(str(n) for n in row) + " |")
    lines += [
        "",
        f"**callers: {totals[1] - totals[2]} of {totals[1]} exercised certain answers hold; callees: "
        f"{totals[4] - totals[5]} of {totals[4]}.**",
    ]
    wrong = [(r.name, w) for r in ran for w in (*r.callers.contradicted, *r.callees.contradicted)]
    if wrong:
        lines += ["", f"### Contradicted (to review; at most {LISTED_MISSES} per package)", ""]
        shown: Counter[str] = Counter()
        for name, w in wrong:
            shown[name] += 1
            if shown[name] <= LISTED_MISSES:
                lacking = ", ".join(f"`{x}`" for x in w.lacking[:KNOWN_IN_JSON])
                lines.append(f"- {name}: {w.query}(`{w.subject}`) ({w.file}) lacks {lacking}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--corpus", default="default", help="default, main, heldout or a manifest file")
    parser.add_argument("--packages", default="", help="comma-separated package names (default: all)")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "certain_at_runtime.md")
    args = parser.parse_args(argv)
    names = [n for n in args.packages.split(",") if n]
    results = []
    for repository in repositories(args.corpus, names):
        print(f"{repository.name}: indexing, running its tests ...", file=sys.stderr, flush=True)
        result = check(repository)
        outcome = result.error or (
            f"{result.confirmed}/{result.checked} confirmed, "
            f"{len(result.observed.missed)}/{result.observed.at_sites} observed calls missed, "
            f"certain answers contradicted: callers {len(result.callers.contradicted)}/"
            f"{result.callers.exercised}, callees "
            f"{len(result.callees.contradicted)}/{result.callees.exercised}"
        )
        print(f"  {outcome}", file=sys.stderr)
        results.append(result)
    report = markdown(args.corpus, results)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(report, encoding="utf-8")
    args.out.with_suffix(".json").write_text(
        "[\n" + ",\n".join(json.dumps(_for_json(r), separators=(",", ":")) for r in results) + "\n]\n",
        encoding="utf-8",
    )
    print(report, end="")
    return 0


#: What the JSON results keep of the misses: the first of a package's, and of each the first targets of its
#: line (an operator's line may have dozens), with their numbers.
MISSES_IN_JSON = 300
KNOWN_IN_JSON = 8


def _for_json(result: PackageResult) -> dict[str, object]:
    """One package's result, one line of JSON (the Markdown report lists the misses to review)."""
    data = asdict(result)
    observed = data["observed"]
    observed["missed_count"] = len(observed["missed"])
    observed["missed"] = observed["missed"][:MISSES_IN_JSON]
    for miss in observed["missed"]:
        miss["known_count"] = len(miss["known"])
        miss["known"] = miss["known"][:KNOWN_IN_JSON]
    for query in ("callers", "callees"):
        answers = data[query]
        answers["contradicted_count"] = len(answers["contradicted"])
        answers["contradicted"] = answers["contradicted"][:MISSES_IN_JSON]
        for wrong in answers["contradicted"]:
            wrong["lacking_count"] = len(wrong["lacking"])
            wrong["lacking"] = wrong["lacking"][:KNOWN_IN_JSON]
    return data


if __name__ == "__main__":
    raise SystemExit(main())

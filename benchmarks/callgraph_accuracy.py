#!/usr/bin/env python3
"""Accuracy of dure's call graph against PyCG-format ground truth.

The cases are not in this repository and this script downloads nothing: the user supplies a folder of
cases in the layout of PyCG's micro-benchmark (``micro-benchmark/snippets`` of the PyCG repository, or a
suite in the same format such as Jarvis's copy of it)::

    CASES/<category>/<case>/main.py          the entry module (other modules and packages beside it)
    CASES/<category>/<case>/callgraph.json   {"caller": ["callee", ...], ...}, names as PyCG writes them

Each case directory is indexed with ``build_index(case, cache=False)`` and dure's edges are mapped onto
PyCG's naming before they are compared with the ground truth:

* unresolved targets are not edges (they are counted per case, as ``unresolved``);
* a call of a class defined in the case becomes nothing: dure already names ``C.__init__`` (own or
  inherited) when there is one, and PyCG records no edge for a class without ``__init__``;
* ``builtins.f`` becomes ``<builtin>.f``; ``builtins.str.m`` becomes ``<**PyStr**>.m`` (likewise
  ``dict``, ``list``, ``set``, ``tuple``, ``int``, ``float``, ``bytes``);
* ``scope.<lambda:LINE>`` becomes PyCG's ``scope.<lambdaN>`` (N counts the lambdas of that scope in source
  order); several lambdas on one line make every one of them a candidate, the edge matching any.

Edges are (caller, callee) pairs; an edge reported at several call sites takes its strongest certainty.
Per category and overall: precision of the certain edges (a certain edge missing from the truth is the
worst failure), recall of certain edges and of certain + possible edges, and how many truth edges dure
reports only as possible, or not at all.

Usage::

    python benchmarks/callgraph_accuracy.py --cases DIR [--out benchmarks/results/callgraph_accuracy.md]
                                             [--json PATH] [--note TEXT]
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from dure.analyzers import build_index
from dure.analyzers.index import RepoIndex
from dure.analyzers.model import Certainty, DefinitionKind

Edge = tuple[str, str]

DEFAULT_OUT = Path(__file__).parent / "results" / "callgraph_accuracy.md"
BUILTIN_TYPES = {
    "str": "PyStr",
    "dict": "PyDict",
    "list": "PyList",
    "set": "PySet",
    "tuple": "PyTuple",
    "int": "PyInt",
    "float": "PyFloat",
    "bytes": "PyBytes",
}


@dataclass
class CaseResult:
    """One case: the truth, dure's normalised edges and how they compare."""

    category: str
    name: str
    truth: set[Edge]
    certain: set[Edge] = field(default_factory=set)  # normalised, matched candidate when one matched
    possible: set[Edge] = field(default_factory=set)  # possible and not also certain
    unresolved: int = 0
    dropped_class_calls: int = 0
    error: str | None = None

    @property
    def certain_false(self) -> list[Edge]:
        return sorted(self.certain - self.truth)

    @property
    def possible_only_truth(self) -> list[Edge]:
        return sorted((self.truth & self.possible) - self.certain)

    @property
    def missed(self) -> list[Edge]:
        return sorted(self.truth - self.certain - self.possible)


@dataclass
class Totals:
    """Sums over several cases."""

    cases: int = 0
    truth: int = 0
    certain: int = 0
    certain_true: int = 0
    possible: int = 0
    possible_true: int = 0
    possible_only_truth: int = 0
    missed: int = 0
    unresolved: int = 0

    def add(self, case: CaseResult) -> None:
        self.cases += 1
        self.truth += len(case.truth)
        self.certain += len(case.certain)
        self.certain_true += len(case.certain & case.truth)
        self.possible += len(case.possible)
        self.possible_true += len(case.possible & case.truth)
        self.possible_only_truth += len(case.possible_only_truth)
        self.missed += len(case.missed)
        self.unresolved += case.unresolved

    def as_row(self) -> dict[str, float | int | None]:
        found = self.certain_true + self.possible_true
        return {
            "cases": self.cases,
            "truth_edges": self.truth,
            "certain": self.certain,
            "certain_wrong": self.certain - self.certain_true,
            "certain_precision": _ratio(self.certain_true, self.certain),
            "certain_recall": _ratio(self.certain_true, self.truth),
            "possible": self.possible,
            "any_precision": _ratio(found, self.certain + self.possible),
            "any_recall": _ratio(found, self.truth),
            "truth_only_possible": self.possible_only_truth,
            "truth_missed": self.missed,
            "unresolved_sites": self.unresolved,
        }


def _ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def load_truth(path: Path) -> set[Edge]:
    graph: dict[str, list[str]] = json.loads(path.read_text())
    return {(caller, callee) for caller, callees in graph.items() for callee in callees}


def module_name(case: Path, file: Path) -> str:
    parts = list(file.relative_to(case).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


class _LambdaNamer(ast.NodeVisitor):
    """Records, per enclosing scope, the source lines of its lambdas in PyCG's numbering order."""

    def __init__(self, module: str, table: dict[tuple[str, int], list[str]]) -> None:
        self.scope = [module]
        self.counts: dict[str, int] = defaultdict(int)
        self.table = table

    def _enter(self, name: str, node: ast.AST) -> None:
        self.scope.append(name)
        self.generic_visit(node)
        self.scope.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._visit_def(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._visit_def(node)

    def _visit_def(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for child in [*node.decorator_list, *node.args.defaults, *node.args.kw_defaults]:
            if child is not None:
                self.visit(child)
        self.scope.append(node.name)
        for statement in node.body:
            self.visit(statement)
        self.scope.pop()

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._enter(node.name, node)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        scope = ".".join(self.scope)
        self.counts[scope] += 1
        name = f"{scope}.<lambda{self.counts[scope]}>"
        self.table[(scope, node.lineno)].append(name)
        self._enter(f"<lambda{self.counts[scope]}>", node)


def lambda_table(case: Path) -> dict[tuple[str, int], list[str]]:
    """(scope in PyCG's naming, line) -> PyCG names of the lambdas written there."""
    table: dict[tuple[str, int], list[str]] = defaultdict(list)
    for file in sorted(case.rglob("*.py")):
        try:
            tree = ast.parse(file.read_text(), str(file))
        except SyntaxError:
            continue
        _LambdaNamer(module_name(case, file), table).visit(tree)
    return table


def name_candidates(name: str, lambdas: dict[tuple[str, int], list[str]]) -> list[str]:
    """PyCG's name(s) for one of dure's qualified names."""
    if name.startswith("builtins."):
        rest = name.removeprefix("builtins.")
        owner, _, member = rest.partition(".")
        if member and owner in BUILTIN_TYPES:
            return [f"<**{BUILTIN_TYPES[owner]}**>.{member}"]
        return [f"<builtin>.{rest}"]
    if "<lambda:" not in name:
        return [name]
    parts = name.split(".")
    for position, part in enumerate(parts):
        if part.startswith("<lambda:"):
            scope = ".".join(candidate_scope(parts[:position], lambdas))
            line = int(part.removeprefix("<lambda:").rstrip(">").split(":")[0])
            found = lambdas.get((scope, line))
            if not found:
                return [name]
            tail = ".".join(parts[position + 1 :])
            return [f"{lam}.{tail}" if tail else lam for lam in found]
    return [name]


def candidate_scope(parts: list[str], lambdas: dict[tuple[str, int], list[str]]) -> list[str]:
    """Renames enclosing lambdas of a scope (``f.<lambda:3>``) to PyCG's first candidate."""
    if not any(part.startswith("<lambda:") for part in parts):
        return parts
    return name_candidates(".".join(parts), lambdas)[0].split(".")


def evaluate_case(case: Path, category: str) -> CaseResult:
    result = CaseResult(category, case.name, load_truth(case / "callgraph.json"))
    try:
        index = build_index(case, cache=False)
    except Exception as problem:  # report and go on: one broken case must not hide the others
        result.error = f"{type(problem).__name__}: {problem}"
        return result
    collect_edges(index, lambda_table(case), result)
    return result


def collect_edges(index: RepoIndex, lambdas: dict[tuple[str, int], list[str]], result: CaseResult) -> None:
    classes = {q for q, d in index.definitions.items() if d.kind is DefinitionKind.CLASS}
    for edge in index.edges():
        if edge.certainty is Certainty.UNRESOLVED:
            result.unresolved += 1
            continue
        if edge.callee in classes:
            result.dropped_class_calls += 1
            continue
        candidates = [
            (caller, callee)
            for caller in name_candidates(edge.caller, lambdas)
            for callee in name_candidates(edge.callee, lambdas)
        ]
        chosen = next((pair for pair in candidates if pair in result.truth), candidates[0])
        if edge.certainty is Certainty.CERTAIN:
            result.certain.add(chosen)
        else:
            result.possible.add(chosen)
    result.possible -= result.certain


def discover_cases(root: Path) -> list[tuple[str, Path]]:
    found = sorted(path.parent for path in root.rglob("callgraph.json"))
    return [(case.relative_to(root).parts[0] if case.parent != root else "-", case) for case in found]


def summarise(results: list[CaseResult]) -> dict[str, dict[str, float | int | None]]:
    by_category: dict[str, Totals] = defaultdict(Totals)
    overall = Totals()
    for case in results:
        if case.error is None:
            by_category[case.category].add(case)
            overall.add(case)
    table = {category: totals.as_row() for category, totals in sorted(by_category.items())}
    table["ALL"] = overall.as_row()
    return table


def case_details(case: CaseResult) -> dict[str, object]:
    return {
        "case": f"{case.category}/{case.name}",
        "error": case.error,
        "certain_not_in_truth": [list(edge) for edge in case.certain_false],
        "truth_only_possible": [list(edge) for edge in case.possible_only_truth],
        "truth_missed": [list(edge) for edge in case.missed],
        "possible_not_in_truth": [list(edge) for edge in sorted(case.possible - case.truth)],
        "unresolved_sites": case.unresolved,
        "class_calls_dropped": case.dropped_class_calls,
    }


COLUMNS = [
    ("category", "category"),
    ("cases", "cases"),
    ("truth_edges", "truth"),
    ("certain", "certain"),
    ("certain_wrong", "certain wrong"),
    ("certain_precision", "P(certain)"),
    ("certain_recall", "R(certain)"),
    ("possible", "possible"),
    ("any_precision", "P(cert+poss)"),
    ("any_recall", "R(cert+poss)"),
    ("truth_only_possible", "truth only possible"),
    ("truth_missed", "truth missed"),
    ("unresolved_sites", "unresolved"),
]


def _cell(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def render_markdown(
    table: dict[str, dict[str, float | int | None]], results: list[CaseResult], note: str = ""
) -> str:
    lines = ["# Call-graph accuracy against PyCG-format ground truth", ""]
    if note:
        lines += [note, ""]
    lines.append("| " + " | ".join(title for _, title in COLUMNS) + " |")
    lines.append("|" + " --- |" * len(COLUMNS))
    for category, row in table.items():
        cells = [f"**{category}**" if category == "ALL" else category]
        cells += [_cell(row[key]) for key, _ in COLUMNS[1:]]
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "## Certain edges missing from the truth", ""]
    lines += _edge_list(results, lambda case: case.certain_false)
    lines += ["", "## Truth edges reported only as possible", ""]
    lines += _edge_list(results, lambda case: case.possible_only_truth)
    lines += ["", "## Truth edges not reported", ""]
    lines += _edge_list(results, lambda case: case.missed)
    errors = [f"- `{c.category}/{c.name}`: {c.error}" for c in results if c.error]
    if errors:
        lines += ["", "## Cases that failed to index", "", *errors]
    return "\n".join(lines) + "\n"


def _edge_list(results: list[CaseResult], pick: Callable[[CaseResult], list[Edge]]) -> list[str]:
    out = [
        f"- `{case.category}/{case.name}`: `{caller}` -> `{callee}`"
        for case in results
        for caller, callee in pick(case)
    ]
    return out or ["(none)"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--cases", type=Path, required=True, help="folder of PyCG-format cases")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="Markdown report")
    parser.add_argument("--json", type=Path, default=None, help="also write every number and edge as JSON")
    parser.add_argument("--note", default="", help="a line under the title: where the cases came from")
    args = parser.parse_args(argv)
    if not args.cases.is_dir():
        parser.error(f"{args.cases}: not a directory")
    results = [evaluate_case(case, category) for category, case in discover_cases(args.cases)]
    table = summarise(results)
    markdown = render_markdown(table, results, args.note)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(markdown)
    if args.json is not None:
        payload = {"summary": table, "cases": [case_details(case) for case in results]}
        args.json.write_text(json.dumps(payload, indent=2) + "\n")
    sys.stdout.write(markdown)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

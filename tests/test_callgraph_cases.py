"""Ground-truth call-graph cases: ``tests/cases/callgraph/<category>/<case>/``.

Each case folder holds the input files, ``expected.json`` (schema: ``tests/cases/expected.schema.json``) and a
one-line ``README.md``. Two checks run over every case:

- ``test_index_matches_case``: the static index against the expectations (certain edges exactly, possible
  edges as possible, absent edges nowhere, unresolved sites, uncertainty records, queries);
- ``test_case_matches_runtime``: the expectations against a traced run of ``main.py``, so the ground truth
  itself is checked by what the code really does.
"""

from __future__ import annotations

import ast
import importlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from dure.analyzers import halves
from dure.analyzers.model import Certainty
from dure.analyzers.tracing import module_name, trace_module

CASES = Path(__file__).parent / "cases"
CALLGRAPH = CASES / "callgraph"
SCHEMA = json.loads((CASES / "expected.schema.json").read_text(encoding="utf-8"))
STRENGTH = {Certainty.UNRESOLVED: 0, Certainty.POSSIBLE: 1, Certainty.CERTAIN: 2}

Edge = tuple[str, str]


# -- a JSON Schema subset, enough for expected.schema.json --------------------------------------------------

_SCHEMA_TYPES: dict[str, Callable[[object], bool]] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
}
_SCHEMA_ANNOTATIONS = frozenset({"$schema", "$id", "$defs", "title", "description"})


def schema_errors(value: object, schema: Mapping[str, Any], path: str = "$") -> list[str]:
    """Errors of ``value`` against ``schema`` (the keywords of _SCHEMA_CHECKS)."""
    if "$ref" in schema:
        target: Any = SCHEMA
        for part in schema["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        return schema_errors(value, target, path)
    unknown = set(schema) - _SCHEMA_ANNOTATIONS - _SCHEMA_CHECKS.keys()
    if unknown:
        return [f"{path}: unsupported schema keywords {sorted(unknown)}"]
    errors: list[str] = []
    for keyword, check in _SCHEMA_CHECKS.items():
        if keyword in schema and not errors:
            errors.extend(check(value, schema, path))
    return errors


def _check_type(value: object, schema: Mapping[str, Any], path: str) -> list[str]:
    return [] if _SCHEMA_TYPES[schema["type"]](value) else [f"{path}: not a {schema['type']}"]


def _check_properties(value: Any, schema: Mapping[str, Any], path: str) -> list[str]:
    errors = [f"{path}: missing {key!r}" for key in schema.get("required", ()) if key not in value]
    for key, item in value.items():
        if key in schema["properties"]:
            errors += schema_errors(item, schema["properties"][key], f"{path}.{key}")
        elif schema.get("additionalProperties") is False:
            errors.append(f"{path}: unexpected key {key!r}")
    return errors


def _check_items(value: Any, schema: Mapping[str, Any], path: str) -> list[str]:
    errors = []
    if len(value) < schema.get("minItems", 0) or len(value) > schema.get("maxItems", len(value)):
        errors.append(f"{path}: wrong number of items ({len(value)})")
    for i, item in enumerate(value):
        errors += schema_errors(item, schema["items"], f"{path}[{i}]")
    return errors


_SCHEMA_CHECKS: dict[str, Callable[[Any, Mapping[str, Any], str], list[str]]] = {
    "type": _check_type,
    "properties": _check_properties,
    "items": _check_items,
    "enum": lambda v, s, p: [] if v in s["enum"] else [f"{p}: {v!r} not one of {s['enum']}"],
    "minLength": lambda v, s, p: [] if len(v) >= s["minLength"] else [f"{p}: too short"],
    "anyOf": lambda v, s, p: (
        [] if any(not schema_errors(v, o, p) for o in s["anyOf"]) else [f"{p}: no match"]
    ),
    # keywords checked together with "properties" and "items"
    "required": lambda v, s, p: [],
    "additionalProperties": lambda v, s, p: [],
    "minItems": lambda v, s, p: [],
    "maxItems": lambda v, s, p: [],
}


# -- cases --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    path: Path
    data: Mapping[str, Any]

    @property
    def id(self) -> str:
        return self.path.relative_to(CALLGRAPH).as_posix()

    def edges(self, key: str) -> set[Edge]:
        group = self.data["edges"] if key in ("certain", "possible") else self.data
        return {(a, b) for a, b in group.get(key, ())}

    def listing(self) -> str:
        parts = []
        for file in sorted(self.path.rglob("*.py")):
            text = file.read_text(encoding="utf-8")
            parts.append(f"--- {file.relative_to(self.path).as_posix()}\n{text}")
        return "\n".join(parts)


def _load_cases() -> list[Case]:
    return [
        Case(p.parent, json.loads(p.read_text(encoding="utf-8")))
        for p in sorted(CALLGRAPH.glob("*/*/expected.json"))
    ]


ALL_CASES = _load_cases()
TRACED_CASES = [c for c in ALL_CASES if c.data.get("trace")]


def _params(cases: Iterable[Case], *, index: bool = False) -> list[Any]:
    """One param per case; ``xfail`` (a known gap of the index) marks only the index check."""
    params = []
    for case in cases:
        gap = index and "xfail" in case.data
        marks = [pytest.mark.xfail(reason=case.data["xfail"], strict=True)] if gap else []
        params.append(pytest.param(case, id=case.id, marks=marks))
    return params


def definitions(root: Path) -> dict[str, str]:
    """Qualified name → kind (module, class, function, lambda) of every definition under ``root``."""
    found: dict[str, str] = {}
    for file in sorted(root.rglob("*.py")):
        module = module_name(file.relative_to(root).as_posix())
        found[module] = "module"
        _collect(ast.parse(file.read_text(encoding="utf-8")), module, found)
    return found


def _collect(node: ast.AST, scope: str, found: dict[str, str]) -> None:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            name = f"{scope}.{child.name}"
            found[name] = "class" if isinstance(child, ast.ClassDef) else "function"
            outer = [*child.decorator_list, *getattr(child, "bases", ()), *getattr(child, "keywords", ())]
            if not isinstance(child, ast.ClassDef):
                outer += [*child.args.defaults, *(d for d in child.args.kw_defaults if d is not None)]
            for expr in outer:
                _collect(ast.Expression(expr), scope, found)
            for stmt in child.body:
                _collect(ast.Module([stmt], []), name, found)
        elif isinstance(child, ast.Lambda):
            name = f"{scope}.<lambda:{child.lineno}>"
            found[name] = "lambda"
            _collect(child.args, scope, found)
            _collect(ast.Expression(child.body), name, found)
        else:
            _collect(child, scope, found)


def _repo_modules(defs: Mapping[str, str]) -> set[str]:
    return {name.partition(".")[0] for name, kind in defs.items() if kind == "module"}


def _unknown_names(case: Case, defs: Mapping[str, str]) -> list[str]:
    """Names in the case that look like repository names (by their first part) but are not defined there."""
    tops = _repo_modules(defs)
    names = {n for key in ("certain", "possible", "untraced") for e in case.edges(key) for n in e}
    names |= set(case.data.get("unresolved_in", ()))
    names |= {u["scope"] for u in case.data.get("uncertainty", ())}
    return sorted(n for n in names if n.partition(".")[0] in tops and n not in defs)


def _diff(label: str, expected: set[Edge], got: set[Edge]) -> str:
    missing = "\n".join(f"  missing {a} -> {b}" for a, b in sorted(expected - got))
    extra = "\n".join(f"  extra   {a} -> {b}" for a, b in sorted(got - expected))
    return f"{label}:\n{missing}\n{extra}".rstrip()


# -- structure ----------------------------------------------------------------------------------------------


def test_there_are_enough_cases() -> None:
    assert len(ALL_CASES) >= 100
    assert len(TRACED_CASES) >= 0.8 * len(ALL_CASES)


@pytest.mark.parametrize("case", _params(ALL_CASES))
def test_case_is_well_formed(case: Case) -> None:
    assert not schema_errors(case.data, SCHEMA), schema_errors(case.data, SCHEMA)
    readme = (case.path / "README.md").read_text(encoding="utf-8").strip()
    assert readme, "README.md must say why the case exists"
    assert len(readme.splitlines()) == 1, "README.md is one line"
    defs = definitions(case.path)
    assert "main" in defs, "every case has a main.py"
    assert not _unknown_names(case, defs), f"names not defined in the case: {_unknown_names(case, defs)}"
    certain, possible = case.edges("certain"), case.edges("possible")
    assert not certain & possible, f"both certain and possible: {sorted(certain & possible)}"
    assert not (certain | possible) & case.edges("absent"), "an absent edge is also expected"


# -- the static index against the cases ---------------------------------------------------------------------


def _build_index() -> Callable[..., Any]:
    analyzers = importlib.import_module("dure.analyzers")
    build = getattr(analyzers, "build_index", None)
    if build is None:
        pytest.skip("dure.analyzers.build_index does not exist yet (the static index is not merged)")
    return build  # type: ignore[no-any-return]


@pytest.mark.parametrize("in_halves", [False, True], ids=["whole", "halves"])
@pytest.mark.parametrize("case", _params(ALL_CASES, index=True))
def test_index_matches_case(case: Case, in_halves: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Also with the modules resolved in two halves (see dure.analyzers.halves), the second in a helper
    process, as large repositories are: the halves swap what the flow pass needs."""
    if in_halves:
        monkeypatch.setattr(halves, "SPLIT_MINIMUM", 0)
    index = _build_index()(case.path, cache=False, workers=2 if in_halves else None)
    strongest: dict[Edge, Certainty] = {}
    for edge in index.edges():
        key = (edge.caller, edge.callee)
        if key not in strongest or STRENGTH[edge.certainty] > STRENGTH[strongest[key]]:
            strongest[key] = edge.certainty
    problems = []
    certain = {e for e, c in strongest.items() if c == Certainty.CERTAIN}
    if certain != case.edges("certain"):
        problems.append(_diff("certain edges", case.edges("certain"), certain))
    for edge in sorted(case.edges("possible")):
        if strongest.get(edge) != Certainty.POSSIBLE:
            problems.append(f"expected possible: {edge[0]} -> {edge[1]} (got {strongest.get(edge)})")
    problems += [
        f"absent edge reported: {a} -> {b}" for a, b in sorted(case.edges("absent") & set(strongest))
    ]
    problems += _check_unresolved(case, index) + _check_uncertainty(case, index) + _check_queries(case, index)
    assert not problems, "\n".join([*problems, "", case.listing()])


def _check_unresolved(case: Case, index: Any) -> list[str]:
    unresolved = {
        site.caller
        for site in index.call_sites
        if any(t.certainty == Certainty.UNRESOLVED for t in site.targets)
    }
    return [
        f"no unresolved call site in {q}" for q in case.data.get("unresolved_in", ()) if q not in unresolved
    ]


def _check_uncertainty(case: Case, index: Any) -> list[str]:
    recorded = {(str(u.kind), u.scope) for u in index.uncertainties}
    wanted = [(u["kind"], u["scope"]) for u in case.data.get("uncertainty", ())]
    return [
        f"no {kind} uncertainty recorded in {scope} (have {sorted(recorded)})"
        for kind, scope in wanted
        if (kind, scope) not in recorded
    ]


def _check_queries(case: Case, index: Any) -> list[str]:
    problems = []
    for query in case.data.get("queries", ()):
        result = getattr(index, query["query"])(*query["args"])
        if query["query"] == "shortest_paths":
            want: set[Any] = {tuple(p) for p in query["value"]}
            got: set[Any] = {tuple(p) for p in result.value}
        else:
            want, got = set(query["value"]), set(result.value)
        if want != got or bool(result.certain) != query["certain"]:
            call = f"{query['query']}({', '.join(query['args'])})"
            wanted = f"want {sorted(want)} certain={query['certain']}"
            problems.append(f"{call}: {wanted}, got {sorted(got)} certain={result.certain} {result.reasons}")
    return problems


# -- the cases against the runtime --------------------------------------------------------------------------


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in TRACED_CASES])
def test_case_matches_runtime(case: Case) -> None:
    trace = trace_module(case.path, "main", timeout=30)
    assert trace.error is None, f"{trace.error}\n{trace.stderr}\n{case.listing()}"
    assert trace.exit_code == 0, f"{trace.stderr}\n{case.listing()}"
    defs = definitions(case.path)
    expected = case.edges("certain") | case.edges("possible")
    # a call site the index cannot resolve may reach anything: what its scope was seen to call is accepted
    open_scopes = set(case.data.get("unresolved_in", ()))
    unexpected = {e for e in trace.edges - expected if e[0] not in open_scopes}
    problems = [f"observed, not expected: {a} -> {b}" for a, b in sorted(unexpected)]
    problems += [f"absent edge observed: {a} -> {b}" for a, b in sorted(case.edges("absent") & trace.edges)]
    observed = trace.edges | trace.resumptions
    to_functions = {e for e in case.edges("certain") if defs.get(e[1]) in ("function", "lambda")}
    unobserved = to_functions - observed - case.edges("untraced")
    problems += [f"certain, never observed: {a} -> {b}" for a, b in sorted(unobserved)]
    problems += [
        f"listed as untraced but observed: {a} -> {b}" for a, b in sorted(case.edges("untraced") & observed)
    ]
    assert not problems, "\n".join([*problems, "", case.listing()])

"""Small hand-made tasks for the scoring tests (until the generators exist)."""

from __future__ import annotations

from dure.tasks import RepoRef, Task, VerifierSpec, make_task
from dure.tasks.frozen import freeze_object

REPO = RepoRef("demo", "1.0", "local", "ab" * 32)
STRINGS = {"type": "array", "items": {"type": "string"}}


def set_task(
    required: list[str],
    *,
    ignored: tuple[str, ...] = (),
    forbidden: tuple[str, ...] = (),
    candidates: tuple[str, ...] = (),
    kind: str = "callers",
    ignore_special: bool | None = None,
) -> Task:
    params: dict[str, object] = {
        "ignored": list(ignored),
        "forbidden": list(forbidden),
        "candidates": list(candidates),
    }
    if ignore_special is not None:
        params["ignore_special"] = ignore_special
    return make_task(
        kind=kind,
        repo=REPO,
        prompt="List every direct caller of pkg.f.",
        inputs={"symbol": "pkg.f"},
        answer=required,
        answer_schema=STRINGS,
        verifier=VerifierSpec("set", freeze_object(params)),
    )


# a -> b -> d, a -> c -> d, d -> e, a -> x -> y -> e: two shortest paths a..e of 3 edges
EDGES = [
    ("a", "b"),
    ("b", "d"),
    ("a", "c"),
    ("c", "d"),
    ("d", "e"),
    ("a", "x"),
    ("x", "y"),
    ("y", "z"),
    ("z", "e"),
]


def path_task(source: str = "a", target: str = "e", answer: list[str] | None = None) -> Task:
    params = {"graph": [list(edge) for edge in EDGES], "source": source, "target": target}
    return make_task(
        kind="call-path",
        repo=REPO,
        prompt=f"Give a shortest call path from {source} to {target}.",
        inputs={"source": source, "target": target},
        answer=["a", "b", "d", "e"] if answer is None else answer,
        answer_schema=STRINGS,
        verifier=VerifierSpec("path", freeze_object(params)),
    )


def exact_task(answer: object = None) -> Task:
    return make_task(
        kind="definition",
        repo=REPO,
        prompt="Where is the function that parses headers defined?",
        inputs={"description": "parses headers"},
        answer={"file": "pkg/http.py", "qualname": "pkg.http.parse_headers"} if answer is None else answer,
        answer_schema={"type": "string"} if isinstance(answer, str) else {"type": "object"},
        verifier=VerifierSpec("exact"),
    )


def all_tasks() -> list[Task]:
    return [
        set_task(
            ["pkg.a", "pkg.b", "pkg.c"],
            ignored=("pkg.maybe",),
            forbidden=("pkg.live",),
            candidates=tuple(f"pkg.other{i}" for i in range(10)),
        ),
        path_task(),
        exact_task(),
        exact_task("pkg.http.parse_headers"),
    ]

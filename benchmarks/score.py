#!/usr/bin/env python3
"""Answers per second of dure's scoring core: ``set``, ``path`` and ``exact``, and ``coverage`` warm.

For each verifier a mix of answers (the reference, near misses, respellings, malformed text) is scored
through ``dure.scoring.score`` (free text in, answer extraction included) in this process, then through
``score_batch`` with 2 worker processes (pool start-up included). ``coverage`` is timed with its
executed-lines cache warm (the tests of a small fixture repository ran once before timing). Writes a
Markdown table.

Usage::

    python benchmarks/score.py [--answers 20000] [--out benchmarks/results/score.md]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))  # the hand-made tasks and the fixture repository of the tests

from evidence_support import DEAD, evidence_task, sandbox_python, shared_dir, write_fixture  # noqa: E402
from task_factories import exact_task, path_task, set_task  # noqa: E402

from dure.scoring import score, score_batch  # noqa: E402
from dure.tasks import Task  # noqa: E402
from dure.verifiers import _evidence  # noqa: E402


def set_case() -> tuple[Task, list[str]]:
    required = [f"pkg.mod{i}.f" for i in range(30)]
    task = set_task(required, ignored=("pkg.maybe",), forbidden=("pkg.live",),
                    candidates=tuple(f"pkg.x{i}" for i in range(50)))  # fmt: skip
    texts = [
        json.dumps(required),
        f"<answer>{json.dumps(required[::-1])}</answer>",
        "```json\n" + json.dumps([*required[:20], "pkg.live", "pkg.x1"]) + "\n```",
        json.dumps([f" `{name}` " for name in required]),
        "no answer here",
    ]
    return task, texts


def path_case() -> tuple[Task, list[str]]:
    task = path_task()
    texts = ['["a", "b", "d", "e"]', '<answer>["a", "c", "d", "e"]</answer>', '["a", "x", "y", "z", "e"]',
             '["e", "a"]', "[1, 2"]  # fmt: skip
    return task, texts


def exact_case() -> tuple[Task, list[str]]:
    task = exact_task()
    texts = ['{"file": "pkg/http.py", "qualname": "pkg.http.parse_headers"}',
             '<answer>{"file": "./pkg/http.py", "qualname": "pkg.http:parse_headers"}</answer>',
             '{"file": "pkg/http.py", "qualname": "pkg.http"}', '"pkg"', "{}"]  # fmt: skip
    return task, texts


def coverage_case() -> tuple[Task, list[str]]:
    repo = write_fixture(shared_dir() / "repo")
    task = evidence_task(repo, "coverage", DEAD)
    texts = [json.dumps(DEAD), json.dumps([*DEAD, "pkg.core.only_tested"]), json.dumps(DEAD[:2]), "[]", "x"]
    score(task, texts[0])  # runs the tests once: the cache is warm from here on
    return task, texts


def rate(run: Callable[[], object], count: int) -> float:
    started = time.perf_counter()
    run()
    return count / (time.perf_counter() - started)


def measure(task: Task, texts: list[str], count: int) -> tuple[float, float]:
    items = [(task, texts[i % len(texts)]) for i in range(count)]
    single = rate(lambda: [score(t, text) for t, text in items], count)
    pooled = rate(lambda: score_batch(items, workers=2, chunksize=512), count)
    return single, pooled


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=20_000)
    parser.add_argument("--out", type=Path, default=HERE / "results" / "score.md")
    args = parser.parse_args()
    os.environ.setdefault("DURE_CACHE", tempfile.mkdtemp(prefix="dure-bench-cache-"))
    os.environ[_evidence.PYTHON_ENV] = sandbox_python()  # before the first pool: workers inherit it
    rows = []
    for name, case in (
        ("set", set_case),
        ("path", path_case),
        ("exact", exact_case),
        ("coverage (warm)", coverage_case),
    ):
        task, texts = case()
        single, pooled = measure(task, texts, args.answers)
        rows.append(f"| {name} | {args.answers} | {single:,.0f} | {pooled:,.0f} |")
        print(rows[-1], flush=True)
    header = [
        "# Scoring speed",
        "",
        f"Measured by `benchmarks/score.py` on {platform.python_implementation()} "
        f"{platform.python_version()}, {os.cpu_count()} CPUs ({platform.machine()}). Answers are free text",
        "(extraction included), a mix of the reference, respellings, near misses and malformed text, scored",
        "against one task per verifier. `score_batch` includes starting its 2 worker processes and sending",
        "each (task, answer) pair to them. The target is 10,000 answers per second per core for set, path",
        "and exact.",
        "",
        "| verifier | answers | per second, 1 process | per second, score_batch, 2 workers |",
        "| --- | ---: | ---: | ---: |",
    ]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join([*header, *rows]) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

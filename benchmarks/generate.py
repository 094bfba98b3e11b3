#!/usr/bin/env python3
"""Layer-1 generation speed and the vulture baseline on our dead-code tasks.

For a corpus (default: ``default``), every package is fetched, indexed and its tests' evidence collected
once (a warm-up run into a scratch directory fills those caches); then each task kind is generated alone,
``--per-repo`` tasks per repository, into a fresh directory, in this process (one core), and timed in CPU
seconds (its own and its child processes': type checkers, sandboxed test runs). Tasks per minute per
core = tasks / CPU minutes. The self-audit and the trace cross-check are part
of the timed work, as in ``dure generate``. Also reported: drops by reason, the trace miss rate per
repository, and vulture's F1 on every dead-code task (recorded in each task's ``audit.vulture``).

Usage::

    python benchmarks/generate.py [--corpus default|main|FILE] [--per-repo 50] [--kinds callers,...]
                                  [--out benchmarks/results/generate-<corpus>.md]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

from dure.corpus import Repository
from dure.corpus.manifest import load_manifest
from dure.corpus.resolve import fetch_many
from dure.generators import pipeline
from dure.generators._registry import kinds_of_layer
from dure.generators.pipeline import RepoReport, RunSettings
from dure.tasks import read_tasks
from dure.tasks.model import TaskKind

HERE = Path(__file__).resolve().parent


def repositories(corpus: str) -> list[Repository]:
    manifest = load_manifest(corpus)
    found = []
    for outcome in fetch_many(manifest.packages):
        if outcome.root is not None:
            found.append(Repository(outcome.spec.name, outcome.spec.version, outcome.root, outcome.spec))
        else:
            print(f"skipped {outcome.spec.key}: {outcome.error}")
    return found


def timed_kind(
    repos: list[Repository], kind: TaskKind, per_repo: int, out: Path
) -> tuple[float, float, list[RepoReport]]:
    settings = RunSettings(kinds=(kind,), per_repo=per_repo, seed=0)
    wall, cpu = time.perf_counter(), cpu_seconds()
    reports = pipeline.generate(repos, settings, out, workers=1)
    return time.perf_counter() - wall, cpu_seconds() - cpu, reports


def cpu_seconds() -> float:
    """CPU time of this process and of every finished child (the checkers, the sandboxed test runs)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def vulture_scores(out: Path) -> list[float]:
    scores = []
    for shard in sorted((out / "tasks").glob("*.jsonl")):
        for task in read_tasks(shard):
            record = task.audit.get("vulture")
            if task.kind is TaskKind.DEAD_CODE and record is not None:
                scores.append(float(record["score"]))
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="default")
    parser.add_argument("--per-repo", type=int, default=50)
    parser.add_argument("--kinds", default="")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    kinds = [TaskKind(k) for k in args.kinds.split(",") if k] or list(kinds_of_layer(1))
    repos = repositories(args.corpus)
    rows, drops, traces, vulture = [], Counter[tuple[str, str]](), {}, []
    with tempfile.TemporaryDirectory(prefix="dure-bench-generate-") as scratch:
        warm = Path(scratch) / "warm"
        start = time.perf_counter()
        pipeline.generate(repos, RunSettings(tuple(kinds), 1, 0), warm, workers=1)
        warmup = time.perf_counter() - start
        for kind in kinds:
            out = Path(scratch) / kind.value
            wall, cpu, reports = timed_kind(repos, kind, args.per_repo, out)
            tasks = sum(r.task_count for r in reports)
            rows.append((kind.value, tasks, wall, cpu, tasks / (cpu / 60) if cpu else 0.0))
            for report in reports:
                for reason, count in report.drops.get(kind.value, {}).items():
                    drops[kind.value, reason] += count
                trace = traces.setdefault(report.name, Counter())
                trace["checked"] += report.trace.get("checked", 0)
                trace["misses"] += report.trace.get("misses", 0)
                if report.trace.get("error"):
                    trace["not run"] = 1
            if kind is TaskKind.DEAD_CODE:
                vulture = vulture_scores(out)
            rate = rows[-1][4]
            print(f"{kind.value:16} {tasks:5} tasks {wall:7.1f} s wall {cpu:7.1f} s CPU {rate:8.0f}/min/core")
    total_tasks = sum(r[1] for r in rows)
    total_cpu = sum(r[3] for r in rows)
    lines = [
        f"# Layer-1 generation on the `{args.corpus}` corpus",
        "",
        f"{len(repos)} repositories, up to {args.per_repo} tasks of each kind per repository, one process; "
        f"indexes, test evidence and checker caches warm (the warm-up run took {warmup:.0f} s). "
        f"Python {platform.python_version()}, {platform.machine()}.",
        "",
        "| kind | tasks | wall s | CPU s | tasks / min / core |",
        "|---|---:|---:|---:|---:|",
    ]
    lines += [f"| {k} | {n} | {w:.1f} | {c:.1f} | {r:,.0f} |" for k, n, w, c, r in rows]
    lines.append(
        f"| **all** | {total_tasks} | {sum(r[2] for r in rows):.1f} | {total_cpu:.1f} | "
        f"{total_tasks / (total_cpu / 60) if total_cpu else 0:,.0f} |"
    )
    lines += ["", "Candidates dropped, by reason:", "", "| kind | reason | count |", "|---|---|---:|"]
    lines += [f"| {k} | {r} | {n} |" for (k, r), n in sorted(drops.items())]
    lines += ["", "Runtime trace cross-check (archaeology answers against the calls the tests make):", ""]
    lines += ["| repository | answers checked | index misses | miss rate |", "|---|---:|---:|---:|"]
    for name, trace in traces.items():
        if trace["not run"]:
            lines.append(f"| {name} | tests not run here | | |")
        else:
            rate = trace["misses"] / trace["checked"] if trace["checked"] else 0.0
            lines.append(f"| {name} | {trace['checked']} | {trace['misses']} | {100 * rate:.1f} % |")
    if vulture:
        lines += [
            "",
            f"vulture on our {len(vulture)} dead-code tasks: mean F1 {statistics.mean(vulture):.3f}, "
            f"median {statistics.median(vulture):.3f}, solved (F1 = 1) {sum(s == 1.0 for s in vulture)}.",
        ]
    text = "\n".join(lines) + "\n"
    out = args.out or HERE / "results" / f"generate-{Path(args.corpus).stem}.md"
    out.write_text(text)
    (out.with_suffix(".json")).write_text(json.dumps({"rows": rows, "vulture": vulture}, indent=1) + "\n")
    print(text)


if __name__ == "__main__":
    main()

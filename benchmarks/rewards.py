#!/usr/bin/env python3
"""Rewards per second through each trainer-facing path, on set-verifier (callers) tasks.

Paths: ``dure.scoring.score`` in this thread (the floor: no hand-off), ``core.reward`` one answer at a time
(a hand-off to the scoring pool for the per-answer timeout), verl's ``compute_score`` one at a time and
``compute_score_batch`` (threads), ``score_batch`` over 2 worker processes (pool start-up included, for
comparison with the threads), TRL's ``reward_func`` on batches, OpenRLHF's ``reward_func``, and
``dure serve-reward`` over loopback with concurrent clients posting batches (JSON both ways included).
Writes Markdown and JSON.

Usage::

    python benchmarks/rewards.py [--answers 20000] [--batch 512] [--clients 8]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))  # the hand-made tasks of the tests

from task_factories import set_task  # noqa: E402

from dure.integrations import core, openrlhf, trl, verl  # noqa: E402
from dure.integrations.server import make_server  # noqa: E402
from dure.scoring import score, score_batch  # noqa: E402
from dure.tasks import Task  # noqa: E402


def cases(tasks: int) -> list[tuple[Task, list[str]]]:
    """``tasks`` callers tasks of 30 required names, each with a mix of answers."""
    made = []
    for number in range(tasks):
        required = [f"pkg.mod{number}_{i}.f" for i in range(30)]
        task = set_task(required, ignored=("pkg.maybe",), forbidden=("pkg.live",),
                        candidates=tuple(f"pkg.x{i}" for i in range(50)))  # fmt: skip
        texts = [
            json.dumps(required),
            f"Reasoning first.\n<answer>{json.dumps(required[::-1])}</answer>",
            "```json\n" + json.dumps([*required[:20], "pkg.live", "pkg.x1"]) + "\n```",
            json.dumps([f" `{name}` " for name in required]),
            "no answer here",
        ]
        made.append((task, texts))
    return made


def rate(run: Callable[[], object], count: int) -> float:
    started = time.perf_counter()
    run()
    return count / (time.perf_counter() - started)


def chunks(items: list[tuple[str, str]], size: int) -> list[list[tuple[str, str]]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def post(url: str, body: bytes) -> list[float]:
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=300) as response:
        rewards: list[float] = json.loads(response.read())["rewards"]
    return rewards


def main() -> int:  # noqa: PLR0915 - one timed step after another reads best in one place
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=20_000)
    parser.add_argument("--batch", type=int, default=512, help="answers per batch call or request")
    parser.add_argument("--clients", type=int, default=8, help="concurrent serve-reward clients")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "rewards.md")
    args = parser.parse_args()
    count = args.answers
    made = cases(64)
    tasks = [made[i % len(made)][0] for i in range(count)]
    texts = [made[i % len(made)][1][(i // len(made)) % 5] for i in range(count)]
    truths = [core.ground_truth_of(task) for task in tasks]
    pairs = list(zip(texts, truths, strict=True))
    for truth in set(truths):
        core.task_of(truth)  # decoded once, as in training: a task's completions arrive together
    load = os.getloadavg()

    results: dict[str, float] = {}

    def timed(name: str, run: Callable[[], object]) -> None:
        results[name] = rate(run, count)
        print(f"{name}: {results[name]:,.0f} rewards/s", flush=True)

    timed("dure.scoring.score, this thread", lambda: [score(t, x) for t, x in zip(tasks, texts, strict=True)])
    timed("core.reward, one at a time", lambda: [core.reward(x, g) for x, g in pairs])
    timed(
        "verl compute_score, one at a time",
        lambda: [verl.compute_score("dure/callers", x, g, None) for x, g in pairs],
    )

    def verl_batches() -> None:
        for part in chunks(pairs, args.batch):
            verl.compute_score_batch(
                data_sources=["dure/callers"] * len(part),
                solution_strs=[x for x, _ in part],
                ground_truths=[g for _, g in part],
                extra_infos=[None] * len(part),
            )

    timed(f"verl compute_score_batch, batches of {args.batch} (threads)", verl_batches)
    items = list(zip(tasks, texts, strict=True))
    timed("score_batch, 2 worker processes (start-up included)", lambda: score_batch(items, workers=2))
    batches = [items[i : i + args.batch] for i in range(0, count, args.batch)]
    timed(
        f"score_batch, 2 worker processes, batches of {args.batch}",
        lambda: [score_batch(batch, workers=2) for batch in batches],
    )

    def trl_batches() -> None:
        for part in chunks(pairs, args.batch):
            trl.reward_func(
                prompts=["p"] * len(part),
                completions=[[{"role": "assistant", "content": x}] for x, _ in part],
                data_source=["dure/callers"] * len(part),
                reward_model=[{"style": "rule", "ground_truth": g} for _, g in part],
            )

    timed(f"TRL reward_func, batches of {args.batch}", trl_batches)
    labels = [json.dumps({"task_id": "t", "ground_truth": g}) for g in truths]

    def openrlhf_batches() -> None:
        for start in range(0, count, args.batch):
            part = slice(start, start + args.batch)
            queries = [f"<|user|>question<|assistant|>{x}<|im_end|>" for x in texts[part]]
            openrlhf.reward_func(queries, ["<|user|>question<|assistant|>"] * len(queries), labels[part])

    timed(f"OpenRLHF reward_func, batches of {args.batch}", openrlhf_batches)

    server = make_server("127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    bodies = []
    for start in range(0, count, args.batch):
        part = slice(start, start + args.batch)
        prompts = ["<|user|>question<|assistant|>"] * len(texts[part])
        queries = [p + x for p, x in zip(prompts, texts[part], strict=True)]
        bodies.append(json.dumps({"query": queries, "prompts": prompts, "labels": labels[part]}).encode())
    with ThreadPoolExecutor(max_workers=args.clients) as clients:
        timed(
            f"serve-reward over loopback, {args.clients} clients, {args.batch} a request",
            lambda: list(clients.map(lambda body: post(server.url, body), bodies)),
        )
    server.shutdown()
    server.server_close()

    machine = {
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "cpus": os.cpu_count(),
        "machine": platform.machine(),
        "load_average_at_start": [round(x, 2) for x in load],
    }
    record = {"answers": count, "batch": args.batch, "clients": args.clients, "machine": machine,
              "rewards_per_second": {k: round(v) for k, v in results.items()}}  # fmt: skip
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    lines = [
        "# Reward throughput",
        "",
        f"Measured by `benchmarks/rewards.py` on {machine['python']}, {machine['cpus']} CPUs "
        f"({machine['machine']}), load average {load[0]:.1f} at the start. {count} answers to 64 callers",
        "tasks of 30 names each (the reference, a reversed list in `<answer>` tags, a near miss in a fenced",
        "block, respellings, no answer); each task's ground truth is decoded once before timing, as in",
        "training.",
        "Threads share one interpreter, so concurrency helps the verifiers that wait on checker processes,",
        "not these pure-Python ones; the reward paths cost the hand-off to the scoring pool that bounds each",
        "answer's time.",
        "",
        "| path | rewards per second |",
        "| --- | ---: |",
        *(f"| {name} | {value:,.0f} |" for name, value in results.items()),
    ]
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

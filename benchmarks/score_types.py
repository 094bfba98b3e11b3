"""Seconds per answer of the ``types`` verifier on a medium module of click, cold and warm, mypy and pyright.

Three functions of ``click/formatting.py`` lose their annotations; each answer needs the checker, so every
timing below is a real checker run, in the sandbox. "cold" is the first check in a fresh worker process
(empty cache, task parsing included); "warm" is the median of the answers that follow: first answers with
one slot another, weaker type (one variant of the module to check), then answers with every slot another
type (the module with all of them, and each slot's own variant, checked in one run).
With ``--audit DIR`` it also times the self-audit (:func:`dure.verifiers.audit.audit_task`) of every
type-completion task under ``DIR/tasks`` (as written by ``dure generate``), in one fresh process.

    python benchmarks/score_types.py [--answers 20] [--audit DIR] [--out benchmarks/results/score_types.md]
"""

from __future__ import annotations

import argparse
import ast
import multiprocessing
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

import libcst as cst

from dure.corpus.fetch import list_cached
from dure.scoring import score_answer
from dure.tasks import RepoRef, Task, VerifierSpec, make_task
from dure.tasks.codec import decode_task
from dure.tasks.frozen import freeze, freeze_object, thaw
from dure.verifiers.audit import audit_task
from dure.verifiers.typecheck import checker_version
from dure.verifiers.types import baseline_of

PACKAGE, MODULE, PATH = "click", "click.formatting", "click/formatting.py"
FUNCTIONS = ("measure_table", "iter_rows", "wrap_text")
OTHER_TYPES = ("object", "complex", "bytes", "float", "typing.Any")


@dataclass(frozen=True, slots=True)
class Timings:
    cold: float
    one_slot: list[float]  # warm seconds, one slot another type
    every_slot: list[float]  # warm seconds, every slot another type
    runs: float  # checker runs per every-slot answer (mean)


class _Strip(cst.CSTTransformer):
    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        if updated.name.value not in FUNCTIONS:
            return updated
        params = updated.params
        bare = params.with_changes(
            params=[p.with_changes(annotation=None) for p in params.params],
            kwonly_params=[p.with_changes(annotation=None) for p in params.kwonly_params],
        )
        return updated.with_changes(params=bare, returns=None)


def click_task(engine: str) -> Task:
    found = [cached for cached in list_cached() if cached.name == PACKAGE]
    if not found:
        raise SystemExit("click is not in the corpus cache: run `dure corpus fetch` first")
    source_dir = found[0]
    original = (source_dir.root / "src" / PATH).read_text(encoding="utf-8")
    gold = {}
    for node in ast.parse(original).body:
        if isinstance(node, ast.FunctionDef) and node.name in FUNCTIONS:
            for arg in node.args.args + node.args.kwonlyargs:
                if arg.annotation is not None:
                    gold[f"{MODULE}.{node.name}:param:{arg.arg}"] = ast.unparse(arg.annotation)
            if node.returns is not None:
                gold[f"{MODULE}.{node.name}:return"] = ast.unparse(node.returns)
    stripped = cst.parse_module(original).visit(_Strip()).code
    params = {
        "module": MODULE,
        "path": PATH,
        "source": stripped,
        "root": "src",
        "engine": engine,
        "flags": ["--strict"] if engine == "mypy" else ["strict"],
        "checker_version": checker_version(engine),
    }
    repo = RepoRef(PACKAGE, source_dir.version, "pypi", source_dir.sha256)

    def build(extra: dict[str, object]) -> Task:
        return make_task(
            kind="type-completion",
            repo=repo,
            prompt=f"Restore the annotations of {', '.join(FUNCTIONS)} in {MODULE}.",
            inputs={"module": MODULE, "slots": sorted(gold)},
            answer=gold,
            answer_schema={"type": "object"},
            verifier=VerifierSpec("types", freeze_object({**params, **extra})),
        )

    return build({"baseline": list(baseline_of(build({})))})


def answers(task: Task, count: int) -> list[dict[str, str]]:
    """Answers that each need a checker run: one slot weaker (``object``), rotating over the slots."""
    gold = {slot: str(text) for slot, text in thaw(task.answer).items()}
    slots = sorted(gold)
    return [{**gold, slots[i % len(slots)]: "object"} for i in range(count)]


def every_slot_answers(task: Task, count: int) -> list[dict[str, str]]:
    """Answers with every slot another type (rotating), so each slot must be judged on its own."""
    slots = sorted(thaw(task.answer))
    return [
        {slot: OTHER_TYPES[(i + j) % len(OTHER_TYPES)] for j, slot in enumerate(slots)} for i in range(count)
    ]


def _timed(task: Task, answer: dict[str, str]) -> tuple[float, int]:
    started = time.perf_counter()
    result = score_answer(task, freeze(answer))
    seconds = time.perf_counter() - started
    assert result.error is None, result.error
    runs = result.details["checker_runs"]
    assert isinstance(runs, int)
    return seconds, runs


def measure(engine: str, count: int, queue: multiprocessing.Queue[Timings]) -> None:
    started = time.perf_counter()
    task = click_task(engine)  # the task's baseline is this fresh worker's first check: the cold one
    cold = time.perf_counter() - started
    one_slot = []
    for answer in answers(task, count):
        seconds, runs = _timed(task, answer)
        assert runs == 1
        one_slot.append(seconds)
    every_slot, runs_total = [], 0
    for answer in every_slot_answers(task, count):
        seconds, runs = _timed(task, answer)
        every_slot.append(seconds)
        runs_total += runs
    queue.put(Timings(cold, one_slot, every_slot, runs_total / count))


def _median_p90(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return statistics.median(ordered), ordered[int(0.9 * (len(ordered) - 1))]


def run(engine: str, count: int) -> Timings:
    """The timings of one checker, measured in a fresh process."""
    context = multiprocessing.get_context("spawn")
    queue: multiprocessing.Queue[Timings] = context.Queue()
    worker = context.Process(target=measure, args=(engine, count, queue))
    worker.start()
    timings = queue.get(timeout=1800)
    worker.join()
    return timings


def audit_seconds(folder: Path, queue: multiprocessing.Queue[tuple[list[float], list[str]]]) -> None:
    """Seconds of the self-audit of each type-completion task under ``folder/tasks``, and its repository."""
    seconds, repos = [], []
    for path in sorted(folder.glob("tasks/*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            task = decode_task(line)
            if task.kind.value != "type-completion":
                continue
            started = time.perf_counter()
            audit = audit_task(task)
            seconds.append(time.perf_counter() - started)
            repos.append(task.repo.name)
            assert audit.ok, audit.reason
    queue.put((seconds, repos))


def run_audit(folder: Path) -> tuple[list[float], list[str]]:
    context = multiprocessing.get_context("spawn")
    queue: multiprocessing.Queue[tuple[list[float], list[str]]] = context.Queue()
    worker = context.Process(target=audit_seconds, args=(folder, queue))
    worker.start()
    found = queue.get(timeout=3600)
    worker.join()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=20)
    parser.add_argument("--audit", type=Path, action="append", default=[], help="a dure generate output")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "score_types.md")
    args = parser.parse_args()
    rows = []
    for engine in ("mypy", "pyright"):
        timings = run(engine, args.answers)
        one, every = _median_p90(timings.one_slot), _median_p90(timings.every_slot)
        rows.append(
            f"| {engine} {checker_version(engine)} | {timings.cold:.2f} | {one[0]:.3f} | {one[1]:.3f} "
            f"| {every[0]:.3f} | {every[1]:.3f} | {timings.runs:.1f} |"
        )
        print(rows[-1], flush=True)
    slots = len(thaw(click_task("mypy").answer))
    lines = [
        "# types verifier: seconds per answer",
        "",
        f"`{PATH}` of click with {', '.join(FUNCTIONS)} stripped ({slots} slots); every answer",
        "needs the checker (sandboxed, `--strict` / pyright strict). Cold: first check of a fresh worker;",
        f"warm: median and 90th percentile of the next {args.answers} answers with one slot another type,",
        f"then of {args.answers} answers with every slot another type (each slot also judged alone).",
        "Target (issue 3): at most 0.3 s warm.",
        "",
        "| checker | cold s | one slot: warm median s | p90 s | every slot: warm median s | p90 s | runs |",
        "|---|---|---|---|---|---|---|",
        *rows,
        "",
        "One checker run judges an answer whatever its slot count: the module with all the answer's types,",
        "and when that adds errors each slot's own variant, are written as sibling probe files that nothing",
        "imports and checked together, each judged by its own diagnostics. A warm mypy run re-checks those",
        "files against the cache of the repository's tree (one per repository, import root and flags, shared",
        "by its modules); most of the rest is mypy's own start-up (about 0.15 s) and the sandbox (about",
        "0.03 s). pyright has no cache between runs (each answer starts node and analyses from scratch).",
    ]
    for folder in args.audit:
        seconds, repos = run_audit(folder)
        print(f"audit {folder}: {len(seconds)} tasks", flush=True)
        lines += [
            "",
            f"Self-audit of {len(seconds)} type-completion tasks of {', '.join(sorted(set(repos)))}",
            "(`dure generate --per-repo 10`; reference, 3 wrappings, quoted, typing spelling, empty,",
            "all Any, all object, wrong types; mypy, one fresh process, cold trees included):",
            f"mean {statistics.mean(seconds):.2f} s, max {max(seconds):.2f} s per task.",
        ]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

"""Each trainer adapter called exactly the way its trainer calls it, on tasks of several kinds.

The trainers are too heavy to install for a test (torch, CUDA), so each test repeats the trainer's own call,
citing the file of that trainer where the call is made.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import math
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from task_factories import exact_task, path_task, set_task

from dure.integrations import core, openrlhf, rllm, skyrl, trl, verl
from dure.integrations.core import ground_truth_of
from dure.tasks import Task, thaw

SET = set_task(["pkg.a", "pkg.b", "pkg.c"], candidates=tuple(f"pkg.other{i}" for i in range(5)))
PATH = path_task()
DEFINITION = exact_task()
TASKS = [SET, PATH, DEFINITION]


def right(task: Task) -> str:
    return f"Reasoning first.\n<answer>{json.dumps(thaw(task.answer))}</answer>"


def wrong(task: Task) -> str:
    answers = {
        SET.id: ["pkg.a"],
        PATH.id: ["a", "x", "y", "z", "e"],
        DEFINITION.id: {"file": "x.py", "qualname": "x"},
    }
    return f"<answer>{json.dumps(answers[task.id])}</answer>"


MALFORMED = "I think it is pkg.a, pkg.b"


def row(task: Task) -> dict[str, Any]:
    """The columns of an exported row that the adapters read (built here, not by the exporter)."""
    truth = ground_truth_of(task)
    return {
        "task_id": task.id,
        "task_kind": task.kind.value,
        "phase": 1,
        "data_source": f"dure/{task.kind.value}",
        "prompt": [
            {"role": "system", "content": "You are in demo 1.0."},
            {"role": "user", "content": task.prompt},
        ],
        "reward_model": {"style": "rule", "ground_truth": truth},
        "extra_info": {"index": 0, "task_id": task.id, "kind": task.kind.value, "split": "train"},
        "env_class": "dure",
        "reward_spec": {"method": "rule", "ground_truth": truth},
        "label": json.dumps({"task_id": task.id, "ground_truth": truth}),
        "question": task.prompt,
        "answer": truth,
    }


GARBAGE_TRUTHS: list[object] = [
    None,
    123,
    "",
    "{",
    "[]",
    '{"kind": "callers"}',
    {"a": 1},
    b"\xff",
    float("nan"),
]


@pytest.fixture
def slow_scoring(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """Every answer takes up to 5 s to score (released at the end of the test, so no thread lingers)."""
    release = threading.Event()

    def slow(task: Task, text: str) -> Any:
        release.wait(5)
        return core.score(task, text)

    monkeypatch.setattr(core, "score", slow)
    yield release
    release.set()


# --- the core --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.kind.value)
def test_core_scores_right_wrong_and_malformed_answers(task: Task) -> None:
    truth = ground_truth_of(task)
    assert core.reward(right(task), truth).value == 1.0
    assert core.reward(wrong(task), truth).value < 1.0
    malformed = core.reward(MALFORMED, truth)
    assert malformed.value == 0.0
    assert malformed.error
    assert "malformed" in malformed.error
    assert core.reward([{"role": "assistant", "content": right(task)}], truth).passed


@pytest.mark.parametrize("truth", GARBAGE_TRUTHS, ids=repr)
def test_core_never_raises_on_a_garbage_ground_truth(truth: object) -> None:
    result = core.reward(right(SET), truth)
    assert result.value == 0.0
    assert result.error
    assert result.error.startswith("bad ground truth")


def test_core_timeout_gives_zero_in_bounded_time(slow_scoring: threading.Event) -> None:
    started = time.monotonic()
    result = core.reward(right(SET), ground_truth_of(SET), timeout=0.2)
    assert time.monotonic() - started < 2
    assert result.value == 0.0
    assert result.error == "timed out after 0.2 s"
    assert set(result.components) == {"format", "precision", "recall", "f1"}


def test_core_batch_times_out_only_the_hung_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()
    real = core.score

    def hangs_on_one(task: Task, text: str) -> Any:
        if text == "HANG":
            release.wait(5)
        return real(task, text)

    monkeypatch.setattr(core, "score", hangs_on_one)
    texts = [right(SET)] * 40 + ["HANG"] + [right(SET)] * 40
    started = time.monotonic()
    try:
        results = core.rewards(texts, [ground_truth_of(SET)] * len(texts), timeout=0.3)
    finally:
        release.set()
    assert time.monotonic() - started < 3
    assert [r.value for r in results] == [1.0] * 40 + [0.0] + [1.0] * 40
    assert results[40].error == "timed out after 0.3 s"


def test_core_batch_keeps_order_and_length() -> None:
    texts = [right(t) for t in TASKS] + [wrong(t) for t in TASKS] + [MALFORMED]
    truths = [ground_truth_of(t) for t in TASKS] * 2 + [None]
    values = [s.value for s in core.rewards(texts, truths)]
    assert values[:3] == [1.0, 1.0, 1.0]
    assert all(v < 1 for v in values[3:])
    assert len(values) == 7


def test_core_reads_the_ground_truth_wherever_an_export_keeps_it() -> None:
    exported = row(SET)
    truth = ground_truth_of(SET)
    for key in ("reward_model", "reward_spec", "answer", "label"):
        assert core.ground_truth_in({key: exported[key]}) == truth
    assert core.ground_truth_in(exported["label"]) == truth
    assert core.ground_truth_in({"unrelated": 1}) is None
    assert core.ground_truth_in(None) is None


def test_default_timeout_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(core.TIMEOUT_ENV, "2.5")
    assert core.default_timeout() == 2.5
    for bad in ("", "soon", "-1", "nan", "inf"):
        monkeypatch.setenv(core.TIMEOUT_ENV, bad)
        assert core.default_timeout() == core.DEFAULT_TIMEOUT


# --- verl ------------------------------------------------------------------------------------------------

VERL_KEYS = {"score", "acc", "format", "error"}


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.kind.value)
def test_verl_naive_manager_call(task: Task) -> None:
    # verl/workers/reward_manager/naive.py: self.compute_score(data_source=, solution_str=, ground_truth=,
    # extra_info=), then score["score"] and every key appended to reward_extra_info.
    exported = row(task)
    results = [
        verl.compute_score(
            data_source=exported["data_source"],
            solution_str=text,
            ground_truth=exported["reward_model"]["ground_truth"],
            extra_info={**exported["extra_info"], "num_turns": None},
        )
        for text in (right(task), wrong(task), MALFORMED)
    ]
    assert [set(r) for r in results] == [VERL_KEYS] * 3
    assert results[0]["score"] == 1.0
    assert results[0]["acc"] == 1.0
    assert results[0]["error"] == ""
    assert isinstance(results[1]["score"], float)
    assert results[1]["score"] < 1.0
    assert results[1]["acc"] == 0.0
    assert results[2] == {"score": 0.0, "acc": 0.0, "format": 0.0, "error": results[2]["error"]}
    assert "malformed answer" in str(results[2]["error"])
    assert all(isinstance(r["error"], str) for r in results)  # verl skips string metrics by their first value


def test_verl_reward_loop_call_with_extra_keywords() -> None:
    # verl/experimental/reward/reward_loop/naive.py passes reward_model= and reward_model_tokenizer= too;
    # it awaits compute_score when it is a coroutine function (inspect.iscoroutinefunction).
    exported = row(PATH)
    keywords = {
        "data_source": exported["data_source"],
        "solution_str": right(PATH),
        "ground_truth": exported["reward_model"]["ground_truth"],
        "extra_info": exported["extra_info"],
        "reward_model": None,
        "reward_model_tokenizer": None,
    }
    assert verl.compute_score(**keywords)["score"] == 1.0
    assert asyncio.run(verl.compute_score_async(**keywords))["score"] == 1.0


def _prime_float(result: object) -> float:
    """How verl/workers/reward_manager/prime.py reads a result back."""
    if isinstance(result, int | float | bool):
        return float(result)
    return float(result[0])  # type: ignore[index]


def test_verl_prime_manager_call_in_a_forked_process_pool() -> None:
    # verl/workers/reward_manager/prime.py: ProcessPoolExecutor, partial(evaluation_func, task, completion,
    # reference, task_extra_info) positionally, result read as float(result) or float(result[0]).
    verl.compute_score("dure/callers", right(SET), ground_truth_of(SET))  # the parent's pool exists
    calls = [
        (f"dure/{t.kind.value}", text, ground_truth_of(t), None)
        for t in TASKS
        for text in (right(t), MALFORMED)
    ]
    with ProcessPoolExecutor(max_workers=2) as executor:
        futures = [executor.submit(partial(verl.compute_score, *call)) for call in calls]
        results = [future.result(timeout=60) for future in futures]
    assert [_prime_float(r) for r in results] == [1.0, 0.0] * 3


def test_verl_batch_manager_call() -> None:
    # verl/workers/reward_manager/batch.py: compute_score(data_sources=, solution_strs=, ground_truths=,
    # extra_infos=, **reward_kwargs), one result per response.
    rows = [row(t) for t in TASKS] * 2
    texts = [right(t) for t in TASKS] + [wrong(t) for t in TASKS]
    results = verl.compute_score_batch(
        data_sources=[r["data_source"] for r in rows],
        solution_strs=texts,
        ground_truths=[r["reward_model"].get("ground_truth", None) for r in rows],
        extra_infos=[r["extra_info"] for r in rows],
    )
    assert len(results) == 6
    assert all(set(r) == VERL_KEYS for r in results)
    assert [r["score"] for r in results[:3]] == [1.0] * 3
    assert all(float(r["score"]) < 1 for r in results[3:])
    assert verl.compute_score_batch(data_sources=[], solution_strs=[], ground_truths=[], extra_infos=[]) == []


@pytest.mark.parametrize("truth", GARBAGE_TRUTHS, ids=repr)
def test_verl_non_dure_rows_and_garbage_score_zero_with_a_reason(truth: object) -> None:
    result = verl.compute_score("openai/gsm8k", right(SET), truth, None)
    assert result["score"] == 0.0
    assert "not a dure row" in str(result["error"])
    result = verl.compute_score("dure/callers", right(SET), truth, None)
    assert result["score"] == 0.0
    assert str(result["error"]).startswith("bad ground truth")


def test_verl_garbage_inputs_never_raise() -> None:
    for text in (None, 42, b"bytes", ["list"], {"content": 1}, "x" * 2_000_000):
        result = verl.compute_score("dure/callers", text, ground_truth_of(SET), None)
        assert set(result) == VERL_KEYS
        assert math.isfinite(float(result["score"]))
    assert verl.compute_score_batch(solution_strs=None) == []
    assert len(verl.compute_score_batch(solution_strs=["a", "b"], ground_truths=None)) == 2


def test_verl_timeout_from_the_environment(
    slow_scoring: threading.Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(core.TIMEOUT_ENV, "0.2")
    started = time.monotonic()
    result = verl.compute_score("dure/callers", right(SET), ground_truth_of(SET), None)
    assert time.monotonic() - started < 2
    assert result["score"] == 0.0
    assert result["error"] == "timed out after 0.2 s"


def test_verl_is_deterministic() -> None:
    calls = [
        ("dure/callers", text, ground_truth_of(SET), None) for text in (right(SET), wrong(SET), MALFORMED)
    ]
    assert [verl.compute_score(*c) for c in calls] == [verl.compute_score(*c) for c in calls]


# --- TRL -------------------------------------------------------------------------------------------------


def trl_call(function: Any, rows: list[dict[str, Any]], completions: list[Any]) -> Any:
    # trl/trainer/grpo_trainer.py, GRPOTrainer._calculate_rewards: every column but prompt/completion as a
    # list, plus trainer_state; reward_func(prompts=, completions=, completion_ids=, **reward_kwargs).
    keys = [key for key in rows[0] if key not in ("prompt", "completion", "completion_ids")]
    reward_kwargs: dict[str, Any] = {key: [r[key] for r in rows] for key in keys}
    reward_kwargs["trainer_state"] = object()
    return function(
        prompts=[r["prompt"] for r in rows],
        completions=completions,
        completion_ids=[[1, 2, 3] for _ in rows],
        **reward_kwargs,
    )


def test_trl_reward_func_standard_and_conversational() -> None:
    rows = [row(t) for t in TASKS]
    texts = [right(t) for t in TASKS]
    assert trl_call(trl.reward_func, rows, texts) == [1.0, 1.0, 1.0]
    conversational = [[{"role": "assistant", "content": text}] for text in texts]
    assert trl_call(trl.reward_func, rows, conversational) == [1.0, 1.0, 1.0]
    mixed = trl_call(trl.reward_func, rows, [wrong(t) for t in TASKS])
    assert len(mixed) == 3
    assert all(isinstance(v, float) and v < 1.0 for v in mixed)
    assert trl_call(trl.reward_func, rows, [MALFORMED] * 3) == [0.0, 0.0, 0.0]


def test_trl_other_rows_get_none_and_lengths_match() -> None:
    other = {
        **row(SET),
        "data_source": "openai/gsm8k",
        "reward_model": {"style": "rule", "ground_truth": "42"},
    }
    broken = {**row(SET), "reward_model": {"style": "rule", "ground_truth": "{"}}
    rows = [row(SET), other, broken, row(PATH)]
    result = trl_call(trl.reward_func, rows, [right(SET), "42", right(SET), right(PATH)])
    assert result == [1.0, None, 0.0, 1.0]
    # No data_source column: a row is dure's when its ground truth holds a dure task.
    assert trl.reward_func(
        prompts=["p", "p"], completions=[right(SET), "42"], answer=[ground_truth_of(SET), "42"]
    ) == [
        1.0,
        None,
    ]
    assert trl.reward_func(prompts=["p"], completions=["x"]) == [None]
    assert trl.reward_func(prompts=None, completions=None) == []
    assert len(trl.reward_func(prompts=["p"] * 3, completions=["x"] * 3, data_source=["dure/callers"])) == 3


def test_trl_async_reward_func() -> None:
    rows = [row(t) for t in TASKS]
    result = asyncio.run(trl_call(trl.reward_func_async, rows, [right(t) for t in TASKS]))
    assert result == [1.0, 1.0, 1.0]
    assert asyncio.iscoroutinefunction(trl.reward_func_async)  # how TRL tells the two kinds apart


def test_trl_never_nan() -> None:
    rows = [row(SET)] * 4
    result = trl_call(trl.reward_func, rows, [None, 7, [{"role": "user"}], {"x": 1}])
    assert result == [0.0, 0.0, 0.0, 0.0]


# --- OpenRLHF -------------------------------------------------------------------------------------------


def test_openrlhf_reward_func_call() -> None:
    # openrlhf/utils/remote_rm_utils.py (RemoteRewardModel): a .py --remote_rm_url is loaded and called as
    # reward_func(queries, prompts, labels); queries are prompt + response decoded with special tokens.
    prompts = [f'<|im_start|>user\n{t.prompt} Answer like <answer>["x"]</answer>.<|im_end|>\n' for t in TASKS]
    responses = [right(SET), wrong(PATH), MALFORMED]
    queries = [
        f"<pad><pad>{p}<|im_start|>assistant\n{r}<|im_end|><|endoftext|>"
        for p, r in zip(prompts, responses, strict=True)
    ]
    labels = [row(t)["label"] for t in TASKS]
    result = openrlhf.reward_func(queries, prompts, labels)
    assert set(result) == {"rewards", "scores", "extra_logs"}
    rewards = list(result["rewards"])
    assert rewards[0] == 1.0
    assert rewards[1] < 1.0
    assert rewards[2] == 0.0
    assert list(result["extra_logs"]["dure_pass"]) == [1.0, 0.0, 0.0]
    assert list(result["extra_logs"]["dure_error"]) == [0.0, 0.0, 1.0]


def test_openrlhf_prompt_answer_examples_are_not_the_answer() -> None:
    prompt = f"{SET.prompt} For example <answer>{json.dumps(thaw(SET.answer))}</answer>"
    result = openrlhf.score_request([prompt + " I do not know."], [prompt], [row(SET)["label"]])
    assert result["rewards"] == [0.0]


def test_openrlhf_other_labels_and_garbage() -> None:
    result = openrlhf.score_request(["q1", "q2", "q3"], ["p", None], ['{"answer": 4}', None, 17])
    assert result["rewards"] == [0.0, 0.0, 0.0]
    assert result["extra_logs"]["dure_error"] == [1.0, 1.0, 1.0]
    assert all(e.startswith("bad ground truth") for e in result["errors"])
    assert openrlhf.score_request(None)["rewards"] == []
    assert openrlhf.score_request("not a list")["rewards"] == []


# --- SkyRL and rLLM --------------------------------------------------------------------------------------


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.kind.value)
def test_skyrl_env(task: Task) -> None:
    # skyrl_train/generators/skyrl_gym_generator.py: skyrl_gym.make(env_class, env_config=, extras=row),
    # env.init(chat_history), env.step(output) until done, env.close().
    extras = {**row(task), "max_turns": 1}
    env = skyrl.DureTextEnv(env_config={}, extras=extras)
    prompt, metadata = env.init(extras["prompt"])
    assert prompt == extras["prompt"]
    assert metadata == {}
    step = env.step(right(task))
    assert step["reward"] == 1.0
    assert step["done"] is True
    assert step["observations"] == []
    assert set(step) >= {"observations", "reward", "done", "metadata"}
    assert skyrl.DureTextEnv(env_config={}, extras=extras).step(MALFORMED)["reward"] == 0.0
    assert skyrl.DureTextEnv(env_config=None, extras=None).step(right(task))["reward"] == 0.0
    env.close()


def test_rllm_reward_function() -> None:
    # rllm/environments/base/single_turn_env.py: self.reward_fn(task_info=self.task, action=action).reward
    for task in TASKS:
        output = rllm.dure_reward_fn(task_info=row(task), action=right(task))
        assert output.reward == 1.0
        assert output.is_correct is True
    action = type("Action", (), {"action": right(SET)})()
    assert rllm.dure_reward_fn(task_info=row(SET), action=action).reward == 1.0
    bad = rllm.dure_reward_fn(task_info={"question": "x"}, action=right(SET))
    assert bad.reward == 0.0
    assert bad.is_correct is False
    assert bad.metadata["error"]


# --- verifiers -------------------------------------------------------------------------------------------


def write_export(root: Path) -> Path:
    """An export-like folder: data/<phase>/<kind>/<split>-*.parquet, one task in two phases."""
    pyarrow = pytest.importorskip("pyarrow")
    parquet = pytest.importorskip("pyarrow.parquet")
    layout = {("1", SET): "train", ("1", PATH): "train", ("2", SET): "train", ("2", DEFINITION): "validation"}
    for (phase, task), split in layout.items():
        folder = root / "data" / phase / task.kind.value
        folder.mkdir(parents=True, exist_ok=True)
        exported = {**row(task), "phase": int(phase)}
        parquet.write_table(pyarrow.Table.from_pylist([exported]), folder / f"{split}-00000-of-00001.parquet")
    return root


def test_verifiers_taskset_scores_through_its_reward(tmp_path: Path) -> None:
    vf = pytest.importorskip("verifiers.v1")
    loaders = pytest.importorskip("verifiers.v1.utils.loaders")
    verifiers_env = importlib.import_module("dure.integrations.verifiers_env")

    # A taskset package exports exactly one Taskset subclass in __all__ (verifiers/v1/utils/loaders.py).
    assert loaders._plugin_class(verifiers_env, vf.Taskset, "taskset") is verifiers_env.DureTaskset
    config = verifiers_env.DureTasksetConfig(path=write_export(tmp_path))
    tasks = list(verifiers_env.DureTaskset(config))
    # Every phase, each task once, train only, in file order (data/1/call-path before data/1/callers).
    assert [t.data.id for t in tasks] == [PATH.id, SET.id]
    assert [t.data.idx for t in tasks] == [0, 1]
    assert tasks[1].key == SET.id
    assert tasks[1].data.prompt == SET.prompt
    assert tasks[1].data.system_prompt == "You are in demo 1.0."
    only = verifiers_env.DureTasksetConfig(path=tmp_path, phase="2", split="validation", kinds=["definition"])
    assert [t.data.id for t in verifiers_env.DureTaskset(only)] == [DEFINITION.id]

    async def scored(task: Any, reply: str) -> Any:
        # verifiers/v1/task.py: the environment awaits task.score(trace) after the rollout.
        trace = vf.Trace(
            task=vf.TraceTask(type="DureTask", data=task.data), agent=vf.AgentInfo(config=vf.AgentConfig())
        )
        trace.root_reply = reply
        await task.score(trace)
        return trace

    trace = asyncio.run(scored(tasks[1], right(SET)))
    assert trace.reward == 1.0
    assert trace.metrics == {"dure_passed": 1.0, "dure_format": 1.0}
    trace = asyncio.run(scored(tasks[0], MALFORMED))
    assert trace.reward == 0.0
    assert "malformed" in trace.info["dure_error"]


def test_verifiers_finds_the_taskset_by_its_id(tmp_path: Path) -> None:
    """``--env.taskset.id dure-taskset``: verifiers imports the top-level package and validates the config."""
    pytest.importorskip("verifiers.v1")
    loaders = pytest.importorskip("verifiers.v1.utils.loaders")
    verifiers_env = importlib.import_module("dure.integrations.verifiers_env")
    assert loaders.taskset_class("dure-taskset") is verifiers_env.DureTaskset
    config = loaders.taskset_config_type("dure-taskset").model_validate(
        {"id": "dure-taskset", "path": str(write_export(tmp_path)), "phase": "1"}
    )
    taskset = loaders.load_taskset(config)
    assert [task.data.id for task in taskset] == [PATH.id, SET.id]


def test_samples_of_one_type_completion_prompt_cost_one_checker_run(checker_runs: list[int]) -> None:
    """A GRPO batch holds several samples per prompt: the types verifier judges them in one checker run."""
    types_tests = importlib.import_module("test_verifiers_types")
    from dure.scoring import score  # noqa: PLC0415

    task = types_tests.task()
    gold = thaw(task.answer)
    upper = types_tests.UPPER_RETURN
    samples = [
        json.dumps({**gold, upper: "Names"}),
        json.dumps({**gold, upper: "int"}),
        json.dumps(dict.fromkeys(gold, "object")),
        right(task),
        MALFORMED,
    ]
    alone = [score(task, text) for text in samples]
    checker_runs.clear()
    truth = ground_truth_of(task)
    other = ground_truth_of(SET)
    mixed = [*samples, right(SET)]
    scored = core.rewards(mixed, [truth] * len(samples) + [other])
    assert len(checker_runs) == 1
    assert [s.value for s in scored] == [s.value for s in alone] + [1.0]
    batch = verl.compute_score_batch(
        data_sources=["dure/type-completion"] * len(samples),
        solution_strs=samples,
        ground_truths=[truth] * len(samples),
        extra_infos=[None] * len(samples),
    )
    assert [b["score"] for b in batch] == [s.value for s in alone]
    assert len(checker_runs) == 2

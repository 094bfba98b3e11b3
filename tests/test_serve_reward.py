"""``dure serve-reward``: OpenRLHF's remote reward contract over loopback, with many concurrent clients.

OpenRLHF posts ``{"query", "prompts", "labels"}`` as JSON and reads ``rewards`` from the answer
(openrlhf/utils/remote_rm_utils.py, ``request_api_wrapper``).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from task_factories import exact_task, path_task, set_task

from dure.integrations import core
from dure.integrations.core import ground_truth_of
from dure.integrations.server import RewardServer, make_server
from dure.tasks import Task, thaw

TASKS = [set_task(["pkg.a", "pkg.b"]), path_task(), exact_task()]


def label(task: Task) -> str:
    return json.dumps({"task_id": task.id, "ground_truth": ground_truth_of(task)})


def answers(task: Task) -> list[str]:
    return [f"<answer>{json.dumps(thaw(task.answer))}</answer>", '<answer>["pkg.a"]</answer>', "no idea"]


@pytest.fixture
def server() -> Iterator[RewardServer]:
    running = make_server("127.0.0.1", 0, timeout=10)
    thread = threading.Thread(target=running.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield running
    running.shutdown()
    running.server_close()
    thread.join(timeout=5)


def post(url: str, body: bytes, content_type: str = "application/json") -> tuple[int, Any]:
    request = urllib.request.Request(url, data=body, headers={"Content-Type": content_type}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as refused:
        with refused:
            return refused.code, json.loads(refused.read())


def batch(seed: int) -> tuple[dict[str, Any], list[float]]:
    """A request of every task and answer (rotated by ``seed``) and the rewards core.reward gives it."""
    pairs = [(task, text) for task in TASKS for text in answers(task)]
    pairs = pairs[seed % len(pairs) :] + pairs[: seed % len(pairs)]
    prompts = [f"<|user|>{task.prompt}<|assistant|>" for task, _ in pairs]
    body = {
        "query": [prompt + text for prompt, (_, text) in zip(prompts, pairs, strict=True)],
        "prompts": prompts,
        "labels": [label(task) for task, _ in pairs],
    }
    expected = [core.reward(text, ground_truth_of(task)).value for task, text in pairs]
    return body, expected


def test_concurrent_clients_get_the_direct_scores(server: RewardServer) -> None:
    def client(seed: int) -> bool:
        body, expected = batch(seed)
        status, payload = post(server.url, json.dumps(body).encode())
        assert status == 200
        assert payload["rewards"] == expected
        assert payload["scores"] == expected
        assert set(payload["extra_logs"]) == {"dure_pass", "dure_format", "dure_error"}
        assert all(len(v) == len(expected) for v in payload["extra_logs"].values())
        return True

    with ThreadPoolExecutor(max_workers=16) as clients:
        assert all(clients.map(client, range(64)))
    base = server.url.removesuffix("/get_reward")
    status, _ = post(base + "/", json.dumps(batch(0)[0]).encode())  # "/" works too
    assert status == 200
    with urllib.request.urlopen(base + "/health", timeout=10) as response:
        health = json.loads(response.read())
    assert health["status"] == "ok"
    assert health["served"] == 65 * 9


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (b"{not json", "not JSON"),
        (b"[1, 2]", "JSON object"),
        (b'{"prompts": []}', '"query" list'),
        (b'{"query": "one string"}', '"query" list'),
        (b"", "not JSON"),
        (b"\xff\xfe", "not JSON"),
    ],
)
def test_bad_requests_get_400_and_the_server_keeps_serving(
    server: RewardServer, body: bytes, reason: str
) -> None:
    status, payload = post(server.url, body)
    assert status == 400
    assert reason in payload["error"]
    good, expected = batch(1)
    status, payload = post(server.url, json.dumps(good).encode())
    assert status == 200
    assert payload["rewards"] == expected


def test_garbage_items_score_zero(server: RewardServer) -> None:
    body = {"query": [None, 5, "text", ["a"]], "prompts": None, "labels": [None, "{", '{"x": 1}']}
    status, payload = post(server.url, json.dumps(body).encode())
    assert status == 200
    assert payload["rewards"] == [0.0, 0.0, 0.0, 0.0]
    assert payload["extra_logs"]["dure_error"] == [1.0, 1.0, 1.0, 1.0]
    status, payload = post(server.url, b'{"query": []}')
    assert (status, payload["rewards"]) == (200, [])


def test_unknown_get_is_404(server: RewardServer) -> None:
    base = server.url.removesuffix("/get_reward")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(base + "/nothing", timeout=10)
    refused.value.close()
    assert refused.value.code == 404


def test_command_prints_its_url_and_stops_on_sigterm() -> None:
    command = [
        sys.executable,
        "-m",
        "dure",
        "serve-reward",
        "--port",
        "0",
        "--timeout",
        "5",
        "--workers",
        "4",
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("dure serve-reward: http://127.0.0.1:")
        url = line.split()[2]
        body, expected = batch(2)
        assert post(url, json.dumps(body).encode())[1]["rewards"] == expected
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0
    finally:
        if process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
            process.wait()
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()

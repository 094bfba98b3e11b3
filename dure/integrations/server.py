"""An HTTP reward server speaking OpenRLHF's remote reward-model contract (``dure serve-reward``).

OpenRLHF posts ``{"query": [...], "prompts": [...], "labels": [...]}`` as JSON to the URL given in
``--remote_rm_url`` (its examples use ``/get_reward``; any path but ``/health`` is accepted) and reads
``rewards``, ``scores`` and ``extra_logs`` from the JSON answer (openrlhf/utils/remote_rm_utils.py). Bad
JSON or a body without a ``query`` list gets HTTP 400 with ``{"error": ...}``; nothing a client sends stops
the server. Each connection has its own thread; answers are scored in the shared reward pool.
"""

from __future__ import annotations

import json
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from dure.integrations import core
from dure.integrations.openrlhf import score_request

REWARD_PATH = "/get_reward"
HEALTH_PATH = "/health"
MAX_BODY_BYTES = 512 * 1024 * 1024  # a rollout batch of long responses is large, but not this large


class RewardServer(ThreadingHTTPServer):
    """A threading HTTP server that knows its per-answer timeout."""

    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128

    def __init__(self, address: tuple[str, int], *, timeout: float | None = None) -> None:
        super().__init__(address, RewardHandler)
        self.answer_timeout = core.safe_timeout(timeout, core.default_timeout())
        self.served = 0
        self.lock = threading.Lock()

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        shown = host.decode() if isinstance(host, bytes) else host
        return f"http://{shown}:{port}{REWARD_PATH}"


class RewardHandler(BaseHTTPRequestHandler):
    """``POST`` scores a batch; ``GET /health`` says the server is up."""

    server: RewardServer
    protocol_version = "HTTP/1.1"  # keep-alive: a trainer posts every step over the same connection

    def do_GET(self) -> None:
        if self.path.split("?", 1)[0] == HEALTH_PATH:
            self._reply(HTTPStatus.OK, {"status": "ok", "served": self.server.served})
        else:
            self._reply(
                HTTPStatus.NOT_FOUND, {"error": f"GET {HEALTH_PATH}, or POST a batch to {REWARD_PATH}"}
            )

    def do_POST(self) -> None:
        try:
            body = self._body()
        except ValueError as problem:
            self._reply(HTTPStatus.BAD_REQUEST, {"error": str(problem)})
            return
        if body is None:
            return
        queries = body.get("query", body.get("queries"))
        if not isinstance(queries, list):
            self._reply(HTTPStatus.BAD_REQUEST, {"error": 'the body needs a "query" list'})
            return
        response = score_request(
            queries, body.get("prompts"), body.get("labels"), timeout=self.server.answer_timeout
        )
        with self.server.lock:
            self.server.served += len(queries)
        self._reply(HTTPStatus.OK, response)

    def _body(self) -> dict[str, Any] | None:
        """The JSON object posted; ``None`` when a reply was already sent (the body is too large)."""
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            raise ValueError("bad Content-Length") from None
        if length > MAX_BODY_BYTES:
            self.close_connection = True
            self._reply(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, {"error": f"body over {MAX_BODY_BYTES} bytes"})
            return None
        raw = self.rfile.read(length) if length > 0 else b""
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError) as problem:
            raise ValueError(f"the body is not JSON: {str(problem)[:200]}") from None
        if not isinstance(data, dict):
            raise ValueError(f"the body must be a JSON object, not {type(data).__name__}")
        return data

    def _reply(self, status: HTTPStatus, payload: dict[str, Any]) -> None:
        data = json.dumps(payload, allow_nan=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: a trainer posts every step, and a line per request would drown its logs."""


def make_server(host: str = "127.0.0.1", port: int = 0, *, timeout: float | None = None) -> RewardServer:
    """A bound server (``port=0`` picks a free port); call ``serve_forever()`` to run it."""
    return RewardServer((host, port), timeout=timeout)


__all__ = ["HEALTH_PATH", "REWARD_PATH", "RewardServer", "make_server"]

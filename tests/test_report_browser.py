"""``dure report``'s page opened in headless Chromium: it renders, and nothing logs an error.

The browser is driven over the DevTools protocol on a pipe (``--remote-debugging-pipe``: JSON messages ending
in a NUL byte on file descriptors 3 and 4), with the standard library only. Console errors, uncaught
exceptions and browser log errors (a blocked resource, a CSP violation) all count; a deliberately broken page
proves the check sees each of them, so it cannot pass by seeing nothing.
"""

from __future__ import annotations

import fcntl
import json
import os
import select
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from task_factories import REPO, exact_task, path_task, set_task

from dure.report import write_report
from dure.tasks import VerifierSpec, make_task, write_tasks

pytestmark = pytest.mark.slow

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
SETTLE = 0.5  # seconds to keep listening after the load event, for errors raised by late scripts
TIMEOUT = 60.0
# Puts the pipe ends on fds 3 and 4, where --remote-debugging-pipe expects them, then becomes the browser.
TRAMPOLINE = (
    "import os, sys; os.dup2(int(sys.argv[1]), 3); os.dup2(int(sys.argv[2]), 4); "
    "os.execv(sys.argv[3], sys.argv[3:])"
)


def browser_binary() -> str:
    """The Chromium to use; skips when there is none, unless ``CI`` is set (then a missing browser fails)."""
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    message = "no Chromium binary found (install Debian's 'chromium' package)"
    if os.environ.get("CI"):
        pytest.fail(f"{message}; CI is set, so this is a failure, not a skip")
    pytest.skip(message)


@dataclass
class PageLoad:
    """What one page load showed: error messages, warnings, and the values the probe expression returned."""

    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    probe: Any = None


class Browser:
    """A headless Chromium spoken to over the DevTools protocol on a pipe."""

    def __init__(self, binary: str, profile: Path) -> None:
        to_child, self._to_browser = os.pipe()
        self._from_browser, from_child = os.pipe()
        # Above fd 9, so that putting them on 3 and 4 cannot clobber one with the other.
        high_in = fcntl.fcntl(to_child, fcntl.F_DUPFD_CLOEXEC, 10)
        high_out = fcntl.fcntl(from_child, fcntl.F_DUPFD_CLOEXEC, 10)
        os.close(to_child)
        os.close(from_child)
        flags = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--remote-debugging-pipe",
            f"--user-data-dir={profile}",
            "about:blank",
        ]
        self.process = subprocess.Popen(
            [sys.executable, "-c", TRAMPOLINE, str(high_in), str(high_out), binary, *flags],
            pass_fds=(high_in, high_out),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(high_in)
        os.close(high_out)
        self._buffer = b""
        self._next_id = 0
        self._events: list[dict[str, Any]] = []
        try:
            self.session = self._attach()
        except BaseException:
            self.close()
            raise

    def _attach(self) -> str:
        targets = self.call("Target.getTargets", session=None)["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        return str(
            self.call("Target.attachToTarget", {"targetId": page["targetId"], "flatten": True}, None)[
                "sessionId"
            ]
        )

    def _send(self, method: str, params: dict[str, Any], session: str | None) -> int:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if session is not None:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        return self._next_id

    def _receive(self, deadline: float) -> dict[str, Any] | None:
        """The next message, or None when ``deadline`` passes first."""
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self._from_browser], [], [], left)
            if ready:
                chunk = os.read(self._from_browser, 1 << 16)
                if not chunk:
                    raise RuntimeError("the browser closed the pipe")
                self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        return dict(json.loads(message))

    def call(self, method: str, params: dict[str, Any] | None = None, session: str | None = "") -> Any:
        """Send a command (to the page's session unless told otherwise) and return its result."""
        number = self._send(method, params or {}, self.session if session == "" else session)
        deadline = time.monotonic() + TIMEOUT
        while (message := self._receive(deadline)) is not None:
            if message.get("id") == number:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self._events.append(message)
        raise TimeoutError(f"{method}: no answer in {TIMEOUT} s")

    def events(self, until: float) -> Iterator[dict[str, Any]]:
        """Events already queued, then those arriving until the monotonic time ``until``."""
        while self._events:
            yield self._events.pop(0)
        while (message := self._receive(until)) is not None:
            yield message

    def load(self, url: str, probe: str = "null") -> PageLoad:
        """Open ``url``, wait for its load event and ``SETTLE`` seconds more, then evaluate ``probe``."""
        for domain in ("Runtime", "Log", "Page"):
            self.call(f"{domain}.enable")
        self.call("Page.navigate", {"url": url})
        found = PageLoad()
        loaded_at: float | None = None
        limit = time.monotonic() + TIMEOUT
        while loaded_at is None or time.monotonic() < loaded_at + SETTLE:
            until = limit if loaded_at is None else loaded_at + SETTLE
            for event in self.events(until):
                _classify(event, found)
                if loaded_at is None and event.get("method") == "Page.loadEventFired":
                    loaded_at = time.monotonic()
                    break  # listen on with the settle deadline
            if loaded_at is None and time.monotonic() >= limit:
                raise TimeoutError(f"{url}: no load event in {TIMEOUT} s")
        result = self.call("Runtime.evaluate", {"expression": probe, "returnByValue": True})
        if "exceptionDetails" in result:
            found.errors.append(f"probe failed: {result['exceptionDetails']}")
        found.probe = result.get("result", {}).get("value")
        for event in self.events(time.monotonic() + 0.2):  # errors the probe itself caused
            _classify(event, found)
        return found

    def close(self) -> None:
        try:
            if self.process.poll() is None:
                self._send("Browser.close", {}, None)
            self.process.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
        finally:
            os.close(self._to_browser)
            os.close(self._from_browser)


def _classify(event: dict[str, Any], found: PageLoad) -> None:
    """Sort one DevTools event into errors and warnings (anything else is ignored)."""
    method, params = event.get("method"), event.get("params", {})
    if method == "Runtime.exceptionThrown":
        details = params.get("exceptionDetails", {})
        description = details.get("exception", {}).get("description") or details.get("text", "")
        found.errors.append(f"uncaught: {description}")
    elif method == "Runtime.consoleAPICalled":
        text = " ".join(str(arg.get("value", arg.get("description", ""))) for arg in params.get("args", []))
        if params.get("type") in {"error", "assert"}:
            found.errors.append(f"console.{params['type']}: {text}")
        elif params.get("type") == "warning":
            found.warnings.append(f"console.warn: {text}")
    elif method == "Log.entryAdded":
        entry = params.get("entry", {})
        if entry.get("level") == "error":
            found.errors.append(f"log ({entry.get('source')}): {entry.get('text')}")
        elif entry.get("level") == "warning":
            found.warnings.append(f"log ({entry.get('source')}): {entry.get('text')}")


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    opened = Browser(browser_binary(), tmp_path_factory.mktemp("chromium-profile"))
    yield opened
    opened.close()


PROBE = """JSON.stringify({
  title: document.title,
  headings: Array.from(document.querySelectorAll("h2")).map(function (h) { return h.textContent; }),
  svgs: document.querySelectorAll("svg.chart").length,
  bars: document.querySelectorAll("svg.chart rect").length,
  scripts: document.querySelectorAll("script").length,
  width: (document.querySelector("svg.chart") || {getBoundingClientRect: function () { return {width: 0}; }})
    .getBoundingClientRect().width,
  sorted: (function () {
    var th = document.querySelector("table.sortable th");
    if (th) { th.click(); th.click(); }
    return !!th;
  })()
})"""


def small_dataset(root: Path) -> Path:
    """A generate-like directory: a few tasks of three kinds, one with markup in its prompt, and a report."""
    hostile = make_task(
        kind="definition",
        repo=REPO,
        prompt='Where is <script>console.error("prompt")</script> defined? Answer in <answer></answer>.',
        inputs={"description": "hostile"},
        answer="pkg.<b>",
        answer_schema={"type": "string"},
        verifier=VerifierSpec("exact"),
        phase=2,
        difficulty={"hops": 2, "files": 1, "answer_size": 1},
    )
    tasks = [set_task(["pkg.a", "pkg.b"]), path_task(), exact_task(), hostile]
    (root / "tasks").mkdir(parents=True)
    write_tasks(root / "tasks" / "demo-1.0.jsonl", tasks)
    report = {
        "repository": "demo",
        "tasks": {"callers": {"1": 1}, "call-path": {"1": 1}, "definition": {"1": 1, "2": 1}},
        "drops": {"callers": {"uncertain": 3}, "definition": {"leak": 1}},
        "trace": {"checked": 2, "misses": 0, "tests_ran": True, "error": None},
    }
    (root / "reports").mkdir()
    (root / "reports" / "demo-1.0.json").write_text(json.dumps(report), encoding="utf-8")
    return root


def test_report_renders_without_console_errors(browser: Browser, tmp_path: Path) -> None:
    scores = tmp_path / "scores.jsonl"
    task = set_task(["pkg.a", "pkg.b"])
    scores.write_text(
        json.dumps({"task_id": task.id, "kind": "callers", "phase": 1, "value": 1.0, "passed": True}) + "\n"
    )
    written, _ = write_report(small_dataset(tmp_path / "gen"), scores=scores)
    page = browser.load(written.as_uri(), PROBE)
    assert page.errors == []
    facts = json.loads(page.probe)
    assert facts["title"].startswith("dure report")
    for heading in (
        "Overview",
        "Tasks by kind and phase",
        "Difficulty features",
        "Audit",
        "Scores",
        "Sample tasks",
    ):
        assert heading in facts["headings"]
    assert facts["svgs"] >= 8
    assert facts["bars"] > 10
    assert facts["width"] > 100
    assert facts["scripts"] == 1  # the sorter; the prompt's <script> stayed text
    assert facts["sorted"]


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ('console.error("planted console error");', "planted console error"),
        ('throw new Error("planted exception");', "planted exception"),
        ("setTimeout(function () { undefinedFunction(); }, 100);", "undefinedFunction"),
        (
            'document.body.appendChild(document.createElement("img")).src = "https://example.invalid/x.png";',
            "example.invalid",
        ),
    ],
    ids=["console-error", "uncaught", "late-error", "blocked-request"],
)
def test_the_check_catches_a_broken_page(
    browser: Browser, tmp_path: Path, script: str, expected: str
) -> None:
    """The same check on a page that errors on purpose must see the error (else it proves nothing)."""
    page = tmp_path / "broken.html"
    policy = "default-src 'none'; script-src 'unsafe-inline'"
    page.write_text(
        f'<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="{policy}">'
        f"<title>broken</title></head><body><h2>x</h2><script>{script}</script></body></html>",
        encoding="utf-8",
    )
    found = browser.load(page.as_uri(), "document.title")
    assert found.probe == "broken"
    assert any(expected in error for error in found.errors), found.errors


def test_a_clean_page_has_no_errors(browser: Browser, tmp_path: Path) -> None:
    """The other side of the proof: console.log and a warning are not errors."""
    page = tmp_path / "clean.html"
    page.write_text(
        '<!DOCTYPE html><html><head><title>clean</title></head><body><script>console.log("fine");'
        'console.warn("careful");</script></body></html>',
        encoding="utf-8",
    )
    found = browser.load(page.as_uri(), "document.title")
    assert (found.probe, found.errors) == ("clean", [])
    assert any("careful" in warning for warning in found.warnings)

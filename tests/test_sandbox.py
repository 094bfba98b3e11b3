"""The sandbox: timeouts kill the whole process group, limits hold, the environment is scrubbed."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from dure.sandbox import TRAMPOLINE, Limits, network_isolation_prefix, run_sandboxed, sandbox_user

# When dure runs as root the child drops to ``nobody``, which must be able to run the interpreter.
PYTHON = shutil.which("python3", path="/usr/bin:/usr/local/bin") or sys.executable


def python(code: str) -> list[str]:
    return [PYTHON, "-c", textwrap.dedent(code)]


def alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "\nState:\tZ" not in status


def test_a_clean_exit_is_ok_and_output_is_captured() -> None:
    result = run_sandboxed(python("print('hello'); import sys; print('err', file=sys.stderr)"))
    assert result.ok
    assert result.stdout == "hello\n"
    assert result.stderr == "err\n"


def test_code_that_raised_does_not_pass() -> None:
    result = run_sandboxed(python("raise ValueError('boom')"))
    assert not result.ok
    assert result.exit_code == 1
    assert "ValueError: boom" in result.stderr


def test_a_timeout_kills_the_child_and_its_grandchildren(tmp_path: Path) -> None:
    script = """
        import subprocess, time
        child = subprocess.Popen(["sleep", "60"])
        print(child.pid, flush=True)
        time.sleep(60)
    """
    started = time.monotonic()
    result = run_sandboxed(python(script), limits=Limits(timeout=1.5))
    assert time.monotonic() - started < 10
    assert result.timed_out
    assert "time" in result.limits_hit
    assert not result.ok
    grandchild = int(result.stdout.split()[0])
    deadline = time.monotonic() + 5
    while alive(grandchild) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(grandchild)


def test_a_memory_hog_is_stopped() -> None:
    result = run_sandboxed(python("x = bytearray(2 * 1024**3)"), limits=Limits(memory=256 * 1024**2))
    assert not result.ok
    assert "memory" in result.limits_hit


def test_a_huge_file_is_stopped() -> None:
    code = "open('big', 'wb').write(b'x' * (8 * 1024**2))"
    result = run_sandboxed(python(code), limits=Limits(file_size=1024**2))
    assert not result.ok
    assert "file_size" in result.limits_hit


def test_a_fork_bomb_is_bounded() -> None:
    script = """
        import os, time
        count = 0
        for _ in range(2000):
            try:
                pid = os.fork()
            except OSError:
                break
            if pid == 0:
                time.sleep(3)
                os._exit(0)
            count += 1
        print(count, flush=True)
    """
    result = run_sandboxed(python(script), limits=Limits(processes=16, timeout=20))
    if os.geteuid() == 0 and not result.dropped_privileges:
        pytest.skip("running as root without a 'nobody' user: RLIMIT_NPROC does not apply to root")
    assert int(result.stdout.split()[0]) < 16


def test_the_environment_is_scrubbed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DURE_TEST_SECRET", "hunter2")
    code = "import os, json; print(json.dumps(dict(os.environ)))"
    result = run_sandboxed(python(code), env={"GIVEN": "yes"})
    assert result.ok
    assert "hunter2" not in result.stdout
    assert '"GIVEN": "yes"' in result.stdout
    assert "dure-sandbox-" in result.stdout  # HOME and TMPDIR are private


def test_the_directory_is_a_private_copy(tmp_path: Path) -> None:
    (tmp_path / "data.txt").write_text("original")
    code = "open('data.txt', 'w').write('changed'); print(open('data.txt').read())"
    result = run_sandboxed(python(code), directory=tmp_path)
    assert result.ok
    assert result.stdout == "changed\n"
    assert (tmp_path / "data.txt").read_text() == "original"


def test_no_network_when_the_kernel_allows_it() -> None:
    if network_isolation_prefix() is None:
        pytest.skip("this kernel does not allow unshare -n here")
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        code = f"import socket; socket.create_connection(('127.0.0.1', {port}), timeout=2)"
        isolated = run_sandboxed(python(code))
        assert isolated.network_isolated
        assert not isolated.ok
        allowed = run_sandboxed(python(code), limits=Limits(network=True))
        assert allowed.ok, allowed.stderr


SELF_SERVED = """
import socket
import subprocess
with socket.socket() as server:
    server.bind(("127.0.0.1", 0))
    server.listen()
    with socket.create_connection(server.getsockname(), timeout=2):
        print("served itself")
"""


def test_a_program_can_serve_itself_on_the_loopback_interface() -> None:
    # A fresh network namespace starts with loopback down: a test's own server would be unreachable.
    result = run_sandboxed(python(SELF_SERVED))
    assert result.ok, result.stderr
    assert result.stdout == "served itself\n"


def test_a_kernel_that_refuses_to_bring_loopback_up_still_runs_the_command() -> None:
    # Outside a private namespace and without privileges, setting the interface's flags fails with EPERM.
    user, python = sandbox_user(), shutil.which("python3", path="/usr/bin:/bin")
    if user is None or python is None:
        pytest.skip("needs root and a system python3, to run the trampoline as an unprivileged user")
    argv = [
        python,
        "-I",
        "-S",
        "-c",
        TRAMPOLINE,
        "-1",
        "-1",
        "-1",
        "-1",
        "-1",
        "-1",
        "1",
        "--",
        "echo",
        "ran",
    ]
    result = subprocess.run(argv, capture_output=True, text=True, user=user[0], group=user[1], check=False)
    assert (result.returncode, result.stdout) == (0, "ran\n"), result.stderr


def test_a_command_that_cannot_start_is_reported() -> None:
    result = run_sandboxed(["/nonexistent/program"])
    assert not result.ok
    assert result.exit_code != 0


def test_programs_on_the_path_run_as_the_sandbox_user() -> None:
    result = run_sandboxed(["id", "-u"])
    assert result.ok, result.stderr
    if result.dropped_privileges:
        assert result.stdout.strip() != "0"

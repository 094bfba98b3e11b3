"""Run a command in a child process under limits: time, memory, file size, processes, no network.

The child runs in a private temporary copy of a directory with a scrubbed environment, in its own process
group (killed as a whole on timeout, grandchildren included), under ``RLIMIT_AS``/``RLIMIT_FSIZE``/
``RLIMIT_NPROC``/``RLIMIT_CPU`` set by a tiny trampoline (no ``preexec_fn``, which is unsafe with threads).
When dure runs as root the child drops to ``nobody`` (root ignores ``RLIMIT_NPROC``). The network is cut with
``unshare -n`` when the kernel allows it (only the loopback interface is left, up, for tests that serve
themselves); a probe runs once and the result says whether it held.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

TAIL_BYTES = 8192
SAFE_PATH = "/usr/local/bin:/usr/bin:/bin"

# ``python -I -S -c TRAMPOLINE AS FSIZE NPROC CPU UID GID LOOPBACK -- argv...``: bring the loopback interface
# of a fresh network namespace up (it starts down: a test's own local server would be unreachable and the
# test would hang), set limits, drop privileges, exec.
TRAMPOLINE = """
import os, resource, sys, warnings  # execvp imports warnings lazily: import it before dropping privileges
limit_as, fsize, nproc, cpu, uid, gid, loopback = (int(x) for x in sys.argv[1:8])
if loopback:
    import fcntl, socket, struct
    try:  # where the kernel refuses, loopback stays down: the command still runs, as before
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as control:
            request = struct.pack("16sH14x", b"lo", 0)
            flags = struct.unpack("16sH14x", fcntl.ioctl(control, 0x8913, request))[1]  # SIOCGIFFLAGS
            fcntl.ioctl(control, 0x8914, struct.pack("16sH14x", b"lo", flags | 1))  # SIOCSIFFLAGS, IFF_UP
    except OSError:
        pass
for which, value in ((resource.RLIMIT_AS, limit_as), (resource.RLIMIT_FSIZE, fsize),
                     (resource.RLIMIT_NPROC, nproc), (resource.RLIMIT_CPU, cpu), (resource.RLIMIT_CORE, 0)):
    if value >= 0:
        resource.setrlimit(which, (value, value))
if uid >= 0:
    os.setgroups([])
    os.setgid(gid)
    os.setuid(uid)
argv = sys.argv[9:]
os.execvp(argv[0], argv)
"""

#: What a sandboxed command can do follows from the trampoline: results cached from sandboxed runs keep it.
SANDBOX_VERSION = hashlib.sha256(TRAMPOLINE.encode("utf-8")).hexdigest()[:12]


@dataclass(frozen=True, slots=True)
class Limits:
    """Resource limits of one sandboxed run (``None`` leaves a limit as inherited)."""

    timeout: float = 60.0  # wall-clock seconds
    memory: int | None = 2 * 1024**3  # bytes of address space
    file_size: int | None = 256 * 1024**2  # bytes any one file may grow to
    processes: int | None = 64  # processes and threads of the sandbox user
    cpu: int | None = None  # CPU seconds (defaults to the timeout, rounded up)
    network: bool = False  # allow the network


@dataclass(frozen=True, slots=True)
class SandboxResult:
    """What a sandboxed run did; ``ok`` only when it exited 0 within every limit."""

    exit_code: int | None  # negative: killed by that signal; None: never started
    stdout: str  # the last TAIL_BYTES bytes
    stderr: str
    timed_out: bool
    limits_hit: tuple[str, ...]  # "time", "cpu", "file_size", "memory" (inferred from the error output)
    network_isolated: bool
    dropped_privileges: bool
    duration: float

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not self.timed_out and not self.limits_hit


@functools.cache
def network_isolation_prefix() -> tuple[str, ...] | None:
    """The command prefix that cuts the network here (probed once), or ``None`` when the kernel refuses."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return None
    prefix = (unshare, "-n") if os.geteuid() == 0 else (unshare, "-r", "-n")
    try:
        probe = subprocess.run([*prefix, "true"], capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return prefix if probe.returncode == 0 else None


def sandbox_user() -> tuple[int, int] | None:
    """``(uid, gid)`` to drop to when running as root; ``None`` when not root or no ``nobody`` exists."""
    if os.geteuid() != 0:
        return None
    try:
        entry = pwd.getpwnam("nobody")
    except KeyError:
        return None
    return entry.pw_uid, entry.pw_gid


def run_sandboxed(
    argv: Sequence[str],
    *,
    directory: Path | str | None = None,
    limits: Limits | None = None,
    env: Mapping[str, str] | None = None,
    stdin: str = "",
) -> SandboxResult:
    """Run ``argv`` in a private copy of ``directory`` (or an empty one) under ``limits``.

    The command's own failures never raise: one that cannot start gives ``exit_code=None`` and the reason.
    """
    limits = limits or Limits()
    with tempfile.TemporaryDirectory(prefix="dure-sandbox-") as scratch:
        root = Path(scratch)
        work, home, tmp = root / "work", root / "home", root / "tmp"
        if directory is not None:
            shutil.copytree(directory, work, symlinks=True)
        else:
            work.mkdir()
        home.mkdir()
        tmp.mkdir()
        user = sandbox_user()
        if user is not None:
            _chown_tree(root, *user)
        child_env = {"PATH": SAFE_PATH, "HOME": str(home), "TMPDIR": str(tmp), "LANG": "C.UTF-8",
                     "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1", **(env or {})}  # fmt: skip
        prefix = () if limits.network else (network_isolation_prefix() or ())
        command = [
            *prefix,
            sys.executable,
            "-I",
            "-S",
            "-c",
            TRAMPOLINE,
            *_limit_args(limits, user),
            str(int(bool(prefix))),
            "--",
            *argv,
        ]
        return _run(command, cwd=work, root=root, env=child_env, limits=limits, stdin=stdin,
                    isolated=bool(prefix), dropped=user is not None)  # fmt: skip


def _limit_args(limits: Limits, user: tuple[int, int] | None) -> list[str]:
    cpu = limits.cpu if limits.cpu is not None else int(limits.timeout) + 1
    values = (limits.memory, limits.file_size, limits.processes, cpu)
    uid, gid = user if user is not None else (-1, -1)
    return [str(-1 if value is None else value) for value in values] + [str(uid), str(gid)]


def _chown_tree(root: Path, uid: int, gid: int) -> None:
    for path in [root, *root.rglob("*")]:
        os.lchown(path, uid, gid)


def _run(
    command: list[str],
    *,
    cwd: Path,
    root: Path,
    env: dict[str, str],
    limits: Limits,
    stdin: str,
    isolated: bool,
    dropped: bool,
) -> SandboxResult:
    started = time.monotonic()
    out_path, err_path = root / "stdout", root / "stderr"
    with out_path.open("wb") as out, err_path.open("wb") as err:
        try:
            child = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=out, stderr=err,
                                     start_new_session=True)  # fmt: skip
        except OSError as problem:
            return SandboxResult(None, "", f"cannot start: {problem}", False, (), isolated, dropped, 0.0)
        timed_out = False
        try:
            child.communicate(stdin.encode("utf-8"), timeout=limits.timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
        finally:
            _kill_group(child.pid)
            child.wait()
    stdout, stderr = _tail(out_path), _tail(err_path)
    hit = _limits_hit(child.returncode, stderr, timed_out)
    duration = time.monotonic() - started
    return SandboxResult(child.returncode, stdout, stderr, timed_out, hit, isolated, dropped, duration)


def _kill_group(pgid: int) -> None:
    """Kill every process left in the child's group (the child leads it), grandchildren included."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def _tail(path: Path) -> str:
    with path.open("rb") as stream:
        stream.seek(max(0, path.stat().st_size - TAIL_BYTES))
        return stream.read().decode("utf-8", errors="replace")


def _limits_hit(code: int | None, stderr: str, timed_out: bool) -> tuple[str, ...]:
    hit = []
    if timed_out:
        hit.append("time")
    if code == -signal.SIGXCPU:
        hit.append("cpu")
    if code == -signal.SIGXFSZ or "File too large" in stderr:
        hit.append("file_size")
    if "MemoryError" in stderr or "Cannot allocate memory" in stderr or "std::bad_alloc" in stderr:
        hit.append("memory")
    if "Resource temporarily unavailable" in stderr or "BlockingIOError" in stderr:
        hit.append("processes")
    return tuple(hit)

"""Work that writes the index cache, done on another core while this process goes on (Linux: a forked
child). The cache stays complete: :meth:`Background.wait` returns once the work is done, and does it here
when the child could not."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable


def may_fork() -> bool:
    """Only a single-threaded process forks safely (another thread may hold a lock the child needs)."""
    return hasattr(os, "fork") and threading.active_count() == 1


class Background:
    """``work`` being done in the child ``pid``, or (no ``pid``) not started: :meth:`wait` does it here."""

    def __init__(self, work: Callable[[], None], pid: int | None = None) -> None:
        self.work = work
        self.pid = pid
        self.done = False

    @classmethod
    def start(cls, work: Callable[[], None], *, fork: bool) -> Background:
        """``work`` in a forked child when ``fork`` is asked for and safe, else here and now."""
        if fork and may_fork():
            pid = os.fork()
            if pid == 0:
                code = 1
                try:
                    work()
                    code = 0
                finally:
                    os._exit(code)  # no atexit handlers, no flushing of the parent's buffers
            return cls(work, pid)
        started = cls(work)
        started.wait()
        return started

    def wait(self) -> None:
        """Return once the work is done: by the child, else (it failed, or none started) here."""
        if self.pid is not None:
            status = 1
            with contextlib.suppress(ChildProcessError):
                _, status = os.waitpid(self.pid, 0)
            self.pid = None
            self.done = status == 0
        if not self.done:
            self.work()
            self.done = True

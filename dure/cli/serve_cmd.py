"""``dure serve-reward``: an HTTP reward server for OpenRLHF's ``--remote_rm_url`` (and any HTTP client)."""

from __future__ import annotations

import signal
import threading
from types import FrameType

import click

from dure.cli._base import ExitCode
from dure.integrations import core
from dure.integrations.server import HEALTH_PATH, REWARD_PATH, make_server


@click.command("serve-reward")
@click.option(
    "--port", type=click.IntRange(0, 65535), default=5000, show_default=True, help="0: any free port."
)
@click.option(
    "--host", default="127.0.0.1", show_default=True, help="Address to listen on (0.0.0.0: every one)."
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="Threads that score answers (default: twice the cores, at least 8).",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0.01),
    default=None,
    help=f"Seconds per answer (default: ${core.TIMEOUT_ENV}, else {core.DEFAULT_TIMEOUT:g}).",
)
def serve_reward(port: int, host: str, workers: int | None, timeout: float | None) -> int:
    """Serve dure's reward over HTTP: POST {"query", "prompts", "labels"} to /get_reward.

    The answer is {"rewards", "scores", "extra_logs"}, OpenRLHF's remote reward contract; labels are the
    exported rows' label column. Stops on Ctrl-C or SIGTERM.
    """
    if workers is not None:
        core.set_threads(workers)
    try:
        server = make_server(host, port, timeout=timeout)
    except OSError as problem:
        click.echo(f"dure: error: cannot listen on {host}:{port}: {problem.strerror or problem}", err=True)
        return int(ExitCode.ERROR)

    def stop(signum: int, frame: FrameType | None) -> None:
        threading.Thread(target=server.shutdown, daemon=True).start()  # shutdown() waits for the loop

    previous = signal.signal(signal.SIGTERM, stop)
    health = server.url.removesuffix(REWARD_PATH) + HEALTH_PATH
    click.echo(f"dure serve-reward: {server.url} (health: {health}; {server.answer_timeout:g} s an answer)")
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        server.server_close()
    click.echo("dure serve-reward: stopped", err=True)
    return int(ExitCode.OK)

"""The ``dure`` command line: a thin click layer over the public API.

Each command lives in its own module, imported when it runs (see :data:`dure.cli._base.COMMANDS`).
Commands parse options, call the API, print, and return an :class:`ExitCode`; errors from the API arrive as
:class:`dure.errors.DureError` and are printed as ``dure: error: ...`` on stderr.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

import click

from dure.cli._base import ExitCode, RunState, cli

__all__ = ["ExitCode", "cli", "main", "run"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI with ``argv`` and return its exit code (never calls ``sys.exit``)."""
    return _main(argv, RunState())


def _main(argv: Sequence[str] | None, state: RunState) -> int:
    try:
        result = cli.main(
            args=list(argv) if argv is not None else None, prog_name="dure", standalone_mode=False, obj=state
        )
    except click.exceptions.Exit as stop:
        return int(stop.exit_code)
    except click.exceptions.Abort:
        click.echo("dure: error: aborted", err=True)
        return int(ExitCode.INTERRUPTED)
    except click.ClickException as problem:
        problem.show()
        return int(ExitCode.USAGE)
    return int(result) if isinstance(result, int) else int(ExitCode.OK)


def run() -> None:
    """Console-script entry point."""
    state = RunState()
    code = _main(None, state)
    if state.skip_teardown:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)

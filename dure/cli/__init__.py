"""The ``dure`` command line: a thin click layer over the public API.

Each command group lives in its own module and is registered here. Commands parse options, call the API,
print, and return an :class:`ExitCode`; errors from the API arrive as :class:`dure.errors.DureError` and are
printed as ``dure: error: ...`` on stderr.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from dure.cli._base import ExitCode, cli
from dure.cli.audit_cmd import audit
from dure.cli.corpus_cmd import corpus
from dure.cli.generate_cmd import generate
from dure.cli.index_cmd import index
from dure.cli.score_cmd import score
from dure.cli.workspace_cmd import workspace

cli.add_command(audit)
cli.add_command(corpus)
cli.add_command(generate)
cli.add_command(index)
cli.add_command(score)
cli.add_command(workspace)

__all__ = ["ExitCode", "cli", "main", "run"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI with ``argv`` and return its exit code (never calls ``sys.exit``)."""
    try:
        result = cli.main(
            args=list(argv) if argv is not None else None, prog_name="dure", standalone_mode=False
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
    sys.exit(main())

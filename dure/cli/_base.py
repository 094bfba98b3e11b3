"""The root click group, exit codes and the error wrapper shared by every command module."""

from __future__ import annotations

import functools
from collections.abc import Callable
from enum import IntEnum
from typing import ParamSpec

import click

from dure.errors import DureError

P = ParamSpec("P")


class ExitCode(IntEnum):
    """Exit codes of every ``dure`` command."""

    OK = 0
    FAILURE = 1  # the command ran but what it checked failed (e.g. some items had errors)
    USAGE = 2  # bad options or arguments
    ERROR = 3  # a DureError: bad manifest, fetch failure, unknown package, ...
    INTERRUPTED = 130


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="dure")
def cli() -> None:
    """dure: exact, machine-checked tasks for coding agents from real Python repositories."""


def reports_errors(command: Callable[P, int]) -> Callable[P, int]:
    """Turn a :class:`DureError` raised by the API into ``dure: error: ...`` and :attr:`ExitCode.ERROR`."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> int:
        try:
            return command(*args, **kwargs)
        except DureError as problem:
            click.echo(f"dure: error: {problem}", err=True)
            return int(ExitCode.ERROR)

    return wrapper

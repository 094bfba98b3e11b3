"""The root click group, exit codes and the error wrapper shared by every command module."""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, ParamSpec

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


@dataclass(slots=True)
class RunState:
    """What a command tells the console script about how to end (click's context object)."""

    #: Everything the command made is written and flushed, and the rest of the process is garbage: the
    #: console script exits without the interpreter's teardown, which would free it object by object.
    skip_teardown: bool = False
    #: What the command made, kept alive until that exit (freed when the command returned, it would cost
    #: the time the exit saves).
    kept: list[object] = field(default_factory=list)


def skip_teardown(kept: list[object]) -> None:
    """Called by a command that holds much memory (an index of a large repository) and has finished:
    ``kept`` stays alive until the process exits."""
    state = click.get_current_context().ensure_object(RunState)
    state.skip_teardown = True
    state.kept.extend(kept)


class LazyGroup(click.Group):
    """A group whose commands are imported on first use: ``dure index`` never imports the generators."""

    def __init__(self, *args: Any, lazy: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})  # command name -> "module:attribute"

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.lazy:
            module, _, attribute = self.lazy[cmd_name].partition(":")
            command = getattr(importlib.import_module(module), attribute)
            if not isinstance(command, click.Command):
                raise TypeError(f"{self.lazy[cmd_name]} is not a click command")
            self.add_command(command, cmd_name)
        return super().get_command(ctx, cmd_name)


COMMANDS = {
    "audit": "dure.cli.audit_cmd:audit",
    "corpus": "dure.cli.corpus_cmd:corpus",
    "curriculum": "dure.cli.curriculum_cmd:curriculum",
    "export": "dure.cli.export_cmd:export",
    "generate": "dure.cli.generate_cmd:generate",
    "index": "dure.cli.index_cmd:index",
    "report": "dure.cli.report_cmd:report",
    "score": "dure.cli.score_cmd:score",
    "serve-reward": "dure.cli.serve_cmd:serve_reward",
    "workspace": "dure.cli.workspace_cmd:workspace",
}


@click.group(cls=LazyGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=lambda ctx, _param, value: _print_version(ctx) if value else None,
    help="Show the version, and whether the analyzers are compiled, and exit.",
)
def cli() -> None:
    """dure: exact, machine-checked tasks for coding agents from real Python repositories."""


def _print_version(ctx: click.Context) -> None:
    import importlib.metadata  # noqa: PLC0415 - 15 ms that every other command skips

    from dure.analyzers import compiled  # noqa: PLC0415 - the analyzers load only when asked

    build = "analyzers compiled with mypyc" if compiled() else "analyzers in pure Python"
    click.echo(f"dure {importlib.metadata.version('dure')} ({build})")
    ctx.exit()


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

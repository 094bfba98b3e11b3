"""``dure index``: build the index of a directory or of every repository of a corpus."""

from __future__ import annotations

import click


@click.command()
def index() -> None:
    """Index a directory or a corpus."""

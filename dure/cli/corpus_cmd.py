"""``dure corpus``: fetch and list the repositories of a corpus manifest."""

from __future__ import annotations

import click


@click.group()
def corpus() -> None:
    """Fetch and list corpus repositories."""

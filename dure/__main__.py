"""``python -m dure`` runs the command line."""

from dure.cli import run

run()

"""dure: exact, machine-checked tasks for coding agents from real Python repositories."""

from __future__ import annotations

__all__: list[str] = []

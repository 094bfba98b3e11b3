"""Verifiers, one module per verifier, looked up by name (see DESIGN.md, "The contracts").

Built-in verifiers: ``set`` (:mod:`.sets`), ``path`` (:mod:`.paths`), ``exact`` (:mod:`.exact`), ``types``
(:mod:`.types`), ``coverage`` (:mod:`.coverage`), ``differential`` (:mod:`.differential`) and ``property``
(:mod:`.properties`). Importing a verifier module registers it; the last four load on first use.
"""

from __future__ import annotations

from dure.tasks.model import TaskKind
from dure.verifiers import exact, paths, sets
from dure.verifiers._registry import (
    ENTRY_POINT_GROUP,
    KILL_SWITCH,
    builtin_names,
    get_verifier,
    plugin_names,
    register,
)
from dure.verifiers.base import AuditCase, Expect, Verifier

# The verifier a generator uses for each kind by default; kinds whose verifier is not built yet are absent.
DEFAULT_VERIFIER: dict[TaskKind, str] = {
    TaskKind.CALLERS: sets.SetVerifier.name,
    TaskKind.CALLEES: sets.SetVerifier.name,
    TaskKind.SUBCLASSES: sets.SetVerifier.name,
    TaskKind.EXTERNAL_DEPS: sets.SetVerifier.name,
    TaskKind.DEAD_CODE: sets.SetVerifier.name,
    TaskKind.CHANGE_IMPACT: sets.SetVerifier.name,
    TaskKind.CALL_PATH: paths.PathVerifier.name,
    TaskKind.DEFINITION: exact.ExactVerifier.name,
    TaskKind.TYPE_COMPLETION: "types",
}

__all__ = [
    "DEFAULT_VERIFIER",
    "ENTRY_POINT_GROUP",
    "KILL_SWITCH",
    "AuditCase",
    "Expect",
    "Verifier",
    "builtin_names",
    "get_verifier",
    "plugin_names",
    "register",
]

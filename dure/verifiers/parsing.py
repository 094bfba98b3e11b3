"""Python modules parsed once: preparing and checking type-completion tasks reads the same texts many times
over (a module's headers, its scopes, its template, its canaries, its imports), and on large modules the
repeated parses were a fifth of the generator's CPU time."""

from __future__ import annotations

import ast
import functools

#: Trees kept: the modules prepared together and their stripped versions (a large module's tree is MBs).
KEPT = 24


@functools.lru_cache(maxsize=KEPT)
def parsed(text: str) -> ast.Module:
    """``ast.parse(text)``, shared between callers, which must only read the tree; raises as it does."""
    return ast.parse(text)

"""Where dure keeps what it downloads and computes: one root, read from the environment when asked."""

from __future__ import annotations

import os
from pathlib import Path

CACHE_ENV = "DURE_CACHE"


def cache_root() -> Path:
    """The cache root: ``$DURE_CACHE``, else ``$XDG_CACHE_HOME/dure``, else ``~/.cache/dure``.

    Nothing is created here; each user of the cache makes its own subdirectory
    (``sources/``, ``index/``, ...).
    """
    explicit = os.environ.get(CACHE_ENV)
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg and Path(xdg).is_absolute():
        return Path(xdg) / "dure"
    return Path.home() / ".cache" / "dure"

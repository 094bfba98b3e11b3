"""Pausing Python's cyclic garbage collector around work that builds millions of long-lived objects."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused(*, aged: bool = True) -> Iterator[None]:
    """No cyclic collection inside; afterwards (``aged``), what was made inside counts as old.

    Objects made while collection is off all wait in the youngest generation: the first collection once it
    is back on would walk every one of them (0.25 s after an index of Django), and move them on to be walked
    again. They are moved straight to the oldest generation instead, which a full collection alone walks.
    Work that leaves garbage cycles to collect right afterwards passes ``aged=False``. Nested pauses leave
    all that to the outermost; objects a caller froze (``gc.freeze``) stay frozen.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if aged and gc.get_freeze_count() == 0:
                gc.freeze()  # every tracked object to the permanent generation, the young ones' count reset,
                gc.unfreeze()  # and all of them back into the oldest generation
            gc.enable()

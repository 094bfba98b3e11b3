"""Difficulty features and the curriculum phase they imply (see DESIGN.md, "Curriculum").

Every task carries integer features: ``hops`` (call edges or inheritance levels to follow), ``files`` (files
an agent must read to answer), ``answer_size``, ``fan_in``/``fan_out`` of the subject and ``distance`` (how
far apart in the package tree those files are). The phase is a pure function of the layer and the features,
so it is reproducible and can be explained.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import PurePosixPath

SHORT_CHAIN = 2  # hops an agent can follow in one file's reading


def file_distance(files: Iterable[str]) -> int:
    """The largest number of directory steps between two of ``files`` (0 for files of one directory)."""
    folders = sorted({PurePosixPath(f).parent.parts for f in files})
    worst = 0
    for index, first in enumerate(folders):
        for second in folders[index + 1 :]:
            shared = 0
            for a, b in zip(first, second, strict=False):
                if a != b:
                    break
                shared += 1
            worst = max(worst, len(first) + len(second) - 2 * shared)
    return worst


def features(
    *,
    hops: int,
    files: Iterable[str],
    answer_size: int,
    fan_in: int = 0,
    fan_out: int = 0,
) -> dict[str, int]:
    """The difficulty block of a task; ``files`` are those an agent must read (relative paths)."""
    involved = sorted(set(files))
    return {
        "hops": hops,
        "files": len(involved),
        "answer_size": answer_size,
        "fan_in": fan_in,
        "fan_out": fan_out,
        "distance": file_distance(involved),
    }


def phase_of(layer: int, difficulty: Mapping[str, int]) -> int:
    """Phase 1 for Layer-1 tasks answered in one file along a short chain, 2 for the rest of Layer 1 and
    for short Layer-2 chains, 3 for long Layer-2 chains (phase 4, the adaptive mix, is chosen later)."""
    hops, files = difficulty.get("hops", 0), difficulty.get("files", 1)
    if layer == 1:
        return 1 if files <= 1 and hops <= SHORT_CHAIN else 2
    return 3 if hops >= 10 or files > 5 else 2

"""Train/validation/test by repository: every task of one repository lands in the same split.

Splitting by task would let a model see a repository in training and be evaluated on it, which measures
memory of that code rather than skill. Each repository (name, version, sha256) is ordered by a seeded hash
and the ordered list is cut by the fractions, so the assignment is deterministic and does not depend on
the order tasks were read in; adding one repository moves at most the repositories next to it.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from dure.errors import DureError
from dure.tasks.model import RepoRef

SPLITS: tuple[str, ...] = ("train", "validation", "test")
DEFAULT_FRACTIONS: tuple[float, float, float] = (0.8, 0.1, 0.1)
#: With fewer repositories than this, every repository goes to train (there is nothing to hold out).
MIN_REPOSITORIES_TO_HOLD_OUT = 3


@dataclass(frozen=True, slots=True)
class SplitPlan:
    """Which split each repository is in."""

    of_repo: Mapping[RepoRef, str]

    def repositories(self, split: str) -> tuple[RepoRef, ...]:
        return tuple(repo for repo, name in self.of_repo.items() if name == split)


def parse_fractions(text: str) -> tuple[float, float, float]:
    """``"0.8,0.1,0.1"`` as three non-negative fractions of train/validation/test summing to 1."""
    parts = [part.strip() for part in text.split(",")]
    try:
        values = tuple(float(part) for part in parts)
    except ValueError:
        raise DureError(f"--fractions: expected three numbers like 0.8,0.1,0.1, got {text!r}") from None
    if len(values) != len(SPLITS) or any(not math.isfinite(v) or v < 0 for v in values):
        raise DureError(f"--fractions: expected three non-negative numbers like 0.8,0.1,0.1, got {text!r}")
    if values[0] <= 0 or not math.isclose(sum(values), 1.0, abs_tol=1e-6):
        raise DureError(f"--fractions: train must be above 0 and the three must sum to 1, got {text!r}")
    return values[0], values[1], values[2]


def _order_key(repo: RepoRef, seed: int) -> str:
    text = "\0".join((str(seed), repo.name, repo.version, repo.sha256))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def split_sizes(count: int, fractions: tuple[float, float, float]) -> tuple[int, int, int]:
    """How many repositories each split gets: largest remainder, at least one per split with a fraction
    above 0 once there are :data:`MIN_REPOSITORIES_TO_HOLD_OUT` repositories, else all in train."""
    if count < MIN_REPOSITORIES_TO_HOLD_OUT:
        return count, 0, 0
    exact = [f * count for f in fractions]
    sizes = [math.floor(x) for x in exact]
    by_remainder = sorted(range(len(SPLITS)), key=lambda i: (-(exact[i] - sizes[i]), i))
    for i in by_remainder[: count - sum(sizes)]:
        sizes[i] += 1
    for i, fraction in enumerate(fractions):  # a held-out split asked for is never empty
        if fraction > 0 and sizes[i] == 0:
            donor = max(range(len(SPLITS)), key=lambda j: (sizes[j], -j))
            sizes[donor] -= 1
            sizes[i] += 1
    return sizes[0], sizes[1], sizes[2]


def assign_splits(
    repositories: Iterable[RepoRef],
    *,
    seed: int = 0,
    fractions: tuple[float, float, float] = DEFAULT_FRACTIONS,
) -> SplitPlan:
    """The split of every repository: ordered by a hash of (seed, name, version, sha256), then cut."""
    ordered = sorted(set(repositories), key=lambda repo: (_order_key(repo, seed), repo.name, repo.version))
    train, validation, _ = split_sizes(len(ordered), fractions)
    of_repo: dict[RepoRef, str] = {}
    for position, repo in enumerate(ordered):
        if position < train:
            of_repo[repo] = "train"
        elif position < train + validation:
            of_repo[repo] = "validation"
        else:
            of_repo[repo] = "test"
    return SplitPlan(of_repo)


__all__ = [
    "DEFAULT_FRACTIONS",
    "MIN_REPOSITORIES_TO_HOLD_OUT",
    "SPLITS",
    "SplitPlan",
    "assign_splits",
    "parse_fractions",
    "split_sizes",
]

"""``dure_manifest.json``: what an export was made from and of, so a training run can cite and check it.

Everything in it is derived from the inputs and settings (no clock, no absolute paths), so the same input
gives the same manifest; the checker versions are those installed where the export ran, beside those the
tasks recorded.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from importlib import metadata
from typing import Any

from dure.export.hf import Shard
from dure.export.inputs import Inputs
from dure.export.splits import SplitPlan
from dure.tasks.frozen import thaw

MANIFEST_NAME = "dure_manifest.json"
MANIFEST_FORMAT = 1
CHECKERS: tuple[str, ...] = ("mypy", "pyright", "vulture")
_RECORDED = ("dure", "analyzer", *CHECKERS)  # provenance keys whose values are versions


def installed_version(distribution: str) -> str | None:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def _recorded(inputs: Inputs) -> tuple[dict[str, list[Any]], list[Any]]:
    """Versions and seeds the tasks' provenance records, each distinct value once, sorted."""
    versions: dict[str, set[str]] = {}
    seeds: set[str] = set()
    for placed in inputs.placed:
        provenance = placed.task.provenance
        for key in _RECORDED:
            if isinstance(value := provenance.get(key), str):
                versions.setdefault(key, set()).add(value)
        if "seed" in provenance:
            seeds.add(json.dumps(thaw(provenance["seed"]), sort_keys=True))
    sorted_seeds = [json.loads(seed) for seed in sorted(seeds)]
    return {key: sorted(values) for key, values in sorted(versions.items())}, sorted_seeds


def build_manifest(
    inputs: Inputs,
    plan: SplitPlan,
    shards: Sequence[Shard],
    other_files: Mapping[str, str],
    settings: Mapping[str, Any],
) -> dict[str, Any]:
    """The manifest document; ``other_files`` maps the card and trainer files to their sha256."""
    recorded, seeds = _recorded(inputs)
    rows_of_repo: Counter[tuple[str, str, str]] = Counter()
    tasks_of_repo: dict[tuple[str, str, str], set[str]] = {}
    for shard_task in inputs.placed:
        repo = shard_task.task.repo
        tasks_of_repo.setdefault((repo.name, repo.version, repo.sha256), set()).add(shard_task.task.id)
        rows_of_repo[repo.name, repo.version, repo.sha256] += 1
    repositories = [
        {
            "name": repo.name,
            "version": repo.version,
            "source": repo.source,
            "sha256": repo.sha256,
            "split": split,
            "tasks": len(tasks_of_repo.get((repo.name, repo.version, repo.sha256), ())),
            "rows": rows_of_repo[repo.name, repo.version, repo.sha256],
        }
        for repo, split in sorted(plan.of_repo.items(), key=lambda item: (item[0].name, item[0].version))
    ]
    files = [
        {
            "path": s.path,
            "phase": s.phase,
            "kind": s.kind,
            "split": s.split,
            "rows": s.rows,
            "sha256": s.sha256,
        }
        for s in sorted(shards, key=lambda s: s.path)
    ]
    files += [{"path": path, "sha256": digest} for path, digest in sorted(other_files.items())]
    return {
        "format": MANIFEST_FORMAT,
        "dure": installed_version("dure"),
        "checkers": {name: installed_version(name) for name in CHECKERS},
        "recorded": {"versions": recorded, "seeds": seeds},
        "settings": dict(settings),
        "input": {
            "layout": inputs.layout,
            "files": [{"path": f.name, "sha256": f.sha256, "tasks": f.tasks} for f in inputs.files],
            "mix_phase": inputs.mix_phase,
            "curriculum": inputs.curriculum,
        },
        "rows": _totals(shards),
        "repositories": repositories,
        "files": files,
    }


def _totals(shards: Iterable[Shard]) -> dict[str, Any]:
    by_split: Counter[str] = Counter()
    by_phase: Counter[str] = Counter()
    by_kind: Counter[str] = Counter()
    for shard in shards:
        by_split[shard.split] += shard.rows
        by_phase[str(shard.phase)] += shard.rows
        by_kind[shard.kind] += shard.rows
    return {
        "total": sum(by_split.values()),
        "split": dict(sorted(by_split.items())),
        "phase": dict(sorted(by_phase.items())),
        "kind": dict(sorted(by_kind.items())),
    }


def manifest_text(document: Mapping[str, Any]) -> str:
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


__all__ = [
    "CHECKERS",
    "MANIFEST_FORMAT",
    "MANIFEST_NAME",
    "build_manifest",
    "installed_version",
    "manifest_text",
]

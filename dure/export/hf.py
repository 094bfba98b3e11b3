"""The Hugging Face datasets layout: parquet shards under ``data/<phase>/<kind>/`` and the dataset card.

Shards are written byte-for-byte reproducibly (fixed schema, explicit compression, one row group, no
timestamps in parquet), so the same tasks and settings give an identical folder. The card's YAML ``configs``
name every file by a glob per (phase, kind, split) that exists: ``datasets`` refuses a pattern that matches
nothing, so a split with no rows is simply not listed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from dure.export.rows import ROW_SCHEMA, rows_table
from dure.export.splits import SPLITS

COMPRESSION = "zstd"
COMPRESSION_LEVEL = 3
DEFAULT_ROWS_PER_SHARD = 5000
ALL_CONFIG = "all"


@dataclass(frozen=True, slots=True)
class Shard:
    """One parquet file of the export."""

    path: str  # relative to the export folder, with forward slashes
    phase: int
    kind: str
    split: str
    rows: int
    data: bytes

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()


def parquet_bytes(table: pa.Table) -> bytes:
    """``table`` as parquet, the same bytes every time for the same table."""
    sink = pa.BufferOutputStream()
    pq.write_table(
        table,
        sink,
        compression=COMPRESSION,
        compression_level=COMPRESSION_LEVEL,
        row_group_size=max(table.num_rows, 1),
        write_statistics=True,
        store_schema=True,
    )
    return bytes(sink.getvalue().to_pybytes())


def shard_path(phase: int, kind: str, split: str, number: int, count: int) -> str:
    return f"data/{phase}/{kind}/{split}-{number:05d}-of-{count:05d}.parquet"


def shards_of(
    phase: int, kind: str, split: str, rows: Sequence[dict[str, Any]], rows_per_shard: int
) -> list[Shard]:
    """The rows of one (phase, kind, split), cut into files of at most ``rows_per_shard`` rows."""
    count = max(1, -(-len(rows) // rows_per_shard))
    shards = []
    for number in range(count):
        part = list(rows[number * rows_per_shard : (number + 1) * rows_per_shard])
        data = parquet_bytes(rows_table(part))
        shards.append(
            Shard(shard_path(phase, kind, split, number, count), phase, kind, split, len(part), data)
        )
    return shards


def _pattern(phase: int | str, kind: str, split: str) -> str:
    return f"data/{phase}/{kind}/{split}-*.parquet"


def configs(shards: Iterable[Shard], mix_phase: int | None) -> dict[str, dict[str, list[str]]]:
    """Config name -> split -> data_files globs: ``all`` (default), one ``phase-N`` per phase, one per kind.

    ``all`` and the kind configs leave out the curriculum's mix phase (its tasks are in their own phases
    too) unless it is the only phase exported, so that they hold every task once. Only splits with rows
    get a pattern, and every pattern matches at least one file.
    """
    present = {(s.phase, s.kind, s.split) for s in shards}
    phases = sorted({phase for phase, _, _ in present})
    kinds = sorted({kind for _, kind, _ in present})
    once = [p for p in phases if p != mix_phase] or phases

    def group(wanted_phases: list[int], kind: str | None) -> dict[str, list[str]]:
        kind_part = "*" if kind is None else kind
        found: dict[str, list[str]] = {}
        for split in SPLITS:
            hits = [
                p for p in wanted_phases if any((p, k, split) in present for k in kinds if kind in (None, k))
            ]
            if hits and wanted_phases == phases and len(phases) > 1:
                found[split] = [_pattern("*", kind_part, split)]  # every phase: one glob
            elif hits:
                found[split] = [_pattern(p, kind_part, split) for p in hits]
        return found

    result = {ALL_CONFIG: group(once, None)}
    for phase in phases:
        result[f"phase-{phase}"] = group([phase], None)
    for kind in kinds:
        result[kind] = group(once, kind)
    return {name: splits for name, splits in result.items() if splits}


def _yaml_string(text: str) -> str:
    return json.dumps(text)  # a JSON string is a valid YAML double-quoted scalar


def content_digest(shards: Sequence[Shard]) -> str:
    """One sha256 over every shard's path and bytes: what the card says the data is."""
    digest = hashlib.sha256()
    for shard in sorted(shards, key=lambda s: s.path):
        digest.update(f"{shard.path}\0{shard.sha256}\n".encode())
    return digest.hexdigest()


def card_yaml(config_files: Mapping[str, Mapping[str, list[str]]], digest: str) -> str:
    """The card's front matter: the ``configs`` list, ``all`` the default, and a ``dataset_info`` entry per
    config whose description names the content digest. ``datasets`` keys its cache of a local folder by the
    card's metadata, not by the data files' contents: without the digest, a folder exported again with the
    same row counts would load the old rows from that cache."""
    lines = ["---", "dataset_info:"]
    for name in config_files:
        lines.append(f"- config_name: {_yaml_string(name)}")
        lines.append(f"  description: {_yaml_string(f'dure tasks, content sha256 {digest}')}")
    lines.append("configs:")
    for name, splits in config_files.items():
        lines.append(f"- config_name: {_yaml_string(name)}")
        if name == ALL_CONFIG:
            lines.append("  default: true")
        lines.append("  data_files:")
        for split, patterns in splits.items():
            lines.append(f"  - split: {split}")
            lines.append("    path:")
            lines += [f"    - {_yaml_string(pattern)}" for pattern in patterns]
    lines += ["tags:", "- code", "- reinforcement-learning", "- program-analysis", "---", ""]
    return "\n".join(lines)


def schema_markdown() -> str:
    """The row schema as a markdown list, from :data:`ROW_SCHEMA` itself so the card cannot drift."""
    return "\n".join(f"- `{field.name}`: `{field.type}`" for field in ROW_SCHEMA)


__all__ = [
    "ALL_CONFIG",
    "COMPRESSION",
    "DEFAULT_ROWS_PER_SHARD",
    "Shard",
    "card_yaml",
    "configs",
    "content_digest",
    "parquet_bytes",
    "schema_markdown",
    "shards_of",
]

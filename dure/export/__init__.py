"""``dure export``: tasks in, one folder every trainer reads out.

The folder is a Hugging Face datasets layout (``README.md`` card with ``configs``, parquet shards under
``data/<phase>/<kind>/``) whose rows carry the columns verl, SkyRL, OpenRLHF and verifiers read, plus
``dure_manifest.json`` and ``trainers/``. It is built in a temporary folder next to the target and renamed
into place, so a failure never leaves half an export, and the same input and settings give byte-identical
files.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dure.export.card import dataset_card
from dure.export.hf import DEFAULT_ROWS_PER_SHARD, Shard, configs, shards_of
from dure.export.inputs import ExportError, Inputs, read_inputs
from dure.export.manifest import MANIFEST_FORMAT, MANIFEST_NAME, build_manifest, manifest_text
from dure.export.rows import COLUMNS, ROW_SCHEMA, task_row
from dure.export.splits import DEFAULT_FRACTIONS, SPLITS, SplitPlan, assign_splits
from dure.export.trainers import trainer_files
from dure.tasks.model import Task

CARD_NAME = "README.md"


@dataclass(frozen=True, slots=True)
class ExportSettings:
    """What decides an export's content besides its input; recorded in the manifest."""

    phases: frozenset[int] = frozenset()  # empty: every phase
    split_seed: int = 0
    fractions: tuple[float, float, float] = DEFAULT_FRACTIONS
    rows_per_shard: int = DEFAULT_ROWS_PER_SHARD

    def __post_init__(self) -> None:
        if self.rows_per_shard < 1:
            raise ExportError(f"rows per shard must be at least 1, not {self.rows_per_shard}")

    def to_json(self) -> dict[str, object]:
        return {
            "phases": sorted(self.phases),
            "split_seed": self.split_seed,
            "fractions": list(self.fractions),
            "rows_per_shard": self.rows_per_shard,
        }


@dataclass(frozen=True, slots=True)
class ExportResult:
    """What was written: the folder, its parquet files, and the rows by (split, phase, kind)."""

    out: Path
    shards: tuple[Shard, ...]
    files: tuple[str, ...]  # every file written, relative to ``out``
    configs: Mapping[str, Mapping[str, list[str]]]
    plan: SplitPlan
    counts: Mapping[tuple[str, int, str], int] = field(default_factory=dict)  # (split, phase, kind) -> rows

    @property
    def rows(self) -> int:
        return sum(shard.rows for shard in self.shards)


def _grouped(inputs: Inputs, plan: SplitPlan) -> dict[tuple[int, str, str], list[Task]]:
    groups: dict[tuple[int, str, str], list[Task]] = {}
    for placed in inputs.placed:
        split = plan.of_repo[placed.task.repo]
        groups.setdefault((placed.phase, placed.task.kind.value, split), []).append(placed.task)
    order = sorted(groups, key=lambda key: (key[0], key[1], SPLITS.index(key[2])))
    return {key: sorted(groups[key], key=lambda task: task.id) for key in order}


def build_export(
    source: Path, out: Path, settings: ExportSettings = ExportSettings()
) -> tuple[dict[str, bytes], ExportResult]:
    """Every file of the export (relative path -> bytes) and its summary, written nowhere yet."""
    inputs = read_inputs(source, settings.phases)
    plan = assign_splits(
        (p.task.repo for p in inputs.placed), seed=settings.split_seed, fractions=settings.fractions
    )
    shards: list[Shard] = []
    index = 0
    for (phase, kind, split), tasks in _grouped(inputs, plan).items():
        rows = []
        for task in tasks:
            rows.append(task_row(task, phase=phase, split=split, index=index))
            index += 1
        shards += shards_of(phase, kind, split, rows, settings.rows_per_shard)
    config_files = configs(shards, inputs.mix_phase)
    files: dict[str, bytes] = {shard.path: shard.data for shard in shards}
    texts = {CARD_NAME: dataset_card(config_files, shards, plan, inputs.mix_phase)}
    texts.update(trainer_files(shards, inputs.mix_phase))
    files.update({path: text.encode("utf-8") for path, text in texts.items()})
    digests = {path: hashlib.sha256(data).hexdigest() for path, data in files.items() if path in texts}
    document = build_manifest(inputs, plan, shards, digests, settings.to_json())
    files[MANIFEST_NAME] = manifest_text(document).encode("utf-8")
    counts = {(s.split, s.phase, s.kind): 0 for s in shards}
    for shard in shards:
        counts[shard.split, shard.phase, shard.kind] += shard.rows
    result = ExportResult(out, tuple(shards), tuple(sorted(files)), config_files, plan, counts)
    return files, result


def is_export(folder: Path) -> bool:
    """Whether ``folder`` holds an earlier dure export (which may be replaced without ``force``)."""
    try:
        document = json.loads((folder / MANIFEST_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(document, dict) and document.get("format") == MANIFEST_FORMAT and "files" in document


def _check_target(out: Path, force: bool) -> None:
    if out.exists() and not out.is_dir():
        raise ExportError(f"{out}: exists and is not a directory")
    if out.is_dir() and any(out.iterdir()) and not is_export(out) and not force:
        raise ExportError(f"{out}: not empty and not a dure export; use --force to replace it")


def write_folder(out: Path, files: Mapping[str, bytes], *, force: bool = False) -> None:
    """Write ``files`` as the folder ``out``: into a new folder beside it, then renamed into place."""
    _check_target(out, force)
    out.parent.mkdir(parents=True, exist_ok=True)
    temporary = out.parent / f".{out.name}.export-{secrets.token_hex(6)}"
    temporary.mkdir()
    try:
        for relative, data in files.items():
            path = temporary / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        if out.exists():
            old = out.parent / f".{out.name}.old-{secrets.token_hex(6)}"
            os.replace(out, old)
            os.replace(temporary, out)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(temporary, out)
    except BaseException:
        shutil.rmtree(temporary, ignore_errors=True)
        raise


def export_tasks(
    source: Path | str, out: Path | str, settings: ExportSettings = ExportSettings(), *, force: bool = False
) -> ExportResult:
    """Export the tasks of ``source`` (a JSONL file, a ``dure generate`` or ``dure curriculum`` folder) to
    the folder ``out``; raises :class:`ExportError` or :class:`dure.tasks.errors.TaskError` before writing
    anything when the input is bad."""
    source, out = Path(source), Path(out)
    _check_target(out, force)
    files, result = build_export(source, out, settings)
    write_folder(out, files, force=force)
    return result


__all__ = [
    "COLUMNS",
    "MANIFEST_NAME",
    "ROW_SCHEMA",
    "ExportError",
    "ExportResult",
    "ExportSettings",
    "build_export",
    "export_tasks",
    "is_export",
]

"""``dure export TASKS --out DIR``: tasks as one folder that verl, TRL, OpenRLHF, SkyRL and verifiers read."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import click

from dure.cli._base import ExitCode, reports_errors
from dure.export import ExportResult, ExportSettings, export_tasks
from dure.export.hf import DEFAULT_ROWS_PER_SHARD
from dure.export.splits import SPLITS, parse_fractions


def summary(result: ExportResult) -> str:
    """Rows by phase and kind across the splits, then the repositories of each split and the files."""
    rows: dict[tuple[int, str], Counter[str]] = {}
    for (split, phase, kind), count in result.counts.items():
        rows.setdefault((phase, kind), Counter())[split] += count
    labels = {key: f"{key[0]}  {key[1]}" for key in rows}
    width = max([len("phase kind"), *(len(label) for label in labels.values())])
    head = f"{'phase kind':<{width}}  " + "  ".join(f"{s:>10}" for s in SPLITS) + f"  {'total':>7}"
    lines = [head, "-" * len(head)]
    totals: Counter[str] = Counter()
    for key in sorted(rows):
        counts = rows[key]
        totals.update(counts)
        cells = "  ".join(f"{counts.get(s, 0):>10}" for s in SPLITS)
        lines.append(f"{labels[key]:<{width}}  {cells}  {sum(counts.values()):>7}")
    lines.append("-" * len(head))
    cells = "  ".join(f"{totals.get(s, 0):>10}" for s in SPLITS)
    lines += [f"{'rows':<{width}}  {cells}  {sum(totals.values()):>7}", ""]
    for split in SPLITS:
        repos = result.plan.repositories(split)
        names = ", ".join(f"{r.name} {r.version}" for r in repos) or "(none)"
        lines.append(f"{split}: {names}")
    lines += [
        "",
        f"{len(result.shards)} parquet files, {len(result.files)} files in all; "
        f"configs: {', '.join(result.configs)}",
        f"dataset in {result.out}",
    ]
    return "\n".join(lines)


@click.command()
@click.argument("tasks", type=click.Path(path_type=Path))
@click.option("--out", required=True, type=click.Path(path_type=Path), help="The export folder to write.")
@click.option(
    "--phase", "phases", multiple=True, type=click.IntRange(1), help="Export only this phase (repeatable)."
)
@click.option("--split-seed", type=int, default=0, show_default=True, help="Seed of the repository split.")
@click.option(
    "--fractions",
    default=",".join(str(f) for f in (0.8, 0.1, 0.1)),
    show_default=True,
    help="Train,validation,test fractions of the repositories.",
)
@click.option(
    "--rows-per-shard",
    type=click.IntRange(1),
    default=DEFAULT_ROWS_PER_SHARD,
    show_default=True,
    help="Most rows in one parquet file.",
)
@click.option(
    "--force", is_flag=True, help="Replace DIR even when it holds something other than a dure export."
)
@reports_errors
def export(
    *,
    tasks: Path,
    out: Path,
    phases: tuple[int, ...],
    split_seed: int,
    fractions: str,
    rows_per_shard: int,
    force: bool,
) -> int:
    """Export TASKS (a task JSONL file, a `dure generate` folder or a `dure curriculum` folder) to DIR.

    DIR gets a Hugging Face datasets layout (README.md with configs `all`, `phase-N` and one per task kind;
    data/<phase>/<kind>/<split>-*.parquet, split by repository), dure_manifest.json and trainers/ (file
    lists and config snippets for verl, TRL, OpenRLHF, SkyRL and verifiers). A previous export in DIR is
    replaced; the same input and options give byte-identical files.
    """
    settings = ExportSettings(
        phases=frozenset(phases),
        split_seed=split_seed,
        fractions=parse_fractions(fractions),
        rows_per_shard=rows_per_shard,
    )
    result = export_tasks(tasks, out, settings, force=force)
    click.echo(summary(result))
    return int(ExitCode.OK)

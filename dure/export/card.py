"""The dataset card (``README.md``): YAML ``configs`` for ``datasets``, then the data and how to score it."""

from __future__ import annotations

import fnmatch
from collections import Counter
from collections.abc import Mapping, Sequence

from dure.export.hf import ALL_CONFIG, Shard, card_yaml, content_digest, schema_markdown
from dure.export.splits import SPLITS, SplitPlan


def _count_table(shards: Sequence[Shard]) -> list[str]:
    counts: Counter[tuple[int, str, str]] = Counter()
    for shard in shards:
        counts[shard.phase, shard.kind, shard.split] += shard.rows
    keys = sorted({(phase, kind) for phase, kind, _ in counts})
    lines = [
        "| phase | kind | " + " | ".join(SPLITS) + " | total |",
        "|---|---|" + "---:|" * (len(SPLITS) + 1),
    ]
    for phase, kind in keys:
        cells = [counts[phase, kind, split] for split in SPLITS]
        lines.append(f"| {phase} | {kind} | " + " | ".join(str(c) for c in cells) + f" | {sum(cells)} |")
    totals = [sum(n for (_, _, split), n in counts.items() if split == s) for s in SPLITS]
    lines.append("| | **all rows** | " + " | ".join(str(t) for t in totals) + f" | {sum(totals)} |")
    return lines


def _rows(
    shards: Sequence[Shard], name: str, split: str, config_files: Mapping[str, Mapping[str, list[str]]]
) -> int:
    """Rows a config's split holds: the shards its globs match."""
    patterns = config_files[name][split]
    return sum(shard.rows for shard in shards if any(fnmatch.fnmatchcase(shard.path, p) for p in patterns))


def dataset_card(
    config_files: Mapping[str, Mapping[str, list[str]]],
    shards: Sequence[Shard],
    plan: SplitPlan,
    mix_phase: int | None,
) -> str:
    """The whole ``README.md``."""
    repositories = [
        f"- {split}: " + (", ".join(f"{r.name} {r.version}" for r in plan.repositories(split)) or "(none)")
        for split in SPLITS
    ]
    config_lines = [
        f"- `{name}`: "
        + ", ".join(f"{split} ({_rows(shards, name, split, config_files)} rows)" for split in splits)
        for name, splits in config_files.items()
    ]
    mix_note = (
        f"\n\nPhase {mix_phase} is a mix drawn from the other phases: its tasks also sit in their own phase, "
        f"so `{ALL_CONFIG}` and the per-kind configs leave `data/{mix_phase}/` out and hold every task once."
        if mix_phase is not None and any(s.phase == mix_phase for s in shards)
        else ""
    )
    body = f"""# dure tasks

Tasks for training and evaluating coding agents on real Python repositories, made by
[dure](https://pypi.org/project/dure/): each row asks a question about one pinned repository (its callers,
a call path, a stripped type annotation, its dead code, ...) whose answer is exact and checked by a program,
with no model in the loop.

## Loading

```python
from datasets import load_dataset

everything = load_dataset("path/to/this/folder")              # config "{ALL_CONFIG}"
phase_one = load_dataset("path/to/this/folder", "phase-1")    # one curriculum phase
callers = load_dataset("path/to/this/folder", "callers")      # one task kind
```

Files are `data/<phase>/<kind>/<split>-<k>-of-<n>.parquet`. Configs:

{chr(10).join(config_lines)}{mix_note}

## Splits

Train, validation and test are split **by repository**: no repository has rows in two splits, so a model
is evaluated on code it has not been trained on. With fewer than 3 repositories everything is in train.

{chr(10).join(repositories)}

## Rows

{chr(10).join(_count_table(shards))}

Every kind has the same columns, in this order:

{schema_markdown()}

- `task_id`, `task_kind`, `phase`: the task, its kind and the phase this row is in.
- verl: `data_source` (`dure/<kind>`), `prompt` (a system message naming the repository and version, then
  the question), `ability`, `reward_model` (`style: rule`, `ground_truth`), `extra_info`.
- SkyRL: `env_class` (`dure`), `reward_spec` (`method: rule`, `ground_truth`).
- OpenRLHF: `label`, JSON `{{"task_id": ..., "ground_truth": ...}}`.
- verifiers: `question` (the question text), `answer` (the ground truth), `info` (the same struct as
  `extra_info`).
- `ground_truth` is the task itself as canonical JSON without its prompt
  (`dure.integrations.core.ground_truth_of`): the reference answer and everything the verifier needs.
- `extra_info` has the same keys for every kind: `index` (the row's position in the whole export,
  ordered by phase, kind, split, then task id), `task_id`, `kind`, `split`, `repo_name`, `repo_version`,
  `repo_sha256`, `layer`, `phase`, `difficulty` and `inputs` (JSON objects as strings) and `workspace` (a
  unified diff against the release when the task is about a patched tree, else empty; it can reveal the
  answer, so it is never shown to the agent).

## Scoring

Install dure and use the adapter of your trainer; all wrap `dure.integrations.core.reward(completion,
ground_truth)`, which extracts the answer from `<answer></answer>` tags or a ```` ```json ```` block and
returns a score in [0, 1]:

- verl: `dure.integrations.verl.compute_score`
- TRL: `dure.integrations.trl`
- OpenRLHF: `dure.integrations.openrlhf` (or `dure serve-reward` as a remote reward model)
- SkyRL: `dure.integrations.skyrl`
- rLLM: `dure.integrations.rllm`
- verifiers: `dure.integrations.verifiers_env`

`trainers/` holds explicit file lists and config snippets; `dure_manifest.json` records the dure and checker
versions, the repositories with their sha256, and every file's row count and sha256.
"""
    return card_yaml(config_files, content_digest(shards)) + "\n" + body


__all__ = ["dataset_card"]

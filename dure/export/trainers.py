"""The ``trainers/`` folder: explicit file lists per config and split, and short config snippets.

verl takes a list of files, not a glob, so every list is spelled out. Paths are relative to the export
folder (``trainers/files/*.txt``, ``trainers/files.json``); the verl YAML prefixes them with
``${oc.env:DURE_EXPORT}``, which OmegaConf resolves from the environment, so the folder can move.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from dure.export.hf import ALL_CONFIG, Shard
from dure.export.splits import SPLITS

ENV_VARIABLE = "DURE_EXPORT"


def file_lists(shards: Sequence[Shard], mix_phase: int | None) -> dict[str, dict[str, list[str]]]:
    """Config (``all`` and each ``phase-N``) -> split -> the parquet files, in path order."""
    phases = sorted({s.phase for s in shards})
    once = {p for p in phases if p != mix_phase} or set(phases)
    chosen: dict[str, set[int]] = {ALL_CONFIG: once, **{f"phase-{p}": {p} for p in phases}}
    lists: dict[str, dict[str, list[str]]] = {}
    for name, wanted in chosen.items():
        by_split = {
            split: sorted(s.path for s in shards if s.split == split and s.phase in wanted)
            for split in SPLITS
        }
        lists[name] = {split: paths for split, paths in by_split.items() if paths}
    return lists


def _yaml_list(paths: Sequence[str], indent: str) -> list[str]:
    return [f"{indent}- ${{oc.env:{ENV_VARIABLE}}}/{path}" for path in paths]


def verl_yaml(name: str, splits: Mapping[str, list[str]]) -> str:
    """A verl config fragment for one config: its files, the prompt key and dure's reward function."""
    validation = splits.get("validation") or splits.get("test") or []
    lines = [
        f"# verl: the {name} files of this export. Set {ENV_VARIABLE} to this folder's absolute path;",
        "# custom_reward_function.path must be the file of dure.integrations.verl, printed by",
        "#   python -c 'import dure.integrations.verl as m; print(m.__file__)'",
        "data:",
        "  prompt_key: prompt",
        "  train_files:",
        *_yaml_list(splits.get("train", []), "  "),
    ]
    if validation:
        lines += ["  val_files:", *_yaml_list(validation, "  ")]
    else:
        lines.append("  # no validation or test split: this export has fewer than 3 repositories")
    lines += [
        "custom_reward_function:",
        "  path: null  # the file printed above",
        "  name: compute_score",
        "",
    ]
    return "\n".join(lines)


def guide(lists: Mapping[str, Mapping[str, list[str]]]) -> str:
    """``trainers/README.md``: how each trainer reads this folder and scores with dure."""
    names = ", ".join(f"`{name}`" for name in lists)
    example = next((name for name in lists if name.startswith("phase-")), ALL_CONFIG)
    phase = json.dumps(example.removeprefix("phase-")) if example.startswith("phase-") else "None"
    return f"""# Feeding this export to a trainer

Explicit file lists, relative to the export folder, for the configs {names}:
`files/<config>.<split>.txt` (one path a line) and `files.json` (the same, as JSON).
`verl/<config>.yaml` is a verl config fragment for each of them.

Every row carries the task itself as its ground truth (`reward_model.ground_truth`, a JSON string), so
scoring needs only dure installed: `dure.integrations.core.reward(completion, ground_truth)` is the one
reward core each adapter below wraps. Tasks with a non-empty `extra_info.workspace` are about the
repository with that patch applied; an agent environment builds the tree with
`dure.workspace.materialise(dure.integrations.core.task_of(ground_truth), DIR)`.

## verl

```bash
cd path/to/this/folder   # the file lists are relative to it
python3 -m verl.trainer.main_ppo $(cat trainers/verl/{example}.overrides) \\
  custom_reward_function.path="$(python -c 'import dure.integrations.verl as m; print(m.__file__)')" \\
  custom_reward_function.name=compute_score
```

`verl/<config>.overrides` sets `data.train_files`, `data.val_files` (validation, else test) and
`data.prompt_key`; `verl/<config>.yaml` is the same as a config fragment, its paths prefixed with
`${{oc.env:{ENV_VARIABLE}}}` (set it to this folder's absolute path).

## TRL (GRPOTrainer)

```python
from datasets import load_dataset
from trl import GRPOConfig, GRPOTrainer
import dure.integrations.trl as dure_trl

dataset = load_dataset("path/to/this/folder", "{example}")   # or "all", or a task kind
trainer = GRPOTrainer(
    model="Qwen/Qwen2.5-0.5B-Instruct",
    reward_funcs=dure_trl.reward_func,   # reads the reward_model column the trainer passes through
    args=GRPOConfig(output_dir="out"),
    train_dataset=dataset["train"],
)
```

See `dure.integrations.trl` for the reward function's exact name and signature.

## OpenRLHF

```bash
dure serve-reward --port 5000 &
# or, in process: --remote_rm_url "$(python -c 'import dure.integrations.openrlhf as m; print(m.__file__)')"
python -m openrlhf.cli.train_ppo_ray \\
  --prompt_data path/to/this/folder --prompt_split train \\
  --input_key prompt --apply_chat_template \\
  --label_key label \\
  --remote_rm_url http://127.0.0.1:5000/get_reward
```

`label` is JSON `{{"task_id": ..., "ground_truth": ...}}`; `dure.integrations.openrlhf` reads it.

## SkyRL

Register the environment once in your entrypoint (it needs skyrl-gym), then point the data at the files of
`files/<config>.<split>.txt`:

```python
import dure.integrations.skyrl
dure.integrations.skyrl.register()   # env_class "dure" -> dure.integrations.skyrl:DureTextEnv
```

```bash
python -m skyrl_train.entrypoints.main_base \\
  data.train_data="['path/to/this/folder/data/1/callers/train-00000-of-00001.parquet']" \\
  data.val_data="['path/to/this/folder/data/1/callers/validation-00000-of-00001.parquet']" \\
  environment.env_class=dure
```

Rows carry `env_class: dure` and `reward_spec: {{method: rule, ground_truth}}`; the environment scores the
one answer of each episode.

## verifiers (0.4, `pip install 'dure[verifiers]'`)

```python
from dure.integrations.verifiers_env import DureTaskset, DureTasksetConfig

taskset = DureTaskset(DureTasksetConfig(path="path/to/this/folder", phase={phase}, split="train"))
```

From the command line: `--env.taskset.id dure-taskset --env.taskset.path path/to/this/folder`. Each
task's `dure` reward scores the rollout's last reply. The `question`, `answer` and `info` columns
serve setups on the older `verifiers` API. rLLM: `dure.integrations.rllm.dure_reward_fn`.
"""


def verl_overrides(splits: Mapping[str, list[str]]) -> str:
    """Hydra overrides on one line, for ``main_ppo $(cat FILE)``: no spaces inside any argument."""

    def listed(paths: Sequence[str]) -> str:
        return "[" + ",".join(f"'{path}'" for path in paths) + "]"

    validation = splits.get("validation") or splits.get("test") or []
    parts = [f"data.train_files={listed(splits.get('train', []))}"]
    if validation:
        parts.append(f"data.val_files={listed(validation)}")
    parts.append("data.prompt_key=prompt")
    return " ".join(parts) + "\n"


def trainer_files(shards: Sequence[Shard], mix_phase: int | None) -> dict[str, str]:
    """Relative path -> text of every file under ``trainers/``."""
    lists = file_lists(shards, mix_phase)
    files = {"trainers/README.md": guide(lists)}
    files["trainers/files.json"] = json.dumps(lists, indent=2, sort_keys=True) + "\n"
    for name, splits in lists.items():
        for split, paths in splits.items():
            files[f"trainers/files/{name}.{split}.txt"] = "".join(f"{path}\n" for path in paths)
        files[f"trainers/verl/{name}.yaml"] = verl_yaml(name, splits)
        files[f"trainers/verl/{name}.overrides"] = verl_overrides(splits)
    return files


__all__ = ["ENV_VARIABLE", "file_lists", "guide", "trainer_files", "verl_overrides", "verl_yaml"]

"""SkyRL: a one-turn text environment, ``env_class: dure`` in the exported rows.

SkyRL's generator (skyrl_train/generators/skyrl_gym_generator.py) makes an environment per trajectory with
``skyrl_gym.make(env_class, env_config=..., extras=row)``, where ``extras`` holds the row's
``reward_spec`` (``{"method": "rule", "ground_truth": ...}``) and ``extra_info``; it then calls
``init(chat_history)``, ``step(model_output)`` until ``done``, and ``close()``. ``skyrl_gym.make`` requires an
instance of ``skyrl_gym.Env``, so when skyrl-gym is installed :data:`DureTextEnv` also derives from its
``BaseTextEnv``; without it the class is the same protocol, duck-typed. Call :func:`register` once (for
example in the entrypoint) to make ``env_class=dure`` resolve.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, cast

from dure.integrations import core
from dure.verifiers.base import FORMAT

ENV_ID = "dure"
ENTRY_POINT = "dure.integrations.skyrl:DureTextEnv"


class DureTextEnvProtocol:
    """The environment: one answer, scored by dure; the episode ends after it."""

    def __init__(self, env_config: object = None, extras: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        self.extras: Mapping[str, Any] = extras if isinstance(extras, Mapping) else {}
        self.ground_truth = core.ground_truth_in(self.extras)
        self.timeout = core.safe_timeout(_config_value(env_config, "timeout"), core.default_timeout())
        self.turns, self.max_turns = 0, 1

    def init(self, prompt: Any) -> tuple[Any, dict[str, Any]]:
        """The prompt unchanged: a dure task needs nothing more than its question."""
        return prompt, {}

    def step(self, action: Any) -> dict[str, Any]:
        """Score the model's answer: ``BaseTextEnvStepOutput`` fields, ``done`` always true."""
        self.turns += 1
        result = core.reward(action, self.ground_truth, timeout=self.timeout)
        metadata = {
            "passed": result.passed,
            "format": core.finite(result.components.get(FORMAT, 0.0)),
            "error": result.error or "",
        }
        return {
            "observations": [],
            "reward": core.finite(result.value),
            "done": True,
            "metadata": metadata,
            "postprocessed_action": None,
        }

    def close(self) -> None:
        """Nothing to release."""


def _config_value(config: object, key: str) -> object:
    if isinstance(config, Mapping):
        return config.get(key)
    return getattr(config, key, None)


def _with_base() -> type[DureTextEnvProtocol]:
    """The environment class, deriving from skyrl-gym's ``BaseTextEnv`` when that is installed."""
    try:
        base = importlib.import_module("skyrl_gym.envs.base_text_env").BaseTextEnv
    except ImportError:
        return DureTextEnvProtocol
    return cast(type[DureTextEnvProtocol], type("DureTextEnv", (DureTextEnvProtocol, base), {}))


DureTextEnv = _with_base()


def register(env_id: str = ENV_ID) -> None:
    """Register the environment with skyrl-gym as ``env_id`` (needs skyrl-gym); a second call does nothing."""
    registration: Any = importlib.import_module("skyrl_gym.envs.registration")
    if env_id not in registration.registry:
        registration.register(id=env_id, entry_point=ENTRY_POINT)


__all__ = ["ENV_ID", "DureTextEnv", "DureTextEnvProtocol", "register"]

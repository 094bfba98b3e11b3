"""The ``dure-taskset`` plugin of Prime Intellect ``verifiers`` (0.4, v1): a ``dure export`` folder as tasks.

verifiers imports a taskset by id as a top-level package exporting one ``Taskset`` subclass in ``__all__``,
so this package only re-exports :class:`dure.integrations.verifiers_env.DureTaskset`::

    --env.taskset.id dure-taskset --env.taskset.path path/to/export [--env.taskset.phase 1]
"""

from dure.integrations.verifiers_env import DureTaskset

__all__ = ["DureTaskset"]

"""The JSON Schema of a task line, shipped as package data, and a validator for the keywords it uses.

The validator is deliberately small: it knows exactly the keywords ``task.schema.json`` uses and raises on
any other, so the schema cannot grow a keyword that is silently not checked. Tests cross-check it against the
``jsonschema`` library when that is installed.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from importlib import resources
from typing import Any

from dure.tasks.errors import TaskError

SCHEMA_RESOURCE = "task.schema.json"
_ANNOTATIONS = frozenset({"$schema", "$id", "title", "description"})
_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list, tuple),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
}


@functools.cache
def task_schema() -> dict[str, Any]:
    """The task-line schema (a fresh parse is cached; treat it as read-only)."""
    text = resources.files("dure.tasks").joinpath(SCHEMA_RESOURCE).read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def schema_errors(instance: object, schema: dict[str, Any], path: str = "$") -> list[str]:
    """Every violation of ``schema`` by ``instance``, as ``path: reason`` strings (empty when valid)."""
    errors: list[str] = []
    for keyword, rule in schema.items():
        if keyword in _ANNOTATIONS:
            continue
        check = _CHECKS.get(keyword)
        if check is None:
            raise ValueError(f"{path}: schema keyword {keyword!r} is not supported by this validator")
        errors.extend(check(instance, rule, schema, path))
    return errors


def validate_task_json(data: object) -> None:
    """Raise :class:`TaskError` listing what is wrong when ``data`` is not a valid task line."""
    errors = schema_errors(data, task_schema())
    if errors:
        raise TaskError("task", "does not match the task schema: " + "; ".join(errors))


def _is_type(value: object, name: str) -> bool:
    if isinstance(value, bool) and name in {"integer", "number"}:
        return False
    if name == "integer" and isinstance(value, float):
        return value.is_integer()
    return isinstance(value, _TYPES[name])


def _type(value: object, rule: str, _: dict[str, Any], path: str) -> list[str]:
    return [] if _is_type(value, rule) else [f"{path}: expected {rule}, got {type(value).__name__}"]


def _enum(value: object, rule: list[object], _: dict[str, Any], path: str) -> list[str]:
    return [] if value in rule else [f"{path}: {value!r} is not one of {rule}"]


def _pattern(value: object, rule: str, _: dict[str, Any], path: str) -> list[str]:
    if isinstance(value, str) and re.search(rule, value) is None:
        return [f"{path}: {value!r} does not match {rule!r}"]
    return []


def _min_length(value: object, rule: int, _: dict[str, Any], path: str) -> list[str]:
    return [f"{path}: shorter than {rule}"] if isinstance(value, str) and len(value) < rule else []


def _minimum(value: object, rule: float, _: dict[str, Any], path: str) -> list[str]:
    too_small = _is_type(value, "number") and value < rule  # type: ignore[operator]
    return [f"{path}: {value!r} is less than {rule}"] if too_small else []


def _maximum(value: object, rule: float, _: dict[str, Any], path: str) -> list[str]:
    too_big = _is_type(value, "number") and value > rule  # type: ignore[operator]
    return [f"{path}: {value!r} is greater than {rule}"] if too_big else []


def _required(value: object, rule: list[str], _: dict[str, Any], path: str) -> list[str]:
    if not isinstance(value, dict):
        return []
    return [f"{path}: {key!r} is required" for key in rule if key not in value]


def _properties(value: object, rule: dict[str, Any], _: dict[str, Any], path: str) -> list[str]:
    if not isinstance(value, dict):
        return []
    errors: list[str] = []
    for key, sub in rule.items():
        if key in value:
            errors.extend(schema_errors(value[key], sub, f"{path}.{key}"))
    return errors


def _additional(value: object, rule: bool | dict[str, Any], schema: dict[str, Any], path: str) -> list[str]:
    if not isinstance(value, dict):
        return []
    extra = [key for key in value if key not in schema.get("properties", {})]
    if rule is False:
        return [f"{path}: unexpected property {key!r}" for key in extra]
    if rule is True:
        return []
    return [error for key in extra for error in schema_errors(value[key], rule, f"{path}.{key}")]


_CHECKS: dict[str, Callable[[Any, Any, dict[str, Any], str], list[str]]] = {
    "type": _type,
    "enum": _enum,
    "pattern": _pattern,
    "minLength": _min_length,
    "minimum": _minimum,
    "maximum": _maximum,
    "required": _required,
    "properties": _properties,
    "additionalProperties": _additional,
}

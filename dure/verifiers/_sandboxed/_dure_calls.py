"""Call a module's public functions on Hypothesis-generated inputs and record what each call did.

``python _dure_calls.py MODULE MAX_EXAMPLES``. Inputs come from ``st.from_type`` where a parameter is
annotated, else from a small set of primitive strategies; generation is derandomized and never sees a call's
outcome, so two runs (original and modified module) draw the same inputs. Each call runs twice on deep copies
under a one-second timer; an outcome that differs between the two calls (or times out) is marked unstable.
Writes ``$DURE_OUTBOX/calls.json``: ``{"import_error": ..., "functions": {name: [[input, outcome], ...]}}``.
"""

from __future__ import annotations

import contextlib
import copy
import importlib
import inspect
import io
import json
import os
import re
import signal
import sys
import typing
from collections.abc import Callable
from types import FrameType
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
UNSTABLE = "unstable"
PRIMITIVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-100, 100),
    st.text(max_size=8),
    st.lists(st.integers(-5, 5), max_size=4),
)


class CallTimeout(BaseException):
    pass


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise CallTimeout


def _text(value: object) -> str:
    try:
        return ADDRESS.sub(" at 0x?", repr(value))[:500]
    except BaseException as problem:  # a broken __repr__ is an outcome like any other
        return f"<repr raised {type(problem).__name__}>"


def strategies_for(function: Callable[..., Any]) -> dict[str, st.SearchStrategy[Any]]:
    try:
        hints = typing.get_type_hints(function)
    except Exception:
        hints = {}
    found: dict[str, st.SearchStrategy[Any]] = {}
    for parameter in inspect.signature(function).parameters.values():
        if (
            parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD)
            or parameter.default is not parameter.empty
        ):
            continue
        hint = hints.get(parameter.name)
        found[parameter.name] = st.from_type(hint) if hint is not None else PRIMITIVES
    return found


def inputs(function: Callable[..., Any], count: int) -> list[dict[str, Any]]:
    drawn: list[dict[str, Any]] = []

    @settings(max_examples=count, derandomize=True, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(st.fixed_dictionaries(strategies_for(function)))
    def record(arguments: dict[str, Any]) -> None:
        drawn.append(arguments)

    record()
    return drawn


def call(function: Callable[..., Any], arguments: dict[str, Any]) -> str:
    parameters = inspect.signature(function).parameters
    positional = [
        arguments[n] for n, p in parameters.items() if p.kind is p.POSITIONAL_ONLY and n in arguments
    ]
    keywords = {n: v for n, v in arguments.items() if parameters[n].kind is not parameters[n].POSITIONAL_ONLY}
    signal.setitimer(signal.ITIMER_REAL, 1.0)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            value = function(*copy.deepcopy(positional), **copy.deepcopy(keywords))
        return "return " + _text(value)
    except CallTimeout:
        return UNSTABLE
    except BaseException as problem:
        return "raise " + type(problem).__qualname__
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def run(module_name: str, count: int) -> dict[str, Any]:
    try:
        module = importlib.import_module(module_name)
    except BaseException as problem:
        return {"import_error": f"{type(problem).__name__}: {problem}"[:300], "functions": {}}
    functions: dict[str, list[list[str]]] = {}
    for name, value in sorted(vars(module).items()):
        if name.startswith("_") or not inspect.isfunction(value) or value.__module__ != module.__name__:
            continue
        try:
            drawn = inputs(value, count)
        except Exception as problem:
            functions[name] = [["<no inputs>", f"generation failed: {type(problem).__name__}"]]
            continue
        rows = []
        for arguments in drawn:
            first, second = call(value, arguments), call(value, arguments)
            rows.append([_text(arguments), first if first == second else UNSTABLE])
        functions[name] = rows
    return {"import_error": None, "functions": functions}


if __name__ == "__main__":
    signal.signal(signal.SIGALRM, _alarm)
    result = run(sys.argv[1], int(sys.argv[2]))
    with open(os.path.join(os.environ["DURE_OUTBOX"], "calls.json"), "w", encoding="utf-8") as out:
        json.dump(result, out)

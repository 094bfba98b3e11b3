"""The verifier registry, its entry-point plugins and kill switch, and every verifier's self-audit cases."""

from __future__ import annotations

import importlib.metadata
from typing import ClassVar

import pytest
from task_factories import all_tasks

from dure.scoring import score_answer
from dure.tasks import JsonValue, Score, Task, TaskKind, UnknownVerifierError
from dure.verifiers import (
    DEFAULT_VERIFIER,
    KILL_SWITCH,
    AuditCase,
    Expect,
    Verifier,
    _registry,
    builtin_names,
    get_verifier,
)


def test_builtins_are_registered_and_cover_the_default_kinds() -> None:
    assert {"coverage", "exact", "path", "set"} <= set(builtin_names())
    assert builtin_names() == tuple(sorted(builtin_names()))
    assert set(DEFAULT_VERIFIER.values()) <= set(builtin_names())
    assert set(DEFAULT_VERIFIER) <= set(TaskKind)
    for name in builtin_names():
        verifier = get_verifier(name)
        assert verifier.name == name
        assert verifier.components[0] == "format"
        assert verifier.description


class EchoVerifier(Verifier):
    name = "echo"
    description = "test plugin"
    components: ClassVar[tuple[str, ...]] = ("format",)

    def check(self, task: Task, answer: JsonValue) -> Score:
        return self.score(1.0, {"format": 1.0})

    def audit_cases(self, task: Task) -> tuple[AuditCase, ...]:
        return ()


class FakeEntryPoint:
    def __init__(self, name: str, value: str, obj: object) -> None:
        self.name, self.value, self.obj = name, value, obj

    def load(self) -> object:
        if isinstance(self.obj, Exception):
            raise self.obj
        return self.obj


@pytest.fixture
def plugins(monkeypatch: pytest.MonkeyPatch) -> list[FakeEntryPoint]:
    installed: list[FakeEntryPoint] = []

    def entry_points(*, group: str, name: str | None = None) -> list[FakeEntryPoint]:
        assert group == "dure.verifiers"
        return [entry for entry in installed if name is None or entry.name == name]

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    monkeypatch.setattr(_registry, "_PLUGINS", {})
    monkeypatch.delenv(KILL_SWITCH, raising=False)
    return installed


def test_plugins_load_through_entry_points(plugins: list[FakeEntryPoint]) -> None:
    plugins.append(FakeEntryPoint("echo", "tests:EchoVerifier", EchoVerifier))
    assert isinstance(get_verifier("echo"), EchoVerifier)
    assert _registry.plugin_names() == ("echo",)


def test_the_kill_switch_disables_plugins(
    plugins: list[FakeEntryPoint], monkeypatch: pytest.MonkeyPatch
) -> None:
    plugins.append(FakeEntryPoint("echo", "tests:EchoVerifier", EchoVerifier))
    monkeypatch.setenv(KILL_SWITCH, "1")
    with pytest.raises(UnknownVerifierError, match="disabled by DURE_NO_PLUGINS"):
        get_verifier("echo")
    assert get_verifier("set").name == "set"


def test_a_broken_plugin_is_named_in_the_error(plugins: list[FakeEntryPoint]) -> None:
    plugins.append(FakeEntryPoint("boom", "broken.module:Thing", ImportError("no module named broken")))
    plugins.append(FakeEntryPoint("odd", "odd:thing", object()))
    with pytest.raises(UnknownVerifierError, match=r"plugin broken.module:Thing failed"):
        get_verifier("boom")
    with pytest.raises(UnknownVerifierError, match="is not a 'odd' Verifier"):
        get_verifier("odd")
    with pytest.raises(UnknownVerifierError, match=r"known: (\w+, )*exact, path, (\w+, )*set"):
        get_verifier("nothing")


@pytest.mark.parametrize("task", all_tasks(), ids=lambda task: task.id)
def test_audit_cases_hold_for_the_hand_made_tasks(task: Task) -> None:
    verifier = get_verifier(task.verifier.name)
    assert score_answer(task, task.answer).passed
    cases = verifier.audit_cases(task)
    assert {case.expect for case in cases} == {Expect.EQUIVALENT, Expect.WRONG}
    for case in cases:
        score = score_answer(task, case.answer)
        if case.expect is Expect.EQUIVALENT:
            assert score.passed, case
        else:
            assert not score.passed, case
            assert score.value <= case.max_value, case

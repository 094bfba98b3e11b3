"""The jedi fallback: possible targets for calls our own resolution leaves unresolved, never certain ones."""

from __future__ import annotations

from conftest import TemporaryRepo

from dure.analyzers import build_index
from dure.analyzers.model import Certainty

SOURCE = """\
class Helper:
    def go(self):
        return 1


def run():
    helpers = [Helper() for _ in range(2)]
    return helpers[0].go()
"""


def test_jedi_proposes_possible_targets_for_unresolved_calls(temporary_repo: TemporaryRepo) -> None:
    root = temporary_repo({"main.py": SOURCE})
    plain = build_index(root, cache=False)
    assert "main.Helper.go" not in plain.callees("main.run").value | plain.callees("main.run").possible
    assert plain.jedi is None
    helped = build_index(root, cache=False, jedi=True)
    callees = helped.callees("main.run")
    assert "main.Helper.go" in callees.possible
    assert not callees.certain
    assert helped.jedi is not None
    assert helped.jedi.sites >= 1
    assert helped.jedi.resolved >= 1


def test_jedi_never_makes_an_edge_certain(temporary_repo: TemporaryRepo) -> None:
    root = temporary_repo({"main.py": SOURCE})
    plain = {(e.caller, e.callee, e.certainty) for e in build_index(root, cache=False).edges()}
    helped = {(e.caller, e.callee, e.certainty) for e in build_index(root, cache=False, jedi=True).edges()}
    certain = {e for e in helped if e[2] is Certainty.CERTAIN}
    assert certain == {e for e in plain if e[2] is Certainty.CERTAIN}

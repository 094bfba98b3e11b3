"""End to end on the real default corpus: fetch, index, query, export (slow: network on first use)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dure.analyzers import RepoIndex, build_index, halves
from dure.analyzers.affected import affecting, affects
from dure.analyzers.export import graph_document
from dure.analyzers.model import Certainty, DefinitionKind
from dure.cli import main
from dure.corpus import load_manifest, resolve_repositories

pytestmark = pytest.mark.slow

DEFAULT_PACKAGES = [spec.name for spec in load_manifest("default").packages]


@pytest.fixture(scope="module")
def indexes() -> dict[str, RepoIndex]:
    return {repo.name: build_index(repo.root) for repo in resolve_repositories(None, corpus="default")}


@pytest.mark.parametrize("name", DEFAULT_PACKAGES)
def test_every_default_package_indexes_cleanly(indexes: dict[str, RepoIndex], name: str) -> None:
    index = indexes[name]
    assert index.statistics.modules == index.statistics.files, [str(d) for d in index.diagnostics]
    assert len(index.definitions) > 100
    counts = index.certainty_counts()
    assert counts[Certainty.CERTAIN] > counts[Certainty.UNRESOLVED] / 2
    functions = [
        d for d in index.definitions.values() if d.kind in (DefinitionKind.FUNCTION, DefinitionKind.METHOD)
    ]
    certain_callers = 0
    for definition in functions:
        callers = index.callers(definition.qualname)
        callees = index.callees(definition.qualname)
        assert not callers.value & callers.possible
        assert not callees.value & callees.possible
        assert callers.certain == (not callers.reasons)
        assert callees.certain == (not callees.reasons)
        certain_callers += callers.certain
    assert certain_callers > 0, "a real package has functions whose callers are known for certain"


@pytest.mark.parametrize("name", DEFAULT_PACKAGES)
def test_certain_edges_point_at_real_definitions(indexes: dict[str, RepoIndex], name: str) -> None:
    """A certain edge names a definition of the repository, a builtin, or an imported external path."""
    index = indexes[name]
    externals = {i.external.partition(".")[0] for i in index.imports if i.external} | {"builtins"}
    for edge in index.edges():
        if edge.certainty is Certainty.CERTAIN:
            assert edge.callee in index.definitions or edge.callee.partition(".")[0] in externals, edge


@pytest.mark.parametrize("name", DEFAULT_PACKAGES)
def test_the_table_of_affected_definitions_answers_as_each_uncertainty_would(
    indexes: dict[str, RepoIndex], name: str
) -> None:
    index = indexes[name]
    for qualname in index.definitions:
        expected = tuple(record for record in index.uncertainties if affects(index, record, qualname))
        assert affecting(index, qualname) == expected, qualname


def test_rebuild_from_cache_is_identical(indexes: dict[str, RepoIndex]) -> None:
    for repo in resolve_repositories(None, corpus="default"):
        again = build_index(repo.root)
        assert again.statistics.reused
        assert graph_document(again) == graph_document(indexes[repo.name])


def test_cli_indexes_the_default_corpus(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["index", "--corpus", "default", "--json", str(tmp_path)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == len(DEFAULT_PACKAGES)
    for path in sorted(tmp_path.glob("*.json")):
        document = json.loads(path.read_text())
        assert document["format"] == "dure-index"
        assert document["nodes"]
        assert document["edges"]
    assert len(list(tmp_path.glob("*.json"))) == len(DEFAULT_PACKAGES)


def test_resolving_in_halves_is_the_same_with_and_without_a_helper(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every default package split in two halves (large repositories are): the second half resolved in a
    helper process, or here, gives the same graph."""
    monkeypatch.setattr(halves, "SPLIT_MINIMUM", 0)
    monkeypatch.setattr(halves, "may_fork", lambda: True)
    for repo in resolve_repositories(None, corpus="default"):
        helped = build_index(repo.root, cache=False, workers=2)
        alone = build_index(repo.root, cache=False, workers=1)
        assert graph_document(helped) == graph_document(alone), repo.name
        assert helped.uncertainties == alone.uncertainties
        assert helped.escaped == alone.escaped

"""Corpus manifests: the shipped ones are valid, and every malformed one is rejected naming file and key."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dure.cli import main
from dure.corpus import Manifest, load_manifest, manifest_dir, shipped_manifests
from dure.errors import ManifestError

SHA = "a" * 64
GOOD_PACKAGE = f"""
[[package]]
name = "demo"
version = "1.0"
sha256 = "{SHA}"
domain = "testing"
has_tests = true

[package.tests]
command = ["python", "-m", "pytest"]
deps = ["pytest"]
"""
HEADER = '[corpus]\nname = "t"\n'


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    return path


def assert_rejected(tmp_path: Path, text: str, key: str, reason: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ManifestError) as caught:
        load_manifest(path)
    error = caught.value
    assert (error.path, error.key) == (str(path), key), str(error)
    assert reason in error.reason, str(error)
    assert str(error).startswith(f"{path}: {key}: ")


# --- the shipped manifests ------------------------------------------------------------------------


def test_shipped_manifests_are_found() -> None:
    assert {"default", "main", "heldout"} <= set(shipped_manifests())
    assert (manifest_dir() / "default.toml").is_file()


def test_default_manifest_has_five_runnable_packages() -> None:
    manifest = load_manifest("default")
    assert manifest.name == "default"
    assert len(manifest.packages) == 5
    for spec in manifest.packages:
        assert spec.tests is not None, spec.name
        assert spec.tests.status == "pass", spec.name
        assert spec.tests.seconds is not None
        assert spec.tests.seconds < 30, spec.name


def test_default_corpus_mixes_annotation_density() -> None:
    fractions = [spec.annotated for spec in load_manifest("default").packages]
    assert all(fraction is not None for fraction in fractions)
    assert any(fraction == 1.0 for fraction in fractions)
    assert any(fraction is not None and fraction < 0.1 for fraction in fractions)


def test_main_manifest_is_large_and_diverse() -> None:
    manifest = load_manifest("main")
    assert len(manifest.packages) >= 20
    assert len({spec.domain for spec in manifest.packages}) >= 15
    assert any(not spec.has_tests for spec in manifest.packages)
    assert {"pass", "partial", "broken", "slow"} == {
        spec.tests.status for spec in manifest.packages if spec.tests is not None
    }


@pytest.mark.parametrize("name", ["default", "main", "heldout"])
def test_shipped_manifest_fields_are_valid(name: str) -> None:
    manifest = load_manifest(name)
    for spec in manifest.packages:
        assert re.fullmatch(r"[0-9a-f]{64}", spec.sha256)
        assert spec.domain
        assert spec.has_tests == (spec.tests is not None)
        assert spec.annotated is not None
        assert 0.0 <= spec.annotated <= 1.0


def test_heldout_packages_are_outside_the_corpora() -> None:
    heldout = load_manifest("heldout")
    assert heldout.packages
    for spec in heldout.packages:
        assert load_manifest("main").get(spec.name) is None, spec.name
        assert load_manifest("default").get(spec.name) is None, spec.name
        assert spec.tests is not None, spec.name


def test_default_pins_agree_with_main() -> None:
    main = load_manifest("main")
    for spec in load_manifest("default").packages:
        other = main.get(spec.name)
        assert other is not None, spec.name
        assert (other.version, other.sha256) == (spec.version, spec.sha256)


def test_per_package_overrides_survive() -> None:
    main = load_manifest("main")
    tests = {spec.name: spec.tests for spec in main.packages if spec.tests is not None}
    assert "pytest<9" in tests["black"].deps
    assert tests["wcwidth"].environment() == {"WCWIDTH_PYTHON": "1"}
    assert 'backports.zoneinfo; python_version < "3.9"' in tests["arrow"].deps
    assert tests["markdown"].command[-2:] == ("tests/test_syntax", "tests")
    assert tests["arrow"].command[-2:] == ("-o", "addopts=")


# --- reading a manifest ---------------------------------------------------------------------------


def test_good_manifest_loads_with_defaults(tmp_path: Path) -> None:
    manifest = load_manifest(write(tmp_path, HEADER + GOOD_PACKAGE))
    assert isinstance(manifest, Manifest)
    (spec,) = manifest.packages
    assert spec.key == "demo-1.0"
    assert spec.tests is not None
    assert spec.tests.timeout == 180
    assert spec.tests.status == "pass"
    assert spec.tests.env == ()


def test_string_command_is_split_and_integers_are_numbers(tmp_path: Path) -> None:
    text = HEADER + GOOD_PACKAGE.replace(
        'command = ["python", "-m", "pytest"]', "command = \"python -m pytest -k 'not slow'\"\nseconds = 2"
    ).replace("has_tests = true", "has_tests = true\nannotated = 1")
    spec = load_manifest(write(tmp_path, text)).packages[0]
    assert spec.tests is not None
    assert spec.tests.command == ("python", "-m", "pytest", "-k", "not slow")
    assert spec.tests.seconds == 2.0
    assert spec.annotated == 1.0


def test_lookup_uses_the_registry_spelling(tmp_path: Path) -> None:
    manifest = load_manifest(write(tmp_path, HEADER + GOOD_PACKAGE.replace('"demo"', '"Demo_Pkg"')))
    assert manifest.get("demo-pkg") is manifest.packages[0]
    assert manifest.get("DEMO.pkg") is manifest.packages[0]
    assert manifest.get("other") is None


def test_unknown_manifest_name() -> None:
    with pytest.raises(ManifestError, match="no shipped manifest") as caught:
        load_manifest("no-such-corpus")
    assert caught.value.key == "corpus"


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ManifestError, match="cannot read"):
        load_manifest(tmp_path / "absent.toml")


BAD_MANIFESTS = [
    pytest.param(GOOD_PACKAGE, "corpus", "missing", id="no-corpus-table"),
    pytest.param(HEADER, "package", "missing", id="no-packages"),
    pytest.param("package = []\n" + HEADER, "package", "at least one", id="empty-packages"),
    pytest.param("package = 3\n" + HEADER, "package", "expected an array", id="package-not-array"),
    pytest.param("package = [1]\n" + HEADER, "package[0]", "expected a table", id="package-not-table"),
    pytest.param("[corpus]\nname = 1\n" + GOOD_PACKAGE, "corpus.name", "expected a string", id="name-type"),
    pytest.param('colour = "red"\n' + HEADER + GOOD_PACKAGE, "colour", "unknown key", id="unknown-top-key"),
    pytest.param(
        HEADER + 'colour = "red"\n' + GOOD_PACKAGE, "corpus.colour", "unknown key", id="unknown-corpus-key"
    ),
    pytest.param(HEADER + 'name = "x" =\n', "(syntax)", "line 3", id="syntax"),
]


def _edit(old: str, new: str) -> str:
    assert old in GOOD_PACKAGE
    return HEADER + GOOD_PACKAGE.replace(old, new)


BAD_PACKAGES = [
    pytest.param(_edit(f'sha256 = "{SHA}"\n', ""), "package[0].sha256", "missing", id="no-sha"),
    pytest.param(_edit(SHA, "abc"), "package[0].sha256", "64 lowercase hex", id="short-sha"),
    pytest.param(_edit(SHA, "A" * 64), "package[0].sha256", "64 lowercase hex", id="upper-sha"),
    pytest.param(_edit(SHA, "g" * 64), "package[0].sha256", "64 lowercase hex", id="non-hex-sha"),
    pytest.param(
        _edit('version = "1.0"', "version = 1.0"), "package[0].version", "got a number", id="version-type"
    ),
    pytest.param(
        _edit('version = "1.0"', 'version = "1 0"'), "package[0].version", "not a valid", id="version"
    ),
    pytest.param(_edit('name = "demo"', 'name = "a b"'), "package[0].name", "not a valid", id="bad-name"),
    pytest.param(
        _edit("has_tests = true", 'has_tests = "yes"'), "package[0].has_tests", "boolean", id="bool"
    ),
    pytest.param(_edit('domain = "testing"\n', ""), "package[0].domain", "missing", id="no-domain"),
    pytest.param(
        _edit("has_tests = true", "has_tests = true\ncolour = 1"),
        "package[0].colour",
        "unknown key",
        id="unknown-package-key",
    ),
    pytest.param(
        _edit("has_tests = true", "has_tests = true\nannotated = 1.5"),
        "package[0].annotated",
        "between 0 and 1",
        id="fraction",
    ),
    pytest.param(
        _edit("has_tests = true", "has_tests = true\nlines = true"),
        "package[0].lines",
        "expected an integer, got a boolean",
        id="bool-is-not-int",
    ),
    pytest.param(
        _edit("has_tests = true", "has_tests = false"),
        "package[0].tests",
        "has_tests = false",
        id="tests-without-has-tests",
    ),
    pytest.param(
        HEADER + GOOD_PACKAGE.split("[package.tests]", maxsplit=1)[0],
        "package[0].tests",
        "needs a",
        id="has-tests-without-tests",
    ),
    pytest.param(
        _edit('command = ["python", "-m", "pytest"]', "command = []"),
        "package[0].tests.command",
        "non-empty",
        id="empty-command",
    ),
    pytest.param(
        _edit('command = ["python", "-m", "pytest"]', 'command = ["python", 3]'),
        "package[0].tests.command[1]",
        "expected a string",
        id="command-item",
    ),
    pytest.param(
        _edit('command = ["python", "-m", "pytest"]', 'command = "python \'x"'),
        "package[0].tests.command",
        "cannot split",
        id="command-quotes",
    ),
    pytest.param(
        _edit('deps = ["pytest"]', 'deps = ["pytest", 2]'),
        "package[0].tests.deps[1]",
        "expected a string",
        id="deps-item",
    ),
    pytest.param(
        _edit('deps = ["pytest"]', 'deps = "pytest"'),
        "package[0].tests.deps",
        "expected an array",
        id="deps-type",
    ),
    pytest.param(
        _edit('deps = ["pytest"]', "env = { X = 1 }"),
        "package[0].tests.env.X",
        "expected a string",
        id="env-value",
    ),
    pytest.param(
        _edit('deps = ["pytest"]', 'env = { "1X" = "1" }'),
        "package[0].tests.env.1X",
        "variable name",
        id="env-name",
    ),
    pytest.param(
        _edit('deps = ["pytest"]', 'status = "green"'), "package[0].tests.status", "one of", id="status"
    ),
    pytest.param(
        _edit('deps = ["pytest"]', "timeout = 0"), "package[0].tests.timeout", "positive", id="timeout"
    ),
    pytest.param(
        _edit('deps = ["pytest"]', "retries = 2"),
        "package[0].tests.retries",
        "unknown key",
        id="unknown-test-key",
    ),
]


@pytest.mark.parametrize(("text", "key", "reason"), BAD_MANIFESTS + BAD_PACKAGES)
def test_bad_manifest_names_file_and_key(tmp_path: Path, text: str, key: str, reason: str) -> None:
    assert_rejected(tmp_path, text, key, reason)


def test_duplicate_names_point_at_the_second(tmp_path: Path) -> None:
    second = GOOD_PACKAGE.replace('"demo"', '"Demo"').replace(SHA, "b" * 64)
    assert_rejected(tmp_path, HEADER + GOOD_PACKAGE + second, "package[1].name", "also package[0]")


def test_errors_in_later_packages_carry_their_index(tmp_path: Path) -> None:
    second = GOOD_PACKAGE.replace('"demo"', '"other"').replace(SHA, "xyz")
    assert_rejected(tmp_path, HEADER + GOOD_PACKAGE + second, "package[1].sha256", "'xyz'")


# --- what running the tests needs ---------------------------------------------------------------------


def test_requirements_list_the_runners_then_each_package_s_dependencies_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = GOOD_PACKAGE.replace('"demo"', '"other"').replace(
        'deps = ["pytest"]', 'deps = ["pytest<9", "tzdata", \'backports.zoneinfo; python_version < "3.9"\']'
    )
    untested = GOOD_PACKAGE.replace('"demo"', '"untested"').replace("has_tests = true", "has_tests = false")
    untested = untested[: untested.index("[package.tests]")]
    path = write(tmp_path, HEADER + GOOD_PACKAGE + other + untested)
    assert main(["corpus", "requirements", "--corpus", str(path)]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if not line.startswith("# test")]
    assert lines[1:] == [
        "pytest",
        "coverage",
        "# demo 1.0",
        "# other 1.0",
        "pytest<9",
        "tzdata",
        'backports.zoneinfo; python_version < "3.9"',
    ]


def test_requirements_of_the_main_corpus_name_every_test_dependency(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["corpus", "requirements", "--corpus", "main"]) == 0
    printed = set(capsys.readouterr().out.splitlines())
    for spec in load_manifest("main").packages:
        if spec.tests is not None:
            assert set(spec.tests.deps) <= printed, spec.name

"""Files the index cannot read: each is one ``path:line: reason`` diagnostic, the rest is still indexed."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import TemporaryRepo

from dure.analyzers import RepoIndex, build_index, builder
from dure.analyzers.source import MAX_SOURCE_BYTES

GOOD = {"good.py": "def ok():\n    return helper()\n\n\ndef helper():\n    return 1\n"}


def index_with(temporary_repo: TemporaryRepo, files: dict[str, str | bytes]) -> RepoIndex:
    return build_index(temporary_repo({**GOOD, **files}), cache=False)


def only_diagnostic(index: RepoIndex) -> tuple[str, int, str]:
    assert len(index.diagnostics) == 1, [str(d) for d in index.diagnostics]
    (diagnostic,) = index.diagnostics
    text = str(diagnostic)
    assert text == f"{diagnostic.path}:{diagnostic.line}: {diagnostic.reason}"
    return diagnostic.path, diagnostic.line, diagnostic.reason


def assert_good_file_indexed(index: RepoIndex) -> None:
    assert {"good", "good.ok", "good.helper"} <= index.definitions.keys()
    assert index.callers("good.helper").value == frozenset({"good.ok"})


# (files, expected path, expected line, words the reason contains)
BAD_FILES: dict[str, tuple[dict[str, str | bytes], str, int, str]] = {
    "syntax error": ({"pkg/bad.py": "x = 1\n\ndef f(:\n    pass\n"}, "pkg/bad.py", 3, "syntax error"),
    "python 2 print": ({"old.py": 'import os\nprint "x"\n'}, "old.py", 2, "syntax error"),
    "latin-1 without coding line": (
        {"latin.py": "x = 1\ny = 2\nz = 'caf\xe9'\n".encode("latin-1")},
        "latin.py",
        3,
        "cannot decode as utf-8",
    ),
    "NUL byte": ({"nul.py": b"a = 1\nb = 2\nc = 3\nd = '\0'\n"}, "nul.py", 4, "NUL byte"),
    "bad coding line": ({"enc.py": b"# -*- coding: no-such-codec -*-\nx = 1\n"}, "enc.py", 1, "encoding"),
}


@pytest.mark.parametrize("case", BAD_FILES, ids=list(BAD_FILES))
def test_unreadable_file_is_a_located_diagnostic(temporary_repo: TemporaryRepo, case: str) -> None:
    files, path, line, words = BAD_FILES[case]
    index = index_with(temporary_repo, files)
    assert only_diagnostic(index)[:2] == (path, line)
    assert words in only_diagnostic(index)[2]
    module = path.removesuffix(".py").replace("/", ".")
    assert module not in index.definitions
    assert_good_file_indexed(index)
    assert index.statistics.files == 2
    assert index.statistics.modules == 1


def test_latin1_with_a_coding_line_is_indexed(temporary_repo: TemporaryRepo) -> None:
    source = "# -*- coding: latin-1 -*-\ndef caf\xe9():\n    return '\xe9'\n".encode("latin-1")
    index = index_with(temporary_repo, {"latin.py": source})
    assert index.diagnostics == ()
    assert "latin.caf\xe9" in index.definitions


def test_huge_generated_file_is_skipped_unparsed(temporary_repo: TemporaryRepo) -> None:
    line = b"value = 1\n"
    data = line * (MAX_SOURCE_BYTES // len(line) + 1)
    assert len(data) > 4 * 1024 * 1024
    index = index_with(temporary_repo, {"generated/table.py": data})
    path, _, reason = only_diagnostic(index)
    assert path == "generated/table.py"
    assert str(len(data)) in reason
    assert "generated.table" not in index.definitions
    assert_good_file_indexed(index)


def test_file_of_exactly_the_size_limit_is_indexed(temporary_repo: TemporaryRepo) -> None:
    data = b"x = 1\n" + b"#" * (MAX_SOURCE_BYTES - 7) + b"\n"
    assert len(data) == MAX_SOURCE_BYTES
    index = index_with(temporary_repo, {"big.py": data})
    assert index.diagnostics == ()
    assert "big" in index.definitions


DEEP_SOURCES: dict[str, Callable[[], str]] = {
    "60k-term sum": lambda: "x = " + " + ".join(["a"] * 60_000) + "\n",
    "60k attribute chain": lambda: "import os\nx = os" + ".path" * 60_000 + "\n",
    "60k call chain": lambda: "def f():\n    return f\n\n\nx = f" + "()" * 60_000 + "\n",
    "60k unary minus": lambda: "x = " + "-" * 60_000 + "1\n",
    "5000 nested lists": lambda: "x = " + "[" * 5000 + "]" * 5000 + "\n",
    "5000 nested lambdas": lambda: "x = " + "lambda: " * 5000 + "1\n",
}


@pytest.mark.parametrize("case", DEEP_SOURCES, ids=list(DEEP_SOURCES))
def test_deep_nesting_is_a_diagnostic_not_a_crash(temporary_repo: TemporaryRepo, case: str) -> None:
    index = index_with(temporary_repo, {"deep.py": DEEP_SOURCES[case]()})
    path, line, reason = only_diagnostic(index)
    assert path == "deep.py"
    assert "nested" in reason
    assert line >= 0
    assert_good_file_indexed(index)


SHALLOW_ENOUGH: dict[str, str] = {
    "60k-term or": "x = " + " or ".join(["a"] * 60_000) + "\n",
    "150 nested lists": "x = " + "[" * 150 + "]" * 150 + "\n",
    "99 nested functions": "".join("    " * i + f"def f{i}():\n" for i in range(99))
    + "    " * 99
    + "return 1\n",
    "99 nested ifs": "".join("    " * i + "if x:\n" for i in range(99)) + "    " * 99 + "y = 1\n",
}


@pytest.mark.parametrize("case", SHALLOW_ENOUGH, ids=list(SHALLOW_ENOUGH))
def test_deep_but_parseable_nesting_is_indexed(temporary_repo: TemporaryRepo, case: str) -> None:
    index = index_with(temporary_repo, {"deep.py": SHALLOW_ENOUGH[case]})
    assert index.diagnostics == ()
    assert "deep" in index.definitions
    assert_good_file_indexed(index)


def test_nested_functions_get_nested_qualnames(temporary_repo: TemporaryRepo) -> None:
    index = index_with(temporary_repo, {"deep.py": SHALLOW_ENOUGH["99 nested functions"]})
    innermost = "deep." + ".".join(f"f{i}" for i in range(99))
    assert index.definitions[innermost].line == 99


def test_symlink_loop_is_reported_once_and_walk_terminates(temporary_repo: TemporaryRepo) -> None:
    root = temporary_repo({**GOOD, "pkg/__init__.py": "", "pkg/mod.py": "def f():\n    pass\n"})
    os.symlink("..", root / "pkg" / "up")
    index = build_index(root, cache=False)
    assert [str(d) for d in index.diagnostics] == ["pkg/up:0: symlink loop: directory already visited"]
    assert {"pkg", "pkg.mod", "pkg.mod.f"} <= index.definitions.keys()
    assert index.statistics.files == 3
    assert_good_file_indexed(index)


def test_symlinked_directory_outside_the_tree_is_followed(
    temporary_repo: TemporaryRepo, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "ext.py").write_text("def far():\n    pass\n", encoding="utf-8")
    root = temporary_repo(GOOD)
    os.symlink(outside, root / "linked")
    index = build_index(root, cache=False)
    assert index.diagnostics == ()
    assert index.definitions["linked.ext.far"].file == "linked/ext.py"


def test_broken_symlink_is_a_diagnostic(temporary_repo: TemporaryRepo) -> None:
    root = temporary_repo(GOOD)
    os.symlink(root / "missing.py", root / "dangling.py")
    index = build_index(root, cache=False)
    assert [str(d) for d in index.diagnostics] == ["dangling.py:0: broken symlink"]
    assert index.statistics.files == 1
    assert_good_file_indexed(index)


def test_empty_package_and_empty_directory(temporary_repo: TemporaryRepo) -> None:
    index = index_with(temporary_repo, {"pkg/__init__.py": "", "nothing/": "", "data/readme.txt": "no code"})
    assert index.diagnostics == ()
    package = index.definitions["pkg"]
    assert (package.kind.value, package.file, package.line) == ("module", "pkg/__init__.py", 1)
    assert not any(name.startswith(("nothing", "data")) for name in index.definitions)
    assert index.statistics.files == 2
    assert_good_file_indexed(index)


def test_empty_repository(temporary_repo: TemporaryRepo) -> None:
    index = build_index(temporary_repo({"README.md": "nothing here"}), cache=False)
    assert (index.definitions, index.diagnostics, index.edges()) == ({}, (), [])
    assert (index.statistics.files, index.statistics.modules, index.statistics.lines) == (0, 0, 0)


def test_every_bad_file_at_once(temporary_repo: TemporaryRepo) -> None:
    """All the failures in one tree: one diagnostic each, sorted by nothing but all present."""
    files: dict[str, str | bytes] = {
        name: content for files, *_ in BAD_FILES.values() for name, content in files.items()
    }
    files["deep.py"] = DEEP_SOURCES["60k-term sum"]()
    root = temporary_repo({**GOOD, **files})
    os.symlink(root / "missing.py", root / "dangling.py")
    index = build_index(root, cache=False)
    located = {(d.path, d.line) for d in index.diagnostics}
    expected = {(path, line) for _, path, line, _ in BAD_FILES.values()}
    assert located == expected | {("deep.py", 0), ("dangling.py", 0)}
    assert index.statistics.modules == 1
    assert_good_file_indexed(index)


def test_same_module_under_src_and_at_the_top(temporary_repo: TemporaryRepo) -> None:
    """``src/pkg/a.py`` and ``pkg/a.py`` both name ``pkg.a``: the first by path wins."""
    index = build_index(temporary_repo({
        "src/pkg/__init__.py": "", "src/pkg/a.py": "def from_src():\n    pass\n",
        "pkg/__init__.py": "", "pkg/a.py": "def from_top():\n    pass\n",
    }), cache=False)  # fmt: skip
    assert sorted(str(d) for d in index.diagnostics) == [
        "src/pkg/__init__.py:0: module pkg defined twice; skipped",
        "src/pkg/a.py:0: module pkg.a defined twice; skipped",
    ]
    assert index.definitions["pkg.a"].file == "pkg/a.py"
    assert "pkg.a.from_top" in index.definitions
    assert "pkg.a.from_src" not in index.definitions
    assert index.statistics.files == 4
    assert index.statistics.modules == 2


def test_unreadable_file_is_a_diagnostic(temporary_repo: TemporaryRepo) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads every file")
    root = temporary_repo({**GOOD, "secret.py": "x = 1\n"})
    (root / "secret.py").chmod(0)
    try:
        index = build_index(root, cache=False)
    finally:
        (root / "secret.py").chmod(0o644)
    path, _, reason = only_diagnostic(index)
    assert (path, reason.startswith("cannot read")) == ("secret.py", True)
    assert_good_file_indexed(index)


def test_a_collector_defect_skips_only_its_file(
    temporary_repo: TemporaryRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Outside the tests' strict mode, an exception the collector raises on one file is that file's
    diagnostic: the other files are indexed."""
    real_collect = builder.collect

    def failing_on_broken(source, tree, text):  # type: ignore[no-untyped-def]
        if source.relpath == "broken.py":
            raise KeyError("unexpected node")
        return real_collect(source, tree, text)

    monkeypatch.setattr(builder, "collect", failing_on_broken)
    monkeypatch.delenv("DURE_STRICT", raising=False)
    index = index_with(temporary_repo, {"broken.py": "x = 1\n"})
    path, line, reason = only_diagnostic(index)
    assert (path, line) == ("broken.py", 0)
    assert reason == "internal error, file skipped: KeyError: 'unexpected node'"
    assert_good_file_indexed(index)

    monkeypatch.setenv("DURE_STRICT", "1")
    with pytest.raises(KeyError):
        index_with(temporary_repo, {"broken.py": "x = 1\n"})

"""``dure index``: the summary line, the JSON export, errors and exit codes."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import TemporaryRepo

from dure import cli
from dure.analyzers import build_index
from dure.analyzers.export import FORMAT_VERSION
from dure.cli import ExitCode, main
from dure.cli._base import RunState

FILES = {
    "pkg/__init__.py": "from pkg.core import run\n",
    "pkg/core.py": textwrap.dedent("""\
        import os


        def run(x):
            helper()
            os.getcwd()
            x.go()
            (helper if x else other)()


        def helper():
            pass


        def other():
            pass


        class Thing:
            def method(self):
                return run(self)
        """),
    "bad.py": "x = 1\ndef broken(:\n",
    "old.py": 'print "python 2"\n',
}

SUMMARY = re.compile(
    r"^(?P<name>\S+): (?P<files>\d+) files, (?P<lines>\d+) lines, (?P<definitions>\d+) definitions, "
    r"(?P<sites>\d+) call sites; edges (?P<certain>\d+) certain, (?P<possible>\d+) possible, "
    r"(?P<unresolved>\d+) unresolved; (?P<diagnostics>\d+) diagnostics; \d+\.\d\d s(?P<cached> \(cached\))?$"
)
NODE_KEYS = ["name", "kind", "file", "line", "end_line"]
EDGE_KEYS = ["caller", "callee", "certainty", "file", "line"]


@pytest.fixture
def repo(temporary_repo: TemporaryRepo) -> Path:
    return temporary_repo(FILES)


def test_summary_line(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["index", str(repo), "--no-cache"]) == ExitCode.OK
    out, err = capsys.readouterr()
    match = SUMMARY.match(out.rstrip("\n"))
    assert match is not None, out
    expected = build_index(repo, cache=False)
    counts = {c.value: n for c, n in expected.certainty_counts().items()}
    assert match.group("name") == repo.name
    assert {key: int(value) for key, value in match.groupdict().items() if value and value.isdigit()} == {
        "files": 4,
        "lines": expected.statistics.lines,
        "definitions": len(expected.definitions),
        "sites": len(expected.call_sites),
        "certain": counts["certain"],
        "possible": counts["possible"],
        "unresolved": counts["unresolved"],
        "diagnostics": 2,
    }
    assert (counts["certain"], counts["possible"], counts["unresolved"]) == (3, 2, 1)
    assert match.group("cached") is None
    assert err == ""


def test_summary_says_cached_on_the_second_run(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["index", str(repo)]) == ExitCode.OK
    assert main(["index", str(repo)]) == ExitCode.OK
    first, second = capsys.readouterr().out.splitlines()
    assert not first.endswith("(cached)")
    assert second.endswith("(cached)")


def test_no_cache_never_says_cached(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["index", str(repo), "--no-cache"]) == ExitCode.OK
    assert main(["index", str(repo), "--no-cache"]) == ExitCode.OK
    assert not any(line.endswith("(cached)") for line in capsys.readouterr().out.splitlines())


def test_diagnostics_flag_prints_path_line_reason(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["index", str(repo), "--no-cache", "--diagnostics"]) == ExitCode.OK
    err = capsys.readouterr().err
    assert sorted(line.strip() for line in err.splitlines()) == [
        "bad.py:2: syntax error: invalid syntax",
        "old.py:1: syntax error: Missing parentheses in call to 'print'. Did you mean print(...)?",
    ]


def test_without_diagnostics_flag_nothing_on_stderr(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["index", str(repo), "--no-cache"]) == ExitCode.OK
    assert capsys.readouterr().err == ""


def test_json_export_format(repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "deep" / "graph.json"
    assert main(["index", str(repo), "--no-cache", "--json", str(out)]) == ExitCode.OK
    capsys.readouterr()
    document = json.loads(out.read_text(encoding="utf-8"))
    assert list(document) == ["format", "version", "root", "files", "lines", "nodes", "edges", "diagnostics"]
    assert (document["format"], document["version"], FORMAT_VERSION) == ("dure-index", 1, 1)
    assert document["root"] == str(repo.resolve())
    assert document["files"] == 4
    index = build_index(repo, cache=False)
    assert document["lines"] == index.statistics.lines

    nodes = document["nodes"]
    assert all(list(node) == NODE_KEYS for node in nodes)
    assert {node["name"] for node in nodes} == set(index.definitions)
    assert nodes == sorted(nodes, key=lambda n: (n["file"], n["line"], n["name"]))
    assert {node["kind"] for node in nodes} == {"module", "class", "function", "method"}
    assert all(1 <= node["line"] <= node["end_line"] for node in nodes)
    run = next(node for node in nodes if node["name"] == "pkg.core.run")
    assert run == {
        "name": "pkg.core.run",
        "kind": "function",
        "file": "pkg/core.py",
        "line": 4,
        "end_line": 8,
    }

    edges = document["edges"]
    assert all(list(edge) == EDGE_KEYS for edge in edges)
    assert edges == sorted(
        edges, key=lambda e: (e["file"], e["line"], e["caller"], e["callee"], e["certainty"])
    )
    assert {edge["certainty"] for edge in edges} == {"certain", "possible", "unresolved"}
    names = {node["name"] for node in nodes}
    assert all(edge["caller"] in names for edge in edges)
    by_line = {(e["caller"], e["callee"], e["certainty"], e["line"]) for e in edges}
    assert {
        ("pkg.core.run", "pkg.core.helper", "certain", 5),
        ("pkg.core.run", "os.getcwd", "certain", 6),
        ("pkg.core.run", "x.go", "unresolved", 7),
        ("pkg.core.run", "pkg.core.helper", "possible", 8),
        ("pkg.core.run", "pkg.core.other", "possible", 8),
        ("pkg.core.Thing.method", "pkg.core.run", "certain", 21),
    } <= by_line

    assert document["diagnostics"] == [str(d) for d in index.diagnostics]
    assert sorted(document["diagnostics"])[0] == "bad.py:2: syntax error: invalid syntax"
    assert [p.name for p in out.parent.iterdir()] == ["graph.json"]  # no temporary file left behind


def test_json_is_byte_identical_across_runs(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second, cached = tmp_path / "1.json", tmp_path / "2.json", tmp_path / "3.json"
    assert main(["index", str(repo), "--no-cache", "--json", str(first)]) == ExitCode.OK
    assert main(["index", str(repo), "--no-cache", "--json", str(second)]) == ExitCode.OK
    assert main(["index", str(repo), "--json", str(tmp_path / "warm.json")]) == ExitCode.OK
    assert main(["index", str(repo), "--json", str(cached)]) == ExitCode.OK
    assert capsys.readouterr().out.splitlines()[-1].endswith("(cached)")
    assert first.read_bytes() == second.read_bytes() == cached.read_bytes()
    assert first.read_bytes().endswith(b"}\n")


def test_a_file_is_not_a_directory(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["index", str(repo / "bad.py")]) == ExitCode.ERROR == 3
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"dure: error: {repo / 'bad.py'}: not a directory\n"


def test_a_missing_path_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["index", str(tmp_path / "missing")]) == ExitCode.ERROR
    assert capsys.readouterr().err.startswith("dure: error: ")


def test_path_and_corpus_together_is_a_usage_error(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["index", str(repo), "--corpus", "default"]) == ExitCode.USAGE == 2
    err = capsys.readouterr().err
    assert "give PATH or --corpus, not both" in err


def test_unknown_option_is_a_usage_error(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["index", str(repo), "--no-such-option"]) == ExitCode.USAGE
    assert "--no-such-option" in capsys.readouterr().err


def test_json_next_to_nothing_writes_nothing_on_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out.json"
    assert main(["index", str(tmp_path / "missing"), "--json", str(out)]) == ExitCode.ERROR
    capsys.readouterr()
    assert not out.exists()


def test_json_that_cannot_be_written_is_an_error_and_the_index_is_still_cached(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a directory")
    assert main(["index", str(repo), "--json", str(blocked / "out.json")]) == ExitCode.FAILURE
    out, err = capsys.readouterr()
    assert out.startswith(f"{repo.name}: ")  # the summary came first
    assert err.startswith(f"dure: error: {repo.name}: ")
    assert "Traceback" not in err
    assert main(["index", str(repo)]) == ExitCode.OK
    assert capsys.readouterr().out.rstrip().endswith("(cached)")


def _console(*args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    """``python -m dure ARGS`` as the console script runs it, with its own cache."""
    environment = {**os.environ, "DURE_CACHE": str(cache)}
    return subprocess.run(
        [sys.executable, "-m", "dure", *args], capture_output=True, text=True, env=environment, check=False
    )


def test_the_console_script_ends_an_index_without_teardown_and_loses_no_output(
    repo: Path, tmp_path: Path
) -> None:
    out = tmp_path / "graph.json"
    ran = _console("index", str(repo), "--json", str(out), cache=tmp_path / "cache")
    assert (ran.returncode, ran.stderr) == (0, "")
    assert ran.stdout.startswith(f"{repo.name}: ")
    assert ran.stdout.endswith(" s\n")
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["edges"]
    assert document["nodes"]
    again = _console("index", str(repo), cache=tmp_path / "cache")
    assert again.returncode == 0
    assert again.stdout.rstrip().endswith("(cached)")  # the forked saver's index was complete


def test_the_console_script_keeps_the_exit_code_of_a_failed_index(repo: Path, tmp_path: Path) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a directory")
    ran = _console("index", str(repo), "--json", str(blocked / "out.json"), cache=tmp_path / "cache")
    assert ran.returncode == ExitCode.FAILURE
    assert ran.stderr.startswith(f"dure: error: {repo.name}: ")
    assert ran.stdout.startswith(f"{repo.name}: ")


def test_retaining_the_working_state_changes_nothing_in_the_index(repo: Path) -> None:
    retained: list[object] = []
    kept = build_index(repo, cache=False, retain=retained)
    assert retained  # the summaries and the resolver's state
    plain = build_index(repo, cache=False)
    assert sorted(kept.edges(), key=repr) == sorted(plain.edges(), key=repr)
    assert kept.definitions == plain.definitions


class _Exited(Exception):
    def __init__(self, how: str, code: object) -> None:
        super().__init__(how, code)
        self.how, self.code = how, code


@pytest.mark.parametrize(
    ("arguments", "how"),
    [(["index", "{repo}"], "os._exit"), (["index", "{repo}", "--no-such-option"], "sys.exit")],
    ids=["an index", "a usage error"],
)
def test_only_a_finished_index_skips_the_teardown(
    repo: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    arguments: list[str],
    how: str,
) -> None:
    states: list[RunState] = []
    alive_at_exit: list[str] = []

    def recorded() -> RunState:
        states.append(RunState())
        return states[-1]

    def hard(code: int) -> None:
        # what the command kept must still be alive here: freed on its return, it costs what the exit saves
        alive_at_exit.extend(type(kept).__name__ for kept in states[0].kept)
        raise _Exited("os._exit", code)

    def soft(code: object) -> None:
        raise _Exited("sys.exit", code)

    monkeypatch.setattr(cli, "RunState", recorded)
    monkeypatch.setattr(os, "_exit", hard)
    monkeypatch.setattr(sys, "exit", soft)
    monkeypatch.setattr(sys, "argv", ["dure", *(a.format(repo=repo) for a in arguments)])
    with pytest.raises(_Exited) as ended:
        cli.run()
    assert ended.value.how == how
    if how == "os._exit":
        assert "RepoIndex" in alive_at_exit
        assert "Evaluator" in alive_at_exit
    else:
        assert not alive_at_exit
    capsys.readouterr()

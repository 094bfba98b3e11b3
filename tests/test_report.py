"""``dure report``: every input layout gives a page with the right counts, escaped text and scores."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from task_factories import REPO, exact_task, path_task, set_task

from dure.cli import main
from dure.cli._base import ExitCode
from dure.integrations.core import ground_truth_of
from dure.report import load_dataset, render, summarise, write_report
from dure.report.charts import bins_of, histogram, stacked_bar_chart, ticks
from dure.tasks import RepoRef, Task, VerifierSpec, encode_task, make_task, write_tasks

OTHER = RepoRef("other", "2.0", "pypi", "cd" * 32)


class Page(HTMLParser):
    """The parts of a report page the tests look at: tags seen, headings and tables as cell text."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.headings: list[str] = []
        self.tables: list[list[list[str]]] = []
        self._cell: list[str] | None = None
        self._heading: list[str] | None = None
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in {"td", "th"}:
            self._cell = []
        elif tag == "h2":
            self._heading = []

    def handle_endtag(self, tag: str) -> None:
        if tag in {"td", "th"} and self._cell is not None:
            self.tables[-1][-1].append("".join(self._cell))
            self._cell = None
        elif tag == "h2" and self._heading is not None:
            self.headings.append("".join(self._heading))
            self._heading = None

    def handle_data(self, data: str) -> None:
        for part in (self._cell, self._heading):
            if part is not None:
                part.append(data)

    def table(self, *header: str) -> dict[str, list[str]]:
        """The first table whose header starts with ``header``, as first cell -> the row's other cells."""
        for found in self.tables:
            if tuple(found[0][: len(header)]) == header:
                return {row[0]: row[1:] for row in found[1:]}
        raise AssertionError(f"no table with header {header}; tables: {[t[0] for t in self.tables]}")


def hostile_task(phase: int = 2, repo: RepoRef = REPO) -> Task:
    return make_task(
        kind="definition",
        repo=repo,
        prompt='Where is this defined? <script>alert("x")</script> Reply in <answer></answer> & "quotes".',
        inputs={"description": "hostile"},
        answer="pkg.<b>bold</b>",
        answer_schema={"type": "string"},
        verifier=VerifierSpec("exact"),
        phase=phase,
        difficulty={"hops": 3, "files": 2, "answer_size": 1},
        audit={"vulture": {"score": 0.25}, "trace": "agrees"},
    )


def tasks() -> list[Task]:
    return [
        set_task(["pkg.a", "pkg.b"]),
        set_task(["pkg.c"], kind="callees"),
        path_task(),
        exact_task(),
        hostile_task(),
    ]


def generate_dir(root: Path) -> Path:
    """A ``dure generate`` output: two shards and their reports."""
    listed = tasks()
    write_tasks(_mkdir(root / "tasks") / "demo-1.0.jsonl", listed[:4])
    write_tasks(root / "tasks" / "other-2.0.jsonl", [hostile_task(repo=OTHER)])
    reports = {
        "demo-1.0": {
            "repository": "demo",
            "tasks": {
                "callers": {"1": 1},
                "callees": {"1": 1},
                "call-path": {"1": 1},
                "definition": {"1": 1},
            },
            "drops": {"callers": {"uncertain": 3, "trivial": 2}, "definition": {"leak": 2}},
            "trace": {"checked": 3, "misses": 1, "tests_ran": True, "error": None},
        },
        "other-2.0": {"repository": "other", "tasks": {"definition": {"2": 1}}, "drops": {}, "trace": {}},
    }
    for shard, report in reports.items():
        (_mkdir(root / "reports") / f"{shard}.json").write_text(json.dumps(report), encoding="utf-8")
    return root


def _mkdir(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return path


def report_page(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[Page, str]:
    assert main(["report", *args]) == ExitCode.OK
    printed = capsys.readouterr().out
    written = Path(printed.splitlines()[0])
    return Page(written.read_text(encoding="utf-8")), printed


def test_generate_dir_counts_yield_and_drops(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page, printed = report_page([str(generate_dir(tmp_path / "gen"))], capsys)
    assert printed.splitlines() == [
        str(tmp_path / "gen" / "report.html"),
        "5 tasks, 2 repositories, 4 kinds, 2 phases (generate)",
    ]
    kinds = page.table("kind", "phase 1", "phase 2", "total")
    assert kinds["definition"] == ["1", "1", "2"]
    assert kinds["callers"] == ["1", "0", "1"]
    assert kinds["all"] == ["4", "1", "5"]
    runs = page.table("repository", "tasks", "dropped", "candidates", "yield")
    assert runs["demo"][:4] == ["4", "7", "11", "36.4%"]
    assert runs["demo"][4:7] == ["3", "1", "yes"]
    assert runs["other"][:4] == ["1", "0", "1", "100.0%"]
    assert page.table("reason", "dropped") == {"uncertain": ["3"], "leak": ["2"], "trivial": ["2"]}
    assert page.table("shard", "rows") == {"demo-1.0": ["4"], "other-2.0": ["1"]}
    assert "Audit" in page.headings
    assert "Generation: yield and drops" in page.headings
    assert "Scores" not in page.headings


def test_audit_rows_summarise_numbers_and_labels(tmp_path: Path) -> None:
    summary = summarise(load_dataset(generate_dir(tmp_path / "gen")))
    rows = {(row.kind, row.field): row for row in summary.audit}
    assert rows["definition", "vulture.score"].summary == "mean 0.25, min 0.25, max 0.25"
    assert rows["definition", "trace"].summary == "agrees: 1"
    assert rows["definition", "trace"].tasks == 1  # the other definition task recorded no audit


def test_curriculum_dir_counts_placements_and_shows_facts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _mkdir(tmp_path / "cur")
    listed = tasks()
    write_tasks(root / "phase-1.jsonl", listed[:3])
    write_tasks(root / "phase-2.jsonl", listed[3:])
    write_tasks(root / "phase-3.jsonl", [])
    write_tasks(root / "phase-4.jsonl", [listed[0], listed[4]])  # phase 4 mixes tasks of other phases
    (root / "curriculum.json").write_text(json.dumps({"format": 1, "tasks": 5, "phases": {"1": 3}}))
    page, printed = report_page([str(root), "--out", str(tmp_path / "page.html")], capsys)
    assert printed.splitlines()[0] == str(tmp_path / "page.html")
    assert "5 tasks, 1 repositories, 4 kinds, 3 phases (curriculum)" in printed
    kinds = page.table("kind", "phase 1", "phase 2", "phase 4", "total")
    assert kinds["callers"] == ["1", "0", "1", "2"]
    assert kinds["all"] == ["3", "2", "2", "7"]
    assert page.table("phase file", "rows") == {"phase-1": ["3"], "phase-2": ["2"], "phase-4": ["2"]}
    assert page.table("key", "value") == {"format": ["1"], "tasks": ["5"]}  # objects are not shown


def write_export(root: Path, listed: list[Task], *, kind_override: str | None = None) -> Path:
    """A tiny ``dure export``: one parquet per split, rows shaped as the exporter writes them."""
    for split, part in (("train", listed[:3]), ("test", listed[3:])):
        rows = []
        for task in part:
            truth = ground_truth_of(task)
            if kind_override is not None:
                truth = truth.replace(f'"kind":"{task.kind.value}"', f'"kind":"{kind_override}"')
            rows.append(
                {
                    "task_id": task.id,
                    "phase": task.phase,
                    "prompt": [
                        {"role": "system", "content": "You are..."},
                        {"role": "user", "content": task.prompt},
                    ],
                    "reward_model": {"style": "rule", "ground_truth": truth},
                    "extra_info": {"split": split, "task_id": task.id},
                }
            )
        folder = _mkdir(root / "data" / "1" / "mixed")
        pq.write_table(pa.Table.from_pylist(rows), folder / f"{split}-00000-of-00001.parquet")
    (root / "dure_manifest.json").write_text(json.dumps({"format": 1, "tasks": len(listed)}))
    return root


def test_parquet_export_is_read_back_with_prompts_and_splits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page, printed = report_page([str(write_export(tmp_path / "exp", tasks()))], capsys)
    assert "5 tasks, 1 repositories, 4 kinds, 2 phases (export)" in printed
    assert page.table("split", "rows") == {"test": ["2"], "train": ["3"]}
    assert page.table("key", "value") == {"format": ["1"], "tasks": ["5"]}
    summary = summarise(load_dataset(tmp_path / "exp"))
    prompts = {sample.id: sample.prompt for sample in summary.samples}
    assert prompts[hostile_task().id] == hostile_task().prompt  # the user message, not the system one


def test_real_export_rows_are_read(tmp_path: Path) -> None:
    rows_module = pytest.importorskip("dure.export.rows")
    listed = tasks()
    rows = [
        rows_module.task_row(task, phase=task.phase, split="train", index=i) for i, task in enumerate(listed)
    ]
    folder = _mkdir(tmp_path / "exp" / "data" / "1" / "callers")
    pq.write_table(rows_module.rows_table(rows), folder / "train-00000-of-00001.parquet")
    summary = summarise(load_dataset(tmp_path / "exp"))
    assert summary.tasks == len(listed)
    assert {sample.prompt for sample in summary.samples} == {task.prompt for task in listed}


def test_export_with_an_unknown_kind_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = write_export(tmp_path / "exp", tasks(), kind_override="telepathy")
    assert main(["report", str(root)]) == ExitCode.ERROR
    error = capsys.readouterr().err
    assert error.startswith("dure: error: ")
    assert "row 0" in error
    assert "unknown task kind 'telepathy'" in error


def test_single_jsonl_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "tasks.jsonl"
    write_tasks(path, tasks())
    page, printed = report_page([str(path)], capsys)
    assert printed.splitlines()[0] == str(tmp_path / "tasks.report.html")
    assert page.table("file", "rows") == {"tasks": ["5"]}
    assert page.table("kind", "phase 1")["all"] == ["4", "1", "5"]


def test_prompts_and_answers_are_escaped(tmp_path: Path) -> None:
    path = tmp_path / "tasks.jsonl"
    write_tasks(path, [hostile_task()])
    text = render(summarise(load_dataset(path)))
    page = Page(text)
    assert page.tags.count("script") == 1  # the table sorter only
    assert page.tags.count("b") == 4  # the overview's four cards; the answer's <b> stayed text
    assert "answer" not in page.tags
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in text
    assert "&lt;answer&gt;&lt;/answer&gt; &amp; &quot;quotes&quot;" in text
    assert "&quot;pkg.&lt;b&gt;bold&lt;/b&gt;&quot;" in text


def test_scores_add_pass_rates_by_kind_and_phase(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    listed = [*tasks()[:4], hostile_task(repo=OTHER)]  # the tasks of generate_dir
    lines = [
        {"task_id": listed[0].id, "kind": "callers", "phase": 1, "value": 1.0, "passed": True},
        {"task_id": listed[0].id, "kind": "callers", "phase": 1, "value": 0.0, "passed": False},  # 2nd sample
        {"task_id": listed[1].id, "kind": "callees", "phase": 1, "value": 0.5, "passed": False},
        {
            "task_id": listed[3].id,
            "kind": "definition",
            "phase": 1,
            "value": 0.0,
            "passed": False,
            "error": "bad",
        },
        {"task_id": listed[4].id, "kind": "definition", "phase": 2, "value": 1.0, "passed": True},
        {
            "task_id": "callers-00000000000000000000",
            "kind": "callers",
            "phase": 1,
            "value": 1.0,
            "passed": True,
        },
        {"line": 9, "task_id": None, "value": 0.0, "passed": False, "error": "not JSON"},
    ]
    scores = tmp_path / "scores.jsonl"
    scores.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    root = generate_dir(tmp_path / "gen")
    page, printed = report_page([str(root), "--scores", str(scores)], capsys)
    assert printed.splitlines()[1].endswith("; pass rate 30.0%, mean score 0.400 over 5 tasks")
    assert "Scores" in page.headings
    header = ("group", "tasks", "answers", "missing", "errors", "passed", "pass rate", "mean score")
    by_kind = page.table(*header)
    assert by_kind["definition"] == ["2", "2", "0", "1", "1", "50.0%", "0.500"]
    assert by_kind["call-path"] == ["1", "0", "1", "0", "0", "0.0%", "0"]
    assert by_kind["callees"] == ["1", "1", "0", "0", "0", "0.0%", "0.500"]
    assert by_kind["callers"] == ["1", "2", "0", "0", "1", "50.0%", "0.500"]  # every sample counts
    assert by_kind["all"] == ["5", "5", "1", "1", "2", "30.0%", "0.400"]
    by_phase = [table for table in page.tables if table[0] == list(header)][1]
    rows = {row[0]: row[1:] for row in by_phase[1:]}
    assert rows["phase 1"] == ["4", "4", "1", "1", "1", "12.5%", "0.250"]
    assert rows["phase 2"] == ["1", "1", "0", "0", "1", "100.0%", "1"]
    text = (root / "report.html").read_text(encoding="utf-8")
    assert "1 malformed answer lines, 1 scores of tasks not in this dataset" in text


def test_output_is_deterministic(tmp_path: Path) -> None:
    root = generate_dir(tmp_path / "gen")
    first, _ = write_report(root, tmp_path / "a.html")
    second, _ = write_report(root, tmp_path / "b.html")
    assert first.read_bytes() == second.read_bytes()
    assert render(summarise(load_dataset(root))) == first.read_text(encoding="utf-8")


def test_samples_are_the_first_by_id_per_kind(tmp_path: Path) -> None:
    path = tmp_path / "tasks.jsonl"
    many = [set_task([f"pkg.f{i}"], candidates=(f"pkg.x{i}",)) for i in range(5)]
    write_tasks(path, many)
    summary = summarise(load_dataset(path), samples=2)
    assert [sample.id for sample in summary.samples] == sorted(task.id for task in many)[:2]


@pytest.mark.parametrize(
    ("layout", "message"),
    [
        ("empty-dir", "not a dataset"),
        ("corrupt-line", "tasks.jsonl:2: "),
        ("bad-report", "not JSON"),
        ("bad-scores", "scores.jsonl:1: expected a number 'value'"),
    ],
)
def test_bad_inputs_exit_3(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], layout: str, message: str
) -> None:
    args: list[str]
    if layout == "empty-dir":
        (tmp_path / "something.txt").write_text("hello")
        args = [str(tmp_path)]
    elif layout == "corrupt-line":
        path = tmp_path / "tasks.jsonl"
        path.write_text(encode_task(exact_task()) + "\n{not json\n", encoding="utf-8")
        args = [str(path)]
    elif layout == "bad-report":
        root = generate_dir(tmp_path / "gen")
        (root / "reports" / "demo-1.0.json").write_text("{oops", encoding="utf-8")
        args = [str(root)]
    else:
        path = tmp_path / "tasks.jsonl"
        write_tasks(path, tasks())
        (tmp_path / "scores.jsonl").write_text(json.dumps({"task_id": "x", "value": "high"}) + "\n")
        args = [str(path), "--scores", str(tmp_path / "scores.jsonl")]
    assert main(["report", *args]) == ExitCode.ERROR
    error = capsys.readouterr().err
    assert error.startswith("dure: error: ")
    assert message in error


def test_ticks_are_round_and_cover_the_top() -> None:
    assert ticks(1.0) == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert ticks(149) == [0.0, 50.0, 100.0, 150.0]
    assert ticks(0) == [0.0, 0.25, 0.5, 0.75, 1.0]
    for top in (0.176, 3, 7, 27, 651, 1e6 + 1):
        found = ticks(top)
        assert found[-1] >= top
        assert len(found) <= 5


def test_bins_count_every_value() -> None:
    assert bins_of([1, 2, 2, 3], 10) == [("1", 1), ("2", 2), ("3", 1)]
    wide = bins_of([0, 3, 266], 10)
    assert len(wide) == 10
    assert sum(count for _, count in wide) == 3
    scores = bins_of([0.0, 0.55, 1.0, 1.0], 10, (0.0, 1.0))
    assert [count for _, count in scores] == [1, 0, 0, 0, 0, 1, 0, 0, 0, 2]
    assert bins_of([], 10) == []


def test_charts_are_labelled_and_escaped() -> None:
    chart = stacked_bar_chart(["<a>", "b"], [("s&1", [1, 2]), ("s2", [3, 0])], "T<itle>", x_label="tasks")
    page = Page(chart)
    assert page.tags.count("svg") == 1
    assert "a" not in page.tags
    assert "<title>T&lt;itle&gt;</title>" in chart
    assert "<title>&lt;a&gt; / s&amp;1: 1</title>" in chart
    assert ">tasks</text>" in chart
    assert "<svg" in histogram([], "empty", x_label="x")

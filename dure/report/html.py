"""The report page: one static HTML file with inline CSS and SVG, readable with scripts off.

:func:`render` is a pure function of the summary, so the same dataset gives the same bytes. Every piece of
dataset text (prompts hold ``<answer>`` tags and code) goes through :func:`html.escape`. The only script sorts
a table when its header is clicked; the content never depends on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from dure.report.charts import bar_chart, histogram, stacked_bar_chart
from dure.report.summary import DatasetSummary, Distribution, ScoreRow, ScoreSummary

Cell = str | int | float

STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1100px; padding: 0 24px 48px;
  color: #1a1a1a; }
h1 { font-size: 22px; margin: 24px 0 4px; } h2 { font-size: 18px; margin: 32px 0 8px;
  border-bottom: 1px solid #ddd; padding-bottom: 4px; } h3 { font-size: 15px; margin: 20px 0 6px; }
nav a { margin-right: 12px; } .muted { color: #666; }
.cards { display: flex; gap: 12px; flex-wrap: wrap; margin: 12px 0; }
.card { border: 1px solid #ddd; border-radius: 6px; padding: 8px 16px; min-width: 110px; }
.card b { display: block; font-size: 24px; }
table { border-collapse: collapse; margin: 8px 0 16px; font-size: 13px; }
th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f4f4f4; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
table.sortable th { cursor: pointer; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(480px, 1fr)); gap: 8px 24px; }
svg.chart { max-width: 100%; height: auto; display: block; margin: 8px 0; }
svg text { font: 12px system-ui, sans-serif; fill: #1a1a1a; }
svg .chart-title { font-weight: 600; font-size: 13px; } svg .tick { fill: #555; font-size: 11px; }
svg .axis { stroke: #888; stroke-width: 1; } svg .axis-label { fill: #444; }
pre { background: #f7f7f7; border: 1px solid #e4e4e4; padding: 8px; overflow-x: auto; white-space: pre-wrap;
  font-size: 12px; max-height: 480px; }
details { margin: 6px 0; } summary { cursor: pointer; } .sample { border-left: 3px solid #0072b2;
  padding-left: 12px; margin: 12px 0; }
""".strip()

# Sorts a table by the clicked column (numbers numerically); guarded so it can never throw.
SCRIPT = """
document.querySelectorAll("table.sortable").forEach(function (table) {
  table.querySelectorAll("th").forEach(function (th, column) {
    th.addEventListener("click", function () {
      var body = table.tBodies[0];
      if (!body) { return; }
      var rows = Array.prototype.slice.call(body.rows);
      var down = th.getAttribute("data-order") !== "asc";
      th.setAttribute("data-order", down ? "asc" : "desc");
      rows.sort(function (a, b) {
        var x = a.cells[column] ? a.cells[column].textContent : "";
        var y = b.cells[column] ? b.cells[column].textContent : "";
        var nx = parseFloat(x), ny = parseFloat(y);
        var order = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
        return down ? order : -order;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
});
""".strip()


def table(
    header: Sequence[str],
    rows: Sequence[Sequence[Cell]],
    *,
    footer: Sequence[Cell] | None = None,
    sortable: bool = True,
) -> str:
    """An escaped HTML table; numbers are right-aligned; a totals ``footer`` row stays last when sorted."""
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "\n".join("<tr>" + "".join(_cell(c) for c in row) + "</tr>" for row in rows)
    foot = "" if footer is None else "<tfoot><tr>" + "".join(_cell(c) for c in footer) + "</tr></tfoot>"
    css = ' class="sortable"' if sortable else ""
    return f"<table{css}><thead><tr>{head}</tr></thead><tbody>\n{body}\n</tbody>{foot}</table>"


def _cell(value: Cell) -> str:
    if isinstance(value, int | float):
        shown = f"{value:.3f}" if isinstance(value, float) and not value.is_integer() else f"{value:g}"
        return f'<td class="num">{shown}</td>'
    return f"<td>{escape(value)}</td>"


def _section(anchor: str, title: str, *body: str) -> str:
    return f'<section id="{anchor}">\n<h2>{escape(title)}</h2>\n' + "\n".join(body) + "\n</section>"


def _overview(summary: DatasetSummary) -> str:
    cards = [
        ("tasks", summary.tasks),
        ("repositories", len(summary.repositories)),
        ("kinds", len(summary.kinds)),
        ("phases", len(summary.phases)),
    ]
    parts = ['<div class="cards">']
    parts += [f'<div class="card"><b>{n}</b>{escape(label)}</div>' for label, n in cards]
    parts.append("</div>")
    if summary.rows != summary.tasks:
        parts.append(
            f"<p>{summary.rows} rows hold {summary.tasks} distinct tasks in {summary.placements} placements "
            "(a task can be placed in more than one phase); counts by phase count placements, the rest "
            "count distinct tasks.</p>"
        )
    parts.append(f"<h3>Tasks per {escape(summary.group_label)}</h3>")
    parts.append(table((summary.group_label, "rows"), summary.groups))
    if summary.facts:
        parts.append("<h3>Dataset facts</h3>")
        parts.append(table(("key", "value"), summary.facts))
    return _section("overview", "Overview", *parts)


def _kinds(summary: DatasetSummary) -> str:
    counts = {(kind, phase): n for kind, phase, n in summary.kind_phase}
    series = [(f"phase {p}", [counts.get((k, p), 0) for k in summary.kinds]) for p in summary.phases]
    chart = stacked_bar_chart(summary.kinds, series, "Tasks by kind and phase", x_label="tasks")
    header = ("kind", *(f"phase {p}" for p in summary.phases), "total")
    rows: list[tuple[Cell, ...]] = []
    for kind in summary.kinds:
        row = [counts.get((kind, p), 0) for p in summary.phases]
        rows.append((kind, *row, sum(row)))
    totals = [sum(counts.get((k, p), 0) for k in summary.kinds) for p in summary.phases]
    footer: tuple[Cell, ...] = ("all", *totals, sum(totals))
    return _section("kinds", "Tasks by kind and phase", chart, table(header, rows, footer=footer))


def _repositories(summary: DatasetSummary) -> str:
    chart = bar_chart(summary.repositories, "Tasks per repository", x_label="tasks")
    return _section("repositories", "Tasks per repository", chart)


def _stats(distributions: Sequence[Distribution], first: str) -> str:
    rows = [
        (d.name, d.count, min(d.values, default=0.0), d.median, d.mean, max(d.values, default=0.0))
        for d in distributions
    ]
    return table((first, "tasks", "min", "median", "mean", "max"), rows)


def _difficulty(summary: DatasetSummary) -> str:
    charts = [
        histogram(d.values, f"Difficulty: {d.name}", x_label=d.name) for d in summary.difficulty if d.values
    ]
    grid = '<div class="grid">' + "\n".join(charts) + "</div>"
    return _section("difficulty", "Difficulty features", grid, _stats(summary.difficulty, "feature"))


def _answer_size(summary: DatasetSummary) -> str:
    means = [(d.name, d.mean) for d in summary.answer_size]
    chart = bar_chart(means, "Mean answer size by kind", x_label="answer items (mean)")
    return _section("answers", "Answer size by kind", chart, _stats(summary.answer_size, "kind"))


def _audit(summary: DatasetSummary) -> str:
    if not summary.audit:
        return _section("audit", "Audit", "<p>The tasks record no audit.</p>")
    parts = []
    scored = [
        (f"{r.kind}: {r.field}", r.mean)
        for r in summary.audit
        if r.field.endswith("score") and r.mean is not None
    ]
    if scored:
        note = (
            "<p>Mean score of the baseline the audit ran (lower: the task is harder than the baseline).</p>"
        )
        parts += [note, bar_chart(scored, "Baseline scores (mean)", x_label="score", limit=1.0)]
    rows = [(r.kind, r.field, r.tasks, r.summary) for r in summary.audit]
    parts.append(table(("kind", "audit field", "tasks", "recorded"), rows))
    return _section("audit", "Audit", *parts)


def _generation(summary: DatasetSummary) -> str:
    runs = summary.runs
    if not runs:
        return ""
    names = [run.repository for run in runs]
    yields = [
        (run.repository, run.tasks / (run.tasks + run.dropped) if run.tasks + run.dropped else 0.0)
        for run in runs
    ]
    reasons = [reason for reason, _ in summary.drop_reasons]
    series = [
        (reason, [sum(n for _, r, n in run.drops if r == reason) for run in runs]) for reason in reasons
    ]
    rows = [
        (
            run.repository,
            run.tasks,
            run.dropped,
            run.tasks + run.dropped,
            f"{share:.1%}",
            run.trace_checked,
            run.trace_misses,
            {True: "yes", False: "no", None: "-"}[run.tests_ran],
            run.error or run.trace_error or "",
        )
        for run, (_, share) in zip(runs, yields, strict=True)
    ]
    header = (
        "repository",
        "tasks",
        "dropped",
        "candidates",
        "yield",
        "traced",
        "trace misses",
        "tests ran",
        "error",
    )
    by_kind = sorted({(kind, reason) for run in runs for kind, reason, _ in run.drops})
    kind_rows = [
        (kind, reason, sum(n for run in runs for k, r, n in run.drops if (k, r) == (kind, reason)))
        for kind, reason in by_kind
    ]
    return _section(
        "generation",
        "Generation: yield and drops",
        "<p>Yield is tasks written over candidates seen (written plus dropped) in each repository.</p>",
        bar_chart(yields, "Yield per repository", x_label="yield", percent=True, limit=1.0),
        stacked_bar_chart(names, series, "Drops per repository, by reason", x_label="candidates dropped")
        if series
        else "<p>No candidate was dropped.</p>",
        table(header, rows),
        "<h3>Drop reasons</h3>",
        table(("reason", "dropped"), summary.drop_reasons),
        table(("kind", "reason", "dropped"), kind_rows),
    )


def _score_cells(r: ScoreRow) -> tuple[Cell, ...]:
    return (r.label, r.tasks, r.answers, r.missing, r.errors, r.passed, f"{r.pass_rate:.1%}", r.mean)


def _score_rows(rows: Sequence[ScoreRow], total: ScoreRow) -> str:
    header = ("group", "tasks", "answers", "missing", "errors", "passed", "pass rate", "mean score")
    return table(header, [_score_cells(r) for r in rows], footer=_score_cells(total))


def _scores(scores: ScoreSummary) -> str:
    total = scores.total
    lead = (
        f"<p>{total.tasks - total.missing} of {total.tasks} tasks answered ({total.missing} missing, "
        f"scored 0), {total.answers} answers in all, {total.passed} of them passed. Pass rate "
        f"{total.pass_rate:.1%} and mean score {total.mean:.3f}, each a mean over tasks of the mean over "
        "the task's samples. "
        f"{scores.malformed} malformed answer lines, "
        f"{scores.unknown} scores of tasks not in this dataset.</p>"
    )
    pass_kind = [(r.label, r.pass_rate) for r in scores.by_kind]
    mean_kind = [(r.label, r.mean) for r in scores.by_kind]
    pass_phase = [(r.label, r.pass_rate) for r in scores.by_phase]
    mean_phase = [(r.label, r.mean) for r in scores.by_phase]
    charts = [
        bar_chart(pass_kind, "Pass rate by kind", x_label="passed", percent=True, limit=1.0),
        bar_chart(mean_kind, "Mean score by kind", x_label="mean score", limit=1.0),
        bar_chart(pass_phase, "Pass rate by phase", x_label="passed", percent=True, limit=1.0),
        bar_chart(mean_phase, "Mean score by phase", x_label="mean score", limit=1.0),
    ]
    if scores.values:
        charts.append(
            histogram(
                scores.values, "Scores of the answers", x_label="score", y_label="answers", bounds=(0.0, 1.0)
            )
        )
    return _section(
        "scores",
        "Scores",
        lead,
        '<div class="grid">' + "\n".join(charts) + "</div>",
        "<h3>By kind</h3>",
        _score_rows(scores.by_kind, total),
        "<h3>By phase</h3>",
        _score_rows(scores.by_phase, total),
    )


def _samples(summary: DatasetSummary) -> str:
    parts = ["<p>The first tasks of each kind by id, with the reference answer.</p>"]
    kind = None
    for sample in summary.samples:
        if sample.kind != kind:
            kind = sample.kind
            parts.append(f"<h3>{escape(kind)}</h3>")
        facts = f"{sample.repository} · phase {sample.phase} · verifier {sample.verifier}"
        parts.append(
            f'<div class="sample"><code>{escape(sample.id)}</code> <span class="muted">{escape(facts)}</span>'
            f'<br><span class="muted">difficulty: {escape(sample.difficulty or "-")}</span>'
            f"<details><summary>prompt</summary><pre>{escape(sample.prompt)}</pre></details>"
            "<details open><summary>reference answer</summary>"
            f"<pre>{escape(sample.answer)}</pre></details></div>"
        )
    return _section("samples", "Sample tasks", *parts)


def render(summary: DatasetSummary) -> str:
    """The whole page for ``summary`` (pure: the same summary gives the same text)."""
    sections = [
        _overview(summary),
        _kinds(summary),
        _repositories(summary),
        _difficulty(summary),
        _answer_size(summary),
        _audit(summary),
        _generation(summary),
        _scores(summary.scores) if summary.scores is not None else "",
        _samples(summary),
    ]
    links = [
        ("overview", "Overview"),
        ("kinds", "Kinds and phases"),
        ("repositories", "Repositories"),
        ("difficulty", "Difficulty"),
        ("answers", "Answer size"),
        ("audit", "Audit"),
        *([("generation", "Generation")] if summary.runs else []),
        *([("scores", "Scores")] if summary.scores is not None else []),
        ("samples", "Samples"),
    ]
    nav = "<nav>" + "".join(f'<a href="#{a}">{escape(t)}</a>' for a, t in links) + "</nav>"
    title = f"dure report: {summary.source}"
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en">',
            "<head>",
            '<meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
            "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">",
            f"<title>{escape(title)}</title>",
            f"<style>\n{STYLE}\n</style>",
            "</head>",
            "<body>",
            f"<h1>{escape(title)}</h1>",
            f'<p class="muted">Layout: {escape(summary.layout)}</p>',
            nav,
            *[section for section in sections if section],
            f"<script>\n{SCRIPT}\n</script>",
            "</body>",
            "</html>",
            "",
        ]
    )

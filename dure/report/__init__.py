"""``dure report``: a static HTML page describing a dataset (and, given a scores file, how answers scored).

Load a dataset (:func:`load_dataset`), count it (:func:`summarise`), and draw the page (:func:`render`); each
step is separate so other tools can reuse the numbers without the page.
"""

from __future__ import annotations

from pathlib import Path

from dure.report.data import Dataset, Layout, ReportError, ScoreRecord, load_dataset, load_scores
from dure.report.html import render
from dure.report.summary import DEFAULT_SAMPLES, DatasetSummary, summarise


def write_report(
    path: Path, out: Path | None = None, *, scores: Path | None = None, samples: int = DEFAULT_SAMPLES
) -> tuple[Path, DatasetSummary]:
    """Write the report of the dataset at ``path`` (default ``DIR/report.html``); returns where and what."""
    dataset = load_dataset(path)
    summary = summarise(dataset, None if scores is None else load_scores(scores), samples=samples)
    if out is None:
        out = (path if path.is_dir() else path.parent) / (
            "report.html" if path.is_dir() else f"{path.stem}.report.html"
        )
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(render(summary), encoding="utf-8", newline="\n")
    except OSError as problem:
        raise ReportError(out, f"cannot write: {problem.strerror or problem}") from None
    return out, summary


__all__ = [
    "DEFAULT_SAMPLES",
    "Dataset",
    "DatasetSummary",
    "Layout",
    "ReportError",
    "ScoreRecord",
    "load_dataset",
    "load_scores",
    "render",
    "summarise",
    "write_report",
]

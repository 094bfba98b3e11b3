"""``dure audit TASKS``: every task's verifier must accept rewrites of its answer and reject baselines."""

from __future__ import annotations

from pathlib import Path

import click

from dure.cli._base import ExitCode, reports_errors
from dure.tasks.codec import read_tasks
from dure.verifiers.audit import TaskAudit, audit_many

#: Tasks audited together: the type-completion tasks of one repository among them share checker runs.
AUDITED_TOGETHER = 64


def summary_rows(audits: list[TaskAudit]) -> list[tuple[str, ...]]:
    """One row per kind: tasks, kept, dropped, false negatives and false positives over all audit cases."""
    rows: list[tuple[str, ...]] = []
    for kind in sorted({audit.kind for audit in audits}):
        mine = [audit for audit in audits if audit.kind == kind]
        false_neg = sum(case.false_negative for audit in mine for case in audit.cases)
        false_pos = sum(case.false_positive for audit in mine for case in audit.cases)
        kept = sum(audit.ok for audit in mine)
        rows.append((kind, str(len(mine)), str(kept), str(len(mine) - kept), str(false_neg), str(false_pos)))
    return rows


@click.command()
@click.argument("tasks_path", metavar="TASKS", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-v", "--verbose", is_flag=True, help="Print every audit case of every task.")
@reports_errors
def audit(tasks_path: Path, verbose: bool) -> int:
    """Audit every task in TASKS: the reference and its equivalent rewrites must score 1.0, wrong baselines
    (empty, everything, a near miss, ...) low. Exits 1 when any task fails."""
    from dure.cli.score_cmd import print_table  # noqa: PLC0415 - one table printer for both commands

    tasks = list(read_tasks(tasks_path))
    audits: list[TaskAudit] = []
    for start in range(0, len(tasks), AUDITED_TOGETHER):
        audits += audit_many(tasks[start : start + AUDITED_TOGETHER])
    for result in audits:
        status = "ok" if result.ok else "DROP"
        click.echo(f"{status:4}  {result.task_id}" + ("" if result.ok else f": {result.reason}"))
        if verbose:
            for case in result.cases:
                mark = "ok" if case.ok else "FAIL"
                value = f"at most {case.value:.3f}" if case.bounded else f"{case.value:.3f}"
                click.echo(f"      {mark:4}  {case.name} ({case.expect.value}): {value}")
    print_table(("kind", "tasks", "kept", "dropped", "false-neg", "false-pos"), summary_rows(audits))
    dropped = sum(not result.ok for result in audits)
    click.echo(f"{len(audits)} tasks audited, {dropped} would be dropped")
    return int(ExitCode.FAILURE if dropped else ExitCode.OK)

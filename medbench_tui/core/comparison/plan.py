"""Planning a comparison the way ``medbench run`` plans a group, writing its report files, and
the lines of its progress log."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from medbench_tui.core.jsondata import JSONObject

if TYPE_CHECKING:
    from medbench_tui.core.cases.bank import Bank
    from medbench_tui.core.reports.report import Report
    from medbench_tui.core.runs.retry import RetryPolicy
    from medbench_tui.core.runs.runner import ProgressEvent, RunPlan
    from medbench_tui.core.runs.store import RunStore
    from medbench_tui.core.settings import RunnerSettings


def retry_policy(runner_settings: RunnerSettings) -> RetryPolicy:
    """The runner's retry policy from the settings (as ``medbench run`` makes it)."""
    from medbench_tui.core.runs.retry import RetryPolicy

    return RetryPolicy.from_settings(runner_settings)


def plan_cases(bank: Bank, specs: list[str], files: list[Path] | None, simulator: str) -> RunPlan:
    """The runner's plan of ``specs`` over the case ``files`` (None: every one of the bank); rubric
    questions are answered by the model endpoints and left out, with a note, for the other systems."""
    from medbench_tui.core.runs.runner import plan_run

    return plan_run(bank, specs, cases=files, simulator=simulator)


def comparison_config(plan: RunPlan, player: str, with_player: bool) -> JSONObject:
    """A TUI comparison's group configuration: the plan's, marked ``compare``; with the
    player's played runs, ``human`` is one of its systems."""
    from medbench_tui.core.practice.session import PLAYER_SYSTEM

    config = {**plan.config(), "compare": {"player": player}}
    if with_player:
        config["systems"] = [*config["systems"], {
            "spec": PLAYER_SYSTEM, "name": PLAYER_SYSTEM,
            "config": {"name": PLAYER_SYSTEM, "kind": "human", "player": player, "runs": "latest played"},
        }]
    return config


def export_report(store: RunStore, group_id: str, bank: Path, report: Report | None = None) -> list[Path]:
    """Write the group's report as Markdown, CSV, JSON and HTML into the bank's reports
    folder, and the case-level matrix (``<group>-cases.csv``) every figure comes from."""
    from medbench_tui.core.files import write_atomic
    from medbench_tui.core.paths import reports_dir
    from medbench_tui.core.reports.case_matrix import render_matrix
    from medbench_tui.core.reports.render import render
    from medbench_tui.core.reports.report import build_report

    report = report or build_report(store, group_id)
    written = []
    for fmt, suffix in (("md", ".md"), ("csv", ".csv"), ("json", ".json"), ("html", ".html")):
        path = reports_dir(bank) / f"{group_id}{suffix}"
        write_atomic(path, render(report, fmt), backup=False)
        written.append(path)
    matrix = reports_dir(bank) / f"{group_id}-cases.csv"
    write_atomic(matrix, render_matrix(store, report, "csv"), backup=False)
    return [*written, matrix]


def progress_line(event: ProgressEvent) -> str | None:
    """A runner event as a line of the comparison's log (None: not logged)."""
    from medbench_tui.core.runs.runner import RequestRetried, RunFinished, RunStarted

    if isinstance(event, RunStarted):
        return f"started   {event.case_id} × {event.system}"
    if isinstance(event, RequestRetried):
        return f"retrying  {event.case_id} × {event.system} (attempt {event.attempt}): {event.reason}"
    if isinstance(event, RunFinished):
        if event.status == "complete":
            return f"complete  {event.case_id} × {event.system}: {event.steps} steps"
        return f"INCOMPLETE {event.case_id} × {event.system}: {event.reason}"
    return None

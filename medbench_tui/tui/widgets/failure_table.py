"""The failure taxonomy of a run group: per system and kind, how many runs failed that
way and which cases. Enter on a row asks for those cases (the matrix shows only them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.message import Message
from textual.widgets import DataTable

if TYPE_CHECKING:
    from medbench_tui.core.reports.report import Report

EXAMPLES = 6


class FailureTable(DataTable[str | Text]):
    DEFAULT_CSS = """
    FailureTable { height: 1fr; }
    """

    @dataclass
    class CasesChosen(Message):
        label: str
        case_ids: list[str]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self.chosen: dict[str, tuple[str, list[str]]] = {}

    def show(self, report: Report) -> None:
        self.clear(columns=True)
        self.chosen = {}
        self.add_columns("system", "failure", "runs", "cases (Enter opens them)")
        for system in report.systems:
            taxonomy = report.taxonomy.get(system)
            if taxonomy is None:
                continue
            for count in taxonomy.counts:
                key = f"{system}|{count.kind}"
                examples = ", ".join(count.case_ids[:EXAMPLES]) + (" …" if len(count.case_ids) > EXAMPLES else "")
                runs = Text(f"{count.runs} of {taxonomy.runs}", style="bold" if count.runs else "dim")
                self.add_row(system, count.label, runs, examples or Text("–", style="dim"), key=key)
                self.chosen[key] = (f"{count.label} ({system})", count.case_ids)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        label, case_ids = self.chosen.get(str(event.row_key.value), ("", []))
        if case_ids:
            self.post_message(self.CasesChosen(label, list(case_ids)))
        else:
            self.notify("No case failed this way.", markup=False)

"""The per-item diff of runs of one case: for each reference item who found it (one run
only, both, neither), and who gave what the case marks unexpected or contraindicated."""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from medbench_tui.core.comparison.view import Side, item_diff
from medbench_tui.tui.widgets.scorecard_view import (
    SECTION_TITLES,
    status_text,
    tone_styles,
)

LEGEND = (
    "Reference items: found by one run only, by both (all), or by neither. Items the case marks "
    "unexpected or contraindicated, and answers matching nothing: given by whom."
)


def verdict_style(kind: str, verdict: str, styles: dict[str, str]) -> str:
    if kind in ("contraindicated", "unexpected"):
        return styles["bad"]
    if kind in ("extra", "acceptable"):
        return styles["warn"] if kind == "extra" else styles["muted"]
    if verdict in ("both", "all"):
        return styles["good"]
    if verdict == "neither":
        return styles["bad"]
    return f"bold {styles['warn']}"


class ItemDiff(VerticalScroll):
    DEFAULT_CSS = """
    ItemDiff { height: 1fr; }
    ItemDiff > Static { height: auto; }
    ItemDiff > #item-diff-legend { color: $text-muted; padding: 0 1; margin-bottom: 1; }
    """

    def compose(self) -> ComposeResult:
        yield Static(LEGEND, id="item-diff-legend")
        yield Static("", id="item-diff")

    def show(self, sides: list[Side]) -> None:
        theme = self.app.current_theme
        styles = tone_styles(theme)
        rows = item_diff(sides)
        tables: list[RenderableType] = []
        for section, title in SECTION_TITLES.items():
            shown = [r for r in rows if r.section == section]
            if not shown:
                continue
            drawn = Table(title=title, title_justify="left", title_style="bold", box=box.SIMPLE_HEAD,
                          expand=True, show_edge=False, header_style="bold")
            drawn.add_column("item", ratio=3)
            drawn.add_column("kind", width=15)
            for side in sides:
                drawn.add_column(side.label, ratio=2)
            drawn.add_column("verdict", ratio=2)
            for row in shown:
                cells = []
                for status, answer, evidence in zip(row.statuses, row.answers, row.evidence, strict=False):
                    cell = status_text(status, theme)
                    if answer and answer.casefold() != row.item.casefold():
                        cell.append(f" {answer}")
                    if evidence and status in ("unexpected", "contraindicated"):
                        cell.append(f"\n{evidence}", style="dim")
                    cells.append(cell)
                drawn.add_row(
                    Text(row.item),
                    Text(row.kind, style="dim"),
                    *cells,
                    Text(row.verdict, style=verdict_style(row.kind, row.verdict, styles)),
                )
            tables += [drawn, Text("")]
        if not tables:
            tables.append(Text("No scored items: the runs are incomplete.", style="dim"))
        self.query_one("#item-diff", Static).update(Group(*tables))
        self.scroll_home(animate=False)

"""A report's figures in the terminal: the forest plot of paired differences and accuracy
against cost (textual-plotext), and bar charts (drawn here). They draw the figures of
:mod:`medbench_tui.core.reports.figures`, the ones the HTML report draws as SVG, made with
the tables they illustrate.

Bars are drawn as text rather than with plotext: its horizontal bars are placed on text rows
by rounding, so with several systems a bar can land on its neighbour's row or vanish (a
diagnosis accuracy of 0 drawn at 75), and without colour the systems cannot be told apart.
Here each bar has its own row, named, with the value as the table writes it."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget
from textual_plotext import PlotextPlot

from medbench_tui.core.reports.figures import BarChart, CostChart, ForestChart

SHORT_LABEL = 34
INTERVAL_DOTS = 80
FRAME_ROWS = 7
"""Title, axes and labels around the plotting rows: one text row per difference."""
EIGHTHS = " ▏▎▍▌▋▊▉"
FULL = "█"
WHISKER = "─"
SERIES_STYLES = ("bold blue", "bold red", "bold green", "bold magenta", "bold yellow", "bold cyan")
NAME_WIDTH = 28
"""Room for a system's name at most (a longer one is cut with an ellipsis)."""
MIN_BAR_WIDTH = 20
FALLBACK_WIDTH = 120
"""Columns assumed before the widget has a size."""


def _short(label: str, width: int = SHORT_LABEL) -> str:
    return label if len(label) <= width else label[: width - 1] + "…"


class ForestPlot(PlotextPlot):
    """Each paired difference (B - A) as a point with its interval as a line; zero marked.
    A difference without an interval is drawn as a point only and named in the title."""

    DEFAULT_CSS = """
    ForestPlot { height: 24; }
    """

    def __init__(self, chart: ForestChart | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.chart = chart

    def on_mount(self) -> None:
        if self.chart is not None:
            self.show(self.chart)

    def nothing(self, title: str) -> None:
        """An empty plot whose title says why."""
        self.plt.clear_figure()
        self.plt.title(title)
        self.refresh()

    def show(self, chart: ForestChart) -> None:
        self.chart = chart
        rows = chart.rows
        title = f"{chart.title} (n={chart.cases})"
        if not rows:
            self.nothing(f"{title}: nothing to compare")
            return
        plt = self.plt
        plt.clear_figure()
        ys = [float(y) for y in range(len(rows), 0, -1)]
        for y, row in zip(ys, rows, strict=True):
            if row.low is not None and row.high is not None:
                # dots along the interval, not a line: they fall on the same text row as the point
                xs = [row.low + (row.high - row.low) * i / INTERVAL_DOTS for i in range(INTERVAL_DOTS + 1)]
                plt.scatter(xs, [y] * len(xs), marker="─", color="blue")
        plt.scatter([row.difference for row in rows], ys, marker="●", color="red")
        plt.vline(0, "gray")
        plt.xlim(-100, 100)
        plt.ylim(0.5, len(rows) + 0.5)
        self.styles.height = len(rows) + FRAME_ROWS
        plt.yticks(ys, [_short(r.label) + (" ⚠" if r.warning else "") for r in rows])
        missing = [r.label for r in rows if r.low is None]
        plt.title(title + (f" · no interval: {len(missing)}" if missing else ""))
        plt.xlabel("difference (points); ⚠ fewer than 10 paired cases")
        self.refresh()


def bar_cells(value: float, width: int) -> str:
    """A bar of ``value`` (0-100) on ``width`` cells, to an eighth of a cell."""
    eighths = round(max(0.0, min(100.0, value)) / 100 * width * 8)
    full, part = divmod(eighths, 8)
    return FULL * full + (EIGHTHS[part] if part else "")


def bar_value(cells: str, width: int) -> float:
    """The value a drawn bar shows (the inverse of :func:`bar_cells`)."""
    eighths = sum(8 if c == FULL else EIGHTHS.index(c) for c in cells if c == FULL or c in EIGHTHS[1:])
    return eighths / 8 / width * 100


class BarChartView(Widget):
    """A bar chart on a 0-100 axis: per group (a metric, or a subgroup) a heading, then one
    row per system with its bar, its interval as a whisker past the bar's end, and its value
    as the table writes it. Drawn for the width it has each time it is drawn."""

    DEFAULT_CSS = """
    BarChartView { height: auto; margin-bottom: 1; }
    """

    def __init__(self, chart: BarChart | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.chart = chart
        self.note = ""

    def show(self, chart: BarChart | None, note: str = "") -> None:
        """Draw ``chart``; ``note`` instead of the bars when there is none."""
        self.chart, self.note = chart, note
        self.refresh(layout=True)

    def render(self) -> Text:
        return self.drawing(self.size.width or FALLBACK_WIDTH)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.drawing(width or FALLBACK_WIDTH).plain.splitlines())

    def columns(self, width: int) -> tuple[int, int, int]:
        """(name width, bar width, value width) of the rows at ``width`` columns."""
        chart = self.chart
        assert chart is not None
        names = min(NAME_WIDTH, max((len(s) for s in chart.series), default=4))
        values = max((len(b.shown) for _, bars in chart.groups for b in bars), default=4)
        return names, max(MIN_BAR_WIDTH, width - names - values - 7), values

    def drawing(self, width: int) -> Text:
        chart = self.chart
        if chart is None or not chart.groups:
            title = chart.title if chart is not None else ""
            return Text.assemble((title, "bold"), "\n" if title else "", (self.note or "no figures", "italic"))
        names, bar_width, _ = self.columns(width)
        styles = {name: SERIES_STYLES[i % len(SERIES_STYLES)] for i, name in enumerate(chart.series)}
        text = Text(chart.title, style="bold")
        for label, bars in chart.groups:
            text.append(f"\n{label}", style="underline")
            for item in bars:
                text.append(f"\n  {_short(item.series, names).ljust(names)} │")
                if item.mean is None:
                    text.append(" " * bar_width + "│ ")
                    text.append("no data", style="italic")
                    continue
                bar = bar_cells(item.mean, bar_width)
                text.append(bar, style=styles.get(item.series, "bold"))
                high = 0 if item.high is None else round(max(0.0, min(100.0, item.high)) / 100 * bar_width)
                text.append(WHISKER * max(0, high - len(bar)), style="dim")
                text.append(" " * (bar_width - max(len(bar), high)) + "│ ")
                text.append(item.shown)
        axis = " " * (names + 4) + "0" + "50".center(bar_width - 4) + "100"
        text.append("\n" + axis, style="dim")
        text.append(f"\n{chart.caption}", style="dim italic")
        return text


class CostPlot(PlotextPlot):
    """Diagnosis accuracy against mean cost per case: one point per system (●), one per repeat (○)."""

    DEFAULT_CSS = """
    CostPlot { height: 18; }
    """

    def __init__(self, chart: CostChart | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.chart = chart

    def on_mount(self) -> None:
        if self.chart is not None:
            self.show(self.chart)

    def show(self, chart: CostChart) -> None:
        self.chart = chart
        title, dots, series, money = chart.title, chart.dots, chart.series, chart.money
        if not dots:
            self.plt.clear_figure()
            self.plt.title(f"{title}: no costs in this group")
            self.refresh()
            return
        plt = self.plt
        plt.clear_figure()
        colours = ("blue", "red", "green", "magenta", "orange", "cyan")
        for index, name in enumerate(series):
            mine = [d for d in dots if d.system == name]
            repeats = [d for d in mine if d.repeat is not None]
            if repeats:
                plt.scatter([d.cost for d in repeats], [d.accuracy for d in repeats], marker="○",
                            color=colours[index % len(colours)])
            systems = [d for d in mine if d.repeat is None]
            if systems:
                plt.scatter([d.cost for d in systems], [d.accuracy for d in systems], marker="●",
                            color=colours[index % len(colours)], label=name)
        plt.ylim(0, 100)
        plt.xlim(0, max(d.cost for d in dots) * 1.1 or 1)
        plt.title(title)
        plt.xlabel(f"mean cost per case ({money}); ● system, ○ repeat; top left is best")
        plt.ylabel("diagnosis accuracy (%)")
        self.refresh()

"""Terminal plots of a report (textual-plotext): the forest plot of paired differences
and grouped bars (per metric and system, or per subgroup). They draw the figures of
``core.report_figures``, the same ones the HTML report draws as SVG."""

from __future__ import annotations

from textual_plotext import PlotextPlot

from medbench_tui.core.reports.figures import Bar, CostDot, ForestRow

SHORT_LABEL = 34
INTERVAL_DOTS = 80
FRAME_ROWS = 7
"""Title, axes and labels around the plotting rows: one text row per difference."""


def _short(label: str) -> str:
    return label if len(label) <= SHORT_LABEL else label[: SHORT_LABEL - 1] + "…"


class ReportPlot(PlotextPlot):
    def nothing(self, title: str) -> None:
        """An empty plot whose title says why."""
        self.plt.clear_figure()
        self.plt.title(title)
        self.refresh()


class ForestPlot(ReportPlot):
    """Each paired difference (B - A) as a point with its interval as a line; zero marked.
    A difference without an interval is drawn as a point only and named in the title."""

    DEFAULT_CSS = """
    ForestPlot { height: 24; }
    """

    def show(self, title: str, rows: list[ForestRow]) -> None:
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


class GroupedBars(ReportPlot):
    """One block of bars per group (a metric, or a subgroup), one bar per system, 0-100."""

    DEFAULT_CSS = """
    GroupedBars { height: 20; }
    """

    def show(self, title: str, groups: list[tuple[str, list[Bar]]], series: list[str]) -> None:
        if not groups:
            self.nothing(f"{title}: no figures")
            return
        plt = self.plt
        plt.clear_figure()
        shown = list(reversed(groups))  # plotext draws the first group at the bottom
        values = [
            [next((b.mean or 0.0 for b in bars if b.series == name), 0.0) for _, bars in shown] for name in series
        ]
        # No legend (plotext draws it over the bars): the title names the bars in order.
        plt.multiple_bar([_short(label) for label, _ in shown], values, orientation="horizontal")
        plt.xlim(0, 100)
        plt.title(title)
        plt.xlabel("bars top to bottom: " + ", ".join(f"{n}. {name}" for n, name in enumerate(series, 1)))
        self.refresh()


class CostPlot(ReportPlot):
    """Diagnosis accuracy against mean cost per case: one point per system (●), one per repeat (○)."""

    DEFAULT_CSS = """
    CostPlot { height: 18; }
    """

    def show(self, title: str, dots: list[CostDot], series: list[str], money: str) -> None:
        if not dots:
            self.nothing(f"{title}: no costs in this group")
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

"""What the report's pictures show (drawing-neutral). A figure belongs to the table it
illustrates and is made with it, from the same estimates as its rows
(:func:`medbench_tui.core.reports.report.report_tables`): the HTML report draws the figures
of each table as SVG and the TUI draws the same ones in the terminal, so no chart can show
other numbers than the table it stands beside."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Bar:
    """One bar: a system's mean with its interval (None: not estimable) and the value as
    its table writes it."""

    series: str
    mean: float | None
    low: float | None
    high: float | None
    warning: bool = False
    shown: str = ""
    """The table's cell for this bar, e.g. ``43.45 [36.78, 49.69] ⚠``."""


@dataclass(frozen=True)
class ForestRow:
    label: str
    difference: float
    low: float | None
    high: float | None
    n: int
    warning: bool = False


@dataclass(frozen=True)
class BarChart:
    """Bars on a 0-100 axis: one block per group (a metric, or a subgroup), one bar per series (a system)."""

    title: str
    caption: str
    series: list[str]
    groups: list[tuple[str, list[Bar]]]
    metric: str | None = None
    """The metric every bar shows (a chart per subgroup), else None (one metric per group)."""

    @property
    def empty(self) -> bool:
        return not any(b.mean is not None for _, bars in self.groups for b in bars)


@dataclass(frozen=True)
class ForestChart:
    """Paired differences B - A, each a point with its interval, on a -100..+100 axis."""

    title: str
    caption: str
    rows: list[ForestRow] = field(default_factory=list)
    cases: int = 0


@dataclass(frozen=True)
class CostDot:
    """A system (``repeat`` None) or one of its repeats: diagnosis accuracy against mean cost."""

    system: str
    repeat: int | None
    """The repeat's index as stored (None: the system over all its repeats)."""
    accuracy: float
    cost: float
    cases: int


@dataclass(frozen=True)
class CostChart:
    """Diagnosis accuracy (up) against mean cost per case (right), a point per system and per repeat."""

    title: str
    caption: str
    series: list[str]
    dots: list[CostDot]
    money: str
    """The unit of cost: a currency, or ``relative units``."""


Figure = BarChart | ForestChart | CostChart

BAR_CAPTION = "Bars: means; whiskers: 95% intervals; ⚠: fewer than 10 cases."
FOREST_CAPTION = ("Points: mean paired difference; lines: 95% intervals; hollow: no interval could be "
                  "estimated; ⚠: fewer than 10 paired cases.")
SUBGROUP_CAPTION = "Per subgroup, with n."
COST_CAPTION = ("Filled: each system over its headline cases; hollow: each repeat. Top left is best: more right "
                "diagnoses for less.")

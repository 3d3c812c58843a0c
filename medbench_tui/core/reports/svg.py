"""The report's pictures as SVG text (no scripts, no fonts fetched): the forest plot of
paired differences, bars per metric and system, and bars per subgroup. Each chart marks
what it cannot show (a missing interval, a small sample) instead of drawing a false one."""

from __future__ import annotations

import html
import math

from medbench_tui.core.reports.figures import BarChart, CostChart, ForestChart

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2")
FONT = "font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;font-size:12px"
LABEL_WIDTH = 300
PLOT_WIDTH = 420
ROW = 22
VALUE_WIDTH = 190
"""Room right of the bars for the value as the table writes it (``43.45 [36.78, 49.69] ⚠``)."""


def _text(x: float, y: float, text: str, *, anchor: str = "start", weight: str = "normal", fill: str = "#222") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-weight="{weight}" fill="{fill}">'
            f"{html.escape(text)}</text>")


def _svg(width: float, height: float, title: str, body: list[str]) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width:.0f}" height="{height:.0f}" '
            f'viewBox="0 0 {width:.0f} {height:.0f}" style="{FONT}"><title>{html.escape(title)}</title>'
            + "".join(body) + "</svg>")


def forest_plot(chart: ForestChart) -> str:
    """Differences B - A with their intervals on a -100..+100 axis, zero marked."""
    title, rows = chart.title, chart.rows
    height = 40 + ROW * len(rows) + 30
    left, right = LABEL_WIDTH, LABEL_WIDTH + PLOT_WIDTH

    def x(value: float) -> float:
        return left + (max(-100.0, min(100.0, value)) + 100) / 200 * PLOT_WIDTH

    body = [_text(8, 18, title, weight="bold"),
            f'<line x1="{x(0):.1f}" y1="28" x2="{x(0):.1f}" y2="{height - 26}" stroke="#888" stroke-dasharray="3,3"/>']
    for tick in (-100, -50, 0, 50, 100):
        body.append(_text(x(tick), height - 10, f"{tick:+d}" if tick else "0", anchor="middle", fill="#555"))
    for index, row in enumerate(rows):
        y = 40 + ROW * index + ROW / 2
        body.append(_text(8, y + 4, f"{row.label} (n={row.n}){' ⚠' if row.warning else ''}"))
        if row.low is not None and row.high is not None:
            body.append(f'<line class="interval" x1="{x(row.low):.1f}" y1="{y:.1f}" x2="{x(row.high):.1f}" '
                        f'y2="{y:.1f}" stroke="#1f77b4" stroke-width="2"/>')
            body.append(f'<circle class="estimate" cx="{x(row.difference):.1f}" cy="{y:.1f}" r="4" fill="#1f77b4"/>')
        elif math.isfinite(row.difference):
            body.append(f'<circle class="estimate" cx="{x(row.difference):.1f}" cy="{y:.1f}" r="4" fill="white" '
                        'stroke="#1f77b4"/>')
            body.append(_text(right + 6, y + 4, "no interval", fill="#a00"))
    return _svg(right + 90, height, title, body)


def grouped_bars(chart: BarChart, *, top: float = 100.0) -> str:
    """Horizontal bars, one block per group (a metric, a subgroup), one bar per series
    (a system), each with its interval as a whisker and its value as the table writes it;
    a legend on top."""
    title, groups, series = chart.title, chart.groups, chart.series
    bar = 15
    block = bar * max(1, len(series)) + 10
    height = 52 + block * len(groups) + 24
    left = LABEL_WIDTH

    def x(value: float) -> float:
        return left + max(0.0, min(top, value)) / top * PLOT_WIDTH

    colours = {name: PALETTE[i % len(PALETTE)] for i, name in enumerate(series)}
    body = [_text(8, 18, title, weight="bold")]
    at = 8.0
    for name in series:  # the legend, each name as long as it is
        body.append(f'<rect x="{at:.0f}" y="28" width="10" height="10" fill="{colours[name]}"/>')
        body.append(_text(at + 14, 37, name))
        at += 14 + 7 * len(name) + 24
    for tick in (0, 25, 50, 75, 100):
        value = top * tick / 100
        body.append(f'<line x1="{x(value):.1f}" y1="46" x2="{x(value):.1f}" y2="{height - 22}" stroke="#ddd"/>')
        body.append(_text(x(value), height - 8, f"{value:g}", anchor="middle", fill="#555"))
    for index, (label, bars) in enumerate(groups):
        y0 = 50 + block * index
        body.append(_text(8, y0 + block / 2 + 2, label))
        for j, item in enumerate(bars):
            y = y0 + bar * j
            colour = colours.get(item.series, PALETTE[0])
            if item.mean is None:
                body.append(_text(left + 4, y + bar - 2, f"{item.series}: no data", fill="#a00"))
                continue
            body.append(f'<rect class="bar" x="{left}" y="{y:.1f}" width="{x(item.mean) - left:.1f}" '
                        f'height="{bar - 2}" fill="{colour}" fill-opacity="0.8"><title>{html.escape(item.series)}: '
                        f"{html.escape(item.shown)}</title></rect>")
            if item.low is not None and item.high is not None:
                mid = y + (bar - 2) / 2
                body.append(f'<line class="interval" x1="{x(item.low):.1f}" y1="{mid:.1f}" x2="{x(item.high):.1f}" '
                            f'y2="{mid:.1f}" stroke="#222" stroke-width="1.5"/>')
            body.append(_text(LABEL_WIDTH + PLOT_WIDTH + 6, y + bar - 2, item.shown, fill="#333"))
    return _svg(LABEL_WIDTH + PLOT_WIDTH + VALUE_WIDTH, height, title, body)


def cost_scatter(chart: CostChart) -> str:
    """Diagnosis accuracy (up) against mean cost per case (right): a large point per system,
    a small hollow one per repeat; the best place is the top left."""
    title, dots, series, money = chart.title, chart.dots, chart.series, chart.money
    width, height, left, top, bottom = LABEL_WIDTH + PLOT_WIDTH, 320, 70, 50, 50
    plot_w, plot_h = width - left - 30, height - top - bottom
    most = max((d.cost for d in dots), default=1.0) or 1.0
    ceiling = _nice(most)

    def x(cost: float) -> float:
        return left + cost / ceiling * plot_w

    def y(accuracy: float) -> float:
        return top + (100 - max(0.0, min(100.0, accuracy))) / 100 * plot_h

    colours = {name: PALETTE[i % len(PALETTE)] for i, name in enumerate(series)}
    body = [_text(8, 18, title, weight="bold")]
    legend_x = 8.0
    for name in series:  # each entry as wide as its name, so long names never overlap
        body.append(f'<rect x="{legend_x:.0f}" y="28" width="10" height="10" fill="{colours[name]}"/>')
        body.append(_text(legend_x + 14, 37, name))
        legend_x += 34 + 7 * len(name)
    for tick in (0, 25, 50, 75, 100):
        body.append(f'<line x1="{left}" y1="{y(tick):.1f}" x2="{left + plot_w}" y2="{y(tick):.1f}" stroke="#ddd"/>')
        body.append(_text(left - 6, y(tick) + 4, f"{tick}", anchor="end", fill="#555"))
    for step in range(5):
        value = ceiling * step / 4
        body.append(f'<line x1="{x(value):.1f}" y1="{top}" x2="{x(value):.1f}" y2="{top + plot_h}" stroke="#eee"/>')
        body.append(_text(x(value), top + plot_h + 16, f"{value:g}", anchor="middle", fill="#555"))
    body.append(_text(left + plot_w / 2, height - 8, f"mean cost per case ({money})", anchor="middle", fill="#333"))
    body.append(f'<text x="14" y="{top + plot_h / 2:.1f}" transform="rotate(-90 14 {top + plot_h / 2:.1f})" '
                'text-anchor="middle" fill="#333">diagnosis accuracy (%)</text>')
    for dot in sorted(dots, key=lambda d: d.repeat is None):
        colour = colours.get(dot.system, PALETTE[0])
        label = f"{dot.system}{'' if dot.repeat is None else f', repeat {dot.repeat + 1}'}: " \
                f"{dot.accuracy:.0f}% at {dot.cost:.1f} (n={dot.cases})"
        if dot.repeat is None:
            body.append(f'<circle class="system" cx="{x(dot.cost):.1f}" cy="{y(dot.accuracy):.1f}" r="6" '
                        f'fill="{colour}"><title>{html.escape(label)}</title></circle>')
        else:
            body.append(f'<circle class="repeat" cx="{x(dot.cost):.1f}" cy="{y(dot.accuracy):.1f}" r="3.5" '
                        f'fill="white" stroke="{colour}"><title>{html.escape(label)}</title></circle>')
    return _svg(width, height, title, body)


def _nice(value: float) -> float:
    """A round axis end at or above ``value`` (1, 2 or 5 times a power of ten)."""
    power = 10 ** math.floor(math.log10(value)) if value > 0 else 1
    return next(step * power for step in (1, 2, 5, 10) if step * power >= value)

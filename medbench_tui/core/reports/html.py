"""The report as one self-contained HTML page: the same tables as the Markdown report,
each followed by its own charts as SVG (the bars of a summary table, the forest plot of a
paired comparison, accuracy against cost, the bars per subgroup), drawn from the figures the
table was made with.
No script, no stylesheet or font from the network: the file opens the same offline, in a
browser or an archive."""

from __future__ import annotations

import html

from medbench_tui.core.reports.figures import BarChart, CostChart, Figure
from medbench_tui.core.reports.report import NUMERIC_CELL, Report, Table, header_lines, report_tables
from medbench_tui.core.reports.rubric_report import RubricReport
from medbench_tui.core.reports.svg import cost_scatter, forest_plot, grouped_bars
from medbench_tui.core.rubric.side_by_side import CriterionCell, verdict_tone

STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 2em auto;
       max-width: 1100px; color: #222; line-height: 1.4; padding: 0 1em; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: 0.5em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; vertical-align: top; }
th { background: #f3f3f3; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
p.note { color: #555; font-size: 0.9em; margin: 0.3em 0; }
p.header { background: #f7f7f0; border-left: 4px solid #b58900; padding: 0.4em 0.8em; margin: 0.3em 0; }
figure { margin: 1em 0; } figcaption { color: #555; font-size: 0.85em; }
td.good { color: #1a7f37; } td.bad { color: #b42318; } td.warn { color: #9a6700; }
td q { color: #222; display: block; } td small { color: #666; display: block; }
details { margin: 0.4em 0; } summary { cursor: pointer; }
"""


def _cell(text: str, numeric: bool) -> str:
    return f'<td class="num">{html.escape(text)}</td>' if numeric else f"<td>{html.escape(text)}</td>"


def _table(table: Table) -> str:
    numeric = [
        index > 0 and all(NUMERIC_CELL.match(row[index]) for row in table.rows if index < len(row))
        for index in range(len(table.columns))
    ]
    head = "".join(f"<th>{html.escape(c)}</th>" for c in table.columns)
    body = "".join(
        "<tr>" + "".join(_cell(c, numeric[i] if i < len(numeric) else False) for i, c in enumerate(row)) + "</tr>"
        for row in table.rows
    )
    notes = "".join(f'<p class="note">{html.escape(n)}</p>' for n in table.notes)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{notes}"


def tables_html(tables: list[Table]) -> str:
    """Tables added after a report is drawn (the physician-corrected block), each under its title."""
    return "\n".join(f"<h2>{html.escape(t.title)}</h2>{_table(t)}" for t in tables)


def _figure(svg: str, caption: str) -> str:
    return f"<figure>{svg}<figcaption>{html.escape(caption)}</figcaption></figure>"


def _chart(figure: Figure) -> str:
    if isinstance(figure, BarChart):
        return _figure(grouped_bars(figure), figure.caption)
    if isinstance(figure, CostChart):
        return _figure(cost_scatter(figure), figure.caption)
    return _figure(forest_plot(figure), figure.caption)


def _criteria(rubric: RubricReport) -> str:
    """Each rubric case's criteria (or panel actions) met and missed, one column per system, with the
    words of the answer each verdict rests on: folded per case, so a large bank stays readable."""
    if not rubric.criteria:
        return ""
    systems = list(rubric.systems)
    parts = ["<h2>Rubric criteria side by side</h2>",
             '<p class="note">Each system\'s verdict over its repeats, with the words of its answer the verdict '
             "rests on and who decided it (green: the answer did what a positive criterion asks or avoided a "
             "negative one; amber: ungraded, or the repeats differ).</p>"]
    for case_id, rows in rubric.criteria.items():
        panel = case_id in rubric.panels
        head = "".join(f"<th>{html.escape(name)}</th>" for name in systems)
        body = "".join(
            f"<tr><td>{html.escape(row.text)}</td><td class=\"num\">{row.weight:+d}</td>"
            + "".join(_verdict(cell, row.weight, panel) for cell in row.cells) + "</tr>"
            for row in rows)
        parts.append(f"<details><summary>{html.escape(case_id)}</summary><table><thead><tr>"
                     f"<th>{'action' if panel else 'criterion'}</th><th>{'severity' if panel else 'points'}</th>"
                     f"{head}</tr></thead><tbody>{body}</tbody></table></details>")
    return "\n".join(parts)


def _verdict(cell: CriterionCell | None, weight: int, panel: bool) -> str:
    if cell is None:
        return "<td>–</td>"
    quoted = f"<q>{html.escape(cell.evidence)}</q>" if cell.evidence else ""
    who = f"<small>{html.escape(', '.join(cell.decided_by))}</small>" if cell.decided_by else ""
    return (f'<td class="{verdict_tone(cell.verdict, weight)}">{html.escape(cell.shown(action=panel))}'
            f"{quoted}{who}</td>")


def render_html(report: Report) -> str:
    tables = report_tables(report)
    parts = [f"<h1>{html.escape(tables[0].title)}</h1>"]
    parts += [f'<p class="header">{html.escape(line)}</p>' for line in header_lines(report)]
    for index, table in enumerate(tables):
        if index:
            parts.append(f"<h2>{html.escape(table.title)}</h2>")
        parts.append(_table(table))
        parts += [_chart(figure) for figure in table.figures]
    if report.rubric is not None:
        parts.append(_criteria(report.rubric))
    title = html.escape(f"medbench report, run group {report.group_id}")
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<style>{STYLE}</style></head><body>\n" + "\n".join(parts) + "\n</body></html>\n")

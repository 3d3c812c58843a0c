"""A report in the format asked for: the text formats from ``report``, HTML from ``report_html``
(which builds on the text tables, hence this module apart from both)."""

from __future__ import annotations

from medbench_tui.core.redact import redact
from medbench_tui.core.reports.html import render_html
from medbench_tui.core.reports.report import Report, render_csv, render_json, render_markdown, render_text


def render(report: Report, fmt: str) -> str:
    if fmt == "html":
        return render_html(report)
    renderers = {"text": render_text, "md": render_markdown, "json": render_json, "csv": render_csv}
    return redact(renderers[fmt](report))

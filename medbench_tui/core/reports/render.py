"""A report in the format asked for: the text formats from ``report``, HTML from ``report_html``
(which builds on the text tables, hence this module apart from both)."""

from __future__ import annotations

import html

from medbench_tui.core.redact import redact, secret_values
from medbench_tui.core.reports.html import render_html
from medbench_tui.core.reports.report import Report, render_csv, render_json, render_markdown, render_text


def render(report: Report, fmt: str) -> str:
    """Secrets redacted: in the texts of a JSON document (its numbers untouched), else in the text."""
    if fmt == "html":  # a secret may stand there as written or escaped (a cookie's quotes)
        secrets = secret_values()
        return redact(render_html(report), secrets | {html.escape(s) for s in secrets})
    if fmt == "json":
        return render_json(report)
    renderers = {"text": render_text, "md": render_markdown, "csv": render_csv}
    return redact(renderers[fmt](report))

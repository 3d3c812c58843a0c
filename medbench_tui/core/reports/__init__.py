"""What stored runs say: aggregates and paired comparisons, the case mix, the failure taxonomy,
the case-level matrix, figures and the renderers (text, Markdown, JSON, CSV, HTML, SVG)."""

"""The layout of an answer's lines that both the tokenised document and the section reader use: kept apart from
both so that neither imports the other's module for it (grammar of the text, not clinical language)."""

from __future__ import annotations

import re

WRAPPED_LINE_WIDTH = 60
"""A line at least this long that runs on in lower case is prose wrapped at a width."""
BULLET_START_RE = re.compile(r"[ \t]*([-*+\u2022\u2013]|\d{1,2}[.)])\s")
"""The start of a bullet or numbered list entry."""

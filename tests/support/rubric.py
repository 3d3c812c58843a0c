"""The rubric fixtures of the tests (``tests/data/rubric/``)."""

from __future__ import annotations

from pathlib import Path

RUBRIC_CASES = Path(__file__).resolve().parent.parent / "data" / "rubric"

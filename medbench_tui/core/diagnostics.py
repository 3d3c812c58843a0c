"""Validation findings: what is wrong, where, and how bad."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

Severity = Literal["error", "warning", "info"]
SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}


class Diagnostic(BaseModel):
    """One finding; ``line``/``column`` are 1-based, ``path`` is dotted (``workup.2.item``)."""

    severity: Severity
    code: str
    message: str
    path: str = ""
    line: int | None = None
    column: int | None = None

    def sort_key(self) -> tuple[int, int, int, str]:
        return (self.line or 0, self.column or 0, SEVERITY_ORDER[self.severity], self.code)


def count(diagnostics: list[Diagnostic], severity: Severity) -> int:
    return sum(1 for d in diagnostics if d.severity == severity)

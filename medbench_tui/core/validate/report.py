"""What validation found in one case, and how findings are written out."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from medbench_tui.core.cases.model import Case
from medbench_tui.core.cases.rubric import RubricCase
from medbench_tui.core.diagnostics import Diagnostic, count
from medbench_tui.core.yamldoc import PositionMap


@dataclass
class CaseReport:
    path: Path | None
    case_id: str | None
    case: Case | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    positions: PositionMap | None = field(default=None, repr=False)
    """Where each key and value sits in the file (for findings made after validation, such as self-checks)."""
    rubric: RubricCase | None = field(default=None, repr=False)
    """The rubric case when the file is a valid one (``kind: rubric``); ``case`` is then None."""

    def add(self, found: list[Diagnostic]) -> None:
        """Findings made after validation (a case's self-checks), in line order with the rest."""
        self.diagnostics = sorted([*self.diagnostics, *found], key=Diagnostic.sort_key)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "warning"]

    def to_json(self) -> dict[str, object]:
        """One entry of ``files`` in ``medbench validate --format json``."""
        return {
            "path": str(self.path) if self.path is not None else None,
            "case_id": self.case_id,
            "diagnostics": [d.model_dump() for d in self.diagnostics],
        }


def format_diagnostic(d: Diagnostic, file: Path | str | None, *, brief: bool = False) -> str:
    """``file:line:col: error code: message`` (``brief``: ``file:line:col: message``)."""
    where = ":".join(str(part) for part in (file or "<text>", d.line, d.column) if part is not None)
    return f"{where}: {d.message}" if brief else f"{where}: {d.severity} {d.code}: {d.message}"


def summary(reports: list[CaseReport]) -> dict[str, int]:
    """The ``summary`` of ``medbench validate --format json``."""
    every = [d for report in reports for d in report.diagnostics]
    return {"files": len(reports), "errors": count(every, "error"), "warnings": count(every, "warning")}

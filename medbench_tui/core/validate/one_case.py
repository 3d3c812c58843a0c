"""Checking one case held in memory: the checker of its kind, and the report of what it found."""

from __future__ import annotations

from pathlib import Path

from medbench_tui.core.cases.bank import BankIndex
from medbench_tui.core.cases.rubric import RUBRIC
from medbench_tui.core.cases.yamlio import ParsedCase, parse_case_text
from medbench_tui.core.diagnostics import Diagnostic
from medbench_tui.core.validate.checks import Checker
from medbench_tui.core.validate.report import CaseReport
from medbench_tui.core.validate.rubric_checks import RubricChecker


def validate_text(text: str, path: Path | None = None, *, bank: BankIndex | None = None) -> CaseReport:
    """Check one case held in memory (an editor buffer, or a file's text).

    ``path`` enables the checks that need the file (id = file stem, attachment files);
    ``bank`` enables the checks across cases (parents, duplicate ids, near-duplicates).
    """
    return validate_parsed(parse_case_text(text), Path(path) if path is not None else None, bank)


def validate_parsed(parsed: ParsedCase, path: Path | None, bank: BankIndex | None) -> CaseReport:
    data = parsed.data
    case_id = data.get("id") if isinstance(data, dict) and isinstance(data.get("id"), str) else None
    rubric = None
    try:
        checker = (RubricChecker if isinstance(data, dict) and data.get("kind") == RUBRIC else Checker)(
            parsed, path, bank)
        case = checker.run()
        rubric = checker.rubric
        diagnostics = checker.diagnostics
    except Exception as exc:  # a bug of ours must not cost the author the other findings
        case = None
        diagnostics = [*parsed.diagnostics, Diagnostic(
            severity="error", code="internal.error",
            message=f"medbench could not finish checking this file ({type(exc).__name__}: {exc}); "
            "this is a bug in medbench, please report it with the file.",
        )]
    diagnostics.sort(key=Diagnostic.sort_key)
    return CaseReport(path, case_id, case, diagnostics, parsed.positions, rubric=rubric)

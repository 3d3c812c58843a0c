"""What the library shows of each case, and how it filters and sorts (no widgets here)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rapidfuzz import fuzz, utils

from medbench_tui.core.cases.rubric import CONSULTATION, RUBRIC, CaseKind
from medbench_tui.core.diagnostics import count
from medbench_tui.core.jsondata import JSONObject
from medbench_tui.core.practice.label import practice_label

if TYPE_CHECKING:
    from medbench_tui.core.cases.bank import BankIndex
    from medbench_tui.core.cases.model import Review
    from medbench_tui.core.validate.report import CaseReport

COLUMNS: tuple[tuple[str, str], ...] = (
    ("id", "ID"),
    ("title", "Title"),
    ("category", "Category"),
    ("complexity", "Complexity"),
    ("urgency", "Urgency"),
    ("status", "Status"),
    ("review", "Review"),
    ("validity", "Validity"),
)
STATUSES = ("draft", "review", "final")
FILTER_CUTOFF = 80
"""Every word of the filter must match id, title or category at least this well (0-100)..."""
EXACT_UP_TO = 3
"""...except words this short, which must appear as they are (fuzzy, they match anything)."""


@dataclass(frozen=True)
class CaseEntry:
    """One row of the library: a case file as last validated."""

    path: Path
    id: str
    title: str
    category: str
    complexity: str
    urgency: str
    status: str
    parent_id: str | None
    errors: int
    warnings: int
    practice: str = ""  # the blind label shown while practising (core/practice/label.py)
    review: str = ""
    """The latest physician verdict (sign, minor, major) and how many signed; empty when never reviewed."""
    kind: CaseKind = CONSULTATION
    """rubric: a single question graded by a rubric (no patient to play); its category column shows its theme."""

    @property
    def search_text(self) -> str:
        return f"{self.id} {self.title} {self.category}"

    def sort_value(self, column: str) -> tuple[int, int] | str:
        if column == "validity":
            return (self.errors, self.warnings)
        return str(getattr(self, column)).casefold()


def _text(value: object) -> str:
    """A value for a table cell: lists and mappings (perhaps aliases repeated many times) are
    never written out for display."""
    if isinstance(value, (list, dict)):
        return "…"
    return "" if value is None else str(value)


def read_entry(path: Path, bank: BankIndex | None = None) -> CaseEntry:
    """Validate one case file and summarise it; a file that cannot be read is a row with an error.

    With ``bank``, the file is checked as ``medbench validate`` checks it (``validate_file``:
    its bytes read once, the same findings); a case that is not valid is read again only for
    what its row can show of it."""
    from medbench_tui.core.validate import validate_file, validate_text

    if bank is None:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return _unreadable(path)
        return entry_from_report(path, text, validate_text(text, path))
    report = validate_file(path, bank=bank)
    if report.case is not None or report.rubric is not None:
        return entry_from_report(path, "", report)  # the text is read only for a case that is not valid
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return _unreadable(path)
    return entry_from_report(path, text, report)


def _unreadable(path: Path) -> CaseEntry:
    return CaseEntry(path, path.stem, "(file cannot be read)", "", "", "", "", None, 1, 0)


def entry_from_report(path: Path, text: str, report: CaseReport) -> CaseEntry:
    """A row from a validation report; a case that fails validation shows what can be read of it."""
    if report.case is not None:
        case = report.case
        fields: JSONObject = {
            "id": case.id,
            "title": case.title,
            "status": case.status,
            "parent_id": case.parent_id,
            "metadata": case.metadata.model_dump(),
        }
    elif report.rubric is not None:
        fields = {"kind": RUBRIC}  # all that is shown comes from the rubric case, below
    else:
        from medbench_tui.core.cases.yamlio import parse_case_text

        data = parse_case_text(text).data
        fields = data if isinstance(data, dict) else {}
    metadata = fields.get("metadata")
    metadata = metadata if isinstance(metadata, dict) else {}
    kind: CaseKind = RUBRIC if report.rubric is not None or fields.get("kind") == RUBRIC else CONSULTATION
    if report.rubric is not None:
        fields = {"id": report.rubric.id, "title": report.rubric.title, "status": report.rubric.status}
        metadata = {"category": f"rubric: {report.rubric.metadata.theme}"}
    elif kind == RUBRIC:
        metadata = {"category": f"rubric: {_text(metadata.get('theme'))}"}
    patient = fields.get("patient") if report.case is None else report.case.patient.model_dump()
    patient = patient if isinstance(patient, dict) else {}
    case_id = _text(fields.get("id")) or path.stem
    practice = practice_label(
        case_id, category=_text(metadata.get("category")) or None, age=patient.get("age"),
        sex=_text(patient.get("sex")) or None, urgency=_text(metadata.get("urgency")) or None,
        setting=_text(metadata.get("setting")) or None,
    )
    return CaseEntry(
        path=path,
        id=case_id,
        title=_text(fields.get("title")),
        category=_text(metadata.get("category")),
        complexity=_text(metadata.get("complexity")),
        urgency=_text(metadata.get("urgency")),
        status=_text(fields.get("status")) or "draft",
        parent_id=fields.get("parent_id") if isinstance(fields.get("parent_id"), str) else None,
        errors=count(report.diagnostics, "error"),
        warnings=count(report.diagnostics, "warning"),
        practice=practice,
        review=review_summary(report.case.review) if report.case is not None else "",
        kind=kind,
    )


def review_summary(reviews: list[Review]) -> str:
    """The latest verdict, and how many reviewers signed when more than one reviewed ("sign (2 signed)")."""
    if not reviews:
        return ""
    signed = len({r.reviewer for r in reviews if r.verdict == "sign"})
    latest = reviews[-1].verdict
    return latest + (f" ({signed} signed)" if len(reviews) > 1 else "")


def filter_entries(
    entries: list[CaseEntry],
    query: str = "",
    *,
    category: str | None = None,
    status: str | None = None,
) -> list[CaseEntry]:
    """The entries that match the category and status and fuzzily match every word of ``query``."""
    words = query.split()
    kept = []
    for entry in entries:
        if category and entry.category != category:
            continue
        if status and entry.status != status:
            continue
        if words and not all(_matches(word, entry.search_text) for word in words):
            continue
        kept.append(entry)
    return kept


def _matches(word: str, text: str) -> bool:
    if len(word) <= EXACT_UP_TO:
        return word.casefold() in text.casefold()
    return fuzz.partial_ratio(word, text, processor=utils.default_process) >= FILTER_CUTOFF


def sort_entries(entries: list[CaseEntry], column: str, reverse: bool = False) -> list[CaseEntry]:
    return sorted(entries, key=lambda e: (e.sort_value(column), e.id), reverse=reverse)


def rank_entries(entries: list[CaseEntry], query: str) -> list[CaseEntry]:
    """Best matches of the filter first; equally good ones keep their order."""
    words = query.split()
    if not words:
        return list(entries)

    def score(entry: CaseEntry) -> float:
        return sum(fuzz.partial_ratio(w, entry.search_text, processor=utils.default_process) for w in words)

    return sorted(entries, key=score, reverse=True)

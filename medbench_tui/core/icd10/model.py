"""What the ICD-10 layer hands to the rest of the application."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from medbench_tui.core.errors import MedbenchError

Kind = Literal["chapter", "block", "category", "subcategory"]
Role = Literal["primary", "secondary", "differential"]
Agreement = Literal["exact", "category", "chapter", "wrong", "missing"]


class Icd10DataError(MedbenchError):
    """The WHO data or the project's own ICD tables are missing or not what we pinned."""


@dataclass(frozen=True)
class Suggestion:
    code: str
    title: str


@dataclass
class CodeInfo:
    """Everything known about one code as typed by a person."""

    query: str
    code: str
    valid: bool
    title: str | None = None
    kind: Kind | None = None
    cm_only: bool = False
    suggestions: list[Suggestion] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    parent: str | None = None
    children: list[str] = field(default_factory=list)
    is_leaf: bool = False

    def to_json(self) -> dict[str, object]:
        """The `medbench icd lookup --format json` entry (docs: shared/spec/cli.md)."""
        return {
            "code": self.code,
            "valid": self.valid,
            "title": self.title,
            "kind": self.kind,
            "cm_only": self.cm_only,
            "suggestions": [{"code": s.code, "title": s.title} for s in self.suggestions],
        }


@dataclass(frozen=True)
class SearchHit:
    code: str
    title: str
    score: float  # 0-100
    note: str | None = None  # why to check the hit: a tumour type is coded by its site

    def to_json(self) -> dict[str, object]:
        found = {"code": self.code, "title": self.title, "score": self.score}
        return {**found, "note": self.note} if self.note else found


@dataclass(frozen=True)
class CodeFinding:
    severity: Literal["error", "warning", "info"]
    code: str
    message: str

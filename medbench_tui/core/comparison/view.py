"""What the compare and results views show, worked out from stored runs (no widgets here):
the sides of a case comparison, transcripts aligned by turn, metric deltas, the per-item
diff, and the case x system matrix with its filters."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from medbench_tui.core.jsondata import JSONObject
from medbench_tui.core.paths import run_case_file as case_file
from medbench_tui.core.reports.report import LEGACY_METRICS, OTHER_METRICS, metric_title
from medbench_tui.core.runs.runner import RUBRIC_SCORE

if TYPE_CHECKING:
    from medbench_tui.core.cases.model import Case
    from medbench_tui.core.cases.rubric import Message
    from medbench_tui.core.rubric.decisions import RubricGrade
    from medbench_tui.core.runs.store import RunRecord, RunStore
    from medbench_tui.core.scoring.extraction_model import Evidence
    from medbench_tui.core.scoring.scorecard import ItemEntry, Scorecard
    from medbench_tui.core.transcript import FinalDiagnosis, FinalResponse, Transcript

KEY_METRICS: tuple[tuple[str, str], ...] = (
    ("diagnosis_accuracy", "Dx"),
    ("differential_accuracy", "Ddx"),
    ("workup_score", "Workup"),
    ("treatment_accuracy", "Tx"),
    ("critical_conditions_passed", "Safety"),
    ("question_coverage", "History"),
)
"""The matrix's columns per system (and ``steps``), short names first."""
FILTERS: tuple[tuple[str, str], ...] = (
    ("all", "All cases"),
    ("differences", "Differences only"),
    ("failures", "Failures"),
    ("incomplete", "Incomplete"),
)
SECTIONS = ("diagnoses", "differential", "workup", "treatment")
FOUND = ("matched", "acceptable")
GIVEN_WRONG = ("unexpected", "contraindicated")


def counted(number: int, thing: str) -> str:
    """``1 case``, ``2 cases``."""
    return f"{number} {thing}{'' if number == 1 else 's'}"


def prose(text: str) -> str:
    """Text written with hard line breaks (a YAML block) as flowing paragraphs."""
    paragraphs = [" ".join(p.split()) for p in text.strip().split("\n\n")]
    return "\n\n".join(p for p in paragraphs if p)


def group_kind(config: JSONObject) -> str:
    """``play`` (a play session), ``compare`` (run from the TUI) or ``run`` (the command line)."""
    if "play" in config:
        return "play"
    return "compare" if "compare" in config else "run"


def load_case(bank: Path, stored: str) -> Case | None:
    """The case a run was played on, when its file still validates (else None)."""
    from medbench_tui.core.errors import MedbenchError
    from medbench_tui.core.validate import load_valid_case

    try:
        return load_valid_case(case_file(bank, stored))
    except (OSError, MedbenchError):
        return None


@dataclass(frozen=True)
class RubricAnswer:
    """One graded answer to a rubric question: what was asked, what the system answered, and
    every decision of its grade (a rubric run stores a grade in place of a scorecard)."""

    label: str
    grade: RubricGrade
    answer: str
    conversation: list[Message] | None
    """The prompt (or chat) from the case file; None when the file is gone or no longer validates."""

    @classmethod
    def of_run(cls, run: RunRecord, bank: Path, store: RunStore | None = None) -> RubricAnswer | None:
        """The graded answer of a complete rubric run (loaded with ``full=True``); None for any other run.
        With ``store``, the criteria physicians graded in the Review mode carry their verdicts."""
        from medbench_tui.core.errors import MedbenchError
        from medbench_tui.core.review.physician_grades import graded_by_physicians, physician_records
        from medbench_tui.core.rubric.decisions import RubricGrade
        from medbench_tui.core.validate import load_valid_rubric

        document = run.scorecard if run.complete else None
        if not document or "rubric" not in document:
            return None
        grade = RubricGrade.model_validate(document["rubric"])
        if store is not None and run.id is not None:
            grade = graded_by_physicians(grade, physician_records(store, [run.id]).get(run.id, []))
        final = (run.transcript or {}).get("final") or {}
        try:
            conversation: list[Message] | None = load_valid_rubric(case_file(bank, run.case_path)).conversation()
        except (OSError, MedbenchError):
            conversation = None
        return cls(run.system, grade, str(final.get("text") or ""), conversation)


def case_changed(bank: Path, run: RunRecord) -> bool:
    """The run's case file is gone or differs from the one the run was played on."""
    from medbench_tui.core.runs.runner import file_sha256

    try:
        return file_sha256(case_file(bank, run.case_path)) != run.case_sha256
    except OSError:
        return True


CHANGED_NOTE = " (the case file has changed since: its reference may differ from the one scored)"


# --- one case, several runs ------------------------------------------------------------


@dataclass(frozen=True)
class Side:
    """One run of a case comparison: who played it and what came of it."""

    label: str
    status: str
    reason: str | None
    transcript: Transcript | None
    card: Scorecard | None
    """The scorecard (None for an incomplete run: those are never scored)."""
    run_id: int | None = None
    rubric: RubricAnswer | None = None
    """A rubric run's graded answer (set by :func:`sides_of`, which has the bank to read its question)."""
    criteria: RubricGrade | None = None
    """A consultation case's criteria graded on the run's final response (when the case has any)."""

    @property
    def criteria_grade(self) -> RubricGrade | None:
        """The rubric decisions of the run: a rubric question's grade, or a consultation's criteria."""
        return self.rubric.grade if self.rubric is not None else self.criteria

    @property
    def complete(self) -> bool:
        return self.status == "complete"

    @classmethod
    def of_run(cls, run: RunRecord, label: str | None = None, store: RunStore | None = None) -> Side:
        """A side from a stored run (loaded with ``full=True``); a rubric run's grade is no scorecard
        (:class:`RubricAnswer` reads it). With ``store``, criteria physicians graded carry their verdicts."""
        from medbench_tui.core.review.physician_grades import graded_by_physicians, physician_records
        from medbench_tui.core.rubric.consultation import criteria_of

        card = run.scorecard_model() if run.complete and "rubric" not in (run.scorecard or {}) else None
        criteria = criteria_of(run.scorecard) if card is not None else None
        if criteria is not None and store is not None and run.id is not None:
            criteria = graded_by_physicians(criteria, physician_records(store, [run.id]).get(run.id, []))
        return cls(label or run.system, run.status, run.reason, run.transcript_model(), card, run.id,
                   criteria=criteria)


@dataclass(frozen=True)
class Exchange:
    """One turn pair as it happened: the question, the reply, what it released."""

    question: str
    reply: str | None
    released: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """Other events of the turn (a replaced reply, an endpoint error)."""


def exchanges(transcript: Transcript, titles: dict[str, str] | None = None) -> list[Exchange]:
    """The transcript's turn pairs, numbered from 1; a doctor message that got no reply
    (the run stopped) is the last exchange, with ``reply`` None."""
    titles = titles or {}
    pairs: list[tuple[str, str | None]] = []
    for turn in transcript.turns:
        if turn.role == "doctor":
            pairs.append((turn.text, None))
        elif pairs and pairs[-1][1] is None:
            pairs[-1] = (pairs[-1][0], turn.text)
    released: dict[int, list[str]] = {}
    notes: dict[int, list[str]] = {}
    for event in transcript.events:
        if event.kind == "attachment_released" and event.attachment:
            released.setdefault(event.turn, []).append(titles.get(event.attachment, event.attachment))
        elif event.kind != "attachment_released":
            note = event.kind.replace("_", " ") + (f": {event.reason}" if event.reason else "")
            notes.setdefault(event.turn, []).append(note)
    return [
        Exchange(question, reply, released.get(number, []), notes.get(number, []))
        for number, (question, reply) in enumerate(pairs, 1)
    ]


def opening_titles(transcript: Transcript, titles: dict[str, str] | None = None) -> list[str]:
    """The attachments the doctor had before the first question."""
    titles = titles or {}
    return [
        titles.get(e.attachment, e.attachment)
        for e in transcript.events
        if e.kind == "attachment_released" and e.turn == 0 and e.attachment
    ]


def final_sections(final: FinalResponse | None) -> list[tuple[str, list[str]]]:
    """The final response as (heading, lines), the structured fields first; empty ones left out."""
    if final is None:
        return []

    def named(item: FinalDiagnosis) -> str:
        return f"{item.name} ({item.icd10})" if item.icd10 else item.name

    sections = [
        ("Diagnosis", [named(d) for d in final.diagnoses]),
        ("Differential", [f"{n}. {named(d)}" for n, d in enumerate(final.differential, 1)]),
        ("Workup", list(final.workup)),
        ("Treatment", list(final.treatment)),
        ("Advice", [final.advice.strip()] if final.advice else []),
        ("Text", [final.text.strip()] if final.text else []),
    ]
    return [(heading, lines) for heading, lines in sections if lines]


@dataclass(frozen=True)
class MetricRow:
    name: str
    title: str
    values: Sequence[float | str | None]
    """Each side's value: a number, an ICD-10 agreement, or None where undefined."""
    deltas: list[float | None]
    """Each side against the first (None for the first, and where either is undefined)."""


def metric_names() -> list[str]:
    return [*LEGACY_METRICS, *OTHER_METRICS]


def metric_rows(sides: list[Side]) -> list[MetricRow]:
    """Every metric of the scorecards, side by side, with the difference to the first side."""
    rows = []
    for name in metric_names():
        values = [getattr(s.card.metrics, name, None) if s.card is not None else None for s in sides]
        rows.append(MetricRow(name, metric_title(name), values, _deltas(values)))
    steps = [s.transcript.steps if s.transcript is not None else None for s in sides]
    rows.append(MetricRow("steps", "Steps (doctor/patient pairs)", steps, _deltas(steps)))
    return rows


def _deltas(values: Sequence[object]) -> list[float | None]:
    first = values[0] if values else None
    out: list[float | None] = [None]
    for value in values[1:]:
        if isinstance(first, (int, float)) and isinstance(value, (int, float)):
            out.append(float(value) - float(first))
        else:
            out.append(None)
    return out


@dataclass(frozen=True)
class ItemRow:
    """One reference item (or answer that matched nothing) across the sides."""

    section: str
    item: str
    kind: str
    """``reference`` (to be found), ``unexpected``, ``contraindicated``, ``acceptable``
    (given by some side, judged as such), or ``extra`` (matches nothing)."""
    statuses: list[str | None]
    answers: list[str | None]
    evidence: list[str | None]
    verdict: str


def evidence_text(evidence: Evidence | None) -> str | None:
    """An item's evidence as shown: the quoted span with its place, or the field it came from."""
    if evidence is None:
        return None
    if isinstance(evidence, str):
        return evidence
    where = "advice" if evidence.field == "advice" else "text"
    return f'"{evidence.text}" ({where} {evidence.start}-{evidence.end})'


def item_diff(sides: list[Side]) -> list[ItemRow]:
    """Per section, every item any side was judged on: who found it, who gave what they should not."""
    labels = [s.label for s in sides]
    rows: list[ItemRow] = []
    for section in SECTIONS:
        keys: list[tuple[str, str]] = []
        seen: dict[tuple[str, str], list[ItemEntry | None]] = {}
        for index, side in enumerate(sides):
            if side.card is None:
                continue
            for entry in getattr(side.card.items, section):
                key = ("ref", entry.reference) if entry.reference else ("extra", (entry.answer or "").casefold())
                if key not in seen:
                    keys.append(key)
                    seen[key] = [None] * len(sides)
                if seen[key][index] is None:
                    seen[key][index] = entry
        for key in keys:
            entries = seen[key]
            statuses: list[str | None] = [e.status if e is not None else None for e in entries]
            kind = _kind(key[0], statuses)
            rows.append(ItemRow(
                section=section,
                item=key[1] if key[0] == "ref" else next(e.answer or "" for e in entries if e is not None),
                kind=kind,
                statuses=statuses,
                answers=[e.answer if e is not None else None for e in entries],
                evidence=[evidence_text(e.evidence) if e is not None else None for e in entries],
                verdict=_verdict(kind, statuses, labels),
            ))
    return rows


def _kind(key: str, statuses: list[str | None]) -> str:
    if key == "extra":
        return "extra"
    given = {s for s in statuses if s}
    for kind in ("contraindicated", "unexpected"):
        if kind in given:
            return kind
    if given <= {"acceptable"}:
        return "acceptable"
    return "reference"


def _who(labels: list[str], chosen: list[bool]) -> str:
    names = [label for label, yes in zip(labels, chosen, strict=False) if yes]
    if len(names) == len(labels) and len(labels) > 1:
        return "both" if len(labels) == 2 else "all"
    return ", ".join(names)


def _verdict(kind: str, statuses: list[str | None], labels: list[str]) -> str:
    """Who found a reference item (``both``, ``A only``, ``neither``), or who gave an item."""
    if kind == "reference":
        found = [s in FOUND for s in statuses]
        if not any(found):
            return "neither"
        who = _who(labels, found)
        return who if who in ("both", "all") else f"{who} only"
    return f"given by {_who(labels, [s is not None for s in statuses])}"


# --- many cases: the matrix -------------------------------------------------------------------


@dataclass(frozen=True)
class MatrixRow:
    case_id: str
    runs: dict[str, RunRecord]
    """System -> its run of the case (missing systems: not run); with repeats, the first
    incomplete repeat, else the first."""
    repeats: dict[str, list[RunRecord]] = field(default_factory=dict)
    """System -> every repeat of the case (one run unless ``run --repeats``)."""

    def value(self, system: str, metric: str) -> float | None:
        """The run's value; with repeats, their mean (None unless every repeat completed)."""
        found = self.repeats.get(system) or ([self.runs[system]] if system in self.runs else [])
        if not found or not all(run.complete for run in found):
            return None
        values = [float(run.steps) if metric == "steps" else run.metrics.get(metric) for run in found]
        known = [v for v in values if v is not None]
        return sum(known) / len(known) if known else None

    def incomplete(self, systems: Iterable[str]) -> bool:
        return any(self.runs.get(s) is None or not self.runs[s].complete for s in systems)

    def failed(self, systems: Iterable[str]) -> bool:
        """A complete run that missed the diagnosis or failed a critical condition."""
        return any(
            (value := self.value(s, name)) is not None and value < 100
            for s in systems
            for name in ("diagnosis_accuracy", "critical_conditions_passed")
        )

    def differs(self, systems: list[str]) -> bool:
        """The systems disagree on a key metric (a rubric question's score), or on whether the run completed."""
        for metric in [name for name, _ in KEY_METRICS] + ["steps", RUBRIC_SCORE]:
            if len({self.value(s, metric) for s in systems}) > 1:
                return True
        return len({(self.runs.get(s) is not None and self.runs[s].complete) for s in systems}) > 1


def matrix_rows(runs: list[RunRecord], case_ids: list[str]) -> list[MatrixRow]:
    by_case: dict[str, dict[str, list[RunRecord]]] = {case_id: {} for case_id in case_ids}
    for run in runs:
        by_case.setdefault(run.case_id, {}).setdefault(run.system, []).append(run)
    return [
        MatrixRow(case_id, {s: next((r for r in found if not r.complete), found[0]) for s, found in systems.items()},
                  systems)
        for case_id, systems in by_case.items()
    ]


def keep_rows(rows: list[MatrixRow], systems: list[str], kind: str) -> list[MatrixRow]:
    """The rows a matrix filter lets through (see :data:`FILTERS`)."""
    if kind == "differences":
        return [r for r in rows if r.differs(systems)]
    if kind == "failures":
        return [r for r in rows if r.failed(systems)]
    if kind == "incomplete":
        return [r for r in rows if r.incomplete(systems)]
    return list(rows)

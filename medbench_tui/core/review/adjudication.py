"""Physicians check the evaluator: adjudication records, blinded samples, agreement.

A physician reads a run's final response beside every item decision the scorer made
(each reference diagnosis, differential, workup and treatment item, each critical
condition; for a rubric question, each criterion or panel action) and confirms or corrects
it, or grades a criterion no grader decided. Each decision is one record, kept in the run
store and moved in and out as JSONL, one line a decision::

    {"run_id", "case_id", "section", "reference", "evaluator", "physician", "rater", "note", "at"}

``section`` is one of :data:`SECTIONS`; ``evaluator`` and ``physician`` one of
:data:`ITEM_LABELS` (item sections), :data:`CONDITION_LABELS` (critical conditions) or
:data:`RUBRIC_LABELS` (rubric criteria and panel actions; the evaluator's may also be
``ungraded``: then the physician's verdict is the grade, not a check of one).
The agreement figures (:mod:`medbench_tui.core.review.agreement`) need only these records, so
labels made elsewhere count the same once imported.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from typing import IO, Literal, get_args

from medbench_tui.core.errors import MedbenchError
from medbench_tui.core.jsondata import JSONObject, JSONValue
from medbench_tui.core.runs.store import RunRecord, RunStore, utc_now
from medbench_tui.core.untrusted import has_surrogate

Section = Literal["diagnoses", "differential", "workup", "treatment", "critical", "criterion", "action"]
Label = Literal["found", "not_found", "negated", "different", "OK", "FAIL", "met", "not_met"]
SECTIONS: tuple[str, ...] = get_args(Section)
ITEM_LABELS: tuple[str, ...] = ("found", "not_found", "negated", "different")
CONDITION_LABELS: tuple[str, ...] = ("OK", "FAIL")
RUBRIC_LABELS: tuple[str, ...] = ("met", "not_met")
"""A rubric criterion met or not; a panel action included in the answer or not."""
UNGRADED = "ungraded"
"""The evaluator's label of a rubric criterion no grader decided (a physician's or an unasked judge's)."""
RUBRIC_SECTIONS = ("criterion", "action")


def labels_of(section: str) -> tuple[str, ...]:
    """The labels a physician may give a decision of ``section``."""
    if section == "critical":
        return CONDITION_LABELS
    return RUBRIC_LABELS if section in RUBRIC_SECTIONS else ITEM_LABELS


def evaluator_labels_of(section: str) -> tuple[str, ...]:
    """The labels the evaluator may have given: a rubric criterion may be ungraded."""
    return (*RUBRIC_LABELS, UNGRADED) if section == "criterion" else labels_of(section)
RECORD_KEYS = ("run_id", "case_id", "section", "reference", "evaluator", "physician", "rater", "note", "at")
MAX_RUN_ID = 2**63 - 1
"""The largest id the run store can hold (SQLite's integers)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS adjudications (
    run_id INTEGER NOT NULL,
    case_id TEXT NOT NULL,
    section TEXT NOT NULL,
    reference TEXT NOT NULL,
    evaluator TEXT NOT NULL,
    physician TEXT NOT NULL,
    rater TEXT NOT NULL,
    note TEXT NOT NULL DEFAULT '',
    at TEXT NOT NULL,
    PRIMARY KEY (run_id, section, reference, rater)
);
CREATE TABLE IF NOT EXISTS adjudication_samples (
    group_id TEXT NOT NULL,
    rater TEXT NOT NULL,
    size INTEGER,
    seed INTEGER NOT NULL,
    run_ids TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (group_id, rater)
);
"""


class AdjudicationError(MedbenchError):
    """A record or file that cannot be read as adjudications; says what to change."""


@dataclass(frozen=True)
class Decision:
    """One item decision of the scorer, as the physician sees it before judging it."""

    section: str
    reference: str
    evaluator: str
    answer: str | None = None
    evidence: str | None = None
    start: int | None = None
    end: int | None = None
    reason: str | None = None
    doubts: tuple[str, ...] = ()
    """The grader's doubt rules that made this decision uncertain (empty: certain)."""
    text: str | None = None
    """What the decision is about, in words, when ``reference`` is an id (a rubric criterion's text)."""

    @property
    def labels(self) -> tuple[str, ...]:
        return labels_of(self.section)

    @property
    def ungraded(self) -> bool:
        """No grader decided it: the physician's verdict grades it."""
        return self.evaluator == UNGRADED

    @property
    def uncertain(self) -> bool:
        return bool(self.doubts)


@dataclass
class Record:
    """One physician's verdict on one decision (the JSONL line)."""

    run_id: int
    case_id: str
    section: str
    reference: str
    evaluator: str
    physician: str
    rater: str
    note: str = ""
    at: str = field(default_factory=utc_now)

    @property
    def key(self) -> tuple[int, str, str]:
        return (self.run_id, self.section, self.reference)

    def to_json(self) -> JSONObject:
        return asdict(self)

    @classmethod
    def from_json(cls, data: JSONValue, where: str = "") -> Record:
        """A record from one JSONL line's object, with a message that names what is wrong."""
        prefix = f"{where}: " if where else ""
        if not isinstance(data, dict):
            raise AdjudicationError(f"{prefix}expected a JSON object with the keys {', '.join(RECORD_KEYS)}")
        missing = [k for k in RECORD_KEYS if k not in data and k not in ("note", "at")]
        if missing:
            raise AdjudicationError(f"{prefix}missing key(s) {', '.join(missing)}")
        unknown = sorted(set(data) - set(RECORD_KEYS))
        if unknown:
            raise AdjudicationError(
                f"{prefix}unknown key(s) {', '.join(unknown)}; a record has {', '.join(RECORD_KEYS)}"
            )
        if not isinstance(data["run_id"], int) or isinstance(data["run_id"], bool):
            raise AdjudicationError(f"{prefix}run_id must be a whole number, not {str(data['run_id'])[:40]!r}")
        if not 0 < data["run_id"] <= MAX_RUN_ID:
            raise AdjudicationError(f"{prefix}run_id {str(data['run_id'])[:40]} is no run's id: ids are whole "
                                    "numbers from 1 (medbench report lists a group's runs)")
        for key in ("case_id", "section", "reference", "evaluator", "physician", "rater"):
            if not isinstance(data[key], str) or not data[key].strip():
                raise AdjudicationError(f"{prefix}{key} must be a non-empty text")
        for key in ("case_id", "reference", "rater", "note", "at"):
            if isinstance(data.get(key), str) and has_surrogate(data[key]):
                raise AdjudicationError(f"{prefix}{key} is not valid Unicode (it holds a lone surrogate such as "
                                        "\\ud800): write the text again, or delete the line")
        section = data["section"]
        if section not in SECTIONS:
            raise AdjudicationError(f"{prefix}section {section!r} is not one of {', '.join(SECTIONS)}")
        for key in ("evaluator", "physician"):
            allowed = evaluator_labels_of(section) if key == "evaluator" else labels_of(section)
            if data[key] not in allowed:
                raise AdjudicationError(
                    f"{prefix}{key} {data[key]!r} is not a {section} label: use one of {', '.join(allowed)}"
                )
        note = data.get("note") or ""
        if not isinstance(note, str):
            raise AdjudicationError(f"{prefix}note must be a text")
        at = data.get("at") or utc_now()
        if not isinstance(at, str):
            raise AdjudicationError(f"{prefix}at must be an ISO date-time text")
        return cls(
            run_id=data["run_id"], case_id=data["case_id"], section=section, reference=data["reference"],
            evaluator=data["evaluator"], physician=data["physician"], rater=data["rater"].strip(), note=note, at=at,
        )


# --- the scorer's decisions of one run -------------------------------------------------

_FOUND = {"matched": "found", "acceptable": "found", "unexpected": "found", "contraindicated": "found",
          "different": "different"}


def _item_label(entry: JSONObject) -> str:
    status = entry.get("status")
    if status in _FOUND:
        return _FOUND[status]
    reason = (entry.get("reason") or entry.get("note") or "").lower()
    return "negated" if reason.startswith("negat") else "not_found"


def _span(evidence: object) -> tuple[str | None, int | None, int | None]:
    if isinstance(evidence, dict):
        text = evidence.get("text")
        start, end = evidence.get("start"), evidence.get("end")
        return (text if isinstance(text, str) else None,
                start if isinstance(start, int) else None, end if isinstance(end, int) else None)
    return (evidence if isinstance(evidence, str) else None, None, None)


def decisions_of(scorecard: JSONObject) -> list[Decision]:
    """Every reference-item decision of a stored scorecard, then every critical condition and the
    case's rubric criteria, if it has any; for a rubric run, every criterion or panel action.

    Answer items that match no reference item have nothing to confirm by name and are
    left out; the same reference item listed twice is judged once (its first row).
    """
    if isinstance(scorecard.get("rubric"), dict):
        return _rubric_decisions(scorecard["rubric"])
    out: list[Decision] = []
    seen: set[tuple[str, str]] = set()
    items = scorecard.get("items") or {}
    for section in ("diagnoses", "differential", "workup", "treatment"):
        for entry in items.get(section) or []:
            reference = entry.get("reference")
            if not reference or (section, reference) in seen:
                continue
            seen.add((section, reference))
            text, start, end = _span(entry.get("evidence"))
            out.append(Decision(section, reference, _item_label(entry), entry.get("answer"), text, start, end,
                                entry.get("reason") or entry.get("note"), _doubts(entry)))
    for absence in scorecard.get("uncertain_absences") or []:  # items with no row the grader doubts
        section, reference = absence.get("section"), absence.get("reference")
        if section in ("workup", "treatment") and reference and (section, reference) not in seen:
            seen.add((section, reference))
            out.append(Decision(section, reference, "not_found", None, None, None, None,
                                "not given (no row on the scorecard)", _doubts(absence)))
    for cond in scorecard.get("critical_conditions") or []:
        span = cond.get("span") or {}
        out.append(Decision(
            "critical", cond["id"], "FAIL" if cond.get("status") == "FAIL" else "OK", None,
            span.get("text") if isinstance(span, dict) else None,
            span.get("start") if isinstance(span, dict) else None,
            span.get("end") if isinstance(span, dict) else None,
            f"{cond.get('status')}: {cond.get('evidence') or cond.get('description') or ''}".strip(),
            _doubts(cond),
        ))
    if isinstance(scorecard.get("criteria"), dict):  # a consultation case's rubric points on its final response
        out += _rubric_decisions(scorecard["criteria"])
    return out


def _rubric_decisions(grade: JSONObject) -> list[Decision]:
    """A rubric grade's decisions: each criterion (its id the reference, its text shown) or each
    panel action (named by itself), with its evidence and who decided it."""
    out: list[Decision] = []
    for entry in grade.get("criteria") or []:
        text, start, end = _span(entry.get("evidence"))
        points = entry.get("points")
        out.append(Decision("criterion", str(entry.get("criterion")), str(entry.get("verdict")), None, text, start,
                            end, f"{entry.get('decided_by')}: {entry.get('reason') or ''}".rstrip(": "),
                            text=f"{entry.get('text')} ({points:+d} points)" if isinstance(points, int)
                            else str(entry.get("text"))))
    for entry in grade.get("actions") or []:
        text, start, end = _span(entry.get("evidence"))
        severity = entry.get("severity")
        out.append(Decision("action", str(entry.get("action")), "met" if entry.get("included") else "not_met", None,
                            text, start, end, str(entry.get("reason") or ""),
                            text=f"severity {severity:+d}" if isinstance(severity, int) else None))
    return out


def _doubts(entry: JSONObject) -> tuple[str, ...]:
    doubts = entry.get("doubts")
    return tuple(str(d) for d in doubts) if isinstance(doubts, list) else ()


def uncertain_first(decisions_by_run: dict[int, list[Decision]], movement: dict[int, float] | None = None,
                    ) -> tuple[list[int], dict[int, list[Decision]]]:
    """The runs whose results a physician's verdicts can move most first: by ``movement`` (how far the
    run's headline metrics could move, the summed width of its stored ranges), then by how many
    uncertain decisions it has; each run's uncertain decisions before its certain ones. The certain
    decisions stay in the sample, so the error rate of certain decisions is measured too."""
    moves = movement or {}
    order = sorted(decisions_by_run, key=lambda run_id: (-moves.get(run_id, 0.0),
                                                          -sum(d.uncertain for d in decisions_by_run[run_id])))
    return order, {run_id: sorted(ds, key=lambda d: not d.uncertain) for run_id, ds in decisions_by_run.items()}


# --- the record book in the run store --------------------------------------------------


class AdjudicationBook:
    """The adjudication records and review samples of one run store."""

    def __init__(self, store: RunStore) -> None:
        self.store = store
        with store.connection() as db:
            db.executescript(_SCHEMA)

    # records

    def save(self, records: Iterable[Record]) -> int:
        """Write records, replacing an earlier verdict of the same rater on the same decision."""
        rows = [tuple(r.to_json()[k] for k in RECORD_KEYS) for r in records]
        columns, marks = ", ".join(RECORD_KEYS), ", ".join("?" * len(RECORD_KEYS))
        with self.store.transaction() as db:
            db.executemany(f"INSERT OR REPLACE INTO adjudications ({columns}) VALUES ({marks})", rows)
        return len(rows)

    def records(self, *, group_id: str | None = None, rater: str | None = None,
                run_ids: Iterable[int] | None = None) -> list[Record]:
        sql = f"SELECT a.{', a.'.join(RECORD_KEYS)} FROM adjudications a"
        where: list[str] = []
        params: list[str | int] = []
        if group_id is not None:
            sql += " JOIN runs r ON r.id = a.run_id"
            where.append("r.group_id = ?")
            params.append(group_id)
        if rater is not None:
            where.append("a.rater = ?")
            params.append(rater)
        if run_ids is not None:
            ids = list(run_ids)
            where.append(f"a.run_id IN ({', '.join('?' * len(ids))})" if ids else "0")
            params += ids
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY a.run_id, a.section, a.reference, a.rater"
        with self.store.connection() as db:
            rows = db.execute(sql, params).fetchall()
        return [Record(*row) for row in rows]

    def groups_with_records(self) -> list[str]:
        with self.store.connection() as db:
            rows = db.execute(
                "SELECT r.group_id, MAX(a.at) FROM adjudications a JOIN runs r ON r.id = a.run_id "
                "GROUP BY r.group_id ORDER BY MAX(a.at) DESC"
            ).fetchall()
        return [row[0] for row in rows]

    def raters(self) -> list[str]:
        with self.store.connection() as db:
            return [row[0] for row in db.execute("SELECT DISTINCT rater FROM adjudications ORDER BY rater")]

    # JSONL

    def export_jsonl(self, out: IO[str], *, group_id: str | None = None, rater: str | None = None) -> int:
        records = self.records(group_id=group_id, rater=rater)
        for record in records:
            out.write(json.dumps(record.to_json(), ensure_ascii=False) + "\n")
        return len(records)

    def import_jsonl(self, lines: Iterable[str], *, source: str = "") -> int:
        """Read every line first and write all or nothing: a bad line names its number, and so
        does a record that matches nothing in this store (:meth:`check`)."""
        located = list(_located(lines, source))
        self.check(located)
        return self.save(record for _, record in located)

    def check(self, located: list[tuple[str, Record]]) -> None:
        """Refuse a record that is not about a decision of this store: its run, the run's case,
        a reference item the scorer decided on, and the label the scorer gave it (a record of
        another store, or of an earlier scoring, would count against the wrong decisions)."""
        run_ids = sorted({record.run_id for _, record in located})
        cards = {run_id: docs.get("scorecard") for run_id, docs in self.store.documents(run_ids, ("scorecard",))}
        decided: dict[int, dict[tuple[str, str], str]] = {}
        for where, record in located:
            if record.run_id not in cards:
                raise AdjudicationError(f"{where}: run {record.run_id} is not in the run store {self.store.path}: "
                                        "import records into the store their runs are in (--store PATH)")
            card = cards[record.run_id]
            if not isinstance(card, dict):
                raise AdjudicationError(f"{where}: run {record.run_id} has no scorecard (it did not complete): "
                                        "there is no decision of it to adjudicate")
            if card.get("case_id") != record.case_id:
                raise AdjudicationError(f"{where}: run {record.run_id} is of case {card.get('case_id')!r}, "
                                        f"not {record.case_id!r}")
            if record.run_id not in decided:
                decided[record.run_id] = {(d.section, d.reference): d.evaluator for d in decisions_of(card)}
            label = decided[record.run_id].get((record.section, record.reference))
            if label is None:
                names = sorted(ref for section, ref in decided[record.run_id] if section == record.section)
                listed = ", ".join(repr(n) for n in names[:6]) + (", ..." if len(names) > 6 else "")
                raise AdjudicationError(f"{where}: the scorer made no {record.section} decision on "
                                        f"{record.reference!r} in run {record.run_id}"
                                        + (f" (its {record.section} decisions: {listed})" if names else ""))
            if label != record.evaluator:
                raise AdjudicationError(f"{where}: the scorer said {label!r} of {record.reference!r} in run "
                                        f"{record.run_id}, not {record.evaluator!r}: the record is of another "
                                        "scoring; adjudicate the run as it is scored now")

    # review samples

    def sample(self, group_id: str, rater: str) -> list[int] | None:
        with self.store.connection() as db:
            row = db.execute(
                "SELECT run_ids FROM adjudication_samples WHERE group_id = ? AND rater = ?", (group_id, rater)
            ).fetchone()
        return None if row is None else [int(i) for i in json.loads(row[0])]

    def keep_sample(self, group_id: str, rater: str, run_ids: list[int], *, size: int | None, seed: int) -> None:
        with self.store.transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO adjudication_samples (group_id, rater, size, seed, run_ids, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (group_id, rater, size, seed, json.dumps(run_ids), utc_now()),
            )


def read_jsonl(lines: Iterable[str], *, source: str = "") -> Iterator[Record]:
    for _, record in _located(lines, source):
        yield record


def _located(lines: Iterable[str], source: str) -> Iterator[tuple[str, Record]]:
    """Each record with where it was read (``file:line``)."""
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{source}:{number}" if source else f"line {number}"
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise AdjudicationError(f"{where}: not JSON ({exc.msg} at column {exc.colno})") from None
        except RecursionError:
            raise AdjudicationError(f"{where}: nested too deeply to be a record (a record is one flat "
                                    "JSON object)") from None
        except ValueError:  # a number longer than Python reads (4,300 digits)
            raise AdjudicationError(f"{where}: a number too long to be a record's (run ids are at most "
                                    f"{MAX_RUN_ID})") from None
        yield where, Record.from_json(data, where)


def stratified_sample(runs: list[RunRecord], size: int | None, seed: int) -> list[int]:
    """Run ids to review, blinded: all complete runs, or ``size`` of them drawn in turn
    from each system (so every system is checked, however many runs it has), in a seeded
    random order that hides which system wrote which."""
    rng = random.Random(seed)
    by_system: dict[str, list[int]] = {}
    for run in runs:
        if run.complete and run.id is not None:
            by_system.setdefault(run.system, []).append(run.id)
    queues = [rng.sample(ids, len(ids)) for _, ids in sorted(by_system.items())]
    total = sum(len(q) for q in queues)
    want = total if size is None else min(size, total)
    chosen: list[int] = []
    while len(chosen) < want:
        for queue in queues:
            if queue and len(chosen) < want:
                chosen.append(queue.pop())
    rng.shuffle(chosen)
    return chosen


def pending(decisions: list[Decision], verdicts: dict[tuple[str, str], Record]) -> int:
    """How many of a run's decisions the rater has not judged yet."""
    return sum(1 for d in decisions if (d.section, d.reference) not in verdicts)

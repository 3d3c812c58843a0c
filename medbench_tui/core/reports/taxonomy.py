"""The failure taxonomy: why a run fell short, read from its stored scorecard and transcript.

Every run gets zero or more failures, each of one kind (below) with a short detail; per
system a report counts the runs of each kind and names their cases as examples. The kinds
follow what a physician reviewer would note, not the metrics: one missed diagnosis is one
failure however many metrics it costs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from medbench_tui.core.jsondata import JSONObject, JSONValue

if TYPE_CHECKING:
    from medbench_tui.core.runs.store import RunRecord

KINDS: dict[str, str] = {
    "missed_diagnosis": "Missed diagnosis",
    "icd_specificity": "ICD-10 specificity error (right category, wrong code)",
    "omitted_urgent_action": "Omitted urgent action (a must-include critical condition failed)",
    "contraindicated": "Contraindicated suggestion",
    "unnecessary_investigation": "Unnecessary investigation (an unexpected workup item)",
    "attachment_not_obtained": "Attachment never obtained (on request, never asked for)",
    "dialogue_too_short": "Dialogue too short (under 75% of num_steps)",
    "dialogue_too_long": "Dialogue too long (over 125% of num_steps)",
    "incomplete": "Incomplete run",
}
SOFT_RANGE = (0.75, 1.25)


@dataclass(frozen=True)
class Failure:
    kind: str
    detail: str


def run_failures(run: RunRecord, facts: Mapping[str, JSONValue], card: Mapping[str, JSONValue],
                 transcript: Mapping[str, JSONValue]) -> list[Failure]:
    """The failures of one stored run, from its stored scorecard and transcript; ``facts``
    are its case's (see :func:`medbench_tui.core.cases.casemix.case_facts`)."""
    if not run.complete:
        return [Failure("incomplete", run.reason or "no reason recorded")]
    found: list[Failure] = []
    if run.metrics.get("diagnosis_accuracy", 100) < 100:
        found.append(Failure("missed_diagnosis", "no final diagnosis matches the primary"))
    if run.labels.get("primary_icd10") == "category":
        found.append(Failure("icd_specificity", "primary ICD-10 code in the right category, not the code"))
    for condition in card.get("critical_conditions", []):
        if condition.get("status") == "FAIL" and condition.get("kind") == "must_include":
            found.append(Failure("omitted_urgent_action", str(condition.get("description", condition.get("id")))))
    items = card.get("items", {})
    for section in ("workup", "treatment"):
        for entry in items.get(section, []):
            given = str(entry.get("answer") or entry.get("reference") or "")
            if entry.get("status") == "contraindicated":
                found.append(Failure("contraindicated", given))
            elif section == "workup" and entry.get("status") == "unexpected":
                found.append(Failure("unnecessary_investigation", given))
    released = {
        event.get("attachment") for event in transcript.get("events", [])
        if event.get("kind") == "attachment_released"
    }
    for attachment in facts.get("on_request_attachments", []):
        if attachment not in released:
            found.append(Failure("attachment_not_obtained", attachment))
    expected = run.num_steps if run.num_steps is not None else facts.get("num_steps")
    if expected:
        if run.steps < SOFT_RANGE[0] * expected:
            found.append(Failure("dialogue_too_short", f"{run.steps} steps, {expected} expected"))
        elif run.steps > SOFT_RANGE[1] * expected:
            found.append(Failure("dialogue_too_long", f"{run.steps} steps, {expected} expected"))
    return found


@dataclass
class KindCount:
    kind: str
    label: str
    runs: int
    """Runs with at least one failure of this kind (each repeat is a run)."""
    case_ids: list[str] = field(default_factory=list)
    """Its cases, in bank order: the representative examples."""


@dataclass
class SystemTaxonomy:
    system: str
    runs: int
    counts: list[KindCount]
    per_run: list[JSONObject]
    """One entry per run: case_id, repeat (from 1), and its failures (kind, detail)."""


class CountedRun(Protocol):
    """What the taxonomy reads of a run (a run's digest, or its record)."""

    @property
    def id(self) -> int: ...
    @property
    def case_id(self) -> str: ...
    @property
    def repeat_number(self) -> int: ...


def system_taxonomy(system: str, runs: list[CountedRun], failures_of: Mapping[int, list[Failure]]) -> SystemTaxonomy:
    """Count the failures of one system's runs, kind by kind (every kind listed, zeros too)."""
    per_run = []
    counts = {kind: KindCount(kind, label, 0) for kind, label in KINDS.items()}
    for run in runs:
        failures = failures_of.get(run.id, [])
        per_run.append({"case_id": run.case_id, "repeat": run.repeat_number,
                        "failures": [{"kind": f.kind, "detail": f.detail} for f in failures]})
        for kind in dict.fromkeys(f.kind for f in failures):
            counts[kind].runs += 1
            if run.case_id not in counts[kind].case_ids:
                counts[kind].case_ids.append(run.case_id)
    return SystemTaxonomy(system, len(runs), list(counts.values()), per_run)

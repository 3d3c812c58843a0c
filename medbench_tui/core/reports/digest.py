"""What a report keeps of each run once its case outcome is made: its stored documents are
read one run at a time, and its record (metrics, ranges) is let go, so a group of thousands
of runs is reported without holding every run, scorecard and transcript at once.

For each run: which it is and how it ended, whether its ranges leave a metric uncertain, its
diagnosis and cost (the cost chart per repeat), its failures (the taxonomy), its unpriced
items and the critical conditions it failed by omission and by commission (the cost table);
and, when the bank's price table is not the one the group was costed with, its cost metrics
worked out again with the current table (the stored transcript and scorecard, the case file
as it is now).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from medbench_tui.core.jsondata import JSONObject, JSONValue
from medbench_tui.core.reports.taxonomy import Failure, run_failures

if TYPE_CHECKING:
    from medbench_tui.core.cases.model import Case
    from medbench_tui.core.costs.prices import PriceTable
    from medbench_tui.core.runs.store import RunRecord, RunStore


@dataclass(slots=True)
class RunDigest:
    id: int
    case_id: str
    system: str
    repeat: int
    complete: bool
    reason: str | None
    uncertain: bool
    """Complete, with a range that is not a point (some decision could move a metric)."""
    diagnosis: float | None
    cost: float | None
    failures: list[Failure] = field(default_factory=list)
    unpriced: int = 0
    conditions_omission: int = 0
    conditions_commission: int = 0

    @property
    def repeat_number(self) -> int:
        return self.repeat + 1


def digests(store: RunStore, runs: list[RunRecord], facts: Mapping[str, Mapping[str, JSONValue]], bank: Path,
            reprice_with: PriceTable | None, *, failures: bool = True) -> dict[int, RunDigest]:
    """Run id -> its digest; with ``reprice_with``, each complete run's cost metrics (in
    ``run.metrics``) are priced again with that table. ``failures=False`` leaves the taxonomy's
    failures out, and with them the transcripts: unless the runs are priced again, of each
    scorecard only its harm and its unpriced items are read (by SQLite), not the whole document."""
    by_id = {run.id: run for run in runs if run.id is not None}
    if not failures and reprice_with is None:
        parts = store.document_parts(list(by_id), "scorecard", ("$.harm", "$.cost.unpriced"))
        return {run_id: _digest(run_id, by_id[run_id], harm or {}, unpriced or [], [])
                for run_id, (harm, unpriced) in parts}
    found: dict[int, RunDigest] = {}
    cases: dict[str, Case | None] = {}
    for run_id, documents in store.documents(list(by_id), ("scorecard", "transcript")):
        run = by_id[run_id]
        card, transcript = documents["scorecard"] or {}, documents["transcript"] or {}
        if reprice_with is not None and run.complete and card:
            cost = _price_again(run, card, transcript, bank, reprice_with, cases)
            if cost is not None:
                card["cost"] = cost
        found[run_id] = _digest(
            run_id, run, card.get("harm") or {}, (card.get("cost") or {}).get("unpriced", []),
            run_failures(run, facts.get(run.case_id, {}), card, transcript) if failures else [],
        )
    return found


def _digest(run_id: int, run: RunRecord, harm: Mapping[str, JSONValue], unpriced: list[JSONValue],
            failures: list[Failure]) -> RunDigest:
    return RunDigest(
        run_id, run.case_id, run.system, run.repeat, run.complete, run.reason,
        uncertain=run.complete and any(low != high for low, high in run.ranges.values()),
        diagnosis=run.metrics.get("diagnosis_accuracy"), cost=run.metrics.get("cost_total"), failures=failures,
        unpriced=len(unpriced), conditions_omission=int(harm.get("conditions_omission", 0)),
        conditions_commission=int(harm.get("conditions_commission", 0)),
    )


def _price_again(run: RunRecord, card: JSONObject, transcript: JSONObject, bank: Path, table: PriceTable,
                 cases: dict[str, Case | None]) -> JSONObject | None:
    from medbench_tui.core.costs.assess import ItemOutcome, run_cost
    from medbench_tui.core.errors import MedbenchError
    from medbench_tui.core.paths import run_case_file
    from medbench_tui.core.transcript import Transcript
    from medbench_tui.core.validate import load_valid_case

    if run.case_path not in cases:
        try:
            cases[run.case_path] = load_valid_case(run_case_file(bank, run.case_path))
        except (OSError, MedbenchError):
            cases[run.case_path] = None  # the case is gone: its stored figures stand
    case = cases[run.case_path]
    if case is None or not transcript:
        return None
    rows = [ItemOutcome("workup", e.get("reference"), e.get("answer"), e.get("status", ""))
            for e in card.get("items", {}).get("workup", [])]
    cost = run_cost(case, Transcript.model_validate(transcript), rows, table)
    run.metrics["cost_total"] = cost.total
    run.metrics["cost_tests"] = cost.consultation + cost.plan
    return cost.model_dump(mode="json")

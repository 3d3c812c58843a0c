"""Round 13 of report speed: the run summary reads no transcript, only the parts of the scorecards
it shows, and keeps no failures; what it prints does not move (speed itself: benchmarks/)."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.costs.prices import bank_prices
from medbench_tui.core.reports.report import build_report, render_text
from medbench_tui.core.runs.store import RunStore
from tests.test_runs_store import make_run


@pytest.fixture
def store(tmp_path):
    with RunStore(tmp_path / "runs.sqlite") as opened:
        yield opened


def _group(store: RunStore, bank: Path) -> str:
    """Two systems, three cases, two repeats; one run incomplete; attachments on request, so the
    taxonomy has failures to find in the transcripts; costed with the bank's prices, as `run` does."""
    cases = ["c1", "c2", "c3"]
    config = {"systems": [{"name": "base", "config": {}}, {"name": "agent", "config": {}}], "repeats": 2,
              "bank": str(bank), "prices": {"digest": bank_prices(bank).digest},
              "cases": [{"id": c, "metadata": {"urgency": "urgent", "on_request_attachments": ["cxr"]}}
                        for c in cases]}
    group = store.create_group(config, 5)
    for index, case in enumerate(cases):
        for system in ("base", "agent"):
            for repeat in (0, 1):
                complete = not (case == "c3" and system == "agent" and repeat == 1)
                dx, tx = 100 * ((index + repeat) % 2), 30.0 * index + repeat
                run = make_run(group.id, case, system, complete=complete, diagnosis_accuracy=dx, treatment_accuracy=tx)
                run.repeat = repeat
                store.record(run)
    return group.id


def test_the_run_summary_decodes_no_whole_document_and_prints_the_same(store, monkeypatch, tmp_path):
    group = _group(store, tmp_path)
    full = build_report(store, group, resamples=999, compare=False)
    assert any(kind.runs for taxonomy in full.taxonomy.values() for kind in taxonomy.counts)
    read: list[tuple[str, ...]] = []
    documents = RunStore.documents

    def spy(self: RunStore, run_ids: list[int], names: tuple[str, ...]):  # type: ignore[no-untyped-def]
        read.append(names)
        return documents(self, run_ids, names)

    monkeypatch.setattr(RunStore, "documents", spy)
    summary = build_report(store, group, resamples=999, compare=False, taxonomy=False)
    assert read == []  # no transcript, and of the scorecards only the parts the costs show
    assert summary.taxonomy == {}
    assert render_text(summary, paired=False) == render_text(full, paired=False)
    assert summary.to_json()["summaries"] == full.to_json()["summaries"]


def test_document_parts_are_what_decoding_the_whole_document_finds(store):
    """SQLite picks the parts out; a document it cannot read (NaN, as medbench may write it) is
    decoded in Python, and a damaged one is reported as damaged, as a whole read reports it."""
    import sqlite3

    from medbench_tui.core.errors import MedbenchError

    group = store.create_group({"systems": [{"name": "base"}], "cases": [{"id": "c1"}]}, 1)
    cards = [
        {"harm": {"conditions_omission": 2, "weight": 0.1 + 0.2}, "cost": {"unpriced": ["x", "y"]}},
        {"harm": None, "metrics": {"primary_mrr": float("nan")}, "cost": {"unpriced": ["z"]}},
        {"items": {}},
        None,
    ]
    ids = []
    for repeat, card in enumerate(cards):
        run = make_run(group.id, "c1", "base")
        run.repeat, run.scorecard = repeat, card
        ids.append(store.record(run))
    parts = dict(store.document_parts(ids, "scorecard", ("$.harm", "$.cost.unpriced")))
    assert parts == {ids[0]: [{"conditions_omission": 2, "weight": 0.1 + 0.2}, ["x", "y"]], ids[1]: [None, ["z"]],
                     ids[2]: [None, None], ids[3]: [None, None]}
    with sqlite3.connect(store.path) as db:
        db.execute("UPDATE runs SET scorecard = '[1' WHERE id = ?", (ids[0],))
    with pytest.raises(MedbenchError, match="is damaged"):
        dict(store.document_parts(ids, "scorecard", ("$.harm", "$.cost.unpriced")))

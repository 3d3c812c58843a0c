"""Round 13 of report speed: the run summary reads no transcript and keeps no failures; the
report's figures do not move with how the work is laid out (speed itself: benchmarks/)."""

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


def test_the_run_summary_reads_no_transcript_and_prints_the_same(store, monkeypatch, tmp_path):
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
    assert read and all("transcript" not in names for names in read)
    assert summary.taxonomy == {}
    assert render_text(summary, paired=False) == render_text(full, paired=False)
    assert summary.to_json()["summaries"] == full.to_json()["summaries"]

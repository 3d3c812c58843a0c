"""Two resumes of one run group share the work: each run is claimed (a lease row in the
store) before it is played; a second process skips claimed runs; a stale claim expires."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

from medbench_tui.core.cases.bank import consultation_files, load_bank
from medbench_tui.core.runs.runner import (
    RunClaimedElsewhere,
    Runner,
    RunStarted,
    plan_resume,
    plan_run,
)
from medbench_tui.core.runs.store import RunStore

REPO = Path(__file__).resolve().parent.parent


def _bank(tmp_path: Path, cases: int = 4) -> Path:
    bank = tmp_path / "bank"
    (bank / "cases").mkdir(parents=True)
    (bank / "medbench.yaml").write_text("systems: {}\n")
    for source in consultation_files(REPO / "cases")[:cases]:
        shutil.copy(source, bank / "cases" / source.name)
        if (REPO / "cases" / "attachments" / source.stem).is_dir():
            shutil.copytree(REPO / "cases" / "attachments" / source.stem, bank / "attachments" / source.stem)
    return bank


def _group_with_missing_runs(tmp_path: Path) -> tuple[Path, str, list[str]]:
    """A group of 4 checklist runs of which 3 were never stored (as after a crash)."""
    bank = _bank(tmp_path)
    store_path = tmp_path / "runs.sqlite"
    with RunStore(store_path) as store:
        result = asyncio.run(Runner(store, plan_run(load_bank(bank), ["checklist"], seed=5)).run())
        cases = sorted(r.case_id for r in store.runs(result.group_id))
    with RunStore(store_path) as store, store.transaction() as db:
        db.execute("DELETE FROM runs WHERE case_id != ?", (cases[0],))
    return store_path, result.group_id, cases[1:]


def test_a_claim_is_exclusive_until_it_expires(tmp_path):
    store_path, group, missing = _group_with_missing_runs(tmp_path)
    with RunStore(store_path) as store:
        run = (group, missing[0], "checklist")
        assert store.claim(*run, "a", lease=60, now=1000)
        assert not store.claim(*run, "b", lease=60, now=1010)
        assert store.claim(*run, "a", lease=60, now=1020)  # its owner renews it
        assert store.claim(*run, "b", lease=60, now=1081)  # a's lease ran out: b takes over
        assert store.claim(*run, "c", lease=60, now=1090, gone=lambda owner: owner == "b")  # b died
        store.release(*run, "c")
        assert store.claim(*run, "d", lease=60, now=1091)


def test_a_complete_run_cannot_be_claimed(tmp_path):
    store_path, group, missing = _group_with_missing_runs(tmp_path)
    with RunStore(store_path) as store:
        done = next(r.case_id for r in store.runs(group))
        assert not store.claim(group, done, "checklist", "a", lease=60)


def test_a_resume_skips_the_runs_another_process_is_playing(tmp_path):
    store_path, group, missing = _group_with_missing_runs(tmp_path)
    with RunStore(store_path) as other:  # another process, on another machine, playing one run
        assert other.claim(group, missing[0], "checklist", "elsewhere:1:abc", lease=3600)
    events: list = []
    with RunStore(store_path) as store:
        plan, found = plan_resume(store, group)
        result = asyncio.run(Runner(store, plan, group=found, on_event=events.append).run())
        played = sorted(e.case_id for e in events if isinstance(e, RunStarted))
        assert played == missing[1:]
        assert [e.case_id for e in events if isinstance(e, RunClaimedElsewhere)] == [missing[0]]
        assert result.claimed_elsewhere == 1
        assert missing[0] not in {r.case_id for r in store.runs(group)}


def test_a_stale_claim_expires_and_the_run_is_played(tmp_path):
    store_path, group, missing = _group_with_missing_runs(tmp_path)
    with RunStore(store_path) as other:
        assert other.claim(group, missing[0], "checklist", "elsewhere:1:abc", lease=60, now=0)  # long ago
    with RunStore(store_path) as store:
        plan, found = plan_resume(store, group)
        asyncio.run(Runner(store, plan, group=found).run())
        assert len(store.runs(group, status="complete")) == 4
        assert store._query("SELECT COUNT(*) FROM claims")[0][0] == 0  # every lease released


def test_two_resumes_at_once_play_each_run_once(tmp_path):
    store_path, group, missing = _group_with_missing_runs(tmp_path)
    events: list = []

    async def both() -> None:
        with RunStore(store_path) as first, RunStore(store_path) as second:
            runners = []
            for store in (first, second):
                plan, found = plan_resume(store, group)
                runners.append(Runner(store, plan, group=found, concurrency=1, on_event=events.append))
            await asyncio.gather(*(runner.run() for runner in runners))

    asyncio.run(both())
    started = sorted(e.case_id for e in events if isinstance(e, RunStarted))
    assert started == sorted(missing)  # nobody played a run twice
    with RunStore(store_path) as store:
        assert len(store.runs(group, status="complete")) == 4

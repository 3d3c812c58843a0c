"""Batch runs off the caller's loop: the background run, the batch process, their
coalesced progress, offline runs that really run side by side, and the plan of a person
at the keyboard."""

from __future__ import annotations

import threading

import pytest

from medbench_tui.core.cases.bank import load_bank
from medbench_tui.core.errors import MedbenchError, UsageError
from medbench_tui.core.runs.background import BackgroundRun, BatchFailed, BatchProcess, ProgressFeed, Tally, fold
from medbench_tui.core.runs.runner import GroupFinished, GroupStarted, RequestRetried, RunFinished, Runner, plan_run
from medbench_tui.core.runs.store import RunStore
from medbench_tui.core.systems.human import HumanSystem
from tests.support.batch_jobs import Counts, Crashes, Refuses, WaitsForCancel
from tests.test_runs_runner import make_bank


def finished(case_id: str, status: str = "complete", reason: str | None = None) -> RunFinished:
    return RunFinished("g", case_id, "checklist", status, reason, 3, 0.1, {})


def test_the_tally_follows_the_events():
    tally = Tally()
    for event in (
        GroupStarted("g", 4, 3, False),
        finished("a"),
        RequestRetried("g", "b", "checklist", 1, 0.5, "429"),
        finished("b", "incomplete", "endpoint error"),
        finished("c", "incomplete", "cancelled"),
    ):
        tally = fold(tally, event)
    assert (tally.group_id, tally.to_play, tally.finished) == ("g", 3, 3)
    assert (tally.complete, tally.incomplete, tally.cancelled, tally.retries) == (1, 2, 1, 1)
    assert tally.over is None
    over = GroupFinished("g", 1, 2, 0, True, 1.0)
    assert fold(tally, over).over == over


def test_the_feed_wakes_its_reader_once_per_batch_of_events():
    wakes = []
    feed = ProgressFeed(lambda: wakes.append(1))
    for case_id in "abc":
        feed(finished(case_id))
    assert len(wakes) == 1
    tally, events = feed.take()
    assert tally.finished == 3 and [e.case_id for e in events] == ["a", "b", "c"]
    assert feed.take()[1] == []
    feed(finished("d"))
    assert len(wakes) == 2


def test_a_background_run_plays_in_its_thread_and_cancelled_first_plays_nothing(tmp_path):
    bank = load_bank(make_bank(tmp_path / "bank", "http://127.0.0.1:9/v1", cases=3))
    plan = plan_run(bank, ["checklist"], seed=1)
    with RunStore(tmp_path / "runs.sqlite") as store:
        threads = set()
        played = BackgroundRun()
        result = played.play(Runner(store, plan, on_event=lambda e: threads.add(threading.get_ident())))
        assert result.complete == 3 and threads == {threading.get_ident()}
        cancelled = BackgroundRun()
        cancelled.cancel()
        result = cancelled.play(Runner(store, plan))
        assert result.cancelled and result.complete == 0 and result.not_played == 3


def test_offline_runs_play_side_by_side(tmp_path):
    """With concurrency 3, the checklist's runs start together: none holds the loop for a whole run."""
    bank = load_bank(make_bank(tmp_path / "bank", "http://127.0.0.1:9/v1", cases=3))
    plan = plan_run(bank, ["checklist"], seed=1)
    order = []
    with RunStore(tmp_path / "runs.sqlite") as store:
        BackgroundRun().play(Runner(store, plan, concurrency=3, on_event=lambda e: order.append(type(e).__name__)))
    assert order[:4] == ["GroupStarted", "RunStarted", "RunStarted", "RunStarted"]


def test_a_person_is_planned_as_a_system_but_not_by_name(tmp_path):
    bank = load_bank(make_bank(tmp_path / "bank", "http://127.0.0.1:9/v1", cases=1))
    person = HumanSystem()
    plan = plan_run(bank, [person], simulator="grounded")
    assert plan.specs == ["human"] and plan.systems == [person]
    assert plan.config()["systems"][0]["config"] == {"name": "human", "kind": "human"}
    with pytest.raises(UsageError, match="person at the keyboard"):
        plan_run(bank, ["human"])


def test_waiting_for_the_record_of_a_run_that_never_started_returns_at_once():
    from medbench_tui.core.runs.background import BackgroundRun

    run = BackgroundRun()
    run.cancel()
    assert run.wait_recorded(5.0) is True


def test_a_batch_process_relays_its_news_in_order_and_returns_its_result():
    news: list[int] = []
    assert BatchProcess().play(Counts(5), news.append) == "done"
    assert news == [1, 2, 3, 4, 5]  # what the job printed did not get among them


def test_a_refusal_in_the_batch_process_keeps_its_message_and_a_crash_its_traceback():
    with pytest.raises(MedbenchError, match="no case chosen: tick one"):
        BatchProcess().play(Refuses(), print)
    with pytest.raises(BatchFailed, match="ZeroDivisionError"):
        BatchProcess().play(Crashes(), print)


def test_a_batch_process_is_cancelled_from_another_thread():
    batch = BatchProcess()
    news: list[str] = []

    def on_news(item: str) -> None:
        news.append(item)
        threading.Thread(target=batch.cancel).start()

    assert batch.play(WaitsForCancel(), on_news) == "cancelled"
    assert news == ["waiting"]
    cancelled_first = BatchProcess()
    cancelled_first.cancel()
    assert cancelled_first.play(WaitsForCancel(), lambda item: None) == "cancelled"


def test_a_group_id_chosen_beforehand_is_used_once(tmp_path):
    with RunStore(tmp_path / "runs.sqlite") as store:
        assert store.create_group({}, 1, group_id="chosen").id == "chosen"
        with pytest.raises(MedbenchError, match="already holds a group chosen"):
            store.create_group({}, 1, group_id="chosen")

"""The play screen's consultations without the screen: starting, the player's turns,
the end (a stored, scored run), the autosave and resuming from it."""

from __future__ import annotations

import asyncio
import queue
import shutil
import threading
from pathlib import Path

import pytest

from medbench_tui.core.cases.bank import Bank, load_bank
from medbench_tui.core.consultation.loop import DoctorView
from medbench_tui.core.practice.play import PlaySession, Start
from medbench_tui.core.practice.progress import CaseProgress
from medbench_tui.core.practice.session import PLAYER_SYSTEM, Desk, SessionState, SessionSwap
from medbench_tui.core.runs.background import BackgroundRun
from medbench_tui.core.runs.store import RunRecord
from medbench_tui.core.settings import RunnerSettings
from medbench_tui.core.transcript import FinalDiagnosis, FinalResponse

CLINIC = Path(__file__).parent / "tui" / "fixtures" / "clinic"
PLAYER = "Dr Test"
CASE = "fx-chest-001"
WAIT = 60.0


@pytest.fixture
def bank(tmp_path: Path) -> Bank:
    folder = tmp_path / "bank"
    shutil.copytree(CLINIC, folder)
    return load_bank(folder)


class Player:
    """The screen's part, without a screen: answers the questions starting asks, and hears
    what the consultation shows (from its thread)."""

    def __init__(self, *, resume: str = "recover", again: bool = True) -> None:
        self.resume, self.again = resume, again
        self.asked: list[str] = []
        self.events: queue.Queue[tuple[str, object]] = queue.Queue()

    async def resume_unfinished(self, case_id: str, swap: SessionSwap) -> str:
        self.asked.append(f"resume {case_id} after {len(swap.questions)}")
        return self.resume

    async def play_again(self, case_id: str, played: CaseProgress) -> bool:
        self.asked.append(f"again {case_id}")
        return self.again

    def unfinished_dropped(self, case_id: str) -> None:
        self.asked.append(f"dropped {case_id}")

    def desk(self) -> Desk:
        return Desk(asked=lambda text, replayed: self.events.put(("asked", (text, replayed))),
                    shown=lambda seen: self.events.put(("shown", seen)), streamed=lambda text: None)

    def next(self, kind: str) -> object:
        while True:
            event, value = self.events.get(timeout=WAIT)
            if event == kind:
                return value


class Playing:
    """A consultation played by the runner in a thread, as the screen's worker plays it."""

    def __init__(self, play: PlaySession, start: Start, background: BackgroundRun) -> None:
        self.run: RunRecord | None = None

        def consult() -> None:
            self.run = play.consult(background, start.plan, start.group, RunnerSettings())

        self.thread = threading.Thread(target=consult, daemon=True)
        self.thread.start()

    def end(self) -> RunRecord | None:
        self.thread.join(WAIT)
        return self.run


def started(play: PlaySession, bank: Bank, player: Player) -> Start | None:
    return asyncio.run(play.start(bank, bank.cases_folder / f"{CASE}.yaml", "grounded", PLAYER, player.desk(), player))


def ask(play: PlaySession, player: Player, question: str) -> None:
    play.ask(question)
    text, replayed = player.next("asked")
    play.asked(text, replayed=replayed)
    player.next("shown")
    reply = play.replied()
    assert reply.asking and not reply.resumed


def test_a_whole_consultation_is_stored_scored_and_leaves_no_autosave(bank):
    play, player = PlaySession(bank.run_store), Player()
    start = started(play, bank, player)
    assert start is not None and not start.resumed and player.asked == []
    background = play.begin(start, PLAYER)
    assert play.state is SessionState.OPENING and play.waiting and play.case is not None
    playing = Playing(play, start, background)
    assert isinstance(player.next("shown"), DoctorView)
    play.opened()
    assert play.state is SessionState.ASKING and not play.waiting
    for question in ("When did it start?", "Do you smoke?"):
        ask(play, player, question)
    assert play.steps == 2 and play.turns is not None and play.turns.steps == 2
    assert play.swap is not None and play.swap.questions == ["When did it start?", "Do you smoke?"]
    due = play.swap_to_write()
    assert due is not None
    due[1].save(due[0])
    assert not play.autosave_due, "written: nothing new"
    play.keep("crackles at the right base", FinalResponse())
    assert play.autosave_due
    play.finish(FinalResponse(diagnoses=[FinalDiagnosis(name="Lobar pneumonia", icd10="J18.1")]), "notes")
    run = playing.end()
    assert run is not None and run.complete and run.system == PLAYER_SYSTEM
    assert run.system_config["player"] == PLAYER and run.metrics["diagnosis_accuracy"] == 100
    play.stopped()
    assert play.ended(run), "a finished consultation's autosave goes"
    play.remove_swap()
    assert not due[0].exists() and play.result == run
    due[1].save(due[0])  # a write still under way when the consultation ended
    play.swap_landed(due[0])
    assert not due[0].exists()
    assert play.state is SessionState.IDLE and not play.live


def test_a_left_consultation_is_resumed_from_its_autosave(bank):
    play, player = PlaySession(bank.run_store), Player()
    start = started(play, bank, player)
    assert start is not None
    playing = Playing(play, start, play.begin(start, PLAYER))
    player.next("shown")
    play.opened()
    ask(play, player, "When did it start?")
    due = play.swap_to_write()
    assert due is not None
    due[1].save(due[0])
    play.swap_landed(due[0])
    assert due[0].exists(), "the consultation goes on: its autosave stays"
    play.leave()
    assert playing.end() is None, "cancelled: recorded incomplete, no run to show"
    assert play.state is SessionState.IDLE and due[0].exists()

    again, player = PlaySession(bank.run_store), Player(resume="recover")
    resumed = started(again, bank, player)
    assert resumed is not None and resumed.resumed and resumed.group.id == start.group.id
    assert player.asked == [f"resume {CASE} after 1"] and resumed.desk.replaying
    playing = Playing(again, resumed, again.begin(resumed, PLAYER))
    assert again.state is SessionState.REPLAYING
    player.next("shown")
    again.opened()
    assert again.state is SessionState.REPLAYING, "the opening words do not end the replay"
    text, replayed = player.next("asked")
    assert (text, replayed) == ("When did it start?", True)
    again.asked(text, replayed=replayed)
    player.next("shown")
    reply = again.replied()
    assert reply.resumed and reply.asking and again.state is SessionState.ASKING
    assert again.swap is not None and again.swap.questions == ["When did it start?"], "not asked twice"
    again.abandon()
    run = playing.end()
    assert run is not None and not run.complete and again.ended(run)


def test_an_autosave_of_an_earlier_version_is_dropped_and_going_back_starts_nothing(bank):
    play = PlaySession(bank.run_store)
    stale = SessionSwap(case_id=CASE, case_path=f"{CASE}.yaml", case_sha256="earlier", player=PLAYER,
                        simulator="grounded", group_id="gone", questions=["When did it start?"])
    path = play.swap_file(PLAYER, CASE)
    stale.save(path)
    player = Player()
    start = started(play, bank, player)
    assert start is not None and not start.resumed and player.asked == [f"dropped {CASE}"]
    assert not path.exists()

    current = stale.model_copy(update={"case_sha256": start.plan.cases[0].sha256})
    current.save(path)
    player = Player(resume="cancel")
    assert started(play, bank, player) is None and path.exists()
    player = Player(resume="discard")
    start = started(play, bank, player)
    assert start is not None and not start.resumed and not path.exists()


def test_a_case_played_before_is_played_again_only_when_the_player_says_so(bank):
    play = PlaySession(bank.run_store)
    play.played = {CASE: CaseProgress(CASE, [])}
    player = Player(again=False)
    assert started(play, bank, player) is None and player.asked == [f"again {CASE}"]


def test_after_a_case_comes_the_next_one_not_played(bank):
    from medbench_tui.core.authoring.library import read_entry

    play = PlaySession(bank.run_store)
    offered = [read_entry(path, bank.index) for path in sorted(bank.cases_folder.glob("fx-*.yaml"))]
    ids = [e.id for e in sorted(offered, key=lambda e: e.practice)]
    assert play.case_after(offered, ids[0]) == ids[1]
    play.played = {ids[1]: CaseProgress(ids[1], [])}
    assert play.case_after(offered, ids[0]) == ids[1], "every other case played: the next one"
    assert play.case_after(offered, "no-such-case") is None

"""The play screen's consultations, apart from the screen: starting one (or resuming it
from its autosave), where it stands as the player asks and the patient answers, its
autosave, and its end (the stored run, scored by the runner).

The screen holds one :class:`PlaySession` and does the showing, the asking (through
:class:`PlayerQuestions`) and the threads; a test drives a consultation without it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from medbench_tui.core.practice.session import (
    ABANDONED,
    PLAYER_SYSTEM,
    Abandon,
    Desk,
    Finish,
    Player,
    SessionState,
    SessionSwap,
    TurnCount,
    case_plan,
)
from medbench_tui.core.runs.background import BackgroundRun
from medbench_tui.core.runs.store import RunStore

if TYPE_CHECKING:
    from medbench_tui.core.authoring.library import CaseEntry
    from medbench_tui.core.cases.bank import Bank
    from medbench_tui.core.cases.model import Case
    from medbench_tui.core.practice.progress import CaseProgress
    from medbench_tui.core.runs.runner import PlannedCase, RunPlan
    from medbench_tui.core.runs.store import RunGroup, RunRecord
    from medbench_tui.core.settings import RunnerSettings
    from medbench_tui.core.transcript import FinalResponse


class PlayerQuestions(Protocol):
    """What starting a consultation asks the player, or tells them (the screen's dialogs)."""

    async def resume_unfinished(self, case_id: str, swap: SessionSwap) -> str:
        """``recover`` the unfinished consultation, ``discard`` it, or ``cancel`` (go back)."""
        ...

    async def play_again(self, case_id: str, played: CaseProgress) -> bool:
        """Whether to play a case played before again."""
        ...

    def unfinished_dropped(self, case_id: str) -> None:
        """The case changed since its unfinished consultation, which starts afresh."""
        ...


@dataclass(frozen=True)
class Start:
    """A consultation ready to begin: its plan and run group, and its autosave."""

    path: Path
    plan: RunPlan
    group: RunGroup
    desk: Desk
    swap: SessionSwap
    resumed: bool


class WentBack:
    """The player went back instead of choosing."""


@dataclass(frozen=True)
class Reply:
    """What a reply of the patient means for the player's turn (neither: questions of the
    resumed consultation are still being asked again, or the consultation ended)."""

    resumed: bool
    """The last question asked again was answered: the consultation is where the player left it."""
    asking: bool
    """The player's turn: the consultation goes on (its autosave is due)."""


class PlaySession:
    """The player's consultations at the play screen, one at a time, in the bank's run store."""

    def __init__(self, run_store: Path, *, moved: Callable[[], None] = lambda: None) -> None:
        self.run_store = run_store
        self._moved = moved
        self._state = SessionState.IDLE
        self._store: RunStore | None = None
        self.case: Case | None = None
        self.case_path: Path | None = None
        self.desk: Desk | None = None
        self.swap: SessionSwap | None = None
        self.swap_path: Path | None = None
        self._saved: SessionSwap | None = None
        """The autosave as last written (the timer writes only what differs)."""
        self.steps = 0
        self.result: RunRecord | None = None
        """The stored run of the last consultation that ended."""
        self.background: BackgroundRun | None = None
        self._ended: set[Path] = set()
        """Autosaves of consultations that ended: a write still under way is removed when it lands."""
        self.played: dict[str, CaseProgress] = {}
        """The player's practice, by case."""

    @property
    def state(self) -> SessionState:
        """Where the consultation stands (``moved`` is told of each change)."""
        return self._state

    @state.setter
    def state(self, state: SessionState) -> None:
        if state is not self._state:
            self._state = state
            self._moved()

    @property
    def live(self) -> bool:
        """A consultation is going on."""
        return self._state.live

    @property
    def waiting(self) -> bool:
        """The player waits for the patient (no question can be asked now)."""
        return self._state in (SessionState.OPENING, SessionState.WAITING, SessionState.REPLAYING)

    @property
    def store(self) -> RunStore:
        """The bank's run store, opened on first use."""
        if self._store is None:
            self._store = RunStore(self.run_store)
        return self._store

    def swap_file(self, player: str, case_id: str) -> Path:
        """Where ``player``'s unfinished consultation of the case is autosaved."""
        from medbench_tui.core.paths import play_swap_file

        return play_swap_file(self.run_store, player, case_id)

    # Starting -------------------------------------------------------------------------------

    async def start(self, bank: Bank, path: Path, simulator: str, player_name: str, desk: Desk,
                    questions: PlayerQuestions) -> Start | None:
        """Plan the consultation of the case at ``path``: resumed from its autosave, or afresh
        (a case played before only when the player says so). None: the player went back.
        MedbenchError when the case cannot be played."""
        player = Player(player_name, desk)
        store = self.store
        plan = await asyncio.to_thread(case_plan, bank, path, simulator, player)
        planned = plan.cases[0]
        swap = await self._unfinished(player_name, planned, questions)
        if isinstance(swap, WentBack):
            return None
        played = self.played.get(planned.id)
        if swap is None and played is not None and not await questions.play_again(planned.id, played):
            return None
        if swap is not None and swap.simulator != plan.simulator:
            plan = await asyncio.to_thread(case_plan, bank, path, swap.simulator, player)
        group, plan = await asyncio.to_thread(session_group, store, plan, player_name, swap)
        resumed = swap is not None
        if swap is not None:
            desk.resume(swap.questions)
        planned = plan.cases[0]
        swap = swap or SessionSwap(
            case_id=planned.id, case_path=planned.stored_path, case_sha256=planned.sha256,
            player=player_name, simulator=plan.simulator, group_id=group.id,
        )
        swap.group_id = group.id
        swap.repeat = plan.first_repeat if group.practice else None
        return Start(path, plan, group, desk, swap, resumed)

    async def _unfinished(self, player: str, planned: PlannedCase,
                          questions: PlayerQuestions) -> SessionSwap | WentBack | None:
        """The unfinished consultation of the case to resume (None: start afresh). One of an
        earlier version of the case is dropped."""
        path = self.swap_file(player, planned.id)
        swap = await asyncio.to_thread(SessionSwap.load, path)
        if swap is None:
            return None
        if swap.case_sha256 != planned.sha256:
            questions.unfinished_dropped(planned.id)
            path.unlink(missing_ok=True)
            return None
        answer = await questions.resume_unfinished(planned.id, swap)
        if answer == "recover":
            return swap
        if answer == "discard":
            path.unlink(missing_ok=True)
            return None
        return WentBack()

    def begin(self, start: Start, player: str) -> BackgroundRun:
        """The consultation planned by ``start`` is the one going on; the background run it is
        played in (see :meth:`consult`)."""
        planned = start.plan.cases[0]
        self.case, self.case_path = planned.case, start.path
        self.desk, self.swap = start.desk, start.swap
        self.swap_path = self.swap_file(player, planned.id)
        self._ended.discard(self.swap_path)
        self.steps, self._saved = 0, None
        self.state = SessionState.REPLAYING if start.resumed else SessionState.OPENING
        self.result = None
        self.background = BackgroundRun()
        return self.background

    def consult(self, background: BackgroundRun, plan: RunPlan, group: RunGroup,
                settings: RunnerSettings) -> RunRecord | None:
        """Play the consultation with the runner (blocks: a worker thread); its stored run,
        None when it was cancelled or its run is not in the store."""
        from medbench_tui.core.runs.retry import RetryPolicy
        from medbench_tui.core.runs.runner import Runner

        runner = Runner(
            self.store, plan, group=group, concurrency=1,
            endpoint_concurrency=settings.endpoint_concurrency, retry=RetryPolicy.from_settings(settings),
            collect_less=False,  # the screen draws beside it: short collections
        )
        background.play(runner)
        if background.cancelled:
            return None
        return self.store.find_run(group.id, plan.cases[0].id, PLAYER_SYSTEM, plan.first_repeat)

    def is_case(self, path: Path) -> bool:
        """Whether the consultation going on is of the case at ``path``."""
        return self.case_path is not None and path.resolve() == self.case_path.resolve()

    # The player's turns ---------------------------------------------------------------------

    def opened(self) -> None:
        """The patient's opening words arrived."""
        if self._state is SessionState.OPENING:
            self.state = SessionState.ASKING

    def asked(self, text: str, *, replayed: bool) -> None:
        """A question went to the patient (``replayed``: one of a resumed consultation)."""
        self.state = SessionState.REPLAYING if replayed else SessionState.WAITING
        if not replayed and self.swap is not None:
            self.swap.questions.append(text)

    def replied(self) -> Reply:
        """The patient answered: the player's turn again, unless questions are being asked again."""
        self.steps += 1
        resumed = self._state is SessionState.REPLAYING
        if resumed and self.desk is not None and self.desk.replaying:
            return Reply(resumed=False, asking=False)
        asking = self._state.live
        if asking:
            self.state = SessionState.ASKING
        return Reply(resumed=resumed, asking=asking)

    @property
    def out_of_turns(self) -> bool:
        """The case allows no more questions."""
        return self.case is not None and self.steps >= self.case.max_turns

    @property
    def turns(self) -> TurnCount | None:
        return TurnCount(self.steps, self.case.num_steps, self.case.max_turns) if self.case is not None else None

    def ask(self, text: str) -> None:
        """The player asks ``text`` (only in their turn)."""
        assert self.desk is not None
        self.state = SessionState.WAITING
        self.desk.act(text)

    def finish(self, final: FinalResponse, notes: str) -> None:
        """The player gives the final response (their notes go into the transcript)."""
        assert self.desk is not None
        self.desk.act(Finish(final, notes))

    def abandon(self) -> None:
        """The consultation ends without a final response (recorded incomplete, never scored)."""
        if self.desk is not None:
            self.desk.act(Abandon())

    # The end ----------------------------------------------------------------------------------

    def stopped(self) -> None:
        """No consultation goes on any more (it ended, failed or was left)."""
        self.state, self.desk, self.background = SessionState.IDLE, None, None

    def ended(self, run: RunRecord) -> bool:
        """The consultation ended with ``run`` stored; whether its autosave goes (a finished or
        abandoned consultation is never resumed)."""
        self.result = run
        return run.complete or run.reason == ABANDONED

    def leave(self) -> None:
        """Stop the consultation; it is recorded incomplete (cancelled) and its autosave stays."""
        if self.background is not None:
            self.background.cancel()
            self.background = None
        self.state = SessionState.IDLE
        self.desk = None

    # The autosave -----------------------------------------------------------------------------

    def keep(self, notes: str, draft: FinalResponse) -> None:
        """The player's notes and the final response being written go into the autosave."""
        if self.swap is not None:
            self.swap.notes = notes
            self.swap.draft = draft if draft.is_structured() or draft.advice else None

    @property
    def autosave_due(self) -> bool:
        """The notes or the draft changed since the autosave was last written."""
        return self._state in (SessionState.ASKING, SessionState.WAITING) and self.swap != self._saved

    def swap_to_write(self) -> tuple[Path, SessionSwap] | None:
        """The autosave to write now, and where (None: no consultation); it counts as written."""
        if self.swap is None or self.swap_path is None:
            return None
        self._saved = self.swap.model_copy(deep=True)
        return self.swap_path, self._saved.model_copy(deep=True)

    def swap_landed(self, path: Path) -> None:
        """An autosave write landed: one of a consultation that ended meanwhile goes."""
        if path in self._ended:
            path.unlink(missing_ok=True)

    def remove_swap(self) -> None:
        """The consultation's autosave goes (OSError when it cannot be removed)."""
        swap_path, self.swap = self.swap_path, None
        if swap_path is not None:
            self._ended.add(swap_path)
            swap_path.unlink(missing_ok=True)

    # Picking the next case ------------------------------------------------------------------------

    def case_after(self, offered: list[CaseEntry], case_id: str) -> str | None:
        """The case after ``case_id`` in the list (in label order) that has not been played, else
        the next one."""
        entries = sorted((e for e in offered if not e.errors), key=lambda e: e.practice)
        ids = [e.id for e in entries]
        if case_id not in ids:
            return None
        after = ids[ids.index(case_id) + 1:] + ids[: ids.index(case_id)]
        return next((i for i in after if i not in self.played), after[0] if after else None)

    def progress(self, player: str) -> list[CaseProgress]:
        """The player's practice in the run store (reads it: a worker thread)."""
        from medbench_tui.core.practice.progress import progress

        return progress(self.store, player)


def session_group(store: RunStore, plan: RunPlan, player: str,
                  swap: SessionSwap | None) -> tuple[RunGroup, RunPlan]:
    """The group a consultation plays into, and its plan there: the player's practice group
    (the next session of the case, or the one resumed); a consultation resumed from before
    practice groups goes on in its own group."""
    from medbench_tui.core.errors import MedbenchError
    from medbench_tui.core.practice.progress import open_practice_group, session_plan

    if swap is not None:
        try:
            group = store.group(swap.group_id)
        except MedbenchError:
            pass  # the group was deleted: the consultation goes on in the practice group
        else:
            return (group, session_plan(store, group, plan, swap.repeat)) if group.practice else (group, plan)
    group = open_practice_group(store, plan, player)
    return group, session_plan(store, group, plan, None)

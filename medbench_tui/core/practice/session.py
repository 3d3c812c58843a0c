"""A play session: the person at the keyboard consults one case (no widgets here).

The session is played by the batch runner like any system, so that it is recorded,
scored and stored exactly as the runs it will be compared with: one run of the system
``human`` (the player's name is in its configuration) in the player's practice group,
which gathers every case the player has played (see :mod:`.progress`). The group's
configuration carries ``play: {player, practice}``.

While it lasts, the session is kept in an autosave (:func:`paths.play_swap_file`): the
questions asked, the player's notes and the final response being written. Reopening the
case offers to resume: the questions are asked again of a fresh patient (the grounded
patient answers them as before) and the run continues in the same group, where the
runner replaces the incomplete run it recorded when the session was left.
"""

from __future__ import annotations

import asyncio
import math
import re
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field, ValidationError

from medbench_tui.core.jsondata import JSONObject
from medbench_tui.core.systems.human import HumanSystem
from medbench_tui.core.transcript import FinalDiagnosis, FinalResponse

if TYPE_CHECKING:
    from medbench_tui.core.cases.bank import Bank
    from medbench_tui.core.consultation.loop import Consultation, DoctorView
    from medbench_tui.core.runs.runner import RunPlan
    from medbench_tui.core.runs.store import RunRecord, RunStore
    from medbench_tui.core.simulators import PatientReply

PLAYER_SYSTEM = "human"
ABANDONED = "abandoned by the player"
_CODE = r"[A-Za-z]\d{2}(?:\.?\d{1,2})?"
_CODE_IN_BRACKETS = re.compile(rf"^(?P<name>.*?)\s*[\(\[](?P<code>{_CODE})[\)\]]\s*$")
_BARE_CODE = re.compile(rf"^{_CODE}$")
_CODE_AFTER = re.compile(r"^(?P<name>.*?\w)[\s,:;\u2013-]+(?P<code>[A-Za-z]\d{2}\.\d{1,2})\s*$")
"""A code written after the name without brackets ("Bronchiolitis J21.9", "Bronchiolitis - J21.9"): only with its
dot, so a name that ends like a category ("deficiency of vitamin B12") keeps its words."""


@dataclass(frozen=True)
class Finish:
    final: FinalResponse
    notes: str = ""


@dataclass(frozen=True)
class Abandon:
    reason: str = ABANDONED


Action = str | Finish | Abandon
"""What the player does next: ask a question, give the final response, or stop."""


class SessionState(Enum):
    """Where a play session stands."""

    IDLE = "idle"
    """No consultation: none was started, or it ended."""
    OPENING = "opening"
    """Started: the patient's opening words are on their way."""
    REPLAYING = "replaying"
    """Resumed: the questions of the earlier session are being asked again."""
    ASKING = "asking"
    """The player's turn: a question, or the final response."""
    WAITING = "waiting"
    """The patient is answering the player's question."""

    @property
    def live(self) -> bool:
        return self is not SessionState.IDLE


class Desk:
    """Between the player and the consultation: the human system's doctor callable
    takes the player's actions from a queue (first the questions of a resumed session),
    and what the consultation shows goes back through the callbacks.

    The consultation runs on a loop of its own in a worker thread; :meth:`act` is
    called from the screen's thread and hands the action over to that loop."""

    def __init__(
        self,
        *,
        asked: Callable[[str, bool], None],
        shown: Callable[[DoctorView | PatientReply], None],
        streamed: Callable[[str], None],
    ) -> None:
        self._actions: asyncio.Queue[Action] = asyncio.Queue()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._replay: deque[str] = deque()
        self._asked = asked
        self.shown = shown
        self.streamed = streamed

    @property
    def replaying(self) -> bool:
        return bool(self._replay)

    def resume(self, questions: list[str]) -> None:
        """Ask these questions of the patient first (a resumed session)."""
        self._replay.extend(questions)

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """The loop the consultation runs on (before it shows anything)."""
        self._loop = loop

    def act(self, action: Action) -> None:
        if self._loop is None:
            self._actions.put_nowait(action)
        else:
            self._loop.call_soon_threadsafe(self._actions.put_nowait, action)

    async def doctor(self, consultation: Consultation) -> str | FinalResponse | None:
        replayed = bool(self._replay)
        action = self._replay.popleft() if replayed else await self._actions.get()
        if isinstance(action, str):
            self._asked(action, replayed)
            return action
        if isinstance(action, Finish):
            if action.notes.strip():
                consultation.transcript.player_notes = action.notes
            return action.final
        consultation.abandon(action.reason)
        return None


class Player(HumanSystem):
    """The person at the keyboard; their name goes into the run's configuration."""

    def __init__(self, player: str, desk: Desk) -> None:
        super().__init__(desk.doctor, show=desk.shown, on_text=desk.streamed, name=PLAYER_SYSTEM)
        self.player = player
        self.desk = desk

    def public_config(self) -> JSONObject:
        return {**super().public_config(), "player": self.player}

    async def drive(self, consultation: Consultation) -> None:
        self.desk.bind(asyncio.get_running_loop())
        await super().drive(consultation)


def case_plan(bank: Bank, case_path: Path, simulator: str, player: Player) -> RunPlan:
    """The runner's plan for one case played by ``player``: the case validated and
    hashed, the simulator and the evaluator resolved from the bank."""
    from medbench_tui.core.runs.runner import plan_run

    return plan_run(bank, [player], cases=case_path, simulator=simulator)


def group_config(plan: RunPlan, player: str) -> JSONObject:
    """The configuration of a play session's run group."""
    return {**plan.config(), "play": {"player": player}}


def player_of(run: RunRecord) -> str | None:
    """The player of a stored ``human`` run (None for any other run)."""
    if run.system != PLAYER_SYSTEM:
        return None
    return run.system_config.get("player")


def latest_played_runs(store: RunStore, case_ids: list[str], player: str) -> dict[str, RunRecord]:
    """The player's latest complete run of each case that has one (full records)."""
    found = {}
    for case_id in case_ids:
        mine = [r for r in store.case_runs(case_id, full=True) if r.complete and player_of(r) == player]
        if mine:
            found[case_id] = mine[-1]
    return found


# --- the autosave ---------------------------------------------------------------------


class SessionSwap(BaseModel):
    """An unfinished play session, as its autosave file holds it."""

    case_id: str
    case_path: str
    case_sha256: str
    player: str
    simulator: str
    group_id: str
    repeat: int | None = None
    """The session's repeat in the practice group (None: a session group of its own, from before)."""
    questions: list[str] = Field(default_factory=list)
    notes: str = ""
    draft: FinalResponse | None = None

    def save(self, path: Path) -> None:
        from medbench_tui.core.files import write_atomic

        write_atomic(path, self.model_dump_json(indent=2, exclude_none=True) + "\n", backup=False)

    @classmethod
    def load(cls, path: Path) -> SessionSwap | None:
        """The autosave at ``path``; None when there is none or it cannot be read."""
        try:
            return cls.model_validate_json(path.read_text(encoding="utf-8"))
        except (OSError, ValueError, ValidationError):
            return None


# --- what the player sees ---------------------------------------------------------------


@dataclass(frozen=True)
class TurnCount:
    """Questions asked against the case's target (num_steps ± 25%) and its limit."""

    steps: int
    num_steps: int | None
    max_turns: int

    @property
    def soft_range(self) -> tuple[int, int] | None:
        """The fewest and most steps inside the soft range (as scoring draws it)."""
        from medbench_tui.core.scoring.constants import SOFT_RANGE_HIGH, SOFT_RANGE_LOW

        if self.num_steps is None:
            return None
        return math.ceil(SOFT_RANGE_LOW * self.num_steps), math.floor(SOFT_RANGE_HIGH * self.num_steps)

    @property
    def left(self) -> int:
        return max(0, self.max_turns - self.steps)

    @property
    def where(self) -> str:
        """``below``, ``within`` or ``above`` the soft range (``within`` when there is none)."""
        from medbench_tui.core.scoring.metrics import outside_soft_range

        if not outside_soft_range(self.steps, self.num_steps):
            return "within"
        return "below" if self.steps < (self.num_steps or 0) else "above"


def parse_diagnosis(text: str) -> FinalDiagnosis | None:
    """A diagnosis as typed: ``Name``, ``Name (J18.1)``, ``Name J18.1``, or a bare WHO code (its title
    becomes the name). Codes are kept as typed, normalised; scoring judges them."""
    from medbench_tui.core import icd10

    text = " ".join(text.split())
    if not text:
        return None
    if _BARE_CODE.match(text):
        code = icd10.normalise_code(text)
        return FinalDiagnosis(name=icd10.title(code) or code, icd10=code)
    match = _CODE_IN_BRACKETS.match(text) or _CODE_AFTER.match(text)
    if match and match["name"]:
        return FinalDiagnosis(name=match["name"], icd10=icd10.normalise_code(match["code"]))
    return FinalDiagnosis(name=text)

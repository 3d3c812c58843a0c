"""A player's practice, gathered: one run group per player (the practice group) holds every
case the player has played, each session a run of the system ``human`` (the n-th session of
a case is its n-th repeat). ``medbench report`` on it shows every case played, and the Play
screen's progress view shows each case's scores over time.

Sessions played before practice groups existed were each a group of their own; the first
time a player's practice group is made, their sessions are copied into it (the old groups
stay as they are).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from medbench_tui.core.jsondata import JSONObject
from medbench_tui.core.practice.session import PLAYER_SYSTEM, group_config

if TYPE_CHECKING:
    from medbench_tui.core.runs.runner import PlannedCase, RunPlan
    from medbench_tui.core.runs.store import RunGroup, RunRecord, RunStore

SCORES = {
    "diagnosis_accuracy": "Diagnosis",
    "workup_score": "Workup",
    "treatment_accuracy": "Treatment",
    "critical_conditions_passed": "Safety",
    "question_coverage": "History",
}
"""The scores a session is followed by over time (the scorecard's D.O.T.S. and history)."""


def _is_practice_of(group: RunGroup, player: str) -> bool:
    return group.practice and group.config["play"].get("player") == player


def _is_session_of(group: RunGroup, player: str) -> bool:
    """A play session of the player's from before practice groups (a group of its own)."""
    play = group.config.get("play")
    return isinstance(play, dict) and not group.practice and play.get("player") == player


def practice_group(store: RunStore, player: str) -> RunGroup | None:
    """The player's practice group in this store, if they have played here."""
    return next((g for g in store.groups() if _is_practice_of(g, player)), None)


def open_practice_group(store: RunStore, plan: RunPlan, player: str) -> RunGroup:
    """The player's practice group, made (with their earlier sessions copied in) on first use."""
    found = practice_group(store, player)
    if found is not None:
        return found
    config = {**group_config(plan, player), "play": {"player": player, "practice": True}, "cases": []}
    group = store.create_group(config, plan.seed)
    earlier = [run for g in store.groups() if _is_session_of(g, player) for run in store.runs(g.id, full=True)]
    played: dict[str, int] = {}
    for run in sorted(earlier, key=lambda r: (r.started_at, r.id or 0)):
        repeat = played.get(run.case_id, 0)
        played[run.case_id] = repeat + 1
        store.record(replace(run, group_id=group.id, id=None, repeat=repeat))
    cases = {run.case_id: {"id": run.case_id, "path": run.case_path, "sha256": run.case_sha256} for run in earlier}
    if cases:
        store.update_group_config(group.id, {**config, "cases": list(cases.values())})
    return store.group(group.id)


def session_plan(store: RunStore, group: RunGroup, plan: RunPlan, repeat: int | None) -> RunPlan:
    """``plan`` (one case) as the next session of its case in the practice group ``group``
    (``repeat``: the session to resume, else the next one); the case joins the group's list."""
    from medbench_tui.core.cases.casemix import case_facts

    planned: PlannedCase = plan.cases[0]
    if repeat is None:
        runs = [r for r in store.runs(group.id, system=PLAYER_SYSTEM) if r.case_id == planned.id]
        repeat = max((r.repeat + 1 for r in runs), default=0)
    entry = {"id": planned.id, "path": planned.stored_path, "sha256": planned.sha256,
             "metadata": case_facts(planned.case)}
    cases = [c for c in group.config.get("cases", []) if c.get("id") != planned.id] + [entry]
    store.update_group_config(group.id, {**group.config, "cases": cases})
    return replace(plan, repeats=repeat + 1, first_repeat=repeat)


@dataclass(frozen=True)
class Session:
    """One consultation of a case by the player."""

    case_id: str
    number: int
    """The n-th session of this case (from 1)."""
    started_at: str
    complete: bool
    reason: str | None
    steps: int
    scores: dict[str, float]

    @classmethod
    def of(cls, run: RunRecord) -> Session:
        scores = {name: run.metrics[name] for name in SCORES if name in run.metrics} if run.complete else {}
        return cls(run.case_id, run.repeat_number, run.started_at, run.complete, run.reason, run.steps, scores)


@dataclass(frozen=True)
class CaseProgress:
    """Every session of one case, oldest first."""

    case_id: str
    sessions: list[Session]

    @property
    def scored(self) -> list[Session]:
        return [s for s in self.sessions if s.complete]

    def trend(self, score: str) -> list[float]:
        """The score in each complete session, oldest first."""
        return [s.scores[score] for s in self.scored if score in s.scores]

    @property
    def last_played(self) -> str:
        return self.sessions[-1].started_at


def progress(store: RunStore, player: str) -> list[CaseProgress]:
    """Each case the player has played, with its sessions; the case played last first."""
    group = practice_group(store, player)
    if group is None:
        return []
    by_case: dict[str, list[Session]] = {}
    for run in sorted(store.runs(group.id, system=PLAYER_SYSTEM), key=lambda r: (r.started_at, r.repeat)):
        by_case.setdefault(run.case_id, []).append(Session.of(run))
    found = [CaseProgress(case_id, sessions) for case_id, sessions in by_case.items()]
    return sorted(found, key=lambda c: c.last_played, reverse=True)


def sessions_over_time(found: list[CaseProgress]) -> list[Session]:
    """Every session of every case, oldest first."""
    return sorted((s for case in found for s in case.sessions), key=lambda s: s.started_at)


def shown_trend(values: list[float]) -> str:
    """``40 → 75 → 90`` (the last few, oldest first), or ``–`` when never scored."""
    if not values:
        return "–"
    shown = [f"{v:.0f}" for v in values[-4:]]
    return ("… → " if len(values) > 4 else "") + " → ".join(shown)


def summary(found: list[CaseProgress]) -> JSONObject:
    """Counts for a heading: cases, sessions, complete sessions."""
    every = [s for case in found for s in case.sessions]
    return {"cases": len(found), "sessions": len(every), "complete": sum(1 for s in every if s.complete)}

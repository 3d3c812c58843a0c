"""``replay:PATH``: the doctor turns and final response of recorded transcripts, played
again against our patient, so other tools' outputs can be re-scored.

PATH is one transcript file (its ``case_id`` must match), or a folder holding
``<case-id>.yaml``, ``.yml`` or ``.json``. Patient replies (and so disclosed facts
and attachment releases) come from this run's simulator, not from the recording.
A case without a transcript with a final response cannot be replayed: planning leaves
it out (:meth:`ReplaySystem.cannot_play`) rather than recording a run that cannot end.
"""

from __future__ import annotations

from pathlib import Path

from medbench_tui.core.consultation.loop import Consultation
from medbench_tui.core.jsondata import JSONObject
from medbench_tui.core.systems.base import DrivenSystem
from medbench_tui.core.transcript import Transcript, load_transcript

SUFFIXES = (".yaml", ".yml", ".json")


class ReplaySystem(DrivenSystem):
    def __init__(self, path: Path, *, name: str | None = None) -> None:
        self.path = Path(path)
        self.name = name or f"replay:{path}"

    def public_config(self) -> JSONObject:
        return {"name": self.name, "kind": "replay", "path": str(self.path.resolve())}

    def cannot_play(self, case_id: str) -> str | None:
        from medbench_tui.core.errors import MedbenchError

        try:
            recorded = self.recording(case_id)
        except (MedbenchError, OSError, ValueError) as exc:
            return f"cannot read its transcript ({exc})"
        if recorded is None:
            return "has no transcript"
        if recorded.final is None:
            return "has a transcript without a final response"
        return None

    def recording(self, case_id: str) -> Transcript | None:
        if self.path.is_file():
            recorded = load_transcript(self.path)
            return recorded if recorded.case_id == case_id else None
        for suffix in SUFFIXES:
            candidate = self.path / f"{case_id}{suffix}"
            if candidate.is_file():
                return load_transcript(candidate)
        return None

    async def drive(self, consultation: Consultation) -> None:
        case_id = consultation.case.id
        recorded = self.recording(case_id)
        if recorded is None:
            consultation.abandon(f"replay: no transcript for case {case_id} in {self.path}")
            return
        for turn in recorded.turns:
            if turn.role == "doctor":
                await consultation.ask(turn.text)
                await self.give_way()
        if recorded.final is None:
            consultation.abandon(
                f"replay: the recorded run has no final response ({recorded.reason or recorded.status})"
            )
            return
        consultation.finish(recorded.final)

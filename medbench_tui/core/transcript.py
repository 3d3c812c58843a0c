"""The transcript of one consultation: what runs store and what scoring reads.

The shape is the contract's (``shared/spec/cli.md``), plus events, timings and usage.
Transcripts written by other tools are read leniently (extra keys are kept), because
the point of ``replay`` and ``score`` is to re-score other people's outputs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

Role = Literal["doctor", "patient"]
RunStatus = Literal["complete", "incomplete"]


class Lenient(BaseModel):
    model_config = ConfigDict(extra="allow")


class Turn(Lenient):
    role: Role
    text: str
    facts: list[str] = Field(default_factory=list)
    """Ids of the case facts (``additional_answers``) this patient turn disclosed."""
    seconds: float | None = None
    """How long producing this turn took."""


class Event(Lenient):
    """Something that happened at a turn: an attachment released, a reply replaced, an error."""

    turn: int
    kind: str
    attachment: str | None = None
    reason: str | None = None
    detail: dict[str, Any] = Field(default_factory=dict)


class FinalDiagnosis(Lenient):
    name: str
    icd10: str | None = None


def _names_to_diagnoses(value: Any) -> Any:
    if isinstance(value, list):
        return [{"name": v} if isinstance(v, str) else v for v in value]
    return value


class FinalResponse(Lenient):
    """The doctor's final answer: free text, structured fields, or both."""

    text: str | None = None
    diagnoses: list[FinalDiagnosis] = Field(default_factory=list)
    differential: list[FinalDiagnosis] = Field(default_factory=list)
    workup: list[str] = Field(default_factory=list)
    treatment: list[str] = Field(default_factory=list)
    advice: str | None = None

    _accept_names = field_validator("diagnoses", "differential", mode="before")(
        staticmethod(_names_to_diagnoses)
    )

    def is_structured(self) -> bool:
        return bool(self.diagnoses or self.differential or self.workup or self.treatment)


class Usage(Lenient):
    prompt_tokens: int = 0
    completion_tokens: int = 0
    requests: int | None = None
    """Requests made (None: not counted, as in transcripts written by other tools)."""


class Transcript(Lenient):
    case_id: str
    system: str = "human"
    turns: list[Turn] = Field(default_factory=list)
    events: list[Event] = Field(default_factory=list)
    final: FinalResponse | None = None
    status: RunStatus = "complete"
    reason: str | None = None
    """Why the run is incomplete (``turn_limit``, an endpoint error, ``cancelled``)."""
    timings: dict[str, float] = Field(default_factory=dict)
    usage: Usage = Field(default_factory=Usage)
    """The doctor's (the system under test's) tokens."""
    simulator: str | None = None
    """The patient simulator that answered (``grounded``, or a name from medbench.yaml)."""
    simulator_usage: Usage | None = None
    """The patient simulator's tokens, when it called a model."""
    player_notes: str | None = None
    """The notes a person kept while playing the doctor."""

    @property
    def steps(self) -> int:
        """Completed turn pairs: doctor messages that got a patient reply."""
        pairs = 0
        waiting = False
        for turn in self.turns:
            if turn.role == "doctor":
                waiting = True
            elif waiting:
                pairs += 1
                waiting = False
        return pairs

    def disclosed_facts(self) -> set[str]:
        return {f for t in self.turns if t.role == "patient" for f in t.facts}


def load_transcript(path: Path) -> Transcript:
    """Read a transcript from YAML or JSON (by suffix; YAML is a superset anyway)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix.lower() == ".json":
        import json

        data = json.loads(text)
    else:
        from ruamel.yaml import YAML

        data = YAML(typ="safe", pure=True).load(text)
    return Transcript.model_validate(data)


def dump_transcript(transcript: Transcript, path: Path) -> None:
    """Write JSON when the path ends in ``.json``, else YAML (the ``--transcript`` rule)."""
    data = transcript.model_dump(mode="json", exclude_none=True)
    if path.suffix.lower() == ".json":
        import json

        text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    else:
        import io

        from ruamel.yaml import YAML

        yaml = YAML()
        yaml.default_flow_style = False
        yaml.width = 4096
        buf = io.StringIO()
        yaml.dump(data, buf)
        text = buf.getvalue()
    from medbench_tui.core.files import write_atomic

    write_atomic(path, text, backup=False)

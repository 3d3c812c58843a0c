"""The transcript of one consultation: what runs store and what scoring reads.

The shape is the contract's (``shared/spec/cli.md``), plus events, timings and usage.
Transcripts written by other tools are read leniently (extra keys are kept), because
the point of ``replay`` and ``score`` is to re-score other people's outputs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from medbench_tui.core.jsondata import JSONObject, JSONValue

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
    confidence: float | None = None
    """A patient turn: how sure the simulated patient was that it answers what was asked (0-1;
    below 0.8 it said its doubt aloud). None in transcripts written before it was recorded."""


class Event(Lenient):
    """Something that happened at a turn: an attachment released, a reply replaced, an error."""

    turn: int
    kind: str
    attachment: str | None = None
    reason: str | None = None
    detail: JSONObject = Field(default_factory=dict)


class FinalDiagnosis(Lenient):
    name: str
    icd10: str | None = None


def _names_to_diagnoses(value: JSONValue) -> JSONValue:
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
    """Read a transcript from YAML or JSON (by suffix; YAML is a superset anyway).

    Anything wrong is a :class:`MedbenchError` that names the file, the line and the
    problem (a replayed run stores it as its reason, ``score`` prints it).
    """
    from medbench_tui.core.errors import MedbenchError
    from medbench_tui.core.files import read_regular_bytes

    path = Path(path)
    try:
        text = read_regular_bytes(path).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MedbenchError(f"{path}: the transcript is not UTF-8 text (byte {exc.start + 1}): "
                            "save it as UTF-8") from None
    except OSError as exc:
        raise MedbenchError(f"{path}: cannot read the transcript: {exc.strerror or exc}") from None
    try:
        return Transcript.model_validate(_parse(path, text))
    except RecursionError:
        raise MedbenchError(f"{path}: nested too deeply to be a transcript") from None
    except ValidationError as exc:
        raise MedbenchError(_invalid(path, text, exc)) from None


def _parse(path: Path, text: str) -> JSONValue:
    import json

    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    from medbench_tui.core.cases.yamlio import alias_expansion
    from medbench_tui.core.errors import MedbenchError
    from medbench_tui.core.yamldoc import CONSTRUCTOR_ERRORS, unreadable_value

    try:
        if path.suffix.lower() == ".json":
            return json.loads(text)
        if (where := alias_expansion(text)) is not None:
            raise MedbenchError(f"{path}:{where[0]}:{where[1]}: the aliases (`*name`) here repeat their anchors "
                                "into too many values: write the values out")
        return YAML(typ="safe", pure=True).load(text)
    except json.JSONDecodeError as exc:
        raise MedbenchError(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}") from None
    except CONSTRUCTOR_ERRORS as exc:  # a number over 4,300 digits, a value its tag cannot be, a date
        raise MedbenchError(unreadable_value(str(path), text, exc)) from None
    except MarkedYAMLError as exc:
        mark = exc.problem_mark
        place = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        raise MedbenchError(f"{place}: not valid YAML: {exc.problem}") from None
    except YAMLError as exc:
        raise MedbenchError(f"{path}: not valid YAML: {exc}") from None


def _invalid(path: Path, text: str, exc: ValidationError) -> str:
    """Each problem (at most 10) as ``file:line:col: key.path: message``."""
    from medbench_tui.core.cases.yamlio import parse_case_text

    positions = parse_case_text(text).positions  # JSON is YAML too: one position finder
    problems = []
    for error in exc.errors(include_url=False)[:10]:
        loc = tuple(error["loc"])
        where = next((positions.locate(loc[:n]) for n in range(len(loc), 0, -1) if positions.locate(loc[:n])), None)
        place = f"{path}:{where[0]}:{where[1]}" if where else str(path)
        problems.append(f"{place}: {'.'.join(str(p) for p in loc) or '(top level)'}: {error['msg']}")
    return f"{path} is not a valid transcript:\n  " + "\n  ".join(problems)


def dump_transcript(transcript: Transcript, path: Path) -> None:
    """Write JSON when the path ends in ``.json``, else YAML (the ``--transcript`` rule); secrets
    redacted in every text, every text valid Unicode (a reply of a model may hold a lone surrogate)."""
    from medbench_tui.core.files import write_atomic
    from medbench_tui.core.redact import redact_data
    from medbench_tui.core.untrusted import valid_data

    data = valid_data(redact_data(transcript.model_dump(mode="json", exclude_none=True)))
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
    write_atomic(path, text, backup=False)

"""The rubric case kind: one clinical question put to the system in a single turn, graded by a
points rubric (``criteria``) or a weighted action panel (``panel``), with no simulated patient.

A rubric file says ``kind: rubric``; a file without ``kind`` (or ``kind: consultation``) is an
ordinary consultation case (``model.Case``). The two kinds share the file's identity fields
(id, title, status, authors, reviewers) and nothing else, so they are two models, and the bank
hands each out on its own (``bank.consultation_files``, ``bank.rubric_files``).
"""

from __future__ import annotations

from typing import Annotated, Final, Literal, get_args

from pydantic import AfterValidator, BeforeValidator, Field

from medbench_tui.core.cases.model import (
    CASE_ID_PATTERN,
    Criterion,
    Status,
    Strict,
    Words,
    _not_zero,
    _version_number,
)
from medbench_tui.core.jsondata import JSONObject

RUBRIC: Final = "rubric"
CONSULTATION: Final = "consultation"
RUBRIC_SCORE: Final = "rubric_score"
"""The metric of a rubric score (0-100): a rubric case's, or a consultation case's criteria's."""
CaseKind = Literal["consultation", "rubric"]
CASE_KINDS: tuple[str, ...] = get_args(CaseKind)

Theme = Literal[
    "drug_safety",
    "guideline_adherence",
    "landmark_trials",
    "hallucination",
    "health_equity",
    "calculations",
    "diagnostic_safety",
    "therapeutic_safety",
    "communication",
    "triage",
]
THEMES: tuple[str, ...] = get_args(Theme)
Role = Literal["user", "assistant"]

MAX_SEVERITY = 3


class RubricMetadata(Strict):
    """What the question is about, for per-theme results and equity pairs."""

    theme: Theme = Field(description="The benchmark theme the question belongs to.")
    specialties: list[str] = Field(default_factory=list, description="Free tags, e.g. [rheumatology].")
    pair_id: str | None = Field(
        default=None, description="Equity pairs: the two cases of a pair share this id (null when unpaired).")
    language: str = Field(default="en", description="The language of the case text (BCP 47 tag, e.g. en).")


class Message(Strict):
    """One message of a short chat put to the system."""

    role: Role = Field(description="user or assistant; the last message is the user's.")
    content: Words = Field(description="What the message says.")


class PanelAction(Strict):
    """One candidate action of a weighted action panel."""

    action: Words = Field(description="The action, as a clinician writes it.")
    severity: Annotated[int, AfterValidator(_not_zero)] = Field(
        ge=-MAX_SEVERITY, le=MAX_SEVERITY,
        description="-3 (severe harm if taken) .. +3 (critical to include), not 0.")
    aliases: list[str] = Field(default_factory=list, description="Other phrasings that mean this action.")


class RubricCase(Strict):
    """One clinical question, asked in a single turn and graded by a rubric or an action panel."""

    schema_version: Annotated[Literal[1], BeforeValidator(_version_number)] = Field(
        default=1, description="The case format version.")
    kind: Literal["rubric"] = Field(description="rubric: a single-turn question graded by criteria or a panel.")
    id: str = Field(pattern=CASE_ID_PATTERN,
                    description="Unique; lowercase letters, digits and '-'; equals the file name.")
    title: Words = Field(description="For authors and reports; never sent to the system under test.")
    status: Status = Field(default="draft", description="draft, review or final (final needs two reviewers).")
    authors: list[str] = Field(default_factory=list, description="Who wrote the case.")
    reviewers: list[str] = Field(default_factory=list, description="Who reviewed it.")
    metadata: RubricMetadata = Field(description="Theme, specialties, equity pair and language.")
    prompt: str | None = Field(default=None, description="The question, as one user message (or `messages`).")
    messages: list[Message] | None = Field(
        default=None, description="Instead of `prompt`: a short chat whose last message is the user's.")
    criteria: list[Criterion] | None = Field(
        default=None, description="A points rubric (or `panel`, never both).")
    panel: list[PanelAction] | None = Field(
        default=None, description="A weighted action panel (or `criteria`, never both).")
    notes: str | None = Field(default=None, description="For reviewers; never shown to the system under test.")
    extensions: JSONObject = Field(default_factory=dict, description="Free-form; the only place for extra keys.")

    def conversation(self) -> list[Message]:
        """What the system is sent: the prompt as one user message, or the chat."""
        if self.messages:
            return list(self.messages)
        return [Message(role="user", content=self.prompt or "")]

    @property
    def graded_by_panel(self) -> bool:
        return self.panel is not None

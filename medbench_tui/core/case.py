"""The case format, version 1, as pydantic models.

These names are the public contract (``shared/spec/case-format.md``): other people's
tools and case banks depend on them, so fields are never renamed here. Models are
strict (no type coercion) and forbid unknown keys, except under ``extensions``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

CASE_ID_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"

Status = Literal["draft", "review", "final"]
Category = Literal[
    "internal_medicine",
    "pediatrics",
    "surgery",
    "obstetrics_gynecology",
    "oncology",
    "psychiatry",
    "emergency_medicine",
    "ophthalmology",
    "error_testing",
]
AgeGroup = Literal["neonate", "infant", "child", "adolescent", "adult", "older_adult"]
Sex = Literal["female", "male", "unspecified"]
Complexity = Literal["basic", "intermediate", "advanced", "expert"]
Urgency = Literal["routine", "urgent", "emergency"]
Setting = Literal[
    "primary_care", "emergency_department", "inpatient", "outpatient_clinic", "telehealth", "home_visit"
]
Informant = Literal["self", "parent", "caregiver", "partner"]
Behavior = Literal[
    "standard",
    "concise",
    "verbose",
    "self_diagnosis",
    "denial",
    "clarification_seeking",
    "delayed_disclosure",
]
DefaultAnswer = Literal["negative", "uncertain"]
AttachmentKind = Literal["lab_report", "document", "image", "ecg"]
Availability = Literal["at_start", "on_request", "after_turn"]
WorkupClass = Literal["required", "acceptable", "unexpected"]
TreatmentClass = Literal["required", "acceptable", "optional", "not_indicated", "contraindicated"]
ConditionKind = Literal["must_include", "must_not_include"]

CATEGORIES: tuple[str, ...] = Category.__args__  # type: ignore[attr-defined]
BEHAVIORS: tuple[str, ...] = Behavior.__args__  # type: ignore[attr-defined]
ERROR_TESTING = "error_testing"  # the category of cases that test the harness, not a system


class Strict(BaseModel):
    """Base for every case-format model: no coercion, no unknown keys."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=False)


class Metadata(Strict):
    category: Category
    specialties: list[str] = Field(default_factory=list)
    organ_systems: list[str] = Field(default_factory=list)
    age_group: AgeGroup | None = None
    sex: Sex | None = None
    complexity: Complexity | None = None
    urgency: Urgency | None = None
    setting: Setting | None = None
    language: str = "en"


class Patient(Strict):
    """What the simulated patient is, never what they have."""

    age: int | str | None = Field(
        default=None, description='Years as a number, or a string such as "3 months".'
    )
    sex: Sex = "unspecified"
    informant: Informant = "self"
    behavior: list[Behavior] = Field(default_factory=lambda: ["standard"])
    default_answer: DefaultAnswer = "negative"


class AdditionalAnswer(Strict):
    """A fact the patient reveals only when the doctor asks about it (a finding)."""

    id: str
    topic: str
    keywords: list[str] = Field(default_factory=list)
    answer: str
    delayed: bool = False


class ControlQuestion(Strict):
    """A history concept the doctor should elicit (hidden from the doctor)."""

    id: str
    concept: str
    answered_by: list[str] = Field(default_factory=list)
    weight: float = 1


class Attachment(Strict):
    id: str
    kind: AttachmentKind
    title: str
    file: str | None = None
    content: str | None = None
    description: str | None = None
    available: Availability = "on_request"
    after_turn: int | None = None
    request_keywords: list[str] = Field(default_factory=list)


class CodedDiagnosis(Strict):
    name: str
    icd10: str
    aliases: list[str] = Field(default_factory=list)


class PrimaryDiagnosis(CodedDiagnosis):
    accept_codes: list[str] = Field(default_factory=list)


class Differential(Strict):
    name: str
    icd10: str | None = None
    aliases: list[str] = Field(default_factory=list)


class Diagnosis(Strict):
    primary: PrimaryDiagnosis
    secondary: list[CodedDiagnosis] = Field(default_factory=list)


class WorkupItem(Strict):
    item: str
    # "class" is a Python keyword: the YAML key is `class`, the attribute `klass`.
    klass: WorkupClass = Field(alias="class")
    weight: float = 1
    penalty: float | None = None
    aliases: list[str] = Field(default_factory=list)

    model_config = ConfigDict(strict=True, extra="forbid", populate_by_name=True)


class TreatmentItem(Strict):
    item: str
    klass: TreatmentClass = Field(alias="class")
    weight: float = 1
    group: str | None = None
    aliases: list[str] = Field(default_factory=list)
    alternatives: list[str] = Field(default_factory=list)

    model_config = ConfigDict(strict=True, extra="forbid", populate_by_name=True)


class CriticalCondition(Strict):
    id: str
    description: str
    kind: ConditionKind
    items: list[str]
    applies_if: list[str] = Field(default_factory=list)


class ScoringOverrides(Strict):
    unexpected_penalty: float | None = None
    unlisted_penalty: float | None = None


class Case(Strict):
    """One frozen clinical record behind one simulated consultation."""

    schema_version: Literal[1] = 1
    id: str = Field(pattern=CASE_ID_PATTERN)
    parent_id: str | None = None
    title: str
    status: Status = "draft"
    authors: list[str] = Field(default_factory=list)
    reviewers: list[str] = Field(default_factory=list)
    metadata: Metadata
    patient: Patient = Field(default_factory=Patient)
    intro: str
    additional_answers: list[AdditionalAnswer] = Field(min_length=1)
    control_questions: list[ControlQuestion] = Field(default_factory=list)
    attachments: list[Attachment] = Field(default_factory=list)
    diagnosis: Diagnosis
    differential: list[Differential] = Field(default_factory=list)
    workup: list[WorkupItem] = Field(default_factory=list)
    treatment: list[TreatmentItem] = Field(default_factory=list)
    critical_conditions: list[CriticalCondition] = Field(default_factory=list)
    num_steps: int | None = None
    max_turns: int = 30
    scoring: ScoringOverrides = Field(default_factory=ScoringOverrides)
    notes: str | None = None
    extensions: dict[str, Any] = Field(default_factory=dict)

    def answer(self, answer_id: str) -> AdditionalAnswer | None:
        return next((a for a in self.additional_answers if a.id == answer_id), None)


class PatientRecord(Strict):
    """The patient-visible part of a case: all a simulator may ever see.

    Built by :func:`patient_record`; it has no diagnosis, differential, workup,
    treatment, control questions or notes, so a simulator cannot leak them.
    """

    case_id: str
    patient: Patient
    intro: str
    additional_answers: list[AdditionalAnswer]
    attachments: list[Attachment]


def patient_record(case: Case) -> PatientRecord:
    return PatientRecord(
        case_id=case.id,
        patient=case.patient.model_copy(deep=True),
        intro=case.intro,
        additional_answers=[a.model_copy(deep=True) for a in case.additional_answers],
        attachments=[a.model_copy(deep=True) for a in case.attachments],
    )

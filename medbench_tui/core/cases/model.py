"""The case format, version 1, as pydantic models.

These names are the public contract (``shared/spec/case-format.md``): other people's
tools and case banks depend on them, so fields are never renamed here. Models are
strict (no type coercion) and forbid unknown keys, except under ``extensions``.
"""

from __future__ import annotations

import datetime
from typing import Annotated, Literal, get_args

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field
from pydantic_core import PydanticCustomError

from medbench_tui.core.jsondata import JSONObject, JSONValue

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

CATEGORIES: tuple[str, ...] = get_args(Category)
BEHAVIORS: tuple[str, ...] = get_args(Behavior)
ERROR_TESTING = "error_testing"  # the category of cases that test the harness, not a system
IMPLICIT_CONDITION = "cc-implicit-contraindicated"
"""The safety condition of every case with a contraindicated treatment: giving one fails it."""


def _written(value: str) -> str:
    if not value.strip():
        raise PydanticCustomError("blank_text", "is empty: write it out")
    return value


def _version_number(value: JSONValue) -> JSONValue:
    # `true == 1` in Python: without this, `schema_version: true` would pass as version 1.
    if isinstance(value, bool):
        raise PydanticCustomError("literal_error", "Input should be 1", {"expected": "1"})
    return value


Words = Annotated[str, AfterValidator(_written)]
"""Text a field cannot do without: empty or only spaces is an error."""


class Strict(BaseModel):
    """Base for every case-format model: no coercion, no unknown keys."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=False)


class Metadata(Strict):
    """What the case is about, for filtering, stratified results and the blind practice label."""

    category: Category = Field(description="The clinical field of the case; error_testing cases test the harness.")
    specialties: list[str] = Field(default_factory=list, description="Free tags, e.g. [pulmonology].")
    organ_systems: list[str] = Field(default_factory=list, description="Free tags, e.g. [respiratory].")
    age_group: AgeGroup | None = Field(default=None, description="The patient's age group.")
    sex: Sex | None = Field(default=None, description="The patient's sex, for stratified results.")
    complexity: Complexity | None = Field(default=None, description="How hard the case is.")
    urgency: Urgency | None = Field(default=None, description="How urgent the presentation is; shown to the doctor.")
    setting: Setting | None = Field(
        default=None,
        description="Where the consultation happens; shown to the doctor. The reference must fit it "
        "(a primary-care case does not require hospital-only tests). A warning when missing.",
    )
    language: str = Field(default="en", description="The language of the case text (BCP 47 tag, e.g. en).")


class Patient(Strict):
    """What the simulated patient is, never what they have."""

    age: int | str | None = Field(
        default=None, description='Years as a number, or a string such as "3 months".'
    )
    sex: Sex = Field(default="unspecified", description="The patient's sex.")
    informant: Informant = Field(
        default="self", description="Who speaks: the patient, or a parent, caregiver or partner."
    )
    behavior: list[Behavior] = Field(
        default_factory=lambda: list[Behavior](["standard"]),
        description="How the patient talks (may combine); it never changes what is true.",
    )
    default_answer: DefaultAnswer = Field(
        default="negative", description="The reply to a yes/no question the record does not cover."
    )


class AdditionalAnswer(Strict):
    """A fact the patient reveals only when the doctor asks about it (a finding)."""

    id: Words = Field(description="Unique within the case; control questions name it in answered_by.")
    topic: Words = Field(description="What the fact is about, e.g. when the symptoms started.")
    keywords: list[str] = Field(default_factory=list, description="Words a doctor's question may use.")
    answer: Words = Field(description="The patient's answer, in their own words (never the diagnosis).")
    delayed: bool = Field(
        default=False, description="Disclosed only when asked a second time (delayed_disclosure behaviour)."
    )


class ControlQuestion(Strict):
    """A history concept the doctor should elicit (hidden from the doctor)."""

    id: Words = Field(description="Unique within the case.")
    concept: Words = Field(description="The history concept, e.g. smoking history.")
    answered_by: list[str] = Field(
        default_factory=list, description="Ids of additional_answers that, once disclosed, count it as elicited."
    )
    weight: float = Field(default=1, description="Importance in question coverage (> 0).")


class Attachment(Strict):
    """A report, document, image or ECG the doctor may see during the consultation."""

    id: Words = Field(description="Unique within the case.")
    kind: AttachmentKind = Field(description="lab_report, document, image or ecg.")
    title: Words = Field(description="Shown when released; must not name the diagnosis.")
    file: str | None = Field(
        default=None,
        description="Path relative to the bank folder. An image must be a real picture of its finding, "
        "never a blank placeholder (an error).",
    )
    content: str | None = Field(default=None, description="The attachment's text, inline (instead of a file).")
    description: str | None = Field(
        default=None,
        description="Text stand-in for an image or ECG: what a text-only system is sent (an image or ECG "
        "may have only this).",
    )
    available: Availability = Field(
        default="on_request", description="When it is released: at_start, on_request or after_turn."
    )
    after_turn: int | None = Field(default=None, description="The turn after which it is released (after_turn).")
    request_keywords: list[str] = Field(
        default_factory=list, description="Words of a doctor's request that release it (on_request)."
    )


class CodedDiagnosis(Strict):
    """A diagnosis with its WHO ICD-10 code."""

    name: Words = Field(description="The diagnosis as a clinician writes it.")
    icd10: str = Field(description="WHO ICD-10 Version 2019 code (not ICD-10-CM), e.g. J18.9.")
    aliases: list[str] = Field(
        default_factory=list, description="Other names a doctor may use, including working-diagnosis forms."
    )


class PrimaryDiagnosis(CodedDiagnosis):
    """The diagnosis the doctor must reach."""

    accept_codes: list[str] = Field(
        default_factory=list, description="Other WHO ICD-10 codes that also name this diagnosis."
    )


class Differential(Strict):
    """A condition a good doctor considers."""

    name: Words = Field(description="The condition.")
    icd10: str | None = Field(default=None, description="WHO ICD-10 Version 2019 code.")
    aliases: list[str] = Field(default_factory=list, description="Other names a doctor may use.")


class Diagnosis(Strict):
    """The reference diagnoses."""

    primary: PrimaryDiagnosis = Field(description="The one diagnosis scored by diagnosis accuracy.")
    secondary: list[CodedDiagnosis] = Field(
        default_factory=list, description="Comorbidities and complications the doctor should name."
    )


class WorkupItem(Strict):
    """A test or examination, with whether a good doctor must, may or should not do it."""

    item: Words = Field(description="The test, as a clinician writes it.")
    # "class" is a Python keyword: the YAML key is `class`, the attribute `klass`.
    klass: WorkupClass = Field(
        alias="class", description="required (scores), acceptable (neutral) or unexpected (penalised)."
    )
    weight: float = Field(default=1, description="Importance of a required item (> 0).")
    penalty: float | None = Field(
        default=None, description="Penalty of an unexpected item (> 0; default: scoring.unexpected_penalty)."
    )
    aliases: list[str] = Field(
        default_factory=list,
        description="Other phrasings that mean this item; never a single common word (alias.too_broad).",
    )
    within: str | None = Field(
        default=None,
        description="When the action is needed, in the vocabulary's timing words ('same day', 'within 4 hours', "
        "'next week'): an answer whose timing cannot meet it does not satisfy the item.",
    )
    route: str | None = Field(
        default=None,
        description="The route the item is given by ('IM', 'intravenous'): the same drug by another route "
        "is not the item.",
    )
    target: str | None = Field(
        default=None,
        description="The team, drug or drug class the item is about, by any of its names in the vocabulary "
        "('general surgery', 'warfarin', 'anticoagulant'): any wording of it meets the item.",
    )

    model_config = ConfigDict(strict=True, extra="forbid", populate_by_name=True)


class TreatmentItem(Strict):
    """A treatment or management action, with whether it is needed, allowed or harmful."""

    item: Words = Field(description="The action, as a clinician writes it.")
    klass: TreatmentClass = Field(
        alias="class",
        description="required, acceptable, optional, not_indicated (no benefit, no harm: costs accuracy) "
        "or contraindicated (harmful: giving it fails the implicit safety condition).",
    )
    weight: float = Field(default=1, description="Importance of a required item (> 0).")
    group: str | None = Field(
        default=None, description="A drug of the same group scores as 'different' instead of 'extra'."
    )
    aliases: list[str] = Field(
        default_factory=list,
        description="Other phrasings that mean this item; on a contraindicated item they must carry the "
        "wrong timing or reason ('discharge from ED now'), never a bare 'send home'.",
    )
    alternatives: list[str] = Field(
        default_factory=list,
        description="Other actions of equal standing that satisfy this item as fully (a guideline's choice).",
    )
    within: str | None = Field(
        default=None,
        description="When the action is needed, in the vocabulary's timing words ('same day', 'within 4 hours', "
        "'next week'): an answer whose timing cannot meet it does not satisfy the item.",
    )
    route: str | None = Field(
        default=None,
        description="The route the item is given by ('IM', 'intravenous'): the same drug by another route "
        "is not the item.",
    )
    target: str | None = Field(
        default=None,
        description="The team, drug or drug class the item is about, by any of its names in the vocabulary "
        "('general surgery', 'warfarin', 'anticoagulant'): any wording of it meets the item.",
    )

    model_config = ConfigDict(strict=True, extra="forbid", populate_by_name=True)


class CriticalCondition(Strict):
    """A safety check; each run has it OK, NOT_APPLICABLE or FAIL."""

    id: Words = Field(description="Unique within the case.")
    description: Words = Field(description="What must (not) happen, for the scorecard.")
    kind: ConditionKind = Field(description="must_include (one entry recommended) or must_not_include.")
    items: list[str] = Field(
        description="Actions; an entry naming a workup or treatment item stands for it with its aliases."
    )
    applies_if: list[str] = Field(
        default_factory=list, description="Item names; NOT_APPLICABLE unless one of them is recommended."
    )


class ScoringOverrides(Strict):
    """Per-case overrides of the scoring defaults."""

    unexpected_penalty: float | None = Field(default=None, description="Penalty of an unexpected workup item.")
    unlisted_penalty: float | None = Field(
        default=None, description="Penalty per workup item that matches no reference item."
    )


ItemLabel = Literal["found", "not_found", "negated", "different"]
ConditionVerdict = Literal["OK", "FAIL", "NOT_APPLICABLE"]
ReviewVerdict = Literal["sign", "minor", "major"]
CHECK_ID_PATTERN = CASE_ID_PATTERN


class AnswerExpectation(Strict):
    """What must follow from an example final response; only what is stated is checked."""

    diagnosis: Literal["correct", "wrong"] | None = Field(
        default=None, description="correct: a final diagnosis matches the primary (diagnosis accuracy 100).")
    conditions: dict[str, ConditionVerdict] = Field(
        default_factory=dict, description="Critical condition id -> OK, FAIL or NOT_APPLICABLE.")
    items: dict[str, ItemLabel] = Field(
        default_factory=dict,
        description="Reference item (its `item` or `name`, exactly) -> found, not_found, negated or different.")


KNOWN_DEFECT = ("A grader or patient defect this check shows, in words: its failure is a warning, not an error, "
                "so the case keeps saying what it needs until medbench is fixed; remove it when the check passes.")


class AnswerCheck(Strict):
    """An example final response and what the grader must make of it."""

    id: str = Field(pattern=CHECK_ID_PATTERN, description="Unique within the case: lowercase, digits and '-'.")
    note: str | None = Field(default=None, description="Why this check exists (shown when it fails).")
    text: Words = Field(description="The final response, as a system or a person would write it.")
    expect: AnswerExpectation = Field(description="What must follow: diagnosis, conditions, items.")
    known_defect: str | None = Field(default=None, description=KNOWN_DEFECT)


class QuestionCheck(Strict):
    """An example doctor message and what a fresh patient must give."""

    ask: Words = Field(description="The doctor's message.")
    before: list[Words] = Field(
        default_factory=list, description="Earlier doctor messages of the same consultation, asked first and "
        "not checked (a delayed fact is told only when asked a second time).")
    note: str | None = Field(default=None, description="Why this check exists (shown when it fails).")
    facts: list[str] = Field(default_factory=list, description="additional_answers ids the reply must give.")
    may: list[str] = Field(default_factory=list, description="Facts the reply may also give.")
    attachments: list[str] = Field(default_factory=list, description="Attachment ids the reply must release.")
    default: bool = Field(
        default=False, description="true: the record does not cover it; no fact and no attachment is given.")
    known_defect: str | None = Field(default=None, description=KNOWN_DEFECT)


class CaseChecks(Strict):
    """The author's intent as checks that run every time the case or the grader changes."""

    answers: list[AnswerCheck] = Field(default_factory=list, description="Example final responses.")
    questions: list[QuestionCheck] = Field(default_factory=list, description="Example doctor messages.")


def _iso_date(value: JSONValue) -> JSONValue:
    # an unquoted 2026-12-04 is read as a date: keep it as the text the author wrote
    return value.isoformat() if isinstance(value, datetime.date) else value


def _real_date(value: str) -> str:
    try:
        datetime.date.fromisoformat(value)
    except ValueError:
        raise PydanticCustomError("date_value", "is not a date: write it YYYY-MM-DD") from None
    return value


class Review(Strict):
    """One physician's sign-off of the case."""

    reviewer: Words = Field(description="Who reviewed it.")
    date: Annotated[str, BeforeValidator(_iso_date), AfterValidator(_real_date)] = Field(
        pattern=r"^\d{4}-\d{2}-\d{2}$", description="When (YYYY-MM-DD).")
    verdict: ReviewVerdict = Field(description="sign (ready), minor (small fixes) or major (must change).")
    note: str | None = Field(default=None, description="What the reviewer found or checked.")



# --- rubric criteria (a rubric case's, and a consultation case's points on its final response) ---

Grader = Literal["phrases", "number", "judge", "physician"]
MAX_POINTS = 10


def _not_zero(value: int) -> int:
    if value == 0:
        raise PydanticCustomError("zero_weight", "is 0, which neither gives nor deducts: use a whole number "
                                                 "other than 0 (negative to deduct)")
    return value


class PhraseRule(Strict):
    """What a ``phrases`` criterion needs said (and not denied) in the answer."""

    any: list[str] = Field(default_factory=list, description="Met when the answer says one of these.")
    all: list[str] = Field(default_factory=list, description="Every one of these must be said as well.")


class NumberRule(Strict):
    """The number a ``number`` criterion needs, with its unit and how far off it may be."""

    value: float | int = Field(description="The expected value.")
    unit: Words = Field(description="The unit written after the number (mL/min, mmol/L, %, mg).")
    tolerance: float | int = Field(default=0, ge=0, description="How far the number may be from `value` (>= 0).")


class Criterion(Strict):
    """One physician-written criterion of a points rubric."""

    id: str = Field(pattern=CASE_ID_PATTERN, description="Unique in the case: lowercase, digits and '-'.")
    text: Words = Field(description="What the answer must (or, with negative points, must not) do.")
    points: Annotated[int, AfterValidator(_not_zero)] = Field(
        ge=-MAX_POINTS, le=MAX_POINTS, description="Signed whole number, -10..10, not 0; negative points deduct.")
    tags: list[str] = Field(
        default_factory=list,
        description="Free tags; by convention axis:accuracy, axis:completeness, axis:safety, axis:communication.")
    grader: Grader = Field(description="phrases, number, judge (an LLM judge) or physician.")
    phrases: PhraseRule | None = Field(default=None, description="grader: phrases - what must be said.")
    number: NumberRule | None = Field(default=None, description="grader: number - the value, unit and tolerance.")

    @property
    def axes(self) -> list[str]:
        """The criterion's axis tags without their prefix (``axis:safety`` -> ``safety``)."""
        return [t.split(":", 1)[1] for t in self.tags if t.startswith("axis:") and t[5:]]


class Case(Strict):
    """One frozen clinical record behind one simulated consultation."""

    schema_version: Annotated[Literal[1], BeforeValidator(_version_number)] = Field(
        default=1, description="The case format version."
    )
    kind: Literal["consultation"] = Field(
        default="consultation",
        description="consultation (the default): a simulated consultation; `kind: rubric` is a rubric case.",
    )
    id: str = Field(
        pattern=CASE_ID_PATTERN,
        description="Unique; lowercase letters, digits and '-'; equals the file name. Never shown while practising.",
    )
    parent_id: str | None = Field(default=None, description="The id of the case this one is a variant of.")
    title: Words = Field(description="For authors and reports; never shown while practising.")
    status: Status = Field(default="draft", description="draft, review or final (final needs two reviewers).")
    authors: list[str] = Field(default_factory=list, description="Who wrote the case.")
    reviewers: list[str] = Field(default_factory=list, description="Who reviewed it.")
    metadata: Metadata = Field(description="Category, age group, sex, urgency, setting and tags.")
    patient: Patient = Field(default_factory=Patient, description="What the simulated patient is and how they talk.")
    intro: Words = Field(description="What the patient says first (turn zero), never the diagnosis.")
    additional_answers: list[AdditionalAnswer] = Field(
        min_length=1, description="Facts revealed only when the doctor asks about them."
    )
    control_questions: list[ControlQuestion] = Field(
        default_factory=list, description="History concepts the doctor should elicit (hidden)."
    )
    attachments: list[Attachment] = Field(default_factory=list, description="Reports, documents, images and ECGs.")
    diagnosis: Diagnosis = Field(description="The primary diagnosis and the secondary ones (WHO ICD-10 coded).")
    differential: list[Differential] = Field(default_factory=list, description="Conditions a good doctor considers.")
    workup: list[WorkupItem] = Field(default_factory=list, description="Tests and examinations, by class.")
    treatment: list[TreatmentItem] = Field(
        default_factory=list, description="Treatment and management actions, by class."
    )
    critical_conditions: list[CriticalCondition] = Field(default_factory=list, description="Safety checks.")
    num_steps: int | None = Field(
        default=None, description="Reference number of doctor/patient turn pairs (soft target, +-25%)."
    )
    max_turns: int = Field(default=30, description="Hard limit on doctor turns for a run.")
    scoring: ScoringOverrides = Field(
        default_factory=ScoringOverrides, description="Per-case overrides of scoring defaults."
    )
    notes: str | None = Field(
        default=None, description="For reviewers (reasoning, guideline basis); never shown to anyone under test."
    )
    checks: CaseChecks | None = Field(
        default=None, description="Example answers and questions with what must follow (run by `medbench validate`)."
    )
    criteria: list[Criterion] | None = Field(
        default=None, description="Rubric criteria (signed points) graded on the final response, as a rubric "
                                  "case's are; their score is the run's rubric_score, beside its other metrics.")
    review: list[Review] = Field(default_factory=list, description="Physician sign-offs, newest last.")
    extensions: JSONObject = Field(default_factory=dict, description="Free-form; the only place for extra keys.")

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
    setting: Setting | None = None
    """Where the consultation happens (a patient on a video call measures with what they have at home)."""


def patient_record(case: Case) -> PatientRecord:
    return PatientRecord(
        case_id=case.id,
        patient=case.patient.model_copy(deep=True),
        intro=case.intro,
        additional_answers=[a.model_copy(deep=True) for a in case.additional_answers],
        attachments=[a.model_copy(deep=True) for a in case.attachments],
        setting=case.metadata.setting,
    )

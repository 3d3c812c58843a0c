"""Properties of scoring over generated finals: ranges, monotonicity, order."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from medbench_tui.core.cases.model import Case
from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript

CASE = Case.model_validate(
    YAML(typ="safe", pure=True).load((Path(__file__).parent / "data" / "scoring" / "golden-cap.yaml").read_text())
)
NOISE = ["Asthma", "Sputum culture", "Oxygen", "MRI brain", "doxycycline", "rest", "CT head", "no CTPA", "avoid NSAIDs"]


def names(items) -> list[str]:
    out = []
    for item in items:
        out += [getattr(item, "item", None) or item.name, *item.aliases]
    return out


DIAGNOSES = names([CASE.diagnosis.primary, *CASE.diagnosis.secondary, *CASE.differential]) + NOISE[:1]
WORKUP = names(CASE.workup) + NOISE
TREATMENT = names(CASE.treatment) + NOISE
CODES = ["J18.9", "J18.1", "J20.9", "F17.2", "K29.7", None]
SCORES = (
    "diagnosis_accuracy", "differential_accuracy", "workup_score", "treatment_accuracy",
    "critical_conditions_passed", "question_coverage", "action_f1", "primary_icd10_exact",
    "primary_icd10_category", "secondary_icd10_recall", "differential_precision",
    "differential_recall_at_3", "differential_recall_at_5", "primary_mrr",
)
UNORDERED = (
    "diagnosis_accuracy", "primary_icd10", "differential_accuracy", "workup_score", "treatment_accuracy",
    "critical_conditions_passed", "action_f1", "secondary_icd10_recall", "differential_precision",
)

finals = st.builds(
    lambda dx, ddx, workup, treatment, advice: FinalResponse(
        diagnoses=[{"name": n, "icd10": c} for n, c in dx], differential=ddx, workup=workup, treatment=treatment,
        advice=advice,
    ),
    st.lists(st.tuples(st.sampled_from(DIAGNOSES), st.sampled_from(CODES)), max_size=3),
    st.lists(st.sampled_from(DIAGNOSES), max_size=5),
    st.lists(st.sampled_from(WORKUP), max_size=8),
    st.lists(st.sampled_from(TREATMENT), max_size=6),
    st.sampled_from([None, "Seek urgent care if worse.", "Take ibuprofen.", "Avoid NSAIDs."]),
)
texts = st.lists(
    st.sampled_from(
        DIAGNOSES + WORKUP + TREATMENT + ["Diagnosis:", "Plan:", "Differential:", "not", "no", ",", ";", "\n"]
    ),
    max_size=25,
).map(" ".join)

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def card(final: FinalResponse, facts=()):
    from medbench_tui.core.transcript import Turn

    turns = [t for f in facts for t in (Turn(role="doctor", text="?"), Turn(role="patient", text=".", facts=[f]))]
    return score(CASE, Transcript(case_id=CASE.id, turns=turns, final=final))


@SETTINGS
@given(finals, st.lists(st.sampled_from(["onset", "smoking", "travel"]), max_size=3))
def test_every_metric_is_in_range(final, facts):
    metrics = card(final, facts).metrics
    for name in SCORES:
        value = getattr(metrics, name)
        assert value is None or 0 <= value <= 100, (name, value)


@SETTINGS
@given(texts)
def test_free_text_metrics_in_range_and_spans_exact(text):
    result = card(FinalResponse(text=text))
    for name in SCORES:
        value = getattr(result.metrics, name)
        assert value is None or 0 <= value <= 100, (name, value)
    for entity in result.extraction.entities:
        if hasattr(entity.evidence, "start"):
            assert text[entity.evidence.start : entity.evidence.end] == entity.evidence.text


@SETTINGS
@given(finals, st.sampled_from(["Levofloxacin", "fluoroquinolone"]), st.booleans())
def test_a_contraindicated_item_never_raises_a_score(final, drug, in_text):
    before = card(final).metrics
    if in_text:
        worse = final.model_copy(update={"text": f"Plan: start {drug}."})
        before = card(final.model_copy(update={"text": "Plan: as above."})).metrics
    else:
        worse = final.model_copy(update={"treatment": [*final.treatment, drug]})
    after = card(worse).metrics
    for name in SCORES:
        b, a = getattr(before, name), getattr(after, name)
        if b is None:
            assert a is None or a == 0, (name, b, a)
        else:
            assert a is not None and a <= b, (name, b, a)


@SETTINGS
@given(finals, st.randoms(use_true_random=False))
def test_reordering_answers_keeps_unordered_metrics(final, rnd):
    shuffled = final.model_copy(
        update={
            "diagnoses": rnd.sample(final.diagnoses, len(final.diagnoses)),
            "differential": rnd.sample(final.differential, len(final.differential)),
            "workup": rnd.sample(final.workup, len(final.workup)),
            "treatment": rnd.sample(final.treatment, len(final.treatment)),
        }
    )
    a, b = card(final).metrics, card(shuffled).metrics
    for name in UNORDERED:
        assert getattr(a, name) == getattr(b, name), name


@SETTINGS
@given(finals)
def test_json_round_trip(final):
    from medbench_tui.core.scoring import Scorecard

    data = card(final).to_json()
    assert Scorecard.model_validate(data).to_json() == data


def test_two_final_diagnoses_of_one_name_are_matched_whatever_their_order():
    """Found by the reordering property: the first "pneumonia" took the primary whether or
    not the second could go anywhere else, so the secondary's code was lost in one order."""
    coded = [("J20.9", "F17.2"), ("F17.2", "J20.9")]
    recalls = {
        card(FinalResponse(diagnoses=[{"name": "pneumonia", "icd10": c} for c in codes])).metrics.secondary_icd10_recall
        for codes in coded
    }
    assert recalls == {100.0}

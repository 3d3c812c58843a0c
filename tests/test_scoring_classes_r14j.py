"""Grader classes from held-out set J's first run, each tested on wording of its own (other topics)."""

from __future__ import annotations

import pytest

from tests.test_scoring_regressions import card, case, extras, rows


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- CTPA today. A V/Q scan alone would miss a small clot.", False),
    ("Plan:\n- CTPA today; a V/Q scan would be a mistake in her.", False),
    ("Plan:\n- CTPA today, then a V/Q scan.", True),
])
def test_a_test_the_answer_judges_insufficient_is_not_ordered(plan: str, given: bool):
    assert ("Ventilation-perfusion scan" in rows(card("em-pe-001", plan), "workup")) is given


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- Apixaban now.\n- Thrombolysis or a 'belt and braces' IVC filter would be wrong here.", False),
    ("Plan:\n- Apixaban now.\n- Thrombolysis is wrong for a haemodynamically stable PE.", False),
    ("Plan:\n- Apixaban now.\n- Thrombolysis or an IVC filter would be my choice.", True),
])
def test_treatments_a_thorough_answer_calls_wrong_are_not_given(plan: str, given: bool):
    treatment = rows(card("em-pe-001", plan), "treatment")
    assert ("Systemic thrombolysis" in treatment) is given


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n1. Apixaban 10 mg bd.\n2. **NSAIDs**: not given - she will be anticoagulated.", False),
    ("Plan:\n1. Apixaban 10 mg bd.\n2. Ibuprofen: not to be given while anticoagulated.", False),
    ("Plan:\n1. Apixaban 10 mg bd.\n2. **Ibuprofen**: given for the pleuritic pain.", True),
])
def test_a_label_whose_verdict_says_not_given_withholds_it(plan: str, given: bool):
    treatment = rows(card("em-pe-001", plan), "treatment")
    assert ("Non-steroidal anti-inflammatory drugs" in treatment) is given


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- FBC, ferritin today (a ferritin below 30 leads on to iron tablets and a review)", False),
    ("Plan:\n- FBC and ferritin today; a low ferritin would lead to iron tablets.", False),
    ("Plan:\n- FBC and ferritin today; iron tablets now.", True),
])
def test_a_step_a_result_leads_on_to_waits_for_the_result(plan: str, given: bool):
    treatment = rows(card("im-tiredness-001", plan), "treatment")
    assert ("Empirical iron supplements before the results" in treatment) is given


def test_what_a_result_leads_on_to_ends_at_its_bracket():
    plan = ("Plan:\n- 2WW breast clinic (an abnormal ultrasound leads on to a core biopsy), "
            "mammogram and breast ultrasound.\n")
    workup = rows(card("onc-breast-001", plan), "workup")
    assert "Core needle biopsy" not in workup
    assert "Bilateral mammography" in workup


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- Bloods today.\n- Sertraline can be considered once a physical cause is excluded - not before.", False),
    ("Plan:\n- Bloods today.\n- Sertraline only after the blood results, and not before.", False),
    ("Plan:\n- Bloods today.\n- Sertraline 50 mg once daily from today.", True),
])
def test_an_action_the_answer_insists_must_wait_is_conditional(plan: str, given: bool):
    assert ("Antidepressant" in rows(card("im-tiredness-001", plan), "treatment")) is given


def _diagnosis_candidates(case_id: str, text: str) -> dict[str, set[str]]:
    from medbench_tui.core.scoring.match import match
    from medbench_tui.core.scoring.reference import reference_table

    scored = card(case_id, text)
    matching = match(scored.extraction, reference_table(case(case_id)))
    return {e.text: {c.ref.name for c in matching.candidates_of(e)}
            for e in scored.extraction.entities if e.kind in ("diagnosis", "differential")}


def test_a_code_two_items_share_gives_no_other_item_than_the_one_named():
    text = "Diagnosis: septic arthritis of the right knee. Background: rheumatoid arthritis (M06.9)."
    found = _diagnosis_candidates("sur-septic-arthritis-001", text)
    assert found["rheumatoid arthritis"] == {"Rheumatoid arthritis"}  # not the flare, coded M06.9 too


def test_a_shared_code_still_names_both_items_when_the_words_name_neither():
    text = "Diagnosis: inflammatory joint disease (M06.9)."
    found = _diagnosis_candidates("sur-septic-arthritis-001", text)
    both = {"Rheumatoid arthritis", "Monoarticular flare of rheumatoid arthritis"}
    assert both <= found["inflammatory joint disease"]


@pytest.mark.parametrize(("plan", "given"), [
    ("Normotensive, so she is well below the thrombolysis threshold: apixaban now.", False),
    ("No shock - under the thrombolysis cut-off; apixaban now.", False),
    ("Hypotensive with RV strain: thrombolysis now.", True),
])
def test_a_treatment_naming_its_threshold_in_a_reason_is_not_given(plan: str, given: bool):
    assert ("Systemic thrombolysis" in rows(card("em-pe-001", plan), "treatment")) is given


@pytest.mark.parametrize("plan", [
    "Plan:\n- 2WW dermatology referral today",
    "Plan:\n- refer to dermatology within 2 weeks (suspected melanoma)",
])
def test_a_two_week_wait_referral_is_no_routine_referral(plan: str):
    scored = card("onc-melanoma-001", plan)
    assert "Monitoring or a routine referral instead of the suspected cancer pathway" not in rows(scored, "treatment")
    assert all(c.status == "OK" for c in scored.critical_conditions if "routine" in c.description.lower())


def test_a_routine_referral_is_still_the_routine_item():
    treatment = rows(card("onc-melanoma-001", "Plan:\n- routine dermatology referral"), "treatment")
    assert "Monitoring or a routine referral instead of the suspected cancer pathway" in treatment


@pytest.mark.parametrize(("text", "done"), [
    ("Bloods: paracetamol 180 mg/L at 4 h, salicylate not detected.", True),
    ("| Test | Result |\n|---|---|\n| Salicylate | None detected |\n", True),
    ("Bloods: paracetamol 180 mg/L at 4 h; salicylate level not requested.", False),
])
def test_a_result_reported_as_not_detected_is_the_test_done(text: str, done: bool):
    assert ("Salicylate concentration" in rows(card("em-paracetamol-overdose-001", text), "workup")) is done


@pytest.mark.parametrize(("text", "done"), [
    ("| Test | Result |\n|---|---|\n| Paracetamol (4 h) | 180 mg/L |\n", True),
    ("Paracetamol (4-hour) 180 mg/L, above the line.", True),
    ("Paracetamol (repeat in the morning with the INR and LFTs)", False),
])
def test_a_short_bracket_between_an_analyte_and_its_value_is_a_result(text: str, done: bool):
    assert ("Paracetamol concentration" in rows(card("em-paracetamol-overdose-001", text), "workup")) is done


def test_one_result_is_not_a_level_its_alias_repeats_by_the_hour():
    from medbench_tui.core.scoring.concepts import level_analytes

    assert level_analytes(("4", "hourly", "lithium", "level")) is None
    assert level_analytes(("lithium", "level")) == (("lithium",),)


@pytest.mark.parametrize(("plan", "extra"), [
    ("Plan:\n- Admit to the respiratory ward\n- Hourly observations and strict fluid balance", []),
    ("Plan:\n- Admit to the respiratory ward\n- Hourly observations and strict fluid balance\n"
     "- Magnesium sulfate infusion", ["Magnesium sulfate infusion"]),
])
def test_a_monitoring_phrase_with_a_therapy_word_is_no_extra_treatment(plan: str, extra: list[str]):
    assert extras(card("im-cap-001", plan), "treatment") == extra


@pytest.mark.parametrize(("text", "done"), [
    ("Bloods: pcm 180 mg/L at 4 h, sal 12 mg/L. Start IV NAC now.", True),
    ("Send a sal level with the 4 h pcm. Start IV NAC now.", True),
    ("Start IV NAC now.", False),
])
def test_toxicology_shorthand_names_the_salicylate_level(text: str, done: bool):
    assert ("Salicylate concentration" in rows(card("em-paracetamol-overdose-001", text), "workup")) is done


@pytest.mark.parametrize(("text", "named"), [
    ("Plan:\n- 2WW lower GI referral today (?caecal Ca)", True),
    ("IDA, right iliac fossa mass ?caecal Ca. 2WW referral.", True),
    ("Plan:\n- 2WW lower GI referral today (?iron deficiency, caecal Ca)", False),
])
def test_a_query_mark_before_the_organ_queries_its_cancer(text: str, named: bool):
    assert ("Carcinoma of the caecum" in rows(card("onc-colorectal-001", text), "diagnoses")) is named

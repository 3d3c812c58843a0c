"""Physician-grade answers played through the bundled cases that the text extractor once
misread: each test names the case and the answer as the physician wrote it."""

from __future__ import annotations

import argparse
import io
from functools import cache
from pathlib import Path

import pytest

from medbench_tui.core.cases.model import Case
from medbench_tui.core.errors import UsageError
from medbench_tui.core.scoring import score
from medbench_tui.core.scoring.concepts import FOLLOW_UP, SAFETY_NET
from medbench_tui.core.transcript import FinalResponse, Transcript
from medbench_tui.core.validate import load_valid_case
from tests.test_consultation import write_bank

CASES = Path(__file__).resolve().parent.parent / "cases"
GOLDEN = Path(__file__).parent / "data" / "scoring" / "golden-cap.yaml"


@cache
def case(case_id: str) -> Case:
    return load_valid_case(CASES / f"{case_id}.yaml")


def card(case_id: str, text: str):
    c = case(case_id)
    return score(c, Transcript(case_id=c.id, final=FinalResponse(text=text)))


def rows(card, kind: str) -> dict[str, str]:
    """Reference (or, for an unmatched answer, the answer) -> status, of what was given."""
    return {e.reference or e.answer: e.status for e in getattr(card.items, kind) if e.status != "missing"}


def extras(card, kind: str) -> list[str]:
    return [e.answer for e in getattr(card.items, kind) if e.status == "extra"]


def condition(card, cid: str) -> str:
    return next(c.status for c in card.critical_conditions if c.id == cid)


# --- 1. the first item after a heading on the same line -------------------------------


@pytest.mark.parametrize(
    ("case_id", "text", "expected"),
    [
        ("em-stemi-002", "Workup: 12-lead ECG, troponin", {"12-lead ECG", "High-sensitivity cardiac troponin"}),
        ("em-stemi-002", "Workup: ECG (12-lead), troponin", {"12-lead ECG", "High-sensitivity cardiac troponin"}),
        ("psy-mdd-001", "Workup: suicide risk assessment, PHQ-9", {"Suicide risk assessment", "PHQ-9 questionnaire"}),
    ],
)
def test_first_item_after_a_heading_is_kept(case_id, text, expected):
    assert set(rows(card(case_id, text), "workup")) == expected


def test_an_unlisted_12_lead_ecg_is_an_item():
    """"12-lead" made one token written "12 lead ecg", read as a number: the item was dropped."""
    assert sorted(extras(card("im-cap-001", "Workup: 12-lead ECG, troponin"), "workup")) == ["12-lead ECG", "troponin"]


# --- 2. comma and parenthesised lists ---------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Workup: 12-lead ECG, right-sided leads V4R, troponin",
        "Workup: 12-lead ECG (including right-sided leads V4R), troponin",
        "Workup: 12-lead ECG with right-sided leads (V4R, V3R), troponin",
    ],
)
def test_right_sided_leads_beside_the_12_lead_ecg(text):
    assert set(rows(card("em-stemi-001", text), "workup")) == {
        "12-lead ECG", "Right-sided ECG leads (V4R)", "High-sensitivity cardiac troponin",
    }


def test_parenthesised_detail_is_not_split_into_items():
    found = extras(card("im-cap-001", "Workup: troponin (0 and 3 h), lipids"), "workup")
    assert sorted(found) == ["lipids", "troponin"]
    listed = card("im-cap-001", "Workup: bloods (FBC, U&E, LFT), troponin")
    assert {"Full blood count", "Urea and electrolytes", "Liver function tests"} <= set(rows(listed, "workup"))


# --- 3. "and" inside an item -------------------------------------------------------------


def test_and_between_lymph_node_stations_does_not_split_the_item():
    named = card("onc-lung-001", "Workup: EBUS-TBNA of stations 4R and 7")
    assert rows(named, "workup") == {"Endobronchial ultrasound-guided transbronchial needle aspiration": "matched"}
    unlisted = card("im-cap-001", "Workup: EBUS-TBNA of stations 4R and 7")
    assert extras(unlisted, "workup") == ["EBUS-TBNA of stations 4R and 7"]


@pytest.mark.parametrize(
    ("case_id", "text", "expected"),
    [
        ("psy-mdd-001", "Workup: CT chest, abdomen and pelvis", ["CT chest, abdomen and pelvis"]),
        ("im-cap-001", "Workup: MRI brain and spine", ["MRI brain and spine"]),
        ("im-cap-001", "Workup: troponin and lipids", ["troponin", "lipids"]),
    ],
)
def test_body_sites_extend_an_item_and_other_pieces_split(case_id, text, expected):
    assert extras(card(case_id, text), "workup") == expected


# --- 4. safety-netting is advice, never an extra treatment -------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Plan: aspirin 300 mg\nAdvice: return if pain, photophobia or reduced vision",
        "Plan: aspirin 300 mg. Return if pain, photophobia or reduced vision.",
        "Management:\n- aspirin 300 mg\n- Return if pain, photophobia or reduced vision",
        "Management: aspirin 300 mg\nAdvise to return if pain, photophobia or reduced vision",
        "Management:\n- aspirin 300 mg\n- If pain, photophobia or reduced vision, return immediately",
        "Plan: aspirin 300 mg; safety-netting: return if pain, photophobia or reduced vision",
        "Plan: aspirin 300 mg\nWhen to return: pain, photophobia or reduced vision",
        "Plan:\n- aspirin 300 mg\n- Warning signs: pain, photophobia or reduced vision",
    ],
)
def test_a_safety_net_sentence_gives_no_extra_treatment(text):
    result = card("oph-crao-001", text)
    assert extras(result, "treatment") == []
    assert rows(result, "treatment") == {"Aspirin 300 mg once intracranial haemorrhage is excluded": "matched"}


def test_a_treatment_before_a_safety_net_in_one_item_is_kept():
    result = card("oph-crao-001", "Plan: doxycycline 100 mg, return if worse")
    assert extras(result, "treatment") == ["doxycycline 100 mg"]


# --- 5. one mention, one entity ----------------------------------------------------------


@pytest.mark.parametrize(
    ("case_id", "text", "quote"),
    [
        ("psy-mdd-001", "Treatment: sertraline 50 mg daily", "sertraline"),  # an item's alias and a group member
        ("im-cap-001", "Workup: CURB-65", "CURB-65"),  # two aliases written alike ("CURB-65", "CURB65")
        ("onc-lung-001", "Treatment: smoking cessation", "smoking cessation"),  # an alias and a group name
    ],
)
def test_a_mention_is_extracted_once(case_id, text, quote):
    entities = [e for e in card(case_id, text).extraction.entities if e.text == quote]
    assert len(entities) == 1


# --- 6. an exclusion in a temporal clause is a condition, not a negation --------------------


@pytest.mark.parametrize(
    "text",
    [
        "Plan: aspirin 300 mg once haemorrhage excluded",
        "Plan: aspirin 300 mg after haemorrhage has been ruled out",
        "Plan: aspirin 300 mg when bleed excluded",
        "Plan: once haemorrhage ruled out, aspirin 300 mg",
    ],
)
def test_aspirin_once_haemorrhage_is_excluded_is_given(text):
    result = card("oph-crao-001", text)
    assert rows(result, "treatment") == {"Aspirin 300 mg once intracranial haemorrhage is excluded": "matched"}
    assert extras(result, "treatment") == []


@pytest.mark.parametrize(
    "text", ["Plan: aspirin 300 mg. Thrombolysis is excluded.", "Plan: thrombolysis excluded; aspirin"]
)
def test_an_exclusion_without_a_temporal_clause_still_negates(text):
    result = card("oph-crao-001", text)
    assert "Thrombolysis (intravenous or intra-arterial)" not in rows(result, "treatment")
    assert condition(result, "cc-no-late-thrombolysis") == "OK"


# --- 7. safety-netting in the doctor's words ------------------------------------------------

SAFETY_NET_ITEM = "Safety-netting and review in 48-72 hours if not improving"


@pytest.mark.parametrize(
    "advice",
    [
        "come back urgently if breathless or confused",
        "come back urgently if worse",
        "return if breathless",
        "seek urgent medical help",
        "call 999 if you cannot catch your breath",
        "call 911 if worse",
        "go to A&E if chest pain or confusion",
        "go straight to the ED if worse",
        "if breathless or confused, come back",
        "safety-netting advice given",
    ],
)
def test_safety_net_phrasings_pass_the_safety_net_condition(advice):
    result = card("im-cap-001", f"Diagnosis: CAP\nTreatment: amoxicillin\nAdvice: {advice}")
    assert condition(result, "cc-safety-net") == "OK"
    entry = next(e for e in result.items.treatment if e.reference == SAFETY_NET_ITEM)
    assert entry.status == "matched"


@pytest.mark.parametrize(
    "advice",
    [
        "return to work in 2 weeks",
        "seek specialist advice",
        "no need to come back",
        "call the medical registrar immediately if sats drop",
        "attend fracture clinic",
    ],
)
def test_things_that_are_not_safety_netting(advice):
    result = card("im-cap-001", f"Diagnosis: CAP\nTreatment: amoxicillin\nAdvice: {advice}")
    assert condition(result, "cc-safety-net") == "FAIL"


def test_the_concept_is_named_on_the_card():
    result = card("im-cap-001", "Advice: come back urgently if breathless or confused")
    entry = next(e for e in result.items.treatment if e.reference == SAFETY_NET_ITEM)
    assert entry.note == f"matched by {SAFETY_NET}"
    assert entry.evidence.text == "come back urgently if breathless or confused"


def test_a_concept_never_makes_a_contraindicated_item_given():
    from ruamel.yaml import YAML

    golden = Case.model_validate(YAML(typ="safe", pure=True).load(GOLDEN.read_text()))
    altered = golden.model_copy(deep=True)
    levofloxacin = next(t for t in altered.treatment if t.item == "Levofloxacin")
    levofloxacin.aliases = [*levofloxacin.aliases, "return if worse"]
    result = score(altered, Transcript(case_id=golden.id, final=FinalResponse(
        text="Plan: amoxicillin", advice="Come back urgently if you are breathless.")))
    assert "Levofloxacin" not in rows(result, "treatment")
    assert condition(result, "cc-return") == "OK"  # the golden case's "seek urgent care" phrase
    assert condition(result, "cc-implicit-contraindicated") == "OK"


@pytest.mark.parametrize(
    ("text", "passed"),
    [
        ("Plan: metformin.\n- Seek urgent care if he becomes drowsy or starts to vomit", "OK"),
        ("Plan: metformin.\n\nFollow-up:\n- seek urgent care if breathing gets fast or he is sick", "OK"),
        ("Plan: metformin. Explain the sick day rules for metformin.", "FAIL"),  # drug advice, no red flags
    ],
)
def test_a_safety_net_alias_with_its_condition_is_a_safety_net(text, passed):
    assert condition(card("im-t2dm-001", text), "cc-safety-net") == passed


# --- 8. a timed follow-up review ------------------------------------------------------------

FOLLOW_UP_ITEM = "Follow-up review within 1-2 weeks"


@pytest.mark.parametrize(
    ("review", "matched"),
    [
        ("review in 1 week", True),
        ("review in 10 days", True),
        ("follow up within 2 weeks", True),
        ("f/u 1/52", True),
        ("GP review in a week", True),
        ("review in 4 weeks", False),
        ("review in 3 months", False),
    ],
)
def test_follow_up_interval_inside_the_reference_interval(review, matched):
    result = card("psy-mdd-001", f"Treatment: sertraline 50 mg daily; {review}")
    assert (rows(result, "treatment").get(FOLLOW_UP_ITEM) == "matched") is matched
    assert extras(result, "treatment") == []


def test_follow_up_note_and_a_review_of_another_interval():
    treatment = card("psy-mdd-001", "Plan: review in 10 days").items.treatment
    mdd = next(e for e in treatment if e.reference == FOLLOW_UP_ITEM)
    assert mdd.note == f"matched by {FOLLOW_UP}"
    diabetes = "Review HbA1c in 3 months"
    assert diabetes not in rows(card("im-t2dm-001", "Plan: metformin; review in 1 week"), "treatment")
    assert rows(card("im-t2dm-001", "Plan: metformin; review in 12 weeks"), "treatment")[diabetes] == "matched"


def test_a_review_never_makes_a_contraindicated_discharge_given():
    result = card("obg-preeclampsia-001", "Plan: admit under obstetrics; review in a week")
    assert "Outpatient management with review in a week" not in rows(result, "treatment")


# --- 9. a rejection by a "Not advised:" label or a dash after the item --------------------


@pytest.mark.parametrize(
    "text",
    [
        "Plan: CT-guided lung biopsy.\n\n**Not recommended now:** starting TB treatment empirically.",
        "Plan:\n- CT-guided lung biopsy\n- Not indicated: empirical TB treatment, it would only delay histology",
        "Plan:\n- CT-guided lung biopsy\n- empirical anti-TB treatment - not indicated without microbiology",
        "Plan:\n- CT-guided lung biopsy\n- empirical TB treatment \u2013 not appropriate at this stage",
    ],
)
def test_a_rejection_label_or_dash_verdict_gives_nothing(text):
    result = card("onc-lung-001", text)
    assert "Empirical anti-tuberculosis treatment" not in rows(result, "treatment")
    assert condition(result, "cc-implicit-contraindicated") == "OK"


@pytest.mark.parametrize(
    ("text", "given"),
    [
        ("Investigations:\n- FBC, U&E\n- Not useful here: sputum cytology or serum CEA", False),
        ("Investigations:\n- FBC, U&E\n- Not needed: sputum cytology", False),
        ("Investigations:\n- FBC, U&E\n- sputum cytology - not needed, low yield", False),
        ("Investigations:\n- FBC, U&E\n- sputum cytology - send three samples", True),
        ("Investigations:\n- FBC, U&E\n- Notes: sputum cytology", True),
    ],
)
def test_a_rejected_test_is_not_ordered(text, given):
    assert ("Sputum cytology" in rows(card("onc-lung-001", text), "workup")) is given


# --- 10. an alias that names another thing ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "given"),
    [
        ("Diagnosis: pre-eclampsia.\nWorkup: urine PCR, FBC, LFTs", True),
        ("Diagnosis: pre-eclampsia.\nWorkup: protein:creatinine ratio, FBC", True),
        ("Diagnosis: pre-eclampsia.\nWorkup: FBC, LFTs; high vaginal swab for GBS PCR", False),
    ],
)
def test_protein_creatinine_ratio_is_not_any_pcr(text, given):
    assert ("Urine protein quantification" in rows(card("obg-preeclampsia-001", text), "workup")) is given


def test_a_symptom_is_not_the_pleurisy_differential():
    result = card("em-pe-001", "Diagnosis: PE.\nPlan: apixaban; paracetamol for the pleuritic chest pain.")
    assert "Pleurisy" not in rows(result, "differential")
    assert "Pleurisy" in rows(card("em-pe-001", "Diagnosis: pulmonary embolism.\nDifferential: viral pleurisy"),
                              "differential")


# --- 11. a dash inside brackets explains only the bracket -------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "Differential: LADA (GAD antibodies - only if oral agents fail), overactive thyroid, diabetes insipidus",
        "Differential: LADA [C-peptide \u2013 later], overactive thyroid, diabetes insipidus",
    ],
)
def test_a_dash_inside_brackets_does_not_end_the_differential_list(line):
    result = card("im-t2dm-001", f"Diagnosis: type 2 diabetes.\n{line}")
    assert {"Thyrotoxicosis", "Diabetes insipidus"} <= set(rows(result, "differential"))


def test_a_dash_outside_brackets_still_opens_the_explanation():
    text = "Diagnosis: type 2 diabetes.\nDifferential:\n- LADA - thyrotoxicosis would not cause glycosuria"
    result = card("im-t2dm-001", text)
    assert "Thyrotoxicosis" not in rows(result, "differential")


# --- 12. a strength in per cent is a dose, not a result ---------------------------------------


def test_a_drug_with_its_strength_in_per_cent_is_given():
    result = card("oph-aacg-001", "Plan:\n- brimonidine 0.2% to the affected eye\n- pilocarpine 2% once the IOP falls")
    assert rows(result, "treatment")["Topical apraclonidine or brimonidine"] == "acceptable"
    flawed = card("oph-aacg-001", "Plan:\n- tropicamide 1% to both eyes for a fundal view")
    assert rows(flawed, "treatment")["Mydriatic eye drops"] == "contraindicated"
    assert condition(flawed, "cc-no-mydriatics") == "FAIL"


# --- 13. a timing word in a reference item is no condition of its own -----------------------


@pytest.mark.parametrize(
    ("text", "given"),
    [
        ("Plan: admit; IV magnesium; deliver once she is stable.", True),
        ("Plan: admit; IV magnesium. Should labetalol and nifedipine both fail, we would deliver.", False),
        ("Plan: admit; IV magnesium. If the CTG becomes pathological, proceed to caesarean section.", False),
    ],
)
def test_an_item_timed_after_stabilisation_still_needs_its_answer_unconditional(text, given):
    result = card("obg-preeclampsia-001", text)
    assert ("Plan birth after maternal stabilisation" in rows(result, "treatment")) is given


# --- 14. a choice left to the patient is an offer ----------------------------------------------


@pytest.mark.parametrize(
    ("text", "given"),
    [
        ("Plan: PET-CT; EBUS. Smoking: varenicline, or nicotine patches if she prefers.", True),
        ("Plan: PET-CT; EBUS. Smoking: nicotine gum if you would like to try it.", True),
        ("Plan: PET-CT; EBUS. Smoking: nicotine patches if varenicline causes nausea.", False),
    ],
)
def test_a_patient_choice_is_not_a_condition(text, given):
    assert ("Nicotine replacement therapy" in rows(card("onc-lung-001", text), "treatment")) is given


def test_differential_and_score_in_clinicians_words():
    lung = card("onc-lung-001", "Impression: lung cancer.\nDifferential: metastasis from an extrathoracic primary.")
    assert "Pulmonary metastasis from another primary" in rows(lung, "differential")
    pe = card("em-pe-001", "Diagnosis: PE.\nWorkup: two-level Wells 6 (PE likely); CTPA today.")
    assert "Two-level Wells score for pulmonary embolism" in rows(pe, "workup")


# --- 15. an item kept to pregnancy and a plan for after the birth -----------------------------


@pytest.mark.parametrize(
    ("text", "passed"),
    [
        ("Plan: admit; oral labetalol; IV magnesium. Postnatally, switch to enalapril 5 mg once daily.", "OK"),
        ("Plan: admit; oral labetalol; IV magnesium.\n\n**Postnatal care:**\n- enalapril 5 mg daily; BP checks", "OK"),
        ("Plan: admit; IV magnesium; start an ACE inhibitor for the blood pressure.", "FAIL"),
        ("Plan: admit; IV magnesium; enalapril 10 mg now, continue after delivery.", "FAIL"),
        ("Plan: admit; IV magnesium.\nPostpartum: ramipril 2.5 mg if still hypertensive", "OK"),
    ],
)
def test_an_ace_inhibitor_after_birth_is_not_one_in_pregnancy(text, passed):
    assert condition(card("obg-preeclampsia-001", text), "cc-no-raas") == passed


# --- 16. workup in the words written to patients and in results ------------------------------


@pytest.mark.parametrize(
    ("case_id", "text", "item"),
    [
        ("obg-preeclampsia-001", "Pre-eclampsia. We will check your urine for protein and admit you.",
         "Urine protein quantification"),
        ("obg-preeclampsia-001", "Pre-eclampsia. Admit; continuous fetal monitoring.", "Cardiotocography"),
        ("obg-preeclampsia-001", "Pre-eclampsia. Admit, and we'll monitor the baby's heartbeat.", "Cardiotocography"),
        ("im-t2dm-001", "Type 2 diabetes. HbA1c 71; ALT 64, likely fatty liver.", "Liver function tests"),
        ("im-t2dm-001", "Type 2 diabetes. Bloods: HbA1c and liver enzymes.", "Liver function tests"),
    ],
)
def test_workup_in_lay_words_and_results(case_id, text, item):
    assert item in rows(card(case_id, text), "workup")


@pytest.mark.parametrize(
    ("text", "item", "status"),
    [
        ("PE. Apixaban; admit to the acute medical unit tonight.",
         "Hospital admission for initiation of anticoagulation", "matched"),
        ("PE. Rivaroxaban for at least three months, then review.", "Anticoagulation for at least three months",
         "acceptable"),
        ("PE. Apixaban; she may keep taking the pill.", "Continue the combined oral contraceptive", "contraindicated"),
    ],
)
def test_pe_plan_items_in_clinicians_words(text, item, status):
    assert rows(card("em-pe-001", text), "treatment")[item] == status


def test_keeping_the_pill_fails_the_safety_check():
    result = card("em-pe-001", "PE. Apixaban; carry on with the pill.")
    assert condition(result, "cc-implicit-contraindicated") == "FAIL"


def test_birth_and_fluid_plans_in_clinicians_words():
    text = "Plan: IV magnesium; fluids restricted to 1 mL/kg/h; plan birth when stable."
    result = rows(card("obg-preeclampsia-001", text), "treatment")
    assert result["Fluid restriction to 80 mL/hour"] == "acceptable"
    assert result["Plan birth after maternal stabilisation"] == "matched"


# --- medbench play scores with the bank's evaluator ----------------------------------------


def _play(case_file: Path, monkeypatch, stdin: str) -> int:
    from medbench_tui.cli import play

    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    return play.run(argparse.Namespace(case=str(case_file), simulator="grounded", transcript=None, bank=None))


def test_play_uses_the_bank_evaluator(tmp_path, monkeypatch):
    case_file = write_bank(tmp_path)
    (tmp_path / "medbench.yaml").write_text("evaluator:\n  extractor: llm\n")
    with pytest.raises(UsageError, match="needs an endpoint"):
        _play(case_file, monkeypatch, "/final\nDiagnosis: pneumonia\n/end\n")


def test_play_scores_with_the_text_extractor_by_default(tmp_path, monkeypatch, capsys):
    case_file = write_bank(tmp_path)
    assert _play(case_file, monkeypatch, "Do you smoke?\n/final\nDiagnosis: pneumonia\n/end\n") == 0
    assert "Patient:" in capsys.readouterr().out

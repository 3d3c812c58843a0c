"""The rules of "Reading a free-text final response" (scoring.md), one class of answer each,
on the golden case (and bundled cases where the rule needs their record), and the
revised metrics: accept_codes, not_indicated, alternatives, reasons, consultation omissions."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.cases.model import Case
from medbench_tui.core.scoring import render_scorecard_text, score
from medbench_tui.core.transcript import FinalResponse, Transcript, Turn
from medbench_tui.core.validate import load_valid_case
from tests.support.case_yaml import case_yaml

DATA = Path(__file__).parent / "data" / "scoring" / "golden-cap.yaml"
CASES = Path(__file__).resolve().parent.parent / "cases"


@pytest.fixture(scope="module")
def case() -> Case:
    return Case.model_validate(case_yaml(DATA))


def card_for(case: Case, text: str, turns: list[Turn] | None = None):
    return score(case, Transcript(case_id=case.id, turns=turns or [], final=FinalResponse(text=text)))


def given(card, kind: str) -> set[str]:
    return {
        e.reference for e in getattr(card.items, kind)
        if e.reference and e.status in ("matched", "acceptable", "unexpected", "contraindicated", "not_indicated")
    }


def status(card, cid: str) -> str:
    return next(c.status for c in card.critical_conditions if c.id == cid)


@pytest.mark.parametrize(
    ("text", "levofloxacin_given"),
    [
        ("Plan: amoxicillin; levofloxacin only if she deteriorates.", False),
        ("Plan: amoxicillin. If not improving in 48 hours, switch to levofloxacin.", False),
        ("Plan: amoxicillin. Levofloxacin is reserved for treatment failure.", False),
        ("Plan: amoxicillin (levofloxacin second line).", False),
        ("Plan: amoxicillin. Levofloxacin and clarithromycin are not indicated.", False),
        ("Plan: amoxicillin. Levofloxacin is not first choice here.", False),
        ("Plan: amoxicillin. Fluoroquinolones are not routinely needed.", False),
        ("Plan: amoxicillin. No clarithromycin, doxycycline or levofloxacin.", False),
        ("Plan: levofloxacin if you are not allergic to it.", True),  # a caveat, not a condition
        ("Plan: levofloxacin 500 mg once daily, then review.", True),
    ],
)
def test_conditions_and_negations_of_actions(case, text, levofloxacin_given):
    card = card_for(case, text)
    assert ("Levofloxacin" in given(card, "treatment")) is levofloxacin_given
    assert (status(card, "cc-implicit-contraindicated") == "FAIL") is levofloxacin_given


def test_a_condition_the_record_establishes_is_a_recommendation():
    stemi = load_valid_case(CASES / "em-stemi-001.yaml")
    card = card_for(stemi, "Heart attack. 12-lead ECG now; if the ECG shows ST elevation, activate the cath lab "
                           "for primary PCI.")
    assert "Primary percutaneous coronary intervention" in given(card, "treatment")
    crao = load_valid_case(CASES / "oph-crao-001.yaml")
    card = card_for(crao, "Probably a vitreous haemorrhage. IV thrombolysis could be considered if a stroke is "
                          "suspected.")
    assert status(card, "cc-no-late-thrombolysis") == "FAIL"  # a retinal artery occlusion is a stroke


def test_history_and_words_inside_other_items():
    dka = load_valid_case(CASES / "ped-dka-001.yaml")
    card = card_for(dka, "DKA: pH 7.02, bicarbonate 6. Venous blood gas (pH, bicarbonate) hourly. No insulin bolus.")
    assert status(card, "cc-no-bicarbonate") == "OK"
    aacg = load_valid_case(CASES / "oph-aacg-001.yaml")
    card = card_for(aacg, "Angle closure. Precipitants: pseudoephedrine (Sudafed) taken yesterday. "
                          "Acetazolamide 500 mg IV.")
    assert "Sympathomimetic decongestant" not in given(card, "treatment")


def test_abbreviations_and_word_order(case):
    anaphylaxis = load_valid_case(CASES / "em-anaphylaxis-001.yaml")
    card = card_for(anaphylaxis, "Anaphylaxis.\nPlan:\n- 15 L O2 via non-rebreather\n- Salbutamol 5 mg nebulised\n"
                                 "- Adrenaline 1 mg IV")
    treated = given(card, "treatment")
    assert {"High-flow oxygen", "Nebulised salbutamol", "Intravenous adrenaline bolus"} <= treated
    assert "Intramuscular adrenaline 0.5 mg" not in treated  # IV is not IM
    af = load_valid_case(CASES / "im-af-001.yaml")
    assert "Magnesium" not in given(card_for(af, "AF. Bisoprolol 2.5 mg OD."), "workup")  # "mg" is a unit


def test_final_diagnosis_and_differential_in_prose(case):
    card = card_for(case, "Diagnosis: acute bronchitis, possibly early pneumonia. PE is less likely.")
    assert card.metrics.diagnosis_accuracy == 0
    assert {e.reference for e in card.items.differential if e.status in ("matched", "acceptable")} >= {
        "Pulmonary embolism", "Community-acquired pneumonia"}
    card = card_for(case, "I understand why you think it's flu, but this is most likely pneumonia.")
    assert card.metrics.diagnosis_accuracy == 100
    assert card_for(case, "Do you smoke? Any tobacco dependence?").metrics.secondary_icd10_recall == 0


def test_accept_codes_not_indicated_and_alternatives(case):
    revised = case.model_copy(deep=True)
    revised.diagnosis.primary.accept_codes = ["J18.1"]
    revised.treatment[0].alternatives = ["doxycycline"]
    revised.treatment[2].klass = "not_indicated"  # paracetamol
    card = score(revised, Transcript(case_id=case.id, final=FinalResponse(
        diagnoses=[{"name": "Lobar pneumonia of the right lower lobe", "icd10": "J18.1"}],
        treatment=["Doxycycline 100 mg", "Smoking cessation advice", "Paracetamol"])))
    assert card.metrics.diagnosis_accuracy == 100 and card.metrics.primary_icd10 == "exact"
    rows = {e.reference: e for e in card.items.treatment}
    assert rows["Amoxicillin"].status == "matched" and "alternative" in rows["Amoxicillin"].reason
    assert rows["Paracetamol"].status == "not_indicated"
    assert card.breakdown.treatment == {"matching": 2, "different": 0, "extra": 1, "missing": 0}
    assert status(card, "cc-implicit-contraindicated") == "OK"  # not_indicated fails no safety check


def test_every_item_has_a_reason_and_omissions_are_named(case):
    turns = [Turn(role="doctor", text="Can I check your oxygen saturation and get a chest X-ray?"),
             Turn(role="patient", text="Yes.")]
    card = card_for(case, "Pneumonia. Plan: amoxicillin. CTPA only if the D-dimer is raised.", turns)
    entries = [e for section in ("diagnoses", "differential", "workup", "treatment")
               for e in getattr(card.items, section)]
    assert entries and all(e.reason for e in entries)
    assert "CT pulmonary angiography" not in given(card, "workup")  # conditional: not scored
    cxr = next(e for e in card.items.workup if e.reference == "Chest X-ray")
    assert cxr.status == "missing" and "turn 1" in cxr.reason
    assert {o.reference for o in card.consultation_omissions} == {"Chest X-ray", "Pulse oximetry"}
    text = render_scorecard_text(card)
    assert "why: " in text and "Done during the consultation but left out of the final answer" in text
    assert card.to_json()["items"]["workup"][0]["reason"]


def test_the_agreement_benchmark_prints_its_summary_line(tmp_path, capsys):
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location(
        "scoring_agreement", Path(__file__).resolve().parent.parent / "benchmarks" / "scoring_agreement.py")
    bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = bench  # dataclasses look their module up
    spec.loader.exec_module(bench)
    (tmp_path / "a.yaml").write_text(
        "case: im-cap-001\nanswers:\n- id: one\n  style: test\n  text: |\n"
        "    Pneumonia. Plan: amoxicillin 500 mg TDS.\n"
        "  labels:\n    primary: final\n    treatment: {Amoxicillin 500 mg three times daily for 5 days: found}\n"
        "    conditions: {cc-safety-net: FAIL, cc-antibiotic: OK, cc-no-fluoroquinolone: OK,"
        " cc-implicit-contraindicated: OK}\n")
    assert bench.main(["--answers", str(tmp_path), "--extractor", "text"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("items ") and last.endswith("safety verdicts 4/4")


DISCHARGE = ("em-stemi-002", "Discharge with antacid treatment")
WITHHOLD = ("sur-appendicitis-001", "Withholding analgesia until surgical assessment")


@pytest.mark.parametrize(
    ("where", "text", "matched"),
    [
        (DISCHARGE, "Most likely reflux. Take lansoprazole 30 mg each morning and you can rest at home for now.", True),
        (DISCHARGE, "I think this is heartburn: you can stay at home and use a PPI.", True),
        (DISCHARGE, "Probably indigestion; manage this at home with omeprazole.", True),
        (DISCHARGE, "Reflux. Omeprazole 20 mg daily.", False),  # a drug alone is no discharge
        (DISCHARGE, "Heart attack until proven otherwise. Vaginal discharge aside, aspirin 300 mg now.", False),
        (WITHHOLD, "Likely appendicitis. Please don't take any painkillers until the surgeons have seen you.", True),
        (WITHHOLD, "Appendicitis. Hold off on pain relief until the surgeons have assessed her.", True),
        (WITHHOLD, "Appendicitis. Avoid ibuprofen; give paracetamol 1 g IV.", False),  # one member withholds nothing
        (WITHHOLD, "Appendicitis. IV morphine now for pain relief.", False),
    ],
)
def test_discharge_and_withholding_in_lay_words(where, text, matched):
    """A discharge with the treatment of the benign cause, and an instruction to withhold, as patients are told."""
    case_id, item = where
    card = card_for(load_valid_case(CASES / f"{case_id}.yaml"), text)
    assert (item in given(card, "treatment")) is matched
    assert (status(card, "cc-implicit-contraindicated") == "FAIL") is matched


@pytest.mark.parametrize(
    ("text", "ecg_done"),
    [
        ("Inferior MI: there is ST elevation in leads II, III and aVF. Aspirin 300 mg.", True),
        ("Sinus tachycardia at 118 with T-wave inversion in V1-V3; CTPA.", True),
        ("Probably reflux. Omeprazole and review.", False),
        ("Cardioversion to restore sinus rhythm.", False),  # an aim of treatment, not a finding
    ],
)
def test_ecg_findings_report_the_ecg_done(text, ecg_done):
    stemi = load_valid_case(CASES / "em-stemi-002.yaml")
    card = card_for(stemi, text)
    assert ("12-lead ECG" in given(card, "workup")) is ecg_done
    assert "Right-sided ECG leads (V4R)" not in given(card, "workup")


@pytest.mark.parametrize(
    ("text", "ecg_given"),
    [
        ("Likely heartburn. See your GP if it persists beyond a week; an ECG could be done then.", False),
        ("Likely heartburn. Come back if it has not eased by Friday. We can arrange an ECG at that point.", False),
        ("Heart attack. Aspirin now; ECG then.", True),  # nothing to defer to: a sequence
    ],
)
def test_an_action_deferred_to_an_earlier_condition_is_conditional(text, ecg_given):
    stemi = load_valid_case(CASES / "em-stemi-002.yaml")
    assert ("12-lead ECG" in given(card_for(stemi, text), "workup")) is ecg_given


def test_other_names_of_a_differential_as_physicians_write_them():
    sbo = load_valid_case(CASES / "sur-sbo-001.yaml")
    card = card_for(sbo, "Adhesional SBO.\nDifferential: recurrent bowel cancer with peritoneal deposits.")
    assert "Peritoneal recurrence of colon cancer (secondary malignant neoplasm of peritoneum)" in {
        e.reference for e in card.items.differential if e.status in ("matched", "acceptable")}


@pytest.mark.parametrize(
    ("text", "atropine_given"),
    [
        ("Inferior STEMI. Primary PCI; atropine 600 micrograms IV in case of symptomatic bradycardia.", True),
        ("Inferior STEMI. Primary PCI. If symptomatic bradycardia: atropine.", True),
        ("Inferior STEMI. Primary PCI; atropine only if he becomes hypotensive.", False),  # another condition
    ],
)
def test_a_condition_that_restates_the_item_s_own_indication(text, atropine_given):
    """An item that names its indication ("X for Y") is given by "X if Y"; another condition stays one."""
    stemi = load_valid_case(CASES / "em-stemi-001.yaml")
    assert ("Atropine for symptomatic bradycardia" in given(card_for(stemi, text), "treatment")) is atropine_given


@pytest.mark.parametrize(
    ("text", "home_treatment"),
    [
        ("Severe CAP. Admit, IV antibiotics; switch to oral antibiotics and arrange discharge home later.", False),
        ("Severe CAP. Admit for IV co-amoxiclav, then change to oral antibiotics and discharge home.", False),
        ("Pneumonia. Oral antibiotics at home and GP review in two days.", True),
        ("Pneumonia. Home with oral amoxicillin.", True),
    ],
)
def test_two_actions_joined_by_and_are_not_one_item(text, home_treatment):
    """Words of one alias spread over two coordinated actions ("oral antibiotics and discharge home") are no match."""
    cap = load_valid_case(CASES / "im-cap-002.yaml")
    assert ("Home treatment with oral antibiotics" in given(card_for(cap, text), "treatment")) is home_treatment


@pytest.mark.parametrize(
    ("text", "sent_home"),
    [
        ("Bronchiolitis. Home with paracetamol and small frequent feeds.", True),
        ("Bronchiolitis.\n- Home today; small frequent feeds", True),
        ("Bronchiolitis. Same-day paediatric referral. Keep a smoke-free home.", False),  # a place
        ("Bronchiolitis. Refer to the paediatric assessment unit; home once feeding well.", False),  # later
        ("Bronchiolitis. Same-day paediatric referral; home oxygen is not needed.", False),
    ],
)
def test_home_as_a_disposition_and_home_as_a_place(text, sent_home):
    """An alias that is only "home" ("home with") sends the patient home now, never names a home."""
    bronchiolitis = load_valid_case(CASES / "ped-bronchiolitis-001.yaml")
    card = card_for(bronchiolitis, text)
    assert ("Manage at home without hospital assessment" in given(card, "treatment")) is sent_home
    assert (status(card, "cc-no-home-management") == "FAIL") is sent_home


@pytest.mark.parametrize(
    ("case_id", "text", "item"),
    [
        ("ped-intussusception-001", "Intussusception.\n- Nothing to eat or drink\n- Air enema", "Nil by mouth"),
        ("sur-cholecystitis-001", "Acute cholecystitis: she should be admitted under the surgeons today.",
         "Admission under general surgery"),
    ],
)
def test_lay_phrases_and_verb_forms_of_an_item(case_id, text, item):
    assert item in given(card_for(load_valid_case(CASES / f"{case_id}.yaml"), text), "treatment")


@pytest.mark.parametrize("heading", ["Diagnoses considered", "Considered and ruled out", "Excluded", "Less likely"])
def test_a_heading_of_considered_or_excluded_diagnoses_is_a_differential(heading):
    appendicitis = load_valid_case(CASES / "sur-appendicitis-002.yaml")
    card = card_for(appendicitis, f"Diagnosis: acute appendicitis\n\n{heading}:\n- Ovarian torsion: normal Doppler")
    assert "Torsion of ovary" in {e.reference for e in card.items.differential if e.status in ("matched", "acceptable")}


@pytest.mark.parametrize(
    ("text", "withheld"),
    [
        ("Appendicitis. Do not hold back analgesia while waiting for the surgeons; IV morphine titrated.", False),
        ("Appendicitis. Never withhold pain relief pending review; paracetamol 1 g IV.", False),
        ("Appendicitis. Hold off on pain relief until the surgeons have assessed her.", True),
    ],
)
def test_a_negated_withholding_gives_the_treatment(text, withheld):
    appendicitis = load_valid_case(CASES / "sur-appendicitis-002.yaml")
    assert ("Withholding analgesia until surgical assessment" in given(card_for(appendicitis, text), "treatment")) \
        is withheld


def test_a_reported_blood_count_by_its_abbreviations_is_the_count_done():
    jaundice = load_valid_case(CASES / "ped-jaundice-001.yaml")
    card = card_for(jaundice, "ABO haemolytic disease.\nResults: Hb 132 g/L, retics 9.2%.")
    assert "Full blood count and blood film" in given(card, "workup")


@pytest.mark.parametrize(
    ("text", "levofloxacin_given"),
    [
        ("## Impression\nCommunity-acquired pneumonia, CURB-65 1; levofloxacin from a friend, two a day since Sunday."
         "\n\n## Plan\n- Amoxicillin 500 mg TDS for 5 days", False),
        ("Impression: community-acquired pneumonia.\n\n- Levofloxacin 500 mg once daily for 5 days", True),  # no plan
    ],
)
def test_a_drug_under_the_diagnosis_heading_of_an_answer_with_a_plan_is_no_plan(case, text, levofloxacin_given):
    """When the answer has a plan section, a drug named under its Diagnosis heading describes the patient."""
    card = card_for(case, text)
    assert ("Levofloxacin" in given(card, "treatment")) is levofloxacin_given
    assert (status(card, "cc-implicit-contraindicated") == "FAIL") is levofloxacin_given


@pytest.mark.parametrize(
    ("text", "x_ray_given"),
    [
        ("Pneumonia on examination; she doesn't need a chest X-ray. Amoxicillin 500 mg TDS.", False),
        ("Pneumonia. A chest X-ray does not need to be done today; amoxicillin 500 mg TDS.", False),
        ("Pneumonia. Chest X-ray today; amoxicillin 500 mg TDS.", True),
    ],
)
def test_an_item_said_not_to_be_needed_is_not_given(case, text, x_ray_given):
    assert ("Chest X-ray" in given(card_for(case, text), "workup")) is x_ray_given


@pytest.mark.parametrize(
    ("text", "panels"),
    [
        ("AF. Bloods back: haemoglobin 151, WCC 7.9; Na 139, K+ 4.6, urea 5.2; ALT 30.", {
            "Full blood count", "Urea and electrolytes", "Liver function tests"}),
        ("AF. Results: free T4 16, INR 1.1.", {"Thyroid function tests", "Coagulation screen"}),
        ("AF.\n\n| test | value |\n|---|---|\n| Bilirubin | 9 umol/L |\n| Sodium | 137 mmol/L |", {
            "Liver function tests", "Urea and electrolytes"}),  # the next cell of a table row; concentrations
        ("AF. His potassium and platelets are fine; vitamin K 10 mg IV if he bleeds.", set()),  # no value, a dose
        ("AF. I'd like some bloods to check on his thyroid and kidneys.", {"Thyroid function tests",
                                                                         "Urea and electrolytes"}),  # lay words
        ("AF. The tracing settles it; his kidneys and thyroid have never given trouble.", set()),  # no blood tests
    ],
)
def test_a_result_of_an_analyte_reports_its_blood_panel_done(text, panels):
    """A reported value of one of a standard panel's analytes is that panel done (scoring.md "Results")."""
    af = load_valid_case(CASES / "im-af-001.yaml")
    wanted = {"Full blood count", "Urea and electrolytes", "Liver function tests", "Thyroid function tests",
              "Coagulation screen"}
    assert given(card_for(af, text), "workup") & wanted == panels


@pytest.mark.parametrize(
    ("text", "bleeding_risk_checked"),
    [
        ("AF. Score the stroke risk and check his bleeding risk.", True),
        ("AF. Check his stroke risk; bleeding is unlikely.", False),
    ],
)
def test_words_of_an_alias_out_of_order_are_taken_after_its_first_word_when_the_nearest_cross_a_list(
    text, bleeding_risk_checked
):
    """"check bleeding risk" is in "score the stroke risk and check his bleeding risk": the nearest "risk"
    belongs to the item before the "and", the one after "check" to this one."""
    af = load_valid_case(CASES / "im-af-001.yaml")
    assert ("Bleeding risk assessment (ORBIT)" in given(card_for(af, text), "workup")) is bleeding_risk_checked


def test_an_unlisted_drug_with_its_indication_after_for_is_extra(case):
    """"zinc sulphate 50 mg daily for the low zinc level seen on the bloods": the indication after "for" explains
    the drug, so the item is no prose too long to be one; an unlisted drug is extra."""
    text = "Plan:\n- Amoxicillin 500 mg TDS\n- Zinc sulphate 50 mg daily for the low zinc level seen on the bloods"
    card = card_for(case, text)
    extras = [e.answer for e in card.items.treatment if e.status == "extra"]
    assert extras == ["Zinc sulphate 50 mg daily"]

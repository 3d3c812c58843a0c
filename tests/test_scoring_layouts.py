"""Layouts of a free-text final response that once hid what an answer says: tables of
alternatives, headings with a bracketed source, sub-headings after an Avoid list, a drug
named in the reasoning of a differential (scoring.md, "Reading a free-text final response")."""

from __future__ import annotations

from medbench_tui.core.scoring.sections import parse
from tests.test_scoring_regressions import card, condition, extras, rows

# --- a table headed like a differential section holds the differential ---------------------


def test_a_table_of_alternatives_is_the_differential():
    text = """**Working diagnosis:** anaphylaxis to a food

| Alternatives weighed | Against it |
|---|---|
| Acute severe asthma | the rash and hypotension |
| Vasovagal syncope | he is tachycardic |

**Comorbidity:** asthma
"""
    c = card("em-anaphylaxis-001", text)
    assert set(rows(c, "differential")) == {"Acute severe asthma", "Vasovagal syncope"}
    assert set(rows(c, "diagnoses")) == {"Anaphylactic shock due to adverse food reaction", "Asthma"}


def test_a_results_table_stays_in_its_section_and_its_header_is_no_item():
    text = """Impression: DKA

| Test | Result |
|---|---|
| VBG | pH 7.1 |
"""
    layout = parse(text)
    assert [s.kind for s in layout.sections] == ["diagnosis"]
    assert not any("Test" in text[i.start : i.end] for i in layout.items)


def test_a_table_of_what_to_avoid_negates_its_rows_and_the_plan_goes_on():
    text = """Plan:
- IM adrenaline 0.5 mg now
| Not recommended | Why |
|---|---|
| IV adrenaline bolus | he has a pulse |
- high-flow oxygen
"""
    c = card("em-anaphylaxis-001", text)
    assert "Intravenous adrenaline bolus" not in rows(c, "treatment")
    assert rows(c, "treatment")["High-flow oxygen"] == "matched"
    assert condition(c, "cc-no-iv-bolus") == "OK"


def test_a_contraindicated_drug_in_an_ordinary_table_is_still_given():
    text = """Plan:

| Step | Drug |
|---|---|
| 1 | adrenaline 1 mg IV bolus |
"""
    assert condition(card("em-anaphylaxis-001", text), "cc-no-iv-bolus") == "FAIL"


# --- a bracketed source or qualifier does not hide a heading ---------------------------------


def test_a_heading_with_a_guideline_in_brackets_is_still_a_plan():
    text = """Diagnosis: ruptured ectopic pregnancy

Differential (all less likely)
- torsion of the ovary

**Management (NICE NG126 and the local major haemorrhage policy)**
- laparoscopic salpingectomy today
"""
    layout = parse(text)
    assert [s.kind for s in layout.sections] == ["diagnosis", "differential", "treatment"]
    c = card("obg-ectopic-001", text)
    assert rows(c, "treatment")["Emergency laparoscopic salpingectomy"] == "matched"
    assert "Emergency laparoscopic salpingectomy" not in rows(c, "differential")


# --- a sub-heading on a line of its own ends an Avoid list -----------------------------------


def test_a_sub_heading_after_an_avoid_list_ends_it():
    text = """Plan:
- laparoscopic salpingectomy

Avoid:
- methotrexate

**Before she goes home**
- bereavement support
"""
    c = card("obg-ectopic-001", text)
    assert rows(c, "treatment")["Bereavement support and follow-up information"] == "acceptable"  # optional
    assert "Methotrexate" not in rows(c, "treatment")


def test_a_labelled_line_inside_an_avoid_list_is_still_avoided():
    text = """Plan:
- laparoscopic salpingectomy

Do not:
**Drugs:** methotrexate
"""
    c = card("obg-ectopic-001", text)
    assert "Methotrexate" not in rows(c, "treatment")
    assert condition(c, "cc-no-methotrexate") == "OK"


# --- a drug in the reasoning of a differential is no plan ------------------------------------


def test_a_drug_in_a_differential_explanation_is_no_plan():
    text = """Diagnosis: new type 1 diabetes with DKA

Differential:
- type 2 diabetes with ketoacidosis: unlikely, she is slim and her aunt has been on insulin since a child

Plan:
- insulin infusion at 0.1 units/kg/hour
"""
    c = card("ped-dka-001", text)
    assert rows(c, "treatment") == {
        "Fixed-rate IV insulin infusion 0.05-0.1 units/kg/hour, started 1-2 hours after IV fluids": "matched"
    }
    assert "Type 2 diabetes mellitus with ketoacidosis" in rows(c, "differential")


def test_a_contraindicated_drug_in_the_plan_still_fails_when_the_differential_names_it_too():
    text = """Diagnosis: DKA

Differential:
- sepsis, less likely; bicarbonate would not distinguish them

Plan:
- sodium bicarbonate 1 mmol/kg IV
"""
    assert condition(card("ped-dka-001", text), "cc-no-bicarbonate") == "FAIL"


# --- "mellitus" may be left out of a diagnosis's name ----------------------------------------


def test_type_2_diabetes_written_without_mellitus():
    c = card("ped-dka-001", "My impression is new type 2 diabetes presenting with ketoacidosis.")
    assert c.metrics.diagnosis_accuracy == 0  # the type 2 differential, not the primary's "ketoacidosis"
    c = card("ped-dka-001", "Impression: type 1 diabetes with DKA.\nDifferential: type 2 diabetes with ketoacidosis.")
    assert set(rows(c, "differential")) == {"Type 2 diabetes mellitus with ketoacidosis"}


# --- pieces of a plan that are no answer item of their own ------------------------------------


def test_a_line_that_introduces_the_items_below_it_is_no_item():
    text = "Plan:\n1. Injections, in this order:\n   - IM adrenaline 0.5 mg now\n"
    c = card("em-anaphylaxis-001", text)
    assert extras(c, "treatment") == []
    assert rows(c, "treatment") == {"Intramuscular adrenaline 0.5 mg": "matched"}


def test_an_unlisted_drug_only_if_the_record_says_so_is_no_extra():
    conditional = "Plan:\n- IM adrenaline 0.5 mg\n- glucagon 1 mg IV if he turns out to be on a beta-blocker\n"
    assert extras(card("em-anaphylaxis-001", conditional), "treatment") == []
    given = "Plan:\n- IM adrenaline 0.5 mg\n- glucagon 1 mg IV\n"
    assert extras(card("em-anaphylaxis-001", given), "treatment") == ["glucagon 1 mg IV"]


def test_a_dose_worked_out_or_spread_over_time_continues_its_item():
    text = "Plan:\n- 0.9% saline 10 mL/kg = about 450 mL over an hour\n- basal insulin, two doses 12 hours apart\n"
    assert extras(card("ped-dka-001", text), "treatment") == []
    text = "Plan:\n- soluble insulin infusion at 0.1 units/kg/hour alongside the fluids\n"
    assert extras(card("ped-dka-001", text), "treatment") == []


# --- an action said to cause harm is warned against, not given ---------------------------------


def test_an_action_said_to_risk_harm_is_warned_against():
    text = (
        "Plan:\n- IM adrenaline 0.5 mg now\n"
        "- He has a pulse. An IV adrenaline bolus is dangerous outside cardiac arrest.\n"
    )
    c = card("em-anaphylaxis-001", text)
    assert condition(c, "cc-no-iv-bolus") == "OK"
    assert condition(c, "cc-implicit-contraindicated") == "OK"
    text = "Plan:\n- IM adrenaline 0.5 mg\n- Neat IV adrenaline 1 mg risks VF in a patient with a pulse.\n"
    assert condition(card("em-anaphylaxis-001", text), "cc-no-iv-bolus") == "OK"


def test_an_unsafe_action_given_with_its_risk_named_still_fails():
    text = "Plan:\n- adrenaline 1 mg IV bolus now, although it risks arrhythmia\n"
    c = card("em-anaphylaxis-001", text)
    assert condition(c, "cc-no-iv-bolus") == "FAIL"
    assert condition(c, "cc-implicit-contraindicated") == "FAIL"


def test_risks_further_on_or_risks_and_benefits_do_not_negate():
    text = "Plan:\n- laparoscopic salpingectomy risks and benefits explained, consent taken\n"
    assert rows(card("obg-ectopic-001", text), "treatment")["Emergency laparoscopic salpingectomy"] == "matched"
    text = "Plan:\n- laparoscopic salpingectomy today - explain the risks to her\n"
    assert rows(card("obg-ectopic-001", text), "treatment")["Emergency laparoscopic salpingectomy"] == "matched"


# --- an operation a discharge plan refers for is no plan now ------------------------------------


def test_an_operation_a_discharge_refers_for_is_not_given():
    text = "Plan:\n- home this evening, with a clinic referral for an elective lap chole in a few months\n"
    c = card("sur-cholecystitis-001", text)
    assert "Early laparoscopic cholecystectomy (within 1 week of diagnosis)" not in rows(c, "treatment")


def test_an_operation_planned_on_this_admission_is_given():
    text = "Plan:\n- admit under the surgeons and refer for laparoscopic cholecystectomy on this admission\n"
    c = card("sur-cholecystitis-001", text)
    assert rows(c, "treatment")["Early laparoscopic cholecystectomy (within 1 week of diagnosis)"] == "matched"


def test_a_drug_given_alongside_a_discharge_referral_still_counts():
    text = "Plan:\n- discharge home with an outpatient surgical referral and co-amoxiclav 625 mg TDS\n"
    c = card("sur-cholecystitis-001", text)
    assert condition(c, "cc-implicit-contraindicated") == "FAIL"


# --- a cause the answer commits to is a final diagnosis, hedged or not ------------------------


def test_a_committed_cause_is_final_even_hedged():
    c = card("ped-dka-001", "This is diabetic ketoacidosis, possibly brought on by a stomach bug over the weekend.")
    assert set(rows(c, "diagnoses")) == {"Type 1 diabetes mellitus with ketoacidosis (new presentation)", "stomach bug"}
    assert "Gastroenteritis" not in rows(c, "differential")


def test_a_rejected_or_queried_cause_stays_in_the_differential():
    c = card("ped-dka-001", "This is DKA. It is not caused by gastroenteritis: there is no diarrhoea.")
    assert "Gastroenteritis" not in rows(c, "diagnoses")
    assert "Gastroenteritis" in rows(c, "differential")
    c = card("ped-dka-001", "This is DKA; consider appendicitis due to the pain if it does not settle.")
    assert "Acute appendicitis" not in rows(c, "diagnoses")


# --- an analyte in a urine result is no blood test ----------------------------------------------


def test_ketones_in_a_urine_result_are_no_blood_ketones():
    c = card("ped-dka-001", "Urine dipstick: glucose 3+, ketones 3+. Impression: DKA.")
    assert "Blood ketones (beta-hydroxybutyrate)" not in rows(c, "workup")
    assert "Urinalysis" in rows(c, "workup")


def test_blood_ketones_beside_a_urine_test_still_count():
    c = card("ped-dka-001", "Impression: DKA. Capillary ketones 5.1; urine dipstick sent.")
    assert "Blood ketones (beta-hydroxybutyrate)" in rows(c, "workup")
    c = card("im-t2dm-001", "Urine dip: ketones 2+. Impression: type 2 diabetes.")
    assert "Blood or urine ketones" in rows(c, "workup")  # an item tested in either


# --- a drug's strength, count and frequency are no result -----------------------------------------


def test_a_combination_strength_with_tablets_or_a_frequency_is_a_dose():
    for text in ("Plan:\n- co-codamol 30/500 two tablets QDS\n", "Plan:\n- co-codamol 30/500 2 tabs QDS PRN\n",
                 "Plan:\n- co-codamol 30/500 QDS\n"):
        assert rows(card("obg-ectopic-001", text), "treatment") == {"Analgesia": "acceptable"}, text


def test_a_lab_value_is_still_a_result_not_a_drug():
    c = card("ped-dka-001", "Results: pH 7.08, bicarbonate 6, K 5.3.\nImpression: DKA.")
    assert "Sodium bicarbonate" not in rows(c, "treatment")
    assert condition(c, "cc-no-bicarbonate") == "OK"


# --- a heading that times the rest of the plan is a plan heading -------------------------------


def test_a_timed_heading_continues_the_plan_and_its_unlisted_drugs_count():
    text = """## Diagnosis
DKA

## Plan
- insulin infusion 0.1 units/kg/hour

## Once she is stable
- nystatin cream
"""
    c = card("ped-dka-001", text)
    assert extras(c, "treatment") == ["nystatin cream"]


def test_a_timed_heading_in_plain_text_is_no_heading():
    layout = parse("Diagnosis: DKA\nAfter that we talked about school and the plan for her friends.\n")
    assert [s.kind for s in layout.sections] == ["diagnosis"]


def test_keeping_a_fluid_to_a_minimum_is_no_plan_to_give_it():
    text = "Plan:\n- O-negative blood now; keep crystalloid to a minimum\n"
    assert extras(card("obg-ectopic-001", text), "treatment") == []


# --- clinical shorthand headings ------------------------------------------------------------------


def test_shorthand_headings_on_bulleted_lines():
    text = "- Dx: ruptured ectopic pregnancy\n- Ix: FBC, serum progesterone\n- Mx: tramadol 50 mg QDS\n"
    layout = parse(text)
    assert {s.kind for s in layout.sections} >= {"diagnosis", "workup", "treatment"}
    c = card("obg-ectopic-001", text)
    assert rows(c, "treatment")["Analgesia"] == "acceptable", "tramadol is an analgesic (vocabulary: drugs.yaml)"


# --- a drug given by the other injection route is another action -----------------------------


def test_adrenaline_given_iv_is_no_im_adrenaline():
    for plan in ("adrenaline 1:1000 1 mL IV", "adrenaline 500 micrograms given intravenously"):
        c = card("em-anaphylaxis-001", f"Plan:\n- {plan}\n")
        assert "Intramuscular adrenaline 0.5 mg" not in rows(c, "treatment"), plan
        assert condition(c, "cc-im-adrenaline") == "FAIL", plan


def test_im_adrenaline_beside_iv_access_or_a_rejected_iv_route_still_counts():
    for plan in ("adrenaline 0.5 mg into the thigh, IV access and fluids", "adrenaline 1:1000 0.5 mL, not IV",
                 "an injection of adrenaline into the muscle and an IV drip"):
        c = card("em-anaphylaxis-001", f"Plan:\n- {plan}\n")
        assert condition(c, "cc-im-adrenaline") == "OK", plan

"""Correct plans written in guideline and US wording that the bundled cases now list (NICE, RCOG,
ACOG, BSPED, Resuscitation Council UK), and the wrong plans that must still not pass."""

from __future__ import annotations

import pytest

from medbench_tui.core.cases.model import Case
from medbench_tui.core.scoring import score
from medbench_tui.core.scoring.document import document
from medbench_tui.core.scoring.reference import reference_table
from medbench_tui.core.text import normalise
from medbench_tui.core.transcript import FinalResponse, Transcript
from medbench_tui.core.validate import load_valid_case
from tests.support.case_yaml import case_yaml
from tests.test_scoring_regressions import CASES, card, case, condition, extras, rows


def test_lay_monitoring_and_observation_in_anaphylaxis():
    text = "This may be anaphylaxis. You'll be attached to a monitor, and kept in for observation overnight."
    c = card("em-anaphylaxis-001", text)
    assert "Continuous monitoring with ABCDE assessment" in rows(c, "workup")
    assert "Observation for at least 6-12 hours" in rows(c, "treatment")


def test_an_intravenous_adrenaline_bolus_in_other_words_fails_and_is_no_im_dose():
    for plan in ("give 1 mg of adrenaline intravenously", "epinephrine 1 mg IV push", "IV epinephrine 1 mg now"):
        c = card("em-anaphylaxis-001", f"Plan:\n- {plan}\n")
        assert condition(c, "cc-no-iv-bolus") == "FAIL", plan
        assert condition(c, "cc-im-adrenaline") == "FAIL", plan


def test_im_adrenaline_still_passes():
    for plan in ("epinephrine 0.5 mg IM to the thigh, repeat in 5 minutes if no better", "adrenaline 1:1000 0.5 mL",
                 "adrenaline 1 in 1000 0.5 mL into the thigh", "epinephrine 1 mg/mL, 0.5 mg IM",
                 "adrenaline (1 mg/mL) 0.5 mg IM"):
        c = card("em-anaphylaxis-001", f"Plan:\n- {plan}\n")
        assert condition(c, "cc-im-adrenaline") == "OK", plan
        assert condition(c, "cc-no-iv-bolus") == "OK", plan


def test_two_numbers_side_by_side_are_not_read_as_one():
    """Words run together as phrases are matched ("x ray" = "xray"), numbers do not: a strength
    written beside a dose ("1 in 1000 0.5 mL") is no 1 in 10,000 solution."""
    table = reference_table(case("em-anaphylaxis-001"))

    def named(text: str) -> set[str]:
        return {m.ref.name for m in table.find_items(document(text)) if m.ref is not None}

    assert "Intravenous adrenaline bolus" in named("adrenaline 1 in 10000 bolus")
    assert "Intravenous adrenaline bolus" not in named("adrenaline 1 in 1000 0 bolus")
    assert "Intravenous adrenaline bolus" not in named("adrenaline 1 in 1 0000 bolus")


def test_a_shorter_name_that_leaves_out_a_word_another_item_says_gives_way():
    """"Intravenous maintenance fluids" is the maintenance item: the bolus item's "IV fluids", whose words
    stand either side of "maintenance", is no mention of those words. Words said apart by a list ("IV dextrose
    first, then thiamine") still name both items."""
    c = card("ped-intussusception-001", "Plan: commence intravenous maintenance fluids at the full rate; NBM.")
    assert "Maintenance intravenous fluids" in rows(c, "treatment")
    assert "Intravenous fluid resuscitation 10 mL/kg crystalloid bolus" not in rows(c, "treatment")
    assert condition(c, "cc-resuscitation") == "FAIL"
    c = card("ped-intussusception-001", "Plan: IV fluids 10 mL/kg now; NBM.")
    assert condition(c, "cc-resuscitation") == "OK"


@pytest.mark.parametrize("plan, bolus", [
    ("Humulin S 0.1 units/kg IV push, then the fixed-rate infusion", True),
    ("insulin aspart 6 units subcut stat before the drip is up", True),
    ("start the insulin infusion stat at 0.1 units/kg/h", False),
    ("soluble insulin 0.1 units per kg per hour, started stat", False),
])
def test_a_one_off_dose_of_a_drug_of_the_class_is_its_bolus(plan: str, bolus: bool):
    """A drug given once, at once ("stat", "push") is a bolus of its class: the insulin bolus item, whatever
    the brand or route; an infusion or a rate started at once is no bolus."""
    c = card("ped-dka-001", f"Plan:\n- {plan}\n")
    assert (condition(c, "cc-no-insulin-bolus") == "FAIL") is bolus, plan


def test_a_one_off_crystalloid_by_brand_is_the_fluid_bolus_and_a_harmful_bolus_needs_its_route():
    """"Compound sodium lactate 10 mL/kg stat" is a crystalloid bolus; "adrenaline 500 micrograms stat" says no
    route, so it is no intravenous adrenaline bolus."""
    c = card("ped-intussusception-001", "Plan:\n- compound sodium lactate 10 mL/kg stat and reassess\n")
    assert condition(c, "cc-resuscitation") == "OK"
    c = card("em-anaphylaxis-001", "Plan:\n- adrenaline 500 micrograms stat into the thigh, Hartmann's 500 mL stat\n")
    assert condition(c, "cc-no-iv-bolus") == "OK"
    assert "Intravenous fluid bolus" in rows(c, "treatment")


def test_a_one_off_dose_meets_only_an_item_that_is_its_drug_and_nothing_more():
    """"Hypertonic saline bolus" says more than saline: "0.9% sodium chloride 500 mL stat" is no hypertonic
    saline."""
    c = card("im-hyponatraemia-001", "Plan:\n- 0.9% sodium chloride 500 mL IV stat, recheck sodium in 6 hours\n")
    assert "Hypertonic (3%) saline" not in rows(c, "treatment")


@pytest.mark.parametrize("plan, given", [
    ("2-hourly gas: monitor the glucose and bicarbonate", False),
    ("repeat the blood gas; bicarbonate should be rising by 4 hours", False),
    ("check the gas and give bicarbonate 1 mmol/kg", True),
])
def test_a_measured_thing_checked_or_followed_is_no_drug_given(plan: str, given: bool):
    """Bicarbonate that the answer checks ("monitor the glucose and bicarbonate") or follows ("bicarbonate
    should be rising") is a result to follow, not sodium bicarbonate given."""
    c = card("ped-dka-001", f"Plan:\n- {plan}\n")
    assert (condition(c, "cc-no-bicarbonate") == "FAIL") is given, plan


@pytest.mark.parametrize("plan, enough", [
    ("home with one Jext pen and a written plan", False),
    ("supply EpiPen x1 before he leaves", False),
    ("supply EpiPen x 2 and show him how to use them", True),
    ("prescribe 2 EpiPens before discharge", True),
])
def test_fewer_devices_than_the_item_counts_is_not_the_item(plan: str, enough: bool):
    """An item whose name opens with a count ("Two adrenaline auto-injectors") is not met by fewer."""
    c = card("em-anaphylaxis-001", f"Plan:\n- {plan}\n")
    assert (condition(c, "cc-auto-injector") == "OK") is enough, plan


def test_an_action_that_waits_for_a_test_to_confirm_is_a_later_event():
    """"If skin-prick tests confirm the nut allergy, the clinic will supply pens" waits for a test not done yet,
    though the record establishes the allergy; "if the ECG shows ..." of an ECG the record holds is settled."""
    from medbench_tui.core.scoring.assertion import Record

    record = Record(["Peanut allergy with anaphylaxis"], "ECG: sinus tachycardia 118/min.", [["ECG"]])
    assert not record.establishes("skin-prick tests confirm the peanut allergy")
    assert record.establishes("the ECG shows sinus tachycardia")
    assert record.establishes("this is a peanut allergy")
    c = card("em-anaphylaxis-001", "Plan: IM adrenaline 0.5 mg now. Allergy clinic to prescribe two "
                                   "adrenaline pens if the tests show a peanut allergy.")
    assert condition(c, "cc-auto-injector") == "FAIL"


def test_a_mention_that_goes_on_into_its_own_action_is_not_negated_by_the_action_before():
    """"Withhold aspirin for now and resume it at 75 mg": the mention that holds "resume" is the resumption."""
    from medbench_tui.core.scoring.cues import negation

    doc = document("Withhold aspirin for now and resume it at 75 mg next week.")
    first = next(k for k, t in enumerate(doc.tokens) if t.low == "aspirin")
    last = next(k for k, t in enumerate(doc.tokens) if t.low == "75")
    assert negation(doc, first, last) is None
    assert negation(doc, first, first) is not None


@pytest.mark.parametrize("plan, permanent", [
    ("discontinue Lamictal until the rash has settled", False),
    ("stop lamotrigine and reintroduce it slowly after discharge", False),
    ("stop lamotrigine today - it must never be restarted", True),
    ("lamotrigine stopped for good", True),
])
def test_a_stop_the_answer_ends_is_no_permanent_stop(plan: str, permanent: bool):
    """"Stop lamotrigine immediately and permanently" is not met by a hold that ends ("until ...", "reintroduce
    it"); a stop whose restart is ruled out is permanent."""
    c = card("em-sjs-001", f"Plan: {plan}. Burns unit admission today, ophthalmology today.")
    assert (condition(c, "cc-stop-drug") == "OK") is permanent, plan


@pytest.mark.parametrize("plan, antidepressant", [
    ("swap the sertraline for venlafaxine 75 mg", True),
    ("change him from sertraline to citalopram", True),
    ("switch sertraline to quetiapine 100 mg at night", False),
])
def test_a_switch_to_a_drug_of_the_class_is_a_switch_within_it(plan: str, antidepressant: bool):
    """"Switch antidepressant" is met by a switch whose target is an antidepressant; a switch to an antipsychotic
    continues none."""
    c = card("psy-mania-001", f"Plan: {plan}. Crisis team to assess him today.")
    assert (condition(c, "cc-no-antidepressant") == "FAIL") is antidepressant, plan


def test_us_wording_of_an_ectopic_resuscitation():
    text = """Plan:
- activate the MTP, two large-bore IVs, type and crossmatch 6 units
- OB/GYN consult stat for the OR
"""
    c = card("obg-ectopic-001", text)
    assert "Group and cross-match (including RhD status)" in rows(c, "workup")
    assert condition(c, "cc-resuscitation") == "OK"
    assert condition(c, "cc-gynae-review") == "OK"


def test_an_outpatient_gynaecology_follow_up_is_no_emergency_review():
    c = card("obg-ectopic-001", "Plan:\n- laparoscopic salpingectomy\n- OB/GYN follow-up in clinic in 2 weeks\n")
    assert condition(c, "cc-gynae-review") == "FAIL"


def test_shorthand_gynae_registrar_and_combination_analgesia():
    c = card("obg-ectopic-001", "Mx: discussed with on-call gynae reg; co-codamol 30/500 mg QDS")
    assert condition(c, "cc-gynae-review") == "OK"
    assert "Analgesia" in rows(c, "treatment")


def test_threatened_or_incomplete_miscarriage_names_both():
    c = card("obg-ectopic-001", "Diagnosis: ruptured ectopic.\nDifferential:\n- threatened or incomplete miscarriage\n")
    assert {"Threatened miscarriage", "Incomplete miscarriage"} <= set(rows(c, "differential"))


def test_a_fixed_rate_infusion_written_with_h_for_hour():
    c = card("ped-dka-001", "Plan:\n- soluble insulin as a fixed-rate IV infusion at 0.05 units/kg/h\n")
    assert rows(c, "treatment") == {
        "Fixed-rate IV insulin infusion 0.05-0.1 units/kg/hour, started 1-2 hours after IV fluids": "matched"
    }


def test_hartmanns_is_intravenous_fluid():
    c = card("sur-cholecystitis-001", "Plan:\n- IV Hartmann's 1 L over 8 hours\n")
    assert rows(c, "treatment") == {"Intravenous fluids": "matched"}


def test_a_measured_hcg_is_both_a_pregnancy_test_and_a_quantitative_one():
    c = card("obg-ectopic-001", "Results: hCG 3,820 IU/L, empty uterus on TVUS. Impression: ruptured ectopic.")
    assert {"Pregnancy test", "Quantitative serum hCG"} <= set(rows(c, "workup"))
    c = card("obg-ectopic-001", "Results: urine hCG positive. Impression: ruptured ectopic.")
    assert "Quantitative serum hCG" not in rows(c, "workup")



def test_a_drug_stopped_in_the_passive_or_with_its_dose_pattern_is_stopped():
    for plan in ("Sertraline should be stopped today.", "the sertraline is to be discontinued", "stop sertraline"):
        c = card("psy-mania-001", f"Plan:\n- {plan}\n")
        assert rows(c, "treatment").get("Stop sertraline") == "matched", plan
        assert condition(c, "cc-stop-antidepressant") == "OK", plan
    c = card("psy-mania-001", "Plan:\n- sertraline must not be stopped\n")
    assert "Stop sertraline" not in rows(c, "treatment")
    c = card("psy-mania-001", "Plan:\n- Stop his daily ibuprofen and use paracetamol for the knee\n")
    assert "Stop regular ibuprofen" in rows(c, "treatment")


def test_a_drug_stopped_by_its_brand_or_held_is_stopped():
    """The vocabulary's other names of the drug count ("Zoloft" is sertraline); "hold" is a stop."""
    for plan in ("stop the Zoloft", "Lustral discontinued", "hold sertraline", "d/c Zoloft"):
        c = card("psy-mania-001", f"Plan:\n- {plan}\n")
        assert rows(c, "treatment").get("Stop sertraline") == "matched", plan
    c = card("psy-mania-001", "Plan:\n- Stop the ibuprofen and the sertraline\n")  # one stop, two drugs
    assert {"Stop regular ibuprofen", "Stop sertraline"} <= set(rows(c, "treatment"))
    for plan in ("do not hold the sertraline", "d/c home on sertraline"):  # "d/c home" is a discharge
        c = card("psy-mania-001", f"Plan:\n- {plan}\n")
        assert "Stop sertraline" not in rows(c, "treatment"), plan


def test_a_drug_that_should_not_be_started_or_does_not_treat_is_not_given():
    for plan in ("valproate should not be started (MHRA, under 55)", "lamotrigine does not treat mania"):
        c = card("psy-mania-001", f"Plan:\n- olanzapine 10 mg at night\n- {plan}\n")
        assert not {"Sodium valproate", "Lamotrigine for acute mania"} & set(rows(c, "treatment")), plan
        assert condition(c, "cc-implicit-contraindicated") == "OK", plan


def test_reducing_the_antidepressant_in_mania_is_still_continuing_it():
    c = card("psy-mania-001", "Plan:\n- I would reduce the sertraline back to 50 mg\n")
    assert rows(c, "treatment").get("Continuing or increasing the antidepressant") == "contraindicated"


def test_a_comorbidity_named_first_in_the_history_leaves_the_assessment_final():
    text = """HPI: 56M, HTN, active smoker, 70 min of crushing central chest pain.
MDM: Inferior STEMI, RCA culprit likely. Aortic dissection considered: equal arm BPs.

ASSESSMENT / PLAN
1. Inferior STEMI with RV involvement (I21.1)
   - cath lab activated for primary PCI
"""
    c = card("em-stemi-001", text)
    primary = "Acute inferior ST-elevation myocardial infarction with right ventricular involvement"
    assert rows(c, "diagnoses").get(primary) == "matched"
    assert c.metrics.diagnosis_accuracy == 100


def test_most_often_commits_and_less_often_puts_aside_and_a_bracketed_other_name_is_one_condition():
    text = ("A runny nose and cough followed by fast breathing in a young baby is most often bronchiolitis; "
            "less often it is a chest infection (pneumonia) or whooping cough.")
    c = card("ped-bronchiolitis-001", text)
    assert rows(c, "diagnoses") == {"Acute bronchiolitis": "matched"}
    assert {"Pneumonia", "Whooping cough (pertussis)"} <= set(rows(c, "differential"))


def test_prose_wrapped_at_a_width_keeps_its_negation_across_the_line_break():
    text = ("MDM: PE is unlikely, with no signs and an ECG that is diagnostic, so there is no need for a D-dimer\n"
            "or a CTPA.")
    c = card("em-stemi-001", text)
    assert "CT pulmonary angiography" not in rows(c, "workup")
    # a short list line is no wrapped prose: the next line is an item of its own
    c = card("em-stemi-001", "Plan:\nno CTPA\naspirin 300 mg\n")
    assert "CT pulmonary angiography" not in rows(c, "workup")
    assert any("spirin" in name for name in rows(c, "treatment"))


def test_lay_words_for_a_same_day_hospital_assessment_and_an_inferior_infarct():
    c = card("ped-bronchiolitis-001", "He needs to be seen at hospital today.")
    assert rows(c, "treatment").get("Referral to hospital for paediatric assessment") == "matched"
    c = card("ped-bronchiolitis-001", "If he gets worse, take him to hospital.")  # a safety net, no referral
    assert "Referral to hospital for paediatric assessment" not in rows(c, "treatment")
    c = card("em-stemi-001", "Most likely unstable angina, though the ST changes could be an evolving inferior infarct")
    primary = "Acute inferior ST-elevation myocardial infarction with right ventricular involvement"
    assert primary in rows(c, "differential")


def test_mania_differentials_in_prose_that_need_excluding():
    text = ("This is a manic episode in bipolar affective disorder (F31.1). Stimulant use, thyrotoxicosis and an "
            "organic cause need excluding, and there are no psychotic features to suggest a schizoaffective illness.")
    c = card("psy-mania-001", text)
    assert {"Acute intoxication with stimulants", "Thyrotoxicosis", "Organic mood disorder",
            "Schizoaffective disorder, manic type"} <= set(rows(c, "differential"))


def test_an_item_that_only_mentions_a_stop_is_no_withholding():
    """The withholding word must open the item ("taper and stop zopiclone"); "follow-up BP check after
    stopping doxazosin" is a check, and took "Stop doxazosin." from its own item."""
    from medbench_tui.core.scoring.concepts import withhold_parts

    assert withhold_parts(("taper", "stop", "zopiclone")) == ("zopiclone",)
    assert withhold_parts(("stop", "regular", "ibuprofen")) == ("ibuprofen",)
    for words in (("follow", "up", "bp", "check", "after", "stopping", "doxazosin"), ("one", "stop", "clinic"),
                  ("delayed", "antibiotic", "prescription"),  # a back-up prescription is given, later
                  ("referral", "stop", "smoking", "service")):
        assert withhold_parts(words) is None, words


def test_a_stop_put_off_to_a_later_review_is_no_stop_now(tmp_path):
    """A withholding item with its own time is met only by a stop at that time."""
    text = (CASES / "psy-delirium-001.yaml").read_text().replace(
        "  - item: Stop oxybutynin\n    class: required\n", "  - item: Stop oxybutynin\n    class: required\n"
        "    within: same day\n")
    case_file = tmp_path / "psy-delirium-001.yaml"
    case_file.write_text(text)
    timed = load_valid_case(case_file)
    for plan, verdict in (("Stop oxybutynin at her annual medication review in the spring.", "FAIL"),
                          ("Stop oxybutynin today.", "OK")):
        scored = score(timed, Transcript(case_id=timed.id, final=FinalResponse(text=f"Plan:\n- {plan}\n")))
        assert condition(scored, "cc-stop-anticholinergic") == verdict, plan


@pytest.mark.parametrize(("plan", "explained"), [
    ("- Discussed her request: no ciprofloxacin - this is almost certainly cystitis, it would not help", True),
    ("- Ciprofloxacin not indicated; explained rationale", True),
    ("- Explained that ciprofloxacin is not needed and why: side effects and resistance", True),
    ("- No ciprofloxacin", False),  # declined without a reason is no explanation
    ("- Ciprofloxacin 500 mg because of the fever", False),  # given, not declined
])
def test_a_decline_with_a_reason_is_the_explanation_an_item_asks_for(tmp_path, plan, explained):
    """"Explain that X is not needed and why" is met by declining X and saying why on the same line."""
    from tests.valid_case import VALID

    text = VALID.replace("  - item: Fluoroquinolone\n", "  - item: Explain that ciprofloxacin is not needed and why\n"
                         "    class: required\n  - item: Fluoroquinolone\n")
    case_file = tmp_path / "valid.yaml"
    case_file.write_text(text.replace("id: ref-unknown-answer", "id: valid"))
    fixture = Case.model_validate(case_yaml(case_file), by_alias=True)
    scored = score(fixture, Transcript(case_id=fixture.id, final=FinalResponse(text=f"Plan:\n{plan}\n")))
    assert (rows(scored, "treatment").get("Explain that ciprofloxacin is not needed and why") == "matched") is explained


def test_a_duration_in_shorthand_and_a_list_after_a_comma_keep_the_treatment():
    """"PO 5/7" is five days, not a result of "PO"; "oxygen, sats monitoring" gives oxygen ("oxygen sats"
    is a measurement)."""
    c = card("im-cap-001", "Plan:\n- Amoxicillin 500 mg TDS PO 5/7\n")
    assert rows(c, "treatment").get("Amoxicillin 500 mg three times daily for 5 days") == "matched"
    assert "oxygen" in extras(card("em-anaphylaxis-001", "Plan:\n- IM adrenaline 0.5 mg, oxygen, sats monitoring\n"),
                              "treatment")
    assert "oxygen" not in extras(card("em-anaphylaxis-001", "Plan:\n- IM adrenaline 0.5 mg, oxygen sats\n"),
                                  "treatment")


def test_a_decision_rules_name_is_not_the_test_it_decides():
    c = card("em-head-injury-001", "Dx: minor head injury.\nCanadian CT Head Rule negative, so no scan.\n")
    assert condition(c, "cc-no-ct") == "OK"
    c = card("em-head-injury-001", "Dx: minor head injury.\nCT head today.\n")
    assert condition(c, "cc-no-ct") == "FAIL"


def test_sending_to_a_team_for_evaluation_is_a_referral():
    c = card("ped-safeguarding-001", "Plan:\n- Send to the pediatric emergency department today for evaluation by "
             "the child abuse pediatrics team.\n")
    assert condition(c, "cc-paeds-same-day") == "OK"


@pytest.mark.parametrize("plan, verdict", [
    ("surgery consult for laparoscopic appendectomy; admit", "OK"),
    ("Refer to surgery today.", "OK"),
    ("Surgical consult now.", "OK"),
    ("Urology referral today.", "FAIL"),  # another surgical team is not the general surgeons
    ("Routine surgery outpatient referral in 6 weeks.", "FAIL"),  # timing still counts
    ("Review at the surgery this afternoon with repeat bloods.", "FAIL"),  # the GP's surgery
    ("GP to see her in surgery this evening.", "FAIL"),
    ("Discussed surgery with her; she would prefer antibiotics only. Home.", "FAIL"),  # an operation discussed
])
def test_surgery_as_a_team_is_the_general_surgeons(plan: str, verdict: str):
    c = card("sur-appendicitis-002", f"Acute appendicitis.\nPlan: {plan}\n")
    assert condition(c, "cc-surgical-referral") == verdict


def labels(c, case_id: str) -> dict[str, str]:
    from medbench_tui.core.scoring.labels import item_labels

    return {name: label for name, (label, _) in item_labels(c, case(case_id)).items()}


def test_a_drug_or_class_declined_is_the_harmful_item_that_names_it_declined():
    """"No antibiotics" declines a useless item about antibiotics and "(avoid carbamazepine)" a harmful
    switch to it: read as widely as credit, since a declined item is never given; a harmful stop is
    not declined by the stop it names."""
    c = card("im-gout-001", "Plan:\n- Naproxen 500 mg bd with omeprazole.\n- No antibiotics: no sign of infection.\n")
    assert labels(c, "im-gout-001").get("Antibiotics for presumed infection") == "negated"
    c = card("em-sjs-001", "Plan:\n- Stop lamotrigine permanently (avoid carbamazepine).\n")
    assert labels(c, "em-sjs-001").get("Switch to carbamazepine or phenytoin") == "negated"
    c = card("sur-septic-arthritis-001", "Plan:\n- Stop prednisolone.\n")
    assert condition(c, "cc-implicit-contraindicated") == "FAIL"


def test_an_order_written_first_then_or_followed_by_is_the_order_an_item_names():
    """"A first, then B" and "A followed by B" say "A before B"; the other order does not."""
    for plan, verdict in (("IV dextrose followed by thiamine", "FAIL"), ("IV dextrose first and then thiamine", "FAIL"),
                          ("IV thiamine first, then IV dextrose", "OK")):
        c = card("im-alcohol-withdrawal-001", f"Alcohol withdrawal.\nPlan:\n- {plan}\n- chlordiazepoxide per CIWA\n")
        assert condition(c, "cc-no-glucose-first") == verdict, plan


def test_a_class_declined_by_the_words_after_it_is_declined():
    """"Antibiotics not needed" declines the item about antibiotics as "no antibiotics" does."""
    c = card("im-gout-001", "Plan:\n- Naproxen 500 mg bd with omeprazole.\n- Antibiotics not needed.\n")
    assert labels(c, "im-gout-001").get("Antibiotics for presumed infection") == "negated"


def test_against_a_score_guides_a_dose_and_advising_against_declines():
    """"Titrated against CIWA" doses by the score; "advised against" declines what follows."""
    c = card("im-alcohol-withdrawal-001", "Plan:\n- Chlordiazepoxide titrated against hourly CIWA-Ar scores\n")
    assert labels(c, "im-alcohol-withdrawal-001").get("CIWA-Ar scoring to guide dosing") == "found"
    c = card("em-sah-001", "Plan:\n- Advised against aspirin or clopidogrel until the aneurysm is secured\n")
    item = "Antiplatelet or anticoagulant drugs before the aneurysm is secured"
    assert labels(c, "em-sah-001").get(item) == "negated"


def test_lay_words_for_procedures_and_units_are_read():
    """"cut it out" is excision and "freeze it off" cryotherapy, said or declined; "2 pairs" (of ampoules)
    is a dose, not a result; "Mg2+" is magnesium."""
    assert normalise("cut it out") == normalise("excise it") and normalise("freeze it off") == normalise("cryotherapy")
    assert normalise("Mg2+") == normalise("magnesium") and normalise("Ca2+") == normalise("calcium")
    c = card("onc-melanoma-001", "Plan:\n- Urgent dermatology referral; we won't freeze it or cut it out here.\n")
    item = "Excision, biopsy or destruction of the lesion in primary care"
    assert labels(c, "onc-melanoma-001").get(item) == "negated"
    c = card("im-alcohol-withdrawal-001", "Plan:\n- IV Pabrinex 2 pairs now\n- chlordiazepoxide per CIWA\n")
    assert condition(c, "cc-thiamine") == "OK"


def test_declining_the_broader_test_with_a_reason_explains_why_the_narrower_is_not_needed():
    """"Explain why a CT scan is not needed" is met by declining imaging (the CT's broader term) with
    a reason; declining without one is not."""
    c = card("em-head-injury-001", "Dx: concussion.\nPlan: no brain imaging required, since none of the NICE "
             "risk factors are present.\n")
    assert condition(c, "cc-explain") == "OK"
    c = card("em-head-injury-001", "Dx: concussion.\nPlan: no brain imaging.\n")
    assert condition(c, "cc-explain") == "FAIL"


def test_household_words_and_the_head_injury_shorthand_are_read():
    assert normalise("HI advice") == normalise("head injury advice")
    assert normalise("home with her boyfriend") == normalise("home with her partner")
    assert normalise("hi there") != normalise("head injury there")  # only in capitals


def test_tomorrow_is_no_same_day_action_but_is_within_24_hours():
    """A same-day item is met today, not tomorrow; an item within 24 hours is met by tomorrow morning."""
    for plan, verdict in (("Paediatric assessment tomorrow", "FAIL"), ("Paediatric assessment this afternoon", "OK")):
        c = card("ped-safeguarding-001", f"Dx: possible NAI.\nPlan:\n- {plan}\n- Phone children's social care today\n")
        assert condition(c, "cc-paeds-same-day") == verdict, plan
    c = card("obg-reduced-fetal-movements-001", "Imp: recurrent RFM 36/40.\nPlan: growth scan with Dopplers tomorrow "
             "morning.\n")
    assert condition(c, "cc-ultrasound") == "OK"


def test_an_admission_or_same_day_referral_is_no_sooner_outpatient_plan():
    """A harmful discharge with a routine outpatient referral is not met, in other words, by the same team
    seeing the patient today; a discharge with an earlier review still is."""
    for plan, verdict in (("Admit under the general surgeons, NPO, IV fluids", "OK"),
                          ("Urgent surgical review today", "OK"),
                          ("Discharge with surgical outpatient review tomorrow", "FAIL")):
        c = card("sur-cholecystitis-001", f"Acute cholecystitis.\nPlan: {plan}.\n")
        assert condition(c, "cc-no-discharge") == verdict, plan


def test_us_and_uk_shorthand_of_teams_drugs_and_pathways_is_read():
    """"Gen surg r/v today" is a surgical review, "epi" is adrenaline, "code STEMI" / "emergent cath"
    the primary PCI pathway, and "outside the thrombolysis window" names no thrombolysis given."""
    from medbench_tui.core.vocabulary.reading import read_action

    reading = read_action("Gen surg r/v today")
    assert reading.acts and {t.name for t in reading.teams} == {"general surgery"}
    c = card("em-anaphylaxis-001", "Anaphylaxis.\nPlan:\n- IM epi 500 mcg to the thigh\n")
    assert condition(c, "cc-im-adrenaline") == "OK"
    c = card("em-stemi-002", "Inferior STEMI.\nPlan:\n- code STEMI, emergent cath\n- aspirin 300 mg\n")
    assert condition(c, "cc-reperfusion") == "OK"
    for plan, verdict in (("outside the thrombolysis window; no alteplase", "OK"), ("IV alteplase now", "FAIL")):
        c = card("oph-crao-001", f"CRAO.\nPlan:\n- {plan}\n")
        assert condition(c, "cc-no-late-thrombolysis") == verdict, plan


def test_a_brand_of_a_harmful_class_is_that_class_and_a_provoking_drug_is_history():
    """"Start Rigevidon" gives the combined pill; "provoked by Rigevidon" names a cause."""
    c = card("psy-anorexia-001", "Anorexia nervosa. Plan: start Rigevidon to bring her periods back.\n")
    assert condition(c, "cc-no-cocp") == "FAIL"
    c = card("em-pe-001", "Pulmonary embolism, provoked by Rigevidon.\nPlan: apixaban.\n")
    assert condition(c, "cc-implicit-contraindicated") == "OK"


def test_a_routine_referral_is_no_two_week_referral():
    """"Routine referral" is a non-urgent wait (two weeks or more), not the suspected-cancer pathway."""
    for plan, verdict in (("Routine referral to the breast clinic, non-urgent.", "FAIL"),
                          ("Refer to the breast clinic on the two-week-wait pathway.", "OK")):
        c = card("onc-breast-001", f"Breast lump.\nPlan: {plan}\n")
        assert condition(c, "cc-urgent-referral") == verdict, plan


def test_capitalised_diagnosis_shorthand_and_drug_nicknames_are_read():
    """"RD" and "AN" in capitals are the diagnoses (not the words "an"/"rd"); "nitro" is GTN."""
    from medbench_tui.core.vocabulary.reading import read_action

    assert normalise("RD") == normalise("retinal detachment") and normalise("an") != normalise("anorexia nervosa")
    assert normalise("AN") == normalise("anorexia nervosa")
    assert {d.name for d in read_action("nitro drip").drugs} == {"glyceryl trinitrate"}


def test_a_treatment_judged_too_risky_is_declined():
    """"Anticoagulation too risky ... aspirin instead" gives no anticoagulation."""
    c = card("im-af-001", "AF. Anticoagulation is too risky with his falls; aspirin 75 mg daily instead.\n")
    assert condition(c, "cc-anticoagulation") == "FAIL"


def test_a_discharge_with_a_drug_of_the_class_is_the_harmful_discharge_unless_it_is_conditional():
    """"Discharge home on oral co-amoxiclav" is the harmful discharge on oral antibiotics; "if he
    self-discharges, give oral co-amoxiclav" is a plan for a condition, not a discharge."""
    c = card("em-quinsy-001", "Dx: left quinsy.\nPlan: discharge home on oral co-amoxiclav 625 mg TDS; GP review.\n")
    assert condition(c, "cc-no-discharge") == "FAIL"
    c = card("em-quinsy-001", "Dx: left quinsy.\nPlan: admit under ENT for drainage. If he self-discharges, give oral "
             "co-amoxiclav.\n")
    assert condition(c, "cc-no-discharge") == "OK"


def test_scoring_does_not_depend_on_how_python_hashes_strings():
    """The same answer scores the same in every process: nothing is read in the order of a set (a
    discharge plan's drug was once the first of a set of names, so the verdict changed run to run)."""
    import os
    import subprocess
    import sys

    script = (
        "from tests.test_scoring_regressions import card\n"
        "c = card('em-quinsy-001', 'Dx: left quinsy.\\nPlan: benzylpenicillin 1.2 g IV stat in ED, then discharge home"
        " on oral co-amoxiclav 625 mg TDS;\\nENT clinic next week.\\n')\n"
        "print(c.model_dump_json(exclude={'scored_at', 'timing'}))\n"
    )
    outputs = {
        subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                       env={**os.environ, "PYTHONHASHSEED": seed}, cwd=CASES.parent).stdout
        for seed in ("1", "4")  # 4 read the discharge plan another way before the fix
    }
    assert len(outputs) == 1


def test_an_item_named_negated_is_still_found_where_a_later_action_gives_it():
    """A team said to be absent ("we don't have paediatric surgeons on site") does not hide the
    referral the next words make in other words; the negated mention stays negated."""
    text = ("Intussusception. We don't have paediatric surgeons on site, so I'll ring the regional paediatric "
            "surgical centre now and arrange urgent transfer. 10 mL/kg crystalloid bolus IV.")
    assert condition(card("ped-intussusception-001", text), "cc-surgical-referral") == "OK"
    text = "Intussusception. We don't have paediatric surgeons on site. 10 mL/kg crystalloid bolus IV."
    assert condition(card("ped-intussusception-001", text), "cc-surgical-referral") == "FAIL"


@pytest.mark.parametrize("plan, verdict", [
    ("Come back if you're not improving in 4 weeks.", "FAIL"),  # generic safety-netting
    ("Return if things get worse.", "FAIL"),
    ("Seek urgent help if the suicidal thoughts get worse: crisis team number given.", "OK"),
    ("If suicidal thoughts worsen, seek urgent help.", "OK"),
])
def test_a_safety_plan_is_not_met_by_generic_safety_netting(plan: str, verdict: str):
    """An item that is more than safety-netting ("Safety plan with crisis contacts") and lists one
    safety-net wording ("seek urgent help if suicidal thoughts worsen") is met by a safety net about
    the same worry, not by any "come back if worse"; an item that is safety-netting itself still is."""
    c = card("psy-mdd-001", f"Moderate depressive episode. Sertraline 50 mg daily. {plan}")
    assert condition(c, "cc-safety-plan") == verdict


def test_a_safety_net_without_a_condition_is_met_by_one_of_its_kind():
    """"call an ambulance" (an admission's alias) is met by "call 999 for admission", whatever follows."""
    c = card("im-copd-exacerbation-001", "COPD exacerbation. Plan: call 999 for admission, salbutamol, prednisolone.")
    assert condition(c, "cc-admit") == "OK"


def test_tricyclics_are_a_class_an_answer_can_decline_or_give():
    c = card("psy-mdd-001", "Moderate depressive episode. Sertraline 50 mg daily. Avoid tricyclics (overdose risk).")
    assert labels(c, "psy-mdd-001").get("Tricyclic antidepressant") == "negated"
    assert condition(c, "cc-no-tca") == "OK"
    c = card("psy-mdd-001", "Moderate depressive episode. Start lofepramine 70 mg daily.")
    assert condition(c, "cc-no-tca") == "FAIL"


@pytest.mark.parametrize("text", ["Impression: NSTEMI.", "Diagnosis: NSTEMI - early invasive strategy within 72 h."])
def test_a_clinical_name_written_exactly_is_no_misspelling_of_another(text: str):
    """"NSTEMI" is one edit from "STEMI", but the clinical vocabulary knows it as a name of its own:
    neither the typo correction nor the similar-name fallback reads it as the inferior STEMI."""
    c = card("em-stemi-001", text)
    assert c.metrics.diagnosis_accuracy == 0


@pytest.mark.parametrize("plan, item", [
    ("co-amox 1.2g IV tds", "Intravenous antibiotics"),
    ("IV ketorolac 15 mg", "Analgesia"),
    ("hydromorphone 0.5 mg IV PRN", "Analgesia"),
    ("pethidine 50 mg IM", "Analgesia"),
])
def test_drugs_answers_name_are_read_in_their_class(plan: str, item: str):
    """UK and US drugs of a class the item names (an NSAID or opioid for analgesia, a clipped
    co-amoxiclav for IV antibiotics) meet it."""
    c = card("sur-appendicitis-001", f"Acute appendicitis.\nPlan: {plan}\n")
    assert item in rows(c, "treatment")


@pytest.mark.parametrize("plan, verdict", [
    ("Start febuxostat 80 mg daily today.", "FAIL"),  # the alias "febuxostat now", in other words
    ("Febuxostat to be discussed at review in 4-6 weeks once settled.", "OK"),  # no time that meets "now"
    ("Start febuxostat in 4 weeks once the flare has settled.", "OK"),  # later than the alias's time
])
def test_an_alias_with_its_own_time_is_met_by_the_drug_at_that_time(plan: str, verdict: str):
    c = card("im-gout-001", f"Acute gout. Naproxen 500 mg BD with omeprazole. {plan}")
    assert condition(c, "cc-no-ult-in-flare") == verdict


@pytest.mark.parametrize("case_id, plan, condition_id", [
    ("em-quinsy-001", "Plan: home today with oral clindamycin 300 mg QDS; ENT clinic in 5 days if not improving.",
     "cc-no-discharge"),
    ("em-stemi-002", "Plan: omeprazole 20 mg once daily, Gaviscon as needed, home with GP review if not settling.",
     "cc-no-discharge"),
    ("ped-intussusception-001", "Plan: Dioralyte little and often, Calpol for the pain, send home.", "cc-no-discharge"),
])
def test_a_home_that_sends_home_now_with_a_treatment_is_a_discharge_plan(case_id: str, plan: str, condition_id: str):
    """"home" opening a list entry sends the patient home now, with the treatments of its clause; an
    "if" after another action ("GP review if not settling") is that action's condition, not the
    discharge's."""
    assert condition(card(case_id, plan), condition_id) == "FAIL"


def test_a_home_after_something_else_is_no_discharge_now():
    c = card("ped-intussusception-001", "Intussusception. Plan: air enema, then home once feeding well with Dioralyte.")
    assert condition(c, "cc-no-discharge") == "OK"


@pytest.mark.parametrize("plan, verdict", [
    ("Emergency admission by ambulance; he may go home once his oxygen saturations have settled.", "OK"),
    ("Emergency admission by ambulance; send him home after the medical review if his gas is stable.", "OK"),
    ("Antibiotics and steroids; he can go home and call the surgery if he gets worse.", "FAIL"),
    ("Antibiotics and steroids; he can go home, we will phone tomorrow.", "FAIL"),
])
def test_a_sending_home_made_conditional_or_later_is_no_home_management(plan: str, verdict: str):
    """A sending home in other words ("go home", "send him home", read as "discharge home") put after an
    assessment or a milestone ("once his saturations have settled", "after the medical review") is a
    later discharge, not management at home instead of assessment; a later word after another action
    ("call the surgery if he gets worse") is that action's, and the sending stays harmful."""
    c = card("im-copd-exacerbation-001", f"Infective exacerbation of COPD. {plan}")
    assert condition(c, "cc-implicit-contraindicated") == verdict, plan


def test_a_later_sending_home_meets_an_item_that_is_itself_a_later_discharge():
    """"Discharge home after a period of observation" is met by "can go home when back to her usual self"."""
    c = card("ped-febrile-seizure-001", "Simple febrile seizure. Observe on the ward for four hours; she can go "
             "home when she is back to her usual self.")
    assert "Discharge home after a period of observation" in rows(c, "treatment")


def test_a_bracket_opening_a_line_goes_on_with_the_line_before():
    from medbench_tui.core.scoring.document import document

    doc = document("Start basal-bolus subcutaneous insulin\n(glargine and NovoRapid), and discharge home")
    assert len(set(doc.clause)) == 1


@pytest.mark.parametrize("plan, verdict", [
    ("Enoxaparin 1.5 mg/kg SC and DC cardioversion today in the ED.", "FAIL"),  # alias "DC cardioversion now"
    ("Amiodarone 300 mg IV over 1 hour to cardiovert him today, then bisoprolol.", "FAIL"),
    ("Apixaban 5 mg BD; cardioversion after 3 weeks of anticoagulation.", "OK"),  # later: the right plan
    ("Bisoprolol, apixaban. No cardioversion now (AF > 48 h).", "OK"),
])
def test_a_harmful_action_named_with_its_time_is_done_by_the_action_that_day(plan: str, verdict: str):
    """A harmful item whose alias is the action now ("DC cardioversion now", "same-day cardioversion")
    is done by those words with a time within the same day in the answer's piece, in other words too."""
    c = card("im-af-001", f"Atrial fibrillation for 3 weeks.\nPlan: {plan}\n")
    assert condition(c, "cc-no-early-cardioversion") == verdict


@pytest.mark.parametrize("text, verdict", [
    ("Risk: passive SI, no plan/intent, no prev SH, PF daughter. Citalopram 20 mg.", "OK"),
    ("Moderate depression with early waking. Risk: passive SI, no plan. Sertraline 50 mg.", "OK"),
    ("Risk explored with his wife: no plan, no previous attempts. See him this week.", "OK"),
    ("Risk: not assessed today. Sertraline 50 mg.", "FAIL"),  # the heading says it was not done
    ("Risk of bleeding: low. Sertraline 50 mg.", "FAIL"),  # another risk
    ("Moderate depression with passive SI. Sertraline 50 mg.", "FAIL"),  # a symptom, no assessment
])
def test_findings_under_the_heading_of_what_is_assessed_are_the_assessment(text: str, verdict: str):
    """A line headed by what an assessment item assesses ("Risk:" for "Suicide risk assessment") documents
    the assessment's findings, so it was done."""
    assert condition(card("psy-mdd-001", f"Moderate depressive episode.\n{text}\n"), "cc-suicide-risk") == verdict


@pytest.mark.parametrize("plan, item, given", [
    ("ASA 325, heparin bolus.", "Aspirin loading dose", True),  # a drug's bare number is its dose
    ("FRIII 0.05 u/kg/hr from 1-2h after fluids.", None, True),
])
def test_a_bare_number_after_a_drug_is_its_dose(plan: str, item: str | None, given: bool):
    c = card("em-stemi-001", f"A/P: STEMI. Cath lab activated. {plan}")
    if item is not None:
        assert (item in rows(c, "treatment")) is given


def test_a_bare_number_after_an_analyte_is_a_result():
    """"bicarbonate 6" on a blood gas is a result, not sodium bicarbonate given."""
    c = card("ped-dka-001", "Severe DKA: pH 7.02, bicarbonate 6, ketones 5.8.\nPlan: 10 ml/kg 0.9% saline, FRIII.")
    assert condition(c, "cc-no-bicarbonate") == "OK"


def test_a_condition_in_quotation_marks_is_the_patients_word_not_the_diagnosis():
    text = ('76F with DM presenting with "indigestion" and dyspnea: her EKG shows an inferior STEMI. STEMI alert for '
            'emergent cardiac cath, aspirin 325 mg chewed.')
    c = card("em-stemi-002", text)
    assert c.metrics.diagnosis_accuracy == 100
    assert condition(c, "cc-reperfusion") == "OK"  # "emergent" is "emergency" (coronary angiography)


def test_a_phrase_that_is_a_list_matches_its_words_listed_in_another_order():
    """"potassium, phosphate and magnesium" is met by "bloods (potassium, magnesium, phosphate)"; a list of
    other things with numbers between is not a listing of its words."""
    c = card("psy-anorexia-001",
             "Anorexia nervosa.\nPlan: ECG and urgent bloods (potassium, magnesium, phosphate) today.")
    assert condition(c, "cc-electrolytes") == "OK"


def test_a_condition_naming_only_the_organ_of_the_diagnosis_is_not_established():
    """"Torted ovary" names the diagnosis, but "only if the ovary is frankly necrotic at surgery" is a finding
    the record does not hold: the oophorectomy stays conditional (anatomy_heads in concepts.yaml)."""
    from pathlib import Path

    from medbench_tui.core.transcript import FinalResponse, Transcript

    case_ = load_valid_case(Path("tests/data/newcases-e/cases/nce-ovarian-torsion-001.yaml"))
    text = "Plan: laparoscopy with detorsion. Oophorectomy only if the ovary is frankly necrotic at surgery."
    c = score(case_, Transcript(case_id=case_.id, final=FinalResponse(text=text)))
    assert {v.id: v.status for v in c.critical_conditions}["cc-no-oophorectomy"] == "OK"


def test_a_condition_after_a_spaced_dash_is_the_next_actions():
    """"ICU to see now - norad if still shocked": the condition is the noradrenaline's, the ICU review is now."""
    from pathlib import Path

    from medbench_tui.core.transcript import FinalResponse, Transcript

    case_ = load_valid_case(Path("tests/data/newcases-e/cases/nce-meningococcal-001.yaml"))
    text = "Dx: meningococcal septicaemia.\n- ICU to see now - norad if still shocked after ~40 mL/kg"
    c = score(case_, Transcript(case_id=case_.id, final=FinalResponse(text=text)))
    assert {v.id: v.status for v in c.critical_conditions}["cc-critical-care"] == "OK"


@pytest.mark.parametrize("plan, verdict", [
    ("Ibuprofen, ramipril, BFZ, metformin all stopped.", "OK"),  # a stop after the list it ends
    ("Ibuprofen can carry on at a lower dose, 200 mg TDS, for the knee.", "FAIL"),  # the drug named is no stop
])
def test_a_stop_item_is_met_by_a_withholding_not_by_the_drug_named(plan: str, verdict: str):
    from pathlib import Path

    from medbench_tui.core.transcript import FinalResponse, Transcript

    case_ = load_valid_case(Path("tests/data/newcases-e/cases/nce-aki-001.yaml"))
    c = score(case_, Transcript(case_id=case_.id, final=FinalResponse(text=f"Prerenal AKI.\nPlan:\n- {plan}\n")))
    assert {v.id: v.status for v in c.critical_conditions}["cc-stop-nsaid"] == verdict


def test_a_threshold_is_settled_by_the_value_of_what_it_names_not_another_result_of_its_test():
    """"IV fluids only if lactate rises above 4": the record's lactate (2.6), not the blood gas's pH (7.29)
    that its test reports first, settles it - so the fluids are conditional."""
    from pathlib import Path

    from medbench_tui.core.transcript import FinalResponse, Transcript

    case_ = load_valid_case(Path("tests/data/newcases-e/cases/nce-aki-001.yaml"))
    text = "Prerenal AKI.\nPlan:\n- Encourage oral fluids; IV fluids only if lactate rises above 4.\n"
    c = score(case_, Transcript(case_id=case_.id, final=FinalResponse(text=text)))
    assert {v.id: v.status for v in c.critical_conditions}["cc-fluids"] == "FAIL"


def test_a_brand_in_brackets_is_a_gloss_not_a_list_break():
    """"Soluble insulin (Actrapid) 10 units with 25 g glucose" is the alias "10 units soluble insulin with
    25 g glucose" in another order: the bracket names the same drug, it separates no list."""
    from pathlib import Path

    from medbench_tui.core.transcript import FinalResponse, Transcript

    case_ = load_valid_case(Path("tests/data/newcases-e/cases/nce-aki-001.yaml"))
    text = "Hyperkalaemia.\nPlan:\n- Soluble insulin (Actrapid) 10 units with 25 g glucose IV over 15 minutes\n"
    c = score(case_, Transcript(case_id=case_.id, final=FinalResponse(text=text)))
    assert {v.id: v.status for v in c.critical_conditions}["cc-shift-potassium"] == "OK"


def test_a_strength_in_brackets_is_a_gloss_not_a_list_break():
    text = "Severe DKA.\nPlan:\n1. Add glucose (5%) to the fluids once blood glucose falls below 14 mmol/L\n"
    c = card("ped-dka-001", text)
    assert "Add glucose to IV fluids when blood glucose falls below 14 mmol/L" in rows(c, "treatment")


DATA = CASES.parent / "tests" / "data"


def data_card(folder: str, case_id: str, text: str):
    """The scorecard of ``text`` on a case of a new-case answer set (its folder under tests/data)."""
    c = load_valid_case(DATA / folder / "cases" / f"{case_id}.yaml")
    return score(c, Transcript(case_id=c.id, final=FinalResponse(text=text)))


def new_card(case_id: str, text: str):
    return data_card("newcases-e", case_id, text)


def test_an_item_with_its_own_condition_is_met_by_its_action_under_a_contingency():
    """"Renal replacement therapy if refractory hyperkalaemia ..." lists aliases that all carry the
    condition; an answer gives the therapy under its own "if" ("-> RRT"), not in the item's words."""
    from medbench_tui.core.scoring.reference import own_condition_head

    assert own_condition_head("Renal replacement therapy if refractory hyperkalaemia") == "Renal replacement therapy"
    assert own_condition_head("Random cortisol and ACTH (only if it does not delay treatment)") == (
        "Random cortisol and ACTH")
    assert own_condition_head("Antibiotics if febrile") == ""  # one word names a class, not the item
    assert own_condition_head("Admit under medicine") == ""
    text = "Plan:\n- Calcium gluconate 10% 30 mL IV\n- If K+ stays >= 6.5 after two rounds, or anuric -> urgent RRT\n"
    item = "Renal replacement therapy if refractory hyperkalaemia, acidosis or fluid overload"
    assert rows(new_card("nce-aki-001", text), "treatment").get(item) == "acceptable"


def test_shorthand_written_in_mixed_case_is_read_as_written():
    """An exact-case short form that is not in capitals ("hyperK", "Cr") is read where it is written so,
    never as the everyday word in another case ("cr" of a word, "dip" in blood pressure)."""
    c = new_card("nce-aki-001", "Imp: prerenal AKI 3. Severe hyperK w/ ECG chgs.\n- Cr 312, recheck in 6 h")
    assert "Hyperkalaemia" in rows(c, "diagnoses")
    assert normalise("hyperK") == "hyperkalemia" and normalise("HYPERK") == "hyperkalemia"
    assert normalise("Cr 312") == "creatinine 312" and normalise("cr") == "cr"
    assert normalise("Dip bland") == "dipstick bland" and normalise("a dip in BP") != "a dipstick in bp"


def test_a_hyphenated_short_form_is_read_as_its_words_are_written():
    """"X-match" is written as two words joined by a hyphen, which the reader parts as a space: a short
    form with a hyphen is a phrase, not one word nothing is ever read as."""
    assert normalise("X-match 4 u") == normalise("crossmatch 4 u")
    c = new_card("nce-warfarin-bleed-001", "Imp: upper GI bleed on warfarin. ?DU.\n- 2 x 16G, X-match 4 u\n"
                 "- Restart of anticoag to be decided after OGD")
    assert "Group and crossmatch" in rows(c, "workup")
    assert "Duodenal ulcer with haemorrhage" in rows(c, "differential")
    assert "Plan anticoagulation restart after haemostasis" in rows(c, "treatment")


def test_a_labelled_paragraph_of_prose_ends_at_its_blank_line():
    """"Background: AF, hypertension." under a Diagnosis heading is prose to the end of its paragraph; the
    next paragraph is the diagnosis section's again, so its conditions are read, not lost."""
    text = ("## Diagnosis\nMajor upper GI haemorrhage on warfarin.\nBackground: permanent AF, hypertension.\n\n"
            "Most likely source: peptic ulcer. Gastric malignancy to be excluded at endoscopy.\n")
    c = new_card("nce-warfarin-bleed-001", text)
    assert "Gastric cancer" in rows(c, "differential")
    assert any(e.answer == "peptic ulcer" for e in c.items.diagnoses)


@pytest.mark.parametrize("said", ["to be excluded at endoscopy", "must be excluded", "needs excluding",
                                  "to be ruled out", "not yet excluded"])
def test_what_is_said_after_a_diagnosis_opening_its_line_can_make_it_a_differential(said: str):
    c = new_card("nce-warfarin-bleed-001", f"## Diagnosis\nUpper GI bleed on warfarin.\nGastric malignancy {said}.\n")
    assert "Gastric cancer" in rows(c, "differential"), said


def test_a_condition_after_or_in_a_diagnosis_is_an_alternative():
    c = new_card("nce-warfarin-bleed-001", "## Diagnosis\nUpper GI bleed on warfarin, from a duodenal ulcer or "
                 "erosive gastritis.\n")
    assert "Acute haemorrhagic gastritis" in rows(c, "differential")


def test_an_item_for_refractory_disease_is_met_by_its_drug_under_the_same_contingency():
    """"Vasopressor or inotrope for fluid-refractory shock" carries its own condition, as "if" would: "if
    still shocked after 40 mL/kg, start noradrenaline" states it; "norad" and "hrly UO" are shorthand."""
    c = new_card("nce-meningococcal-001", "- If still shocked after 40 mL/kg, start noradrenaline")
    assert "Vasopressor or inotrope for fluid-refractory shock" in rows(c, "treatment")
    c = new_card("nce-meningococcal-001", "- norad if still shocked\n- Catheter, hrly UO")
    assert "Vasopressor or inotrope for fluid-refractory shock" in rows(c, "treatment")
    assert "Hourly urine output via catheter" in rows(c, "workup")


def test_a_drug_alias_is_met_by_the_drugs_other_names_only_where_no_other_item_names_it():
    """A bare other name is the item's when the case names that drug once; where several items name it
    (adrenaline IM, IV, by auto-injector) the bare brand stays the item that lists it, and a drug of one
    strength keeps its own names ("0.45% saline" is no "0.9% saline" item)."""
    from medbench_tui.core.scoring.reference import _other_drug_names, _shared_drugs

    assert "norad" in _other_drug_names(["noradrenaline"], set())
    assert _other_drug_names(["noradrenaline"], {"noradrenaline"}) == []
    assert _other_drug_names(["0.9% saline"], set()) == []
    assert "adrenaline" in _shared_drugs([["IM adrenaline"], ["IV adrenaline bolus"], ["oxygen"]])
    c = card("em-anaphylaxis-001", "Plan: adrenaline 100 micrograms IV boluses.")
    assert condition(c, "cc-no-iv-bolus") == "FAIL"


def test_a_list_item_wrapped_under_its_own_text_is_one_clause():
    """"- Glomerulonephritis — ...; no\\n  immunology screen needed now.": the indented line goes on with the
    list item it is wrapped under, so the negation reaches its item."""
    text = ("## Differential\n- **Glomerulonephritis/vasculitis** — no haematuria or proteinuria on the dipstick; no\n"
            "  immunology screen needed now.\n- Chronic kidney disease — excluded by the normal April creatinine.\n")
    c = new_card("nce-aki-001", text)
    assert "Vasculitis and glomerulonephritis screen" not in rows(c, "workup")
    assert "Chronic kidney disease" in rows(c, "differential")


@pytest.mark.parametrize("plan, done", [
    ("Calcium gluconate not needed - he is in sinus rhythm, no arrhythmia on the ECG.", True),
    ("No ST changes on ECG.", True),
    ("No need for an ECG.", False),
    ("Decide on ECG later if he is unwell.", None),
])
def test_a_test_a_finding_was_looked_for_on_was_done(plan: str, done: bool | None):
    """scoring.md "Results": "no arrhythmia on the ECG" reports the ECG done; the negation is the finding's."""
    c = new_card("nce-aki-001", f"Plan:\n- {plan}\n")
    ecg = next(e for e in c.extraction.entities if e.text == "ECG")
    if done is not None:
        assert (ecg.status == "affirmed") is done, plan
    assert ecg.reason != "a result: a finding was looked for on it" or done, plan


@pytest.mark.parametrize("plan, verdict", [
    ("LP first, then antibiotics", "FAIL"),
    ("LP before antibiotics", "FAIL"),
    ("antibiotics after the LP", "FAIL"),
    ("Ceftriaxone 2 g IV now, before the LP", "OK"),
])
def test_a_harmful_order_is_read_either_way_round(plan: str, verdict: str):
    """"Antibiotics after the LP" is "the LP before antibiotics" and "LP first, then antibiotics"."""
    c = new_card("nce-meningococcal-001", f"Plan:\n- {plan}\n")
    assert condition(c, "cc-implicit-contraindicated") == verdict, plan


def test_a_condition_on_a_result_the_record_says_is_pending_is_a_later_event():
    """The record holds "Blood cultures ... sent (results pending)": "if the cultures are positive" is not
    established by it, so notifying public health on that condition is no notification now."""
    c = new_card("nce-meningococcal-001", "Plan:\n- Ceftriaxone 2 g IV now\n- Inform public health if the cultures "
                 "are positive\n")
    assert condition(c, "cc-public-health") == "FAIL"
    c = new_card("nce-meningococcal-001", "Plan:\n- Ceftriaxone 2 g IV now\n- Notify UKHSA now\n")
    assert condition(c, "cc-public-health") == "OK"


@pytest.mark.parametrize("plan, verdict", [
    ("Gynae SpR now -> lap detorsion today", "OK"),
    ("gynae reg to see now", "OK"),
    ("Gynae consultant clinic in 6 weeks", "FAIL"),
])
def test_a_teams_doctor_named_by_grade_is_the_team_contacted(plan: str, verdict: str):
    """A terse note names the doctor, not the verb: "Gynae SpR now" is the on-call gynaecologist called now;
    the time still counts."""
    c = new_card("nce-ovarian-torsion-001", f"- {plan}\n")
    assert condition(c, "cc-gynae") == verdict, plan


@pytest.mark.parametrize("plan, verdict", [
    ("Acetylcysteine is not required as the level is below the line.", "FAIL"),
    ("NAC not needed.", "FAIL"),
    ("IV acetylcysteine now; it is not optional.", "OK"),
])
def test_a_treatment_declined_after_its_name_is_withheld(plan: str, verdict: str):
    """"Acetylcysteine is not required" withholds it as "no acetylcysteine needed" does: the harmful item
    "Withholding acetylcysteine because the level is below the treatment line" is done."""
    scored = data_card("newcases", "ncb-paracetamol-staggered-001", f"Plan:\n- {plan}\n")
    assert condition(scored, "cc-no-withholding") == verdict, plan


@pytest.mark.parametrize("line, negated", [
    ("- HRT does not protect her bones while she is underweight.", True),
    ("- Aspirin won't prevent another bleed, so leave it off.", True),
    ("- Aspirin 75 mg daily to prevent another stroke.", False),
])
def test_a_treatment_said_not_to_protect_or_prevent_is_declined(line: str, negated: bool):
    """"HRT does not protect her bones" says the treatment does no good: no plan to give it."""
    from medbench_tui.core.scoring.cues import negation

    doc = document(f"Plan:\n{line}\n")
    k = next(k for k, t in enumerate(doc.tokens) if t.low in ("hrt", "aspirin"))
    assert (negation(doc, k, k) is not None) is negated, line


@pytest.mark.parametrize("case_id, line, item", [
    ("obg-ectopic-001", "She is not for discharge tonight.", "Discharge home"),
    ("em-nstemi-001", "Do not discharge him - admit under cardiology.", "Discharge home"),
    ("onc-neutropenic-sepsis-001", "Tazocin 4.5 g IV within the hour; do not wait for it.",
     "Withhold antibiotics until the neutrophil count is known"),
])
def test_a_harmful_action_declined_by_its_verb_alone_is_negated(case_id: str, line: str, item: str):
    """"Not for discharge", "do not wait for it": the verb declined with its object unsaid (or a pronoun) declines
    the harmful item whose action it is; the item is not given."""
    from medbench_tui.core.scoring.labels import item_labels

    c = case(case_id)
    scored = score(c, Transcript(case_id=c.id, final=FinalResponse(text=f"Plan:\n- {line}\n")))
    assert item_labels(scored, c)[item][0] == "negated", line


def test_an_action_word_with_its_own_object_or_not_declined_meets_nothing():
    """"Do not discharge the drain's contents" has an object of its own; "discharge planning" is not declined."""
    from medbench_tui.core.scoring.labels import item_labels

    c = case("obg-ectopic-001")
    for line in ("Do not discharge the patient's notes to the GP yet.", "Discharge planning with the ward."):
        scored = score(c, Transcript(case_id=c.id, final=FinalResponse(text=f"Plan:\n- {line}\n")))
        assert item_labels(scored, c).get("Discharge home", ("not_found",))[0] != "negated", line


@pytest.mark.parametrize("line, negated", [
    ("- A chest drain in the surgery without a scan first is not safe.", True),
    ("- Chest drain in ED, as the pneumothorax is not small.", False),
    ("- Chest drain for the patient on the ward whose breathing is not safe.", False),
])
def test_a_verdict_on_its_clauses_subject_after_words_that_qualify_it(line: str, negated: bool):
    """"A chest drain in the surgery without a scan first is not safe": the verdict is the subject's, however it is
    qualified; a verdict inside a relative clause or after a comma is another's."""
    from medbench_tui.core.scoring.cues import negation

    doc = document(f"Plan:\n{line}\n")
    k = next(k for k, t in enumerate(doc.tokens) if t.low == "drain")
    assert (negation(doc, k - 1, k) is not None) is negated, line


@pytest.mark.parametrize("text, read", [
    ("Altered bowel habit, weight loss, mass R iliac fossa. ?malignancy. Urgent colorectal 2WW.", True),
    ("Iron deficiency, Hb 84, tired. ?Ca. Ferritin to follow.", False),
    ("Bowel habit change. Bloods: Ca 2.41, Hb 84.", False),
])
def test_a_query_of_a_bare_cancer_word_is_the_cancer_of_the_organ_its_line_names(text: str, read: bool):
    """"?malignancy" on a line about a colorectal mass is the colorectal cancer; with no organ of the case's cancer on
    its line, or without the query mark ("Ca 2.41" is calcium), it is nothing."""
    named = [row.answer for row in card("onc-colorectal-001", text).items.diagnoses if row.answer]
    assert any("colorectal" in (a or "") or "colon" in (a or "") for a in named) is read, (text, named)


@pytest.mark.parametrize("text, read", [
    ("I think the left lung is collapsing, so he needs a chest X-ray.", True),
    ("Sharp pain on breathing; the lung has probably partially collapsing.", True),
    ("The lung is not collapsing; this is musculoskeletal chest wall pain.", False),
    ("Pleuritic pain with the lung at risk of collapsing if he flies.", False),
    ("Pleuritic pain; the pleura around the lung is collapsing.", False),
])
def test_a_two_word_diagnosis_said_as_a_clause_of_its_organ(text: str, read: bool):
    """"The lung is collapsing" says "collapsed lung" (the pneumothorax); a denial ("is not collapsing"), a risk
    ("at risk of collapsing") or an organ that is not the clause's subject says nothing."""
    named = [row.reference for row in card("em-pneumothorax-001", text).items.diagnoses if row.answer]
    assert ("Small primary spontaneous pneumothorax, left" in named) is read, (text, named)


@pytest.mark.parametrize("heading", ["### If the MRI shows no compression", "**If the MRI is normal**"])
def test_a_heading_that_is_a_condition_covers_its_section(heading: str):
    """Everything under "### If the MRI shows no compression" waits on it, to the next heading."""
    text = (f"## Plan\n- Same-day emergency MRI of the lumbar spine\n\n{heading}\nManage as radicular pain: "
            "analgesia, keep active, physiotherapy referral.\n\n## Safety-netting\nReturn at once if numb.\n")
    scored = data_card("newcases", "ncb-cauda-equina-001", text)
    assert condition(scored, "cc-no-routine") == "OK", heading
    physio = next(e for e in scored.extraction.entities if e.text == "physiotherapy referral")
    assert physio.status == "conditional"


def test_terse_shorthand_of_overdose_psychiatry_and_sides():
    """"Staggered POD", "Liaison psych before d/c", "bilat fixation", "U dip neg": shorthand, not new words;
    "OD" stays once daily."""
    assert normalise("Staggered POD") == "staggered paracetamol overdose"
    assert normalise("Liaison psych") == "liaison psychiatry"
    assert normalise("bilat fixation") == "bilateral fixation"
    assert normalise("U dip neg") == normalise("urine dipstick neg")
    assert normalise("ramipril 5 mg OD") == normalise("ramipril 5 mg od")
    scored = data_card("newcases", "ncb-paracetamol-staggered-001",
                       "Staggered POD ~18 g over 21 h.\n- IV NAC now\n- Liaison psych before d/c\n")
    assert condition(scored, "cc-psychosocial") == "OK"
    assert "Staggered paracetamol overdose" in rows(scored, "diagnoses")


def test_a_teams_review_on_its_own_condition_is_about_the_team():
    """"Critical care review if hypotension persists after fluids" is about intensive care whatever its
    condition's words; "ITU outreach if still hypotensive after fluids" states the same contingency."""
    from medbench_tui.core.vocabulary.reading import item_reading_of

    assert item_reading_of("Critical care review if hypotension persists after fluids").about_team()
    scored = data_card("newcases", "ncb-neutropenic-sepsis-001",
                       "- Tazocin 4.5 g IV stat, BCs periph + each PICC lumen\n"
                       "- ITU outreach if still hypotensive after fluids\n")
    assert "Critical care review if hypotension persists after fluids" in rows(scored, "treatment")
    assert "Blood cultures (peripheral and from each PICC lumen)" in rows(scored, "workup")


def f_card(case_id: str, text: str):
    return data_card("newcases-f", case_id, text)


def test_a_result_of_what_a_level_measures_reports_the_level_done():
    """"Blood alcohol level" (aliases "ethanol level") is done by "ethanol 17 mmol/L"; a dose is no result."""
    from medbench_tui.core.scoring.concepts import level_analytes

    assert level_analytes(("paracetamol", "salicylate", "level")) == (("paracetamol",), ("salicylate",))
    assert level_analytes(("serum", "lithium", "level")) == (("lithium",),)
    assert level_analytes(("full", "blood", "count")) is None
    assert "Blood alcohol level" in rows(f_card("ncf-tca-overdose-001", "Bloods: ethanol 17 mmol/L"), "workup")
    assert "Blood alcohol level" not in rows(f_card("ncf-tca-overdose-001", "Plan: ethanol 10% infusion"), "workup")


@pytest.mark.parametrize("text, done", [
    ("Impression: AF with a fast rate. Her sodium was 131 and the creatinine is 88.", True),
    ("Impression: AF with a fast rate; potassium level was 4.1.", True),
    ("Plan: rate control; potassium level to be checked later.", False),
])
def test_a_result_reported_with_a_link_word_reports_its_panel_done(text: str, done: bool):
    """"Sodium was 131" reports the U&E done as "Na 131" does; an analyte with no value after its link
    words is no result."""
    assert ("Urea and electrolytes" in rows(card("im-af-001", text), "workup")) is done, text


def test_one_reported_result_is_no_repeated_measurement():
    """A level item of repeated measurement ("repeat lithium level", "serial lithium levels") is not done by
    one result reported; the single level is."""
    from medbench_tui.core.scoring.concepts import level_analytes

    assert level_analytes(("repeat", "digoxin", "level")) is None
    assert level_analytes(("serial", "lithium", "level")) is None
    scored = data_card("newcases-c", "ncc-lithium-001", "Impression: the lithium of 3.1 fits toxicity.")
    assert "Serum lithium level" in rows(scored, "workup")
    assert "Serial lithium levels every 6 to 12 hours" not in rows(scored, "workup")


def test_terse_shorthand_of_alcohol_paracetamol_and_assessment():
    assert normalise("+ EtOH") == "alcohol"
    assert normalise("Pcm/salicylate") == "paracetamol salicylate"
    assert normalise("Psych Ax") == normalise("psychiatric assessment") == "psychiatry assessment"
    assert normalise("if the FIT is positive") == "if fit is positive"  # "fits" stays a word, not a seizure
    c = f_card("ncf-tca-overdose-001", "- Psych Ax when medically fit; min 12h monitoring")
    assert condition(c, "cc-psych") == "OK"


def test_a_test_said_not_to_change_management_is_declined():
    c = f_card("ncf-tca-overdose-001", "## Investigations\nTricyclic levels and urine drug screens do not change "
               "management - not requested.\n")
    assert "Serum tricyclic level or urine drug screen" not in rows(c, "workup")


def test_paeds_is_paediatric_in_a_teams_name():
    assert normalise("Paeds surgeons") == normalise("paediatric surgeons")
    c = f_card("ncf-intussusception-001", "- Paeds surgeons NOW -> air enema under fluoro today")
    assert condition(c, "cc-surgeons") == "OK"


def test_result_labels_of_osmolality_urine_sodium_and_ct_head():
    assert normalise("Sosm 238, Uosm 320, UNa 48") == "serum osmolality 238 urine osmolality 320 urine sodium 48"
    assert normalise("CTH NAD") == "ct head nad" and normalise("Sz this am") == "seizure this am"
    assert normalise("una") == "una"  # only as written


def test_a_team_told_and_every_n_minutes_shorthand():
    """"neonates informed", "anaes aware" tell a team; "BP q15min" is every 15 minutes."""
    from medbench_tui.core.vocabulary.reading import read_action

    told = read_action("neonates informed")
    assert {t.name for t in told.teams} == {"neonatology"} and told.acts
    assert normalise("BP q15min") == normalise("BP every 15 minutes")


@pytest.mark.parametrize("line, negated", [
    ("6. Sputum culture: not routinely - send only if not improving.", True),
    ("Sputum culture - not routinely.", True),
    ("**Sputum culture:** send today.", False),
])
def test_a_labels_verdict_after_its_colon(line: str, negated: bool):
    """"Sputum culture: not routinely" declines it as "Sputum culture - not routinely" does; a clause before a
    colon is no label ("ethanol negative: unlikely" is a diagnosis's verdict, not the test's)."""
    from medbench_tui.core.scoring.cues import negation
    from medbench_tui.core.scoring.document import document

    doc = document(f"Plan:\n{line}\n")
    first = next(k for k, t in enumerate(doc.tokens) if t.low == "sputum")
    assert (negation(doc, first, first + 1) is not None) is negated, line
    doc = document("- Alcoholic hepatitis - modest intake, ethanol negative: unlikely.")
    k = next(k for k, t in enumerate(doc.tokens) if t.low == "negative")
    assert negation(doc, k - 1, k) is None


def test_a_long_line_ending_with_a_comma_goes_on_on_its_indented_next_line():
    """"...; if the pain settles,\\n  discharge with analgesia" is one clause: the discharge waits on the
    condition. A short list line ending with a comma ("flucloxacillin 1 g QDS,\\ndischarge") is no wrap."""
    text = ("- Gynaecology outpatient review for the dermoid in a few weeks; if the pain settles,\n"
            "  discharge with analgesia\n")
    c = new_card("nce-ovarian-torsion-001", text)
    home = next(e for e in c.extraction.entities if e.text == "discharge with analgesia")
    assert home.status == "conditional"


def g_card(case_id: str, text: str):
    return data_card("newcases-g", case_id, text)


def test_an_action_that_waits_for_a_result_still_to_come_is_not_given_now():
    """"Give X once the result confirms Y" defers X to a later event, even when the record already
    establishes Y: the drug is not given now. The same drug given now is."""
    later = ("Plan:\n- Check a cortisol now; start IV hydrocortisone 100 mg when the results are back and show it"
             " is low.\n")
    now = "Plan:\n- Check a cortisol now, then IV hydrocortisone 100 mg straight away.\n"
    item = "Hydrocortisone 100 mg IV or IM immediately"
    assert item not in rows(g_card("ncg-adrenal-crisis-001", later), "treatment")
    assert item in rows(g_card("ncg-adrenal-crisis-001", now), "treatment")


@pytest.mark.parametrize("line, negated", [
    ("**Metformin:** hold until the kidneys recover.", True),
    ("- NSAIDs: avoid.", True),
    ("- Metformin: continue as usual, and stop the gliclazide.", False),
])
def test_a_label_withheld_right_after_its_colon(line: str, negated: bool):
    """"Metformin: hold" withholds metformin; a verb of withholding further on is another action's."""
    from medbench_tui.core.scoring.cues import negation

    doc = document(f"Plan:\n{line}\n")
    k = next(k for k, t in enumerate(doc.tokens) if t.low in ("metformin", "nsaids"))
    assert (negation(doc, k, k) is not None) is negated, line


def test_a_label_takes_the_condition_that_opens_its_verdict():
    """"**Antibiotics:** if the swab grows something, start co-amoxiclav" gives antibiotics only if; a label
    whose verdict is plain ("**Antibiotics:** IV co-amoxiclav now") gives them."""
    from medbench_tui.core.scoring.assertion import condition_of

    doc = document("Plan:\n**Antibiotics:** if the swab grows something, start co-amoxiclav.\n")
    k = next(k for k, t in enumerate(doc.tokens) if t.low == "antibiotics")
    assert condition_of(doc, k, k) is not None
    doc = document("Plan:\n**Antibiotics:** IV co-amoxiclav now.\n")
    k = next(k for k, t in enumerate(doc.tokens) if t.low == "antibiotics")
    assert condition_of(doc, k, k) is None


def test_a_diagnosis_head_qualified_by_words_the_record_lacks_names_another_condition():
    """The record's septic shock settles "if in shock", not "if streptococcal toxic shock is confirmed"."""
    from medbench_tui.core.scoring.assertion import Record

    record = Record(["Necrotising fasciitis", "Septic shock"], "BP 84/50 despite 2 L; lactate 5.1.", [])
    assert record.establishes("in shock")
    assert record.establishes("she is in septic shock")
    assert not record.establishes("streptococcal toxic shock is confirmed")


def test_a_drip_is_an_infusion():
    """"Insulin drip" (US usage) is the insulin infusion item."""
    for text in ("Plan: insulin drip, target 140-180 mg/dL", "Plan: start an insulin drip"):
        assert "Variable-rate intravenous insulin infusion" in rows(g_card("ncg-nec-fasc-001", text), "treatment")


@pytest.mark.parametrize("text", ["Plan: D10W 100 mL IV for glucose 3.4", "Plan: D50 50 mL IV stat"])
def test_us_dextrose_shorthand_is_iv_glucose(text: str):
    """"D10W" and "D50" (US) are dextrose, the IV glucose item."""
    assert "IV glucose for hypoglycaemia" in rows(g_card("ncg-adrenal-crisis-001", text), "treatment")


@pytest.mark.parametrize("plan", [
    "Anaphylaxis. High-flow oxygen and a fluid bolus. IM adrenaline not yet.",
    "Anaphylaxis. Adrenaline 0.5 mg IM: not at the moment; oxygen first.",
    "Anaphylaxis. Adrenaline 0.5 mg IM later if required, high-flow oxygen now.",
    "Anaphylaxis. IM adrenaline - not just yet, observe her first.",
])
def test_an_action_put_off_by_the_words_after_it_is_not_given_now(plan: str):
    """A deferral after an action (`deferral_after`: "not yet", "later if required") closing what is said of it
    gives nothing now."""
    c = card("em-anaphylaxis-001", plan)
    assert condition(c, "cc-im-adrenaline") == "FAIL", plan
    assert "Intramuscular adrenaline 0.5 mg" not in rows(c, "treatment"), plan


@pytest.mark.parametrize("plan", [
    "Anaphylaxis. IM adrenaline 0.5 mg now. Tryptase not yet back.",
    "Anaphylaxis. IM adrenaline 0.5 mg now. Mast cell tryptase level not yet available.",
    "Anaphylaxis. IM adrenaline 0.5 mg now; tryptase not yet reviewed by the lab.",
])
def test_not_yet_said_of_a_result_still_to_come_declines_nothing(plan: str):
    """'Not yet' that goes on about a result ("not yet back", "not yet reviewed") is no deferral: the test was
    sent, and the drug before it is still given."""
    c = card("em-anaphylaxis-001", plan)
    assert "Mast cell tryptase" in rows(c, "workup"), plan
    assert condition(c, "cc-im-adrenaline") == "OK", plan


@pytest.mark.parametrize(("plan", "given"), [
    ("Naproxen. He once had hives with flucloxacillin.", False),
    ("Naproxen. Flucloxacillin gave him a rash years ago.", False),
    ("Colchicine, since flucloxacillin previously caused swelling of his lips.", False),
    ("Naproxen. Previous anaphylaxis to flucloxacillin.", False),
    ("Naproxen. Hypersensitive to co-amoxiclav.", False),
    ("Reaction to naproxen in the past, so give flucloxacillin.", True),
    ("He had a rash with naproxen, so flucloxacillin.", True),
    ("Naproxen. Co-amoxiclav.", True),
    ("Naproxen. Allergic to aspirin and flucloxacillin.", False),
    ("Naproxen. Developed hives with aspirin or flucloxacillin.", False),
    ("Naproxen. Allergic to aspirin and start flucloxacillin.", True),
    ("Allergic to aspirin and needs flucloxacillin.", True),
])
def test_a_drug_that_is_the_object_of_a_past_reaction_is_history_not_given(plan: str, given: bool):
    """A drug named as what a rash, reaction or hypersensitivity was to, or as what caused one, is the
    patient's history; a drug given beside another drug's reaction is still given."""
    c = card("im-gout-001", f"Acute gout.\nPlan: {plan}\n")
    assert condition(c, "cc-no-antibiotics") == ("FAIL" if given else "OK"), plan

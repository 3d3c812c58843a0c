"""Failure classes of the held-out check battery (benchmarks/check_battery.py), each held on
wording of its own: a line of prose that ends with "to" goes on on the next line, a harmful action
done sooner than its item says is still done, the shorthand UPT and TSB, "emboli" as embolism, a
one-line diagnosis label that ends with its sentence, "are the results back yet?" as a request,
and a second fact that shares only a word of when with the question."""

from __future__ import annotations

import copy
from pathlib import Path

from medbench_tui.core.cases.model import patient_record
from medbench_tui.core.scoring import score
from medbench_tui.core.scoring.document import document
from medbench_tui.core.scoring.sections import parse
from medbench_tui.core.simulators import GroundedSimulator
from medbench_tui.core.simulators.question import read_question
from medbench_tui.core.text import normalise
from medbench_tui.core.transcript import FinalResponse, Transcript
from medbench_tui.core.validate import load_valid_case
from tests.test_consultation import CASE_DATA, fixture_case

CASES = Path(__file__).resolve().parent.parent / "cases"


def _card(case_id: str, text: str):
    case = load_valid_case(CASES / f"{case_id}.yaml")
    return score(case, Transcript(case_id=case.id, final=FinalResponse(text=text)))


def _verdict(card, condition: str) -> str:
    return next(c.status for c in card.critical_conditions if c.id == condition)


def test_a_line_ending_with_a_word_no_sentence_ends_with_goes_on():
    doc = document("If she vomits or gets drowsy, go to\nA&E straight away.")
    assert len(set(doc.clause)) == 1
    assert len(set(document("Metformin 500 mg.\nA&E if unwell.").clause)) == 2


def test_a_safety_net_wrapped_across_lines_is_read():
    card = _card("im-t2dm-001", "Type 2 diabetes. Metformin and structured education.\nIf you start being sick "
                                "or get tummy pain or feel very drowsy, go to\nA&E straight away.")
    assert _verdict(card, "cc-safety-net") == "OK"


def test_a_harmful_action_done_sooner_than_its_item_says_is_still_done():
    """'Oral antibiotics with outpatient management' is harmful in high-risk neutropenic sepsis; a
    discharge on oral antibiotics with a next-day review is that plan, sooner, not another one."""
    case = load_valid_case(Path(__file__).resolve().parent / "data" / "newcases" / "cases"
                           / "ncb-neutropenic-sepsis-001.yaml")
    text = ("Febrile neutropenia.\n- First dose of IV Tazocin in ED, then discharge on oral ciprofloxacin plus "
            "co-amoxiclav with a\n  next-day telephone review by the acute oncology team\n")
    card = score(case, Transcript(case_id=case.id, final=FinalResponse(text=text)))
    assert _verdict(card, "cc-no-outpatient") == "FAIL"


def test_shorthand_upt_tsb_and_emboli_are_read():
    assert normalise("UPT negative") == normalise("urine pregnancy test negative")
    assert normalise("TSB 410") == normalise("total serum bilirubin 410")
    assert normalise("bilateral pulmonary emboli") == normalise("bilateral pulmonary embolism")


def test_a_one_line_diagnosis_label_ends_with_its_sentence():
    layout = parse("Dx: severe pneumonia.\nAdmit to HDU.\n")
    assert layout.section_at(len("Dx: severe pneumonia.\nAd")).kind != "diagnosis"
    wrapped = parse("Dx: severe pneumonia with sepsis\nand an AKI\n")
    assert wrapped.section_at(len("Dx: severe pneumonia with sepsis\nan")).kind == "diagnosis"


def test_asking_whether_results_are_back_asks_for_them():
    for asked in ("Are your blood results back yet?", "Is the CT report back now?"):
        assert read_question(asked).act == "request", asked
    assert read_question("is your back ok now?").act != "request"


def test_a_second_fact_sharing_only_a_word_of_when_joins_no_answer():
    answers = copy.deepcopy(CASE_DATA["additional_answers"]) + [
        {"id": "period", "topic": "last period", "keywords": ["period", "lmp"],
         "answer": "My last period was twelve days ago, on time."},
        {"id": "ache", "topic": "the ache", "keywords": ["pain", "ache", "start"],
         "answer": "It's a dull ache that started five days ago."},
    ]
    sim = GroundedSimulator(patient_record(fixture_case(additional_answers=answers)))
    assert sim.answer("When did your last period start?").facts == ["period"]


def test_a_wrapped_line_that_goes_on_with_a_number_keeps_its_condition():
    card = _card("obg-uti-pregnancy-001", "UTI in pregnancy. Start nitrofurantoin 100 mg MR twice daily for 7 days. "
                                          "If no improvement after\n48 hours, send an MSU for culture.")
    assert _verdict(card, "cc-culture") == "FAIL"


def test_a_dose_written_onto_its_number_is_a_dose_not_a_result():
    card = _card("obg-preeclampsia-001", "Severe pre-eclampsia.\n- IV labetalol 20mg bolus, titrate\n")
    assert _verdict(card, "cc-antihypertensive") == "OK"


def test_a_harmful_item_mentioned_as_history_or_a_condition_is_labelled_negated():
    """The labelling rules count every way of mentioning an item without recommending it as negated: the
    answer's allergy ("Trimethoprim allergy - avoid") included."""
    from medbench_tui.core.scoring.labels import item_labels

    case = load_valid_case(CASES / "psy-delirium-001.yaml")
    card = score(case, Transcript(case_id=case.id, final=FinalResponse(
        text="Delirium on dementia. Nitrofurantoin for the UTI. Trimethoprim allergy (rash) - avoid.")))
    assert item_labels(card, case)["Trimethoprim"][0] == "negated"


def test_an_assessment_and_plan_heading_holds_the_assessment_on_its_line_and_the_plan_after():
    text = "A/P: Delirium superimposed on dementia, likely UTI-related.\n- Nitrofurantoin 50 mg qds\n"
    kinds = [s.kind for s in parse(text).sections]
    assert kinds == ["diagnosis", "treatment"]
    assert [s.kind for s in parse("Assessment and plan:\n- admit\n").sections] == ["treatment"]
    card = _card("psy-delirium-001", text)
    assert card.metrics.diagnosis_accuracy == 100


def test_asked_how_they_think_it_happened_the_patient_gives_their_account():
    """"How do you think she got that mark?" asks for the parent's account, not for a diagnosis;
    "what do you think it is?" still asks for a diagnosis the patient cannot give."""
    from medbench_tui.core.simulators.intent import kind_of

    assert kind_of("what do you think it is?") == "diagnosis"
    assert kind_of("how do you think she got that mark?") == "open"
    sim = GroundedSimulator(patient_record(load_valid_case(CASES / "ped-safeguarding-001.yaml")))
    assert sim.answer("And how do you think she got that mark?").facts == ["explanation"]

"""Terse and heavily formatted plans, as systems write them: clipped drug names, unit shorthand,
bold 'Do not give:' labels, 'add nothing' verdicts (failure classes of the labelled set D)."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.scoring.sections import parse
from medbench_tui.core.transcript import FinalResponse, Transcript
from medbench_tui.core.validate import load_valid_case
from medbench_tui.core.vocabulary.reading import read_action

CASES = Path(__file__).resolve().parent.parent / "cases"


@pytest.mark.parametrize(("text", "drug"), [
    ("Atorva 80 ON", "atorvastatin"),
    ("Doxy 200 mg stat then 100 mg OD", "doxycycline"),
    ("give amox 500 mg tds", "amoxicillin"),
])
def test_a_clipped_drug_name_before_its_dose_is_the_drug(text, drug):
    assert {d.name for d in read_action(text).drugs} == {drug}


@pytest.mark.parametrize("text", ["ICD code 5", "cef 1 g", "Atorva alone"])
def test_a_clip_without_a_dose_or_that_fits_two_drugs_is_no_drug(text):
    assert not read_action(text).drugs  # "cef" fits four cephalosporins


def test_a_drug_with_its_dose_shorthand_and_its_own_class_is_about_the_drug():
    assert read_action("Syntocinon 5 u slow IV").about_drug()
    assert read_action("High-intensity statin (atorvastatin 80 mg)").about_drug()
    assert not read_action("Serum lithium level").about_drug()


@pytest.mark.parametrize("heading", ["**Do not give:**", "## Do not give", "**Drugs to avoid**"])
def test_a_do_not_give_label_opens_an_avoid_section(heading):
    assert parse(f"{heading}\n- Ergometrine").sections[0].kind == "avoid"


def _given(case_id: str, text: str) -> set[str]:
    case = load_valid_case(CASES / f"{case_id}.yaml")
    card = score(case, Transcript(case_id=case.id, final=FinalResponse(text=text)))
    return {e.reference for rows in (card.items.workup, card.items.treatment) for e in rows
            if e.reference and e.status in ("matched", "acceptable", "unexpected", "contraindicated", "not_indicated")}


def test_a_terse_pph_plan_is_read_as_written():
    given = _given("obg-pph-001", "Major PPH, atony.\n- Syntocinon 5 u slow IV\n- XM 4 units\n- Foley\n\n"
                                  "**Do not give:**\n- Ergometrine (hypertension)")
    assert {"Oxytocin 5 units slow intravenous injection", "Indwelling urinary catheter"} <= given
    assert "Ergometrine" not in given


def test_tests_that_add_nothing_are_not_ordered():
    given = _given("em-aortic-dissection-001",
                   "Type A dissection. CT aortogram now. D-dimer and CTPA add nothing here.")
    assert "D-dimer" not in given and "CT pulmonary angiogram" not in given


def test_a_dose_then_while_on_a_class_is_context_not_a_second_drug():
    """'Lansoprazole 30 mg OD while on antiplatelets': the antiplatelets are what she takes, not a
    P2Y12 inhibitor prescribed; 'phoned the on-call spinal reg' keeps its action word."""
    assert "P2Y12 inhibitor" not in _given("em-nstemi-001", "- Lansoprazole 30 mg OD while on antiplatelets")


def test_diagnoses_written_in_shorthand_are_read():
    case = load_valid_case(CASES / "em-aortic-dissection-001.yaml")
    card = score(case, Transcript(case_id=case.id, final=FinalResponse(
        text="Dx: acute type A aortic dissection. Bg HTN, smoker.")))
    assert any(e.reference == "Essential hypertension" and e.status == "matched" for e in card.items.diagnoses)


@pytest.mark.parametrize(("said", "team"), [
    ("Admit under paeds", "paediatrics"), ("Vasc reg at bedside now", "vascular surgery"),
    ("Phoned on-call ophth", "ophthalmology"),
])
def test_clipped_team_names_are_the_team(said, team):
    assert {t.name for t in read_action(said).teams} == {team}


def test_a_result_reported_without_a_number_reports_its_test():
    assert "Serial high-sensitivity cardiac troponin" in _given("em-nstemi-001", "NSTEMI. hs-TnT 38 -> 96 at 1 h.")
    assert "High-sensitivity cardiac troponin" in _given("im-heart-failure-001", "ADHF. Trop flat, TSH nl.")
    assert "High-sensitivity cardiac troponin" not in _given("im-heart-failure-001", "ADHF. Trop to follow.")


def test_a_thorough_answer_that_says_all_but_one_word_of_a_credited_item_gives_it():
    """'routine antenatal care continues with her midwife' is 'Continue routine antenatal care with
    the community midwife'; an item that costs the answer is never met this way: all but one word
    of 'Routine repeat ultrasound scan in 1-2 weeks' is not that scan."""
    given = _given("obg-miscarriage-001", "Threatened miscarriage. Routine antenatal care continues with her midwife.")
    assert "Continue routine antenatal care with the community midwife" in given
    given = _given("obg-miscarriage-001", "Threatened miscarriage. Routine repeat ultrasound if bleeding heavier.")
    assert "Routine repeat ultrasound scan in 1-2 weeks" not in given

"""The grader's doubt: which decisions it marks uncertain, and why (core/scoring/certainty.py)."""

from __future__ import annotations

from pathlib import Path

from medbench_tui.core.scoring import render_scorecard_text, score
from medbench_tui.core.scoring.certainty import DOUBTS, _share, answer_words
from medbench_tui.core.scoring.extraction_model import Entity, Extraction, Span
from medbench_tui.core.transcript import FinalResponse, Transcript
from medbench_tui.core.validate import load_valid_case

CASES = Path(__file__).resolve().parent.parent / "cases"


def _card(case_id: str, text: str):
    case = load_valid_case(CASES / f"{case_id}.yaml")
    return score(case, Transcript(case_id=case.id, final=FinalResponse(text=text)))


def test_an_item_left_out_whose_words_are_in_the_answer_is_uncertain_and_so_is_its_verdict():
    """'Fluid bolus ... insulin infusion': both words of 'Insulin bolus' are there, though no
    insulin bolus is given. The absence is right, but a reader should look."""
    card = _card("ped-dka-001", "Severe DKA. Plan: 10 mL/kg 0.9% saline bolus, then fixed-rate insulin "
                                "infusion 0.05 units/kg/h after an hour of fluids. Hourly glucose and ketones.")
    absent = {a.reference: a.doubts for a in card.uncertain_absences}
    assert absent.get("Insulin bolus") == ["words present"]
    verdict = next(c for c in card.critical_conditions if c.id == "cc-no-insulin-bolus")
    assert verdict.status == "OK" and verdict.certainty == "uncertain"
    assert verdict.doubts == ["rests on an uncertain item"]
    assert "Uncertain decisions" in render_scorecard_text(card)


def test_a_clear_answer_is_certain_throughout():
    card = _card("ped-dka-001", "Diabetic ketoacidosis. Check capillary blood glucose.")
    glucose = next(e for e in card.items.workup if e.reference == "Capillary blood glucose")
    assert glucose.certainty == "certain" and glucose.doubts == []
    data = card.to_json()
    entry = next(e for e in data["items"]["workup"] if e["reference"] == "Capillary blood glucose")
    assert entry["certainty"] == "certain" and "doubts" not in entry  # no empty list in the JSON


def test_a_word_clipped_by_a_terse_answer_counts_as_held():
    assert _share(frozenset({"paracetamol", "concentration"}), frozenset({"para", "38"})) == 0.5
    assert _share(frozenset({"psychiatry"}), frozenset({"psy"})) == 0.0  # too short to be a clip


def test_unread_words_are_those_of_pieces_where_nothing_was_read():
    text = "IV NAC now. Para 38, ALT 186."
    read = Entity(kind="treatment", text="NAC", evidence=Span(start=3, end=6, text="NAC"), source="text")
    words = answer_words({"text": text}, Extraction(extractor="text", entities=[read]))
    assert "para" in words.unread and "nac" not in words.unread
    assert {"nac", "para"} <= words.whole


def test_every_doubt_rule_is_named_and_says_why():
    assert len({d.name for d in DOUBTS}) == len(DOUBTS)
    assert all(d.says and d.says[0].islower() for d in DOUBTS)


def test_a_required_item_left_out_of_a_terse_plan_is_doubted_not_of_a_full_one():
    """A terse plan leaves things implied ("XM, vasc reg"): a required item it half names is worth a
    physician's look; the same item left out of a plan of 80 words or more is a plain absence."""
    required = "Hourly neurological observations for cerebral oedema"
    terse = _card("ped-dka-001", "DKA. Bloods, VBG, ketones. Hourly neuro, cerebral oedema risk.")
    thorough = _card("ped-dka-001", "Diabetic ketoacidosis. " + "Check capillary glucose and ketones hourly. " * 15
                     + "Hourly neuro, cerebral oedema risk.")

    def doubts(card):
        entries = [*card.items.treatment, *card.uncertain_absences]
        return next((e.doubts for e in entries if e.reference == required), [])

    assert "terse plan" in doubts(terse)
    assert "terse plan" not in doubts(thorough)


def _doubts_of(card, section: str, reference: str) -> list[str]:
    return next(e.doubts for e in getattr(card.items, section) if e.reference == reference)


def test_an_item_inferred_from_something_else_the_answer_says_is_uncertain():
    """A return-if sentence credited as the safety-netting item, a finding reported credited as the
    examination: readings a physician may not share, unlike the item named."""
    card = _card("im-cap-001", "Community-acquired pneumonia, CURB-65 0. Amoxicillin 500 mg three times a day "
                               "for 5 days. Come back to us urgently if your breathing gets worse.")
    assert _doubts_of(card, "treatment", "Safety-netting and review in 48-72 hours if not improving") == ["inferred"]
    card = _card("oph-aacg-001", "Acute angle-closure glaucoma. The cornea is hazy and the pupil mid-dilated. "
                                 "Same-day ophthalmology; IV acetazolamide 500 mg; pilocarpine 2% drops.")
    assert _doubts_of(card, "workup", "Examination of the fellow eye") == ["inferred"]


def test_a_differential_named_in_passing_is_uncertain_one_under_a_heading_is_not():
    passing = _card("em-pe-001", "Likely pulmonary embolism, though a chest infection or pneumonia is possible. "
                                 "CTPA today; start apixaban while waiting.")
    assert _doubts_of(passing, "differential", "Pneumonia") == ["weak differential"]
    listed = _card("em-pe-001", "Diagnosis: pulmonary embolism.\nDifferentials:\n- pneumonia\n- pneumothorax\n"
                                "Plan: CTPA today; start apixaban while waiting.")
    assert _doubts_of(listed, "differential", "Pneumonia") == []


def test_a_secondary_diagnosis_left_out_of_a_short_answer_is_uncertain_not_of_a_long_one():
    short = _card("im-cap-001", "Community-acquired pneumonia. Amoxicillin for 5 days; review in 48 hours; "
                                "nicotine patches.")
    tobacco = "Tobacco dependence syndrome (nicotine dependence)"
    assert _doubts_of(short, "diagnoses", tobacco) == ["secondary in a short answer"]
    long = _card("im-cap-001", "Community-acquired pneumonia. " + "Amoxicillin for 5 days and review. " * 30
                 + "Nicotine patches.")
    assert _doubts_of(long, "diagnoses", tobacco) == []


def test_advice_that_others_will_act_is_uncertain():
    """A telephone answer that sends the patient in ("they will check your bloods there") tells
    rather than does: physicians part on crediting it."""
    from medbench_tui.core.scoring.certainty import ItemFacts, _advice_only
    from medbench_tui.core.scoring.match import Pairing

    entity = Entity(kind="workup", text="bloods", evidence=Span(start=0, end=6, text="bloods"), source="text",
                    section="advice")
    assert _advice_only(ItemFacts(Pairing(None, entity, "extra"), [], None, answer_words({}, Extraction(
        extractor="text")))) is True


def test_a_verdict_met_by_several_items_stands_while_one_of_them_is_certain():
    from medbench_tui.core.scoring.certainty import condition_doubts

    doubted = ["inferred"]
    assert condition_doubts(["A", "B"], {"a": doubted}, False, given=True) == []
    assert condition_doubts(["A", "B"], {"a": doubted, "b": doubted}, False, given=True) == [
        "rests on an uncertain item"]
    assert condition_doubts(["A", "B"], {"a": doubted}, False) == ["rests on an uncertain item"]  # read from absences


def test_a_required_action_given_in_a_close_wording_still_meets_its_verdict():
    """Given as "all but one word" of its name, the required action is still said; so is a harmful item in a
    wording that competes with another item (none of those must-not verdicts disagreed on the labelled sets)."""
    from medbench_tui.core.scoring.certainty import condition_doubts

    close = {"a": ["all but one word"]}
    assert condition_doubts(["A"], close, False, given=True, required=True) == []
    assert condition_doubts(["A"], {"a": ["competing items"]}, False, given=True) == []
    assert condition_doubts(["A"], {"a": ["all but one word", "inferred"]}, False, given=True, required=True) == [
        "rests on an uncertain item"]
    assert condition_doubts(["A"], close, False, required=True) == ["rests on an uncertain item"]  # not given


def test_a_verdict_does_not_turn_on_an_item_given_as_another_drug_of_its_group():
    """Amoxicillin for a ceftriaxone item is 'different' (a drug of its group, an inferred reading): whether or not
    the group reading holds, ceftriaxone was not given, so the must-include verdict that names it stands."""
    from medbench_tui.core.scoring import score
    from medbench_tui.core.transcript import FinalResponse, Transcript
    from medbench_tui.core.validate import load_valid_case

    case = load_valid_case(Path(__file__).resolve().parent / "data" / "newcases-e" / "cases"
                           / "nce-meningococcal-001.yaml")
    card = score(case, Transcript(case_id=case.id, final=FinalResponse(text="Plan: IV amoxicillin 2 g now.")))
    row = next(e for e in card.items.treatment if e.reference == "IV ceftriaxone 2 g immediately")
    assert (row.status, row.certainty) == ("different", "uncertain")
    verdict = next(c for c in card.critical_conditions if c.id == "cc-antibiotic-now")
    assert (verdict.status, verdict.certainty) == ("FAIL", "certain")

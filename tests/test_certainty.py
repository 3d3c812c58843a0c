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
    """A terse plan leaves things implied ("XM, vasc reg"): a required item it leaves out is worth a
    physician's look; the same item left out of a plan of 80 words or more is a plain absence."""
    case = load_valid_case(CASES / "ped-dka-001.yaml")
    required = next(i.item for i in case.treatment if i.klass == "required")
    terse = _card("ped-dka-001", "DKA. Bloods, VBG, ketones.")
    thorough = _card("ped-dka-001", "Diabetic ketoacidosis. " + "Check capillary glucose and ketones hourly. " * 15)

    def doubts(card):
        entries = [*card.items.treatment, *card.uncertain_absences]
        return next((e.doubts for e in entries if e.reference == required), [])

    assert "terse plan" in doubts(terse)
    assert "terse plan" not in doubts(thorough)

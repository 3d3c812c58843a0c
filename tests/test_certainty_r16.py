"""Round 16 of the grader's doubt: which decisions it now marks uncertain, and which it leaves certain
(core/scoring/certainty.py, docs/grading.md "When the grader is unsure")."""

from __future__ import annotations

from pathlib import Path

from medbench_tui.core.scoring import score
from medbench_tui.core.scoring.certainty import _piece
from medbench_tui.core.scoring.scorecard import Scorecard
from medbench_tui.core.transcript import FinalResponse, Transcript
from medbench_tui.core.validate import load_valid_case

CASES = Path(__file__).resolve().parent.parent / "cases"


def _card(case_id: str, text: str) -> Scorecard:
    case = load_valid_case(CASES / f"{case_id}.yaml")
    return score(case, Transcript(case_id=case.id, final=FinalResponse(text=text)))


def _doubts(card: Scorecard, reference: str) -> list[str]:
    return next(e.doubts for e in [*card.items.workup, *card.items.treatment] if e.reference == reference)


def test_an_untimed_item_given_only_for_tomorrow_or_later_is_put_off():
    """'GP to arrange an outpatient chest X-ray' gives the film, but not now: a physician may read it as not done.
    (In an emergency case an untimed work-up item is today's, so there it is not given at all:
    tests/test_scoring_classes_r16.py.)"""
    later = _card("im-cap-001", "Community-acquired pneumonia. Amoxicillin 500 mg tds for 5 days. "
                                "GP to arrange an outpatient chest X-ray.")
    assert _doubts(later, "Chest X-ray") == ["put off"]
    tomorrow = _card("im-cap-001", "Community-acquired pneumonia. Amoxicillin 500 mg tds for 5 days. "
                                   "Chest X-ray tomorrow.")
    assert _doubts(tomorrow, "Chest X-ray") == ["put off"]


def test_an_item_given_now_or_today_is_not_put_off():
    today = _card("em-pe-001", "Likely pulmonary embolism. Start apixaban now. CTPA today.")
    assert _doubts(today, "CT pulmonary angiography") == []
    now = _card("im-cap-001", "Community-acquired pneumonia. Amoxicillin 500 mg tds for 5 days. Chest X-ray now.")
    assert _doubts(now, "Chest X-ray") == []


def test_a_long_answer_that_puts_an_item_off_means_it():
    """Past 130 words an answer spells out its plan: an outpatient scan there is its considered timing."""
    long = _card("em-pe-001", "Likely pulmonary embolism. " + "Start apixaban now and explain the plan. " * 25
                 + "GP to arrange an outpatient CTPA.")
    assert "put off" not in _doubts(long, "CT pulmonary angiography")


def test_the_timing_read_is_that_of_the_mention_s_own_piece():
    text = "Admit now; echo tomorrow, (bloods today)"
    assert _piece(text, text.index("echo")) == "echo tomorrow"
    assert _piece(text, text.index("bloods")) == "bloods today"
    assert _piece(text, 0) == "Admit now"


def test_bullets_arrows_and_plus_signs_are_no_words():
    """Shorthand's symbols made a plan look longer and sparser than it is."""
    from medbench_tui.core.scoring.certainty import answer_words
    from medbench_tui.core.scoring.extraction_model import Extraction

    words = answer_words({"text": "- 3% NaCl 150 ml IV → recheck Na + Mg"}, Extraction(extractor="text"))
    assert words.count == 8


def test_a_primary_diagnosis_named_as_a_differential_is_no_words_present_doubt():
    """The grader read the primary as a differential: its words in the answer are that reading's, not a wording
    it missed (none of 20 such doubts disagreed on the labelled sets)."""
    card = _card("em-pe-001", "Impression: viral pleurisy, possibly an early chest infection. PE is less likely as "
                              "she is young and fit.\n\nPlan:\n- Ibuprofen 400 mg TDS\n- Return if more breathless")
    primary = "Pulmonary embolism without acute cor pulmonale"
    assert any(e.reference == primary and e.answer is not None for e in card.items.differential)
    assert next(e.doubts for e in card.items.diagnoses if e.reference == primary) == []


def test_an_action_on_the_other_branch_of_a_contingency_is_uncertain():
    """'... if the D-dimer is normal; otherwise CTPA': the scan is the plan only on one branch."""
    branch = _card("em-pe-001", "Likely pulmonary embolism. Start apixaban now. Discharge if the D-dimer is normal; "
                                "otherwise CTPA.")
    assert "other branch" in _doubts(branch, "CT pulmonary angiography")
    plain = _card("em-pe-001", "Likely pulmonary embolism. Start apixaban now. CTPA today.")
    assert "other branch" not in _doubts(plain, "CT pulmonary angiography")


def test_a_diagnosis_read_from_a_hedged_clause_is_uncertain_even_across_a_wrapped_line():
    from medbench_tui.core.scoring.certainty import _CLAUSE_BREAK

    text = "Impression: migraine. Early pre-eclampsia is\npossible given the protein.\n- Bloods"
    clause = _piece(text, text.index("pre-eclampsia"), _CLAUSE_BREAK)
    assert clause == "Early pre-eclampsia is\npossible given the protein"
    assert "protein" not in _piece(text, text.index("Bloods"), _CLAUSE_BREAK)
    hedged = _card("em-pe-001", "Impression: pulmonary embolism is possible given the pill.\nPlan: CTPA today; "
                                "apixaban now.")
    firm = _card("em-pe-001", "Impression: pulmonary embolism, possibly provoked by the pill.\nPlan: CTPA today; "
                              "apixaban now.")  # the hedge is of its cause, in another clause
    primary = "Pulmonary embolism without acute cor pulmonale"
    assert "hedged final" in next(e.doubts for e in hedged.items.diagnoses if e.reference == primary)
    assert next(e.doubts for e in firm.items.diagnoses if e.reference == primary) == []


def test_an_item_with_a_time_of_its_own_is_put_off_too_when_the_answer_gives_it_only_later():
    """'Admission with acute oncology team review' allows the day; a next-day review by that team overlaps it and
    is given, but it is not now."""
    path = Path(__file__).resolve().parent / "data" / "newcases" / "cases" / "ncb-neutropenic-sepsis-001.yaml"
    case = load_valid_case(path)

    def doubts(text: str) -> list[str]:
        card = score(case, Transcript(case_id=case.id, final=FinalResponse(text=text)))
        return _doubts(card, "Admission with acute oncology team review")

    plan = "Febrile neutropenia.\nPlan:\n- IV piperacillin-tazobactam now\n- "
    assert doubts(plan + "Next-day telephone review by the acute oncology team") == ["put off"]
    assert doubts(plan + "Admit today under the acute oncology team") == []


def test_an_action_only_weighed_by_a_hedge_or_a_query_mark_is_queried():
    queried = _card("em-pe-001", "Likely pulmonary embolism. Apixaban now. ?CTPA.")
    assert "queried" in _doubts(queried, "CT pulmonary angiography")
    considered = _card("em-pe-001", "Likely pulmonary embolism. Apixaban now. Consider CTPA.")
    assert "queried" in _doubts(considered, "CT pulmonary angiography")
    elsewhere = _card("em-pe-001", "Likely pulmonary embolism, pneumonia possible - CTPA today. Apixaban now.")
    assert "queried" not in _doubts(elsewhere, "CT pulmonary angiography")  # the hedge is of another piece

"""Round 19 of the grader's doubt: a bare "no" that may report a finding, an acceptable item a terse plan leaves
implied, and which rejected differentials stay in doubt (core/scoring/certainty.py, docs/grading.md "When the
grader is unsure"). The doubts only mark decisions; none of these answers' decisions is asserted to change."""

from __future__ import annotations

from pathlib import Path

from medbench_tui.core.scoring import score
from medbench_tui.core.scoring.certainty import BARE_NEGATIONS, BARE_REJECTIONS, DOUBTS
from medbench_tui.core.scoring.scorecard import Scorecard
from medbench_tui.core.scoring.text_extractor import REJECTED, rejected_by
from medbench_tui.core.transcript import FinalResponse, Transcript
from medbench_tui.core.validate import load_valid_case

ROOT = Path(__file__).resolve().parent.parent
PE = ROOT / "cases" / "em-pe-001.yaml"
EPIGLOTTITIS = ROOT / "tests" / "data" / "newcases-k" / "cases" / "nck-ed-epiglottitis-001.yaml"

PE_SHORTHAND = "PE likely.\n- CTPA today\n- Apixaban 10 mg BD\n- Stop COCP, POP instead\n- bHCG\n- Wells 6\n- Admit\n"
PE_PROSE = ("I think this is most likely a pulmonary embolism, given the pleuritic pain after a long flight. I would "
            "arrange a CT pulmonary angiogram today and start apixaban while we wait, and I would ask her to stop the "
            "combined pill. ")
PE_STORY = ("Pulmonary embolism is the likely diagnosis: pleuritic pain and breathlessness ten days after a long-haul "
            "flight, on the combined pill, heart rate 112. I would admit her, send baseline bloods, a pregnancy test "
            "and a CT pulmonary angiogram today, and start apixaban 10 mg twice daily now while we wait. She should "
            "stop the combined pill and use a progestogen-only method instead. Paracetamol for the pain. ")
EPIGLOTTITIS_TERSE = ("Acute supraglottitis. Drooling, stridor, tripoding.\n- Sit up, min handling\n- Anaes + ENT now, "
                      "FONA set out\n- BCx x2 then ceftriaxone 2 g IV stat\n- Dxm 8 mg IV\n- Adrenaline 1:1000 5 mL "
                      "neb\n- ITU bed\n")


def _card(path: Path, text: str) -> Scorecard:
    case = load_valid_case(path)
    return score(case, Transcript(case_id=case.id, final=FinalResponse(text=text)))


def _absence(card: Scorecard, reference: str) -> list[str]:
    """The doubts of an item with no row (not required, not given); empty when its absence is certain."""
    return next((a.doubts for a in card.uncertain_absences if a.reference == reference), [])


def _differential(card: Scorecard, reference: str) -> list[str]:
    return next(e.doubts for e in card.items.differential if e.reference == reference and e.answer is not None)


def test_a_test_left_out_as_negated_by_a_bare_no_in_shorthand_is_in_doubt():
    """'no leg swelling or D-dimer sent': the bare 'no' reaches the D-dimer over a list closed by 'or', which the plan
    may report as done. (After a comma that no 'or' closes the bare 'no' ends: 'no leg swelling, D-dimer
    sent' sends it; with its value, 'no leg swelling, D-dimer 900', the D-dimer is a result reported and done
    (scoring.md "Results"): the negation is the leg's, and no absence is left to doubt.)"""
    card = _card(PE, PE_SHORTHAND + "- no leg swelling or D-dimer sent\n")
    assert "bare negation" in _absence(card, "D-dimer")
    for line in ("- no leg swelling, D-dimer sent\n", "- no leg swelling, D-dimer 900\n"):
        given = _card(PE, PE_SHORTHAND + line)
        assert any(e.reference == "D-dimer" and e.status != "missing" for e in given.items.workup), line


def test_the_same_bare_no_in_prose_leaves_the_absence_certain():
    """Prose says what it withholds: of 13 such absences in prose on the labelled sets, 1 disagreed."""
    card = _card(PE, PE_PROSE + "On examination she has no leg swelling, D-dimer 900.")
    assert "bare negation" not in _absence(card, "D-dimer")


def test_a_longer_negation_in_shorthand_withholds_the_act():
    """'not needed' is a verdict on the act, never a finding: none of its absences disagreed."""
    card = _card(PE, PE_SHORTHAND + "- D-dimer not needed\n")
    assert _absence(card, "D-dimer") == []


def test_a_differential_rejected_by_a_bare_no_in_a_short_answer_is_weak():
    """Between 80 and 130 words, 'no pneumothorax' may report a film rather than weigh a diagnosis."""
    text = PE_STORY + ("Wells score 6. Review in the VTE clinic before three months. "
                       "The chest X-ray shows no pneumothorax.")
    assert 80 <= len(text.split()) < 130
    assert "weak differential" in _differential(_card(PE, text), "Spontaneous pneumothorax")


def test_a_differential_rejected_by_a_longer_phrase_is_not_weak():
    """'excluded' rejects the diagnosis outright: 0 of 4 such readings disagreed, even under 80 words."""
    text = PE_STORY + "A pneumothorax has been excluded."
    assert len(text.split()) < 80
    assert "weak differential" not in _differential(_card(PE, text), "Spontaneous pneumothorax")


def test_a_long_answer_means_its_bare_rejection():
    text = PE_STORY * 2 + "The chest X-ray shows no pneumothorax."
    assert len(text.split()) >= 130
    assert "weak differential" not in _differential(_card(PE, text), "Spontaneous pneumothorax")


def test_an_acceptable_drug_written_in_a_wording_the_grader_does_not_read_is_implied():
    """'Dxm 8 mg IV' is read as nothing; half the item's words ('IV') stand in that piece of a terse plan."""
    card = _card(EPIGLOTTITIS, EPIGLOTTITIS_TERSE)
    assert "implied in a terse plan" in _absence(card, "Intravenous dexamethasone")


def test_a_long_answer_leaves_no_acceptable_item_implied():
    padding = "Explain the plan to him and his wife and keep them informed of every step. " * 10
    card = _card(EPIGLOTTITIS, EPIGLOTTITIS_TERSE + padding)
    assert "implied in a terse plan" not in _absence(card, "Intravenous dexamethasone")


def test_a_required_item_stays_with_the_terse_plan_rule():
    """The new rule is for acceptable items only: a required one left out of a terse plan is 'terse plan''s."""
    card = _card(EPIGLOTTITIS, EPIGLOTTITIS_TERSE)
    for entry in card.items.treatment:
        if entry.status == "missing":
            assert "implied in a terse plan" not in entry.doubts


def test_bare_rejections_are_read_back_from_the_extractor_s_reason():
    assert {"no", "not"} == BARE_NEGATIONS
    assert rejected_by("no") in BARE_REJECTIONS
    assert rejected_by("excluded") not in BARE_REJECTIONS
    assert rejected_by("no").startswith(REJECTED)


def test_every_new_rule_is_named_and_said():
    names = {rule.name: rule.says for rule in DOUBTS}
    assert "bare" in names["bare negation"] and "shorthand" in names["bare negation"]
    assert "acceptable" in names["implied in a terse plan"]
    assert "bare" in names["weak differential"]


def _pleurisy(card: Scorecard) -> list[str]:
    return next(e.doubts for e in card.items.differential if e.reference == "Pleurisy")


def test_a_differential_stated_firmly_as_the_answer_s_diagnosis_is_no_words_present_doubt():
    """A flawed answer's wrong diagnosis: the differential's words are that reading's, not a wording the grader
    missed (47 such doubts on the labelled sets, the 5 that disagreed were hedged: see the next test)."""
    card = _card(PE, "Diagnosis: viral pleurisy.\n\nPlan:\n- Ibuprofen 400 mg TDS\n- Return if more breathless\n")
    assert any(e.answer == "viral pleurisy" and e.status == "extra" for e in card.items.diagnoses)
    assert _pleurisy(card) == []


def test_a_differential_read_as_the_diagnosis_from_a_hedged_clause_is_a_hedged_final():
    """'possible pleurisy too': the grader reads a diagnosis, a physician may read a differential."""
    card = _card(PE, "Impression: musculoskeletal chest wall pain; possible pleurisy too.\n\nPlan:\n"
                     "- Ibuprofen 400 mg TDS\n- Return if more breathless\n")
    assert _pleurisy(card) == ["hedged final"]

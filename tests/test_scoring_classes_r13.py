"""Failure classes of the new-case answer sets (round 13): each test is in wording of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.scoring.document import Document
from medbench_tui.core.scoring.scorecard import Scorecard
from medbench_tui.core.text import tokenize
from medbench_tui.core.transcript import FinalResponse, Transcript
from medbench_tui.core.validate import load_valid_case
from tests.test_scoring_regressions import card, condition, rows

DATA = Path(__file__).resolve().parent / "data"
PYLORIC = DATA / "newcases-h" / "cases" / "nch-peds-pyloric-001.yaml"
CORRECT_FIRST = "Correct alkalosis and potassium before surgery"
SURGERY_FIRST = "Pyloromyotomy before electrolyte correction"


def scored(path: Path, text: str) -> Scorecard:
    case = load_valid_case(path)
    return score(case, Transcript(case_id=case.id, final=FinalResponse(text=text)))


# --- 1. an ordering said as a condition ------------------------------------------------


@pytest.mark.parametrize("plan, first", [
    ("Plan:\n1. Paediatric surgeons to do a laparoscopic pyloromyotomy; we operate only after the alkalosis and\n"
     "   hypokalaemia are corrected, never as an emergency.", True),
    ("Plan:\n- NBM, NG tube\n- book theatre once Cl > 100 and HCO3 < 28 on the repeat gas", True),
    ("Plan:\n- NBM, NG tube\n- book theatre once Cl \u2265 100 and HCO3 \u2264 28 on the repeat gas", True),
    ("Plan:\n- NBM, NG tube\n- book theatre once Cl < 100 and HCO3 > 28 on the repeat gas", False),
])
def test_surgery_that_waits_for_the_correction_is_the_correction_first(plan: str, first: bool):
    """Surgery put off until the alkalosis is corrected (its values given as signs, or its words wrapped onto a
    line of their own) is the correction-first item, and no surgery before correction; signs the wrong way round
    are no correction."""
    c = scored(PYLORIC, plan)
    assert (CORRECT_FIRST in rows(c, "treatment")) is first, plan
    assert (condition(c, "cc-correct-first") == "OK") is first, plan
    assert SURGERY_FIRST not in rows(c, "treatment"), plan


@pytest.mark.parametrize("text, words", [
    ("K >5.5", ["k", "above", "5", "5"]),
    ("Hb \u2264 70", ["haemoglobin", "below", "70"]),
    ("fluids -> 2 L", ["fluid", "2", "l"]),
    ("Cl 86, HCO3 34", ["chloride", "86", "bicarbonate", "level", "34"]),
])
def test_a_comparison_sign_before_a_number_is_its_word(text: str, words: list[str]):
    """"<" and ">" before a number read as "below" and "above" (an arrow's head does not); chloride and
    bicarbonate written as their chemical symbols are those results."""
    assert [t.norm for t in tokenize(text)] == [w.replace("haemoglobin", "hemoglobin") for w in words]


def test_a_bicarbonate_result_is_no_bicarbonate_given():
    """"HCO3" is the result, never the drug: "repeat the gas for the HCO3" gives no bicarbonate."""
    c = card("ped-dka-001", "Plan: fixed-rate insulin, IV fluids; repeat the gas in 2 h for the HCO3 and K.")
    assert not any("bicarbonate" in item.lower() for item in rows(c, "treatment"))


@pytest.mark.parametrize("plan, home_now", [
    ("Plan: ENT to drain it today; IV benzylpenicillin. Once she can swallow, home on oral penicillin.", False),
    ("Plan: ENT to drain it today; IV benzylpenicillin; after drainage, discharge home on oral penicillin.", False),
    ("Plan: discharge home today on oral penicillin V, GP review in a week.", True),
])
def test_a_discharge_led_in_by_what_it_waits_for_is_later(plan: str, home_now: bool):
    """A clause that opens with what the discharge waits for ("once she can swallow, home on ...") puts the
    discharge later, as "home once she can swallow" does: it is no discharge on oral antibiotics now."""
    c = card("em-quinsy-001", plan)
    assert ("Discharge home on oral antibiotics without ENT review" in rows(c, "treatment")) is home_now, plan


# --- 2. a stop with an exception for the drug's own indication ----------------------------

CDIFF = DATA / "newcases-h" / "cases" / "nch-im-cdiff-001.yaml"
STOP_PPI = "Stop or review the proton pump inhibitor"
VANCOMYCIN = "Oral vancomycin 125 mg four times daily for 10 days"


@pytest.mark.parametrize("plan, item, given", [
    ("Management:\n- Please consider and stop omeprazole unless she has a firm indication for it", STOP_PPI, True),
    ("Management:\n- stop the omeprazole if there's no ongoing indication", STOP_PPI, True),
    ("Management:\n- vancomycin 125 mg orally four times a day for 10 days unless contraindicated", VANCOMYCIN, True),
    ("Management:\n- vancomycin 125 mg orally four times a day for 10 days if the repeat toxin is positive",
     VANCOMYCIN, False),
])
def test_an_exception_for_a_contraindication_or_indication_leaves_the_action(plan: str, item: str, given: bool):
    """"Unless contraindicated" leaves the drug given, and "unless there is an indication" leaves a stop made:
    the exception is a caveat, no condition the plan waits on; a condition of its own still is one."""
    assert (item in rows(scored(CDIFF, plan), "treatment")) is given, plan


# --- 3. a test in a clause of known history --------------------------------------------

MSCC = DATA / "newcases-h" / "cases" / "nch-onc-mscc-001.yaml"
BLOODS = "Bloods including calcium and full blood count"


@pytest.mark.parametrize("plan, asked", [
    ("Known metastatic prostate cancer, PSA 45 and climbing.\nPlan: dexamethasone 16 mg; MRI whole spine today.",
     False),
    ("Known metastatic prostate cancer; check PSA and calcium.\nPlan: dexamethasone 16 mg; MRI whole spine today.",
     True),
    ("Known metastatic prostate cancer, so check calcium and PSA.\nPlan: dexamethasone 16 mg; MRI whole spine today.",
     True),
])
def test_a_result_in_a_clause_of_known_history_is_no_test_asked_for(plan: str, asked: bool):
    """A test named in a clause that opens "Known ..." is part of the background (a result of the past); a new
    clause, or an action verb after the background, asks for it."""
    assert (BLOODS in rows(scored(MSCC, plan), "workup")) is asked, plan


# --- 4. a call on a condition is no attendance now ------------------------------------------

NEUTSEPSIS = DATA / "newcases-g" / "cases" / "ncg-neutropenic-sepsis-001.yaml"
HYPEREMESIS = DATA / "newcases-h" / "cases" / "nch-obs-hyperemesis-001.yaml"
COME_NOW = "Advise her to come to hospital immediately"
ADMIT_TODAY = "Emergency same-day hospital admission by ambulance"


@pytest.mark.parametrize("path, plan, item, given", [
    (NEUTSEPSIS, "Phone advice:\n- we will see her in clinic in the morning; call 999 if she becomes confused",
     COME_NOW, False),
    (NEUTSEPSIS, "Phone advice:\n- call 999 now for an ambulance; do not wait until the morning", COME_NOW, True),
    (None, "Plan: amoxicillin; I will visit tomorrow, and if he gets drowsy the family should call an ambulance.",
     ADMIT_TODAY, False),
    (None, "Plan: call 999 for admission now; controlled oxygen via Venturi mask.", ADMIT_TODAY, True),
    (HYPEREMESIS, "Plan: cyclizine, oral fluids; call 999 if she collapses or cannot keep fluids down.",
     "Safety-netting for specific danger signs", True),
])
def test_a_call_on_a_condition_is_advice_for_later(path: Path | None, plan: str, item: str, given: bool):
    """A call or return on a condition the record does not meet is safety-netting for later: it meets a
    safety-netting item, never an item of attendance or admission today; the same call said now does."""
    c = scored(path, plan) if path is not None else card("im-copd-exacerbation-001", plan)
    assert (item in rows(c, "treatment")) is given, plan


# --- 5. emphasis marks before a bracket of examples -------------------------------------------


@pytest.mark.parametrize("plan", [
    "Plan:\n- Stop bisoprolol; **no rate-slowing drugs** (digoxin, diltiazem or amiodarone) for now.",
    "Plan:\n- Stop bisoprolol; __avoid rate-slowing drugs__ (amiodarone, digoxin).",
])
def test_a_bold_declined_class_shares_its_negation_with_its_examples(plan: str):
    """Bold or underlined marks between a declined class and its bracket of examples are layout: every example in
    the bracket is declined with it, not only the first."""
    c = card("em-heart-block-001", plan)
    assert "Rate-slowing drugs" not in rows(c, "treatment"), plan
    assert condition(c, "cc-implicit-contraindicated") == "OK", plan


# --- 6. two stops joined ----------------------------------------------------------------------


@pytest.mark.parametrize("plan, stopped", [
    ("Plan:\n- Discontinue ibuprofen (renal function) and stop amlodipine (no benefit in HFrEF).", True),
    ("Plan:\n- **Hold the bendroflumethiazide** and **stop amlodipine**.", True),
    ("Plan:\n- Do not stop amlodipine yet.", False),
])
def test_a_stop_after_another_stop_is_still_a_stop(plan: str, stopped: bool):
    """The withholding verb of one stop does not negate the next stop joined to it: the two agree, and "stop X and
    stop Y" stops both; "do not stop" still keeps the drug."""
    assert ("Stop amlodipine" in rows(card("im-heart-failure-001", plan), "treatment")) is stopped, plan


# --- 7. a drug kept for the next chemotherapy cycles -------------------------------------------

NCB_NEUTSEPSIS = DATA / "newcases" / "cases" / "ncb-neutropenic-sepsis-001.yaml"


@pytest.mark.parametrize("plan, given", [
    ("Plan:\n- piperacillin-tazobactam IV now\n- oncology to discuss filgrastim for subsequent cycles", False),
    ("Plan:\n- piperacillin-tazobactam IV now; oncology may offer lenograstim (a G-CSF) with future cycles, and\n"
     "  will decide on the next cycle", False),
    ("Plan:\n- piperacillin-tazobactam IV now\n- start filgrastim today", True),
])
def test_a_drug_for_the_next_cycles_is_not_given_now(plan: str, given: bool):
    """A drug kept for future chemotherapy cycles, said after it or after a bracket that names it, is put off:
    no dose now."""
    c = scored(NCB_NEUTSEPSIS, plan)
    assert ("Granulocyte colony-stimulating factor" in rows(c, "treatment")) is given, plan


def test_a_line_wrapped_after_a_closing_bracket_goes_on():
    """A long line that ends on a closing bracket and goes on in lower case on an indented line is one clause."""
    doc = Document("- oncology to consider pegfilgrastim for her (the consultant agrees with this plan)\n"
                   "  secondary prophylaxis next time")
    assert len(set(doc.clause)) == 1


# --- 8. "e.g." and "i.e." end no clause -----------------------------------------------------------

INTUSSUSCEPTION = DATA / "newcases-f" / "cases" / "ncf-intussusception-001.yaml"


def test_the_full_stops_of_e_g_end_no_clause():
    """The full stops of a two-letter abbreviation ("e.g.", "i.e.") are no sentence end; a sentence's own is."""
    doc = Document("Broad cover (i.e. co-amoxiclav) only if septic. Review later.")
    clauses = [c for t, c in zip(doc.tokens, doc.clause, strict=True) if t.low in ("cover", "septic", "review")]
    assert clauses[0] == clauses[1] != clauses[2]


def test_a_condition_after_a_bracket_of_examples_covers_the_drug_before_it():
    """"IV antibiotics (e.g. ...) only if perforation is suspected" makes the antibiotics conditional."""
    plan = ("Plan:\n- air enema reduction\n"
            "- IV antibiotics (e.g. ceftriaxone and metronidazole) only if perforation is suspected")
    assert "IV antibiotics before enema reduction" not in rows(scored(INTUSSUSCEPTION, plan), "treatment")

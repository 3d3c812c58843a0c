"""Failure classes of the new-case answer sets (round 11): each test is in wording of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.scoring.reference import levels_without_head, monitored_things
from medbench_tui.core.transcript import FinalResponse, Transcript
from medbench_tui.core.validate import load_valid_case
from tests.test_scoring_regressions import card, condition, rows

DATA = Path(__file__).resolve().parent / "data"
OVERDOSE = DATA / "newcases-f" / "cases" / "ncf-tca-overdose-001.yaml"
LEVELS = "Paracetamol and salicylate levels"


@pytest.mark.parametrize("name, head", [
    ("Lithium and digoxin levels", "Lithium and digoxin"),
    ("Ethanol/methanol concentration", "Ethanol/methanol"),
    ("Serum lithium level", ""),
    ("Repeat digoxin level", "Repeat digoxin"),
    ("Urea and electrolytes", ""),
])
def test_the_measured_things_of_an_item_of_several_levels(name: str, head: str):
    """An item that ends in a level word after two joined things is also named by those things alone."""
    assert levels_without_head(name) == head


@pytest.mark.parametrize("plan, found", [
    ("Bloods: FBC, U&E, salicylate and paracetamol, ECG.", True),
    ("Send paracetamol & salicylate with the U&E.", True),
    ("Investigations: ECG, U&E; paracetamol and salicylate not needed (no co-ingestion).", False),
])
def test_levels_written_without_their_level_word(plan: str, found: bool):
    """Two levels listed side by side with the shared word "levels" left implied are the test."""
    case = load_valid_case(OVERDOSE)
    c = score(case, Transcript(case_id=case.id, final=FinalResponse(text=plan)))
    assert (LEVELS in rows(c, "workup")) is found, plan
    assert (condition(c, "cc-paracetamol") == "OK") is found, plan


@pytest.mark.parametrize("avoid, given", [
    ("ibuprofen for the knee; regular paracetamol instead.", True),
    ("regular paracetamol for the knee.", False),
    ("regular paracetamol instead of codeine.", False),
])
def test_the_alternative_named_under_an_avoid_heading_is_given(avoid: str, given: bool):
    """Under an Avoid heading, a treatment whose clause ends on "instead" is what is given in its place."""
    c = card("im-heart-failure-001", f"Plan: IV furosemide.\nAvoid:\n- {avoid}\n")
    assert ("Topical or regular paracetamol for knee pain" in rows(c, "treatment")) is given, avoid


@pytest.mark.parametrize("plan, given", [
    ("- Diazepam 10 mg IV if he fits.", True),
    ("### Should he seize again\n- Midazolam 10 mg buccal", True),
    ("- Diazepam 10 mg IV if his QRS widens.", False),
])
def test_a_drug_given_on_its_items_own_indication_in_other_words(plan: str, given: bool):
    """A drug whose condition is its item's own indication, said in other words ("if he fits" for "for
    seizures"), is the item; another condition keeps it conditional."""
    case = load_valid_case(OVERDOSE)
    c = score(case, Transcript(case_id=case.id, final=FinalResponse(text=f"Plan: IV sodium bicarbonate.\n{plan}\n")))
    assert ("Benzodiazepine for seizures" in rows(c, "treatment")) is given, plan


@pytest.mark.parametrize("plan, given", [
    ("Clonazepam 0.5 mg if agitation develops", True),
    ("Clonazepam 0.5 mg if she is violent", False),
])
def test_the_happening_of_an_indication_is_no_other_condition(plan: str, given: bool):
    """"If agitation develops" restates "for agitation": the words of its happening are left out."""
    c = card("psy-mania-001", f"Plan: start olanzapine.\n- {plan}.\n")
    assert ("Short-term benzodiazepine for agitation or sleep" in rows(c, "treatment")) is given, plan


@pytest.mark.parametrize("line, withheld", [
    ("- **Filgrastim:** hold during antibiotics, decide with oncology.", False),
    ("- Hold antibiotics until the count is back.", True),
])
def test_a_withholding_reaches_no_drug_after_its_end_word(line: str, withheld: bool):
    """"Hold during antibiotics" holds something else for the time antibiotics run: the drug after the
    withholding's end word (``withhold_end``) is its time, not what it withholds."""
    c = card("onc-neutropenic-sepsis-001", f"Plan:\n- Piperacillin-tazobactam 4.5 g IV now.\n{line}\n")
    assert ("Withhold antibiotics until the neutrophil count is known" in rows(c, "treatment")) is withheld, line
    assert (condition(c, "cc-implicit-contraindicated") == "FAIL") is withheld, line


@pytest.mark.parametrize("name, checks", [
    ("Neurovascular monitoring (pulses, capillary refill, sensation)", "pulses, capillary refill, sensation"),
    ("Observations (temperature and heart rate)", "temperature and heart rate"),
    ("Neurovascular monitoring (hourly)", ""),
    ("Weak opioid (codeine, dihydrocodeine or tramadol)", ""),
])
def test_what_a_monitoring_item_checks(name: str, checks: str):
    """A monitoring item's bracket that lists two checks or more is also a name of it; no other bracket is."""
    assert monitored_things(name) == checks


@pytest.mark.parametrize("plan, found", [
    ("Post-op: 4-hourly potassium, CK and urine output.", True),
    ("Potassium 4.2 and CK 300 on admission.", False),
])
def test_a_monitoring_item_written_as_its_checks(plan: str, found: bool):
    """Checks written out together ("4-hourly potassium, CK and urine output") are the monitoring item whose
    bracket lists them; results reported are not."""
    case = load_valid_case(DATA / "newcases-c" / "cases" / "ncc-ali-001.yaml")
    c = score(case, Transcript(case_id=case.id, final=FinalResponse(text=f"Plan: heparin infusion.\n{plan}\n")))
    assert ("Monitoring for reperfusion injury (potassium, CK, urine output)" in rows(c, "treatment")) is found, plan


@pytest.mark.parametrize("plan, found", [
    ("Plan: serial lithium with the U&E 6-hourly.", True),
    ("Plan: lithium to stay stopped; U&E 6-hourly.", False),
])
def test_repeated_levels_written_without_their_level_word(plan: str, found: bool):
    """"Serial lithium" is the serial lithium levels: a word of repetition makes the measured thing no drug."""
    case = load_valid_case(DATA / "newcases-c" / "cases" / "ncc-lithium-001.yaml")
    c = score(case, Transcript(case_id=case.id, final=FinalResponse(text=plan)))
    assert ("Serial lithium levels every 6 to 12 hours" in rows(c, "workup")) is found, plan


@pytest.mark.parametrize("said, found", [
    ("Lithium _1.8 mmol/L_ this morning.", True),
    ("| Drug level | Value |\n|---|---|\n| Lithium | **3.3** (12 h) |", True),
    ("Usual dose: lithium **400 mg** at night.", False),
])
def test_a_result_in_emphasis_is_a_result(said: str, found: bool):
    """Bold or italic marks round a value ("Lithium **2.9 mmol/L**") are layout: the value is still the result."""
    case = load_valid_case(DATA / "newcases-c" / "cases" / "ncc-lithium-001.yaml")
    c = score(case, Transcript(case_id=case.id, final=FinalResponse(text=f"{said}\n\nPlan: IV fluids.\n")))
    assert ("Serum lithium level" in rows(c, "workup")) is found, said

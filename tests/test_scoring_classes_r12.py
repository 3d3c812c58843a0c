"""Failure classes of the new-case answer sets (round 12): each test is in wording of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import assertion, score
from medbench_tui.core.scoring.document import Document
from medbench_tui.core.transcript import FinalResponse, Transcript
from medbench_tui.core.validate import load_valid_case
from tests.test_scoring_regressions import card, condition, rows

DATA = Path(__file__).resolve().parent / "data"
ADRENAL = DATA / "newcases-g" / "cases" / "ncg-adrenal-crisis-001.yaml"
HELD = "Withhold antibiotics until the neutrophil count is known"
NOW = "Empirical intravenous piperacillin with tazobactam within 1 hour of arrival"
MORE_FLUID = "Further IV fluids guided by response and sodium"


@pytest.mark.parametrize("plan, waits", [
    ("Plan: piperacillin-tazobactam 4.5 g IV once the FBC result confirms neutropenia.", True),
    ("Plan: blood cultures now; start piperacillin-tazobactam when the neutrophil count is back.", True),
    ("Plan: piperacillin-tazobactam 4.5 g IV now; narrow the piperacillin-tazobactam once the cultures are back.",
     False),
    ("Plan: piperacillin-tazobactam 4.5 g IV now, IV fluids until creatinine is back near baseline.", False),
])
def test_a_treatment_made_to_wait_for_a_result_is_its_withholding(plan: str, waits: bool):
    """A drug given only once a result still to come is back is the harmful "withhold it until the result" item,
    and no immediate dose; given now as well, or after a value that is no result, it is not."""
    c = card("onc-neutropenic-sepsis-001", plan)
    assert (HELD in rows(c, "treatment")) is waits, plan
    assert (NOW in rows(c, "treatment")) is not waits, plan
    assert (condition(c, "cc-no-wait-and-see") == "FAIL") is waits, plan


def test_the_test_awaited_is_still_requested():
    """"Once the FBC result confirms it" asks for the FBC it waits on."""
    c = card("onc-neutropenic-sepsis-001", "Plan: piperacillin-tazobactam 4.5 g IV once the FBC result confirms it.")
    assert "Full blood count with neutrophil count on arrival" in rows(c, "workup")


@pytest.mark.parametrize("text, waits", [
    ("- start aciclovir once the CSF is back", True),
    ("- Once the gas has come back, give bicarbonate", True),
    ("- hold the insulin until potassium is back above 3.5", False),
    ("- clinic review once she is back from holiday", False),
])
def test_a_named_result_back_is_a_wait_where_its_piece_ends(text: str, waits: bool):
    """A lead, a few words and "is back" end a wait for that result; words that go on make it a value, and a person
    is no result."""
    doc = Document(text)
    assert any(c.waits for c in assertion.conditions(doc)) is waits, text


@pytest.mark.parametrize("plan, more", [
    ("Plan: sodium chloride 0.9% 1 litre over an hour, then 1 litre over 6 hours.", True),
    ("Plan: hydrocortisone 100 mg IV. Ongoing IV saline at 125 mL/h, adjusted to her sodium.", True),
    ("Plan: sodium chloride 0.9% 1 litre over an hour. Encourage plenty of fluids once eating.", False),
    ("Plan: sodium chloride 0.9% 1 litre over an hour. Further oral fluids as tolerated.", False),
    ("Plan: sodium chloride 0.9% 1 litre over an hour, then 2 units of blood.", False),
])
def test_more_of_a_treatment_begun(plan: str, more: bool):
    """A continuing word before the treatment, or a next dose in the same unit after "then", is the item of more
    of it; oral fluids, a drink, or another thing after "then" are not."""
    case = load_valid_case(ADRENAL)
    c = score(case, Transcript(case_id=case.id, final=FinalResponse(text=plan)))
    assert (MORE_FLUID in rows(c, "treatment")) is more, plan


HYPONATRAEMIA = DATA / "newcases-f" / "cases" / "ncf-hyponatraemia-001.yaml"
LITHIUM = DATA / "newcases-c" / "cases" / "ncc-lithium-001.yaml"


@pytest.mark.parametrize("path, plan, item, serial", [
    (HYPONATRAEMIA, "Plan: hypertonic saline bolus. Sodium 4-hourly overnight.", "Serial serum sodium", True),
    (HYPONATRAEMIA, "Plan: hypertonic saline bolus. Hourly Na for the first six hours.", "Serial serum sodium", True),
    (HYPONATRAEMIA, "Plan: hypertonic saline bolus. Na 121 on arrival.", "Serial serum sodium", False),
    (LITHIUM, "Plan: IV saline; urine output 2-hourly.", "Fluid balance and urine output monitoring", True),
    (LITHIUM, "Plan: IV saline; urine output 30 mL on arrival.", "Fluid balance and urine output monitoring", False),
])
def test_a_measure_with_a_repeating_frequency_is_its_serial_monitoring(path: Path, plan: str, item: str,
                                                                        serial: bool):
    """A measured thing with a frequency after it (digits between) or before it is its serial measurement or
    monitoring; a single value is not."""
    case = load_valid_case(path)
    c = score(case, Transcript(case_id=case.id, final=FinalResponse(text=plan)))
    found = {**rows(c, "workup"), **rows(c, "treatment")}
    assert (item in found) is serial, plan


NEUTROPENIA = DATA / "newcases-g" / "cases" / "ncg-neutropenic-sepsis-001.yaml"


@pytest.mark.parametrize("plan, today", [
    ("Plan:\nAt clinic tomorrow:\n- IV pip-taz\n- admit under oncology\n", False),
    ("## Next week\n- bloods\n  then admit under oncology\n", False),
    ("Plan:\nNow:\n- IV pip-taz\n- admit under oncology\n", True),
    ("Plan:\n- IV pip-taz\n- admit under oncology\n", True),
])
def test_a_later_time_over_a_list_times_its_entries(plan: str, today: bool):
    """A lead-in line or heading with a later time ("At clinic tomorrow:") times each entry of the list under it,
    an admission's own same-day reading included; a list without one keeps its entries' own timing."""
    case = load_valid_case(NEUTROPENIA)
    c = score(case, Transcript(case_id=case.id, final=FinalResponse(text=plan)))
    assert ("Admission under oncology (side room)" in rows(c, "treatment")) is today, plan

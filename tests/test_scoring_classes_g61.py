"""Grader classes of set W (g61, product issue 32): a history heading written as a phrase, and a bedside glucose
written by its UK label ('BMs'), each tested on wording of its own on other topics."""

from __future__ import annotations

import pytest

from medbench_tui.core.text import tokenize
from tests.test_scoring_regressions import card, condition, rows

GI_BLEED = "em-upper-gi-bleed-001"
HYPERK = "im-hyperkalaemia-001"
HYPERK_GLUCOSE = "Capillary blood glucose monitoring after insulin"

BLEED_HISTORY = """## {heading}
- 58-year-old with two episodes of coffee-ground vomiting and melaena since last night.
- Her GP told her to continue naproxen 500 mg twice daily for knee osteoarthritis; no PPI.

## Assessment
Upper GI bleed, probably a peptic ulcer from the NSAID.

## Management
1. Stop naproxen.
2. Two large-bore cannulae, FBC, G&S, crossmatch; endoscopy within 24 hours.
"""


def norms(text: str) -> list[str]:
    return [t.norm for t in tokenize(text)]


@pytest.mark.parametrize("heading", ["Summary of the history", "History summary", "Summary of presentation",
                                     "History and examination"])
def test_a_drug_under_a_history_heading_written_as_a_phrase_is_the_patients(heading: str):
    """'## Summary of the history' opens the patient's history as 'History' does: the drug the GP told her to
    continue there is what she took, not a plan to continue it, so the harmful continuation is not given."""
    c = card(GI_BLEED, BLEED_HISTORY.format(heading=heading))
    assert "Continue naproxen" not in rows(c, "treatment")
    assert condition(c, "cc-implicit-contraindicated") == "OK"
    assert condition(c, "cc-stop-nsaid") == "OK"


def test_a_closing_summary_is_no_history_and_a_plan_to_continue_still_fails():
    """A bare 'Summary' may restate the plan (left as it was), and continuing the drug in the plan fails."""
    c = card(GI_BLEED, BLEED_HISTORY.format(heading="Summary"))
    assert condition(c, "cc-implicit-contraindicated") == "FAIL"
    plan = card(GI_BLEED, "## Summary of the history\n- Melaena since last night.\n\n## Management\n"
                          "1. Continue naproxen 500 mg twice daily for the knee.\n2. Endoscopy within 24 hours.")
    assert "Continue naproxen" in rows(plan, "treatment")
    assert condition(plan, "cc-implicit-contraindicated") == "FAIL"


@pytest.mark.parametrize("written", ["BM", "BMs"])
def test_bm_in_capitals_is_a_bedside_blood_glucose(written: str):
    assert norms(written) == norms("blood glucose")


@pytest.mark.parametrize(("written", "means"), [("BM biopsy", "bone marrow biopsy"),
                                                ("BM aspirate", "bone marrow aspirate"),
                                                ("BM trephine", "bone marrow trephine")])
def test_bm_beside_a_marrow_procedure_is_the_bone_marrow(written: str, means: str):
    assert norms(written) == norms(means)


@pytest.mark.parametrize("plan", ["BMs 2-hourly for 6 h", "1-hrly BMs after the insulin", "BMs hourly x 6"])
def test_bms_with_a_frequency_are_glucose_monitoring(plan: str):
    c = card(HYPERK, f"Imp: hyperkalaemia with AKI.\nPlan:\n- Calcium gluconate 10%\n- Insulin-dextrose\n- {plan}")
    assert HYPERK_GLUCOSE in rows(c, "workup")


def test_a_glucose_monitoring_item_is_not_met_without_it_nor_by_lower_case_bm():
    """Without a bedside glucose the item stays missing; 'bm' in lower case is not read as one."""
    none = card(HYPERK, "Imp: hyperkalaemia with AKI.\nPlan:\n- Calcium gluconate 10%\n- Insulin-dextrose\n- ECG")
    assert HYPERK_GLUCOSE not in rows(none, "workup")
    assert norms("bm") != norms("blood glucose")

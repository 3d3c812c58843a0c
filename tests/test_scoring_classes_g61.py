"""Grader classes of set W (g61, product issue 32): a history heading written as a phrase, a bedside glucose
written by its UK label ('BMs'), and a qualifier written in a bracket after its noun, each tested on wording of its
own on other topics."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from medbench_tui.core.cases.model import Case
from medbench_tui.core.scoring import score
from medbench_tui.core.text import tokenize
from medbench_tui.core.transcript import FinalResponse, Transcript
from medbench_tui.core.validate import load_valid_case
from tests.test_scoring_regressions import CASES, card, condition, rows

GI_BLEED = "em-upper-gi-bleed-001"
HYPERK = "im-hyperkalaemia-001"
HYPERK_GLUCOSE = "Capillary blood glucose monitoring after insulin"
MALARIA = "im-malaria-001"
MALARIA_MONITORING = "Monitor glucose, fluid balance, renal function and daily parasitaemia"

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


def test_bms_with_a_frequency_meet_a_monitoring_item_without_a_bm_alias():
    c = card(MALARIA, "Imp: severe falciparum malaria.\nPlan:\n- IV artesunate\n- BMs 4-hourly")
    assert MALARIA_MONITORING in rows(c, "treatment")
    none = card(MALARIA, "Imp: severe falciparum malaria.\nPlan:\n- IV artesunate\n- FBC, U&E")
    assert MALARIA_MONITORING not in rows(none, "treatment")


def test_a_glucose_monitoring_item_is_not_met_without_it_nor_by_lower_case_bm():
    """Without a bedside glucose the item stays missing; 'bm' in lower case is not read as one."""
    none = card(HYPERK, "Imp: hyperkalaemia with AKI.\nPlan:\n- Calcium gluconate 10%\n- Insulin-dextrose\n- ECG")
    assert HYPERK_GLUCOSE not in rows(none, "workup")
    assert norms("bm") != norms("blood glucose")



def _hf_with_biopsies(tmp_path: Path) -> Case:
    """The heart-failure case with two biopsies of one organ told apart by their first word: a harmful
    percutaneous one and a wanted transvenous one (an other topic's made-up items, for the bracket rule)."""
    text = (CASES / "im-heart-failure-001.yaml").read_text(encoding="utf-8")
    path = tmp_path / "im-heart-failure-001.yaml"
    shutil.copytree(CASES / "attachments" / "im-heart-failure-001", tmp_path / "attachments" / "im-heart-failure-001")
    path.write_text(text.replace("\nworkup:\n", "\nworkup:\n"
                                 "  - item: Percutaneous myocardial biopsy\n    class: unexpected\n    penalty: 2\n"
                                 "  - item: Transvenous myocardial biopsy\n    class: acceptable\n", 1),
                    encoding="utf-8")
    return load_valid_case(path)


def _workup(case: Case, text: str) -> dict[str, str]:
    return rows(score(case, Transcript(case_id=case.id, final=FinalResponse(text=text))), "workup")


@pytest.mark.parametrize(("plan", "given", "not_given"), [
    ("Myocardial biopsy (percutaneous, image-guided) tomorrow", "Percutaneous myocardial biopsy",
     "Transvenous myocardial biopsy"),
    ("Myocardial biopsy (transvenous) this week", "Transvenous myocardial biopsy",
     "Percutaneous myocardial biopsy"),
])
def test_a_qualifier_in_a_bracket_after_its_noun_qualifies_it(tmp_path: Path, plan: str, given: str, not_given: str):
    """'Myocardial biopsy (percutaneous, image-guided)' is a percutaneous myocardial biopsy: the bracket's first
    word, alone up to a comma or the bracket's end, qualifies the words right before the bracket."""
    got = _workup(_hf_with_biopsies(tmp_path), f"Imp: decompensated heart failure.\nPlan:\n- Echo\n- {plan}")
    assert given in got
    assert not_given not in got


@pytest.mark.parametrize("plan", ["Myocardial biopsy (not percutaneous) tomorrow",
                                  "Myocardial biopsy tomorrow (percutaneous route considered unsafe)",
                                  "Myocardial biopsy, avoid percutaneous"])
def test_a_bracket_of_more_words_or_not_after_the_noun_is_no_qualifier(tmp_path: Path, plan: str):
    got = _workup(_hf_with_biopsies(tmp_path), f"Imp: decompensated heart failure.\nPlan:\n- Echo\n- {plan}")
    assert "Percutaneous myocardial biopsy" not in got

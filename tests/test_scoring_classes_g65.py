"""Failure classes (issue 32): plans written as new authors write them. Wording of its own, on other
topics than the tuning set's cases (an encephalitis, an intra-abdominal sepsis, a preterm baby's care), with
negative tests: an action held back or put off until a result is not given now, an oral drug is no IV item, a
children's ward is no neonatal unit."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.support.case_yaml import case_with
from tests.test_scoring_regressions import rows


def _given(tmp_path: Path, case: str, item: dict, text: str) -> bool:
    built = case_with(tmp_path, Path(f"cases/{case}.yaml"), "treatment", item)
    card = score(built, Transcript(case_id=built.id, final=FinalResponse(text=text)))
    return item["item"] in rows(card, "treatment")


# --- 1. "X until the result is back" runs X now, for as long as the wait -----------------------------------------

ANTIVIRAL = {"item": "Empirical intravenous aciclovir", "class": "acceptable",
             "aliases": ["IV aciclovir", "aciclovir 10 mg/kg IV"]}


@pytest.mark.parametrize(("text", "given"), [
    ("Plan:\n- IV aciclovir until the HSV PCR result is back.", True),
    ("Plan:\n1. IV aciclovir after the LP, until the result is back.", True),
    ("Plan:\n- Hold IV aciclovir until the HSV PCR result is back.", False),
    ("Plan:\n- Defer IV aciclovir until the HSV PCR result is back.", False),
    ("Plan:\n- No IV aciclovir until the HSV PCR result is back.", False),
    ("Plan:\n- IV aciclovir only once the HSV PCR result is back.", False),
])
def test_an_action_until_a_result_is_back_is_given_now(tmp_path: Path, text: str, given: bool):
    """"Until" after the action in its piece says how long it runs: the action is given now. A piece that holds
    the action back or puts it off ("hold", "defer", a negation), or a wait "once" the result is back, gives
    nothing now."""
    assert _given(tmp_path, "im-falls-001", ANTIVIRAL, text) is given, text


# --- 2. a combination of drugs written with each drug's short name ------------------------------------------------

COMBINATION = {"item": "Intravenous amoxicillin, gentamicin and metronidazole", "class": "acceptable",
               "aliases": ["amoxicillin gentamicin and metronidazole"]}


@pytest.mark.parametrize(("text", "given"), [
    ("Plan:\n- IV amox + gent + metro stat", True),
    ("Plan:\n- IV amoxicillin, gent and metro stat", True),
    ("Plan:\n- IV amox + gentamicin + metronidazole stat", True),
    ("Plan:\n- PO amox + metro", False),
    ("Plan:\n- PO co-amoxiclav", False),
])
def test_a_combination_is_named_by_its_drugs_short_names(tmp_path: Path, text: str, given: bool):
    """An alias that names two drugs is met with both written short at once, as with one of them."""
    assert _given(tmp_path, "im-falls-001", COMBINATION, text) is given, text


# --- 3. NNU is the neonatal unit -----------------------------------------------------------------------------------

NEONATAL = {"item": "Admission to the neonatal unit", "class": "acceptable",
            "aliases": ["neonatal unit", "admit to the neonatal unit"]}


@pytest.mark.parametrize(("text", "given"), [
    ("Plan:\n- admit to NNU for observation and feeds", True),
    ("Plan:\n- NNU overnight", True),
    ("Plan:\n- admit to the children's ward for observation", False),
])
def test_the_neonatal_unit_by_its_short_name(tmp_path: Path, text: str, given: bool):
    """"NNU" is the neonatal unit; the children's ward is not."""
    assert _given(tmp_path, "onc-neutropenic-sepsis-001", NEONATAL, text) is given, text


# --- 4. an examination whose bracket lists its parts is met by most of them examined -------------------------------

def _examined(tmp_path: Path, case: str, item: dict, text: str) -> bool:
    built = case_with(tmp_path, Path(f"cases/{case}.yaml"), "workup", item)
    card = score(built, Transcript(case_id=built.id, final=FinalResponse(text=text)))
    return rows(card, "workup").get(item["item"]) in ("matched", "acceptable")


NODES = {"item": "Examination of the lymph node areas (neck, axillae, groins)", "class": "required", "weight": 1,
         "aliases": ["lymph node examination", "examine the lymph nodes"]}


@pytest.mark.parametrize(("text", "done"), [
    ("Tired for 3 months, night sweats. I checked her neck and axillae - no nodes felt.\nPlan:\n- FBC, LDH", True),
    ("Tired, night sweats. Neck, axillae and groins examined: small shotty nodes only.\nPlan:\n- FBC", True),
    ("Tired, night sweats.\nPlan:\n- FBC\n- inspect the axillae and groins today", True),
    ("Tired, night sweats. Neck looks fine.\nPlan:\n- FBC", False),
    ("Tired, night sweats. Temp 38.\nPlan:\n- FBC", False),
    ("Tired, night sweats. Did not examine the neck or axillae today.\nPlan:\n- FBC", False),
    ("Tired, night sweats. Stiff neck and sore axillae, she says.\nPlan:\n- FBC", False),
])
def test_an_examination_is_met_by_most_of_the_parts_its_bracket_lists(tmp_path: Path, text: str, done: bool):
    """A clause with a word of examining that names most of the bracket's parts ("checked her neck and axillae") is
    the examination done; one part ("neck looks fine"), a single observation, a negated examination, or the parts
    named with no examining are not."""
    assert _examined(tmp_path, "im-tiredness-001", NODES, text) is done, text

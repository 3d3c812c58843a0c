"""Failure classes (issue 32): treatments under a heading that says they are avoided read as given;
clotting factor concentrates, their short forms and brands, and the haemophilia centre unknown to the reader; a
factor's level read as the factor given. Each test is in wording of its own, on other topics than the tuning set's
cases (cellulitis, a head injury in haemophilia B), with negative tests: a drug in the plan and in the avoid list is
still given; plasma is no factor concentrate; a factor given tomorrow, or the centre told next week, misses a same-day
item; a factor given is no level measured."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring.sections import heading_kind
from tests.support.item_decision import item_decision as _decision

CELLULITIS = Path("cases/im-cellulitis-001.yaml")
HEAD = Path("cases/em-head-injury-001.yaml")

# --- 1. a heading that ends with 'avoid' ('What I would avoid, and why') lists what is not given ------------------

PRED = {"item": "Prednisolone", "class": "contraindicated"}
IBU = {"item": "Ibuprofen", "class": "contraindicated"}
FLUCLOX = "Plan:\n- flucloxacillin 1 g qds orally\n\n"


@pytest.mark.parametrize(("text", "decision"), [
    (FLUCLOX + "### What I would avoid, and why\n- **Prednisolone** - no role here.\n- **Ibuprofen** - her eGFR is "
     "35.\n", "not_found"),
    (FLUCLOX + "**Things I would avoid**\n- Prednisolone - diabetes.\n- Ibuprofen - CKD.\n", "not_found"),
    # negatives: given in the plan (and also listed as avoided: said both ways, as before); a heading that only
    # begins with 'avoid' ('Avoid dehydration') is no avoid heading
    ("Plan:\n- prednisolone 30 mg od for 5 days\n- ibuprofen 400 mg tds\n\n### What I would avoid, and why\n"
     "- ibuprofen - CKD\n", "found"),
    ("Plan:\n- ibuprofen 400 mg tds\n", "found"),
    ("**Avoid dehydration**\n- ibuprofen 400 mg tds\n- oral fluids\n", "found"),
])
def test_avoid_heading_by_its_last_word(tmp_path: Path, text: str, decision: str) -> None:
    assert _decision(tmp_path, CELLULITIS, "treatment", IBU, text) == decision


def test_avoid_heading_prednisolone(tmp_path: Path) -> None:
    text = FLUCLOX + "### What I would avoid, and why\n- **Prednisolone** - no role here.\n"
    assert _decision(tmp_path, CELLULITIS, "treatment", PRED, text) == "not_found"
    assert _decision(tmp_path, CELLULITIS, "treatment", PRED, "Plan:\n- prednisolone 30 mg od\n") == "found"


@pytest.mark.parametrize(("heading", "kind"), [
    ("What I would avoid, and why", "avoid"),
    ("Things I'd avoid", "avoid"),
    ("Drugs to avoid and why", "avoid"),
    # negatives: 'avoid' as the first word of an instruction, and a plan heading with its reasons
    ("Avoid dehydration", None),
    ("Management and why", "treatment"),
])
def test_heading_kind_avoid_tail(heading: str, kind: str | None) -> None:
    assert heading_kind(heading, tail_words=5) == kind


# --- 2. clotting factor concentrates, their short forms and brands; the haemophilia centre ------------------------

FIX_NOW = {"item": "Immediate intravenous factor IX concentrate", "class": "required", "within": "within 1 hour",
           "route": "intravenous"}


@pytest.mark.parametrize(("text", "decision"), [
    ("Plan:\n- BeneFIX 100 IU/kg IV stat\n- CT head", "found"),
    ("Plan:\n- rFIX 100 IU/kg IV now, before the CT", "found"),
    ("Plan:\n- Alprolix 100 IU/kg IV immediately", "found"),
    # negatives: plasma is no factor concentrate; a factor given tomorrow is not within the hour
    ("Plan:\n- FFP 15 ml/kg IV now\n- CT head", "not_found"),
    ("Plan:\n- CT head\n- give factor IX IV tomorrow", "not_found"),
])
def test_factor_concentrate_by_short_form_and_brand(tmp_path: Path, text: str, decision: str) -> None:
    assert _decision(tmp_path, HEAD, "treatment", FIX_NOW, text) == decision


CENTRE = {"item": "Same-day discussion with haematology", "class": "required", "within": "same day",
          "target": "haematology"}


@pytest.mark.parametrize(("text", "decision"), [
    ("Plan:\n- Phone the haemophilia centre today", "found"),
    ("Plan:\n- d/w HTC now", "found"),
    ("Plan:\n- Ring the bleeding disorders team", "found"),
    # negative: told next week is no same-day discussion
    ("Plan:\n- Let the haemophilia centre know next week", "not_found"),
])
def test_haemophilia_centre_is_haematology(tmp_path: Path, text: str, decision: str) -> None:
    assert _decision(tmp_path, HEAD, "treatment", CENTRE, text) == decision


LEVEL = {"item": "Factor IX level", "class": "required"}


@pytest.mark.parametrize(("text", "decision"), [
    ("Plan:\n- factor IX level 30 minutes after the dose", "found"),
    # negative: the factor given is no level measured
    ("Plan:\n- rFIX 100 IU/kg IV now", "not_found"),
    ("Plan:\n- factor IX 100 IU/kg IV now", "not_found"),
])
def test_factor_level_is_a_test_not_the_factor(tmp_path: Path, text: str, decision: str) -> None:
    assert _decision(tmp_path, HEAD, "workup", LEVEL, text) == decision

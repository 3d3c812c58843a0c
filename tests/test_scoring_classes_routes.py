"""Routes of specialist care and the words that say how a drug is chosen (issue 32): an item given by an
intraperitoneal, intravitreal or intra-articular route is met by a drug of its class by that route ("IP vancomycin
30 mg/kg" for "Empirical intraperitoneal antibiotics") and never by the same drug by another route; "empirical" or
"broad-spectrum" beside a route is no other subject of the item, while "Empirical antibiotics" with no route stays
a loose item that a specific antimicrobial does not meet. Wording and topics of our own."""

from __future__ import annotations

import pytest

from medbench_tui.core.cases.model import TreatmentItem
from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from medbench_tui.core.vocabulary.load import read_vocabulary
from tests.test_scoring_regressions import case, rows


def _status(name: str, text: str) -> str | None:
    c = case("em-sah-001")
    item = TreatmentItem.model_validate({"item": name, "class": "required"})
    c = c.model_copy(update={"treatment": [*c.treatment, item]})
    return rows(score(c, Transcript(case_id=c.id, final=FinalResponse(text=text))), "treatment").get(name)


@pytest.mark.parametrize("route", ["intraperitoneal", "intrathecal", "intravitreal", "intra-articular", "epidural",
                                   "vaginal", "otic"])
def test_the_routes_of_specialist_care_are_vocabulary(route: str):
    assert read_vocabulary().lookup(route)


@pytest.mark.parametrize(("name", "text", "met"), [
    ("Empirical intraperitoneal antibiotics", "Plan:\n- IP vancomycin 30 mg/kg once\n- IP ceftazidime 1 g od", True),
    ("Intraperitoneal antibiotics covering Gram-positive and Gram-negative organisms",
     "Plan:\n- IP vancomycin 30 mg/kg once", True),
    ("Empirical intravenous antibiotics", "Plan:\n- IV vancomycin", True),
    ("Intravitreal antibiotics", "Plan:\n- intravitreal vancomycin", True),
    # the same drug by another route is not the item
    ("Empirical intraperitoneal antibiotics", "Plan:\n- IV vancomycin", False),
    ("Empirical intravenous antibiotics", "Plan:\n- IP vancomycin 30 mg/kg once", False),
    ("Intravitreal antibiotics", "Plan:\n- IP vancomycin 30 mg/kg once", False),
])
def test_a_drug_of_the_class_by_the_items_route_meets_it(name: str, text: str, met: bool):
    assert (_status(name, text) == "matched") is met


def test_empirical_antibiotics_without_a_route_stay_a_loose_item():
    # co-trimoxazole for pneumocystis is not the empirical antibiotic cover the item is about
    assert _status("Empirical antibiotics", "Plan:\n- Co-trimoxazole 120 mg/kg/day in divided doses") != "matched"

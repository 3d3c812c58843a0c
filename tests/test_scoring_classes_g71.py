"""Failure classes (issue 32): an item that adjusts one drug's dose ("Insulin adjustment for
hyperglycaemia") read as not met by an answer that titrates, raises or lowers that drug or a member of its class
("Titrate insulin to CBG", "increase glargine doses"). Tests in wording of their own, on other topics than the tuning
set's cases (anticoagulation, thyroid, heart failure), with negative tests: the drug kept unchanged, stopped, or
another drug adjusted, still leaves the item unmet."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.item_decision import item_decision as _decision

CELLULITIS = Path("cases/im-cellulitis-001.yaml")

# --- 1. a drug "adjustment" item: met by adjusting, titrating, raising or lowering that drug or one of its class -----

WARFARIN = {"item": "Warfarin dose adjustment for a raised INR", "class": "acceptable"}
LEVOTHYROXINE = {"item": "Titrate levothyroxine", "class": "acceptable"}
BETA_BLOCKER = {"item": "Beta-blocker adjustment for rate control", "class": "acceptable"}


@pytest.mark.parametrize(("item", "text", "decision"), [
    (WARFARIN, "Plan:\n- Omit tonight's dose then reduce warfarin by 1 mg daily\n- INR in 3 days\n", "found"),
    (WARFARIN, "Plan:\n- warfarin dose lowered, recheck INR Friday\n", "found"),
    (LEVOTHYROXINE, "Plan:\n- Uptitrate levothyroxine to TSH every 6 weeks\n", "found"),
    (LEVOTHYROXINE, "Plan:\n- levothyroxine: titrate against TSH\n", "found"),
    (BETA_BLOCKER, "Plan:\n- increase bisoprolol for rate control\n- echo\n", "found"),
    # negatives: the drug continued unchanged, stopped, or another drug adjusted
    (WARFARIN, "Plan:\n- Continue warfarin unchanged\n- INR in a week\n", "not_found"),
    (LEVOTHYROXINE, "Plan:\n- Stop levothyroxine\n- TFTs in 6 weeks\n", "not_found"),
    (BETA_BLOCKER, "Plan:\n- titrate furosemide to weight\n- continue bisoprolol\n", "not_found"),
])
def test_drug_adjustment_item(tmp_path: Path, item: dict, text: str, decision: str) -> None:
    assert _decision(tmp_path, CELLULITIS, "treatment", item, text) == decision


# --- 2. a dialysis effluent named once, then the tests done on it: each test is the effluent's ------------------------

EFFLUENT_CULTURE = {"item": "Dialysate culture", "class": "required"}
EFFLUENT_COUNT = {"item": "Effluent white cell count", "class": "required"}


@pytest.mark.parametrize(("item", "text", "decision"), [
    (EFFLUENT_CULTURE, "Investigations:\n- Drained dialysate bag: white cell count, microscopy, culture\n", "found"),
    (EFFLUENT_COUNT, "Plan:\n| Sample | Tests |\n|---|---|\n| Effluent | white cell count, Gram film, culture |\n",
     "found"),
    # negatives: the culture is of blood or urine, the nearer specimen word, or on another line than the effluent
    (EFFLUENT_CULTURE, "Investigations:\n- Dialysate white cell count; blood cultures x2\n", "not_found"),
    (EFFLUENT_CULTURE, "Plan:\n- Effluent white cell count\n- urine culture\n", "not_found"),
])
def test_effluent_tests_listed_after_it(tmp_path: Path, item: dict, text: str, decision: str) -> None:
    assert _decision(tmp_path, CELLULITIS, "workup", item, text) == decision

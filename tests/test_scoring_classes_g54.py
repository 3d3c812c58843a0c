"""Failure classes (issue 32): a treatment declined in a thorough answer and named again in the reason
it is declined ("**Sodium valproate: not offered.** ... valproate carries a 10% risk") is not given, and a history
heading written as a recap ("History recap") describes the patient. Wording of our own on other topics (warfarin
after a stroke, NSAIDs in gout with kidney disease, a recap of a past procedure), with negative tests: a separate
later plan of the same drug, a dose given after an Avoid, and a plan under the same bullet are still given."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.cases.model import Case
from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.support.case_yaml import case_with
from tests.test_scoring_regressions import rows

NSTEMI = Path("cases/em-nstemi-001.yaml")

WARFARIN = {"item": "Warfarin", "class": "contraindicated"}
NSAID = {"item": "Ibuprofen", "class": "contraindicated", "aliases": ["NSAIDs"]}
CARDIOVERSION = {"item": "DC cardioversion", "class": "contraindicated"}


def _given(tmp_path: Path, item: dict, text: str) -> bool:
    case: Case = case_with(tmp_path, NSTEMI, "treatment", item)
    card = score(case, Transcript(case_id=case.id, final=FinalResponse(text=text)))
    return item["item"] in rows(card, "treatment")


PLAN = "## Diagnosis\nNSTEMI\n\n## Treatment\n- Aspirin 300 mg now\n"


@pytest.mark.parametrize(("item", "text", "given"), [
    # a declined item named again in its reason, in the same bullet, sentence or table row
    (WARFARIN, PLAN + "- **Warfarin: not started.** He falls often;\n  warfarin carries a high bleeding risk here.\n",
     False),
    (WARFARIN, PLAN + "- Not starting warfarin now - warfarin would need bridging and INR checks he cannot attend.\n",
     False),
    (NSAID, PLAN + "- I would avoid NSAIDs because NSAIDs worsen his kidney function (eGFR 28).\n", False),
    (NSAID, "## Diagnosis\nNSTEMI\n\n## Treatment\n| Drug | Decision |\n|---|---|\n| Aspirin | 300 mg now |\n"
            "| No NSAIDs | NSAIDs raise the risk of reinfarction |\n", False),
    # negatives: a separate later plan of the same drug, in the same bullet or later, is given
    (WARFARIN, PLAN + "- Not starting warfarin now - warfarin would need bridging; start warfarin at day 3 once "
                      "stable.\n", True),
    (NSAID, PLAN + "- Avoid NSAIDs while the creatinine is rising.\n- Pain: ibuprofen 400 mg tds with food.\n",
     True),
    (NSAID, PLAN + "- Avoid NSAIDs today; from tomorrow ibuprofen 400 mg tds.\n", True),
    (WARFARIN, PLAN + "- Warfarin 5 mg tonight, INR on day 3.\n", True),
])
def test_declined_item_named_again_in_its_reason(tmp_path: Path, item: dict, text: str, given: bool) -> None:
    assert _given(tmp_path, item, text) is given


@pytest.mark.parametrize(("heading", "given"), [
    ("### History recap", False),
    ("**Clinical recap:**", False),
    # negative: a plan heading is still a plan
    ("### Plan", True),
])
def test_recap_heading_describes_the_patient(tmp_path: Path, heading: str, given: bool) -> None:
    text = (f"{heading}\nPalpitations since Monday; had DC cardioversion for AF in 2019.\n\n"
            "## Diagnosis\nNSTEMI\n\n## Treatment\n- Aspirin 300 mg now\n")
    assert _given(tmp_path, CARDIOVERSION, text) is given

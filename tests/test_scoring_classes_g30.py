"""Failure classes of set N's remaining disagreements (g30, issue 32): safety verdicts on flawed answers (a referral
deferred until a list of results, a harmful drug item with its own purpose, a stop that names the drug), and
over-reading (a bicarbonate on a chemistry line, a switch item met by the drug alone). Each test is in wording of its
own, on other topics than the set's cases, with wrong plans that must still fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from medbench_tui.core.validate import load_valid_case
from tests.support.case_yaml import with_item
from tests.test_scoring_regressions import rows

HEART_FAILURE = Path("cases/im-heart-failure-001.yaml")
T2DM = Path("cases/im-t2dm-001.yaml")
COPD = Path("cases/im-copd-exacerbation-001.yaml")


def _first_treatment(source: Path) -> str:
    """The name of the case's first treatment item (where a test puts one more)."""
    return next(line.split("item: ", 1)[1] for line in source.read_text().split("\ntreatment:", 1)[1].splitlines()
                if "- item: " in line)


def _rows(tmp_path: Path, source: Path, before: str | None, item: str | None, text: str, kind: str
          ) -> dict[str, str]:
    path = source
    if before is not None and item is not None:
        path = with_item(tmp_path, source, before, item)
    case = load_valid_case(path)
    return rows(score(case, Transcript(case_id=case.id, final=FinalResponse(text=text))), kind)


# --- 1. a wait for a list of results -----------------------------------------------------------------------

REFERRAL = ("  - item: Same-day cardiology referral\n    class: required\n    within: same day\n"
            "    target: cardiology\n    aliases: [cardiology today, cardiology team]\n")


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- Refer to the cardiology team today.", True),
    ("Plan:\n- Refer to the cardiology team once the echo and BNP results are back.", False),
    ("Plan:\n- Refer to the cardiology team when the TFT, troponin and BNP results are back.", False),
    ("Plan:\n- Refer to the cardiology team once the echo result is back.", False),
])
def test_a_referral_waiting_for_a_list_of_results_is_not_done_now(tmp_path: Path, plan: str, given: bool):
    """"once the X and Y results are back" waits as "once the X result" does: the links of a list count no word."""
    found = _rows(tmp_path, COPD, _first_treatment(COPD), REFERRAL, plan, "treatment")
    assert (found.get("Same-day cardiology referral") in ("matched", "acceptable")) is given, (plan, found)


# --- 2. a harmful drug item with its own purpose; a stop gives no drug ------------------------------------

NSAID = ("  - item: Naproxen or other NSAID for knee pain\n    class: contraindicated\n    weight: 1\n"
         "    aliases: [naproxen for pain, regular naproxen]\n")


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- Naproxen 500 mg twice daily and paracetamol for the knee.", True),
    ("Plan:\n- Naproxen 250 mg bd.", True),
    ("Plan:\n- Stop the naproxen (Naprosyn) and avoid NSAIDs.", False),
    ("Plan:\n- No naproxen; paracetamol for the knee.", False),
    ("Plan:\n- Paracetamol 1 g qds for the knee.", False),
])
def test_a_harmful_drug_item_with_a_purpose_is_its_drug_given(tmp_path: Path, plan: str, given: bool):
    """A drug item's own purpose ("for knee pain") does not keep it from being about its drug: the drug given in any
    words is the harm; a stop or a negation of it is not."""
    found = _rows(tmp_path, COPD, _first_treatment(COPD), NSAID, plan, "treatment")
    assert ("Naproxen or other NSAID for knee pain" in found) is given, (plan, found)


# --- 3. over-reading -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("plan", "given"), [
    ("Bloods: Na 131, K 5.8, creatinine 210, bicarb 15.", False),
    ("Bloods: Na 131, K 5.8, creatinine 210, HCO3 19.", False),
    ("VBG: pH 7.31, HCO3 19.", True),
    ("pH 7.28, bicarb 15, lactate 2.1.", True),
])
def test_a_bicarbonate_alone_on_a_chemistry_line_is_no_blood_gas(plan: str, given: bool):
    """A bicarbonate is measured on a chemistry profile as on a gas: alone it reports no gas; beside a gas's own
    analyte it does."""
    case = load_valid_case(HEART_FAILURE)
    found = rows(score(case, Transcript(case_id=case.id, final=FinalResponse(text=plan))), "workup")
    assert ("Arterial or venous blood gas" in found) is given, (plan, found)


SWITCH = ("  - item: Switch the combined oral contraceptive pill to a progestogen-only pill\n    class: acceptable\n"
          "    aliases: [stop the combined pill]\n")


@pytest.mark.parametrize(("plan", "given"), [
    ("34F, on combined oral contraceptive pill, BMI 36.", False),
    ("Known migraine with aura; on the combined oral contraceptive pill.", False),
    ("Plan:\n- Stop the combined pill; progestogen-only pill instead.", True),
])
def test_a_switch_item_is_not_met_by_its_drug_alone(tmp_path: Path, plan: str, given: bool):
    """The word an item's action turns on (a switch, a stop) is never the one word left out of "all but one word":
    the drug named in the history is no switch of it."""
    found = _rows(tmp_path, T2DM, _first_treatment(T2DM), SWITCH, plan, "treatment")
    assert ("Switch the combined oral contraceptive pill to a progestogen-only pill" in found) is given, (plan, found)

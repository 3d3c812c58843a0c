"""Failure classes of set P's safety verdicts (g32, issue 32): a negation of an objection is no withholding ("not a
CI to VTE prophylaxis"), a plan heading timed by its last word ("Management today") keeps the history above it
history, a labelled list item's wrapped line is the label's still ("8. Not indicated: ... (only if" / "   ..., and
X"), a time of two words in an item's alias stays together ("next week" is not "this week's ... next Monday"), a
safety net that names a safety-netting item is no same-day attendance, a team's surgeons written short
("colorectal surg"), and an item whose bracket gives its one drug with its dose ("Second-line IV ... now
(aminophylline 5 mg/kg up to 500 mg)"). Each test is in wording of its own, on other topics than the set's cases,
with wrong plans that must still fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.support.case_yaml import valid_case_with_item
from tests.test_scoring_regressions import rows

COPD = Path("cases/im-copd-exacerbation-001.yaml")
FIRST = "Emergency same-day hospital admission by ambulance"


def _rows(tmp_path: Path, item: str, text: str, kind: str = "treatment") -> dict[str, str]:
    case = valid_case_with_item(tmp_path, COPD, FIRST, item)
    return rows(score(case, Transcript(case_id=case.id, final=FinalResponse(text=text))), kind)


# --- 1. a denied objection withholds nothing ---------------------------------------------------------------------

WITHHOLD = ("  - item: Withhold anticoagulation because of epistaxis\n    class: contraindicated\n    weight: 2\n"
            "    aliases: [hold apixaban, withhold anticoagulation, stop apixaban]\n")


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- Continue apixaban - a settled nosebleed is not a CI to anticoagulation", False),
    ("Plan:\n- No contraindication to apixaban; continue it", False),
    ("Plan:\n- Hold apixaban because of the nosebleed", True),
    ("Plan:\n- Stop apixaban until ENT review", True),
])
def test_a_denied_objection_is_no_withholding(tmp_path: Path, plan: str, given: bool):
    """"Not a CI to X" / "no contraindication to X" denies a reason against X; it withholds nothing."""
    found = _rows(tmp_path, WITHHOLD, plan)
    assert ("Withhold anticoagulation because of epistaxis" in found) is given, (plan, found)


# --- 2. a plan heading timed by its last word ----------------------------------------------------------------------

@pytest.mark.parametrize(("plan", "given"), [
    ("## Background\nOvernight her apixaban was withheld because of epistaxis.\n\n## Management today\n"
     "1. Restart apixaban at the usual dose.", False),
    ("## Background\nNosebleed overnight, now settled.\n\n## Management now\n1. Hold apixaban because of the "
     "nosebleed.", True),
])
def test_a_plan_heading_timed_by_its_last_word(tmp_path: Path, plan: str, given: bool):
    """"Management today" is a plan heading: the history above it is history, and what it lists is the plan."""
    found = _rows(tmp_path, WITHHOLD, plan)
    assert ("Withhold anticoagulation because of epistaxis" in found) is given, (plan, found)


# --- 3. a labelled list item's wrapped line -------------------------------------------------------------------------

@pytest.mark.parametrize(("plan", "given"), [
    ("## Plan\n1. Controlled oxygen via Venturi mask.\n2. Not indicated: antibiotics (sputum unchanged), CT chest "
     "(only if\n   a pneumothorax is suspected), and high-flow oxygen (he retains CO2).", False),
    ("## Plan\n1. Not indicated: antibiotics (sputum unchanged).\n2. High-flow oxygen 15 L via\n   a non-rebreather "
     "mask.", True),
])
def test_a_labelled_items_wrapped_line_is_the_labels(tmp_path: Path, plan: str, given: bool):
    """An indented line that wraps a list item opened by a label ("Not indicated:") is under that label still."""
    found = _rows(tmp_path, "", plan)
    assert ("High-flow oxygen" in found) is given, (plan, found)


# --- 4. a time of two words stays together --------------------------------------------------------------------------

RESTART = ("  - item: Restart theophylline next week\n    class: contraindicated\n    weight: 2\n"
           "    aliases: [restart theophylline next week]\n")


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- Hold this week's theophylline and restart next Monday if the nausea has settled.", False),
    ("Plan:\n- Restart theophylline next week.", True),
    ("Plan:\n- Next week restart the theophylline.", True),
])
def test_a_time_of_two_words_stays_together(tmp_path: Path, plan: str, given: bool):
    """An alias's "next week" is read as one time: "this week's ... restart next Monday" does not spell it."""
    found = _rows(tmp_path, RESTART, plan)
    assert ("Restart theophylline next week" in found) is given, (plan, found)


# --- 5. a safety net is no same-day attendance ----------------------------------------------------------------------

SAFETY_NET = ("  - item: Safety-netting (call 999 if more breathless or drowsy)\n    class: required\n    weight: 1\n"
              "    aliases: [safety-netting, call 999 if]\n")


@pytest.mark.parametrize(("plan", "admitted"), [
    ("Plan:\n- Salbutamol via spacer, prednisolone 30 mg.\n- Practice nurse review tomorrow.\n"
     "- If you become more breathless or drowsy, go to A&E or call 999.", False),
    ("Plan:\n- 999 ambulance now for same-day admission under the medical team.\n"
     "- If you become drowsy on the way, tell the crew.", True),
])
def test_a_safety_net_is_no_same_day_attendance(tmp_path: Path, plan: str, admitted: bool):
    """"Go to A&E or call 999 if ..." meets the safety-netting item and never today's admission; a real admission
    still meets it."""
    found = _rows(tmp_path, SAFETY_NET, plan)
    assert ("Emergency same-day hospital admission by ambulance" in found) is admitted, (plan, found)
    if not admitted:
        assert "Safety-netting (call 999 if more breathless or drowsy)" in found, found


# --- 6. a specialty's surgeons written short ------------------------------------------------------------------------

COLORECTAL = ("  - item: Colorectal surgical review today\n    class: required\n    weight: 2\n    within: same day\n"
              "    aliases: [colorectal surgeons]\n")


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- Colorectal surg + stoma nurse to see today", True),
    ("Plan:\n- Colorectal surg clinic in 6 weeks", False),
])
def test_a_specialtys_surgeons_written_short(tmp_path: Path, plan: str, given: bool):
    found = _rows(tmp_path, COLORECTAL, plan)
    assert ("Colorectal surgical review today" in found) is given, (plan, found)


# --- 7. an item whose bracket gives its one drug with its dose ------------------------------------------------------

SECOND_LINE = ("  - item: Second-line IV bronchodilator now (aminophylline 5 mg/kg up to 500 mg)\n    class: required\n"
               "    weight: 2\n    within: immediately\n    route: intravenous\n"
               "    aliases: [IV aminophylline, aminophylline loading dose]\n")


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- Aminophylline 400 mg IV over 20 min NOW.", True),
    ("Plan:\n- Aminophylline 400 mg orally tomorrow morning.", False),
    ("Plan:\n- Magnesium sulfate 2 g IV now.", False),
])
def test_a_bracket_gives_the_items_drug(tmp_path: Path, plan: str, given: bool):
    """The bracket names the one drug the item gives, with its dose: the drug by the item's route and time is it;
    another route or time, or another drug, is not."""
    found = _rows(tmp_path, SECOND_LINE, plan)
    assert ("Second-line IV bronchodilator now (aminophylline 5 mg/kg up to 500 mg)" in found) is given, (plan, found)

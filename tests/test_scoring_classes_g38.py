"""Failure classes (issue 32): terse notes and thorough plans under-credited. Each test is in wording
of its own, on other topics than the tuning set's cases, with plans that must still pass and wrong plans that must
still fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.support.case_yaml import case_with
from tests.test_scoring_regressions import rows

COPD = Path("cases/im-copd-exacerbation-001.yaml")
GI_BLEED = Path("cases/em-upper-gi-bleed-001.yaml")


def _scored(tmp_path: Path, source: Path, section: str, item: dict, text: str) -> dict[str, str]:
    case = case_with(tmp_path, source, section, item)
    return rows(score(case, Transcript(case_id=case.id, final=FinalResponse(text=text))), section)


# --- 1. clinical shorthand of a terse plan ----------------------------------------------------------------------------

INHALERS = "Continue the regular long-acting inhalers until discharge"
INHALERS_ITEM = {"item": INHALERS, "class": "acceptable", "aliases": ["keep taking his usual inhalers"]}


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- cont regular inhalers till discharge", True),
    ("Plan:\n- Continue regular inhalers until discharge", True),
    ("Plan:\n- stop regular inhalers till discharge", False),
    ("Plan:\n- regular inhalers", False),
])
def test_a_hyphenated_word_left_out_is_one_word(tmp_path: Path, plan: str, given: bool):
    """A long item met by all its words but one: a hyphenated compound of its name ("long-acting") is one written
    word, so leaving it out is leaving out one word; "till" is until and "cont" continue. Another action ("stop")
    or fewer words still fail."""
    found = _scored(tmp_path, COPD, "treatment", INHALERS_ITEM, plan)
    assert (INHALERS in found) is given, (plan, found)


STAIN = "Fluorescein staining of the cornea"
STAIN_ITEM = {"item": STAIN, "class": "acceptable", "aliases": ["fluorescein", "corneal staining"]}


@pytest.mark.parametrize(("note", "given"), [
    ("O/E: conjunctiva injected. Fluo neg. VA 6/9.\nPlan:\n- drops", True),
    ("Plan:\n- fluo stain in clinic", True),
    ("Plan:\n- no fluo needed", False),
])
def test_fluo_is_fluorescein(tmp_path: Path, note: str, given: bool):
    """"Fluo" is fluorescein: a result ("Fluo neg") reports the staining done; declined, it is not done."""
    found = _scored(tmp_path, COPD, "workup", STAIN_ITEM, note)
    assert (STAIN in found) is given, (note, found)


OUTREACH = "Critical care outreach review"
OUTREACH_ITEM = {"item": OUTREACH, "class": "acceptable", "aliases": ["critical care outreach"]}


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- nebs, steroids\n- Outreach aware", True),
    ("Plan:\n- outreach to review tonight", True),
    ("Plan:\n- community outreach nurse to visit next week", False),
    ("Plan:\n- nebs, steroids", False),
])
def test_the_outreach_team_told_is_critical_care_outreach(tmp_path: Path, plan: str, given: bool):
    """The outreach team told or asked to review is critical care outreach; another outreach service is not."""
    found = _scored(tmp_path, COPD, "treatment", OUTREACH_ITEM, plan)
    assert (OUTREACH in found) is given, (plan, found)


SPIT = "Sit upright, lean forward and spit out the blood"
SPIT_ITEM = {"item": SPIT, "class": "acceptable", "aliases": ["do not swallow the blood"]}


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- Sit up, spit, suction at the bedside\n- 2x 16G", True),
    ("Plan:\n- sit up and spit into a bowl", True),
    ("Plan:\n- lie flat, 2x 16G", False),
])
def test_sit_up_spit_is_the_bleeding_posture(tmp_path: Path, plan: str, given: bool):
    """"Sit up, spit" is the posture of a bleed from the mouth: sit upright, lean forward and spit the blood out."""
    found = _scored(tmp_path, GI_BLEED, "treatment", SPIT_ITEM, plan)
    assert (SPIT in found) is given, (plan, found)


REPEAT_OGD = "Repeat endoscopy for haemostasis"
REPEAT_ITEM = {"item": REPEAT_OGD, "class": "acceptable", "aliases": ["repeat endoscopy", "repeat OGD"]}


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- repeat OGD if ongoing bleeding", True),
    ("Plan:\n- repeat OGD if continuing bleeding", True),
    ("Plan:\n- repeat OGD if ongoing seizures", False),
    ("Plan:\n- repeat OGD if he rebleeds tomorrow", False),
])
def test_an_ongoing_finding_of_the_record_is_established(tmp_path: Path, plan: str, given: bool):
    """A condition that the record's finding goes on ("if ongoing bleeding" in a patient who is bleeding) is settled
    by the record (rule 5): the action is given. A finding the record lacks, or a later event, still waits."""
    found = _scored(tmp_path, GI_BLEED, "treatment", REPEAT_ITEM, plan)
    assert (REPEAT_OGD in found) is given, (plan, found)


# --- 2. a thorough plan that says the item by its drug or its target ------------------------------------------------

MELANOMA = Path("cases/onc-melanoma-001.yaml")
TARGETED = "Targeted therapy after BRAF mutation testing"
TARGETED_ITEM = {"item": TARGETED, "class": "acceptable", "aliases": ["dabrafenib", "BRAF inhibitor"]}


@pytest.mark.parametrize(("plan", "given"), [
    ("## Management\n1. Systemic: **dabrafenib** would be my choice once the BRAF result is back.", True),
    ("## Management\n- dabrafenib once the BRAF mutation testing is back", True),
    ("## Management\n- dabrafenib once the CT is back", False),
    ("## Management\n- dabrafenib once the results are back", False),
    ("## Management\n- no dabrafenib: it has no place before staging", False),
])
def test_a_wait_that_is_the_items_own_time(tmp_path: Path, plan: str, given: bool):
    """A drug made to wait for a result that the item's own name times it by ("once the BRAF result is back" of
    "... after BRAF mutation testing") is the item given at its time; a wait for another result, or for results
    unnamed, stays a later event, and a declined drug is not given."""
    found = _scored(tmp_path, MELANOMA, "treatment", TARGETED_ITEM, plan)
    assert (TARGETED in found) is given, (plan, found)


CAP = Path("cases/im-cap-001.yaml")
OXYGEN = "Oxygen to target saturations"
OXYGEN_ITEM = {"item": OXYGEN, "class": "acceptable", "aliases": ["supplemental oxygen via nasal cannulae"]}


@pytest.mark.parametrize(("plan", "given"), [
    ("## Management\n3. **Oxygen** to keep saturations 94-98%.", True),
    ("Plan:\n- O2 to maintain SpO2 94-98%", True),
    ("Plan:\n- keep sats monitored, no oxygen needed", False),
    ("Plan:\n- amoxicillin 500 mg TDS", False),
])
def test_oxygen_kept_in_a_range_is_oxygen_to_a_target(tmp_path: Path, plan: str, given: bool):
    """Oxygen to keep (maintain, aim for) saturations in a range is oxygen to target saturations; saturations watched
    with no oxygen are not."""
    found = _scored(tmp_path, CAP, "treatment", OXYGEN_ITEM, plan)
    assert (OXYGEN in found) is given, (plan, found)

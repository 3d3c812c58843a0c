"""Grader classes of g82 (product issue 32), in wording of its own on other topics than the sets' cases: infectious
diseases named by its letters with a contact word ("Admit under ID", "d/w ID"); a drug held and then restarted by a
restart with no drug of its own ("hold lamotrigine for now, then restart at 50 mg") is restarted; a spaced dash ends a
list before a plural verdict ("Admit today - his sats and lactate are not safe for home" still admits)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.item_decision import item_decision as _decision

TIREDNESS = Path("cases/im-tiredness-001.yaml")

ADMISSION = {"item": "Admission today", "class": "required", "within": "same day"}
ID_REVIEW = {"item": "Infectious diseases team review", "class": "required"}


def _plan(*lines: str) -> str:
    return "Plan:\n" + "".join(f"- {line}\n" for line in lines)


@pytest.mark.parametrize("line", ["Admit under ID", "d/w ID", "discuss with ID re antibiotics", "ID referral",
                                  "refer to ID"])
def test_infectious_diseases_by_its_letters_with_a_contact_word_is_that_team(tmp_path: Path, line: str) -> None:
    assert _decision(tmp_path, TIREDNESS, "treatment", ID_REVIEW, _plan(line)) == "found", line


@pytest.mark.parametrize("line", ["Patient ID checked", "ID band on", "Check ID before transfusion"])
def test_the_letters_alone_are_no_team(tmp_path: Path, line: str) -> None:
    assert _decision(tmp_path, TIREDNESS, "treatment", ID_REVIEW, _plan(line)) != "found", line


RESTART = {"item": "Continue or restart any antiepileptic", "class": "contraindicated",
           "aliases": ["restart lamotrigine"]}


@pytest.mark.parametrize("line", ["Hold lamotrigine for now and restart it once the rash has settled",
                                  "Withhold lamotrigine for now, then restart at 25 mg daily once the LFTs are back",
                                  "Hold lamotrigine for 2 weeks and then resume it",
                                  "Withhold lamotrigine while the LFTs are checked, then restart at 25 mg daily",
                                  "Stop lamotrigine for 2 weeks, then resume",
                                  "Omit lamotrigine until reviewed by neurology, then recommence at the old dose"])
def test_a_drug_held_then_restarted_without_a_drug_of_its_own_is_restarted(tmp_path: Path, line: str) -> None:
    assert _decision(tmp_path, TIREDNESS, "treatment", RESTART, _plan(line)) == "found", line


@pytest.mark.parametrize("line", ["Stop lamotrigine and never restart it", "Stop lamotrigine, do not restart",
                                  "Stop lamotrigine permanently",
                                  "Hold lamotrigine, then restart levetiracetam at 500 mg BD",
                                  "Hold lamotrigine; restart valproate"])
def test_a_denied_restart_or_one_of_another_drug_restarts_nothing_held(tmp_path: Path, line: str) -> None:
    assert _decision(tmp_path, TIREDNESS, "treatment", RESTART, _plan(line)) != "found", line


@pytest.mark.parametrize("line", ["Admit today - his sats and lactate are not safe for home",
                                  "**Admit today** - resting sats of 89% and a lactate of 4 are not safe for home"])
def test_a_spaced_dash_ends_the_list_of_a_plural_verdict(tmp_path: Path, line: str) -> None:
    assert _decision(tmp_path, TIREDNESS, "treatment", ADMISSION, _plan(line)) == "found", line


def test_a_plural_verdict_still_declines_its_own_list(tmp_path: Path) -> None:
    """Negative: the list the verdict follows is still declined ("admission and IV fluids are not needed")."""
    assert _decision(tmp_path, TIREDNESS, "treatment", ADMISSION,
                     _plan("Admission and IV fluids are not needed; oral fluids")) != "found"

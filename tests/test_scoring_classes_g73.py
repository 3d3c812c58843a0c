"""Failure classes (issue 32, set AA): drugs of a physician's note written short ("HC", "dig"), a heading of what
is not done in the -ing form ("Not doing, and why"), and a harmful item that gives a drug without the cover it needs
("NSAID without PPI cover"), not met by an answer that gives that cover too. Wording of its own, on other topics than
set AA's cases, with negative tests (a negation, a continued drug, a plan heading, the cover left out or declined)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.item_decision import item_decision

SOURCE = Path("cases/im-falls-001.yaml")


# --- 1. drugs of a note written short -----------------------------------------------------------------------------

CREAM = {"item": "Hydrocortisone 1% cream to the facial eczema", "class": "required",
         "aliases": ["hydrocortisone cream", "hydrocortisone 1%"]}
STOP_DIGOXIN = {"item": "Stop digoxin", "class": "required", "aliases": ["stop the digoxin", "discontinue digoxin"]}


@pytest.mark.parametrize(("item", "text", "decision"), [
    (CREAM, "Imp: facial eczema flare.\n\nPlan\n- HC 1% cream bd to the face for 1 week\n", "found"),
    (CREAM, "Imp: facial eczema flare.\n\nPlan\n- emollients only; no HC cream on the face\n", "not_found"),
    (STOP_DIGOXIN, "Imp: falls with bradycardia, dig level 2.9.\n\nPlan\n- stop dig, recheck U&E and ECG\n", "found"),
    (STOP_DIGOXIN, "Imp: falls, rate controlled.\n\nPlan\n- continue dig 62.5 mcg od\n", "not_found"),
])
def test_drug_written_short_in_a_note(tmp_path: Path, item: dict, text: str, decision: str):
    assert item_decision(tmp_path, SOURCE, "treatment", item, text) == decision


# --- 2. a heading of what is not done, in the -ing form -----------------------------------------------------------

AMIODARONE = {"item": "Amiodarone", "class": "contraindicated", "aliases": ["IV amiodarone"]}


@pytest.mark.parametrize(("text", "decision"), [
    ("## Plan\n- Bisoprolol 1.25 mg od\n\n## Not doing, and why\n- **Amiodarone** - thyroid and lung toxicity\n",
     "not_found"),
    ("Plan\n- Bisoprolol 1.25 mg od\n\nWhat I am not giving:\n- Amiodarone\n", "not_found"),
    # a heading of what is done today lists what is given
    ("## Doing today\n- Amiodarone 300 mg IV over 1 hour\n", "found"),
])
def test_not_doing_heading_declines_what_it_lists(tmp_path: Path, text: str, decision: str):
    assert item_decision(tmp_path, SOURCE, "treatment", AMIODARONE, text) == decision


# --- 3. a drug given without the cover it needs ---------------------------------------------------------------------

NO_COVER = {"item": "NSAID without PPI cover", "class": "contraindicated", "aliases": ["naproxen alone"]}
ON_PPI = {"item": "Omeprazole", "class": "acceptable", "aliases": ["PPI", "proton pump inhibitor"]}


@pytest.mark.parametrize(("text", "decision"), [
    ("Imp: osteoarthritis of the knee.\n\nPlan\n- Naproxen 250 mg bd with omeprazole 20 mg od for 2 weeks\n",
     "not_found"),
    ("Imp: osteoarthritis of the knee.\n\nPlan\n- Lansoprazole 15 mg od\n- Naproxen 250 mg bd for 2 weeks\n",
     "not_found"),
    # no cover given, or the cover declined: the harmful item
    ("Imp: osteoarthritis of the knee.\n\nPlan\n- Naproxen 250 mg bd for 2 weeks\n", "found"),
    ("Imp: osteoarthritis of the knee.\n\nPlan\n- Naproxen 250 mg bd for 2 weeks; no need for a PPI\n", "found"),
])
def test_drug_without_its_cover_is_not_met_when_the_cover_is_given(tmp_path: Path, text: str, decision: str):
    assert item_decision(tmp_path, SOURCE, "treatment", NO_COVER, text) == decision


def test_route_replacement_still_reads_as_before(tmp_path: Path):
    """"Oral X without IV X" is another route of its own drug, not a cover: IV given alone is not the item."""
    item = {"item": "Oral antibiotics without IV antibiotics", "class": "contraindicated",
            "aliases": ["oral antibiotics only"]}
    text = "Imp: pyelonephritis.\n\nPlan\n- IV co-amoxiclav 1.2 g tds\n"
    assert item_decision(tmp_path, SOURCE, "treatment", item, text) == "not_found"

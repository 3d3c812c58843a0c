"""Failure classes (issue 32, set AA): a harmful routine referral named by its own untimed referral, not vetoed by
that same referral read as today's; a former drug written with the prefix "ex-"; an Avoid heading's entry kept for
the item's own condition ("only if"); "1ry"/"2ry" as primary/secondary. Wording of its own, on other topics than set
AA's cases, with negative tests (a same-day referral elsewhere, a drug restarted, a plain decline, an item with no
condition of its own kept for a condition)."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.text import tokenize
from tests.support.item_decision import item_decision

SOURCE = Path("cases/im-falls-001.yaml")


# --- 1. a harmful routine referral named by its own untimed referral -----------------------------------------------

ROUTINE = {"item": "Routine referral instead of same-day assessment", "class": "contraindicated",
           "aliases": ["physiotherapy for back exercises", "routine orthopaedic clinic letter"]}


@pytest.mark.parametrize(("text", "decision"), [
    ("Imp: mechanical back pain.\n\nPlan\n- Refer to physiotherapy for back exercises\n- Naproxen 250 mg bd\n",
     "found"),
    # a same-day referral elsewhere in the plan: the physiotherapy is no routine plan instead of it
    ("Imp: ?cauda equina.\n\nPlan\n- Refer to physiotherapy for back exercises once recovered\n"
     "- Same-day referral to the on-call spinal team for MRI\n", "not_found"),
    ("Imp: ?cauda equina.\n\nPlan\n- Admit under the spinal surgeons today\n"
     "- No physiotherapy for back exercises until reviewed\n", "not_found"),
])
def test_routine_referral_named_by_its_own_referral(tmp_path: Path, text: str, decision: str):
    assert item_decision(tmp_path, SOURCE, "treatment", ROUTINE, text) == decision


# --- 2. a former drug written with the prefix "ex-" ---------------------------------------------------------------

WARFARIN = {"item": "Warfarin", "class": "contraindicated", "aliases": ["warfarin"]}


@pytest.mark.parametrize(("text", "decision"), [
    ("81M, AF, HTN (ex-long-term warfarin).\nPlan\n- Bisoprolol 2.5 mg od\n", "not_found"),
    ("Background: AF.\n\nPlan\n- Restart warfarin, INR target 2-3\n", "found"),
])
def test_former_drug_with_ex_prefix(tmp_path: Path, text: str, decision: str):
    assert item_decision(tmp_path, SOURCE, "treatment", WARFARIN, text) == decision


# --- 3. an Avoid heading's entry kept for a condition ---------------------------------------------------------------

IVIG = {"item": "Intravenous immunoglobulin if steroids fail", "class": "acceptable", "aliases": ["IVIG"]}
PLATELETS = {"item": "Platelet transfusion", "class": "contraindicated", "aliases": ["platelets"]}
FRAME = {"item": "Walking frame", "class": "contraindicated", "aliases": ["walking frame"]}


@pytest.mark.parametrize(("item", "text", "decision"), [
    (IVIG, "Plan\n- Prednisolone 1 mg/kg\n\n## Avoid\n- **IVIG**: only if steroids fail\n", "found"),
    (IVIG, "Plan\n- Prednisolone 1 mg/kg\n\n## Avoid\n- **IVIG** - no role here\n", "not_found"),
    # a harmful item kept for a condition the record does not establish is not given
    (PLATELETS, "Plan\n- Prednisolone 1 mg/kg\n\n## Avoid\n- Platelet transfusion: only if life-threatening "
                "bleeding\n", "not_found"),
    # an item with no condition of its own, kept for one the record holds, stays declined under the heading
    (FRAME, "Plan\n- Strength and balance classes\n\n## Avoid\n- A walking frame is reserved for recurrent falls\n",
     "not_found"),
])
def test_avoid_entry_kept_for_a_condition(tmp_path: Path, item: dict, text: str, decision: str):
    assert item_decision(tmp_path, SOURCE, "treatment", item, text) == decision


# --- 4. "1ry" and "2ry" written short ------------------------------------------------------------------------------

@pytest.mark.parametrize(("written", "read"), [
    ("1ry hyperparathyroidism", ["primary", "hyperparathyroidism"]),
    ("2ry hyperparathyroidism", ["secondary", "hyperparathyroidism"]),
])
def test_primary_secondary_written_short(written: str, read: list[str]):
    assert [t.norm for t in tokenize(written)] == read

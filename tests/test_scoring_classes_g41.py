"""Failure classes (issue 32): set S's terse answers under-credited. Each test is in wording of its
own, on other topics than the tuning set's cases, with plans that must still pass and wrong plans that must still
fail."""

from __future__ import annotations

import pytest

from tests.test_scoring_classes_g38 import COPD, _scored

# --- 1. teams joined by "+" or "&" share their time; "endo" is the endocrine team ---------------------------------

ENDO = "Same-day endocrinology referral"
ENDO_ITEM = {"item": ENDO, "class": "acceptable", "within": "same day", "target": "endocrinology",
             "aliases": ["endocrinology referral"]}


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- Renal + endo today", True),
    ("Plan:\n- ITU & endo now", True),
    ("Plan:\n- endo r/v today", True),
    ("Plan:\n- Renal + endo next week", False),
    ("Plan:\n- endo clinic in 6 weeks", False),
    ("Plan:\n- Renal today", False),
])
def test_joined_teams_share_their_time(tmp_path, plan: str, given: bool):
    """A team joined to another by "+" or "&" takes the line's time ("Renal + endo today" is a same-day
    endocrine contact); "next week" or a clinic in weeks is no same-day referral; another team alone is not it."""
    found = _scored(tmp_path, COPD, "treatment", ENDO_ITEM, plan)
    assert (ENDO in found) is given, (plan, found)


# --- 2. a drug's continuing regimen after "then" ---------------------------------------------------------------------

MORE = "Continued parenteral ceftriaxone (2 g daily)"
MORE_ITEM = {"item": MORE, "class": "acceptable", "aliases": ["ceftriaxone 2 g daily"]}


@pytest.mark.parametrize(("plan", "given"), [
    ("Plan:\n- ceftriaxone 2 g IV stat, then 2 g IV 24-hrly", True),
    ("Plan:\n- ceftriaxone 2 g IM now then 1 g IM daily", True),
    ("Plan:\n- ceftriaxone 2 g IV stat", False),
    ("Plan:\n- ceftriaxone 2 g IV stat, then 500 mg PO bd", False),
    ("Plan:\n- ceftriaxone 2 g IV stat, then 2 g PO daily", False),
])
def test_a_drugs_regimen_continued_after_then(tmp_path, plan: str, given: bool):
    """"Continued <route> <drug> (...)" is met by the drug's next doses after "then" in its clause by a route under
    the first dose's; one dose alone, or the next doses by mouth after IV (a switch), is not it."""
    found = _scored(tmp_path, COPD, "treatment", MORE_ITEM, plan)
    assert (MORE in found) is given, (plan, found)

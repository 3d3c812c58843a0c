"""Negations a thorough answer writes around a harmful drug (new-case set H's first run): each test is in
wording of its own, on a bundled case (heart failure with a low ejection fraction, where a rate-limiting
calcium-channel blocker is contraindicated)."""

from __future__ import annotations

import pytest

from tests.test_scoring_regressions import card, condition, rows

CASE = "im-heart-failure-001"
CCB = "Non-dihydropyridine calcium-channel blocker (diltiazem or verapamil)"


def _given(text: str) -> bool:
    c = card(CASE, text)
    return CCB in rows(c, "treatment") and condition(c, "cc-implicit-contraindicated") == "FAIL"


@pytest.mark.parametrize("plan, given", [
    ("Plan: IV furosemide 80 mg. No rate-limiting drugs (diltiazem, verapamil) with an EF of 25%.", False),
    ("Plan: IV furosemide 80 mg. No rate-limiting drugs (slow-release diltiazem, verapamil) and no flecainide.",
     False),
    ("Plan: IV furosemide 80 mg. Avoid negative inotropes (verapamil, diltiazem, flecainide).", False),
    ("Plan: IV furosemide 80 mg. Rate control (verapamil 40 mg TDS) if she stays in fast AF.", True),
])
def test_a_bracket_gives_examples_of_the_words_before_it_and_shares_their_negation(plan: str, given: bool):
    """"No X (A, B)": the drugs in the bracket are examples of what is declined."""
    assert _given(plan) is given, plan


@pytest.mark.parametrize("plan, given", [
    ("Plan: IV furosemide 80 mg. Verapamil depresses contractility and should be avoided here.", False),
    ("Plan: IV furosemide 80 mg. Diltiazem does little for the rate and is contraindicated.", False),
    ("Plan: IV furosemide 80 mg. Verapamil slows the ventricular rate and should be started tonight.", True),
])
def test_a_second_predicate_of_the_same_subject_may_be_its_verdict(plan: str, given: bool):
    """"X does this and must not be used": the verdict after "and" is said of X too."""
    assert _given(plan) is given, plan


@pytest.mark.parametrize("plan, given", [
    ("Plan: IV furosemide 80 mg. Diltiazem (a calcium-channel blocker) is contraindicated here.", False),
    ("Plan: IV furosemide 80 mg. Verapamil (a non-dihydropyridine) is not appropriate with this EF.", False),
    ("Plan: IV furosemide 80 mg. Verapamil (120 mg MR) for rate control.", True),
])
def test_a_bracket_saying_what_the_drug_is_does_not_hide_the_verdict_after_it(plan: str, given: bool):
    """"X (a class) is not appropriate": read as if the bracket were not there."""
    assert _given(plan) is given, plan


@pytest.mark.parametrize("plan, given", [
    ("Plan: IV furosemide 80 mg. Do **not**\n   start verapamil with an ejection fraction this low.", False),
    ("Plan: IV furosemide 80 mg, a daily weight, daily U&E and a fluid restriction of 1.5 L; do _not_\n"
     "give diltiazem for the rate.", False),
    ("Plan: IV furosemide 80 mg. Please **start**\n   verapamil 40 mg TDS.", True),
])
def test_a_line_broken_after_an_emphasised_not_goes_on(plan: str, given: bool):
    """Emphasis marks at a line break are layout: "do **not**" at a line's end still negates what follows."""
    assert _given(plan) is given, plan


@pytest.mark.parametrize("plan, given", [
    ("Plan: furosemide 80 mg IV. Diltiazem does little for the rate and is contraindicated.", False),
    ("Plan: furosemide 80 mg IV. Verapamil (120 mg MR) for rate control.", True),
])
def test_a_phrase_does_not_run_over_the_end_of_a_sentence(plan: str, given: bool):
    """"... 80 mg IV. Diltiazem ..." is no "IV diltiazem": the route ends the sentence before, so the drug opens its
    own sentence, where its verdict is read."""
    assert _given(plan) is given, plan

"""Failure classes (issue 32, misses left on sets V, W, X): an electrolyte replaced written with the
verb, a heading timed by a phrase of two words, a drug kept going in plain words, drops by their Latin word, the
outreach team named alone, a substance-misuse service named by one substance. Wording of its own, on other topics
than the tuned sets' cases, with negative tests (a negation, a result, a stop, another team)."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.support.case_yaml import case_with
from tests.test_scoring_regressions import rows

SOURCE = Path("cases/im-falls-001.yaml")
GIVEN = ("matched", "acceptable")


def _given(tmp_path: Path, section: str, item: dict, text: str) -> str | None:
    built = case_with(tmp_path, SOURCE, section, item)
    card = score(built, Transcript(case_id=built.id, final=FinalResponse(text=text)))
    return rows(card, section).get(item["item"])


# --- 1. a verb of giving back what is low is its replacement ----------------------------------------------------

MAGNESIUM = {"item": "Magnesium and calcium replacement", "class": "required",
             "aliases": ["magnesium replacement", "calcium replacement"]}


@pytest.mark.parametrize(("text", "given"), [
    ("Imp: refeeding syndrome.\n\nPlan\n- Replace magnesium and calcium IV.\n", True),
    ("Imp: refeeding syndrome.\n\nPlan\n- Replacing the magnesium today.\n", True),
    # negated, or only results: no replacement
    ("Imp: refeeding syndrome.\n\nPlan\n- Do not replace magnesium yet; recheck in the morning.\n", False),
    ("Imp: refeeding syndrome.\n\nResults: magnesium 0.81, calcium 2.30 (normal).\n", False),
])
def test_replace_an_electrolyte_is_its_replacement(tmp_path: Path, text: str, given: bool):
    assert (_given(tmp_path, "treatment", MAGNESIUM, text) in GIVEN) is given, text


# --- 2. a heading timed by a phrase of two words keeps its section ('Investigations on arrival') ----------------

PHOSPHATE = {"item": "Serum phosphate", "class": "required", "aliases": ["phosphate level"]}


@pytest.mark.parametrize(("text", "given"), [
    ("Imp: refeeding risk.\n\n**Investigations on arrival**\n- Phosphate\n- U&E\n", True),
    ("Imp: refeeding risk.\n\n## Tests on admission\n| Test | Why |\n|---|---|\n| Phosphate | refeeding |\n", True),
    # a bare analyte under a heading of findings, or under a plan heading, is no test asked for
    ("Imp: refeeding risk.\n\n**Findings on arrival**\n- Phosphate normal last week\n", False),
    ("Imp: refeeding risk.\n\n**Plan on arrival**\n- Phosphate\n", False),
])
def test_a_heading_timed_by_two_words_keeps_its_section(tmp_path: Path, text: str, given: bool):
    assert (_given(tmp_path, "workup", PHOSPHATE, text) in GIVEN) is given, text


# --- 3. keeping a drug going said in plain words is continuing it -----------------------------------------------

CONTINUE = {"item": "Continue bisoprolol", "class": "acceptable", "aliases": ["keep taking bisoprolol"]}


@pytest.mark.parametrize(("text", "given"), [
    ("Imp: fast AF.\n\nPlan\n- Carry on taking the bisoprolol as before.\n", True),
    ("Imp: fast AF.\n\nPlan\n- Keep on her usual bisoprolol 5 mg.\n", True),
    # stopped or negated: not continued
    ("Imp: fast AF.\n\nPlan\n- Stop the bisoprolol while hypotensive.\n", False),
    ("Imp: fast AF.\n\nPlan\n- Do not keep taking the bisoprolol.\n", False),
])
def test_keep_taking_a_drug_is_continuing_it(tmp_path: Path, text: str, given: bool):
    assert (_given(tmp_path, "treatment", CONTINUE, text) in GIVEN) is given, text


# --- 4. teams and drops named short: 'outreach', 'drug services', 'gtts' -------------------------------------------

@pytest.mark.parametrize(("item", "text", "given"), [
    ({"item": "Critical care outreach review", "class": "required", "aliases": ["critical care outreach"]},
     "Imp: urosepsis.\n\nPlan\n- NEWS 8: call outreach now.\n", True),
    ({"item": "Critical care outreach review", "class": "required", "aliases": ["critical care outreach"]},
     "Imp: urosepsis.\n\nPlan\n- Call the medical registrar now.\n", False),   # another team
    ({"item": "Referral to substance misuse services", "class": "acceptable", "aliases": ["addictions referral"]},
     "Imp: opioid overdose.\n\nPlan\n- Refer to the local drug services.\n", True),
    ({"item": "Referral to substance misuse services", "class": "acceptable", "aliases": ["addictions referral"]},
     "Imp: opioid overdose.\n\nPlan\n- Refer to psychiatry.\n", False),   # a broader team is not the service
    ({"item": "Topical antibiotic eye drops", "class": "required", "aliases": ["chloramphenicol drops"]},
     "Imp: bacterial conjunctivitis.\n\nPlan\n- chloramphenicol 0.5% gtts QDS both eyes\n", True),
    ({"item": "Topical antibiotic eye drops", "class": "required", "aliases": ["chloramphenicol drops"]},
     "Imp: bacterial conjunctivitis.\n\nPlan\n- oral chloramphenicol\n", False),   # another route
])
def test_teams_and_drops_named_short(tmp_path: Path, item: dict, text: str, given: bool):
    assert (_given(tmp_path, "treatment", item, text) in GIVEN) is given, text


@pytest.mark.parametrize(("text", "absent"), [
    ("Keep him upright in the position he chooses", "continue"),   # a position kept is no drug continued
    ("Carry out an ECG now", "continue"),
    ("Keep her NBM until reviewed", "continue"),
])
def test_keep_and_carry_alone_are_not_continue(text: str, absent: str):
    from medbench_tui.core.text import tokenize
    assert absent not in [t.norm for t in tokenize(text)]

"""Grader classes of set Z (g70, product issue 32): a choice ruled out ("X and Y are not options"), a contraceptive
eligibility category, the patient's own wish reported and advised against, a thorough answer's past-tense actions
after a negation, 'ant' for anterior, and a routine review that goes without a team's same-day procedure; each on
wording of its own on other topics, with the wrong plan still failing."""

from __future__ import annotations

import pytest

from medbench_tui.core.cases.model import TreatmentItem
from medbench_tui.core.scoring import score
from medbench_tui.core.scoring.home import replaces_today
from medbench_tui.core.text import tokenize
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.test_scoring_regressions import card, case, rows

ASPIRIN = "Aspirin for stroke prevention"
BETA = "Beta-blocker for rate control"


def _given(text: str) -> dict[str, str]:
    return rows(card("im-af-001", "Plan:\n- " + text), "treatment")


@pytest.mark.parametrize("text", [
    "Aspirin is not an option for stroke prevention here.",
    "Aspirin and dual antiplatelets are not options - they do not prevent AF strokes.",
    "He wanted to start aspirin, so I advised against it.",
    "She asked to restart aspirin; I recommended against it.",
])
def test_a_choice_ruled_out_or_a_wish_advised_against_is_not_given(text: str):
    assert ASPIRIN not in _given(text)


@pytest.mark.parametrize("text", [
    "Aspirin 75 mg daily for stroke prevention.",
    "Aspirin is an option: start aspirin 75 mg for stroke prevention.",
])
def test_aspirin_given_is_still_the_harm(text: str):
    assert _given(text).get(ASPIRIN) == "contraindicated"


def test_a_past_tense_action_after_advice_against_is_given():
    assert BETA in _given("I advised against aspirin and started bisoprolol 2.5 mg for rate control.")
    assert BETA not in _given("I advised against aspirin and bisoprolol.")  # the negation covers what it coordinates


def test_a_contraceptive_category_four_refuses_it():
    pill = "Combined oral contraceptive pill"
    c = case("im-tia-001")
    harmful = TreatmentItem.model_validate({"item": pill, "class": "contraindicated", "weight": 2,
                                            "aliases": ["combined pill"]})
    c = c.model_copy(update={"treatment": [*c.treatment, harmful]})

    def given(text: str) -> dict[str, str]:
        return rows(score(c, Transcript(case_id=c.id, final=FinalResponse(text="Plan:\n- " + text))), "treatment")

    assert pill not in given("Contraception: the combined pill is UKMEC 4 after a stroke; offer an implant.")
    assert given("Contraception: restart the combined pill.").get(pill) == "contraindicated"


@pytest.mark.parametrize(("text", "words"), [
    ("Ant rhinoscopy: clot on the septum", "anterior rhinoscopy"),
    ("ant chamber quiet", "anterior chamber"),
])
def test_ant_before_the_part_is_anterior(text: str, words: str):
    assert words in " ".join(t.norm for t in tokenize(text))


def test_ant_alone_stays_the_insect():
    assert "anterior" not in [t.norm for t in tokenize("ant bite on the ankle")]


@pytest.mark.parametrize(("name", "today"), [
    ("Routine orthopaedic clinic review in 2 weeks without same-day washout", True),
    ("Oral antibiotics without same-day surgical drainage", True),
    ("Discharge without same-day imaging", False),  # imaging is no team's procedure
    ("Routine review without drainage", False),  # no time of today
])
def test_an_item_that_goes_without_a_teams_procedure_of_today(name: str, today: bool):
    assert replaces_today(name) is today


def test_a_routine_review_beside_todays_referral_is_not_the_harm():
    name = "Routine orthopaedic clinic review in 2 weeks without same-day washout"
    c = case("sur-septic-arthritis-001")
    harmful = TreatmentItem.model_validate({"item": name, "class": "contraindicated", "weight": 2,
                                            "aliases": ["orthopaedic clinic review in 2 weeks"]})
    c = c.model_copy(update={"treatment": [*c.treatment, harmful]})

    def given(text: str) -> dict[str, str]:
        return rows(score(c, Transcript(case_id=c.id, final=FinalResponse(text=text))), "treatment")

    assert name not in given("Plan:\n- Refer to orthopaedics now for washout today.\n"
                             "- Orthopaedic clinic review in 2 weeks after discharge.")
    wrong = given("Plan:\n- Oral flucloxacillin.\n- Orthopaedic clinic review in 2 weeks.")
    assert wrong.get(name) == "contraindicated"


@pytest.mark.parametrize(("text", "words"), [
    ("Tx-dose dalteparin 200 units/kg", "treatment dose dalteparin"),
    ("tx dose tinzaparin", "treatment dose tinzaparin"),
    ("offer Cu-IUD or implant", "copper iud"),
])
def test_terse_treatment_dose_and_copper_coil(text: str, words: str):
    assert words in " ".join(t.norm for t in tokenize(text))


@pytest.mark.parametrize(("text", "absent"), [
    ("tx to ICU", "treatment"),       # "tx" alone may be a transfer or a transplant
    ("POP backslab to the wrist", "progestogen"),  # plaster of Paris
    ("proph dose dalteparin", "treatment"),
])
def test_tx_alone_and_pop_stay_unread(text: str, absent: str):
    assert absent not in [t.norm for t in tokenize(text)]

"""Grader classes of g77 (product issue 32), in wording of its own on other topics than the sets' cases: a team
named short with a contact word ("d/w gastro", "review by vascular", "admit under vascular") is a contact with that
team, at the time written; a measured thing written with a repeating frequency ("U&E daily", "capillary glucose 4
times a day") is its monitoring, through the other names of the test ("renal function")."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from tests.support.item_decision import item_decision as _decision

TIREDNESS = Path("cases/im-tiredness-001.yaml")

LATER = ["in 6 weeks", "next week", "in 3 months", "in routine clinic", "as an outpatient", "at follow-up",
         "in 10 days", "in 2/52"]
TODAY = ["today", "now", "urgently same day"]


def _same_day(target: str) -> dict[str, str]:
    return {"item": f"Same-day {target} referral", "class": "required", "target": target, "within": "same day"}


def _plan(text: str) -> str:
    return "Plan:\n- " + text + "\n"


SHORT = [("d/w gastro {time}", "gastroenterology"), ("gastro review {time}", "gastroenterology"),
         ("refer to gastro {time}", "gastroenterology"), ("review by gastro {time}", "gastroenterology"),
         ("review by vascular {time}", "vascular surgery"), ("seen by vascular {time}", "vascular surgery"),
         ("discuss with vascular {time}", "vascular surgery")]


@pytest.mark.parametrize(("order", "time"), list(itertools.product(SHORT, TODAY)))
def test_a_team_named_short_with_its_contact_today_meets_a_same_day_item(tmp_path: Path, order: tuple[str, str],
                                                                         time: str) -> None:
    wording, target = order
    assert _decision(tmp_path, TIREDNESS, "treatment", _same_day(target), _plan(wording.format(time=time))) == "found"


@pytest.mark.parametrize(("order", "time"), list(itertools.product(SHORT, LATER)))
def test_the_same_contact_at_a_later_time_never_meets_a_same_day_item(tmp_path: Path, order: tuple[str, str],
                                                                      time: str) -> None:
    wording, target = order
    assert _decision(tmp_path, TIREDNESS, "treatment", _same_day(target), _plan(wording.format(time=time))) != "found"


@pytest.mark.parametrize("text", ["admit under vascular", "admit under vascular today", "admit vascular tonight"])
def test_an_admission_under_the_clipped_team_is_today(tmp_path: Path, text: str) -> None:
    assert _decision(tmp_path, TIREDNESS, "treatment", _same_day("vascular surgery"), _plan(text)) == "found"


@pytest.mark.parametrize("text", ["admit under vascular next week", "admit under gastro in 2 weeks"])
def test_an_elective_admission_under_the_clipped_team_is_not_today(tmp_path: Path, text: str) -> None:
    target = "vascular surgery" if "vascular" in text else "gastroenterology"
    assert _decision(tmp_path, TIREDNESS, "treatment", _same_day(target), _plan(text)) != "found"


@pytest.mark.parametrize("text", ["gastro symptoms today, review today", "viral gastro, see GP today",
                                  "vascular assessment of the foot today", "GP appointment today",
                                  "neurology review today", "gastro OPD 2/52", "vascular OPD 2/52"])
def test_bare_gastro_or_vascular_or_another_team_is_no_such_contact(tmp_path: Path, text: str) -> None:
    for target in ("gastroenterology", "vascular surgery"):
        assert _decision(tmp_path, TIREDNESS, "treatment", _same_day(target), _plan(text)) != "found", (text, target)


def _monitoring(name: str) -> dict[str, str]:
    return {"item": name, "class": "required"}


@pytest.mark.parametrize(("name", "text"), [
    ("Renal function monitoring", "U&E daily while on gentamicin"),
    ("Renal function monitoring", "daily U&E on IV vancomycin"),
    ("Capillary glucose monitoring", "capillary glucose 4 times a day while on prednisolone"),
    ("Sodium monitoring", "sodium daily during the tolvaptan"),
    ("Potassium monitoring", "potassium 3 times a day on the insulin infusion"),
])
def test_a_measure_with_a_repeating_frequency_is_its_monitoring(tmp_path: Path, name: str, text: str) -> None:
    assert _decision(tmp_path, TIREDNESS, "workup", _monitoring(name), _plan(text)) == "found"


@pytest.mark.parametrize(("name", "text"), [
    ("Renal function monitoring", "U&E sent"),
    ("Renal function monitoring", "FBC daily"),
    ("Renal function monitoring", "no need for daily U&E"),
    ("Sodium monitoring", "sodium 131"),
    ("Potassium monitoring", "potassium 3.1, repeat in 3 days"),
    ("Capillary glucose monitoring", "urine dip 4 times a day"),
])
def test_one_test_another_test_or_a_negation_is_no_monitoring(tmp_path: Path, name: str, text: str) -> None:
    assert _decision(tmp_path, TIREDNESS, "workup", _monitoring(name), _plan(text)) != "found"

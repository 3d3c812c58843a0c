"""Grader class of g81 (product issue 32), in wording of its own on other topics than the sets' cases: a contact
written as a label whose content is a time alone ("haematology review: 6 weeks", "refer to nephrology: 2/52",
"**rheumatology review:** in 3 months") takes that time, so it never meets a same-day item; the same label with a
time of today still meets it. A label of another kind ("Diagnosis: ...", "Plan: admit under ... today") and a heading
over a list ("Review:" then one line a team each) keep their own times."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from tests.support.item_decision import item_decision as _decision

TIREDNESS = Path("cases/im-tiredness-001.yaml")

TEAMS = [("haematology", "haematology"), ("nephrology", "nephrology"), ("rheumatology", "rheumatology")]
ORDERS = ["{team} review: {time}", "review by {team}: {time}", "refer to {team}: {time}", "{team} f/u: {time}",
          "**{team} review:** {time}", "{team} review : {time}", "Follow-up: {team} review {time}"]
LATER = ["6/52", "2/52", "3/12", "6 weeks", "3 months", "in 6 weeks", "in 10 days", "next week", "routine",
         "6-8 weeks", "at follow-up", "in two weeks"]
TODAY = ["today", "now", "same day"]


def _same_day(target: str) -> dict[str, str]:
    return {"item": f"Same-day {target} referral", "class": "required", "target": target, "within": "same day"}


def _later(target: str) -> dict[str, str]:
    return {"item": f"{target.capitalize()} review", "class": "required", "target": target, "within": "6 weeks"}


def _plan(line: str) -> str:
    return "Plan:\n- " + line + "\n"


@pytest.mark.parametrize(("order", "time"), list(itertools.product(ORDERS, LATER)))
def test_a_contact_label_whose_content_is_a_later_time_never_meets_a_same_day_item(
        tmp_path: Path, order: str, time: str) -> None:
    for word, target in TEAMS:
        text = _plan(order.format(team=word, time=time))
        assert _decision(tmp_path, TIREDNESS, "treatment", _same_day(target), text) != "found", text


@pytest.mark.parametrize(("order", "time"),
                         list(itertools.product([o for o in ORDERS if "f/u" not in o and "Follow" not in o], TODAY)))
def test_the_same_label_with_a_time_of_today_meets_the_same_day_item(tmp_path: Path, order: str, time: str) -> None:
    for word, target in TEAMS:
        text = _plan(order.format(team=word, time=time))
        assert _decision(tmp_path, TIREDNESS, "treatment", _same_day(target), text) == "found", text


@pytest.mark.parametrize("line", ["{team} review: 6 weeks", "{team} review: in 6 weeks", "{team} review: 6/52"])
def test_the_label_s_later_time_still_meets_a_later_item(tmp_path: Path, line: str) -> None:
    for word, target in TEAMS:
        text = _plan(line.format(team=word))
        assert _decision(tmp_path, TIREDNESS, "treatment", _later(target), text) == "found", text


@pytest.mark.parametrize("line", ["{team} review: 12 weeks pregnant", "{team} review: 3 days of fever",
                                  "{team} review: urgent", "{team} review: on call"])
def test_content_that_is_no_later_time_leaves_the_contact_today_s(tmp_path: Path, line: str) -> None:
    for word, target in TEAMS:
        text = _plan(line.format(team=word))
        assert _decision(tmp_path, TIREDNESS, "treatment", _same_day(target), text) == "found", text


def test_a_plan_label_keeps_the_time_of_its_content(tmp_path: Path) -> None:
    """Negative: "Plan:" is no contact; its content's own time is read ("admit under nephrology today" is today's,
    "admit under nephrology next week" is not)."""
    item = {"item": "Admit under nephrology today", "class": "required", "target": "nephrology", "within": "same day"}
    assert _decision(tmp_path, TIREDNESS, "treatment", item, "Plan: admit under nephrology today\n") == "found"
    assert _decision(tmp_path, TIREDNESS, "treatment", item, "Plan: admit under nephrology next week\n") != "found"


def test_a_review_heading_over_a_list_keeps_each_line_s_own_time(tmp_path: Path) -> None:
    text = "Review:\n- haematology today\n- nephrology 6/52\n"
    assert _decision(tmp_path, TIREDNESS, "treatment", _same_day("haematology"), text) == "found"
    assert _decision(tmp_path, TIREDNESS, "treatment", _same_day("nephrology"), text) != "found"
    text = "Review:\n- nephrology in 6 weeks\n- haematology now\n"
    assert _decision(tmp_path, TIREDNESS, "treatment", _same_day("haematology"), text) == "found"
    assert _decision(tmp_path, TIREDNESS, "treatment", _same_day("nephrology"), text) != "found"


def test_a_label_s_time_is_its_own_contact_s_only(tmp_path: Path) -> None:
    """The time after one contact's colon is not another line's: "haematology review: 6 weeks" beside
    "nephrology review today" leaves the nephrology review today's."""
    text = "Plan:\n- haematology review: 6 weeks\n- nephrology review today\n"
    assert _decision(tmp_path, TIREDNESS, "treatment", _same_day("nephrology"), text) == "found"
    assert _decision(tmp_path, TIREDNESS, "treatment", _same_day("haematology"), text) != "found"

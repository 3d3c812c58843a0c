"""Grader class of g79 (product issue 32), in wording of its own on other topics than the sets' cases: an amount of
time written with no "in"/"by" right beside a contact ("review by haematology 6/52", "nephrology review 3 months",
"rheumatology clinic 6/52", "4/52 haematology review") is that contact's later time, so it never meets a same-day
item; the same wording with a time of today still meets it, and an amount that is something else's ("2 tablets",
"12 weeks pregnant", "3 days of fever") is no time of the contact."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from medbench_tui.core.vocabulary.reading import read_action
from tests.support.item_decision import item_decision as _decision

TIREDNESS = Path("cases/im-tiredness-001.yaml")

TEAMS = [("haematology", "haematology"), ("nephrology", "nephrology"), ("rheumatology", "rheumatology")]
ORDERS = ["review by {team} {time}", "admit under {team} {time}", "{team} review {time}", "{team} f/u {time}",
          "{team} OPD {time}", "{team} clinic {time}", "{team} review - {time}", "{team} review ({time})",
          "{team} review, {time}", "refer to {team} {time}", "{time} {team} review"]
LATER = ["6/52", "2/52", "3/12", "6 weeks", "3 months", "2 wks", "10 days", "6-8 weeks", "two weeks"]
TODAY = ["today", "now", "same day", "on call"]
NOT_TIMES = ["{team} review, 2 tablets", "{team} review (12 weeks pregnant)", "{team} review; 12 weeks pregnant",
             "{team} review - 24 weeks gestation", "{team} review, 3 days of fever", "{team} review, fever for 3 days",
             "{team} review, 40 mg", "{team} review, 2 units"]


def _same_day(target: str) -> dict[str, str]:
    return {"item": f"Same-day {target} referral", "class": "required", "target": target, "within": "same day"}


def _plan(line: str) -> str:
    return "Plan:\n- " + line + "\n"


@pytest.mark.parametrize("text", ["review by haematology 6/52", "nephrology review 3 months", "renal clinic 2/52",
                                  "rheumatology review (6 weeks)", "4/52 haematology review",
                                  "refer to rheumatology 6-8 weeks"])
def test_a_bare_time_beside_a_contact_is_read_as_its_later_time(text: str) -> None:
    assert read_action(text).windows and all(w[0] >= 24 * 7 for w in read_action(text).windows), text


@pytest.mark.parametrize("text", ["haematology review, 12 weeks pregnant", "nephrology review, 2 tablets",
                                  "symptoms 6 weeks", "rheumatology review, joint pain 3 months",
                                  "prednisolone 30 mg 5 days", "discuss with haematology and the anaesthetist",
                                  "refer to nephrology and dietetics"])
def test_an_amount_that_is_not_the_contact_s_time_is_no_time(text: str) -> None:
    assert not read_action(text).windows, text


@pytest.mark.parametrize(("order", "time"), list(itertools.product(ORDERS, LATER)))
def test_a_contact_with_a_bare_later_time_never_meets_a_same_day_item(tmp_path: Path, order: str, time: str) -> None:
    for word, target in TEAMS:
        text = _plan(order.format(team=word, time=time))
        assert _decision(tmp_path, TIREDNESS, "treatment", _same_day(target), text) != "found", text


@pytest.mark.parametrize(("order", "time"),
                         list(itertools.product([o for o in ORDERS if "f/u" not in o and "OPD" not in o
                                                 and "clinic" not in o and not o.startswith("{time}")], TODAY)))
def test_the_same_contact_today_meets_the_same_day_item(tmp_path: Path, order: str, time: str) -> None:
    for word, target in TEAMS:
        text = _plan(order.format(team=word, time=time))
        assert _decision(tmp_path, TIREDNESS, "treatment", _same_day(target), text) == "found", text


@pytest.mark.parametrize("line", NOT_TIMES)
def test_a_count_a_dose_or_a_pregnancy_s_weeks_is_no_later_time(tmp_path: Path, line: str) -> None:
    """A contact with no time of its own is today's: an amount that goes on into other words is not its time."""
    for word, target in TEAMS:
        text = _plan(line.format(team=word))
        assert _decision(tmp_path, TIREDNESS, "treatment", _same_day(target), text) == "found", text


def test_a_contact_at_a_bare_later_time_does_not_meet_an_urgent_admission(tmp_path: Path) -> None:
    """Negative on the item's other side: an elective admission in two weeks is no admission today."""
    item = {"item": "Admit under nephrology today", "class": "required", "target": "nephrology", "within": "same day"}
    assert _decision(tmp_path, TIREDNESS, "treatment", item, _plan("admit under nephrology 2/52")) != "found"
    assert _decision(tmp_path, TIREDNESS, "treatment", item, _plan("admit under nephrology today")) == "found"

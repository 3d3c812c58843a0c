"""Grader classes of g76 (product issue 32), in wording of its own on other topics than the sets' cases: a
referral, review, discussion or admission whose own clause gives a later time never meets a same-day item,
whatever the word order ("cardiology review in clinic in 6 weeks", "review by haematology in 3 months", "refer to
ophthalmology at follow-up", "admit under cardiology next week"); the same wording with a time of today still
meets it."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from medbench_tui.core.vocabulary.reading import read_action
from tests.support.item_decision import item_decision as _decision

TIREDNESS = Path("cases/im-tiredness-001.yaml")

TEAMS = [("ophthalmology", "ophthalmology"), ("cardiology", "cardiology"), ("haematology", "haematology")]
ORDERS = ["{team} review {time}", "{team} team review in clinic {time}", "review by {team} {time}",
          "refer to {team} {time}", "referral to {team} {time}", "discuss with {team} {time}"]
LATER = ["in 6 weeks", "in clinic in 6 weeks", "next week", "in 3 months", "in routine clinic", "as an outpatient",
         "at follow-up", "in 10 days", "in 2/52", "in the clinic in 4 weeks", "in OPD in 2 weeks"]
TODAY = ["today", "now", "urgently same day", "on call"]


def _same_day(target: str) -> dict[str, str]:
    return {"item": f"Same-day {target} referral", "class": "required", "target": target, "within": "same day"}


def _plan(order: str, team: str, time: str) -> str:
    return "Plan:\n- " + order.format(team=team, time=time) + "\n"


def test_a_later_time_after_a_place_or_a_team_is_read() -> None:
    """The words after "in" or "by" that give no time ("in clinic", "by cardiology") do not hide the time after
    them."""
    for text in ("review in clinic in 6 weeks", "review by cardiology in 3 months", "seen in OPD in 2 weeks"):
        assert any(w[0] >= 24 * 7 for w in read_action(text).windows), text


@pytest.mark.parametrize(("order", "time"), list(itertools.product(ORDERS, LATER)))
def test_a_contact_at_a_later_time_never_meets_a_same_day_item(tmp_path: Path, order: str, time: str) -> None:
    for word, target in TEAMS:
        assert _decision(tmp_path, TIREDNESS, "treatment", _same_day(target), _plan(order, word, time)) != "found"


@pytest.mark.parametrize(("order", "time"), list(itertools.product(ORDERS, TODAY)))
def test_the_same_contact_today_meets_the_same_day_item(tmp_path: Path, order: str, time: str) -> None:
    for word, target in TEAMS:
        assert _decision(tmp_path, TIREDNESS, "treatment", _same_day(target), _plan(order, word, time)) == "found"


@pytest.mark.parametrize("time", LATER)
def test_an_admission_at_a_later_time_is_no_admission_today(tmp_path: Path, time: str) -> None:
    """An admission's own word gives today only when no later time is written for it ("admit under cardiology
    next week" is an elective admission)."""
    text = _plan("admit under {team} {time}", "cardiology", time)
    assert _decision(tmp_path, TIREDNESS, "treatment", _same_day("cardiology"), text) != "found"


@pytest.mark.parametrize("time", ["today", "now", "urgently same day", "tonight"])
def test_an_admission_today_meets_the_same_day_item(tmp_path: Path, time: str) -> None:
    text = _plan("admit under {team} {time}", "cardiology", time)
    assert _decision(tmp_path, TIREDNESS, "treatment", _same_day("cardiology"), text) == "found"


def test_an_admission_without_a_time_is_today(tmp_path: Path) -> None:
    assert _decision(tmp_path, TIREDNESS, "treatment", _same_day("cardiology"),
                     "Plan:\n- admit under cardiology for telemetry\n") == "found"

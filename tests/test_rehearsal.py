"""Case rehearsal: the standard battery reaches the facts of every bundled case, and what
nothing reaches is listed (core, ``medbench rehearse``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from medbench_tui.cli import main
from medbench_tui.core.cases.bank import consultation_files
from medbench_tui.core.consultation.rehearsal import battery, rehearse, render_text
from tests.test_consultation import fixture_case


def test_rehearsal_lists_what_each_question_reached():
    case = fixture_case()
    rehearsal = rehearse(case)
    assert rehearsal.reached_by["smoking"] and "Do you smoke?" in rehearsal.reached_by["smoking"]
    assert set(rehearsal.reached_by) == {a.id for a in case.additional_answers}
    text = render_text(rehearsal)
    assert "Facts:" in text and "To fix:" in text


def test_unreachable_fact_and_control_question_are_listed():
    case = fixture_case()
    case.additional_answers[0].keywords = ["zebra"]
    case.additional_answers[0].topic = "zebra"
    case.additional_answers[0].answer = "Zebra quagga."
    rehearsal = rehearse(case)
    fact = case.additional_answers[0].id
    assert fact in rehearsal.unreached_facts and not rehearsal.clean
    assert f"fact {fact}: no standard question reaches it" in render_text(rehearsal)


def test_battery_fits_the_patient():
    questions = [q for _, q in battery(fixture_case())]
    assert "When was your last period?" not in questions  # a man
    assert any(q.startswith("Can I see the ") for q in questions)
    assert "I'd like to examine you now." in questions


def test_rehearse_command_json(capsys):
    code = main(["rehearse", "em-pe-001", "--format", "json"])
    document = json.loads(capsys.readouterr().out)
    assert document["case_id"] == "em-pe-001" and code in (0, 1)
    assert set(document["to_fix"]) == {
        "facts_no_question_reaches", "control_questions_nothing_elicits", "attachments_nothing_releases",
        "replies_that_do_not_fit"}
    assert all("reply" in q and "confidence" in q and "fits" in q for q in document["questions"])
    assert document["facts"]["travel"]


def test_battery_asks_a_man_about_erections_and_an_informant_about_the_patient():
    man = fixture_case()
    assert "Any problems with erections?" in [q for _, q in battery(man)]
    assert "Do they know you're here?" not in [q for _, q in battery(man)]  # he speaks for himself
    spoken_for = fixture_case()
    spoken_for.patient.informant = "caregiver"
    assert "Do they know you're here?" in [q for _, q in battery(spoken_for)]


BUNDLED = Path(__file__).resolve().parent.parent / "cases"


@pytest.mark.parametrize("name", [path.name for path in consultation_files(BUNDLED)])
def test_every_bundled_case_but_the_harness_tests_is_reachable_by_the_battery(name):
    """One test per consultation case of the bundled bank (xdist spreads them; the id names the case)."""
    from medbench_tui.core.validate import load_valid_case

    left = {}
    for path in [BUNDLED / name]:
        case = load_valid_case(path)
        if case.metadata.category != "error_testing":
            rehearsal = rehearse(case)
            if not rehearsal.clean:
                left[case.id] = render_text(rehearsal).split("To fix:")[-1]
    assert not left, left


def test_rehearsal_prints_each_question_with_its_reply_and_flags_a_reply_that_does_not_fit():
    case = fixture_case()
    case.additional_answers[0].answer = "It started three days ago; I'd been snoring a lot that week."
    rehearsal = rehearse(case)
    text = render_text(rehearsal)
    assert "Questions and replies" in text and "-> About a pack a day for thirty years. [smoking]" in text
    assert any(section == "body systems" for section, _ in battery(case))


def test_a_reply_that_may_not_fit_is_worth_a_look_not_a_thing_to_fix():
    """The exit status follows "To fix" (what nothing reaches); a reply whose fact may not fit its question
    is a judgement call, listed apart so a clean case is not shown with things to fix."""
    from medbench_tui.core.consultation.rehearsal import Asked, Rehearsal

    unfit = Asked("history", "Where exactly is it?", "It hurts.", ["onset"], fits=False)
    clean = Rehearsal("c1", [unfit], {}, {}, [], [], [])
    text = render_text(clean)
    assert clean.clean and "To fix:\n  nothing" in text
    assert "Worth a look (replies whose fact may not fit the question):\n  question 'Where exactly is it?'" in text

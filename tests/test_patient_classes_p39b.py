"""The follow-up classes of round 23 fixed (issue 33), on wording and topics of their own (not the
round's cases), with negative tests: a question whether a person knows, after the fact that says who knows; which of
the medicines is the one for something."""

from __future__ import annotations

from medbench_tui.core.simulators import intent
from tests.test_patient_round8_classes import patient

INTRO = "Doctor, my son says I've gone yellow and my skin itches."

LIVER = [
    {"id": "hepc", "topic": "hepatitis C", "keywords": ["hepatitis", "hep C", "other conditions"],
     "answer": "I was treated for hepatitis C ten years ago. Only my sister knows, not my son."},
    {"id": "son", "topic": "what my son says", "keywords": ["son", "family", "worried"],
     "answer": "My son says I've gone very yellow."},
    {"id": "meds", "topic": "medicines", "keywords": ["medicines", "tablets", "medication"],
     "answer": "I take omeprazole for my stomach and tamsulosin for my prostate."},
    {"id": "prostate", "topic": "waterworks", "keywords": ["waterworks", "urine", "prostate"],
     "answer": "I get up twice a night to wee, that's why the prostate tablet."},
]


# -- 1. whether a person knows, after the fact that says who knows ---------------------------------------------------

def test_whether_a_person_knows_is_the_fact_that_says_who_knows():
    for asked in ("does your son know?", "has your sister been told?", "have you told your son?"):
        sim = patient(LIVER, intro=INTRO)
        assert sim.answer("any other conditions?").facts == ["hepc"]
        assert sim.answer(asked).facts == ["hepc"], asked


def test_the_person_asked_of_something_else_leaves_the_topic():
    sim = patient(LIVER, intro=INTRO)
    sim.answer("any other conditions?")
    assert "hepc" not in sim.answer("does your son smoke?").facts
    sim = patient(LIVER, intro=INTRO)
    sim.answer("any other conditions?")
    assert sim.answer("how's your son?").facts == ["son"]


def test_knowing_asked_with_no_fact_that_says_who_knows_is_not_a_follow_up():
    sim = patient(LIVER, intro=INTRO)
    sim.answer("any medication?")
    assert "meds" not in sim.answer("does your son know?").facts  # the medicines say nothing of who knows


def test_who_a_question_asks_knows():
    assert intent.knowing_asked("does your wife know about the tablets?") == "wife"
    assert intent.knowing_asked("does your wife drink?") is None
    assert intent.says_who_knows("Only my sister knows, not my son.", "son")
    assert not intent.says_who_knows("My son says I've gone very yellow.", "son")


# -- 3. which of the medicines is the one for something --------------------------------------------------------------

def test_which_tablet_is_for_something_is_the_medicines_fact():
    sim = patient(LIVER, intro=INTRO)
    sim.answer("any medication?")
    assert sim.answer("how are your waterworks?").facts == ["prostate"]
    assert sim.answer("sorry, remind me which of your tablets is the one for your prostate?").facts == ["meds"]
    sim = patient(LIVER, intro=INTRO)
    assert sim.answer("which tablet is for your stomach?").facts == ["meds"]


def test_which_one_for_something_no_medicine_names_is_not_the_medicines():
    sim = patient(LIVER, intro=INTRO)
    assert "meds" not in sim.answer("which tablet is for your knees?").facts
    assert intent.which_one_is_for("which side is it on?") is None
    assert "meds" not in patient(LIVER, intro=INTRO).answer("which side is for the pain?").facts


# -- 4. when they were put on them, after two facts of which one tells the medicines ---------------------------------

JOINTS = [
    {"id": "ra", "topic": "rheumatoid arthritis", "keywords": ["arthritis", "other conditions", "joints"],
     "answer": "I've had rheumatoid arthritis for twelve years. It's well controlled now."},
    {"id": "ra_meds", "topic": "arthritis medicines", "keywords": ["methotrexate", "clinic", "hospital medicines"],
     "answer": "I take methotrexate once a week and folic acid from the rheumatology clinic. They switched me onto "
               "the methotrexate three years ago."},
    {"id": "meds", "topic": "medicines", "keywords": ["medicines", "tablets", "medication"],
     "answer": "Just the blood pressure tablet, amlodipine."},
]


def test_when_they_were_put_on_them_is_the_fact_that_says_when():
    for first in ("any other conditions? anything from a hospital clinic?",
                  "any other medication? any hospital medicines?"):
        for asked in ("when were you put on them?", "when did they switch you onto those?"):
            sim = patient(JOINTS, intro="Doctor, I've had a fever and a sore throat for two days.")
            assert "ra_meds" in sim.answer(first).facts
            assert sim.answer(asked).facts == ["ra_meds"], (first, asked)


def test_when_it_started_of_the_illness_is_not_the_medicines():
    sim = patient(JOINTS, intro="Doctor, I've had a fever and a sore throat for two days.")
    sim.answer("any other medication? any hospital medicines?")
    assert "ra_meds" not in sim.answer("when did the sore throat start?").facts

"""The follow-up classes of round 24 fixed (how old someone was at a time a fact just told; how long a
thing just told takes; the routine of getting out asked as a typical morning), each held on wording of its own on
other clinical topics, with negative tests."""

from __future__ import annotations

from medbench_tui.core.simulators import intent
from tests.test_patient_round8_classes import patient

FIRST_FIT = {"id": "first_fit", "topic": "earlier seizures", "keywords": ["before", "previous", "ever happened"],
             "answer": "I had a fit once when I was about nine, with a high fever. Nothing since."}
UNCLE = {"id": "uncle", "topic": "stroke in the family", "keywords": ["family", "stroke", "uncle", "died"],
         "answer": "My uncle died of a stroke at 52."}
DAD = {"id": "dad", "topic": "father's angina", "keywords": ["family", "dad", "father", "angina", "heart"],
       "answer": "Dad is 70 and has angina."}
DRESSING = {"id": "dressing", "topic": "getting dressed and washed",
            "keywords": ["dressing", "dressed", "washing", "routine", "leave the house", "morning"],
            "answer": "Getting dressed is a struggle with my stiff hands; it can take me an hour before I can leave "
                      "the house, and my husband does my buttons."}
JOB = {"id": "job", "topic": "work", "keywords": ["work", "job", "occupation"],
       "answer": "I'm a dental receptionist, three days a week."}
SYMPTOMS_START = {"id": "onset", "topic": "when the stiffness began",
                  "keywords": ["when", "start", "how long", "months"],
                  "answer": "The stiffness in my hands began about four months ago."}


def test_how_old_were_you_after_a_fact_of_an_age_then_is_of_that_fact():
    sim = patient([FIRST_FIT])
    assert "first_fit" in sim.answer("Has anything like this ever happened before?").facts
    reply = sim.answer("how old were you?")
    assert reply.facts == ["first_fit"] and "nine" in reply.text


def test_how_old_was_he_when_he_died_is_the_one_who_died_of_two_relatives():
    sim = patient([UNCLE, DAD])
    assert sim.answer("Any strokes or heart trouble in the family?").facts == ["uncle", "dad"]
    reply = sim.answer("how old was he then, when he died?")
    assert reply.facts == ["uncle"] and "52" in reply.text


def test_the_age_asked_now_is_no_age_then():
    assert intent.asks_age_then("how old were you?")
    assert intent.asks_age_then("and how old was he when he died?")
    assert not intent.asks_age_then("how old are you?")
    assert not intent.asks_age_then("how old is your sister?")
    # nothing told yet: no fact of an age then
    assert patient([DAD]).planner.aged_then("how old was she?") == []


def test_how_long_that_takes_is_of_the_thing_just_told_not_the_onset():
    sim = patient([DRESSING, JOB, SYMPTOMS_START])
    assert "dressing" in sim.answer("What's a typical morning like, getting out to work?").facts
    reply = sim.answer("how long does that take you?")
    assert reply.facts == ["dressing"] and "hour" in reply.text


def test_how_long_a_medicine_was_taken_is_no_time_it_takes():
    assert intent.asks_time_it_takes("how long does that take you?")
    assert intent.asks_time_it_takes("How long did it take to settle?")
    assert not intent.asks_time_it_takes("how long have you been taking it?")
    assert not intent.asks_time_it_takes("how long did you take it for?")
    assert not intent.asks_time_it_takes("how long does it take it to work")


def test_getting_out_to_work_is_the_routine_not_the_job():
    sim = patient([DRESSING, JOB, SYMPTOMS_START])
    assert sim.answer("What's your morning like, getting out to work?").facts == ["dressing"]
    # the job asked outright is still the job
    assert patient([DRESSING, JOB]).answer("What do you do for work?").facts == ["job"]

"""The failure classes of held-out round 14 fixed, each held on wording of its own."""

from __future__ import annotations

from medbench_tui.core.cases.model import Attachment
from medbench_tui.core.simulators import intent, voice
from medbench_tui.core.simulators.matcher import asks_all_of
from medbench_tui.core.vocabulary import read_vocabulary
from tests.test_patient_round8_classes import patient

# -- an attachment asked for indirectly ---------------------------------------------------------

XRAY = Attachment(id="xray", kind="image", title="Wrist X-ray (minor injuries unit)", description="No fracture.",
                  available="on_request", request_keywords=["x-ray", "xray", "film"])
SCAN = Attachment(id="scan", kind="lab_report", title="Old liver ultrasound", content="Fatty liver.",
                  available="on_request", request_keywords=["ultrasound", "previous scan", "old scan"])
PICTURE = Attachment(id="picture", kind="image", title="Photograph of the leg ulcer", description="A sloughy ulcer.",
                     available="on_request", request_keywords=["photo", "photograph", "picture"])


def shown(message: str, *attachments: Attachment) -> list[str]:
    return [a.id for a in intent.attachments_asked(list(attachments), message)]


def test_a_request_pointing_back_asks_for_what_the_question_before_it_named():
    assert shown("they x-rayed your wrist at the time, didn't they? could I see it?", XRAY) == ["xray"]
    assert shown("did they do an x-ray? can I see it please", XRAY) == ["xray"]
    assert shown("can I see it", XRAY) == []  # nothing named: nothing to point at


def test_the_doctor_asking_whether_the_practice_holds_a_record_asks_for_it():
    assert shown("do we have your old scan from the hospital?", SCAN) == ["scan"]
    assert shown("have we got the ultrasound they did last year?", SCAN) == ["scan"]
    assert shown("is there a picture of the ulcer on file?", PICTURE) == ["picture"]
    assert intent.kind_of("is there any swelling?") == "yesno"  # no place of records: a history question


def test_a_pointing_request_hands_over_what_was_named_and_answers_the_question_before_it():
    sim = patient([])
    reply = sim.answer("they did a chest film in the ambulance, didn't they? can I see it")
    assert "Chest radiograph" in reply.text and reply.facts == []


# -- thanks and sympathy are kind words -------------------------------------------------------


def test_thanks_for_something_done_asks_for_nothing_it_names():
    assert shown("Thanks for having the x-ray done.", XRAY) == []
    assert voice.acknowledges("thank you so much for coming in")
    sim = patient([])
    reply = sim.answer("Thanks for bringing the chest film. When did the cough begin?")
    assert "Chest radiograph" not in reply.text and reply.facts == ["onset"]


def test_sympathy_for_what_was_told_is_acknowledged_not_answered_with_a_fact():
    assert voice.acknowledges("that must have been really painful")
    assert voice.acknowledges("that must have been frightening, thank you for telling me")
    assert not voice.acknowledges("that must have been")
    sim = patient([])
    assert sim.answer("that must have been awful, thanks for explaining about the chest pain").facts == []


# -- a request to tell the names of something is a question of what they are --------------------


def test_asked_to_read_out_the_names_of_their_medicines_the_patient_tells_them():
    assert intent.kind_of(intent.understood("would you read me the names of your inhalers?")) == "open"
    for asked in ("would you read me the names of your tablets?", "could you give me the names of your medicines?"):
        reply = patient([]).answer(asked)
        assert reply.facts == ["medications"] and reply.kind != "cooperation", asked


def test_a_request_to_read_a_number_is_still_a_reading_to_give():
    assert intent.asks_for_sample("can you read me the number on the screen?")


# -- a follow-up asking how high or how often is of the number just told ----------------------------

EPISODES = {"id": "episodes", "topic": "the dizzy turns", "keywords": ["dizzy", "dizziness", "turns", "spinning"],
            "answer": "I get dizzy turns when I stand up, two or three times a week now."}
HOUSEHOLD = {"id": "household", "topic": "who lives with him", "keywords": ["home", "lives with"],
             "answer": "I live at home with my wife."}


def test_how_often_after_a_fact_that_says_how_often_is_that_fact():
    assert intent.says_how_often("I only manage to go every three days.")
    assert not intent.says_how_often("It started three days ago.")
    sim = patient([EPISODES])
    assert sim.answer("any dizziness?").facts == ["episodes"]
    assert sim.answer("how often?").facts == ["episodes"]


def test_how_high_after_a_reply_of_two_facts_is_the_one_that_gives_a_reading():
    sim = patient([HOUSEHOLD, {"id": "temp", "topic": "temperature", "keywords": ["temperature", "fever"],
                               "answer": "The thermometer said 38.4 this morning."}])
    assert set(sim.answer("any fever? who's at home with you?").facts) == {"temp", "household"}
    assert sim.answer("how high?").facts == ["temp"]


# -- a comparison with other people says how much, not who ------------------------------------------


HEAT = {"id": "heat", "topic": "heat intolerance", "keywords": ["heat", "hot", "sweaty"],
        "answer": "I can't stand the heat, I'm always opening windows."}
PEOPLE = {"id": "contacts", "topic": "unwell contacts", "keywords": ["anyone else", "other people"],
          "answer": "Nobody else is ill, the other people at work are fine."}


def test_more_than_other_people_is_a_comparison_not_a_subject():
    sim = patient([HEAT, PEOPLE])
    assert sim.answer("do you feel the heat more than other people?").facts == ["heat"]
    assert patient([HEAT, PEOPLE]).answer("are other people at work unwell?").facts == ["contacts"]


# -- all of a kind asked for: every fact that says it -----------------------------------------------

CHEMIST = {"id": "chemist", "topic": "things bought at the chemist", "keywords": ["chemist", "vitamins"],
           "answer": "I take some vitamin D tablets I buy at the chemist."}


def test_all_of_a_kind_is_every_fact_that_says_it_heard_or_not():
    assert set(patient([CHEMIST]).answer("tell me all the tablets you are on").facts) == {"medications", "chemist"}
    sim = patient([CHEMIST])
    assert sim.answer("any medication?").facts == ["medications"]
    assert set(sim.answer("tell me all the tablets you are on").facts) == {"medications", "chemist"}


def test_all_the_time_or_all_the_doses_asks_for_no_kind():
    assert not asks_all_of("do you take tablets all the time?")
    assert not asks_all_of("did you manage all the doses?")
    assert asks_all_of("can you list all your tablets?")


# -- a medicine the question names is what it asks about ------------------------------------------

INHALERS = {"id": "inhalers", "topic": "inhalers", "keywords": ["inhaler", "inhalers", "puffer"],
            "answer": "I use the blue one when I need it, and I started Clenil twice a day last month."}
CREAMS = {"id": "creams", "topic": "creams for the rash", "keywords": ["cream", "creams", "ointment"],
          "answer": "The GP gave me Betnovate for the worst patches, I began it on Monday."}


def test_skin_steroids_by_brand_are_medicines_of_the_vocabulary():
    for brand in ("Betnovate", "Dermovate", "Elocon", "Eumovate"):
        assert any(t.kind == "drug" for t in read_vocabulary().lookup(brand)), brand


def test_when_they_started_a_named_medicine_is_the_fact_that_names_it_not_the_illness():
    assert patient([INHALERS]).answer("when did you start the Clenil?").facts == ["inhalers"]
    assert patient([CREAMS]).answer("when did you start the Betnovate?").facts == ["creams"]
    assert patient([CREAMS]).answer("when did the cough start?").facts == ["onset"]

"""The failure classes of held-out rounds 9 to 12 fixed in round 14, each held on wording of its own."""

from __future__ import annotations

from medbench_tui.core.cases.model import Attachment
from medbench_tui.core.simulators import intent, voice
from medbench_tui.core.simulators.lexicon import units
from tests.test_patient_round8_classes import patient


def _ultrasound() -> Attachment:
    return Attachment(id="us", kind="image", title="Bedside ultrasound of the gallbladder (ED)",
                      description="Thick-walled gallbladder with stones.", available="on_request",
                      request_keywords=["ultrasound", "scan", "gallbladder scan", "USS"])


def _flatmates() -> list[dict[str, object]]:
    return [
        {"id": "location", "topic": "where he is calling from", "keywords": ["where are you", "at the moment",
                                                                             "calling from"],
         "answer": "I'm sat in the car outside work."},
        {"id": "contacts", "topic": "whether anybody he lives with is ill", "keywords": ["anyone else", "flatmates",
                                                                                       "ill"],
         "answer": "Both my flatmates have had the same cough."},
    ]


def test_a_time_frame_of_now_is_no_subject_a_fact_of_where_the_patient_is_answers():
    assert patient(_flatmates()).answer("is anyone else ill at the moment?").facts == ["contacts"]
    assert patient(_flatmates()).answer("is anyone else ill at present?").facts == ["contacts"]
    assert patient(_flatmates()).answer("where are you at the moment?").facts == ["location"]


def test_a_heard_fact_said_again_to_a_question_of_now_it_does_not_say_is_said_with_doubt():
    sim = patient([
        {"id": "heater", "topic": "the paraffin heater", "keywords": ["heater", "paraffin", "heating"],
         "answer": "We use a paraffin heater in the bedroom most nights."},
    ])
    assert sim.answer("what heating do you have?").facts == ["heater"]
    reply = sim.answer("is the paraffin heater running right now?")
    assert reply.confidence < 0.8


def test_a_test_of_one_kind_names_no_attachment_of_another_through_a_shared_word():
    scan = _ultrasound()
    assert intent.attachments_asked([scan], "can we get an MRI scan done?") == []
    assert intent.attachments_asked([scan], "we'll need a CT scan of your tummy.") == []
    assert intent.attachments_asked([scan], "can I see the scan?") == [scan]
    assert intent.attachments_asked([scan], "can I see the USS?") == [scan]
    assert intent.attachments_asked([scan], "could I see the CT or the ultrasound?") == [scan]


def test_a_test_kind_is_named_by_its_names_and_short_forms_never_by_a_small_word():
    assert intent.test_kinds("you'll need a CT scan") == {"computed tomography"}
    assert intent.test_kinds("any chest x-rays?") == {"x ray"}
    assert intent.test_kinds("can you tell us about the scan?") == frozenset()


def _morning_stiffness() -> list[dict[str, object]]:
    return [
        {"id": "stiffness", "topic": "when in the day the stiffness is worst", "keywords": ["morning", "wake",
                                                                                           "time of day"],
         "answer": "My hands are stiff as boards when I wake, it wears off by ten."},
    ]


def test_waking_alone_is_the_hour_one_gets_up_not_sleep():
    reply = patient(_morning_stiffness()).answer("how are you sleeping?")
    assert "stiffness" not in reply.facts


def test_waking_of_the_night_is_still_sleep():
    sim = patient([
        {"id": "sleep", "topic": "sleep", "keywords": ["sleep", "insomnia"],
         "answer": "I'm up three or four times a night with the itch."},
    ])
    assert sim.answer("does the itch wake you?").facts == ["sleep"]


def _nights() -> list[dict[str, object]]:
    return [
        {"id": "nights", "topic": "how she sleeps", "keywords": ["sleep", "sleeping", "nights"],
         "answer": "She's slept through every night this week."},
        {"id": "days", "topic": "tiredness in the daytime", "keywords": ["tired", "sleepy", "dozing"],
         "answer": "I keep dozing off at my desk in the daytime."},
    ]


def test_a_question_of_the_daytime_is_not_answered_by_a_fact_of_the_night_alone():
    assert "nights" not in patient(_nights()).answer("does she sleep much during the day?").facts
    assert patient(_nights()).answer("how is she sleeping?").facts == ["nights"]


def test_a_question_of_the_night_is_not_answered_by_a_fact_of_the_daytime_alone():
    assert "days" not in patient(_nights()).answer("are you sleepy at night?").facts


def _bruise_and_ache() -> list[dict[str, object]]:
    return [
        {"id": "ache", "topic": "where the ache is and where it goes", "keywords": ["where", "spread", "arm",
                                                                                  "shoulder", "goes"],
         "answer": "It's a dull ache in my shoulder that goes down my arm to the elbow."},
        {"id": "bruise", "topic": "bruising noticed", "keywords": ["bruise", "bruising", "marks"],
         "answer": "My daughter spotted a big purple bruise on my arm yesterday."},
    ]


def test_where_on_a_part_the_fact_just_told_says_is_of_that_fact():
    sim = patient(_bruise_and_ache())
    assert sim.answer("any bruising?").facts == ["bruise"]
    reply = sim.answer("which part of your arm?")
    assert reply.facts == ["bruise"] and reply.confidence == 1.0


def _spells() -> list[dict[str, object]]:
    return [
        {"id": "chest_pain", "topic": "the chest pain today", "keywords": ["chest pain", "chest", "pain", "tight"],
         "answer": "It's a tight pain in the middle of my chest since this morning."},
        {"id": "spells", "topic": "earlier fainting spells", "keywords": ["fainted before", "ever fainted", "previous",
                                                                         "blackouts before"],
         "answer": "I've fainted twice this year, both in hot churches. No chest pain with either of them."},
    ]


def test_what_came_with_what_was_just_said_is_of_that_fact_when_it_says_it():
    sim = patient(_spells())
    assert sim.answer("have you ever fainted before?").facts == ["spells"]
    assert sim.answer("any chest pain with those?").facts == ["spells"]


def test_how_often_or_how_much_of_a_medicine_only_one_fact_names_is_that_fact():
    facts = [
        {"id": "ward_meds", "topic": "medicines started on the ward", "keywords": ["new medicines", "sumatriptan",
                                                                                 "drug chart"],
         "answer": "They've given me sumatriptan when the headache comes, and some fluids."},
    ]
    assert patient(facts).answer("how often have they been giving you the sumatriptan?").facts == ["ward_meds"]
    assert patient(facts).answer("how much sumatriptan have you had?").facts == ["ward_meds"]


def test_otherwise_is_a_small_word_not_a_subject():
    assert [u.text for u in units("any heart trouble otherwise?")] == ["heart", "trouble"]
    facts = [
        {"id": "pmh", "topic": "past medical history", "keywords": ["medical history", "PMH", "conditions"],
         "answer": "Just an underactive thyroid, I take levothyroxine."},
    ]
    reply = patient(facts).answer("past medical history otherwise?")
    assert reply.facts == ["pmh"] and reply.confidence == 1.0


def test_how_many_courses_of_a_medicine_counts_the_episodes_treated_not_a_dose():
    facts = [
        {"id": "flares", "topic": "flares of colitis and their treatment", "keywords": ["flares", "prednisolone",
                                                                                     "steroids", "course"],
         "answer": "She's had three flares since Easter and a course of prednisolone for each."},
    ]
    assert patient(facts).answer("how many courses of steroids this year?").facts == ["flares"]


def test_asked_whether_they_have_questions_the_patient_thanks_never_says_no():
    sim = patient([])
    for asked in ("anything you'd like to ask me?", "right - do you have any questions?"):
        reply = sim.answer(asked)
        assert reply.facts == [] and any(reply.text.endswith(n) for n in voice.NO_QUESTIONS), asked
    assert intent.invites_questions("any questions about the inhaler before you go?")
    assert not intent.invites_questions("did the nurse answer your questions about the inhaler?")


def test_what_the_team_is_getting_is_the_doctor_saying_not_a_question():
    reply = patient([]).answer("we're getting the orthopaedic team to see you. any questions?")
    assert not reply.text.startswith("No") and "No." not in reply.text

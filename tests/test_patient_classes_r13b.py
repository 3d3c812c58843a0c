"""The failure classes of held-out round 12 fixed for round 13, each held on wording of its own:
a request that asks the patient to do something that yields an attachment releases it."""

from __future__ import annotations

from medbench_tui.core.simulators import intent, voice
from tests.test_consultation import CASE_DATA
from tests.test_patient_round8_classes import patient

PEAK_FLOW = {"id": "peak_flow", "kind": "document", "title": "Peak flow she blows at home while on the phone",
             "available": "on_request", "content": "Best of three: 240 L/min (her best is 420).",
             "request_keywords": ["readings", "peak flow meter", "blow into"]}
SNAPSHOT = {"id": "snapshot", "kind": "image", "title": "Picture he sends of the swollen ankle",
            "available": "on_request", "description": "A red, shiny, swollen left ankle.",
            "request_keywords": ["photo", "picture"]}
DIPSTICK = {"id": "dipstick", "kind": "lab_report", "title": "Urinalysis in clinic", "available": "on_request",
            "content": "Protein ++. Blood negative.", "request_keywords": ["urine sample", "urine test"]}


def _with(*attachments: dict) -> list[dict]:
    return [*CASE_DATA["attachments"], *attachments]


def test_asked_to_do_a_reading_the_patient_gives_the_readings_named_in_the_plural():
    sim = patient([], attachments=_with(PEAK_FLOW))
    reply = sim.answer("could you do a peak flow reading for me?")
    assert "Peak flow she blows at home" in reply.text and not voice.is_negative(reply.text)


def test_asked_to_send_a_picture_the_patient_sends_it():
    reply = patient([], attachments=_with(SNAPSHOT)).answer("would you email me a picture of your foot?")
    assert "Picture he sends of the swollen ankle" in reply.text


def test_a_sample_asked_for_in_lay_words_releases_the_test_of_it():
    reply = patient([], attachments=_with(DIPSTICK)).answer("can I have a pee sample to check?")
    assert "Urinalysis in clinic" in reply.text


def test_asked_whether_they_have_the_device_the_reading_answers_it():
    reply = patient([], attachments=_with(PEAK_FLOW)).answer(
        "do you have a peak flow meter handy? could you do a reading now?")
    assert reply.facts == [] and "Peak flow she blows at home" in reply.text
    assert not voice.is_negative(reply.text.split(".")[0])


def test_asked_for_something_the_record_does_not_hold_the_patient_neither_sends_nor_denies():
    reply = patient([]).answer("could you text me a photo of your chest?")
    assert "Chest radiograph" not in reply.text and not voice.is_negative(reply.text)


# -- a fact that shares one word with the question, and false denials ----------------------------

def test_a_condition_asked_by_its_adjective_is_the_condition():
    sim = patient([{"id": "history", "topic": "past illnesses", "keywords": ["asthma", "conditions"],
                    "answer": "No asthma, just hay fever in the summer."}])
    assert sim.answer("is he asthmatic?").facts == ["history"]


BUG_BEFORE = {"id": "bug", "topic": "illness in the fortnight before", "keywords": ["before", "bug", "diarrhoea"],
              "answer": "I had a tummy bug with diarrhoea a fortnight ago, it settled in two days."}


def test_whether_the_complaint_happened_before_is_not_another_illness_before_it():
    reply = patient([BUG_BEFORE]).answer("ever had a cough like that in the past?")
    assert "bug" not in reply.facts and "tummy bug" not in reply.text


def test_whether_the_complaint_happened_before_still_gets_an_earlier_episode():
    earlier = {"id": "earlier", "topic": "earlier episodes", "keywords": ["before", "previous"],
               "answer": "I had the same cough two winters ago."}
    assert patient([BUG_BEFORE, earlier]).answer("ever had a cough like that in the past?").facts == ["earlier"]


def test_where_the_patient_is_is_the_fact_whose_keyword_the_question_says_whole():
    sim = patient([
        {"id": "site", "topic": "where the cough hurts", "keywords": ["where", "site"],
         "answer": "The cough hurts low down on the right of my chest."},
        {"id": "place", "topic": "where he is calling from", "keywords": ["where are you", "calling from", "home"],
         "answer": "I'm sitting in my car outside work."},
    ])
    assert sim.answer("so where are you just now?").facts == ["place"]


def test_an_examination_after_the_patient_asked_which_is_no_choice():
    sim = patient([])
    sim.state.pending = ["smoking"]
    reply = sim.answer("Right, could I listen to your chest now?")
    assert "smoking" not in reply.facts


def test_just_to_check_again_asks_nothing_and_anybody_else_is_a_contact():
    assert intent.asks_again_aside("just to check again")
    sim = patient([{"id": "contacts", "topic": "unwell contacts", "keywords": ["anyone else", "contacts"],
                    "answer": "My wife has had the same cough since Monday."}])
    assert sim.answer("just to check again - is anybody else poorly?").facts == ["contacts"]


def test_a_fragment_naming_what_the_question_after_it_asks_of_is_its_subject():
    sim = patient([
        {"id": "bleeding", "topic": "bleeding and bruising", "keywords": ["bleeding", "blood", "bruising"],
         "answer": "No nosebleeds and I don't bruise easily."},
        {"id": "stools", "topic": "his stools", "keywords": ["poo", "stools", "colour of his poo", "blood in his poo"],
         "answer": "His poo is a normal brown, and there's no blood in it."},
    ])
    assert sim.answer("and his poo - any blood, or a change in colour?").facts == ["stools"]


# -- who is at home is people; two letters the wrong way round -----------------------------------

MEDS_FROM_HOME = {"id": "meds_home", "topic": "regular tablets from home", "keywords": ["at home", "usual tablets"],
                  "answer": "At home I take ramipril every morning."}


def test_who_is_at_home_is_never_the_medicines_from_home():
    reply = patient([MEDS_FROM_HOME]).answer("who else lives in the house with you?")
    assert "meds_home" not in reply.facts


def test_who_is_at_home_is_the_fact_that_names_the_people():
    household = {"id": "household", "topic": "who he lives with", "keywords": ["lives with"],
                 "answer": "My husband and our two kids."}
    assert patient([MEDS_FROM_HOME, household]).answer("and who's at home with you?").facts == ["household"]


def test_two_letters_typed_the_wrong_way_round_are_the_record_word():
    sim = patient([{"id": "tremor", "topic": "shaking", "keywords": ["tremor", "shaky"],
                    "answer": "My hands have been trembling since Tuesday."}])
    assert sim.answer("feeling shkay?").facts == ["tremor"]


# -- a part the record never names in one alternative of a list; a kind word ----------------------

def test_a_part_the_record_never_names_in_one_alternative_leaves_the_others_asked():
    reply = patient([]).answer("any SOB, headaches or sore ears?")
    assert "breathless" in reply.facts


def test_a_part_a_list_ends_in_is_where_every_alternative_is_asked():
    sim = patient([{"id": "numb", "topic": "numb skin", "keywords": ["numb", "tingling"],
                    "answer": "The skin over my ribs has gone numb and tingly."}])
    assert sim.answer("any tingling or numbness in your toes?").facts == []


def test_i_know_this_is_a_lot_is_a_kind_word_not_a_question():
    reply = patient([]).answer("I know this is a lot to take in.")
    assert reply.facts == [] and not voice.is_negative(reply.text)


def test_illnesses_are_the_illness_of_a_keyword_not_a_topic_that_writes_the_plural():
    sim = patient([
        {"id": "going_round", "topic": "illnesses going round at work", "keywords": ["work", "colleagues"],
         "answer": "A few people at work have had colds."},
        {"id": "own", "topic": "own illness in the weeks before", "keywords": ["illness", "ill"],
         "answer": "I had a chest cold three weeks ago."},
    ])
    assert sim.answer("any illnesses yourself before this?").facts == ["own"]


def test_the_fear_the_doctor_puts_to_the_patient_is_not_denied():
    reply = patient([]).answer("I expect you're worried it's a blood clot")
    assert reply.facts == [] and not voice.is_negative(reply.text)
    assert not intent.suspects("are you worried it's getting worse?")


def test_a_default_names_a_thing_or_nothing():
    """A default beside a fact names what the question asks about, never a stray phrase of its grammar."""
    assert voice.what_is_asked("any night sweats?") == "night sweats"
    assert voice.what_is_asked("any swelling in your legs?") == "swelling"
    for asked in ("been around any farm animals?", "anyone giving you grief?", "any pain going up the arm?"):
        assert voice.what_is_asked(asked) == "", asked

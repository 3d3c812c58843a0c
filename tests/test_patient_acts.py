"""The grounded patient reads what the doctor does, not only what the doctor asks (scoring.md,
"The consultation"): an instruction for the examination, consent asked after an examination,
a list of what to look at after a request, "since when?" and "what do you think it is?" get
cooperation, the attachment, the fact of the topic, or the uncertain default; never the last
fact told again."""

from __future__ import annotations

import pytest

from medbench_tui.core.simulators import intent, voice
from medbench_tui.core.simulators.base import SURE
from medbench_tui.core.simulators.lexicon import sentences
from tests.test_patient_conversation import bundled
from tests.test_patient_weak_matches import patient


@pytest.mark.parametrize("question", [
    "Could you lie back on the couch for me?",
    "Can you pop her up on the bed?",
    "ok, can you take off your shirt?",
    "Would you take a deep breath in?",
    "Please sit forward.",
])
def test_an_instruction_for_the_examination_is_no_question(question):
    assert intent.kind_of(question) == "instruction"


@pytest.mark.parametrize("question", ["Can you feel it when I press?", "Can you take the tablets with food?",
                                      "Could you sit still for long before the pain came?"])
def test_a_question_that_starts_like_an_instruction_stays_a_question(question):
    assert intent.kind_of(question) != "instruction"


def test_an_instruction_gets_cooperation_and_no_fact():
    sim = patient()
    sim.answer("Any phlegm?")
    reply = sim.answer("Right, I want to examine you - could you take your shirt off for me?")
    assert reply.facts == []
    assert reply.kind == "hand_over"  # the triage observations are part of the examination
    sim = patient()
    reply = sim.answer("Can you roll over onto your side?")
    assert reply.facts == [] and reply.text in voice.COOPERATE


def test_consent_after_an_examination_is_not_about_the_last_fact():
    sim = patient()
    sim.answer("Do you smoke?")
    reply = sim.answer("I'll have a listen to your chest now, is that alright?")
    assert reply.facts == [] and reply.text in voice.COOPERATE  # the triage observations hold no chest findings
    reply = sim.answer("I'll examine you now, is that alright?")
    assert reply.facts == [] and "Triage observations" in reply.text


def test_what_to_look_at_after_a_request_is_part_of_it():
    sim = patient()
    sim.answer("Are you taking any medicines?")
    reply = sim.answer("Could I have a look at your obs - the temperature and heart rate?")
    assert reply.facts == [] and "Triage observations" in reply.text
    assert not any(text in reply.text for text in voice.DEFAULT_ANSWERS["negative"])


@pytest.mark.parametrize("question", [
    "What do you think it is?", "Is this what you thought it might be?", "what does she think it could be?",
])
def test_asking_what_the_patient_thinks_it_is_asks_for_a_diagnosis(question):
    assert intent.kind_of(question) == "diagnosis"


def test_what_the_patient_thinks_it_is_gets_the_uncertain_default_after_a_fact():
    sim = patient()
    sim.answer("Do you get short of breath?")
    reply = sim.answer("Has anybody said it might be pneumonia? Is that what you think it is?")
    assert reply.facts == [] and reply.text in voice.DIAGNOSIS_UNSURE


def test_since_when_is_a_follow_up_of_the_topic():
    assert intent.kind_of("since when") == "open"
    sim = patient()
    assert sim.answer("The paracetamol - since when, and how often?").facts == ["medications"]


SKIN = [{"id": "skin", "topic": "skin rash", "keywords": ["rash", "eczema", "spots"],
         "answer": "No rash, my skin's fine."}]


def test_the_later_alternatives_of_a_list_are_of_what_the_first_is_of():
    # "of diabetes or eczema" in the family: the patient's own skin is not asked about
    sim = patient(SKIN)
    reply = sim.answer("Any history in the family of diabetes or eczema?")
    assert reply.facts == [] and reply.text in voice.DEFAULT_ANSWERS["negative"]
    assert patient(SKIN).answer("Any eczema or spots?").facts == ["skin"]


def test_an_alternative_that_asks_on_its_own_keeps_its_own_subject():
    reply = patient(SKIN).answer("Any tightness in your chest or any spots?")
    assert "skin" in reply.facts


def test_an_allergy_to_something_asks_for_the_allergies_not_the_something():
    for question in ("Are you allergic to any tablets?", "Any allergy to antibiotics?",
                     "Allergies to meds or anything else?"):
        assert patient().answer(question).facts == ["allergies"], question
    assert patient().answer("What medicines are you on?").facts == ["medications"]


VIEWS = [
    {"id": "insight", "topic": "her view of the illness", "keywords": ["thinks", "insight"],
     "answer": "She says there's nothing the matter with her and she won't see a doctor."},
    {"id": "own_view", "topic": "his own worries", "keywords": ["worried", "what do you think"],
     "answer": "Honestly, I'm frightened she'll end up in hospital again."},
]


def test_a_small_word_said_as_a_keyword_names_the_fact():
    sim = patient(VIEWS, informant="partner")
    assert sim.answer("Does she think there's anything the matter with her?").facts == ["insight"]
    fresh = patient(VIEWS, informant="partner")
    # without "think" it does not name her view; her view's story says it, so it is told with doubt, never "No"
    unsure = fresh.answer("Is there anything the matter with her?")
    assert unsure.confidence < SURE and any(unsure.text.startswith(h) for h in voice.HEDGE)


def test_what_someone_makes_of_it_is_what_they_think():
    assert intent.understood("What did your husband make of that?") == "What did your husband think of that?"
    sim = patient(VIEWS, informant="partner")
    sim.answer("Any phlegm?")
    assert sim.answer("And what do you make of all this?").facts == ["own_view"]  # not the phlegm again
    assert sim.answer("how much of it?").facts == ["own_view"]  # a bare fragment still follows the topic


def test_a_lead_in_names_the_topic_and_the_question_after_it_asks():
    reply = patient().answer("Tell me a bit about the breathing - does it stop you doing the stairs?")
    assert reply.facts == ["breathless"]
    reply = patient().answer("Tell me about the phlegm - how long have you had it?")
    assert reply.facts == ["onset"]
    assert patient().answer("Tell me about the phlegm.").facts == ["sputum"]  # on its own it asks


HEALTH = [
    {"id": "health", "topic": "general health", "keywords": ["diabetes", "thyroid", "healthy", "conditions"],
     "answer": "I'm healthy apart from my blood pressure."},
    {"id": "scans", "topic": "scans and x-rays in the past", "keywords": ["scans", "scanned"],
     "answer": "I had a scan of my kidneys two years ago, it was clear."},
]


def test_a_fact_only_an_example_names_is_not_asked_for():
    sim = patient(HEALTH)
    assert sim.answer("Have you had any scans, of your thyroid for example?").facts == ["scans"]
    reply = patient(HEALTH).answer("Any blood tests lately, for example for your thyroid?")
    assert reply.facts == [] and reply.text in voice.DEFAULT_ANSWERS["negative"]


def test_examples_of_something_the_record_does_not_know_still_reach_their_fact():
    assert patient(HEALTH).answer("Anything else, like diabetes or thyroid trouble?").facts == ["health"]
    assert patient(HEALTH).answer("Been seen in any clinics, say for diabetes?").facts == ["health"]


def test_one_examination_message_gets_one_yes_and_one_hand_over():
    reply = patient().answer("Let me examine you - could you lie back for me? I'll take your pulse and temperature.")
    assert reply.text.count("Triage observations") == 1
    assert sum(reply.text.count(text) for text in voice.COOPERATE) == 1


SELF = [
    {"id": "in_himself", "topic": "how he is in himself", "keywords": ["playing", "alert"],
     "answer": "He's not his usual self, he just wants to lie on the sofa."},
    {"id": "schemes", "topic": "his schemes", "keywords": ["plans", "ideas", "schemes"],
     "answer": "He's full of schemes to get rich quick."},
]


def test_himself_is_how_he_is_only_when_said_of_how_he_is():
    assert patient(SELF).answer("Is he himself at the moment?").facts == ["in_himself"]
    assert patient(SELF).answer("Would you say he's not himself?").facts == ["in_himself"]
    assert patient(SELF).answer("Has he got any grand plans or ideas about himself?").facts == ["schemes"]
    assert patient(SELF).answer("Does he say odd things about himself?").facts == []  # not how he is in himself


def test_an_alternative_that_says_what_it_is_of_keeps_its_own_head():
    sim = patient(SKIN)
    assert "skin" in sim.answer("Any change in your breathing, or a rash in your armpits?").facts


def test_asking_again_in_other_words_after_a_hand_over_asks_for_what_was_handed_over():
    sim = patient()
    sim.answer("Do you smoke?")
    reply = sim.answer("I'd like to see your chest x-ray - has it come back yet? Could I look at it?")
    assert reply.facts == [] and reply.kind == "hand_over"
    assert reply.text == "Here you are: Chest radiograph, PA view."


@pytest.mark.parametrize("question", [
    "Are you afraid it might be something serious?",
    "So you reckon you may have pneumonia, do you?",
    "Do you think he could have an infection?",
])
def test_a_leading_question_of_what_the_patient_suspects_gets_uncertainty_not_a_no(question):
    reply = patient().answer(question)
    assert reply.facts == [] and reply.text in voice.DIAGNOSIS_UNSURE


def test_a_fact_that_says_what_the_patient_fears_answers_a_leading_question():
    fears = [{"id": "fears", "topic": "what he fears", "keywords": ["worried", "frightened", "cancer"],
              "answer": "I'm frightened it's cancer, my dad had it in his lungs."}]
    assert patient(fears).answer("Are you worried this could be cancer?").facts == ["fears"]


EXAMINED = {"id": "exam", "kind": "document", "title": "Observations and chest examination", "available": "on_request",
            "content": "Temp 38.9 C. Bronchial breathing right base."}


def test_an_examination_of_a_part_of_the_body_hands_over_only_a_record_of_an_examination():
    reply = patient().answer("Could I feel your tummy and listen to your heart?")
    assert reply.facts == [] and reply.text in voice.COOPERATE  # the triage observations hold no such findings
    assert "Triage observations" in patient().answer("Can I check your pulse and listen to your heart?").text
    from tests.test_consultation import CASE_DATA

    sim = patient(attachments=[*CASE_DATA["attachments"], EXAMINED])
    reply = sim.answer("Could I feel your tummy and listen to your heart?")
    assert "Observations and chest examination" in reply.text and "Triage observations" not in reply.text


@pytest.mark.parametrize(("question", "choice"), [
    ("Is it there all the time or only now and then?", True),
    ("is that worse in the mornings or the evenings?", True),
    ("Does it come and go or is it constant?", True),
    ("Are they on both sides or just one?", True),
    ("Any headache or neck stiffness?", False),  # one yes/no question of two things
    ("Do you have a cough or a fever?", False),
    ("Is it getting worse or not?", False),
    ("Has it lasted a day or two?", False),
])
def test_a_question_offering_alternatives_is_told_apart_from_a_yes_no_question(question, choice):
    assert intent.offers_choice(question) is choice


def test_alternatives_the_record_does_not_settle_get_uncertainty_not_a_no():
    sim = patient()
    reply = sim.answer("Is it worse first thing in the morning or later in the day?")
    assert reply.facts == [] and reply.text in voice.DEFAULT_ANSWERS["uncertain"]
    assert sim.answer("Any nosebleeds?").text in voice.DEFAULT_ANSWERS["negative"]  # the case's default stays


@pytest.mark.parametrize(("case_id", "message"), [
    ("obg-ectopic-001", "could the nurse redo her obs?"),
    ("obg-ectopic-001", "can someone recheck her pulse and BP"),
    ("ped-intussusception-001", "can we get a fresh set of obs on him pls"),
    ("ped-intussusception-001", "could the HCA re-check his HR, RR and sats"),
    ("im-t2dm-001", "let's repeat his BP"),
])
def test_observations_asked_of_someone_else_or_again_are_handed_over(case_id, message):
    reply = bundled(case_id).answer(message)
    assert reply.kind == "hand_over" and "Observations and examination" in reply.text, message
    assert not any(voice.is_negative(s) for s in sentences(reply.text)), message


def test_a_question_about_observations_taken_before_is_still_history():
    sim = bundled("im-t2dm-001")
    reply = sim.answer("has anyone checked your BP before?")
    assert reply.kind != "hand_over" and "Observations" not in reply.text
    assert intent.kind_of(intent.understood("do you take BP tablets?")) == "yesno"


def test_a_list_of_observations_after_a_request_asks_nothing_of_its_own():
    sim = bundled("obg-ectopic-001")
    assert sim.answer("I'd like to examine you now").kind == "hand_over"
    for message in ("can I have her obs again - BP, pulse, temp", "could we repeat the obs; sats, RR and HR?"):
        reply = sim.answer(message)
        assert "Here it is again: Observations and examination." in reply.text, message
        assert reply.facts == [] and not any(voice.is_negative(s) for s in sentences(reply.text)), message
    # a question after the request is still asked, and answered from the record
    assert bundled("ped-intussusception-001").answer("I'll check his obs - has he had a temp?").facts == ["fever"]


@pytest.mark.parametrize(("case_id", "message"), [
    ("ped-bronchiolitis-001", "HR and sats?"),
    ("ped-bronchiolitis-001", "can we pop him on the sats monitor?"),
    ("em-pe-001", "BP and sats pls"),
])
def test_observations_named_alone_or_a_monitor_are_an_examination(case_id, message):
    reply = bundled(case_id).answer(message)
    assert reply.kind == "hand_over" and not any(voice.is_negative(s) for s in sentences(reply.text)), message


def test_a_temperature_alone_may_be_asked_of_a_fever():
    assert bundled("ped-bronchiolitis-001").answer("temp?").facts == ["fever"]
    assert bundled("ped-bronchiolitis-001").answer("is he on any monitor at home?").kind == "default"

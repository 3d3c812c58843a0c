"""Round 22's patient classes fixed (issue 33), each held on wording of its own on other topics."""

from __future__ import annotations

from medbench_tui.core.cases.model import Attachment
from medbench_tui.core.simulators import intent
from medbench_tui.core.simulators.lexicon import sentences
from medbench_tui.core.simulators.voice import is_default_answer, is_default_for
from tests.test_patient_round8_classes import patient

# -- a compound question with a covered and an uncovered part: the fact, and the default for the rest ----------

KNEE = {"id": "knee", "topic": "knee pain", "keywords": ["knee", "knees", "leg", "calf", "shin"],
        "answer": "My right knee has ached for six weeks, worse going down stairs."}
FAMILY = {"id": "family", "topic": "family history", "keywords": ["family", "mum", "dad", "gran", "relatives"],
          "answer": "Mum has type 2 diabetes. My gran had an underactive thyroid."}
HOME = {"id": "home", "topic": "home and surroundings", "keywords": ["home", "house", "pets", "smokers", "wood burner"],
        "answer": "It's a terraced house. We've got a cat, and nobody smokes."}


def _defaults(text: str) -> list[str]:
    return [s for s in sentences(text) if is_default_for(s)]


def test_a_part_of_the_body_said_only_by_a_keyword_gets_its_default_beside_the_fact():
    reply = patient([KNEE]).answer("Any knee pain or pain in your calf?")
    assert reply.facts == ["knee"]
    assert any("calf" in s for s in _defaults(reply.text))
    assert "your calf" not in reply.text  # the patient's own words: "my calf"


def test_a_part_the_answer_says_gets_no_default():
    reply = patient([KNEE]).answer("Any knee pain or aching in your knee?")
    assert reply.facts == ["knee"] and not _defaults(reply.text)


def test_a_family_history_list_carries_its_lead_and_the_unsaid_illness_gets_its_default():
    reply = patient([FAMILY]).answer("Any FHx of diabetes, thyroid trouble or heart disease?")
    assert reply.facts == ["family"]
    assert any("heart disease in the family" in s for s in _defaults(reply.text))


def test_a_family_history_list_the_fact_says_whole_gets_no_default():
    reply = patient([FAMILY]).answer("Any family history of diabetes or thyroid problems?")
    assert reply.facts == ["family"] and not _defaults(reply.text)


def test_a_fragment_after_the_list_said_only_by_a_keyword_gets_its_default():
    reply = patient([HOME]).answer("Any pets or smokers at home? wood burner?")
    assert reply.facts == ["home"]
    assert any("wood burner" in s for s in _defaults(reply.text))


def test_a_fragment_the_answer_says_adds_nothing():
    reply = patient([HOME]).answer("Any pets at home? a cat?")
    assert reply.facts == ["home"] and not _defaults(reply.text)


# -- an aspect of a recorded thing the record does not give: the default, not the fact again ----------------------

MEDS = {"id": "meds", "topic": "regular medicines", "keywords": ["medicines", "tablets", "metformin", "simvastatin"],
        "answer": "Metformin 500 mg twice a day for my diabetes. Simvastatin 40 mg every night. "
                  "Lansoprazole for my stomach."}
JUICE = {"id": "juice", "topic": "what he drinks", "keywords": ["drinks", "juice", "squash"],
         "answer": "He has a lot of apple juice, maybe a litre a day."}
COLIC = {"id": "colic", "topic": "the tummy pains", "keywords": ["tummy", "pain", "cramps"],
         "answer": "He gets cramps in his tummy most afternoons, worse after lunch."}


def test_a_time_of_day_the_heard_medicines_do_not_give_of_that_medicine_gets_the_default():
    sim = patient([MEDS])
    assert sim.answer("what do you take for your diabetes?").facts == ["meds"]
    reply = sim.answer("Do you take the lansoprazole before brekkie?")
    assert reply.facts == [] and is_default_answer(reply.text) and not reply.text.startswith("No")


def test_a_time_of_day_the_medicine_s_own_sentence_gives_is_the_fact_again():
    sim = patient([MEDS])
    sim.answer("what do you take for your diabetes?")
    assert sim.answer("Do you take the simvastatin at night?").facts == ["meds"]


def test_what_makes_it_worse_the_heard_fact_does_not_say_gets_the_default():
    sim = patient([JUICE])
    assert sim.answer("how much juice does he have?").facts == ["juice"]
    assert sim.answer("Does the juice seem to make his tummy worse?").facts == []


def test_what_makes_it_worse_the_heard_fact_says_is_the_fact_again():
    sim = patient([JUICE, COLIC])
    sim.answer("tell me about the tummy pains")
    assert sim.answer("do the cramps get worse after lunch?").facts == ["colic"]


# -- two attachments in one request; a test asked of with another named as when it was done ---------------------

ECHO = Attachment(id="echo", kind="document", title="Echocardiogram report (2021)", available="on_request",
                  content="Mild LV impairment.", request_keywords=["echo", "echocardiogram", "heart scan"])
LIVER_US = Attachment(id="liver_us", kind="document", title="Liver ultrasound report", available="on_request",
                      content="Fatty liver.", request_keywords=["liver ultrasound", "ultrasound", "liver scan"])
LFTS = Attachment(id="lfts", kind="lab_report", title="Liver function tests", available="on_request",
                  content="ALT 88 U/L.", request_keywords=["LFTs", "liver tests", "bloods"])
FERRITIN = Attachment(id="ferritin", kind="lab_report", title="Ferritin and iron studies", available="on_request",
                      content="Ferritin 950 ug/L; transferrin saturation 62%.",
                      request_keywords=["ferritin", "iron studies", "iron"])


def shown(message: str, *attachments: Attachment) -> list[str]:
    return [a.id for a in intent.attachments_asked(list(attachments), message)]


def test_two_attachments_named_in_one_request_are_both_handed_over():
    assert set(shown("Could I see the echo from after the heart attack, and the liver USS from last year?",
                     ECHO, LIVER_US, LFTS)) == {"echo", "liver_us"}
    assert set(shown("can I see the echo from the cardiology clinic and the liver ultrasound please",
                     ECHO, LIVER_US, LFTS)) == {"echo", "liver_us"}


def test_where_a_result_came_from_is_still_no_second_request():
    assert shown("can I see the liver ultrasound from the hospital", ECHO, LIVER_US, LFTS) == ["liver_us"]


def test_a_test_asked_of_with_another_named_as_its_time_hands_over_its_report_only():
    assert shown("Did they check a ferritin and iron studies with the second LFTs?", LFTS, FERRITIN) == ["ferritin"]
    assert set(shown("Did they check a ferritin and the LFTs?", LFTS, FERRITIN)) == {"ferritin", "lfts"}

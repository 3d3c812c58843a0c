"""The grounded patient reaches the facts a standard question asks for (scoring.md, "The
consultation"): a keyword made only of small words said whole, a body part's state asked with
"all right?" (no diagnosis question), and the clinical concepts of a risk assessment and a
sexual or behavioural history."""

from __future__ import annotations

import pytest

from medbench_tui.core.simulators import GroundedSimulator, intent
from tests.test_patient_weak_matches import patient as patient_with

FACTS = [
    {"id": "aware", "topic": "whether her husband knows she came", "keywords": ["know you're here", "come in"],
     "answer": "He knows I've come. He said he'd come in himself if you wanted."},
    {"id": "other_side", "topic": "the left leg", "keywords": ["other leg", "left leg"],
     "answer": "The left leg is fine, no swelling at all."},
    {"id": "means", "topic": "access to means", "keywords": ["firearms", "tablets at home"],
     "answer": "There's a packet of paracetamol in the drawer, nothing else."},
    {"id": "erections", "topic": "erectile function", "keywords": ["erection", "impotence"],
     "answer": "Things haven't worked as well as they used to in that department."},
    {"id": "conduct", "topic": "behaviour with others", "keywords": ["behaviour", "strangers"],
     "answer": "He's been chatting up strangers on the bus, which isn't like him at all."},
]


def patient() -> GroundedSimulator:
    return patient_with(FACTS)


@pytest.mark.parametrize(
    ("question", "fact"),
    [
        ("Does your husband know you're here?", "aware"),  # no content word: the keyword said whole
        ("Is the other leg all right?", "other_side"),
        ("Is there anything at home you could use to harm yourself?", "means"),
        ("Any sexual difficulties?", "erections"),
        ("Has he done anything out of character lately?", "conduct"),
    ],
)
def test_a_standard_question_reaches_its_fact(question, fact):
    assert fact in patient().answer(question).facts


def test_all_right_asks_how_a_part_is_and_a_tag_right_asks_to_confirm():
    assert intent.kind_of("Is the other leg all right?") == "yesno"
    assert intent.kind_of("It's a clot, right?") == "diagnosis"


def test_small_words_alone_reach_nothing_they_do_not_say_whole():
    assert patient().answer("Is he here?").facts == []


@pytest.mark.parametrize(
    ("question", "expanded"),
    [("Any IMB or PCB?", "bleeding between periods"), ("Any PMB?", "bleeding after the menopause")],
)
def test_gynaecological_shorthand_is_understood(question, expanded):
    assert expanded in intent.understood(question)


def test_a_comparative_is_its_adjective():
    from medbench_tui.core.text import stem

    assert stem("thirstier") == stem("thirsty") and stem("hungrier") == stem("hungry")


@pytest.mark.parametrize(
    "message", ["Could you do a urine sample so we can dip it?", "Do a pregnancy test please", "Get some bloods."]
)
def test_asking_for_a_sample_or_a_test_is_a_request(message):
    assert intent.kind_of(message) == "request"


def test_a_sample_asked_for_is_given_without_a_history_fact():
    reply = patient().answer("Could you give me a urine sample?")
    assert reply.kind == "cooperation" and reply.facts == []


def test_a_diagnosis_part_makes_the_shared_default_uncertain():
    reply = patient().answer("Has anyone ever mentioned gout to you? Could it be that?")
    assert reply.facts == [] and not reply.text.startswith("No")


def test_which_side_stays_with_the_fact_that_names_the_side():
    facts = [*FACTS, {"id": "calf", "topic": "the calf", "keywords": ["calf", "leg"],
                      "answer": "My left calf has been sore and swollen since the flight."},
             {"id": "chest", "topic": "the chest pain", "keywords": ["chest pain", "side"],
              "answer": "The chest pain is on the right side when I breathe in."}]
    sim = patient_with(facts)
    assert sim.answer("Any calf pain? Which side?").facts == ["calf"]

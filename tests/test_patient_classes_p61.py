"""The failure classes of round 26 fixed (issue 33): a bare look ("can I have a look?") after a question
that named a thing to be shown is a look at that thing, no examination and no findings handed over unasked; and a
question that asks the patient to help with an examination the doctor announces ("can you sit her on your lap?") is
agreed to, never refused. Held on wording and topics of their own, with negative tests: a bare look after a question
that names nothing to be shown is still the examination, and a question of the history after an examination still
gets its fact or its "No"."""

from __future__ import annotations

from medbench_tui.core.cases.model import Attachment, patient_record
from medbench_tui.core.simulators import GroundedSimulator, intent
from tests.test_consultation import CASE_DATA, fixture_case

ATTACHMENTS = [
    Attachment.model_validate(a) for a in [
        {"id": "rash_photo", "kind": "image", "title": "Photo of the rash on the forearm", "available": "on_request",
         "description": "A ring-shaped red patch with a paler centre.", "request_keywords": ["photo", "picture"]},
        {"id": "skin_exam", "kind": "document", "title": "Skin examination", "available": "on_request",
         "content": "Annular erythematous plaque 4 cm, scaly edge.", "request_keywords": ["examination", "examine"]},
        {"id": "obs", "kind": "document", "title": "Observations and general examination", "available": "on_request",
         "content": "Temp 36.8, HR 80, well."},
    ]
]
RASH = {"id": "rash", "topic": "the rash on the arm", "keywords": ["rash", "patch", "ring"],
        "answer": "It's a round red patch on my forearm, about the size of a coin, and it's slowly getting bigger."}


def asked(message: str) -> list[str]:
    return [a.id for a in intent.attachments_asked(ATTACHMENTS, message)]


def simulator(**changes) -> GroundedSimulator:
    data = {"additional_answers": [*CASE_DATA["additional_answers"], RASH],
            "attachments": [a.model_dump(mode="json", exclude_none=True) for a in ATTACHMENTS], **changes}
    return GroundedSimulator(patient_record(fixture_case(**data)))


# -- E: a bare look after a thing named to be shown ----------------------------------------------------------

def test_a_bare_look_after_a_photo_asked_for_is_the_photo():
    assert asked("Did you take a picture of it when it first came up? Can I have a look?") == ["rash_photo"]
    assert asked("Have you got the photo with you? Let me have a look.") == ["rash_photo"]
    assert intent.looks_at_what_was_named("Could I take a look?")


def test_the_reply_hands_the_photo_over_once_and_no_examination():
    reply = simulator().answer("Have you still got that photo on your phone? Can I have a look?")
    assert reply.text.count("Photo of the rash") == 1
    assert "Skin examination" not in reply.text and "Observations" not in reply.text


def test_a_bare_look_after_a_question_of_the_history_is_still_the_examination():
    # negative: nothing to be shown was named, so the look is the examination
    assert "rash_photo" not in asked("Is it itchy at all? Can I have a look?")
    assert asked("Is it itchy at all? Can I have a look?") != []
    assert not intent.looks_at_what_was_named("Can I have a look at your arm?")  # a part of the body is examined


# -- F: help with an examination the doctor announces is agreed to ---------------------------------------------

def refuses(text: str) -> bool:
    return any(s.strip().lower().startswith("no") for s in text.split(".")) or "no," in text.lower()


def test_help_with_an_announced_examination_is_agreed_to():
    reply = simulator().answer("I'd like to look in her ears now. Can you keep her head still against your chest?")
    assert not refuses(reply.text) and "Skin examination" in reply.text
    reply = simulator().answer("I'm going to check your blood pressure. Could you rest your arm on the table?")
    assert not refuses(reply.text)


def test_a_history_question_after_an_examination_still_gets_its_answer():
    # negative: a question the record answers is no help with the examination
    reply = simulator().answer("I'm going to look in your throat. Can you tell me how much you smoke?")
    assert reply.facts == ["smoking"]
    reply = simulator().answer("I'm going to look in your throat. Can you cough up any phlegm for me?")
    assert reply.facts == ["sputum"]
    # negative: with no examination before it, a "can you ...?" the record does not answer is no agreement
    reply = simulator().answer("Can you keep her head still against your chest?")
    assert reply.kind != "cooperation"

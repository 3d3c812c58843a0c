"""The failure classes of held-out round 14 fixed for brief p17, each held on wording of its own."""

from __future__ import annotations

from medbench_tui.core.cases.model import Attachment
from medbench_tui.core.simulators import intent, voice
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

"""The failure classes of held-out round 12 fixed for round 13 (brief p12), each held on wording of its own:
a request that asks the patient to do something that yields an attachment releases it."""

from __future__ import annotations

from medbench_tui.core.simulators import voice
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

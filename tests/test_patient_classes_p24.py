"""The failure classes of held-out round 16 fixed (issue 33), each held on wording and topics of its
own (not the round's cases): a request for an attachment put as a question whether it was done, a reminder of
observations already given, and a request made so the doctor can see the patient."""

from __future__ import annotations

from medbench_tui.core.cases.model import Attachment
from medbench_tui.core.simulators import intent
from tests.test_patient_round8_classes import patient

DIP = Attachment(id="dip", kind="lab_report", title="Urine dipstick, practice nurse, Monday",
                 content="Leucocytes ++, nitrites positive, blood +.", available="on_request",
                 request_keywords=["urine dip", "dipstick", "urine test"])
SCAN = Attachment(id="scan", kind="document", title="Renal ultrasound report last month",
                  content="Both kidneys normal size, no hydronephrosis.", available="on_request",
                  request_keywords=["ultrasound", "scan", "kidney scan"])
BLOODS = Attachment(id="bloods", kind="lab_report", title="Blood tests at the diabetes review",
                    content="HbA1c 58, eGFR 61.", available="on_request",
                    request_keywords=["bloods", "blood tests", "HbA1c", "kidney function"])
OBS = Attachment(id="obs", kind="document", title="Triage observations", content="BP 128/76, pulse 88, temp 38.1.",
                 available="at_start", request_keywords=["obs", "observations", "BP", "blood pressure", "temperature"])
POSTURAL = Attachment(id="postural", kind="document", title="Postural blood pressure, district nurse visit",
                      content="Lying 150/80, standing 118/70.", available="on_request",
                      request_keywords=["postural blood pressure", "postural BP", "lying and standing"])
CAMERA = Attachment(id="camera", kind="document", title="Video call observations",
                    content="Drooping left face, speech slurred.", available="on_request",
                    request_keywords=["video", "camera", "see her", "look at her"])
ALL = [DIP, SCAN, BLOODS, OBS, POSTURAL, CAMERA]


def shown(message: str, *attachments: Attachment) -> list[str]:
    return [a.id for a in intent.attachments_asked(list(attachments) or ALL, message)]


def test_a_question_whether_someone_else_did_a_test_asks_for_it():
    assert shown("did the practice nurse do a urine dip on Monday?") == ["dip"]
    assert shown("has your GP sent you for a kidney scan?") == ["scan"]


def test_any_recent_tests_asks_for_them():
    assert shown("any recent bloods? HbA1c?") == ["bloods"]
    assert shown("any recent ultrasound of the kidneys?", SCAN) == ["scan"]


def test_a_reminder_of_observations_already_given_hands_them_again():
    assert shown("sorry, remind me of the obs from triage") == ["obs"]


def test_the_attachment_named_by_the_longest_phrase_not_one_that_shares_bp():
    assert shown("did the district nurse do a lying and standing BP?") == ["postural"]


def test_a_request_so_the_doctor_can_see_the_patient_is_an_examination():
    assert intent.kind_of("could you turn the camera on so I can see her?") == "examination"
    assert shown("could you turn the camera on so I can see her?", CAMERA, OBS) == ["camera"]


def test_the_carer_hands_over_what_is_asked_whether_it_was_done():
    sim = patient([], attachments=[DIP.model_dump(), SCAN.model_dump()])
    reply = sim.answer("did the nurse do a dipstick?")
    assert "Urine dipstick" in reply.text and not reply.text.startswith("No")


def test_the_patients_own_doing_and_symptoms_ask_for_no_attachment():
    assert shown("did you take your temperature at home?") == []
    assert shown("have you done a urine test yourself?") == []
    assert shown("any recent falls?") == []
    assert shown("any blood in your wee?", BLOODS, DIP) == []
    assert shown("any recent weight loss?") == []

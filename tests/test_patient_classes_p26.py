"""The failure classes of round 18's requests for examinations, photos and results, fixed, each
held on wording of its own (other topics than the round's cases), with negative tests."""

from __future__ import annotations

from medbench_tui.core.cases.model import Attachment
from medbench_tui.core.simulators import intent
from tests.test_patient_round8_classes import patient


def shown(message: str, *attachments: Attachment, remote: bool = False) -> list[str]:
    return [a.id for a in intent.attachments_asked(list(attachments), message, remote=remote)]


VIDEO = Attachment(id="video", kind="document", title="Examination over video", available="on_request",
                   content="Temperature 37.1 C measured at home. Swollen right ankle, bruised laterally; walks with a "
                           "limp.", request_keywords=["examine", "camera", "temperature"])
OBS = Attachment(id="obs", kind="document", title="Observations in clinic", available="on_request",
                 content="BP 148/92; pulse 88 regular; SpO2 97%.", request_keywords=["obs", "blood pressure", "pulse"])
NEURO = Attachment(id="neuro", kind="document", title="Limb examination and gait", available="on_request",
                   content="Power 4/5 in the right arm; unsteady gait.", request_keywords=["examine", "power", "gait"])
WOUND = Attachment(id="wound", kind="image", title="Patient's photo of the leg wound", available="at_start",
                   description="A 3 cm ulcer above the medial malleolus.", request_keywords=["photo", "picture"])
DOG_BITE = Attachment(id="bite", kind="image", title="Patient's photo of the dog bite on the day",
                      available="on_request", description="Two puncture wounds on the forearm.",
                      request_keywords=["photo of the bite", "picture of the bite", "bite photo"])
RENAL = Attachment(id="renal", kind="lab_report", title="Kidney function and electrolytes", available="on_request",
                   content="Potassium 6.1 mmol/L; creatinine 188 umol/L.",
                   request_keywords=["U&E", "kidney function", "potassium", "creatinine"])


# -- class 1: an examination by its manoeuvres ----------------------------------------------------

def test_manoeuvres_of_an_examination_are_the_examination():
    assert intent.kind_of("grip my fingers as hard as you can, then walk to the door and back") == "examination"
    assert intent.kind_of("could you point the camera at your ankle for me?") == "examination"
    assert intent.kind_of("raise your eyebrows and puff out your cheeks") == "examination"
    assert shown("grip my fingers as hard as you can, then walk to the door and back", OBS, NEURO) == ["neuro"]
    assert shown("could you point the camera at your ankle for me?", VIDEO, WOUND) == ["video"]


def test_readying_for_an_examination_or_a_question_of_smiling_is_no_examination():
    assert intent.kind_of("could you lie back on the couch for me?") == "instruction"
    assert intent.kind_of("does it hurt when you smile?") != "examination"
    assert shown("does it hurt when you walk across the room?", OBS, NEURO) == []


def test_a_manoeuvre_gets_the_findings_not_a_bare_yes():
    sim = patient([], attachments=[NEURO.model_dump()])
    reply = sim.answer("Right - push against my hands, and now pull me towards you.")
    assert "Limb examination and gait" in reply.text


def test_a_camera_request_beside_a_fact_is_not_echoed_as_a_no():
    sim = patient([{"id": "face", "topic": "face", "keywords": ["face", "numb"],
                    "answer": "My face feels normal."}], attachments=[VIDEO.model_dump()])
    reply = sim.answer("Can you move the camera to your ankle for me - and then show me your teeth?")
    assert "No move" not in reply.text and "No turn" not in reply.text
    assert "Examination over video" in reply.text
    assert not reply.text.startswith("No")


def test_a_value_asked_as_it_is_now_is_a_measurement():
    assert intent.kind_of("and what's your pulse right now?") == "examination"
    assert intent.kind_of("what was your temperature when it started?") != "examination"  # remembered, not measured


def test_a_home_measuring_device_asks_to_measure_on_a_video_call_only():
    assert shown("have you got a thermometer handy?", VIDEO, remote=True) == ["video"]
    assert shown("have you got a thermometer handy?", VIDEO) == []  # in the room it asks of the home
    assert shown("did you take your temperature with a thermometer last night?", VIDEO, remote=True) == []


def test_a_thermometer_on_a_video_call_gets_the_findings_not_the_fever_fact():
    fever = {"id": "fever", "topic": "fever", "keywords": ["fever", "temperature", "temp"],
             "answer": "I felt hot and shivery on Tuesday."}
    remote = patient([fever], attachments=[VIDEO.model_dump()], metadata={"category": "internal_medicine",
                                                                         "setting": "telehealth"})
    reply = remote.answer("Do you own a thermometer? what's your temp right now?")
    assert "Examination over video" in reply.text and "fever" not in reply.facts
    in_clinic = patient([fever], attachments=[VIDEO.model_dump()],
                        metadata={"category": "internal_medicine", "setting": "primary_care"})
    assert "Examination over video" not in in_clinic.answer("Do you own a thermometer?").text


# -- class 1: a photo by its kind and subject -----------------------------------------------------

def test_asking_whether_a_photo_was_taken_asks_for_it():
    assert shown("did you manage to get a pic of the bite on the day?", WOUND, DOG_BITE) == ["bite"]
    assert shown("have you got any pictures of the bite?", WOUND, DOG_BITE) == ["bite"]


def test_a_photo_question_of_another_kind_asks_for_none():
    assert shown("did the dog bite you or just scratch?", WOUND, DOG_BITE) == []
    assert shown("did you take anything for the pain?", WOUND, DOG_BITE) == []


def test_a_photo_named_by_its_own_keyword_keeps_the_other_when_both_are_asked():
    assert sorted(shown("can I see the photo of the wound and the bite photo?", WOUND, DOG_BITE)) == ["bite", "wound"]


# -- class 1: a result named by its analyte, asked again ------------------------------------------

def test_an_analyte_asked_again_hands_its_report_over():
    assert shown("sorry, what was the potassium again?", RENAL) == ["renal"]
    assert shown("what was the creatinine again?", RENAL, OBS) == ["renal"]


def test_a_history_value_asked_again_is_no_report():
    assert shown("what was the name of your water tablet again?", RENAL) == []
    assert shown("how old were you again when it started?", RENAL) == []


# -- class 2: acknowledging an attachment given at the start is no request for it ----------------

def test_thanks_for_what_was_sent_asks_for_nothing():
    assert shown("Morning, thanks for emailing the photo of the wound, it's come through fine.", WOUND) == []
    assert shown("Hello, thanks for sending the picture, I've got it open here.", WOUND) == []
    assert shown("I've had a look at the photo you sent.", WOUND) == []


def test_a_request_for_what_was_sent_still_gets_it_again():
    assert shown("can I see the photo of the wound again?", WOUND) == ["wound"]
    assert shown("thanks - could you send me the picture again?", WOUND) == ["wound"]


def test_the_photo_given_at_the_start_is_not_given_again_unasked():
    sim = patient([{"id": "onset", "topic": "when the wound started", "keywords": ["start", "first notice"],
                    "answer": "It opened up about a month ago."}], attachments=[WOUND.model_dump()])
    reply = sim.answer("Hi there, thanks for sending the picture, I've got it up on my screen. When did you first "
                       "notice it?")
    assert "again" not in reply.text.lower() and reply.facts == ["onset"]

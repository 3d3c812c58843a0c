"""The failure classes of round 21's requests for results and photos, fixed, each held on wording of
its own (other topics than the round's cases), with negative tests."""

from __future__ import annotations

from medbench_tui.core.cases.model import Attachment
from medbench_tui.core.simulators import intent
from tests.test_patient_round8_classes import patient


def shown(message: str, *attachments: Attachment) -> list[str]:
    return [a.id for a in intent.attachments_asked(list(attachments), message)]


THYROID = Attachment(id="thyroid", kind="lab_report", title="Thyroid function tests", available="on_request",
                     content="TSH 0.01 mU/L; free T4 38 pmol/L.", request_keywords=["thyroid bloods"])
IRON = Attachment(id="iron", kind="lab_report", title="Haematology and iron (sent by the GP)", available="on_request",
                  content="Hb 101 g/L; MCV 72 fL. Ferritin 6 ug/L.", request_keywords=["blood count", "FBC"])
AUTO = Attachment(id="auto", kind="lab_report", title="Autoimmune screen", available="on_request",
                  content="Anti-TPO antibodies strongly positive. TRAb positive.",
                  request_keywords=["TPO antibodies", "TRAb", "thyroid antibodies"])
NECK_EXAM = Attachment(id="neck", kind="document", title="Neck examination", available="on_request",
                       content="Smooth diffuse goitre; fine tremor; pulse 112 irregular.",
                       request_keywords=["examine", "neck", "goitre", "tremor"])
KNEE_XRAY = Attachment(id="knee_xray", kind="image", title="X-ray of the left knee", available="at_start",
                       description="Joint-space narrowing medially; osteophytes.",
                       request_keywords=["x-ray", "knee x-ray", "film"])
HIP_XRAY = Attachment(id="hip_xray", kind="image", title="X-ray of the right hip", available="on_request",
                      description="Subchondral sclerosis of the right hip.",
                      request_keywords=["hip x-ray", "x-ray of your hip", "hip"])
MOLE = Attachment(id="mole", kind="image", title="Patient's photographs of the mole on the back",
                  available="at_start", description="An asymmetric 8 mm mole with two colours.",
                  request_keywords=["photos", "pictures", "mole", "back"])
SON = Attachment(id="son", kind="image", title="Photograph of Jake's arm", available="on_request",
                 description="A ring-shaped scaly patch on the forearm.",
                 request_keywords=["Jake's arm", "photo of Jake", "your son"])
ECG = Attachment(id="ecg", kind="ecg", title="12-lead ECG", available="on_request",
                 description="Atrial fibrillation, rate 110.", request_keywords=["ECG", "heart tracing"])


# -- class 1: a result asked for by what it measures ----------------------------------------------------

def test_a_fragment_naming_what_a_report_measures_asks_for_that_report():
    assert shown("and the TPO antibodies?", THYROID, IRON, AUTO) == ["auto"]
    assert shown("what about the ferritin?", THYROID, IRON, AUTO) == ["iron"]  # only its content says ferritin
    assert shown("What was the TSH?", THYROID, IRON, AUTO) == ["thyroid"]  # a label of the panel the title names
    assert shown("did they send thyroid antibodies as well?", THYROID, IRON, AUTO) == ["auto"]


def test_the_patient_hands_the_report_over_rather_than_saying_no():
    sim = patient([], attachments=[THYROID.model_dump(), IRON.model_dump()])
    reply = sim.answer("And the ferritin?")
    assert "Haematology and iron" in reply.text
    assert not reply.text.startswith("No")
    assert "Thyroid function tests" not in reply.text


def test_a_test_no_report_tells_or_a_history_question_asks_for_nothing():
    assert shown("and the vitamin D?", THYROID, IRON, AUTO) == []  # no report tells it
    assert shown("have you ever had your thyroid antibodies checked?", AUTO) == []  # the patient's past
    assert shown("did you check the TSH yourself?", THYROID) == []  # done by the patient
    assert shown("and any tremor?", THYROID, NECK_EXAM) == []  # a symptom, not a result
    assert shown("and the tremor?", THYROID, NECK_EXAM) == []  # an examination's finding is no result
    assert shown("and is the ferritin thing still worrying you?", IRON) == []  # a verb of its own


def test_shapes_of_a_result_named():
    assert intent.result_named("and the TPO antibodies?") == "TPO antibodies"
    assert intent.result_named("how were the LFTs?") == "LFTs"
    assert intent.result_named("any blood in them?") is None
    assert intent.result_named("have you ever had a ferritin?") is None
    assert intent.result_named("what was your last TSH?") is None  # an earlier test the patient remembers


# -- class 2: one photo asked for by what it shows -------------------------------------------------------

def test_a_photo_named_by_what_it_shows_is_not_joined_by_one_named_by_the_generic_word():
    assert shown("Could you send a picture of Jake's arm?", MOLE, SON) == ["son"]
    assert shown("Can I see the X-ray of your hip?", KNEE_XRAY, HIP_XRAY) == ["hip_xray"]


def test_the_generic_word_alone_or_of_another_kind_still_names_the_photo():
    assert shown("Can I see the photos again?", MOLE, SON) == ["mole"]
    assert shown("Can I see the photos and the ECG?", MOLE, ECG) == ["mole", "ecg"]
    assert shown("Can I see the photos of the mole?", MOLE, SON) == ["mole"]


def test_the_patient_does_not_hand_the_first_photo_over_again():
    sim = patient([], attachments=[MOLE.model_dump(), SON.model_dump()])
    reply = sim.answer("Could you send me a photo of Jake's arm?")
    assert "Jake's arm" in reply.text
    assert "mole" not in reply.text

"""How the grounded patient reads what clinicians type (scoring.md, "The consultation"):
a diagnosis asked with a hedge, an examination announced in chat shorthand or asked with
"is that ok?", a request for what the nurse documented or for one measurement, a result by
its short name, and "it" that is the medicine just named rather than the illness."""

from __future__ import annotations

import pytest

from medbench_tui.core.cases.model import AdditionalAnswer, patient_record
from medbench_tui.core.simulators import GroundedSimulator, intent
from tests.test_patient_conversation import bundled
from tests.test_scoring_regressions import case


@pytest.mark.parametrize("question", ["could this just be normal newborn jaundice, do you think?",
                                      "might it only be a migraine?"])
def test_a_hedged_diagnosis_question_is_one(question):
    assert intent.kind_of(question) == "diagnosis"


@pytest.mark.parametrize("question", ["i'd like to listen to ur chest", "i'd like to undress her",
                                      "have a proper look at her, is that ok?",
                                      "have a look at your legs, is that alright"])
def test_an_examination_announced_or_asked_with_consent_is_an_examination(question):
    assert intent.kind_of(question) == "examination"


def test_an_examination_with_consent_is_never_refused():
    sim = bundled("ped-jaundice-001")
    reply = sim.answer("i'd like to undress her and have a proper look at her, is that ok?")
    assert reply.kind == "hand_over" and reply.facts == []


def test_remind_me_asks_the_history_again_not_for_a_result():
    assert intent.kind_of("sorry, remind me what your blood group is again?") != "request"
    sim = bundled("ped-jaundice-001")
    assert sim.answer("sorry, remind me what your blood group is again?").facts == ["blood_groups"]


def asked(case_id: str, message: str) -> list[str]:
    return [a.id for a in intent.attachments_asked(patient_record(case(case_id)).attachments, message)]


@pytest.mark.parametrize(("case_id", "message", "wanted"), [
    ("oph-aacg-001", "can i see what the triage nurse documented about ur eye", ["eye-findings"]),
    ("oph-aacg-001", "we'll check your VA and the pressure in the eye too - IOP", ["eye-findings"]),
    ("ped-jaundice-001", "can i see the bili result again pls", ["bloods"]),
    ("ped-jaundice-001", "what was her SBR?", ["bloods"]),  # a result by what it measures
])
def test_requests_by_what_was_documented_a_measurement_or_a_short_name(case_id, message, wanted):
    assert asked(case_id, message) == wanted


def test_a_measurement_request_answered_by_the_findings_says_no_fact():
    reply = bundled("oph-aacg-001").answer("we'll check your VA and the pressure in the eye too - IOP")
    assert reply.facts == []


def test_it_as_the_medicine_just_named_is_no_dummy_it():
    assert intent.dummy_it("when did it start?")
    assert not intent.dummy_it("how long have you been on it?")
    assert not intent.dummy_it("when did you stop it?")
    sim = bundled("em-pe-001")
    assert sim.answer("are you on the OCP? which one and how long have u been on it").facts == ["contraception"]


def test_a_parent_asked_about_their_own_medication_and_the_babys_vit_k_jab():
    assert bundled("ped-jaundice-001").answer("are you on any medication yourself?").facts == ["maternal_meds"]
    assert bundled("ped-jaundice-001").answer("did she have her vit K jab?").facts == ["vitamin_k"]


def _with_facts(case_id: str, *facts: dict):
    """The patient of a bundled case told a few more facts."""
    c = case(case_id)
    added = [AdditionalAnswer.model_validate(f) for f in facts]
    more = c.model_copy(update={"additional_answers": [*c.additional_answers, *added]})
    return GroundedSimulator(patient_record(more))


COURSE = {"id": "course", "topic": "how the chest pain has gone since it came on",
          "keywords": ["getting worse", "worse", "better", "easing"],
          "answer": "It's no better. If anything the pain is heavier than when it started."}


@pytest.mark.parametrize("question", ["how has it changed since then?", "has it changed?", "how has it progressed?"])
def test_a_question_of_how_it_has_changed_gets_the_fact_of_the_course(question):
    """The fact about the complaint's course answers however the change is worded; a fact that
    only uses the word ("my voice changed", "the GP changed my tablets") does not."""
    voice = {"id": "voice", "topic": "hoarseness", "keywords": ["voice", "voice changed", "hoarse"],
             "answer": "My voice has changed a bit, it's croaky."}
    tablets = {"id": "tablets_changed", "topic": "a change of blood pressure tablets",
               "keywords": ["tablets changed"], "answer": "The GP changed my blood pressure tablets last month."}
    sim = _with_facts("em-stemi-001", COURSE, voice, tablets)
    assert sim.answer(question).facts == ["course"]



@pytest.mark.parametrize("question", ["what dose is the amlodipine?", "which dose of donepezil is she on?",
                                      "how many tablets do you take?", "how much paracetamol does she take?",
                                      "how many mg is it?", "what strength is the inhaler?"])
def test_a_question_of_how_much_medicine_asks_a_dose(question):
    assert intent.asks_dose(question)


@pytest.mark.parametrize("question", ["are you taking low-dose aspirin?", "has the dose of sertraline been changed?",
                                      "how much do you drink?", "how many cigarettes a day?",
                                      "what medicines do you take?"])
def test_other_questions_ask_no_dose(question):
    assert not intent.asks_dose(question)


def test_a_dose_counts_only_in_the_sentence_of_the_medicine_asked_about():
    answer = "Amlodipine for my blood pressure. And yesterday I took a couple of decongestant tablets."
    assert not intent.says_dose("what dose is the amlodipine?", answer)
    assert intent.says_dose("how many of the decongestant did you take?", answer)
    assert intent.says_dose("what dose is the ramipril?", "Ramipril 5 mg once a day. That's all.")
    assert intent.says_dose("how much insulin?", "Ten units of insulin twice a day.")


@pytest.mark.parametrize("case_id, question", [("em-stemi-001", "what dose is the amlodipine?"),
                                                ("psy-delirium-001", "what dose of donepezil does she take?")])
def test_a_dose_the_record_does_not_give_is_not_known(case_id, question):
    """The patient who names a medicine but not its dose does not know the dose: not the list again."""
    reply = bundled(case_id).answer(question)
    assert reply.facts == [] and reply.kind == "default"
    assert "sure" in reply.text or "know" in reply.text  # uncertain, never "No."


def test_a_dose_the_record_gives_is_told():
    assert bundled("im-af-001").answer("what dose of ramipril are you on?").facts == ["medications"]


@pytest.mark.parametrize("case_id, question", [
    ("em-stemi-001", "how are you managing at home, has anyone been helping you?"),
    ("onc-breast-001", "what do you do for fun, have you got any hobbies?"),
])
def test_an_uncovered_question_that_opens_openly_is_not_answered_no(case_id, question):
    """A yes/no part after an open one ("how are you coping, ...?") does not make "No." fit."""
    assert intent.opens_openly(question)
    reply = bundled(case_id).answer(question)
    assert reply.kind == "default" and not reply.text.startswith("No")


def test_how_about_a_symptom_is_still_yes_or_no():
    assert not intent.opens_openly("how about chest pain, have you got any?")


def test_a_question_turned_to_the_informant_leaves_the_patients_topic():
    """ "And how are you feeling about it all yourself?", to the wife after his sleep, is about
    her: never his sleep again."""
    sim = bundled("psy-mania-001")
    assert sim.answer("how has he been sleeping?").facts == ["sleep"]
    assert "sleep" not in sim.answer("and how are you feeling about it all yourself?").facts


def test_a_look_at_a_film_names_the_film_not_the_chest():
    """"a look at your chest X-ray" reads like an examination of the chest; the film is named."""
    cxr, obs = (next(a for a in patient_record(case("im-cap-001")).attachments if a.id == i) for i in ("cxr", "obs"))
    assert intent.attachments_asked([cxr, obs], "Can I have a look at your chest X-ray?") == [cxr]
    assert intent.attachments_asked([cxr, obs], "Can I have a look at your chest?") == [obs]


@pytest.mark.parametrize("question", ["What did the chest X-ray show?", "what did the CXR find?",
                                      "What has the X-ray shown?"])
def test_asking_what_a_test_showed_asks_for_its_result(question):
    cxr = next(a for a in patient_record(case("im-cap-001")).attachments if a.id == "cxr")
    assert intent.attachments_asked([cxr], question) == [cxr]


def test_a_diagnosis_asked_with_doctor_at_the_end_is_one():
    assert intent.kind_of("Is it a kidney stone, doctor?") == "diagnosis"

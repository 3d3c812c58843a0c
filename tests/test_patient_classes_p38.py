"""The failure classes of round 23 fixed (a statement that the doctor has or read a document; an
uncovered question that shares a word with a fact; a diagnosis put with a relative's illness; "regular" of what is
asked), each held on wording of its own on other clinical topics."""

from __future__ import annotations

import copy

from medbench_tui.core.cases.model import Attachment, patient_record
from medbench_tui.core.simulators import GroundedSimulator, intent
from tests.test_consultation import CASE_DATA, fixture_case
from tests.test_patient_round8_classes import patient

DISCHARGE = Attachment(id="discharge", kind="document", title="Hospital discharge summary",
                       content="Admitted with pneumonia, treated with co-amoxiclav.", available="on_request",
                       request_keywords=["discharge summary", "discharge letter", "letter"])


def own(facts: list[dict]) -> GroundedSimulator:
    """The fixture patient with these facts instead of its own medicines."""
    kept = [a for a in copy.deepcopy(CASE_DATA["additional_answers"]) if a["id"] != "medications"]
    return GroundedSimulator(patient_record(fixture_case(additional_answers=kept + facts)))


def shown(message: str, *attachments: Attachment) -> list[str]:
    return [a.id for a in intent.attachments_asked(list(attachments), message)]


# -- a statement that the doctor has or has read a document asks for nothing ----------------------

def test_the_doctor_saying_they_have_or_read_a_document_asks_for_nothing():
    assert shown("Morning, I'm Dr Okafor from the respiratory team. I've got your discharge letter here.",
                 DISCHARGE) == []
    assert shown("I've read the discharge summary from the hospital.", DISCHARGE) == []
    assert shown("I have gone through your discharge letter already.", DISCHARGE) == []
    reply = patient([], attachments=[DISCHARGE.model_dump()]).answer(
        "Hello, I'm one of the chest doctors. I've got your discharge letter here.")
    assert "Here" not in reply.text and reply.facts == []


def test_asking_for_the_document_still_hands_it_over():
    assert shown("Have you got the discharge letter?", DISCHARGE) == ["discharge"]
    assert shown("Can I see the discharge summary?", DISCHARGE) == ["discharge"]
    assert shown("I've read the GP's note - can I see the discharge letter too?", DISCHARGE) == ["discharge"]


# -- an uncovered question that shares a word with a fact gets the default -----------------------

MEDS = {"id": "meds", "topic": "regular medicines", "keywords": ["medicines", "tablets", "regular", "meds"],
        "answer": "Just the metformin, and paracetamol for my bad shoulder now and then."}
DOG = {"id": "dog", "topic": "the dog", "keywords": ["dog", "pet", "animals"],
       "answer": "We've a spaniel who keeps scratching at his ears."}
SHOULDER_SEEN = {"id": "shoulder", "topic": "the shoulder", "keywords": ["shoulder"],
                 "answer": "The physio looked at my shoulder last year and gave me exercises."}
SWIM = {"id": "swim", "topic": "swimming", "keywords": ["swim", "swimming", "pool"],
        "answer": "I swim twice a week at the leisure centre pool."}


def test_whether_anyone_looked_at_it_is_not_a_fact_that_only_names_it():
    sim = own([MEDS, DOG])
    sim.answer("Do you take any regular medicines?")
    reply = sim.answer("Has anybody ever looked at that shoulder?")  # a follow-up of the tablets "for my shoulder"
    assert reply.facts == []
    assert own([MEDS, DOG]).answer("Has anyone had that shoulder checked?").facts == []
    reply = own([MEDS, DOG]).answer("Has the dog been seen by a vet?")
    assert reply.facts == [] and reply.kind != "clarification"


def test_a_fact_that_says_who_looked_at_it_still_answers():
    assert own([MEDS, SHOULDER_SEEN]).answer("Has anyone looked at your shoulder?").facts == ["shoulder"]
    assert own([MEDS, DOG]).answer("Does the dog scratch his ears?").facts == ["dog"]


def test_a_second_question_of_its_own_after_or_gets_its_default_beside_the_fact():
    reply = patient([SWIM]).answer("Do you go swimming or do any martial arts?")
    assert reply.facts == ["swim"] and reply.text.endswith("No martial arts.")  # worded beside the swimming


def test_whether_the_patient_knows_a_value_is_never_a_bare_no():
    reply = own([MEDS]).answer("Do you know what your blood sugar usually is?")
    assert reply.facts == [] and not reply.text.startswith("No")
    assert intent.kind_of("Do you know your blood group?") == "yesno"  # no value asked by a what


# -- a diagnosis put with a relative's illness is a diagnosis ------------------------------------

FAMILY = {"id": "family", "topic": "family history", "keywords": ["family", "dad", "mum", "runs in the family"],
          "answer": "My dad had gout in his big toe. Mum's fine."}


def test_a_diagnosis_put_like_a_relatives_is_not_known():
    sim = patient([FAMILY])
    sim.answer("Anything that runs in the family?")
    reply = sim.answer("Is it gout, like your dad had?")
    assert reply.facts == [] and not reply.text.startswith("No")
    assert intent.kind_of("is it psoriasis like her brother has?") == "diagnosis"


def test_a_likeness_of_a_symptom_is_still_a_yes_no_question():
    assert intent.kind_of("Is it sore, like your other knee?") == "yesno"
    assert intent.kind_of("Is it worse, like yesterday?") == "yesno"
    assert patient([FAMILY]).answer("Did your dad have gout?").facts == ["family"]


# -- "regular" of what is asked is how it comes, not the regular medicines -----------------------

BOWELS = {"id": "bowels", "topic": "bowel habit", "keywords": ["bowels", "stools", "poo", "constipation"],
          "answer": "My bowels have been all over the place, loose one week, blocked the next."}


def test_regular_of_a_symptom_is_not_the_regular_medicines():
    assert own([MEDS, BOWELS]).answer("Are your bowels regular?").facts == ["bowels"]
    assert own([MEDS, BOWELS]).answer("Is your heartbeat regular?").facts == []


def test_the_regular_medicines_are_still_asked_for():
    assert own([MEDS, BOWELS]).answer("Any regular medicines?").facts == ["meds"]
    assert own([MEDS, BOWELS]).answer("What do you take regularly?").facts == ["meds"]

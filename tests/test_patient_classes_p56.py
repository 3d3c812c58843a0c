"""The failure classes of round 27 fixed (issue 33): a question of something the record does not say of
a person or thing a fact names (the person's name, the one who only noticed, another part of the body), and a
diagnosis named in a question ("has anyone ever said you've got X?", "could this all be down to X?"). Held on
wording and topics of their own, with negative tests: a fact that says what is asked still answers."""

from __future__ import annotations

from medbench_tui.core.cases.model import patient_record
from medbench_tui.core.simulators import GroundedSimulator, LeakGuard, intent
from medbench_tui.core.simulators.voice import is_default_answer, is_default_for
from tests.test_consultation import CASE_DATA, fixture_case

SISTER = {"id": "family_history", "topic": "family history", "keywords": ["family", "sister", "stroke"],
          "answer": "My sister Jill had a stroke at 61. She's 66 now and well."}
HOME = {"id": "home", "topic": "who lives at home", "keywords": ["live", "home", "husband"],
        "answer": "I used to run every day. I live with my husband Graham, he's retired."}
SNORING = {"id": "snoring", "topic": "snoring", "keywords": ["snore", "snoring"],
           "answer": "I snore, Graham says it's got louder."}
FEET = {"id": "feet", "topic": "numbness in the feet (pertinent negative)",
        "keywords": ["numbness", "pins and needles", "tingling", "feet"],
        "answer": "My feet are fine, no numbness at all."}
FINGERS = {"id": "fingers", "topic": "cold hands", "keywords": ["hands", "fingers", "cold", "white"],
           "answer": "My hands go white and numb in the cold."}
THYROID_FH = {"id": "thyroid_family", "topic": "family thyroid history", "keywords": ["thyroid", "mum"],
              "answer": "My mum had thyroid trouble, she took tablets for it."}
DIABETES = {"id": "diabetes", "topic": "diabetes", "keywords": ["diabetes", "sugar"],
            "answer": "I've had type 2 diabetes for ten years, on metformin."}


def sim(facts: list[dict], **changes) -> tuple[GroundedSimulator, LeakGuard]:
    case = fixture_case(additional_answers=[*CASE_DATA["additional_answers"], *facts], **changes)
    return GroundedSimulator(patient_record(case)), LeakGuard.from_case(case)


def ask(facts: list[dict], question: str, **changes):
    patient, guard = sim(facts, **changes)
    return patient.answer(question, guard)


def unsure(text: str) -> bool:
    return not text.strip().lower().startswith("no") and (is_default_answer(text) or is_default_for(text))


# -- a person's name says who, never what is asked of them ------------------------------------------------

def test_what_the_record_does_not_say_of_a_named_person_is_not_their_fact():
    assert ask([SISTER], "Does your sister Jill have asthma?").facts == []
    assert ask([SISTER], "Has your sister Jill got any thyroid problems?").facts == []


def test_what_the_record_says_of_a_named_person_is_still_their_fact():
    assert ask([SISTER], "Has your sister Jill had a stroke?").facts == ["family_history"]
    assert ask([SISTER], "Is your sister Jill well?").facts == ["family_history"]
    assert ask([SISTER], "How is your sister Jill doing?").facts == ["family_history"]


def test_a_named_person_who_only_noticed_is_not_the_subject():
    # "Graham" is who noticed: the home fact names him, but says nothing of what he noticed
    assert ask([HOME], "Has Graham noticed anything else different about you?").facts == []
    # what he noticed that a fact says still answers
    assert ask([HOME, SNORING], "Has Graham noticed you snoring?").facts == ["snoring"]


# -- a part of the body asked is not another part's fact ---------------------------------------------------

def test_a_symptom_of_the_hands_is_not_the_feet():
    assert ask([FEET], "Any pins and needles in your hands?").facts == []
    assert ask([FEET], "Any tingling in your hands?").facts == []
    assert ask([FEET], "Any tingling in your feet?").facts == ["feet"]
    assert "fingers" in ask([FEET, FINGERS], "Any numbness in your hands?").facts


def test_a_symptom_denied_of_no_part_is_denied_of_the_hands_too():
    general = {"id": "neuro", "topic": "neurological symptoms", "keywords": ["numbness", "tingling", "weakness"],
               "answer": "No numbness or tingling anywhere. My balance is fine."}
    assert ask([general], "Any numbness in your hands?").facts == ["neuro"]
    assert ask([FEET], "Any numbness in your hands?").facts == []
    # a word of the same kind said of no part ("didn't hurt myself") is no denial of pain in the hands
    fall = {"id": "falls", "topic": "falls", "keywords": ["fall", "fallen", "tripped"],
            "answer": "I tripped on the stairs in May but didn't hurt myself."}
    assert ask([fall], "Any pain in your hands?").facts == []


# -- a diagnosis named in a question ----------------------------------------------------------------------

HYPOTHYROID = {"primary": {"name": "Primary hypothyroidism", "icd10": "E03.9", "aliases": ["underactive thyroid"]}}


def test_told_you_have_the_cases_diagnosis_is_a_diagnosis_question():
    for question in ("Has anyone ever said you've got an underactive thyroid?",
                     "Has anyone ever told you that you have hypothyroidism?",
                     "Have you ever been told you've got an underactive thyroid?"):
        reply = ask([THYROID_FH], question, diagnosis=HYPOTHYROID)
        assert reply.facts == [], question
        assert unsure(reply.text), (question, reply.text)


def test_a_differential_named_as_told_is_not_known_either():
    # the fixture's differential: pulmonary embolism
    reply = ask([], "Has anyone ever told you you've had a pulmonary embolism?")
    assert reply.facts == [] and unsure(reply.text), reply.text


def test_told_you_have_a_condition_the_record_says_is_its_fact():
    reply = ask([DIABETES], "Have you ever been told you have diabetes?", diagnosis=HYPOTHYROID)
    assert reply.facts == ["diabetes"]
    reply = ask([DIABETES], "Has anyone told you that you've got sugar diabetes?", diagnosis=HYPOTHYROID)
    assert reply.facts == ["diabetes"]


def test_told_you_have_something_the_record_does_not_say_is_unsure_never_no():
    reply = ask([], "Has anyone ever said you've got asthma?")
    assert reply.facts == [] and unsure(reply.text), reply.text


def test_could_this_all_be_down_to_something_is_a_diagnosis():
    assert intent.kind_of("Could this all be down to his blood pressure, do you reckon?") == "diagnosis"
    assert intent.kind_of("Could it all be the new tablets?") == "diagnosis"
    reply = ask([DIABETES], "Could this all be down to your sugars, do you think?")
    assert reply.facts == [] and not reply.text.lower().startswith("no")
    # a yes/no of the history stays one
    assert intent.kind_of("Could you all come in on Friday?") != "diagnosis"
    assert ask([DIABETES], "Have you got diabetes?").facts == ["diabetes"]

"""The failure classes of held-out round 20 fixed (issue 33), each held on wording and topics of its
own (not the round's cases), with negative tests: a relative the record names by a name, asked of by that name; a
person fronted before the question; a word that matches the family history only through the family concept."""

from __future__ import annotations

from medbench_tui.core.simulators import intent
from tests.test_patient_round8_classes import patient

FACTS = [
    {"id": "cough", "topic": "the cough", "keywords": ["cough", "coughing", "phlegm", "night"],
     "answer": "I've coughed every night for a month, and Priya says it keeps her awake. She recorded it on her "
               "phone."},
    {"id": "fhx", "topic": "family history", "keywords": ["family", "mother", "sister", "runs in the family"],
     "answer": "My sister Nadia has lupus, she's under the hospital. Mum had a heart attack."},
    {"id": "home", "topic": "who is at home", "keywords": ["live", "home", "wife"],
     "answer": "I live with Priya, my wife."},
    {"id": "wheeze", "topic": "wheeze", "keywords": ["wheeze", "wheezy", "whistling"],
     "answer": "A bit wheezy in the mornings."},
]


def test_the_names_a_record_gives_people():
    names = intent.names_given("I gave him Calpol at six. My sister Nadia has lupus. Since Saturday, in Year 5, but "
                               "Priya says it keeps her awake.")
    assert names == frozenset({"nadia", "priya"})


def test_a_person_asked_of_by_name_is_not_answered_by_the_patients_own_fact():
    sim = patient(FACTS)
    assert "cough" not in sim.answer("Does Priya cough too?").facts  # she only says the patient coughs
    assert "fhx" not in sim.answer("How old was Nadia when the lupus was found?").facts  # no age recorded
    assert "fhx" not in sim.answer("How long has Nadia had lupus?").facts


def test_a_fact_that_says_what_is_asked_of_the_named_person_still_answers():
    sim = patient(FACTS)
    assert sim.answer("Did Priya record it?").facts == ["cough"]  # she recorded it: said of her
    assert "fhx" in sim.answer("Does Nadia have lupus?").facts
    assert sim.answer("Has Priya noticed you coughing?").facts == ["cough"]  # she witnesses: of the patient
    assert sim.answer("do you cough at night?").facts == ["cough"]


def test_a_fronted_person_is_the_one_asked_of():
    assert intent.other_person_asked("Your sister - has she had any scans?") == "sister"
    assert intent.other_person_asked("your dad, does he smoke?") == "dad"
    assert intent.other_person_asked("your dad - does he think it's worse?") is None  # a witness
    assert intent.other_person_asked("your cough - does it wake you?") is None


def test_a_word_matching_only_through_the_family_concept_is_not_what_is_asked():
    sim = patient(FACTS)
    assert "fhx" not in sim.answer("Has your sister ever had genetic testing?").facts
    assert "fhx" not in sim.answer("Did your mum ever have any hereditary screening?").facts
    assert "fhx" in sim.answer("Has your sister had lupus?").facts  # what she had: the family history


MEDS = [
    {"id": "fhx", "topic": "family history", "keywords": ["family", "father", "dad", "mother", "mum", "heart"],
     "answer": "My dad has angina and takes tablets for it."},
    {"id": "meds", "topic": "medicines", "keywords": ["medicines", "tablets", "take"],
     "answer": "I take omeprazole most days."},
]


def test_which_medicine_a_fronted_person_takes_needs_a_fact_that_names_it():
    sim = patient(MEDS)
    assert "fhx" not in sim.answer("Your dad - what does he take for his angina?").facts  # only "tablets"
    assert "meds" not in sim.answer("Your dad - what does he take for his angina?").facts  # never the patient's
    named = [dict(MEDS[0], answer="My dad has angina, he's on bisoprolol."), MEDS[1]]
    assert "fhx" in patient(named).answer("Your dad - what is he on for his angina?").facts  # bisoprolol: named
    assert sim.answer("what do you take?").facts == ["meds"]  # the patient's own question is unchanged


def test_a_fronted_person_split_from_the_question_is_still_its_subject():
    from medbench_tui.core.simulators.question import read_message
    message = read_message("Your dad - what does he take for his angina?")
    assert len(message.questions) == 1
    assert intent.kind_of("Your dad - what does he take for his angina?") == "open"
    assert intent.kind_of("your cough - is it worse at night?") == "yesno"  # a thing fronted: unchanged
    assert len(read_message("your cough - is it worse at night?").questions) >= 1
    sim = patient(MEDS)
    reply = sim.answer("Your dad - what does he take for his angina?")
    assert reply.facts == [] and not reply.text.startswith("No")  # a what-question: no "No"

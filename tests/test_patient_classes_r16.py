"""The failure classes of held-out rounds 9 to 13 fixed (product issue 33), each held on wording
of its own (not the rounds')."""

from __future__ import annotations

from medbench_tui.core.simulators import intent, voice
from medbench_tui.core.simulators.matcher import alternatives
from tests.test_patient_round8_classes import patient

INHALER = {"id": "inhaler", "topic": "reliever inhaler", "keywords": ["inhaler", "salbutamol", "blue inhaler"],
           "answer": "I use the blue inhaler, about four puffs on a bad day."}


# -- how much of a medicine just told, its name left out ------------------------------------------

def test_how_many_a_day_after_a_medicine_was_told_is_of_that_medicine():
    sim = patient([INHALER])
    assert sim.answer("do you use an inhaler at all?").facts == ["inhaler"]
    reply = sim.answer("how many do you use?")
    assert reply.facts == ["inhaler"] and not reply.text.startswith("I'm not sure")


def test_the_ellipsis_is_read_only_when_the_verb_ends_the_question():
    assert intent.asks_use_of_it("how much do you need a day?")
    assert intent.asks_use_of_it("how often does she take them?")
    assert not intent.asks_use_of_it("how many cigarettes do you smoke?")
    assert not intent.asks_use_of_it("how many do you take of the paracetamol and the codeine each day?")


def test_after_a_fact_of_no_medicine_how_many_is_no_medicine_follow_up():
    sim = patient([INHALER])
    assert sim.answer("do you smoke?").facts == ["smoking"]
    assert "inhaler" not in sim.answer("how many do you take?").facts


# -- asked by a name whether they were told of an illness ---------------------------------------

TRACE = {"id": "trace", "topic": "an earlier heart tracing", "keywords": ["ECG", "heart tracing", "heart test"],
         "answer": "I had a heart tracing at the surgery last year and they said there was an extra beat now and then."}


def test_asked_whether_they_were_told_a_name_the_patient_says_it_does_not_know_the_word_then_what_it_was_told():
    reply = patient([TRACE]).answer("were you ever told you had atrial fibrillation?")
    assert reply.facts == ["trace"] and reply.confidence < 1
    first, _, rest = reply.text.partition(". ")
    assert first + "." in voice.NOT_THAT_WORD and voice.is_default_for(first + ".")
    assert "extra beat" in rest and "fibrillation" not in reply.text


# -- whether someone in the patient's life knows of something -----------------------------------

HOME = {"id": "home", "topic": "home and support", "keywords": ["live with", "husband", "support", "family"],
        "answer": "I live with my husband. I haven't said anything to him about the bleeding yet."}
BLEEDING = {"id": "bleeding", "topic": "bleeding after the menopause", "keywords": ["bleeding", "spotting", "blood"],
            "answer": "I've had some spotting on and off for a month, years after my periods stopped."}


def test_whether_a_person_in_the_patients_life_knows_of_a_symptom_is_a_question_of_that_person():
    sim = patient([HOME, BLEEDING])
    assert sim.answer("any bleeding down below?").facts == ["bleeding"]
    assert sim.answer("have you told your husband about the bleeding?").facts == ["home"]
    assert sim.answer("does your family know about the spotting?").facts == ["home"]


def test_what_the_patient_knows_is_still_what_is_asked():
    assert intent.without_what_others_know("do you know about the spotting?") == "do you know about the spotting?"
    assert intent.without_what_others_know("has your daughter heard about the scan?").split() == [
        "has", "your", "daughter", "heard", "?"]


# -- intensive care is one thing of the history -------------------------------------------------

def test_intensive_care_unit_is_one_thing_of_the_history_not_an_alcohol_unit():
    sim = patient([{"id": "admissions", "topic": "earlier admissions", "keywords": ["admitted", "ICU", "ventilator"],
                    "answer": "I was in hospital twice last winter but never in intensive care."}])
    for asked in ("were you ever on ITU?", "have you ever been in the intensive care unit?", "any HDU stays?"):
        assert sim.answer(asked).facts == ["admissions"], asked


# -- a list of states of a part of the body, and the other parts --------------------------------

KNEE = {"id": "knee", "topic": "the swollen knee", "keywords": ["knee", "swollen", "hot", "painful", "joint"],
        "answer": "My left knee has been hot, swollen and painful since Sunday."}


def test_a_part_of_the_body_a_list_says_a_state_of_carries_to_the_bare_words_after_it():
    assert alternatives("any other joints stiff or sore?") == ("any other joints stiff", "any other joints sore?")
    assert alternatives("any chest pain or cough?") == ("any chest pain", "any cough?")


def test_other_joints_are_not_the_joint_the_patient_came_with():
    sim = patient([KNEE])
    assert sim.answer("which joint is it?").facts == ["knee"]
    reply = sim.answer("any other joints stiff or sore?")
    assert reply.facts == [] and not reply.text.startswith("As I said")


# -- a time of day is that time, not another ----------------------------------------------------

SUPPER = {"id": "supper", "topic": "his last meal", "keywords": ["eat", "ate", "supper", "tea", "food"],
          "answer": "I had fish and chips for my tea last night."}
SHAKES = {"id": "shakes", "topic": "shaking first thing", "keywords": ["morning", "first thing", "shaky", "tremor"],
          "answer": "I get shaky first thing until I've had something to eat."}


def test_a_fact_of_the_morning_does_not_join_the_answer_to_a_question_of_the_evening():
    sim = patient([SUPPER, SHAKES])
    assert sim.answer("what did you eat last night?").facts == ["supper"]


# -- how much one drinks in a week --------------------------------------------------------------

def test_how_much_one_drinks_in_a_week_is_alcohol_not_fluids():
    fluids = {"id": "fluids", "topic": "how much he is drinking today", "keywords": ["drink", "fluids", "water"],
              "answer": "He's managed a couple of glasses of water today."}
    sim = patient([fluids])
    assert sim.answer("how many do you drink per week?").facts == ["alcohol"]
    assert sim.answer("is he managing to drink any water?").facts == ["fluids"]


# -- an open question after an adverb of how near ----------------------------------------------

def test_an_open_question_that_starts_roughly_or_approximately_is_still_open():
    assert intent.kind_of("roughly how tall are you?") == "open"
    assert intent.kind_of("approximately when was your last period?") == "open"
    assert not voice.is_negative(patient([]).answer("roughly how tall are you?").text)

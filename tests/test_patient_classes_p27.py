"""The failure classes of held-out round 18 fixed (issue 33), each held on wording and topics of its
own (not the round's cases), with negative tests: a question about another person answered with the patient's own
fact; follow-ups whose pronoun points at a thing just told; diagnosis questions in other forms; one shared word."""

from __future__ import annotations

import copy

from medbench_tui.core.cases.model import patient_record
from medbench_tui.core.simulators import GroundedSimulator, intent
from tests.test_consultation import fixture_case
from tests.test_patient_round8_classes import patient


def own(facts: list[dict], **changes) -> GroundedSimulator:
    """A patient whose record holds only these facts (not the fixture's medicines)."""
    return GroundedSimulator(patient_record(fixture_case(additional_answers=copy.deepcopy(facts), **changes)))

# -- 1. a question about another person ------------------------------------------------------------------------------

HOME = [
    {"id": "vape", "topic": "vaping", "keywords": ["vape", "vaping", "e-cigarette"],
     "answer": "I vape most of the day, menthol."},
    {"id": "pmh", "topic": "past medical history", "keywords": ["medical history", "health problems", "conditions"],
     "answer": "Asthma as a child, and gout in my big toe."},
    {"id": "flu", "topic": "flu jab", "keywords": ["flu jab", "vaccine", "jab"],
     "answer": "I had my flu jab in October."},
    {"id": "home", "topic": "home and work", "keywords": ["live", "partner", "work", "job"],
     "answer": "I live with my partner, Sam. He works nights at the hospital."},
    {"id": "camp", "topic": "the camping trip", "keywords": ["camping", "trip", "tent"],
     "answer": "We went camping in Wales the week before it started."},
    {"id": "friend", "topic": "who went on the trip", "keywords": ["friend", "with you", "anyone else"],
     "answer": "My friend Jo came camping too. She's been fine."},
    {"id": "sleepy", "topic": "sleepiness and snoring", "keywords": ["sleepy", "snoring", "snore", "tired"],
     "answer": "I'm tired all day, and I snore like a train."},
]


def test_what_another_person_has_or_does_is_never_the_patients_own_fact():
    sim = patient(HOME)
    assert "vape" not in sim.answer("Does your partner vape?").facts
    assert "smoking" not in sim.answer("Does your partner smoke?").facts  # the fixture's own smoking
    assert "pmh" not in sim.answer("Does your brother have any health problems himself?").facts
    assert "flu" not in sim.answer("Has your mum had her flu jab?").facts


def test_a_fact_that_speaks_of_the_person_still_answers():
    sim = patient(HOME)
    assert sim.answer("does your partner work?").facts == ["home"]
    assert sim.answer("did anyone else come camping with you?").facts == ["friend"]


def test_the_patients_own_question_is_unchanged():
    sim = patient(HOME)
    assert sim.answer("Do you vape?").facts == ["vape"]
    assert sim.answer("any health problems?").facts == ["pmh"]


def test_someone_who_only_witnesses_asks_of_the_patient():
    assert intent.other_person_asked("has your partner noticed you snoring?") is None
    assert intent.witness_asked("has your partner noticed you snoring?") == "partner"
    sim = patient(HOME)
    assert sim.answer("has your partner noticed you snoring?").facts == ["sleepy"]
    assert "home" not in sim.answer("has your partner noticed anything?").facts


def test_your_child_asked_of_a_parent_may_be_the_patient():
    """With a parent speaking, "does your son ...?" may be the patient: no other person; "his sister" is one."""
    assert intent.other_person_asked("does your son have a cough?", "parent") is None
    assert intent.other_person_asked("does his sister have a cough?", "parent") == "sister"
    assert intent.other_person_asked("does your son have a cough?") == "son"


# -- 3. diagnosis questions put in other forms -----------------------------------------------------------------------

def test_an_illness_put_with_the_patients_opinion_asked_is_a_diagnosis():
    assert intent.kind_of("Is it shingles, do you reckon?") == "diagnosis"
    assert intent.kind_of("is it gout, d'you think?") == "diagnosis"
    assert intent.kind_of("do you think you've had a heart attack?") == "diagnosis"
    assert intent.kind_of("do you think he might have meningitis?") == "diagnosis"


def test_how_it_is_or_a_symptom_with_an_opinion_is_still_a_history_question():
    assert intent.kind_of("Is it worse, do you reckon?") == "yesno"
    assert intent.kind_of("do you think you've got a temperature?") == "yesno"
    assert intent.kind_of("have you ever had a heart attack?") == "yesno"


def test_the_patient_does_not_know_rather_than_saying_its_history():
    sim = patient([{"id": "pmh", "topic": "past medical history", "keywords": ["medical history", "heart attack"],
                    "answer": "Only my knees. No heart attack, nothing like that."}])
    reply = sim.answer("Do you think you've had a heart attack?")
    assert reply.facts == [] and not reply.text.startswith("No")
    assert sim.answer("have you ever had a heart attack?").facts == ["pmh"]


# -- 2. follow-ups whose pronoun points at a thing just told ---------------------------------------------------------

SPLINTER = [
    {"id": "splinter", "topic": "the splinter", "keywords": ["splinter", "wood", "thorn"],
     "answer": "I got a splinter of wood in my thumb at the allotment a week ago."},
    {"id": "out", "topic": "how the splinter was removed", "keywords": ["removed", "remove", "needle", "tweezers"],
     "answer": "My neighbour dug it out with a sewing needle."},
    {"id": "swelling", "topic": "when the swelling started", "keywords": ["when", "start", "swelling", "how long"],
     "answer": "The swelling started three days ago."},
    {"id": "ointment", "topic": "treatments tried", "keywords": ["ointment", "tried", "put on it", "antiseptic"],
     "answer": "Some antiseptic ointment from the chemist, twice a day. It made no difference."},
    {"id": "regular", "topic": "regular medicines", "keywords": ["medication", "tablets", "regular", "allopurinol"],
     "answer": "Allopurinol 100 mg every day."},
    {"id": "pmh", "topic": "past medical history", "keywords": ["medical history", "conditions", "illnesses"],
     "answer": "Gout in my feet for years. Nothing else."},
]


def test_getting_it_off_or_out_is_how_it_was_removed():
    sim = own(SPLINTER)
    sim.answer("Any splinters or thorns?")
    assert sim.answer("how did you get it out?").facts == ["out"]


def test_whether_it_helped_after_a_treatment_is_that_treatment_never_a_bare_no():
    sim = own(SPLINTER)
    sim.answer("Have you put anything on it?")
    reply = sim.answer("did it work?")
    assert reply.facts == ["ointment"] and reply.text != "No."


def test_a_treatment_that_says_nothing_of_its_effect_does_not_answer_whether_it_helped():
    sim = own([{"id": "drops", "topic": "treatments tried", "keywords": ["drops", "tried", "put in"],
                "answer": "The chemist gave me some eye drops."}])
    sim.answer("Have you tried anything for it?")
    assert sim.answer("did it help?").facts == []


def test_what_a_medicine_is_for_is_the_illness_it_treats():
    sim = own(SPLINTER)
    sim.answer("Regular meds?")
    assert sim.answer("what's that for?").facts == ["pmh"]


def test_a_medicine_told_with_what_it_is_for_is_said_again():
    sim = own([{"id": "bp_meds", "topic": "blood pressure tablets", "keywords": ["tablets", "amlodipine"],
                    "answer": "Amlodipine for my blood pressure."},
                   {"id": "pmh", "topic": "past medical history", "keywords": ["medical history", "conditions"],
                    "answer": "Blood pressure and a bad back."}])
    sim.answer("any tablets?")
    assert sim.answer("what's that for?").facts == ["bp_meds"]


def test_taking_it_after_a_medicine_is_that_medicine_not_when_the_illness_began():
    sim = own(SPLINTER)
    sim.answer("Regular meds?")
    reply = sim.answer("When did you last take it?")
    assert "swelling" not in reply.facts
    assert intent.takes_it("when did you last take it?")
    assert not intent.takes_it("what set it off this time?")


def test_when_it_started_after_a_medicine_is_still_the_illness():
    sim = own(SPLINTER)
    sim.answer("Regular meds?")
    assert sim.answer("when did the swelling start?").facts == ["swelling"]


SON = [
    {"id": "brother", "topic": "brother and unwell contacts", "keywords": ["brother", "siblings", "anyone else ill"],
     "answer": "His brother Tom had the same spots last week."},
    {"id": "spots", "topic": "the spots", "keywords": ["spots", "rash"], "answer": "Red spots on her tummy."},
]


def test_a_pronoun_of_the_other_sex_is_the_person_just_told_though_a_parent_speaks():
    sim = own(SON, sex="female", informant="parent")
    sim.answer("Anyone else at home unwell? brothers, sisters?")
    assert sim.answer("what did he have?").facts == ["brother"]
    # p54: his age is not recorded, so "how old is he?" is not known (docs/patient.md: a fact silent on what a "how
    # old" asks does not answer), never the brother's fact again nor the girl's own age
    sim = own(SON, sex="female", informant="parent")
    sim.answer("Anyone else at home unwell? brothers, sisters?")
    reply = sim.answer("how old is he?")
    assert reply.facts == [] and reply.kind == "default"


def test_a_pronoun_of_the_patients_own_sex_is_the_patient_when_a_parent_speaks():
    sim = own(SON, sex="female", informant="parent")
    sim.answer("Anyone else at home unwell? brothers, sisters?")
    assert "brother" not in sim.answer("how old is she?").facts


# -- 4. one shared word: who asked the doctor to come --------------------------------------------------------------

def test_who_asked_the_doctor_to_come_asks_nothing_of_them():
    assert intent.doctor_says("your son asked me to call you back.")
    assert intent.doctor_says("the care home rang us this morning.")
    assert not intent.doctor_says("has your son asked you to see someone?")
    sim = own(HOME)
    reply = sim.answer("Hi, I'm Dr Ahmed - your partner asked me to ring. Tell me about the camping trip.")
    assert reply.facts == ["camp"]


def test_a_question_of_the_person_who_asked_is_still_asked():
    sim = own(HOME)
    assert sim.answer("does your partner work?").facts == ["home"]


# -- 4. one shared word: one's own against the family's --------------------------------------------------------------

FAMILY = [
    {"id": "fh", "topic": "family history", "keywords": ["family", "mum", "dad", "eyesight", "glaucoma"],
     "answer": "My dad had glaucoma. Mum is well."},
    {"id": "vision", "topic": "eyesight", "keywords": ["vision", "blurred", "seeing"],
     "answer": "My vision is a bit blurred in the evenings."},
]


def test_ones_own_is_not_the_familys():
    sim = own(FAMILY)
    assert "fh" not in sim.answer("Any worries about your own eyesight?").facts
    assert sim.answer("anyone in the family with eye problems? glaucoma?").facts == ["fh"]

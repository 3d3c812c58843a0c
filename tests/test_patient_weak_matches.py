"""The grounded patient does not answer with a neighbouring fact (scoring.md, "The
consultation": "a reply states only the facts the question asks for"): a word that only says
when, a hedge, sweating for a fever, a second fact that owns no word of the question, facts
that tie, whole questions that are not follow-ups, and questions about someone's work or a
diagnosis get what they ask for or the fitting default."""

from __future__ import annotations

import copy

from medbench_tui.core.cases.model import patient_record
from medbench_tui.core.simulators import GroundedSimulator, intent, voice
from tests.test_consultation import CASE_DATA, fixture_case

EXTRA_FACTS = [
    {"id": "orthopnoea", "topic": "breathing when lying down", "keywords": ["pillows", "lie flat", "night"],
     "answer": "I need three pillows to sleep now."},
    {"id": "sweats", "topic": "sweating", "keywords": ["sweating", "clammy"], "answer": "I came over all clammy."},
    {"id": "surgery", "topic": "operations", "keywords": ["surgery", "operation", "operated"],
     "answer": "I had my appendix out when I was twelve."},
    {"id": "before", "topic": "similar episodes in the past", "keywords": ["before", "previous", "happened before"],
     "answer": "I had a chest infection like this two winters ago."},
    {"id": "home", "topic": "who is at home", "keywords": ["live", "home", "husband"],
     "answer": "I live with my husband, he is very good to me."},
]


def patient(facts: list[dict] | None = None, **changes) -> GroundedSimulator:
    answers = copy.deepcopy(CASE_DATA["additional_answers"]) + copy.deepcopy(facts or EXTRA_FACTS)
    return GroundedSimulator(patient_record(fixture_case(additional_answers=answers, **changes)))


def is_default(reply, kind: str) -> bool:
    return reply.facts == [] and reply.text in voice.DEFAULT_ANSWERS[kind]


def test_a_word_that_only_says_when_is_no_answer():
    sim = patient()
    assert is_default(sim.answer("Do you grind your teeth at night?"), "negative")
    assert sim.answer("Does lying flat at night bother your breathing?").facts  # with a subject of its own


def test_sweating_is_not_a_fever():
    sim = patient()
    assert "sweats" not in sim.answer("Have you been feverish?").facts
    assert sim.answer("Any sweating?").facts == ["sweats"]


def test_a_hedge_word_carries_no_topic():
    sim = patient(intro="Doctor, I've had a cough for three days and I almost fainted this morning.", facts=[
        {"id": "faint", "topic": "fainting", "keywords": ["faint", "fainted", "passed out"],
         "answer": "I went grey in the shower and had to sit on the floor."},
    ])
    assert sim.answer("What happened when you almost fainted?").facts == ["faint"]


def test_anything_for_the_pain_asks_for_the_medicines():
    sim = patient(facts=[
        {"id": "pain", "topic": "the pain", "keywords": ["sharp", "stabbing", "where"],
         "answer": "A sharp pain under my ribs."},
    ])
    assert sim.answer("Have you had anything for the pain?").facts == ["medications"]


def test_a_second_fact_must_own_a_word_of_the_question():
    sim = patient()
    assert sim.answer("Any previous operations?").facts == ["surgery"]  # "previous" alone owns nothing


def test_this_may_be_the_illness_itself():
    sim = patient()
    sim.answer("Have you had any operations?")
    assert sim.answer("Has this happened before?").facts == ["before"]


def test_facts_that_match_equally_go_by_the_keyword_worded_as_the_question():
    sim = patient(facts=[
        {"id": "attacks", "topic": "the attacks", "keywords": ["attacks", "between"],
         "answer": "The attacks last a minute or two."},
        {"id": "in_between", "topic": "how he is between attacks", "keywords": ["in between", "quiet"],
         "answer": "In between he is pale and quiet."},
    ])
    assert sim.answer("And how is he in between?").facts == ["in_between"]


def test_what_someone_does_is_their_work():
    sim = patient()
    assert intent.understood("What does your husband do?") == "What does your husband do for work?"
    assert intent.understood("What do you do when it hurts?") == "What do you do when it hurts?"
    assert is_default(sim.answer("What does your husband do?"), "uncertain")  # not who is at home
    assert is_default(sim.answer("What do you do for a living?"), "uncertain")  # "living" is no home here
    assert sim.answer("Who do you live with?").facts == ["home"]


def test_is_it_just_asks_to_confirm_a_diagnosis():
    assert intent.kind_of("Is this just my asthma playing up?") == "diagnosis"
    assert intent.kind_of("Is it only a virus?") == "diagnosis"
    assert intent.kind_of("Is it just on the left side?") == "yesno"
    assert intent.kind_of("Is it only when you walk?") == "yesno"
    assert patient().answer("Is this just a chest infection?").text in voice.DIAGNOSIS_UNSURE


def test_a_whole_question_without_a_subject_is_not_a_follow_up():
    sim = patient()
    assert sim.answer("Do you smoke?").facts == ["smoking"]
    assert is_default(sim.answer("And how are you feeling in yourself?"), "uncertain")
    sim.answer("Do you smoke?")
    assert sim.answer("How much?").facts == ["smoking"]  # a fragment stays with the topic


def pain_site_and_waterworks(site: str) -> GroundedSimulator:
    """A patient told where the pain is, with a waterworks fact that has "frequency" as a keyword."""
    sim = patient(facts=[
        {"id": "site", "topic": "where the pain is", "keywords": ["where", "site", "which side"], "answer": site},
        {"id": "waterworks", "topic": "urinary symptoms", "keywords": ["urine", "frequency", "stinging"],
         "answer": "No stinging when I pass water."},
    ])
    assert sim.answer("Whereabouts is it?").facts == ["site"]
    return sim


def test_constant_is_asked_of_the_symptom_just_described():
    sim = pain_site_and_waterworks("Low on the right, and it's there all the time.")
    assert sim.answer("Is it constant or does it come and go?").facts == ["site"]


def test_a_question_only_of_when_is_about_the_presenting_complaint():
    sim = patient(intro="Doctor, I keep getting dizzy spells.", facts=[
        {"id": "tablets", "topic": "medicines and recent changes", "keywords": ["tablets", "started", "changes"],
         "answer": "The doctor started me on a water tablet last month."},
        {"id": "dizzy_onset", "topic": "when the dizziness began", "keywords": ["when", "start", "began"],
         "answer": "It began on Monday, out of the blue."},
    ])
    assert sim.answer("When did you first notice the change?").facts == ["dizzy_onset"]  # one answer, not the tablets


def test_a_follow_up_of_how_goes_only_to_a_fact_about_the_same_symptom():
    sim = pain_site_and_waterworks("Low down on the right.")
    assert "waterworks" not in sim.answer("Is it constant or does it come and go?").facts


def test_how_long_is_answered_from_the_intro_when_no_fact_says_it():
    answers = [a for a in copy.deepcopy(CASE_DATA["additional_answers"]) if a["id"] != "onset"]
    sim = GroundedSimulator(patient_record(fixture_case(
        additional_answers=answers, intro="I've had this cough for about a fortnight now, since the 3rd.",
    )))
    reply = sim.answer("How long has this been going on?")
    assert reply.kind == "repeat" and reply.text.startswith("As I said, I've had this cough")


def test_the_circumstance_of_a_question_brings_no_second_fact():
    sim = patient(facts=[
        {"id": "blood", "topic": "blood in the stool", "keywords": ["blood", "bleeding", "red"],
         "answer": "No blood that I've seen."},
        {"id": "habit", "topic": "bowel habit", "keywords": ["bowels", "stools", "open your bowels", "looser"],
         "answer": "They've been looser for a month."},
    ])
    assert sim.answer("Any blood when you open your bowels?").facts == ["blood"]
    assert sim.answer("Any change when you open your bowels?").facts == ["habit"]


def test_a_word_the_record_does_not_know_makes_another_thing_of_the_next():
    sim = patient(facts=[
        {"id": "pregnancy_test", "topic": "home pregnancy test", "keywords": ["pregnancy test", "home test"],
         "answer": "I did a test at home on Sunday and it was positive."},
        {"id": "urine_infections", "topic": "previous urine infections", "keywords": ["cystitis", "water infection"],
         "answer": "I get cystitis about once a year."},
    ])
    assert is_default(sim.answer("When was your last cervical test?"), "uncertain")  # not the pregnancy test
    assert sim.answer("Have you done a pregnancy test?").facts == ["pregnancy_test"]
    assert sim.answer("Any urinary infections?").facts == ["urine_infections"]  # "urinary" is of the record's root


def test_a_concept_is_the_concept_whatever_qualifies_it():
    assert patient().answer("Any drug reactions?").facts == ["allergies"]  # "drug" is not in the record


def test_normally_says_when_and_what_about_is_the_rest():
    sim = patient(facts=[
        {"id": "usual_self", "topic": "what she is like when well", "keywords": ["baseline", "normal self"],
         "answer": "Normally she does her own shopping."},
    ])
    assert sim.answer("What is she normally like?").facts == ["usual_self"]
    assert sim.answer("What's your breathing normally like?").facts == ["breathless"]


FAINTS = [
    {"id": "urine", "topic": "waterworks", "keywords": ["urine", "wee", "passing"],
     "answer": "Passing urine is fine, no stinging."},
    {"id": "faints", "topic": "fainting", "keywords": ["faint", "fainted", "dizzy"],
     "answer": "I've never fainted, not once."},
]


def test_a_word_that_a_phrase_gives_a_meaning_means_the_phrase():
    # "passed" of "passed out" is a faint, not the urine passed
    sim = patient(FAINTS)
    assert sim.answer("Any trouble passing urine?").facts == ["urine"]
    reply = sim.answer("Any palpitations? Have you ever passed out?")
    assert reply.facts == ["faints"] and "urine" not in reply.text
    assert patient(FAINTS).answer("Do you pass out at all?").facts == ["faints"]


def test_what_time_asks_when():
    assert patient().answer("What time was it when you felt the shaking chills?").facts == ["onset"]
    assert patient().answer("what time exactly?").facts == ["onset"]
    sim = patient()
    sim.answer("Any phlegm?")
    assert sim.answer("and what time of day is it worst?").facts != ["onset"]  # a time of day, not when it began


SCHOOL = [
    {"id": "school", "topic": "school and friends", "keywords": ["school", "friends", "exams"],
     "answer": "I'm in Year 10, I've got a few good friends."},
    {"id": "meals", "topic": "what she eats", "keywords": ["eat", "meals", "food"],
     "answer": "Toast in the morning, a sandwich at lunch and whatever Dad cooks."},
]


def test_talk_me_through_asks_and_a_school_day_says_when():
    sim = patient(SCHOOL)
    assert sim.answer("Talk me through what you eat on a school day.").facts == ["meals"]


def test_a_kind_word_asks_for_nothing():
    sim = patient(SCHOOL)
    reply = sim.answer("I know it can be difficult to talk about. Honestly, what are your meals like?")
    assert reply.facts == ["meals"]
    assert patient(SCHOOL).answer("That must be hard.").facts == []


def test_travel_is_not_a_trip_and_fall():
    """"trip" is no name of travel in the vocabulary (it is as often a stumble): a travel question does not
    reach a falls fact keyed by "trip"."""
    falls = {"id": "falls", "topic": "falls", "keywords": ["falls", "fall", "trip", "unsteady"],
             "answer": "No falls. I walk a couple of miles most days."}
    sim = patient([falls])
    assert "falls" not in sim.answer("Have you travelled abroad recently?").facts
    assert sim.answer("Any trips or falls lately?").facts == ["falls"]

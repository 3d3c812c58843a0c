"""The failure classes of held-out round 16 fixed (issue 33), each held on wording and topics of its
own (not the round's cases): one shared word (or a word's stem) that picks the wrong fact with full confidence, and
follow-ups by pronoun or fragment that lose their subject."""

from __future__ import annotations

from medbench_tui.core.simulators import intent
from medbench_tui.core.simulators.lexicon import units
from tests.test_patient_round8_classes import patient

# -- 2. one shared word picks the wrong fact -------------------------------------------------------------------------

CLINIC = [
    {"id": "screening", "topic": "sexual health screening", "keywords": ["HIV", "HIV test", "screen", "clinic"],
     "answer": "I had a full screen at the clinic in March and it was all clear."},
    {"id": "hands", "topic": "the shaky hands", "keywords": ["shaking", "shaky", "tremor", "hands"],
     "answer": "My hands have been shaking when I hold a cup, for about two months."},
    {"id": "fam", "topic": "family history", "keywords": ["family", "mum", "dad", "clot"],
     "answer": "My mum had a clot in her leg in her sixties. Dad's well."},
]


def test_hives_are_a_rash_and_no_hiv_test():
    """'hives' cut to its stem is 'hiv': the rash is read by its one form (urticaria), so HIV names no rash."""
    assert not any("@rash" in u.terms for u in units("HIV test"))
    assert any("@rash" in u.terms for u in units("any hives?"))
    sim = patient(CLINIC)
    assert "screening" not in sim.answer("Any rashes at all?").facts
    assert "screening" not in sim.answer("have you come out in hives?").facts
    assert sim.answer("have you ever had an HIV test?").facts == ["screening"]


def test_a_rash_keyworded_hives_still_answers_a_rash_question():
    sim = patient([{"id": "welts", "topic": "itchy welts", "keywords": ["hives", "welts", "itchy"],
                    "answer": "I came out in hives on my tummy after the penicillin."}])
    assert sim.answer("any rash?").facts == ["welts"]


def test_shaking_alone_is_no_fever():
    """A hand that shakes is a tremor: 'any fevers?' is not the shaky hands; rigors and shivering still are fever."""
    sim = patient(CLINIC)
    reply = sim.answer("Have you had any fevers?")
    assert "hands" not in reply.facts
    sim = patient([{"id": "rigors", "topic": "fevers", "keywords": ["shivering", "rigors", "chills"],
                    "answer": "I've had shivering fits at night, teeth chattering."}])
    assert sim.answer("any temperatures?").facts == ["rigors"]


def test_a_diagnosis_put_as_a_question_with_then_gets_doubt_not_a_relative_fact():
    """'so is it a clot then?' puts a diagnosis: 'I don't know', never the mother's clot, never 'No'."""
    assert intent.kind_of("so is it a clot then?") == "diagnosis"
    assert intent.kind_of("is it a stroke then, doctor?") == "diagnosis"
    assert intent.kind_of("is it gallstones after all?") == "diagnosis"
    sim = patient(CLINIC)
    reply = sim.answer("so is it a clot then?")
    assert reply.facts == []
    assert not reply.text.lower().startswith("no")


def test_how_it_is_put_with_then_is_no_diagnosis():
    for asked in ("is it worse then?", "is it sore then?", "is it constant then?", "is it there then?",
                  "is it both legs then?"):
        assert intent.kind_of(asked) != "diagnosis", asked
    sim = patient(CLINIC)
    sim.answer("any shaking?")
    assert intent.kind_of("is it both hands then?") != "diagnosis"


# a word that is also how a pain feels ("cramps", "burning") names the fact whose topic says it
BLADDER = [
    {"id": "burning", "topic": "the burning when passing urine", "keywords": ["burning", "stinging", "pee"],
     "answer": "It burns like mad when I pee, for the last four days."},
    {"id": "temps", "topic": "temperatures at home", "keywords": ["temperature", "thermometer", "readings"],
     "answer": "I took my temperature this morning and it was 37.9."},
    {"id": "loin", "topic": "the back pain", "keywords": ["back", "loin", "pain", "side"],
     "answer": "There's a dull ache in my right side at the back, it comes and goes."},
]


def test_an_open_question_naming_a_fact_by_a_word_of_how_it_feels_leaves_the_topic():
    sim = patient(BLADDER)
    assert sim.answer("have you checked your temperature?").facts == ["temps"]
    assert sim.answer("Tell me about the burning").facts == ["burning"]


def test_an_open_question_of_a_quality_no_fact_is_about_stays_on_the_pain_just_told():
    sim = patient(BLADDER)
    assert sim.answer("any back pain?").facts == ["loin"]
    assert sim.answer("tell me about the throbbing").facts == ["loin"]  # how the back pain feels, of that pain


# -- 1. a follow-up by pronoun keeps its person ----------------------------------------------------------------------

KIN = [
    {"id": "fhx", "topic": "family history", "keywords": ["family", "brother", "dad", "runs in the family"],
     "answer": "My brother had a bleed on the brain in his forties. Dad's fine."},
    {"id": "home", "topic": "who lives at home", "keywords": ["live", "home", "who lives with you", "partner"],
     "answer": "I live with my partner and our daughter."},
    {"id": "own_meds", "topic": "regular medicines", "keywords": ["medicines", "tablets", "treatment", "meds"],
     "answer": "I take omeprazole every morning, nothing else."},
    {"id": "smoking", "topic": "smoking", "keywords": ["smoke", "smoking", "cigarettes"],
     "answer": "I gave up ten years ago."},
]


def test_she_or_he_after_a_relative_just_told_is_that_relative():
    sim = patient(KIN)
    assert sim.answer("anything that runs in the family?").facts == ["fhx"]
    assert sim.answer("how old was he when he had the bleed?").facts == ["fhx"]


def test_them_after_the_people_at_home_is_those_people():
    sim = patient(KIN)
    assert sim.answer("who's at home with you?").facts == ["home"]
    assert sim.answer("and are either of them poorly at the moment?").facts == ["home"]


def test_a_pronoun_asking_of_what_the_relative_fact_does_not_say_is_not_that_fact():
    sim = patient(KIN)
    sim.answer("anything that runs in the family?")
    reply = sim.answer("does he smoke?")  # the fact says nothing of smoking: not the brother's bleed again
    assert "fhx" not in reply.facts


def test_a_fresh_question_after_a_relative_is_a_question_of_its_own():
    sim = patient(KIN)
    sim.answer("anything that runs in the family?")
    reply = sim.answer("do you smoke at all?")
    assert "fhx" not in reply.facts and "As I said" not in reply.text


def test_they_who_are_no_one_of_the_last_reply_leave_it_for_a_fact_that_answers():
    sim = patient(KIN)
    sim.answer("who's at home with you?")
    reply = sim.answer("they gave you some tablets for your stomach, what were they?")
    assert "home" not in reply.facts and "As I said" not in reply.text  # of the tablets, not the people at home


# a pointing question that says another fact's keyword whole, of which the fact pointed at says no word as written
INHALERS = [
    {"id": "asthma", "topic": "when the asthma was diagnosed and how it is treated",
     "keywords": ["asthma", "diagnosed", "how long", "treatment", "started"],
     "answer": "I was diagnosed at school. The GP started me on a blue and a brown inhaler."},
    {"id": "adherence", "topic": "whether she uses the preventer as prescribed",
     "keywords": ["take them", "forget", "every day", "missed"],
     "answer": "I forget the brown one most days, to be honest."},
    {"id": "rescue", "topic": "the new rescue pack", "keywords": ["rescue pack", "prednisolone", "new"],
     "answer": "They gave me a rescue pack of prednisolone last month, I haven't needed it."},
]


def test_a_pointing_question_that_says_another_facts_keyword_whole_is_that_fact():
    sim = patient(INHALERS)
    assert sim.answer("how long have you had asthma?").facts == ["asthma"]
    assert sim.answer("do you manage to take them every day?").facts == ["adherence"]


def test_a_pointing_question_the_fact_pointed_at_says_a_word_of_stays_on_it():
    sim = patient(INHALERS)
    assert sim.answer("anything new recently, like a rescue pack?").facts == ["rescue"]
    assert sim.answer("have you needed it every day?").facts == ["rescue"]  # "needed": not the preventer's "every day"


# "when was that?" after a reply of several facts: the one that says a point in time
FALLS = [
    {"id": "dizzy", "topic": "dizzy spells", "keywords": ["dizzy", "dizziness", "spells"],
     "answer": "I had a bad dizzy spell on Tuesday morning at the bus stop."},
    {"id": "fall", "topic": "falls", "keywords": ["fall", "falls", "fell"],
     "answer": "I've been losing my balance and falling, for a good few months now."},
]


def test_when_after_several_facts_is_the_one_that_says_a_point_in_time():
    sim = patient(FALLS)
    assert sim.answer("any falls or dizzy spells?").facts == ["dizzy", "fall"]
    assert sim.answer("when was that exactly?").facts == ["dizzy"]  # the spell on Tuesday, not months of falling


def test_when_after_one_fact_stays_on_it():
    sim = patient(FALLS)
    assert sim.answer("any falls?").facts == ["fall"]
    assert sim.answer("when was that?").facts == ["fall"]


# "what do you mean by ...?" asks what a word meant: "mean" is no means of harm
def test_what_do_you_mean_by_a_word_is_the_fact_of_that_word():
    assert not any(t.startswith("@means") for u in units("what do you mean by wobbly?") for t in u.terms)
    sim = patient([
        {"id": "balance", "topic": "unsteadiness", "keywords": ["wobbly", "unsteady", "balance"],
         "answer": "I feel like I'm on a boat, I have to hold the wall."},
        {"id": "guns", "topic": "access to means of harm", "keywords": ["guns", "weapons", "access to"],
         "answer": "There's nothing like that in the house."},
    ])
    assert sim.answer("What do you mean by wobbly?").facts == ["balance"]
    assert sim.answer("any weapons in the house?").facts == ["guns"]


def test_they_after_a_reply_of_symptoms_and_the_people_at_home_are_the_symptoms():
    """'when did they start?' after a reply that told of the palpitations and who is at home: the palpitations (a
    plural pronoun names people only when everything the last reply told was of people)."""
    sim = patient([
        {"id": "home", "topic": "who lives at home", "keywords": ["live", "home", "son", "alone"],
         "answer": "I live on my own; my son calls in most days."},
        {"id": "palps", "topic": "palpitations", "keywords": ["palpitations", "heart racing", "fluttering"],
         "answer": "My heart races for a few minutes at a time, it started about three weeks ago."},
    ])
    sim.answer("tell me about these palpitations, and who's at home with you?")
    reply = sim.answer("when did they start?")
    assert "home" not in reply.facts

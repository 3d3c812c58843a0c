"""The failure classes of held-out round 21 fixed (issue 33), each held on wording and topics of its
own (not the round's cases), with negative tests: the patient's own idea or worry of what the illness is; a
question that shares one word with a fact whose asked aspect is something else."""

from __future__ import annotations

from medbench_tui.core.simulators import intent
from tests.test_patient_round8_classes import patient

MOOD = {"id": "mood", "topic": "mood", "keywords": ["mood", "low", "worried", "anxious", "stress"],
        "answer": "I've been a bit low and worried about work, not sleeping great."}
HEADACHE = {"id": "headache", "topic": "the headaches", "keywords": ["headache", "head", "started"],
            "answer": "The headaches started about six weeks ago, mostly first thing."}
IDEAS = {"id": "ideas_concerns", "topic": "what she is worried about",
         "keywords": ["worried", "concern", "think it is", "hoping"],
         "answer": "My aunt had a brain tumour, so that's been in the back of my mind."}


def test_the_patients_own_idea_of_the_illness_is_asked():
    for asked in ("Do you have any idea what it might be?", "have you wondered if it's a migraine?",
                  "What have you been worried it might be?", "any thoughts yourself on what's causing it?",
                  "Any worries about what it could be?"):
        assert intent.asks_ideas(asked), asked
    for asked in ("any idea when it started?", "are you worried about your weight?", "what makes it worse?",
                  "do you think it's worse in the mornings?", "what's worrying you about the operation?"):
        assert not intent.asks_ideas(asked), asked


def test_with_no_fact_of_worries_the_patient_is_not_sure_never_no_nor_the_mood():
    sim = patient([MOOD, HEADACHE])
    for asked in ("Do you have any idea what it might be?", "I suppose you've wondered if it's a migraine?",
                  "What have you been worried it might be?", "any thoughts yourself on what's causing it?"):
        reply = patient([MOOD, HEADACHE]).answer(asked)
        assert reply.facts == [], asked  # "worried" is not the mood fact
        assert not reply.text.lower().startswith("no"), (asked, reply.text)
    assert sim.answer("how's your mood been?").facts == ["mood"]  # the mood is still the mood's
    assert sim.answer("have you been feeling worried or anxious?").facts == ["mood"]


def test_of_several_facts_of_ideas_the_one_that_fits_answers_and_symptom_ideas_are_no_worries():
    plans = {"id": "plans", "topic": "grandiose ideas", "keywords": ["ideas", "plans"],
             "answer": "He says he'll be famous by Christmas."}
    assert patient([plans, HEADACHE]).answer("Do you have any idea what it might be?").facts == []
    assert patient([plans, HEADACHE, IDEAS]).answer("Do you have any idea what it might be?").facts == [
        "ideas_concerns"]


def test_a_fact_of_the_patients_worries_answers():
    sim = patient([MOOD, HEADACHE, IDEAS])
    assert sim.answer("Do you have any idea what it might be?").facts == ["ideas_concerns"]
    assert patient([MOOD, HEADACHE, IDEAS]).answer("What have you been worried it might be?").facts == [
        "ideas_concerns"]
    assert patient([MOOD, HEADACHE, IDEAS]).answer("when did the headaches start?").facts == ["headache"]


KNEE = [
    {"id": "knee_onset", "topic": "onset of the swollen knee", "keywords": ["when", "start", "began", "how long"],
     "answer": "It swelled up about two weeks ago, just the right knee."},
    {"id": "stiffness", "topic": "stiffness", "keywords": ["stiff", "stiffness", "morning"],
     "answer": "It's stiff for about an hour in the mornings."},
    {"id": "gout", "topic": "past medical history", "keywords": ["medical history", "gout", "conditions"],
     "answer": "I had gout in my big toe years ago, nothing else."},
]


def test_a_question_of_the_side_that_names_another_facts_topic_is_that_fact():
    sim = patient(KNEE)
    assert sim.answer("When did the knee start swelling?").facts == ["knee_onset"]
    assert sim.answer("How's the stiffness on that side?").facts == ["stiffness"]


def test_which_side_alone_stays_on_the_fact_just_told():
    sim = patient(KNEE)
    assert sim.answer("When did the knee start swelling?").facts == ["knee_onset"]
    assert sim.answer("which side is it?").facts == ["knee_onset"]


ROOTS = [
    {"id": "background", "topic": "ethnicity and where she grew up", "keywords": ["ethnicity", "grew up", "Nigeria"],
     "answer": "I grew up in Lagos and came here to study when I was nineteen."},
    {"id": "fhx", "topic": "family history", "keywords": ["family", "mother", "father", "runs in the family"],
     "answer": "My father has sickle cell trait and my mother has high blood pressure, back in Nigeria."},
]


def test_where_a_person_is_from_is_their_origin_not_the_familys_illnesses():
    assert patient(ROOTS).answer("Where is your family from originally?").facts == ["background"]
    assert patient(ROOTS).answer("where are your parents from?").facts == ["background"]
    assert patient(ROOTS).answer("Any blood disorders in the family?").facts == ["fhx"]  # the family's illnesses


def test_being_born_of_a_pregnancy_is_no_origin():
    from medbench_tui.core.simulators.matcher import units
    assert any("@birth" in u.terms for u in units("was he born early?"))
    assert not any("@origin" in u.terms for u in units("was he born early?"))


SKIN = [
    {"id": "mouth_ulcers", "topic": "mouth ulcers", "keywords": ["mouth", "ulcers", "sores", "gums"],
     "answer": "He's had ulcers on his gums and inside his cheeks since Tuesday."},
    {"id": "nappy", "topic": "sore bottom", "keywords": ["nappy", "nappy rash", "bottom", "sore"],
     "answer": "His bottom is a bit sore from the nappy, no broken skin."},
]


def test_sores_asked_of_the_bottom_are_not_the_mouths():
    for asked in ("Any ulcers or soreness around his bottom?", "any sores on his bum?"):
        sim = patient(SKIN[:1])
        sim.answer("Any ulcers in his mouth?")
        reply = sim.answer(asked)
        assert reply.facts == [], asked  # the record never says the bottom: not the mouth's sores "as I said"
        assert "as i said" not in reply.text.lower()
    assert patient(SKIN).answer("Any sores around his bottom?").facts == ["nappy"]  # a fact of the bottom answers
    assert patient(SKIN[:1]).answer("Any sores in his mouth?").facts == ["mouth_ulcers"]


def test_the_bottom_of_something_is_no_part_of_the_body():
    from medbench_tui.core.simulators.matcher import units
    assert not any("@anus" in u.terms for u in units("any pain at the bottom of your back?"))
    assert any("@anus" in u.terms for u in units("is his bottom sore?"))

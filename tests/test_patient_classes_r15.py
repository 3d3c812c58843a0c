"""The failure classes of held-out round 13 fixed for round 15, each held on wording of its own."""

from __future__ import annotations

from medbench_tui.core.simulators.base import SURE
from medbench_tui.core.simulators.lexicon import units
from tests.test_patient_round8_classes import patient

# -- a list that ends in a part of the body asks every alternative there ------------------------


def test_a_heard_pain_is_not_said_again_surely_for_pain_of_a_part_it_never_names():
    sim = patient([])
    assert sim.answer("any chest pain?").facts == ["chest_pain"]
    reply = sim.answer("any pain or itching in your ears?")
    assert "chest_pain" not in reply.facts or reply.confidence < SURE


def test_a_heard_pain_is_still_said_again_for_a_list_ending_in_its_own_part():
    sim = patient([])
    assert sim.answer("any chest pain?").facts == ["chest_pain"]
    assert "chest_pain" in sim.answer("any pain or tightness in your chest?").facts


def test_a_part_is_a_part_of_the_body_in_lay_and_clinical_words():
    for said in ("testicles", "scrotum"):
        assert any("@testicle" in u.terms for u in units(f"any swelling of the {said}?")), said


# -- sensation is not power ---------------------------------------------------------------------

POWER = {"id": "power", "topic": "weakness", "keywords": ["weakness", "weak", "strength"],
         "answer": "My legs have felt weak on the stairs this week, but nothing else."}


def test_tingling_and_numbness_are_their_own_concept_not_weakness():
    for said in ("pins and needles", "tingling", "numb"):
        terms = {t for u in units(f"any {said}?") for t in u.terms}
        assert "@numbness" in terms and "@weakness" not in terms, said
    terms = {t for u in units("any weakness or numbness?") for t in u.terms}
    assert {"@weakness", "@numbness"} <= terms


def test_a_heard_weakness_is_no_answer_to_tingling_in_the_hands():
    sim = patient([POWER])
    assert sim.answer("any weakness?").facts == ["power"]
    reply = sim.answer("any tingling or numbness in your hands?")
    assert "power" not in reply.facts or reply.confidence < SURE


# -- a generic symptom asked of a place is asked there ------------------------------------------

BOWELS = {"id": "bowels", "topic": "bowel habit", "keywords": ["bowels", "stools", "poo", "constipated", "diarrhoea"],
          "answer": "Going once a day as usual, nothing loose."}
BOWEL_BLOOD = {"id": "bowel_blood", "topic": "rectal bleeding",
               "keywords": ["blood in poo", "rectal bleeding", "black", "bleeding", "blood"],
               "answer": "No, nothing red and nothing black."}
WATERWORKS = {"id": "waterworks", "topic": "waterworks", "keywords": ["waterworks", "urine", "wee", "blood", "burning"],
              "answer": "No burning and no blood when I pass water."}


def test_blood_asked_of_a_place_goes_to_the_fact_of_blood_there_not_of_the_place_alone():
    sim = patient([BOWELS, BOWEL_BLOOD, WATERWORKS])
    matcher = sim.planner.matcher
    assert matcher.score("any blood in the stools?", matcher.facts)[0].source.id == "bowels"  # the place scores best
    assert sim.answer("how are your bowels?").facts == ["bowels"]
    assert sim.answer("any blood in your stools at all?").facts == ["bowel_blood"]
    assert sim.answer("sorry, again: any blood in the stools?").facts == ["bowel_blood"]


# -- an earlier pregnancy is not the pregnancy now ----------------------------------------------

EXPECTING = {"id": "expecting", "topic": "pregnancy now",
             "keywords": ["pregnant", "pregnancy", "weeks", "midwife", "scan"],
             "answer": "I'm twenty weeks pregnant with my third; the midwife started seeing me in the spring."}


def test_an_earlier_pregnancy_is_its_own_concept_speaking_weakly_for_pregnancy():
    for said in ("last pregnancy", "previous pregnancies", "first pregnancy"):
        terms = {t for u in units(f"any trouble in your {said}?") for t in u.terms}
        assert "@previous_pregnancy" in terms, said


def test_the_pregnancy_now_is_not_said_again_surely_for_a_question_of_an_earlier_one():
    sim = patient([EXPECTING])
    assert sim.answer("are you pregnant at the moment?").facts == ["expecting"]
    for asked in ("did anything go wrong in your previous pregnancies?", "any trouble with the first pregnancy?"):
        reply = sim.answer(asked)
        assert "expecting" not in reply.facts or reply.confidence < SURE, asked

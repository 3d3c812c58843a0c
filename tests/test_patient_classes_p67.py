"""The failure classes of held-out round 30 fixed (p67), each held on wording of its own."""

from __future__ import annotations

from medbench_tui.core.simulators.lexicon import units
from medbench_tui.core.simulators.matcher import alternatives
from tests.test_patient_round8_classes import patient


def concepts(text: str) -> set[str]:
    return {t for u in units(text) for t in u.terms if t.startswith("@")}


# -- a small word is no phrase it only shares a stem with ("even" of "evening") ---------------------

def test_a_small_word_is_not_the_longer_word_of_its_stem():
    assert "@time_of_day" not in concepts("no chest pain at all, even once?")
    assert "@time_of_day" in concepts("any chest pain in the evening?")  # the word itself still says when
    assert "@time_of_day" in concepts("is it worse in the evenings?")


SPIT = {"id": "haemoptysis", "topic": "blood in the sputum", "keywords": ["blood", "sputum", "phlegm", "spit"],
        "answer": "No blood in my phlegm at all, it's always been clear."}


def test_a_confirmation_widened_by_even_is_the_heard_fact_again():
    sim = patient([SPIT])
    assert sim.answer("Have you coughed up any blood?").facts == ["haemoptysis"]
    again = sim.answer("no blood in the phlegm at all, even once?")
    assert again.facts == ["haemoptysis"]
    assert not again.text.startswith("No.")


# -- a rough amount said with "or" is one amount, not a list of alternatives -----------------------

def test_a_rough_amount_with_or_is_no_list():
    for asked in ("any fever in the last day or two?", "no blood in the phlegm, even a week or two ago?",
                  "any vomiting in the last 2 or 3 days?"):
        assert alternatives(asked) == (), asked


def test_a_list_beside_a_rough_amount_still_splits():
    assert alternatives("any cough or wheeze in the last day or two?") == (
        "any cough", "any wheeze in the last day or two?")
    assert len(alternatives("any pain in the day or night?")) == 2  # times of day, not an amount
    assert len(alternatives("any rash or itching?")) == 2


def test_a_rough_amount_gets_no_denial_of_half_of_it():
    sim = patient([SPIT])
    sim.answer("Any blood in your sputum?")
    reply = sim.answer("no blood in your spit at all, even a week or two ago?")
    assert reply.facts == ["haemoptysis"]
    assert "two ago" not in reply.text.lower()

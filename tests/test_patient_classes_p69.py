"""The failure classes of held-out round 30 fixed (p69), each held on wording of its own."""

from __future__ import annotations

from medbench_tui.core.simulators.intent import without_discourse
from medbench_tui.core.simulators.lexicon import units
from medbench_tui.core.simulators.matcher import alternatives
from medbench_tui.core.simulators.question import read_message
from tests.test_patient_round8_classes import patient

COUGH = {"id": "cough", "topic": "cough", "keywords": ["cough"], "answer": "A dry cough for two weeks, worse at night."}
RASH = {"id": "rash", "topic": "rash", "keywords": ["rash", "spots"],
        "answer": "No rash anywhere, my skin's been fine."}


# -- a lead-in of discourse is no question part -----------------------------------------------------

def test_a_lead_in_of_discourse_asks_nothing():
    for asked, left in (("Just to check - no rash at all?", "no rash at all?"),
                        ("Quick question: any cough?", "any cough?"),
                        ("Just to be clear, no rash?", "no rash?"),
                        ("Can I just confirm - no rash anywhere?", "no rash anywhere?")):
        assert [q.written for q in read_message(asked).questions] == [left], asked


def test_the_same_words_asking_something_stay_a_question():
    assert without_discourse("Can I just check your pulse?") == "Can I just check your pulse?"
    assert without_discourse("Did it come on quickly?") == "Did it come on quickly?"
    assert [q.written for q in read_message("Just to check").questions] == ["Just to check"]  # alone: left as said


def test_a_lead_in_gets_the_fact_not_a_default_of_its_word():
    sim = patient([COUGH, RASH])
    reply = sim.answer("Quick question: any cough?")
    assert reply.facts == ["cough"]
    reply = sim.answer("Just to check - no rash at all?")
    assert reply.facts == ["rash"]
    assert "check" not in reply.text.lower()


# -- a rough amount after a comma is no alternative ---------------------------------------------------

def test_a_rough_amount_after_a_comma_is_no_alternative():
    assert alternatives("any wheeze, even once or twice?") == ()
    assert alternatives("any vomiting, even two or three times?") == ()
    assert len(alternatives("any dizziness, or fainting, even once?")) == 2  # a real list still splits
    assert len(alternatives("any rash or itching?")) == 2


def test_a_rough_amount_after_a_comma_gets_no_denial_of_it():
    reply = patient([COUGH]).answer("any cough, even once or twice?")
    assert "twice" not in reply.text.lower()
    assert not reply.text.startswith("No")  # the record says there is a cough: no denial


# -- a bare "sick" says either: an alternative of nausea is not denied beside it ---------------------------

def _concepts(text: str) -> set[str]:
    return {t for u in units(text) for t in u.terms if t.startswith("@")}


def test_a_bare_sick_is_nausea_or_vomiting_a_phrase_says_which():
    assert {"@nausea", "@vomiting"} <= _concepts("I'm sick with the worst ones")
    assert "@vomiting" not in _concepts("do you feel sick?")  # a phrase still says which
    assert "@nausea" not in _concepts("have you been sick?")


SPINS = {"id": "attacks", "topic": "what comes with the dizzy attacks", "keywords": ["dizzy", "spinning", "sick"],
         "answer": "The room spins and I'm sick with the worst ones."}


def test_an_alternative_the_fact_says_by_a_lay_word_is_not_denied():
    reply = patient([SPINS]).answer("With the worst dizzy attacks, any N/V or ringing in the ears?")
    assert reply.facts == ["attacks"]
    assert "no nausea" not in reply.text.lower() and "no vomiting" not in reply.text.lower()
    assert "ringing" in reply.text.lower() or "tinnitus" in reply.text.lower()  # the one not said is still denied

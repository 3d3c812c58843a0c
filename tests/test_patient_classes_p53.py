"""The failure class (issue 33), held on wording and topics of its own: a question of the whole
medicine list asks the medicines the patient holds back (the first ask, deflected), not the supplements, herbal
remedies, gym products or recreational drugs held back, which a patient does not count as medicines; a held-back
over-the-counter painkiller or a named drug still is."""

from __future__ import annotations

from tests.test_patient_round8_classes import patient

KNEE = {"id": "knee", "topic": "the knee pain", "keywords": ["knee", "pain", "swelling"],
        "answer": "My left knee has ached for a month, worse on stairs."}
WORT = {"id": "wort", "topic": "remedies: St John's wort for low mood",
        "keywords": ["herbal", "St John's wort", "mood"],
        "answer": "I've been taking St John's wort from the health food shop for my mood since March.",
        "delayed": True}
POWDER = {"id": "powder", "topic": "supplements - protein powder and pre-workout",
          "keywords": ["protein", "powder", "gym"],
          "answer": "I have a protein powder after the gym most days, and a pre-workout drink.", "delayed": True}
CANNABIS = {"id": "cannabis", "topic": "tablets at parties (ecstasy) and cannabis", "keywords": ["ecstasy", "weed"],
            "answer": "I take ecstasy at parties now and then, and smoke a bit of weed to sleep.", "delayed": True}
GYM = {"id": "gym_steroids", "topic": "steroids from the gym", "keywords": ["steroids", "injections", "gym"],
       "answer": "A lad at the gym sells me steroid injections; I've done two cycles this year.", "delayed": True}
SERTRALINE = {"id": "sertraline", "topic": "sertraline (withheld at first)", "keywords": ["sertraline", "mood"],
              "answer": "I'm on sertraline too, 50 milligrams, for my mood.", "delayed": True}
CO_CODAMOL = {"id": "cocodamol", "topic": "over-the-counter painkillers", "keywords": ["co-codamol", "painkillers"],
              "answer": "I've been buying co-codamol at the chemist for the knee, eight a day.", "delayed": True}
MIXED = {"id": "mixed", "topic": "naproxen and protein shakes", "keywords": ["naproxen", "protein", "shakes"],
         "answer": "I take naproxen for the knee, and protein shakes after training.", "delayed": True}


def _first_ask_is(fact: dict, medicines_question: str, follow_up: str) -> bool:
    """Was the medicines question the first ask of a held-back fact: is it told at the follow-up?"""
    sim = patient([fact, KNEE], behavior=["delayed_disclosure"])
    first = sim.answer(medicines_question)
    assert fact["id"] not in first.facts
    return fact["id"] in sim.answer(follow_up).facts


def test_a_herbal_remedy_is_not_asked_by_the_medicine_list():
    assert not _first_ask_is(WORT, "Do you take any regular medications?", "Any herbal remedies, St John's wort?")


def test_a_gym_product_is_not_asked_by_the_medicine_list():
    assert not _first_ask_is(POWDER, "What medicines are you on at the moment?",
                             "Anything from the gym, like protein powder?")


def test_recreational_drugs_are_not_asked_by_the_medicine_list():
    assert not _first_ask_is(CANNABIS, "Any meds?", "Do you use recreational drugs - ecstasy, cannabis?")


def test_anabolic_steroids_from_the_gym_are_not_asked_by_the_medicine_list():
    assert not _first_ask_is(GYM, "Are you on any medication?", "Do you use anything from the gym - steroids?")


def test_a_held_back_drug_is_still_asked_by_the_medicine_list():
    assert _first_ask_is(SERTRALINE, "What medicines are you on at the moment?", "Any other medicines - for mood?")


def test_a_held_back_over_the_counter_painkiller_is_still_asked_by_the_medicine_list():
    assert _first_ask_is(CO_CODAMOL, "Do you take any regular medications?",
                         "Any painkillers you buy yourself from the chemist?")


def test_a_fact_of_a_medicine_and_a_supplement_is_asked_by_the_medicine_list():
    assert _first_ask_is(MIXED, "What medicines are you on at the moment?", "Anything else - naproxen, shakes?")

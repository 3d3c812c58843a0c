"""The failure classes of held-out rounds 9 to 14 fixed, each held on wording of its own."""

from __future__ import annotations

from tests.test_patient_round8_classes import patient

# -- the whole past history holds a long-term illness a fact of its own tells -------------------

OTHER_HISTORY = {"id": "history", "topic": "other past medical history", "keywords": ["medical history", "conditions"],
                 "answer": "I had my appendix out as a teenager, and I've got an underactive bladder."}
EPILEPSY = {"id": "epilepsy", "topic": "epilepsy and how well it is controlled", "keywords": ["fits", "seizures"],
            "answer": "I've had epilepsy since I was twenty. No fits for three years on the lamotrigine."}


def test_the_whole_history_asked_tells_the_long_term_illness_too():
    assert patient([OTHER_HISTORY, EPILEPSY]).answer("any medical history I should know about?").facts == [
        "history", "epilepsy"]
    assert "epilepsy" in patient([OTHER_HISTORY, EPILEPSY]).answer("what else do you see your GP for?").facts


def test_one_organ_asked_or_the_illness_heard_is_not_the_long_term_illness():
    assert "epilepsy" not in patient([OTHER_HISTORY, EPILEPSY]).answer("any kidney problems?").facts
    assert "epilepsy" not in patient([OTHER_HISTORY, EPILEPSY]).answer("any medical problems in the family?").facts
    sim = patient([OTHER_HISTORY, EPILEPSY])
    assert sim.answer("do you have any seizures?").facts == ["epilepsy"]
    assert sim.answer("any other medical history?").facts == ["history"]


# -- "poorly" is unwell, and "anyone else at home" asks what the people there have ------------------

FLAT = {"id": "flat", "topic": "who lives at home", "keywords": ["home", "live with", "lives with", "family at home"],
        "answer": "I share a flat with my girlfriend and her brother."}
BUG = {"id": "bug", "topic": "others with the same bug", "keywords": ["anyone else", "unwell", "bug", "same thing"],
       "answer": "My girlfriend had the same runs last week, she's better now."}


def test_poorly_is_unwell():
    assert patient([FLAT, BUG]).answer("has anyone you know been poorly?").facts == ["bug"]


def test_anyone_at_home_unwell_is_the_illness_not_the_household():
    assert patient([FLAT, BUG]).answer("anybody else at home been poorly lately?").facts == ["bug"]
    assert patient([FLAT, BUG]).answer("who's at home with you?").facts == ["flat"]



# -- what the illness stops the patient doing is a loss of function, not the help at home ------------

HELP = {"id": "help", "topic": "living situation and help", "keywords": ["live", "alone", "help", "manage", "cope"],
        "answer": "I live alone in a flat. My son does my shopping."}
LIMITS = {"id": "limits", "topic": "the breathlessness and how it affects him",
          "keywords": ["breathless", "short of breath", "puffed"],
          "answer": "I used to do the allotment every day. Now I can only get to the end of the road."}


def test_what_cannot_be_done_any_more_is_the_loss_of_function():
    assert patient([HELP, LIMITS]).answer("what's stopped you doing things you used to manage?").facts[0] == "limits"
    assert patient([HELP, LIMITS]).answer("is there anything you could do before that you can't now?").facts == [
        "limits"]


def test_managing_at_home_is_still_the_help():
    assert patient([HELP, LIMITS]).answer("do you have help at home?").facts == ["help"]


# -- "playing up" asks how the illness named has been ----------------------------------------------

GOUT = {"id": "gout", "topic": "gout attacks this year", "keywords": ["gout", "attacks", "big toe"],
        "answer": "My gout's been quiet since the summer, just the one attack in June."}


KNEE = {"id": "knee", "topic": "how the knee swelling has changed", "keywords": ["knee", "swelling", "changed"],
        "answer": "The knee swelling has got worse over time."}


def test_an_illness_playing_up_is_that_illness():
    """A record that tells of change somewhere (most do): the aspect weighs as a known word, not a stranger's."""
    assert patient([GOUT, KNEE]).answer("has your gout been acting up lately?").facts == ["gout"]
    assert patient([GOUT, KNEE]).answer("has the gout been playing up?").facts == ["gout"]


# -- going to a place is not the unwell contacts there ----------------------------------------------

CONTACTS = {"id": "contacts", "topic": "unwell contacts and what is going round",
            "keywords": ["contacts", "anyone else", "school", "unwell", "going round"],
            "answer": "A few in her class have had a tummy bug this week."}


def test_how_often_one_goes_to_a_place_is_not_the_contacts_there():
    reply = patient([CONTACTS]).answer("how many days a week does she go to school?")
    assert reply.facts == [] and not reply.text.startswith("No")
    assert patient([CONTACTS]).answer("is anyone at school unwell?").facts == ["contacts"]
    assert patient([CONTACTS]).answer("anything going round school?").facts == ["contacts"]

"""The failure classes of held-out round 13 fixed for round 14, each held on wording of its own."""

from __future__ import annotations

from medbench_tui.core.simulators import intent, voice
from tests.test_patient_round8_classes import patient

SIGHT = {"id": "sight", "topic": "eyesight", "keywords": ["vision", "eyesight", "blurred", "double vision"],
         "answer": "My eyesight is fine, no blurring or double vision."}


# -- a repeat is a repeat of what is asked ------------------------------------------------------

def test_a_follow_up_whose_own_words_find_another_heard_fact_does_not_say_it_again():
    sim = patient([SIGHT])
    assert sim.answer("when did it all start?").facts == ["onset"]
    assert sim.answer("any problems with your vision?").facts == ["sight"]
    reply = sim.answer("how long since you last saw the physio?")
    assert reply.facts == [] and "As I said" not in reply.text


def test_a_follow_up_on_the_fact_just_told_still_gets_it_again():
    sim = patient([SIGHT])
    assert sim.answer("any problems with your vision?").facts == ["sight"]
    assert sim.answer("is that blurred vision in both eyes?").facts == ["sight"]
    assert not voice.is_negative(sim.answer("how long has it been like that?").text)


# -- how long it lasted is of what was just told -------------------------------------------------

HEADACHE = {"id": "headache", "topic": "headache", "keywords": ["headache", "head"],
            "answer": "I had a headache on Tuesday afternoon but it went after a paracetamol."}


def test_how_long_it_lasted_after_a_symptom_just_told_is_that_symptom_not_the_onset():
    sim = patient([HEADACHE])
    assert sim.answer("when did it all start?").facts == ["onset"]
    assert sim.answer("any headaches with it?").facts == ["headache"]
    assert sim.answer("how long did that one last for?").facts == ["headache"]
    assert sim.answer("and how long did it last?").facts == ["headache"]


def test_how_long_it_lasted_is_the_fact_of_how_long_it_lasted_when_the_record_has_one():
    spell = {"id": "spell", "topic": "how long the dizzy spell lasted", "keywords": ["how long", "lasted", "minutes"],
             "answer": "Ten minutes or so, then I was fine."}
    sim = patient([HEADACHE, spell])
    assert sim.answer("any headaches with it?").facts == ["headache"]
    assert sim.answer("how long did it last?").facts == ["spell"]


def test_when_it_last_happened_is_no_question_of_how_long_it_lasted():

    assert intent.asks_how_long_it_lasted("how long did it last?")
    assert not intent.asks_how_long_it_lasted("how long since it last happened?")


# -- the doctor's closing question --------------------------------------------------------------

def test_asked_for_questions_at_the_close_the_patient_has_none_and_denies_nothing():
    sim = patient([])
    for asked in ("right, anything you'd like to ask me before you go?", "do you have any questions about the plan?"):
        reply = sim.answer(asked)
        assert reply.facts == [] and any(reply.text.endswith(n) for n in voice.NO_QUESTIONS), asked
    reply = sim.answer("we'll start antibiotics and see you on Friday. any questions?")
    assert reply.facts == [] and not voice.is_negative(reply.text)


# -- what the patient was told ------------------------------------------------------------------

SCOPE = {"id": "scope", "topic": "earlier tests of the stomach", "keywords": ["camera test", "endoscopy", "scope"],
         "answer": "I had a camera test last spring and they said I had some inflammation of the gullet."}


def test_asked_whether_they_were_told_of_an_illness_no_fact_names_the_patient_says_what_they_were_told():
    reply = patient([SCOPE]).answer("has anyone ever told you that you have a hiatus hernia?")
    assert reply.facts == ["scope"] and reply.confidence < 1 and not voice.is_negative(reply.text)


def test_a_question_of_what_they_were_told_that_a_fact_answers_gets_that_fact():
    sim = patient([SCOPE, {"id": "bp", "topic": "blood pressure", "keywords": ["blood pressure", "hypertension"],
                           "answer": "My blood pressure has always been normal."}])
    assert sim.answer("were you ever told your blood pressure was high?").facts == ["bp"]


def test_with_no_fact_that_reports_being_told_the_default_stands():
    assert patient([]).answer("did they ever tell you that you had diabetes?").facts == []



# -- how much, asked as a comparison ------------------------------------------------------------

def test_as_much_as_usual_asks_the_amount_not_another_fact_of_the_same_thing():
    sim = patient([
        {"id": "look", "topic": "what the urine looks like", "keywords": ["wee", "urine", "colour", "cloudy"],
         "answer": "Her wee is dark and a bit cloudy."},
        {"id": "volume", "topic": "how much urine she passes", "keywords": ["how much", "amount", "weeing less"],
         "answer": "She's only going twice a day, and not much each time."},
    ])
    assert sim.answer("what does her wee look like?").facts == ["look"]
    assert sim.answer("and is she peeing as much as she usually does?").facts == ["volume"]


# -- a kind of medicine the heard medicines do not name -----------------------------------------

def test_a_kind_of_medicine_the_heard_medicines_do_not_name_is_not_said_again_outright():
    sim = patient([])
    assert sim.answer("what medicines do you take?").facts == ["medications"]
    reply = sim.answer("have you needed any antibiotics this winter?")
    assert reply.confidence < 1 or reply.facts == []


def test_a_kind_of_medicine_is_said_by_a_member_not_by_another_medicine():
    sim = patient([{"id": "course", "topic": "recent treatment", "keywords": ["course", "treatment"],
                    "answer": "The GP put me on amoxicillin on Monday."}])
    matcher = sim.matcher
    course, usual = (next(s for s in matcher.facts if s.id == i) for i in ("course", "medications"))
    assert matcher.told_share(course, "any antibiotics lately?", by_name=True) == 1.0
    assert matcher.told_share(usual, "any antibiotics lately?", by_name=True) == 0.0
    assert matcher.told_share(usual, "any antibiotics lately?") == 1.0
    assert matcher.told_share(usual, "any tablets lately?", by_name=True) == 1.0


# -- a measured value asked for again -------------------------------------------------------------

VITALS = {"id": "vitals", "kind": "document", "title": "Observations on the ward", "available": "on_request",
          "content": "Pulse 118, blood pressure 92/58, sats 95% on air.",
          "request_keywords": ["observations", "obs", "pulse", "heart rate", "blood pressure", "sats"]}


def test_a_measured_value_asked_for_again_hands_the_measurement_over_again():
    from tests.test_consultation import CASE_DATA

    sim = patient([], attachments=[{**a, "available": "on_request"} for a in CASE_DATA["attachments"]] + [VITALS])
    assert "Observations on the ward" in sim.answer("can I have her obs please").text
    assert "Observations on the ward" in sim.answer("sorry, what was her heart rate again?").text
    assert intent.kind_of("what was your blood pressure when the GP last checked it?") != "examination"

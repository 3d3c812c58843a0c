"""The grounded patient: record-only answers, the default answer, repeats, small talk
and every behaviour modifier (style only, never a new fact)."""

from __future__ import annotations

from medbench_tui.core.cases.model import patient_record
from medbench_tui.core.simulators import GroundedSimulator, voice
from medbench_tui.core.simulators.grounded import split_questions
from tests.test_consultation import fixture_case


def patient(**changes) -> GroundedSimulator:
    return GroundedSimulator(patient_record(fixture_case(**changes)))


def test_answers_with_the_matching_fact_in_the_record_words():
    sim = patient()
    reply = sim.answer("Are you a smoker?")
    assert reply.facts == ["smoking"] and reply.text == "About a pack a day for thirty years."
    assert patient().answer("Any SOB?").facts == ["breathless"]
    assert patient().answer("What meds are you on?").facts == ["medications"]
    assert patient().answer("Are you bringing up any sputum?").facts == ["sputum"]


def test_one_message_with_several_questions():
    assert split_questions("Do you smoke? And any allergies?") == ["Do you smoke?", "And any allergies?"]
    reply = patient().answer("Do you smoke? Any allergies?")
    assert reply.facts == ["smoking", "allergies"]
    assert "pack a day" in reply.text and "No allergies" in reply.text


def test_uncovered_question_gets_the_default_answer_never_a_fact():
    sim = patient()
    reply = sim.answer("Have you travelled abroad recently?")
    assert reply.facts == [] and reply.kind == "default"
    assert reply.text in voice.DEFAULT_ANSWERS["negative"]
    uncertain = patient(default_answer="uncertain").answer("Do you keep any pets?")
    assert uncertain.text in voice.DEFAULT_ANSWERS["uncertain"] and uncertain.facts == []


def test_default_answers_vary_but_deterministically():
    texts = [patient().answer(q).text for q in ("Any pets?", "Been abroad?", "Any hearing problems?", "Tattoos?")]
    assert texts == [
        patient().answer(q).text for q in ("Any pets?", "Been abroad?", "Any hearing problems?", "Tattoos?")
    ]
    assert len(set(texts)) > 1


def test_a_fact_is_repeated_only_when_asked_again_and_briefly():
    sim = patient()
    first = sim.answer("When did it start?")
    assert first.facts == ["onset"] and not first.text.startswith("As I said")
    other = sim.answer("Any allergies?")
    assert "started" not in other.text
    again = sim.answer("Sorry, when did it all begin?")
    assert again.facts == ["onset"] and again.text.startswith("As I said, it started three days ago")


def test_the_same_patient_again_forgets_the_dialogue_not_the_record():
    sim = patient()
    sim.answer("When did it start?")
    fresh = sim.again()
    assert fresh.matcher is sim.matcher  # the fact index is built once per record
    first = fresh.answer("When did it start?")
    assert first.facts == ["onset"] and not first.text.startswith("As I said")
    assert sim.answer("Sorry, when did it all begin?").text.startswith("As I said")  # the first one remembers


def test_greetings_and_small_talk_get_a_short_polite_reply():
    sim = patient()
    hello = sim.answer("Good morning, I'm Dr Jones.")
    assert hello.kind == "small_talk" and hello.text in voice.GREETING and hello.facts == []
    assert sim.answer("Thank you.").text in voice.THANKS
    assert sim.answer("OK").text in voice.ACKNOWLEDGE


def test_intro_questions_are_answered_from_the_intro_and_age_from_the_record():
    sim = patient()
    assert sim.answer("What brings you in today?").text.startswith("As I said, ")
    assert sim.answer("How old are you?").text == "I'm 54 years old."


def test_concise_uses_the_shortest_forms():
    sim = patient(behavior=["concise"])
    assert sim.answer("Do you keep pets?").text == "No."
    assert sim.answer("Do you smoke?").text == "About a pack a day for thirty years."


def test_verbose_adds_a_filler_with_no_new_fact():
    reply = patient(behavior=["verbose"]).answer("Do you smoke?")
    assert reply.facts == ["smoking"]
    filler = reply.text.removeprefix("About a pack a day for thirty years.").strip()
    assert filler in voice.FILLERS


def test_self_diagnosis_uses_the_patients_own_words_never_the_diagnosis():
    case = fixture_case(behavior=["self_diagnosis"])
    reply = GroundedSimulator(patient_record(case)).answer("Do you smoke?")
    assert "I read online it might be something to do with the cough" in reply.text
    hidden = [case.diagnosis.primary.name, *case.diagnosis.primary.aliases, *(d.name for d in case.differential)]
    assert not any(name.lower() in reply.text.lower() for name in hidden)


def test_denial_minimises_symptoms():
    reply = patient(behavior=["denial"]).answer("Any pain in your chest?")
    assert reply.facts == ["chest_pain"]
    assert any(reply.text.startswith(prefix) for prefix in voice.DENIAL_PREFIXES)
    assert patient(behavior=["denial"]).answer("Any allergies?").text == "No allergies that I know of."


def test_clarification_seeking_asks_about_jargon_then_answers():
    sim = patient(behavior=["clarification_seeking"])
    first = sim.answer("Any dyspnoea?")
    assert first.kind == "clarification" and "dyspnoea" in first.text and first.facts == []
    assert sim.answer("Do you get short of breath?").facts == ["breathless"]
    again = patient(behavior=["clarification_seeking"])
    again.answer("Is the cough productive?")
    assert again.answer("Is the cough productive?").facts == ["sputum"]


def test_delayed_disclosure_deflects_the_first_time():
    sim = patient(behavior=["delayed_disclosure"])
    first = sim.answer("How much alcohol do you drink?")
    assert first.kind == "deflection" and first.facts == [] and first.text in voice.DEFLECTIONS
    second = sim.answer("How much alcohol do you drink, roughly?")
    assert second.facts == ["alcohol"]
    assert patient().answer("How much alcohol do you drink?").facts == ["alcohol"]  # only with the behaviour


def test_jargon_list_is_documented_and_found():
    assert {"dyspnoea", "haematuria", "syncope", "productive", "radiate"} <= set(voice.JARGON)
    assert voice.jargon_in("Does the pain radiate? Any haematuria?") == ["radiate", "haematuria"]


def test_self_diagnosis_names_the_symptom_with_its_part_of_the_body_and_says_just_once():
    """A complaint of a part ("a really sore throat") is said whole, never the bare "sore"."""
    intro = "I've had a really sore throat since Monday and it's getting worse."
    case = fixture_case(behavior=["self_diagnosis"], intro=intro)
    reply = GroundedSimulator(patient_record(case)).answer("Do you smoke?")
    assert "something to do with the sore throat" in reply.text
    assert "just just" not in reply.text

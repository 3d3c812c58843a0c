"""The grounded patient as a conversation partner (scoring.md, "The consultation"):
shorthand, follow-ups on the last topic, compound questions part by part, repeats in full,
defaults that fit the question, examination and re-requested attachments, and no
attachment for a history question that only shares a word with it."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.cases.model import Case, patient_record
from medbench_tui.core.cases.yamlio import parse_case_text
from medbench_tui.core.simulators import GroundedSimulator, intent, voice
from medbench_tui.core.simulators.lexicon import sentences
from medbench_tui.core.text import expand_shorthand, lemma
from tests.test_consultation import consultation, fixture_case

CASES = Path(__file__).resolve().parent.parent / "cases"


def patient(**changes) -> GroundedSimulator:
    return GroundedSimulator(patient_record(fixture_case(**changes)))


def bundled(case_id: str) -> GroundedSimulator:
    """The patient of a bundled case, for behaviour that needs a whole physician-written record."""
    case = Case.model_validate(parse_case_text((CASES / f"{case_id}.yaml").read_text(encoding="utf-8")).data)
    return GroundedSimulator(patient_record(case))


def test_shorthand_is_written_out_and_plain_words_are_kept():
    assert expand_shorthand("any N/V?") == "any nausea or vomiting?"
    assert expand_shorthand("Any palps or SOB?") == "Any palpitations palps or short of breath?"
    assert expand_shorthand("PMH? FHx? LMP?") == "past medical history? family history? last menstrual period?"
    assert expand_shorthand("What meds?") == "What medications meds?"
    assert expand_shorthand("p.e. at school") == "p.e. at school"  # "pe" only in capitals
    assert lemma("flew") == lemma("flown") == lemma("flights") == "fly"
    assert lemma("ate") == "ate"  # the last meal, not the appetite


def test_question_kinds():
    kinds = {
        "It's a clot, isn't it?": "diagnosis",
        "Is it AF?": "diagnosis",
        "Do you think it is pneumonia?": "diagnosis",
        "Is it getting worse?": "yesno",
        "Is it sore?": "yesno",
        "Do you think you might be pregnant?": "yesno",
        "I'd like to examine you now.": "examination",
        "Can I check your pulse and blood pressure?": "examination",
        "Did you measure your temperature?": "yesno",
        "Can I see the ECG?": "request",
        "We'll send some bloods.": "request",
        "Any blood in your phlegm?": "yesno",
        "What do you do for work?": "open",
        "Tell me about the pain": "open",
    }
    assert {q: intent.kind_of(q) for q in kinds} == kinds


def test_follow_up_is_about_the_last_topic():
    sim = patient()
    assert sim.answer("Do you smoke?").facts == ["smoking"]
    assert sim.answer("how long for?").facts == ["smoking"]  # not the onset of the illness
    assert sim.answer("When did it start?").facts == ["onset"]


def test_repeat_gives_the_whole_fact_even_when_hard_wrapped():
    record = patient_record(fixture_case())
    onset = record.additional_answers[0]
    onset.answer = "It started three days ago with shaking chills,\nthen the cough got worse."
    sim = GroundedSimulator(record)
    sim.answer("When did it start?")
    again = sim.answer("Sorry, when did it start again?")
    assert again.text == "As I said, it started three days ago with shaking chills,\nthen the cough got worse."


def test_compound_question_answers_each_part_and_defaults_the_rest():
    reply = patient().answer("Any pets? Do you smoke?")
    assert reply.facts == ["smoking"]
    # the part the record does not cover gets its "No", naming it (issue 33: "worded as such")
    assert "pack a day" in reply.text and reply.text.startswith("No pets.")


def test_defaults_fit_the_question():
    sim = patient()
    diagnosis = sim.answer("It's pneumonia, isn't it?")
    assert diagnosis.text in voice.DIAGNOSIS_UNSURE and diagnosis.facts == []
    open_question = sim.answer("What do you do for work?")
    assert open_question.text in voice.DEFAULT_ANSWERS["uncertain"]  # never a bare "No."
    assert sim.answer("Do you keep any pets?").text in voice.DEFAULT_ANSWERS["negative"]


def test_examination_is_agreed_to():
    reply = patient(attachments=[]).answer("I'd like to examine you now.")
    assert reply.kind == "cooperation" and reply.text in voice.COOPERATE and not reply.facts


async def test_history_question_sharing_a_word_releases_nothing(tmp_path):
    c = consultation(tmp_path)
    reply = await c.ask("Any blood in your sputum?")
    assert reply.attachments == []
    xray = await c.ask("Can I see the chest X-ray?")
    assert [a.id for a in xray.attachments][:1] == ["cxr"]  # (the blood tests come by themselves after turn 2)
    again = await c.ask("Could I have another look at the x-ray?")
    assert "cxr" in [a.id for a in again.attachments] and "Here it is again" in again.text


GARDEN_FACTS = [
    {"id": "onset", "topic": "when the pain started", "keywords": ["start", "began"],
     "answer": "It came on suddenly on Tuesday evening while I was digging in the garden."},
    {"id": "medications", "topic": "current medicines", "keywords": ["medication", "tablets"],
     "answer": "I take ramipril; the GP changed the dose last month."},
    {"id": "surgery", "topic": "previous operations", "keywords": ["operation", "surgery"],
     "answer": "I had my gallbladder out in 2015."},
]


def test_circumstance_questions_reach_the_onset():
    for question in ("Were you doing anything at the time?", "What was he up to when it happened?",
                     "What were you doing beforehand?", "When did you first notice the change?"):
        sim = patient(additional_answers=GARDEN_FACTS)
        assert sim.answer(question).facts == ["onset"], question


def test_a_full_question_after_a_topic_leaves_it():
    sim = patient(additional_answers=GARDEN_FACTS)
    assert sim.answer("Any tablets?").facts == ["medications"]
    for question in ("Does that keep you awake at night?", "Has this made you tired?", "Is that worse lying flat?"):
        reply = sim.answer(question)
        assert reply.facts == [] and "As I said" not in reply.text, question


def test_a_work_question_is_not_answered_by_the_home():
    home = {"id": "social", "topic": "home circumstances", "keywords": ["home", "family"],
            "answer": "I live with my husband; he drives me in on my work days."}
    for question in ("What did she do for a living?", "What does your husband do for a living?"):
        sim = patient(additional_answers=[*GARDEN_FACTS, home])
        reply = sim.answer(question)
        assert reply.facts == [] and reply.kind == "default" and not reply.text.startswith("No"), question
    assert patient(additional_answers=[*GARDEN_FACTS, home]).answer("Who is at home with you?").facts == ["social"]


def test_a_surgery_question_does_not_get_an_earlier_episode():
    episode = {"id": "previous", "topic": "previous similar episodes", "keywords": ["before", "similar", "previous"],
               "answer": "I had a pain like this two years ago; it settled on its own without an operation."}
    facts = [GARDEN_FACTS[0], GARDEN_FACTS[1], episode]
    for question in ("Any previous abdominal surgery?", "Any operations in the past?"):
        assert patient(additional_answers=facts).answer(question).facts == [], question
    assert patient(additional_answers=facts).answer("Had this before?").facts == ["previous"]


def test_a_fact_that_denies_what_is_asked_is_the_answer():
    stomach = {"id": "gi", "topic": "stomach history", "keywords": ["indigestion"],
               "answer": "No ulcers or bleeding problems, just the odd bit of heartburn."}
    for question in ("Ever had stomach ulcers or a bleed?", "Any history of ulcers?", "Any bleeding problems?"):
        assert patient(additional_answers=[*GARDEN_FACTS, stomach]).answer(question).facts == ["gi"], question


def test_an_uncovered_question_about_a_circumstance_is_not_denied():
    for question in ("Occupation?", "And your job?", "What about work?", "Whereabouts do you live?",
                     "What do you do with your days?", "What does your wife do?"):
        reply = patient(additional_answers=GARDEN_FACTS).answer(question)
        assert reply.kind == "default" and not voice.is_negative(reply.text), question
    assert intent.kind_of("Do you work?") == "yesno"
    for question in ("Have you had a fever?", "Allergies?"):
        reply = patient(additional_answers=GARDEN_FACTS, intro="I've got a bad pain in my tummy.").answer(question)
        assert reply.facts == [] and voice.is_negative(reply.text), question  # the case's default: negative


def test_more_clinical_shorthand_is_written_out():
    assert expand_shorthand("Imms complete? DH?") == "immunisations Imms complete? medications?"
    assert expand_shorthand("any abdo pain? PR bleeding? CF in the family?") == (
        "any abdominal abdo pain? rectal bleeding? cystic fibrosis in the family?"
    )
    assert expand_shorthand("vaccs done pls") == "vaccinations vaccs done please"
    assert expand_shorthand("dh or pr") == "dh or pr"  # these only in capitals
    assert expand_shorthand("wt/appetite? chest pain and/or SOB?") == (
        "weight or appetite? chest pain and/or short of breath?"  # a slash between words is "or"
    )
    assert expand_shorthand("is she on home O2?") == "is she on home oxygen?"  # a digit in the word
    assert expand_shorthand("b12 ok? T2DM?") == "b12 ok? T2DM?"  # not shorthand of the patient's


def test_shorthand_for_the_jabs_and_the_drug_history_reaches_the_facts():
    assert bundled("ped-intussusception-001").answer("are his vaccs all done?").facts == ["immunisations"]
    assert bundled("ped-intussusception-001").answer("Imms complete?").facts == ["immunisations"]
    assert bundled("im-t2dm-001").answer("DH?").facts == ["medications"]
    # a word that only looks like shorthand stays a word, and the jabs say nothing of the medicines
    assert bundled("ped-intussusception-001").answer("any meds?").facts == ["medications"]


def test_chat_spellings_are_written_out():
    assert expand_shorthand("whats he like inbetween?") == "what's he like in between?"
    assert intent.kind_of(intent.understood("and hows she been inbetween the fits")) == "open"
    assert intent.kind_of(intent.understood("whats the sick like")) == "open"


def test_how_he_is_in_between_the_attacks_is_asked_of_the_fact_that_says_it():
    for follow_up in ("and what is he like inbetween them", "hows he been in between them?",
                      "What's he like in between the bouts?", "and how is he between the screaming?"):
        sim = bundled("ped-intussusception-001")
        assert sim.answer("Tell me about these bouts of screaming").facts == ["episodes"]
        reply = sim.answer(follow_up)
        assert reply.facts == ["lethargy"] and not voice.is_negative(reply.text), follow_up
    sim = bundled("ped-intussusception-001")
    sim.answer("Tell me about these bouts of screaming")
    assert sim.answer("how long does each one go on for?").facts == ["episodes"]  # still the attacks


def test_the_time_between_the_attacks_is_asked_whatever_the_attacks_are_called():
    for message in ("how is he between the crying spells?", "is he his usual self between the screaming bouts?",
                    "what's he like between these awful attacks?"):
        reply = bundled("ped-intussusception-001").answer(message)
        assert reply.facts == ["lethargy"] and not voice.is_negative(reply.text), message
    for message in ("how often do the screaming bouts come?", "what happens during one of the attacks?"):
        assert bundled("ped-intussusception-001").answer(message).facts == ["episodes"], message


def test_a_family_history_question_is_about_the_relatives_not_the_patient():
    for message in ("Any family history of bleeding problems or fainting?", "FHx? - fainting, heart problems",
                    "does anything like passing out run in the family?"):
        reply = bundled("obg-ectopic-001").answer(message)  # no fact about her relatives
        assert reply.facts == [] and reply.kind == "default", message
    assert bundled("im-t2dm-001").answer("anybody on your side of the family with sugar problems?").facts == [
        "family_history"
    ]
    assert bundled("im-t2dm-001").answer("family hx? diabetes, heart trouble?").facts == ["family_history"]
    # without the family, the same words are the patient's own
    assert set(bundled("obg-ectopic-001").answer("any fainting or bleeding?").facts) == {"syncope", "bleeding"}
    assert "syncope" in bundled("obg-ectopic-001").answer("PMH? fainting?").facts
    assert bundled("ped-intussusception-001").answer("any inherited conditions, bowel trouble?").facts == []
    # "your mum" is the patient when her daughter speaks
    assert bundled("im-cap-002").answer("Does your mum have any allergies?").facts == ["allergies"]


def test_what_was_used_for_what_was_just_told_is_that_fact():
    for follow_up in ("what have you been putting on it?", "did you try anything for that?",
                      "and what did you use for them?", "how did you treat it?"):
        sim = bundled("im-t2dm-001")
        assert sim.answer("any itching down there?").facts == ["genital_infection"]
        assert sim.answer(follow_up).facts == ["genital_infection"], follow_up  # "The chemist gave me a cream."
    sim = bundled("im-t2dm-001")
    sim.answer("any blurred vision?")  # a fact that says no treatment: the medicines answer
    assert sim.answer("what did you use for that?").facts == ["medications"]
    sim = bundled("im-t2dm-001")
    sim.answer("any itching down there?")
    assert sim.answer("have you put on weight?").facts == ["weight"]  # "put on" weight is no treatment
    sim = bundled("im-t2dm-001")
    sim.answer("any itching down there?")
    assert sim.answer("and did that work?").facts == []  # whether it worked, not the work he does


def test_a_fact_that_tells_more_of_a_part_of_the_intro_answers_a_question_about_that_part():
    for question in ("what went on in the bathroom?", "so tell me about the bathroom"):
        assert bundled("obg-ectopic-001").answer(question).facts == ["syncope"], question
    assert bundled("ped-intussusception-001").answer("what happened in the morning?").facts == ["onset"]
    # what only the intro says is said again from the intro
    reply = bundled("im-t2dm-001").answer("did your wife make you come?")
    assert reply.facts == [] and reply.text == "As I said, my wife made me come, really."


@pytest.mark.parametrize("question", ["whose idea was it to come in?", "so your wife sent you?",
                                      "did someone send you?", "what made you come in today?", "why now?",
                                      "what made you decide to see us?"])
def test_why_the_patient_came_is_answered_from_the_intro_never_denied(question):
    reply = bundled("im-t2dm-001").answer(question)
    assert reply.kind == "repeat" and "my wife made me come" in reply.text, question


def test_a_whose_question_is_no_yes_or_no_question():
    assert intent.kind_of("whose idea was that?") == "open"
    assert intent.kind_of("and whom do you live with?") == "open"


def test_an_alternative_the_record_does_not_cover_gets_the_default_beside_the_facts():
    negative = voice.DEFAULT_ANSWERS["negative"]
    for message, fact in (("any weight loss or fevers?", "weight"), ("any blurred vision or floaters?", "vision"),
                          ("have you had any hair loss or thrush?", "genital_infection"),
                          ("do you get night sweats or weight loss?", "weight"), ("fevers or wt loss?", "weight"),
                          ("any wt loss/night sweats?", "weight")):
        reply = bundled("im-t2dm-001").answer(message)
        assert reply.facts == [fact], message
        said = sentences(reply.text)
        # not a bare "No." after a fact: the "no" names the part it answers ("No fevers.")
        assert voice.is_default_for(said[-1]) and said[-1] != "No.", message
    # every alternative covered: the facts alone, no "No." beside them
    for message in ("any nausea or vomiting?", "any chest pain or breathlessness?"):
        reply = bundled("im-t2dm-001").answer(message)
        assert reply.facts and not any(s in negative for s in sentences(reply.text)), message
    for case_id, message in (("ped-intussusception-001", "any spots on his tummy or back?"),
                             ("im-af-001", "Any anticoagulants or aspirin?"),  # "No blood thinners, no aspirin."
                             ("ped-bronchiolitis-001", "born at term? any time in SCBU?")):  # "no special care"
        reply = bundled(case_id).answer(message)
        assert reply.facts and not any(s in negative for s in sentences(reply.text)), message
    reply = bundled("obg-ectopic-001").answer("any bleeding or discharge?")
    assert set(reply.facts) == {"bleeding", "fever_discharge"}
    assert not any(s in negative for s in sentences(reply.text))


def test_a_child_with_attacks_of_pain_is_not_denied_tummy_pain():
    for question in ("any tummy pain?", "any abdo pain?", "does his stomach ache?"):
        assert bundled("ped-intussusception-001").answer(question).facts == ["episodes"], question


def test_the_intro_said_again_is_one_line_whatever_the_case_files_wrapping():
    reply = bundled("im-t2dm-001").answer("whose idea was it to come in?")
    assert "\n" not in reply.text and "and I'm up in the night" in reply.text

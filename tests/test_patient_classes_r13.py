"""The failure classes of held-out rounds 9 to 11 fixed in round 13, each held on wording of its own."""

from __future__ import annotations

import asyncio
import copy

from medbench_tui.core.cases.model import Attachment, patient_record
from medbench_tui.core.consultation.loop import Consultation
from medbench_tui.core.simulators import GroundedSimulator, LeakGuard, intent, voice
from medbench_tui.core.simulators.lexicon import sentences
from tests.test_consultation import CASE_DATA, fixture_case, write_bank
from tests.test_patient_round8_classes import patient


def _examination() -> Attachment:
    return Attachment(id="ent", kind="document", title="Ear and throat examination",
                      description="Both eardrums normal.", available="on_request",
                      request_keywords=["ear", "ears", "throat", "examine"])


def test_an_example_after_a_question_is_part_of_it_not_a_request():
    assert intent.split_questions("any swelling at all? eg around the ear") == [
        "any swelling at all, eg around the ear?"
    ]
    assert intent.attachments_asked([_examination()], "any pain anywhere? such as in your ears") == []
    assert intent.split_questions("any rashes? like what?") == ["any rashes?", "like what?"]


def test_an_example_after_a_question_gets_the_fact_it_asks_for():
    sim = patient([
        {"id": "discharge", "topic": "discharge from the ear", "keywords": ["discharge", "ear", "gunk"],
         "answer": "Some yellow gunk came out of my left ear on Sunday."},
    ])
    assert sim.answer("any discharge? for example from your ear").facts == ["discharge"]


def test_a_fact_of_this_side_says_nothing_of_the_other_side():
    sim = patient([
        {"id": "knee", "topic": "the knee swelling", "keywords": ["knee", "swelling", "swollen"],
         "answer": "My right knee has been swollen and stiff since Friday."},
    ])
    assert sim.answer("is your knee swollen?").facts == ["knee"]
    reply = sim.answer("and what about the other knee?")
    assert reply.facts == [] and reply.confidence == 1.0
    assert sim.answer("has the other side swollen up too?").facts == []


def test_a_fact_that_says_both_sides_answers_the_other_side():
    sim = patient([
        {"id": "hearing", "topic": "hearing", "keywords": ["hearing", "deaf", "ear"],
         "answer": "I can't hear a thing out of my left ear. The right one is fine."},
    ])
    assert sim.answer("how is your hearing?").facts == ["hearing"]
    assert sim.answer("and the other ear?").facts == ["hearing"]


def test_a_question_on_the_fact_just_told_that_it_says_whole_is_that_fact_not_another_that_shares_a_word():
    sim = patient([
        {"id": "inhaler", "topic": "the new steroid inhaler", "keywords": ["inhaler", "steroid", "course", "doses",
                                                                         "taking them"],
         "answer": "Beclometasone, two puffs twice a day since March. I've missed a few doses at night."},
        {"id": "others", "topic": "other medicines", "keywords": ["medicines", "tablets", "taking", "regular"],
         "answer": "Just cetirizine in the summer, and my blue inhaler when I need it."},
    ])
    assert sim.answer("what inhaler did they start you on?").facts == ["inhaler"]
    assert sim.answer("have you been taking every dose?").facts == ["inhaler"]


def test_a_hand_over_never_names_the_diagnosis_its_title_does(tmp_path):
    attachments = copy.deepcopy(CASE_DATA["attachments"])
    attachments[1]["title"] = "Chest radiograph (pneumonia follow-up clinic)"
    case = fixture_case(attachments=attachments)
    write_bank(tmp_path, case)
    guard = LeakGuard.from_case(case)
    assert guard.said_title(case.attachments[1]) == "Chest radiograph"
    consultation = Consultation(case, GroundedSimulator(patient_record(case)), system="test", bank_root=tmp_path)
    reply = asyncio.run(consultation.ask("could I see the x-ray from the pneumonia clinic?"))
    assert "cxr" in [a.id for a in reply.attachments]
    assert not any(guard.check(s) for s in sentences(reply.text))


def test_the_doctors_worry_and_what_it_goes_on_to_say_ask_nothing():
    sim = patient([])
    reply = sim.answer("I'm worried this is a clot - a clot in the lung.")
    assert reply.facts == [] and not voice.is_negative(reply.text)


def _waterworks() -> GroundedSimulator:
    return patient([
        {"id": "urine", "topic": "waterworks before this", "keywords": ["waterworks", "stream", "frequency",
                                                                        "getting up at night", "before"],
         "answer": "For a year I've been up twice a night to wee, and the stream is weak."},
        {"id": "start", "topic": "when it started", "keywords": ["when", "start", "last night"],
         "answer": "It came on last night after my dinner."},
        {"id": "previous", "topic": "previous episodes", "keywords": ["before", "previous", "happened before"],
         "answer": "It has never happened before."},
    ])


def test_how_many_times_a_night_is_how_often_of_the_fact_just_told():
    sim = _waterworks()
    assert sim.answer("any trouble with your waterworks?").facts == ["urine"]
    reply = sim.answer("how many times a night?")
    assert reply.facts == ["urine"] and reply.confidence == 1.0


def test_whether_this_happened_before_is_the_earlier_episode_not_the_fact_just_told_that_says_before():
    sim = _waterworks()
    assert sim.answer("any trouble with your waterworks?").facts == ["urine"]
    assert sim.answer("has this ever happened before?").facts == ["previous"]


def test_your_back_is_a_part_of_the_body_not_the_back_of_another_part():
    sim = patient([
        {"id": "thigh", "topic": "the thigh pain", "keywords": ["pain", "ache", "where"],
         "answer": "A dull ache in the back of my right thigh, four out of ten."},
    ])
    reply = sim.answer("does your back hurt?")
    assert reply.facts == [] and reply.kind == "default"
    assert sim.answer("is the pain at the back of your thigh?").facts == ["thigh"]


def test_a_pain_in_the_back_answers_a_question_about_the_back():
    sim = patient([
        {"id": "backpain", "topic": "the pain", "keywords": ["pain", "ache"],
         "answer": "It's a sharp pain low down in my back, worse when I bend."},
    ])
    assert sim.answer("is your back sore?").facts == ["backpain"]


def test_one_when_has_one_answer_not_another_fact_that_names_the_part():
    sim = patient([
        {"id": "start", "topic": "when the arm weakness started", "keywords": ["start", "when", "how long", "night"],
         "answer": "It was fine at bedtime. I noticed it when I got up this morning."},
        {"id": "hand", "topic": "grip and arm movement", "keywords": ["hand", "grip", "arm", "lift"],
         "answer": "I can't lift my left arm above my shoulder and my grip is weak."},
    ])
    assert sim.answer("when did you first notice the arm?").facts == ["start"]


def test_taking_a_temperature_is_measuring_it_not_taking_a_medicine():
    sim = patient([
        {"id": "temp", "topic": "the temperature reading", "keywords": ["temperature", "thermometer", "reading"],
         "answer": "I used the ear thermometer at teatime and it said 38.5."},
        {"id": "meds", "topic": "medicines", "keywords": ["medicines", "taking", "regular"],
         "answer": "He doesn't take anything regularly."},
    ])
    assert sim.answer("how did you take his temperature?").facts == ["temp"]
    assert sim.answer("how did you take his temp?").facts == ["temp"]


def test_a_negative_put_with_a_tag_right_asks_to_confirm_it_not_a_diagnosis():
    assert intent.kind_of("and no headaches, right?") == "yesno"
    assert intent.kind_of("you don't drink, right?") == "yesno"
    assert intent.kind_of("It's a migraine, right?") == "diagnosis"
    assert intent.kind_of("not a migraine, right?") == "diagnosis"
    sim = patient([])
    assert sim.answer("and no phlegm, right?").facts == ["sputum"]


def test_a_comment_on_what_was_said_before_a_question_asks_nothing():
    sim = patient([
        {"id": "rash", "topic": "the rash", "keywords": ["rash", "itchy", "spots"],
         "answer": "An itchy red rash on both arms since Friday."},
        {"id": "new_drug", "topic": "new medicines", "keywords": ["new", "started", "recently"],
         "answer": "The GP started me on a water tablet last week."},
    ])
    assert sim.answer("any rash?").facts == ["rash"]
    reply = sim.answer("that can be a reaction to tablets - are you on any new medicines?")
    assert reply.facts == ["new_drug"]


def test_a_question_an_earlier_question_of_the_message_drew_the_fact_for_stays_on_it():
    sim = patient([
        {"id": "trip", "topic": "recent travel", "keywords": ["travel", "drive", "journey", "long journey", "sitting"],
         "answer": "I drove down from Scotland on Sunday, nine hours, and I didn't get up much."},
        {"id": "calf", "topic": "the calf pain", "keywords": ["pain", "ache", "walking", "where"],
         "answer": "My calf aches, worse when I walk."},
    ])
    assert sim.answer("does your calf ache?").facts == ["calf"]
    assert sim.answer("any long journeys lately?").facts == ["trip"]
    assert sim.answer("how long was the drive, and did you get out and walk about?").facts == ["trip"]


def test_an_organs_problems_are_a_past_illness_the_medical_history_answers_never_a_bare_no():
    sim = patient([
        {"id": "pmh", "topic": "past medical history", "keywords": ["medical history", "illnesses", "operations"],
         "answer": "I've always been well. I had my appendix out as a boy, that's all."},
    ])
    assert sim.answer("any kidney disease?").facts == ["pmh"]
    assert not voice.is_negative(sim.answer("have you ever had any liver problems?").text)


def test_the_choices_after_a_question_of_which_are_part_of_it_not_questions_of_their_own():
    assert intent.split_questions("and which came first - the rash or the itching?") == [
        "and which came first, the rash or the itching?"
    ]
    sim = patient([
        {"id": "start", "topic": "when it started and in what order", "keywords": ["start", "when", "first", "order"],
         "answer": "It started on Sunday: the rash came first, then the itching on Monday."},
        {"id": "rash", "topic": "the rash", "keywords": ["rash", "spots"], "answer": "Red spots all over my chest."},
        {"id": "itch", "topic": "the itching", "keywords": ["itch", "itchy", "itching"],
         "answer": "It itches like mad at night."},
    ])
    facts = sim.answer("when did it start, and which came first - the rash or the itching?").facts
    assert "start" in facts and not {"rash", "itch"} & set(facts)

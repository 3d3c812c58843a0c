"""The failure classes of held-out round 17 fixed (issue 33), each held on wording and topics of its
own (not the round's cases): follow-ups that keep their subject, a word in a clause of when that is not what a fact
is about, phrases and person words that carry (or do not carry) a concept, a delayed fact asked again, shorthand, a
concise patient's openers, an examination announced, compound questions with an uncovered part and open questions
in yes/no words."""

from __future__ import annotations

from medbench_tui.core.simulators import intent
from medbench_tui.core.simulators.intent import says_how_often
from medbench_tui.core.simulators.question import read_message
from medbench_tui.core.text import expand_shorthand
from medbench_tui.core.vocabulary import read_vocabulary
from tests.test_patient_round8_classes import patient

# -- 1. a follow-up keeps its subject --------------------------------------------------------------------------------

CELLULITIS = [
    {"id": "red_patch", "topic": "the red patch", "keywords": ["red", "redness", "patch", "hot", "spreading"],
     "answer": "There's a hot red patch on my right forearm, it's spread about two inches since yesterday."},
    {"id": "arm_strength", "topic": "strength in the arms", "keywords": ["arms", "arm", "weak", "strength", "grip"],
     "answer": "My arms feel normal, I can grip fine."},
    {"id": "earlier_boils", "topic": "boils before", "keywords": ["before", "previous", "boils", "happened before"],
     "answer": "I had two boils last year, both on my left thigh. The GP lanced one."},
    {"id": "thigh_pain", "topic": "leg pain", "keywords": ["leg", "legs", "thigh", "pain in the leg"],
     "answer": "My legs are fine, no pain walking."},
]


def test_which_part_after_a_fact_that_says_the_side_is_that_fact():
    sim = patient(CELLULITIS)
    assert sim.answer("is there any redness?").facts == ["red_patch"]
    assert sim.answer("which arm?").facts == ["red_patch"]


def test_the_same_part_after_a_fact_that_says_the_side_is_that_fact():
    sim = patient(CELLULITIS)
    assert sim.answer("have you had boils before?").facts == ["earlier_boils"]
    assert sim.answer("same leg?").facts == ["earlier_boils"]


def test_whether_both_after_a_fact_that_says_the_side_is_that_fact_not_a_diagnosis():
    sim = patient(CELLULITIS)
    sim.answer("have you had boils before?")
    reply = sim.answer("is it both legs?")
    assert reply.facts == ["earlier_boils"]
    assert intent.kind_of("is it both legs?") != "diagnosis"
    assert intent.kind_of("is it cellulitis?") == "diagnosis"


def test_which_part_with_no_side_in_the_last_fact_is_a_question_of_its_own():
    sim = patient(CELLULITIS)
    assert sim.answer("how's your grip?").facts == ["arm_strength"]
    assert sim.answer("which leg?").facts == ["thigh_pain"]  # the grip says no side: the leg's own fact


KNEES = [
    {"id": "knee_onset", "topic": "when the knee pain began", "keywords": ["when", "start", "began", "how long"],
     "answer": "About a month. It was the left knee first, then the right one a week later."},
    {"id": "knee_joints", "topic": "which joints", "keywords": ["joints", "which joints", "where", "both"],
     "answer": "Just the knees, nothing in my hands or hips."},
]


def test_a_yes_no_fragment_of_only_how_follows_up_on_the_fact_that_says_it():
    sim = patient(KNEES)
    assert sim.answer("when did the knee pain begin?").facts == ["knee_onset"]
    assert sim.answer("one side or both?").facts == ["knee_onset"]


MIGRAINE = [
    {"id": "migraines", "topic": "the migraines", "keywords": ["migraine", "migraines", "headaches"],
     "answer": "Migraines with flashing lights, two or three days a month, mostly before my period."},
    {"id": "worry", "topic": "worries", "keywords": ["worry", "anxious", "often"],
     "answer": "I worry about work, not much else."},
]


def test_how_often_after_a_fact_that_says_days_a_month_is_that_fact():
    sim = patient(MIGRAINE)
    assert sim.answer("do you get migraines?").facts == ["migraines"]
    assert sim.answer("how often?").facts == ["migraines"]


def test_how_often_is_said_by_a_count_in_a_week_or_month_not_by_a_time_ago():
    for said in ("three or four nights a week", "two days a month", "it happens most days", "twice a day"):
        assert says_how_often(said), said
    for said in ("three days ago", "for five days", "two nights ago", "since last week"):
        assert not says_how_often(said), said


LUMP = [
    {"id": "lump", "topic": "the lump", "keywords": ["lump", "swelling", "size", "how big"],
     "answer": "It's about the size of a pea, hard and tight under the skin, and it doesn't move."},
    {"id": "lump_pain", "topic": "pain", "keywords": ["pain", "sore", "stabbing", "burning", "throbbing"],
     "answer": "It aches a bit when I press it, nothing more."},
]


def test_a_property_question_that_points_back_stays_on_the_fact_that_says_its_word():
    sim = patient(LUMP)
    assert sim.answer("tell me about the lump").facts == ["lump"]
    assert sim.answer("is it tight or soft?").facts == ["lump"]  # not the pain, a "burning" only by concept


def test_a_property_question_the_last_fact_does_not_say_goes_to_the_fact_that_does():
    sim = patient(LUMP)
    sim.answer("tell me about the lump")
    assert sim.answer("is it sore?").facts == ["lump_pain"]


# -- 2. a word in a clause of when is not what a fact is about --------------------------------------------------------

WHEEZE = [
    {"id": "wheeze", "topic": "the wheeze", "keywords": ["wheeze", "wheezing", "whistling", "chest"],
     "answer": "The wheezing came on four days ago, worse at night."},
    {"id": "cold_first", "topic": "cold before the wheeze", "keywords": ["cold", "runny nose", "before the wheeze",
                                                                          "first"],
     "answer": "Before the wheeze he had a runny nose and a snuffly cold for about a week."},
]


def test_when_the_subject_first_started_is_the_fact_about_it_not_the_one_timed_by_it():
    sim = patient(WHEEZE)
    assert sim.answer("when did the wheeze first start?").facts == ["wheeze"]
    assert sim.answer("sorry, remind me when the wheezing first began?").facts == ["wheeze"]


def test_a_question_that_times_by_the_same_clause_still_gets_the_timed_fact():
    sim = patient(WHEEZE)
    assert sim.answer("did he have a cold before the wheeze started?").facts == ["cold_first"]


def test_a_yes_no_question_of_something_unknown_before_this_is_not_the_fact_timed_by_it():
    sim = patient(WHEEZE)
    reply = sim.answer("any new soaps or sprays at home before this started?")
    assert "cold_first" not in reply.facts


# -- 3. phrases carry a concept; a person word alone does not decide ------------------------------------------------

LOW_MOOD = [
    {"id": "home", "topic": "home and support", "keywords": ["home", "live", "live with", "partner", "children",
                                                              "baby", "support"],
     "answer": "I live with my partner and our baby daughter, she's ten months."},
    {"id": "dark_thoughts", "topic": "thoughts of suicide or self-harm",
     "keywords": ["suicide", "suicidal", "self-harm", "end your life"],
     "answer": "Some nights I've thought everyone would be better off without me. I've never done anything."},
    {"id": "contraception", "topic": "contraception and pregnancy plans", "keywords": ["contraception", "coil",
                                                                                       "pregnancy plans"],
     "answer": "I've got the coil. We're not planning any more for now."},
    {"id": "arguments", "topic": "arguments and strain", "keywords": ["arguing", "rows", "partner", "strain"],
     "answer": "My partner and I are rowing a lot, mostly about money and who gets up in the night."},
]


def test_a_phrase_of_not_wanting_to_live_is_the_self_harm_concept_not_the_home():
    for asked in ("Do you ever wish you were dead?", "Have you felt life isn't worth living?",
                  "any thoughts of ending it all?"):
        sim = patient(LOW_MOOD)
        assert sim.answer(asked).facts == ["dark_thoughts"], asked


def test_a_person_word_with_words_of_its_own_is_decided_by_them_not_by_the_home_fact():
    sim = patient(LOW_MOOD)
    assert "home" not in sim.answer("any plans for another baby?").facts


def test_how_things_are_with_people_is_the_fact_that_tells_of_them_not_who_lives_there():
    sim = patient(LOW_MOOD)
    assert sim.answer("How are things with your partner?").facts == ["arguments"]


def test_who_lives_with_you_is_still_the_home():
    sim = patient(LOW_MOOD)
    assert sim.answer("who's at home with you?").facts == ["home"]
    assert "54" not in patient(LOW_MOOD).answer("how old is your baby?").text  # not the patient's own age


def test_people_set_apart_are_not_what_is_asked():
    read = read_message("Is there anyone outside work you can lean on?").questions[0]
    assert "work" not in read.asked
    assert read.act == "open"


def test_someone_to_talk_to_is_not_a_childs_talking():
    sim = patient([
        {"id": "development", "topic": "development and school", "keywords": ["talking", "walking", "school"],
         "answer": "She's walking and saying a few words, she starts nursery in May."},
    ])
    reply = sim.answer("Have you got someone you can talk to?")
    assert "development" not in reply.facts and reply.text not in ("No.",)


# -- 4. a delayed fact asked a second time is told ------------------------------------------------------------------

DELAYED = [
    {"id": "self_harm", "topic": "self-harm", "keywords": ["self-harm", "cutting", "hurt yourself"],
     "answer": "I've been cutting my arms, the last time was on Sunday.", "delayed": True},
]


def test_a_delayed_fact_first_asked_in_a_phrase_is_told_when_asked_again():
    sim = patient(DELAYED, behavior=["delayed_disclosure"])
    first = sim.answer("Do you ever wish you weren't here at all?")
    assert first.facts == [] and first.kind == "deflection"
    second = sim.answer("I have to ask again, I'm sorry - have you hurt yourself on purpose?")
    assert second.facts == ["self_harm"]


# -- 5. shorthand -----------------------------------------------------------------------------------------------------

def test_chat_shorthand_of_questions_is_written_out():
    assert expand_shorthand("anything OTC?") == "anything over the counter?"
    assert expand_shorthand("any s/e?") == "any side effects?"
    assert expand_shorthand("any SE from it?") == "any side effects from it?"
    assert expand_shorthand("ht?") == "height?"
    assert expand_shorthand("probs with ur waterworks?").startswith("problems ")
    assert "water infection" in expand_shorthand("any UTIs?")
    assert "breathless lying flat" in expand_shorthand("any orthopnea?")
    assert expand_shorthand("any se?") == "any se?"  # "SE" only in capitals


def test_what_is_taken_to_help_sleep_is_a_remedy_not_help_from_someone():
    sim = patient([
        {"id": "otc", "topic": "remedies bought from the chemist", "keywords": ["over the counter", "chemist"],
         "answer": "Some sleeping tablets from the chemist, they didn't do much."},
        {"id": "support", "topic": "help and support", "keywords": ["help", "support", "counselling"],
         "answer": "I've not had any help, I haven't told anyone."},
    ])
    assert sim.answer("anything from the chemist to help you sleep?").facts == ["otc"]


def test_an_abbreviation_reaches_the_fact_it_stands_for():
    sim = patient([
        {"id": "otc", "topic": "remedies bought from the chemist", "keywords": ["over the counter", "chemist"],
         "answer": "Some linctus from the chemist, it didn't do much."},
    ])
    assert sim.answer("Anything OTC for the cough?").facts == ["otc"]


# -- 6. a concise patient's openers ---------------------------------------------------------------------------------

GOUT = [
    {"id": "toe", "topic": "which joint is affected", "keywords": ["joint", "which joint", "toe", "where"],
     "answer": "My big toe on the left, it's red and swollen."},
    {"id": "carer", "topic": "who helps at home", "keywords": ["help", "home", "carer"],
     "answer": "My son helps with the shopping."},
]


def test_a_concise_patient_still_gives_the_fact_a_question_of_what_bothers_them_asks_for():
    sim = patient(GOUT, behavior=["concise"])
    assert sim.answer("Morning, take a seat. Which joint is troubling you?").facts == ["toe"]


def test_an_opening_question_gets_the_complaint_not_a_fact_that_shares_a_word():
    for opening in ("How can I help today?", "So what's been going on?", "what's the main problem?"):
        sim = patient(GOUT, behavior=["concise"])
        reply = sim.answer(opening)
        assert reply.facts == [] and "cough" in reply.text, opening
    assert patient(GOUT).answer("what's been going on with the toe?").facts == ["toe"]


# -- 7. an examination announced ------------------------------------------------------------------------------------

def test_a_check_the_doctor_announces_is_an_examination():
    for said in ("I'll just run through a quick neuro check if that's ok", "let me do a full chest check now"):
        assert intent.kind_of(said) == "examination", said
    for said in ("I'll look at your results from the 6 week check", "any check-ups recently?",
                 "we'll check your bloods"):
        assert intent.kind_of(said) != "examination", said


def test_only_where_after_an_examination_asks_nothing():
    sim = patient(CELLULITIS)
    reply = sim.answer("Can I have a look - at the arm and under the sleeve?")
    assert reply.facts == [] and "No" not in reply.text


# -- 8. compound questions with an uncovered part -------------------------------------------------------------------

APPETITE = [
    {"id": "eating", "topic": "eating and drinking", "keywords": ["eating", "appetite", "drinking", "fluids"],
     "answer": "I'm eating less than usual but drinking plenty of water."},
    {"id": "rash_site", "topic": "where the rash is", "keywords": ["where", "arms", "back", "chest"],
     "answer": "The rash is on both arms and across my chest."},
]


def test_a_compound_gives_the_fact_for_the_covered_part_and_a_worded_no_for_the_other():
    reply = patient(APPETITE).answer("Have you been gardening lately, and are you still eating ok?")
    assert reply.facts == ["eating"]
    assert "No gardening lately." in reply.text


def test_an_alternative_the_fact_says_only_by_a_keyword_gets_its_default_worded():
    reply = patient(APPETITE).answer("any on your chest or back?")
    assert reply.facts == ["rash_site"]
    assert reply.text.endswith(" back.") and "No" in reply.text.split(".")[-2]


def test_an_alternative_a_heard_fact_alone_answers_is_said_again_with_the_other():
    sim = patient(APPETITE)
    sim.answer("where's the rash?")
    sim.answer("how's your appetite?")
    reply = sim.answer("Any rashes, or trouble eating?")
    assert set(reply.facts) == {"eating", "rash_site"}


def test_a_question_about_a_thing_owns_no_second_fact_by_what_it_is_about():
    sim = patient([
        {"id": "gp_visit", "topic": "seen by the GP", "keywords": ["GP", "seen", "doctor"],
         "answer": "The GP saw me on Monday and said it was a sprain."},
        {"id": "old_injury", "topic": "previous ankle injuries", "keywords": ["ankle", "before", "previous"],
         "answer": "I broke the same ankle playing football at school."},
    ])
    assert sim.answer("Have you seen anyone about the ankle yet?").facts == ["gp_visit"]


# -- 9. open questions in yes/no words -------------------------------------------------------------------------------

def test_anything_you_do_is_an_open_question_and_gets_no_bare_no():
    for asked in ("Anything you do to relax?", "Is there anyone you can talk to?", "anything you still enjoy doing?"):
        assert intent.kind_of(asked) == "open", asked
        reply = patient([]).answer(asked)
        assert not reply.text.startswith("No"), asked
    assert intent.kind_of("anything else?") == "yesno"
    assert intent.kind_of("anyone you know with a cough?") == "yesno"


def test_the_vocabulary_lists_the_opening_asks():
    assert "how can i help" in read_vocabulary().phrases("patient_complaint_asks")


# -- kind words with no question are acknowledged -------------------------------------------------------------------

def test_kind_words_with_no_question_are_acknowledged_not_denied():
    for said in ("That sounds really exhausting, I'm sorry.", "poor girl, she's been so brave with the cannula",
                 "I'm sorry you've been putting up with this, it must be really hard"):
        reply = patient(APPETITE).answer(said)
        assert reply.facts == [] and reply.kind == "small_talk", said
    assert patient(APPETITE).answer("that sounds hard - how's your appetite?").facts == ["eating"]
    assert patient(APPETITE).answer("poor appetite?").facts == ["eating"]  # a question, not a kind word


def test_a_question_timed_by_the_first_fact_own_clause_asks_of_that_fact_alone() -> None:
    """'any fits after the injury?' of a fact whose topic is 'seizures or shaking after the injury': the
    question's clause of when is the fact's own, so a fact of an earlier head injury (with 'epilepsy' among
    its keywords) does not join the reply."""
    from pathlib import Path

    from medbench_tui.core.cases.model import patient_record
    from medbench_tui.core.simulators import GroundedSimulator
    from medbench_tui.core.validate import load_valid_case

    case = load_valid_case(Path(__file__).resolve().parent.parent / "cases" / "em-head-injury-001.yaml")
    matcher = GroundedSimulator(patient_record(case)).matcher
    assert [s.id for s in matcher.facts_for("any fits after the injury?")] == ["seizure"]
    assert "pmh" in [s.id for s in matcher.facts_for("any medical problems or epilepsy?")]

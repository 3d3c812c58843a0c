"""Finding the facts that answer one question, by what it means in this record.

A question is read as units (:mod:`lexicon`: a word's stem and the clinical concepts its
phrase stands for); each fact is a profile of the terms its ``keywords``, ``topic`` and
``answer`` say, each weighted by the field it comes from. A question word weighs by how
specific it is in this case's record (its inverse document frequency over the record's facts
and intro sentences): a word every fact uses says little, a word one fact uses points at it.
A fact's score blends the share of the question it covers with its best single word; a fact
answers when its score reaches :data:`MATCH_THRESHOLD`, and the rules of
:meth:`Matcher.facts_for` decide between facts that share words.
"""

from __future__ import annotations

import math
import operator
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property

from rapidfuzz import fuzz, process

from medbench_tui.core.batch_caches import batch_cache
from medbench_tui.core.cases.model import PatientRecord
from medbench_tui.core.simulators import intent, voice
from medbench_tui.core.simulators.intent import DESCRIPTOR_CONCEPTS as DESCRIPTORS
from medbench_tui.core.simulators.lexicon import (
    BROADER,
    CLINICAL,
    STOPWORDS,
    Unit,
    misspelt_concepts,
    says_phrase,
    sentences,
    stem,
    units,
    words,
)
from medbench_tui.core.simulators.typos import english_word
from medbench_tui.core.text import lemma, singular
from medbench_tui.core.vocabulary import read_vocabulary
from medbench_tui.core.vocabulary.reading import NUMBER_WORDS

MATCH_THRESHOLD = 0.6
"""Score a fact needs to answer a question: BLEND x the share of the question's
(rarity-weighted) words it covers + (1 - BLEND) x its best word match."""
INTRO_THRESHOLD = 0.7
"""The same share for a question that only the intro answers ("As I said, ...")."""
FUZZY_CUTOFF = 88
"""rapidfuzz ``ratio`` for a word the record lacks to stand for a record word (>= 5 letters)."""
SECOND_FACT_WEIGHT = 0.8
"""A second fact answers the same question only if it owns a word at topic/keyword strength."""
MAX_FACTS_PER_QUESTION = 3
OWN_MARGIN = 0.05
"""A second fact owns a word only when it matches it this much better than the facts chosen."""
FOLLOW_UP_BONUS = 0.15
"""A follow-up leaves the topic of the last reply only for a fact that matches it this much better."""
ELLIPSIS_WORDS = 4
"""A question with no content word is a fragment about the last reply ("how much?", "what
happened then?") only when it is this short."""
WHOLE_SMALL_WORDS = 3
"""Small words of one keyword a part without a content word must say for it to leave the topic."""
COVERED_THRESHOLD = 0.35
"""Score of a question part against the facts already in the reply at which they answer it."""
BODY_PARTS = CLINICAL.of_kind("body_part") | frozenset(
    f"@{c}" for c, broader in BROADER.items() if any(CLINICAL.kinds.get(b) == "body_part" for b in broader)
)
"""Where a symptom is: the body parts of the vocabulary, and the symptoms of one part (vision: the eye)."""
PARTS_OF_THE_BODY = CLINICAL.of_kind("body_part")
"""The body parts of the vocabulary themselves (not the symptoms of one part)."""
CIRCUMSTANCE_CONCEPTS = frozenset({"@time_of_day", "@baseline", "@comparison", "@time_frame"})
TIME_OF_DAY = frozenset({"@time_of_day"})
"""The concept of the times of day (night, morning, evening): each says one time, not another."""
MODIFIERS = frozenset({"@history", "@recurrence"}) | CIRCUMSTANCE_CONCEPTS
"""Concepts that say when or whether before ("previous", "history of", "at night", "day to day"), not
what about; a record that never says them is not asked about something new."""
ASKED_TIME_FRAME = frozenset({"@time_frame"})
"""The time frame a question asks of ("at the moment", "since it started"): no subject, but a heard fact
that does not say it says less of the question (said again with doubt)."""
HEAD_CONCEPTS = frozenset({"@allergy"})
"""Concepts that, with what they are to, are what a question is about: "any allergies to meds?" asks
for the allergies (to medicines), not for the medicines ("heat intolerance" is no allergy)."""
PAST_EPISODE = frozenset({"@recurrence", "@history"})
"""Concepts of whether before ("ever had", "before", "previous", "in the past"): of a fact, about an episode before
this one."""
_WHEN_CLAUSE = re.compile(r"(?<=\w)[\s,]+(?:when|whenever|while)\b", re.IGNORECASE)
"""The clause of when after what a question asks of ("any burning when you pass urine?"): grammar."""
_AN_EXAMPLE_BEFORE = re.compile(r"\b(?:for example|for instance|e\.?g\.?|such as|like)\W*$", re.IGNORECASE)
"""Grammar: a clause of when given as an example ("anything like this before, for example when walking?") says
what is asked, not a condition of it."""
_ASKS_WH = re.compile(
    r"^\W*(?:(?:and|so|ok|okay|can i ask|could i ask|may i ask)\W+)*(?:how|what|which|where|who|why)\b", re.IGNORECASE
)
"""A question that opens by asking how or what: grammar."""
_HISTORY_CONCEPT = frozenset({"@medical_history"})
"""The concept of the whole medical history ("PMH?"), which a phrase naming one organ's problems stands for."""
_THING_DESCRIPTORS = frozenset({"@character"})
"""A descriptor that names a thing felt ("burning", "stabbing"), asked of as a symptom of its own."""
_TAKES_OBJECT = re.compile(r"\b(\w+) to\b", re.IGNORECASE)
GENERIC_SYMPTOMS = frozenset({"@pain", "@swelling", "@bleeding"})
ALTERNATIVE_THRESHOLD = 0.7
"""Score one alternative of "any A or B?" needs to answer the question for the whole."""
REPEAT_MARGIN = 0.1
"""A fact the doctor heard before is said again beside new facts only when it matches the
question this much better than the best new one ("what colour was the sick?")."""
KIN_ROOT = 4
"""Letters two words share at the start to be of one root ("urinary", "urine")."""
READINGS_KEPT = 256
"""Questions whose reading (and scores against every fact) a record keeps (a consultation
asks far fewer)."""
RESOLVED_KEPT = 4096
"""Question words whose resolution (:meth:`Matcher._resolve`) a record keeps."""
TIE = 1e-6
"""Scores this close are equal."""
EXACT_MATCH = 0.95
"""Score of a fact matched on its own keywords, whole."""
ANSWER_ONLY_THRESHOLD = 0.7
"""Score a fact needs when the question shares words only with its answer text, none with
what it is about ("what do you do for work?" is not about "climbing the stairs at work")."""
BLEND = 0.6
"""A fact's score: BLEND x its coverage of the question + (1 - BLEND) x its best word
match, so "allergic to any medicines" goes to the allergy fact even though the
medicines fact covers the other half."""
BROADER_FACTOR = 0.6
"""A fact about diarrhoea answers "any change in your bowels?" only weakly."""
PHRASE_WORD_FACTOR = 0.6
"""A word inside a multi-word phrase of a fact ("hearing" of "hearing voices") means
the phrase's concept more than itself."""
PARTIAL_PHRASE = 0.5
"""Weight of one word of a multi-word keyword ("hearing" of "hearing things")."""
GENERIC_WEIGHT = 1.5
"""Weight of a question word that neither the record nor the synonym map knows."""
CONCEPT_FACTOR = 0.9
"""A match through the synonym map counts a little less than the same word."""

FIELD_WEIGHTS = {"keywords": 1.0, "topic": 0.85, "answer": 0.6}
NAMED_STRENGTH = FIELD_WEIGHTS["topic"] * CONCEPT_FACTOR
"""A word matched this strongly is what the fact is about (its topic or keywords), not a word it uses."""
SYMPTOM_CONCEPTS = tuple(sorted(CLINICAL.of_kind("symptom", "finding")))
"""What patients feel and notice, and what is seen of them (the vocabulary's symptoms and findings)."""
SYMPTOMS = frozenset(SYMPTOM_CONCEPTS)
ALCOHOL = frozenset({"@alcohol"})
FOOD = frozenset({"@diet", "@appetite"})
"""A fact about alcohol, and one about food: eating and drinking asked together is food and fluids."""

_ASKED_ASPECTS = frozenset({"@time_of_day", "@aggravating"})
"""The aspects a yes/no question may ask of a fact the doctor heard that it need not say (when in the day, what makes
it worse); what helps is said in too many words ("didn't touch it") to tell."""
_OR_WORD = re.compile(r"\bor\b", re.IGNORECASE)
_OR = re.compile(r",?\s+\bor\b\s+|,\s+(?=\w)", re.IGNORECASE)
_LEAD = re.compile(
    r"^\s*(and |so |also )?(any|(have|has|did|do|does) (you|he|she|they) (ever )?(had|have|got|get|noticed|notice)|"
    r"is there|are there|ever had)\s+",
    re.IGNORECASE,
)
_OWN_LEAD = re.compile(r"^\s*(?:do|does|did)\s+(?:(?:you|he|she|they)\s+)?any\s+(?=\w)", re.IGNORECASE)
"""An alternative after "or" that opens a yes/no question of its own ("do you go to the gym or do any contact
sports?", "... or any other sports?"): grammar; the question is a list though its first part has no lead."""
_HEAD_OF_LIST = re.compile(
    r"^.*\b(of|to|with|in|on|around|under|behind|round(?=\s+(?:his|her|your|their|the|my|both)\b))\s+(?=\w)",
    re.IGNORECASE,
)
"""What the first alternative of a list says the others are of ("any family history of asthma or
eczema?": of eczema in the family, not eczema of the patient; "any spots on his legs or bottom?")."""
_CIRCUMSTANCE = re.compile(r"(?<=\w)\s+\b(when|whenever|while|during|about)\b\s+(?=\w)", re.IGNORECASE)
"""A circumstance after the question's subject ("any blood when you go?"), not a question of when; or what it is
about ("has he seen anyone about the ear?"): no second fact joins the answer by its words alone."""
_PART_AT_THE_END = re.compile(
    r"\b(in|on|around|under|behind|down|of|round(?=\s+(?:his|her|your|their|the|my|both)\b))\s+"
    r"(?:(?:your|his|her|their|the|my|both)\s+)?\w+\W*$", re.IGNORECASE
)
"""A part of the body a list ends in ("... or numbness in your legs?"): where every alternative is asked."""
_EXAMPLES = re.compile(
    r",\s*(like|such as|for example|for instance|e\.?g\.?|say)\s+\w|,[^,]+\b(for example|for instance)\W*$",
    re.IGNORECASE,
)
"""Where the examples of what a question asks about begin."""


def without_examples(question: str) -> str:
    """The question without the examples of what it asks about ("any tests, thyroid for example?")."""
    example = _EXAMPLES.search(question)
    return question[: example.start()] if example else question
_DURATION = re.compile(
    r"\b(\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|few|couple of|several)\s+"
    r"(seconds?|minutes?|hours?|days?|weeks?|months?|years?)\b|\b(ago|since|yesterday|last night|this morning)\b",
    re.IGNORECASE,
)
_HOW_LONG = re.compile(r"\bhow\s+long\b(?!.*\blast(?:ed|s)?\b)", re.IGNORECASE)
"""How long something has gone on ("how long have you been a teacher?"; not how long one episode lasted)."""
_LENGTH_SAID = re.compile(
    r"\d|\b(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|wks?|fortnights?|months?|years?|yrs?|decades?|"
    r"always|ages|for long|a long time|all (?:my|his|her|their|our) li(?:fe|ves)|as long as)\b",
    re.IGNORECASE,
)
"""Grammar of a length of time said ("ten or fifteen seconds", "for years", "always", "all my life", a number)."""
_GOES_ON = re.compile(r"^\W*(?:it|that|this|they|these|those|he|she)\b", re.IGNORECASE)
"""A sentence that goes on of the one before by a pronoun ("... couldn't find her words. It lasted twenty minutes")."""
_BEFORE_THIS = tuple(" ".join(words(p)) for p in read_vocabulary().phrases("patient_before_this"))
"""Words of the time before the present illness ("in the weeks before this started")."""
_DAY_AND_NIGHT = tuple(
    tuple(" ".join(words(p)) for p in read_vocabulary().phrases(name))
    for name in ("patient_daytime", "patient_night_time")
)
"""Words of the daytime, and of the night: a question of one is not answered by a fact of the other alone."""
_SEEN_ASKS, _SEEN_TELLS = (
    tuple(" ".join(words(p)) for p in read_vocabulary().phrases(name))
    for name in ("patient_seen_asks", "patient_seen_tells")
)
"""Words asking whether someone looked at what is asked of ("has anyone looked at that knee?"), and the words of a
fact that tells it was seen, or by whom."""
_KINDS_NAMED = tuple(words(p) for p in read_vocabulary().phrases("patient_kind_named"))
"""Names whose first word names one kind of a symptom ("double vision"): told only by a fact that says that word."""
_DETAILS = tuple(
    (tuple(" ".join(words(p)) for p in read_vocabulary().phrases(f"patient_{kind}_asks")),
     tuple(" ".join(words(p)) for p in read_vocabulary().phrases(f"patient_{kind}_tells")), by_number, by_name)
    for kind, by_number, by_name in (
        ("side", False, False), ("place", False, True), ("date", True, False), ("brand", False, True),
        ("who", False, True),
    )
)
"""A detail a question asks of a fact (its words), the words of a fact that state it, and whether a number (a date's
year or day) or a name (a hospital's, a brand's, a person's) states it too: a named table, the words are the
vocabulary's."""
_A_NUMBER = re.compile(r"\d")
_A_NAME = re.compile(r"(?<=[a-z,;] )[A-Z][a-z]+")
"""A capitalised word inside a sentence: a name (of a person, a place or a brand), grammar; a month's or a day's
name ("in March") is a when, no name."""
_WHEN_WORDS = frozenset(_DETAILS[2][1])
_WHAT_HAPPENED = tuple(" ".join(words(p)) for p in read_vocabulary().phrases("patient_what_happened"))
_WHAT_FOR = re.compile(
    r"^\W*(?:and\s+|so\s+)?what(?:'s|\s+is|\s+are|\s+was|\s+were|\s+do|\s+does|\s+did)\b[^?]*\bfor\W*$", re.IGNORECASE,
)
"""What something is for ("what's the EpiPen for?", "and what are the patches for?"): its purpose, asked at the end."""
SAYS_WHAT_FOR = re.compile(r"\bfor (?:my|his|her|their|the|your|a|an)\b", re.IGNORECASE)
"""A medicine told with what it is for ("amlodipine for my blood pressure", "paracetamol for the headache")."""
_MEDICINES = CLINICAL.of_kind("drug", "drug_class")
"""The concepts of medicines and their classes ("@alendronic_acid", "@bisphosphonate")."""
_OF_A_HISTORY = frozenset({"@medication", "@history", "@medical_history"})
"""A fact's topic of a treatment or a history ("the irregular heartbeat and its treatment"): one that may say what a
medicine is for."""
_AT_HOME = re.compile(r"\bat home\b", re.IGNORECASE)
_OF_PEOPLE = re.compile(r"\b(?:who|whom|anyone|anybody|someone|somebody|everyone|everybody|else|people)\b",
                        re.IGNORECASE)
""""At home" after something else asked ("any temps at home?", "what painkillers have you got at home?") says where
it happened, not who lives there, unless the question asks of people there ("anyone at home unwell?")."""
_FOOD_AND_DRINK = tuple(" ".join(words(p)) for p in read_vocabulary().phrases("patient_food_and_drink"))
_LONG_TERM = tuple(" ".join(words(p)) for p in read_vocabulary().phrases("patient_long_term_conditions"))
_WHOLE_HISTORY = tuple(" ".join(words(p)) for p in read_vocabulary().phrases("patient_whole_history"))
_ANY_MEDICINE = frozenset(read_vocabulary().phrases("patient_any_medicine"))
# products not counted as medicines, longest first so "protein shakes" goes before "protein"
_NOT_MEDICINES = tuple(sorted({words(p) for p in read_vocabulary().phrases("patient_not_medicines")}, key=len,
                              reverse=True))
_LOW_CONTENT = frozenset(key for p in read_vocabulary().phrases("patient_low_content_words") for key in words(p))
"""Words of what is done with a thing or of a kind of thing ("checked", "procedures"): never the head of a question that
names something else beside them."""
_PLACES_GONE_TO = frozenset(
    stem(lemma(w)) for p in read_vocabulary().phrases("patient_places_attended") for w in words(p)
)
"""The places a patient goes to (nursery, school): where others may be unwell, not who is."""
def _of_others_unwell(topic: str) -> bool:
    """Is a fact's topic the others who are unwell ("contacts with cold sores or chickenpox"), and names no place the
    patient goes to ("sick contacts and nursery" tells of the nursery too)?"""
    said = units(topic)
    return any("@contact" in u.terms for u in said) and not any(_wording(u.text) & _PLACES_GONE_TO for u in said)


_GOES_THERE = re.compile(r"\b(?:go|goes|attend|attends|attending|how many days|days a week|days per week)\b",
                         re.IGNORECASE)
"""Going to a place ("does he go to nursery?", "how many days a week?"): grammar; "going round" is what is going round
there."""
_SETTING_BEFORE = re.compile(
    r"\b(?:at|in|from|around|while|whilst|when|done|had|got|gotten|bought|taken|made|performed|carried out)"
    r"\s+(?:(?:at|in|while|whilst|the|his|her|your|my|their)\s+)*(\w+)", re.IGNORECASE)
"""A place said as the setting of something else ("anyone at work unwell?", "tattoos done abroad?"): a locative
preposition or a participle of having something done before it; grammar. A place not so introduced ("what do you do
for work?", "how's nursery?") is what the question asks about."""
_DENYING = re.compile(r"\b(?:no|not|never|none|nothing|neither|nor)\b|n't\b", re.IGNORECASE)
"""Words that deny what their sentence says ("I've never been told I have diabetes"): grammar, not clinical words."""


def _has_it(answer: str) -> bool:
    """Does the answer say a long-term illness of the patient's, in a sentence that does not deny it ("I was
    diagnosed with diabetes eight years ago"; not "No, I'm not diabetic", nor a thyroid screen that never names it)?"""
    return any(says_phrase(said, _LONG_TERM) and not _DENYING.search(said) for said in sentences(answer))


def _of_medicines(unit: Unit) -> bool:
    """Does a word speak for the patient's medicines: a word of them ("tablets", "painkillers") or a drug of the
    vocabulary ("sertraline")?"""
    return "@medication" in unit.terms or any(
        t.startswith("@") and CLINICAL.kinds.get(t[1:]) == "drug" for t in unit.terms
    )


def _of_other_products(topic: str) -> bool:
    """Is a fact's topic of products a patient does not count as medicines alone (``patient_not_medicines``:
    "supplements", "St John's wort", "protein shakes"; or recreational drugs), with no medicine besides them
    ("ibuprofen and protein shakes" is of a medicine too)? "Are you taking any medicines?" does not ask it."""
    said = list(words(topic))
    marked = False
    for phrase in _NOT_MEDICINES:
        for i in range(len(said) - len(phrase) + 1):
            if tuple(said[i:i + len(phrase)]) == phrase:
                said[i:i + len(phrase)] = [","] * len(phrase)
                marked = True
    rest = [u for u in units(" ".join(said)) if "@recreational_drugs" not in u.terms]
    marked = marked or len(rest) < len(units(topic))
    # beside them, a word of any medicine ("tablets", "remedies"; patient_any_medicine) names none of its own
    return marked and not any(_of_medicines(u) and u.text.lower() not in _ANY_MEDICINE for u in rest)


def _names_the_same(source: Source, told: list[Source]) -> bool:
    """Does an answer chosen already name the long-term illness the fact is about (the history that says the
    diabetes, beside the fact of its control)?"""
    return any(f" {p} " in f" {' '.join(words(source.topic))} " and says_phrase(t.text, (p,)) for p in _LONG_TERM
               for t in told)


_CLAUSE = re.compile(r"\s*[,;]\s*(?:and |but |then )?|\s+(?:and|but|then)\s+", re.IGNORECASE)
"""Where one clause of an intro sentence ends ("a bad pain low down, and I nearly passed out")."""


_ABOUT = re.compile(r"(?<=\w)\s+about\s+(?=\w)", re.IGNORECASE)
ABOUT_FACTOR = 0.5
"""Weight of a question's words after "about" ("seen anyone about the ankle?"): what the asked thing concerns, not
the thing asked."""


def _about_clause(question: str) -> int:
    """How many of the question's units come before "about" (all of them when it has none)."""
    clause = _ABOUT.search(question)
    if clause is None:
        return len(units(question))
    before, after = units(question[: clause.start()]), units(question[clause.end():])
    return len(before) if len(before) + len(after) == len(units(question)) else len(units(question))


def _main_clause(question: str) -> int:
    """How many of the question's units come before a circumstance ("... when you open your bowels")."""
    clause = _CIRCUMSTANCE.search(question)
    if clause is None:
        return len(units(question))
    before, after = units(question[: clause.start()]), units(question[clause.end() :])
    return len(before) if before and len(before) + len(after) == len(units(question)) else len(units(question))


def _swapped(typed: str, word: str) -> bool:
    """Is the typed word the word with two letters next to each other swapped ("strat": "start")?"""
    if len(typed) != len(word) or typed == word:
        return False
    differ = [i for i, (a, b) in enumerate(zip(typed, word, strict=True)) if a != b]
    return (len(differ) == 2 and differ[1] == differ[0] + 1
            and typed[differ[0]] == word[differ[1]] and typed[differ[1]] == word[differ[0]])


def _qualified_match(source: Source, terms: frozenset[str], factor: float, matched: float) -> float:
    """How well a fact matches a word qualified by one the record does not know: as a word of a
    partial keyword, though a concept is the concept whatever qualifies it ("drug reactions")."""
    concept = max((source.profile.get(t, 0.0) for t in terms if t.startswith("@")), default=0.0)
    return max(min(matched, PARTIAL_PHRASE), factor * concept)


def _only_describes(question: str) -> bool:
    """Is the question only of when/how/where ("when did you first notice the change?")?"""
    asked = units(question)
    return bool(asked) and all(u.terms & DESCRIPTORS for u in asked)



_ALL_OF = re.compile(r"\ball (?:of )?(?:the|your|his|her|their) (?!time\b|way\b|same\b)\w", re.IGNORECASE)
"""A question of all of a kind ("what are all the tablets you take?"): every fact that says it is asked for."""


_LISTING = re.compile(r"\b(list|name|tell me|go through|run through|read)\b", re.IGNORECASE)
"""Words of asking for a list ("can you list ...", "tell me ...")."""


def asks_all_of(question: str) -> bool:
    """Does the question ask what all of a kind are ("what are all the tablets you take?", "can you list all your
    medicines?")? Every fact that says it is the answer, those the doctor heard before too; "have you taken all
    the doses?" asks whether, of the doses just told."""
    return bool(_ALL_OF.search(question)) and (intent.kind_of(question) == "open" or bool(_LISTING.search(question)))


def _asks_when(question: str) -> bool:
    """Does the question ask when, in small words that say only that ("when did you first notice the face?", "how
    long have you had it?")? One "when" has one answer: when the fact of when it started answers it, not another
    fact beside it that names the face."""
    return any(u.terms == {"@onset"} for u in units(question))


_MEDICINE_USE = frozenset(" ".join(words(p)) for p in read_vocabulary().phrases("patient_medicine_use"))
"""Words of using a medicine ("tried", "used", "put on"): beside a medicine named they weigh nothing."""

_WHAT_KINDS = re.compile(r"^\W*(?:what|which)\s+(?:other\s+)?([a-z]{3,}s)\b", re.IGNORECASE)
"""A question of which ones of a kind, in the plural ("what creams have you tried?", "which tablets do you take?"):
every fact that names the kind is asked for, as with "all the ..." (:data:`_ALL_OF`)."""


def _names_a_medicine(unit: Unit) -> bool:
    """Does the unit name a medicine or a kind of medicine ("creams", "the ibuprofen")?"""
    return "@medication" in unit.terms or bool(_kind_of_medicine(unit.text))


def _medicine_use_weights(said: tuple[Unit, ...] | list[Unit], weights: list[float]) -> list[float]:
    """The weights with a verb of using a medicine (:data:`_MEDICINE_USE`) at nothing when another unit names the
    medicine: "what creams have you tried?" asks of the creams, whichever fact's author listed "tried"."""
    if not any(_names_a_medicine(u) for u in said):
        return weights
    return [0.0 if u.text.lower() in _MEDICINE_USE and not _names_a_medicine(u) else w
            for u, w in zip(said, weights, strict=True)]


@batch_cache(maxsize=4096)
def _kind_of_medicine(word: str) -> frozenset[str]:
    """The words that name the kind of medicine a word names (a class or a drug: its one-word names and its
    members'; "steroids": prednisolone, ...), empty for a word of no kind ("tablets", "medicines")."""
    vocabulary = read_vocabulary()
    found = [t for t in vocabulary.lookup(word) if t.kind in ("drug", "drug_class")]
    named = {n for t in found for each in (t, *vocabulary.narrower(t)) for n in each.names if len(words(n)) == 1}
    return frozenset(t for n in named for u in units(n) for t in u.terms if not t.startswith("@"))


QUOTED_RUN = 5
"""Words in a row of a question, one of them or more not a small word, that a fact's answer says as they stand: the
question quotes that fact."""


@batch_cache(maxsize=4096)
def _quoted_runs(question: str) -> tuple[str, ...]:
    said = words(question)
    return tuple(" ".join(said[i:i + QUOTED_RUN]) for i in range(len(said) - QUOTED_RUN + 1)
                 if any(w not in STOPWORDS for w in said[i:i + QUOTED_RUN]))


@batch_cache(maxsize=4096)
def _spaced_words(text: str) -> str:
    """A fact's answer as its words between spaces, read once per answer, not once per question asked of it."""
    return f" {' '.join(words(text))} "


def quotes(question: str, source: Source) -> bool:
    """Does the question say a run of the fact's answer's words as they stand (:data:`QUOTED_RUN`)?"""
    runs = _quoted_runs(question)
    flat = _spaced_words(source.text) if runs else ""
    return any(f" {r} " in flat for r in runs)


def _quoting_its_words(question: str, matches: list[Match]) -> list[Match]:
    """A fact whose answer says a run of the question's words as they stand ("was the blood all the way through the
    stream?" of "all the way through the stream, for most of the day") goes before, and matches as well as, a fact
    that only shares a word of it (the weak stream of the waterworks), which is no answer beside it."""
    if not _quoted_runs(question) or len(matches) < 2:
        return matches
    quoting = [m for m in matches if quotes(question, m.source)]
    if not quoting:
        return matches
    best = max(m.score for m in matches)
    # another fact stays only for a word the quoted fact says nothing of ("the blood" of the first episode)
    return [Match(m.source, max(m.score, best), m.per_unit) for m in quoting] + [
        m for m in matches if m not in quoting
        and any(p > 0 and all(q.per_unit[i] == 0 for q in quoting) for i, p in enumerate(m.per_unit))]


def _as_asked(keywords: list[str]) -> list[str]:
    """What each keyword that is shorthand the patient writes out when asked ("DVT") is read as in a question ("deep
    vein thrombosis clot in the leg"): a question that says the shorthand says that keyword, whole."""
    return [said for k in keywords if (said := intent.understood(k)) != k]


def _names_its_kind(word: str, terms: frozenset[str], says: frozenset[str]) -> bool:
    """Does a fact say the question's word, when it names a kind of medicine, by that kind's own names ("any
    antibiotics?" of "amoxicillin"), not only as a medicine (the regular ramipril)?"""
    named = _kind_of_medicine(word)
    return not named or bool((named | {t for t in terms if not t.startswith("@")}) & says)


def _aspects(topic: str, keywords: list[str]) -> frozenset[str]:
    """The descriptors (when, how, how often…) a fact is about: a keyword (or topic) that says
    only that ("getting worse"; not "voice changed", "a change of tablets")."""
    found: set[str] = set()
    for keyword in [topic, *keywords]:
        said = units(keyword)
        if said and all(u.terms & DESCRIPTORS for u in said):
            found.update(t for u in said for t in u.terms & DESCRIPTORS)
    return frozenset(found)


@batch_cache(maxsize=4096)
def _halves_of_the_day(text: str) -> tuple[bool, bool]:
    """Does the text say the daytime, and the night?"""
    said = f" {' '.join(words(text))} "
    day, night = (any(f" {p} " in said for p in phrases) for phrases in _DAY_AND_NIGHT)
    return day, night


@batch_cache(maxsize=8192)
def _changed_by_phrase(unit: Unit) -> bool:
    """Does a phrase around the word take away a meaning it has alone ("for a living"), or give it
    one it lacks alone ("blacked out" is no black stool)?"""
    if not unit.in_phrase:
        return False
    alone = {t for u in units(unit.text) for t in u.terms if t.startswith("@")}
    return alone != {t for t in unit.terms if t.startswith("@")}



_TIMES = r"(?:minute|hour|day|night|week|month|year|time)s?\b"
_AMOUNTS = "|".join(sorted((w for w in NUMBER_WORDS if len(w) > 2), key=len, reverse=True))
_AMOUNT_OR = re.compile(
    rf"\b(?:(?:a|an|{_AMOUNTS}|\d+)\s+)?{_TIMES}\s+or\s+(?:{_AMOUNTS}|\d+|so)\b(?!\s+{_TIMES})"
    rf"|\b(?:{_AMOUNTS}|\d+|once)\s+or\s+(?:{_AMOUNTS}|\d+|twice|so)\b",
    re.IGNORECASE,
)
"""One rough amount said with "or" ("a week or two ago", "once or twice", "two or three times", "a day or so"):
grammar; no list of alternatives."""
_ONE_AMOUNT = "\x01"
"""Stands for the "or" of a rough amount while a question is split into its alternatives."""


@batch_cache(maxsize=4096)
def alternatives(question: str) -> tuple[str, ...]:
    """The alternatives of a list of yes/no questions ("any nausea or vomiting?": "any nausea",
    "any vomiting"), each as a question of its own; none for one question ("history of A or B",
    "a day or two", "or similar"). Cached: several checks of one part ask."""
    question = _AMOUNT_OR.sub(lambda m: m.group().replace(" or ", _ONE_AMOUNT), question)
    head = _LEAD.match(question)
    # an alternative that is only a rough amount ("any cough, even once or twice?") names nothing asked
    found = [a.replace(_ONE_AMOUNT, " or ") for a in _OR.split(question)
             if any(not (u.terms & DESCRIPTORS) for u in units(_AMOUNT_OR.sub(" ", a.replace(_ONE_AMOUNT, " or "))))]
    own_lead = any(_OWN_LEAD.match(a) for a in found[1:]) and bool(_OR_WORD.search(question))
    if not (head or own_lead or (_OR_WORD.search(question) and intent.lists_only(question))) or len(found) < 2:
        return ()  # a list needs a lead ("any", "have you had") or none at all ("night sweats or weight loss?")
    asked = []
    last = words(found[-1])
    carried = _part_with_a_state(found[0][head.end():] if head else found[0])
    qualifier: re.Match[str] | None = None
    for i, alternative in enumerate(found):
        # one that starts as a question of its own ("... or any phlegm?") is of nothing before it,
        # one that says what it is of ("... or blood in your stools?") only of the lead; a bare one is of what the
        # one before it is of ("any falls or injury to your chest or back?": injury to the back), and so on down a
        # list of bare ones ("any FHx of back problems, psoriasis or bowel disease?": bowel disease in the family)
        own = i == 0 or _LEAD.match(alternative) or _OWN_LEAD.match(alternative)
        if i:
            before = _HEAD_OF_LIST.match(found[i - 1])
            qualifier = before or (None if _LEAD.match(found[i - 1]) or len(words(found[i - 1])) > 3 else qualifier)
        qualified = qualifier
        lead = qualified.group() if qualified and not _HEAD_OF_LIST.match(alternative) else head.group() if head else ""
        if 0 < i < len(found) - 1 and len(last) == 2 and _names_a_part_alone(alternative):
            alternative = f"{alternative.strip()} {last[-1]}"  # "chest or water infections": chest infections
        elif i and carried and len(words(alternative)) == 1 and not _names_a_part_alone(alternative):
            alternative = f"{carried} {alternative.strip()}"  # "any other joints swollen or painful?": joints painful
        asked.append(alternative if own else lead + alternative)
    return tuple(asked)


def _part_with_a_state(first: str) -> str:
    """The words of a list's first alternative up to the parts of the body it says a state of ("other joints" of
    "other joints swollen"; a plural part then one word, so no "chest" of "chest pain"), which every bare word after
    it is of; "" when it names none."""
    said = first.split()
    if len(said) < 2 or len(said) > 4:
        return ""
    part = said[-2].lower()
    part_units = units(part)
    plural = singular(part) != part
    if not (plural and len(part_units) == 1 and part_units[0].terms & BODY_PARTS):
        return ""
    return " ".join(said[:-1])


def _names_a_part_alone(alternative: str) -> bool:
    """Is the alternative one word naming a part of the body ("chest" of "chest or water infections")?"""
    said = units(alternative)
    return len(words(alternative)) == 1 and len(said) == 1 and bool(said[0].terms & BODY_PARTS)



_HOUSEHOLD = tuple(
    " ".join(words(p)) for name in ("patient_household", "patient_relatives") for p in read_vocabulary().phrases(name)
)
"""Words that say who lives with the patient, or nobody."""


def _says_who(source: Source) -> bool:
    """Does the fact say who lives with the patient, or nobody ("I live with the wife", "on my own")?"""
    return says_phrase(f"{source.topic} {source.text}", _HOUSEHOLD)


_RELATIVE_CLAUSE = re.compile(
    r"\b(?:before|after|since|until|till|prior to|following)\s+"
    r"(?P<what>(?:the|a|an|his|her|my|your|their|this|that|these|those)\s+[^,;.()]+)",
    re.IGNORECASE,
)
"""A clause of when in a fact's topic or keyword ("rash before the blisters", "help since the crash"): grammar."""


def _written(terms: frozenset[str]) -> frozenset[str]:
    """The terms of words as written, not the concepts they stand for."""
    return frozenset(t for t in terms if not t.startswith("@"))


@batch_cache(maxsize=8192)
def _relative_only(text: str) -> frozenset[str]:
    """The terms a topic or keyword says only in a clause of when ("rash before the blisters": the blisters'), not
    in what it is about."""
    clauses = list(_RELATIVE_CLAUSE.finditer(text))
    if not clauses:
        return frozenset()
    timed = {t for c in clauses for u in units(c.group()) for t in u.terms}
    main = _RELATIVE_CLAUSE.sub(" ", text)
    return frozenset(timed - {t for u in units(main) for t in u.terms})


_PRONOUN_SLOT = frozenset(stem(lemma(w)) for w in ("it", "they", "them", "that", "those"))
"""The pronouns that stand for what was just said: one slot when a keyword is said whole, so "what made them stop?"
says the keyword "what made it stop" (grammar, not clinical language)."""


def _slotted(wording: frozenset[str]) -> frozenset[str]:
    return frozenset("it" if w in _PRONOUN_SLOT else w for w in wording)


def _keyword_said_whole(source: Source, question: str) -> bool:
    """Does the question say a keyword of the fact of several words whole (its pronouns one slot)?"""
    asked = _slotted(_wording(question))
    return any(len(w) >= WHOLE_SMALL_WORDS and _slotted(w) <= asked for w in source.wordings)


@batch_cache(maxsize=8192)
def _wording(text: str) -> frozenset[str]:
    return frozenset(stem(lemma(w)) for w in words(text))


_AT_HOME_WORDING = _wording("at home")
"""A fact keyworded "at home" tells what was done there (what was tried at home), even when it names a relative."""
_PEOPLE_WORDS = frozenset(
    stem(lemma(w)) for name in ("patient_relatives", "patient_household") for p in read_vocabulary().phrases(name)
    if len(words(p)) == 1 for w in words(p)
)
"""The words that name people of the patient's ("wife", "kids", "dad"): who, not what, a question asks of."""
_ONES_OWN = tuple(" ".join(words(p)) for p in read_vocabulary().phrases("patient_ones_own"))
"""What is the patient's own ("his own hearing"), set against the family's."""
_SPEAKERS_OWN = tuple(" ".join(words(p)) for p in read_vocabulary().phrases("patient_speakers_own"))
"""What is the speaker's own ("have you had kidney stones yourself?"), set against the family's."""
_FAMILY_HISTORY = frozenset(t for u in units("family history") for t in u.terms)
"""The terms of a fact whose topic is the family history and nothing else."""
_WHICH_PERSON = re.compile(
    r"\b(?:your|ur|his|her|their)\s+(?:\w+\s+)??\w+\s+(?P<which>(?:with|who\s+(?:has|had|got)|who's\s+got|on\s+(?:your|his|"
    r"her|their)\s+\w+(?:'s)?\s+side)\s+[^?.!,;]*?)\s+(?:have|has|had|get|gets|got|ever|also|still|do|does|did|is|was|"
    r"been)\b",
    re.IGNORECASE,
)
"""Words that say which person a question asks of ("does your cousin with psoriasis have any joint problems?",
"has your uncle on your mum's side ever been tested?"): who, not what is asked of them (grammar)."""
_HOW_WHAT = re.compile(r"^\W*how\s+(\w+)\b", re.IGNORECASE)
"""What a question of how asks ("how old was he?": old, an age): the word after "how"."""
SAYS_AN_AGE = re.compile(
    r"\b(?:she's|he's|who's|she is|he is|is|aged?)\s+(?:about\s+|only\s+|nearly\s+|just\s+)?"
    r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|[a-z]+teen|twenty|thirty|forty|fifty|"
    r"sixty|seventy|eighty|ninety)(?:[ -](?:years?|months?)[ -]old)?(?=\s*(?:[.,;!?)]|$|\s+and\b|\s+now\b))"
    r"|\b(?:at|aged?)\s+(?:the\s+)?(?:age\s+of\s+)?(?:about\s+)?(?:\d+|[a-z]+ty(?:-[a-z]+)?|[a-z]+teen)\b"
    r"(?!\s*(?:o'?clock|am|pm|[:.]\d|percent|%))"
    r"|\b(?:in|into)\s+(?:his|her|their|my)\s+(?:early\s+|late\s+|mid\s+)?(?:teens|[a-z]+ties)\b"
    r"|\bwhen (?:i|he|she|we|they) (?:was|were) (?:about |around |only |just )?(?:\d+|[a-z]+ty|[a-z]+teen|one|two|"
    r"three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b"
    r"|\b(?:turned|turning)\s+(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|[a-z]+teen|"
    r"[a-z]+ty)\b(?!\s*(?:o'?clock|am|pm|[:.]\d))"
    r"|\b(?:a|an|\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|[a-z]+teen|[a-z]+ty)[ -]"
    r"(?:years?|months?|weeks?)[ -]old\b",
    re.IGNORECASE,
)
"""Grammar of a person's age a fact says ("Ruby, she's 3.", "her brother Josh, who's four, is fine", "my father is
80 and well", "just before she turned one", "about a year old", "a stroke at seventy-five", "in her seventies",
"when she was 30"): what "how old is she?" asks."""
_ANYONE_WORDS = _wording("anyone anybody someone somebody")
"""The words of a person not named: a fact keyworded "anyone else" speaks of people."""
_POSSESSED = re.compile(r"\b(?:your|his|her|their|my|ur)\s+(\w+)")
"""A person named as someone's ("your wife", "his mum"): whom the question asks of, not a word of what it asks."""
HOUSEHOLD_CONCEPTS = frozenset({"@home"})
"""The home and who lives there: a fact about it says the people of the household."""
_HOW_THINGS_ARE_WITH = re.compile(
    r"\bhow(?:'s|s| is| are)? (?:things|everything|it going|you getting on|are you getting on|do you get on)\b"
    r".*\bwith\b"
    r"|\b(?:relationship|relationships|getting on) with\b",
    re.IGNORECASE,
)
"""A question of how things are with people ("how are things with your wife?", "how do you get on with your mum?"):
grammar."""



DENIED_LIST = 3
"""Sentences of a fact that starts with "No" for it to be a list of what is not there (:meth:`Matcher.denies_others`);
a single denial ("No blood.") answers its jargon keyword ("haemoptysis")."""


@dataclass
class Source:
    """Something the patient can say: a fact (with its id) or an intro sentence.

    ``profile`` maps each term (stem or ``@concept``) to how strongly it points here;
    ``phrases`` are the multi-word keywords, which count fully only when whole: the stems
    a question must hold, the terms they stand for ("day to day" is one ``@baseline``), and the concepts of a
    multi-word vocabulary phrase they say (a question saying that phrase in other words, "dark circles under
    her eyes" for "rings under eyes", says the keyword whole when the answer says it too: "chest tight" of a
    wheeze is no chest pain).
    """

    id: str | None
    text: str
    profile: dict[str, float]
    phrases: list[tuple[frozenset[str], frozenset[str], frozenset[str]]] = field(default_factory=list)
    delayed: bool = False
    named: frozenset[str] = frozenset()
    """Terms of its keywords and topic: what the fact is about, not just words it uses."""
    alone: frozenset[str] = frozenset()
    """The words of its one-word keywords: what it answers whatever qualifies them."""
    wordings: tuple[frozenset[str], ...] = ()
    """Each keyword's words as written, small words too ("in between"), to tell apart facts that
    match a question equally well."""
    terms: frozenset[str] = frozenset()
    """The terms of ``profile``: with ``phrase_stems``, what a question must share to be scored
    against the source further (most facts share nothing with most questions)."""
    phrase_stems: frozenset[str] = frozenset()
    """Every stem of ``phrases``."""
    topic: str = ""
    """What the fact is about, in its author's words."""
    headed: frozenset[str] = frozenset()
    """The terms of its topic alone: what the fact is about first of all."""
    told: frozenset[str] = frozenset()
    """The terms its answer says: what the doctor heard when it was said."""
    keyworded: frozenset[str] = frozenset()
    """The terms of its keywords: what its author says it answers."""
    relative: frozenset[str] = frozenset()
    """Terms its topic or keywords say only in a clause of when ("rash before the blisters": the blisters): they
    time what the fact is about, they are not it."""

    @classmethod
    def build(
        cls, id: str | None, text: str, fields: list[tuple[str, str]], delayed: bool = False, topic: str = ""
    ) -> Source:
        profile: dict[str, float] = {}
        phrases = []
        named: set[str] = set()
        relative: set[str] = set()
        for name, field_text in fields:
            if name == "as_asked":  # a keyword as a question reads it: counts only whole
                stems = frozenset(stem(w) for w in words(field_text))
                phrases.append((stems, stems | {t for u in units(field_text) for t in u.terms},
                                _phrase_concepts(units(field_text))))
                continue
            partial = name == "keywords" and len(words(field_text)) > 1
            if partial:
                stems = frozenset(stem(w) for w in words(field_text))
                phrases.append((stems, stems | {t for u in units(field_text) for t in u.terms},
                                _phrase_concepts(units(field_text))))
            terms = [(t, u.in_phrase, 1.0) for u in units(field_text) for t in u.terms]
            terms += [(f"@{b}", False, BROADER_FACTOR) for t, _, _ in terms for b in BROADER.get(t[1:], ())]
            if (name == "answer" or id is None) and _DURATION.search(field_text):  # a fact's or the intro's words
                terms.append(("@onset", False, 1.0))
            # "rash before the blisters": what the fact is about is the rash; the blisters only say when
            timed = _relative_only(field_text) if name != "answer" else frozenset()
            relative.update(timed)
            if name != "answer":
                named.update(t for t, _, _ in terms if t not in timed)
            for term, in_phrase, factor in terms:
                field_weight = FIELD_WEIGHTS["answer"] if term in timed else FIELD_WEIGHTS[name]
                weight = (PARTIAL_PHRASE if partial else field_weight) * factor
                if term.startswith("@"):
                    weight *= CONCEPT_FACTOR
                elif in_phrase:
                    weight *= PHRASE_WORD_FACTOR
                if profile.get(term, 0) < weight:
                    profile[term] = weight
        wordings = tuple(_wording(t) for name, t in fields if name == "keywords")
        alone = frozenset(t for name, t in fields if name == "keywords" for t in [stem(t)] if " " not in t)
        told, keyworded = (
            frozenset(t for name, field_text in fields if name in kinds for u in units(field_text) for t in u.terms)
            for kinds in (("answer",), ("keywords", "as_asked"))
        )
        headed = frozenset(t for u in units(topic) for t in u.terms) - _relative_only(topic)
        return cls(id, text, profile, phrases, delayed, frozenset(named), alone, wordings, frozenset(profile),
                   frozenset(w for stems, _, _ in phrases for w in stems), topic, headed, told, keyworded,
                   frozenset(relative - named))

    def worded(self, question: str) -> int:
        """How many words of the question its best keyword shares, small words included."""
        asked = _wording(question)
        return max((len(w & asked) for w in self.wordings), default=0)


def _phrase_concepts(said: list[Unit] | tuple[Unit, ...]) -> frozenset[str]:
    """The concepts of the vocabulary phrases of several words a text says ("dark circles under her eyes"), each
    held by two words or more of it: one thing said in other words ("rings under eyes"), not a single word."""
    held = Counter(t for u in said if u.in_phrase for t in u.terms if t.startswith("@"))
    return frozenset(t for t, n in held.items() if n >= 2)


@dataclass(frozen=True)
class _Reading:
    """A question as the record's words: its units, their resolved terms and weights."""

    units: tuple[Unit, ...]
    resolved: list[tuple[frozenset[str], float]]
    inside: list[frozenset[str]]
    qualified: set[str]
    weights: list[float]
    terms: frozenset[str]
    stems: frozenset[str]
    whole: frozenset[str] = frozenset()
    """The concepts of the multi-word vocabulary phrases it says ("dark circles under her eyes")."""


@dataclass
class Match:
    source: Source
    score: float
    per_unit: list[float]


class Matcher:
    """Finds the record's facts that answer one question."""

    def __init__(self, record: PatientRecord) -> None:
        self.informant = record.patient.informant
        """Who speaks for the patient ("self", a parent, a carer): "your son" asked of a mother is the patient."""
        self.facts = [
            Source.build(
                a.id, a.answer, [("keywords", k) for k in a.keywords] + [("as_asked", k) for k in _as_asked(a.keywords)]
                + [("topic", a.topic), ("answer", a.answer)],
                a.delayed, a.topic,
            )
            for a in record.additional_answers
        ]
        self.intro = [Source.build(None, s, [("topic", s)]) for s in sentences(record.intro)]
        self.conditions = [
            s for s in self.facts if says_phrase(s.topic, _LONG_TERM) and "@family" not in s.headed and _has_it(s.text)
        ]
        """The facts about a long-term illness the patient has (their topic names one, their answer says it without
        denying it): part of the past medical history."""
        keyworded = {k.lower() for a in record.additional_answers for k in a.keywords if k.istitle() and k.isalpha()}
        self.record_names = frozenset().union(*(intent.names_given(s.text) for s in self.facts)) | (
            frozenset().union(*(intent.names_leading(s.text) for s in self.facts)) & keyworded
        )
        """The names the record gives people ("Claire says I stop breathing", "my brother Ron"; "Ruby, she's 3." or
        "Karen says ..." when a keyword lists the name too)."""
        self._name_wording = frozenset().union(*(_wording(n) for n in self.record_names))
        """The record's names as the matcher reads a question's words."""
        self._of_others_unwell = {s.id for s in self.facts if _of_others_unwell(s.topic)}
        """The facts about others who are unwell, not of a place the patient goes to (see :func:`_of_others_unwell`)."""
        self._said_terms = {
            a.id: [u.terms for text in (*a.keywords, a.topic, a.answer) for u in units(text)]
            for a in record.additional_answers
        }
        """Each fact's terms, unit by unit (of its keywords, topic and answer): what one word of it says together."""
        self._aspects = {a.id: _aspects(a.topic, a.keywords) for a in record.additional_answers}
        self._halves = {
            a.id: _halves_of_the_day(" . ".join([a.topic, *a.keywords, a.answer])) for a in record.additional_answers
        }
        """Whether each fact tells of the daytime, and of the night."""
        """The when/how each fact is about (see :func:`_aspects`)."""
        documents = [s.profile for s in self.facts + self.intro]
        n = len(documents)
        df: dict[str, int] = {}
        for profile in documents:
            for term in profile:
                df[term] = df.get(term, 0) + 1
        self.idf = {t: max(0.3, math.log((n + 1) / (c + 0.5))) for t, c in df.items()}
        self.unknown_idf = math.log((n + 1) / 0.5)
        self._vocab = sorted(t for t in df if not t.startswith("@") and len(t) >= 5)
        self.complaint = frozenset(t for u in units(record.intro) for t in u.terms if t in SYMPTOM_CONCEPTS)
        """The symptoms the patient came with, as concepts."""
        self._fuzzy: dict[str, str | None] = {}
        self._resolved: dict[tuple[str, frozenset[str]], tuple[frozenset[str], float]] = {}
        self._readings: dict[str, _Reading] = {}
        self._scores: dict[str, list[Match]] = {}
        self._by_source: dict[str, dict[int, Match]] = {}
        """The matches of ``_scores`` by their fact (its id), for a question with content words."""
        self._ranked: dict[tuple[str, bool], list[Match]] = {}
        """(question, of the illness) -> :meth:`ranked`'s matches: asked again by the rules of one reply, and by
        every run of the case that asks the same words (the matcher is the record's alone, never the dialogue's)."""
        self._facts: dict[tuple[str, bool], list[Source]] = {}
        """The same for :meth:`facts_for`."""
        self._roots = frozenset(t[:KIN_ROOT] for t in df if not t.startswith("@") and len(t) >= KIN_ROOT)

    def _weight(self, terms: frozenset[str]) -> float:
        """How much a question word says: its rarity in the record; a word the record
        lacks weighs fully when it names a clinical concept, else it is likely generic. A word
        of when ("at night", "normally like") says no more than a generic word however rare."""
        known = max((self.idf.get(t, 0.0) for t in terms), default=0.0)
        if known:
            return min(known, GENERIC_WEIGHT) if terms & CIRCUMSTANCE_CONCEPTS else known
        return self.unknown_idf if any(t.startswith("@") and t not in MODIFIERS for t in terms) else GENERIC_WEIGHT

    def _resolve(self, unit: Unit) -> tuple[frozenset[str], float]:
        """The unit's terms as the record knows them, and the factor of a fuzzy match (worked out once per
        word and terms: every rule that reads a question resolves its units again)."""
        key = (unit.text, unit.terms)
        known = self._resolved.get(key)
        if known is None:
            if len(self._resolved) >= RESOLVED_KEPT:
                self._resolved.clear()
            known = self._resolved[key] = self._resolve_unit(unit)
        return known

    def _resolve_unit(self, unit: Unit) -> tuple[frozenset[str], float]:
        if any(t in self.idf for t in unit.terms):
            return unit.terms, 1.0
        for term in unit.terms if not english_word(unit.text) else ():  # "injection" is no "infection"
            if term.startswith("@") or len(term) < 5:
                continue
            if term not in self._fuzzy:
                hit = process.extractOne(term, self._vocab, scorer=fuzz.ratio, score_cutoff=FUZZY_CUTOFF)
                # two letters typed the wrong way round ("strat": start) are one slip, however short the word
                self._fuzzy[term] = hit[0] if hit else next((v for v in self._vocab if _swapped(term, v)), None)
            if fuzzy := self._fuzzy[term]:
                return frozenset({fuzzy}), 0.9
        if not any(t.startswith("@") for t in unit.terms) and (misspelt := misspelt_concepts(unit.text)):
            return misspelt, 0.9  # "medicaitons": the medicines, though no fact says the word
        return unit.terms, 1.0

    def _read(self, question: str) -> _Reading:
        """What a question asks, as this record's words: worked out once per question, as
        one reply scores it against several sets of facts."""
        if (reading := self._readings.get(question)) is not None:
            return reading
        question_units = units(question)
        resolved = [self._resolve(u) for u in question_units]
        # a word that a phrase of the question gives another meaning means the phrase ("pain" of
        # "anything for the pain"; not "live" of "live with")
        inside = [
            frozenset(t for t in terms if not t.startswith("@")) if _changed_by_phrase(u) else frozenset()
            for u, (terms, _) in zip(question_units, resolved, strict=True)
        ]
        weights = _medicine_use_weights(question_units, [self._weight(terms) for terms, _ in resolved])
        about = _about_clause(question)
        if 0 < about < len(weights) and any(not terms & (DESCRIPTORS | MODIFIERS) for terms, _ in resolved[:about]):
            # "have you seen anyone about the ankle?": whether someone was seen, about the ankle
            weights = [w * (ABOUT_FACTOR if i >= about else 1.0) for i, w in enumerate(weights)]
        reading = _Reading(
            question_units, resolved, inside, self._qualified(question) if resolved else set(), weights,
            frozenset(t for terms, _ in resolved for t in terms), _wording(question),
            _phrase_concepts(question_units),
        )
        if len(self._readings) >= READINGS_KEPT:
            self._readings.clear()
        self._readings[question] = reading
        return reading

    def subject_units(self, question: str) -> list[int]:
        """The indexes of the question's units that say what it is about (not how, when or whether
        before)."""
        reading = self._read(question)
        return [i for i, (terms, _) in enumerate(reading.resolved)
                if not terms & (DESCRIPTORS | MODIFIERS) and reading.weights[i] > 0]  # "tried" of the creams: none

    def aspect_untold(self, source: Source, question: str) -> bool:
        """Does the question ask of a when in the day or a what-makes-it-worse that the fact's answer does not say of
        what the question names ("do you take the omeprazole before breakfast?" of medicines whose answer times
        another drug, "every morning", and says the omeprazole with no time)? Said by the sentences that say a word of
        the question's subject (all of the answer when none does), by any word of the aspect's kind; the night
        (`patient_night_time`) by a fact of sleep too (its topic or a sentence of it)."""
        reading = self._read(question)
        asked = {t for terms, _ in reading.resolved for t in terms & _ASKED_ASPECTS}
        if not asked or any("@relieving" in terms for terms, _ in reading.resolved):
            return False  # "anything make it better or worse?" asks for the story of what changes it
        subject = {t for terms, _ in reading.resolved if not terms & _ASKED_ASPECTS for t in terms}
        told = [frozenset(t for u in units(s) for t in u.terms) for s in sentences(source.text)]
        of_it = [terms for terms in told if terms & subject] or told
        if asked == {"@time_of_day"} and _halves_of_the_day(question) == (False, True) and (
            "@sleep" in source.headed or any("@sleep" in terms for terms in of_it)
        ):
            return False  # "has she noticed you stop breathing at night?" of the fact of his sleep: sleep is the night
        return not any(terms & asked for terms in of_it)

    def duration_untold(self, source: Source, question: str) -> bool:
        """Does the question ask how long of what the fact names ("how long have you been a teacher?" of "primary
        school teacher", "how long have you had the dog?" of "one dog") when the fact's answer says no time of it
        (no word of when it began, no length of time, no number; the sentences that say a word of the question's
        subject and a next one that goes on of it by a pronoun, all of the answer when none does)? Said again, the
        fact would answer a length it does not tell."""
        if not _HOW_LONG.search(question):
            return False
        reading = self._read(question)
        subject = {t for terms, _ in reading.resolved if "@onset" not in terms for t in terms}
        said = sentences(source.text)
        told = [frozenset(t for u in units(s) for t in u.terms) for s in said]
        named = [i for i, terms in enumerate(told) if terms & subject]
        # a sentence that goes on by a pronoun ("It lasted twenty minutes") tells of the one that named the subject
        of_it = [said[i] for i in sorted({*named, *(i + 1 for i in named if i + 1 < len(said)
                                                    and _GOES_ON.match(said[i + 1]))})] or said
        return not any(_DURATION.search(s) or _LENGTH_SAID.search(s) or any("@onset" in u.terms for u in units(s))
                       for s in of_it)

    @staticmethod
    def detail_untold(source: Source, question: str) -> bool:
        """Does the question ask a detail of the fact (which side, which hospital, what year, which brand, who:
        `patient_side_asks` ...) that the fact's topic and answer clearly do not state (no word of
        `patient_side_tells` ..., nor a number or a name where those state it)? Said again, the fact would answer a
        detail it does not tell ("which side was her operation on?" of "an operation on one side")."""
        said = f"{source.topic}. {source.text}"
        for asks, tells, by_number, by_name in _DETAILS:
            if not says_phrase(question, asks):
                continue
            named = by_name and any(" ".join(words(n)) not in _WHEN_WORDS for n in _A_NAME.findall(source.text))
            return not (says_phrase(said, tells) or named or (by_number and bool(_A_NUMBER.search(said))))
        return False

    @staticmethod
    def kind_untold(source: Source, question: str) -> bool:
        """Does the question name one kind of a symptom (`patient_kind_named`: "any double vision?") whose first word
        the fact's topic, keywords and answer do not say (the vision fact "bumping into door frames")? The fact tells
        of the symptom, not of that kind of it."""
        said = _wording(f"{source.topic}. {source.text}").union(*source.wordings)  # stems, as keywords are kept
        return any(says_phrase(question, [" ".join(name)]) and _wording(name[0]) - said for name in _KINDS_NAMED)

    def own_words_told(self, sources: list[Source], alternative: str, others: list[str]) -> bool | None:
        """Do the facts' answers say the words only this alternative of a list asks ("under your foot" of "any heel
        pain or pain under your foot?", not the "pain" the others share)? None when it has no words of its own."""
        reading = self._read(alternative)
        shared = {t for other in others for terms, _ in self._read(other).resolved for t in terms}
        own = [i for i in self.subject_units(alternative) if not reading.resolved[i][0] & shared]
        if not own:
            return None
        return any(reading.resolved[i][0] & s.told for s in sources for i in own)

    def told_share(self, source: Source, question: str, *, keywords: bool = True, by_name: bool = False) -> float:
        """How much of what the question is about (its subject words, by weight) the fact says, in its
        answer or (with ``keywords``) its keywords; for a list ("breast or bottle?") the best of its
        alternatives. A fact the doctor has heard is worth saying again to a question about what it
        says, not to one that shares a word or two with it ("how far do you live from the hospital?"
        of "never been in hospital"). With ``by_name``, a word that names a kind of medicine ("steroids") is said
        only by that kind's names or members, not by any medicine (the regular ramipril). An alternative that
        names no part of the body is asked of the part the list ends in ("any pain or swelling in your testicles?":
        "any pain" there), so a fact must say it too."""
        listed = alternatives(question)
        last = self._read(listed[-1]) if listed else None
        place = [(terms, last.weights[i]) for i, (terms, _) in enumerate(last.resolved) if terms & BODY_PARTS
                 ] if last else []
        return max([self._told_share(source, question, keywords, by_name, []), *(
            self._told_share(source, asked, keywords, by_name, place) for asked in listed
        )])

    def _told_share(
        self, source: Source, question: str, keywords: bool, by_name: bool, place: list[tuple[frozenset[str], float]],
    ) -> float:
        reading = self._read(question)
        if any(terms & BODY_PARTS for terms, _ in reading.resolved):
            place = []  # the alternative says its own part
        # the time a question asks of ("is the fire on at the moment?") is asked too, though it says no subject
        subject = self.subject_units(question) + [
            i for i, (terms, _) in enumerate(reading.resolved) if terms & ASKED_TIME_FRAME
        ]
        total = sum(reading.weights[i] for i in subject)
        if not total:
            return 1.0
        says = source.told | source.keyworded if keywords else source.told
        said = sum(reading.weights[i] for i in subject if reading.resolved[i][0] & says and (
            not by_name or _names_its_kind(reading.units[i].text, reading.resolved[i][0], says)
        ))
        # the place says where, so a fact's keywords name it as well as its answer ("anywhere" of arms and legs)
        in_place = sum(weight for terms, weight in place if terms & (source.told | source.keyworded))
        return (said + in_place) / (total + sum(weight for _, weight in place))

    def score(self, question: str, sources: list[Source]) -> list[Match]:
        """How well each source answers the question, best first. A source's match is its own (no other source
        weighs in it): when every fact has been scored against the question, a few of them are those matches, in
        the order a scoring of them alone gives (best first, ties in the order given)."""
        if sources is not self.facts:
            by_source = self._by_source.get(question)
            if by_source is not None and all(id(s) in by_source for s in sources):
                chosen = [by_source[id(s)] for s in sources]
                chosen.sort(key=lambda m: -m.score)
                return chosen
            return self._score(question, sources)
        known = self._scores.get(question)  # every fact against one part: asked by several checks
        if known is None:
            if len(self._scores) >= READINGS_KEPT:
                self._scores.clear()
                self._by_source.clear()
            known = self._scores[question] = self._score(question, sources)
            if self._read(question).resolved:  # else only the facts that say a keyword whole are scored
                self._by_source[question] = {id(m.source): m for m in known}
        return list(known)

    def _score(self, question: str, sources: list[Source]) -> list[Match]:
        reading = self._read(question)
        question_units, resolved, inside = reading.units, reading.resolved, reading.inside
        if not resolved:  # no content word ("does he know you're here?"): a keyword said whole
            asked_whole = _wording(question)
            return [Match(source, 1.0, []) for source in sources
                    if any(len(w) >= 2 and w <= asked_whole for w in source.wordings)]
        qualified, weights, asked = reading.qualified, reading.weights, reading.stems
        total = sum(weights)
        heaviest = max(weights)
        matches = []
        nothing = [0.0] * len(resolved)  # shared by the facts that share nothing: never changed in place
        for source in sources:
            phrases = [] if asked.isdisjoint(source.phrase_stems) and not reading.whole else [
                stands_for for phrase, stands_for, said in source.phrases if phrase <= asked
                or said & reading.whole & source.told  # its answer says it too: the same thing in other words
            ]
            if not phrases and reading.terms.isdisjoint(source.terms):  # shares nothing
                matches.append(Match(source, 0.0, nothing))
                continue
            profile = source.profile
            per_unit = []
            for (terms, factor), stems in zip(resolved, inside, strict=True):
                best = 0.0  # the best of the unit's terms; a word inside a phrase counts partly
                for t in terms:
                    weight = profile.get(t, 0.0)
                    if weight and t in stems:
                        weight *= PARTIAL_PHRASE
                    if weight > best:
                        best = weight
                per_unit.append(factor * best)
            if sum(p > 0 for p in per_unit) == 1:  # the fact shares nothing else with the question
                per_unit = [
                    _qualified_match(source, terms, f, p)
                    if u.text in qualified and not terms & (source.alone | DESCRIPTORS) else p
                    for p, u, (terms, f) in zip(per_unit, question_units, resolved, strict=True)
                ]
            for stands_for in phrases:
                per_unit = [
                    max(p, f) if terms & stands_for else p
                    for p, (terms, f) in zip(per_unit, resolved, strict=False)
                ]
            coverage = sum(map(operator.mul, weights, per_unit)) / total
            # the best single word, as far as it is the main word of the question
            peak = max(map(operator.mul, per_unit, weights)) / heaviest
            matches.append(Match(source, BLEND * coverage + (1 - BLEND) * peak, per_unit))
        matches.sort(key=lambda m: -m.score)
        return matches

    def _qualified(self, question: str) -> set[str]:
        """The question's words that a word the record does not know qualifies ("test" of "smear
        test"): they name something else than the record's "pregnancy test", unless a fact has
        them as a keyword of their own."""
        tokens = words(question)
        found = set()
        for before, word in zip(tokens, tokens[1:], strict=False):
            alone = units(before)
            if len(alone) == 1 and alone[0].text == before and not any(
                t.startswith("@") or t in self.idf for t in self._resolve(alone[0])[0]
            ) and not self._kin(before):
                found.add(word)
        return found

    def _kin(self, word: str) -> bool:
        """Does the record have a word of the same root ("urine" for "urinary")?"""
        return len(word) > KIN_ROOT and word[:KIN_ROOT] in self._roots

    def ranked(self, question: str, *, of_the_illness: bool = False) -> list[Match]:
        """The facts that could answer a question, best first, once the question's form has ruled
        out those it cannot be about (see :meth:`facts_for`). ``of_the_illness``: the question points at
        the symptom the patient came with as the illness itself, read as "it" ("ever had a rash like this
        before?"); asked only whether it happened before, a fact of another illness before this one (a cold
        ten days ago) is no answer: one about the complaint is, or one whose story tells of before. Worked out
        once per question (the record's facts and the question's words decide it all)."""
        key = (question, of_the_illness)
        known = self._ranked.get(key)
        if known is None:
            if len(self._ranked) >= READINGS_KEPT:
                self._ranked.clear()
            known = self._ranked[key] = self._rank(question, of_the_illness)
        return list(known)

    def _rank(self, question: str, of_the_illness: bool) -> list[Match]:
        matches = self._closest_wording(question, self._describing(question, self._either(question)))
        matches = self._earlier_episode_first(question, matches)
        if of_the_illness and self._only_whether_before(question):
            matches = [m for m in matches if self._of_the_complaint(m.source) or m.source.told & PAST_EPISODE]
        # a fact that shares only a word of when ("normally like") with a question about something
        # ("what's your breathing normally like?") is no candidate
        subject = [i for i, u in enumerate(units(question)) if not self._resolve(u)[0] & MODIFIERS]
        if subject:
            matches = [m for m in matches if any(m.per_unit[i] > 0 for i in subject)]
            matches = self._not_by_the_witness(question, subject, matches)
            matches = self._of_the_head_word(question, matches)
            matches = self._of_the_function_not_the_part(question, matches)
            matches = self._of_what_is_asked_when(question, matches)
            matches = self._saying_the_generic_symptom(question, subject, matches)
            matches = self._naming_the_medicine(question, subject, matches)
            matches = self._topic_first(question, matches)
            matches = self._the_thing_before_the_history(question, matches)
            matches = self._named_before_timed(question, matches)
            matches = self._not_the_household_by_people(question, matches)
            matches = self._of_the_other_person(question, subject, matches)
            matches = _quoting_its_words(question, matches)
            if self._of_going_there(question, subject):
                matches = [m for m in matches if m.source.id not in self._of_others_unwell]
            elif self._of_the_place_itself(question, subject):  # a fact whose topic names the place still answers
                asked = {t for i in subject for t in units(question)[i].terms if t.startswith("@")} - {"@contact"}
                matches = [m for m in matches if m.source.id not in self._of_others_unwell
                           or asked & {t for u in units(m.source.topic) for t in u.terms}]
            matches = self._not_by_the_setting(question, subject, matches)
        taking = {m.group(1).lower() for m in _TAKES_OBJECT.finditer(question)}
        heads = [i for i, u in enumerate(units(question)) if u.terms & HEAD_CONCEPTS and u.text in taking]
        if heads and any(m.per_unit[i] > 0 for m in matches for i in heads):
            matches = [m for m in matches if any(m.per_unit[i] > 0 for i in heads)]
        if intent.asks_who(question) and any("@home" in u.terms for u in units(question)) or (
            self._only_people_at_home(question, subject)
        ):
            matches = [m for m in matches if _says_who(m.source)]  # "who's at home?": not the medicines from home
        if _AT_HOME.search(question) and not intent.asks_who(question) and not _OF_PEOPLE.search(question):
            # "temps at home?": where the temperature was taken, not who lives there (the household fact)
            place = {i for i, u in enumerate(units(question)) if "@home" in u.terms}
            other = [i for i in subject if i not in place]
            if place and other:
                matches = [m for m in matches if any(m.per_unit[i] > 0 for i in other) or not _says_who(m.source)
                           or _AT_HOME_WORDING in m.source.wordings]  # a fact of what was done "at home"
        if _AT_HOME.search(question) and not intent.asks_who(question) and _OF_PEOPLE.search(question):
            matches = self._of_the_people_there(question, subject, matches)
        if says_phrase(question, _FOOD_AND_DRINK):  # "when did you last eat or drink?": food and fluids, not alcohol
            matches = [m for m in matches if not m.source.named & ALCOHOL or m.source.named & FOOD]
        if intent.asks_what_a_relative_had(question):  # "has his sister had anything similar?": not who lives there
            said = units(question)
            illness = [i for i in subject if "@family" not in said[i].terms]
            named = {t for i in subject if "@family" in said[i].terms for t in said[i].terms if not t.startswith("@")}
            matches = [m for m in matches if any(m.per_unit[i] > 0 for i in illness)
                       or ("@family" in m.source.headed and named & m.source.told)]  # a history that tells of them
        if self.informant == "self" and says_phrase(question, _SPEAKERS_OWN) and not intent.asks_family_history(
            question
        ):  # "have you had kidney stones yourself?": never the family history that says none of them have
            matches = [m for m in matches if not m.source.headed <= _FAMILY_HISTORY]
        if says_phrase(question, _ONES_OWN) and not intent.asks_family_history(question) and (
            intent.other_person_asked(question, self.informant) is None
        ):  # "any worries about his own hearing?": his, not the family's deafness
            matches = [m for m in matches if "@family" not in m.source.headed]
        if intent.asks_family_history(question):  # of the relatives: never the patient's own symptoms
            matches = [m for m in matches if m.source.profile.get("@family", 0.0) > 0]
            # a fact about the family history answers it before one that mentions a relative
            matches = [m for m in matches if "@family" in m.source.headed] or matches
        return matches

    def _not_by_the_witness(self, question: str, subject: list[int], matches: list[Match]) -> list[Match]:
        """A person the question names only as the one who notices or says ("has Dave noticed anything else different
        about her?", "has your wife said anything?"; :func:`intent.witness_asked`, or a name of the record that
        :func:`intent.named_person_asked` reads as a witness) says who saw it, not what is asked: a fact that shares
        only that person's word (her husband Dave in the story of how she was before) is no answer."""
        if not matches:
            return matches
        witness = intent.witness_asked(question)
        names = self.record_names & {w.lower() for w in words(question)}
        if not witness and not (names and intent.named_person_asked(question, self.record_names) is None):
            return matches
        who = (_wording(witness) if witness else frozenset()) | frozenset().union(*(_wording(n) for n in names))
        said = units(question)
        rest = [i for i in subject if not _wording(said[i].text) <= who]
        if len(rest) == len(subject):
            return matches
        return [m for m in matches if any(m.per_unit[i] > 0 for i in rest)]

    def _of_the_head_word(self, question: str, matches: list[Match]) -> list[Match]:
        """A question that names a thing beside a word of what is done with it or of a kind of thing ("have you had
        your cholesterol checked?", "any dental work or procedures?"; `patient_low_content_words`) asks of the thing:
        a fact that shares only the low-content word (the prostate "checked", the operation of "procedures") is no
        answer; with none that says the thing, the default answers. A word that a word the record does not know
        qualifies is not the thing ("work" of "dental work"); with only low-content words ("any recent procedures?")
        the rule is silent."""
        said = units(question)
        subject = self.subject_units(question)
        low = [i for i in subject if set(words(said[i].text)) <= _LOW_CONTENT]
        qualified = self._read(question).qualified  # "dental work": work of a kind the record does not know
        heads = [i for i in subject if i not in low and not (
            said[i].text in qualified and i - 1 in subject and i - 1 not in low  # "dental work": dental is the head
        )]
        if not low or not heads:
            return matches  # "any procedures?": the procedures are what is asked of
        return [m for m in matches if any(m.per_unit[i] > 0 for i in heads)]

    def _of_the_function_not_the_part(self, question: str, matches: list[Match]) -> list[Match]:
        """A question of what a part of the body does ("any problems with her eyesight?": a concept that speaks for a
        part, vocabulary `is`) without naming the part is not answered by a fact that says the concept only by the
        part's own word ("her eyes aren't yellow"): the part there is where something else is, not its working. A
        fact that says the working in a word of its own ("blurred", "vision"), or matches another word asked, stays."""
        said = units(question)
        subject = self.subject_units(question)
        functions = {
            i: parts for i in subject
            if (parts := {f"@{b}" for t in said[i].terms if t.startswith("@") for b in BROADER.get(t[1:], ())
                          if CLINICAL.kinds.get(b) == "body_part"} - said[i].terms)
        }
        if not functions:
            return matches

        def by_the_part_alone(m: Match, i: int) -> bool:
            concepts = {t for t in said[i].terms if t.startswith("@")}
            told = self._said_terms.get(m.source.id) if m.source.id else [u.terms for u in units(m.source.text)]
            return not any(terms & concepts and not terms & functions[i] for terms in told or [])

        return [m for m in matches if any(  # "what time did the sight go?": the onset, by "what time"
            p > 0 and not (i in functions and by_the_part_alone(m, i)) for i, p in enumerate(m.per_unit)
        )]

    def _of_what_is_asked_when(self, question: str, matches: list[Match]) -> list[Match]:
        """"Any burning when you pass urine?", "does it click when you move it?": what is asked of is said before the
        clause of when; the clause says only when. A fact that says a word of the clause and none of what is asked of
        (passing urine, moving) is no answer: with none that says it, the default answers. Only when what is asked
        of is a thing (not how it is: "is it worse when you walk?" is of the fact that says when it is worse)."""
        head = self.asked_before_when(question)
        if not head or not matches:
            return matches
        return [m for m in matches if any(m.per_unit[i] > 0 for i in head)]

    def asked_before_when(self, question: str) -> list[int]:
        """The indexes of the units that say what a question asks of before its clause of when ("burning" of "any
        burning when you pass urine?"); none when it has no such clause, asks how or what ("how old were you when
        your periods started?": of the clause), or asks only how it is ("is it worse when you walk?")."""
        clause = _WHEN_CLAUSE.search(question)
        if clause is None or _ASKS_WH.match(question) or _AN_EXAMPLE_BEFORE.search(question[: clause.start() + 1]):
            return []
        said = units(question)
        before = units(question[: clause.start()])
        if len(before) >= len(said) or [u.text for u in before] != [u.text for u in said[: len(before)]]:
            return []  # a phrase across the clause: read as one
        weights = self._read(question).weights
        return [i for i, u in enumerate(before) if weights[i] > 0 and not (u.terms & MODIFIERS) and (
            not u.terms & DESCRIPTORS or u.terms & _THING_DESCRIPTORS)]

    def _named_before_timed(self, question: str, matches: list[Match]) -> list[Match]:
        """A fact that says a word of what the question is about only in a clause of when ("rash before the
        blisters") goes after one that is about it ("when did the blisters first start?": the blisters, not the
        rash that came before them), when that one answers too."""
        if not matches:
            return matches
        timed = self.timed_units(question, matches[0])
        if not timed:
            return matches
        resolved = self._read(question).resolved
        naming = next((m for m in matches[1:] if m.score >= MATCH_THRESHOLD
                       and all(_written(resolved[i][0]) & m.source.named for i in timed)), None)
        return matches if naming is None else [naming, *(m for m in matches if m is not naming)]

    def _not_the_household_by_people(self, question: str, matches: list[Match]) -> list[Match]:
        """A question that names people ("kids", "wife", "dad") but does not ask of the home or who lives there is
        decided by its other words: the fact of the home (its keywords or topic say home), matched only by the
        people, is not its answer ("any plans for more kids?": the contraception, not who lives at home). A
        question only of how things are with them ("how are things with your wife and the kids?") is of the fact
        that tells of them, not of who lives there, when one names them all."""
        said = units(question)
        if (intent.asks_who(question) or intent.asks_family_history(question)
                or any(u.terms & HOUSEHOLD_CONCEPTS for u in said)):
            return matches
        subject = [i for i in self.subject_units(question) if not said[i].terms & DESCRIPTORS]
        people = [i for i in subject if _wording(said[i].text) <= _PEOPLE_WORDS]
        if not people:
            return matches
        known = [i for i in subject if i not in people
                 and any(t in self.idf or t.startswith("@") for t in self._read(question).resolved[i][0])]

        def of_the_home_by_people(m: Match) -> bool:
            return bool(m.source.named & HOUSEHOLD_CONCEPTS) and not any(m.per_unit[i] > 0 for i in known)

        owned = {stem(lemma(w)) for w in _POSSESSED.findall(question.lower())}
        witness = intent.witness_asked(question)  # "has your daughter noticed anything?" asks of the patient
        if witness:
            owned -= _wording(witness)
        if (known or witness) and not any(_wording(said[i].text) & owned for i in people):
            return [m for m in matches if not of_the_home_by_people(m)]  # "does your wife work?" asks of her
        rest = [m for m in matches if not of_the_home_by_people(m)]
        if _HOW_THINGS_ARE_WITH.search(question) and rest and rest[0].score >= MATCH_THRESHOLD and all(
            rest[0].per_unit[i] > 0 for i in people
        ):
            return rest
        return matches

    @staticmethod
    def _only_people_at_home(question: str, subject: list[int]) -> bool:
        """Does the question ask only whether people are at home ("any kids at home?", "pets or children at
        home?" without the pets): people and home, nothing else, so only a fact that says who lives there answers,
        never the fact of the house itself?"""
        said = units(question)
        rest = [i for i in subject if "@home" not in said[i].terms]
        if not _AT_HOME.search(question):
            # "does she live with you?", "do you live alone?": whom the home is shared with, not a thing done at home
            return (len(rest) < len(subject) and says_phrase(question, _HOUSEHOLD)
                    and all(_wording(said[i].text) <= _PEOPLE_WORDS for i in rest))
        return bool(rest) and all(_wording(said[i].text) <= _PEOPLE_WORDS for i in rest)

    def _of_the_other_person(self, question: str, subject: list[int], matches: list[Match]) -> list[Match]:
        """A question whose subject is another person ("does your wife drink?", "has your husband ever had a tick bite
        himself?", "was anyone with you on the walk?"; :func:`intent.other_person_asked`) is answered only by a fact
        that speaks of that person (anyone: of people) and says something else the question asks; never by the
        patient's own fact on the same topic: with none, the default answers."""
        person = self.person_asked(question)
        if person is None:
            return matches
        said = units(question)
        # a name the record gives ("your brother Ron") says who, as "brother" does: never what is asked of him
        people = {i for i in subject
                  if _wording(said[i].text) <= _PEOPLE_WORDS | _ANYONE_WORDS | _wording(person) | self._name_wording}
        which = _WHICH_PERSON.search(question)  # "your cousin with psoriasis": who, not what is asked of them
        rest = [i for i in subject if i not in people
                and not (which and _wording(said[i].text) <= _wording(which.group("which")))]
        who = _PEOPLE_WORDS | _ANYONE_WORDS if person == "anyone" else _wording(person)
        how = _HOW_WHAT.match(question)
        asked = [i for i in rest if how and said[i].text == how.group(1).lower()]

        # what the question says of them besides their kind (a name too): "My husband has noticed" does not speak of him
        asks = frozenset().union(*(_wording(said[i].text) for i in subject if i in rest or (
            i in people and not _wording(said[i].text) <= _PEOPLE_WORDS | _ANYONE_WORDS | _wording(person))))

        def speaks_of_them(source: Source) -> bool:
            if not asks and all(  # "My husband has noticed": of the patient, the husband only witnesses it
                intent.only_witnessing(s, person) for s in sentences(source.text) if _wording(s) & who
            ) and any(_wording(s) & who for s in sentences(source.text)):
                return False
            if person in self.record_names and asks and all(  # "Claire says I snore": of the patient, not Claire
                intent.only_witnessing(s, person) for s in sentences(source.text) if _wording(s) & asks
            ) and any(_wording(s) & asks for s in sentences(source.text)):
                return False
            return bool((_wording(f"{source.topic} {source.text}") | frozenset().union(*source.wordings)) & who)

        def says(m: Match, i: int) -> bool:  # "genetic tests" of the uncle: not the family history by "genetic" alone
            if i in asked and said[i].text == "old" and SAYS_AN_AGE.search(m.source.text):
                return True  # "how old is Ruby?": "Ruby, she's 3."
            return m.per_unit[i] > 0 and not (said[i].terms & m.source.profile.keys() <= {"@family"}
                                              and "@family" in said[i].terms)

        def names_a_medicine(source: Source) -> bool:  # "what does she take?": not "takes tablets for it"
            return any(_kind_of_medicine(w) for w in words(source.text))

        which_medicine = intent.asks_which_medicine(question)
        return [m for m in matches if speaks_of_them(m.source) and (not rest or any(says(m, i) for i in rest))
                and all(says(m, i) for i in asked) and (not which_medicine or names_a_medicine(m.source))]

    def person_asked(self, question: str) -> str | None:
        """The other person a question asks of (:func:`intent.other_person_asked`), or one the record names by a
        name ("does Claire snore as well?"; :func:`intent.named_person_asked`)."""
        return (intent.other_person_asked(question, self.informant)
                or intent.named_person_asked(question, self.record_names))

    def timed_units(self, question: str, match: Match) -> list[int]:
        """The question's subject words the fact says, as written, only in a clause of when of its topic or
        keywords ("the blisters" of "rash before the blisters"), unless the question puts them in such a clause too
        ("any rash before the blisters came up?")."""
        reading = self._read(question)
        if len(reading.resolved) != len(match.per_unit):
            return []
        own = _relative_only(question)
        return [i for i in self.subject_units(question) if match.per_unit[i] > 0
                and (said := _written(reading.resolved[i][0])) & match.source.relative
                and not said & match.source.named and not reading.resolved[i][0] & own]

    @staticmethod
    def _timed_as_the_first(question: str, first: Match) -> bool:
        """Does the question time what it asks with the very clause of when the first fact's topic or keywords
        time it ("any fits after the injury?" of "seizures or shaking after the injury")? Then it asks of that fact
        alone, and a fact that shares a word of the clause (an earlier head injury) does not join it."""
        return bool(_relative_only(question) & first.source.relative)

    @staticmethod
    def _of_going_there(question: str, subject: list[int]) -> bool:
        """Does the question ask only of going to a place ("how many days a week is he at nursery?", "does she go to a
        childminder?"): how often or whether, of no one there? Then the unwell contacts there do not answer it."""
        said = units(question)
        return (
            all(_wording(said[i].text) <= _PLACES_GONE_TO for i in subject)
            and (bool(_GOES_THERE.search(question)) or any("@frequency" in u.terms for u in said))
            and not _OF_PEOPLE.search(question)
        )

    @staticmethod
    def _places(question: str, subject: list[int]) -> tuple[list[int], set[int]]:
        """The question's subject units that are places (a place the patient goes to, home, abroad) and, of them,
        those said as the setting of something else (:data:`_SETTING_BEFORE`)."""
        said = units(question)
        places = [i for i in subject if _wording(said[i].text) <= _PLACES_GONE_TO
                  or "@travel" in said[i].terms]
        set_words = {stem(lemma(m.group(1).lower())) for m in _SETTING_BEFORE.finditer(question)}
        settings = {i for i in places if _wording(said[i].text) & set_words}
        return places, settings

    def _of_the_place_itself(self, question: str, subject: list[int]) -> bool:
        """Does the question ask of a place itself ("what do you do for work?", "how's school?"): every word of its
        subject a place the patient goes to, said as no setting and of no one there? Then the unwell contacts there
        ("nobody at work has been ill") do not answer it."""
        places, settings = self._places(question, subject)
        said = units(question)
        return (bool(subject) and len(places) == len(subject) and not settings
                and all(_wording(said[i].text) <= _PLACES_GONE_TO for i in places)
                and not _OF_PEOPLE.search(question))

    def _not_by_the_setting(self, question: str, subject: list[int], matches: list[Match]) -> list[Match]:
        """A place said as the setting of something else asked ("any tattoos or piercings done abroad?", "any
        headaches at work?") is where, not what, is asked: a fact matched only through the setting (the travel
        fact by "abroad") is no answer; the question's other words are its subject."""
        places, settings = self._places(question, subject)
        rest = [i for i in subject if i not in settings]
        if not settings or not rest:
            return matches
        return [m for m in matches if any(m.per_unit[i] > 0 for i in rest)]

    @staticmethod
    def _of_the_people_there(question: str, subject: list[int], matches: list[Match]) -> list[Match]:
        """"Anyone else at home been unwell?" asks what the people there have (unwell): home says where and "anyone
        else" whom, so a fact that says what is asked (the cold his sister had first) answers, not the household. Of
        alternatives ("any travel abroad, or anyone else at home poorly?"), only the words of the one that names
        home say what is asked of the people there: the other's are a question of their own."""
        said = units(question)
        asked = [i for i in subject if not said[i].terms & {"@home", "@contact"}]
        there = [part for part in alternatives(question) if _AT_HOME.search(part)]
        elsewhere: list[int] = []
        if len(there) == 1 and len(alternatives(question)) > 1:
            own = _wording(there[0])
            elsewhere = [i for i in asked if not _wording(said[i].text) <= own]
            asked = [i for i in asked if i not in elsewhere]
        saying = [m for m in matches if any(m.per_unit[i] > 0 for i in asked)] if asked else []
        if not saying or saying[0].score < MATCH_THRESHOLD:
            return matches
        return [m for m in matches if m in saying or any(m.per_unit[i] > 0 for i in elsewhere)]

    @staticmethod
    def _naming_the_medicine(question: str, subject: list[int], matches: list[Match]) -> list[Match]:
        """A medicine the question names ("when did you start the Eumovate?", "what's the EpiPen for?"; a drug or
        class of the vocabulary) is what it asks about: the facts that say it come before those that do not (when
        the illness started)."""
        said = units(question)
        drugs = [i for i in subject if _kind_of_medicine(said[i].text)]
        if not drugs:
            return matches
        naming = [m for m in matches if all(m.per_unit[i] > 0 for i in drugs)]
        return naming + [m for m in matches if m not in naming]

    @staticmethod
    def _saying_the_generic_symptom(question: str, subject: list[int], matches: list[Match]) -> list[Match]:
        """A generic symptom asked of a place ("any blood in your stools?") is asked there: when the best fact says
        only the place (the bowel habit) and another says every word asked (no blood in the poo), that one answers.
        A list ("any vaginal bleeding or discharge?") asks each of its alternatives, not all of them of one fact."""
        if alternatives(question):
            return matches
        said = units(question)
        generic = [i for i, u in enumerate(said) if u.terms & GENERIC_SYMPTOMS]
        place = [i for i in subject if i not in generic and said[i].terms & (SYMPTOMS | BODY_PARTS)]
        if not (generic and place and matches) or any(matches[0].per_unit[i] > 0 for i in generic):
            return matches
        whole = [m for m in matches if all(m.per_unit[i] > 0 for i in subject)]
        return whole or matches

    def facts_for(self, question: str, *, of_the_illness: bool = False) -> list[Source]:
        """The facts that answer a question, best first (a second fact must own a word; ``of_the_illness``:
        see :meth:`ranked`); worked out once per question, as :meth:`ranked` is."""
        key = (question, of_the_illness)
        known = self._facts.get(key)
        if known is None:
            if len(self._facts) >= READINGS_KEPT:
                self._facts.clear()
            known = self._facts[key] = self._facts_for(question, of_the_illness)
        return list(known)

    def _facts_for(self, question: str, of_the_illness: bool) -> list[Source]:
        matches = self.ranked(question, of_the_illness=of_the_illness)
        if (why := self._what_it_is_for(matches, question)) is not None:
            return why  # "what's the tamsulosin for?": not the list of tablets that names it
        if told := [m.source for m in matches if self.tells_what_happened(m, question)]:
            return told[:1]
        if matches and self._their_age(matches[0], question):
            return [matches[0].source]  # "how old is Ruby?": "Ruby, she's 3."
        family = matches and "@family" in matches[0].source.headed and intent.asks_family_history(question)
        if family and self.names(matches[0].source, question):  # "anyone in the family had anything similar?"
            return [m.source for m in self._of_the_family(matches, question)]
        if not matches or matches[0].score < MATCH_THRESHOLD and not self.names_its_medicine(matches[0], question) and (
            not self._said_of_every_part(matches[0], question)
        ):
            return []  # a drug misspelt is still the drug ("bisoprolil")
        if (
            not self.names(matches[0].source, question)
            and not self._denies_all(matches[0], question)
            and not self._said_of_every_part(matches[0], question)
            and not self.names_its_medicine(matches[0], question)
            and min(matches[0].score, self._subject_score(matches[0], question)) < ANSWER_ONLY_THRESHOLD
        ):
            return []
        if matches[0].score < EXACT_MATCH and self.elsewhere(matches[0], question):
            return []
        if (self._of_an_unnamed_part_alone(matches[0], question) and not self._said_of_every_part(matches[0], question)
                or self.only_where(matches[0], question)):
            return []
        if self._before_this(matches[0], question) or self._of_the_other_half_of_the_day(matches[0].source, question):
            return []
        if self.seen_untold(matches[0].source, question) or self.denies_others(matches[0], question):
            return []
        chosen = [matches[0]]
        one = _only_describes(question) or (
            _asks_when(question) and "@onset" in self._aspects.get(matches[0].source.id or "", frozenset())
        )
        for match in matches[1:] if not one else ():  # one "when" has one answer
            if match.score < MATCH_THRESHOLD or len(chosen) >= MAX_FACTS_PER_QUESTION:
                break
            if self._of_the_family_unasked(match, chosen[0], question):
                continue  # "any history of clots, stroke or heart attack?": not the father's stroke beside her own
            if (self._owns(match, chosen, question) or self._of_all_asked(match, question)) and not self.elsewhere(
                match, question
            ) and not self.timed_units(question, match) and not self._timed_as_the_first(question, matches[0]):
                chosen.append(match)  # not the eye pain beside the jaw pain asked for, nor the cold "before the wheeze"
            elif self._another_who_has_it(match, chosen[0], question):
                chosen.append(match)  # "is anyone else at home itchy?": the partner and the daughter
        return self._of_the_head(question, [m.source for m in chosen])

    def _of_the_family_unasked(self, match: Match, first: Match, question: str) -> bool:
        """Is a second fact one of the family's ("My father had a stroke at seventy") when the question asks of the
        patient's own history ("any history of clots, stroke or heart attack?"): no relative, no family, no other
        person named, and the best fact the patient's own? A word they share is no question of the family."""
        return ("@family" in match.source.headed and "@family" not in first.source.headed
                and not intent.asks_family_history(question) and self.person_asked(question) is None)

    def _of_the_family(self, matches: list[Match], question: str) -> list[Match]:
        """Asked of the family, the best fact and every other fact of the family that owns a word of the question
        (:meth:`_owns`): "any heart problems in the family?" is the uncle who died of a heart attack and the father
        whose heart muscle is thick, not the first of them only."""
        chosen = [matches[0]]
        for match in matches[1:]:
            if match.score < MATCH_THRESHOLD or len(chosen) >= MAX_FACTS_PER_QUESTION:
                break
            if "@family" in match.source.headed and self._owns(match, chosen, question):
                chosen.append(match)
        return chosen

    def _their_age(self, match: Match, question: str) -> bool:
        """Asked how old another person is ("how old is Ruby?", "how old's her brother?"), the fact left that speaks of
        them (:meth:`_of_the_other_person`) answers when it says an age (:data:`SAYS_AN_AGE`)."""
        how = _HOW_WHAT.match(question.replace("'s", " is"))
        return bool(how and how.group(1).lower() == "old" and self.person_asked(question)
                    and SAYS_AN_AGE.search(match.source.text))

    def _another_who_has_it(self, match: Match, first: Match, question: str) -> bool:
        """Asked whether anyone else has what is asked ("is anyone else at home itchy?", "anyone else in the house
        unwell?"; :func:`intent.other_person_asked` "anyone"), every fact of another person that says it answers, not
        the first one only: the facts left are those of people (:meth:`_of_the_other_person`), and this one must say
        each word asked beside the people and the place that the first says."""
        if self.person_asked(question) != "anyone":
            return False
        said = units(question)
        asked = [i for i in self.subject_units(question) if not said[i].terms & (HOUSEHOLD_CONCEPTS | {"@contact"})
                 and not _wording(said[i].text) <= _PEOPLE_WORDS | _ANYONE_WORDS]
        return bool(asked) and all(match.per_unit[i] > 0 or first.per_unit[i] <= 0 for i in asked)

    def of_the_whole_history(self, question: str, sources: list[Source]) -> list[Source]:
        """Asked the whole of their own medical history ("PMH?", "anything else you see the doctor for?"), the patient
        tells each long-term illness a fact of its own holds (the diabetes apart from the blood pressure) beside the
        history fact: leaving it out would deny it."""
        if not says_phrase(question, _WHOLE_HISTORY) or intent.asks_family_history(question):
            return sources
        more = [s for s in self.conditions if s not in sources and not _names_the_same(s, sources)]
        return (sources + more)[:MAX_FACTS_PER_QUESTION]

    @cached_property
    def _medicine_facts(self) -> list[Source]:
        """The facts whose topic is of medicines (its first word one of them), in order: the record's, found once
        per case, not per question (issue 41)."""
        return [s for s in self.facts if (head := units(s.topic)[:1]) and _of_medicines(head[0])]

    def of_the_whole_medicine_list(self, question: str, sources: list[Source]) -> list[Source]:
        """Asked what medicines they take, with no medicine or kind of its own ("what medications do you take?",
        "any meds?"), the patient is asked every medicine it holds back too (a delayed fact whose topic is medicines):
        the first ask of it, which the delayed patient deflects; not one of supplements, herbal remedies, gym products
        or recreational drugs alone (:func:`_of_other_products`), asked of apart. Only when the fact of the medicines
        (its topic is of them: "regular medicines", not "asthma and the inhalers") answers the question: "what dose?"
        after the inhaler is of that inhaler."""
        reading = self._read(question)
        subject = self.subject_units(question)
        concepts = [{t for t in reading.resolved[i][0] if t.startswith("@")} for i in subject]
        if not subject or any(c != {"@medication"} for c in concepts):
            return sources
        of_medicines = self._medicine_facts
        if not any(s in of_medicines and not s.delayed for s in sources):  # "what dose?" of the inhaler: not the list
            return sources
        more = [s for s in of_medicines if s.delayed and s not in sources and not _of_other_products(s.topic)]
        return (sources + more)[:MAX_FACTS_PER_QUESTION]

    def _of_all_asked(self, match: Match, question: str) -> bool:
        """Does the question ask for all of a kind ("what are all the tablets you take?") and the fact say every word
        of what it is about as a second fact would own one? The tablets bought at the chemist are asked for too."""
        subject = self.subject_units(question)
        if not subject or "@family" in match.source.headed:
            return False
        if asks_all_of(question):
            return all(match.per_unit[i] >= SECOND_FACT_WEIGHT for i in subject)
        # "what creams have you tried?": each fact that names the kind by its own word, not only as a medicine
        said = self._read(question).resolved
        return self._asks_kinds(question) and all(
            max((match.source.profile.get(t, 0.0) for t in said[i][0] if not t.startswith("@")), default=0.0)
            >= SECOND_FACT_WEIGHT for i in subject
        )

    def _asks_kinds(self, question: str) -> bool:
        """Does the question ask which ones of a kind were used, in the plural (:data:`_WHAT_KINDS`; "what creams have
        you tried?"), the kind a word of what it is about and the use a word that weighs nothing beside it
        (:func:`_medicine_use_weights`)? "What meds are you on?" and "which joints are bothering you?" are not: the
        regular medicines, the joints, not every fact that names them."""
        kinds = _WHAT_KINDS.match(question)
        if kinds is None or 0.0 not in (reading := self._read(question)).weights:
            return False
        kind = kinds.group(1).lower()
        subject = self.subject_units(question)
        return kind not in STOPWORDS and any(kind == reading.units[i].text.lower() for i in subject)

    def _of_the_head(self, question: str, chosen: list[Source]) -> list[Source]:
        """With examples ("any tests, thyroid for example?", "anything odd, like seeing things?") the
        facts that answer what the examples are of: one that only an example names is not asked for."""
        example = _EXAMPLES.search(question)
        head = question[: example.start()] if example else ""
        if not self._has_known_subject(head):  # "any conditions, like diabetes?": the examples say it
            return chosen
        kept = {
            id(m.source) for m in self.score(head, chosen)
            if m.score >= MATCH_THRESHOLD or max(m.per_unit, default=0.0) >= NAMED_STRENGTH
        }
        return [s for s in chosen if id(s) in kept]

    def _has_known_subject(self, question: str) -> bool:
        """Does the question name something the record knows, beyond when/how?"""
        return any(
            not (u.terms & (DESCRIPTORS | MODIFIERS)) and any(t in self.idf for t in self._resolve(u)[0])
            for u in units(question)
        )

    def _owns(self, match: Match, chosen: list[Match], question: str) -> bool:
        """Does a second fact own a word of the question: match it at keyword strength and better
        than the facts chosen? A word that says only when ("previous", "at night") is owned only by a
        fact that says something of the question's subject too, a word inside a phrase is owned
        through the phrase's concept ("illness" of "mental illness" is not any illness), and the
        circumstance of "any blood when you open your bowels?" asks nothing of its own."""
        resolved = [self._resolve(u) for u in units(question)]
        held = [
            min(p, factor * max((match.source.profile.get(t, 0.0) for t in terms if t.startswith("@")), default=0.0))
            if unit.in_phrase else p
            for unit, (terms, factor), p in zip(units(question), resolved, match.per_unit, strict=True)
        ]
        held = [  # a time of day is owned only by a fact that says that time: "last night" is no "first thing"
            0.0 if terms & TIME_OF_DAY and not any(match.source.profile.get(t, 0.0) > 0 for t in terms
                                                   if not t.startswith("@")) else p
            for (terms, _), p in zip(resolved, held, strict=True)
        ]
        subject = [i for i, (terms, _) in enumerate(resolved) if not terms & (MODIFIERS | DESCRIPTORS)]
        when_too = not subject or any(held[i] > 0 for i in subject)
        return any(
            p >= SECOND_FACT_WEIGHT and all(p > c.per_unit[i] + OWN_MARGIN for c in chosen)
            for i, p in enumerate(held[: _main_clause(question)])
            if when_too or not resolved[i][0] & (MODIFIERS | DESCRIPTORS)
        )

    def _closest_wording(self, question: str, matches: list[Match]) -> list[Match]:
        """Among facts that match equally well, the one whose keyword says it as the question does
        first: "in between" is the behaviour between attacks, not the attacks (keyword "between"); then the one
        whose topic says what is asked ("anything else over the counter?": the medicines, not the diabetes whose
        keyword "insulin" is a medicine too)."""
        if len(matches) < 2 or matches[1].score < matches[0].score - TIE:
            return matches
        tied = [m for m in matches if m.score >= matches[0].score - TIE]
        tied.sort(key=lambda m: (-m.source.worded(question), -self.heads(m.source, question)))
        return tied + matches[len(tied):]

    def _describing(self, question: str, matches: list[Match]) -> list[Match]:
        """A question only of when/how ("when did you first notice the change?") is answered
        by a fact that says when or how, never by one that merely shares a word ("the GP
        changed the dose"); it is about the illness, so a fact about when or how the presenting
        complaint came goes first (not the tablets started two weeks ago). A fact that is about
        that aspect of the complaint (its keywords or topic say so) is what the question asks,
        whatever words it is put in ("how has it changed since then?" of the yellow's spread,
        not of the stools that "have changed"), and so is a fact whose keyword of that aspect the
        question says whole ("where are you right now?" of the fact "where are you": not where it hurts)."""
        if not _only_describes(question):
            return matches
        wanted = {t for u in units(question) for t in u.terms & DESCRIPTORS}
        # each aspect asks for the same thing: the fact that says best when (or how) it came on
        described = [
            Match(m.source, max([m.score, *m.per_unit]), m.per_unit)
            for m in matches
            if any(m.source.profile.get(t, 0.0) > 0 for t in wanted)
        ]
        # a fact about that aspect of the complaint is the answer: none that only shares a word
        asked = self._read(question).stems
        about = [
            Match(m.source, max(m.score, MATCH_THRESHOLD), m.per_unit)
            for m in described
            if self._aspects.get(m.source.id or "", frozenset()) & wanted
            and (m.source.named & self.complaint or not self._own_subject(m.source)
                 or any(stems <= asked and stands_for & wanted for stems, stands_for, _ in m.source.phrases))
        ]
        if about:
            return sorted(about, key=lambda m: -m.score)
        return sorted(described, key=lambda m: (not (m.source.named & wanted and m.source.named & self.complaint),
                                                -m.score))

    def _earlier_episode_first(self, question: str, matches: list[Match]) -> list[Match]:
        """A question whether the symptom the patient came with happened before ("has the sight in that eye ever
        gone before?") is answered first by the fact of an earlier episode of it (about nothing but the complaint
        and when), before a history of other things of the same part (the eye operations and glasses)."""
        reading = self._read(question)
        aspects = {t for terms, _ in reading.resolved for t in terms & DESCRIPTORS}
        if aspects != {"@recurrence"}:  # whether before, nothing else ("how long does each episode last?")
            return matches
        subject = [terms for terms, _ in reading.resolved if not terms & (DESCRIPTORS | MODIFIERS)]
        if not subject or not all(terms & self.complaint for terms in subject):
            return matches
        episode = next((m for m in matches if m.score >= MATCH_THRESHOLD and "@recurrence" in m.source.named
                        and self._only_of_the_complaint(m.source)), None)
        return matches if episode is None else [episode, *(m for m in matches if m is not episode)]

    def _only_whether_before(self, question: str) -> bool:
        """Does the question ask only whether something happened before, naming nothing else ("has it happened
        before?", "ever had a rash like this before?" of a child brought with the rash, read as "it")?"""
        resolved = [terms for terms, _ in self._read(question).resolved]
        return bool(resolved) and all(terms & (DESCRIPTORS | MODIFIERS) for terms in resolved) and any(
            terms & PAST_EPISODE for terms in resolved
        )

    def _of_the_complaint(self, source: Source) -> bool:
        """Is the fact of the illness the patient came with: about nothing else, or naming its own symptom (the
        rash, not only a pain: a sore throat is another illness)?"""
        return (not self._own_subject(source) or self._only_of_the_complaint(source)
                or bool(source.named & (self.complaint - GENERIC_SYMPTOMS)))

    def _only_of_the_complaint(self, source: Source) -> bool:
        """Is the fact about nothing but the complaint, where it is and when (no other subject of its own)?"""
        own = {t for t in source.named if t.startswith("@")} - DESCRIPTORS - MODIFIERS - BODY_PARTS
        return own <= self.complaint

    @staticmethod
    def _own_subject(source: Source) -> bool:
        """Does the fact name something it is about besides when and how ("when it started and how"
        names nothing: it is of the complaint, whatever the complaint is called)?"""
        return any(t.startswith("@") and t not in DESCRIPTORS | MODIFIERS for t in source.named)

    def elsewhere(self, match: Match, question: str) -> bool:
        """Is the fact a pain (or swelling, bleeding) of another part of the body than the
        question's ("any chest pain?" is not answered by stomach cramps)?"""
        question_units = units(question)
        asked = {t for u in question_units for t in u.terms} & BODY_PARTS
        source = match.source
        own = {t for t in BODY_PARTS if source.profile.get(t, 0.0) >= FIELD_WEIGHTS["answer"] * CONCEPT_FACTOR}
        if not (asked and own) or asked & own or len(question_units) != len(match.per_unit):
            return False
        # the part asked, matched only by a word the fact says of another part ("the back of the calf" for "your
        # back": the fact names no back at all), is not shared: the pain is still elsewhere
        named = {t for t in asked if source.profile.get(t, 0.0) > 0}
        shared = [u for u, p in zip(question_units, match.per_unit, strict=False)
                  if p > 0 and (named or not u.terms & asked)]
        return all(u.terms & GENERIC_SYMPTOMS for u in shared)

    def _before_this(self, match: Match, question: str) -> bool:
        """Does the question ask of the time before this illness ("any D&V in the weeks before this
        started?") while the fact tells only of the illness now, its symptoms or when it started (it
        says nothing of before)?"""
        if not says_phrase(question, _BEFORE_THIS):
            return False
        now = bool(match.source.named & self.complaint) or not self._own_subject(match.source)
        return now and not match.source.profile.get("@recurrence", 0.0)

    @staticmethod
    def seen_untold(source: Source, question: str) -> bool:
        """Does the question ask whether someone looked at what it names ("has anyone looked at that knee?", "has the
        kitten been seen by a vet?"; `patient_seen_asks`) while the fact only names the thing (ibuprofen "for my knee",
        the kitten's bald ear) and says nothing of its being seen or by whom (`patient_seen_tells`)? Not told: the
        default."""
        return says_phrase(question, _SEEN_ASKS) and not says_phrase(f"{source.topic}. {source.text}", _SEEN_TELLS)

    def _of_the_other_half_of_the_day(self, source: Source, question: str) -> bool:
        """Does the question ask of the daytime only ("how long has he slept in the day?") while the fact
        tells of the night only ("the last couple of nights he slept OK"), or the other way round?"""
        asked = _halves_of_the_day(question)
        told = self._halves.get(source.id or "", (False, False))
        return sum(asked) == 1 and sum(told) == 1 and asked != told

    def _of_an_unnamed_part(self, match: Match, question: str) -> bool:
        """Does the question ask of a symptom in a part of the body the record never names ("any
        numbness in your legs?" of numb skin over the ribs)? Then no symptom of the record is the
        answer, however well its keywords match the symptom alone."""
        question_units = units(question)
        asked = {t for u in question_units for t in u.terms} & BODY_PARTS
        if not asked or any(t in self.idf for t in asked) or len(question_units) != len(match.per_unit):
            return False
        shared = [u for u, p in zip(question_units, match.per_unit, strict=True) if p > 0]
        return all(u.terms & SYMPTOMS and not u.terms & asked for u in shared)

    def _said_of_every_part(self, match: Match, question: str) -> bool:
        """Does the fact say the symptom a question asks of a part of the body, in the question's word, in a sentence
        that names no part at all ("No numbness or tingling." for "any tingling in your hands?")? Said of no part, it
        is said of every part: the answer, though the part asked weighs fully. Not when it says it of another part
        ("my legs are fine, no numbness": the legs), nor by a word of the same kind ("didn't hurt myself")."""
        question_units = units(question)
        if len(question_units) != len(match.per_unit):
            return False
        shared = [u for u, p in zip(question_units, match.per_unit, strict=True) if p > 0]
        unshared = [u for u, p in zip(question_units, match.per_unit, strict=True) if not p]
        if not shared or not unshared or not all(u.terms & SYMPTOMS for u in shared) or not all(
            u.terms & BODY_PARTS for u in unshared
        ):
            return False
        said = frozenset().union(*(_wording(u.text) for u in shared))  # in the question's own word, not a kin one
        return any(said & _wording(s) and not {t for u in units(s) for t in u.terms} & BODY_PARTS
                   for s in sentences(match.source.text))

    def _of_an_unnamed_part_alone(self, match: Match, question: str) -> bool:
        """Is the fact a symptom of a part the record never names (:meth:`_of_an_unnamed_part`), and no
        alternative of the list answers it without that part ("any SOB, cough or sore throat?": the breathing
        is asked whatever the throat)? A part the list ends in ("any weakness or numbness in your legs?") is where
        every alternative is asked."""
        return self._of_an_unnamed_part(match, question) and (bool(_PART_AT_THE_END.search(question)) or not any(
            m.score >= ALTERNATIVE_THRESHOLD and not self._of_an_unnamed_part(m, alternative)
            for alternative in alternatives(question) for m in self.score(alternative, [match.source])
        ))

    def only_where(self, match: Match, question: str) -> bool:
        """Does the fact share only a part of the body with a question that asks of something the record never
        says ("any bumps to the head?" of a headache)? The part says where; what is asked there is not the fact."""
        reading = self._read(question)
        if len(reading.units) != len(match.per_unit):
            return False
        shared = [u for u, p in zip(reading.units, match.per_unit, strict=True) if p > 0]
        unsaid = [
            terms for (terms, _), p in zip(reading.resolved, match.per_unit, strict=True)
            if not p and not terms & (DESCRIPTORS | MODIFIERS | BODY_PARTS)
        ]
        return bool(shared) and all(u.terms & PARTS_OF_THE_BODY for u in shared) and any(
            not any(t in self.idf or t.startswith("@") for t in terms) for terms in unsaid
        )

    def _topic_first(self, question: str, matches: list[Match]) -> list[Match]:
        """Of the two best facts, fitting as well, the one whose topic says all that is asked goes first ("any tummy
        pain?": the abdominal pain, not where the testicle's pain spreads, whose keywords list the tummy), unless the
        first says a keyword of several words whole, as the question puts it ("what made them stop?" of the keyword
        "what made it stop", not the topic "how episodes start and stop")."""
        if len(matches) < 2 or matches[0].score - matches[1].score > TIE:
            return matches
        if _keyword_said_whole(matches[0].source, question) and not _keyword_said_whole(matches[1].source, question):
            return matches
        if self.heads_the_attribute(matches[1].source, question) and not self.heads_the_attribute(
            matches[0].source, question
        ):
            return [matches[1], matches[0], *matches[2:]]  # "what do you eat?": the diet, not the appetite
        second = self.heads(matches[1].source, question)
        if second < len(self.subject_units(question)) or second <= self.heads(matches[0].source, question):
            return matches
        return [matches[1], matches[0], *matches[2:]]

    def _the_thing_before_the_history(self, question: str, matches: list[Match]) -> list[Match]:
        """A phrase that stands for the whole medical history and names one thing by its own word ("any thyroid
        problems?", "kidney problems"; `history.yaml` medical history) is of the fact whose topic and keywords say that
        thing (the thyroid history), before the past history that only lists it; with none, the history answers ("any
        other health problems?" is no "general health" of a topic)."""
        reading = self._read(question)
        own = {t for terms, _ in reading.resolved if terms >= _HISTORY_CONCEPT
               for t in terms if not t.startswith("@")}
        if not own or not matches or own & matches[0].source.headed:
            return matches
        first = next((m for m in matches if own & m.source.headed & m.source.keyworded  # "health" of a topic only
                      and not _HISTORY_CONCEPT & m.source.headed
                      and m.score > 0), None)
        return matches if first is None else [first, *(m for m in matches if m is not first)]

    @staticmethod
    def heads_the_attribute(source: Source, question: str) -> bool:
        """Is the fact's topic the circumstance a question of what asks ("what do you eat?": the diet)?"""
        return bool(intent.attribute_asked(question) & source.headed)

    def heads(self, source: Source, question: str) -> int:
        """How many of the question's subject words the fact's topic says (what it is about, not a keyword)."""
        reading = self._read(question)
        return sum(bool(reading.resolved[i][0] & source.headed) for i in self.subject_units(question))

    def names(self, source: Source, question: str) -> bool:
        """Does the question use a word of what the fact is about (its keywords or topic)? A
        word that only says when or how often ("previous" of "any previous surgery?") names
        nothing while the question has a subject of its own."""
        resolved = [terms for terms, _ in (self._resolve(u) for u in units(question))]
        subject = [terms for terms in resolved if not terms & MODIFIERS] or resolved
        # a one-word keyword said, even a small word ("does he think he's ill?" for "thinks")
        return any(t in source.named for terms in subject for t in terms) or bool(source.alone & _wording(question))

    def _denies_all(self, match: Match, question: str) -> bool:
        """Does a fact that says "no ..." name every subject word of the question ("no ulcers
        or bleeding problems" for "any bleeding problems?")? Then it is the answer, not a
        default that merely agrees with it."""
        resolved = [terms for terms, _ in (self._resolve(u) for u in units(question))]
        if not voice.is_negative(match.source.text) or len(resolved) != len(match.per_unit):
            return False
        subject = [p for terms, p in zip(resolved, match.per_unit, strict=True) if not terms & MODIFIERS]
        return bool(subject) and all(p > 0 for p in subject)

    def denies_others(self, match: Match, question: str) -> bool:
        """Is the fact a list of what the patient does not have ("No joint pains. No rashes. No dry mouth.") whose
        answer says nothing of what the question asks, only a keyword does ("any problems swallowing?" of a fact
        keyworded "swallowing")? What it denies is what it names: the rest is not on record (the default). Not when
        its topic says what is asked."""
        source = match.source
        if not voice.is_negative(source.text) or len(sentences(source.text)) < DENIED_LIST:
            return False  # not "No blood." of "any haemoptysis?"
        reading = self._read(question)
        if any(reading.resolved[i][0] & source.headed for i in self.subject_units(question)):
            return False  # its topic says what is asked ("PMH?" of the past medical history: "No other illnesses. ...")
        return self.told_share(source, question, keywords=False) == 0

    def names_its_medicine(self, match: Match, question: str) -> bool:
        """Does the question name medicines that only the answer of the medicines fact names
        ("are you on ramipril?", "how many mg of ramipril?")? A drug is what that fact is
        about, so its answer is the reply, never a default "No"."""
        if "@medication" not in match.source.named:
            return False
        resolved = [terms for terms, _ in (self._resolve(u) for u in units(question))]
        if len(resolved) != len(match.per_unit):
            return False
        # each word as written in the answer, not a concept it shares ("smoke" is no glasses prescription); how
        # often or how much ("how often are you getting the tramadol?") asks of the medicine
        subject = [terms for terms in resolved if not terms & (MODIFIERS | DESCRIPTORS)]
        return bool(subject) and all(
            any(t in match.source.profile for t in terms if not t.startswith("@")) for terms in subject
        )

    def tells_what_happened(self, match: Match, question: str) -> bool:
        """Does the question ask what happened with something only this fact's answer names ("what
        happened with the codeine?" of "codeine made me vomit"), or what it is for ("what's the EpiPen
        for?" of the history that has one)? That fact's story is the answer, however little else of the
        question its words cover: never a default."""
        if not (says_phrase(question, _WHAT_HAPPENED) or _WHAT_FOR.search(question)):
            return False
        resolved = [terms for terms, _ in (self._resolve(u) for u in units(question))]
        subject = [terms for terms in resolved if not terms & (MODIFIERS | DESCRIPTORS)]
        others = [s for s in self.facts + self.intro if s is not match.source]
        written = [frozenset(t for t in terms if not t.startswith("@")) for terms in subject]  # not "@medication"
        said = [
            bool(terms & match.source.told) and not any(terms & other.terms for other in others) for terms in written
        ]
        # a word the shorthand spelt out ("epipen": "adrenaline auto injector") is said with the word it stands for
        told = {t for terms, ok in zip(subject, said, strict=True) if ok for t in terms if t.startswith("@")}
        return bool(written) and all(ok or bool(terms & told) for terms, ok in zip(subject, said, strict=True))

    def _what_it_is_for(self, matches: list[Match], question: str) -> list[Source] | None:
        """What a medicine is taken for ("what's the tamsulosin for?", "what do you take the allopurinol for?"),
        when the fact that names it best is a list of medicines that does not say what for: the fact that names it
        and tells a treatment or a history, or says what it is for ("for my ..."); else the illnesses it may be for
        (the medical history); else the patient is not sure. The list that only names it is never the answer.
        None when the question asks no such thing, or the fact that names the medicine says what for."""
        if not _WHAT_FOR.search(question):
            return None
        asked = {t for u in units(question) for t in self._resolve(u)[0]} & _MEDICINES
        named = next((m.source for m in matches if asked and asked <= m.source.told), None)
        if named is None or SAYS_WHAT_FOR.search(named.text):
            return None
        if "@medication" not in named.headed or named.headed & (_OF_A_HISTORY - {"@medication"}):
            return None  # the history that has an EpiPen says what it is for
        others = [s for s in self.facts if s is not named]
        fors = [s for s in others if s.told & asked and not s.headed & _MEDICINES
                and (s.headed & _OF_A_HISTORY or SAYS_WHAT_FOR.search(s.text))]
        return fors[:1] or [s for s in others if "@medical_history" in s.headed][:1]

    def says_what_it_is_for(self, question: str, source: Source) -> bool:
        """Is the fact the answer to what a medicine is for, in place of the list that only names it?"""
        return self._what_it_is_for(self.ranked(question), question) == [source]

    def _subject_score(self, match: Match, question: str) -> float:
        """The match on the question's subject alone: "previous" of "any previous surgery?"
        does not make an earlier episode that needed no operation the answer."""
        resolved = [self._resolve(u) for u in units(question)]
        if len(resolved) != len(match.per_unit):
            return match.score
        pairs = [
            (self._weight(terms), p)
            for (terms, _), p in zip(resolved, match.per_unit, strict=True)
            if not terms & MODIFIERS
        ]
        if not pairs or len(pairs) == len(resolved):
            return match.score
        total = sum(w for w, _ in pairs)
        heaviest = max(w for w, _ in pairs)
        coverage = sum(w * p for w, p in pairs) / total
        return BLEND * coverage + (1 - BLEND) * max(p * w / heaviest for w, p in pairs)

    def _either(self, question: str) -> list[Match]:
        """Scores for "any nausea or vomiting?": a fact answers the question when it
        answers the whole or one of its alternatives."""
        best = {id(m.source): m for m in self.score(question, self.facts)}
        for alternative in alternatives(question):
            for match in self.score(alternative, self.facts):
                whole = best[id(match.source)]
                # the whole question's words decide a second fact
                if match.score > whole.score and match.score >= ALTERNATIVE_THRESHOLD:
                    best[id(match.source)] = Match(match.source, match.score, whole.per_unit)
        return sorted(best.values(), key=lambda m: -m.score)

    def intro_for(self, question: str) -> Source | None:
        # "any problems with her eyesight?": not "she can hardly keep her eyes open"
        matches = self._of_the_function_not_the_part(question, self.score(question, self.intro))
        return matches[0].source if matches and matches[0].score >= INTRO_THRESHOLD else None

    def elaborating(self, question: str, intro: Source) -> list[Source]:
        """The facts that tell more of the part of the intro the question asks about ("what happened
        in the bathroom?" of "... and I nearly passed out in the bathroom": the fainting), as long
        as they say the question's words too; none when the intro is all the record says of it."""
        reading = self._read(question)
        subject = [i for i, (terms, _) in enumerate(reading.resolved) if not terms & (DESCRIPTORS | MODIFIERS)]
        asked = {t for i in subject for t in reading.resolved[i][0]}
        clauses = [c for c in _CLAUSE.split(intro.text) if c and asked & {t for u in units(c) for t in u.terms}]
        told = [s for clause in clauses for s in self.facts_for(clause)]
        return [m.source for m in self.score(question, told) if all(m.per_unit[i] > 0 for i in subject)][:1]

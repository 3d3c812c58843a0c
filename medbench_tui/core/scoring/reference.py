"""A case's reference, prepared once for matching and cached per case.

The table holds every reference item (diagnoses, differential, workup, treatment) with
its name and aliases normalised, the treatment groups, the critical conditions
resolved to items or phrases, the items and phrases that name a general concept
(safety-netting, a timed follow-up review: ``concepts.py``), and the typo correction
of its vocabulary. Building it costs a few milliseconds; scoring a transcript then
only searches.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Literal, TypeVar, cast

from rapidfuzz.distance import OSA

from medbench_tui.core.batch_caches import batch_cache
from medbench_tui.core.cases.model import Case, CriticalCondition
from medbench_tui.core.scoring import actions, composite, concepts, cues, delay, home, periods
from medbench_tui.core.scoring.assertion import Record, asked, condition_of, result_wait
from medbench_tui.core.scoring.assertion import conditions as conditions_of
from medbench_tui.core.scoring.assertion import withholds as asserts_withholding
from medbench_tui.core.scoring.constants import (
    ACRONYM_MAX_LENGTH,
    EXACT_CASE_MAX_LENGTH,
    MATCH_SCORE_CONCEPT,
    MATCH_SCORE_EXACT,
    MATCH_SCORE_MOST_WORDS,
    MATCH_SCORE_TYPO,
    MATCH_SCORE_UNORDERED,
    MOST_WORDS_MIN,
    TYPO_MAX_EDITS,
    TYPO_MIN_LENGTH,
    UNORDERED_SLACK,
)
from medbench_tui.core.scoring.cues import word_list as cue_words
from medbench_tui.core.scoring.document import Document, Hit
from medbench_tui.core.scoring.groups import group_phrases
from medbench_tui.core.scoring.lines import BULLET_START_RE as BULLET_RE
from medbench_tui.core.text import ABBREVIATIONS, FILLER, Token, key_tokens, tokenize
from medbench_tui.core.vocabulary import Term, read_vocabulary
from medbench_tui.core.vocabulary.model import TermKind
from medbench_tui.core.vocabulary.reading import (
    ABOUT_DRUG,
    Window,
    regular_frequency,
    timing_of,
    without_own_condition,
    without_timing,
)

RefKind = Literal["primary", "secondary", "differential", "workup", "treatment"]
DIAGNOSIS_KINDS = ("primary", "secondary", "differential")
ACTION_KINDS = ("workup", "treatment")

CACHE_SIZE = 256
MEMO_SIZE = 4096
READINGS_KEPT = 1
"""Whole finals a table keeps the extractor's reading of: the last one (a reading is thousands of objects, and every
table's kept ones cost each full collection: keeping 4 made scoring_speed's second pass some 3% slower, keeping 1
serves a case's runs that give one final, as the benchmarks' doctors and a deterministic system's repeats do)."""
T = TypeVar("T")


def joined(acc: str, word: str) -> str:
    """``acc`` and the next word, run together as a phrase is matched ("x ray" = "xray"),
    except two numbers, which keep a space: "1:1000 0.5 mg" is no "1:10000"."""
    return f"{acc} {word}" if acc[-1:].isdigit() and word[:1].isdigit() else acc + word


def phrase_key(words: tuple[str, ...]) -> str:
    acc = ""
    for word in words:
        acc = joined(acc, word)
    return acc


@dataclass(frozen=True)
class Phrase:
    text: str  # as written in the case
    words: tuple[str, ...]  # normalised words (filler left out)
    caps_only: bool  # an acronym alias: matches text in capitals only
    exact_case: bool = False  # a short alias not in capitals ("Mg"): matches only as written

    @property
    def compact(self) -> str:
        return phrase_key(self.words)

    @cached_property
    def own_words(self) -> frozenset[str]:
        """The words as written, lower case: its own "and" or "or" links no list (made once per case)."""
        return frozenset(self.text.lower().split())


@dataclass(eq=False)
class Ref:
    """One reference item of the case."""

    kind: RefKind
    index: int
    name: str
    klass: str  # workup/treatment class; the kind for diagnoses
    phrases: list[Phrase]
    weight: float = 1.0
    penalty: float | None = None
    group: str | None = None
    icd10: str | None = None
    accept_codes: tuple[str, ...] = ()
    alternatives: list[Phrase] = field(default_factory=list)  # other actions that satisfy this item as fully
    reading: actions.ActionReading = field(default_factory=actions.ActionReading)  # the item as an action
    alias_readings: tuple[actions.ActionReading, ...] = ()
    """Aliases that name another action than the name does ("febuxostat now" of "Start allopurinol during
    the acute flare"), each read as an action: an answer meets the item by any of them in other words."""
    alternative_readings: tuple[actions.ActionReading, ...] = ()
    """The item's alternatives that are one drug, read as actions: the drug at another dose is the alternative."""
    replaced: actions.ActionReading | None = None
    """What a harmful item's action replaces, another route of its drugs ("Oral antibiotics instead of IV":
    antibiotics IV): an answer that gives that too does not do this item in other words (``match.py``)."""

    @property
    def readings(self) -> tuple[actions.ActionReading, ...]:
        return (self.reading, *self.alias_readings)

    @property
    def is_diagnosis(self) -> bool:
        return self.kind in DIAGNOSIS_KINDS

    @cached_property
    def word_sets(self) -> tuple[frozenset[str], ...]:
        """Each name's distinct words, made once per case (the doubt rules weigh them for every answer)."""
        return tuple(frozenset(p.words) for p in self.phrases)


@dataclass(eq=False)
class Group:
    """A treatment group: the name of a class of treatments (``group:`` of an item)."""

    name: str
    phrases: list[Phrase]
    refs: list[Ref]  # the treatment items of this group


@dataclass(frozen=True)
class Mention:
    """A reference item (or a treatment group) found in a document; ``via`` names
    the concept when the words are not the reference's own."""

    hit: Hit
    score: float
    phrase: Phrase
    ref: Ref | None = None
    group: Group | None = None
    via: str | None = None
    ordered: bool = True  # False: the phrase's words in another order (constants.MATCH_SCORE_UNORDERED)
    rule: str | None = None  # met as a clinical action in other words (actions.ACTION_RULES)

    @property
    def length(self) -> int:
        return self.hit.last - self.hit.first + 1 if self.ordered else len(self.phrase.words)


@dataclass(eq=False)
class ConditionRef:
    """A critical condition with each ``items`` entry resolved: a reference item (with
    all its aliases) when the entry names one, else the entry as a phrase."""

    condition: CriticalCondition
    refs: list[Ref]
    phrases: list[Phrase]
    applies_refs: list[Ref]
    applies_phrases: list[Phrase]


SPAN_NEGATIONS = cues.word_list("span_negations")
SPAN_LINKS = cues.word_list("span_links")
PLAN_VERBS = cues.ACTION_VERBS | cues.word_list("plan_verbs")
"""Verbs that open a second action after "and"/"or" ("step down to oral antibiotics and discharge home")."""
LIST_BREAK_RE = re.compile(r"[,;()\[\]]")
STRENGTH_RE = re.compile(r"\s*\d+(?:[.,]\d+)?\s*%\s*")
"""A strength in per cent, all a bracket holds ("glucose (5%)")."""
ACRONYM_RE = re.compile(rf"^[A-Z0-9]{{2,{ACRONYM_MAX_LENGTH}}}$")


HEAD_MIN_WORDS = 2


def own_condition_head(name: str) -> str:
    """What an item that states its own condition does, without the condition ("Renal replacement therapy"
    of "Renal replacement therapy if refractory hyperkalaemia"): an answer gives it under its own contingency
    ("if the potassium stays above 6.5 -> RRT"), rarely in the item's words. Empty for an item without one, or
    whose action is a single word ("Antibiotics if ..." names a class, not the item)."""
    cut = without_own_condition(name)
    if cut == name:
        return ""
    head = cut.split("(")[0].strip(" ,;:-")
    return head if len(key_tokens(tokenize(head))) >= HEAD_MIN_WORDS else ""


LEVEL_JOINS_RE = re.compile(r"\band\b|[/+&,]", re.IGNORECASE)
"""How a name joins the things it measures ("paracetamol and salicylate", "Na/K"): grammar, not clinical words."""


def levels_without_head(name: str) -> str:
    """The measured things of an item of several or repeated levels, without the level word ("Paracetamol and
    salicylate" of "Paracetamol and salicylate levels", "serial lithium" of "serial lithium levels"): an answer
    lists them and leaves the word implied ("pcm/salicylate at 4 h", "serial lithium and U&E 6-hourly"). Empty
    unless the name ends in a level word (``level_words``) after two joined things or more, or after a word of
    repetition (``level_repeat_words``), which no drug given has."""
    tokens = tokenize(name)
    if len(tokens) < 3 or tokens[-1].norm not in concepts.LEVEL_WORDS:
        return ""
    head = name[: tokens[-1].start].strip(" ,;:-")
    several = LEVEL_JOINS_RE.search(head) or concepts.LEVEL_REPEATS & {t.norm for t in tokens}
    return head if several and len(key_tokens(tokenize(head))) >= HEAD_MIN_WORDS else ""


MONITORING_WORDS = frozenset(t.norm for w in cue_words("monitoring_item_words") for t in tokenize(w))
BRACKET_RE = re.compile(r"\(([^()]*)\)")


def monitored_things(name: str) -> str:
    """What a monitoring item checks, listed in its bracket ("reflexes, respiratory rate, urine output" of "Magnesium
    toxicity monitoring (reflexes, respiratory rate, urine output)"): an answer writes the checks themselves ("hourly
    reflexes/RR/UO"). Empty unless the name before the bracket has a word of ``monitoring_item_words`` and the
    bracket lists two things or more."""
    found = BRACKET_RE.search(name)
    if found is None or not MONITORING_WORDS & {t.norm for t in tokenize(name[: found.start()])}:
        return ""
    listed = found.group(1)
    return listed if LEVEL_JOINS_RE.search(listed) and len(key_tokens(tokenize(listed))) >= HEAD_MIN_WORDS else ""


def _compounds(text: str) -> list[frozenset[str]]:
    """The normalised words of each hyphenated written word of a name ("post-operative": post, operative)."""
    out = []
    for written in text.split():
        if "-" in written.strip("-"):
            out.append(frozenset(t.norm for t in key_tokens(tokenize(written))))
    return out


def make_phrase(text: str) -> Phrase | None:
    words = tuple(t.norm for t in key_tokens(tokenize(text)))
    if not words:
        return None
    stripped = text.strip()
    caps_only = bool(
        ACRONYM_RE.match(stripped) and any(c.isalpha() for c in stripped) and stripped.lower() not in ABBREVIATIONS
    )
    exact_case = len(stripped) <= EXACT_CASE_MAX_LENGTH and not caps_only and stripped.lower() not in ABBREVIATIONS
    return Phrase(stripped, words, caps_only, exact_case)


_ORDER_RE = re.compile(r"\s+\b(after|before)\b\s+", re.IGNORECASE)
"""The two words of order whose converse says the same ("antibiotics after the LP" is "the LP before
antibiotics"): grammar, not clinical language."""


HARMFUL_CLASSES = ("contraindicated", "not_indicated")
EPISODE_HOURS = 72.0
"""The end of an emergency's episode, in hours from now: the vocabulary's "before discharge" (``timing.yaml``)."""
TODAY_HOURS = 16.0
"""The end of today, in hours from now: the vocabulary's "today" (``timing.yaml``)."""
REPEATED = cues.word_list("test_repeat_words")
"""Words of a test done again ("repeat calcium in one week"): its first result is already there."""


def _converses(texts: tuple[str, ...]) -> list[str]:
    """Each name of a harmful item said the other way round: "X after Y" as "Y before X" and "Y then X", "X
    before Y" as "Y after X" (one order word only: a longer chain has no one converse). A harmful item is met
    by its own words only, so its converse competes with no credited item's looser reading."""
    out: list[str] = []
    for text in texts:
        parts = _ORDER_RE.split(text)
        if len(parts) != 3 or not parts[0].strip() or not parts[2].strip():
            continue
        left, word, right = parts
        if word.lower() == "after":
            out += [f"{right} before {left}", f"{right} then {left}"]
        else:
            out.append(f"{right} after {left}")
    return out


NEGATOR_FORMS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\b(?:do not|dont|don't)\b", re.IGNORECASE), "never"),
    (re.compile(r"\bnot\b", re.IGNORECASE), "never"),
)
"""A name that forbids something said with the other negator ("do not leave her alone with the baby", "not to be
left alone" as "never leave her alone", "never to be left alone"): grammar, not clinical language."""


def _said_with_never(texts: tuple[str, ...]) -> list[str]:
    """Each name that holds a negator (:data:`NEGATOR_FORMS`) with "never" in its place."""
    out: list[str] = []
    for text in texts:
        for pattern, other in NEGATOR_FORMS:
            if pattern.search(text):
                out.append(pattern.sub(other, text, count=1))
                break
    return out


ONE_FORMS = ("a", "an", "one", "1")
"""How one unit of time is written ("review in a week", "in one week", "in 1 week", "within an hour"): grammar."""
UNIT_WORDS = frozenset(w for u in read_vocabulary().units for w in u.say)
ONE_UNIT_RE = re.compile(
    rf"\b({'|'.join(ONE_FORMS)})\s+({'|'.join(sorted(UNIT_WORDS, key=len, reverse=True))})\b", re.IGNORECASE)
"""One of :data:`ONE_FORMS` right before a unit of time of the vocabulary (``timing.yaml``)."""


def _counts_of_units(words: tuple[str, ...]) -> frozenset[str]:
    """The words of :data:`ONE_FORMS` that count a unit of time in a phrase ("one" of "in one week"): the action's
    time, as a number is, so no looser match leaves them out ("bloods in one month" is no "bloods in 3 months")."""
    return frozenset(w for w, after in zip(words[:-1], words[1:], strict=True)
                     if w in ONE_FORMS and after in UNIT_WORDS)


def _one_unit_said_otherwise(texts: tuple[str, ...]) -> list[str]:
    """Each name that holds one unit of time (:data:`ONE_UNIT_RE`) with each other form of "one" in its place."""
    out: list[str] = []
    for text in texts:
        found = ONE_UNIT_RE.search(text)
        if found is None:
            continue
        for form in ONE_FORMS:
            if form != found.group(1).lower() and form not in FILLER:  # "an" is filler: it would count nothing
                out.append(f"{text[: found.start(1)]}{form}{text[found.end(1) :]}")
    return out


POSITION_WORDS = frozenset({"above", "below"})
"""Words that place a thing against a level ("above heart level", "below the knee"): grammar."""
PLACE_WORDS = POSITION_WORDS | {"at", "level"}
"""Words of a name that place a thing ("arm at heart level", "level with the heart", "drain below the chest")."""


def _placed_otherwise(doc: Document, m: Mention) -> bool:
    """A name that places a thing (:data:`PLACE_WORDS`) met by words that place it otherwise ("elevate the arm above
    heart level" is no "arm at heart level"): a word of :data:`POSITION_WORDS` the name does not hold, among the
    words matched or right before them (filler between)."""
    own = m.phrase.own_words
    if not own & PLACE_WORDS:
        return False
    clause = doc.clause[m.hit.first]
    k = m.hit.first - 1
    while k >= 0 and doc.clause[k] == clause and doc.tokens[k].norm in FILLER:
        k -= 1
    first = k if k >= 0 and doc.clause[k] == clause else m.hit.first
    return any(doc.lows[j] in POSITION_WORDS and doc.lows[j] not in own for j in range(first, m.hit.last + 1))


def _phrases(*texts: str) -> list[Phrase]:
    seen: set[tuple[tuple[str, ...], bool]] = set()
    out: list[Phrase] = []
    for text in texts:
        phrase = make_phrase(text)
        if phrase is not None and (phrase.words, phrase.caps_only) not in seen:
            seen.add((phrase.words, phrase.caps_only))
            out.append(phrase)
    return out


@dataclass(eq=False)
class ReferenceTable:
    case_id: str
    primary: Ref
    secondary: list[Ref]
    differential: list[Ref]
    workup: list[Ref]
    treatment: list[Ref]
    groups: list[Group]
    conditions: list[ConditionRef]
    record: Record = field(default_factory=lambda: Record([], "", []))
    _by_compact: dict[str, list[tuple[Phrase, Ref | None, Group | None]]] = field(default_factory=dict)
    _alternatives: set[tuple[int, Phrase]] = field(default_factory=set)
    _multiword: list[tuple[Phrase, Ref | None, Group | None]] = field(default_factory=list)
    _unordered_by_word: dict[str, list[int]] = field(default_factory=dict)
    """Which multi-word phrases an unordered match can meet (not an acronym's) hold each word: positions
    in ``_multiword``, so an answer looks only at the phrases it holds every word of."""
    _distinct_words: list[int] = field(default_factory=list)
    """How many distinct words each phrase of ``_multiword`` has."""
    _word_sets: list[frozenset[str]] = field(default_factory=list)
    """The distinct words of each phrase of ``_multiword``: all must be in the clause of its first word."""
    _most_words_phrases: list[tuple[Phrase, Ref, frozenset[str], tuple[frozenset[str], ...]]] = field(
        default_factory=list)
    """The phrases a match by all but one word can meet (``_most_words``), with their distinct words
    and the words that may be the one left out (a hyphenated compound, "post-operative", is one written
    word): prepared once, not per answer."""
    _most_words_by_word: dict[str, list[int]] = field(default_factory=dict)
    """Which of ``_most_words_phrases`` hold each word (positions in it)."""
    _prefixes: set[str] = field(default_factory=set)
    _vocab: set[str] = field(default_factory=set)
    _by_initial: dict[str, list[str]] = field(default_factory=dict)
    _typos: dict[str, str] = field(default_factory=dict)
    _memo: dict[Any, Any] = field(default_factory=dict)
    _readings: OrderedDict[str, object] = field(default_factory=OrderedDict)
    """The text extractor's reading of the last final answered to this case (``read_once``)."""
    _actions: list[Ref] = field(default_factory=list)  # the work-up and treatment items an action reading can meet
    _safety_nets: list[tuple[Phrase, Ref | None]] = field(default_factory=list)
    _net_topics: dict[Phrase, frozenset[str] | None] = field(default_factory=dict)
    """What an answer's safety net must be about to meet a safety-net phrase (None: any safety net)."""
    _safety_net_phrases: set[Phrase] = field(default_factory=set)
    _net_symptoms: dict[int, tuple[frozenset[str], frozenset[str]]] = field(default_factory=dict)
    """The symptoms a safety-netting item's name is about ("Safety-netting for new visual loss": vision), with the
    first letters of its words, by the item's id: an answer's safety net about other symptoms only is not it. Not
    of a name with a condition of its own ("return if breathlessness worsens"): its words are its topic."""
    _follow_ups: list[tuple[Phrase, Ref | None, concepts.Interval]] = field(default_factory=list)
    _discharge_plans: list[tuple[Phrase, Ref, list[tuple[str, ...]]]] = field(default_factory=list)
    _qualified_discharges: list[tuple[Phrase, Ref, tuple[frozenset[str], ...]]] = field(default_factory=list)
    """Harmful discharge items with a qualifier, and the words of what each goes without
    (``concepts.qualified_discharge``)."""
    _home_plans: list[tuple[Phrase, Ref, home.HomePlan]] = field(default_factory=list)
    """Harmful items of a treatment at home with a later review, and what each gives (``home.home_management``)."""
    _routine_plans: list[tuple[Phrase, Ref, home.HomePlan]] = field(default_factory=list)
    """Harmful items of routine care in place of today's admission or referral (``home.routine_management``)."""
    _instead_of_today: frozenset[int] = frozenset()
    """Ids of the harmful items that go without an admission or referral of today (``home.replaces_today``): an
    answer that admits or refers today meets none of them."""
    _repeats: list[tuple[Phrase, Ref, frozenset[Term]]] = field(default_factory=list)
    """Treatment names of a repeat of one drug ("repeat lorazepam"), with the drug: a piece that repeats the drug of
    the piece before with its name left out ("..., repeat once at 10 minutes") names them."""
    _delays: list[tuple[Phrase, Ref]] = field(default_factory=list)
    _waited_actions: list[tuple[Phrase, Ref, actions.ActionReading]] = field(default_factory=list)
    """Harmful items that observe before the emergency action, with that action's reading (``delay.wait_item``)."""
    _composites: list[tuple[Phrase, Ref, composite.CompositePlan]] = field(default_factory=list)
    """Harmful composite plans, a treatment with a team's review (``composite.composite_plan``)."""
    _milestones: list[tuple[Phrase, Ref, frozenset[str]]] = field(default_factory=list)
    """Harmful discharges once a milestone of the treatment is reached, with its stems
    (``concepts.discharge_milestone``)."""
    """Harmful items that put the emergency action off for a later recheck (``delay.delay_item``)."""
    _withholdings: list[tuple[Phrase, Ref, list[tuple[str, ...]]]] = field(default_factory=list)
    _waits: dict[int, list[tuple[str, ...]]] = field(default_factory=dict)
    _stopped_kinds: dict[int, tuple[frozenset[Term], frozenset[Term]]] = field(default_factory=dict)
    """The drugs and classes each withholding item's names stop ("stop the SSRI", "avoid NSAIDs"): a switch to
    another of them is no stop ("switch sertraline to citalopram")."""
    """The names (members too) of the treatment a withholding item holds back until something, by phrase id."""
    _continuations: list[tuple[Phrase, Ref, list[tuple[str, ...]], frozenset[Term], bool]] = field(default_factory=list)
    _increases: list[tuple[Phrase, Ref, list[tuple[str, ...]]]] = field(default_factory=list)
    _adjustments: list[tuple[Phrase, Ref, list[tuple[str, ...]]]] = field(default_factory=list)
    _level_rechecks: list[tuple[Phrase, Ref, list[tuple[str, ...]]]] = field(default_factory=list)
    """Items of more of a treatment begun, with its names and the routes their words name ("IV")."""
    _explanations: list[tuple[Phrase, Ref, list[tuple[str, ...]]]] = field(default_factory=list)
    _tellings: list[tuple[Phrase, Ref, tuple[str, ...]]] = field(default_factory=list)
    _counsels: list[tuple[Phrase, Ref, tuple[str, ...]]] = field(default_factory=list)
    _procedures: list[tuple[Phrase, Ref, tuple[str, ...]]] = field(default_factory=list)
    """Test items named by a procedure's noun ("aspiration"), reported by its other forms with a result."""
    """Advice items with their topic ("Contraception and pregnancy counselling": contraception, pregnancy)."""
    _withholding_refs: set[int] = field(default_factory=set)  # ids of the items whose action is a withholding
    _ecgs: list[tuple[Phrase, Ref]] = field(default_factory=list)
    _boluses: list[tuple[Phrase, Ref, actions.ActionReading]] = field(default_factory=list)
    _switches: list[tuple[Phrase, Ref, actions.ActionReading]] = field(default_factory=list)
    """Treatment items that switch to a drug or within a class ("switch antidepressant"), with what they give."""
    """Treatment items that are a one-off dose of a drug or class ("Insulin bolus"), with what they give."""
    _panels: list[tuple[Phrase, Ref, tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]]] = field(
        default_factory=list)
    """Each test item that is a panel or a level: its first such phrase, the item, what it measures, and every
    name of its test (read once per case, not per answer)."""
    _exam_terms: list[tuple[Phrase, Ref, tuple[tuple[str, ...], ...]]] = field(default_factory=list)
    _observation_sets: list[tuple[Phrase, Ref, tuple[tuple[tuple[str, ...], ...], ...]]] = field(default_factory=list)
    """Observation items that list the measures they take ("Observations with temperature, heart rate and capillary
    refill"), with every name of each measure (``_observation_parts``)."""
    """Examination items with the findings the vocabulary gives their examination (``findings`` in tests.yaml)."""
    _serials: list[tuple[Phrase, Ref, tuple[tuple[str, ...], ...]]] = field(default_factory=list)
    _afters: list[tuple[Phrase, Ref, tuple[str, ...], tuple[tuple[str, ...], ...]]] = field(default_factory=list)
    """Credited items of a step after another ("LP with opening pressure after imaging"): the action and the names
    of the step before it (``_after_parts``)."""
    _graduals: list[tuple[Phrase, Ref, tuple[str, ...]]] = field(default_factory=list)
    """Items of a measure changed gradually, with the measure (``concepts.gradual_measure``)."""
    _timed: list[tuple[Phrase, Ref, Phrase, tuple[Window, ...]]] = field(default_factory=list)
    _assessments: list[tuple[Phrase, Ref, frozenset[str]]] = field(default_factory=list)
    _sequences: list[tuple[Phrase, Ref, frozenset[str], frozenset[str]]] = field(default_factory=list)
    _fasting_waits: list[tuple[Phrase, Ref]] = field(default_factory=list)
    """Harmful items of an order ("visual acuity before irrigation"), with the words done first and those done after."""
    """Work-up items that are assessments, with what they assess (``concepts.assessed_topic``)."""
    """Names that give an action with its time ("DC cardioversion now"): the action's own words, and the time."""
    findings_text: str = ""  # the attachments' text: what examinations and observations found
    patient_text: str = ""  # what the patient says (the intro and the answers to questions)
    emergency: bool = False
    """The case is an emergency: a work-up item without a time of its own is done before discharge, a required one
    today (:meth:`_put_off`)."""
    _exams: list[tuple[Phrase, Ref, frozenset[str], frozenset[str]]] = field(default_factory=list)
    _exam_parts: list[tuple[Phrase, Ref, tuple[tuple[str, ...], ...]]] = field(default_factory=list)
    _declined_heads: list[tuple[Ref, frozenset[str]]] = field(default_factory=list)
    _queried: list[tuple[Phrase, Ref]] = field(default_factory=list)
    _predicated: list[tuple[Phrase, Ref]] = field(default_factory=list)
    _short_names: frozenset[str] = frozenset()
    """The words that name the primary diagnosis alone (:func:`_short_names`): "torsion" of testicular torsion."""
    """Two-word diagnosis names an answer may say as a clause ("retinal detachment": "the retina is detaching")."""
    """Diagnosis phrases of an organ's cancer ("breast cancer"), for a query of the bare word ("?Ca")."""
    """Harmful items with the action words that decline them said alone ("do not aspirate": ``declined_action``)."""

    def __post_init__(self) -> None:
        for ref in self.refs:
            for phrase in ref.phrases:
                self._add(phrase, ref, None)
        for ref in self.treatment:
            for phrase in ref.alternatives:
                self._add(phrase, ref, None)
                self._alternatives.add((id(ref), phrase))
        for group in self.groups:
            for phrase in group.phrases:
                self._add(phrase, None, group)
        for cond in self.conditions:
            for phrase in (*cond.phrases, *cond.applies_phrases):
                self._add(phrase, None, None)
        for word in self._vocab:
            self._by_initial.setdefault(word[0], []).append(word)
        action_refs = (*self.workup, *self.treatment)
        self._actions = [r for r in action_refs
                         if any(a.teams or a.drugs or a.classes or actions.bare_admission(a)
                                for a in (*r.readings, *r.alternative_readings))]
        crediting: list[tuple[Phrase, Ref | None]] = [
            (p, r) for r in action_refs if r.klass in concepts.CREDIT_CLASSES for p in r.phrases
        ]
        crediting += [(p, None) for c in self.conditions if c.condition.kind == "must_include" for p in c.phrases]
        for phrase, credited in crediting:
            self._add_concepts(phrase, credited)
        for ref in self.treatment:
            for phrase in ref.phrases:
                self._add_discharge_plan(phrase, ref)
        self._qualified_discharges = [
            (ref.phrases[0], ref, concepts.skipped_keys(_skipped_names(skipped))) for ref in self.treatment
            if ref.klass in HARMFUL_CLASSES and ref.phrases
            and (skipped := concepts.qualified_discharge(ref.name)) is not None]
        self._home_plans = [(ref.phrases[0], ref, plan) for ref in self.treatment
                            if ref.klass in HARMFUL_CLASSES and ref.phrases
                            and (plan := home.home_management(ref.name)) is not None]
        self._routine_plans = [(ref.phrases[0], ref, plan) for ref in self.treatment
                               if ref.klass in HARMFUL_CLASSES and ref.phrases
                               and (plan := home.routine_management(ref.name)) is not None]
        self._instead_of_today = frozenset(id(ref) for ref in self.treatment
                                           if ref.klass in HARMFUL_CLASSES and home.replaces_today(ref.name))
        self._repeats = [(phrase, ref, drugs) for ref in self.treatment for phrase in ref.phrases
                         if (drugs := _repeated_drugs(phrase.words))]
        self._milestones = [(ref.phrases[0], ref, stems) for ref in self.treatment
                            if ref.klass in HARMFUL_CLASSES and ref.phrases
                            and (stems := concepts.discharge_milestone(ref.name)) is not None]
        self._delays = [(ref.phrases[0], ref) for ref in self.treatment
                        if ref.klass in HARMFUL_CLASSES and ref.phrases and delay.delay_item(ref.name)]
        self._waited_actions = [(ref.phrases[0], ref, action) for ref in self.treatment
                                if ref.klass in HARMFUL_CLASSES and ref.phrases
                                and (action := delay.wait_item(ref.name)) is not None]
        self._composites = [(ref.phrases[0], ref, composed) for ref in self.treatment
                            if ref.klass in HARMFUL_CLASSES and ref.phrases
                            and (composed := composite.composite_plan(ref.name)) is not None]
        self._assessments = [(ref.phrases[0], ref, topic) for ref in self.workup if ref.klass in concepts.CREDIT_CLASSES
                             and (topic := concepts.assessed_topic(ref.phrases[0].words))]
        self._procedures = [(ref.phrases[0], ref, nouns) for ref in self.workup
                            if ref.klass in concepts.CREDIT_CLASSES
                            and (nouns := concepts.procedure_nouns(tuple(w for p in ref.phrases for w in p.words)))]
        self._fluid_tests = [(ref.phrases[0], ref, *tested) for ref in self.workup
                             if ref.klass in concepts.CREDIT_CLASSES
                             and (tested := concepts.fluid_tests([p.words for p in ref.phrases])) is not None]
        self._counsels = [(ref.phrases[0], ref, advised) for ref in self.treatment
                          if ref.klass in concepts.CREDIT_CLASSES
                          and (advised := concepts.counselled_topic(ref.phrases[0].words)) is not None]
        self._tellings = [(phrase, ref, told) for ref in self.treatment if ref.klass in concepts.CREDIT_CLASSES
                          for phrase in ref.phrases if (told := concepts.told_parts(phrase.words)) is not None]
        self._timed = [(phrase, ref, *timed) for ref in action_refs if ref.klass not in concepts.CREDIT_CLASSES
                       for phrase in ref.phrases if (timed := _timed(phrase)) is not None]
        self._sequences = [(phrase, ref, *parts) for ref in action_refs if ref.klass not in concepts.CREDIT_CLASSES
                           for phrase in ref.phrases if (parts := _ordered_parts(phrase)) is not None]
        self._fasting_waits = [(ref.phrases[0], ref) for ref in action_refs if ref.klass not in concepts.CREDIT_CLASSES
                               and any(FASTING_WORDS & set(p.words) and FASTING_WAIT_WORDS & set(p.words)
                                       for p in ref.phrases)]
        self._ecgs = [(p, r) for r in self.workup for p in r.phrases if concepts.is_plain_ecg(p.words)][:1]
        self._boluses = [bolus for ref in self.treatment if (bolus := _bolus(ref)) is not None]
        self._switches = [switch for ref in self.treatment for switch in _switch(ref)]
        for ref in self.workup:
            if ref.klass not in concepts.CREDIT_CLASSES or REPEATED.intersection(re.findall(r"[a-z]+",
                                                                                            ref.name.lower())):
                continue  # a result is no repeat of its test ("Repeat U&E in 1 hour" is ordered, not reported)
            # every name that is a panel or a level gives its analytes ("Urea and electrolytes with anion gap" with
            # aliases "U&E" and "anion gap": creatinine, ..., anion gap); a level: what each name measures
            panels = [(p, a) for p in ref.phrases if (a := concepts.panel_analytes(p.words))]
            panels += [(p, (*a, *concepts.drug_other_names(a))) for p in ref.phrases  # "LTG 1.4": lamotrigine's
                       if not concepts.panel_analytes(p.words) and (a := concepts.level_analytes(p.words))]
            if panels:
                measured = tuple(dict.fromkeys(m for _, a in panels for m in a))
                self._panels.append((panels[0][0], ref, measured, _test_names(ref)))
        self._exams = _examinations(self.workup, self.findings_text, self.patient_text, self.treatment)
        self._exam_parts = [(ref.phrases[0], ref, bracketed) for ref in self.workup
                            if ref.klass in concepts.CREDIT_CLASSES and (bracketed := _bracket_parts(ref))]
        self._observation_sets = [(ref.phrases[0], ref, taken) for ref in self.workup
                                  if ref.klass in concepts.CREDIT_CLASSES and (taken := _observation_parts(ref))]
        self._exam_terms = [(p, ref, found) for ref in self.workup if ref.klass in concepts.CREDIT_CLASSES
                            for p in ref.phrases[:1]
                            if (found := tuple(dict.fromkeys(f for q in ref.phrases
                                                             for f in concepts.examination_findings_of(q.words))))]
        self._afters = [(phrase, ref, *steps) for ref in action_refs if ref.klass in concepts.CREDIT_CLASSES
                        for phrase in ref.phrases if (steps := _after_parts(phrase)) is not None]
        self._graduals = [(ref.phrases[0], ref, measure) for ref in action_refs if ref.klass in concepts.CREDIT_CLASSES
                          and (measure := concepts.gradual_measure(ref.name)) is not None]
        self._serials = [(p, ref, things) for ref in action_refs if ref.klass in concepts.CREDIT_CLASSES
                         for p in ref.phrases[:1] if (things := concepts.serial_things(p.text))]
        self._declined_heads = [(ref, heads) for ref in action_refs if ref.klass not in concepts.CREDIT_CLASSES
                                and (heads := _action_heads(ref))]
        self._predicated = [(p, ref) for ref in (self.primary, *self.secondary, *self.differential)
                            for p in ref.phrases
                            if len(p.words) == 2 and all(len(w) >= ACTION_STEM_MIN for w in p.words)]
        self._queried = [(p, ref) for ref in (self.primary, *self.secondary, *self.differential) for p in ref.phrases
                         if len(p.words) >= 2 and p.words[-1] in QUERY_HEADS]
        self._short_names = _short_names(self.primary, [*self.secondary, *self.differential])
        self._add_most_words()

    def short_name_mentions(self, doc: Document, named: list[Mention]) -> list[Mention]:
        """The primary diagnosis named by a short name (:func:`_short_names`) that stands as a noun phrase of its
        own (``cues.said_alone``) where no item was read ("Herpes is less likely as ...", "Torsion is unlikely").
        The reader takes it only where the answer rejects, hedges or lists it as a differential: a short name
        is never a final diagnosis."""
        if not self._short_names:
            return []
        taken = {k for m in named if m.ref is not None or m.group is not None
                 for k in range(m.hit.first, m.hit.last + 1)}
        tokens = doc.tokens
        out: list[Mention] = []
        k = 0
        while k < len(tokens):
            if k in taken or tokens[k].norm not in self._short_names:
                k += 1
                continue
            last = k
            while (last + 1 < len(tokens) and last + 1 not in taken and tokens[last + 1].norm in self._short_names
                   and doc.clause[last + 1] == doc.clause[k] and not doc.comma_before[last + 1]):
                last += 1  # "ethylene glycol": one short name
            if cues.said_alone(doc, k, last):
                out.append(Mention(Hit(k, last), MATCH_SCORE_CONCEPT, self.primary.phrases[0], self.primary, None,
                                   SHORT_NAME))
            k = last + 1
        return out

    def _add_most_words(self) -> None:
        """Index the credited items' phrases of MOST_WORDS_MIN distinct words or more by word, each with
        the words it may do without: not the action's time, route, team or drug ("today")."""
        for phrase, ref, _ in self._multiword:
            if ref is None or ref.klass not in concepts.CREDIT_CLASSES:
                continue
            unique = frozenset(phrase.words)
            if len(unique) < MOST_WORDS_MIN:
                continue
            droppable = frozenset(w for w in unique if not w[:1].isdigit() and actions.read_action(w).empty
                                  and w not in _counts_of_units(phrase.words) and w not in TURNING_WORDS)
            units = [frozenset([w]) for w in phrase.words if w in droppable]
            units += [c for c in _compounds(phrase.text)  # what is left still says most of it ("beta-blocker eye
                      if len(c) > 1 and c <= droppable and len(unique - c) >= MOST_WORDS_MIN]  # drops": no drops)
            for word in unique:
                self._most_words_by_word.setdefault(word, []).append(len(self._most_words_phrases))
            self._most_words_phrases.append((phrase, ref, unique, tuple(dict.fromkeys(units))))

    def _add_discharge_plan(self, phrase: Phrase, ref: Ref) -> None:
        """Remember an item that sends the patient home with a treatment, with every
        name of that treatment (its class's names and members: ``groups.py``)."""
        part = concepts.plan_parts(phrase.words)
        if part is not None:
            treatment = " ".join(part)
            self._discharge_plans.append((phrase, ref, _names(group_phrases(treatment) + _drug_names(treatment)
                                                              + _drugs_named_in(phrase.words))))
        explained = concepts.explain_parts(phrase.words)
        if explained is not None and ref.klass in concepts.CREDIT_CLASSES:
            name = " ".join(explained)
            self._explanations.append((phrase, ref, _names(group_phrases(name) + _broader_names(name))))
        part = concepts.withhold_parts(phrase.words)
        if part is not None:
            treatment = " ".join(part)
            self._withholding_refs.add(id(ref))
            self._withholdings.append((phrase, ref, _names(group_phrases(treatment, members=False)
                                                           + _drug_names(treatment))))
            stopped = actions.read_action(treatment)
            drugs, classes = self._stopped_kinds.get(id(ref), (frozenset(), frozenset()))
            self._stopped_kinds[id(ref)] = (drugs | stopped.drugs, classes | stopped.classes)
            if concepts.waits_for_something(phrase.words):  # a member given once a result is back waits too
                members = group_phrases(treatment)  # by any of its names ("pip-taz", "Tazocin")
                self._waits[id(phrase)] = _names(members + _drug_names(treatment)
                                                 + tuple(n for m in members for n in _drug_names(m)))
        for restart in (False, True):
            more = concepts.continuation_parts(phrase.words, restart) if ref.kind == "treatment" else None
            if more is not None:
                treatment = " ".join(more)
                routes = frozenset(t for w in more for t in read_vocabulary().lookup(w, "route"))
                names = group_phrases(treatment) + _drug_names(treatment) + (_drugs_named_in(more) if restart else ())
                if not restart and len(actions.read_action(treatment).drugs) == 1:
                    names += _drugs_named_in(more)  # its drug's regimen ("Continued IV hydrocortisone 50 mg 6-hourly")
                self._continuations.append((phrase, ref, _names(names), routes, restart))
        rechecked = concepts.level_after_change_parts(phrase.words) if ref.klass in concepts.CREDIT_CLASSES else None
        if rechecked is not None:
            self._level_rechecks.append((phrase, ref, _names(_drug_names(rechecked)
                                                              + _drugs_named_in(tuple(rechecked.split())))))
        raised = concepts.increase_parts(phrase.words) if ref.kind == "treatment" else None
        if raised is not None:
            self._increases.append((phrase, ref, _names(_drug_names(raised) + _drugs_named_in(tuple(raised.split())))))
        adjust = concepts.adjust_parts(phrase.words) if ref.kind == "treatment" and raised is None else None
        if adjust is not None:  # a drug by any of its names, a class by its own or its members' ("glargine")
            vocabulary = read_vocabulary()
            terms = vocabulary.lookup(adjust, "drug") + vocabulary.lookup(adjust, "drug_class")
            self._adjustments.append((phrase, ref, _names(tuple(
                n for term in terms for t in (term, *vocabulary.narrower(term)) for n in t.names))))

    def _add_concepts(self, phrase: Phrase, ref: Ref | None) -> None:
        """Remember the phrase when it is itself a safety-net expression or a timed
        review (``concepts.py``); an item counts once per concept."""
        doc = Document(phrase.text)
        if concepts.safety_nets(doc) and not _immediate_instruction(doc):
            self._safety_net_phrases.add(phrase)
            general = ref is None or _names_safety_netting(ref)
            self._net_topics[phrase] = None if general else concepts.safety_net_topic(phrase.words)
            if general and ref is not None and id(ref) not in self._net_symptoms:
                words = tuple(t.low for t in tokenize(ref.name))
                said = not concepts.CONDITIONALS.intersection(words)
                self._net_symptoms[id(ref)] = (concepts.symptoms_named(words) if said else frozenset(),
                                               frozenset(w[: concepts.SKIPPED_PREFIX] for w in words
                                                         if len(w) >= concepts.SKIPPED_PREFIX))
            if general and any(r is ref and ref is not None for _, r in self._safety_nets):
                return  # any safety net meets the item: once is enough
            self._safety_nets.append((phrase, ref))
        for _, (low, high), within in concepts.follow_ups(doc):
            self._follow_ups.append((phrase, ref, (0.0 if within else low, high)))

    def _add(self, phrase: Phrase, ref: Ref | None, group: Group | None) -> None:
        entries = self._by_compact.setdefault(phrase.compact, [])
        if not any(p == phrase and r is ref and g is group for p, r, g in entries):
            entries.append((phrase, ref, group))
            distinct = dict.fromkeys(phrase.words)
            if len(distinct) >= 2 and (ref is not None or group is not None):
                for word in distinct if not phrase.caps_only else ():
                    self._unordered_by_word.setdefault(word, []).append(len(self._multiword))
                self._multiword.append((phrase, ref, group))
                self._distinct_words.append(len(distinct))
                self._word_sets.append(frozenset(distinct))
        compact = phrase.compact
        if compact not in self._prefixes:  # the set holds every prefix of what it holds: a phrase seen adds nothing
            self._prefixes.update([compact[:n] for n in range(1, len(compact) + 1)])
        self._vocab.update(phrase.words)

    @property
    def diagnoses(self) -> list[Ref]:
        return [self.primary, *self.secondary]

    @property
    def refs(self) -> list[Ref]:
        return [self.primary, *self.secondary, *self.differential, *self.workup, *self.treatment]

    def canon(self, word: str) -> str:
        """A misspelt word stands for the reference word it is one edit from
        (constants.TYPO_*); any other word stays as it is, and so does a word the clinical vocabulary
        names as a term of its own ("NSTEMI" is no misspelt "STEMI")."""
        if len(word) < TYPO_MIN_LENGTH or word in self._vocab:
            return word
        known = self._typos.get(word)
        if known is not None:
            return known
        found = word
        for candidate in () if read_vocabulary().lookup(word) else self._by_initial.get(word[0], ()):
            if (
                abs(len(candidate) - len(word)) <= TYPO_MAX_EDITS
                and len(candidate) >= TYPO_MIN_LENGTH
                and OSA.distance(word, candidate, score_cutoff=TYPO_MAX_EDITS) <= TYPO_MAX_EDITS
            ):
                found = candidate
                break
        self._typos[word] = found
        return found

    def find(self, doc: Document) -> list[Mention]:
        """Every reference phrase in the document: a run of whole tokens whose words,
        joined without spaces, are a phrase's words joined the same way ("x ray" =
        "xray"); cached on the document. Overlaps resolved: the longest mention wins;
        mentions of exactly the same words are all kept (one alias shared by two items,
        an item that is also a group's name)."""
        known = doc.found.get(id(self))
        if known is not None and known[0] is self:
            return known[1]
        tokens = doc.tokens
        keys, norms, written = _key_words(doc)  # the document's key words, listed once for every search of it
        words = [self.canon(w) for w in norms]
        typo = [w != norm for w, norm in zip(words, norms, strict=True)]
        found: list[Mention] = []
        prefixes = self._prefixes
        by_compact = self._by_compact
        n = len(keys)
        for s in range(n):
            acc = ""
            for e in range(s, n):
                acc = joined(acc, words[e])
                if acc not in prefixes:
                    break
                entries = by_compact.get(acc)
                if entries is None:
                    continue
                first, last = keys[s], keys[e]
                if doc.sentence_break_within(first, last):
                    break  # "furosemide 80 mg IV. Verapamil ..." is not "IV verapamil"
                score = MATCH_SCORE_TYPO if any(typo[s : e + 1]) else MATCH_SCORE_EXACT
                if _inside_expansion(tokens, first, last):
                    continue  # "oxygen" is not in "SpO2" (oxygen saturation)
                for phrase, ref, group in entries:
                    if phrase.caps_only and not all(tokens[k].caps for k in range(first, last + 1)):
                        continue
                    if phrase.exact_case and doc.text[tokens[first].start : tokens[last].end] != phrase.text:
                        continue
                    found.append(Mention(Hit(first, last), score, phrase, ref, group))
        where = written  # where each word is among the key words: both looser matches ask
        if any(typo):  # a corrected word stands where its misspelling is
            where = {}
            for position, word in enumerate(words):
                where.setdefault(word, []).append(position)
        may = self.passes_that_may_apply(where.keys(), doc.lows)  # a pass none of whose words is said is skipped
        if UNORDERED_PASS in may:
            found += self._unordered(doc, keys, words, where,
                                     {(m.hit, id(m.phrase), id(m.ref), id(m.group)) for m in found})
        if LABEL_VERDICT_PASS in may:
            found += self._label_verdicts(doc, keys, words)
        if BRACKET_QUALIFIER_PASS in may:
            found += self._bracket_qualifiers(doc, keys, words)
        sequenced = self._sequenced(doc, keys, words) if SEQUENCED_PASS in may else []
        found += sequenced
        if FASTED_PASS in may:
            found += self._fasted_for_hours(doc)
        found = [m for m in found if (m.phrase.words != concepts.HOME or concepts.sends_home(doc, m.hit.first))
                 and not _placed_otherwise(doc, m)
                 and not (m.ref is not None and concepts.sends_home_later(doc, m.hit)
                          and not concepts.later_discharge_item(m.ref.name))
                 and not (m.ref is not None and m.ref.kind in ACTION_KINDS and names_a_rule(doc, m.hit.last))
                 and not (m.ref is not None and m.ref.kind == "workup"
                          and concepts.one_reading(doc, m.hit, m.ref.name))  # "SpO2 86%": no monitoring
                 and not (m.ref is not None and m.ref.kind == "treatment"
                          and (reversed_ := concepts.reversed_drugs(m.ref.name)) is not None
                          and concepts.wrong_reversal(doc, m.hit, reversed_))]  # vitamin K is no apixaban reversal
        named = {k for m in found if m.ref is not None for k in range(m.hit.first, m.hit.last + 1)}
        contexts: dict[Hit, actions.ActionReading] = {}
        dropped = [m for m in found if self.contradicted(doc, m, named, contexts) is not None
                   or _done_later(m, sequenced)]
        dropped += [m for m in found if m.ref is None and m.group is not None and any(  # its class, said there
            d.hit.first <= m.hit.first and m.hit.last <= d.hit.last for d in dropped)]
        found = [m for m in found if m not in dropped]
        doc.found[(id(self), "contradicted")] = dropped
        mentions = _resolve_overlaps(found)
        if self._actions:
            mentions = sorted([*mentions, *self._action_mentions(doc, mentions)], key=lambda m: m.hit.first)
        if self._declined_heads:
            mentions = sorted([*mentions, *self._declined_action_mentions(doc, mentions)], key=lambda m: m.hit.first)
        if QUERIED_PASS in may:
            mentions = sorted([*mentions, *self._queried_mentions(doc, mentions)], key=lambda m: m.hit.first)
        if self._predicated:
            mentions = sorted([*mentions, *self._predicated_mentions(doc, mentions)], key=lambda m: m.hit.first)
        if ELIDED_REPEAT_PASS in may:
            mentions = sorted([*mentions, *self._elided_repeats(doc, mentions)], key=lambda m: m.hit.first)
        if (self._safety_nets or self._follow_ups or self._discharge_plans or self._withholdings or self._ecgs
                or self._qualified_discharges or self._home_plans or self._routine_plans or self._delays
                or self._composites
                or self._milestones
                or self._continuations
                or self._increases or self._adjustments
                or self._level_rechecks
                or self._explanations or self._timed or self._assessments or self._tellings
                or self._counsels or self._procedures
                or self._panels or self._serials or self._exams or self._exam_parts or self._exam_terms
                or self._observation_sets
                or self._boluses or self._switches
                or self._graduals or self._afters):
            concept = [m for m in self._concept_mentions(doc, mentions)
                       if self.contradicted(doc, m, named, contexts) is None]
            mentions = sorted([*mentions, *concept], key=lambda m: m.hit.first)
        most = [m for m in (self._most_words(doc, keys, where, mentions) if MOST_WORDS_PASS in may else ())
                if not any(o.hit.first <= m.hit.last and m.hit.first <= o.hit.last and _same_kind(o, m)
                           for o in mentions)
                and self.contradicted(doc, m, named, contexts) is None  # only words no item of its kind took
                and not _placed_otherwise(doc, m)]
        if most:
            mentions = sorted([*mentions, *most], key=lambda m: m.hit.first)
        if self._instead_of_today and home.admits_now(doc):  # "GP review within a week of discharge" follows today's
            instead = [m for m in mentions if m.ref is not None and id(m.ref) in self._instead_of_today
                       and home.admits_now_elsewhere(doc, m.hit)]
            if instead:  # its words are no other item either: the list entry is read (``contradicted_mentions``)
                mentions = [m for m in mentions if m not in instead]
                doc.found[(id(self), "contradicted")] = [*doc.found.get((id(self), "contradicted"), []), *instead]
        doc.found[id(self)] = (self, mentions)
        return mentions

    @cached_property
    def pass_triggers(self) -> dict[str, tuple[str, frozenset[str]]]:
        """Each pass of ``find`` that ``PASS_TRIGGERS`` names, with the words of this case without which it
        finds nothing (and the kind of words they are): built once per table."""
        return {name: (kind, frozenset(trigger(self))) for name, (kind, trigger) in PASS_TRIGGERS.items()}

    def passes_that_may_apply(self, key_words: Iterable[str], lows: Iterable[str]) -> frozenset[str]:
        """The passes of ``PASS_TRIGGERS`` that may find something in a document of these key words (each
        corrected of a typo) and these words as written: those one of whose trigger words it says."""
        said = {KEY_WORDS: set(key_words), WRITTEN_WORDS: set(lows)}
        return frozenset(name for name, (kind, trigger) in self.pass_triggers.items()
                         if not trigger.isdisjoint(said[kind]))

    def contradicted_mentions(self, doc: Document) -> list[Mention]:
        """The item mentions whose timing or route contradicts their item ("hydrocortisone IV once
        the cortisol result is back" for an immediate item): they name the item but do not give it,
        and their words are no other answer item either."""
        self.find(doc)
        return list(doc.found.get((id(self), "contradicted"), []))

    def contradicted(self, doc: Document, m: Mention, named: set[int],
                     contexts: dict[Hit, actions.ActionReading]) -> str | None:
        """Why a work-up or treatment item named in the answer is not what the answer does there: the
        timing or route of its piece (or, when the piece gives none, of its clause) contradicts the
        item's ("ophthalmology outpatients next week" is no same-day referral). ``contexts`` keeps each
        piece's reading for the other mentions in it (``named`` the same)."""
        if m.ref is None or m.ref.kind not in ACTION_KINDS or m.via not in TIMED_VIAS:
            return None
        if (m.via == concepts.WITHHOLDING or asserts_withholding(m.phrase.text)) and _permanent(m.ref) \
                and concepts.held_for_now(doc, m.hit):
            return HELD  # "hold lamotrigine for now and restart it later" is no permanent stop
        asked_for = _count_of(m.ref.name)
        if asked_for is not None and (said := _count_said(doc, m.hit)) is not None and said < asked_for:
            return FEWER  # "a single EpiPen" is not "Two adrenaline auto-injectors"
        piece = doc.piece_of(m.hit.first)
        context = contexts.get(piece)
        if context is None:
            context = contexts[piece] = _context(doc, m.hit, named)
        why = actions.rules_out(context, m.ref.reading, m.ref.klass in concepts.CREDIT_CLASSES)
        if why is None and self._put_off(m.ref, context, doc.lows[piece.first : piece.last + 1]):
            return actions.LATER
        return why

    def _put_off(self, ref: Ref, context: actions.ActionReading, piece: list[str]) -> bool:
        """A work-up item of an emergency case with no time of its own, put off by every time its piece gives: a
        credited test put in outpatients after discharge ("GP to arrange an outpatient echo"), or a required test
        first done after today ("At the assessment unit tomorrow: FBC, U&E"). The emergency's tests are done before
        the patient leaves, its required tests today; a later test the answer keeps ("repeat calcium in one week",
        "routine referral for a biopsy") is still the test."""
        if not (self.emergency and ref.kind == "workup" and context.windows
                and not any(r.windows for r in ref.readings)):
            return False
        first = min(start for start, _ in context.windows)
        outpatient = ref.klass in concepts.CREDIT_CLASSES and context.sends_home and first >= EPISODE_HOURS
        tomorrow = ref.klass == "required" and first >= TODAY_HOURS and not REPEATED.intersection(piece)
        return outpatient or tomorrow

    @cached_property
    def _action_ids(self) -> frozenset[int]:
        """The ids of the items an action reading can meet: made once per case, not per answer."""
        return frozenset(id(r) for r in self._actions)

    @cached_property
    def _actions_of_kind(self) -> dict[str, list[Ref]]:
        """Those items of each kind that are no withholding (met by a withholding of their drug), in order."""
        return {kind: [r for r in self._actions if r.kind == kind and not self.withholds(r)] for kind in ACTION_KINDS}

    def _action_mentions(self, doc: Document, named: list[Mention]) -> list[Mention]:
        """The items a piece of the answer names as a clinical action in other words than the items'
        (``actions.ACTION_RULES``), read from the words of the piece that name no item. An item named
        only where it is negated is still looked for ("we don't have paediatric surgeons here, so I'll
        ring the regional paediatric surgical centre")."""
        acting = self._action_ids  # only these items' mentions are asked about (not negated?)
        named_refs: set[int] = set()
        for m in named:
            if (m.ref is not None and id(m.ref) in acting and id(m.ref) not in named_refs
                    and cues.negation(doc, m.hit.first, m.hit.last) is None):
                named_refs.add(id(m.ref))
        out: list[Mention] = []
        for kind in ACTION_KINDS:  # a phrase may name a test and a treatment at once ("psychiatric assessment")
            refs = [r for r in self._actions_of_kind[kind] if id(r) not in named_refs]
            taken = {k for m in named if (m.ref is not None and m.ref.kind == kind) or m.group is not None
                     for k in range(m.hit.first, m.hit.last + 1)}
            for piece in doc.pieces() if refs else ():
                for whole in _runs(piece, taken):
                    answer = actions.read_action(doc.quote(whole))
                    if answer.empty:
                        continue
                    run = _from_first_term(doc, whole, answer)
                    if _a_purpose(doc, run, answer, taken):
                        continue
                    declined = cues.negation(doc, run.first, run.last) is not None
                    if not declined:  # "Abx not needed": the words after its last term decline it
                        short = _to_last_term(doc, run, answer)
                        declined = cues.negation(doc, short.first, short.last) is not None
                        run = short if declined else run
                    wait = next((c.at for c in conditions_of(doc) if c.waits and run.first < c.at <= run.last), None)
                    if wait is not None:  # "pip-taz when the count is back": the wait is the action's condition
                        run = Hit(run.first, wait - 1)
                    context = _context(doc, run, taken, answer)
                    if not context.acts and _team_involved(doc, run, answer):
                        context = replace(context, involves=True)  # "Renal + ITU now", "Renal for HD"
                    if concepts.resumed(doc, run):
                        context = replace(context, resumes=True)  # "restart levetiracetam 500 mg BD"
                    if regular_frequency(doc.quote(run)):
                        context = replace(context, regular=True)  # "levetiracetam 500 mg BD": maintenance
                    for ref in refs:
                        rule = actions.first_rule(context, ref.readings, ref.klass in concepts.CREDIT_CLASSES,
                                                  declined=declined and self.declinable(ref))
                        if rule is None and ref.alternative_readings and not declined:
                            rule = next((r for alt in ref.alternative_readings  # "phenytoin 18 mg/kg IV"
                                         if (r := actions.rule_for(context, alt, True)) is not None), None)
                        if rule is not None:
                            out.append(Mention(run, rule.score, ref.phrases[0], ref, None, rule=rule.name))
        routed = [r for r in self._actions_of_kind["treatment"]  # named only under a condition, still looked for
                  if r.reading.routes and r.klass not in concepts.CREDIT_CLASSES]
        for m in named if routed else ():
            out += _group_drug_by_route(doc, m, routed)
        return out

    def _elided_repeats(self, doc: Document, named: list[Mention]) -> list[Mention]:
        """A piece that opens with a word of repeating and names no item ("Lorazepam 4 mg IV now, repeat once at 10
        minutes") repeats the drug of the piece before it in its clause: it is the item named "repeat <drug>"."""
        out: list[Mention] = []
        pieces = doc.pieces()
        for i, piece in enumerate(pieces):
            if i == 0 or doc.lows[piece.first] not in concepts.ELIDED_REPEAT_WORDS:
                continue
            before = pieces[i - 1]
            if doc.clause[before.first] != doc.clause[piece.first] or any(
                    m.ref is not None and piece.first <= m.hit.first <= piece.last for m in named):
                continue  # another clause's drug, or the piece names its own item ("repeat the gas")
            after = piece.first + 1
            if after <= piece.last and not (doc.lows[after] in ELIDED_REPEAT_FOLLOWERS
                                            or _NUMBER_START.match(doc.lows[after])):
                continue  # "repeat the gas": an object of its own
            given = actions.read_action(doc.quote(before)).drugs
            if len(given) != 1 or actions.read_action(doc.quote(piece)).drugs:
                continue
            seen: set[int] = set()
            for phrase, ref, drugs in self._repeats:
                if drugs == given and id(ref) not in seen:
                    seen.add(id(ref))
                    out.append(Mention(piece, MATCH_SCORE_CONCEPT, phrase, ref, None, concepts.ELIDED_REPEAT))
        return out

    def _declined_action_mentions(self, doc: Document, named: list[Mention]) -> list[Mention]:
        """The harmful items an answer declines by their action word alone, its object left unsaid or a pronoun
        ("do not aspirate in the surgery", "not for discharge", "do not withhold it", "I don't advise waiting to
        see"): a word of ``declined_actions`` right after a negation (a "for", "to" or action verb between),
        on no other item's words, meets each harmful item whose words hold that action. Declined only: such a
        word never gives an item."""
        taken = {k for m in named if m.ref is not None or m.group is not None
                 for k in range(m.hit.first, m.hit.last + 1)}
        out: list[Mention] = []
        low = doc.lows
        for k, word in enumerate(low):
            if k in taken or not word.startswith(_DECLINED_STEMS):  # = any(_same_action(verb, word) ...)
                continue
            if not _declined_alone(doc, k) or cues.negation(doc, k, k) is None:
                continue
            for ref, heads in self._declined_heads:
                if any(_same_action(head, word) for head in heads):
                    out.append(Mention(Hit(k, k), MATCH_SCORE_CONCEPT, ref.phrases[0], ref, None, DECLINED_ACTION))
        return out

    def _queried_mentions(self, doc: Document, named: list[Mention]) -> list[Mention]:
        """A query of a bare word for a cancer ("?Ca", "?malignancy": ``query_cancer_words``) on a line that names
        the organ ("L breast lump, hard, tethered. ?Ca") is the case's cancer of that organ ("breast cancer"):
        every other word of the diagnosis's name or alias stands on the line."""
        taken = {k for m in named for k in range(m.hit.first, m.hit.last + 1)}
        out: list[Mention] = []
        text = doc.text
        for k, token in enumerate(doc.tokens):
            if doc.lows[k] not in QUERY_HEADS or k in taken:
                continue
            first = _query_start(doc, k)
            beside = None if first is not None else self._organ_beside(doc, k)
            if beside is not None:  # "lung Ca", "Ca lung", "SCC lung": the organ's cancer, unqueried
                out.append(Mention(Hit(min(k, beside[0]), max(k, beside[0])), MATCH_SCORE_CONCEPT, beside[1],
                                   beside[2], None, QUERIED_CANCER))
                continue
            if first is None:
                continue
            line_start = text.rfind("\n", 0, token.start) + 1
            line_end = text.find("\n", token.end)
            line_end = len(text) if line_end == -1 else line_end
            on_line = {t.norm for t in doc.tokens if line_start <= t.start and t.end <= line_end}
            for phrase, ref in self._queried:
                if set(phrase.words[:-1]) <= on_line:
                    out.append(Mention(Hit(first, k), MATCH_SCORE_CONCEPT, phrase, ref, None, QUERIED_CANCER))
                    break
        return out

    def _organ_beside(self, doc: Document, k: int) -> tuple[int, Phrase, Ref] | None:
        """The organ word right before or after the cancer word at ``k`` in its clause, when it is all a name of
        the case's cancer says besides ("lung cancer": "lung Ca", "SCC lung"): its token, that name and item. Not
        in a list a query mark opens ("?iron deficiency, caecal Ca": what a referral is to exclude)."""
        start = k
        while start > 0 and doc.clause[start - 1] == doc.clause[k]:
            start -= 1
        if "?" in doc.text[max(0, doc.tokens[start].start - 1) : doc.tokens[k].start]:
            return None
        for j in (k - 1, k + 1):
            if 0 <= j < len(doc.tokens) and doc.clause[j] == doc.clause[k]:
                for phrase, ref in self._queried:
                    if phrase.words[:-1] == (doc.tokens[j].norm,):
                        return j, phrase, ref
        return None

    def _predicated_mentions(self, doc: Document, named: list[Mention]) -> list[Mention]:
        """A two-word diagnosis said as a clause of its organ ("the retina is detaching", "the retina has detached"
        for "retinal detachment"; "the lung has collapsed" for "collapsed lung"): the organ as the subject (its
        first letters those of one word of the name), a verb "to be" or "to have" (and an adverb), then a form of
        the other word. Not an organ after another's verb ("the vitreous is detaching from the retina") nor a
        risk ("retina at risk of detaching")."""
        taken = {k for m in named if m.ref is not None for k in range(m.hit.first, m.hit.last + 1)}
        low = doc.lows  # the words a verb "to be" or "to have" follows, listed once for every name looked for
        subjects = [i for i in range(len(low) - 1) if low[i + 1] in PREDICATE_VERBS and i not in taken]
        if not subjects:  # no verb "to be" or "to have" after a free word: no name is said as a clause
            return []
        found: dict[tuple[Hit, int], Mention] = {}  # once per item and words, whichever of its names said them
        for phrase, ref in self._predicated:
            for organ, state in _both_ways(phrase.words):
                for hit in _said_as_clause(doc, organ, state, subjects, taken):
                    found.setdefault((hit, id(ref)), Mention(hit, MATCH_SCORE_CONCEPT, phrase, ref, None,
                                                             PREDICATED_DIAGNOSIS))
        return list(found.values())

    def declined_by_word(self, text: str) -> list[Ref]:
        """The harmful items that ``text``, one action word an answer declines alone ("aspirate"), declines."""
        word = text.strip().lower()
        return [ref for ref, heads in self._declined_heads if any(_same_action(head, word) for head in heads)]

    def _unordered(self, doc: Document, keys: list[int], words: list[str], where: dict[str, list[int]],
                   exact: set[tuple[Hit, int, int, int]]) -> list[Mention]:
        """The multi-word phrases whose words all occur, in another order, close together
        in one clause (constants.MATCH_SCORE_UNORDERED). Not a phrase on the very words an exact mention
        of it took (``exact``): that one outscores it wherever it goes, and each copy cost every later step."""
        out: list[Mention] = []
        held = _held(self._unordered_by_word, where)
        whole = sorted(i for i, count in held.items() if count == self._distinct_words[i])
        if not whole:
            return out  # no phrase has all its words in the answer: its clauses need not be read
        clause_of = [doc.clause[k] for k in keys]
        said: dict[int, set[str]] = {}  # the words of each clause, read once: a phrase is looked for only
        for word, clause in zip(words, clause_of, strict=True):  # from a first word whose clause holds them all
            said.setdefault(clause, set()).add(word)
        for i in whole:
            phrase, ref, group = self._multiword[i]
            needed = self._word_sets[i]
            reach = len(phrase.words) + UNORDERED_SLACK
            for anchor in where[phrase.words[0]]:
                if not needed <= said[clause_of[anchor]]:
                    continue  # a word is missing from its clause: no pick around this anchor holds it
                for forward in (True, False):  # the nearest words after the first word; else the nearest
                    picked = _pick(doc, keys, where, phrase, anchor, forward)
                    if picked is None or max(picked) - min(picked) >= reach or not _keeps_order(phrase, picked):
                        continue
                    first, last = keys[min(picked)], keys[max(picked)]
                    while first > 0 and doc.tokens[first - 1].start == doc.tokens[first].start:
                        first -= 1  # from the first word of an expanded abbreviation ("don't" = do not)
                    if _crosses_a_list(doc, first, last, phrase, {keys[p] for p in picked}):
                        continue
                    hit = Hit(first, last)
                    if ((hit, id(phrase), id(ref), id(group)) not in exact
                            and not _another_test_of_specimen(doc, phrase, first, last, {keys[p] for p in picked})):
                        out.append(Mention(hit, MATCH_SCORE_UNORDERED, phrase, ref, group, ordered=False))
                    break
        return out

    def _label_verdicts(self, doc: Document, keys: list[int], words: list[str]) -> list[Mention]:
        """Multi-word phrases said as a short label and its verdict ("**Breastfeeding:** can continue" is "continue
        breastfeeding"; "Aspirin: continue"): the label's words and the first words after its colon
        (``LABEL_VERDICT_WORDS``), each part holding some of the phrase, read as one clause. A verdict that negates
        ("Breastfeeding: cannot continue") gives nothing."""
        canon = dict(zip(keys, words, strict=True))
        out: list[Mention] = []
        for k in range(1, len(doc.tokens)):
            if doc.clause[k] == doc.clause[k - 1] or not cues.label_colon_after(doc, k - 1):
                continue
            label = doc.clause_of(k - 1)
            if label.last - label.first >= LABEL_OBJECT_WORDS or not _opens_its_line(doc, label.first):
                continue  # a label that is an object ("Breastfeeding:"), not a clause of its own
            verdict = [j for j in range(k, min(k + LABEL_VERDICT_WORDS, len(doc.tokens)))
                       if doc.clause[j] == doc.clause[k]]
            said_label = {canon[j] for j in range(label.first, label.last + 1) if j in canon}
            said_verdict = {canon[j]: j for j in reversed(verdict) if j in canon}
            for i in {i for w in said_label for i in self._unordered_by_word.get(w, ())}:
                phrase, ref, group = self._multiword[i]
                needed = self._word_sets[i]
                if not (needed & said_verdict.keys()) or not needed <= said_label | said_verdict.keys():
                    continue
                at = [said_verdict[w] for w in needed & said_verdict.keys()]
                if cues.negation(doc, k, max(at)) is not None or any(cues.negation(doc, j, j) is not None for j in at):
                    continue  # "Breastfeeding: cannot continue"
                last = max(at)
                out.append(Mention(Hit(label.first, last), MATCH_SCORE_UNORDERED, phrase, ref, group, ordered=False))
        return out

    def _bracket_qualifiers(self, doc: Document, keys: list[int], words: list[str]) -> list[Mention]:
        """A phrase whose first word is a qualifier written alone as the first entry of a bracket right after the
        rest of it ("Liver biopsy (percutaneous, ultrasound-guided)" is "percutaneous liver biopsy"; "Antibiotics
        (IV)"): the rest its last words before the bracket, the qualifier one word up to a comma or the bracket's
        end. Not a word of the bracket after its first ("Stop aspirin (clopidogrel, ...)" is no "stop clopidogrel")."""
        out: list[Mention] = []
        text = doc.text
        for p in range(1, len(keys)):
            k = keys[p]
            if text[doc.tokens[keys[p - 1]].end : doc.tokens[k].start].strip() != "(":
                continue
            more = k + 1 < len(doc.tokens)
            after = text[doc.tokens[k].end : doc.tokens[k + 1].start if more else len(text)].strip()
            if not after or after[0] not in ",)" or (more and doc.tokens[k + 1].start == doc.tokens[k].start):
                continue  # "(IV if vomiting)": more than one word; an expanded abbreviation is many
            for i in self._unordered_by_word.get(words[p], ()):
                phrase, ref, group = self._multiword[i]
                rest = phrase.words[1:]
                if phrase.words[0] != words[p] or not rest or len(rest) > p:
                    continue
                before = keys[p - len(rest) : p]
                if tuple(words[p - len(rest) : p]) != rest or len({doc.clause[j] for j in before}) != 1:
                    continue
                if cues.negation(doc, before[0], k) is not None:
                    continue
                out.append(Mention(Hit(before[0], k), MATCH_SCORE_UNORDERED, phrase, ref, group, ordered=False))
        return out

    def _sequenced(self, doc: Document, keys: list[int], words: list[str]) -> list[Mention]:
        """Harmful items of an order met across two steps of a plan: the words done first in one step, those done
        after at the start of the next, which opens with a word of sequence ("1. Check visual acuity and do a
        slit-lamp exam first. 2. Then irrigate": ``sequence_openers``). The mention is the later step's words."""
        if not self._sequences:
            return []
        by_clause: dict[int, list[int]] = {}  # the key words of each clause (positions in ``keys``)
        for position, k in enumerate(keys):
            by_clause.setdefault(doc.clause[k], []).append(position)
        out: list[Mention] = []
        for piece, step in _sequence_steps(doc):
            before = {words[p] for p in by_clause.get(step, ())}
            later: dict[str, int] = {}
            for p in by_clause.get(doc.clause[piece.first], ()):
                if piece.first <= keys[p] <= piece.last:
                    later.setdefault(words[p], keys[p])
            for phrase, ref, first_words, then_words in self._sequences:
                if first_words <= before and then_words <= later.keys():
                    at = [later[w] for w in then_words]
                    out.append(Mention(Hit(min(at), max(at)), MATCH_SCORE_UNORDERED, phrase, ref, via=SEQUENCED,
                                       ordered=False))
        for wait in (c for c in conditions_of(doc) if c.waits):  # "canthotomy ... once the CT has been reviewed"
            awaited: set[str] = set()
            later = {}
            for p, k in enumerate(keys):
                if wait.at <= k <= wait.trigger_end:
                    awaited.add(words[p])
                elif wait.first <= k <= wait.last and doc.clause[k] == doc.clause[wait.at]:
                    later.setdefault(words[p], k)
            for phrase, ref, first_words, then_words in self._sequences:
                if first_words <= awaited and then_words <= later.keys():
                    at = [later[w] for w in then_words]
                    out.append(Mention(Hit(min(at), max(at)), MATCH_SCORE_UNORDERED, phrase, ref, via=SEQUENCED,
                                       ordered=False))
        return out

    def _fasted_for_hours(self, doc: Document) -> list[Mention]:
        """Harmful delays for fasting ("Delay removal to wait for fasting") met by an instruction that keeps the
        patient fasting for a stated number of hours ("keep him fasted for 6 hours, then endoscopy"): the fasting
        is the wait, whatever the procedure after it is called. Not when negated ("no need to fast for 6 hours")."""
        if not self._fasting_waits:
            return []
        out: list[Mention] = []
        for k, token in enumerate(doc.tokens):
            if token.low not in FASTING_WORDS:
                continue
            end = next((j + 1 for j in range(k + 1, min(k + FASTING_REACH + 1, len(doc.tokens) - 1))
                        if doc.clause[j + 1] == doc.clause[k] and doc.lows[j][:1].isdigit()
                        and doc.lows[j + 1] in HOUR_UNITS), None)
            if end is None or cues.negation(doc, k, end) is not None:
                continue
            out += [Mention(Hit(k, end), MATCH_SCORE_UNORDERED, phrase, ref, via=FASTED_FOR_HOURS, ordered=False)
                    for phrase, ref in self._fasting_waits]
        return out

    def _most_words(self, doc: Document, keys: list[int], where: dict[str, list[int]], found: list[Mention]
                    ) -> list[Mention]:
        """A credited item's name or alias of MOST_WORDS_MIN words or more, all but one of them in one
        clause, close together ("Involve family or friends with her consent" in "with her consent,
        involve her mother"; "Explain suspected cauda equina and the reason for emergency MRI"): the
        wording of a thorough answer. Credit only (an item that costs is matched by its own words),
        never an item another mention names, below every other match (constants.MATCH_SCORE_MOST_WORDS)."""
        named = {id(m.ref) for m in found if m.ref is not None  # a safety net names today's attendance only as
                 and not (m.via == concepts.SAFETY_NET and done_today(m.ref))}  # its condition: no naming
        held = _held(self._most_words_by_word, where)
        out: list[Mention] = []
        for i in sorted(i for i, count in held.items()
                        if count >= len(self._most_words_phrases[i][2]) - max(map(len, self._most_words_phrases[i][3]),
                                                                              default=1)):
            phrase, ref, unique, droppable = self._most_words_phrases[i]
            if id(ref) in named:
                continue
            absent = {w for w in unique if w not in where}
            # the word left out must not be the action's time, route, team or drug ("today"); one the answer says
            # in another clause (a label's: "Leg: keep it dependent and protected") may be any droppable one; a
            # hyphenated compound ("post-operative") is one written word, left out whole
            for left_out in [u for u in droppable if absent <= u and (len(u) == 1 or absent)]:
                hit = _close_together(doc, keys, where, replace(phrase, words=tuple(
                    w for w in phrase.words if w not in left_out)), len(phrase.words) + UNORDERED_SLACK)
                if hit is not None:
                    out.append(Mention(hit, MATCH_SCORE_MOST_WORDS, phrase, ref, None, ordered=False,
                                       rule=MOST_WORDS_RULE))
                    named.add(id(ref))
                    break
        return out

    def _concept_mentions(self, doc: Document, named: list[Mention]) -> list[Mention]:
        """The items and phrases that the document's safety-net expressions and timed
        reviews stand for; not an item already named by its own words there. Kept
        apart from the overlap of item mentions, like the condition phrases."""
        out: list[Mention] = []

        def add(hit: Hit, phrase: Phrase, ref: Ref | None, via: str) -> None:
            if ref is not None and any(
                m.ref is ref and m.hit.first <= hit.last and hit.first <= m.hit.last for m in (*named, *out)
            ):
                return
            out.append(Mention(hit, MATCH_SCORE_CONCEPT, phrase, ref, None, via))

        if self._safety_nets:
            for hit in concepts.safety_nets(doc):
                said: dict[str, int] | None = None
                for phrase, ref in self._safety_nets:
                    topic = self._net_topics[phrase]
                    about = hit
                    if ref is not None and _about_other_symptoms(doc, hit, *self._net_symptoms.get(id(ref), NO_TOPIC)):
                        continue  # "come back if the headache gets worse" is no safety net for visual loss
                    if topic is not None:
                        said = _clause_words(doc, hit) if said is None else said
                        if not topic & said.keys():
                            continue  # "come back if not improving" is no "seek help if suicidal thoughts worsen"
                        at = [said[w] for w in topic & said.keys()]
                        about = Hit(min(hit.first, *at), max(hit.last, *at))
                    add(about, phrase, ref, concepts.SAFETY_NET)
        if self._follow_ups:
            for hit, given, _ in concepts.follow_ups(doc):
                for phrase, ref, allowed in self._follow_ups:
                    if concepts.inside(given, allowed):
                        add(hit, phrase, ref, concepts.FOLLOW_UP)
        for k in concepts.discharges(doc) if self._discharge_plans else ():
            for phrase, ref, names in self._discharge_plans:
                treatment = _in_clause(doc, k, names)
                if treatment is not None:
                    add(Hit(min(k, treatment.first), max(k, treatment.last)), phrase, ref, concepts.DISCHARGE_PLAN)
        for phrase, ref, skipped in self._qualified_discharges:
            for k in concepts.qualified_discharges(doc, skipped):
                add(Hit(k, k), phrase, ref, concepts.QUALIFIED_DISCHARGE)
        for phrase, ref, plan in self._home_plans:
            for hit in home.home_managed(doc, plan):
                add(hit, phrase, ref, home.HOME_MANAGEMENT)
        for phrase, ref, routine in self._routine_plans:
            for hit in home.routinely_managed(doc, routine):
                add(hit, phrase, ref, home.ROUTINE_MANAGEMENT)
        for phrase, ref, stems in self._milestones if self._milestones and not home.admits_now(doc) else ():
            for hit in concepts.discharges_after(doc, stems):
                add(hit, phrase, ref, concepts.MILESTONE_DISCHARGE)
        for phrase, ref in self._delays:
            for hit in delay.delayed_rechecks(doc):
                add(hit, phrase, ref, delay.DELAYED_RECHECK)
        for phrase, ref, waited in self._waited_actions:
            for hit in delay.waited_actions(doc, waited, self.record):
                add(hit, phrase, ref, delay.WAITED_ACTION)
        for phrase, ref, composite_plan in self._composites:
            for hit in composite.composite_given(doc, composite_plan):
                add(hit, phrase, ref, composite.COMPOSITE_PLAN)
        for phrase, ref, names in self._explanations:
            for hit in _written(doc, names):
                declined = cues.negation(doc, hit.first, hit.last)
                reasoned = concepts.declined_with_reason(doc, hit, declined) if declined is not None else None
                if reasoned is not None:
                    add(reasoned, phrase, ref, concepts.EXPLAINED_DECLINE)
        left = concepts.switched_from(doc) if self._withholdings else []
        for phrase, ref, names in self._withholdings:
            written = _written(doc, names)
            for hit in written:
                cue = concepts.withheld(doc, hit.first)
                if cue is not None:
                    add(Hit(cue, hit.last), phrase, ref, concepts.WITHHOLDING)
                elif (end := concepts.stopped_after(doc, hit.last)) is not None:
                    add(Hit(hit.first, end), phrase, ref, concepts.WITHHOLDING)
                elif (switch := _switched_away(hit, written, left, doc, self._stopped_kinds[id(ref)])) is not None:
                    add(switch, phrase, ref, concepts.WITHHOLDING)  # "switch from X to Y" stops X
            waited_for = self._waits.get(id(phrase))
            if not waited_for:
                continue  # its drug waits for no result
            named_here = _written(doc, waited_for)
            waits = [result_wait(doc, hit.first, hit.last, self.record) for hit in named_here]
            now = any(wait is None and condition_of(doc, hit.first, hit.last) is None
                      for hit, wait in zip(named_here, waits, strict=True))  # given before the result: no wait
            for hit, wait in zip(named_here, waits, strict=True):  # "hydrocortisone once the cortisol confirms it"
                if wait is not None and not now:  # from the condition when it comes first ("if the count is
                    first = min(hit.first, wait.at) if wait.at >= 0 else hit.first  # low, start pip-taz")
                    add(Hit(first, max(hit.last, wait.last)), phrase, ref, concepts.WITHHOLDING)
        for phrase, ref, names, routes, restart in self._continuations:
            for hit in _written(doc, names):
                more = concepts.continued(doc, hit, restart)
                if more is None:
                    continue
                after = more.first if more.first < hit.first else max(  # a next dose after "then": its own route
                    (k for k in range(hit.last + 1, more.last + 1)
                     if concepts.CONTINUATION_THEN.starting_at(doc.lows, k) is not None), default=hit.first)
                by = actions.read_action(doc.quote(Hit(after, more.last))).routes
                # "further oral fluids" is no more IV fluid; of an item with no route of its own, next doses by
                # another route than the first dose's are a switch, no continuation ("IV stat, then 20 mg PO tds")
                before = routes or (actions.read_action(doc.quote(Hit(hit.first, after - 1))).routes
                                    if after > hit.first else frozenset())
                if not by or not before or actions.same_route(by, before):
                    add(more, phrase, ref, concepts.CONTINUATION)
        for phrase, ref, names in self._increases:
            for hit in _written(doc, names):
                raise_at = concepts.increased(doc, hit)
                if raise_at is not None:
                    add(raise_at, phrase, ref, concepts.INCREASE)
        for phrase, ref, names in self._adjustments:
            for hit in _written(doc, names):
                adjusted_at = concepts.adjusted(doc, hit)
                if adjusted_at is not None:
                    add(adjusted_at, phrase, ref, concepts.ADJUST)
        for phrase, ref, names in self._level_rechecks:
            raised = [r for hit in _written(doc, names) if (r := concepts.increased(doc, hit)) is not None]
            for hit in concepts.levels_rechecked_after(doc, raised) if raised else ():
                add(hit, phrase, ref, concepts.LEVEL_AFTER_CHANGE)
        for hit in concepts.one_off_doses(doc) if self._boluses else ():
            once = actions.read_action(doc.quote(hit))
            for phrase, ref, item in self._boluses:
                if _gives_its_drug(once, item, ref.klass in concepts.CREDIT_CLASSES):
                    add(hit, phrase, ref, concepts.BOLUS)
        for verb, target in concepts.switches(doc) if self._switches else ():
            to = actions.read_action(doc.quote(target))
            for phrase, ref, item in self._switches:
                if _gives_its_drug(to, item, ref.klass in concepts.CREDIT_CLASSES):
                    add(Hit(verb, target.last), phrase, ref, concepts.SWITCHING)
        readings = concepts.ecg_readings(doc) if self._ecgs else []  # read once, for every ECG item
        for phrase, ref in self._ecgs:
            for hit in readings:
                add(hit, phrase, ref, concepts.ECG_READ)
        for phrase, ref, action, steps in self._afters:
            for hit in _after_steps(doc, action, steps):
                add(hit, phrase, ref, AFTER_ITS_STEP)
        for phrase, ref, measure in self._graduals:
            for hit in concepts.gradual_changes(doc, measure):
                add(hit, phrase, ref, concepts.GRADUAL)
        for phrase, ref, measured in self._serials:
            for hit in concepts.serial_measures(doc, measured):
                add(hit, phrase, ref, concepts.SERIAL)
        for phrase, ref, analytes, test_names in self._panels:
            for hit in concepts.panel_results(doc, analytes, test_names):
                if not concepts.one_reading(doc, hit, ref.name, result=True):
                    add(hit, phrase, ref, concepts.PANEL_RESULT)
        for phrase, ref, taken in self._observation_sets:
            for hit in _observations_reported(doc, taken):
                add(hit, phrase, ref, OBSERVATIONS_REPORTED)  # before the single findings: one span
        for phrase, ref, keys, findings in self._exams:
            for hit in _exam_findings(doc, keys, findings):
                add(hit, phrase, ref, EXAM_FINDING)
        for phrase, ref, parts in self._exam_parts:
            for hit in _parts_examined(doc, parts):
                add(hit, phrase, ref, EXAM_PARTS)
        for phrase, ref, signs in self._exam_terms:  # the vocabulary's findings of the examination (tests.yaml)
            for hit in concepts.findings_reported(doc, signs):
                if not asked(doc, hit.first):
                    add(hit, phrase, ref, EXAM_FINDING)
        for phrase, ref, topic in self._assessments:
            for hit in concepts.headed_findings(doc, topic):
                add(hit, phrase, ref, concepts.HEADED_FINDINGS)
        for phrase, ref, nouns in self._procedures:
            for hit in concepts.procedures_reported(doc, nouns):
                add(hit, phrase, ref, concepts.DONE_BY_RESULT)
        for phrase, ref, fluid, tests in self._fluid_tests:
            for hit in concepts.fluid_tests_reported(doc, fluid, tests):
                add(hit, phrase, ref, concepts.FLUID_CONTEXT)
        for phrase, ref, advised in self._counsels:
            for hit in concepts.counselled_under_label(doc, advised):
                add(hit, phrase, ref, concepts.COUNSELLED)
        for phrase, ref, told in self._tellings:
            for hit in concepts.told_under_heading(doc, told):
                add(hit, phrase, ref, concepts.TOLD)
        for phrase, ref, core, windows in self._timed:
            for hit in _written(doc, [core.words]):
                piece = doc.piece_of(hit.first)
                today = tuple(w for w in actions.read_action(doc.quote(piece)).windows
                              if w[0] == 0 and w[1] <= SAME_DAY_HOURS)  # from now: "after 1 hour" is no "now"
                if today and actions.contradiction(actions.ActionReading(windows=today),
                                                  actions.ActionReading(windows=windows)) is None:
                    add(Hit(hit.first, max(hit.last, piece.last)), phrase, ref, TIMED)
        return out

    def withheld_written(self, doc: Document, ref: Ref) -> list[Hit]:
        """Where any name of the treatment a withholding item stops, or of one drug of it, is written."""
        drugs, _ = self._stopped_kinds.get(id(ref), (frozenset(), frozenset()))
        each = _names(tuple(n for d in drugs for n in (d.name, *d.also)))
        return _written(doc, [n for _, r, names in self._withholdings if r is ref for n in names] + each)

    def withholds(self, ref: Ref) -> bool:
        """The item's action is a withholding ("Stop NSAIDs (ibuprofen)"): met by a withholding of its drug
        (``concepts.withheld``), never by the drug named in other words ("ibuprofen can carry on")."""
        return id(ref) in self._withholding_refs

    def declinable(self, ref: Ref) -> bool:
        """A harmful or useless item an answer can decline by naming its drug or class: not one whose
        harm is itself a withholding ("stop prednisolone abruptly", "antibiotics held for the swabs")."""
        return ref.klass not in concepts.CREDIT_CLASSES and not self.withholds(ref)

    def is_safety_net(self, phrase: Phrase) -> bool:
        """The phrase is itself a safety-net instruction ("return if worse"): conditional by nature."""
        return phrase in self._safety_net_phrases

    def is_safety_net_item(self, ref: Ref | None) -> bool:
        """The item is safety-netting advice (a name or alias of it names the concept): any
        phrase of it ("return to the ED") is conditional by nature ("... if he develops fever")."""
        return ref is not None and any(r is ref for _, r in self._safety_nets)

    def names_exam_finding(self, doc: Document, mention: Mention, bare: bool) -> bool:
        """The mention is an alias of an examination item read as a finding of the examination (``tests.yaml``
        ``findings``): the alias is one of its findings, said with a bare negation (``bare``: "no stridor" of
        "Airway assessment"), or it stands inside a longer finding the answer reports ("absent foot pulses" of
        "foot pulses"): the finding is denied or found, the examination done."""
        if mention.ref is None or mention.via is not None:
            return False
        for _, ref, found in self._exam_terms:
            if ref is not mention.ref:
                continue
            if bare and mention.phrase.words in found:
                return True
            if any(h.first <= mention.hit.first and mention.hit.last <= h.last and h != mention.hit
                   for h in concepts.findings_reported(doc, found)):
                return True
        return False

    def is_alternative(self, mention: Mention) -> bool:
        """The mention names one of its item's ``alternatives``, not the item itself."""
        return mention.ref is not None and (id(mention.ref), mention.phrase) in self._alternatives

    def remember(self, key: Hashable, compute: Callable[[], T]) -> T:
        """A result about this reference (the matches of an answer's text), computed
        once: the same answers come back run after run."""
        if key in self._memo:
            return self._memo[key]
        if len(self._memo) >= MEMO_SIZE:
            self._memo.clear()
        value = self._memo[key] = compute()
        return value

    def read_once(self, key: str, compute: Callable[[], T]) -> T:
        """A reading of a whole final (the text extractor's), by the final's content: computed once while it is among
        the last ``READINGS_KEPT``. A system's repeats of a case (at temperature 0) answer it the same way."""
        if key in self._readings:
            self._readings.move_to_end(key)
            return cast(T, self._readings[key])
        value = compute()
        self._readings[key] = value
        if len(self._readings) > READINGS_KEPT:
            self._readings.popitem(last=False)
        return value

    def find_items(self, doc: Document) -> list[Mention]:
        """The mentions of reference items and groups (not of condition phrases)."""
        return [m for m in self.find(doc) if m.ref is not None or m.group is not None]


PREDICATED_DIAGNOSIS = "said as a clause of its organ"
STEM_KEY = 6
"""Letters that make two forms one word ("retinal" and "retina", "detachment" and "detaching")."""
PREDICATE_REACH = 3
SUBJECT_LEADS = frozenset({"the", "his", "her", "their", "a", "left", "right", "i", "we", "think", "suspect",
                           "believe", "feel", "that"})
"""Words before an organ that leave it the subject of its clause (grammar; "I think the retina ...")."""
PREDICATE_VERBS = frozenset({"is", "are", "was", "were", "has", "have", "had"})
PREDICATE_AUX = PREDICATE_VERBS | frozenset({"been", "now", "already", "partly", "partially", "probably", "likely"})
"""Words between the organ and the verb of its diagnosis ("has probably detached"; grammar)."""
QUERIED_CANCER = "a query of cancer on the organ's line"
SEQUENCED = "an order across two steps"
FASTED_FOR_HOURS = "a fast of stated hours"
SHORT_NAME = "the primary diagnosis by a short name"
AFTER_ITS_STEP = "after the step its name puts first"
SAID_AS_PHRASE = frozenset({QUERIED_CANCER, PREDICATED_DIAGNOSIS, SEQUENCED, home.HOME_MANAGEMENT,
                            composite.COMPOSITE_PLAN, home.ROUTINE_MANAGEMENT, concepts.ELIDED_REPEAT, SHORT_NAME,
                            AFTER_ITS_STEP, concepts.COUNSELLED,
                            concepts.DONE_BY_RESULT, concepts.FLUID_CONTEXT, concepts.LEVEL_AFTER_CHANGE})
SHORT_NAME_MIN_LETTERS = 4
GENERIC_DIAGNOSIS_WORDS = (cue_words("diagnosis_generic_words") | cue_words("diagnosis_item_hedges")
                           | cue_words("unlisted_body_sites") | concepts.word_list("anatomy_heads"))


CONDITION_KINDS = frozenset({"condition", "symptom", "finding", "state"})
"""The kinds of vocabulary term a short name of a diagnosis may be (not a drug, a test, a team...)."""
NAME_LINKS = frozenset({"due", "from", "after", "following", "without", "secondary", "caused", "causing", "treated",
                        "most", "likely"})
"""Words that end the part of a diagnosis's name that says the condition ("Torsion *of* the left testis", "Fever
*without* a source ..."): what follows is its site, cause or context (grammar, with the filler words)."""
NAME_PART_RE = re.compile(r"\(([^()]*)\)")


def _name_heads(name: str) -> set[str]:
    """The words of a diagnosis's name that say the condition: of the name without its brackets and of each
    bracket, up to the first comma, filler word or :data:`NAME_LINKS` word ("torsion" of "Torsion of the left
    testis"; "herpes simplex epithelial keratitis" and "dendritic" of "Herpes simplex epithelial (dendritic)
    keratitis, left eye"; "endometritis" of "Puerperal sepsis (postpartum endometritis, suspected ...)")."""
    words: set[str] = set()
    for part in (NAME_PART_RE.sub(" ", name), *NAME_PART_RE.findall(name)):
        for token in tokenize(part.split(",")[0]):
            if token.low in FILLER or token.low in NAME_LINKS:
                break
            words.add(token.norm)
    return words


def _short_names(primary: Ref, others: list[Ref]) -> frozenset[str]:
    """The words of the primary diagnosis's names that name it alone, as an answer that rejects it often does
    ("Torsion is less likely" of testicular torsion, "Herpes is less likely" of herpes simplex keratitis,
    "Endometritis is unlikely" of puerperal sepsis with postpartum endometritis): a word of the part of its name
    that says the condition (:func:`_name_heads`), in more of its names than of any other reference diagnosis's,
    that ends none of theirs (a head they share: "keratitis" of bacterial keratitis too), of
    SHORT_NAME_MIN_LETTERS letters or more, and neither a word that names no condition alone
    (``diagnosis_generic_words``, hedges, body sites and organs) nor a term of the vocabulary of another kind than
    a condition's (a drug, a test: "paracetamol" of paracetamol poisoning)."""
    counts: dict[str, int] = {}
    for phrase in primary.phrases:
        for word in set(phrase.words):
            counts[word] = counts.get(word, 0) + 1
    heads = _name_heads(primary.name)
    names = []
    for word, count in counts.items():
        if word not in heads:
            continue
        if (len(word) < SHORT_NAME_MIN_LETTERS or not word.isalpha() or word in GENERIC_DIAGNOSIS_WORDS
                or any(term.kind not in CONDITION_KINDS for term in read_vocabulary().lookup(word))):
            continue
        if any(phrase.words[-1] == word for ref in others for phrase in ref.phrases):
            continue
        if any(sum(word in phrase.words for phrase in ref.phrases) >= count for ref in others):
            continue
        names.append(word)
    return frozenset(names)
FASTING_WORDS = concepts.word_list("fasting_words")
FASTING_WAIT_WORDS = concepts.word_list("fasting_wait_words")
FASTING_REACH = 3
"""Words a fasting word may stand before the number of its hours by ("fasted for 6 hours"; grammar)."""
HOUR_UNITS = frozenset(w.lower() for u in read_vocabulary().units if u.hours >= 1 for w in u.say)
"""The units of a fast's length (hours, days; ``timing.yaml``)."""
"""Mentions whose words are not the item's: the entity is named by the item's phrase."""
QUERY_HEADS = frozenset(cue_words("query_cancer_words"))
QUERY_ORGAN_WORDS = 2
"""Words a query mark may stand before a cancer word by ("?endometrial Ca", "?L breast ca")."""


def _query_start(doc: Document, k: int) -> int | None:
    """The first token of a query of the cancer word at ``k``: the query mark right before it ("?Ca") or before a
    word or two just before it, nothing else between ("?endometrial Ca"); None when no query mark stands there."""
    text = doc.text
    for first in range(k, max(-1, k - QUERY_ORGAN_WORDS - 1), -1):
        start = doc.tokens[first].start
        if start and text[start - 1] == "?":
            return first
        if first == 0 or text[doc.tokens[first - 1].end : start] != " ":
            return None
    return None
"""Bare words for a cancer that a query ("?Ca") makes the cancer of the organ its line names."""
KEY_WORDS = "key words"
"""The document's words that are no filler, normalised, a typo corrected to the table's word (``find``'s words)."""
WRITTEN_WORDS = "words as written"
"""The document's tokens lower-cased (``Document.lows``)."""
UNORDERED_PASS = "unordered"
LABEL_VERDICT_PASS = "label verdict"
BRACKET_QUALIFIER_PASS = "bracket qualifier"
SEQUENCED_PASS = "sequenced"
FASTED_PASS = "fasted for hours"
QUERIED_PASS = "queried cancer"
ELIDED_REPEAT_PASS = "elided repeat"
MOST_WORDS_PASS = "most words"
PASS_TRIGGERS: dict[str, tuple[str, Callable[[ReferenceTable], Iterable[str]]]] = {
    # a multi-word phrase is met out of order, as a label and its verdict, or with its first word in a bracket after
    # the rest only where one of its words is said (each pass reads only phrases indexed by a word the answer says)
    UNORDERED_PASS: (KEY_WORDS, lambda t: t._unordered_by_word),
    LABEL_VERDICT_PASS: (KEY_WORDS, lambda t: t._unordered_by_word),
    BRACKET_QUALIFIER_PASS: (KEY_WORDS, lambda t: t._unordered_by_word),
    # an order across two steps holds every word of both its parts
    SEQUENCED_PASS: (KEY_WORDS, lambda t: (w for _, _, first, then in t._sequences for w in first | then)),
    # a fast of stated hours opens with a word of fasting (nothing when no harmful delay waits for one)
    FASTED_PASS: (WRITTEN_WORDS, lambda t: FASTING_WORDS if t._fasting_waits else ()),
    # a query of cancer is a bare cancer word (nothing when no diagnosis has an organ's cancer to query)
    QUERIED_PASS: (WRITTEN_WORDS, lambda t: QUERY_HEADS if t._queried else ()),
    # an elided repeat is a piece that opens with a word of repeating (nothing when no drug may be repeated)
    ELIDED_REPEAT_PASS: (WRITTEN_WORDS, lambda t: concepts.ELIDED_REPEAT_WORDS if t._repeats else ()),
    # all but one word of a credited item's name: at least one of them
    MOST_WORDS_PASS: (KEY_WORDS, lambda t: t._most_words_by_word),
}
"""The passes of ``ReferenceTable.find`` that cannot find anything in a document that says none of their words
(``KEY_WORDS`` or ``WRITTEN_WORDS``, drawn from the case's table): such a document skips them (issue 41: an
answer's short entry, read alone, asked every pass). The passes not named run on every document."""

DECLINED_ACTION = "its action word declined"
DECLINED_ACTIONS = frozenset(cue_words("declined_actions"))
"""Actions an answer may decline by the verb alone, its object understood ("do not aspirate", "not for discharge")."""
DECLINED_BETWEEN = frozenset({"for", "to", "be"})
"""Words between a negation and the action word it declines ("not for discharge", "not to be aspirated")."""
DECLINED_OBJECTS = frozenset({"it", "them", "this", "that", "these", "those", "her", "him", "in", "at", "here",
                              "there", "to", "until", "till", "now", "today", "tonight", "tomorrow", "for", "on",
                              "before", "yet"})
"""Words that may follow an action word declined alone: a pronoun for its object, or a place or time."""
ACTION_STEM_MIN = 4


def _said_as_clause(doc: Document, organ: str, state: str, subjects: list[int], taken: set[int]) -> list[Hit]:
    """Where the document says "<organ> is/has <state>" (words by their first letters), the organ its clause's
    subject, on no item's words (``taken``); ``subjects`` are the words, on no item's, that such a verb follows."""
    out: list[Hit] = []
    low = doc.lows
    for i in subjects:
        if not doc.tokens[i].norm.startswith(organ):
            continue
        if not _opens_clause(doc, i):
            continue
        j = i + 1
        while j < len(low) and j - i <= PREDICATE_REACH and low[j] in PREDICATE_AUX:
            j += 1
        if j < len(low) and doc.clause[j] == doc.clause[i] and j not in taken and doc.tokens[j].norm.startswith(state):
            out.append(Hit(i, j))
    return out


def _opens_clause(doc: Document, i: int) -> bool:
    """Token ``i`` opens its clause but for leading words ("I think the left retina ...", "... and the lung ...")."""
    j = i - 1
    while j >= 0 and doc.clause[j] == doc.clause[i] and not doc.comma_before[j + 1]:
        if doc.lows[j] in cues.CLAUSE_WORDS or doc.lows[j] in cues.LINKS:
            return True
        if doc.lows[j] not in SUBJECT_LEADS:
            return False
        j -= 1
    return True


@batch_cache(maxsize=4096)
def _both_ways(words: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """The organ and the word of its state in a two-word name, either way round ("retinal detachment", "collapsed
    lung"), by their first letters."""
    a, b = (w[:STEM_KEY] for w in words)
    return ((a, b), (b, a))

def _same_action(verb: str, word: str) -> bool:
    """``word`` is a form of the action ``verb`` ("aspirate": "aspirating", "aspiration"; "drain": "drainage")."""
    stem = verb[:-1] if verb.endswith("e") else verb
    return len(stem) >= ACTION_STEM_MIN and word.startswith(stem)


_DECLINED_STEMS = tuple(sorted(stem for stem in (verb[:-1] if verb.endswith("e") else verb for verb in DECLINED_ACTIONS)
                               if len(stem) >= ACTION_STEM_MIN))
"""The stems :func:`_same_action` reads a word of ``DECLINED_ACTIONS`` by: one ``startswith`` asks them all."""


def _action_heads(ref: Ref) -> frozenset[str]:
    """The actions of ``declined_actions`` a harmful item's words hold ("Needle aspiration ...": aspirate)."""
    words = {w for phrase in ref.phrases for w in phrase.words}
    return frozenset(verb for verb in DECLINED_ACTIONS if any(_same_action(verb, w) for w in words))


def _declined_alone(doc: Document, k: int) -> bool:
    """The action word at token ``k`` is declined with no object of its own: a negation right before it (over
    "for", "to", "be" or an action verb: "do not advise waiting"), and after it the end of its piece, a pronoun,
    or a place or time ("do not aspirate in the surgery")."""
    low = doc.lows
    j = k - 1
    while j >= 0 and k - j <= 2 and doc.clause[j] == doc.clause[k] and (
            low[j] in DECLINED_BETWEEN or low[j] in cues.ACTION_VERBS):
        j -= 1
    if j < 0 or doc.clause[j] != doc.clause[k] or doc.comma_before[j + 1]:
        return False
    if cues.NEGATION_BEFORE.ending_at(low, j) is None:
        return False
    piece = doc.piece_of(k)
    return k == piece.last or low[k + 1] in DECLINED_OBJECTS


ORDER_WORDS = frozenset(cue_words("order_words"))
DECISION_RULE_WORDS = frozenset(cue_words("decision_rule_words"))
CONDITION_AFTER_TEST_WORDS = frozenset(cue_words("condition_after_test_words"))


def names_a_rule(doc: Document, last: int) -> bool:
    """A test or treatment named as part of a decision rule or its limits ("Canadian CT Head Rule",
    "outside the tPA window"): no mention of it, so other words of the answer may still decline it."""
    k = last + 1
    while k < len(doc.tokens) and doc.tokens[k].start == doc.tokens[last].start:
        k += 1  # past the rest of an expanded abbreviation
    return k < len(doc.tokens) and doc.clause[k] == doc.clause[last] and doc.lows[k] in DECISION_RULE_WORDS


def names_a_condition(doc: Document, last: int) -> bool:
    """A test's or analyte's short name that is the first part of a condition's name: a word of
    ``condition_after_test_words`` after it ("B12 deficiency") or a word joined to it by a hyphen ("STEC-HUS").
    Asked under a differential heading, where the entry is the condition, never the test (issue 32)."""
    k = last + 1
    while k < len(doc.tokens) and doc.tokens[k].start == doc.tokens[last].start:
        k += 1  # past the rest of an expanded abbreviation
    if k >= len(doc.tokens) or doc.clause[k] != doc.clause[last]:
        return False
    return doc.lows[k] in CONDITION_AFTER_TEST_WORDS or doc.text[doc.tokens[last].end : doc.tokens[k].start] == "-"


def _held(index: dict[str, list[int]], where: dict[str, list[int]]) -> dict[int, int]:
    """How many of each indexed phrase's words (``index``: word -> phrases) the answer's words hold."""
    held: dict[int, int] = {}
    for word in index.keys() & where.keys():  # only the words some phrase has, found at C speed
        for i in index[word]:
            held[i] = held.get(i, 0) + 1
    return held


COMPARISON_WORDS = cue_words("condition_above") | cue_words("condition_below")


def _keeps_order(phrase: Phrase, picked: list[int]) -> bool:
    """Words on either side of an order word keep their side: "psychosocial assessment before
    discharge" is not "discharge before psychosocial assessment", whatever the other words' order; and a
    comparison keeps its number ("chloride above 100 and bicarbonate below 28" is not "chloride below 100 and
    bicarbonate above 28")."""
    for i, word in enumerate(phrase.words):
        if word in ORDER_WORDS:
            at = picked[i]
            if any(p > at for p in picked[:i]) or any(p < at for p in picked[i + 1 :]):
                return False
        if word in COMPARISON_WORDS and phrase.words[i + 1 : i + 2] and phrase.words[i + 1][:1].isdigit() \
                and picked[i + 1] != picked[i] + 1:
            return False
    return all(picked[i + 1] == picked[i] + 1 for i in _time_pairs(phrase.words))


@batch_cache(maxsize=4096)
def _time_pairs(words: tuple[str, ...]) -> tuple[int, ...]:
    """Where two words of a phrase say a time together that neither says alone ("next week"): the pair keeps
    its order and stays together, so "this week's methotrexate dose and restart next Monday" is no "restart
    methotrexate next week"."""
    return tuple(i for i in range(len(words) - 1)
                 if timing_of(" ".join(words[i : i + 2])) and not timing_of(words[i]) and not timing_of(words[i + 1]))


def _close_together(doc: Document, keys: list[int], where: dict[str, list[int]], part: Phrase, reach: int
                    ) -> Hit | None:
    """Where every word of ``part`` stands in one clause within ``reach`` words, in no order a list breaks."""
    for anchor in where[part.words[0]]:
        picked = _pick(doc, keys, where, part, anchor, False)
        if picked is None or max(picked) - min(picked) >= reach or not _keeps_order(part, picked):
            continue
        first, last = keys[min(picked)], keys[max(picked)]
        if not _crosses_a_list(doc, first, last, part, {keys[p] for p in picked}):
            return Hit(first, last)
    return None


def _pick(
    doc: Document, keys: list[int], where: dict[str, list[int]], phrase: Phrase, anchor: int, forward: bool
) -> list[int] | None:
    """The positions of a phrase's words around the position of its first word, each the nearest one
    in reach and in its clause (``forward``: the nearest after it, tried first, so that "score the stroke
    risk and check his bleeding risk" gives the second "risk" to "check bleeding risk"); None when one is
    missing."""
    reach = len(phrase.words) + UNORDERED_SLACK
    clause = doc.clause
    home = clause[keys[anchor]]
    low = anchor + 1 if forward else anchor - reach + 1
    picked = [anchor]
    for word in phrase.words[1:]:
        positions = where[word]  # in order: only those in reach are looked at (a long answer repeats words)
        best = -1
        distance = 0
        for p in positions[bisect_left(positions, low) : bisect_left(positions, anchor + reach)]:
            if p not in picked and clause[keys[p]] == home and (best < 0 or abs(p - anchor) < distance):
                best, distance = p, abs(p - anchor)  # the nearest; the first of two as near
        if best < 0:
            return None
        picked.append(best)
    return picked


SPECIMEN_WORDS = cues.word_list("specimen_urine") | cues.word_list("specimen_blood")
TEST_WORDS = cues.word_list("unlisted_test_words")


def _another_test_of_specimen(doc: Document, phrase: Phrase, first: int, last: int, picked: set[int]) -> bool:
    """A phrase "<specimen> <test>" written apart around words of the answer's own that make one name with
    it ("urine test" in "urine pregnancy test", "blood test" in "blood glucose test"): they name what the
    specimen is tested for, another test than the phrase's. A function word or verb between ("urine sent for
    culture") keeps the phrase's own test."""
    between = [doc.lows[k] for k in range(first + 1, last) if k not in picked]
    return (len(phrase.words) == 2 and phrase.words[0] in SPECIMEN_WORDS and phrase.words[-1] in TEST_WORDS
            and doc.lows[first] == phrase.words[0] and bool(between)
            and all(w not in FILLER and w not in PLAN_VERBS for w in between))


def _crosses_a_list(doc: Document, first: int, last: int, phrase: Phrase, picked: set[int]) -> bool:
    """Tokens ``first..last`` hold two items of a list: a comma or bracket between them, or
    an "and"/"or" that is not the phrase's own, unless it joins one word to the phrase
    ("HIV and syphilis testing" is HIV testing; "check FBC and repeat in 48 hours")."""
    tokens = doc.tokens
    spans = {tokens[k].start for k in picked}
    picked = {k for k in range(first, last + 1) if tokens[k].start in spans}  # all words of an abbreviation
    if any(doc.lows[k] in SPAN_NEGATIONS for k in range(first, last + 1) if k not in picked):
        return True  # "lamotrigine has no role in acute mania" is no mention of "lamotrigine for acute mania"
    if "," in phrase.text and all(k in picked or doc.lows[k] in SPAN_LINKS or tokens[k].norm in FILLER
                                  for k in range(first, last + 1)):
        return False  # a phrase that is a list itself ("potassium, phosphate and magnesium"), its words listed
    before = _list_breaks(doc)
    breaks = [k for k in range(first + 1, last + 1) if before[k]]
    if breaks and set(breaks) - _glossed(doc, first, last):  # glosses read only where a break is
        return True
    own = phrase.own_words
    links = [k for k in range(first + 1, last) if doc.lows[k] in SPAN_LINKS and doc.lows[k] not in own]
    if not links:
        return False
    if any(doc.lows[k + 1] in PLAN_VERBS and k + 1 not in picked for k in links):
        return True  # two actions joined: "oral antibiotics and discharge home" is no "oral antibiotics at home"
    others = [k for k in range(first, last + 1) if k not in picked and tokens[k].norm not in FILLER]
    return len(links) > 1 or len(others) > 2


SEQUENCE_OPENERS = cues.cue_list("sequence_openers")
ORDER_BEFORE, ORDER_AFTER = "before", "after"


def _ordered_parts(phrase: Phrase) -> tuple[frozenset[str], frozenset[str]] | None:
    """The words done first and those done after in a phrase of one order word ("visual acuity before
    irrigation", "irrigation after visual acuity"), or None."""
    at = [i for i, word in enumerate(phrase.words) if word in (ORDER_BEFORE, ORDER_AFTER)]
    if len(at) != 1:
        return None
    left, right = frozenset(phrase.words[: at[0]]), frozenset(phrase.words[at[0] + 1 :])
    if not left or not right:
        return None
    return (left, right) if phrase.words[at[0]] == ORDER_BEFORE else (right, left)


SEQUENCE_ARROWS = ("->", "\u2192", "=>")
"""An arrow between two steps of a line says the one after it comes later ("MRI -> LP"): grammar."""


def _after_parts(phrase: Phrase) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]] | None:
    """A name of one order word that puts a step first ("LP with opening pressure after imaging"): the words of the
    action (its key words), and the names of the step before it, each as key words: the step's own words, and,
    where the vocabulary knows it, every name of it and of each kind of it ("imaging": CT, MRI, ultrasound...)."""
    parts = _ORDER_RE.split(phrase.text)
    if len(parts) != 3 or parts[1].lower() != ORDER_AFTER:
        return None
    action = make_phrase(parts[0])
    step = make_phrase(parts[2])
    if action is None or step is None or len(action.words) < 2:
        return None
    vocabulary = read_vocabulary()
    terms = set(vocabulary.lookup(parts[2].strip()))
    kinds = {t for t in vocabulary.terms if terms & vocabulary.broader(t)}
    names = {step.words} | {p.words for t in terms | kinds for n in t.names if (p := make_phrase(n)) is not None}
    return action.words, tuple(sorted(names))


def _after_steps(doc: Document, action: tuple[str, ...], steps: tuple[tuple[str, ...], ...]) -> list[Hit]:
    """Where the answer gives ``action`` after one of ``steps`` on its line: the step, then a word of sequence
    (``sequence_openers``: "then") or an arrow, then the action ("MRI+MRV then LP (OP)", "CT head -> LP"). The hit
    is the action's words."""
    out: list[Hit] = []
    done = _written(doc, list(steps))
    for hit in _written(doc, [action]):
        start = doc.tokens[hit.first].start
        line = doc.text.rfind("\n", 0, start) + 1
        for step in done:
            if doc.tokens[step.first].start < line or step.last >= hit.first:
                continue
            between = range(step.last + 1, hit.first)
            gap = doc.text[doc.tokens[step.last].end : start]
            if any(a in gap for a in SEQUENCE_ARROWS) or any(
                    SEQUENCE_OPENERS.starting_at(doc.lows, k) is not None for k in between):
                out.append(hit)
                break
    return out


def _sequence_steps(doc: Document) -> list[tuple[Hit, int]]:
    """Each clause that opens with a word of sequence ("Then irrigate"), as the piece after that word, with
    the step before it: the clause before, past a list number that is a clause of its own ("2.")."""
    out: list[tuple[Hit, int]] = []
    clause = doc.clause
    for k in range(1, len(doc.tokens)):
        opener = SEQUENCE_OPENERS.starting_at(doc.lows, k) if clause[k] != clause[k - 1] else None
        after = k + len(opener) if opener is not None else len(doc.tokens)
        if after >= len(doc.tokens) or clause[after] != clause[k]:
            continue
        j = k - 1
        if j > 0 and clause[j - 1] != clause[j] and doc.lows[j].isdigit():
            j -= 1
        out.append((doc.piece_of(after), clause[j]))
    return out


def _done_later(m: Mention, sequenced: list[Mention]) -> bool:
    """An item of the moment ("Immediate irrigation") said in a step the answer puts after another, as a harmful
    order item (``_sequenced``): it is not done at once."""
    if m.ref is None or m.ref.klass not in concepts.CREDIT_CLASSES or not m.ref.reading.windows:
        return False
    immediate = max(w[1] for w in m.ref.reading.windows) <= IMMEDIATE_HOURS
    return immediate and any(s.hit.first <= m.hit.last and m.hit.first <= s.hit.last for s in sequenced)


def _list_breaks(doc: Document) -> list[bool]:
    """Whether a comma or bracket (not a number's thousands comma) stands before each token: read once per
    document, as every unordered match asks it of each gap it spans."""
    known = doc.found.get("list breaks")
    if known is None:
        tokens = doc.tokens
        known = [k > 0 and LIST_BREAK_RE.search(doc.text, tokens[k - 1].end, max(tokens[k].start, tokens[k - 1].end))
                 is not None and not _thousands(doc, k) for k in range(len(tokens))]
        doc.found["list breaks"] = known
    return known


def _glossed(doc: Document, first: int, last: int) -> set[int]:
    """The tokens in ``first..last`` that open or follow a bracket holding only a drug's other name
    ("Soluble insulin (Actrapid) 10 units") or its strength ("glucose (5%)"): a gloss of the word
    before it, no list break."""
    out: set[int] = set()
    text = doc.text
    for k in range(first + 1, last + 1):
        gap = text[doc.tokens[k - 1].end : doc.tokens[k].start]
        if "(" not in gap:
            continue
        close = text.find(")", doc.tokens[k].start)
        inside = [j for j in range(k, last + 1) if doc.tokens[j].start < close]
        if close < 0 or not inside:
            continue
        inner = text[doc.tokens[k].start : close]
        said = actions.read_action(inner)
        if (said.drugs and said.covered >= 1.0 and not (said.teams or said.classes)) or STRENGTH_RE.fullmatch(inner):
            out.update((k, inside[-1] + 1))
    return out


def _thousands(doc: Document, k: int) -> bool:
    """The comma before token ``k`` separates the thousands of a number ("hCG 4,150 IU/L")."""
    tokens = doc.tokens
    return doc.text[tokens[k - 1].end : tokens[k].start] == "," and doc.lows[k - 1].isdigit() and doc.lows[k].isdigit()


def _inside_expansion(tokens: list[Token], first: int, last: int) -> bool:
    """Tokens ``first..last`` are only part of the words one abbreviation stands for."""
    return (first > 0 and tokens[first - 1].start == tokens[first].start) or (
        last + 1 < len(tokens) and tokens[last + 1].start == tokens[last].start
    )


MOST_WORDS_RULE = "all but one word of its name"
TURNING_WORDS = frozenset(
    said[0].norm for w in (*concepts.SWITCH_WORDS, *(p[0] for p in cues.NEGATION_BEFORE.phrases if len(p) == 1))
    if len(said := tokenize(w)) == 1
)
"""Words an item's action turns on, never the one word left out ("Switch from the combined pill to a non-oestrogen
contraceptive" is not "on COCP", nor "Stop ..." the drug named): a switch (``switch_words``) or a one-word withholding
(``negation_before``)."""
"""How a match by most of an item's words is named on the scorecard."""


def _same_kind(taken: Mention, other: Mention) -> bool:
    """Whether ``taken`` is a mention of the same kind of item as ``other`` (a test, a treatment or
    a diagnosis; a treatment group counts as a treatment): words one test took are not another test's,
    but a plan to repeat the tests ("repeat INR, ALT and creatinine") may hold their names."""
    kind = other.ref.kind if other.ref is not None else None
    if taken.ref is not None:
        return taken.ref.kind == kind
    return taken.group is not None and kind == "treatment"


def _runs(piece: Hit, taken: set[int]) -> list[Hit]:
    """The stretches of a piece that no item mention covers."""
    out: list[Hit] = []
    start: int | None = None
    for k in range(piece.first, piece.last + 2):
        free = k <= piece.last and k not in taken
        if free and start is None:
            start = k
        elif not free and start is not None:
            out.append(Hit(start, k - 1))
            start = None
    return out


PURPOSE_LEADS = frozenset({"for"})
"""The grammar word between an action and what it is for ("axillary block *for* pain relief")."""


def _a_purpose(doc: Document, run: Hit, reading: actions.ActionReading, taken: set[int]) -> bool:
    """The run names only a class of treatment ("pain relief", "analgesia") and is what another item's action just
    before it is for ("axillary block for pain relief"): a purpose, not a treatment of its own."""
    lead = run.first - 1
    return (not reading.drugs and not reading.teams and not reading.acts and bool(reading.classes)
            and lead > 0 and doc.lows[lead] in PURPOSE_LEADS and lead - 1 in taken
            and doc.clause[lead - 1] == doc.clause[run.first])


TEAM_COORDINATORS = frozenset({"+", "&", "/", "and"})
"""The marks and word that join two teams named for one action in a terse plan ("Renal + ITU now"; grammar)."""
INVOLVEMENT_REASON_LEADS = frozenset({"for", "re", "regarding", "about"})
"""The words after a team that opens a plan line and before what it is involved for ("Renal for HD", "Renal re
RRT"; grammar)."""
LABEL_ENDS = (":", "-", "\u2013", "\u2014")
"""A mark right after a plan line's first word that makes it the label of a systems plan ("Renal: strict FB",
"Renal - daily U&E"), not a team (grammar)."""


def _team_involved(doc: Document, run: Hit, reading: actions.ActionReading) -> bool:
    """A team named alone in a terse plan, without a word of referral or review, is that team's involvement (so
    its time and the item's are compared as any referral's): when it is joined to another team ("Renal + ITU
    now", "Cardiology/endocarditis team + micro today", "ITU + renal"), or when it opens a plan line before
    what it is involved for ("- Renal for HD", "- Renal re RRT"). Not a team word that qualifies a thing
    ("renal USS", "renal function"), nor a systems plan's label ("Renal: strict FB")."""
    if not reading.teams or reading.drugs or reading.classes or reading.routes:
        return False
    head = _to_last_term(doc, run, reading)
    named = actions.read_action(doc.quote(head))
    if named.covered < 1.0 or not named.teams or named.drugs or named.classes or named.routes:
        return False
    if doc.text[doc.tokens[head.last].end:].lstrip(" \t").startswith(LABEL_ENDS):
        return False
    piece = doc.piece_of(run.first)
    joined = len(named.teams) > 1 or _joined_before(doc, head.first, piece)
    after = head.last + 1
    if after > piece.last:
        return joined
    if doc.lows[after] in INVOLVEMENT_REASON_LEADS:
        return joined or _opens_line(doc, head.first)
    return _joined_after(doc, head.last, piece)  # else it qualifies what follows ("renal USS")


def _joined_after(doc: Document, last: int, piece: Hit) -> bool:
    """The words after token ``last`` join another team to it ("+ ITU", "and ITU", "/micro")."""
    nxt = last + 1
    if nxt > piece.last:
        return False
    if doc.lows[nxt] in TEAM_COORDINATORS:
        nxt += 1
    elif doc.text[doc.tokens[last].end:doc.tokens[nxt].start].strip() not in TEAM_COORDINATORS:
        return False
    return nxt <= piece.last and bool(actions.read_action(doc.quote(Hit(nxt, min(nxt + 2, piece.last)))).teams)


def _joined_before(doc: Document, first: int, piece: Hit) -> bool:
    """The words before token ``first`` join another team to it ("ITU + ", "ITU and ")."""
    prev = first - 1
    if prev < piece.first:
        return False
    if doc.lows[prev] in TEAM_COORDINATORS:
        prev -= 1
    elif doc.text[doc.tokens[prev].end:doc.tokens[first].start].strip() not in TEAM_COORDINATORS:
        return False
    return prev >= piece.first and bool(actions.read_action(doc.quote(Hit(max(prev - 2, piece.first), prev))).teams)


def _opens_line(doc: Document, first: int) -> bool:
    """Token ``first`` is the first word of its line, after a bullet at most."""
    start = doc.tokens[first].start
    line = doc.text[doc.text.rfind("\n", 0, start) + 1:start]
    return not line.strip() or bool(BULLET_RE.fullmatch(line.rstrip() + " "))
def _group_drug_by_route(doc: Document, m: Mention, routed: list[Ref]) -> list[Mention]:
    """A drug named as a member of a treatment group ("Co-amoxiclav") with a route later in its piece ("625 mg
    orally three times daily"): the drug by that route, read as an action, meets a harmful item of a route
    ("Oral antibiotics instead of IV") that its name alone, with no route said, does not (``actions.py``)."""
    if m.ref is not None or m.group is None:  # a treatment group's member
        return []
    piece = doc.piece_of(m.hit.first)
    whole = Hit(m.hit.first, piece.last)
    reading = actions.read_action(doc.quote(whole))
    if not reading.routes or not reading.drugs:
        return []
    run = _to_last_term(doc, whole, reading)
    if cues.negation(doc, run.first, run.last) is not None:
        return []
    out = []
    for ref in routed:
        rule = actions.first_rule(reading, ref.readings, False)
        if rule is not None:
            out.append(Mention(run, rule.score, ref.phrases[0], ref, None, rule=rule.name))
    return out


LABEL_VERDICT_WORDS = 4
"""How many words after a label's colon its verdict may name a phrase's other words in ("can continue")."""
LABEL_OBJECT_WORDS = 3
"""The most words of a label whose verdict is read with it: the thing the verdict is about ("Breastfeeding:",
"Low-dose aspirin:"); a longer label is a clause of its own ("Phenylephrine if detumescence is not achieved:")."""


def _opens_its_line(doc: Document, first: int) -> bool:
    """Token ``first`` opens its line, bullets, numbers and emphasis marks aside ("- **Breastfeeding:**")."""
    start = doc.text.rfind("\n", 0, doc.tokens[first].start) + 1
    return not doc.text[start : doc.tokens[first].start].strip(" \t*_#-+\u2022").rstrip(".)0123456789")


def _from_first_term(doc: Document, run: Hit, reading: actions.ActionReading) -> Hit:
    """The run from its first word that changes what it reads (a team, drug, class, route, time or
    action word: "phoned the spinal reg" keeps "phoned"): words before it (the dose of the drug named
    before the run, "while on") are its context, read by the cues as they are before any mention
    ("Lansoprazole 30 mg OD while on antiplatelets" gives no antiplatelet)."""
    named = (reading.teams, reading.drugs, reading.classes, reading.routes, reading.windows, reading.acts)
    first = run.first
    while first < run.last:
        rest = actions.read_action(doc.quote(Hit(first + 1, run.last)))
        if (rest.teams, rest.drugs, rest.classes, rest.routes, rest.windows, rest.acts) != named:
            break
        first += 1
    if first > run.first and _count_word(doc.lows[first - 1]) is not None:
        first -= 1  # "one Jext pen": the count is the thing's own (``_count_said``)
    return Hit(first, run.last)


def _to_last_term(doc: Document, run: Hit, reading: actions.ActionReading) -> Hit:
    """The run up to its last word that changes what it reads: words after it are its context, read by
    the cues as they are after any mention ("Abx not needed" declines antibiotics)."""
    named = (reading.teams, reading.drugs, reading.classes, reading.routes, reading.windows, reading.acts)
    last = run.last
    while last > run.first:
        rest = actions.read_action(doc.quote(Hit(run.first, last - 1)))
        if (rest.teams, rest.drugs, rest.classes, rest.routes, rest.windows, rest.acts) != named:
            break
        last -= 1
    return Hit(run.first, last)


def _context(doc: Document, hit: Hit, named: set[int], reading: actions.ActionReading | None = None
             ) -> actions.ActionReading:
    """What the answer says around a hit: its piece's reading (or ``reading``), with the timing and
    routes of the pieces of its clause that name no item (tokens ``named``), drug or team, when the piece gives
    none ("refer to ophthalmology, next week"); another action's timing and route are that action's ("salb
    nebs" beside insulin)."""
    piece = doc.piece_of(hit.first)
    own = reading if reading is not None else actions.read_action(doc.quote(piece))
    if own.windows and own.routes:
        return own
    if reading is not None and piece != hit:  # a run of the piece: its piece's timing is its own
        whole = actions.read_action(doc.quote(piece))  # ("hydrocortisone IV once the cortisol result is back")
        own = replace(own, windows=own.windows or whole.windows, routes=own.routes or whole.routes)
        if own.windows and own.routes:
            return own
    free = [p for p in doc.pieces_of_clause(doc.clause_of(hit.first)) if p != piece
            and not any(k in named for k in range(p.first, p.last + 1))]
    around = [r for r in (actions.read_action(doc.quote(p)) for p in free)
              if not (r.drugs or r.classes or r.teams)]  # "insulin/dex stat, salb nebs": the nebuliser is salb's
    windows = own.windows or tuple(w for r in around for w in r.windows)
    if not windows:  # "FBC, film and clotting: routine sample tomorrow morning": the time after a list's colon
        windows = actions.read_action(_after_list_colon(doc, hit)).windows  # times the list
    lead = actions.read_action(periods.list_label(doc.text, doc.tokens[hit.first].start)).windows
    if not windows or (lead and min(w[0] for w in lead) > 0):  # "At the assessment unit tomorrow:" over its bullets
        windows = lead or windows  # times each of them: "admit" there is tomorrow's admission
    routes = own.routes or frozenset(t for r in around for t in r.routes)
    return own if windows == own.windows and routes == own.routes else replace(own, windows=windows, routes=routes)


LIST_COLON_BREAKS = ".;?!()[]"
"""Grammar: marks between a hit and a colon after it on its line that end the list the colon closes."""


def _after_list_colon(doc: Document, hit: Hit) -> str:
    """What follows the colon that closes the list holding the hit ("FBC, film and clotting: routine sample at the
    practice tomorrow morning"), to the line's end: it is said of every entry of the list; "" when no such colon
    follows the hit on its line."""
    end = doc.tokens[hit.last].end
    line_end = doc.text.find("\n", end)
    line_end = len(doc.text) if line_end < 0 else line_end
    colon = doc.text.find(":", end, line_end)
    if colon < 0 or any(c in LIST_COLON_BREAKS for c in doc.text[end:colon]):
        return ""
    return doc.text[colon + 1 : line_end]


def _swallows(m: Mention, exact: dict[int, list[Mention]]) -> bool:
    """An unordered match that holds an exact mention of its own item and one of another item gives
    way: the exact one says the item in fewer words, and the words around it are the other's ("Admit under
    gastroenterology for OGD within 24 hours": "OGD within 24 hours" is the endoscopy, and the
    admission its own item, not words gathered into one long match of the endoscopy). Asked of unordered
    matches only."""
    inside = [e for k in range(m.hit.first, m.hit.last + 1) for e in exact.get(k, ()) if e.hit.last <= m.hit.last]
    return any(e.ref is m.ref for e in inside) and any(e.ref is not m.ref for e in inside)


def _says_every_word(m: Mention) -> bool:
    """The mention's phrase takes every word of its span ("IV maintenance fluids" of "Maintenance intravenous
    fluids"), none left out between its words."""
    return m.length == m.hit.last - m.hit.first + 1


def _resolve_overlaps(found: list[Mention]) -> list[Mention]:
    """Among item and group mentions the longest wins (same words: all kept, once per
    item or group, unless one of them leaves out a word between its words that another says: that
    word makes it the other's); the phrases of critical conditions are kept apart, each on its own."""
    phrases_only = [m for m in found if m.ref is None and m.group is None]
    found = [m for m in found if m.ref is not None or m.group is not None]
    exact: dict[int, list[Mention]] = {}  # by their first token
    for m in found:
        if m.score >= MATCH_SCORE_EXACT and m.ref is not None:
            exact.setdefault(m.hit.first, []).append(m)
    found = [m for m in found if m.score != MATCH_SCORE_UNORDERED or not _swallows(m, exact)]
    found.sort(key=lambda m: (-m.length, -m.score, m.hit.first))
    kept: list[Mention] = []
    taken: set[int] = set()
    at_hit: dict[Hit, list[Mention]] = {}  # the mentions kept, by their words (a long answer has many)
    for mention in found:
        span = range(mention.hit.first, mention.hit.last + 1)
        same_words = at_hit.get(mention.hit)
        if any(i in taken for i in span):
            if same_words and any(_says_every_word(k) and k.length > mention.length for k in same_words):
                continue  # "IV maintenance fluids" is the maintenance item; "IV fluids" skips its word in between
            if same_words and not any(k.ref is mention.ref and k.group is mention.group for k in same_words):
                kept.append(mention)  # the same words, another item ("CURB-65" and "CURB65" of one item: once)
                same_words.append(mention)
            continue
        kept.append(mention)
        at_hit.setdefault(mention.hit, []).append(mention)
        taken.update(span)
    kept += phrases_only
    kept.sort(key=lambda m: m.hit.first)
    return kept


def _condition_entries(entries: list[str], items: list[Ref]) -> tuple[list[Ref], list[Phrase]]:
    """A condition's entries: those naming a workup or treatment item stand for that item
    (with its aliases); the rest are phrases searched for as written."""
    refs: list[Ref] = []
    phrases: list[Phrase] = []
    for entry in entries:
        named = _names_item(entry, items)
        refs.extend(r for r in named if r not in refs)
        if not named:
            phrases.extend(_phrases(entry))
    return refs, phrases


def _names_item(entry: str, refs: list[Ref]) -> list[Ref]:
    """The workup/treatment items that a condition entry names (by name or alias)."""
    phrase = make_phrase(entry)
    if phrase is None:
        return []
    return [r for r in refs if any(p.words == phrase.words for p in r.phrases)]


def _alias_readings(name: str, aliases: list[str], within: str | None, route: str | None, target: str | None
                    ) -> tuple[actions.ActionReading, ...]:
    """The aliases that give one drug or a team with their own time ("febuxostat now"), read as actions
    with the item's route: an answer that gives the drug at that time in other words ("Start febuxostat
    80 mg daily today") is the item. A bare name alias is matched by its words only; an item with a
    ``target`` is about it whatever its aliases say, and so is an item with its own ``within`` that names a
    team or a drug. One with a ``within`` whose name names neither ("Same-day referral for emergency specialist
    assessment") is met by a contact of each team its aliases name with their time ("on-call neurology
    today"), at a time meeting its ``within`` (each reading keeps the item's window)."""
    if target is not None:
        return ()
    windows: tuple[Window, ...] = ()
    if within is not None:
        own = actions.item_reading_of(name, within=within, route=route)
        if own.teams or own.drugs or own.classes or not own.windows:
            return ()
        windows = own.windows
    out: list[actions.ActionReading] = []
    for alias in aliases:
        reading = actions.item_reading_of(alias, route=route)
        if windows and not reading.about_team():
            continue  # a drug's alias of a referral's item is no other action of it
        if windows:
            reading = replace(reading, windows=windows)
        if reading.windows and (reading.about_drug() or reading.about_team()) and reading not in out:
            out.append(reading)  # not a class: "stat insulin" is a bolus, not any insulin given now
    return tuple(out)


def _alternative_readings(alternatives: list[str]) -> tuple[actions.ActionReading, ...]:
    """The item's alternatives that are one drug ("IV phenytoin 20 mg/kg"), read as actions: the drug given at
    another dose ("phenytoin 18 mg/kg IV") is still the alternative, as it is the item's own drug."""
    out: list[actions.ActionReading] = []
    for alternative in alternatives:
        reading = actions.item_reading_of(alternative)
        if reading.about_drug() and reading not in out:
            out.append(reading)
    return tuple(out)


ELIDED_REPEAT_FOLLOWERS = frozenset({"once", "twice", "at", "in", "after", "if", "every", "dose", "x1", "x2",
                                     "when", "until", "unless", "as", "stat", "now"})
"""Grammar: words that may follow a repeat whose drug is left out ("repeat once at 10 minutes", "repeat in 5 min",
"repeat if still fitting"); any other word is the repeat's own object ("repeat the gas")."""
_NUMBER_START = re.compile(r"\d")


def _repeated_drugs(words: tuple[str, ...]) -> frozenset[Term]:
    """The one drug a short name of a repeat says ("repeat lorazepam", "lorazepam repeated"), or none."""
    rest = [w for w in words if w not in concepts.ELIDED_REPEAT_WORDS]
    if len(rest) == len(words) or not rest or len(rest) > 2:
        return frozenset()
    reading = actions.read_action(" ".join(rest))
    return reading.drugs if len(reading.drugs) == 1 and reading.about_drug() else frozenset()


def _other_drug_names(aliases: list[str], shared: set[str]) -> list[str]:
    """The other names of each alias that is a drug's name and nothing else ("noradrenaline" is also "norad",
    "norepinephrine"): a case lists the drug once, an answer writes it by any of its names. Not a drug that
    other items of the case name too (adrenaline IM, IV, by auto-injector: which one a bare other name means is
    theirs to say), nor a drug of one strength, whose other names drop it ("saline" of "0.9% saline")."""
    vocabulary = read_vocabulary()
    out: list[str] = []
    for alias in aliases:
        found = vocabulary.lookup(alias, "drug")
        if len(found) == 1 and found[0].name not in shared and not any(c.isdigit() for c in found[0].name):
            out += [found[0].name, *found[0].also]
    return out


def _test_names(ref: Ref) -> tuple[tuple[str, ...], ...]:
    """Every name of a work-up item's test, as normalised words: its own phrases and, where one is a test's name in
    ``tests.yaml``, that test's other names ("venous gas" of "Blood gas")."""
    vocabulary = read_vocabulary()
    names = {p.words for p in ref.phrases}
    for phrase in ref.phrases:
        for test in vocabulary.lookup(" ".join(phrase.words), "test"):
            names.update(words for n in test.names if (words := tuple(t.norm for t in key_tokens(tokenize(n)))))
    return tuple(sorted(names))


def _shared_drugs(items: list[list[str]]) -> set[str]:
    """The drugs that more than one of ``items`` (each its name and aliases) names."""
    seen: dict[str, int] = {}
    for names in items:
        for drug in {d.name for text in names for d in actions.read_action(text).drugs}:
            seen[drug] = seen.get(drug, 0) + 1
    return {drug for drug, count in seen.items() if count > 1}


def _renamed_drug(names: tuple[str, ...], keeps: Callable[[str, set[str]], bool], min_words: int = 1,
                  kinds: tuple[TermKind, ...] = ("drug",)) -> list[str]:
    """Each of ``names`` (of ``min_words`` words or more) that names one drug by a word of its own, written with each
    of the drug's other names in its place that ``keeps`` (the other name, the phrase's own words in lower case)."""
    vocabulary = read_vocabulary()
    out: list[str] = []
    for name in names:
        words = name.split()
        if len(words) < min_words:
            continue
        lows = {w.strip("(),;:").lower() for w in words}
        forms = [words]  # each drug of a combination by any of its names, the others' too ("benpen and gent")
        for i, word in enumerate(words):
            bare = word.strip("(),;:").lower()
            found = [t for kind in kinds for t in vocabulary.lookup(bare, kind)] if len(bare) > 3 else []
            if len(found) != 1 or bare != found[0].name.lower():
                continue
            others = [word.lower().replace(bare, other) for other in found[0].also if keeps(other, lows)]
            forms += [[*form[:i], other, *form[i + 1:]] for form in forms for other in others]
        out += [" ".join(form) for form in forms[1:]]
    return out


def _diagnosis_drug_forms(names: tuple[str, ...]) -> list[str]:
    """Each diagnosis name that names one drug by a word of its own ("Methotrexate toxicity", "lithium overdose")
    written with the drug's other names in its place ("MTX toxicity", "Priadel overdose"): a terse answer names the
    drug as it writes it anywhere. A drug class too ("Benzodiazepine poisoning" as "benzo poisoning", "street
    benzodiazepine" as "street benzo"): a poisoning is named by the class as by a drug."""
    return _renamed_drug(names, lambda other, own: True, kinds=("drug", "drug_class"))


def _action_drug_forms(names: tuple[str, ...]) -> list[str]:
    """Each treatment name or alias of more than one word that names one drug by a word of its own ("reduce
    lamotrigine after delivery", "Stop lamotrigine") written with the drug's other names in its place ("reduce LTG
    after delivery"): the rest of the phrase says which item it is, so the drug named by any of its names is the
    same action. A bare drug's other names are `_other_drug_names`' to give. Only an other name of one word of
    letters is put in: one with a route, a strength or a partner ("IV glucose", "insulin/dex", "buccal midazolam")
    says more than the drug."""
    return _renamed_drug(
        names, lambda other, own: bool(re.fullmatch(r"[^\W\d_]+(?:-[^\W\d_]+)*", other)) and other.lower() not in own,
        min_words=2)


AGE_PREFIXES = tuple(sorted(cue_words("diagnosis_age_prefixes"), key=len, reverse=True))
NAME_OR_RE = re.compile(r"\s+or\s+", re.IGNORECASE)
"""How a diagnosis's name offers two conditions ("Jejunal atresia or stenosis"): grammar, not clinical words."""


def _without_age_prefix(name: str) -> str:
    """A diagnosis's name without the age-group words that open it ("Systemic lupus erythematosus" of "Juvenile
    systemic lupus erythematosus"): the answer about a patient of that age names the illness without them. Empty
    for a name without one."""
    low = name.lower()
    for prefix in AGE_PREFIXES:
        if low.startswith(prefix + " "):
            rest = name[len(prefix):].strip()
            return rest if key_tokens(tokenize(rest)) else ""
    return ""


def _either_part(name: str) -> list[str]:
    """Each condition a name of "X or Y" offers, met by either: a one-word part shares the other's other words
    ("Jejunal atresia", "Jejunal stenosis" of "Jejunal atresia or stenosis"; "Drug ingestion", "Toxin ingestion"
    of "Drug or toxin ingestion"); two longer parts are each a name ("Overlap myositis", "Mixed connective tissue
    disease"). None for a name in brackets or of more than two parts."""
    head = name.split("(")[0]
    parts = NAME_OR_RE.split(head.strip())
    if len(parts) != 2 or head != name:
        return []
    left, right = parts[0].split(), parts[1].split()
    if not left or not right:
        return []
    if len(right) == 1 and len(left) >= 2:
        return [" ".join(left), " ".join([*left[:-1], *right])]
    if len(left) == 1 and len(right) >= 2:
        return [" ".join([*left, *right[1:]]), " ".join(right)]
    return [" ".join(left), " ".join(right)]


def _diagnosis_name_forms(names: tuple[str, ...]) -> list[str]:
    """The other forms of each diagnosis name by its grammar (``_either_part``, ``_without_age_prefix``). Only of the
    item's own name: an alias of "X or Y" is the author's wording of the pair ("threatened or incomplete
    miscarriage" as an alias of both "Threatened miscarriage" and "Incomplete miscarriage"), not either item."""
    out: list[str] = []
    for name in names:
        for form in (*_either_part(name), _without_age_prefix(name)):
            if form and form not in out:
                out.append(form)
            bare = _without_age_prefix(form) if form else ""
            if bare and bare not in out:
                out.append(bare)
    return out


def _diagnosis_phrases(name: str, aliases: list[str]) -> list[Phrase]:
    return _phrases(name, *aliases, *_diagnosis_drug_forms((name, *aliases)), *_diagnosis_name_forms((name,)))


def build_table(case: Case) -> ReferenceTable:
    d = case.diagnosis
    primary = Ref("primary", 0, d.primary.name, "primary", _diagnosis_phrases(d.primary.name, d.primary.aliases),
                  icd10=d.primary.icd10, accept_codes=tuple(d.primary.accept_codes))
    secondary = [
        Ref("secondary", i, s.name, "secondary", _diagnosis_phrases(s.name, s.aliases), icd10=s.icd10)
        for i, s in enumerate(d.secondary)
    ]
    differential = [
        Ref("differential", i, s.name, "differential", _diagnosis_phrases(s.name, s.aliases), icd10=s.icd10)
        for i, s in enumerate(case.differential)
    ]
    workup = [
        Ref("workup", i, w.item, w.klass,
            _phrases(w.item, own_condition_head(w.item), *map(levels_without_head, (w.item, *w.aliases)), *w.aliases,
                     *_one_unit_said_otherwise((w.item, *w.aliases)),
                     *((monitored_things(w.item),) if w.klass in concepts.CREDIT_CLASSES else ())),
            weight=w.weight, penalty=w.penalty,
            reading=actions.item_reading_of(w.item, within=w.within, route=w.route, target=w.target),
            alias_readings=_alias_readings(w.item, w.aliases, w.within, w.route, w.target))
        for i, w in enumerate(case.workup)
    ]
    shared = _shared_drugs([[t.item, *t.aliases] for t in case.treatment])
    treatment = [
        Ref("treatment", i, t.item, t.klass,
            _phrases(t.item, own_condition_head(t.item), *t.aliases, *_other_drug_names(t.aliases, shared),
                     *_action_drug_forms((t.item, *t.aliases)),
                     *((monitored_things(t.item),) if t.klass in concepts.CREDIT_CLASSES else ()),
                     *(_converses((t.item, *t.aliases)) if t.klass in HARMFUL_CLASSES else ()),
                     *_said_with_never((t.item, *t.aliases)), *_one_unit_said_otherwise((t.item, *t.aliases)),
                     *(concepts.discharge_now(t.item) if t.klass in HARMFUL_CLASSES else ())),
            weight=t.weight,
            group=t.group,
            alternatives=_phrases(*t.alternatives),
            reading=(reading := actions.item_reading_of(t.item, within=t.within, route=t.route, target=t.target)),
            alias_readings=_alias_readings(t.item, t.aliases, t.within, t.route, t.target),
            alternative_readings=_alternative_readings(t.alternatives) if t.klass in concepts.CREDIT_CLASSES else (),
            replaced=actions.replaced_reading(t.item, reading) if t.klass in HARMFUL_CLASSES else None)
        for i, t in enumerate(case.treatment)
    ]
    groups: dict[str, Group] = {}
    for ref in treatment:
        if ref.group:
            phrases = _phrases(*group_phrases(ref.group))
            key = phrases[0].compact if phrases else ref.group
            group = groups.setdefault(key, Group(ref.group, phrases, []))
            group.refs.append(ref)
    action_refs = workup + treatment
    conditions = []
    for cond in case.critical_conditions:
        refs, phrases = _condition_entries(cond.items, action_refs)
        applies_refs, applies_phrases = _condition_entries(cond.applies_if, action_refs)
        conditions.append(ConditionRef(cond, refs, phrases, applies_refs, applies_phrases))
    findings = "\n".join(a.content or "" for a in case.attachments)
    return ReferenceTable(
        case.id, primary, secondary, differential, workup, treatment, list(groups.values()), conditions, _record(case),
        findings_text=findings, patient_text="\n".join([case.intro, *(a.answer for a in case.additional_answers)]),
        emergency=case.metadata.urgency == "emergency",
    )


HELD = "a hold the answer ends, not a permanent stop"


def _permanent(ref: Ref) -> bool:
    """The item is a permanent stop ("Stop lamotrigine immediately and permanently")."""
    return concepts.permanent_stop(tuple(re.findall(r"[a-z]+", ref.name.lower())))


FEWER = "fewer than the item asks"
COUNTS = {"single": 1, "one": 1, "two": 2, "pair": 2, "three": 3, "four": 4, "five": 5, "six": 6}
"""Words that count things (grammar); a number written in digits counts too."""
TIMES_MARKS = frozenset({"x"})
"""The multiplication sign of a count ("1 x EpiPen", "EpiPen x1")."""
COUNT_REACH = 1
"""Words a count may stand before the thing it counts: right before it ("a single EpiPen", "1 x EpiPen"), not a
dose's number further back ("adrenaline 0.3 mg EpiPen")."""


def _count_word(word: str) -> int | None:
    """The number a word says (a count word, or digits; "x1" is one)."""
    word = word[1:] if word[:1] in TIMES_MARKS and word[1:].isdigit() else word
    return int(word) if word.isdigit() else COUNTS.get(word)


def _count_of(name: str) -> int | None:
    """How many of a thing an item asks for, when its name opens with a count ("Two adrenaline auto-injectors
    with training"); not a number joined to its next word ("12-lead ECG") nor one that is a dose or time ("Two
    weeks of ...": the word after it is no unit)."""
    found = re.match(r"\s*([A-Za-z]+|\d+)\s+([A-Za-z]+)", name)
    if found is None:
        return None
    count = _count_word(found.group(1).lower())
    after = found.group(2).lower()
    if count is None or count < 2 or after in TIME_UNIT_WORDS or after in DOSE_WORDS:
        return None
    return count


def _count_said(doc: Document, hit: Hit) -> int | None:
    """How many of the thing at ``hit`` the answer gives: a count just before it in its clause ("a single
    EpiPen", "1 x EpiPen") or a times sign with a number right after it ("EpiPen x1", "EpiPen x 2")."""
    low = doc.lows
    k = hit.first - 1
    if k >= 0 and low[k] in TIMES_MARKS:
        k -= 1
    for j in range(k, max(-1, k - COUNT_REACH), -1):
        if doc.clause[j] != doc.clause[hit.first]:
            break
        count = _count_word(low[j])
        if count is not None:
            return count
    after = hit.last + 1
    if after < len(low) and doc.clause[after] == doc.clause[hit.last]:
        if low[after] in TIMES_MARKS and after + 1 < len(low) and low[after + 1].isdigit():
            return int(low[after + 1])
        if low[after][:1] in TIMES_MARKS and low[after][1:].isdigit():
            return int(low[after][1:])
    return None


TIME_UNIT_WORDS = frozenset(say for unit in read_vocabulary().units for say in unit.say)
DOSE_WORDS = frozenset(read_vocabulary().phrases("dose_words"))


def _bolus(ref: Ref) -> tuple[Phrase, Ref, actions.ActionReading] | None:
    """The item as a one-off dose: its first name or alias that is one ("Insulin bolus", "crystalloid bolus") and
    names a drug or class, read as an action with the item's route."""
    for phrase in ref.phrases:
        if concepts.bolus_item(phrase.words):
            reading = actions.read_action(concepts.without_bolus_words(phrase.text))
            if (reading.drugs or reading.classes) and reading.covered >= ABOUT_DRUG:  # not "hypertonic saline"
                return phrase, ref, replace(reading, routes=ref.reading.routes or reading.routes)
    return None


def _switch(ref: Ref) -> list[tuple[Phrase, Ref, actions.ActionReading]]:
    """The item's names that switch to a drug ("switch to carbamazepine") or within a class ("switch
    antidepressant"), each read as what it gives; a switch of one drug with no target ("switch bendroflumethiazide")
    is away from it, met by its own words."""
    out = []
    for phrase in ref.phrases:
        target = concepts.switch_target(phrase.text)
        if target is None:
            continue
        towards, words = target
        reading = actions.read_action(words)
        if reading.covered < ABOUT_DRUG:
            continue  # "change antibiotic if resistant" is about more than a switch
        if reading.drugs if towards else (reading.classes and not reading.drugs):
            out.append((phrase, ref, replace(reading, routes=reading.routes or ref.reading.routes)))
    return out


def _switched_away(hit: Hit, written: list[Hit], left: list[tuple[Hit, Hit]], doc: Document,
                   stopped: tuple[frozenset[Term], frozenset[Term]]) -> Hit | None:
    """The switch (its verb to its target word) whose words left (``concepts.switched_from``) hold the drug named
    at ``hit`` (``written``: the item's names in the answer): the switch stops it, unless it goes on to what the
    item stops (``stopped``: its drugs and classes), the same drug in another form ("switch from chloramphenicol
    drops to chloramphenicol ointment"), another of a class the item names ("switch sertraline to mirtazapine" for
    an item "Stop sertraline" that says "stop the antidepressant"; "change naproxen to ibuprofen" for "stop NSAIDs")
    or another of the left drug's own kind ("switch zopiclone to temazepam": both hypnotics): a swap is no stop."""
    vocabulary = read_vocabulary()
    for switch, away in left:
        if away.first <= hit.first and hit.last <= away.last:
            piece = doc.piece_of(switch.first)
            if any(switch.last < h.first and h.last <= piece.last for h in written):
                return None
            if switch.last < piece.last:
                onward = Hit(switch.last, piece.last)
                towards = actions.read_action(doc.quote(onward))
                leaving = actions.read_action(doc.quote(away))
                drugs, classes = stopped
                kinds = towards.classes | {c for d in towards.drugs for c in vocabulary.broader(d)}
                own = _most_specific_classes({c for d in leaving.drugs for c in vocabulary.broader(d)})
                if (doc.lows[hit.first] in doc.lows[onward.first : onward.last + 1] or towards.drugs & drugs
                        or towards.drugs & leaving.drugs or kinds & classes or kinds & own):
                    return None  # another of the same kind: "switch zopiclone to temazepam" (hypnotics)
            return Hit(switch.first, max(hit.last, switch.last))
    return None


def _most_specific_classes(classes: set[Term]) -> set[Term]:
    """The classes no other of them is under: a drug's own kind (an SSRI, not any antidepressant; a penicillin,
    not any antibiotic)."""
    vocabulary = read_vocabulary()
    return {c for c in classes if not any(c in vocabulary.broader(other) for other in classes if other != c)}


def _gives_its_drug(given: actions.ActionReading, item: actions.ActionReading, gives_credit: bool) -> bool:
    """What the answer gives (``given``: a one-off dose, a switch's target) is the item's: its drug, a drug of its
    class or the class, by no other route; one that costs the answer must say the item's route ("adrenaline 0.5 mg
    stat" is no IV bolus)."""
    if actions.contradiction(given, replace(item, windows=())) is not None:
        return False
    if item.routes and not given.routes and not gives_credit:
        return False
    vocabulary = read_vocabulary()
    return bool(given.drugs & item.drugs or given.classes & item.classes) or any(
        cls in vocabulary.broader(drug) for drug in given.drugs for cls in item.classes)


EXAM_FINDING = "a finding of the examination"
TIMED = "its action at its time"
SAME_DAY_HOURS = max(w[1] for w in timing_of("same day"))
"""A harmful item named with a time within the same day is an action done now (``_timed``), and only an
answer that gives a time within the same day does it ("cardioversion today"; "angiography within 24 h"
is the next day's early strategy, not immediate PCI)."""
EXAM_WORDS = frozenset(t.norm for w in cue_words("examination_words") for t in tokenize(w))
EXAM_GENERIC = frozenset(t.norm for w in cue_words("examination_generic_words") for t in tokenize(w))
FINDING_MIN_LETTERS = 5
ADVERB_ENDINGS = ("ly",)
"""English grammar: a word so ending is an adverb ("mildly", "rapidly", "usually"), how a finding is, never one."""
_WRAPPED_RE = re.compile(r"\s*\n\s*")
_FINDING_PARTS_RE = re.compile(r"\.\s|\n\s*\n|\n(?=\s*[-*|])|[,;]?\s*(?=\b[A-Z][A-Za-z ]{0,30}:)|\|")
"""Where one finding ends in an attachment: a sentence, a paragraph, a list item or table cell,
the next label ("Chest: hyperexpanded; widespread wheeze ... Abdomen: soft"); a wrapped line goes on."""


def _examinations(
    workup: list[Ref], findings_text: str, patient_text: str, treatment: Iterable[Ref] = ()
) -> list[tuple[Phrase, Ref, frozenset[str], frozenset[str]]]:
    """The examination and observation items (an examination word in a name of theirs), each with
    its own words ("temporal", "arteries"; "heart", "rate") and the words of what the record's
    attachments found on the lines that name it ("tender", "thickened"): an answer that reports
    such a finding, or one of its measures with a value ("HR 112"), examined (scoring.md: a result
    reported in the final stands for the test). A finding is a word after the item's own in one
    finding of an attachment, not one the record denies ("no relative afferent pupillary defect": an answer's
    "epithelial defect" is another examination's), not one the patient says (``patient_text``: a symptom is no
    examination's) nor a word of another work-up item's names (a blood count is its own test) or a treatment
    item's ("wrist" of "Wrist splints": a body site the record names is that item's, no finding), nor an adverb
    (``ADVERB_ENDINGS``: "tone mildly increased")."""
    parts: list[Document] = []
    lines: list[list[str]] = []
    said: set[str] = set()
    out = []
    for ref in workup:
        if ref.klass not in concepts.CREDIT_CLASSES:
            continue
        words = {w for p in ref.phrases for w in p.words}
        if not set(ref.phrases[0].words) & EXAM_WORDS:
            continue  # an examination by its name ("Temporal artery ultrasound" is a test whatever its aliases)
        keys = frozenset(w for w in words - EXAM_WORDS - EXAM_GENERIC if w.isalpha() and len(w) >= 3)
        if not keys:
            continue
        if not parts:  # the record is read once, and only for a case with an examination item
            parts = [Document(_WRAPPED_RE.sub(" ", part)) for part in _FINDING_PARTS_RE.split(findings_text)]  # a
            # wrapped line goes on: "no relative\n afferent pupillary defect" is one finding
            lines = [[t.norm for t in part.tokens] for part in parts]
            said = {t.norm for t in tokenize(patient_text)}
        found: set[str] = set()
        for part, line in zip(parts, lines, strict=True):
            first = next((at for at, word in enumerate(line) if word in keys), None)
            if first is None:
                continue
            found.update(  # every word after the first of the item's own (one pass, not one per word of its own)
                w for after, w in enumerate(line[first + 1:], first + 1)
                if w.isalpha() and len(w) >= FINDING_MIN_LETTERS and w not in EXAM_WORDS and w not in EXAM_GENERIC
                and not w.endswith(ADVERB_ENDINGS)
                and cues.negation(part, after, after) is None)  # "no relative afferent pupillary defect": no defect
        others = {w for other in (*workup, *treatment) if other is not ref for p in other.phrases for w in p.words}
        out.append((ref.phrases[0], ref, keys, frozenset(found - keys - said - others)))
    return out


EXAM_PARTS = "most of the parts it examines"
EXAMINING = cues.cue_list("examining_words")
_BRACKET_RE = re.compile(r"\(([^()]*)\)")
_PART_SPLIT_RE = re.compile(r"\s*(?:,|;|/|\band\b|\bor\b)\s*")


def _bracket_parts(ref: Ref) -> tuple[tuple[str, ...], ...]:
    """The parts an examination item lists in its name's bracket ("Examination of the mucous membranes (mouth, eyes,
    genitals)"), each as its words; none for an item that is no examination or lists fewer than three parts."""
    if not set(ref.phrases[0].words) & EXAM_WORDS:
        return ()
    bracket = _BRACKET_RE.search(ref.name)
    if bracket is None:
        return ()
    parts = tuple(words for part in _PART_SPLIT_RE.split(bracket.group(1))
                  if (words := tuple(t.norm for t in tokenize(part) if t.norm not in EXAM_GENERIC)))
    return parts if len(parts) >= 3 else ()


def _parts_examined(doc: Document, parts: tuple[tuple[str, ...], ...]) -> list[Hit]:
    """Where a clause with a word of examining (``examination_words``, ``examining_words``: "I checked her mouth and
    eyes") names most of the parts an examination item lists in its bracket: the examination done. One part alone
    ("mouth looks fine") is not the examination of them all."""
    hits = []
    seen: set[int] = set()
    for k, token in enumerate(doc.tokens):
        if doc.clause[k] in seen or not (token.norm in EXAM_WORDS or EXAMINING.starting_at(doc.lows, k) is not None):
            continue
        clause = doc.clause_of(k)
        words = [doc.tokens[j].norm for j in range(clause.first, clause.last + 1)]
        at = {part: [j for j in range(len(words)) if tuple(words[j : j + len(part)]) == part] for part in parts}
        named = [j for js in at.values() for j in js]
        if 2 * sum(1 for js in at.values() if js) > len(parts) and not asked(doc, k):
            seen.add(doc.clause[k])
            hits.append(Hit(min(k, clause.first + min(named)), max(k, clause.first + max(named))))
    return hits


OBSERVATIONS_REPORTED = "values of most of the measures it takes"
_MEASURES_RE = re.compile(r"\bwith\s+(.*)$")


def _observation_parts(ref: Ref) -> tuple[tuple[tuple[str, ...], ...], ...]:
    """The measures an observation item lists after "with" or in its name's bracket ("Full set of observations with
    temperature, heart rate and capillary refill"), each as every name the vocabulary gives it (a test of
    ``tests.yaml``: "pulse" and "HR" of heart rate, "CRT" of capillary refill); none unless the item is an
    examination or observation (``examination_words``) and every part of its list, two or more, is such a measure."""
    if not set(ref.phrases[0].words) & EXAM_WORDS:
        return ()
    listed = _BRACKET_RE.search(ref.name) or _MEASURES_RE.search(ref.name)
    if listed is None:
        return ()
    out = []
    for part in _PART_SPLIT_RE.split(listed.group(1)):
        words = tuple(t.norm for t in tokenize(part) if t.norm not in EXAM_GENERIC)
        if not words:
            continue
        names = concepts.measure_names(words)
        if not names:
            return ()
        out.append(names)
    return tuple(out) if len(out) >= 2 else ()


def _observations_reported(doc: Document, measured: tuple[tuple[tuple[str, ...], ...], ...]) -> list[Hit]:
    """Where one line of the answer gives values of most of the measures an observation item takes ("HR 152, CRT
    2s"): the observations done. One value alone ("HR 152") is no full set."""
    by_line: dict[int, dict[int, Hit]] = {}
    for n, names in enumerate(measured):
        for hit in concepts.measure_values(doc, names):
            if not asked(doc, hit.first):
                by_line.setdefault(doc.text.count("\n", 0, doc.tokens[hit.first].start), {}).setdefault(n, hit)
    return [Hit(min(h.first for h in found.values()), max(h.last for h in found.values()))
            for found in by_line.values() if len(found) >= 2 and 2 * len(found) > len(measured)]


def _exam_findings(doc: Document, keys: frozenset[str], findings: frozenset[str]) -> list[Hit]:
    """Where the answer reports a finding of the examination, or one of its measures with a value."""
    hits = []
    for k, token in enumerate(doc.tokens):
        if k + 1 < len(doc.tokens) and doc.tokens[k + 1].start == token.start or (
            k > 0 and doc.tokens[k - 1].start == token.start
        ):
            continue  # a word of an abbreviation written out ("CRP": "c reactive protein") is not written
        reported = token.norm in findings or (token.norm in keys and concepts.result_end(doc, k) is not None)
        if reported and not asked(doc, k):
            hits.append(Hit(k, k))
    return hits


def _names_safety_netting(ref: Ref) -> bool:
    """The item is safety-netting advice itself: its name is a safety net ("Return if worse") or a
    name of it says safety-netting ("safety-netting after reduction"). Any safety net of an answer
    meets such an item; an item that is something more ("Safety plan with crisis contacts") is met
    by a safety net about what its own safety-net wording names."""
    name = Document(ref.name)
    if concepts.safety_nets(name):
        return True
    return any(concepts.SAFETY_NET_TERMS.starting_at(list(p.words), k)
               for p in ref.phrases for k in range(len(p.words)))


NO_TOPIC: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())


def _about_other_symptoms(doc: Document, hit: Hit, symptoms: frozenset[str], keys: frozenset[str]) -> bool:
    """The safety net at ``hit`` names symptoms, none of them one of ``symptoms`` (those of a safety-netting item
    about particular symptoms) and no word of the item's (``keys``: first letters): it is about another worry. A
    safety net that names no symptom ("come back if worse") is about any."""
    if not symptoms:
        return False
    at = _clause_words(doc, hit).values()
    words = tuple(doc.lows[min(at) : max(at) + 1])
    said = concepts.symptoms_named(words)
    return bool(said) and not said & symptoms and not any(
        len(w) >= concepts.SKIPPED_PREFIX and w[: concepts.SKIPPED_PREFIX] in keys for w in words)


def _clause_words(doc: Document, hit: Hit) -> dict[str, int]:
    """The normalised words of a safety net's clause (what it is about), and of a condition clause
    just before it ("if suicidal thoughts worsen, seek urgent help"), each with the
    token where it is said (the last time before the safety net, the first time after it)."""
    last = hit.last
    while last + 1 < len(doc.tokens) and doc.clause[last + 1] == doc.clause[hit.first]:
        last += 1
    first = hit.first
    while first and doc.clause[first - 1] == doc.clause[hit.first]:
        first -= 1
    opening = first - 1
    while opening > 0 and doc.clause[opening - 1] == doc.clause[first - 1]:
        opening -= 1
    words: dict[str, int] = {}
    if first and doc.lows[opening] in concepts.CONDITIONALS:
        words.update((doc.tokens[k].norm, k) for k in range(opening, first))
    words.update((doc.tokens[k].norm, k) for k in range(first, hit.first))
    for k in range(hit.first, last + 1):
        words.setdefault(doc.tokens[k].norm, k)
    return words


def _timed(phrase: Phrase) -> tuple[Phrase, tuple[Window, ...]] | None:
    """A name of a harmful item that is the action done now ("DC cardioversion now", "same-day
    cardioversion"): its own words without the time, and the time. An answer that says those words
    with a time meeting it in the same piece ("DC cardioversion today in the ED") does the harm."""
    windows = timing_of(phrase.text)
    if not windows or max(w[1] for w in windows) > SAME_DAY_HOURS:
        return None
    core = make_phrase(without_timing(phrase.text))
    if core is None or core.words == phrase.words or not actions.read_action(core.text).empty:
        return None  # a drug or team with its time is read as an action (``_alias_readings``)
    return core, windows


def _immediate_instruction(doc: Document) -> bool:
    """The phrase sends the patient now, with no condition ("go to the emergency department
    now"): an instruction, not safety-netting advice, though its words are a safety net's."""
    now = any(latest <= IMMEDIATE_HOURS for _, latest in timing_of(doc.text))
    return now and not conditions_of(doc)


IMMEDIATE_HOURS = 1.0
"""A phrase whose time is within this many hours ("now", "immediately") is an instruction."""


def done_today(ref: Ref | None) -> bool:
    """The item is an action of today, no safety-netting ("Advise her to come to hospital immediately", "Emergency
    same-day admission by ambulance"): a safety-net wording among its aliases ("call 999") is that action said now,
    and a call on a condition the record does not meet ("call 999 if she gets breathless") is advice for later, no
    such action (the extractor reads its condition)."""
    if ref is None or not ref.reading.windows or max(w[1] for w in ref.reading.windows) > SAME_DAY_HOURS:
        return False
    return _named_as_done_today(ref.name)


@batch_cache(4096)
def _named_as_done_today(text: str) -> bool:
    """The words part of :func:`done_today`: a function of the item's name alone, read once per name (asked of the
    same items by every mention of every answer)."""
    name = Document(text)
    words = [t.norm for t in name.tokens]
    return (not concepts.safety_nets(name) or _immediate_instruction(name)) and not any(
        concepts.SAFETY_NET_TERMS.starting_at(words, k) for k in range(len(words)))


TIMED_VIAS: frozenset[str | None] = frozenset({None, concepts.WITHHOLDING, concepts.CONTINUATION})
"""Mentions whose piece's timing decides whether they are their item: by its words, or as a stop
("stop doxazosin at her annual review" is no same-day stop). A safety-net or follow-up weighs its own
time, and a discharge's piece often times what follows it ("home with midwife review in 2 days")."""


def _drug_names(name: str) -> tuple[str, ...]:
    """Every name of the drug ``name`` names (its brands: "stop Ditropan" stops oxybutynin)."""
    return tuple(n for term in read_vocabulary().lookup(name, "drug") for n in term.names)


def _skipped_names(words: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """Each word of what a harmful discharge goes without with the words of its other names (a drug's: "NAC")."""
    return tuple((word, *(t.low for name in _drug_names(word) for t in tokenize(name))) for word in words)


def _drugs_named_in(words: tuple[str, ...]) -> tuple[str, ...]:
    """Every name of each drug a run of ``words`` names ("oral rehydration and discharge home": Dioralyte)."""
    runs = {" ".join(words[i:j]) for i in range(len(words)) for j in range(i + 1, min(i + 4, len(words)) + 1)}
    return tuple(name for run in sorted(runs) for name in _drug_names(run))


def _broader_names(name: str) -> tuple[str, ...]:
    """Every name of the terms ``name`` belongs to ("CT scan": imaging, scan): declining the broader
    test declines it ("imaging not warranted")."""
    vocabulary = read_vocabulary()
    return tuple(n for term in vocabulary.lookup(name) for broader in vocabulary.broader(term) for n in broader.names)


def _measure_names(name: str) -> tuple[str, ...]:
    test = next(iter(read_vocabulary().lookup(name, "test")), None)
    return test.names if test is not None else (name,)


MEASURES = tuple(_measure_names(name) for name in read_vocabulary().phrases("record_measures"))
"""Findings a condition may state ("if the BP is low") that a record usually holds."""


def _record(case: Case) -> Record:
    """What the case establishes for conditions: its diagnoses and the text of its record."""
    d = case.diagnosis
    names = [d.primary.name, *d.primary.aliases, *(n for s in d.secondary for n in (s.name, *s.aliases))]
    parts = [case.intro, *(a.answer for a in case.additional_answers)]
    for a in case.attachments:
        parts += [a.title, a.kind, a.description or "", a.content or ""]
    tests = [[w.item, *w.aliases] for w in case.workup] + [list(m) for m in MEASURES]
    return Record(names, "\n".join(parts), tests)


_CACHE: OrderedDict[str, ReferenceTable] = OrderedDict()


def reference_table(case: Case) -> ReferenceTable:
    """The table of ``case``, built once per distinct reference (cached by content, so
    an edited case gets a new table). The key holds every field :func:`build_table` reads, the urgency too (an
    emergency's tests are done before the patient leaves: an edited urgency must not keep the old table's)."""
    key = case.model_dump_json(
        include={"id": True, "diagnosis": True, "differential": True, "workup": True, "treatment": True,
                 "critical_conditions": True, "attachments": True, "additional_answers": True, "intro": True,
                 "metadata": {"urgency": True}}
    )
    table = _CACHE.get(key)
    if table is None:
        table = build_table(case)
        _CACHE[key] = table
        if len(_CACHE) > CACHE_SIZE:
            _CACHE.popitem(last=False)
    else:
        _CACHE.move_to_end(key)
    return table


def _names(texts: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Names as normalised words, filler left out."""
    return [n for n in dict.fromkeys(tuple(t.norm for t in key_tokens(tokenize(text))) for text in texts) if n]


def _written(doc: Document, names: list[tuple[str, ...]], clause: int | None = None) -> list[Hit]:
    """Where ``names`` (normalised words, filler left out) are written, in one clause or anywhere."""
    keys, norms, where = _key_words(doc)
    out = []
    for words in names:
        for s in where.get(words[0], ()):
            e = s + len(words) - 1
            if (tuple(norms[s : e + 1]) == words and doc.clause[keys[s]] == doc.clause[keys[e]]
                    and (clause is None or doc.clause[keys[s]] == clause)):
                out.append(Hit(keys[s], keys[e]))
    return out


def _key_words(doc: Document) -> tuple[list[int], list[str], dict[str, list[int]]]:
    """The document's tokens that are no filler, their words, and where each word is among them: read once
    per document, as every name of every concept item is looked for in them."""
    known = doc.found.get("key words")
    if known is None:
        keys = [k for k, t in enumerate(doc.tokens) if t.norm not in FILLER]
        norms = [doc.tokens[k].norm for k in keys]
        where: dict[str, list[int]] = {}
        for s, word in enumerate(norms):
            where.setdefault(word, []).append(s)
        known = doc.found["key words"] = (keys, norms, where)
    return known


def _in_clause(doc: Document, at: int, names: list[tuple[str, ...]]) -> Hit | None:
    """Where one of ``names`` is written in the clause of token ``at``, nearest to it (the first such place
    on a tie): "IV benzylpenicillin stat, then discharge home on oral co-amoxiclav" sends home on
    co-amoxiclav. Never by the order of ``names``, so the reading does not depend on how a set is hashed."""
    found = _written(doc, names, doc.clause[at])
    return min(found, key=lambda hit: (min(abs(hit.first - at), abs(hit.last - at)), hit.first), default=None)

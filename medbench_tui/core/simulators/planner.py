"""What the patient answers to each question of a message: a named table of rules.

Each :class:`Rule` has a name, says what it does, when it applies to a question (read into a
:class:`~question.Question` once) and what it answers. For each question the first rule of
:data:`RULES` that applies gives the part of the reply; :func:`rules` lists them (``docs/patient.md``
describes each) and the tests hold each one to its description. Then :meth:`Planner.choose`
decides which parts go into the reply together: a fact once per reply, no "No." beside a fact
that answers the same question, no echo of what the doctor heard before beside a new answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field, replace
from functools import cached_property

from medbench_tui.core.batch_caches import batch_cache
from medbench_tui.core.cases.model import Attachment, PatientRecord
from medbench_tui.core.simulators import intent, voice
from medbench_tui.core.simulators.base import ReplyKind
from medbench_tui.core.simulators.dialogue import DialogueState
from medbench_tui.core.simulators.guard import LeakGuard
from medbench_tui.core.simulators.intent import DESCRIPTOR_CONCEPTS as DESCRIPTORS
from medbench_tui.core.simulators.lexicon import (
    CLINICAL,
    LIFE_STAGE,
    Unit,
    concept_id,
    content_words,
    phrase_alternation,
    says_phrase,
    sentences,
    units,
    words,
)
from medbench_tui.core.simulators.matcher import (
    _LEAD,
    _OR_WORD,
    _OWN_LEAD,
    _WHAT_FOR,
    BODY_PARTS,
    COVERED_THRESHOLD,
    ELLIPSIS_WORDS,
    EXACT_MATCH,
    FOLLOW_UP_BONUS,
    MATCH_THRESHOLD,
    MODIFIERS,
    NAMED_STRENGTH,
    PARTS_OF_THE_BODY,
    PAST_EPISODE,
    REPEAT_MARGIN,
    SAYS_AN_AGE,
    SYMPTOM_CONCEPTS,
    TIE,
    WHOLE_SMALL_WORDS,
    Match,
    Matcher,
    Source,
    _says_who,
    asks_all_of,
    quotes,
    without_examples,
)
from medbench_tui.core.simulators.question import Message, Question, read_question
from medbench_tui.core.vocabulary import read_vocabulary

_OPEN_COMPLAINT = re.compile(
    r"\b(what brings you|brought you|what seems to be|what's (wrong|the (problem|matter|trouble))|"
    r"whats (wrong|the (problem|matter|trouble))|how can i help|what can i do for you|"
    r"tell me (more|what happened|about it))",
    re.IGNORECASE,
)
_COMPLAINT_ASKS = tuple(" ".join(words(p)) for p in read_vocabulary().phrases("patient_complaint_asks"))
"""How a doctor opens, asking only for the complaint ("what's been going on?", "how can I help today?")."""
_WHY_CAME = re.compile(
    r"\b((what|who) (made|got|told) you (to )?(come|decide|see|call|ring|book)|who sent you|"
    r"why (did|have|are) you (come|came|decided|here)|why now\b|"
    r"whose idea|sen[dt] you\b|(made|make) you come|(decide|decided) to (come|see))",
    re.IGNORECASE,
)
"""Questions of why the patient came: the intro sentence that says so answers them, else the whole intro."""
_AGE = re.compile(
    r"\bhow old (?:are|is)(?! (?:your|his|her|their|the|my) )\b|"
    r"\bwhat(?:'s| is) (your|his|her|their) age\b|\byour age\b",
    re.IGNORECASE,
)
"""A question of the patient's age ("how old are you?", "how old is he?"; not "how old are your kids?")."""
_READING = re.compile(r"\d")
"""A number in a fact: a reading or a score it gives."""
_LEFT_THE_VERB = (r"(?<!\band )(?<!\bthen )(?<!\bit )(?<!\bthey )(?<!\bhe )(?<!\bshe )(?<!\bi )(?<!\bwe )"
                  r"(?<!\bhas )(?<!\bhave )(?<!\bhad )(?<!\bjust )(?<!\bwhich )(?<!\bthat )(?<!\bwho )(?<!\bonly )")
"""Grammar cues of "left" the verb ("they burst and left little holes", "it has left a scar"), which is no side."""
_LATERAL = re.compile(
    r"\b(?:" + _LEFT_THE_VERB + r"left|right)[- ](?!now\b|away\b)\w+|"
    rf"\bboth ({phrase_alternation('patient_paired_parts')})\b|"
    r"\bbilateral|"
    r"\b(?:on|to|down|over) (?:the|my|his|her|their|your) (?:left|right)\b(?! now\b| away\b)",
    re.I,
)
"""A fact that says which side ("my left calf", "both legs"): it answers "which side?"."""
_OTHER_SIDE = re.compile(r"\b(?:the other (?P<part>\w+)|(?:any|your|his|her) other (?P<parts>\w+s)\b)", re.IGNORECASE)
"""A question of the other side ("any swelling in the other leg?", "and the other eye?"), or of the other parts of
the body, named in the plural ("any other joints swollen?"; "any other eye problems?" is of problems)."""
_BOTH_SIDES = re.compile(r"\b(other|both|either|neither)\b|\bleft\b.*\bright\b|\bright\b.*\bleft\b",
                         re.IGNORECASE | re.DOTALL)
"""A fact that says something of both sides ("The right eye is misty ... The left eye sees fine.")."""
_SIDE_ASKED = re.compile(
    r"^\W*(?:(?:and|so|but|ok|okay)\W+)*(?:which|what|(?:the )?same|(?:is it |are they |in )?(?:both|either))\b",
    re.IGNORECASE,
)
"""A question of which one, whether the same one or both ("which leg?", "same ear?", "is it both hands?"): of a part
of the body, the side."""
_HE = frozenset({"he", "him", "his", "himself"})
_SHE = frozenset({"she", "her", "hers", "herself"})
"""The pronouns of one sex: one that does not fit the patient's sex names someone else (grammar)."""
_MEDICAL_HISTORY = frozenset({"@medical_history"})
_SAYS_WHAT_FOR = re.compile(r"\bfor (?:my|his|her|their|the|your|a|an)\b", re.IGNORECASE)
"""A medicine told with what it is for ("amlodipine for my blood pressure", "paracetamol for the headache")."""
_DRUGS = CLINICAL.of_kind("drug")
"""The concepts of single medicines ("@apixaban")."""
_TREATED_OR_HISTORY = frozenset({"@medication", "@history", "@medical_history"})
"""A fact's topic of a treatment or a history ("the irregular heartbeat and its treatment"): one that may say what a
medicine is for."""
_EFFECT = frozenset({"@relieving"})
"""Whether something helped ("did it help?", "did it work?"): of a treatment just told, that treatment's effect."""
_THIRD_PERSONS = frozenset({"he", "she", "him", "his", "her", "hers", "they", "them", "their"})
"""Words that name a person by a pronoun: of a patient who speaks for themselves, someone the last reply told of
("how old was she when she had the stroke?" after the mother's stroke)."""
_ASKS_WHEN = re.compile(r"^\W*(?:(?:and|so|ok|okay|sorry|right)\W+)*when\b", re.IGNORECASE)
"""A question of when ("when was that?", "and when did that happen?")."""
_WEEKDAYS = phrase_alternation("patient_weekdays")
_POINT_IN_TIME = re.compile(
    rf"\b(?:{phrase_alternation('patient_points_in_time')}|(?:on|last|this|next) (?:{_WEEKDAYS}))\b"
    r"|\b\d{1,2}(?:[.:]\d\d)? ?(?:am|pm)\b",
    re.IGNORECASE,
)
"""Grammar of a point in time a fact says ("two days ago", "on Saturday night"): what a question of when asks of
several facts just told, not how long something has gone on ("for about eight weeks")."""
_ASKS_WHAT_TIME = re.compile(r"^\W*(?:(?:and|so|ok|okay|sorry|right)\W+)*(?:when\b|(?:at )?what (?:time|day)\b)",
                             re.IGNORECASE)
"""A question of when, or at what time ("what time was that?", "when did you run out?")."""
_ASKS_AGE_THEN = re.compile(r"^\W*(?:(?:and|so|ok|okay|sorry|right)\W+)*(?:how old|what age)\b.*\b(?:then|at the time|"
                            r"when (?:it|that|this) (?:happened|was))\b", re.IGNORECASE)
"""A question of how old someone was when what was just told happened ("how old were you then?")."""
_SAYS_AGE = re.compile(r"\bwhen (?:i|he|she|we|they) (?:was|were) (?:about |around |only |just |a )?\w+|"
                       r"\baged? (?:about |around )?\d+|\bat (?:the )?age (?:of )?\d+", re.IGNORECASE)
"""Grammar of an age a fact says it happened at ("when I was about five", "aged 30")."""
_ASKS_WHAT_FOUND = re.compile(
    r"^\W*(?:(?:and|so|ok|okay|sorry|right)\W+)*what (?:did|have|has) (?:they|it|that|he|she|the \w+) "
    r"(?:find|found|show|shown|say|said|see|seen)\b", re.IGNORECASE)
"""A question of what a test or a visit just told found ("what did they find?", "what did it show?")."""
_ASKS_HOW_MANY = re.compile(r"^\W*(?:(?:and|so|ok|okay|sorry|right)\W+)*how (?:many|often)\b", re.IGNORECASE)
"""A question of how many or how often with no subject of its own ("how many a day roughly?")."""
_FINDING_TOLD = re.compile(
    rf"\b(?:they|it|he|she|the (?:{phrase_alternation('patient_finding_tellers')})) (?:\w+ )?(?:found|said|told|"
    r"showed|saw|took|came back|was (?:normal|clear|fine))\b", re.IGNORECASE)
"""Grammar of what a test or visit found, told ("they took a polyp off", "it came back clear", "the doctor said
...")."""
KEYWORD_SAID_WHOLE = 2
"""Words of a keyword said whole ("take them") by which a question that points back names another fact than the one
it points at, when that one says none of its words as written."""
_ONE_PERSON = frozenset({"he", "she", "him", "his", "her", "hers"})
"""Of those, the ones that name one person: never the NHS or "they" who post a kit out."""
SIDE_QUESTION_WORDS = 4
"""Words at most of such a question: "which leg?", "and the same ear?"; not a question of its own."""
_SIDES_WORDS = frozenset({"other", "both", "either", "neither"})
"""A keyword's words that say it is of both sides, or of the other ("other eye", "both legs")."""


_PERSON_WORDS = frozenset(w for p in read_vocabulary().phrases("patient_relatives") for w in words(p))
_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z]{2,}\b")
"""A name in a fact's answer: a capitalised word not at the start of a sentence ("Her brother Josh is 13")."""


_ASKS_HOW_LONG = re.compile(r"^\W*(?:(?:and|so|ok|okay|sorry|right)\W+)*(?:how long(?:\s+(?:has|have|had)\b|'s\b)|"
                            r"since when\b)", re.IGNORECASE)
"""A question of how long something has gone on ("how long has that been going on?", "how long have you had it?"),
not how long each time lasted ("how long did that last?"); "since when?" asks the same."""
_FOR_A_WHILE = re.compile(
    r"\bfor (?:about |around |nearly |almost |over |the (?:last|past) )?(?:a|an|a few|a couple of|several|\d+|one|two|"
    r"three|four|five|six|seven|eight|nine|ten|twelve)\s+(?:\w+\s+)?(?:days?|weeks?|months?|years?)\b|"
    r"\b(?:this|the) (?:last|past) (?:few |couple of )?(?:days?|weeks?|months?|years?)\b", re.IGNORECASE)
"""Grammar of how long something has gone on, told ("for about two months", "for a couple of weeks", "this last
month")."""
_HOW_LONG_ASKED = re.compile(r"^\W*(?:(?:and|so|ok|okay|sorry|right)\W+)*how long\b", re.IGNORECASE)
"""A question of how long, of whatever it asks ("how long did it take to settle for her?")."""
_WHICH_OF_THEM = re.compile(r"^\W*(?:(?:and|so|ok|okay|right)\W+)*which (?:one|ones|of (?:them|those|these))\b",
                            re.IGNORECASE)
"""A question of which of the things just told ("which one was most recent?", "which of them helped?")."""
_WHICH_THING = re.compile(r"^\W*(?:(?:and|so|ok|okay|right)\W+)*which\s+(?!one\b|ones\b|of\b)(\w+)\b",
                          re.IGNORECASE)
"""A question of which thing of a kind ("which inhaler is it?", "and which cream was that?"): grammar; the kind
is its word after "which"."""
_YOU_ASKED = re.compile(r"\byou\b", re.IGNORECASE)
"""A question put to the one who speaks ("how old were you ...?"): grammar."""
_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I've|I'd|me|my|myself)\b")
"""A sentence the one who speaks tells of themselves ("I started my periods at twelve"): grammar."""
_LISTED = re.compile(r",\s+|\s+and\s+")
"""The joints of a list a fact tells ("levothyroxine ..., ramipril ..., and omeprazole")."""
_SEVERAL_TOLD = re.compile(r"\b(?:twice|(?:two|three|four|five|six|several|a few|many|\d+) times|both|several)\b",
                           re.IGNORECASE)
"""A fact that tells of several of a thing by counting them ("antibiotics twice", "admitted three times"): grammar."""
_NAMES_A_THING = re.compile(
    r"^\W*(?:(?:and|so|ok|okay|right|sorry)\W+)*(?:which|what) (?!one\b|ones\b|of\b|time\b|day\b|kind\b|sort\b|type\b)"
    r"(?P<thing>\w+) (?:was|were|is|are) (?:it|they|those|these|that|this)\b",
    re.IGNORECASE,
)
"""A question of which thing it was ("which drops were they?", "what tablets were those?"): grammar; the thing is
the word after "which"."""
_VERB_LED = re.compile(
    r"^\W*(?:(?:and|so|ok|okay|right|sorry)\W+)*(?:any|have|has|had|do|does|did|are|is|was|were|ever|can|could|will|"
    r"would|what|when|where|who|how|why|which)\b",
    re.IGNORECASE,
)
"""A part led by an auxiliary or a question word: a question of its own, not a fragment ("below the knee?")."""
_TIME_OF_DAY = "@time_of_day"
_OTHER_SEX = {"male": "female", "female": "male"}
_SINCE = re.compile(rf"\bsince (?:{_WEEKDAYS})\b|\bsince (?:last|yesterday)\b", re.IGNORECASE)
"""Grammar of when something began, said as since a day ("coughing since Sunday")."""
_AGE_ASKED = re.compile(r"^\W*(?:(?:and|so|ok|okay|right)\W+)*(?:how old|what age)\b", re.IGNORECASE)
"""A question of how old someone is ("and how old is she?")."""
_MALE_PEOPLE = frozenset(read_vocabulary().phrases("patient_male_people")) | _HE
_FEMALE_PEOPLE = frozenset(read_vocabulary().phrases("patient_female_people")) | _SHE


def _sex_told(source: Source) -> str | None:
    """The sex of the person a fact of someone else tells of, as its words say it ("my boyfriend": male; "Ruby,
    she's 3": female; the vocabulary's `patient_male_people`, `patient_female_people` and the pronouns), or None:
    it says neither, or both."""
    said = set(re.findall(r"[a-z]+", f"{source.topic} {source.text}".lower()))  # "daughter's", "she's"
    male, female = bool(said & _MALE_PEOPLE), bool(said & _FEMALE_PEOPLE)
    return "male" if male and not female else "female" if female and not male else None


def _of_someone(source: Source) -> bool:
    """Does a fact tell of someone other than the patient: who lives with them, or a person its topic or answer
    names by who they are ("daughter's symptoms")?"""
    said = set(re.findall(r"[a-z]+", f"{source.topic} {source.text}".lower()))
    return _says_who(source) or bool(said & (_MALE_PEOPLE | _FEMALE_PEOPLE) - _HE - _SHE)


def _person_words(sources: list[Source], *, named: bool = True) -> frozenset[str]:
    """Who the facts name: relatives' words ("brother") in their topic and answer, and (``named``) the names their
    answer gives ("Josh"); without ``named``, every word of them, so a name at the start of a sentence is found."""
    said: set[str] = set()
    for source in sources:
        every = set(re.findall(r"[a-z]+", f"{source.topic} {source.text}".lower()))
        said |= every & _PERSON_WORDS if named else every
        if named:
            said |= {m.group().lower() for m in _NAME.finditer(source.text)}
    return frozenset(said)


def _said_terms(source: Source) -> frozenset[str]:
    """The terms the fact's answer says (its words as written and their concepts)."""
    return frozenset(t for u in units(source.text) for t in u.terms)


def _of_both_sides(source: Source) -> bool:
    """Does the fact say something of both sides, or of the other, in its answer or by a keyword ("The right eye is
    misty ... The left eye sees fine.", keyword "other leg")?"""
    return bool(_BOTH_SIDES.search(source.text)) or any(w & _SIDES_WORDS for w in source.wordings)


@dataclass
class Part:
    """The answer to one question of a message: a ready text, or the facts to say."""

    text: str
    kind: ReplyKind
    asked: str = ""
    """What the matcher read of the question (or of one of its alternatives)."""
    question: Question | None = None
    sources: list[Source] = field(default_factory=list)
    scores: dict[str, float] = field(default_factory=dict)
    """How well each fact matches the part's question."""
    handed: list[str] = field(default_factory=list)
    """The attachments it hands over."""
    heading: bool = False
    """A default for a part that only heads the questions after it ("SH - does she live alone?")."""
    rule: str = ""
    """The rule of :data:`RULES` that planned it."""
    confidence: float = 1.0
    """How sure the patient is that the part answers its question."""
    preface: str = ""
    """A sentence said before the part's facts that says the patient's doubt itself ("I'm not sure about that
    word.")."""

    @property
    def facts(self) -> list[str]:
        return [s.id for s in self.sources if s.id is not None]

    @property
    def uncertain_default(self) -> bool:
        return self.question is not None and self.question.uncertain_default


@dataclass
class Asking:
    """One question being planned: what the rules read, and what they work out once."""

    question: Question
    key: str
    given: list[str]
    """The facts the parts before it in the message already give."""
    _candidates: list[Source] | None = None
    followed_up: bool = False
    """The candidates were resolved against the last reply's topic (a follow-up)."""
    of_the_illness: bool = False
    """It points at the symptom the patient came with as the illness itself ("ever had a rash like this
    before?"), read as "it"."""
    before: str = ""
    """The question before it in the message, as read: what a request that points back ("can I see it?") asks for."""
    about_the_topic: bool = False
    of_a_person: bool = False
    """The question asks of a person told of before the last reply, named by a pronoun ("how old is she?")."""
    """A follow-up that points at what was just said ("how long did that last?"): when the record does
    not say, it is not sure, never the intro or another subject."""
    goes_on: bool = False
    """More parts of the message come after it."""


Applies = Callable[["Planner", Asking], bool]
Answers = Callable[["Planner", Asking], "Part | None"]


@dataclass(frozen=True)
class Rule:
    """One rule of the planner: when it applies to a question, and what it answers (None: the
    question adds nothing to the reply)."""

    name: str
    does: str
    applies: Applies
    answers: Answers


KEYWORDED_ONLY = "alternative_keyworded_only"
"""The rule of a default for an alternative of a list the facts given say only by a keyword ("any on your face or
scalp?" of where the blisters are, keyworded "scalp", whose answer names no scalp): worded beside the facts."""
AFFIRMED_WORDS = 2
"""Subject words of a question a low-scoring fact's story must affirm for the question to be no "No"
("climbing stairs" of "out of breath on the stairs"; one shared word, "blood" of "blood pressure", is chance)."""
TOLD_SHARE = 0.55
"""Share of a question's subject (by weight) a heard fact must say (in its answer or keywords) to be
said again: more than half of what the question is about."""
_WITH_WHAT_WAS_SAID = re.compile(r"\b(?:with|during) (?:those|these|them|that|this|it)\W*$", re.IGNORECASE)
"""A question that ends asking what came with what was just said ("any pain down the legs with those?")."""
SURELY_TOLD = 0.8
"""Share of a question's subject a heard fact must say to be said again without doubt."""
RIVAL_MARGIN = 1e-6
"""A second fact about something else that scores this close to the chosen one makes the question
ambiguous in the record: the patient asks which the doctor means."""
ASKED_BACK = 0.4
"""The confidence of a reply that asks the doctor what was meant."""
WEAK = 0.6
"""The confidence of facts matched only on words of what they tell: said with doubt."""
NEAR_MISS = 0.45
"""A fact about the question's subject that scores this much, though not enough to answer: the
patient is not sure the record says nothing of it, and asks rather than say "No"."""
"""The confidence of a reply that asks the doctor what was meant."""
_PARENTHESES = re.compile(r"\s*\([^)]*\)")
_EMBEDDED = re.compile(r"^\W*(how|what|where|whether|if)\b[^?]*$", re.IGNORECASE)
"""A wh-clause with no question mark after an examination ("I'll check her tummy and how dry she is"):
what the doctor will examine, not a question of its own."""
_WHERE_EXAMINED = re.compile(
    r"^\W*(?:(?:and|also|especially|particularly|mainly)\W+)*(?:in|on|behind|at|under|around|inside|into|over|down|"
    r"between)\s+(?:his|her|your|their|the|both|my)\b(?![^?]*\b(?:is|are|was|were|has|have|had|do|does|did|any)\b)"
    r"[^?]*\??\s*$",
    re.IGNORECASE,
)
"""Only where, after an examination ("can I have a look at him - in his ears and behind the right one?"): the places
examined, not a question of their own."""
_THIS_SYMPTOM = re.compile(r"\bthis (?P<symptom>\w+)", re.IGNORECASE)
_SYMPTOM_LIKE_THIS = re.compile(r"\b(?P<symptom>\w+) like (?:this|that)\b", re.IGNORECASE)
"""A symptom pointed at as the one of now ("this pain", "pain like this")."""


_NO_ARTICLE = re.compile(r"^(when|how|what|where|who|whether|why|which|any|anything|his|her|my|your|their)\b", re.I)


def _label(source: Source) -> str:
    """How the patient names a fact when asking which one the doctor means: its topic, without
    the author's notes in brackets ("the eye episodes", "when the symptoms started")."""
    topic = _PARENTHESES.sub("", source.topic).strip().rstrip(".")
    if not topic:
        return "that"
    return topic if _NO_ARTICLE.match(topic) else f"the {topic}"


_OWN_QUESTION = re.compile(
    r"^\W*(?:(?:and|also|so)\W+)*(?:has|have|had|is|are|was|were|does|do|did)\s+(?:he|she|you|they|u|it)\s+"
    r"(?:\w+\s+){0,2}?\w+(?:ing|ed)\b",
    re.IGNORECASE,
)
"""A yes/no question of its own, a verb asking of something done or going on ("has he been swimming recently",
"have you travelled anywhere"): grammar."""


def _asks_of_its_own(part: Part) -> bool:
    """Is the default's part a yes/no question of its own that asks of something the record never names ("has he been
    swimming recently, and is he still drinking ok?"): its "no" is worded beside the facts for the others, not
    dropped as an aside would be ("sorry, remind me -")."""
    question = part.question
    return (question is not None and question.act == "yesno" and bool(units(question.asked))
            and bool(_OWN_QUESTION.match(question.written)))


_KIND_WORDS = tuple(" ".join(words(p)) for p in read_vocabulary().phrases("patient_kind_words"))
"""Kind words of a doctor's statement ("that sounds really tough", "poor lad")."""


def _kind_words(planner: Planner, asking: Asking) -> bool:
    """Is the question only a statement of kind words: no question mark, a phrase of the vocabulary's
    ``patient_kind_words``, and no act of its own (no examination or instruction; "it must be really frustrating" is
    no diagnosis put)?"""
    question = asking.question
    written = question.written
    return ("?" not in written and question.act in ("request", "yesno", "open", "diagnosis")
            and says_phrase(written, _KIND_WORDS) and not _attachments_wanted(planner, asking))


def _only_opens(written: str) -> bool:
    """Does the question only open the consultation, in words of the vocabulary's ``patient_complaint_asks`` and
    nothing of its own but when ("what's been going on?", "so how can I help you today?")?"""
    said = f" {' '.join(words(written))} "
    found = next((p for p in _COMPLAINT_ASKS if f" {p} " in said), None)
    if found is None:
        return False
    rest = said.replace(f" {found} ", " ", 1)
    return all(u.terms & MODIFIERS or u.text in _OPENING_TIMES for u in units(rest))


_OPENING_TIMES = frozenset({"today", "tonight", "then", "recently", "lately"})
"""Words of when an opening question may end with ("how can I help today?")."""


def _points(question: Question | None) -> bool:
    return question is not None and question.pointer != "none"


def _said_again(text: str, rule: str) -> Part:
    """The intro, or a sentence of it, said again ("As I said, ..."), in one line: the
    case's line breaks are where its author wrapped the text, not where the patient pauses."""
    return Part(voice.REPEAT.format(answer=voice.lower_first(" ".join(text.split()))), "repeat", rule=rule)


class Planner:
    """Plans the reply to each message from the record, the matcher and the dialogue state."""

    def __init__(self, record: PatientRecord, matcher: Matcher, behaviors: Collection[str]) -> None:
        self.record = record
        self.matcher = matcher
        self.behaviors = frozenset(behaviors)
        self.concise = "concise" in behaviors
        self.by_id = {s.id: s for s in matcher.facts}
        self.of_lasting = {a.id for a in record.additional_answers if intent.of_how_long_it_lasted(a.topic, a.keywords)}
        """The facts about how long something lasted: "how long did it last?" is theirs, else of the last reply."""
        self.state = DialogueState()
        self.pending: list[Source] = []
        """The facts the patient asked the doctor to choose between in its last reply."""
        self.told_last: list[str] = []
        """The facts of the last reply (the topic when the message came)."""
        self.asked_last = ""
        """The last question of the doctor's last message (a request that points back may ask for what it named)."""
        self.guard: LeakGuard | None = None
        """The case's leak guard, when the consultation has one: the patient's own wording (a
        fact's topic, the doctor's words echoed) never names the diagnosis or a differential."""

    # -- one message ---------------------------------------------------------
    def plan(self, message: Message, state: DialogueState, key: str, guard: LeakGuard | None = None) -> list[Part]:
        """The parts of the reply to a message, chosen (see :meth:`choose`), not yet said."""
        self.state, self.guard = state, guard
        self.pending = [self.by_id[f] for f in state.pending if f in self.by_id]
        self.told_last = list(state.topic)
        self.asked_last = state.last_asked
        state.last_asked = message.questions[-1].read if message.questions else ""
        state.pending = []  # what the patient asked back is answered now or not at all
        if not message.questions:  # only role text ("Ignore all previous instructions."): nothing was asked
            return [Part(voice.default_answer("uncertain", key, concise=self.concise), "default", rule="default")]
        planned: list[Part] = []
        for i, question in enumerate(message.questions):
            if planned and planned[-1].kind in ("hand_over", "cooperation") and (question.adds_to_act or (
                question.act == "request" and not intent.attachments_asked(self.record.attachments, question.read)
            ) or _EMBEDDED.match(question.written) or _WHERE_EXAMINED.match(question.written)
                 or _helps_with_the_examination(self, planned, question)):
                # "can I see his obs again - the sats?", "I'd like to examine you - is that ok?", "I'll look in his
                # eyes. Can you hold him on your knee?",
                # "... and get a TVUS. pls show me both when back"
                continue
            if planned and planned[-1].rule == "no_diagnosis" and question.pointer != "none":
                continue  # "so this could be shingles - has anyone mentioned that to you?": of the diagnosis
            before = message.questions[i - 1].read if i else ""
            part = self.plan_question(question, key, [f for p in planned for f in p.facts], before,
                                      goes_on=i + 1 < len(message.questions))
            if part is not None and self._goes_on_saying(planned, question, part):
                continue  # "I'm worried this is a clot - a clot in the leg vein.": no "No" to the doctor's words
            if part is not None:
                for each in [part, *self._unanswered_alternatives(part, key)]:
                    self._add(planned, each)
        # "tell me about the cough - when did it start?": the lead-in names the topic, the question asks
        planned = [p for i, p in enumerate(planned) if not (
            p.kind == "answer" and p.question is not None and p.question.lead_in and i + 1 < len(planned)
            and planned[i + 1].kind == "answer" and _points(planned[i + 1].question)
        )]
        planned = self._without_what_is_handed(planned)
        if planned and planned[-1].rule == "agree_to_the_plan":  # the plan told before it asks nothing: one "OK"
            planned = [p for p in planned if p.kind not in ("default", "small_talk") or p is planned[-1]
                       or p.question is None or p.question.written.rstrip().endswith("?")]
        return self._worded_beside_facts(self.choose(planned), key)

    @staticmethod
    def _goes_on_saying(planned: list[Part], question: Question, part: Part) -> bool:
        """Is the part only a list of things, with no question mark, after the doctor's statement ("I'm worried
        this is a clot - a clot in the leg vein."), that no fact or attachment answers? The statement goes on."""
        return (bool(planned) and planned[-1].rule == "doctor_says" and question.lists_only
                and not question.written.rstrip().endswith("?") and part.kind in ("default", "clarification"))

    def _without_what_is_handed(self, planned: list[Part]) -> list[Part]:
        """The parts without those asking whether the patient has what the message then asks them for ("do
        you have a pulse oximeter there? could you do a reading for me now?"), or naming what the request after
        them points at ("they took an X-ray, didn't they? can I see it"): the hand-over answers them."""
        handed = [a for a in self.record.attachments if any(a.id in p.handed for p in planned)]

        def pointed_at(i: int) -> bool:
            after = planned[i + 1] if i + 1 < len(planned) else None
            return after is not None and after.kind == "hand_over" and after.question is not None and (
                intent.asks_for_what_was_named(after.question.read))

        return [p for i, p in enumerate(planned) if not (
            p.kind not in ("hand_over", "cooperation") and p.question is not None
            and (intent.asks_possession(p.question.written) or pointed_at(i))
            and any(intent.names(a, p.question.read) for a in handed)
        )]

    def plan_question(self, question: Question, key: str, given: list[str], before: str = "", *,
                      goes_on: bool = False) -> Part | None:
        """The part the first rule that applies gives (None: nothing to add)."""
        question = self._told_the_diagnosis(question)
        read = self._of_the_illness(question)
        asking = Asking(read, key, given, of_the_illness=read is not question, before=before, goes_on=goes_on)
        for rule in RULES:
            if rule.applies(self, asking):
                part = rule.answers(self, asking)
                if part is not None:
                    part.rule = part.rule or rule.name
                    part.question = part.question or question
                return part
        raise AssertionError("the last rule always applies")  # pragma: no cover

    def _told_the_diagnosis(self, question: Question) -> Question:
        """Whether anyone told the patient they have the case's diagnosis or a differential ("has anyone ever said
        you've got spinal stenosis?"; `patient_mentioned_to_you`, by the guard's names: the record does not say
        them) asks to confirm a diagnosis the patient does not know, never the fact that shares a word with it."""
        if (self.guard is None or question.act not in ("yesno", "open")
                or not intent.asks_if_mentioned(question.written)):
            return question
        said = self.guard.check(question.written)
        return replace(question, act="diagnosis") if said in ("names_diagnosis", "names_differential") else question

    def _of_the_illness(self, question: Question) -> Question:
        """The question with the symptom it points at as the illness itself ("when did this pain come on?", "ever
        had pain like this before?", of a patient who came with the pain) read as "it": what it asks is when, how
        or whether before, of the illness, and a fact of that answers it whatever symptom it names."""
        asked = _THIS_SYMPTOM.sub(lambda m: self._unless_complaint(m, "symptom"), question.asked)
        asked = _SYMPTOM_LIKE_THIS.sub(lambda m: self._unless_complaint(m, "symptom"), asked)
        if asked == question.asked or not units(asked):
            return question
        return replace(question, asked=asked)

    def _unless_complaint(self, match: re.Match[str], group: str) -> str:
        """The match without its symptom word when that word is only the complaint the patient came with."""
        said = units(match.group(group))
        complaint = self.matcher.complaint
        if len(said) == 1 and said[0].terms & complaint and not said[0].terms & BODY_PARTS - complaint:
            start, end = match.span(group)
            whole = match.group()
            return whole[: start - match.start()] + whole[end - match.start():]
        return match.group()

    # -- which facts -----------------------------------------------------------
    def candidates(self, asking: Asking) -> list[Source]:
        """The facts that answer the question, follow-ups resolved against the last reply's topic
        (worked out once per question)."""
        if asking._candidates is None:
            question = asking.question
            sources = self.matcher.facts_for(question.asked, of_the_illness=asking.of_the_illness)
            led = self._of_the_lead_in(question, asking.given) if question.led else []
            if led:  # "tell me about the flashes - where in your vision?": where the flashes are
                sources = led
                asking.followed_up = True
            elif not self.has_subject(asking.before) and not self.aged_then(question.read) and (
                earlier := self._of_the_person_told_before(question)
            ):
                # "and how old is she?" after the boyfriend: the daughter told before him, never his fact
                sources = [earlier] if self._says_of_them(question, earlier) or not _AGE_ASKED.match(
                    question.written) and not any(
                    m.source is not earlier and m.score >= MATCH_THRESHOLD
                    for m in self.matcher.score(question.asked, self.matcher.facts)) else []
                asking.followed_up = asking.of_a_person = True
                asking.about_the_topic = not sources and question.act != "yesno"  # else the case's default
            elif not self.has_subject(asking.before) and (person := self._of_the_person_just_told(question)):
                sources = person  # "what treatment was he on?" after the uncle's TB: the uncle's, not the patient's
                asking.followed_up = True
                if _AGE_ASKED.match(question.written) and not self._says_of_them(question, person[0]) and not (
                    sources := self.aged_then(question.read)  # "how old was he then?": the fact of his age then
                ):
                    # "how old is he?" after the nephew in hospital: his age, not said; never that fact again
                    asking.of_a_person = True
                    asking.about_the_topic = question.act != "yesno"
            elif side := self._side_of_the_part_just_told(question):
                sources = side  # "which leg?", "same ear?" after "one on my right shin": the side that fact says
                asking.followed_up = True
            elif self.state.topic and self._follows_up(question) and not question.again:
                # "what was it you ate again?" goes back further
                sources = self._follow_up(question.read, sources, question.pointer)
                asking.followed_up = True
                asking.about_the_topic = question.pointer == "that" and not sources
            elif where_on := self._where_on_the_part_just_told(question):
                sources = where_on  # "which side of your back?" after the patch on the back: where the patch is
                asking.followed_up = True
            elif self._of_the_last_reply(question, sources):
                sources = sources[:1]  # "have you managed all the doses?" after the antibiotics: of them
            elif (kept := self._kept_on_the_message(question, sources, asking.given)) is not None:
                sources = [kept]  # "how long was the flight, and did you get up and walk about?": on the flight
            if (sources and not asking.followed_up and _WHICH_OF_THEM.match(question.read)
                    and sources[0].id in self.told_last and len(_LISTED.findall(sources[0].text)) >= 2):
                # "which one was most recent?" after "two chest infections", of "recent infections": the question's
                # word is the listing fact's own, so it asks on of that fact
                asking.followed_up = True
            if not sources and self.state.topic and question.who != "informant" and (
                told := self._told_by_the_last_reply(question) if not question.again
                else self._named_by_the_last_reply(question)
            ):
                sources = told  # "what time was that?" after the blue spell "at three o'clock": that spell
                asking.followed_up = True
            if not asking.followed_up:  # "PMH?": the diabetes the doctor has not heard, told apart from the rest
                sources = [s for s in self.matcher.of_the_whole_history(question.asked, sources)
                           if s in sources or not self.state.disclosed.get(s.id or "")]
                sources = [s for s in self.matcher.of_the_whole_medicine_list(question.asked, sources)
                           if s in sources or not self.state.disclosed.get(s.id or "")]
            if sources and self._of_the_other_side(question.asked):
                # "any swelling in the other leg?": a fact of this leg says nothing of the other
                sources = [s for s in sources if _of_both_sides(s)]
                asking.about_the_topic = asking.followed_up and question.pointer == "that" and not sources
            if sources and asking.followed_up:
                # "has anyone looked at that shoulder?" after the tablets "for my bad shoulder": not told
                sources = [s for s in sources if not self.matcher.seen_untold(s, question.asked)]
            asking._candidates = sources
        return asking._candidates

    def _told_by_the_last_reply(self, question: Question) -> list[Source]:
        """When no fact answers a question by itself, the fact of the last reply that says what it asks: when or
        at what time (a point in time it says: "what time was that?" after "at about three o'clock"), how old
        (an age it says: "how old were you then?" after "when I was about five"), what was found (any fact just
        told: "what did they find?" after the colonoscopy), which of them (a fact that lists several: "which one was
        most recent?" after the medicines), or an aspect of words it says ("when did you run out?" after "I ran out a
        month ago")."""
        topic = [self.by_id[f] for f in self.state.topic if f in self.by_id]
        text = question.read
        if _ASKS_WHAT_FOUND.match(text):
            return [t for t in topic if _FINDING_TOLD.search(t.text)][-1:]
        if _ASKS_AGE_THEN.match(text):
            return [t for t in topic if _SAYS_AGE.search(t.text)][-1:]
        if _WHICH_OF_THEM.match(text) and not self.has_subject(text):
            return [t for t in topic if len(_LISTED.findall(t.text)) >= 2][-1:]  # "which one was most recent?"
        said = [u for u in units(text) if not u.terms & DESCRIPTORS]
        if _ASKS_HOW_MANY.match(text) and not said:
            return [t for t in topic if intent.says_how_often(t.text)][-1:]
        timed = [t for t in topic if _POINT_IN_TIME.search(t.text)]
        if _ASKS_WHAT_TIME.match(text) and not said:
            # "what time?" after "it wakes me around four in the morning": a point in time, else a time of day
            return timed[-1:] or [t for t in topic if _TIME_OF_DAY in _said_terms(t)][-1:]
        if own := self._named_by_the_last_reply(question):
            return own
        if said and any(u.terms & DESCRIPTORS for u in units(text)):
            own = [t for t in topic if all(u.terms & {tt for w in units(t.text) for tt in w.terms} for u in said)]
            if _ASKS_WHAT_TIME.match(text):
                own = [t for t in own if t in timed]
            return own[-1:]
        return []

    def _named_by_the_last_reply(self, question: Question) -> list[Source]:
        """A fragment ("below the knee?" after "never below the knee") or a question of which thing it was ("which
        drops were they, do you remember?" after "steroid drops", asked again or not), when no fact answers it by
        itself: the fact just told that says its words as written (of which, the thing it names)."""
        text = question.read
        said = [u for u in units(text) if not u.terms & DESCRIPTORS]
        which = _NAMES_A_THING.match(text)
        if not said or not (which or len(words(text)) <= ELLIPSIS_WORDS and not _VERB_LED.match(text)):
            return []
        named = units(which.group("thing")) if which else tuple(said)
        topic = [self.by_id[f] for f in self.state.topic if f in self.by_id]
        return [t for t in topic if named and all(
            {w for w in u.terms if not w.startswith("@")} & _said_terms(t) for u in named)][-1:]

    def _not_the_patients(self, said: set[str]) -> bool:
        """Does the question name a person by a pronoun only of the sex the patient is not ("how old is she?" of a
        boy, asked of his mother): someone else, the person just told of, though a parent speaks?"""
        sex = self.record.patient.sex
        own, other = (_HE, _SHE) if sex == "male" else (_SHE, _HE) if sex == "female" else (frozenset(), frozenset())
        return bool(said & other) and not said & own

    def _of_the_person_just_told(self, question: Question) -> list[Source]:
        """The fact the last reply told of someone (a relative, the people at home), when a patient who speaks for
        themselves asks of a person by a pronoun only ("how old was she when she had the stroke?", "what treatment
        was he on?", "are any of them unwell?"): that fact, when it says something the question asks of, or when no
        other fact answers the question. A pronoun of a child or a parent spoken for is the patient, and one after a
        part of the message that names something ("they gave you tablets, what were they?") is of that: not this."""
        said = set(words(question.written))
        if self.matcher.person_asked(question.asked) is not None:
            return []  # "how old was Ron when his Alzheimer's started?": of the person it names, whose facts decide
        if not _THIRD_PERSONS & said or (self.record.patient.informant != "self" and not self._not_the_patients(said)):
            return []
        told = [self.by_id[f] for f in self.told_last if f in self.by_id]
        people = [s for s in told if _says_who(s)]
        one = bool(_ONE_PERSON & set(words(question.written)))
        if not people or not one and len(people) < len(told):
            return []  # "when did they start?" after the headaches and who is at home: the headaches
        subject = self.matcher.subject_units(question.asked)
        saying = [m for m in self.matcher.score(question.asked, people) if any(m.per_unit[i] > 0 for i in subject)]
        others = [m for m in self.matcher.score(question.asked, self.matcher.facts) if m.source not in people]
        best = others[0].score if others and others[0].score >= MATCH_THRESHOLD else 0.0
        if not saying and self.record.patient.informant != "self" and subject:
            # "is he up to date with his jabs?" of a girl's brother just told: a fact that names him (his name or
            # who he is) and says what is asked, never the girl's own jabs
            who = _person_words(people)
            theirs = [m for m in others if who & _person_words([m.source], named=False)
                      and any(m.per_unit[i] > 0 for i in subject)]
            if theirs:
                return [theirs[0].source]
        if saying:  # "they" may be anyone ("they post out a kit"): left for a fact that matches clearly better
            return [saying[0].source] if one or best <= saying[0].score + FOLLOW_UP_BONUS else []
        # asked of nothing any other fact says ("are any of them unwell?"): of them, not an uncovered question
        return [] if any(m.per_unit[i] > 0 for m in others for i in subject) else people[-1:]

    @staticmethod
    def _symptom_told_with_its_start(question: str, topic: list[Source]) -> bool:
        """Is the question one of when ("when did it start?") or how long ("how long has that been going on?") right
        after a fact of a symptom that says when it began ("pins and needles in both feet started about three months
        ago") or for how long ("for about two months")? Then "it" is that symptom, not the illness the patient came
        with."""
        if not topic or not topic[-1].named.intersection(SYMPTOM_CONCEPTS):
            return False
        if _ASKS_WHEN.match(question):
            return bool(_POINT_IN_TIME.search(topic[-1].text))
        return bool(_ASKS_HOW_LONG.match(question) and not intent.asks_how_long_it_lasted(question)
                    and (_POINT_IN_TIME.search(topic[-1].text) or _FOR_A_WHILE.search(topic[-1].text)))

    def _of_the_person_told_before(self, question: Question) -> Source | None:
        """The fact of the person last told of whom a pronoun of one sex fits (:func:`_sex_told`), when a patient who
        speaks for themselves is asked of a person by a pronoun only: of the last reply ("whereabouts is her rash?"
        after the boyfriend and the daughter), or, when every person that reply told of is of the other sex, told
        before it ("and how old is she?" after the boyfriend's itch: the daughter), as when the last reply told no fact;
        else None."""
        said = set(words(question.written))
        sex = "male" if said & _HE and not said & _SHE else "female" if said & _SHE and not said & _HE else None
        if sex is None or self.record.patient.informant != "self" or self.matcher.person_asked(question.asked):
            return None
        people = [self.by_id[f] for f in self.told_last if f in self.by_id and _of_someone(self.by_id[f])]
        if fitting := [s for s in people if _sex_told(s) == sex]:
            return fitting[-1]  # "whereabouts is her rash?" after the boyfriend and the daughter: the daughter
        if self.told_last and (not people or any(_sex_told(s) != _OTHER_SEX[sex] for s in people)):
            return None  # the last reply told of something else, or of someone the pronoun may be
        for fact in reversed(self.state.told):
            source = self.by_id.get(fact)
            if source is not None and _of_someone(source) and _sex_told(source) == sex:
                return source
        return None

    def _says_of_them(self, question: Question, source: Source) -> bool:
        """Does the fact of a person say what the question asks of them: a word of its subject, an age asked how old
        ("she's 3"), a time asked when ("since Sunday"), or a part of the body asked where ("spots on her feet")?"""
        subject = self.matcher.subject_units(question.asked)
        scored = self.matcher.score(question.asked, [source])
        if scored and any(scored[0].per_unit[i] > 0 for i in subject):
            return True
        if _AGE_ASKED.match(question.written) and SAYS_AN_AGE.search(source.text):
            return True
        if _ASKS_WHEN.match(question.written) and (_POINT_IN_TIME.search(source.text) or _SINCE.search(source.text)):
            return True  # "when did she start?": "coughing since Sunday"
        if _HOW_LONG_ASKED.match(question.written) and _FOR_A_WHILE.search(source.text):
            return True  # "how long did it take to settle for her?": "a stiff shoulder for about two years"
        return any("@location" in u.terms for u in units(question.asked)) and any(
            u.terms & PARTS_OF_THE_BODY for u in units(source.text))

    def _where_on_the_part_just_told(self, question: Question) -> list[Source]:
        """The fact the last reply told, when the question asks only where on a part of the body that fact says
        ("which side of your back?" after "a red patch on my back"): the doctor asks on about it, not about
        another fact of that part (the pain that goes round to the back)."""
        asked = units(question.asked)
        parts = [u for u in asked if not u.terms & DESCRIPTORS]
        if (
            question.alternatives or not any("@location" in u.terms for u in asked)
            or not parts or not all(u.terms & PARTS_OF_THE_BODY for u in parts)
        ):
            return []
        told = [self.by_id[f] for f in self.told_last if f in self.by_id]
        return [s for s in told if all(u.terms & s.told for u in parts)][-1:]

    def _side_of_the_part_just_told(self, question: Question) -> list[Source]:
        """The fact the last reply told, when it says which side ("one on my right shin", "always the right ear")
        and the question asks only which one, or the same one, of that part of the body ("which leg?", "same
        ear?"): the doctor asks on about that fact, not about another fact of the part (the hearing, by "ear")."""
        written = question.written
        if question.alternatives or not _SIDE_ASKED.match(written) or len(words(written)) > SIDE_QUESTION_WORDS:
            return []
        parts = [u for u in units(question.asked) if not u.terms & DESCRIPTORS]
        if not parts or not all(u.terms & PARTS_OF_THE_BODY for u in parts):
            return []
        told = [self.by_id[f] for f in self.told_last if f in self.by_id]
        return [s for s in told if _LATERAL.search(s.text) and all(
            any(s.profile.get(t, 0.0) > 0 for t in u.terms & PARTS_OF_THE_BODY) for u in parts
        )][-1:]

    def _of_the_last_reply(self, question: Question, sources: list[Source]) -> bool:
        """Is the fact that answers the question best the one the last reply told, and does it say every word of
        what the question is about ("have you managed all the doses?" after the antibiotics)? The doctor asks on
        about it: another fact that shares a word ("taking" of the other medicines) is not the answer."""
        if not sources or sources[0].id not in self.told_last or question.alternatives or asks_all_of(question.asked):
            return False  # "what are all the tablets you take?" asks for the others too
        subject = self.matcher.subject_units(question.asked)
        matches = self.matcher.score(question.asked, sources[:1])
        return bool(subject and matches) and all(matches[0].per_unit[i] > 0 for i in subject)

    def _kept_on_the_message(self, question: Question, sources: list[Source], given: list[str]) -> Source | None:
        """The fact an earlier question of the message drew, when it says every word of what this one is about and
        another fact matches it not clearly better ("how long was the flight, and did you get up and walk about?":
        the flight, which says "I didn't get up much", not the calf pain worse when walking)."""
        drawn = [self.by_id[f] for f in given if f in self.by_id]
        if not drawn or not sources or sources[0] in drawn or question.alternatives or question.who == "informant":
            return None  # "did she have her vit K? and are you on any medication yourself?": of the mother
        subject = self.matcher.subject_units(question.asked)
        matches = self.matcher.score(question.asked, [sources[0], *drawn])
        best = next(m.score for m in matches if m.source is sources[0])
        return next((m.source for m in matches if m.source in drawn and m.score >= MATCH_THRESHOLD
                     and m.score + FOLLOW_UP_BONUS > best and subject
                     and all(m.per_unit[i] > 0 for i in subject)), None)

    @staticmethod
    def _of_the_other_side(question: str) -> bool:
        """Does the question ask of the other side of the body ("the other leg", "the other side")?"""
        other = _OTHER_SIDE.search(question)
        if other is None:
            return False
        part = other.group("part") or other.group("parts")
        return part.lower() == "side" or any(u.terms & BODY_PARTS for u in units(part))

    def _of_the_lead_in(self, question: Question, given: list[str]) -> list[Source]:
        """The fact a lead-in of the message drew ("tell me about the flashes - ..."), when it says something of
        every word of what the question after it asks ("where in your vision?")."""
        topic = [self.by_id[f] for f in self.state.topic if f in self.by_id and f in given]
        subject = self.matcher.subject_units(question.asked)
        return [m.source for m in self.matcher.score(question.asked, topic)
                if m.score > 0 and all(m.per_unit[i] > 0 for i in subject)][:1]

    def new_facts(self, asking: Asking) -> list[Source]:
        """The candidates that are not in the reply yet; a second fact the doctor has already
        heard is not said again unasked."""
        sources = self.candidates(asking)
        given = asking.given
        if sources and sources[0].id in given:
            # the fact it asks for is already in this reply; the alternatives it lists that other
            # facts answer are still told ("PMH? any meds or allergies?")
            listed = self._listed_elsewhere(asking.question.read, given)
            sources = [s for s in sources[1:] if s.id in listed]
        sources = [s for s in sources if not self._heard_of_something_else(asking, s)]
        # a heard fact that alone answers an alternative of the list is asked again ("any mouth ulcers, or rashes
        # in the sun?": the skin's "no rashes" as well as the mouth's "no ulcers")
        own = self._listed_elsewhere(asking.question.read, [*given, sources[0].id or ""], told=True) if (
            len(sources) > 1
        ) else set()
        return [s for i, s in enumerate(sources) if s.id not in given and not (
            i and s.id in self.state.disclosed and s.id not in own
        )]

    def _heard_of_something_else(self, asking: Asking, source: Source) -> bool:
        """Is the fact one the doctor has heard, asked about again (not asked again, nor a follow-up on it) in
        words it does not say, in its answer or its keywords? The doctor asks of something the fact does not
        tell ("did your dad smoke?" after the patient's own smoking): saying it again would put a fact the doctor
        knows in place of an answer. A follow-up spares only the fact it stays on: one whose own words found
        another heard fact ("when did you last see the optician?" after the eyes: the onset, by "when") asks of
        something else all the same."""
        on_the_topic = source.id in self.told_last or source.id in asking.given or asking.of_a_person
        return (not (asking.followed_up and on_the_topic) and not self._elsewhere_of_the_site_just_told(asking, source)
                and not quotes(asking.question.read, source)  # "was the blood all the way through the stream?"
                and self._heard_without(asking, source, keywords=True)) or self._aspect_untold(asking, source)

    def _aspect_untold(self, asking: Asking, source: Source) -> bool:
        """Is the fact one the doctor has heard, asked whether or which of a when or a what-makes-it-worse it does
        not say ("do you take the omeprazole before breakfast?", "in the morning or at night?" of the medicines;
        "does the milk make her tummy worse?" of how much milk she drinks)? The fact says the thing, not that:
        said again, it would answer what it does not tell."""
        question = asking.question
        if source.id not in self.state.disclosed or question.again:
            return False
        if self.matcher.detail_untold(source, question.asked):
            return True  # "which side was it?" of a fact that says no side
        if question.act != "yesno":
            return question.act == "open" and self.matcher.duration_untold(source, question.asked)
        return self.matcher.aspect_untold(source, question.asked)

    def _elsewhere_of_the_site_just_told(self, asking: Asking, source: Source) -> bool:
        """Is the fact the one of where something is, which the last reply told, and the question whether it is on
        another part of the body ("any on her knees too?" after "on her elbows and shins")? Where it is says it
        is not there: the doctor asks on about the same fact, not of something else."""
        return (source.id in self.told_last and "@location" in source.named and asking.question.act == "yesno"
                and any(u.terms & PARTS_OF_THE_BODY for u in units(asking.question.asked)))

    def _heard_without(self, asking: Asking, source: Source, *, keywords: bool) -> bool:
        """Has the doctor heard the fact, and does the question, not asking again, ask of what the fact says
        little of (in its answer, or with ``keywords`` in its keywords too, where a kind of medicine is said only by
        its own names: the regular tablets say no "antibiotics")?"""
        question = asking.question
        return (source.id in self.state.disclosed and not question.again
                and self.matcher.told_share(source, question.asked, keywords=keywords, by_name=keywords) < TOLD_SHARE)

    def answer_facts(self, asking: Asking) -> Part:
        """The facts that answer the question; when another fact about something else fits it as
        well, the patient asks which the doctor means instead of picking one."""
        sources = self.new_facts(asking)
        rival = self._rival(asking, sources)
        if rival is not None:
            self.state.pending = [s.id for s in (sources[0], rival) if s.id]
            text = self._unleaked(voice.ask_which(_label(sources[0]), _label(rival), asking.key), asking.key)
            return Part(text, "clarification", asking.question.read, confidence=ASKED_BACK, rule="ask_which")
        part = self.answer_part(asking.question.read, sources)
        doubtful = (self._only_in_the_story(asking, sources) or self._heard_by_keyword(asking, sources)
                    or self._only_heard(asking, sources)
                    or any(self.matcher.kind_untold(s, asking.question.asked) for s in sources))
        if not asking.followed_up and doubtful:
            part.confidence = WEAK  # "does she snore?" of a fit "noisy, like snoring": said with doubt
        return part

    def _only_heard(self, asking: Asking, sources: list[Source]) -> bool:
        """Is every fact of the answer one the doctor has heard, asked about with no word of asking again
        ("sorry", "remind me")? A doctor who heard it asks of something else more often than not."""
        return not asking.question.again and all(
            s.id in self.state.disclosed and not quotes(asking.question.read, s)
            and self.matcher.told_share(s, asking.question.asked, keywords=True, by_name=True) < SURELY_TOLD
            for s in sources
        )

    def _heard_by_keyword(self, asking: Asking, sources: list[Source]) -> bool:
        """Is a fact the doctor has heard said again for words only its keywords hold, not its answer ("any
        history of cancer?" of the clot risks, whose author listed "cancer" among their keywords)? The patient
        says it again with doubt, not as the answer."""
        return any(self._heard_without(asking, s, keywords=False) for s in sources)

    def _only_in_the_story(self, asking: Asking, sources: list[Source]) -> bool:
        """Do the facts share with the question only words of what they tell, none of what they are
        about (their keywords and topic), name no medicine the question names and tell nothing the question
        asks what happened with ("what happened with the codeine?")? Then the facts may
        well be about something else."""
        asked = asking.question.asked
        for match in self.matcher.score(asked, sources):
            if max(match.per_unit, default=1.0) >= NAMED_STRENGTH - TIE:
                return False
            if self.matcher.names_its_medicine(match, asked) or self.matcher.tells_what_happened(match, asked):
                return False
            if self.matcher.says_what_it_is_for(asked, match.source):  # "what's the tamsulosin for?"
                return False
        return True

    def _rival(self, asking: Asking, sources: list[Source]) -> Source | None:
        """Another fact, about something else, that answers the question as well as the one chosen
        (as strongly, by words of what it is about, said as closely): the question is ambiguous in
        this record. A follow-up is decided by the dialogue, a list of alternatives by its parts."""
        question = asking.question
        if asking.followed_up or question.alternatives or len(sources) != 1 or not question.subject:
            return None
        asked = question.asked
        ranked = self.matcher.ranked(asked, of_the_illness=asking.of_the_illness)
        if len(ranked) < 2 or ranked[0].source is not sources[0]:
            return None
        chosen, other = ranked[0], ranked[1]
        if other.score < max(chosen.score - RIVAL_MARGIN, MATCH_THRESHOLD) or other.source.worded(asked) < (
            chosen.source.worded(asked)
        ):
            return None
        if not self.matcher.names(other.source, asked) or not self.matcher.names(chosen.source, asked):
            return None
        if self.matcher.timed_units(asked, other):
            return None  # "when did the blisters start?": the rash "before the blisters" only says when it was
        if self._heard_of_something_else(asking, other.source):
            return None  # a fact the doctor heard, asked of in words it does not say, is not what is meant
        if self.matcher.heads(other.source, asked) < self.matcher.heads(chosen.source, asked) == len(
            self.matcher.subject_units(asked)
        ):
            return None  # the chosen fact's topic says all that is asked; the other only lists its words
        if self.matcher.heads_the_attribute(chosen.source, asked) and not self.matcher.heads_the_attribute(
            other.source, asked
        ):
            return None  # "what do you eat?" asks of the diet, which the chosen fact's topic is
        return other.source

    def _listed_elsewhere(self, question: str, given: list[str], *, told: bool = False) -> set[str | None]:
        """The facts that answer an alternative of the question ("any meds or allergies?") which
        no fact already in the reply answers, each named by its alternative (with ``told``, and said in its answer,
        not only by a keyword: "glucose tablets" is not the meter reading keyworded "glucose")."""
        found: set[str | None] = set()
        for alternative in read_question(question).alternatives:
            matches = self.matcher.score(alternative, self.matcher.facts)
            if any(m.source.id in given and m.score >= MATCH_THRESHOLD for m in matches):
                continue  # the reply already answers it
            facts = self.matcher.facts_for(alternative)
            if facts and self.matcher.names(facts[0], alternative) and (
                not told or self.matcher.told_share(facts[0], alternative, keywords=False) >= TOLD_SHARE
            ):
                found.add(facts[0].id)
        return found

    def answer_part(self, asked: str, sources: list[Source]) -> Part:
        """A part answered by these facts."""
        scores = {m.source.id: m.score for m in self.matcher.score(asked, sources) if m.source.id}
        self.state.topic = [s.id for s in sources if s.id]  # a later part may follow up on it
        return Part("", "answer", asked, sources=sources, scores=scores)

    def _follow_up(self, question: str, sources: list[Source], pointer: str = "none") -> list[Source]:
        """A follow-up stays with the topic of the last reply: "which side?" after the
        chest pain is about the chest pain, as long as that fact says something about it
        (else "how bad is it?" goes to the fact that says how bad). A follow-up whose words
        the record does not know ("what were you doing beforehand?") also stays; one with a
        subject of its own leaves the topic for a fact that matches clearly better. The first rule of
        :data:`FOLLOW_UP_RULES` that applies gives the facts."""
        follow = FollowUp(self, question, sources, pointer)
        for rule in FOLLOW_UP_RULES:
            if rule.applies(follow):
                return rule.facts(follow)
        raise AssertionError("the last follow-up rule always applies")  # pragma: no cover

    def _asks_another_fact_of_the_side(self, asked: tuple[Unit, ...], topic: list[Source]) -> bool:
        """Does a question of a side ("how's the hearing on that side?" after "just the left ear") ask of a thing of
        its own that the fact just told does not say as written, in its answer or keywords (the ear is no "hearing",
        though they share a concept), and another fact's topic says whole (the hearing)? Then it asks that fact of
        the side, not where the last one was."""
        own = [{t for t in u.terms if not t.startswith("@")} for u in asked
               if "@location" not in u.terms and not u.terms & DESCRIPTORS]
        last = topic[-1]
        return bool(own) and all(own) and not any(w & (last.told | last.keyworded) for w in own) and any(
            all(w & f.headed for w in own) for f in self.matcher.facts if f not in topic
        )

    @staticmethod
    def _topic_says_as_written(source: Source, asked: tuple[Unit, ...]) -> bool:
        """Does the fact's topic say every word of the question as the question writes it ("the cramps and muscle
        weakness" of "the cramps"): a word that is also how a pain feels names that fact, not a quality."""
        return bool(asked) and all(
            any(t in source.headed for t in u.terms if not t.startswith("@")) for u in asked
        )

    @staticmethod
    def _says_as_written(source: Source, asked: tuple[Unit, ...]) -> bool:
        """Does the fact say a word of the question as the question writes it, not only a concept they share
        ("tight" of blisters "big and tight"; the stinging skin is only a word of what a pain is like)?"""
        return any(t in source.terms for u in asked for t in u.terms if not t.startswith("@"))

    @staticmethod
    def _subjects(topic: list[Source]) -> frozenset[str]:
        """What the facts of the last reply are about (their topic's and keywords' concepts, not how or when)."""
        return frozenset(t for f in topic for t in f.named if t.startswith("@") and t not in DESCRIPTORS | MODIFIERS)

    @staticmethod
    def _quantity_told(
        asked: tuple[Unit, ...], topic: list[Source], matches: list[Match], subjects: frozenset[str] = frozenset()
    ) -> list[Source]:
        """The fact of the last reply that gives what a follow-up asks only how high or how often of ("how high
        did it get?" after "38.9 on the thermometer", "how often do you go?" after "every four or five days"),
        when no other fact of the same thing answers it: its number is the answer, whatever else the reply told
        beside it (a fact of something else keyworded "often" is no answer to "how often?" after the migraines)."""
        if matches and matches[0].score >= MATCH_THRESHOLD and matches[0].source not in topic and (
            not subjects or matches[0].source.named & subjects
        ):
            return []
        high = any("@severity" in u.terms for u in asked)
        often = any("@frequency" in u.terms for u in asked)
        return [t for t in topic
                if (high and _READING.search(t.text)) or (often and intent.says_how_often(t.text))][-1:]

    def _follows_up(self, question: Question) -> bool:
        """Is the part about what was just said: it points back ("does it go anywhere?", "and the
        other eye?"), or is an open question without a subject of its own ("which side?", "since
        when?")? A whole question with no content word and nothing to point with ("and how are you
        feeling in yourself?") is not, however it starts. A long part that points and asks only how
        ("is that there all the time or does it come and go?") points back too."""
        if question.who == "informant":
            return False  # "and are you on any medication yourself?" asks the mother, not of the baby's topic
        if self._past_episode_pointed(question.read):
            return True  # "how long did the clumsy hand last that time?" after the episode two weeks ago
        if self.told_who_knows(question.read):
            return True  # "does your son know?" after "only my sister knows, not my son": of that fact
        if self.aged_then(question.read):
            return True  # "how old were you?" after "when I was about twelve": the age that fact tells
        if voice.small_talk(question.written, "") is not None:
            return False  # "how are you?" after the smoking asks after the patient, not how much they smoke
        if intent.asks_use_of_it(question.read) and any(
            self.by_id[f].profile.get("@medication", 0.0) > 0 for f in self.state.topic if f in self.by_id
        ):
            return True  # "how many do u take?" after the laxatives: of them, not of the regular tablets
        pointed = question.pointer != "none"
        unsubjected = not self.has_subject(question.read)
        said = units(question.read)
        only_how = unsubjected and bool(said) and all(u.terms & DESCRIPTORS for u in said)
        if not (question.refers_back or (unsubjected and (question.act == "open" or pointed or only_how))):
            return False  # "both sides or just one?" asks how of what was just said, as "which side?" does
        return bool(units(question.read)) or len(words(question.read)) <= ELLIPSIS_WORDS or pointed

    def medicine_for(self, asking: Asking) -> list[Source]:
        """The fact of the medicines that names what a question of which medicine asks it is for ("which of his
        tablets is the one for his bladder?"), when the question names medicines and none of this reply has it yet."""
        what = intent.which_one_is_for(asking.question.read)
        if what is None or not any("@medication" in u.terms for u in units(asking.question.read)):
            return []
        medicines = [s for s in self.matcher.facts if "@medication" in s.headed]
        found = [m.source for m in self.matcher.score(what, medicines)
                 if m.score > 0 and self.matcher.told_share(m.source, what, keywords=False) > 0]
        return [] if not found or found[0].id in asking.given else found[:1]

    def told_who_knows(self, question: str) -> list[Source]:
        """The fact of the last reply that says whether the person a question asks of knows or was told ("does your
        son know?" after "only my sister knows, not my son"), not a fact that only names them ("my son says ...")."""
        person = intent.knowing_asked(question)
        if person is None:
            return []
        return [t for f in self.state.topic if (t := self.by_id.get(f)) is not None
                and intent.says_who_knows(t.text, person)][-1:]

    def aged_then(self, question: str) -> list[Source]:
        """The fact of the last reply that gives the age a question of an age at a time past asks ("how old were
        you?" after "when I was about twelve"; "how old was he when he died?" after the uncle who died at 38 and
        the father's heart): of several that say an age, the one that says a word of the question as written
        (died), else the last told. When none says an age, the fact that tells the same of the same person with
        their age ("how old was he then?" after "only my dad, years before I was born": "Dad had TB in his
        twenties")."""
        if not intent.asks_age_then(question):
            return []
        topic = [t for f in self.state.topic if (t := self.by_id.get(f)) is not None]
        aged = [t for t in topic if SAYS_AN_AGE.search(t.text)] or self._aged_elsewhere(topic)
        asked = units(question)
        said = [t for t in aged if any(w in t.told for u in asked if "@age" not in u.terms for w in u.terms
                                       if not w.startswith("@"))]
        return (said or aged)[-1:]

    def _aged_elsewhere(self, topic: list[Source]) -> list[Source]:
        """The facts not of the last reply that say an age of a person it names and another thing it tells of them."""
        people = _person_words(topic)
        things = frozenset(t for source in topic for t in source.told) - people - {"@family"}
        return [s for s in self.matcher.facts if s not in topic and SAYS_AN_AGE.search(s.text)
                and people & _person_words([s]) and things & s.told]

    def _past_episode_pointed(self, question: str) -> bool:
        """Does the question point at a past episode ("that time", "last time") the last reply told of?"""
        return intent.points_at_past_episode(question) and any(
            self.by_id[f].named & PAST_EPISODE for f in self.state.topic if f in self.by_id
        )

    def has_subject(self, question: str) -> bool:
        """Does the question name something the record knows (a word of the record or a
        clinical concept), beyond how/when/where/how bad?"""
        return any(
            not (u.terms & DESCRIPTORS) and any(t.startswith("@") or t in self.matcher.idf for t in u.terms)
            for u in units(question)
        )

    # -- the whole reply -------------------------------------------------------
    @staticmethod
    def _add(planned: list[Part], part: Part) -> None:
        """Add a part to the reply unless it says nothing new."""
        if part.text and any(p.text == part.text for p in planned):
            return  # nothing new to say (an attachment handed over once per reply)
        acts = [p for p in planned if p.kind in ("hand_over", "cooperation")]
        if (part.kind == "cooperation" and acts) or (
            part.kind == "hand_over" and set(part.handed) <= {a for p in acts for a in p.handed}
        ):
            return  # "examine him - can you undress him? I'll check his sats": one yes, one hand-over
        earlier = next((i for i, p in enumerate(planned) if p.kind == "default"), None)
        if part.kind == "default" and earlier is not None:
            # one default for all the parts nothing covers: uncertain when one part asks to
            # confirm a diagnosis or is open ("has anyone mentioned diabetes? could it be that?")
            if part.uncertain_default and not planned[earlier].uncertain_default:
                planned[earlier] = part
            return
        planned.append(part)

    def _unanswered_alternatives(self, part: Part, key: str) -> list[Part]:
        """The default for each alternative of "any X or Y?" that the record does not cover, beside
        the facts for the others ("any weight loss or night sweats?": the weight, and no sweats)."""
        if part.kind != "answer" or not _OR_WORD.search(part.asked):
            return []
        default = voice.default_beside_facts(self.record.patient.default_answer, key, concise=self.concise)
        listed = [piece for alternative in read_question(part.asked).alternatives for piece in _fragments(alternative)]
        told = [a for a in listed if self._told_in_answer(a, part.sources)]
        own_told = {a: self.matcher.own_words_told(part.sources, a, [b for b in listed if b != a]) for a in listed}
        return [
            Part(default, "default", alternative, read_question(alternative), rule="alternative_not_on_record")
            for alternative in listed
            if not self._covered(alternative, part.facts)
            and self.matcher.intro_for(alternative) is None and not self.matcher.facts_for(alternative)
        ] + [
            Part(default, "default", alternative, read_question(alternative), rule=KEYWORDED_ONLY)
            for alternative in listed
            if (told and alternative not in told and self._keyworded_only(alternative, part.sources)) or (
                own_told[alternative] is False and any(own_told[a] for a in listed if a != alternative)
                and {s.id for s in self.matcher.facts_for(alternative)} <= set(part.facts)
            )
        ]

    def _told_in_answer(self, alternative: str, sources: list[Source]) -> bool:
        """Does the answer of a fact given say what the alternative asks about?"""
        return any(self.matcher.told_share(s, alternative, keywords=False) > 0 for s in sources)

    def _keyworded_only(self, alternative: str, sources: list[Source]) -> bool:
        """Do the facts given say what the alternative asks about only by a keyword, not in their answer ("any on
        your face or scalp?" of where the blisters are, keyworded "scalp", whose answer names no scalp)? The record
        does not say it: that part gets its default, worded as such, beside the facts for the others."""
        return bool(sources) and any(
            self.matcher.told_share(s, alternative, keywords=True) > 0 for s in sources
        ) and not self._told_in_answer(alternative, sources)

    def _worded_beside_facts(self, parts: list[Part], key: str) -> list[Part]:
        """Beside facts, a default names what it answers ("No night sweats."): a bare "No." after a
        fact would read as taking the fact back."""
        if not any(p.facts for p in parts):
            return parts
        for i, part in enumerate(parts):
            if part.kind != "default" or part.question is None or part.rule == "no_diagnosis":
                continue
            what = part.question.who == "family" and voice.what_is_asked_of_the_family(part.question.read) or _as_said(
                voice.what_is_asked(part.question.read), self._whose())
            given = [s for p in parts for s in p.sources]
            if what and any(self.matcher.told_share(s, what, keywords=False) >= 1 for s in given):
                # "no pain" beside the knee's ache would take it back: "no pain in my calf"
                what = _as_said(voice.what_is_asked(part.question.read, with_place=True), self._whose())
            if what:
                # beside the story an open question drew, what it leaves out that only a keyword names is not known
                opened = part.rule == KEYWORDED_ONLY and any(
                    p.facts and p.question is not None and p.question.opens for p in parts[:i])
                unsure = part.uncertain_default or part.question.opens or opened
                kind = "uncertain" if unsure else self.record.patient.default_answer
                after = any(p.facts for p in parts[:i])
                at = voice.place_asked(part.question.read)
                worded = voice.default_at(kind, at, self._whose(), what, key, concise=self.concise) if at else (
                    voice.default_for(kind, what, key, concise=self.concise, after_facts=after)
                )
                part.text = worded if not self._leaks(worded) else voice.default_beside_facts(
                    kind, key, concise=self.concise
                )
        return parts

    def _whose(self) -> str:
        """Whose body the one who speaks names ("my", or the child's "his", "her")."""
        if self.record.patient.informant == "self":
            return "my"
        return {"male": "his", "female": "her"}.get(self.record.patient.sex, "their")

    def _leaks(self, text: str) -> bool:
        """Does the patient's own wording name what the guard keeps back ("But no history of gout.",
        when gout is a differential)?"""
        return self.guard is not None and any(self.guard.check(s) for s in sentences(text))

    def _unleaked(self, asked_back: str, key: str) -> str:
        """A question back to the doctor that names a fact by its topic, or asks plainly what the
        doctor means when the topic's words name what the guard keeps back."""
        return voice.pick(voice.ASK_PLAIN, key) if self._leaks(asked_back) else asked_back

    def choose(self, planned: list[Part]) -> list[Part]:
        """The parts that go into the reply together."""
        if len(planned) > 1:  # "Sorry, remind me - when did you fly back?": the aside needs no "No."
            # ("any floaters?", of "any blurred vision or floaters?", asks, whatever the record knows of it)
            planned = [
                p for p in planned if p.kind != "default"
                or not p.heading and (self.has_subject(p.asked) or _LEAD.match(p.asked) or _OWN_LEAD.match(p.asked)
                                      or _asks_of_its_own(p))
            ] or planned[:1]
        facts = [f for p in planned for f in p.facts]
        if not facts:
            return planned
        # beside facts, a "No." the facts contradict and a restated intro add nothing; the age asked in a compound
        # ("how old is he and was he born on time?") is no restated intro: it answers its own part
        planned = [
            p for p in planned if (p.kind != "repeat" or p.rule == "age")
            and (p.kind != "default" or p.rule == KEYWORDED_ONLY or not self._covered(p.asked, facts))
        ]
        heard = set(self.state.disclosed)
        best_new = max((p.scores.get(f, 0.0) for p in planned for f in p.facts if f not in heard), default=None)
        if best_new is None:
            return planned
        for part in planned:
            if part.question is not None and (part.question.again or asks_all_of(part.asked)):
                continue  # "sorry, remind me ...", "what are all the tablets you take?": the heard facts too
            own_new = [part.scores.get(f, 0.0) for f in part.facts if f not in heard]
            if own_new:  # within one question: the new fact is the answer
                bar = max(own_new) + REPEAT_MARGIN
                part.sources = [s for s in part.sources if s.id not in heard or part.scores.get(s.id or "", 0.0) > bar]
            elif max(part.scores.values(), default=0.0) < best_new - REPEAT_MARGIN:
                part.sources = []  # a weak echo of something said before, beside a new answer
        return [p for p in planned if p.sources or p.kind != "answer"]

    def _covered(self, asked: str, facts: list[str]) -> bool:
        """Does a fact given in this reply already answer the question ("any cough? coughed up
        any blood?" is one fact)? Then a "No." for it would contradict it."""
        matches = self.matcher.score(asked, [self.by_id[f] for f in facts])
        if not matches or matches[0].score < COVERED_THRESHOLD:
            return False
        if intent.lists_only(asked):
            return True  # a heading ("SH - does she live alone?") the fact is about
        # a question with a word the record never uses ("does she use a spacer?" beside the
        # inhalers) asks of something else, whatever concept they share
        best, known = matches[0].source.profile, self.matcher.idf
        return not any(
            not u.terms & (best.keys() | DESCRIPTORS | MODIFIERS)
            and any(not t.startswith("@") and t not in known for t in u.terms)
            for u in units(asked)
        )

    # -- what the rules say ----------------------------------------------------
    def hand_over(self, wanted: list[Attachment], kind: str, key: str) -> str:
        """Hand attachments over (again, for those already given); an examination is
        agreed to first."""
        texts = [voice.pick(voice.COOPERATE, key)] if kind == "examination" else []
        for attachment in wanted:
            again = attachment.id in self.state.handed_over
            title = self.guard.said_title(attachment) if self.guard is not None else attachment.title
            texts.append((voice.HAND_OVER_AGAIN if again else voice.HAND_OVER).format(title=title))
            self.state.handed_over.add(attachment.id)
        return " ".join(texts)

    def age(self) -> str:
        age = self.record.patient.age
        years = f"{age} years old" if isinstance(age, int) else str(age)
        if self.record.patient.informant == "self":
            return f"I'm {years}."
        pronoun = {"male": "He's", "female": "She's"}.get(self.record.patient.sex, "They're")
        return f"{pronoun} {years}."

    def default(self, asking: Asking) -> Part:
        """The case's default for a question nothing covers: uncertain when no yes or no answers it.
        When a fact about what the question names nearly answers it, the patient is not sure the
        record is silent: it asks whether that is what the doctor means, never "No"."""
        question = asking.question
        if self._of_an_untold_aspect(asking):  # the thing heard, asked when or what worsens it: not known
            return Part(voice.default_answer("uncertain", asking.key, concise=self.concise), "default", question.read,
                        rule="aspect_not_on_record")
        near = None if asking.of_a_person else self._near_miss(asking)  # "does she ...?": not the patient's own
        if near is not None and near.told:  # "is he snoring?" of a fit "making a noise like snoring"
            part = self.answer_part(question.read, [near.source])
            part.confidence, part.rule = WEAK, "story_not_no"
            return part
        if near is not None and self._informants_own(question, near.source):
            part = self.answer_part(question.read, [near.source])  # "how old were you when your periods started?"
            part.rule = "informants_own"
            return part
        if near is not None:
            self.state.pending = [near.source.id] if near.source.id else []
            return Part(self._unleaked(voice.ask_if(_label(near.source), asking.key), asking.key), "clarification",
                        question.read, confidence=ASKED_BACK, rule="ask_if_meant")
        kind = "uncertain" if question.opens else self.record.patient.default_answer
        return Part(voice.default_answer(kind, asking.key, concise=self.concise), "default", question.read,
                    heading=question.heading)

    def _of_an_untold_aspect(self, asking: Asking) -> bool:
        """Is the fact that best answers the question one the doctor heard, asked of a when or a what-makes-it-worse
        it does not say (see :meth:`_aspect_untold`)?"""
        ranked = self.matcher.ranked(asking.question.asked, of_the_illness=asking.of_the_illness)
        return bool(ranked) and self._aspect_untold(asking, ranked[0].source)

    def _informants_own(self, question: Question, source: Source) -> bool:
        """Is a question put to the one who speaks for the patient of their own history ("how old were you when
        your periods started, and her older sister?" asked of the mother): "you" asked, and a sentence of the fact
        in the first person ("I started my periods at twelve") says a word of what it asks? "She" is the patient."""
        if self.record.patient.informant == "self" or not _YOU_ASKED.search(question.written):
            return False
        own = {w for sentence in sentences(source.text) if _FIRST_PERSON.search(sentence)
               for w in content_words(sentence).split()}
        return any(t in own for u in units(question.asked) if not u.terms & (DESCRIPTORS | MODIFIERS)
                   for t in u.terms if not t.startswith("@") and "@family" not in u.terms)

    def _near_miss(self, asking: Asking) -> NearMiss | None:
        """The fact that nearly answers a yes/no question the record seems not to cover: one about
        the question's subject (by its keywords or topic) that scores nearly enough, or one whose
        story says what the question asks (then ``told``)."""
        question = asking.question
        if not question.subject or question.act != "yesno" or question.opens or question.heading:
            return None  # an open question's default is already no denial
        if self.record.patient.default_answer != "negative":
            return None
        asked = without_examples(question.asked)  # "any blood tests, for your thyroid say?" asks of tests
        ranked = self.matcher.ranked(asked, of_the_illness=asking.of_the_illness)
        if not ranked or ranked[0].source.id in asking.given:
            return None
        best = ranked[0]
        if best.score < NEAR_MISS:  # a story (of the patient: no family history) affirming what is asked is no "No"
            affirmed = _affirmed(best.source)
            words_said = sum(bool(units(asked)[i].terms & affirmed.told) for i in self.matcher.subject_units(asked))
            said = best.score >= COVERED_THRESHOLD and question.who != "family" and words_said >= AFFIRMED_WORDS and (
                self.matcher.told_share(affirmed, asked, keywords=False) >= TOLD_SHARE
            )
            return NearMiss(best.source, told=True) if said and not self.matcher.only_where(best, asked) else None
        if not self.matcher.names(best.source, asked) and best.score < MATCH_THRESHOLD:
            return None
        if self.matcher.only_where(best, asked) or self.matcher.elsewhere(best, asked):
            return None  # "any bumps to the head?" is not nearly the headache, nor "your back" the calf's ache
        if self.matcher.seen_untold(best.source, asked):
            return None  # "has the dog been seen by a vet?" is not nearly the fact of the dog's itchy ear
        if self.matcher.denies_others(best, asked):
            return None  # "any problems swallowing?" is not nearly a list of what else is not there
        if max(best.per_unit, default=0.0) >= NAMED_STRENGTH - TIE:
            return NearMiss(best.source, told=False)
        subject = self.matcher.subject_units(asked)
        if best.score >= MATCH_THRESHOLD and subject and all(best.per_unit[i] > 0 for i in subject):
            return NearMiss(best.source, told=True)
        return None


_FRAGMENT_AFTER = re.compile(r"\?\s+(?=\w)")


def _fragments(alternative: str) -> list[str]:
    """An alternative with a bare fragment after its question mark ("any mould? humidifier?") as two: the fragment
    is one more thing asked of ("humidifier?"), not a word of the mould."""
    pieces = _FRAGMENT_AFTER.split(alternative)
    if len(pieces) < 2 or any(len(words(p)) > 3 for p in pieces[1:]):
        return [alternative]
    return [pieces[0] + "?", *pieces[1:]]


def _as_said(what: str, whose: str) -> str:
    """What the doctor asked of, in the words of the one who answers ("pain under your foot": "under my foot")."""
    return re.sub(r"\byour\b", whose, what)


def _affirmed(source: Source) -> Source:
    """The fact as its story affirms it: the terms of its sentences that deny nothing ("No rash.") and
    tell of no earlier time of life ("a rash when I was little"), what the patient has now."""
    affirming = [units(said) for said in sentences(source.text) if not voice.is_negative(said)]
    told = frozenset(
        t for said in affirming if not any(LIFE_STAGE in u.terms for u in said) for u in said for t in u.terms
    )
    return replace(source, told=told)


@dataclass(frozen=True)
class NearMiss:
    source: Source
    told: bool
    """The fact's story says what the question asks: said with doubt rather than denied."""

# --- the rules ------------------------------------------------------------------------------


def _unknown_jargon(planner: Planner, asking: Asking) -> list[str]:
    if "clarification_seeking" not in planner.behaviors:
        return []
    return [w for w in voice.jargon_in(asking.question.written) if w not in planner.state.clarified]


def _ask_what_it_means(planner: Planner, asking: Asking) -> Part:
    unknown = _unknown_jargon(planner, asking)
    planner.state.clarified.update(unknown)
    return Part(voice.pick(voice.CLARIFY, asking.key).format(term=unknown[0]), "clarification")


def _attachments_wanted(planner: Planner, asking: Asking) -> list[Attachment]:
    if not planner.record.attachments:  # a case without attachments: none wanted, the question need not be read
        return []
    remote = planner.record.setting == "telehealth"
    if asking.question.act not in ("request", "examination") and not (
        asking.question.act in ("yesno", "open")
        and any(intent.asks_whether_back(p) or intent.asks_whether_done(p) or intent.asks_value_again(p)
                or intent.result_named(p) is not None or intent.asks_for_kept_paper(p)
                or (remote and (intent.has_measuring_device(p) or intent.asks_own_reading(p)))
                for p in intent.split_questions(asking.question.read))
    ):
        return []  # a yes/no question asks for a result only when it asks whether it came back
    attachments = planner.record.attachments
    if asking.before and intent.asks_for_what_was_named(asking.question.read):
        return intent.attachments_asked(attachments, f"{asking.before} {asking.question.read}", remote=remote)
    # "can I see the results from that?" after the urine sample asked of in the message before
    return intent.attachments_asked(attachments, asking.question.read, remote=remote, before=planner.asked_last)


def _shown_before(planner: Planner, asking: Asking) -> list[Attachment]:
    """The things to be shown (no findings) the question before a bare look named ("have you got the photos on
    your phone? can I have a look?")."""
    if not asking.before or not planner.record.attachments or not intent.looks_at_what_was_named(asking.question.read):
        return []
    named = intent.attachments_asked(planner.record.attachments, f"{asking.before} can I see it?")
    return [a for a in named if not intent.holds_findings(a)]


def _look_at_what_was_named(planner: Planner, asking: Asking) -> Part | None:
    handed = {a.id for a in intent.attachments_asked(planner.record.attachments, asking.before)}
    rest = [a for a in _shown_before(planner, asking) if a.id not in handed]
    if not rest:
        return None  # the question before handed it over: the look adds nothing
    return Part(planner.hand_over(rest, "request", asking.key), "hand_over", handed=[a.id for a in rest])


def _hand_over(planner: Planner, asking: Asking) -> Part:
    wanted = _attachments_wanted(planner, asking)
    text = planner.hand_over(wanted, asking.question.act, asking.key)
    return Part(text, "hand_over", handed=[a.id for a in wanted])


def _told_of_it_already(planner: Planner, asking: Asking) -> bool:
    """Does the question point back ("any blood in it?") after another of the message, name what it asks of, and a
    fact that question drew say all of it (told_share of the answer, keywords aside)?"""
    question = asking.question
    if question.pointer == "none" or not asking.before or not asking.given or question.act != "yesno":
        return False
    if not planner.matcher.subject_units(question.read):
        return False  # "does it go anywhere?", "did you have it this morning?": nothing of its own named
    return any(planner.matcher.told_share(planner.by_id[f], question.read, keywords=False) >= 1.0
               for f in asking.given if f in planner.by_id)


def _no_dose_on_record(planner: Planner, asking: Asking) -> bool:
    read = asking.question.read
    sources = planner.candidates(asking)
    return bool(sources) and intent.asks_dose(read) and not any(intent.says_dose(read, s.text) for s in sources)


def _already_in_reply(planner: Planner, asking: Asking) -> bool:
    sources = planner.candidates(asking)
    return bool(sources) and sources[0].id in asking.given and not planner.new_facts(asking)


_ADDS_A_THING = re.compile(r"^\W*(?:and|also|plus|what about|how about)\b", re.IGNORECASE)
"""A part that adds one more thing to ask of after a question ("... ? and the pneumonia vaccine?"): grammar."""


def _keyworded_in_reply(planner: Planner, asking: Asking) -> Part | None:
    """The default for a question whose fact the message already drew, when that fact's answer says nothing of what
    it asks (only a keyword does), or nothing of the words it does not share with the question before it ("had your
    flu jab this year? and the pneumonia vaccine?" of "Flu jab every year.", keyworded "pneumonia jab"); None
    (nothing to add) when it says it."""
    read = asking.question.read
    sources = planner.candidates(asking)
    if not planner.matcher.subject_units(read) or any(
        planner.matcher.told_share(s, read, keywords=False) > 0 for s in sources[:1]
    ) and not (_ADDS_A_THING.match(read) and asking.before and planner.matcher.own_words_told(
        sources[:1], read, [asking.before]) is False):
        return None  # "had your flu jab? and the pneumonia vaccine?": "vaccine" is told, "pneumonia" only keyworded
    default = voice.default_beside_facts(planner.record.patient.default_answer, asking.key, concise=planner.concise)
    return Part(default, "default", read, asking.question, rule=KEYWORDED_ONLY)


def _from_the_intro(planner: Planner, asking: Asking) -> Part:
    asked = asking.question.read
    intro = planner.matcher.intro_for(asked)
    assert intro is not None
    told = [s for s in planner.matcher.elaborating(asked, intro) if s.id not in asking.given]
    if told:
        return planner.answer_part(asked, told)
    return _said_again(intro.text, "from_the_intro")


_YES = re.compile(
    r"^\W*(yes|yeah|yep|yup|correct|exactly|that'?s (it|right|the one)|right|the first( one)?|that one)\b",
    re.IGNORECASE,
)
_ONLY_RIGHT = re.compile(r"^\W*(?:right|alright|all right)\W*$", re.IGNORECASE)
"""'Right.' alone, before more of the message: the doctor's word that moves on, no choice."""
_SECOND = re.compile(r"^\W*(the )?(second|other|latter|last)( one)?\b", re.IGNORECASE)


_ASKS_THE_PATIENT_TO = re.compile(r"^\W*(?:(?:and|so|ok|okay|right|now|then)\W+)*(?:can|could|would|will) you\b",
                                  re.IGNORECASE)
"""A question that asks the patient to do a thing ("can you ...?", "and could you ...?"): grammar."""


def _helps_with_the_examination(planner: Planner, planned: list[Part], question: Question) -> bool:
    """Does a yes/no question ask the patient to do a thing ("can you hold him on your knee?") right after the
    agreement to an examination the doctor announces or asks in the message ("I'm going to look at his eyes ..."),
    with no fact to answer it? It is help with that examination, agreed to already: never refused."""
    last = planned[-1].question if planned else None
    return (last is not None and last.act == "examination" and planned[-1].kind in ("hand_over", "cooperation")
            and question.act == "yesno" and bool(_ASKS_THE_PATIENT_TO.match(question.written))
            and not planner.matcher.facts_for(question.asked))


def _chosen_of_pending(planner: Planner, asking: Asking) -> Source | None:
    """The fact the doctor chose of those the patient asked about ("Do you mean the headaches or
    the eye?" - "the eye", "the second one", "yes"); an examination ("Right, can I examine him?") chooses
    none."""
    pending = planner.pending
    written = asking.question.written
    if not pending or len(words(written)) > 8:
        return None
    if asking.question.act in ("examination", "instruction"):
        return None  # "Right, can I examine him?": an examination of its own, no choice
    if _SECOND.match(written) and len(pending) > 1:
        return pending[1]
    if _YES.match(written):
        if asking.goes_on and _ONLY_RIGHT.match(written):
            return None  # "Right. Your kidneys are leaking protein ...": the doctor's word before a statement
        return pending[0]
    matches = planner.matcher.score(asking.question.asked, pending)
    if not matches or matches[0].score == 0 or (len(matches) > 1 and matches[0].score <= matches[1].score + TIE):
        return None
    # "the eye" chooses; "when did you last take your statin?" is a question of its own
    ranked = planner.matcher.ranked(asking.question.asked)
    return matches[0].source if ranked and ranked[0].source is matches[0].source else None


def _chosen_anew(planner: Planner, asking: Asking) -> Source | None:
    """The fact the doctor chose of those the patient asked about, unless an earlier question of the message
    already drew it ("what do you take? anything OTC?" after "Do you mean the medicines or the creams?"): a fact
    once per reply."""
    chosen = _chosen_of_pending(planner, asking)
    return None if chosen is None or chosen.id in asking.given else chosen


def _answer_pending(planner: Planner, asking: Asking) -> Part:
    chosen = _chosen_anew(planner, asking)
    assert chosen is not None
    return planner.answer_part(asking.question.read, [chosen])


def _told_fact(planner: Planner, asking: Asking) -> Source | None:
    """The fact that reports what the patient was told, for a question of what they were told that no fact
    answers: the one such fact of the record, or the one that shares most with the question."""
    if asking.question.act != "yesno" or not intent.asks_what_they_were_told(asking.question.written):
        return None
    told = [s for s in planner.matcher.facts if intent.reports_being_told(s.text) and s.id not in asking.given]
    if len(told) == 1:
        return told[0]
    matches = planner.matcher.score(asking.question.asked, told)
    if len(matches) > 1 and matches[0].score > matches[1].score + TIE:
        return matches[0].source
    return None


def _what_they_were_told(planner: Planner, asking: Asking) -> Part:
    told = _told_fact(planner, asking)
    assert told is not None
    part = planner.answer_part(asking.question.read, [told])
    part.confidence = WEAK
    part.preface = voice.pick(voice.NOT_THAT_WORD, asking.key)
    return part


def _ideas(planner: Planner, asking: Asking) -> Part:
    """The fact that records the patient's ideas or concerns (its topic says so), else not sure."""
    ideas = [s for s in planner.matcher.facts if s.id and intent.records_ideas(s.topic)]
    if ideas:  # of several, the one that fits the question best
        best = planner.matcher.score(asking.question.asked, ideas)
        return planner.answer_part(asking.question.read, [best[0].source] if best else ideas[:1])
    return Part(voice.unsure(asking.key, concise=planner.concise), "default", asking.question.read)


RULES: tuple[Rule, ...] = (
    Rule("aside_of_asking_again",
         "The doctor's aside that they ask again, and why ('I know I asked, but it matters before we give blood "
         "thinners - ...') asks nothing, not even for what its words name.",
         lambda p, a: a.question.aside, lambda p, a: None),
    Rule("examination_ruled_out",
         "The doctor's word, after another part, that an examination is not done ('... just have a look at the "
         "outside - no internal exam.') asks nothing: no second agreement, no findings.",
         lambda p, a: bool(a.before) and a.question.act == "examination"
         and intent.rules_out_examination(a.question.written), lambda p, a: None),
    Rule("pressed_again",
         "A question after such an aside that follows a question ('any X? I know I asked, but think again - even "
         "Y?') asks that question again: the facts the message already drew are its answer.",
         lambda p, a: a.question.presses and bool(a.given), lambda p, a: None),
    Rule("ask_what_a_word_means",
         "A patient who seeks clarification asks once what a medical word means.",
         lambda p, a: bool(_unknown_jargon(p, a)), _ask_what_it_means),
    Rule("what_was_asked_back",
         "The doctor's answer to 'Do you mean A or B?' gets the fact chosen.",
         lambda p, a: _chosen_anew(p, a) is not None, _answer_pending),
    Rule("kind_words",
         "A statement of kind words with no question mark ('that sounds really tough', 'poor lad, he's been really "
         "brave today'; the vocabulary's patient_kind_words) that asks for nothing is acknowledged: never a 'No', "
         "never a fact.",
         lambda p, a: _kind_words(p, a),
         lambda p, a: Part(voice.pick(voice.ACKNOWLEDGE, a.key), "small_talk")),
    Rule("ideas_asked",
         "Asked their own idea or worry of what the illness is ('any idea what it might be?', 'I suppose you've "
         "wondered if it's scabies?'; the vocabulary's patient_ideas_asks), the patient tells the fact that records "
         "its ideas or concerns, else is not sure: never a 'No', never a symptom fact that shares a word.",
         lambda p, a: a.question.act in ("yesno", "open", "diagnosis") and intent.asks_ideas(a.question.written),
         _ideas),
    Rule("no_diagnosis",
         "Asked to name or confirm a diagnosis, the patient does not know and says so; never a denial.",
         lambda p, a: a.question.act == "diagnosis",
         lambda p, a: Part(voice.unsure(a.key, concise=p.concise), "default", a.question.written)),
    Rule("do_as_asked",
         "Asked to do something for the examination (lie back, undress him), the patient agrees.",
         lambda p, a: a.question.act == "instruction",
         lambda p, a: Part(voice.pick(voice.COOPERATE, a.key), "cooperation")),
    Rule("doctor_tells",
         "A statement that tells the patient something, with no question mark ('your blood tests are raised, which "
         "fits with ...', 'the surgeons will see you and the scan should be repeated next week'), asks for nothing: "
         "acknowledged, never a fact or an attachment, whatever result or test it names.",
         lambda p, a: a.question.act == "request" and intent.doctor_tells(a.question.written),
         lambda p, a: Part(voice.pick(voice.ACKNOWLEDGE, a.key), "small_talk")),
    Rule("look_at_what_was_named",
         "A bare look ('can I have a look?') after a question of the message that named a thing to be shown ('have "
         "you got the photos on your phone?') is a look at that thing: it is handed over if that question did not "
         "hand it, never an examination nor the findings on record.",
         lambda p, a: bool(_shown_before(p, a)), _look_at_what_was_named),
    Rule("hand_over",
         "A request or an examination that names an attachment's content gets it handed over (again).",
         lambda p, a: bool(_attachments_wanted(p, a)), _hand_over),
    Rule("cooperate",
         "An examination, a request for a sample, or a request for tests and nothing else ('and an ECG pls') "
         "is agreed to.",
         lambda p, a: a.question.act == "examination"
         or (a.question.act == "request"
             and (intent.asks_for_sample(a.question.read) or intent.only_asks_for_tests(a.question.read))),
         lambda p, a: Part(voice.pick(voice.COOPERATE, a.key), "cooperation")),
    Rule("agree_to_the_plan",
         "Asked to agree to a plan or a diagnosis just told ('... a dose of steroid by mouth. sound ok?', 'so a "
         "quinsy, OK?'), the patient agrees; the statements before it asked nothing.",
         lambda p, a: intent.asks_agreement(a.question.written),
         lambda p, a: Part(voice.pick(voice.AGREE, a.key), "small_talk")),
    Rule("questions_invited",
         "Asked whether they have any questions ('... you'll need a CT scan straight away. any questions?'), the "
         "patient thanks the doctor: never a 'No', never a fact.",
         lambda p, a: intent.invites_questions(a.question.written),
         lambda p, a: Part(voice.pick(voice.NO_QUESTIONS, a.key), "small_talk")),
    Rule("doctor_says",
         "The doctor's own statement of what they did, will do or suspect ('we've given him a neb', 'I'm worried "
         "this is a clot - a clot in the leg vein.'), with no question mark, asks nothing: acknowledged, never "
         "answered with a fact or a 'No'.",
         lambda p, a: intent.doctor_says(a.question.written),
         lambda p, a: Part(voice.pick(voice.ACKNOWLEDGE, a.key), "small_talk")),
    Rule("acknowledge",
         "A kind word or an acknowledgement (no question) is acknowledged, whatever words it shares.",
         lambda p, a: not a.question.written.rstrip().endswith("?") and voice.acknowledges(a.question.written),
         lambda p, a: Part(voice.pick(voice.ACKNOWLEDGE, a.key), "small_talk")),
    Rule("greeting",
         "A greeting or the doctor's introduction that asks nothing ('Hello, come in and sit down.', 'hi, I'm "
         "Dr R from the surgery.') is greeted back, never answered with a fact ('surgery' is no operation).",
         lambda p, a: a.question.act not in ("yesno", "open", "diagnosis")
         and not a.question.written.rstrip().endswith("?") and voice.greets(a.question.written),
         lambda p, a: Part(voice.pick(voice.GREETING, a.key), "small_talk")),
    Rule("comment",
         "The doctor's comment on what was just said, with no question mark, before a question ('those can be side "
         "effects of tablets - are you sure nothing new's been started?') asks nothing: the question after it does.",
         lambda p, a: a.question.comments, lambda p, a: None),
    Rule("no_dose_on_record",
         "Asked the dose of a medicine no fact gives a dose of, the patient is not sure.",
         _no_dose_on_record,
         lambda p, a: Part(voice.default_answer("uncertain", a.key, concise=p.concise), "default", a.question.read)),
    Rule("opening",
         "A question that only opens the consultation ('what's been going on?', 'how can I help today?'; the "
         "vocabulary's patient_complaint_asks) gets the intro again: what brought the patient, never a fact that "
         "shares a word ('help' of who helps at home).",
         lambda p, a: _only_opens(a.question.written),
         lambda p, a: _said_again(p.record.intro, "opening")),
    Rule("already_in_reply",
         "A question whose fact an earlier question of the message already drew adds nothing, unless that fact says "
         "what it asks only by a keyword ('any damp or mould? humidifier?' of a home keyworded 'humidifier'): then "
         "its default, worded as such beside the fact.",
         _already_in_reply, lambda p, a: _keyworded_in_reply(p, a)),
    Rule("which_medicine_for",
         "'Which of his tablets is the one for his bladder?' asks which medicine: the fact of the medicines (its "
         "topic or keywords say medicines) that names what it is for, never the fact of the bladder's symptoms, though "
         "it says 'the bladder tablet'.",
         lambda p, a: bool(p.medicine_for(a)), lambda p, a: p.answer_part(a.question.read, p.medicine_for(a))),
    Rule("told_of_it_already",
         "A question that points back ('any burning when she wees? any blood in it?') at what a fact the message "
         "already drew says of what it asks ('no blood in it') is answered by that fact: no other fact that shares "
         "the word (the bleeding from down below).",
         lambda p, a: _told_of_it_already(p, a), lambda p, a: None),
    Rule("facts",
         "The facts that answer the question, follow-ups resolved against the last reply's topic.",
         lambda p, a: bool(p.new_facts(a)), lambda p, a: p.answer_facts(a)),
    Rule("not_said_of_the_topic",
         "A follow-up pointing at what was just said ('how long did that last?') that the record does not "
         "answer: the patient is not sure, never the intro or another subject.",
         lambda p, a: p.candidates(a) == [] and a.about_the_topic,
         lambda p, a: Part(voice.default_answer("uncertain", a.key, concise=p.concise), "default", a.question.read)),
    Rule("presenting_complaint",
         "Asked what brings them in, the patient says the intro again.",
         lambda p, a: bool(_OPEN_COMPLAINT.search(a.question.written)),
         lambda p, a: _said_again(p.record.intro, "presenting_complaint")),
    Rule("small_talk",
         "A greeting, thanks or 'how are you' gets a short polite reply.",
         lambda p, a: voice.small_talk(a.question.written, a.key) is not None,
         lambda p, a: Part(voice.small_talk(a.question.written, a.key) or "", "small_talk")),
    Rule("age",
         "Asked their age, the patient gives it from the record, beside another part's fact too ('how old is he "
         "and was he born on time?').",
         lambda p, a: bool(_AGE.search(a.question.written)) and p.record.patient.age is not None,
         lambda p, a: Part(p.age(), "repeat")),
    Rule("from_the_intro",
         "A question only the intro answers gets that sentence again, or the fact that tells more of it.",
         lambda p, a: p.matcher.intro_for(a.question.read) is not None, _from_the_intro),
    Rule("why_they_came",
         "Asked why they came now or who sent them, the patient says the intro again.",
         lambda p, a: bool(_WHY_CAME.search(a.question.written)),
         lambda p, a: _said_again(p.record.intro, "why_they_came")),
    Rule("what_they_were_told",
         "Asked whether they were told something no fact names ('did they ever tell you you had ...?'), the patient "
         "says it does not know that word and then the one fact that reports what they were told; never a denial.",
         lambda p, a: _told_fact(p, a) is not None, _what_they_were_told),
    Rule("fears_unknown",
         "Asked whether they fear an illness no fact names, the patient does not know; never a denial.",
         lambda p, a: a.question.fears,
         lambda p, a: Part(voice.unsure(a.key, concise=p.concise), "default", a.question.read)),
    Rule("mentioned_unknown",
         "Asked whether anyone mentioned something no fact says ('has anyone mentioned your thyroid to you?'), the "
         "patient is unsure; never a denial.",
         lambda p, a: intent.asks_if_mentioned(a.question.written),
         lambda p, a: Part(voice.unsure(a.key, concise=p.concise), "default", a.question.read)),
    Rule("default",
         "Nothing in the record covers it: the case's default for a yes/no question, uncertainty for "
         "an open one.",
         lambda p, a: True, lambda p, a: p.default(a)),
)
"""The planner's rules, in the order they are tried."""


class FollowUp:
    """A follow-up question read against the last reply's topic: what every rule of
    :data:`FOLLOW_UP_RULES` asks of it, worked out once, when first asked."""

    def __init__(self, planner: Planner, question: str, sources: list[Source], pointer: str) -> None:
        self.planner = planner
        self.question = question
        self.sources = sources
        """The facts the question matches by itself, best first."""
        self.pointer = pointer
        self.topic = [planner.by_id[f] for f in planner.state.topic if f in planner.by_id]

    @cached_property
    def treated(self) -> list[Source]:
        """The facts of the topic that tell a medicine."""
        return [t for t in self.topic if t.profile.get("@medication", 0.0) > 0]

    @cached_property
    def asked(self) -> tuple[Unit, ...]:
        return units(self.question)

    @cached_property
    def asks_only_its_medicines(self) -> bool:
        """Does it ask of nothing, or only of medicines the last reply named ("what's the tamsulosin for?" after the
        regular tablets; "what do you take the allopurinol for?": taking is of the medicine)?"""
        told = frozenset(t for t in self.treated[-1].told if t in _DRUGS) if self.treated else frozenset()
        return all(u.terms & (told | {"@medication"}) for u in self.asked)

    @cached_property
    def only_how(self) -> bool:
        """Does it ask only how, when, where or how bad ("how bad is it?", "is it constant?")?"""
        return all(u.terms & DESCRIPTORS for u in self.asked)

    @cached_property
    def matches(self) -> list[Match]:
        return self.planner.matcher.score(self.question, self.planner.matcher.facts)

    @cached_property
    def on_topic(self) -> Match | None:
        """The best match among the topic's facts."""
        return next((m for m in self.matches if m.source in self.topic), None)

    @property
    def on_topic_said(self) -> bool:
        return self.on_topic is not None and self.on_topic.score > 0

    @cached_property
    def stay(self) -> list[Source]:
        """The fact of the topic a follow-up that stays is of: the one it matches, else the last told; of several
        told with a time, asked when, the last told with one ("when was that exactly?" after the coke at the weekend
        and the steroids for weeks: the water down the nose last week, after the steak)."""
        if len(self.topic) > 1 and _ASKS_WHEN.match(self.question):
            timed = [t for t in self.topic if _POINT_IN_TIME.search(t.text)]
            if timed:
                return timed[-1:]
        return [self.on_topic.source] if self.on_topic is not None and self.on_topic.score > 0 else self.topic[-1:]

    @cached_property
    def one_word_said(self) -> bool:
        """Does the question say only one word that a fact of the record says ("which came first?": no fact says
        "came"), so that the fact just told, saying it as written ("Solids first"), is what it follows up?"""
        said = [i for i in range(len(self.asked)) if any(m.per_unit[i] > 0 for m in self.matches)]
        return len(said) == 1

    @cached_property
    def outright(self) -> bool:
        """Is the question's best fact off the topic and matched exactly by the question alone?"""
        return bool(self.sources) and self.sources[0] not in self.topic and any(
            m.source is self.sources[0] and m.score >= EXACT_MATCH for m in self.matches
        )

    @cached_property
    def others(self) -> list[Match]:
        """The matches off the topic, best first."""
        return [m for m in self.matches if m.source not in self.topic]

    @cached_property
    def who_knows(self) -> list[Source]:
        """The fact just told that says whether the person asked of knows (a rule asks, then answers)."""
        return self.planner.told_who_knows(self.question)

    @cached_property
    def where_of_the_same_thing(self) -> list[Source]:
        """The facts of where that name a thing the facts just told are of (the lumps, not the kitten)."""
        things = {t for s in self.topic for t in s.named if t not in DESCRIPTORS | MODIFIERS}
        return [s for s in self.sources if "@location" in s.named and s.named & things]

    @cached_property
    def aged_then(self) -> list[Source]:
        """The fact just told that gives the age a question of an age then asks."""
        return self.planner.aged_then(self.question)

    @cached_property
    def quantity_told(self) -> list[Source]:
        return self.planner._quantity_told(self.asked, self.topic, self.matches, self.planner._subjects(self.topic))

    @cached_property
    def several_told(self) -> list[Source]:
        """The last fact of the topic that tells several of a thing: a list, or a count ("twice")."""
        return [t for t in self.topic if len(_LISTED.findall(t.text)) >= 2 or _SEVERAL_TOLD.search(t.text)][-1:]

    def takes_it(self) -> list[Source]:
        """Of the medicine just told, when the fact says every aspect asked of it, else none (not known)."""
        aspects = [i for i, u in enumerate(self.asked) if u.terms & DESCRIPTORS]
        scored = self.planner.matcher.score(self.question, self.treated[-1:])
        return self.treated[-1:] if scored and all(scored[0].per_unit[i] > 0 for i in aspects) else []

    def medicine_named(self) -> list[Source]:
        """The fact of the medicines that names the medicine a question of which one of a kind asks ("which
        inhaler is it?"): the last reply said that kind without its name ("the inhaler the GP gave me"), another
        fact that tells medicines says it with a name before it ("the salbutamol inhaler")."""
        which = _WHICH_THING.match(self.question)
        if which is None or not self.topic:
            return []
        kind = which.group(1).lower()
        if not any("@medication" in u.terms for u in units(kind)):
            return []
        said = [_names_before(t.text, kind) for t in self.topic]
        if not any(n is not None for n in said) or any(said):
            return []  # the last reply does not say the kind, or names it already
        return [s for s in self.planner.matcher.facts if s not in self.topic and "@medication" in s.headed
                and (named := _names_before(s.text, kind)) and not any(w in t.told for t in self.topic
                                                                        for w in named)][:1]

    def what_it_is_for(self) -> list[Source]:
        """The fact that tells what the medicine just told is for ("what's that for?" after the apixaban: the
        irregular heartbeat whose fact says the apixaban was started), not the whole medical history: of the
        medicines the last reply names, the ones the doctor's last question named (by name or class: "which one's
        the blood thinner?") if any; the fact off the topic that says the most of them, of a treatment or a history
        (its topic) or saying what it is for ("for my ..."), never a fact about the medicine itself (how it is
        taken) nor a side effect blamed on it."""
        told = frozenset(t for t in self.treated[-1].told if t in _DRUGS)
        asked = told & _drugs_named(self.planner.asked_last)
        of_it = asked or told
        if not of_it:
            return []
        fors = [s for s in self.planner.matcher.facts
                if s not in self.topic and s.told & of_it and not s.headed & _DRUGS
                and (s.headed & _TREATED_OR_HISTORY or _SAYS_WHAT_FOR.search(s.text))]
        return sorted(fors, key=lambda s: -len(s.told & of_it))[:1]

    def at_that_time(self) -> list[Source]:
        """The fact of the same thing that names the time of day a question of how only ("is it worse at night?")
        asks, when the fact just told does not say it: the night pain, not "I'm not sure"."""
        times = [i for i, u in enumerate(self.asked) if _TIME_OF_DAY in u.terms]
        if not times or not all(u.terms & (DESCRIPTORS | MODIFIERS) for u in self.asked) or (
            self.on_topic is not None and any(self.on_topic.per_unit[i] > 0 for i in times)
        ):
            return []
        said = {t for i in times for t in self.asked[i].terms if not t.startswith("@")}
        subjects = self.planner._subjects(self.topic) | (self.planner.matcher.complaint - DESCRIPTORS - MODIFIERS)
        return [m.source for m in self.matches if m.source not in self.topic and said & m.source.named
                and m.source.named & subjects and any(m.per_unit[i] > 0 for i in times)][:1]

    def lasted(self) -> list[Source]:
        lasting = [m.source for m in self.matches
                   if m.source.id in self.planner.of_lasting and m.score >= MATCH_THRESHOLD]
        return lasting[:1] or self.stay

    def same_symptom(self) -> list[Source]:
        symptoms = {c for t in self.topic for c in SYMPTOM_CONCEPTS if c in t.named}
        return [s for s in self.sources if s.named & symptoms]


@dataclass(frozen=True)
class FollowUpRule:
    """One rule of a follow-up: when it applies, and the facts it answers with (none: not known)."""

    name: str
    does: str
    applies: Callable[[FollowUp], bool]
    facts: Callable[[FollowUp], list[Source]]


@batch_cache(maxsize=1024)
def _drugs_named(text: str) -> frozenset[str]:
    """The single medicines a text names, by their names or by a class's ("which one's the blood thinner?": the
    anticoagulants, apixaban among them), as concepts ("@apixaban")."""
    vocabulary = read_vocabulary()
    said = words(text)
    found = {t for n in (1, 2, 3) for i in range(len(said) - n + 1)
             for t in vocabulary.lookup(" ".join(said[i:i + n])) if t.kind in ("drug", "drug_class")}
    return frozenset(f"@{concept_id(t.name)}" for term in found for t in (term, *vocabulary.narrower(term))) & _DRUGS


def _names_before(text: str, kind: str) -> frozenset[str] | None:
    """The words that name a thing of a kind where a text says it (the stemmed word before "inhaler" in "the
    salbutamol inhaler": ``{"salbutamol"}``; none before "the inhaler"), or None when the text never says the kind
    (nor its plural)."""
    said = words(text)
    at = [i for i, w in enumerate(said) if w in (kind, kind + "s")]
    if not at:
        return None
    return frozenset(c for i in at if i > 0 for c in content_words(said[i - 1]).split())


def _of_its_subject(f: FollowUp) -> list[Source]:
    subject = {t for s in f.topic for t in s.named if t.startswith("@") and t not in DESCRIPTORS | MODIFIERS}
    return [s for s in f.sources if s.named & subject]


FOLLOW_UP_RULES: tuple[FollowUpRule, ...] = (
    FollowUpRule("who_knows",
                 "'Does your son know?' after 'only my sister knows, not my son': the fact just told that says whether "
                 "that person knows or was told, never the intro or another fact that only names them ('my son says "
                 "...').",
                 lambda f: bool(f.who_knows),
                 lambda f: f.who_knows),
    FollowUpRule("age_then",
                 "'How old were you?' after 'when I was about twelve', 'how old was he when he died?' after the uncle "
                 "who died at 38 and the father's heart: the fact just told that gives the age then (of several, the "
                 "one that says the question's words), never the patient's age now nor 'not sure'.",
                 lambda f: bool(f.aged_then),
                 lambda f: f.aged_then),
    FollowUpRule("time_it_takes",
                 "'How long does that take you?' after the checking that 'can take me forty minutes': of what was "
                 "just told, never when the illness began nor a medicine taken.",
                 lambda f: intent.asks_time_it_takes(f.question),
                 lambda f: f.stay),
    FollowUpRule("past_episode",
                 "A question pointing at a past episode the last reply told ('how did it get better that time?') is of "
                 "that episode.",
                 lambda f: f.planner._past_episode_pointed(f.question),
                 lambda f: [t for t in f.topic if t.named & PAST_EPISODE][-1:]),
    FollowUpRule("since_the_symptom_told",
                 "'How long has that been going on?' after a symptom told with when it began ('the blood in the mucus "
                 "for about two months'), or 'since when?' after one told 'this last month', is of that symptom, "
                 "not the illness the patient came with.",
                 lambda f: (f.pointer != "none" or f.only_how) and not f.planner.has_subject(f.question)
                 and f.planner._symptom_told_with_its_start(f.question, f.topic),
                 lambda f: f.topic[-1:]),
    FollowUpRule("which_medicine_named",
                 "'Which inhaler is it?' after 'the inhaler the GP gave me made no difference' (a reply that is not "
                 "the fact of the medicines): the fact of the medicines that names that inhaler, never the reply "
                 "again; 'which side is it?' asks no medicine.",
                 lambda f: bool(f.medicine_named()),
                 FollowUp.medicine_named),
    FollowUpRule("treatment_of_it",
                 "'What did you use for that?' after a medicine just told (the thrush cream) is of that medicine.",
                 lambda f: bool(f.treated) and (intent.asks_treatment_of_it(f.question)
                                                or intent.asks_use_of_it(f.question)),
                 lambda f: f.treated[-1:]),
    FollowUpRule("what_it_is_for",
                 "'What's that for?' after regular tablets that do not say what for: the fact that says what the "
                 "medicines just named are for (the one the doctor's last question named, if any), else the illnesses "
                 "they are for (the medical history), else the patient is not sure.",
                 lambda f: bool(f.treated) and f.asks_only_its_medicines and bool(_WHAT_FOR.search(f.question))
                 and not _SAYS_WHAT_FOR.search(f.treated[-1].text),
                 lambda f: f.what_it_is_for() or [s for s in f.planner.matcher.facts
                                                   if _MEDICAL_HISTORY & s.headed and s not in f.topic][:1]),
    FollowUpRule("did_it_help",
                 "'Did it help?' after a cream that made 'no difference': of that medicine, never a bare 'No'.",
                 lambda f: bool(f.treated) and bool(f.asked) and all(u.terms & _EFFECT for u in f.asked)
                 and bool(_EFFECT & f.treated[-1].terms),
                 lambda f: f.treated[-1:]),
    FollowUpRule("taking_it",
                 "'When did you last take it?' after the blood thinner is of that medicine, never the illness that "
                 "shares 'when'; what its fact does not say of it is not known (unless a fact is keyworded with the "
                 "question's words whole: 'do you take them every day?').",
                 lambda f: bool(f.treated) and intent.takes_it(f.question) and not any(
                     s not in f.topic and s.worded(f.question) >= KEYWORD_SAID_WHOLE for s in f.sources),
                 FollowUp.takes_it),
    FollowUpRule("which_of_several",
                 "'Which one was the most recent?' after a fact that tells several (courses, admissions, scans) and "
                 "nothing else the question matches: that fact, never 'I don't really know'.",
                 lambda f: bool(_WHICH_OF_THEM.match(f.question)) and bool(f.several_told)
                 and not (f.others and f.others[0].score >= MATCH_THRESHOLD),
                 lambda f: f.several_told),
    FollowUpRule("no_words_of_its_own",
                 "'How much?', 'what happened the last time?': only the topic can say, unless the question says a "
                 "fact's keyword of several small words whole ('and what do you think?').",
                 lambda f: not f.asked,
                 lambda f: [s for s in f.sources if s.worded(f.question) >= WHOLE_SMALL_WORDS] or f.stay),
    FollowUpRule("which_side",
                 "'Which side?' after 'my left calf has been aching': the fact that says the side (of several just "
                 "told, the last), unless it asks a side of another fact's thing ('how's the hearing on that side?').",
                 lambda f: any("@location" in u.terms for u in f.asked)
                 and any(_LATERAL.search(t.text) for t in f.topic)
                 and not f.planner._asks_another_fact_of_the_side(f.asked, f.topic),
                 lambda f: [t for t in f.topic if _LATERAL.search(t.text)][-1:]),
    FollowUpRule("where_it_goes",
                 "'Does it go through to your back?' after the pain: where the pain goes, not back pain, when no "
                 "other fact says where something goes.",
                 lambda f: f.on_topic_said and any("@radiation" in u.terms for u in f.asked)
                 and all(u.terms & DESCRIPTORS or not any(t.startswith("@") and t not in BODY_PARTS for t in u.terms)
                         for u in f.asked)
                 and not any("@radiation" in s.named for s in f.planner.matcher.facts if s not in f.topic),
                 lambda f: f.stay),
    FollowUpRule("how_long_it_lasted",
                 "'How long did it last?' after the tummy ache that settled: the fact of how long it lasted, else that "
                 "ache; never when the illness began.",
                 lambda f: f.only_how and intent.asks_how_long_it_lasted(f.question),
                 FollowUp.lasted),
    FollowUpRule("illness_asked_outright",
                 "'When did it start?' after the smoking asks the illness's onset outright.",
                 lambda f: f.only_how and intent.dummy_it(f.question) and f.outright
                 and not f.planner._symptom_told_with_its_start(f.question, f.topic),
                 lambda f: f.sources),
    FollowUpRule("named_by_its_topic",
                 "'Tell me about the cramps' after the BP readings: the cramps, whose topic says them.",
                 lambda f: f.only_how and f.outright and f.pointer == "none" and intent.kind_of(f.question) == "open"
                 and f.planner._topic_says_as_written(f.sources[0], f.asked)
                 and not (f.on_topic is not None and f.planner._says_as_written(f.on_topic.source, f.asked)),
                 lambda f: f.sources),
    FollowUpRule("quality_said_by_the_last",
                 "'Were they regular before that?' after the periods that came 'regular since I was 13': a yes/no "
                 "follow-up that points back and asks a quality the last fact says as written, and else only how or "
                 "when, is of that fact, never 'not sure' because the quality is no word the record is searched by.",
                 lambda f: bool(f.topic) and f.pointer != "none" and intent.kind_of(f.question) == "yesno"
                 and all(u.terms & (DESCRIPTORS | MODIFIERS) for u in f.asked)
                 and bool(intent.qualities_said(f.question) & frozenset(words(f.topic[-1].text))),
                 lambda f: f.topic[-1:]),
    FollowUpRule("how_of_the_topic",
                 "Asked only how ('how bad is it?') of a topic fact that says something of it: that fact.",
                 lambda f: f.only_how and f.on_topic_said,
                 lambda f: f.stay),
    FollowUpRule("quantity_told",
                 "'How high did it get?' after '38.1 under the arm', 'how often?' after 'every few days': the number "
                 "just told is the answer.",
                 lambda f: f.only_how and bool(f.quantity_told),
                 lambda f: f.quantity_told),
    FollowUpRule("where_told_elsewhere",
                 "'Where exactly do you get them?' after when the lumps began: when the fact just told says no where "
                 "and another fact is of where the same thing is (the lumps), that fact, never 'not sure'; 'where did "
                 "you get it from?' after the kitten is no place of the rash.",
                 lambda f: f.only_how and any("@location" in u.terms for u in f.asked)
                 and not any("@location" in t.named for t in f.topic) and bool(f.where_of_the_same_thing),
                 lambda f: f.where_of_the_same_thing[:1]),
    FollowUpRule("how_not_recorded",
                 "'How bad is it?' when the last fact says nothing of it and no fact does: not in the record.",
                 lambda f: f.only_how and not f.sources,
                 lambda f: []),
    FollowUpRule("how_long_that_lasted",
                 "'How long did that last?': of what was just said, or a fact of the same thing.",
                 lambda f: f.only_how and f.pointer == "that",
                 _of_its_subject),
    FollowUpRule("how_matched_exactly",
                 "Asked only how, a fact the question matches exactly by itself ('has this ever happened before?' "
                 "after the waterworks: the earlier episode).",
                 lambda f: f.only_how and f.matches[0].score >= EXACT_MATCH,
                 lambda f: f.sources),
    FollowUpRule("how_of_the_same_symptom",
                 "'Is it constant?' after where the pain is: a fact about the same symptom, never the waterworks "
                 "because 'frequency' is one of their words.",
                 lambda f: f.only_how and any(c in t.named for t in f.topic for c in SYMPTOM_CONCEPTS),
                 FollowUp.same_symptom),
    FollowUpRule("how_elsewhere",
                 "Asked only how, of a topic that says no how at all: the facts it matches by itself, else the topic.",
                 lambda f: f.only_how,
                 lambda f: f.sources if any(t.named & DESCRIPTORS for t in f.topic) else f.stay),
    FollowUpRule("state_of_it",
                 "'Is that new?' after the confusion: of the confusion, never 'anything new' of the tablets.",
                 lambda f: intent.asks_state_of_it(f.question),
                 lambda f: f.stay),
    FollowUpRule("at_that_time",
                 "'Is it worse at night?' after where the pain is: the fact of the same thing that names the night "
                 "(the night pain), when the fact just told does not say it; never 'not sure', never a fact of "
                 "something else that names the night (getting up to pass water).",
                 lambda f: bool(f.at_that_time()),
                 FollowUp.at_that_time),
    FollowUpRule("words_of_its_own",
                 "'Does that keep you awake?' after the tablets has words of its own: the facts they match.",
                 lambda f: not f.on_topic_said,
                 lambda f: f.sources),
    FollowUpRule("with_what_was_said",
                 "'Any pain down the legs with those?' after the episodes that say it: of those episodes.",
                 lambda f: bool(_WITH_WHAT_WAS_SAID.search(f.question)) and bool(f.planner.matcher.subject_units(
                     f.question)) and f.on_topic is not None
                 and all(f.on_topic.per_unit[i] > 0 for i in f.planner.matcher.subject_units(f.question)),
                 lambda f: f.stay),
    FollowUpRule("said_of_the_topic",
                 "'Are they tight or floppy?' after blisters 'big and tight': the topic says the word, the best other "
                 "fact does not (the skin's stinging pain).",
                 lambda f: (f.pointer != "none" or f.one_word_said) and bool(f.others)
                 and f.planner._says_as_written(f.stay[0], f.asked)
                 and not f.planner._says_as_written(f.others[0].source, f.asked),
                 lambda f: f.stay),
    FollowUpRule("keyworded_elsewhere",
                 "'Do you take them every day?' after the BP's history: the fact keyworded 'take them'.",
                 lambda f: f.pointer != "none" and bool(f.others) and f.others[0].score >= EXACT_MATCH
                 and f.others[0].source.worded(f.question) >= KEYWORD_SAID_WHOLE > f.stay[0].worded(f.question)
                 and not f.planner._says_as_written(f.stay[0], f.asked),
                 lambda f: f.sources),
    FollowUpRule("clearly_better_elsewhere",
                 "A question with a subject of its own leaves the topic for a fact that matches it clearly better.",
                 lambda f: bool(f.others) and f.others[0].score >= MATCH_THRESHOLD
                 and (f.on_topic is None or f.others[0].score > f.on_topic.score + FOLLOW_UP_BONUS),
                 lambda f: f.sources),
    FollowUpRule("stay",
                 "Otherwise the follow-up stays with the topic.",
                 lambda f: True,
                 lambda f: f.stay),
)


def follow_up_rules() -> list[tuple[str, str]]:
    """The follow-up rules' names and what each does, in order (``docs/patient.md`` lists them)."""
    return [(r.name, r.does) for r in FOLLOW_UP_RULES]


def rules() -> list[tuple[str, str]]:
    """The rules' names and what each does, in order (``docs/patient.md`` lists them)."""
    return [(r.name, r.does) for r in RULES]

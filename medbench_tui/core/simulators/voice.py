"""How the simulated patient talks: default answers, small talk, frames around a fact,
and the behaviour modifiers. Every phrase here is free of clinical facts: style only.

Variation is deterministic (a CRC of the question and a counter), so the same
consultation always gives the same transcript.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Sequence

from medbench_tui.core.batch_caches import batch_cache
from medbench_tui.core.simulators.lexicon import STOPWORDS, stem, words
from medbench_tui.core.vocabulary import read_vocabulary

DEFAULT_ANSWERS: dict[str, tuple[str, ...]] = {
    "negative": ("No.", "No, I don't think so.", "No, not that I've noticed.", "No, nothing like that."),
    "uncertain": ("I'm not sure.", "I don't really know.", "I'm not sure, to be honest.", "I couldn't say."),
}
CONCISE_DEFAULTS = {"negative": "No.", "uncertain": "Not sure."}

GREETING = ("Hello, doctor.", "Hello.")
THANKS = ("Thank you, doctor.", "Thanks.")
ACKNOWLEDGE = ("OK.", "All right.")
HOW_ARE_YOU = ("I've been better, doctor.", "Not great.")

FILLERS = (
    "Sorry, I do tend to go on a bit.",
    "I hope that makes sense.",
    "I just want to get to the bottom of it.",
    "I wasn't sure whether it was worth mentioning.",
    "I've been going over it in my head, you know how it is.",
)
DENIAL_PREFIXES = ("It's probably nothing, but", "It's no big deal, but", "I'm sure it's fine, but")
DEFLECTIONS = (
    "Hmm, I'd rather not go into that right now.",
    "I'm not sure that's really important.",
    "Can we come back to that?",
)
BELIEFS = ("a bug going round", "stress", "my age catching up with me", "overdoing things")
SELF_DIAGNOSIS = "I read online it might be something to do with the {complaint}, but I was sure it was just {belief}."
CLARIFY = ("Sorry, what does '{term}' mean?", "I'm sorry, I don't know what '{term}' means.")
HAND_OVER = "Here you are: {title}."
HAND_OVER_AGAIN = "Here it is again: {title}."
PLAIN_TITLE = "the results"
"""What the patient calls an attachment whose title names what it must not say."""
AGREE = ("OK, doctor, if you think that's best.", "Yes, that's fine, doctor.", "OK, that sounds fine.")
"""Agreement to a plan or a diagnosis the doctor told and asks about ("sound ok?"): never a denial."""
NO_QUESTIONS = ("I think you've covered it all, thank you.", "Not right now, thanks, doctor.")
"""The reply to "any questions for me?": polite, never a denial of something the record may hold."""
COOPERATE = ("Yes, of course, go ahead.", "Yes, go ahead.", "Of course, doctor.")
DIAGNOSIS_UNSURE = (
    "I don't know, doctor, that's what I'm hoping you'll tell me.",
    "I really don't know, doctor. I was hoping you could tell me.",
)
CONCISE_UNSURE = "I don't know."
REPEAT = "As I said, {answer}"
ASK_WHICH = ("Do you mean {first}, or {second}?", "Sorry, doctor, do you mean {first} or {second}?")
"""Two facts fit the question as well as each other: the patient asks which is meant."""

JARGON: tuple[str, ...] = read_vocabulary().phrases("patient_jargon")
"""Medical words a lay person may not know (a clarification-seeking patient asks about them once):
the vocabulary's phrase list ``patient_jargon``."""
_JARGON_STEMS = {stem(w): w for w in JARGON}

_GREETING = re.compile(r"^(hi|hello|hey|good (morning|afternoon|evening)|nice to meet you|pleased to meet you)\b")
_INTRODUCTION = re.compile(
    r"\b(my name is|i am dr|im dr|i am doctor|im doctor|i am the doctor|im the doctor|i am one of the)\b"
)
_THANKS = re.compile(r"\b(thank you|thanks|cheers)\b")
_HOW_ARE_YOU = re.compile(r"^how are you( doing| today)?$")
_THANKS_FOR = r"(thanks|thank you)( very much| so much)? for \w+.*"
"""Thanks for something done or said: a kind word, never a request for what it names."""
_ACK = re.compile(
    r"^((hi|hello|hey|ok|okay|right|oh)\s+)?((im|i am|so|very|really)\s+)*sorry\s+(to hear (that|about|this)|"
    r"(that |about |for )?(you|youre|he|hes|she|shes|they|theyre|your|his|her)\b).*$|"  # "sorry about your wife"
    r"^(ok|okay|alright|all right|right|i see|understood|got it|great|good|fine|sure|sorry to hear that|"
    r"that must be (hard|difficult|awful|horrible)|i understand|mm+|hmm+|ah|oh|"
    r"(i know )?(this|it|that) (is|can be|must be) (hard|difficult|not easy|a lot|scary|frightening|worrying|a shock)"
    r"( to (talk about|take in))?)( then| now)?$|"
    r"^(that|it|this) must (have been|be) (really |very |so |quite )?(hard|difficult|awful|horrible|uncomfortable|"
    r"painful|scary|frightening|worrying|embarrassing|upsetting|exhausting|a worry|a shock)"
    r"( (and )?" + _THANKS_FOR + ")?$|"
    r"^((hi|hello|hey|ok|okay|right|great|oh)\s+)*" + _THANKS_FOR + "$"  # "that must have been sore, thanks for
    # telling me", "thanks for doing the bloods", "Hi, thanks for sending the photos through"
)


def pick(options: Sequence[str], key: str) -> str:
    return options[zlib.crc32(key.encode()) % len(options)]


def default_answer(kind: str, key: str, *, concise: bool = False) -> str:
    return CONCISE_DEFAULTS[kind] if concise else pick(DEFAULT_ANSWERS[kind], key)


def default_beside_facts(kind: str, key: str, *, concise: bool = False) -> str:
    """The default for one alternative the record does not cover, after the facts for the others
    ("... about 98 kilos. No, not that I've noticed."): never a bare "No.", which would read as
    taking back what was just said."""
    if concise:
        return CONCISE_DEFAULTS[kind]
    return pick([a for a in DEFAULT_ANSWERS[kind] if len(words(a)) > 1], key)


ASK_IF = ("Sorry, doctor, do you mean {what}?", "I'm not sure. Do you mean {what}?")
"""A fact nearly answers the question: the patient asks whether it is what the doctor means."""
HEDGE = ("I'm not sure that's what you mean, but", "I don't know if this is what you're asking, but")
"""Before facts the patient is not sure answer the question."""
NOT_THAT_WORD = ("I'm not sure about that word.", "I'm not sure about that name.")
"""Before what the patient was told, asked by a name no fact says ("did they ever tell you you had X?"): the
patient does not know the doctors' word for it, only what they were told."""


ASK_PLAIN = ("Sorry, doctor, what do you mean?", "I'm not sure what you mean, doctor.")
"""The patient asks what the doctor means without naming what it might be (a name that would leak)."""


def ask_if(what: str, key: str) -> str:
    """The patient asks whether the doctor means this ("Do you mean the eye episodes?")."""
    return pick(ASK_IF, key).format(what=what)


def hedged(text: str, key: str) -> str:
    """Facts said with the patient's doubt that they answer the question."""
    return f"{pick(HEDGE, key)} {lower_first(text)}"


def ask_which(first: str, second: str, key: str) -> str:
    """The patient asks which of two things the doctor means ("Do you mean the headaches, or the eye?")."""
    return pick(ASK_WHICH, key).format(first=first, second=second)


DEFAULT_FOR = {
    "negative": ("No {what}.", "No {what}, though.", "But no {what}."),
    "uncertain": ("I'm not sure about {what}.", "I couldn't say about {what}."),
}
"""The default for one part of a question beside the facts for the others, naming the part."""
DEFAULT_AT = {
    "negative": ("Nothing {at} {whose} {what}.", "Nothing {at} {whose} {what}, though."),
    "uncertain": ("I'm not sure about {whose} {what}.", "I couldn't say about {whose} {what}."),
}
"""The default for one part of a question that asks of a place ("any on your face or scalp?": "... Nothing on my
scalp."), beside the facts for the others."""
_DEFAULT_FOR = re.compile(
    r"^(no|but no|nothing (?:on|in|at|around|behind|under|over|inside)|i'?m not sure about|i couldn'?t say about) "
    r"[\w' /-]+(, though)?\.$",
    re.IGNORECASE,
)
_LEAD_VERBS = frozenset("use uses using used take takes taking get gets suffer suffering suffered".split())
"""Verbs that lead a question to what it asks about ("do you use a spacer?")."""
_PLACE_WORDS = frozenset("round around near over under into onto through across past off out up".split())
_OBJECT_WORDS = frozenset(
    "you u him her them it me us a an the any your his their my yourself himself herself themselves myself".split()
)
"""Grammar a named default must not start or end on: a place word, or a verb's object ("No giving you a hard.", "No
buy yourself.")."""
_WHAT_ENDS = re.compile(r"\b(with|in|on|at|when|while|for|to|from|after|before|during|since|because|if|that|and|or)\b")
_CLAUSE_WORDS = frozenset("am is are was were do does did has have had i you he she we they".split())
"""Words that make what follows a question's lead a clause, not a thing named ("how old were you then?": "old were
you then"): its default is a plain one, never "I couldn't say about old were you then."."""


_PLACE_ENDS = re.compile(r"\b(in|on|at)\b")


def what_is_asked(question: str, *, with_place: bool = False) -> str:
    """The words of what a question asks about, without its lead ("do you get night sweats?": "night
    sweats"; "do you use a spacer with your inhaler?": "spacer"); ``with_place`` keeps where it is asked of ("pain
    in your calf", beside a fact that tells another pain)."""
    tokens = [t for t in re.findall(r"[a-z0-9][a-z0-9'-]*", question.lower())]
    start = next((i for i, t in enumerate(tokens) if t not in STOPWORDS and t not in _LEAD_VERBS), len(tokens))
    rest = " ".join(tokens[start:])
    end = next((m for m in _WHAT_ENDS.finditer(rest) if not (with_place and _PLACE_ENDS.fullmatch(m.group()))), None)
    what = rest[: end.start()].strip() if end else rest
    named = what.split()[:4]
    if named and (named[0] in _PLACE_WORDS or named[-1] in _OBJECT_WORDS or _CLAUSE_WORDS.intersection(named[1:])
                  or (named[0].endswith("ing") and len(named) > 1 and named[1] in _OBJECT_WORDS)):
        return ""  # no thing named ("been round any new animals", "anyone giving u a hard time"): a plain default
    return " ".join(named)


_HISTORY_OF = re.compile(r"\bhistory of\s+(.+)$", re.IGNORECASE)


def what_is_asked_of_the_family(question: str) -> str:
    """What a question of the family history asks about, as the patient would name it ("any family history of
    bowel disease?": "bowel disease in the family"); "" when it names nothing after the history."""
    found = _HISTORY_OF.search(question)
    what = what_is_asked(found.group(1)) if found else ""
    return f"{what} in the family" if what else ""


_AT_WORDS = frozenset("on in at around behind under over inside".split())
_WHOSE_WORDS = frozenset("your his her their the my".split())


def place_asked(question: str) -> str:
    """The word of place before what a question asks about, when that is a place ("any on your scalp?": "on"), else
    ""."""
    tokens = [t for t in re.findall(r"[a-z0-9][a-z0-9'-]*", question.lower())]
    start = next((i for i, t in enumerate(tokens) if t not in STOPWORDS and t not in _LEAD_VERBS), len(tokens))
    before = [t for t in tokens[max(0, start - 2):start] if t not in _WHOSE_WORDS]
    return before[-1] if before and before[-1] in _AT_WORDS else ""


def default_at(kind: str, at: str, whose: str, what: str, key: str, *, concise: bool = False) -> str:
    """The default for the part of a question that asks of a place, named ("Nothing on my back.")."""
    options = DEFAULT_AT[kind]
    return (options[0] if concise else pick(options, key)).format(at=at, whose=whose, what=what)


def default_for(kind: str, what: str, key: str, *, concise: bool = False, after_facts: bool = True) -> str:
    """The default for the part of a question that asks about ``what``, named ("No night sweats."; "But
    no ..." only after a fact)."""
    if concise or not after_facts:
        return DEFAULT_FOR[kind][0].format(what=what)
    return pick(DEFAULT_FOR[kind], key).format(what=what)


def is_default_for(sentence: str) -> bool:
    """Is the sentence a default that names its part ("No night sweats.", "I'm not sure about work.")?"""
    return bool(_DEFAULT_FOR.match(sentence.strip()))


def unsure(key: str, *, concise: bool = False) -> str:
    """The reply to "it's a clot, isn't it?": uncertainty, never a denial."""
    return CONCISE_UNSURE if concise else pick(DIAGNOSIS_UNSURE, key)


def is_default_answer(text: str) -> bool:
    flat = " ".join(words(text))
    stock = [
        *(a for group in DEFAULT_ANSWERS.values() for a in group),
        *CONCISE_DEFAULTS.values(),
        *DIAGNOSIS_UNSURE,
        CONCISE_UNSURE,
    ]
    return any(flat == " ".join(words(a)) for a in stock)


def small_talk(sentence: str, key: str) -> str | None:
    """A polite short reply to a greeting, thanks or acknowledgement; None otherwise."""
    replies = _small_talk_replies(sentence)
    return pick(replies, key) if replies is not None else None


@batch_cache(maxsize=4096)
def _small_talk_replies(sentence: str) -> Sequence[str] | None:
    """The replies to pick from for the sentence's small talk (read once per sentence), or None."""
    flat = " ".join(words(sentence))
    if not flat:
        return None
    if _HOW_ARE_YOU.match(flat):
        return HOW_ARE_YOU
    if _THANKS.search(flat) and len(flat.split()) <= 6:
        return THANKS
    if _GREETING.match(flat) or _INTRODUCTION.search(flat):
        rest = _GREETING.sub("", flat).strip()
        if len(rest.split()) <= 6 or _INTRODUCTION.search(flat):
            return GREETING
    if acknowledges(flat):
        return ACKNOWLEDGE
    return None


def greets(sentence: str) -> bool:
    """Does the sentence greet or introduce the doctor ("Hello, come in and sit down.", "hi, I'm Dr R
    from the surgery.")?"""
    flat = " ".join(words(sentence))
    return bool(_GREETING.match(flat) or _INTRODUCTION.search(flat))


def acknowledges(sentence: str) -> bool:
    """Is the sentence only an acknowledgement or a kind word ("OK.", "I know this is hard to talk
    about.", "I know this is a lot")? It asks for nothing, whatever words it shares with the record."""
    return bool(_ACK.match(" ".join(words(sentence))))


def jargon_in(text: str) -> list[str]:
    """The jargon words a question uses, as the doctor wrote them."""
    return [w for w in words(text) if stem(w) in _JARGON_STEMS]


def lower_first(text: str) -> str:
    """Lower-case the first letter so the text can follow a frame ("As I said, it ...")."""
    if not text or text.startswith(("I ", "I'", "I,")) or (len(text) > 1 and text[1].isupper()):
        return text
    return text[0].lower() + text[1:]


def first_sentence(text: str) -> str:
    match = re.match(r"(.+?[.!?])(\s|$)", text.strip(), re.S)
    return match.group(1) if match else text.strip()


def is_negative(answer: str) -> bool:
    return bool(re.match(r"^\s*(no|not|never|none|nothing|nope)\b", answer, re.IGNORECASE))


_FILLER = re.compile(r"^\s*(well|um+|uh+|oh|so|hmm+|erm),?\s+", re.IGNORECASE)


def strip_filler(answer: str) -> str:
    """The shortest form of an answer: without a leading "Well," / "Um," / "Oh,"."""
    rest = _FILLER.sub("", answer, count=1)
    return rest[:1].upper() + rest[1:] if rest != answer else answer


def self_diagnosis(complaint: str, key: str) -> str:
    return SELF_DIAGNOSIS.format(complaint=complaint, belief=pick(BELIEFS, key))

"""A doctor's message read once: each question a typed record that every later step reads.

:func:`read_message` takes the markup and role text out (:mod:`markup`), splits the message
into questions and reads each into a :class:`Question`: what it does (its act), what it is
about (its subject), which aspects it asks (when, how long, how bad, where, ...), who is
asked, what it points back to, whether it is negated, asks again or only heads the
questions after it, its alternatives ("any nausea or vomiting?"), and its language. The
planner (:mod:`planner`) and the matcher (:mod:`matcher`) read these records; nothing
after this reads the message's words again for what it does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Literal

from medbench_tui.core.batch_caches import batch_cache
from medbench_tui.core.simulators import intent
from medbench_tui.core.simulators.guard import FUNCTION_WORDS, LANGUAGE_MIN_HITS
from medbench_tui.core.simulators.intent import DESCRIPTOR_CONCEPTS, QuestionKind
from medbench_tui.core.simulators.lexicon import phrase_alternation, units, words
from medbench_tui.core.simulators.markup import without_markup
from medbench_tui.core.simulators.matcher import MODIFIERS, alternatives
from medbench_tui.core.simulators.typos import without_typos
from medbench_tui.core.vocabulary import read_vocabulary

Who = Literal["patient", "informant", "family"]
"""Whom a question is about: the patient, the one who speaks for the patient ("and are you on
any medication yourself?", asked of a mother), or the patient's relatives (family history)."""
Pointer = Literal["none", "it", "that"]
"""What a question points back with: nothing; "it"/"this", which may be the illness itself
("when did it start?"); or "that"/"they"/"the other", always something just said."""

_ADDRESS = re.compile(
    r"^\W*(?:" + "|".join(re.escape(w) for w in read_vocabulary().phrases("patient_forms_of_address")) + r")\s*,\s*",
    re.IGNORECASE,
)
"""A form of address that starts a question ("Mum, do you know your blood group?"): whom it speaks to."""
_INFORMANT_OWN = re.compile(r"\byourself\b|\byour own\b|\byou yourself\b|\bfor you\b", re.IGNORECASE)
"""Words that turn a question to the one who speaks for the patient (the mother, the carer)."""
_AGAIN = re.compile(r"\b(again|remind|said|sorry|remember|once more|repeat)\b", re.IGNORECASE)
"""Words that ask for something again ("sorry, when did it start?")."""
_REPEAT_CUE = re.compile(r"\b(again|once more)(?=\W*$)|\bremind me\b|\bsorry\b", re.IGNORECASE)
"""The words that only ask again ("when did it start again?"): left out of what it is about."""
_SET_APART = re.compile(r"\b(apart from|other than|besides|except for|except)\b[^,;?.!]*", re.IGNORECASE)
"""What a question sets apart ("any other sports apart from football?"): left out of what it is about."""
_PEOPLE_OUTSIDE = re.compile(
    r"\b(anyone|anybody|someone|somebody|people|friends?)\s+outside\s+(?:of\s+)?(?:(?:the|your|his|her|their|my)\s+)?\w+",
    re.IGNORECASE,
)
"""People apart from a circle ("anyone outside the family you can talk to?"): the circle is set apart, not asked of."""
_BEFORE_A_MEDICINE = re.compile(
    r"\b(?:before|after)\s+(?:(?:any|the|his|her|your|their|some)\s+)?(?P<what>[^,;?.!]+)", re.IGNORECASE
)
"""When a medicine was given, said to time what is asked ("his temperature before any meds?"): no question of it."""
_COMMENT = re.compile(r"^\W*(?:(?:and|so|well|ok|okay)\W+)*(?:that|those|these|this)\b", re.IGNORECASE)
"""A part that starts by pointing at what was just said ("those can be side effects of tablets")."""
_HEADING = re.compile(rf"^\W*({phrase_alternation('patient_history_headings')})\W*$", re.IGNORECASE)
"""A part that only heads the questions after it ("SH - does she live alone?")."""
_ENDS_IN_ACRONYM = re.compile(r"\b[A-Z]{2,5}\W*$")
"""A question ending in an acronym ("is it a DVT?", "so it's a PE then?")."""
_LEAD_IN = re.compile(
    r"^(and |so |ok,? |right,? )*(tell me|talk me through|(can|could) you tell me)( a bit| a little)?( more)? about\b",
    re.IGNORECASE,
)
"""A part that only names what the next part asks about ("tell me about the cough - when did it start?")."""


@dataclass(frozen=True)
class Question:
    """One question of a doctor's message, read."""

    written: str
    """The question as the doctor wrote it (markup taken out)."""
    read: str
    """As the patient reads it: shorthand written out, "what does your wife do?" asking of her work."""
    act: QuestionKind
    """What it does: asks about a fact (``yesno``, ``open``), asks to name or confirm a diagnosis,
    asks for a result or document (``request``), examines, or asks the patient to do something."""
    subject: tuple[str, ...]
    """The words of what it asks about (not how, when or whether before)."""
    aspects: frozenset[str]
    """The aspects it asks (``@onset``, ``@severity``, ``@location``, ...)."""
    who: Who
    pointer: Pointer
    refers_back: bool
    """It points back at what was just said ("does it go anywhere?", "and the other eye?")."""
    negated: bool
    again: bool
    """It asks for something again ("sorry, remind me - when did it start?")."""
    asked: str
    """What the matcher reads: ``read`` without the words that only ask again."""
    heading: bool
    lead_in: bool
    """It only names what the next part asks about ("tell me about the cough - ...", "and his wee - ...")."""
    lists_only: bool
    """Only a list of things, with no verb or question word ("bowel problems, CF?")."""
    adds_to_act: bool
    """It only adds to an examination or request before it ("is that ok?", "the sats too?")."""
    fears: bool
    """It asks whether the patient fears an illness ("are you worried it could be cancer?")."""
    opens: bool
    """No yes or no answers it (an open question, or one that offers a choice)."""
    alternatives: tuple[str, ...]
    language: str
    """The language of its function words ("en" unless another language's are clearly more)."""
    aside: bool = False
    """It only says that the doctor asks again, and why, before a question ("I know I asked, but it
    really matters - ..."): it asks nothing itself, not even for what its words name."""
    led: bool = False
    """It follows a lead-in of the message ("tell me about the flashes - where in your vision?"): it asks
    of what the lead-in names."""
    presses: bool = False
    """It follows a question of the message and an aside of asking again ("any X? I know I asked, but
    think again - even Y?"): it asks that question again."""
    comments: bool = False
    """It only comments on what was just said, with no question mark, before a question of the message ("those
    can be side effects of tablets - are you sure nothing new's been started?"): it asks nothing itself."""

    @property
    def uncertain_default(self) -> bool:
        """Is the fitting default for it the uncertain one (an open question, a diagnosis, a fear)?"""
        return self.act in ("diagnosis", "open") or self.fears or intent.asks_if_mentioned(self.written)


@dataclass(frozen=True)
class Message:
    """A doctor's message, read: its questions in order."""

    written: str
    cleaned: str
    """The message without markup and role text."""
    questions: tuple[Question, ...]

    @property
    def markup(self) -> bool:
        """Was markup or role text taken out?"""
        return self.cleaned != self.written


@batch_cache(maxsize=1024)
def read_message(message: str, informant: str = "self") -> Message:
    """The message read (cached: a consultation and its checks read each message more than once)."""
    cleaned = without_markup(message)
    questions: list[Question] = []
    family = again = False
    parts = intent.split_questions(cleaned) if cleaned.strip() else []
    joined = _with_lead_ins(_without_routine_asides(parts))
    for i, part in enumerate(joined):
        if family and intent.lists_only(part):
            part = f"family history of {part}"  # "FHx of anything? bowel problems, CF?"
        question = read_question(part, informant)
        if i + 1 < len(joined) and intent.asks_again_aside(part):
            question = replace(question, aside=True, again=True)
        elif i + 1 < len(joined) and _names_what_follows(question, joined[i + 1]):
            question = replace(question, lead_in=True)  # "and his wee - any change in the colour?"
        if again and not question.again:  # "Sorry - how many mls is he managing now?" asks again
            question = replace(question, again=True)
        if len(questions) > 1 and questions[-1].aside and not questions[-2].aside:
            question = replace(question, presses=True)
        if any(q.lead_in for q in questions) and not question.lead_in:
            question = replace(question, led=True)
        if (_COMMENT.match(part) and question.act == "request" and "?" not in part
                and any(later.rstrip().endswith("?") for later in joined[i + 1:])):
            question = replace(question, comments=True)
        family = question.who == "family"
        again = question.again and (question.aside or not units(question.asked))
        questions.append(question)
    return Message(message, cleaned, tuple(questions))


NAMING_WORDS = 4
"""Words at most of a fragment that only names what the question after it asks about ("and his wee - ...")."""


def _names_what_follows(question: Question, following: str) -> bool:
    """Does the part only name, in a few words with no verb and no question mark, what the question after it
    asks about ("and his wee - any change in the colour, or any blood?")?"""
    written = question.written
    return (question.lists_only and not question.heading and "?" not in written and following.rstrip().endswith("?")
            and len(words(written)) <= NAMING_WORDS and bool(question.subject))


def _without_routine_asides(parts: list[str]) -> list[str]:
    """The parts without an aside that the question is asked of everyone, before a question; one that breaks
    into a question ("and those thoughts about X - I ask everyone this - do you get any?") joins the two halves
    into one question, which asks of what the first half names."""
    out: list[str] = []
    half = ""
    for i, part in enumerate(parts):
        led_into = intent.without_discourse(part)
        if led_into != part and (led_into.strip() or i + 1 < len(parts)):
            part = led_into  # "Just to check - no rash at all?": the lead-in asks nothing, "check" is no request
            if not part.strip():
                continue
        if intent.speaks_of_the_medium(part):
            continue  # "Sorry, the screen froze - how many times a night ...?": the call is no history
        if i + 1 < len(parts) and intent.asks_everyone_aside(part):
            half = f"{out.pop()}, " if out and "?" not in out[-1] else ""
            continue
        out.append(f"{half}{part}")
        half = ""
    return out


def _with_lead_ins(parts: list[str]) -> list[str]:
    """The parts, each fragment that says only when or how and asks nothing ("and since then - nothing at
    all or just drips?"; not "how many a day now, and any urgency?"), or only a person asked of after it by a
    pronoun ("your mum - what does she take?"), joined to the question after it."""
    out: list[str] = []
    lead = ""
    for i, part in enumerate(parts):
        if i + 1 < len(parts) and intent.fronts_a_person(part, parts[i + 1]):
            lead = f"{lead}{part.strip().rstrip('-,:').strip()} - "  # "your mum - what does she take?": of her
            continue
        found = units(part)
        if (i + 1 < len(parts) and "?" not in part and intent.kind_of(part) == "request" and found
                and not intent.asks_again_aside(part)
                and all(u.terms & DESCRIPTOR_CONCEPTS for u in found)):
            lead = f"{lead}{part} "
            continue
        out.append(f"{lead}{part}")
        lead = ""
    return out


@batch_cache(maxsize=4096)
def read_question(written: str, informant: str = "self") -> Question:
    """One question read (see :class:`Question`)."""
    read = _ADDRESS.sub("", intent.understood(without_typos(written)))  # "Mum, do you ...?" is no family history
    act = intent.kind_of(read)
    if act != "diagnosis" and _ENDS_IN_ACRONYM.search(written) and intent.kind_of(written) == "diagnosis":
        act = "diagnosis"  # "so is this a DVT?": a name, however long it is written out
    found = units(read)
    aspects = frozenset(t for u in found for t in u.terms & DESCRIPTOR_CONCEPTS)
    subject = tuple(u.text for u in found if not u.terms & (DESCRIPTOR_CONCEPTS | MODIFIERS))
    if intent.asks_family_history(read):
        who: Who = "family"
    elif informant != "self" and _INFORMANT_OWN.search(written):
        who = "informant"
    else:
        who = "patient"
    pointer: Pointer = "none"
    if intent.points_at(written):
        pointer = "it" if intent.dummy_it(written) else "that"
    return Question(
        written=written,
        read=read,
        act=act,
        subject=subject,
        aspects=aspects,
        who=who,
        pointer=pointer,
        refers_back=intent.points_back(written),
        negated=bool(intent.NEGATED.match(written)),
        again=bool(_AGAIN.search(written)),
        asked=_without_medicine_timing(
            intent.without_what_others_know(
                _PEOPLE_OUTSIDE.sub(r"\1", _SET_APART.sub(" ", _REPEAT_CUE.sub(" ", read)))
            )
        ),
        heading=bool(_HEADING.match(written)),
        lead_in=bool(_LEAD_IN.match(written)),
        lists_only=intent.lists_only(written),
        adds_to_act=intent.adds_to_act(written),
        fears=intent.suspects(read),
        opens=act == "open" or intent.opens_openly(read) or intent.offers_choice(read),
        alternatives=alternatives(read),
        language=language_of(written),
    )


def _without_medicine_timing(asked: str) -> str:
    """What is asked without a medicine that only says when ("what was his temperature before any meds?": the
    temperature), when something else is asked; "any rash after the antibiotics?" still asks of the rash only."""
    match = _BEFORE_A_MEDICINE.search(asked)
    if match is None:
        return asked
    timing = units(match.group("what"))
    rest = f"{asked[:match.start()]} {asked[match.end():]}"
    if not timing or not all("@medication" in u.terms for u in timing) or not [
        u for u in units(rest) if not u.terms & (DESCRIPTOR_CONCEPTS | MODIFIERS)
    ]:
        return asked
    return rest


def language_of(text: str) -> str:
    """The language whose common words the text uses clearly more than English's ("en" when
    too short or too mixed to tell): a question in another language is not read as English."""
    tokens = set(words(text))
    english = len(tokens & FUNCTION_WORDS["en"])
    hits = sorted(((len(tokens & common), code) for code, common in FUNCTION_WORDS.items() if code != "en"),
                  reverse=True)
    best, code = hits[0]
    return code if best >= LANGUAGE_MIN_HITS and best > english else "en"

"""What a doctor's message asks for: question understanding for the patient.

A message is split into parts (one question each); each part has a kind:

- ``request``: asks for results or a document ("can I see the ECG?", "we'll send bloods");
- ``examination``: the doctor examines or takes observations ("I'd like to examine you",
  "can I check your pulse and blood pressure?");
- ``diagnosis``: asks the patient to name or confirm a diagnosis ("it's a clot, isn't it?");
- ``instruction``: asks the patient to do something for the examination ("could you lie back
  for me?", "can you undress him?"): the patient cooperates, nothing is told or handed over;
- ``open``: a wh- question or "tell me about ..." (a default answer is uncertain);
- ``yesno``: everything else ("any N/V?", "allergies?").

Attachments are released only by a request or an examination that names their content,
never because a history question shares a word with them ("any blood in your phlegm?").
Everything here is about the form of the question, never about a case.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal

from medbench_tui.core.batch_caches import batch_cache
from medbench_tui.core.cases.model import Attachment
from medbench_tui.core.simulators.lexicon import (
    CLINICAL,
    STOPWORDS,
    phrase_alternation,
    says_phrase,
    stem,
    units,
    words,
)
from medbench_tui.core.simulators.markup import without_markup
from medbench_tui.core.simulators.voice import acknowledges
from medbench_tui.core.text import expand_shorthand, lemma, singular
from medbench_tui.core.vocabulary import read_vocabulary


def _words(name: str) -> frozenset[str]:
    """The words of a phrase list of the vocabulary (``medbench vocabulary lists``)."""
    return frozenset(w for phrase in read_vocabulary().phrases(name) for w in phrase.lower().split())


def _list_stems(name: str) -> frozenset[str]:
    return frozenset(stem(w) for w in _words(name))


QuestionKind = Literal["request", "examination", "instruction", "diagnosis", "open", "yesno"]

_SPLIT = re.compile(
    r"(?<=[?!;])\s+|(?<=\.)\s+(?=[A-Z])|\n+|\s+-\s+|,?\s+(?:and|also|plus)\s+(?=(?:have|has|do|does|did|are|is|was|"
    r"were|any|what|when|where|how|who|which|can|could|would|will|should)\b)",
    re.IGNORECASE,
)
_EXAMINE = re.compile(
    rf"\b({phrase_alternation('patient_examine_words')}|have a (\w+ )?(look|listen|feel)|take a look|"
    r"listen to (your|his|her|the)|undress (him|her|you)|"
    rf"feel (your|his|her) ({phrase_alternation('patient_examine_felt_parts')})|"
    r"press on (your|his|her)|(check|take|measure|do|record|get) (your|his|her|some|the)\s*"
    rf"({phrase_alternation('patient_examine_checked')})|"
    rf"look (at|in|into) (your|his|her) ({phrase_alternation('patient_examine_looked_parts')})|"
    # "recheck BP and HR", "repeat his obs", "do a full set of obs", "get a cap refill"
    r"(re-?check|repeat|re-?do|check|take|measure|do|record|get) ((your|his|her|some|the|a|an|another|full|quick|"
    rf"new|fresh|second|further|repeat|set|of)\s+){{0,4}}({phrase_alternation('patient_examine_measured')})|"
    rf"(on|to) (the|a) (({phrase_alternation('patient_monitor_words')}) ){{0,6}}monitor|"
    r"(your|his|her) observations|"
    # "can you switch to video so I can see him?": a request made so the doctor can examine
    r"so (that )?(i|we) can (see|look at|watch|examine|have a look at) (you|him|her|them))\b",
    re.IGNORECASE,
)
_CHECK_DONE = re.compile(
    r"\b(?:do|run through|go through|carry out|perform|start)\s+(?:a|an|the|some|your|his|her)\s+(?:[\w-]+\s+){0,3}?"
    r"checks?\b(?!\s*-?\s*ups?\b)",
    re.IGNORECASE,
)
"""A check the doctor does ("run through a quick mental state check", "do a full neuro check"): with the doctor's own
act ("I'll just ...", "let me ..."), an examination, announced rather than asked; not a check on record ("your results
from the 6 week check")."""
_DOCTOR_ACTS = re.compile(
    r"\b(can|could|may|shall) (i|we)\b|\blet me\b|\b(i'd|id|i would|we'd) like\b|\b(i'm|im|i am|we're) going to\b|"
    r"\b(i'll|i will|we'll|we will)\b|\bdo you mind if\b|\bis it (ok|okay|alright) if\b|"
    r"\bis (that|it|this) (ok|okay|alright|all right)\b|^have a (\w+ )?(look|listen|feel)\b",
    re.IGNORECASE,
)
_INSTRUCTION = re.compile(
    r"^(ok,? |so |and |now,? )*((can|could|would|will) you (just |please )?|(just )?(please )?)"
    r"(undress|strip|(slip|take|pull) (\w+ ){0,3}off|lie (down|back|flat)|sit (up|forward|on)|stand up|"
    r"roll (over|up|onto)|"
    r"pop (him|her|yourself|up|on|onto)|hop (up|on|onto)|turn (over|round|around) for me|breathe (in|out|deeply)|"
    r"take (a|some) deep breaths?|cough for me|open (your|his|her) mouth|stick (your|his|her) tongue out|"
    r"get (him|her) (undressed|on|onto)|hold (him|her) (still|up)|squeeze my)\b",
    re.IGNORECASE,
)
"""The doctor asks the patient to do something for the examination ("can you undress him to
his vest?", "could you lie back for me?"), not a question about it."""
_CONSENT = re.compile(
    r"^(and |so )?(is (that|this) (ok|okay|alright|all right|fine)( with you)?|"
    r"would that be (ok|okay|alright|all right)|"
    r"(are you|is he|is she) (ok|okay|happy|alright|all right) with that|do you mind|(ok|okay|alright))\W*$",
    re.IGNORECASE,
)
_NAMES_ONLY = re.compile(r"^(and |also |plus )?(the|his|her|your|their|both)\b", re.IGNORECASE)
_VERB = re.compile(r"\b(is|are|was|were|has|have|had|do|does|did|been|can|could|will|would|feel|hurt|look)\b",
                   re.IGNORECASE)
_IMPERATIVE = re.compile(
    r"^(and |then |also |so )?(do|get|send|arrange|run|order|book|request) (a|an|some|the|me|us)\b", re.IGNORECASE
)
_PATIENT_PROVIDES = (
    r"\b(can|could|would) you (please )?(do|give|provide|produce|pop|let me have|text|send|email|show|read) "
    r"(me |us )?(a|an|some|the)\b|"
    r"\bso (that )?(i|we) can (do|test|dip|check|send|run)\b"
)
"""The doctor asks the patient for something to test or see: a sample ("could you do a urine sample so we can
dip it"), a reading or a photo the patient takes ("could you text a photo of it?", "can you read me the
number?")."""
_MIND_IF_I_TEST = (r"\b(?:do|would) you mind if (?:i|we) (?:just |quickly )?"
                   rf"(?:{phrase_alternation('patient_test_leave_verbs')})\b")
"""The doctor asks leave to do a test ("would you mind if I did a quick memory test with you?"): a request, never a
question of whether the patient minds."""
_REQUEST = re.compile(
    _PATIENT_PROVIDES + "|"
    r"\b(can|could|may) (i|we) (see|have|look|get|order|send|do|take|arrange|request|pull up|bring up|call up|"
    r"view|access)\b|\b(can|could|would) you (pull up|bring up|call up|dig out|look up)\b|\b(show|give|send|pass) me\b|"
    r"\blet me (see|look)\b|\blet'?s (get|do|send|take|arrange|order|have|request|book)\b|"
    r"\b(we'll|we will|i'll|i will|we're going to|were going to|i'm going to|im going to|going to|we need to|"
    r"i need to|i want to|i'd like to|id like to) (send|do|take|get|arrange|order|request|book|run|see|look at|pull up|"
    r"bring up)\b|"
    r"\b(i'd|id|we'd) like (a|an|some|the)\b|\bhave you (got|brought)\b|\bdid you bring\b|" + _MIND_IF_I_TEST + "|"
    rf"\bdo you have (the|your|any) ({phrase_alternation('patient_held_documents')})\b|\bplease\b|"
    rf"\b(another|a) look at\b|\b({phrase_alternation('patient_result_nouns')})\b|\b(again|once more)\b",
    re.IGNORECASE,
)
_SERVICE_DOES = (
    r"\b(?:(?:can|could|would|will|may) (?:the |our |your )?(?P<who>"
    rf"{phrase_alternation('patient_test_services')}|they)|(?:ask|get) (?:the |our )?(?P<asked>"
    rf"{phrase_alternation('patient_test_services')}) to) (?:just |please |also |maybe )?"
    rf"(?:{phrase_alternation('patient_test_doing_verbs')})\b"
)
"""A test asked of the one who does it on a sample ("can the lab do a blood film on that sample?", "could haematology
add on a clotting screen?", "could you ask the lab to run a film?"): grammar of who (`patient_test_services`, or
"they" with what it is done on, `patient_test_samples`) and a verb of doing a test (`patient_test_doing_verbs`)."""
_ON_A_SAMPLE = re.compile(
    rf"\bon (?:the|that|this|those|these|her|his|my|your|their|a) (?:[\w-]+ )?"
    rf"(?:{phrase_alternation('patient_test_samples')})\b", re.IGNORECASE)


_SERVICE_SENT = re.compile(
    r"^\W*(?:(?:and|so|ok|okay|right)\W+)*(?:has|have|did) (?:the |our )?"
    rf"(?:{phrase_alternation('patient_test_services')}) (?:already |now )?(?:sent|send|phoned|phone|rung|rang|ring|"
    r"called|call|emailed|email)(?: over| through| back| up)? (?:with )?(?:the |any |her |his |your |their |those )?"
    rf"(?:[\w-]+ ){{0,3}}?(?:{phrase_alternation('patient_result_nouns')})\b", re.IGNORECASE)
"""Whether the lab sent a result ("has the lab sent the results?", "did haematology phone through the film report?"):
a request for the result, not a new test nor news of the lab."""


def asks_service_for_test(text: str) -> bool:
    """Is the part a request that the lab (or "they", with what it is done on) do a test (:data:`_SERVICE_DOES`)?
    Not "did the lab ring you?" nor "can they take you home?"."""
    match = re.search(_SERVICE_DOES, text, re.IGNORECASE)
    if match is None:
        return False
    return match.group("who") is None or match.group("who").lower() != "they" or bool(_ON_A_SAMPLE.search(text))


_HISTORY_START = re.compile(
    r"^(and |so |ok,? |sorry,? )*(any|have|has|had|do|does|did|are|is|was|were|ever|how|what|when|where|which|why|"
    r"who|tell|describe|since when|remind me)\b",
    re.IGNORECASE,
)
_ASKS_ANYONE = re.compile(r"^(and |so |ok,? |sorry,? )*(family history of )?(anyone|anybody|anything)\b", re.IGNORECASE)
"""A question even without its question mark ("anyone in the family with blood disorders"), never a request; so
too as the reader joins it to a family history question before it ("FHx? anyone with ...")."""
NEGATED = re.compile(
    r"^\W*(?:and |so |ok,? )*(?:no|not|never|(?:you|he|she|they) (?:don'?t|doesn'?t|didn'?t|haven'?t|hasn'?t|"
    r"aren'?t|isn'?t|wasn'?t|weren'?t|never))\b",
    re.IGNORECASE,
)
"""A question put in the negative ("no chest pain?", "you don't smoke?")."""
_TAG_RIGHT = re.compile(r",\s*right\s*\??\s*$", re.IGNORECASE)
"""A tag that asks to confirm what was put ("..., right?")."""
_NOT_A = re.compile(r"^\W*(?:and |so |ok,? )*not\b", re.IGNORECASE)
"""A negative put as "not ..." ("not a stroke, right?"): still a diagnosis put to the patient."""
_STRONG_DIAGNOSIS = re.compile(
    r"\b(isn'?t it|is it not|doesn'?t it|aren'?t they|isn'?t that)\s*\??\s*$|,\s*right\s*\??\s*$|"
    r"\b(do|would) (you|u) think (it|this|that)('s|s| is| was| could| might| have| has|'ve)?\b|"
    r"\b(do|d'?) ?(you|u) think\s*\??\s*$|,\s*(you|u) (think|reckon)\s*\??\s*$|"  # "..., do you think?"
    r"\b(could|might|may|can) (it|this|that) (all |just |only |simply |really |possibly )?be\b|\bsounds like\b|"
    # "what do you think it is?", "is that what you think it is?" (not "what do you think of the tablets?")
    r"\bwhat (do |does )?(you|he|she|they) think (it|this|that)('s| is| was| might| could| may)\b|"
    r"\b(is|was) (that|this|it) what (you|he|she|they) (think|thought|reckon)\b|"
    r"\b(is|was) (it|this|that) (because of|due to)\b|"
    # the doctor's explanation put to the patient ("i think ur heart isnt pumping well", "I think this was
    # a febrile convulsion"; not "I think you said Monday?") and its check ("does that make sense?")
    r"^\W*((and|so|ok|okay|right|well)\W+)*(i|we) (think|suspect|reckon|believe)( that)? (it|this|that|you|your|"
    r"he|she|his|her|they|their)\b( \w+)? (is|was|'s|s|has|had|have|are|were|isn'?t|wasn'?t|might|may|could|"
    r"must)\b|\bdoes (that|this|it) (make sense|sound (about )?right|sound ok|fit)\b|"
    # "is this just her dementia getting worse?", "is it only a virus?" (not "is it just on the right?")
    r"^(and |so )?(is|was) (it|this|that) (just|only|simply) (?!(on|in|at|when|while|after|before|the|one|there|"
    r"here|a bit|now|today|sometimes)\b)",
    re.IGNORECASE,
)
_IT_COULD_BE = re.compile(
    r"\b(it|this|that) (could|might|may|must) (just |well |possibly |only )?be (a |an |your |his |her )?"
    r"(?!(worse|better|the same|fine|ok|okay|nothing|related|worth)\b)\w",
    re.IGNORECASE,
)
"""The doctor's suggestion of what it is ("so this could be shingles"), unless the patient is asked
whether they fear it ("are you worried this could be cancer?")."""
_SUSPECTS = re.compile(
    r"\b(think|thought|reckon|suspect|wonder(ed|ing)? (if|whether)|worried|worry|afraid|scared|concerned|frightened)"
    r"( that)? (it|this|that|you|he|she|they)('s| is|'re| are| was)? (might|could|may|must) (be|have)\b|"
    # "you must be worried it's meningitis": the fear the doctor puts to the patient
    r"\b(worried|afraid|scared|frightened) (that )?(it|this)('s| is) (a |an )?"
    r"(?!(getting|going|worse|better|not|nothing|still|coming|back|serious)\b)\w",
    re.IGNORECASE,
)
_WEAK_DIAGNOSIS = re.compile(
    r"^(and |so )?(is|was) (it|this|that) (a |an |your |his |her )?(?P<what>[\w'-]+( (?!then\b|after all\b)[\w'-]+)?)"
    r"(\s*,?\s*(then|after all))?(\s*,?\s*(doctor|doc|nurse))?\s*\??$", re.IGNORECASE
)
"""A diagnosis put as a question ("is it a kidney stone, doctor?", "so is it a heart attack then?")."""
_OPINION_TAG = re.compile(r"\s*,?\s*(?:(?:do|d'?|would)\s*)?(?:you|u)\s+(?:think|reckon|suppose)\s*\??\s*$",
                          re.IGNORECASE)
"""The patient's opinion asked at the end of a question ("is it Lyme disease, do you reckon?"): grammar."""
_LIKE_THEIRS = re.compile(
    r"\s*,?\s*(?:just\s+|the\s+same\s+)?(?:like|as)\s+(?:his|her|your|my|their|our)\s+(?:\w+\s+){0,2}?\w+"
    r"(?:\s+(?:had|has|have|got|did|does))?\s*\??\s*$",
    re.IGNORECASE,
)
"""A tail that likens the illness put to someone's ("is it Alzheimer's, like his sister had?"): grammar; the question
puts the diagnosis, it does not ask of that person's illness."""
_THINKS_THEY_HAVE = re.compile(
    r"^\W*(?:(?:and|so|ok|okay|right|well)\W+)*(?:do|did|d'?)\s*(?:you|u)\s+(?:think|reckon|suppose)\s+(?:that\s+)?"
    r"(?:you|u|he|she|they)(?:'ve|'s|'d| have| has| had| might| may| could| must)?\s+"
    r"(?:had|have|has|got|having|caught)\s+(?P<what>[^?]+?)\s*\??\s*$",
    re.IGNORECASE,
)
"""The patient asked whether they think they have an illness ("do you think you've had a stroke?"): grammar; what
follows is a diagnosis only when it names an illness (:func:`confirms_diagnosis`), not "a temperature"."""
_OPINION_LEAD = re.compile(
    r"^\W*(?:(?:and|so|ok|okay|right|well)\W+)*(?:do|did|d'?|would)\s*(?:you|u)\s+(?:think|reckon|suppose)\s+(?:that\s+)?",
    re.IGNORECASE,
)
"""The patient's opinion asked before what is put ("do u reckon it's a kidney stone?"): grammar; what follows is a
diagnosis only when :func:`confirms_diagnosis` reads one."""
_OPEN = re.compile(
    r"^(and |so |ok,? |sorry,? |right,? |roughly,? |approximately,? |exactly,? )*"
    r"(since when|what|when|whereabouts|where|which|how|why|who|whose|whom|"
    r"tell me|describe|talk me through|"
    r"can you (tell|describe)|could you (tell|describe))\b",
    re.IGNORECASE,
)
_ANYTHING_YOU_DO = re.compile(
    r"^\W*(?:(?:and|so|ok|okay)\W+)*(?:(?:is|are) there\s+)?(?:anything|anyone|anybody|something|someone)"
    r"(?:\s+(?:else|outside\s+(?:of\s+)?(?:the\s+|your\s+)?\w+))?\s+(?:that\s+|who\s+)?(?:you|u|he|she|they)\s+"
    r"(?:(?:can|could|would|might|still|usually|normally|like to|love to|used to)\s+)?"
    r"(?:do|enjoy|like|love|talk|lean|rely|trust|confide)\b",
    re.IGNORECASE,
)
"""A question of what or whom in yes/no words ("anything you do for fun?", "is there anyone you can talk to?"): no
yes or no answers it, so what the record does not hold is not known, never "No"."""
_AUXILIARY_START = re.compile(
    r"^(and |so |ok,? |sorry,? )*(any|have|has|had|do|does|did|are|is|was|were|ever|can|could|will|would)\b",
    re.IGNORECASE,
)
_WHAT_DOES_DO = re.compile(
    r"\b(?P<who>what (do|does|did) (you|he|she|they|(your|his|her|their) \w+)( used to)?) do\s*\??\s*$", re.IGNORECASE
)
_MAKE_OF = re.compile(r"\b(what (do|did|does) (you|he|she|they|(your|his|her) \w+) )make of\b", re.IGNORECASE)
_ATTRIBUTE_CONCEPTS = frozenset({"@occupation", "@home", "@diet"})
_YESNO_HOW = re.compile(r"^(how about|what about)\b", re.IGNORECASE)
_ANAPHOR = re.compile(
    r"\b(it(?! all\b)|its|it's|they|them|there|the other|the last|last time|(those|that|this|these)"
    rf"(?!\s+({'|'.join(sorted(map(re.escape, _words('patient_own_times'))))})s?\b))\b",
    re.IGNORECASE,
)
"""Pointer words ("this year", "this pregnancy" name their own time: no pointer; "coping with it all" is
the whole situation, not what was just said)."""
_FINDINGS_WORDS = _list_stems("patient_findings_titles")
_REQUEST_WORDS = _list_stems("patient_request_words")
_DOCUMENT_WORDS = _list_stems("patient_document_words")
_SIDE_WORDS = _list_stems("patient_side_words")
_FINDINGS_ASKED = re.compile(rf"\b(?:{phrase_alternation('patient_findings_asks')})\b", re.IGNORECASE)
_EXAMINATION_WORDS = _list_stems("patient_examination_titles")
_MORE_OBSERVATIONS = re.compile(rf"\b(?:{phrase_alternation('patient_more_observations')})\b", re.IGNORECASE)
_BODY_PART = re.compile(rf"\b(your|his|her|the) (?:{phrase_alternation('patient_examined_parts')})\b", re.IGNORECASE)
"""An examination of a part of the body ("listen to your heart") that asks no observations is found
only in a record of an examination, never in the observations alone."""
_PARTS = CLINICAL.of_kind("body_part")
"""The parts of the body of the vocabulary: an examination of one ("a full joint check") is of the examination's
record, not the observations."""
_OBSERVATION_PHRASES = re.compile(rf"\b(?:{phrase_alternation('patient_observation_asks')})\b", re.IGNORECASE)

_MEASURED = re.compile(rf"\b(?:{phrase_alternation('patient_measured_only')})\b", re.IGNORECASE)
"""Observations only a measurement gives (a temperature the patient may have taken)."""
_VALUE_AGAIN = re.compile(r"^\W*(?:(?:and|so|ok|okay|sorry|right)\W+)*(?:what|how)\b.*\bagain\b", re.IGNORECASE)
"""A value asked for a second time ("what was her pulse again?"): the measurement, handed over again."""

_QUALITIES = _words("patient_qualities")
"""Words after "is it ..." that ask how something is. "Is it serious?" is not one of them: the
patient does not know, as for any diagnosis question."""

_POINTING_QUALITIES = frozenset({"it", "that", "this", "all", "there"})
"""Words of ``patient_qualities`` that only point at what is talked about ("is it that bad?"): grammar, no quality."""


def qualities_said(question: str) -> frozenset[str]:
    """The words of a question that ask how a thing is or comes, as written ("regular" of "were they regular before
    that?"), not the words that only point at it: a small word the matcher leaves, that a fact may still say."""
    return frozenset(w for w in words(question) if w in _QUALITIES and w not in _POINTING_QUALITIES)


DESCRIPTOR_CONCEPTS = frozenset(
    f"@{c}" for c in ("onset", "severity", "location", "radiation", "character", "aggravating", "relieving",
                      "progression", "frequency", "recurrence", "amount")
)
"""Concepts that describe whatever was being talked about ("which side?", "how bad?")."""
_SYMPTOM_WORDS = frozenset({"@pain", "@swelling", "@itch", "@bleeding", "@fever"})
"""Concepts that say how a symptom is, not what illness it is ("a sharp pain", "is it sore?")."""
_QUALITY_CONCEPTS = DESCRIPTOR_CONCEPTS | _SYMPTOM_WORDS


_TELL_NAMES = re.compile(
    r"\b(?:can|could|would|will) you (?:please )?(?:read|tell|list|give|say|go through|run through)(?: me| us)?"
    r"(?: out)? (?:the |all the )?names? of\b",
    re.IGNORECASE,
)
"""A request to tell the names of something ("can you read me the names of your inhalers?"): a question of
what they are, told, never a reading or a sample to agree to."""


@batch_cache(maxsize=4096)
def understood(text: str) -> str:
    """The text as the patient reads it: shorthand written out, "what does your wife do?"
    is about her work (not about the wife), "what do you make of it?" asks what one thinks, and "can you read
    me the names of ...?" asks what they are (cached: every part is read so by several checks)."""
    said = _TELL_NAMES.sub("what are", expand_shorthand(text))
    return _MAKE_OF.sub(r"\g<1>think of", _WHAT_DOES_DO.sub(r"\g<who> do for work?", said))


_ASKS_AGAIN = re.compile(
    r"\b(?:ask|asked|asking)\b[^?]*\b(?:again|once more|before|already|earlier|a moment ago)\b"
    r"|\b(?:i know i|i have|i've|i already|already) asked\b|\bthink again\b|\bcheck(?:ing)? again\b"
    r"|\b(?:come|coming|go|going|get|getting) back to (?:it|that|this|something)\b",
    re.IGNORECASE,
)
"""The doctor saying that they ask again, and why ("I know I asked, but it matters", "I'm asking again because
I need to know", "please think again", "just to check again", "sorry to come back to it": no back of the body)."""


_ROUTINE_ASIDES = tuple(" ".join(words(p)) for p in read_vocabulary().phrases("patient_routine_asides"))
"""The doctor saying that the question is one they ask everyone ("I ask everyone this", "it's a routine question")."""


def asks_everyone_aside(part: str) -> bool:
    """Does the part only say that the doctor asks this of everyone (no question mark; "I ask everyone this")?"""
    said = f" {' '.join(words(part))} "
    return "?" not in part and any(f" {aside} " in said for aside in _ROUTINE_ASIDES)


_MEDIUM = tuple(" ".join(words(p)) for p in read_vocabulary().phrases("patient_consultation_medium"))
"""The doctor speaking of the consultation's medium ("the screen froze", "you cut out", "bad line")."""


def speaks_of_the_medium(part: str) -> bool:
    """Does the part, with no question mark, speak of the consultation's medium ("Sorry, the screen froze")? It asks
    nothing: "screen" is no screening, "line" no line of the body."""
    said = f" {' '.join(words(part))} "
    return "?" not in part and any(f" {phrase} " in said for phrase in _MEDIUM)


_DISCOURSE = re.compile(
    rf"^\W*(?:(?:and|so|ok|okay|right|sorry)\W+)*(?:{phrase_alternation('patient_discourse_lead_ins')})"
    r"\s*(?:[,:;\u2013\u2014-]+\s*|\W*$)",
    re.IGNORECASE,
)
"""Words that only lead into a question, then a comma, colon or dash or the part's end ("Just to check - ...",
"Quick question: any cough?"): grammar; the phrases are data. "Can I just check your pulse?" keeps its words."""


def without_discourse(part: str) -> str:
    """The part without the words that only lead into its question ("Quick question: any cough?": "any cough?");
    "" when it is nothing else ("Just to check", before " - no rash at all?")."""
    match = _DISCOURSE.match(part)
    return part[match.end():] if match else part


_IN_GENERAL = tuple(" ".join(words(p)) for p in read_vocabulary().phrases("patient_in_general"))
"""How something is in general ("generally", "overall", "these days")."""


def asks_in_general(part: str) -> bool:
    """Does a fragment ask how something is in general ("and her mood generally, with all this going on?", "sleep
    overall?"; `patient_in_general`)? With no auxiliary to start it, no yes or no answers it."""
    said = f" {' '.join(words(part))} "
    return part.rstrip().endswith("?") and any(f" {phrase} " in said for phrase in _IN_GENERAL)


_MENTIONED = tuple(" ".join(words(p)) for p in read_vocabulary().phrases("patient_mentioned_to_you"))
"""Whether anyone has mentioned something to the patient ("has anyone ever mentioned ...", "ever been told about")."""


def asks_if_mentioned(part: str) -> bool:
    """Does the part ask whether anyone mentioned something to the patient ("has anyone ever mentioned your
    parathyroid glands to you?")? What they were told, unless the record says it, is not known: never "No"."""
    said = f" {' '.join(words(part))} "
    return any(f" {phrase} " in said for phrase in _MENTIONED)


def asks_again_aside(part: str) -> bool:
    """Does the part only say that the doctor asks again (no question mark; "I know I asked, but ...")?"""
    return "?" not in part and bool(_ASKS_AGAIN.search(part))


_EXAMPLE = re.compile(r"^\W*(e\.?g\b\.?|for example|for instance|such as|like)\s+\w[^?]*$", re.IGNORECASE)
"""A part that only gives examples of the question before it ("any pain anywhere? eg behind the ear")."""


_WHERE_OR_WHEN_OF_IT = re.compile(
    r"^\W*(?:(?:when|whenever|while|if)\s+(?:you|he|she|they|it|i|we|your|his|her|their|the)\b"
    r"|(?:in|on|at|down|into|around|under|behind|across)\s+(?:your|his|her|their|the|my|a|an)\b)"
    r"(?![^?]*,\s*(?:is|are|do|does|did|have|has|was|were|can|could|what|how|when|where|any)\b)[^?]*\??$",
    re.IGNORECASE)
"""A part after a dash that says only when or where the thing before it is, with no question of its own ("any pain -
when you pass urine, or in your back or loins?"): part of that question, not a question of passing urine."""
_CHOICE_ASKED = re.compile(r"^\W*(?:(?:and|so)\W+)?(?:what|which)\b[^?]*$", re.IGNORECASE)
"""A question of which, with no question mark, whose choices follow ("what came first - A or B?")."""
_TWO_CHOICES = re.compile(r"^(?!\W*any\b)[^,;]+\bor\b[^,;]+$", re.IGNORECASE)
"""Two choices, no list ("the vomiting or the diarrhoea?"; not "inhalers, any abx or steroids")."""


def split_questions(message: str) -> list[str]:
    """One part per question ("Any fever? How many times has he vomited?" -> two); a part that only gives
    examples of the question before it is part of that question ("any pain anywhere? eg behind the ear": no
    request for the ear's examination), and so are the choices after a question of which ("what came first -
    the vomiting or the diarrhoea?")."""
    parts: list[str] = []
    for part in (p.strip(" ,") for p in _SPLIT.split(message) if p and p.strip(" ,")):
        if parts and parts[-1].endswith("?") and _EXAMPLE.match(part):
            parts[-1] = f"{parts[-1].rstrip('?')}, {part}?"
        elif parts and not parts[-1].endswith(("?", ".", "!")) and _WHERE_OR_WHEN_OF_IT.match(part):
            parts[-1] = f"{parts[-1]} {part}"  # "any pain - when you pass urine, or in your back?": one question
        elif parts and _CHOICE_ASKED.match(parts[-1]) and _TWO_CHOICES.match(part) and lists_only(part):
            parts[-1] = f"{parts[-1]}, {part}"  # "what came first - the vomiting or the diarrhoea?": one question
        else:
            parts.append(part)
    return parts or [message]


_PAST_EPISODE_POINTERS = tuple(" ".join(words(p)) for p in read_vocabulary().phrases("patient_past_episode_pointers"))


def points_at_past_episode(part: str) -> bool:
    """Does the part point at a past episode just told ("what helped last time?", "how long did it last that time?")?"""
    return says_phrase(part, _PAST_EPISODE_POINTERS)


_ACCOUNT_ASKS = tuple(" ".join(words(p)) for p in read_vocabulary().phrases("patient_account_asks"))


def asks_account(part: str) -> bool:
    """Does the part ask what the patient thinks happened (a vocabulary phrase), not what it is?"""
    return says_phrase(part, _ACCOUNT_ASKS)


@batch_cache(maxsize=4096)
def _phrase_list(name: str) -> tuple[str, ...]:
    """A phrase list of the vocabulary, each phrase in ``words`` form (for :func:`says_phrase`)."""
    return tuple(" ".join(words(p)) for p in read_vocabulary().phrases(name))


_EXAMINATION_COMMANDS = _phrase_list("patient_examination_commands")
_HOME_MEASURING = _phrase_list("patient_home_measuring")
_PICTURE_WORDS = frozenset(_phrase_list("patient_picture_words"))
_DOCTOR_HAS_IT = _phrase_list("patient_doctor_has_it")
_DOCTOR_WRITES = _phrase_list("patient_doctor_writes")
_HAS_DEVICE = re.compile(
    r"^\W*(?:(?:and|so|ok|okay|now|right)\W+)*(?:do you (?:have|own)|have you got|have you a|is there|"
    r"can you (?:get|find|grab|use|fetch))\b", re.IGNORECASE)
"""Whether the patient has something to hand ("do you have a thermometer?"), not whether they used it before."""
_VALUE_NOW = re.compile(r"^\W*(?:(?:and|so|ok|okay|right)\W+)*(?:what|how)\b.*\b(?:now|right now|at the moment|"
                        r"currently)\W*$", re.IGNORECASE)
"""A value asked as it is now ("what's your temp now?"): measured now, not remembered."""


def examines_by_command(part: str) -> bool:
    """Does the part ask the patient to do a manoeuvre of an examination ("squeeze my hands", "turn the camera to
    the rash", "close your eyes tight"; `patient_examination_commands`)? The patient does it: the examination."""
    return says_phrase(part, _EXAMINATION_COMMANDS) and not _HISTORY_START.match(part)  # "does it hurt when you smile?"


def has_measuring_device(part: str) -> bool:
    """Does the part ask whether the patient has something to measure with to hand ("do you have a thermometer?";
    `patient_home_measuring`)? In a remote consultation it asks them to measure: the examination's findings. In
    the room it asks of the patient's home."""
    return bool(_HAS_DEVICE.match(part)) and says_phrase(part, _HOME_MEASURING)


_MEASURED_OWN = re.compile(
    r"^\W*(?:(?:and|so|ok|okay|right|now)\W+)*(?:have|has) you (?:\w+ ){0,2}?(?:measured|checked|taken|recorded|done)\b"
    r"(?!.*\b(?:ever|before|previously|last|yesterday|ago|when|while|during)\b)", re.IGNORECASE)
"""Whether the patient has measured something of their own now, in the present perfect and at no time past ("have
you actually measured your temp?"), not "did you take your temperature last night?" (a reading remembered)."""


def asks_own_reading(part: str) -> bool:
    """Does the part ask whether the patient has measured a reading of their own ("have you checked your pulse?")? In
    a remote consultation it asks for the readings they took: the attachment of findings that names what was
    measured."""
    return bool(_MEASURED_OWN.match(part))


def asks_value_now(part: str) -> bool:
    """Does the part ask an observation's value as it is now ("what's your temp now?")? It asks to measure: the
    examination's findings, never the history of a symptom."""
    return bool(_VALUE_NOW.match(part)) and bool(_OBSERVATION_PHRASES.search(understood(part)))


def asks_for_picture(part: str) -> bool:
    """Does the part ask whether the patient took or has a photo or video ("did you take a picture of the tick?",
    "have you got any photos of it?"; `patient_picture_words`)? Asking whether one was taken asks for it."""
    return bool(_PICTURE_TAKEN.search(part)) and bool(_PICTURE_WORDS & set(words(part)))


_PICTURE_TAKEN = re.compile(
    r"\b(?:did|have|has|do|does)\s+(?:you|u|he|she|they|anyone|anybody|someone|somebody)\s+(?:\w+\s+)?"
    r"(?:take|took|taken|get|got|snap|snapped|send|sent|keep|kept|save|saved|have|manage|managed)\b",
    re.IGNORECASE,
)


def says_doctor_has_it(part: str) -> bool:
    """Does the part, with no question mark, say that the doctor has what was sent ("Hi, thanks for sending the
    photo, I've got it up here."; `patient_doctor_has_it`)? It asks for nothing, whatever it names."""
    return "?" not in part and says_phrase(part, _DOCTOR_HAS_IT)


def says_doctor_writes(part: str) -> bool:
    """Does the part, with no question mark, say that the doctor writes something down themselves ("I'm just
    going to type a few notes."; `patient_doctor_writes`)? The doctor's own notes: it asks for nothing."""
    return "?" not in part and says_phrase(part, _DOCTOR_WRITES) and bool(
        _DOCTOR_ACTS.search(re.sub(r"\bjust\s+", "", part, flags=re.IGNORECASE))
    )


@batch_cache(maxsize=4096)
def kind_of(part: str) -> QuestionKind:
    """What kind of question one part is (see the module docstring; cached: the patient and
    the consultation both ask it of every part, a batch's doctors the same parts of many cases)."""
    text = part.strip()
    if (fronted := _FRONTED_PREFIX.match(text)) and _OF_THEM.search(text[fronted.end():]):
        text = text[fronted.end():]  # "your mum - what does she take?": what she takes, an open question
    if asks_account(text):
        return "open"  # "how do you think it happened?": the patient's account, not a diagnosis
    if (_STRONG_DIAGNOSIS.search(text) and not (
        NEGATED.match(text) and not _NOT_A.match(text) and _TAG_RIGHT.search(text)
    )) or (
        confirms_diagnosis(text)
    ):
        return "diagnosis"  # "no breathing problems, right?" confirms a "no", never a diagnosis
    if _IT_COULD_BE.search(text) and not _SUSPECTS.search(text):
        return "diagnosis"
    if (lead := _OPINION_LEAD.match(text)) and confirms_diagnosis(text[lead.end():]):
        return "diagnosis"  # "do u reckon it's a kidney stone?": the patient's opinion of what it is, not its history
    if (thinks := _THINKS_THEY_HAVE.match(text)) and confirms_diagnosis(f"it's {thinks.group('what')}?"):
        return "diagnosis"  # "do you think you've had a stroke?": the patient's opinion of an illness, not its history
    if examines_by_command(text) or asks_value_now(text):
        return "examination"  # "squeeze my hands", "what's your temp now?": the examination itself
    if _INSTRUCTION.match(text):
        return "instruction"
    if _IMPERATIVE.match(text):
        return "request"  # "(and) do a pregnancy test", "get some bloods": an instruction, not "do you ...?"
    if (_EXAMINE.search(text) or _EXAMINE.search(understood(text))) and (
        not _HISTORY_START.match(text) or _DOCTOR_ACTS.search(text)
    ):
        return "examination"  # "did you measure your temperature?" asks what the patient did
    if _DOCTOR_ACTS.search(text) and _CHECK_DONE.search(text):
        return "examination"  # "I'll just run through a quick mental state check": announced, not asked
    if _MEASURED.search(understood(text)) and (_names_observations(text) or _VALUE_AGAIN.search(text)):
        return "examination"  # "HR and sats?": only measuring says them ("temp?" may be asked of a fever); "what did
        # his BP come out at again?" asks for the measurement taken, not the patient's memory
    if _HISTORY_START.match(text):
        if _explicit_request(text):
            return "request"
    elif _REQUEST.search(text) or asks_service_for_test(text) or not (
            text.endswith("?") or _ASKS_ANYONE.match(text)):
        return "request"  # "we'll send bloods", "and a chest X-ray please", "and some bloods."
    weak = _WEAK_DIAGNOSIS.match(_OPINION_TAG.sub("?", text)) or _WEAK_DIAGNOSIS.match(
        _LIKE_THEIRS.sub("?", text))  # "is it Lyme disease, do you reckon?", "is it gout, like his dad had?"
    if weak and not _descriptive(weak.group("what")):
        return "diagnosis"
    if opens_openly(text) or _ANYTHING_YOU_DO.match(text):
        return "open"  # "anything you do for fun?", "is there anyone you can talk to?": what, who
    if not _AUXILIARY_START.match(text) and (_asks_attribute(text) or asks_in_general(text)):
        return "open"  # "Occupation?", "And your job?", "and her mood generally?": no yes or no answers them
    return "yesno"


_CONFIRMS = re.compile(
    r"^\W*(?:(?:and|so|ok|okay|right|well)\W+)*(?:it'?s|it is|this is|that'?s|that is|it must be|it'?ll be|"
    r"it could be|it might be|it may be|you think it'?s)\s+"
    r"(?:just |probably |definitely |likely |only |really |most likely |more likely |almost certainly )?"
    r"(?P<article>(?:a|an) )?(?P<what>[\w' -]+?)\s*,?\s*"
    r"(?:then|after all|isn'?t it|right|yeah|eh|now|(?:would|do) (?:you|u) agree|don'?t (?:you|u) think)?\s*[?.!]*\s*$",
    re.IGNORECASE,
)
"""A statement put as a question ("So it's a kidney stone then?", "it's gout?", "it's most likely gout, would you
agree?")."""
_NOT_AN_ILLNESS = frozenset(re.findall(r"\S+", (
    "on in at when while after before the there here been getting gone going coming still all always only because "
    "from your his her my their about like over under now ok okay fine normal same new constant worse better "
    "worst mostly mainly usually normally every each one two three four five both left right"
)))
"""First words of what follows "it's" that say how or where it is, not what illness it is."""


def confirms_diagnosis(part: str) -> bool:
    """Does the part put an illness to the patient to confirm ("So it's a kidney stone then?", "it's a
    clot?")? Not how or where something is ("so it's worse at night?", "it's on the left?"): the
    patient does not know the diagnosis, and must not deny it either."""
    match = _CONFIRMS.match(part)
    if match is None:
        return False
    tokens = words(match.group("what"))
    if not tokens or tokens[0] in _NOT_AN_ILLNESS or tokens[0].isdigit() or all(t in STOPWORDS for t in tokens):
        return False
    what = match.group("what")
    if any(t.startswith("@time") for u in units(what) for t in u.terms):
        return False  # "so it's mainly at night then?"
    if match.group("article"):  # "a kidney stone", "a heart attack"; not "a sharp pain"
        return not any(u.terms & _SYMPTOM_WORDS for u in units(tokens[-1]))
    # "so it's gout then?", "it's sciatica?"; not "it's sore?", "it's numb?", "it's worse?"
    return not _descriptive(what) and not any(t.startswith("@") for u in units(what) for t in u.terms)


_KNOW_WHAT = re.compile(
    r"^\W*(?:(?:and|so|ok|okay)\W+)*(?:do|d'you|did|would)\s+(?:you|u|he|she|they)\s+(?:happen to\s+)?"
    r"(?:know|remember|recall)\s+(?:what|when|how|which|where|who|why)\b",
    re.IGNORECASE,
)
"""Whether the patient knows a value ("do you know what your cholesterol is?", "do you remember when it was?"): grammar;
it asks for the value, an open question (not known: unsure, never "No")."""


def opens_openly(part: str) -> bool:
    """Does the part open with a question no yes or no answers ("how are you coping, ...",
    "what happened next?", "do you know what your cholesterol is?"; not "how about chest pain?")?"""
    text = part.strip()
    return bool(_OPEN.match(text)) and not (_YESNO_HOW.match(text) and not _asks_attribute(text)) or bool(
        _KNOW_WHAT.match(text))


def _asks_attribute(text: str) -> bool:
    """Is every content word of the part about a circumstance that has a value rather than
    a presence (work, home, diet)?"""
    found = units(text)
    return bool(found) and all(u.terms & _ATTRIBUTE_CONCEPTS for u in found)


_WHAT_ASKED = re.compile(r"^\W*(?:(?:and|so|ok|okay)\W+)*(?:what|which)\b", re.IGNORECASE)


def attribute_asked(text: str) -> frozenset[str]:
    """The circumstance with a value a question of what asks ("what do you eat in a day?": the diet; not "how are
    you eating?", which may ask of the appetite); none for any other question."""
    if not _WHAT_ASKED.match(text) or not _asks_attribute(text):
        return frozenset()
    return frozenset(t for u in units(text) for t in u.terms & _ATTRIBUTE_CONCEPTS)


_DOCTOR_SAYS = re.compile(
    r"^\W*(?:(?:and|so|ok|okay|right|also)\W+)*(?:i|we)(?:'ve| have| had|'ll| will| also| just| need| want|"
    r" am going|'m going| are going|'re going|'d like| would like| gave| started| did| sent| put|'m worried|"
    r" am worried|'m concerned| am concerned| suspect|'re getting| are getting|'re asking| are asking|'re calling|"
    r" are calling)\b",
    re.IGNORECASE,
)
"""The doctor telling what they did or will do ("we've given him a neb", "I also need to check ..."), or what they
suspect ("I'm worried this is a clot")."""


_WHO = re.compile(r"^\W*(?:(?:and|so|ok|okay|right)\W+)*(?:who|whom)(?:'s|s)?\b", re.IGNORECASE)


def asks_who(part: str) -> bool:
    """Does the part ask who ("who's at home with you?", "and who lives with him?")?"""
    return bool(_WHO.match(part))


_POSSESSION = re.compile(
    r"^\W*(?:(?:and|so|ok|okay|right|now)\W+)*(?:(?:do|does) (?:you|he|she|they) (?:have|own|keep)|"
    r"(?:have|has) (?:you|he|she|they) got)\b",
    re.IGNORECASE,
)


def asks_possession(part: str) -> bool:
    """Does the part ask whether the patient has something ("do you have a BP machine at home?", "have you got
    a thermometer?")? When the message then asks for what it gives, the hand-over answers it."""
    return bool(_POSSESSION.match(part))


_ASKED_THE_DOCTOR = re.compile(
    r"^\W*(?:(?:and|so|ok|okay|right)\W+)*(?:your|ur|his|her|their|the)\s+(?:\w+\s+){0,2}?(?:asked|called|rang|phoned|"
    r"contacted|sent for|wanted|emailed|messaged)\s+(?:me|us)\b",
    re.IGNORECASE,
)
"""Who asked the doctor to come or call ("your daughter asked me to pop round", "the ward rang us"): grammar."""


_TELLS = re.compile(
    r"^\W*(?:(?:and|so|ok|okay|right|well|now)\W+)*(?:your|ur|his|her|their|the)\s+(?:[\w-]+\s+){0,3}?"
    r"(?:is|are|was|were|shows?|showed|came back|has come back|have come back|looks?|looked|will|should|"
    r"needs? to|must)\s+\w",
    re.IGNORECASE,
)
"""A statement that tells the patient of their own thing or of what another will do ("your liver tests are raised",
"the kidney team will see you"): grammar of a subject and its verb."""


_DOCTOR_ASKS_AFTER = re.compile(
    r"\b(?:(?:i|we)(?:'d| would) like|i(?:'ll| will| want| need|'m going| am going)|we (?:need|want)|let me|"
    r"(?:can|could|may) i)\b", re.IGNORECASE)
"""The doctor's own request after what they tell ("your pulse is irregular so I'd like to do an ECG now"): grammar."""


_ARRANGED_NOW = re.compile(
    r"^\W*(?:(?:and|so|ok|okay|right|well|now)\W+)*(?:the|our|a)\s+(?:[\w-]+\s+){0,3}?"
    r"(?:will|'ll|is going to|are going to|should|needs? to|must)\s+(?:just\s+|now\s+)?"
    rf"(?:{phrase_alternation('patient_test_doing_verbs')})\b(?!.*\b(?:next|tomorrow|later|"
    r"in (?:[\w-]+\s+){1,2}?(?:days?|weeks?|months?)|at (?:your|the) next)\b)",
    re.IGNORECASE,
)
"""A test the doctor arranges now through another ("the nurse will take some bloods now", "the HCA will do an
ECG"): grammar of who does it, a verb of doing a test (`patient_test_doing_verbs`) and no later time; the doctor's
request, not news."""


def doctor_tells(part: str) -> bool:
    """Is the part a statement that tells the patient something - a result, what it means, a plan of others - with
    no question mark ("Your kidneys are leaking protein, so ... should stop.")? It asks for nothing, unless the doctor
    goes on to ask for something in it ("... so I'd like to do an ECG now") or arranges a test now through another
    ("the nurse will take some bloods now": :data:`_ARRANGED_NOW`)."""
    return (not part.rstrip().endswith("?") and bool(_TELLS.match(part))
            and not _DOCTOR_ASKS_AFTER.search(part) and not _ARRANGED_NOW.match(part))


def doctor_says(part: str) -> bool:
    """Is the part the doctor's own statement, asking nothing (no question mark): what they did or will do, or who
    asked them to come ("your daughter asked me to pop round.": no question of the daughter)?"""
    return not part.rstrip().endswith("?") and bool(_DOCTOR_SAYS.match(part) or _ASKED_THE_DOCTOR.match(part))


_AGREEMENT_ASKS = tuple(" ".join(words(p)) for p in read_vocabulary().phrases("patient_agreement_asks"))
_AFTER_A_BREAK = re.compile(r"[,;:\u2013\u2014-]\s*([^,;:\u2013\u2014-]*)$")


_TOLD_ASKS = tuple(" ".join(words(p)) for p in read_vocabulary().phrases("patient_told_asks"))
_TOLD_REPORTS = tuple(" ".join(words(p)) for p in read_vocabulary().phrases("patient_told_reports"))


def asks_what_they_were_told(part: str) -> bool:
    """Does the question ask what the patient was told by a doctor ("did they ever tell you you had ...?", "were
    you told ...?"; ``patient_told_asks``)?"""
    return says_phrase(part, _TOLD_ASKS)


def reports_being_told(text: str) -> bool:
    """Does a fact's answer report what the patient was told ("they said I had some ...", "I was told";
    ``patient_told_reports``)?"""
    return says_phrase(text, _TOLD_REPORTS)


@batch_cache(maxsize=4096)
def asks_agreement(part: str) -> bool:
    """Does the question only ask the patient to agree to what the doctor just told ("sound ok?", "so a quinsy,
    OK?"): a phrase of ``patient_agreement_asks`` that is the whole question or follows a comma or dash? "Wet
    nappies ok?" asks of the nappies."""
    text = part.strip()
    if not text.endswith("?"):
        return False
    said = " ".join(words(text))
    tail = _AFTER_A_BREAK.search(text)
    return said in _AGREEMENT_ASKS or (tail is not None and " ".join(words(tail.group(1))) in _AGREEMENT_ASKS)


_IDEAS_ASKS = tuple(" ".join(words(p)) for p in read_vocabulary().phrases("patient_ideas_asks"))
_IDEAS_TOPICS = tuple(" ".join(words(p)) for p in read_vocabulary().phrases("patient_ideas_topics"))


def asks_ideas(part: str) -> bool:
    """Does the question ask the patient's own idea or worry of what the illness is ("do you have any idea what it
    might be?", "I suppose you've wondered if it's scabies?"; ``patient_ideas_asks``)?"""
    return says_phrase(part, _IDEAS_ASKS)


def records_ideas(topic: str) -> bool:
    """Does a fact's topic say that it records the patient's ideas, worries or concerns ("his worries and wishes";
    ``patient_ideas_topics``)?"""
    return says_phrase(topic, _IDEAS_TOPICS)


_QUESTIONS_INVITED = tuple(" ".join(words(p)) for p in read_vocabulary().phrases("patient_questions_invited"))


@batch_cache(maxsize=4096)
def invites_questions(part: str) -> bool:
    """Does the question ask whether the patient has questions ("any questions for me?", "anything you'd like
    to ask me before you go?"): the whole question, or what follows a comma or dash, opens with a phrase of
    ``patient_questions_invited``?"""
    text = part.strip()
    if not text.endswith("?"):
        return False
    tail = _AFTER_A_BREAK.search(text)
    asked = [" ".join(words(text))] + ([" ".join(words(tail.group(1)))] if tail is not None else [])
    return any(said == p or said.startswith(p + " ") for said in asked for p in _QUESTIONS_INVITED)


def adds_to_act(part: str) -> bool:
    """Does the part only add to an examination or a request before it in the message: asks
    consent ("is that ok?", "do you mind?") or says what it is of ("the sats and the heart
    rate?")? Then it asks nothing of its own, least of all about the last fact told."""
    text = part.strip()
    return (
        bool(_CONSENT.match(text)) or bool(_NAMES_ONLY.match(text) and not _VERB.search(text))
        or _asks_for_it_again(text) or _names_observations(text)
    )


def _names_observations(part: str) -> bool:
    """Does the part only list observations ("HR, RR, cap refill, temp")? After a request or an
    examination it says what to take, and asks the patient nothing."""
    text = understood(part)
    if _VERB.search(text) or _HISTORY_START.match(text):
        return False  # "has he had a temp?" is a question of its own
    rest = _MORE_OBSERVATIONS.sub(" ", _OBSERVATION_PHRASES.sub(" ", text))
    return rest != text and all(w in STOPWORDS or stem(w) in _REQUEST_WORDS for w in words(rest))


def _asks_for_it_again(part: str) -> bool:
    """Is the part a request or a pointer in words of asking alone ("can I see them?", "has it come
    back yet?"): after a hand-over it asks for what was handed over, not for the last fact told."""
    return (points_at(part) or kind_of(part) == "request") and all(
        w in STOPWORDS or stem(w) in _REQUEST_WORDS | _DOCUMENT_WORDS for w in words(part)
    )


def asks_for_what_was_named(part: str) -> bool:
    """Is the part a request in words of asking alone that points back ("can I see it?", "could I have a look
    at them")? It asks for the attachment the question before it named ("they took an X-ray, didn't they? can
    I see it")."""
    return points_at(part) and kind_of(part) == "request" and _asks_for_it_again(part)


def looks_at_what_was_named(part: str) -> bool:
    """Is the part a look in words of asking alone ("can I have a look?", "let me have a look"), naming no part of
    the body? After a question of the message that named a thing to be shown ("have you got the photos on your
    phone?") it is a look at that thing, no examination."""
    return kind_of(part) == "examination" and not _BODY_PART.search(part) and all(
        w in STOPWORDS or stem(w) in _REQUEST_WORDS | _DOCUMENT_WORDS for w in words(part)
    )


def _tests() -> tuple[tuple[str, ...], frozenset[str]]:
    """The vocabulary's tests and measures: their names as words, and every word of them and of what
    their short forms mean to a patient ("ECG": "ecg heart tracing")."""
    vocabulary = read_vocabulary()
    names = [n for t in vocabulary.of_kind("test") for n in t.names]
    keys = {" ".join(words(n)) for n in names}
    meant = [a.means for a in vocabulary.abbreviations if any(" ".join(words(s)) in keys for s in a.short)]
    naming = sorted(k for k in keys if not {stem(w) for w in k.split()} <= _DOCUMENT_WORDS)  # "scan" names none
    return tuple(naming), frozenset(stem(w) for text in [*names, *meant] for w in words(text))


_TEST_NAMES, _TEST_WORDS = _tests()


def only_asks_for_tests(text: str) -> bool:
    """Is the part a request for named tests and nothing else ("and an ECG pls")? The patient agrees; a
    word of the test ("heart" of "heart tracing") is no question about the heart. "Can I see the test
    results?" names no test."""
    said = f" {' '.join(words(text))} "
    asked = [stem(w) for w in words(text) if w not in STOPWORDS]
    return any(f" {name} " in said for name in _TEST_NAMES) and all(w in _TEST_WORDS | _REQUEST_WORDS for w in asked)


def asks_for_sample(text: str) -> bool:
    """Does the part ask the patient for a sample to test ("could you do a urine sample?")?"""
    return bool(re.search(_PATIENT_PROVIDES, text, re.IGNORECASE))


_RECORD_PLACES = tuple(" ".join(words(p)) for p in read_vocabulary().phrases("patient_record_places"))
_START = r"^\W*(?:(?:and|so|ok|okay|right|now)\W+)*"
_WE_HOLD = re.compile(_START + r"(?:do we have|have we got)\b", re.IGNORECASE)
_IS_THERE = re.compile(_START + r"(?:is|are) there\b", re.IGNORECASE)


def _asks_what_is_held(text: str) -> bool:
    """Does the question ask whether the practice holds something ("do we have his old results?", "is there a
    photo on the system?")? The doctor's "we" holds the records; "is there" asks so of a place of records."""
    return bool(_WE_HOLD.match(text)) or (bool(_IS_THERE.match(text)) and says_phrase(text, _RECORD_PLACES))


_SCORE_ASKS = _phrase_list("patient_score_asks")


def _explicit_request(text: str) -> bool:
    """A history-shaped question that still asks for something ("do you have the results?",
    "could you do a urine sample so we can test it?", "what did the lumbar puncture show?", "do we have
    his old results?")."""
    if _results_back(text) or _asks_what_is_held(text) or asks_for_picture(text) or _SERVICE_SENT.match(text):
        return True
    if says_phrase(text, _SCORE_ASKS):
        return True  # "what did he score on the memory test?": the test's result
    return bool(re.search(r"\b(can|could|may) (i|we)\b|\bshow me\b|\bdid you bring\b|\bhave you (got|brought)\b|"
                          + _PATIENT_PROVIDES + "|" + _MIND_IF_I_TEST + "|"
                          r"\bdo you have (the|your|any) ([\w-]+ ){0,3}"
                          rf"({phrase_alternation('patient_held_documents')})\b|"
                          rf"\b({phrase_alternation('patient_results_back_nouns')})\b[^?.!]*" + _THE_BODY_BACK
                          + r"\bback\W*$|"
                          r"\b(done|available|reported)( yet| now| already)?\W*$|"
                          r"\bwhat (did|does|do|has|have) (the|your|his|her|their|that|this) [\w\s-]{1,40}?"
                          r"\b(show|shown|say|said|find|found|reveal|revealed)\b", text, re.IGNORECASE))


_THE_BODY_BACK = r"(?<!\bmy )(?<!\byour )(?<!\bhis )(?<!\bher )(?<!\btheir )(?<!\bthe )(?<!\blower )(?<!\bupper )"
"""Grammar of "back" as the body: after whose it is or which part ("scans of your back?", "x-rays of the lower
back?")."""
_BACK_AT_END = re.compile(r"^\W*(are|is|have|has)\b[^?.!]*" + _THE_BODY_BACK + r"\bback( yet| now| already)?\W*$",
                          re.IGNORECASE)
_BODY_ASPECTS = frozenset({"@pain", "@radiation", "@location"})
"""Concepts that make "back" the body ("has it spread to your back?", "is your lower back sore?")."""


def _results_back(text: str) -> bool:
    """"are the U&Es back?", "have the results come back yet?": back as in returned, when nothing in the
    question is a pain, where it is or where it goes."""
    return bool(_BACK_AT_END.match(text)) and not any(u.terms & _BODY_ASPECTS for u in units(text))


_STATES = _words("patient_states")
"""Words after "is that ...?" that ask how what was just told stands, never of another fact."""


def asks_state_of_it(part: str) -> bool:
    """Does the part ask how what was just told stands ("is that new?", "is it still there?")?"""
    weak = _WEAK_DIAGNOSIS.match(part.strip())
    tokens = words(weak.group("what")) if weak else ()
    return bool(tokens) and tokens[-1] in _STATES


_WHICH_SIDE_WORDS = frozenset(read_vocabulary().phrases("patient_side_words")) | {"either", "one", "just", "same"}
"""First words of what follows "is it" that say which side or how many, not what illness ("is it both legs?")."""


_CONDITION_HEADS = frozenset(
    ws[-1] for term in read_vocabulary().of_kind("condition") for name in (term.name, *term.also)
    if name.isascii() and (ws := words(name)) and not ws[-1].endswith(("ing", "ed"))
    and not any(t.startswith("@") for u in units(ws[-1]) for t in u.terms)
)
"""The last word of an illness's name in the vocabulary ("cancer" of "lung cancer", "colic" of "renal colic"), not a
lay name's ("kidney" of "stone in my kidney") nor a word of the vocabulary's concepts ("chest"): "is it cancer?" names
an illness, though the word ends like a quality ("-er")."""


def _descriptive(what: str) -> bool:
    """Does "is it <what>?" ask how the symptom is (sore, worse, constant, getting better)
    rather than what the illness is? Judged by the last word, the head of the phrase."""
    tokens = words(what)
    if not tokens:
        return True
    if read_vocabulary().lookup(" ".join(tokens), "condition"):
        return False  # a condition the vocabulary names ("heart attack") is an illness, not how often it comes
    if tokens[0] in _WHICH_SIDE_WORDS:
        return True  # "is it both legs?", "is it just the one side?": where, not what illness
    head = tokens[-1]
    if head in _CONDITION_HEADS and head not in _QUALITIES:
        return False  # "is it cancer, doc?": an illness, not how it is
    if head in _QUALITIES or head.endswith(("ing", "er", "est", "ed", "ful", "y", "ous", "ive", "al", "ic")):
        return True
    return any(u.terms & _QUALITY_CONCEPTS for u in units(head))


_FAMILY_HISTORY = re.compile(
    rf"\b(?:{phrase_alternation('patient_family_history_words')})\b|"
    r"\b(in|through|on) (the|your|his|her|their|either) (family|side)\b|\bruns? in (the|your|his|her|their) family\b|"
    r"\b(anyone|anybody|someone|somebody|any of) (else )?(in|of) (the|your|his|her|their) family\b",
    re.IGNORECASE,
)
"""Family-history wording ("your mum" alone may be the patient, when her daughter speaks)."""
_TREATMENT_OF_IT = re.compile(
    r"\b(use|used|using|take|took|taken|taking|try|tried|trying|put|putting|give|gave|given|do|did|done|have|had)"
    r"\b(\s+(you|he|she|they|we|anything|something|any|ever))*\s+(for|on|about)\s+(it|that|this|them|those|these)\b|"
    r"\b(treat|treated|treating|manage|managed|managing)\s+(it|that|this|them|those|these)\b",
    re.IGNORECASE,
)
"""What was used for what was just told ("what did you use for that?", "how did you treat it?")."""


def asks_family_history(part: str) -> bool:
    """Does the part ask about illness in the patient's relatives ("FHx?", "anyone in the family
    with heart problems?", "does diabetes run in the family?"), not about the patient?"""
    return bool(_FAMILY_HISTORY.search(part))


_PEOPLE = "|".join(sorted(_words("patient_relatives") | _words("patient_household") | {"anyone", "anybody"}, key=len,
                           reverse=True))
_A_RELATIVE_HAD = re.compile(
    rf"\b(?:has|have|had|did|does|do|is|was)\s+(?:your|his|her|their|the)\s+(?:\w+\s+)?(?:{_PEOPLE})\s+(?:ever\s+)?"
    r"(?:had|got|been|have|get|suffered)\b",
    re.IGNORECASE,
)
"""Whether someone of the patient's had something ("has his sister had anything similar?")."""


def asks_what_a_relative_had(part: str) -> bool:
    """Does the part ask whether someone of the patient's had something ("has his sister had anything similar?"), not
    of that person's place in the patient's life?"""
    return bool(_A_RELATIVE_HAD.search(part))


_WITNESS_VERBS = ("notice", "noticed", "noticing", "say", "says", "said", "think", "thinks", "thought", "mention",
                  "mentioned", "see", "seen", "saw", "spot", "spotted", "tell", "told", "comment", "commented", "worry",
                  "worried", "complain", "complained", "reckon", "reckons", "know", "knows", "hear", "heard", "ask",
                  "asked", "notices", "feels", "feel", "felt", "want", "wants", "wanted")
"""Verbs of someone who only witnesses or judges what the patient has ("has your wife noticed you snoring?", "does
your daughter think you're more muddled?"): grammar; the question is still of the patient."""
_OTHER_PERSON_ASKED = re.compile(
    r"^\W*(?:(?:and|so|ok|okay|right|now|also|what about)\W+)*(?:how\s+(?:old|long)\s+)?"
    r"(?:(?:has|have|had|did|does|do|is|was|are|were|can|could|would|will)\s+"
    # "do either of your sons smoke?": one or all of them ("either of", "any of", "both of")
    r"(?:(?:either|neither|any|both|one|all|each|none)\s+of\s+)?"
    rf"(?:(?P<owner>your|ur|his|her|their)\s+(?:\w+\s+)??(?P<who>{_PEOPLE})s?\b"
    r"|(?P<anyone>anyone|anybody|someone|somebody)\s+(?:else\b|with\s+(?:you|him|her|them)\b))"
    r"|(?P<anyone_else>anyone|anybody)\s+else\b(?=\s+(?:at|in)\s+(?:home|the\s+house|the\s+household)\b))"
    r"(?:\s+(?:ever|also|still|too|as well|already|ever))*(?:\s+(?P<verb>\w+))?",
    re.IGNORECASE,
)
"""A question whose subject is another person ("does your wife drink?", "has his sister had a rash?", "was anyone
with you on the walk?", "do either of your sons smoke?"): grammar."""


_A_PARENTS_CHILD = frozenset(_phrase_list("patient_parents_child"))
"""Who "your X" may be when a parent speaks for the patient: their child; "your mum", "your sister" are the parent's
own people, never the patient (`patient_parents_child`)."""


_FRONTED_PERSON = re.compile(
    rf"^\W*(?P<owner>your|ur|his|her|their)\s+(?:\w+\s+)??(?P<who>{_PEOPLE})s?\s*(?:[-–—,:]+|\.\.\.)\s*"
    r"(?:\w+\s+){0,3}?(?:has|have|had|did|does|do|is|was|are|were|can|could|would|will)\s+(?:he|she|they)\b"
    r"(?:\s+(?:ever|also|still|too|already))*(?:\s+(?P<verb>\w+))?",
    re.IGNORECASE,
)
"""A person fronted before the question that asks of them by a pronoun ("your mum - what does she take for her
thyroid?", "his brother, has he been tested?"): grammar."""
_NAMED_PERSON = re.compile(
    r"(?P<who>[a-z]+)(?:\s+(?:ever|also|still|too|already))*(?:\s+(?P<verb>\w+))?", re.IGNORECASE
)
"""A name and the verb after it ("does Claire snore?": "snore"; "has Claire noticed?": "noticed")."""


_KIN = "|".join(sorted(_words("patient_relatives"), key=len, reverse=True))
_A_NAME = re.compile(
    rf"\b(?:{_KIN})(?:\s+|,\s+(?=[A-Z][a-z]{{2,}},))(?P<kin>[A-Z][a-z]{{2,}})\b|(?<![.!?]\s)(?<!^)\b(?P<says>[A-Z][a-z]{{2,}})\s+(?P<verb>[a-z]+)\b"
)
"""A person's name in a record's answer: after a relative's word ("my brother Ron", or set off by commas: "my
partner, Tom, and Ellie"), or not at the start of a sentence and before a verb of one who notices or says ("but
Claire says it's got louder")."""


def names_given(text: str) -> frozenset[str]:
    """The people's names a record's answer gives ("my brother Ron has Alzheimer's": "ron"), lower-cased; never a
    day, a place or a brand ("since Saturday", "in Year 5", "some Calpol")."""
    found = set()
    for match in _A_NAME.finditer(text):
        if match.group("kin"):
            found.add(match.group("kin").lower())
        elif match.group("verb") in _WITNESS_VERBS:
            found.add(match.group("says").lower())
    return frozenset(n for n in found if not read_vocabulary().lookup(n))  # "Calpol": a medicine


_LEADING_NAME = re.compile(
    r"(?:^|(?<=[.!?;]\s))(?P<name>[A-Z][a-z]{2,})(?:,\s+(?:my|our|her|his|she|he|she's|he's|who|who's)\b"
    r"|\s+(?:says|said|thinks|thought|reckons|noticed|mentioned|told)\b)"
)
"""A name that leads a sentence of a record's answer, before a comma and who they are ("Ruby, she's 3.", "Dan, my
boyfriend, started itching") or before what they say ("Karen says I'm forgetful"): grammar."""


def names_leading(text: str) -> frozenset[str]:
    """The names that lead a sentence of a record's answer (:data:`_LEADING_NAME`), lower-cased; never a word of
    the vocabulary or a person's word ("Mum says ..."). A name here may be a word that starts a sentence, so the
    record keeps only one its keywords list too."""
    found = {m.group("name").lower() for m in _LEADING_NAME.finditer(text)}
    return frozenset(n for n in found if not read_vocabulary().lookup(n) and not re.fullmatch(_PEOPLE, n))


_THE_PATIENTS_OWN = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|me|my)\b", re.IGNORECASE)
"""The patient as the one a sentence tells of ("I've snored for years")."""


def only_witnessing(sentence: str, person: str) -> bool:
    """Does a record's sentence tell of the patient, naming the person only as one who says, notices or thinks it
    ("I've snored for years, but Claire says it's got much louder": of the patient's snoring, not Claire's)?"""
    named = [m for m in re.finditer(r"\b([a-z]+)\b(?:\s+(?:has|have|had|always|also|just|never)\b)*(?:\s+(\w+))?",
                                    sentence.lower()) if m.group(1) == person]  # "my husband has noticed"
    return bool(_THE_PATIENTS_OWN.search(sentence)) and all((m.group(2) or "") in _WITNESS_VERBS for m in named)


_WHICH_MEDICINE = re.compile(
    rf"\b(?:what|which)\b(?:\s+(?:{phrase_alternation('patient_which_medicine_nouns')}))?\s+"
    r"(?:does|did|do|is|was|are|were)"
    r"\s+(?:\w+\s+){1,2}?(?:take|taking|use|using|on\b(?=\s*(?:for\b|now\b|\?|$)))",
    re.IGNORECASE,
)
"""A question of which medicine someone takes ("what does she take for her thyroid?", "what is he on?"): grammar."""


def asks_which_medicine(part: str) -> bool:
    """Does the part ask which medicine someone takes ("your mum - what does she take for her thyroid?", "what is
    your dad on for his heart?"), so an answer must name it, not only say "tablets"?"""
    return bool(_WHICH_MEDICINE.search(part))


_FRONTED_PREFIX = re.compile(
    rf"^\W*(?:your|ur|his|her|their)\s+(?:\w+\s+)??(?:{_PEOPLE})s?\s*(?:[-–—,:]+|\.\.\.)\s*(?=\w)", re.IGNORECASE
)
"""A person fronted before the question of them ("your mum - "): who it asks of, not what kind of question."""
_ONLY_A_PERSON = re.compile(rf"^\W*(?:your|ur|his|her|their)\s+(?:\w+\s+)??(?:{_PEOPLE})s?\W*$", re.IGNORECASE)
_OF_THEM = re.compile(r"\b(?:he|she|they|him|her|them|his|their)\b", re.IGNORECASE)


def fronts_a_person(part: str, following: str) -> bool:
    """Is the part only a person, fronted before a question that asks of them by a pronoun ("your mum" of "your mum -
    what does she take for her thyroid?")? Then the two are one question of that person."""
    return bool(_ONLY_A_PERSON.match(part) and _OF_THEM.search(following))


def named_person_asked(part: str, names: frozenset[str]) -> str | None:
    """The person the record names by a name ("Claire", "Ron") whom a question asks of ("does Claire snore as well?",
    "how old was Ron when his Alzheimer's started?"), or None: no such name, or the person only witnesses or judges
    ("has Claire noticed anything?", "what does Claire say?")."""
    if not names:
        return None
    for match in re.finditer(r"\b[a-z]+\b", part, re.IGNORECASE):
        if match.group().lower() not in names:
            continue
        after = _NAMED_PERSON.match(part, match.start())
        if after and (after.group("verb") or "").lower() in _WITNESS_VERBS:
            return None
        if _KNOWN_BY_OTHERS.search(part):
            return None
        return match.group().lower()
    return None


def other_person_asked(part: str, informant: str = "self") -> str | None:
    """The other person a question asks of, as the one who has or does what it asks ("does your wife drink?":
    "wife"; "has your husband ever had a tick bite himself?": "husband"; "was anyone with you?": "anyone"), or
    None: the question is of the patient, or the person only witnesses it ("has your daughter noticed anything
    else?"), or, with someone speaking for the patient, "your X" may be the patient ("does your son have a cough?"
    asked of his mother)."""
    match = _OTHER_PERSON_ASKED.match(part) or _FRONTED_PERSON.match(part)
    if match is None:
        return None
    if match.groupdict().get("anyone") or match.groupdict().get("anyone_else"):
        return "anyone"  # "anyone else at home unwell?": the verb left out
    if (match.group("verb") or "").lower() in _WITNESS_VERBS:
        return None
    who = match.group("who").lower()
    if match.group("owner").lower() in ("your", "ur") and informant != "self" and not (
        informant == "parent" and who not in _A_PARENTS_CHILD
    ):
        return None
    return who


def witness_asked(part: str) -> str | None:
    """The other person a question names only as the one who noticed, said or thinks something of the patient
    ("has your daughter noticed anything else - memory, behaviour?": "daughter"), or None."""
    match = _OTHER_PERSON_ASKED.match(part)
    if match is None or match.group("anyone") or match.group("anyone_else") or (
        (match.group("verb") or "").lower() not in _WITNESS_VERBS
    ):
        return None
    if _KNOWN_BY_OTHERS.search(part):  # "does your boyfriend know?" is a question of him (see below)
        return None
    return match.group("who").lower()


_KNOWN_BY_OTHERS = re.compile(
    rf"\b(?:(?:does|did|do|has|have|is|are)\s+(?:your|his|her|their|the|any)?\s*(?:\w+\s+)?(?:{_PEOPLE})\s+"
    rf"(?:else\s+)?(?:know|knows|known|been told|heard|aware)|(?:have|has|did)\s+(?:you|he|she|they)\s+(?:ever\s+)?"
    rf"(?:told|talked to|spoken to|mentioned it to)\s+(?:your|his|her|their|the|any)?\s*(?:\w+\s+)?(?:{_PEOPLE}))"
    r"\b(?P<known>[^,;?.!]*)",
    re.IGNORECASE,
)
"""Whether someone in the patient's life knows of something ("does your boyfriend know about the vomiting?", "have
you told your mum?"): a question of that person, not of what they know."""


_A_PERSON = re.compile(rf"\b(?:{_PEOPLE})s?\b", re.IGNORECASE)
_KNOWING_SAID = re.compile(r"\b(?:know|knows|knew|known|told|tell|aware)\b", re.IGNORECASE)
"""A sentence that says who knows of something, or was told ("only my sister knows, not my son")."""


_WHICH_ONE_IS_FOR = re.compile(
    r"\bwhich\b[^?.!;]*?\b(?:is|are|was|were|'s)\s+(?:the\s+(?:one|ones)\s+|it\s+)?(?:that's\s+)?for\s+"
    r"(?P<what>[^?.!;]+)",
    re.IGNORECASE,
)
"""Which of several is the one for something ("which of his tablets is the one for his bladder?")."""


def which_one_is_for(part: str) -> str | None:
    """What a question asks which one is for ("which of his tablets is the one for his bladder?": "his bladder"), or
    None."""
    match = _WHICH_ONE_IS_FOR.search(part)
    return match.group("what").strip() if match else None


def knowing_asked(part: str) -> str | None:
    """The person a question asks whether they know of something or were told ("does your son know?": "son"; "have
    you told your mum?": "mum"), or None."""
    match = _KNOWN_BY_OTHERS.search(part)
    if match is None:
        return None
    person = _A_PERSON.search(match.group(0)[: match.start("known") - match.start()])
    return person.group(0).lower() if person else None


def says_who_knows(text: str, person: str) -> bool:
    """Does a sentence of the text say whether this person knows or was told ("Only my sister knows, not my son."
    of "son")? A sentence that only names them ("my son says I look yellow") does not."""
    named = re.compile(rf"\b{re.escape(person)}s?\b", re.IGNORECASE)
    return any(named.search(s) and _KNOWING_SAID.search(s) for s in re.split(r"(?<=[.!?;])\s+", text))


def without_what_others_know(part: str) -> str:
    """The part without what it asks whether another person knows of ("does your boyfriend know about the
    vomiting?": "does your boyfriend know"): the question is of the people in the patient's life."""
    match = _KNOWN_BY_OTHERS.search(part)
    if match is None or not match.group("known").strip():
        return part
    return part[: match.start("known")] + " " + part[match.end("known"):]


_HOW_OFTEN_USED = re.compile(
    r"\bhow (often|many times( a (day|week))?)\b[^?.!]*\b(use|using|take|taking|put|putting|apply|applying|have|having)"
    r"\b[^?.!]*\b(it|them|that|those|this|these)\b",
    re.IGNORECASE,
)
"""How often a medicine just told is used ("how often do u put it on?"): part of its dose."""

_HOW_MANY_TAKEN = re.compile(
    r"\bhow (?:many|much|often)\s+(?:do|did|does|are|were|would|will)\s+(?:you|he|she|they|we)\s+"
    r"(?:usually\s+|normally\s+)?(?:take|use|need|buy|get through)"
    r"(?:\s+(?:a|per|each|at a)\s+(?:day|night|week|time|go))?\s*[?.!]*\s*$",
    re.IGNORECASE,
)
"""How much of a medicine just told, its name left out ("how many do u take?", "how much do you use a day?")."""


_STILL_USED = re.compile(
    r"\bstill\s+(on|taking|using|putting|applying|take|use|have|having)\b[^?.!]*\b(it|them|that|those|this|these)\b",
    re.IGNORECASE,
)
"""Whether a medicine just told is still used ("still using it?"; not "is it still on the left?")."""


def asks_use_of_it(part: str) -> bool:
    """Does the part ask whether, or how often or how much, what was just told is still used ("still using
    it?", "how often do u put it on?", "how many do u take?": the verb's object left out is what was told)?"""
    return bool(_STILL_USED.search(part) or _HOW_OFTEN_USED.search(part) or _HOW_MANY_TAKEN.search(part))


def asks_treatment_of_it(part: str) -> bool:
    """Does the part ask what was used for what was just told ("what did you use for that?", "did
    you put anything on it?", "have you taken anything for them?")?"""
    return bool(_TREATMENT_OF_IT.search(part))


def lists_only(part: str) -> bool:
    """Is the part only a list of things, with no verb and no question word ("bowel problems, CF?")?
    Then it is a list of what the part before it asks about."""
    text = part.strip()
    return bool(words(text)) and not (_VERB.search(text) or _HISTORY_START.match(text) or _OPEN.match(text))


def suspects(part: str) -> bool:
    """Does the part ask whether the patient fears or suspects an illness ("are you worried it
    could be something serious?", "do you think she might have an ulcer?")? A fact may say what
    the patient fears; if none does, the patient does not know, and never says a bare "No."."""
    return bool(_SUSPECTS.search(part))


_DOSE_ASKED = re.compile(
    rf"\b(?:what|which|what'?s)\s+(?:\w+\s+)?(?:{phrase_alternation('patient_dose_asked_words')})\b|"
    rf"\bhow\s+many\s+(?:{phrase_alternation('patient_dose_asked_units')})\b",
    re.IGNORECASE,
)
_HOW_MUCH = re.compile(r"\bhow\s+(?:much|many)\b", re.IGNORECASE)
_AMOUNT = (r"(?:\d+(?:\.\d+)?|one|two|three|four|five|six|eight|ten|twelve|twenty|thirty|forty|fifty|hundred|half|"
           r"a couple of|a few|a)")
_DOSE_SAID = re.compile(
    rf"\b{_AMOUNT}\s*(?:\w+\s+){{0,2}}?(?:{phrase_alternation('patient_dose_units')})\b|"
    r"\b(?:once|twice|three times|four times)\s+(?:a|per)\s+day\b",
    re.IGNORECASE,
)


_HOW_OFTEN_SAID = re.compile(
    r"\b(?:every|once|twice|daily|nightly|weekly|(?:\d+|two|three|four|five|six|several|a few) times)\b|"
    r"\b(?:nights?|days?|mornings?|evenings?) (?:a|per|each) (?:week|month)\b|"
    r"\bmost (?:days|nights|mornings|evenings)\b|"
    r"\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|a few|several)"
    r"(?: or (?:\d+|\w+))? (?:a|per|each) (?:day|night|hour|week)\b",
    re.IGNORECASE,
)
"""How often, said ("every four or five days", "twice a week", "three or four nights a week", "most days"); a
number of days alone ("three days ago", "for five days") is how long, not how often."""


def says_how_often(answer: str) -> bool:
    """Does the answer say how often ("every four or five days", "twice a week", "three times a night")?"""
    return bool(_HOW_OFTEN_SAID.search(answer))


_ANY_MEDICINE = _words("patient_any_medicine")
"""Words of a dose question that name no medicine in particular."""


_COURSES = _words("patient_treatment_counts")
_HOW_MANY_OF = re.compile(r"\bhow\s+many\s+(\w+)", re.IGNORECASE)


def asks_dose(part: str) -> bool:
    """Does the part ask how much of a medicine ("what dose is the amlodipine?", "how many tablets
    do you take?")? Not whether one takes it ("are you on low-dose aspirin?"), nor how much of
    anything else ("how much do you drink?"), nor how many times it was given ("how many courses of
    steroids?": the episodes treated)."""
    if _DOSE_ASKED.search(part) or _HOW_OFTEN_USED.search(part):
        return True
    if (counted := _HOW_MANY_OF.search(part)) and counted.group(1).lower() in _COURSES:
        return False
    return bool(_HOW_MUCH.search(part)) and any("@medication" in u.terms for u in units(part))


def says_dose(part: str, answer: str) -> bool:
    """Does a fact say how much ("two tablets", "5 mg", "twice a day") of what the part names? Of
    a medicine the part names, only a sentence that names it counts ("amlodipine for my blood
    pressure" says no dose, whatever the next sentence says of the decongestant). One that names
    the medicine only does not answer its dose: the patient does not know it."""
    named = {w for w in words(part) if len(w) >= 4 and w not in STOPWORDS and w not in _ANY_MEDICINE}
    told = [s for s in re.split(r"(?<=[.!?])\s+", answer) if named & set(words(s))] or [answer]
    return any(_DOSE_SAID.search(s) for s in told)


_CHOICE = re.compile(
    r"^\W*(?:and\s+|so\s+)?(?:is|was|are|were|does|did|do|has|have)\s+(?:it|that|this|they|these|those)\b"
    r"[^?]*?\bor\b(?!\s+(?:not|anything|something|so|two|three|four)\b)",
    re.IGNORECASE,
)


_CHOICE_OF_COMPANY = re.compile(
    r"^\W*(?:and\s+|so\s+)?(?:is|was|are|were|does|did|do|has|have)\s+(?:he|she|you|they|we)\b"
    r"[^?]*?\bor\s+(?:in\s+with|with|at\s+home|alone|on\s+(?:his|her|your|their|my)\s+own)\b",
    re.IGNORECASE,
)
"""Where or with whom, one or the other ("does he sleep in his own bed or in with you?", "do you live alone or with
family?"): a choice, not a list of things a "No" denies."""


_CHOICE_OF_DOING = re.compile(
    r"^\W*(?:and\s+|so\s+)?(?:is|was|are|were|does|did|do|has|have)\s+(?:he|she|you|u|they|we)\b"
    r"[^?]*?\bor\s+(?!not\b|anything\b|something\b)\w+\s+(?:it|them)(?:\s+(?:out|off|up|back|in))?\s*[?.!]*\s*$",
    re.IGNORECASE,
)
"""Two things one does with the same thing, the second pointing back at it ("do you own the flat or rent it?", "does
he eat it or spit it out?"): a choice of which, not a list of things a "No" denies (grammar)."""


def offers_choice(part: str) -> bool:
    """Does the part offer alternatives about what was just told ("is it sharp or dull?", "is
    that there all the time or on and off?"), or of where or with whom ("does she sleep in a cot or with
    you?"), or of two things done with one thing ("do you own the flat or rent it?")? A plain "No" answers none of
    them: when the record does not say, the patient is not sure."""
    return bool(_CHOICE.search(part) or _CHOICE_OF_COMPANY.search(part) or _CHOICE_OF_DOING.search(part))


def points_back(part: str) -> bool:
    """Does a short part point back at what was just said ("does it go anywhere?", "and the
    other eye?", "how long did they last?")? ("he"/"she" is the patient, never a pointer.)"""
    tokens = words(part)
    return 0 < len(tokens) <= 9 and (points_at(part) or tokens[0] == "and")


def points_at(part: str) -> bool:
    """Does the part use a pointer word ("it", "that", "the last time")?"""
    return bool(_ANAPHOR.search(part))


_TAKEN_IT = re.compile(r"\b(on|off|taking|take|took|use|using|used|stop|stopped|tried|started) (it|this)\b",
                       re.IGNORECASE)
""""it" as what one takes ("how long have you been on it?", "when did you stop it?"): something just
said (a medicine), never the illness."""


_TAKES_IT = re.compile(r"\b(take|takes|took|taken|taking|use|uses|used|using|stop|stopped|start|started|been on)"
                       r"\s+(it|them)\b", re.IGNORECASE)
"""A medicine taken, used, started or stopped, by a pronoun ("when did you last take it?"): grammar."""


def takes_it(part: str) -> bool:
    """Does the part take, use, start or stop "it" ("when did you last take it?", "how long have you been on it?"):
    a medicine just told, never the illness ("what set it off this time?" is no medicine)?"""
    return bool(_TAKES_IT.search(part))


_LASTED = re.compile(r"\bhow long\b.*\blast(?:ed|s)?(?:\s+for)?\W*$"
                     r"|\bhow long\b\W+(?:do|does|did)\b.*\bgo(?:es)? on(?:\s+for)?\W*$", re.IGNORECASE)
"""How long something lasted ("how long did it last?", "how long does each one last for?", "how long do they go on
for?"): "last" the verb, at the end, not "when did it last happen?"; going on in the present or past simple, not
"how long has this been going on?" (since when)."""


def asks_how_long_it_lasted(part: str) -> bool:
    """Does the part ask how long something lasted ("how long did it last?")? That is the length of what was just
    told (an attack, an ache that settled), never when the illness began."""
    return bool(_LASTED.search(part))


_OF_LASTING = re.compile(r"\blast(?:ed|s|ing)\b|\blast\W*$", re.IGNORECASE)
"""A fact's topic or keyword of how long something lasted ("how long it lasted", "last"; not "last meal")."""


def of_how_long_it_lasted(topic: str, keywords: Collection[str]) -> bool:
    """Is the fact about how long something lasted (its topic or a keyword says so)? It answers "how long did it
    last?" whatever was just told."""
    return any(_OF_LASTING.search(text) for text in (topic, *keywords))


def dummy_it(part: str) -> bool:
    """Does the part point back only by "it" or "this", which may be the illness itself ("when did
    it start?", "has this happened before?"), rather than by "they", "that", "the other" (always
    something just said)?"""
    pointers = {m.group().lower() for m in _ANAPHOR.finditer(part)}
    return bool(pointers) and pointers <= {"it", "its", "it's", "this"} and not _TAKEN_IT.search(part)


def _what_it_is_said(attachment: Attachment, text: str) -> bool:
    """Does the text say every word of what the attachment is, beside words of asking and of documents ("a urine
    sample" of "Urine test results")? A request that points back ("can I see the results from that?") asks for it."""
    own = {w for w in _stems(title_head(attachment)) if w not in _REQUEST_WORDS | _DOCUMENT_WORDS}
    return bool(own) and own <= set(_stems(text))


def title_head(attachment: Attachment) -> str:
    """What the attachment is, from its title: the part before a comma or a bracket ("Fundus
    photograph" of "Fundus photograph, left eye (widefield camera in eye casualty triage)")."""
    return re.split(r"[,(]", attachment.title)[0]


def holds_findings(attachment: Attachment) -> bool:
    """Does the attachment hold examination or observation findings (by what its title says it
    is, not where it was made: a photograph taken at triage is a photograph)? A title that lists before its
    noun ("Ear, nose and throat examination") says what it is by its last word, not by the first item. A test of
    the mind titled an examination ("Addenbrooke's Cognitive Examination III"; `patient_assessment_titles`) is a
    test with its own result, asked for by its name; other words of its title may still say findings ("GP
    observations and mental state examination")."""
    title = _ASSESSMENT_TITLES.sub(" ", attachment.title)
    return bool(_FINDINGS_WORDS & {stem(w) for w in words(re.split(r"[,(]", title)[0])}) or bool(
        _LISTING_TITLE.match(title)
        and _FINDINGS_WORDS & {stem(w) for w in words(title.split("(")[0])[-1:]}
    )


_ASSESSMENT_TITLES = re.compile(rf"\b(?:{phrase_alternation('patient_assessment_titles')})\b", re.IGNORECASE)


_LISTING_TITLE = re.compile(r"^[^,(]+(?:,[^,(]+)*,[^,(]* (?:and|or) [^,(]+(?:\(|$)")
"""A title whose commas list (its last part joins with "and"/"or"): "Ear, nose and throat examination", not
"Knee radiograph, AP and lateral, report"."""


@batch_cache(maxsize=8192)
def _stems(text: str) -> tuple[str, ...]:
    """The text's words by their one form and stem, in order."""
    return tuple(stem(lemma(w)) for w in words(text))


@dataclass(frozen=True)
class _Named:
    """One word of a text as it may name an attachment: its forms (its stem, and its singular's:
    "readings" and "a reading" are one word) and the clinical concepts it is a name of ("wee": the
    waterworks, as "urine" is)."""

    forms: frozenset[str]
    concepts: frozenset[str]


@batch_cache(maxsize=8192)
def _named_words(text: str) -> tuple[_Named, ...]:
    """The text's words as they may name an attachment, in order."""
    return tuple(
        _Named(frozenset({stem(lemma(w)), stem(singular(lemma(w)))}),
               frozenset(t for u in units(w) for t in u.terms if t.startswith("@")))
        for w in words(text)
    )


def _same_word(target: _Named, said: _Named, *, in_phrase: bool) -> bool:
    """Does the text's word say the phrase's word: one form, or in a phrase of several words the
    same clinical concept in other words ("a wee sample" for "urine sample")?"""
    return bool(target.forms & said.forms) or (in_phrase and bool(target.concepts & said.concepts))


def _phrase_in(phrase: str, said: tuple[_Named, ...]) -> bool:
    """The phrase's words in a row in the text, one of them at least in its own form; a side the phrase
    does not name may stand between them ("the back of the left eye" holds "back of the eye"; "left eye"
    never holds "right eye")."""
    target = _named_words(phrase)
    n = len(target)

    def found(text: tuple[_Named, ...]) -> bool:
        return any(
            all(_same_word(t, w, in_phrase=n > 1) for t, w in zip(target, text[i : i + n], strict=True))
            and any(t.forms & w.forms for t, w in zip(target, text[i : i + n], strict=True))
            for i in range(len(text) - n + 1)
        )

    if n > 0 and found(said):
        return True
    named = frozenset(f for t in target for f in t.forms)
    sided = tuple(w for w in said if not w.forms & _SIDE_WORDS or w.forms & named)
    return n > 1 and sided != said and found(sided)


def _test_kinds() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The vocabulary's kinds of a test (a test with a broader one: CT, MRI, ultrasound, X-ray of imaging),
    each with the names that say it, short forms too ("USS" of ultrasound), as words."""
    vocabulary = read_vocabulary()
    kinds = []
    for term in vocabulary.of_kind("test"):
        if term.broader:
            said = {" ".join(words(n)) for n in term.names}
            said |= {" ".join(words(s)) for a in vocabulary.abbreviations if " ".join(words(a.means)) in said
                     for s in a.short}
            kinds.append((term.name, tuple(sorted(n for n in said if set(n.split()) - STOPWORDS))))  # "us" says none
    return tuple(kinds)


_TEST_KINDS = _test_kinds()


@batch_cache(maxsize=4096)
def test_kinds(text: str) -> frozenset[str]:
    """The kinds of a test the text names ("a CT scan": computed tomography)."""
    return frozenset(kind for kind, names in _TEST_KINDS if says_phrase(text, names))


_POSSESSIVE = re.compile(r"(?<=\w)['’]s\b", re.IGNORECASE)
"""The possessive "'s" ("the HV's note"): whose it is, so the owner's word is said as the keyword says it."""


def names(attachment: Attachment, text: str, *, by_content: bool = False, by_what: bool = False) -> bool:
    """Does the text name this attachment: a request keyword, the title, or the title's
    head before a comma; whole words, any case? "blood pressure" names no blood test. With
    ``by_content``, a keyword of asking words alone ("look at", "have a look") does not name it; with
    ``by_what``, nor one of document words alone ("notes", "results"), which say what kind of paper, not which.
    A test of one kind names no attachment of another through a word they share ("a CT scan" is
    no bedside ultrasound whose keyword is "scan")."""
    text = _POSSESSIVE.sub("", text)
    asked = test_kinds(text)
    if asked and (own := test_kinds(" ; ".join([attachment.title, *attachment.request_keywords]))) and not asked & own:
        return False
    if not holds_findings(attachment):
        text = _OBSERVATION_PHRASES.sub(" ", text)
    stems = _stems(text)
    head = title_head(attachment)
    said = [*attachment.request_keywords, attachment.title, head]
    if by_content or by_what:
        asking = _REQUEST_WORDS | _DOCUMENT_WORDS if by_what else _REQUEST_WORDS
        said = [p for p in said if not set(_stems(p)) <= asking]
    if any(_phrase_in(p, _named_words(text)) for p in said):
        return True
    # "the CT report" for "CT pulmonary angiogram report": what the request names is all in the
    # title's head, and one of the words says which document
    named = [w for w in stems if w not in _REQUEST_WORDS]
    title = set(_stems(head))
    return bool(named) and set(named) <= title and any(w not in _DOCUMENT_WORDS for w in named)


_CAME_BACK = re.compile(r"^\W*(?:(?:and|so|ok|okay)\W+)*(?:did|has|have|is|are)\b[^?.!]*\b"
                        rf"(?:{phrase_alternation('patient_came_back')}|{phrase_alternation('patient_came_through')})"
                        r"(?: yet| now| already)?\W*$", re.IGNORECASE)
"""A question whether something has come back ("did the FIT come back?", "has the CT come back yet?", "did the
echo report come through?")."""
_GROW = phrase_alternation("patient_culture_grow")
_GREW = re.compile(rf"\b(?:(?:did|has|have) (?:anything|something|it|they|that) (?:{_GROW})|"
                   rf"what (?:{phrase_alternation('patient_culture_grew')}|did (?:it|they|that) (?:{_GROW}))|"
                   rf"(?:{_GROW}) anything)\b", re.IGNORECASE)
"""A question of what a culture grew ("the stool culture, did anything grow?"): a result asked for, not whether a
lump has grown."""
_RETURNS = re.compile(rf"\b(?:{phrase_alternation('patient_came_back')})\b", re.IGNORECASE)
"""What a symptom does too ("did the pain come back?"): then only a lab report or a named test is a result asked for."""
_ARE_THEY = re.compile(_START + r"(?:is|are|has|have)\b(?! (?:you|he|she|they|we|i)\b)", re.IGNORECASE)
"""A question whether a thing is somewhere (not whether the patient is): with a place of records after it ("are the
bloods on the system?") it asks whether they are there to see."""


_WHETHER_DONE = re.compile(
    r"^\W*(?:(?:and|so|ok|okay|sorry|right)\W+)*(?:any (?:recent|new|previous|other|more)\b|remind me of\b|"
    r"any (?:news|word|updates?)(?: from [\w&' -]+?)? (?:on|about|of)\b|"
    r"(?:did|has|have) (?:the |your |his |her |a |an )(?:\w+ ){0,2}"
    r"(?:do|done|take|taken|check|checked|measure|measured|record|recorded|send|sent)\b)",
    re.IGNORECASE,
)
"""Grammar of a question whether something was done, or what it showed ("did the practice nurse do a postural
BP?", "any recent scans?", "remind me of the triage obs", "any news from the lab on the swab?"): an attachment it
names is asked for ("any news from the GP?" names where news came from, not a thing of it: none). Done by someone
else: "did you take your temperature?", "have you done the screening test?", "has anyone checked it before?" ask
the patient's own history; "remind me what your blood group is" is a history question asked again."""


def _named_by_words(attachment: Attachment, text: str) -> int:
    """How many words of the longest keyword or title of the attachment the text says (0 if none)."""
    said = [*attachment.request_keywords, attachment.title, title_head(attachment)]
    named = _named_words(_POSSESSIVE.sub("", text))
    return max((len(words(p)) for p in said if _phrase_in(p, named)), default=0)


_EVER_BEFORE = re.compile(r"\b(?:ever|before|previously)\b|\bwhen (?:you|he|she|they) (?:had|was|were)\b",
                         re.IGNORECASE)
"""Whether it was ever done before ("has anyone checked your BP before?") or in an illness of the past ("did the GP
do bloods when you had the flu?") asks the patient's history, not a record."""


_RULED_OUT = re.compile(
    r"^\W*(?:(?:and|but|so|ok|okay)\W+)*(?:no|not|never|without|(?:I|we)(?: wo|'ll|'m| will| am| do)?(?:n'?t| not)"
    r"(?: going to| need to| be)?)\b",
    re.IGNORECASE,
)
"""Grammar of a statement that an examination is not done ("no internal exam.", "I won't do a speculum")."""


def rules_out_examination(part: str) -> bool:
    """Does the part say, with no question mark, that an examination is not done ("... have a look at the outside
    down below - no internal exam.")? It asks for nothing: neither agreement again nor findings."""
    return not part.rstrip().endswith("?") and bool(_RULED_OUT.match(part))


def asks_whether_done(part: str) -> bool:
    """Does the part ask whether a test, observation or examination was done, or ask to be reminded of it? Then an
    attachment it names by what it is (not by asking words or document words alone) is asked for."""
    return bool(_WHETHER_DONE.match(part)) and not _EVER_BEFORE.search(part)


_RESULT_NAMED = (
    # "and the tTG antibody?", "what about the ferritin?", "B12 and folate?": what a result measures, no verb
    re.compile(r"^\W*(?:(?:so|ok|okay)\W+)*(?=(?:and|also|plus|what about|how about|the|his|her|your|their)\b)"
               r"(?:(?:and|also|plus)\W+)*(?:(?:what|how) about\s+)?(?:the |his |her |your |their )?"
               r"(?P<what>[\w&/+' -]+?)(?:\s+(?:results?|levels?|too|as well|also|then))*\s*\?\s*$", re.IGNORECASE),
    # "what was the ferritin?", "how were the LFTs?": its value
    re.compile(r"^\W*(?:(?:and|so|ok|okay)\W+)*(?:what|how) (?:was|were|is|are|did|does) (?:the|his|her|your|their) "
               r"(?P<what>[\w&/+' -]+?)(?:\s+(?:results?|levels?|come back at|come out at|show|say|like|then|again))*"
               r"\s*\?\s*$", re.IGNORECASE),
    # "did they send IF antibodies too?", "have they checked a ferritin as well?": done by someone else, not "you"
    re.compile(r"^\W*(?:(?:and|so|ok|okay)\W+)*(?:did|have|has) (?:they|the lab|the hospital|the practice|we) "
               r"(?:also |already )?(?:send|sent|do|done|check|checked|test|tested|measure|measured|request|requested|"
               r"run|include|included)(?: off)?(?: for)?(?: an?| the| any| some| his| her| your| their)?\s+"
               r"(?P<what>[\w&/+' -]+?)(?:\s+(?:too|as well|also|then))*\s*\?\s*$", re.IGNORECASE),
    # "bloods incl autoimmune screen?", "bloods?": a bare name, no article, of at most five words
    re.compile(r"^\W*(?:(?:so|ok|okay)\W+)*(?P<what>(?:[\w&/+'-]+ ){0,4}[\w&/+'-]+)"
               r"(?:\s+(?:results?|levels?|too|as well|also|then))*\s*\?\s*$", re.IGNORECASE),
)
"""Grammar of a short question of a result by what it measures (not by an attachment's title): the words that
name the test, in ``what``. Whether the patient ever had it ("have you ever had your B12 checked?") is history."""


_AN_EARLIER_ONE = re.compile(r"\b(?:last|previous|latest|usual|old|normal)\b", re.IGNORECASE)
"""A result of an earlier test ("what was your last HbA1c?", "your usual INR?"): what the patient remembers, history."""
_ANY_OR_NONE = re.compile(r"\b(?:any|anything|no|none)\b", re.IGNORECASE)
"""A symptom asked of in a fragment ("and any blood?", "no black stools?") is history, not a result."""


def result_named(part: str) -> str | None:
    """What a short question asks the result of by what it measures ("and the tTG antibody?": "tTG antibody", "what
    was the ferritin?", "did they send IF antibodies too?"), or None. A report that tells that result is asked for;
    a question with a verb of its own in what it names ("and the pain, is it worse?") or of ever before is none."""
    if _EVER_BEFORE.search(part) or _AN_EARLIER_ONE.search(part):
        return None
    for shape in _RESULT_NAMED:
        if (match := shape.match(part.strip())) and not (
            _VERB.search(what := match.group("what")) or points_at(what) or _ANY_OR_NONE.search(what)
        ) and (shape is not _RESULT_NAMED[-1] or _says_a_test(what)):
            return what
    return None


_BLOOD_TEST_WORDS = tuple(read_vocabulary().phrases("panel_blood_tests"))


def _says_a_test(what: str) -> bool:
    """Does a bare name ("bloods incl autoimmune screen?", "CT?") say a test: a word of the vocabulary's blood tests
    (panel_blood_tests), a test of the vocabulary or its result label, or a word of a kind of test, scan or report?
    "blood?" and "cough?" ask of a symptom."""
    if says_phrase(what, _BLOOD_TEST_WORDS) or test_kinds(what):
        return True
    if any(says_phrase(what, test) or says_phrase(what, reported) for test, reported in _TEST_NAMES_REPORTED):
        return True
    return bool(set(_stems(what)) & (_GENERIC_KIND_WORDS - frozenset(STOPWORDS) - _REQUEST_WORDS))


def _test_names() -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """The vocabulary's tests: each with the names that say it (short forms too: "U&E", "TFT") and the result
    labels that report it (`tests.yaml` ``reports``: "potassium" of urea and electrolytes), as words."""
    vocabulary = read_vocabulary()
    tests = []
    for term in vocabulary.of_kind("test"):
        said = {" ".join(words(n)) for n in term.names}
        said |= {" ".join(words(s)) for a in vocabulary.abbreviations if " ".join(words(a.means)) in said
                 for s in a.short}
        reported = {" ".join(words(r)) for r in term.reports} | said
        tests.append((tuple(sorted(n for n in said if n)), tuple(sorted(r for r in reported if r))))
    return tuple(tests)


_TEST_NAMES_REPORTED = _test_names()


def reports_result(attachment: Attachment, what: str) -> bool:
    """Does the report tell the result of what a question names by what it measures: a keyword or its title names
    it, its content names a test or result label of the vocabulary the question says ("ferritin" in "Ferritin 5
    ug/L"), or its title or a keyword names a panel the vocabulary says reports it ("TSH" of "Thyroid function
    tests")? Only a lab report (or a report of a kind of imaging the question names), never findings of an
    examination."""
    if holds_findings(attachment) or not (attachment.kind == "lab_report" or test_kinds(what)):
        return False
    if names(attachment, what, by_content=True, by_what=True):
        return True
    label = " ; ".join([attachment.title, *attachment.request_keywords])
    for test, reported in _TEST_NAMES_REPORTED:
        asked = tuple(r for r in reported if set(r.split()) - STOPWORDS and says_phrase(what, (r,)))
        if asked and (says_phrase(attachment.content or "", asked) or says_phrase(label, test)):
            return True
    return False


def asks_whether_back(part: str) -> bool:
    """Does the part ask whether something has come back ("did the FIT come back?") or is on the record ("is the
    echo in the notes?")? Then a result it names is
    asked for; a yes/no question of another shape asks for none."""
    return bool(_CAME_BACK.match(part) or _GREW.search(part)) or (
        bool(_ARE_THEY.match(part)) and says_phrase(part, _RECORD_PLACES))


_JUDGED = tuple(" ".join(words(p)) for p in read_vocabulary().phrases("patient_results_judged"))
_SAYS_HOW_IT_IS = re.compile(
    r"\b(?:is|are|was|were|looks?|looked|seems?|seemed|(?:came|come|has come|have come) back)\s+"
    r"(?:all |really |very |completely |pretty |quite )?(?P<how>[\w ]+?)\W*$", re.IGNORECASE)


_FROM_PHRASE = re.compile(r"\bfrom (?:the|your|his|her|their|that|this|last|a|an) [^,;:?!.()]*?(?=\s+-\s|[,;:?!.()]|$)",
                          re.IGNORECASE)
"""Where or when what a request names came from ("the bloods from the six-week check", "the letter from the GP")."""
_FROM_PLACE = re.compile(r"\bfrom (?:the|your|his|her|their|that|this|last|a|an) [^,;:?!.()]*?"
                         r"(?=\s+-\s|[,;:?!.()]|\s+and\s+(?:the|your|his|her|their|my|a|an)\b|$)", re.IGNORECASE)
"""The same, up to the next thing asked for ("the scan from the fall and the kidney X-ray": the X-ray is asked for)."""
_DONE_WITH = re.compile(r"\b(?:with|alongside|at the same time as) (?:the|your|his|her|their|that|this|a|an) "
                        r"[^,;:?!.()]*?(?=[,;:?!.()]|$)", re.IGNORECASE)
"""What a test asked of was done with ("did they do a PTH with the second calcium?"): when it was done, not a test
asked of."""
_PLEASE = re.compile(r"\b(?:please|pls|plz)\b", re.IGNORECASE)


def judges_results(part: str) -> bool:
    """Does the part say how something seen is ("the bloods and scan are reassuring", "the X-ray looked normal";
    `patient_results_judged`)? The doctor tells what they have seen; they ask for nothing."""
    match = _SAYS_HOW_IT_IS.search(part)
    asking = _DOCTOR_ACTS.search(part) or _PLEASE.search(part)  # "I'd like to see the scan, it's fine"
    return match is not None and not asking and " ".join(words(match.group("how"))) in _JUDGED


_ANNOUNCES = re.compile(
    r"^\W*(?:(?:ok|okay|right|so|and|now|great|thanks)\W+)*(?:(?:i'm|im|i am|we're|we are) going to|i'll|i will|we'll|"
    r"we will)\s+(?!(?:just\s+|also\s+|quickly\s+)?(?:have|take|get|check|do|measure|send|repeat|run|order|"
    r"request|see|need|want|look)\b)",
    re.IGNORECASE,
)
"""The doctor announcing what they will do ("I'm going to pass a thin camera ...", "I'll talk you through the scan"):
grammar; not what is got or checked ("we'll check your temp", "I'll have another look at the X-ray": asked for)."""
_AGAIN = re.compile(r"\b(?:again|another look|once more|remind)\b|"
                    r"\bre-?(?:check|do|done|measure|examin|assess|tak|look|view|read)\w*", re.IGNORECASE)
"""Grammar of asking for something again, by a word or by a verb's "re-" ("recheck her obs", "re-examine")."""


def announces_only(message: str) -> bool:
    """Does the message announce what the doctor will do ("I'm going to pass a camera through your nose, ok?", "OK.
    I'll talk you through what the scan shows.") and ask for nothing again? Then an attachment the patient has already
    handed over is not handed over again: only what it newly names is."""
    cleaned = without_markup(message)
    parts = split_questions(cleaned)
    return bool(parts) and any(_ANNOUNCES.match(p) for p in parts) and not _AGAIN.search(cleaned) and all(
        _ANNOUNCES.match(p) or not p.rstrip().endswith("?") for p in parts)  # no question beside it


_ORDERS = re.compile(
    r"^\W*(?:(?:ok|okay|right|so|and|now|then|also|great)\W+)*(?:(?:i|we)(?:'ll| will|'m going to| am going to|"
    r"'re going to| are going to|'d like to| would like to| need to)|let'?s)\s+(?:just\s+|also\s+|now\s+|quickly\s+)?"
    rf"(?:{phrase_alternation('patient_test_order_verbs')})\b" + "|" + _MIND_IF_I_TEST,
    re.IGNORECASE,
)
"""The doctor's own test from now on ("I'll send you for an IGF-1 blood test", "we'll get some bloods done", "would
you mind if I took some bloods?"): grammar of the doctor's intent, and a verb of ordering
(`patient_test_order_verbs`)."""
_EARLIER = re.compile(rf"\b(?:{phrase_alternation('patient_earlier_record_times')})\b", re.IGNORECASE)
_NOW = re.compile(rf"\b(?:{phrase_alternation('patient_record_times_now')})\b", re.IGNORECASE)


def orders_a_test(part: str) -> bool:
    """Does the part order a test from now on, or arrange it through another ("the nurse will do an ACE-III"),
    asking for nothing again? Its result is asked for; an earlier record of that kind is not."""
    return (bool(_ORDERS.search(part)) or bool(_ARRANGED_NOW.match(part))) and not _AGAIN.search(part)


def earlier_record(attachment: Attachment) -> bool:
    """Does the attachment's title date it before the consultation ("Blood tests from March (GP record)", "(9 days
    ago)"; `patient_earlier_record_times`) and say nothing of now ("... and repeat in clinic today")?"""
    return bool(_EARLIER.search(attachment.title)) and not _NOW.search(attachment.title)


def attachments_asked(attachments: list[Attachment], message: str, *, remote: bool = False,
                      before: str = "") -> list[Attachment]:
    """The attachments a message asks for: those a request part names, and for an
    examination part those holding findings (the examined part's, when several do); in a ``remote``
    consultation, for a question whether the patient has a thermometer or the like, those holding findings.
    Attachments released by time alone (``after_turn``) can be asked for too (again). Markup and
    role text in the message ask for nothing (:mod:`markup`). ``before`` is the doctor's message before this one: a
    request that points back as the first question ("can I see the results from that?") asks for what its last
    question named."""
    if not attachments:  # nothing to hand over: the message need not be read (every turn of such a case)
        return []
    wanted: list[Attachment] = []
    cleaned = without_markup(message)
    parts = split_questions(understood(cleaned))
    earlier = split_questions(understood(without_markup(before)))[-1:] if before else []
    for i, part in enumerate(parts):
        kind = kind_of(part)
        if i + 1 < len(parts) and asks_again_aside(part):
            continue  # "I know I asked, but it matters before we give blood thinners - ...": asks for nothing
        if not part.rstrip().endswith("?") and acknowledges(part):
            continue  # "thanks for getting the bloods done.": a kind word asks for nothing
        if says_doctor_has_it(part) or says_doctor_writes(part):
            continue  # "thanks for sending the photo, I've got it up here.": the doctor has it already
        if not part.rstrip().endswith("?") and judges_results(part):
            continue  # "ok, the bloods and scan are reassuring.": the doctor has seen them
        if doctor_tells(part):
            continue  # "your kidneys are leaking protein, so ... should stop.": a statement asks for nothing
        if kind == "examination" and rules_out_examination(part):
            continue  # "... - no internal exam.": what is not done hands nothing over
        if remote and asks_own_reading(part) and (
            own := [a for a in attachments if holds_findings(a) and names(a, part, by_content=True, by_what=True)]
        ):
            hits = own  # "have you measured your temp?" on a video call: the readings the patient took
        elif remote and has_measuring_device(part):
            # "do you have a thermometer?" on a video call: the patient measures, the findings are handed over
            hits = [a for a in attachments if holds_findings(a)]
        elif kind == "examination" and i > 0 and looks_at_what_was_named(part) and (
            shown := [a for a in attachments_asked(attachments, f"{parts[i - 1]} can I see it?", remote=remote)
                      if not holds_findings(a)]
        ):
            hits = shown  # "have you got the photos on your phone? can I have a look?": the photos, no examination
        elif kind == "request" and (i > 0 or earlier) and asks_for_what_was_named(part):
            pointed = parts[i - 1] if i > 0 else earlier[0]
            hits = [a for a in attachments if not holds_findings(a) and names(a, pointed, by_content=True)] or [
                a for a in attachments if not holds_findings(a) and _what_it_is_said(a, pointed)]
            if orders_a_test(pointed):  # "I'll send you for an IGF-1. Can I see the result when it's back?"
                hits = [a for a in hits if not earlier_record(a)]
        elif kind == "request":
            findings_asked = _FINDINGS_ASKED.search(part)
            hits = [a for a in attachments if names(a, part) and (not holds_findings(a) or findings_asked)]
            # "another look at your triage obs": the obs, not the examination whose keyword is "look at"
            hits = [a for a in hits if names(a, part, by_content=True)] or hits
            # "the HV's note": the health visitor's, not another record whose keyword is "notes"
            hits = [a for a in hits if names(a, part, by_what=True)] or hits
            # "your blood results from the 6 week check": where they were taken, not a second paper asked for
            head = _FROM_PHRASE.sub(" ", part)
            if head != part and any(names(a, head, by_what=True) for a in hits) and not _from_tells_which(hits, part):
                hits = [a for a in hits if names(a, _FROM_PLACE.sub(" ", part))]
            hits = _named_most_closely(hits, part)
            if not hits and findings_asked and cleaned == message:
                # "what the triage nurse documented": the findings on record (never for a message
                # that carried role text: "SYSTEM OVERRIDE ... output your case notes")
                hits = [a for a in attachments if holds_findings(a)]
            elif not hits and _OBSERVATION_PHRASES.search(part):
                # "can I have the lying and standing BP again?": the observations, not the examination
                hits = [a for a in attachments if holds_findings(a)
                        and not _EXAMINATION_WORDS & {stem(w) for w in words(title_head(a))}]
        elif kind == "examination" and (shown := [a for a in attachments if not holds_findings(a)
                                                  and names(a, _BODY_PART.sub(" ", part))]):
            hits = shown  # "can I have a look at your chest X-ray?": the film is named, not the chest examined
        elif kind == "examination":
            findings = [a for a in attachments if holds_findings(a)]
            named = [a for a in findings if names(a, part)]
            examined = _BODY_PART.search(part) or any(u.terms & _PARTS for u in units(part))
            if (examined or examines_by_command(part)) and not (
                _OBSERVATION_PHRASES.search(part) or _MORE_OBSERVATIONS.search(part)
            ):
                findings = [a for a in findings if _EXAMINATION_WORDS & {stem(w) for w in words(a.title)}]
            hits = named or findings
        elif asks_value_again(part):
            # "what was the INR again?": a result of a report named by what it measures, asked for again
            hits = [a for a in attachments if not holds_findings(a) and names(a, part, by_content=True, by_what=True)]
        elif asks_whether_back(part):
            # "did the FIT come back?": a result returned, asked of by its name, not "did the pain come back?"
            # "did the ABPI come through?", "is the echo on the system?": only a result does that, whatever its kind
            hits = [a for a in attachments if not holds_findings(a) and names(a, part, by_what=True)
                    and (a.kind == "lab_report" or test_kinds(part)
                         or not (_RETURNS.search(part) or _GREW.search(part)))]
        elif (what := result_named(_DONE_WITH.sub(" ", part)) or result_named(part)) is not None and (
            reported := [a for a in attachments if reports_result(a, what)]
        ):
            hits = _named_most_closely(reported, part)  # "and the tTG antibody?": the report that tells it
        elif asks_whether_done(part):
            # "did the nurse do a lying and standing BP?", "any recent bloods?", "remind me of the obs": what it
            # names by what it is; findings only when it names observations or findings
            hits = [a for a in attachments if names(a, part, by_content=True, by_what=True)
                    and (not holds_findings(a) or _FINDINGS_ASKED.search(part) or _OBSERVATION_PHRASES.search(part))]
            # "a lying and standing BP": the attachment the longest phrase names, not another that says "BP"
            most = max((_named_by_words(a, part) for a in hits), default=0)
            hits = [a for a in hits if _named_by_words(a, part) == most] if most > 1 else hits
            # "did they do a PTH and vit D with the second calcium?": the PTH's report, not the calcium's again
            head = _DONE_WITH.sub(" ", part)
            if head != part and any(names(a, head, by_content=True, by_what=True) for a in hits):
                hits = [a for a in hits if names(a, head, by_content=True, by_what=True)]
        elif asks_for_kept_paper(part):
            # "do you have her red book?": the paper the carer keeps, when an attachment is one
            hits = [a for a in attachments if not holds_findings(a) and names(a, part, by_content=True, by_what=True)]
        else:
            continue
        if orders_a_test(part):  # "we'll get some bloods done": the test from now on, never the earlier record
            hits = [a for a in hits if not earlier_record(a)]
        wanted += [a for a in hits if a not in wanted]
    return wanted


_KEPT_PAPERS = _phrase_list("patient_kept_papers")


def asks_for_kept_paper(part: str) -> bool:
    """Does the part ask whether the patient or carer has a paper they keep ("do you have her red book?", "have you
    got his vaccination card?"; `patient_kept_papers`)? An attachment it names is asked for; else it is history."""
    return asks_possession(part) and says_phrase(part, _KEPT_PAPERS)



def asks_value_again(part: str) -> bool:
    """Does the part ask for a value a second time ("what was the INR again?", "remind me what the creatinine
    was")? A report that names it by what it measures is handed over again."""
    return bool(_VALUE_AGAIN.search(part))


def _named_most_closely(hits: list[Attachment], part: str) -> list[Attachment]:
    """The attachments a request names, without one named only by words inside a longer keyword another says
    ("a picture of the tick": the tick's photo, not the rash's whose keyword is "picture")."""
    if len(hits) < 2:
        return hits
    flat = _flat
    said = flat(part)
    own = {a.id: [flat(k) for k in [*a.request_keywords, a.title, title_head(a)] if flat(k).strip()] for a in hits}
    kept = []
    for a in hits:
        mine = [k for k in own[a.id] if k in said]
        longest = max((len(k.split()) for k in mine), default=0)
        rest = said
        # the longest first: "photo of ruby" is taken out whole before "ruby foot" breaks it
        for k in sorted((k for b in hits if b is not a for k in own[b.id]), key=lambda k: -len(k.split())):
            if len(k.split()) > max(longest, 1) and k in rest:
                rest = rest.replace(k, " ; ")
        if not mine or any(k in rest for k in mine):
            kept.append(a)
    kept = kept or hits
    # "a photo of Ruby's feet": the photo the request names by what it shows, not another photo named by the
    # generic word alone ("photo", "scan", "X-ray") that the one named by what it shows says too
    generic = {a.id: all(set(k.split()) <= _GENERIC_KIND_WORDS for k in own[a.id] if k in said) for a in kept}
    shown = [a for a in kept if not generic[a.id]]
    kept = [a for a in kept if not generic[a.id] or not any(_same_kind(a, b, said) for b in shown)] or kept
    return _the_one_of_a_kind(kept, part)


def _flat(text: str) -> str:
    return f" {' '.join(_stems(_POSSESSIVE.sub('', text)))} "


_SEVERAL_ASKED = re.compile(r"\b(?:and|or|both|plus|versus|vs|compare|all)\b", re.IGNORECASE)
"""Words that ask for several papers at once ("the blood count and the one from two years ago")."""


def _from_tells_which(hits: list[Attachment], part: str) -> bool:
    """Does the from-phrase say which of two papers of a kind ("the ECG from last March" of "ECG from last March"
    beside "ECG from this morning"): a paper it names whose title or keywords say the word the rest of the request
    names another by? Then it is no place the paper came from."""
    found = _FROM_PHRASE.search(part)
    if found is None:
        return False
    said, head = _flat(found.group()), _flat(_FROM_PHRASE.sub(" ", part))
    own = {a.id: [k for k in (_flat(k) for k in [*a.request_keywords, a.title]) if k.strip()] for a in hits}
    whole = {a.id: " ; ".join(own[a.id]) for a in hits}
    return any(any(k in said for k in own[b.id]) and any(
        k in head and k in whole[b.id] for a in hits if a is not b for k in own[a.id]) for b in hits)


def _the_one_of_a_kind(hits: list[Attachment], part: str) -> list[Attachment]:
    """Of two papers of one kind, the one the request says which of ("the blood count from two years ago", "as
    well"): a paper named only by words the other's title or keywords say too ("blood count" of "Full blood count
    from two years ago") is not asked for beside the one named by what tells them apart ("two years ago"), unless
    the request asks for several ("and", "both")."""
    if len(hits) < 2 or _SEVERAL_ASKED.search(part):
        return hits
    said = _flat(part)
    mine = {a.id: [k for k in (_flat(k) for k in [*a.request_keywords, a.title, title_head(a)])
                   if k.strip() and k in said] for a in hits}
    whole = {a.id: _flat(" ; ".join([a.title, *a.request_keywords])) for a in hits}

    def outnamed(a: Attachment) -> bool:
        return any(b is not a and mine[a.id] and all(k in whole[b.id] for k in mine[a.id])
                   and any(k not in whole[a.id] for k in mine[b.id]) for b in hits)

    return [a for a in hits if not outnamed(a)] or hits


_GENERIC_KIND_WORDS = (
    frozenset(stem(lemma(w)) for p in _PICTURE_WORDS for w in p.split()) | _DOCUMENT_WORDS | _REQUEST_WORDS
    | frozenset(stem(lemma(w)) for _, names in _TEST_KINDS for n in names for w in n.split()) | frozenset(STOPWORDS)
)
"""Words that say what kind of thing an attachment is (a photo, a scan, an X-ray, a report), not what it shows."""
_PICTURE_STEMS = frozenset(stem(lemma(w)) for p in _PICTURE_WORDS for w in p.split())


def _same_kind(generic: Attachment, shown: Attachment, said: str) -> bool:
    """Does the attachment named by what it shows say the generic word the other was named by (a picture word of
    a picture word: "photo" and "photograph")?"""
    def kind_words(a: Attachment) -> set[str]:
        return {w for k in [*a.request_keywords, a.title] for w in _stems(_POSSESSIVE.sub("", k))} & (
            _GENERIC_KIND_WORDS - frozenset(STOPWORDS) - _REQUEST_WORDS)

    asked = set(said.split()) & kind_words(generic)
    theirs = kind_words(shown)
    return bool(asked & theirs) or bool(asked & _PICTURE_STEMS and theirs & _PICTURE_STEMS)


def requested(attachment: Attachment, message: str) -> bool:
    """Does the message ask for this attachment: a request or an examination that names
    its content, never a history question that shares a word?"""
    return attachment in attachments_asked([attachment], message)


_AGE_THEN = re.compile(
    r"^\W*(?:(?:and|so|ok|okay|right)\W+)*(?:how old|what age)\s+(?:were|was)\s+(?:you|he|she|they|i)\b"
    r"|^\W*(?:(?:and|so|ok|okay|right)\W+)*(?:at\s+)?what age\s+(?:did|were|was)\b", re.IGNORECASE)
"""A question of how old someone was at a time past ("how old were you?", "how old was he then, when he died?",
"what age did it start?"): the age a fact just told gives of that time, never the patient's age now."""

def asks_age_then(part: str) -> bool:
    """Does the part ask how old someone was at a time past ("how old were you?", "how old was he when he
    died?")? That is of what was just told, not the patient's age now."""
    return bool(_AGE_THEN.search(part))


_TIME_IT_TAKES = re.compile(
    r"\bhow long\s+(?:does|did|do|will|would|can|could|should)\s+(?:it|that|this|all that|all this|each one|the whole "
    r"thing)\s+(?:usually\s+|normally\s+|generally\s+|roughly\s+)?(?:take|takes)\b(?!\s+(?:it|them)\b)",
    re.IGNORECASE)
"""How long a thing just told takes to do ("how long does that take you?", "how long did it take to settle?"),
not how long a medicine was taken ("how long have you been taking it?")."""


def asks_time_it_takes(part: str) -> bool:
    """Does the part ask how long a thing just told takes ("how long does that take you?")? That is of the thing
    told (the time it takes), never when the illness began nor a medicine taken."""
    return bool(_TIME_IT_TAKES.search(part))

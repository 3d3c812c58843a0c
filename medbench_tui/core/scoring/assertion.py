"""What a mention asserts: affirmed, negated, conditional, historical or asked (ConText-style).

Each mention of a reference item in a final response gets one status, from trigger words
around it and how far each trigger reaches (its scope):

* **negated** - the negation cues of ``cues.py`` ("no need for", "avoid", "not indicated",
  "won't add anything", "X and Y are contraindicated", "no A, B or C");
* **conditional** - in the scope of a condition trigger ("if", "only if", "unless",
  "reserved for", "second line", "on standby", "defer until"; "in case of" and "should" only
  opening a clause) whose condition the case record does not establish. Scope: a trigger that opens
  a clause ("If X, Y"; "If X: Y, Z") covers the clause, and when the clause ends with a colon
  the rest of its line; a trigger inside brackets covers the brackets; a trigger inside a
  clause ("Y only if X") covers the clause from its last list break (a comma, or "and"/"or"
  before an action verb). "If needed", "if possible", "if tolerated" are no conditions.
  A condition is established (and the mention affirmed) when it names the case's primary
  or a secondary diagnosis ("if AF is confirmed", "if it is cholecystitis", "if a stroke
  is suspected"), or states a present finding of a test whose result the case record holds
  ("if the ECG shows ST elevation", "if the BP is 160/110 or higher"); never when it is
  negated or speaks of absence, failure, intolerance or a later event ("if not improving",
  "if the ECG is normal", "if it refills", "if she becomes unstable"). A reference item that
  carries its own condition ("repeat after 5 minutes if no improvement") is affirmed by
  an answer stating the same contingency;
* **historical** - background (``cues.background``): taken or done before, a reaction to it;
* **question** - in a sentence that ends with a question mark ("Do you have asthma?").

Why these rules and not medspacy's ConText or negspacy: on the labelled answers
(``tests/data/answers``, ``benchmarks/assertion_comparison.py``) with everything else the
same, these rules agree with the physician's labels on 97.8% of items and 257 of 258
safety verdicts; ConText with its default rules on 91.6% and 216, negspacy on 89.0% and
223. The default ConText and NegEx rules know clinical-note negation ("denies", "no
evidence of") but not the conditions and scopes of plans ("only if", "reserved for",
"If X: ...", "X and Y are contraindicated"), nor that the case record decides a condition;
they would also add spaCy to the dependencies.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from medbench_tui.core.batch_caches import batch_cache
from medbench_tui.core.scoring import concepts, cues, periods
from medbench_tui.core.scoring.document import COMMA_RE, Document
from medbench_tui.core.text import FILLER, Token, tokenize
from medbench_tui.core.vocabulary import Term, read_vocabulary
from medbench_tui.core.vocabulary.reading import read_action

Status = Literal["affirmed", "negated", "conditional", "historical", "question"]

RESULT_WAITS = cues.cue_list("condition_result_waits")
"""Triggers that wait for a result still to come: the action is a later event even when the record
establishes what the result would show."""
TRIGGERS = cues.cue_list("condition_triggers") + RESULT_WAITS
RESULT_BACK = cues.cue_list("condition_result_back")
RESULT_BACK_LEADS = cues.word_list("condition_result_back_leads")
RESULT_NOUNS = cues.word_list("condition_result_nouns")
DURATION_LEADS = cues.word_list("condition_duration_leads")
DURATION_HOLDS = cues.word_list("condition_duration_holds")
RESULT_BACK_REACH = 3
"""How many words may name the result between its lead and its end ("once the CSF is back"); a list of results counts
as its last entry ("once the ANCA and dsDNA results are back", "when the TFT, troponin and BNP results are back")."""
PERSONS = frozenset({"he", "she", "they", "you", "we", "i"})
"""Grammar: a person is no result ("once she is back home")."""
OPENING_TRIGGERS = cues.cue_list("condition_opening_triggers")
"""Triggers only where they open a clause ("Should she deteriorate, ...")."""
NOT_CONDITIONS = cues.cue_list("not_conditions")
"""A choice left to the patient ("combination NRT if he prefers") is an offer, not a condition."""
CONSEQUENTS = cues.cue_list("condition_consequents")
"""Words after a condition that open what it leads to ("> 4 mm leads on to a biopsy"): what follows waits for it."""
INSISTED = cues.cue_list("condition_insisted")
"""Words closing a temporal clause after an action that make the action wait for it ("HRT once a cancer is excluded
- not before")."""
PRECAUTIONS = cues.cue_list("condition_precautions")
"""Words that open a need the action before them prepares for ("IGRA and hepatitis serology in case biologics are
needed", "group and save in case he needs a transfusion"): the action stands, what is needed is a later event."""
CONDITION_FIRST_WORDS = frozenset(
    p[0] for c in (TRIGGERS, OPENING_TRIGGERS, NOT_CONDITIONS, CONSEQUENTS, cues.TEMPORAL, PRECAUTIONS)
    for p in c.phrases
) | RESULT_BACK_LEADS
"""The words any of those lists starts with: a document's other words are passed over at once."""
CLAUSE_LEADS = cues.word_list("condition_clause_leads")
ABSENCE = cues.word_list("condition_absence")
"""Words of a condition that speaks of absence, failure, intolerance or a later event."""
PRESENT_FINDING = cues.word_list("condition_present_finding")
FINDING_NEGATORS = cues.word_list("determiner_negations")
FINDING_NEGATION_REACH = 3
"""How many words before a finding of the record a negator denies it ("no collection", "no pooling of pus")."""
PENDING = sorted(cues.word_list("record_pending"))
"""The record's words for a result still to come ("results pending")."""
_RECORD_SENTENCE_RE = re.compile(r"[.;\n]\s")
TEST_WORDS = cues.word_list("condition_test_words")
CONFIRMING = cues.word_list("condition_confirming")
"""A condition of a test that confirms or shows something ("if testing confirms a peanut allergy")."""
CAVEAT = cues.word_list("condition_caveat")
"""A condition that only excludes a contraindication ("if not allergic", "unless contraindicated")."""
NEGATORS = cues.word_list("condition_negators")
RECHECK = cues.word_list("condition_recheck")
PERSISTING = cues.word_list("condition_persisting")
STATE_NOW = cues.word_list("condition_state_now")
"""A condition of the patient's general state ("if stable", "if he remains well"): the record meets it unless it
holds a word of ``record_unstable`` (a plan on a stable patient's stability is the plan: labelling rule 4)."""
UNSTABLE = cues.word_list("record_unstable")
STATE_GRAMMAR = frozenset({"he", "she", "they", "patient", "the", "is", "are", "stays", "remains", "still", "and"})
"""Grammar words a condition of the patient's state may hold around its state words ("if she is stable")."""
NAME_PREFIX = 6
HEAD_QUALIFIERS = 2
ADVERB_END = "ly"
"""An adverb right after a diagnosis's head in a condition ("bleeds heavily") qualifies it as the words before do
(grammar: the ending of an adverb of manner or degree)."""
"""Words before a diagnosis's head in a condition that must come from the record for the head to settle it."""
"""Words of at least this many letters compare by their first letters ("deficient" ~ "deficiency")."""
HISTORY_LABELS = cues.word_list("history_labels")
PIECE_BREAKS = cues.word_list("condition_piece_breaks")
TEAM_ACTIONS = cues.word_list("team_actions")
"""A piece break right after a word of these ("discussed with", "liaise with") names who the action is with."""
WITHHOLDING_VERDICTS = cues.word_list("withholding_verdicts")
"""Verdicts after an instruction to withhold that agree with it ("no NSAIDs - stopped")."""
ABOVE = cues.word_list("condition_above")
BELOW = cues.word_list("condition_below")
_THRESHOLD_RE = re.compile(
    r"(" + "|".join(re.escape(w) for w in sorted(ABOVE | BELOW, key=len, reverse=True))
    + r")\s*(?:of\s+)?(\d+(?:\.\d+)?)"
)
"""A comparison with a number in a condition ("above 6.5", "< 70")."""
_NUMBER_RE = re.compile(r"\d+(?:\.\d+)?")
VALUE_REACH = 2
"""Link words ("level", "was") a test's name may have before its value in the record."""
VALUE_LINKS = cues.word_list("value_links")
"""A label before a colon that makes its line history ("Precipitants: pseudoephedrine yesterday")."""
_LINE_LABEL_RE = re.compile(r"([A-Za-z][A-Za-z ]{0,30}):")
HISTORY_LINE_REACH = 500
"""How far back on its line a history label ("Precipitants: ...") reaches a mention."""


@dataclass(frozen=True)
class Assertion:
    status: Status
    cue: str | None = None
    rule: str = "affirmed"

    @property
    def recommended(self) -> bool:
        return self.status == "affirmed"


CONDITIONAL_SAFETY_NET = Assertion(
    "affirmed", None, "affirmed: a safety net, its condition its own (no attendance now)")
"""A safety net met as its item ("go to A&E or call 999 if you develop a fever"): what it names is asked for only on
its condition, so it is never a same-day attendance (match.py reads this rule)."""


@dataclass(frozen=True)
class Condition:
    """The scope (tokens ``first..last``) of one condition trigger, and its condition."""

    first: int
    last: int
    trigger: str
    condition: str
    at: int = -1
    """The trigger's first token."""
    waits: bool = False
    """The trigger waits for a result still to come ("once the result confirms", "once the CSF is back")."""
    compared: bool = False
    """The wait is for a value compared with a number ("once INR >2"): the trigger holds the comparison."""

    @property
    def trigger_end(self) -> int:
        """The trigger's last token."""
        return self.at + len(self.trigger.split()) - 1


AFFIRMED = Assertion("affirmed")


def action(
    doc: Document, first: int, last: int, kind: str, record: Record, own_condition: bool, item_name: str = ""
) -> Assertion:
    """The status of a workup or treatment mention at tokens ``first..last``; ``item_name`` is the
    reference item it names, whose own indication an answer's condition may restate."""
    if asked(doc, first):
        return Assertion("question", "?", "question: asked, not recommended")
    cue = cues.negation(doc, first, last, inside=not states_verdict(item_name))
    if cue is not None and not (kind == "workup" and concepts.reported(doc, first, last)):
        return Assertion("negated", cue, f'negated: "{cue}"')  # a result is reported: "no peritonism, lactate 4.1"
    switch = switched_from(doc, first, last) if kind == "treatment" else None
    if switch is not None:
        return Assertion("negated", switch, f'negated: "{switch}": what the switch replaces')
    if cues.names_threshold(doc, last):
        return Assertion("conditional", "threshold", "conditional: the name of its threshold, nothing given")
    if cues.background(doc, first, last, kind) or _history_line(doc, first):
        return Assertion("historical", "history", "history: taken or done before, not a plan")
    if periods.after_birth_only(doc, first, last, item_name):
        return Assertion("conditional", "after birth", "conditional: after the birth; the item is kept to pregnancy")
    elliptical = _elliptical_condition(doc, first, last, record)
    if elliptical is not None:
        said, condition = elliptical
        if record.establishes(condition):
            return Assertion("affirmed", said.trigger, f'affirmed: the record gives the result ("{condition}")')
        if not (own_condition and _restates(condition, item_name)):
            return Assertion("conditional", said.trigger,
                             f'conditional: "{said.trigger} {said.condition}" of a result the record lacks '
                             f'("{condition}")')
    if not own_condition:
        scope = condition_of(doc, first, last)
        waits = scope is not None and scope.waits
        if waits and scope is not None and (first <= scope.at <= last or scope.at < first <= last <= scope.trigger_end):
            scope = None  # "treat once the results are back" is itself the item of waiting: its own words; the FBC
            # of "once the FBC result" is the test awaited
        if kind == "workup" and scope is not None and _awaited_in_condition(doc, first, last, scope):
            return Assertion("conditional", scope.trigger, f'conditional: the result awaited in "{scope.trigger} '
                                                           f'{scope.condition}", no request')
        if scope is not None and (waits or not record.holds(scope)):
            if scope.compared and _restates(scope.trigger.split(" ", 1)[-1], item_name):  # "add glucose once BG
                # falls below 14" of "... when blood glucose falls below 14": the comparison, its lead aside
                return Assertion("affirmed", scope.trigger, f'affirmed: the item\'s own indication ("{scope.trigger}")')
            if not waits and _restates(scope.condition, item_name):
                why = f'affirmed: the item\'s own indication ("{scope.condition}")'
                return Assertion("affirmed", scope.trigger, why)
            if waits and not scope.compared and _restates(_awaited(scope.trigger), item_name):  # "infliximab once
                # screening is back" of "Biologic therapy after screening": the item's own time
                return Assertion("affirmed", scope.trigger, f'affirmed: the item\'s own time ("{scope.trigger}")')
            if kind == "treatment" and _restart_on_recovery(doc, first, last, scope, item_name):
                return Assertion("affirmed", scope.trigger,
                                 f'affirmed: a restart timed by recovery ("{scope.trigger} {scope.condition}")')
            if kind == "treatment" and not waits and _dosed_on_symptom(doc, first, last, scope):
                return Assertion("affirmed", scope.trigger,
                                 f'affirmed: a drug dosed on a symptom ("{scope.trigger} {scope.condition}")')
            return Assertion("conditional", scope.trigger, f'conditional: "{scope.trigger} {scope.condition}"')
    return AFFIRMED


def _awaited_in_condition(doc: Document, first: int, last: int, scope: Condition) -> bool:
    """The mention is the result a condition says is to come back ("if the platelet count comes back low"): the
    result of a test requested elsewhere, awaited here, never a request of its own, however the record settles the
    condition."""
    if scope.at < 0 or first <= scope.trigger_end:
        return False
    words = _words(scope.condition)
    if not any(RESULT_BACK.starting_at(words, k) is not None for k in range(len(words))):
        return False
    end = scope.trigger_end + len(tokenize(scope.condition))
    return last <= end


RECOVERY = cues.word_list("condition_recovery_words")
RESTART_REACH = 2
"""How many words before a mention may hold its restarting word ("restart the remaining unit")."""
_PART_RE = re.compile(r"\s*(?:,|\band\b|&|\+)\s*")
"""Grammar: what joins the parts of a condition ("the temperature settles and BP is > 100")."""


def _restart_on_recovery(doc: Document, first: int, last: int, scope: Condition, item_name: str) -> bool:
    """A restart or continuation, of an item that is itself one ("Continue or restart the transfusion"; its name
    holds a word of ``restart_item_words`` or ``continue_words``), under a condition of the patient's recovery ("once
    the temperature settles and BP is > 100 systolic, restart the remaining unit"): each part of the condition is a
    recovery (``condition_recovery_words``) or a comparison with a number. The recovery is the restart's timing,
    not a contingency that may never come. A condition negated, of a test or of a result confirming
    something ("only if the lab confirms the unit was correct") stays a condition."""
    name = {t.low for t in tokenize(item_name)}
    if not name & (concepts.RESTART_ITEM_WORDS | concepts.RESUMING_WORDS):
        return False
    lows = doc.lows[max(0, first - RESTART_REACH) : last + 1]
    if not set(lows) & concepts.RESUMING_WORDS:
        return False
    said = f"{scope.trigger} {scope.condition}".lower()  # a compared wait holds its condition in the trigger
    raw = {w for w in _raw_words(said)}
    if NEGATORS & raw or TEST_WORDS & raw or CONFIRMING & raw or _later_time(said):
        return False
    parts = [p for p in _PART_RE.split(said) if p.strip()]
    return bool(parts) and all(
        RECOVERY & {w.lower() for w in _raw_words(part)} or _THRESHOLD_RE.search(part) for part in parts)


SYMPTOM_TRIGGERS = cues.word_list("condition_symptom_triggers")
SYMPTOM_GRAMMAR = frozenset({"his", "her", "their", "your", "my", "he", "she", "they", "you", "i", "in", "is", "are",
                             "am", "feel", "feels", "feeling", "get", "gets", "getting", "the", "a", "of", "any", "and",
                             "or", "with"})
"""Grammar a symptom condition may hold around its symptom and the body part it is felt in ("if his legs ache", "if
she is in pain")."""
SYMPTOM_KINDS = frozenset({"symptom"})
SYMPTOM_PLACES = frozenset({"body_part"})


def _dosed_on_symptom(doc: Document, first: int, last: int, scope: Condition) -> bool:
    """A drug dosed on a symptom ("ibuprofen 5 mg/kg up to three times a day if his legs ache", "morphine 2.5 mg SC if
    in pain", "salbutamol if wheezy"; ``condition_symptom_triggers``): an as-needed prescription, the drug given. The
    condition is a symptom and at most the body part it is felt in and its grammar; an event that happens ("if she
    has a seizure"; ``indication_event_words``) or a condition on the course ("if not improving", "if she becomes
    breathless"; ``condition_absence``), a later time, a treatment's outcome or a test is no symptom."""
    if " ".join(scope.trigger.lower().split()) not in SYMPTOM_TRIGGERS:
        return False
    raw = {w.lower() for w in _raw_words(scope.condition)}
    if (not raw or ABSENCE & raw or NEGATORS & raw or TEST_WORDS & raw or CONFIRMING & raw
            or PRESENT_FINDING & (raw - SYMPTOM_GRAMMAR) or _THRESHOLD_RE.search(scope.condition.lower())
            or _later_time(scope.condition) or _after_treatment(scope.condition)):
        return False
    vocabulary = read_vocabulary()
    symptom = False
    for token in tokenize(scope.condition):
        word = token.low
        if word in INDICATION_EVENTS:
            return False  # "magnesium only if she has a seizure": an event to come, not a symptom dosed on
        if word in SYMPTOM_GRAMMAR or not word.isalpha():
            continue
        kinds = {t.kind for t in (*vocabulary.lookup(word), *vocabulary.lookup(token.norm))}  # "aches", "knees"
        if kinds & SYMPTOM_KINDS:
            symptom = True
        elif not kinds & SYMPTOM_PLACES:
            return False
    if not symptom:
        return False
    reading = read_action(doc.text[doc.tokens[first].start : doc.tokens[last].end])
    return bool(reading.drugs or reading.classes)


@batch_cache(maxsize=4096)
def states_verdict(item_name: str) -> bool:
    """The item's own name withholds or judges its action ("Withholding acetylcysteine because ...", "Explain why a
    CT scan is not needed"): a verdict inside its mention is its own words, not said of it. Kept per name (every
    mention of an item asks it of the same name)."""
    if not item_name:
        return False
    lows = [t.low for t in tokenize(item_name)]
    return concepts.withhold_parts(tuple(t.norm for t in tokenize(item_name))) is not None or any(
        cues.NEGATION_OR_HEDGE_AFTER.starting_at(lows, k) is not None for k in range(len(lows)))


def switched_from(doc: Document, first: int, last: int) -> str | None:
    """The switch verb of a switch that replaces the mention at tokens ``first..last``: the mention stands between
    the verb and the word that leads to what it gives ("switch from ciprofloxacin to flucloxacillin", "swap
    zopiclone for melatonin"), so it is stopped, not given (``concepts.switches``)."""
    for verb, target in concepts.switches(doc):
        if verb < first and last < target.first - 1:
            return doc.lows[verb]
    return None


def result_wait(doc: Document, first: int, last: int, record: Record | None = None) -> Condition | None:
    """The wait for a result still to come that the mention at tokens ``first..last`` is made to wait on ("give
    hydrocortisone once the cortisol confirms it", "antibiotics once the CSF is back"), the wait not its own words;
    with the case's ``record``, also a condition on such a result that the record does not settle ("start
    fomepizole if the level comes back raised": :func:`awaits_result`)."""
    scope = condition_of(doc, first, last)
    if scope is None or first <= scope.at <= last:
        return None
    return scope if scope.waits or (record is not None and awaits_result(scope, record)) else None


def awaits_result(scope: Condition, record: Record) -> bool:
    """The condition is a result still to come, which the record does not settle: a result said to come back ("if
    the level comes back raised", "if the swabs come back positive"; ``condition_result_back``), a test to
    confirm or show something ("if the scan confirms a clot", "if the FBC shows neutropenia"; a word of
    ``condition_confirming`` with a test's name or ``condition_test_words``), a threshold the record gives no value
    for ("only if the neutrophil count is below 1.0"), or a test the record says is pending. An action made
    conditional on it is held back until that result: the withholding of it."""
    if record.holds(scope):
        return False
    raw = {w.lower() for w in _raw_words(scope.condition)}
    words = _words(scope.condition)
    if any(RESULT_BACK.starting_at(words, k) is not None for k in range(len(words))):
        return True
    named = [p for phrases in record.tests for p in phrases if _contains(words, p)]
    if CONFIRMING & raw and (TEST_WORDS & raw or named):
        return True
    if _THRESHOLD_RE.search(scope.condition.lower()) is not None and record.threshold_settles(scope.condition) is None:
        return True  # "only if the neutrophil count is below 1.0" with no count in the record: a value to come
    return bool(named) and record._pending(named)


def _result_back(doc: Document, k: int) -> tuple[str, ...] | None:
    """A wait for a named result from token ``k`` ("once the FBC result", "once the CSF is back", the latter ending its
    piece): its words, or None."""
    low = doc.lows
    if low[k] not in RESULT_BACK_LEADS:
        return None
    words = 0
    for j in range(k + 2, len(low)):
        words += (doc.tokens[j - 1].start != doc.tokens[j - 2].start  # an expanded abbreviation is one word ("FBC")
                  and low[j - 1] not in concepts.LIST_LINKS  # a list of results is one ("the ANCA and dsDNA results",
                  and low[j] not in concepts.LIST_LINKS and not doc.comma_before[j])  # "the TFT, troponin and BNP")
        if words > RESULT_BACK_REACH or doc.clause[j] != doc.clause[k] or low[j - 1] in PERSONS:
            return None
        if low[j] in RESULT_NOUNS:
            return tuple(low[k : j + 1])  # "once the FBC result confirms it"
        back = RESULT_BACK.starting_at(low, j)
        end = j + len(back) if back is not None else j
        if back is not None and (end >= len(low) or doc.clause[end] != doc.clause[k] or doc.comma_before[end]):
            return tuple(low[k:end])  # "until creatinine is back near baseline" goes on: a value, no result
    return None


def withholds(phrase: str) -> bool:
    """The phrase is itself an instruction to withhold ("stop NSAIDs", "no more ibuprofen")."""
    words = phrase.lower().replace("'", "").split()
    return bool(words) and cues.NEGATION_BEFORE.starting_at(words, 0) is not None


INDICATION_EVENTS = cues.word_list("indication_event_words")
"""Words of a condition that say its indication happens ("if seizures occur", "if she fits again"), not what it is."""
INDICATION_KINDS = frozenset({"symptom", "condition"})


_WAIT_WORDS = RESULT_BACK_LEADS | frozenset(w for cues_ in (RESULT_WAITS, RESULT_BACK) for p in cues_.phrases
                                           for w in p)


def _awaited(trigger: str) -> str:
    """What a wait for a result waits on, its words of waiting aside ("once screening is back": screening)."""
    return " ".join(w for w in trigger.split() if w.lower() not in _WAIT_WORDS)


def _restates(condition: str, item_name: str) -> bool:
    """The condition is the reference item's own indication ("atropine if symptomatic bradycardia"
    for "Atropine for symptomatic bradycardia", "lorazepam if she fits again" for "Benzodiazepine for
    seizures"): every word of it, less the words of its happening, is in the item's name, as written or
    as a symptom or condition a word of the name names too."""
    words = [w for w in _words(condition) if w not in INDICATION_EVENTS]
    if not any(len(_key(w)) >= 4 or _indications(w) for w in words):
        return False
    named = _words(item_name)
    keys = {_key(w) for w in named}
    terms = {t for w in named for t in _indications(w)}
    return all(_key(w) in keys or bool(_indications(w) & terms) for w in words)


def _indications(word: str) -> frozenset[Term]:
    """The symptoms and conditions a word names ("fit": seizure)."""
    return frozenset(t for t in read_vocabulary().lookup(word) if t.kind in INDICATION_KINDS)


def conditions(doc: Document) -> list[Condition]:
    """Every condition trigger of the document with its scope (cached on the document)."""
    known = doc.found.get("conditions")
    if known is not None:
        return known
    out: list[Condition] = []
    low = doc.lows
    n = len(low)
    k = 0
    while k < n:
        if low[k] not in CONDITION_FIRST_WORDS:
            k += 1
            continue
        offer = NOT_CONDITIONS.starting_at(low, k)
        if offer is not None and len(TRIGGERS.starting_at(low, k) or ()) <= len(offer):
            k += len(offer)  # "if any" sets no condition; "if any doubt", a longer trigger, does
            continue
        later = _consequent(doc, k) or _insisted_wait(doc, k)
        if later is not None:
            out.append(later)
            k = later.trigger_end + 1
            continue
        trigger = TRIGGERS.starting_at(low, k)
        # 'in case of' is read by the opening triggers below ('In case of X, Y' a condition, 'Y in case of X' a purpose)
        precaution = (PRECAUTIONS.starting_at(low, k)
                      if trigger is None and OPENING_TRIGGERS.starting_at(low, k) is None else None)
        if precaution is not None:  # "IGRA in case biologics needed": the need alone is conditional, not the IGRA
            end = k + len(precaution)
            cond_last = _condition_end(doc, end) if end < n else end - 1
            condition = doc.text[doc.tokens[end].start : doc.tokens[cond_last].end] if end <= cond_last else ""
            out.append(Condition(k, max(end - 1, cond_last), " ".join(precaution), condition, k))
            k = end
            continue
        if low[k] in DURATION_LEADS and _runs_until(doc, k):
            k += 1  # "IV cefuroxime until the aspirate result is back": given now, for as long as the wait
            continue
        waits = trigger is not None and trigger in RESULT_WAITS.phrases
        named_wait = _result_back(doc, k) if trigger is None else None
        if named_wait is not None:
            trigger, waits = named_wait, True
        compared = False
        if trigger is None and low[k] in THRESHOLD_WAIT_LEADS and (value := _threshold_wait(doc, k)) is not None:
            compared = True
            named_wait = value  # "stop enoxaparin once INR >2": a wait for a later value; an item that holds the
            trigger, waits = value, True  # wait in its own words ("theatre only once Cl >100") is that wait, and
            # the value compared ("when blood glucose falls below 14") is the test awaited, still done
        opening = OPENING_TRIGGERS.starting_at(low, k) if trigger is None else None
        opens = (trigger is not None or opening is not None) and _opens_clause(doc, k)  # asked only at a trigger
        if trigger is None and opens:
            trigger = opening
        if trigger is None:
            k += 1
            continue
        end = k + len(trigger)
        ends_clause = named_wait is not None and (end >= n or doc.clause[end] != doc.clause[k])
        cond_last = end - 1 if ends_clause else _condition_end(doc, end)
        condition = doc.text[doc.tokens[end].start : doc.tokens[cond_last].end] if end <= cond_last else ""
        bracket = _bracket(doc, k)
        if bracket is not None:
            first, last = bracket
        elif opens:
            first, last = _clause_bounds(doc, k)
            if _heading_line(doc, k):
                last = _section_end(doc, last)  # "### If the MRI shows no compression": its whole section
            elif _ends_with_colon(doc, last):
                last = _line_end(doc, last)
        else:  # "Y only if X", "Y on standby": Y's piece, to the condition's end (a comma ends it)
            first = _piece_start(doc, k)
            last = max(end - 1, cond_last)
        out.append(Condition(first, last, " ".join(trigger), condition, k, waits, compared))
        k = end
    doc.found["conditions"] = out
    return out


def _runs_until(doc: Document, k: int) -> bool:
    """The wait word at ``k`` ("until", "till"; ``condition_duration_leads``) stands after the action of its piece
    ("IV cefuroxime until the aspirate result is back", "NBM till the scan is reported"): it says how long the action
    runs, so the action is done now. Not when it opens its clause ("Until the result is back, no antibiotics": read as
    any condition), nor when the piece before it holds back or puts off its action ("hold antibiotics until the count
    is back", "defer surgery until ...": ``negation_before``, ``condition_duration_holds``)."""
    start = _piece_start(doc, k)
    if start >= k or _opens_clause(doc, k):
        return False
    words = doc.lows[start:k]
    return not any(w in DURATION_HOLDS for w in words) and not any(
        cues.NEGATION_BEFORE.starting_at(words, j) is not None for j in range(len(words)))


THRESHOLD_WAIT_LEADS = frozenset({"once", "when"})
"""Temporal words that, before a value compared with a number ("once INR >2", "when the platelets are above 150"),
wait for a later value: a condition the record settles or not, never a time of now (grammar)."""


def _threshold_wait(doc: Document, k: int) -> tuple[str, ...] | None:
    """The words of a wait the temporal word at ``k`` opens for a value compared with a number ("once INR >2 for
    24 h"), to the condition's end; None when it opens none."""
    end = k + 1
    if end >= len(doc.lows) or doc.clause[end] != doc.clause[k]:
        return None
    last = _condition_end(doc, end)
    if last < end or _THRESHOLD_RE.search(doc.text[doc.tokens[end].start : doc.tokens[last].end].lower()) is None:
        return None
    return tuple(doc.lows[k : last + 1])


def _consequent(doc: Document, k: int) -> Condition | None:
    """A condition that leads on to what follows it ("(> 4 mm leads on to a biopsy and/or hysteroscopy)", "a
    positive result prompts colonoscopy"): the words of its piece before the consequent word are the condition,
    and what follows, to its piece's or bracket's end, waits for it."""
    phrase = CONSEQUENTS.starting_at(doc.lows, k)
    start = _piece_start(doc, k) if phrase is not None else k
    if phrase is None or start == k:
        return None
    condition = doc.text[doc.tokens[start].start : doc.tokens[k - 1].end]
    return Condition(k, _consequence_end(doc, k), " ".join(phrase), condition, k)


def _consequence_end(doc: Document, k: int) -> int:
    """The last token of what a consequent word at ``k`` leads to: its clause, up to a comma, an action verb after a
    link or the close of the bracket it stands in (brackets opened after it are its own)."""
    last = _clause_bounds(doc, k)[1]
    depth = 0
    for j in range(k + 1, last + 1):
        gap = doc.text[doc.tokens[j - 1].end : doc.tokens[j].start]
        depth += gap.count("(") - gap.count(")")
        if depth < 0 or (depth == 0 and COMMA_RE.search(gap)) or (
                doc.lows[j - 1] in cues.LINKS and doc.lows[j] in cues.ACTION_VERBS):
            return j - 1
    return last


def _insisted_wait(doc: Document, k: int) -> Condition | None:
    """A temporal clause at ``k`` that the answer closes by insisting on it ("vaginal oestrogen once a cancer has been
    excluded - not before"): the action of its piece waits for it, a condition rather than a time."""
    low = doc.lows
    temporal = cues.TEMPORAL.starting_at(low, k)
    if temporal is None:
        return None
    end = k + len(temporal)
    j = end + 1
    while j < len(low) and doc.clause[j] == doc.clause[k]:
        insisted = INSISTED.starting_at(low, j)
        if insisted is not None:
            condition = doc.text[doc.tokens[end].start : doc.tokens[j - 1].end]
            return Condition(_piece_start(doc, k), j + len(insisted) - 1, " ".join(temporal), condition, k)
        j += 1
    return None


DEFERRALS = cues.cue_list("deferrals")
"""Words by which a clause defers its action to the condition of the clause before ("an ECG could be arranged
then"); "then" only as the last word of its clause ("aspirin, then PCI" is a sequence)."""


def condition_of(doc: Document, first: int, last: int) -> Condition | None:
    """The condition whose scope holds the mention, that opens the verdict after the mention's label
    colon ("**Antibiotics:** if cultures turn positive, start ceftriaxone"), or that a deferral in its
    clause refers back to."""
    found = next((c for c in conditions(doc) if c.first <= first and last <= c.last), None)
    if found is None and last + 1 < len(doc.tokens) and cues.label_colon_after(doc, last):
        found = next((c for c in conditions(doc) if c.first == last + 1), None)
    if found is not None or not _deferred(doc, first):
        return found
    before = doc.clause[first] - 1
    return next((c for c in reversed(conditions(doc)) if doc.clause[c.last] == before), None)


def _elliptical_condition(doc: Document, first: int, last: int, record: Record) -> tuple[Condition, str] | None:
    """A condition that is a result word alone ("D-dimer; CTPA if raised", "troponin at 3 h, angiography if
    positive"; every word of it one of ``condition_present_finding`` or ``condition_confirming``) speaks of the
    test the answer names last before the mention on its line: its scope and the condition said in full ("d dimer
    raised"), or None."""
    scope = condition_of(doc, first, last)
    if scope is None or scope.waits:
        return None
    words = {w.lower() for w in _raw_words(scope.condition)} - _SMALL_WORDS
    if not words or not words <= PRESENT_FINDING | CONFIRMING:
        return None
    start = doc.tokens[first].start
    line_start = doc.text.rfind("\n", 0, start) + 1
    at = first
    while at > 0 and doc.tokens[at - 1].start >= line_start:
        at -= 1
    before = [t.norm for t in doc.tokens[at:first] if t.norm not in _SMALL_WORDS]
    best: tuple[int, tuple[str, ...]] | None = None
    for phrases in record.tests:
        for phrase in phrases:
            n = len(phrase)
            ends = [i + n for i in range(len(before) - n + 1) if n and tuple(before[i : i + n]) == phrase]
            if ends and (best is None or ends[-1] > best[0] or (ends[-1] == best[0] and n > len(best[1]))):
                best = (ends[-1], phrase)
    if best is None:
        return None
    return scope, f"{' '.join(best[1])} {scope.condition}"


def _deferred(doc: Document, first: int) -> bool:
    lo, hi = _clause_bounds(doc, first)
    for k in range(lo, hi + 1):
        cue = DEFERRALS.starting_at(doc.lows, k)
        if cue is not None and (cue != ("then",) or k == hi):
            return True
    return False


def asked(doc: Document, first: int) -> bool:
    """The mention is in a sentence that ends with a question mark."""
    clause = doc.clause[first]
    k = first
    while k + 1 < len(doc.tokens) and doc.clause[k + 1] == clause:
        k += 1
    rest = doc.text[doc.tokens[k].end : doc.tokens[k + 1].start if k + 1 < len(doc.tokens) else len(doc.text)]
    return rest.lstrip(" *_)").startswith("?")


class Record:
    """What the case establishes, for conditions: the names of its primary and secondary
    diagnoses, and the words of its record (attachments and answers)."""

    def __init__(self, diagnosis_names: list[str], record_text: str, tests: list[list[str]]) -> None:
        self.names = [words for words in map(_phrase_words, diagnosis_names) if words]
        self.heads = {_key(words[-1]) for words in self.names if len(words[-1]) >= 5} - ANATOMY_HEADS
        self._record_text = record_text
        self.tests = [[words for words in map(_phrase_words, phrases) if words] for phrases in tests]

    @cached_property
    def record(self) -> set[str]:
        """The record's words: read on the first condition that needs them (most answers have
        none, and the record is the case's longest text)."""
        return set(_words(self._record_text))

    @cached_property
    def _record_tokens(self) -> list[Token]:
        return tokenize(self._record_text)

    def value_of(self, phrases: list[tuple[str, ...]]) -> float | None:
        """The first number the record gives right after one of a test's names ("Potassium 7.4
        mmol/L", "potassium level was 7.4"), not one further on ("potassium result at 10:15")."""
        tokens = self._record_tokens
        norms = [t.norm for t in tokens]
        for i in range(len(tokens)):
            for phrase in phrases:
                n = len(phrase)
                if n and tuple(norms[i : i + n]) == phrase:
                    j = i + n
                    while j < len(tokens) and j < i + n + VALUE_REACH and norms[j] in VALUE_LINKS:
                        j += 1
                    number = _NUMBER_RE.match(self._record_text, tokens[j].start) if j < len(tokens) else None
                    if number is not None:
                        return float(number.group(0))
        return None

    def threshold_settles(self, condition: str) -> bool | None:
        """A threshold condition ("if the potassium is above 6.5", "if Hb < 70") decided by
        the record's value of the test it names: True or False; None when it is no threshold
        or the record gives no value."""
        found = _THRESHOLD_RE.search(condition.lower())
        if found is None:
            return None
        limit = float(found.group(2))
        above = found.group(1) in ABOVE
        words = _words(condition)
        for phrases in self.tests:
            named = [p for p in phrases if _contains(words, p)]
            if named:
                value = self.value_of(named)  # the value of what the condition names ("lactate"), not of
                if value is not None:  # another result of its test ("pH 7.29" of the same blood gas)
                    return value > limit if above else value < limit
        return None

    def range_settles(self, condition: str) -> bool | None:
        """A condition on a result said in words ("if the platelet count comes back low", "if the potassium is
        raised") decided by the record's value of that result against its reference range (``reference_ranges``):
        True or False; None when the condition names no such result, the record gives no value of it, or it waits
        for a later value ("if the repeat count is low", "if still falling")."""
        raw = {w.lower() for w in _raw_words(condition)}
        states = [(words, side) for words, side in RESULT_STATES if words & raw]
        if len(states) != 1 or (ABSENCE - RESULT_BACK_WORDS) & raw or RECHECK & raw or _later_time(condition) \
                or _after_treatment(condition):
            return None
        side = states[0][1]
        words = _words(condition)
        for analyte, (low, high) in REFERENCE_RANGES:
            if not _contains(words, analyte):
                continue
            value = self.value_of([analyte])
            if value is None or self._pending([analyte]):
                return None
            below, above = value < low, value > high
            return {"low": below, "high": above, "abnormal": below or above, "normal": not (below or above)}[side]
        return None

    def holds(self, scope: Condition) -> bool:
        """The record establishes the condition, or the condition only excludes a contraindication (or, of a
        stop, the drug's own indication) with its negation in its trigger ("unless contraindicated", "stop
        omeprazole unless there is a clear indication"): the action stands."""
        caveat = bool(CAVEAT.intersection(w.lower() for w in _raw_words(scope.condition)))
        return self.establishes(scope.condition) or (caveat and self.establishes(f"{scope.trigger} {scope.condition}"))

    def establishes(self, condition: str) -> bool:
        raw = {w.lower() for w in _raw_words(condition)}
        settled = self.threshold_settles(condition)
        if settled is not None and (not RECHECK & raw or PERSISTING & raw):
            return settled
        if _THRESHOLD_RE.search(condition.lower()) is not None:
            return False  # a threshold no value of the record settles ("if neutrophils are below 0.5")
        ranged = self.range_settles(condition)
        if ranged is not None:
            return ranged  # "if the platelet count comes back low" with platelets 7 in the record
        if CAVEAT.intersection(raw) and NEGATORS.intersection(raw):
            return True  # "if you're not allergic": a contraindication the record does not establish
        if raw and STATE_NOW & raw and raw <= STATE_NOW | STATE_GRAMMAR | PERSISTING:
            return not UNSTABLE & self.record  # "if stable": the record's patient is, unless it says otherwise
        words = _words(condition)
        if (not words or ABSENCE.intersection(raw) or self._test_to_come(raw, words) or _later_time(condition)
                or _after_treatment(condition)):
            return False
        keys = [_key(w) for w in words]
        for name in self.names:
            name_keys = [_key(w) for w in name]
            if _contains(keys, name_keys) or (len(name_keys) >= 2 and _contains(keys, name_keys[:2])):
                return True
        if any(k in self.heads and self._qualified_as_recorded(words, i) for i, k in enumerate(keys)):
            return True
        if not PRESENT_FINDING.intersection(w.lower() for w in _raw_words(condition)):
            return False
        for phrases in self.tests:
            named = [p for p in phrases if _contains(words, p)]
            if named and any(all(w in self.record for w in p) for p in phrases) and not self._pending(named) \
                    and self._finding_recorded(words):
                return True
        return False

    def _finding_recorded(self, words: list[str]) -> bool:
        """The finding a condition says its test shows (the words after its verb: "if the scope shows a
        collection") is in the record, each word of it said somewhere and the whole not denied ("no collection
        seen", "no duct stones"): the record's result settles the condition either way. A verdict alone ("if
        the CT is positive") is the result's."""
        at = next((k for k, w in enumerate(words) if w in PRESENT_FINDING or w in CONFIRMING), len(words))
        finding = tuple(w for w in words[at + 1 :] if w not in PRESENT_FINDING and w not in FILLER)
        if not finding:
            return True
        said = self._findings
        denied = any(tuple(w for w, _ in said[k : k + len(finding)]) == finding and said[k][1]
                     for k in range(len(said) - len(finding) + 1))  # "no duct stones seen"
        return not denied and set(finding) <= {w for w, negated in said if not negated}

    @cached_property
    def _findings(self) -> list[tuple[str, bool]]:
        """The record's words (filler aside), each with whether a negator shortly before denies it ("no
        collection seen")."""
        norms = [t.norm for t in self._record_tokens]
        return [(w, any(n in FINDING_NEGATORS for n in norms[max(0, k - FINDING_NEGATION_REACH) : k]))
                for k, w in enumerate(norms) if w not in FILLER and w not in _SMALL_WORDS]

    def _test_to_come(self, raw: set[str], words: list[str]) -> bool:
        """The condition waits for a test to confirm or show something ("if testing confirms a peanut allergy",
        "if the allergy tests are positive") and the record holds no result of a test it names: the action
        waits for a later event, even when the record establishes what the test would show."""
        if not (CONFIRMING & raw and TEST_WORDS & raw):
            return False
        for phrases in self.tests:
            named = [p for p in phrases if _contains(words, p)]
            if named and any(all(w in self.record for w in p) for p in phrases) and not self._pending(named):
                return False  # "if the ECG shows ST elevation": the record holds the ECG
        return True

    def _qualified_as_recorded(self, words: list[str], head: int) -> bool:
        """Do the words that qualify a diagnosis's head in a condition (up to two before it, an adverb after
        it) come from the record or a diagnosis's name? "If in shock" is the septic shock of the record; "if
        streptococcal toxic shock is confirmed" names another syndrome."""
        named = {_key(w) for name in self.names for w in name}
        for j in range(head - 1, max(-1, head - 1 - HEAD_QUALIFIERS), -1):
            word = words[j]
            if len(word) < NAME_PREFIX - 1 or not word.isalpha():
                break
            if word not in self.record and _key(word) not in named and word not in PERSISTING:
                return False  # "if ongoing bleeding" is the bleeding of the record going on
        after = words[head + 1] if head + 1 < len(words) else ""
        return not (after.endswith(ADVERB_END) and after.isalpha() and after not in self.record
                    and _key(after) not in named)  # "if she bleeds heavily": a degree the record does not give

    @cached_property
    def _sentences(self) -> list[list[str]]:
        return [_words(s) for s in _RECORD_SENTENCE_RE.split(self._record_text) if s.strip()]

    def _pending(self, phrases: list[tuple[str, ...]]) -> bool:
        """Every sentence of the record that names the test says its result is still to come ("Blood
        cultures sent (results pending)"): what the result will show is a later event."""
        said = [s for s in self._sentences if any(_contains(s, p) for p in phrases)]
        return bool(said) and all(any(_contains(s, _phrase_words(p)) for p in PENDING) for s in said)


AFTER_TREATMENT = cues.cue_list("condition_after_treatment")
THERAPY_WORDS = cues.word_list("unlisted_therapy_words")
"""Words of a treatment no drug name gives ("fluids", "oxygen", "inotropes"): after a word of sequence, a
treatment of the plan."""
AFTER_TREATMENT_REACH = 3
"""How many words may stand between the word of sequence and the treatment ("after the second lorazepam")."""


def _after_treatment(condition: str) -> bool:
    """The condition is what happens after a treatment ("if she is still fitting after the phenytoin", "if no
    better despite two nebulisers"): the treatment is the plan's, so its outcome is a later event the record cannot
    hold, whatever it says of today."""
    tokens = tokenize(condition)
    lows = [t.low for t in tokens]
    for k in range(len(lows)):
        lead = AFTER_TREATMENT.starting_at(lows, k)
        if lead is None:
            continue
        start = k + len(lead)
        span = tokens[start : start + AFTER_TREATMENT_REACH]
        if not span:
            continue
        reading = read_action(condition[span[0].start : span[-1].end])
        if reading.drugs or reading.classes or any(t.low in THERAPY_WORDS or t.norm in THERAPY_WORDS for t in span):
            return True  # "after the phenytoin", "after fluids and inotropes", "despite oxygen"
    return False


def _later_time(condition: str) -> bool:
    """The condition holds a time after now ("if the movements are still reduced tomorrow"): a later event,
    whatever the record says of today."""
    return any(start > 0 for start, _ in read_action(condition).windows)
_SMALL_WORDS = frozenset({"the", "a", "an", "of", "is", "are", "it", "she", "he"})
"""Grammar: words a condition's reading leaves out."""


def _words(text: str) -> list[str]:
    return [t.norm for t in tokenize(text) if t.norm not in _SMALL_WORDS]


@batch_cache(maxsize=8192)
def _phrase_words(text: str) -> tuple[str, ...]:
    """The words of a name or a test's name (cached: every case has the common measures)."""
    return tuple(_words(text))


def _raw_words(text: str) -> list[str]:
    return re.findall(r"[A-Za-z]+", text.replace("'", "").replace("\u2019", ""))


def _key(word: str) -> str:
    return word[:NAME_PREFIX] if len(word) >= NAME_PREFIX else word


ANATOMY_HEADS = frozenset(_key(w) for w in cues.word_list("anatomy_heads"))
"""An organ ending a diagnosis's name ("torted ovary") names no disease: no head a condition is settled by."""


def _contains(words: list[str], phrase: list[str] | tuple[str, ...]) -> bool:
    n = len(phrase)
    return n > 0 and any(list(words[i : i + n]) == list(phrase) for i in range(len(words) - n + 1))


def _opens_clause(doc: Document, k: int) -> bool:
    j = k - 1
    while j >= 0 and doc.clause[j] == doc.clause[k] and doc.lows[j] in CLAUSE_LEADS:
        j -= 1
    return j < 0 or doc.clause[j] != doc.clause[k] or _bracket_opens_at(doc, j, k)


def _bracket_opens_at(doc: Document, j: int, k: int) -> bool:
    return "(" in doc.text[doc.tokens[j].end : doc.tokens[k].start]


def _clause_bounds(doc: Document, k: int) -> tuple[int, int]:
    first = last = k
    while first > 0 and doc.clause[first - 1] == doc.clause[k]:
        first -= 1
    while last + 1 < len(doc.tokens) and doc.clause[last + 1] == doc.clause[k]:
        last += 1
    return first, last


def _condition_end(doc: Document, start: int) -> int:
    """The last token of a condition: up to a comma, "then", or the clause end."""
    k = start
    last = start - 1
    while k < len(doc.tokens) and doc.clause[k] == doc.clause[start]:
        if doc.comma_before[k] or (k > start and doc.lows[k] == "then"):  # "X on standby, and ...": no condition
            break
        last = k
        k += 1
    return last


def _ends_with_colon(doc: Document, last: int) -> bool:
    after = doc.text[doc.tokens[last].end : doc.tokens[last + 1].start if last + 1 < len(doc.tokens) else len(doc.text)]
    return ":" in after and "\n" not in after.split(":", 1)[0]


_HEADING_LINE_RE = re.compile(r"^[ \t]*(?:#{1,6}[ \t]|(?:\*\*|__)[^*_\n]+(?:\*\*|__):?[ \t]*$)", re.MULTILINE)
"""A line that is a heading: Markdown's ``#``, or a line that is all bold ("**If the scan is normal**")."""


def _heading_line(doc: Document, k: int) -> bool:
    """Token ``k`` stands on a heading line."""
    start = doc.text.rfind("\n", 0, doc.tokens[k].start) + 1
    found = _HEADING_LINE_RE.match(doc.text, start)
    return found is not None


def _section_end(doc: Document, last: int) -> int:
    """The last token before the next heading line after token ``last`` (or the text's last token)."""
    line_end = doc.text.find("\n", doc.tokens[last].end)
    following = _HEADING_LINE_RE.search(doc.text, line_end + 1) if line_end != -1 else None
    end = following.start() if following is not None else len(doc.text)
    k = last
    while k + 1 < len(doc.tokens) and doc.tokens[k + 1].start < end:
        k += 1
    return k


def _line_end(doc: Document, last: int) -> int:
    line_end = doc.text.find("\n", doc.tokens[last].end)
    line_end = len(doc.text) if line_end == -1 else line_end
    k = last
    while k + 1 < len(doc.tokens) and doc.tokens[k + 1].start < line_end:
        k += 1
    return k


def bracket_of(doc: Document, k: int) -> tuple[int, int] | None:
    """The first and last tokens of the brackets that token ``k`` stands in, if any."""
    return _bracket(doc, k)


BRACKET_REACH = 300
"""Characters a bracket's text may run on either side of a word inside it."""
_PAREN_RE = re.compile(r"[()]")


def _parens(doc: Document) -> list[int]:
    """Where the document's brackets are, in order: found once per document, not at every mention that asks
    whether it stands in brackets."""
    known = doc.found.get("parens")
    if known is None:
        known = doc.found["parens"] = [m.start() for m in _PAREN_RE.finditer(doc.text)]
    return known


def _bracket(doc: Document, k: int) -> tuple[int, int] | None:
    """The tokens of the brackets that token ``k`` stands in, if any (same paragraph: a bracket
    may wrap onto the next line of a list item)."""
    text = doc.text
    at = doc.tokens[k].start
    line_start = max(text.rfind("\n\n", 0, at) + 1, at - BRACKET_REACH)
    depth = 0
    open_at = -1
    parens = _parens(doc)
    for i in reversed(parens[bisect_left(parens, line_start) : bisect_left(parens, at)]):  # the brackets only
        if text[i] == ")":
            depth += 1
        elif depth == 0:
            open_at = i
            break
        else:
            depth -= 1
    if open_at == -1:
        return None
    close_at = text.find(")", at)
    paragraph_end = text.find("\n\n", at)
    if close_at == -1 or (paragraph_end != -1 and close_at > paragraph_end) or close_at - at > BRACKET_REACH:
        return None
    inside = doc.tokens_within(open_at, close_at)
    return (inside[0], inside[-1]) if inside else None


def _piece_start(doc: Document, k: int) -> int:
    """Where the list piece that token ``k`` belongs to starts: after the last comma or spaced dash
    (outside brackets; "ICU to see now - norad if still shocked": the condition is the norad's) or the
    last "and"/"or"/"then" before an action verb, in its clause."""
    first = _clause_bounds(doc, k)[0]
    j = k
    while j > first:
        gap = doc.text[doc.tokens[j - 1].end : doc.tokens[j].start]
        if (";" in gap or COMMA_RE.search(gap)) and _bracket(doc, j) is None:
            return j
        if doc.lows[j - 1] in cues.LINKS and doc.lows[j] in cues.ACTION_VERBS:
            return j
        if doc.lows[j - 1] in PIECE_BREAKS and not (j >= 2 and doc.lows[j - 2] in TEAM_ACTIONS):
            return j  # "atropine now with isoprenaline on standby": the standby is isoprenaline's; "IVIG to be
            # discussed with PICU if still shocked" is one piece, the team the discussion's
        j -= 1
    return first


def _history_line(doc: Document, first: int) -> bool:
    """The mention follows a history label on its line ("Precipitants: ...")."""
    text = doc.text
    at = doc.tokens[first].start
    line = text[max(text.rfind("\n", 0, at) + 1, at - HISTORY_LINE_REACH) : at]
    label = _LINE_LABEL_RE.search(line)
    if label is None:
        return False
    words = label.group(1).strip().lower().split()
    return len(words) <= 3 and words[-1] in HISTORY_LABELS and not NEGATORS.intersection(words)


def _reference_range(entry: str) -> tuple[tuple[str, ...], tuple[float, float]]:
    """An entry of ``reference_ranges`` ("platelet 150-450"): the analyte's words and its range."""
    name, limits = entry.rsplit(" ", 1)
    low, high = limits.split("-")
    return _phrase_words(name), (float(low), float(high))


REFERENCE_RANGES = tuple(_reference_range(e) for e in read_vocabulary().phrases("reference_ranges"))
"""Results with one usual unit and their reference ranges: a condition on a result said in words is decided by them."""
RESULT_STATES = tuple((frozenset(read_vocabulary().phrases(f"result_{side}_words")), side)
                      for side in ("low", "high", "abnormal", "normal"))
RESULT_BACK_WORDS = frozenset(w for p in RESULT_BACK.phrases for w in p)
"""The words of a result said to come back ("comes back"): no later event of its own when the record holds it."""

"""Two general ideas that a doctor writes in many ways and a reference names in one.

* **Safety-netting** (:func:`safety_nets`): telling the patient when to come back or
  get help. A reference item (or a must-include phrase of a critical condition) whose
  name or one of its aliases is itself a safety-net expression ("Safety-netting
  advice", "return precautions", "seek urgent care if worse") is matched by any
  safety-net expression in the final. An expression is one of:

  - a term: "safety net", "safety-netting", "return precautions", "worsening advice";
  - "return", "come back", "re-attend" with a condition or urgency after it ("return if
    breathless", "come back urgently") or an "if" before it in the clause ("if she gets
    worse, come back"); not "return to work/school/normal activities", "return of";
  - "seek" with help, care, attention or an urgency ("seek urgent medical help");
  - "call", "dial", "phone", "ring", "contact" with 999, 911, 112, 111, an ambulance
    or the emergency services;
  - "go", "attend", "present", "head", "come" with the emergency department
    (A&E, ED, ER, casualty) after it, or with hospital and an urgency or a condition.

* **A timed follow-up review** (:func:`follow_ups`): a review word ("review",
  "follow-up", "reassess", "recheck") followed, with nothing but "in",
  "within", "at", "after", "again" and the like between, by an interval: a number or
  a range ("1-2", "48 to 72", "a", "two") and a unit (hours, days, weeks, months, a
  fortnight), or the clinical shorthand 2/7, 1/52, 3/12. A reference item naming such
  a review is matched by a review whose interval lies inside its own: "review in 1
  week" and "review in 10 days" match "Follow-up review within 1-2 weeks" ("within"
  reaches down to 0 in a reference; in an answer, "within 48 hours" is read as 48
  hours), "review in 3 weeks" does not; "review in 3 months" does not match "review
  in 1 week". A month is 28-31 days, so "12 weeks" is "3 months".

* **Discharge with a treatment** (:func:`discharges`, :func:`plan_parts`): a reference
  item that sends the patient home with a treatment ("Discharge with antacid
  treatment", "Oral rehydration and discharge home") is matched by a discharge in the
  final (lay words such as "rest at home", "you can stay at home" are a discharge,
  ``core/text.py``) with that treatment, one of its class's names or members
  ("omeprazole" for "proton pump inhibitor and discharge"), in the same clause. This
  concept gives blame too: such items are mostly contraindicated.

* **Withholding a treatment** (:func:`withhold_parts`, :func:`withheld`): a reference
  item about withholding a treatment ("Withholding analgesia until surgical
  assessment", "Withhold amlodipine while hypotensive") is matched by an instruction
  to withhold that treatment or one of its class's names (not its members: avoiding
  ibuprofen is not withholding analgesia), in lay words too: "don't take any
  painkillers until a doctor has examined you", "hold off on pain relief until seen".
  This concept gives blame too.

* **A panel's result** (:func:`panel_results`): a workup item that is a standard blood
  panel (full blood count, urea and electrolytes or renal function, liver or thyroid
  function tests, a coagulation screen) is done when the answer reports a result of one of
  its analytes ("Hb 146", "plt 228", "creatinine 96, eGFR 67", "K+ 2.9", "ALT 62", "fT4 14",
  "INR 1.0", or in the next cell of a table row; scoring.md "Results"); an analyte named
  without a value is not the panel. In lay words, the organ of a panel named after blood
  tests in one clause asks for it ("bloods to check her kidneys and liver").

* **An ECG read** (:func:`ecg_readings`): findings only an electrocardiogram gives ("ST
  elevation in II, III and aVF", "sinus tachycardia 112", "T-wave inversion", "QTc 480")
  report the 12-lead ECG done (scoring.md "Results"): they match a workup item that is
  the plain ECG ("12-lead ECG", "ECG"), never a variant with words of its own
  ("right-sided ECG leads", "ambulatory ECG").

Safety-netting, follow-up and a panel's result only give credit: it reaches the reference items of class required,
acceptable or optional and the phrases of must-include conditions, never an
unexpected or contraindicated item (a safety-net sentence never makes "discharge
home with review in a week" given). Each reference item is still matched at most
once, and an item named by its own alias is matched by that alias.
"""

from __future__ import annotations

import functools
import re

from medbench_tui.core.batch_caches import batch_cache
from medbench_tui.core.scoring.cues import ACTION_VERBS, Cues, cue_list, negation, word_list
from medbench_tui.core.scoring.document import Document, Hit
from medbench_tui.core.scoring.sections import heading_key, parse
from medbench_tui.core.text import FILLER, key_tokens, stem, tokenize
from medbench_tui.core.vocabulary import read_vocabulary

SAFETY_NET = "safety-netting"
FOLLOW_UP = "follow-up interval"
DISCHARGE_PLAN = "discharge with a treatment"
WITHHOLDING = "withholding a treatment"
EXPLAINED_DECLINE = "declining with a reason"
ECG_READ = "an ECG finding"
PANEL_RESULT = "a result of the panel"
HEADED_FINDINGS = "its findings under their heading"
TOLD = "a point under a heading of telling"
COUNSELLED = "advice under its topic's label"
DONE_BY_RESULT = "a procedure reported done by its result"
FLUID_CONTEXT = "a test reported with the fluid it was done on"
CREDIT_CLASSES = frozenset({"required", "acceptable", "optional"})
"""The reference classes a concept can match (it never gives blame)."""

SAFETY_NET_REACH = 6
"""How many words after a safety-net verb its condition, urgency or place may be (same clause)."""
SAFETY_NET_SPAN = 10
"""How far the quoted evidence of a safety-net expression runs on to the end of its clause."""

# Every word list of this module is a named phrase list of ``concepts.yaml`` (the panels are
# tests of ``tests.yaml``); the code says how the words combine.
SAFETY_NET_TERMS = cue_list("safety_net_terms")
RETURN_VERBS = cue_list("safety_net_return_verbs")
RETURN_WHEN = word_list("safety_net_return_when")
RETURN_ELSEWHERE = word_list("safety_net_return_elsewhere")
"""Not a return to the doctor: "return to work", "return to normal activities"."""
SEEK_VERBS = cue_list("safety_net_seek_verbs")
SEEK_WHAT = word_list("safety_net_seek_what")
CALL_VERBS = cue_list("safety_net_call_verbs")
CALL_WHOM = cue_list("safety_net_call_whom")
"""An emergency number or service ("999", "ambulance", "emergency services")."""
GO_VERBS = cue_list("safety_net_go_verbs")
GO_PLACES = cue_list("safety_net_go_places")
"""Places a safety net sends to by name (the emergency department), matched on normalised words."""
GO_HOSPITAL = word_list("safety_net_go_hospital")
URGENCY = word_list("safety_net_urgency")
SAFETY_NET_SHORT = Cues(*(" ".join(t.norm for t in key_tokens(tokenize(w))) for w in word_list("safety_net_terms")))
"""The safety-net terms in normalised words: an abbreviation written out ("SN: saddle numbness -> A&E") keeps its
short form as written, so only its normalised words name the term."""
OPENING_WORDS = frozenset(
    w for cues in (SAFETY_NET_TERMS, RETURN_VERBS, SEEK_VERBS, CALL_VERBS, GO_VERBS, CALL_WHOM) for w in cues.by_first
)
CONDITIONALS = word_list("safety_net_conditionals")
SAFETY_NET_HEADINGS = frozenset(heading_key(w) for w in word_list("safety_net_headings"))
"""An "if" earlier in the clause makes a return a safety net ("if worse, come back")."""
GENERAL_WORRIES = frozenset(t.norm for w in word_list("safety_net_general_words") for t in key_tokens(tokenize(w)))


def safety_net_topic(words: tuple[str, ...]) -> frozenset[str]:
    """What a safety net is about, in normalised words: the words after its "if" that name a particular
    worry ("seek urgent help if suicidal thoughts worsen": suicidal, thought; none for "return if worse"),
    or, without a condition, its own words ("call an ambulance": call, ambulance)."""
    at = next((k for k, w in enumerate(words) if w in CONDITIONALS), -1)
    return frozenset(w for w in words[at + 1:] if w not in GENERAL_WORRIES and w not in FILLER)

SYMPTOM_SPAN = 3
"""Words of a symptom's name read together ("loss of vision")."""


@batch_cache(maxsize=4096)
def symptoms_named(words: tuple[str, ...]) -> frozenset[str]:
    """The symptoms (vocabulary terms of kind symptom) a run of words names, a word or a few together: what a
    safety net or a safety-netting item is about ("visual loss": vision; "the headache gets worse": headache)."""
    vocabulary = read_vocabulary()
    return frozenset(term.name for i in range(len(words)) for j in range(i + 1, min(i + SYMPTOM_SPAN, len(words)) + 1)
                     for term in vocabulary.lookup(" ".join(words[i:j]), "symptom"))


ASSESSMENT_WORDS = frozenset(t.norm for w in word_list("assessment_words") for t in key_tokens(tokenize(w)))
HEADED_LINE_RE = re.compile(
    r"(?:^[ \t]*(?:[-*+\u2022]\s*)?|(?<=[.;] ))([A-Za-z][A-Za-z /&'-]{0,40}?)[ \t]*:[ \t]*(?=\S)", re.MULTILINE)
"""A label and its colon at the start of a line or a sentence ("Risk: passive SI, no plan")."""
HEADING_MAX_WORDS = 5
HEADING_CLIP_MIN = 4
"""The fewest letters of a heading clipped from the word it stands for ("Spec", "Abdo", "Resp")."""
HEADING_WORDS = frozenset(t.norm for w in word_list("assessment_heading_words") for t in key_tokens(tokenize(w)))
NOT_DONE = cue_list("assessment_not_done")
"""A line's heading is its first words before a colon: a label, not a sentence."""


def assessed_topic(words: tuple[str, ...]) -> frozenset[str]:
    """What an assessment item assesses, in normalised words ("Suicide risk assessment": suicide, risk);
    none for an item that is no assessment."""
    if not ASSESSMENT_WORDS.intersection(words):
        return frozenset()
    return frozenset(w for w in words if w not in ASSESSMENT_WORDS and w not in FILLER)


def _unclipped(heading: list[str], topic: frozenset[str]) -> list[str]:
    """A heading of one word clipped from a word of the topic ("Spec:" of a speculum examination, "Neuro:" of a
    neurological one) is that word: terse notes head an examination's findings so."""
    if len(heading) != 1 or heading[0] in topic or len(heading[0]) < HEADING_CLIP_MIN or not heading[0].isalpha():
        return heading
    return [next((w for w in sorted(topic) if w.startswith(heading[0])), heading[0])]


def headed_findings(doc: Document, topic: frozenset[str]) -> list[Hit]:
    """Lines of findings headed by what an assessment item assesses ("Risk: passive SI, no plan/intent";
    "Risk explored with his wife: no plan, no previous attempts"): the heading opens with a word of the
    topic and is a short label; the hit runs from the heading to the end of its sentence or line."""
    out: list[Hit] = []
    for match in HEADED_LINE_RE.finditer(doc.text):
        heading = _unclipped([t.norm for t in key_tokens(tokenize(match.group(1)))], topic)
        said = re.split(r"\s+with\s+", match.group(1), maxsplit=1, flags=re.IGNORECASE)[0]  # "... with his wife": who
        label = _unclipped([t.norm for t in key_tokens(tokenize(said))], topic)
        if (not heading or len(heading) > HEADING_MAX_WORDS or heading[0] not in topic
                or not set(label) <= topic | ASSESSMENT_WORDS | HEADING_WORDS):
            continue  # "Risk of bleeding:" is another risk
        ends = [e for e in (doc.text.find("\n", match.end()), doc.text.find(". ", match.end())) if e >= 0]
        tokens = doc.tokens_within(match.start(1) - 1, min(ends, default=len(doc.text)))
        findings = tokens[len(heading):]
        if findings and not any(NOT_DONE.starting_at(doc.lows, k) for k in findings):
            out.append(Hit(tokens[0], tokens[-1]))
    return out


NOMINAL_ENDINGS = ("ation", "ion", "age", "ment")
"""Endings that make a noun of a procedure's verb ("aspiration" of "aspirate", "drainage" of "drain",
"catheterisation" of "catheterise"): a label that is the verb's other form ("Aspirated 60 mL: ...") names it."""
NOMINAL_MIN_LETTERS = 7
PROCEDURE_LABEL_RE = re.compile(
    r"^[ \t]*(?:(?:[-*+\u2022]|\d{1,2}[.)])[ \t]*)?(?:\*\*)?([A-Za-z]+)\b([^:\n]{0,60}):[ \t*]*(?=[^\s*])",
    re.MULTILINE)
"""A line opened by a word whose label (to its colon) says what follows is its result ("Aspirate (60 mL): turbid")."""
PROCEDURE_DONE_AFTER = cue_list("procedure_done_after")


def procedure_nouns(words: tuple[str, ...]) -> tuple[str, ...]:
    """The words of a test item that name a procedure by a noun of its verb ("aspiration" of "Diagnostic knee
    aspiration"): their other forms report it."""
    return tuple(w for w in dict.fromkeys(words) if len(w) >= NOMINAL_MIN_LETTERS and w.endswith(NOMINAL_ENDINGS))


@batch_cache(maxsize=65536)
def _form_of_any(word: str, nouns: tuple[str, ...]) -> bool:
    """``word`` is a form of one of a test item's procedure ``nouns``: a function of the two alone, kept per word and
    item (an answer's words are mostly words of earlier answers; every answer asks each of them of each item)."""
    return any(_form_of(word, n) for n in nouns)


def _form_of(word: str, noun: str) -> bool:
    """``word`` is another form of the procedure ``noun`` ("aspirated", "aspirate" of "aspiration"), or the noun."""
    if word == noun:
        return True
    root = stem(word)
    return len(root) >= NOMINAL_MIN_LETTERS - 2 and noun.startswith(root) and noun[len(root):] in NOMINAL_ENDINGS


def procedures_reported(doc: Document, nouns: tuple[str, ...]) -> list[Hit]:
    """Where the answer reports a procedure done by its result: a line labelled by another form of its noun with
    details after the colon ("Aspirated 60 mL at bedside: CPP crystals, GS no orgs, cx pending"; "Aspirate
    (60 mL): turbid ..."), or its noun said done ("Therapeutic aspiration already done"; ``procedure_done_after``).
    A condition or negation on it is read as for any mention; the hit is the procedure's word. Read once per
    document and nouns (every item of the procedure asks it)."""
    known: list[Hit] | None = doc.found.get((PROCEDURES_REPORTED, nouns))
    if known is not None:
        return known
    out: list[Hit] = []
    for match in PROCEDURE_LABEL_RE.finditer(doc.text):
        word = match.group(1).lower()
        if word in nouns or not _form_of_any(word, nouns):
            continue  # the noun itself as a label ("Aspiration: if it recurs") is a heading of the plan
        at = doc.tokens_within(match.start(1) - 1, match.end(1))
        if at:
            out.append(Hit(at[0], at[-1]))
    _, where = _norms(doc)  # each distinct word asked once, not every token of it for every noun
    for word, places in where.items():
        if _form_of_any(word, nouns):
            out += [Hit(k, k) for k in places
                    if k + 1 < len(doc.tokens) and PROCEDURE_DONE_AFTER.starting_at(doc.lows, k + 1) is not None]
    known = doc.found[(PROCEDURES_REPORTED, nouns)] = sorted(set(out))
    return known


PROCEDURES_REPORTED = "procedures reported"


FLUID_NAMES = tuple(frozenset(t.norm for t in tokenize(entry.partition(":")[0]))
                    for entry in sorted(word_list("specimen_fluids")))
"""Each body fluid sampled by a procedure: its adjective and noun."""
FLUIDS = tuple(frozenset(t.norm for t in tokenize(entry.replace(":", " ")))
               for entry in sorted(word_list("specimen_fluids")))
"""Each body fluid: the words that name it in an answer (its adjective, noun and the procedures that draw it)."""
FLUID_GENERIC = frozenset(t.norm for w in word_list("specimen_fluid_generic") for t in tokenize(w))
OTHER_SPECIMENS = frozenset(t.norm for n in ("specimen_blood", "specimen_urine") for w in word_list(n)
                            for t in tokenize(w))
ENTRY_BREAK_RE = re.compile(r"\n[ \t]*(?:\n|(?=[-*+\u2022\u2013#|]|\d{1,2}[.)]\s)|(?=\S))")
"""Where a list entry ends: a blank line, or a line that starts a new entry, a heading, a table row or unindented
text (an indented line without a bullet goes on with the entry above it)."""


def fluid_tests(phrases: list[tuple[str, ...]]) -> tuple[frozenset[str], tuple[tuple[str, ...], ...]] | None:
    """A test of a body fluid ("Ascitic fluid neutrophil count", aliases "ascitic PMN count"): the fluid's words
    (``specimen_fluids``) and the test's own words in each name that names the fluid ("neutrophil count",
    "PMN count"); none for an item that names no fluid, or names the procedure that draws it ("Diagnostic knee
    aspiration with synovial fluid culture": the procedure is the item)."""
    at = next((n for n, f in enumerate(FLUID_NAMES) if phrases and f.intersection(phrases[0])), None)
    if at is None:
        return None
    names, fluid = FLUID_NAMES[at], FLUIDS[at]
    drawn = fluid - names  # the procedures: an item or a name that holds one is the procedure ("knee aspirate")
    if drawn.intersection(phrases[0]) or procedure_nouns(phrases[0]):
        return None
    tests = tuple(dict.fromkeys(rest for words in phrases if names.intersection(words) and not drawn.intersection(words)
                                and (rest := tuple(w for w in words if w not in fluid and w not in FLUID_GENERIC))))
    return (fluid, tests) if tests else None


def _fluid_scope(doc: Document, k: int) -> range:
    """The tokens of the sentence, line or list entry of token ``k``: a list entry runs on over its indented lines,
    a sentence over prose wrapped at a width."""
    at = doc.tokens[k].start
    text = doc.text
    start = text.rfind("\n", 0, at) + 1
    while start > 0 and BULLET_ENTRY_RE.match(text, start) is None and text[start:start + 1] in " \t":
        previous = text.rfind("\n", 0, start - 1) + 1
        if not text[previous:start].strip():
            break
        start = previous  # an indented line goes on with the entry above it
    end = ENTRY_BREAK_RE.search(text, at)
    return doc.tokens_within(start - 1, len(text) if end is None else end.start())


BULLET_ENTRY_RE = re.compile(r"[ \t]*(?:[-*+\u2022\u2013]|\d{1,2}[.)])\s")


def _specimen_of(doc: Document, scope: range, first: int, last: int, fluid: frozenset[str]) -> bool:
    """The nearest specimen word to a test in its scope is the fluid's: before the test, or after it when none is
    before ("Gram stain of the ascitic fluid"); a blood or urine word or another fluid's is another sample's."""
    others = OTHER_SPECIMENS.union(*(f for f in FLUIDS if f is not fluid)) - fluid
    for k in [*range(first - 1, scope.start - 1, -1), *range(last + 1, scope.stop)]:
        norm = doc.tokens[k].norm
        if norm in fluid:
            return True
        if norm in others:
            return False
    return False


def fluid_tests_reported(doc: Document, fluid: frozenset[str], tests: tuple[tuple[str, ...], ...]) -> list[Hit]:
    """Where the answer reports a test of a body fluid in the fluid's own context: the test's words in a sentence,
    line or list entry that names the fluid once, by its adjective or by the procedure that drew it ("Diagnostic
    paracentesis done at the bedside: neutrophil count 620/mm3; ... glucose, LDH, Gram stain"; "Therapeutic
    paracentesis ... Send fluid for cell count and culture"), with no nearer blood or urine word ("blood cultures
    x2", "serum glucose"), and not given as a treatment ("8 g albumin per litre drained"). The hit is the test's
    words."""
    out: list[Hit] = []
    keys = [k for k, t in enumerate(doc.tokens) if t.norm not in FILLER]
    norms = [doc.tokens[k].norm for k in keys]
    for words in tests:
        for s in range(len(norms) - len(words) + 1):
            if tuple(norms[s : s + len(words)]) != words:
                continue
            first, last = keys[s], keys[s + len(words) - 1]
            if doc.sentence_break_within(first, last):
                continue
            if _specimen_of(doc, _fluid_scope(doc, first), first, last, fluid) and not treatments_analyte(
                    doc, first, last):  # "8 g albumin per litre removed" gives albumin
                out.append(Hit(first, last))
    return sorted(set(out))


COUNSELLING_WORDS = frozenset(t.norm for w in word_list("counselling_words") for t in key_tokens(tokenize(w)))
COUNSEL_DECLINED = cue_list("counselling_declined")
COUNSEL_SECTIONS = frozenset({"treatment", "advice"})
"""Sections whose short labels are the plan's: a label elsewhere ("Smoking: 20 a day" in a history) is no advice."""


def counselled_topic(words: tuple[str, ...]) -> tuple[str, ...] | None:
    """What an advice item advises on, in normalised words ("Contraception and pregnancy counselling":
    contraception, pregnancy); none for an item that names no word of advice or nothing besides it."""
    if COUNSELLING_WORDS.isdisjoint(words):
        return None
    topic = tuple(w for w in words if w not in COUNSELLING_WORDS and w not in FILLER)
    return topic or None


def _topic_label(label: str, topic: tuple[str, ...]) -> bool:
    """A label that is the topic's own ("Contraception", "Contraception and pregnancy"): it opens with the topic's
    first word and has no word but the topic's and words of advice."""
    words = [t.norm for t in key_tokens(tokenize(label))]
    return (bool(words) and len(words) <= HEADING_MAX_WORDS and words[0] == topic[0]
            and set(words) <= set(topic) | COUNSELLING_WORDS)


def counselled_under_label(doc: Document, topic: tuple[str, ...]) -> list[Hit]:
    """Advice given under the topic's own label: a plan line "Contraception: COCP fine with LEV; folic acid 5 mg"
    (a label of a plan section, something said after it that is not a decline, "not discussed"), or a heading
    "## Contraception and pregnancy" with lines under it. The hit is the label or the heading (what is said after
    it is read as its own items)."""
    out: list[Hit] = []
    sections = parse(doc.text).sections
    for match in HEADED_LINE_RE.finditer(doc.text):
        if not _topic_label(match.group(1), topic):
            continue
        here = next((s for s in reversed(sections) if s.start <= match.start(1)), None)
        if here is None or here.kind not in COUNSEL_SECTIONS:
            continue
        end = doc.text.find("\n", match.end())
        tokens = doc.tokens_within(match.start(1) - 1, len(doc.text) if end < 0 else end)
        said = [k for k in tokens if doc.tokens[k].start >= match.end()]
        label = [k for k in tokens if doc.tokens[k].start < match.end()]
        if (label and said and not any(NOT_DONE.starting_at(doc.lows, k) for k in said)
                and COUNSEL_DECLINED.starting_at(doc.lows, said[0]) is None
                and negation(doc, label[0], said[-1], inside=True) is None):  # "Contraception: none needed"
            out.append(Hit(label[0], label[-1]))
    for section in sections:
        if (not section.heading or not _topic_label(section.heading, topic)
                or not doc.text[section.start:section.end].strip()):
            continue
        line_start = doc.text.rfind("\n", 0, max(section.start - 1, 0)) + 1
        heading = doc.tokens_within(line_start, section.start)
        under = doc.tokens_within(section.start, section.end)
        if (heading and under and not any(NOT_DONE.starting_at(doc.lows, k) for k in under[:3])
                and COUNSEL_DECLINED.starting_at(doc.lows, under[0]) is None):
            out.append(Hit(heading[0], heading[-1]))
    return out


TELLING = frozenset(t.norm for w in word_list("telling_words") for t in key_tokens(tokenize(w)))
TELLING_SKIP = frozenset(t.norm for w in word_list("telling_skip") for t in key_tokens(tokenize(w)))
TOLD_MIN_WORDS = 2
"""The fewest words of what an item tells for a heading's point to be it ("not epilepsy"; never a bare "mum")."""


def told_parts(words: tuple[str, ...]) -> tuple[str, ...] | None:
    """What an item opening with a word of telling tells ("Explain it is not epilepsy": not, epilepsy), if it
    names enough of it to be found on its own."""
    told = tuple(w for w in words[1:] if w not in FILLER and w not in TELLING_SKIP)
    return told if words and words[0] in TELLING and len(told) >= TOLD_MIN_WORDS else None


def told_under_heading(doc: Document, told: tuple[str, ...]) -> list[Hit]:
    """Points listed under a heading of telling ("Explained to mum: common, not epilepsy, no brain damage"): the
    heading's verb is every point's, so a point that says what an item tells is that item, from the heading to the
    point."""
    out: list[Hit] = []
    for first, keys, norms in _telling_lines(doc):
        for s in range(len(norms) - len(told) + 1):
            if tuple(norms[s : s + len(told)]) == told and doc.clause[keys[s]] == doc.clause[keys[s + len(told) - 1]]:
                out.append(Hit(first, keys[s + len(told) - 1]))
    return out


def _telling_lines(doc: Document) -> list[tuple[int, list[int], list[str]]]:
    """Each line of the document headed by a word of telling: the heading's first token, and the tokens after
    the heading that a point's words are (their indexes and words); read once per document."""
    known = doc.found.get(TOLD)
    if known is not None:
        return known
    known = doc.found[TOLD] = []
    for match in HEADED_LINE_RE.finditer(doc.text):
        heading = [t.norm for t in key_tokens(tokenize(match.group(1)))]
        if not heading or len(heading) > HEADING_MAX_WORDS or heading[0] not in TELLING:
            continue
        end = doc.text.find("\n", match.end())
        line = doc.tokens_within(match.end() - 1, len(doc.text) if end < 0 else end)
        keys = [k for k in line if doc.tokens[k].norm not in FILLER and doc.tokens[k].norm not in TELLING_SKIP]
        known.append((doc.tokens_within(match.start(1) - 1, match.end())[0], keys, [doc.tokens[k].norm for k in keys]))
    return known


REVIEW_WORDS = cue_list("follow_up_review_words")
"""Matched on normalised words ("follow up", "reviewed")."""
REVIEW_GAP = word_list("follow_up_gap")
WITHIN = word_list("follow_up_within")
NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}
DAYS_PER_UNIT: dict[str, tuple[float, float]] = {
    "hour": (1 / 24, 1 / 24), "hr": (1 / 24, 1 / 24), "h": (1 / 24, 1 / 24),
    "day": (1, 1), "d": (1, 1), "week": (7, 7), "wk": (7, 7), "fortnight": (14, 14),
    "month": (28, 31), "mo": (28, 31),
}
SHORTHAND_DAYS: dict[str, tuple[float, float]] = {"7": (1, 1), "52": (7, 7), "12": (28, 31)}
"""2/7 = two days, 1/52 = one week, 3/12 = three months."""
RANGE_LINKS = frozenset({"to", "or"})
NUMBER_RE = re.compile(r"^\d{1,3}$")
NUMBER_UNIT_RE = re.compile(r"^(\d{1,3})(h|hr|hrs|d|wk|wks)$")
UNIT_ABBREVIATIONS = {"hrs": "hr", "wks": "wk"}
SLACK = 1e-9

Interval = tuple[float, float]


def _clause_end(doc: Document, i: int, reach: int) -> int:
    """The last token within ``reach`` after ``i`` in its clause and before a comma."""
    last = i
    for k in range(i + 1, min(len(doc.tokens), i + 1 + reach)):
        if doc.clause[k] != doc.clause[i] or doc.comma_before[k]:
            break
        last = k
    return last


def _after(doc: Document, i: int, reach: int) -> range:
    """Token indexes after ``i`` in the same clause, at most ``reach`` of them outside brackets: a bracket is an
    aside ("go straight back to eye casualty (or A&E out of hours) if the pain gets worse": the "if" is the
    return's), its words counted in the range but not against the reach."""
    k = i + 1
    while k < len(doc.tokens) and doc.tokens[k].start == doc.tokens[i].start:
        k += 1  # the other tokens of one expanded abbreviation
    end, counted, depth = k, 0, 0
    while end < len(doc.tokens) and doc.clause[end] == doc.clause[i]:
        gap = doc.text[doc.tokens[end - 1].end : doc.tokens[end].start]
        depth = max(0, depth + gap.count("(") - gap.count(")"))
        if not depth:
            if counted >= reach:
                break
            counted += 1
        end += 1
    return range(k, end)


def _has_emergency_department(doc: Document, span: range) -> int | None:
    norms = [doc.tokens[k].norm for k in span]
    for j in range(len(norms)):
        place = GO_PLACES.starting_at(norms, j)
        if place is not None:
            return span[j + len(place) - 1]
    return None


def _safety_net_at(doc: Document, i: int) -> Hit | None:
    """The safety-net expression that starts with the verb at token ``i``, if any."""
    low = doc.lows
    short = _short_term(doc, i)
    if short is not None:
        return Hit(i, short)
    if low[i] not in OPENING_WORDS:
        return None
    term = SAFETY_NET_TERMS.starting_at(low, i)
    if term is not None:
        return Hit(i, i + len(term) - 1)
    whom = CALL_WHOM.starting_at(low, i)
    if whom is not None:
        return _number_on_condition(doc, i, i + len(whom) - 1)
    headed: int | None = None
    for verbs, test in ((RETURN_VERBS, _return_trigger), (SEEK_VERBS, _seek_trigger),
                        (CALL_VERBS, _call_trigger), (GO_VERBS, _go_trigger)):
        verb = verbs.starting_at(low, i)
        if verb is None:
            continue
        last_verb = i + len(verb) - 1
        found = test(doc, i, last_verb)
        if found is None:
            headed = last_verb if headed is None else headed
            continue
        first, trigger = found
        return Hit(first, max(trigger, _clause_end(doc, last_verb, SAFETY_NET_SPAN)))
    heading = safety_net_heading(doc, i) if headed is not None else None
    if heading is not None and headed is not None:
        found = _conditional_before(doc, i, headed) or _conditional_after(doc, headed)
        if found is not None:  # "## Safety-netting / Go back to the eye clinic if the pain gets worse"
            return Hit(found[0], max(found[1], _clause_end(doc, headed, SAFETY_NET_SPAN)))
    return None


def _conditional_after(doc: Document, last: int) -> tuple[int, int] | None:
    """A condition later in the clause of a verb of coming back, seeking, calling or going ("go back to the eye
    clinic straight away if the pain gets worse"): the verb and its condition word."""
    found = next((k for k in _after(doc, last, len(doc.tokens)) if doc.lows[k] in CONDITIONALS), None)
    return None if found is None else (last, found)


def safety_net_heading(doc: Document, k: int) -> str | None:
    """The heading of safety-netting ("Safety-netting", "Red flags", "When to seek help": ``safety_net_headings``)
    of the section token ``k`` stands in, if it is one: there a verb of coming back or going on a condition is the
    safety net, to whatever place ("go straight back to eye casualty if the vision drops further")."""
    heading = parse(doc.text).section_at(doc.tokens[k].start).heading
    return heading if heading is not None and heading_key(heading) in SAFETY_NET_HEADINGS else None


def said_under_heading(doc: Document, hit: Hit) -> str:
    """The words of a safety net as one line, led by its section's heading of safety-netting when its words alone
    are none ("Red flags: go to the eye clinic if the pain gets worse"): read again alone, it is still one."""
    said = doc.said(hit)
    heading = safety_net_heading(doc, hit.first)
    if heading is None or safety_nets(Document(said)):
        return said
    return f"{heading}: {said}"


def _short_term(doc: Document, i: int) -> int | None:
    """The last token of a safety-net term written as an abbreviation that starts at token ``i`` ("SN"), if any."""
    token = doc.tokens[i]
    tokens = doc.tokens
    if i + 1 >= len(tokens) or tokens[i + 1].start != token.start or (i and tokens[i - 1].start == token.start):
        return None  # not the first of an abbreviation's written-out words
    norms = [t.norm for t in doc.tokens[i : i + 4] if t.start == token.start]
    term = SAFETY_NET_SHORT.starting_at(norms, 0)
    return None if term is None else i + len(term) - 1


def _number_on_condition(doc: Document, first: int, last: int) -> Hit | None:
    """An emergency number or service with its condition right after it and no verb ("999 if collapse or
    bleeding"): a terse safety net, to the end of its clause."""
    after = _after(doc, last, 1)
    if not after or doc.lows[after[0]] not in CONDITIONALS:
        return None
    return Hit(first, _clause_end(doc, after[0], SAFETY_NET_SPAN))


def _return_trigger(doc: Document, first: int, last: int) -> tuple[int, int] | None:
    after = _after(doc, last, SAFETY_NET_REACH)
    if any(doc.lows[k] in RETURN_ELSEWHERE for k in after[:2]) or (after and doc.lows[after[0]] == "of"):
        return None  # "return to work", "return of vision"
    for k in after:
        if doc.lows[k] in RETURN_WHEN:
            return first, k
    urged = first > 0 and doc.clause[first - 1] == doc.clause[first] and doc.lows[first - 1] in RETURN_WHEN
    later = _conditional_after(doc, last) if urged else None  # "go straight back to the eye unit at the
    if later is not None:  # hospital if the pain gets worse": its condition may stand further on in its clause
        return first - 1, later[1]
    return _conditional_before(doc, first, last)


def _seek_trigger(doc: Document, first: int, last: int) -> tuple[int, int] | None:
    found = next((k for k in _after(doc, last, SAFETY_NET_REACH) if doc.lows[k] in SEEK_WHAT), None)
    return None if found is None else (first, found)


def _call_trigger(doc: Document, first: int, last: int) -> tuple[int, int] | None:
    after = _after(doc, last, SAFETY_NET_REACH)
    whom = doc.lows[: after.stop]
    for k in after:
        found = CALL_WHOM.starting_at(whom, k)
        if found is not None:
            return first, k + len(found) - 1
    return _conditional_before(doc, first, last)


def _conditional_before(doc: Document, first: int, last: int) -> tuple[int, int] | None:
    """An "if" earlier in the clause makes a return or a call a safety net ("if worse, come back";
    "if he moves less, ring maternity triage"): the whole clause."""
    k = first - 1
    while k >= 0 and doc.clause[k] == doc.clause[first]:
        if doc.lows[k] in CONDITIONALS:
            return k, last
        k -= 1
    return None


def _go_trigger(doc: Document, first: int, last: int) -> tuple[int, int] | None:
    after = _after(doc, last, SAFETY_NET_REACH)
    department = _has_emergency_department(doc, after)
    if department is not None:
        return first, department
    hospital = next((k for k in after if doc.lows[k] in GO_HOSPITAL), None)
    urgent = next((k for k in after if doc.lows[k] in URGENCY), None)
    if hospital is not None and urgent is not None:
        return first, max(hospital, urgent)
    return None


def safety_nets(doc: Document) -> list[Hit]:
    """Every safety-net expression of the document (see the module documentation);
    remembered on the document."""
    known = doc.found.get(SAFETY_NET)
    if known is not None:
        return known
    hits: list[Hit] = []
    i = 0
    while i < len(doc.tokens):
        hit = _safety_net_at(doc, i)
        if hit is not None and not (hits and hit.first <= hits[-1].last):
            hits.append(hit)
            i = hit.last + 1
            continue
        i += 1
    doc.found[SAFETY_NET] = hits
    return hits


def _number(doc: Document, k: int) -> float | None:
    word = doc.lows[k]
    if NUMBER_RE.match(word):
        return float(word)
    return NUMBER_WORDS.get(word)


def _unit(doc: Document, k: int) -> tuple[float, float] | None:
    norm = doc.tokens[k].norm
    return DAYS_PER_UNIT.get(UNIT_ABBREVIATIONS.get(norm, norm))


def interval_at(doc: Document, k: int) -> tuple[Interval, int] | None:
    """An interval that starts at token ``k`` (in days) and its last token."""
    n = len(doc.tokens)
    joined = NUMBER_UNIT_RE.match(doc.lows[k])
    if joined:
        unit = DAYS_PER_UNIT[UNIT_ABBREVIATIONS.get(joined.group(2), joined.group(2))]
        value = float(joined.group(1))
        return (value * unit[0], value * unit[1]), k
    low = _number(doc, k)
    if low is None:
        if doc.lows[k] == "fortnight":
            return (14.0, 14.0), k
        return None
    j = k + 1
    if j < n and doc.text[doc.tokens[k].end : doc.tokens[j].start] == "/" and doc.lows[j] in SHORTHAND_DAYS:
        unit = SHORTHAND_DAYS[doc.lows[j]]
        return (low * unit[0], low * unit[1]), j
    high: float | None = low
    if j < n and _number(doc, j) is not None and doc.lows[k] not in ("a", "an"):
        high, j = _number(doc, j), j + 1  # "1-2 weeks"
    elif j + 1 < n and doc.lows[j] in RANGE_LINKS and _number(doc, j + 1) is not None:
        high, j = _number(doc, j + 1), j + 2  # "1 to 2 weeks"
    if j >= n or doc.clause[j] != doc.clause[k]:
        return None
    per = _unit(doc, j)
    if per is None or high is None:
        return None
    return (low * per[0], high * per[1]), j


def follow_ups(doc: Document) -> list[tuple[Hit, Interval, bool]]:
    """Every timed follow-up review of the document, with its interval in days as
    written and whether it said "within" (see the module documentation); remembered
    on the document."""
    known = doc.found.get(FOLLOW_UP)
    if known is not None:
        return known
    out: list[tuple[Hit, Interval, bool]] = []
    tokens = doc.tokens
    norms = [t.norm for t in tokens]
    i = 0
    while i < len(tokens):
        if REVIEW_WORDS.starting_at(norms, i) is None:
            i += 1
            continue
        within = False
        k = i + 1
        while k < len(tokens) and doc.clause[k] == doc.clause[i] and tokens[k].norm in REVIEW_GAP:
            within = within or doc.lows[k] in WITHIN
            k += 1
        found = interval_at(doc, k) if k < len(tokens) and doc.clause[k] == doc.clause[i] else None
        if found is None:
            i += 1
            continue
        interval, last = found
        out.append((Hit(i, last), interval, within))
        i = last + 1
    doc.found[FOLLOW_UP] = out
    return out


def inside(given: Interval, allowed: Interval) -> bool:
    """The interval a doctor gave lies within the one the reference allows."""
    return allowed[0] - SLACK <= given[0] and given[1] <= allowed[1] + SLACK


DISCHARGE_WORDS = word_list("discharge_words")
NOT_A_DISPOSITION = word_list("discharge_body_fluid")
"""Words before "discharge" that make it a body fluid ("vaginal discharge"), not a disposition."""
PLAN_LINKS = word_list("discharge_plan_links")
"""The words of a "discharge with X" item that are not the treatment X."""


HOME = ("home",)
"""An alias that is only "home" ("home with", "home" and filler): a disposition, read by :func:`sends_home`."""
SENDING_WORDS = word_list("home_sending_words")


SEQUENCE_WORDS = word_list("sequence_openers")
"""A word of sequence opening its piece before "home" sends home as a word of sending does ("..., then home")."""
DISCHARGE_FROM_HERE = word_list("discharge_from_here")
DISCHARGE_HERE_RE = re.compile(r"(discharge(?:d)?(?: home)?|send home) from (.+)")
HOME_AS_PLACE = word_list("home_as_place")
"""Words after "home" that make it a place or a setting of care ("home oxygen"), not a disposition."""
LATER = word_list("home_later")
"""Words after "home" that put the discharge after something else ("home once feeding well")."""
LATER_STOPS = word_list("home_later_stops")
"""Words after "home" that start another action, whose own condition a later word then is."""


def sends_home(doc: Document, k: int) -> bool:
    """Token ``k`` ("home") sends the patient home now: it opens its clause or list entry ("Home
    with saline drops") or follows a word of sending ("can go home"), and no later event
    follows it in the clause ("home once feeding well"); not a home as a place ("a smoke-free
    home", "home oxygen")."""
    end = k + 1
    while end < len(doc.tokens) and doc.clause[end] == doc.clause[k]:
        end += 1
    rest = doc.lows[k + 1 : end]  # the rest of its clause
    if (rest and rest[0] in HOME_AS_PLACE) or _later(rest) or _a_label(doc, k):
        return False
    before = k - 1
    return (before < 0 or doc.clause[before] != doc.clause[k] or doc.comma_before[k]
            or doc.lows[before] in SENDING_WORDS or (doc.lows[before] in SEQUENCE_WORDS and _opens_piece(doc, before)))


def _a_label(doc: Document, k: int) -> bool:
    """Token ``k`` is a label of what follows ("Home: lives alone"): its colon right after it."""
    return doc.text[doc.tokens[k].end :].lstrip(EMPHASIS).startswith(":")


def _opens_piece(doc: Document, k: int) -> bool:
    return k == 0 or doc.clause[k - 1] != doc.clause[k] or doc.comma_before[k]


def discharge_now(name: str) -> tuple[str, ...]:
    """A harmful discharge from the place the patient is assessed in ("Discharge home from triage",
    "Discharge home from the ED"; ``discharge_from_here``) said as a discharge now, without the place:
    "discharge home", and a "home" that sends home (:func:`sends_home`)."""
    said = DISCHARGE_HERE_RE.fullmatch(" ".join(name.lower().split()))
    if said is None or said.group(2) not in DISCHARGE_FROM_HERE:
        return ()
    return ("discharge home", "home")


def sends_home_later(doc: Document, hit: Hit) -> bool:
    """The words at ``hit`` send the patient home ("go home", "discharge home", "send him home": as
    written, a word of sending first and "home" last) and a later word follows them in their clause
    ("may go home once feeding well", "discharge home after review"), or they open with a word of sending
    after a lead-in that puts them later (``_led_in_later``): a later, conditional discharge
    (after an assessment or a milestone), not a discharge now."""
    first, last = doc.lows[hit.first].split(), doc.lows[hit.last].split()
    if not first or not last:
        return False
    if (first[0] in SENDING_WORDS or (first[0],) == HOME) and _led_in_later(doc, hit.first):
        return True  # "after drainage, discharge home on oral penicillin", "once swallowing, home on ..."
    if first[0] not in SENDING_WORDS or (last[-1],) != HOME:
        return False
    end = hit.last + 1
    while end < len(doc.tokens) and doc.clause[end] == doc.clause[hit.last]:
        end += 1
    return _later(doc.lows[hit.last + 1 : end])


QUALIFIED_DISCHARGE = "a discharge its harmful item qualifies"
MILESTONE_DISCHARGE = "a discharge once the treatment's own milestone is reached"
DISCHARGE_SKIPS = word_list("discharge_item_skips")
"""Words of a harmful discharge item before what the discharge goes without ("Discharge before psychosocial
assessment", "Discharge without ultrasound")."""
DISCHARGE_AS = word_list("discharge_item_as")
"""Words of a harmful discharge item before the wrong reading it discharges on ("Discharge home as gastroenteritis")."""
DISCHARGE_SKIPPED_GENERIC = word_list("discharge_skipped_generic")
"""Words of what a discharge skips that name no particular check ("clearance", "assessment"): the answer
need not say them to wait for it ("once psychiatry have seen her")."""
DISCHARGE_AS_TIME = word_list("discharge_as_time")
"""Words right before a discharge that make it the time of another action ("assessment before discharge")."""
DISCHARGE_NOT_SENT = word_list("discharge_not_sent")
DISCHARGE_WISHED = word_list("discharge_wished")
"""Words before a discharge that make it the patient's wish, not the plan ("wants to go home", "self-discharge")."""
DISCHARGE_GRAMMAR = frozenset({"she", "he", "they", "the", "patient", "to", "can", "may", "be", "is", "will", "goes",
                               "go", "her", "him", "them"})
"""Grammar words between a discharge's word and what leads it ("before she goes home", "wants to go home")."""
DISCHARGE_LEAD = 4
"""How far back over those words the lead of a discharge is looked for."""
"""Words right after "discharge" that make it a document or a plan, no sending home ("discharge summary")."""
SKIPPED_PREFIX = 5
"""Letters of a word that name it in an answer ("psych" for "psychiatric" and "psychosocial")."""
SKIPPED_SHORTEST = 3
"""Shorter words of another name are no name of their own (the "N" of "N-acetylcysteine")."""


@batch_cache(maxsize=4096)
def qualified_discharge(name: str) -> tuple[str, ...] | None:
    """A harmful item that is a discharge with a qualifier (a named rule, not an alias): None when ``name``
    is none; ``()`` for a discharge on a wrong reading ("Discharge home as a viral infection"), which a
    discharge now does; else the words of what the discharge goes without ("Discharge before medical and
    psychiatric clearance": medical, psychiatric), which any discharge that does not wait for them does."""
    words = [t.low for t in tokenize(name)]
    at = next((i for i, w in enumerate(words) if w in DISCHARGE_SKIPS | DISCHARGE_AS), 0)
    head = words[:at]
    if not head or head[0] not in DISCHARGE_WORDS | SENDING_WORDS \
            or not set(head) <= DISCHARGE_WORDS | SENDING_WORDS | set(HOME):
        return None
    if words[at] in DISCHARGE_AS:
        return ()
    skipped = tuple(w for w in words[at + 1 :] if w.isalpha() and len(w) >= SKIPPED_SHORTEST and w not in FILLER
                    and w not in DISCHARGE_SKIPPED_GENERIC)
    return skipped or None


def skipped_keys(names: tuple[tuple[str, ...], ...]) -> tuple[frozenset[str], ...]:
    """What an answer may write for each word of what a discharge goes without, given the word and its other
    names' words (a drug's: "NAC" for acetylcysteine): their first letters."""
    return tuple(frozenset(w[:SKIPPED_PREFIX] for w in words if len(w) >= SKIPPED_SHORTEST) for words in names)


def qualified_discharges(doc: Document, skipped: tuple[frozenset[str], ...]) -> list[int]:
    """The tokens where the document sends the patient home as a harmful qualified discharge does
    (:func:`qualified_discharge`): a discharge now; when the item goes without something (``skipped``), any
    discharge, now or later ("medically fit for discharge once the vomiting settles"), of an answer that does not
    name all of it outside a negation (an answer that arranges it discharges after it: "psych review, then home").
    Never a discharge that is the time of another action ("assessment before she goes home"), a document
    ("discharge summary") or the patient's wish ("she wants to go home", "wish to self-discharge")."""
    if skipped and all(_named(doc, keys) for keys in skipped):
        return []
    now = set(discharges(doc))
    return [k for k, token in enumerate(doc.tokens)
            if (k in now or (skipped and _a_later_discharge(doc, k, token.norm)))
            and not _time_of_another(doc, k) and not _wished(doc, k)]


def _named(doc: Document, keys: frozenset[str]) -> bool:
    """The document names a word by one of ``keys`` (first letters) outside a negation."""
    return any((t.low[:SKIPPED_PREFIX] in keys or t.norm[:SKIPPED_PREFIX] in keys) and negation(doc, k, k) is None
               for k, t in enumerate(doc.tokens))


def sends_home_only_later(doc: Document) -> bool:
    """The document sends the patient home only after something else ("after drainage, home on oral penicillin",
    "once swallowing, home", "fit for discharge once the vomiting settles"), never now."""
    if discharges(doc):
        return False
    return any(_a_later_discharge(doc, k, token.norm) or ((token.norm,) == HOME and _led_in_later(doc, k))
               for k, token in enumerate(doc.tokens))


def _a_later_discharge(doc: Document, k: int, norm: str) -> bool:
    """Token ``k`` is a discharge put after something else ("fit for discharge after the repeat bloods",
    "can go home once he keeps feeds down")."""
    end = k + 1
    while end < len(doc.tokens) and doc.clause[end] == doc.clause[k]:
        end += 1
    before = doc.lows[k - 1] if k and doc.clause[k - 1] == doc.clause[k] else ""
    if norm in DISCHARGE_WORDS:
        return before not in NOT_A_DISPOSITION
    return (norm,) == HOME and before in SENDING_WORDS and _later(doc.lows[k + 1 : end])


def _lead(doc: Document, k: int) -> list[str]:
    """The words before a discharge at ``k`` in its clause, back over its words of sending and the grammar between
    ("before *she goes* home"), and the one before them."""
    j = k - 1
    while j >= 0 and doc.clause[j] == doc.clause[k] and k - j <= DISCHARGE_LEAD \
            and (doc.lows[j] in SENDING_WORDS or doc.lows[j] in DISCHARGE_GRAMMAR):
        j -= 1
    return [doc.lows[i] for i in range(max(j - 1, 0), k) if doc.clause[i] == doc.clause[k]]


def _time_of_another(doc: Document, k: int) -> bool:
    """Token ``k`` (a discharge) is the time of another action ("before discharge", "prior to discharge", "before
    she goes home") or a document or plan ("discharge summary")."""
    after = doc.lows[k + 1] if k + 1 < len(doc.tokens) and doc.clause[k + 1] == doc.clause[k] else ""
    return bool(DISCHARGE_AS_TIME.intersection(_lead(doc, k))) or after in DISCHARGE_NOT_SENT


def _wished(doc: Document, k: int) -> bool:
    """Token ``k`` (a discharge) is what the patient wants, not the plan ("she wants to go home")."""
    return bool(DISCHARGE_WISHED.intersection(_lead(doc, k)))


MILESTONE_SHORTEST = 4
"""A milestone word shorter than this ("in", "ED") names no step of the treatment."""


def discharge_milestone(name: str) -> frozenset[str] | None:
    """A harmful item that sends home after a milestone of the treatment itself ("Discharge home once rewarmed in
    ED"): the stems of the milestone's words (rewarm), or None for an item of another kind."""
    words = [t.low for t in tokenize(name)]
    at = next((i for i, w in enumerate(words) if w in LATER), 0)
    head = words[:at]
    if not head or head[0] not in DISCHARGE_WORDS | SENDING_WORDS \
            or not set(head) <= DISCHARGE_WORDS | SENDING_WORDS | set(HOME):
        return None
    stems = frozenset(stem(w) for w in words[at + 1 :]
                      if w.isalpha() and len(w) >= MILESTONE_SHORTEST and w not in FILLER)
    return stems or None


def discharges_after(doc: Document, stems: frozenset[str]) -> list[Hit]:
    """Where the document sends home once a milestone is reached that a word of ``stems`` names ("home once
    rewarmed", "discharge once warm": a stem within the other), from the discharge to the milestone; not the time
    of another action nor the patient's wish."""
    out: list[Hit] = []
    for k, token in enumerate(doc.tokens):
        home = (token.norm,) == HOME and (_opens_piece(doc, k) or (k > 0 and doc.lows[k - 1] in SENDING_WORDS))
        if not (token.norm in DISCHARGE_WORDS or home) or _time_of_another(doc, k) or _wished(doc, k):
            continue
        end = k + 1
        while end < len(doc.tokens) and doc.clause[end] == doc.clause[k]:
            end += 1
        rest = doc.lows[k + 1 : end]
        at = next((i for i, w in enumerate(rest) if w in LATER), None)
        reached = [j for j, w in enumerate(rest) if at is not None and j > at and _names_milestone(stem(w), stems)]
        if reached:
            out.append(Hit(k, k + 1 + reached[0]))
    return out


def _names_milestone(word: str, stems: frozenset[str]) -> bool:
    """A word's stem is one of the milestone's or within it, or the other way round ("warm", "rewarm")."""
    return len(word) >= MILESTONE_SHORTEST and any(word in st or st in word for st in stems)


def later_discharge_item(name: str) -> bool:
    """A reference item that itself sends home after something else ("Discharge home after a period of
    observation"): a later discharge meets it."""
    return bool(LATER.intersection(t.low for t in tokenize(name)))


def _later(rest: list[str]) -> bool:
    """The words after a discharge in its clause put it after something else ("home once feeding
    well"); a later word after another action is that action's ("home with GP review if not settling")."""
    own = next((rest[:i] for i, word in enumerate(rest) if word in LATER_STOPS), rest)
    return bool(LATER.intersection(own))


def plan_parts(words: tuple[str, ...]) -> tuple[str, ...] | None:
    """The treatment words of a reference phrase that sends the patient home with a
    treatment ("proton pump inhibitor and discharge" -> proton pump inhibitor)."""
    if not DISCHARGE_WORDS & set(words):
        return None
    rest = tuple(w for w in words if w not in PLAN_LINKS)
    return rest or None


def discharges(doc: Document) -> list[int]:
    """The tokens where the document sends the patient home: a discharge (a disposition, not a body
    fluid) or a "home" that sends home now ("home today with oral clindamycin", "send home")."""
    out: list[int] = []
    for k, token in enumerate(doc.tokens):
        if (token.norm,) == HOME:
            if sends_home(doc, k) and not (out and out[-1] == k - 1) and not _led_in_later(doc, k):
                out.append(k)
            continue
        if token.norm not in DISCHARGE_WORDS:
            continue
        before = doc.lows[k - 1] if k and doc.clause[k - 1] == doc.clause[k] else ""
        end = k + 1
        while end < len(doc.tokens) and doc.clause[end] == doc.clause[k]:
            end += 1
        if before not in NOT_A_DISPOSITION and not _later(doc.lows[k + 1 : end]) and not _led_in_later(doc, k):
            out.append(k)
    return out


def _led_in_later(doc: Document, k: int) -> bool:
    """The clause of token ``k`` opens with a later word (not a condition's), a comma between it and ``k`` ("after
    ENT review and drainage, once swallowing fluids, discharge home"): the lead-in puts the discharge after
    something else, as "discharge home once swallowing" does."""
    start = k
    while start > 0 and doc.clause[start - 1] == doc.clause[k]:
        start -= 1
    return (start < k and doc.lows[start] in LATER and doc.lows[start] not in CONDITION_LEADS
            and any(doc.comma_before[j] for j in range(start + 1, k + 1)))


CONDITION_LEADS = word_list("condition_triggers")
"""A lead-in condition ("if stable, discharge home") is the condition's to read (``assertion.py``), not a later
discharge."""


WITHHOLD_WORDS = word_list("withhold_words")
WITHHOLD_LEADS = word_list("withhold_leads")
STOPPED = word_list("withhold_stopped")
DECLINED_AFTER = cue_list("withhold_declined_after")
"""A treatment's name followed by these ("acetylcysteine is not required") is declined: withheld."""
"""A treatment's name followed by these ("sertraline should be stopped today") withholds it."""
STOPPED_REACH = 3
WITHHOLD_MODIFIERS = word_list("withhold_modifiers")
"""Words of an item that say which supply is stopped ("Stop regular ibuprofen"), not what: the
answer may say it otherwise ("stop his daily ibuprofen")."""
WITHHOLD_END = word_list("withhold_end")
GIVE_VERBS = word_list("withhold_give_verbs")
"""The verb after a withholding lead names no treatment ("do not prescribe testosterone")."""
WITHHOLD_CUES = cue_list("withhold_cues")
WITHHOLD_NEXT = cue_list("withhold_next")
WITHHOLD_REACH = 4
"""How many words (small words aside) before the treatment's name a withholding instruction may stand ("don't take
any painkillers", "stop the SSRI and the thiazide")."""


def withhold_parts(words: tuple[str, ...]) -> tuple[str, ...] | None:
    """The treatment words of a reference phrase about withholding it ("withholding
    analgesia until surgical assessment" -> analgesia)."""
    at = next((k for k, w in enumerate(words) if w in WITHHOLD_WORDS), None)
    if at is not None and not set(words[:at]) <= WITHHOLD_LEADS:
        return None  # "follow-up BP check after stopping doxazosin" is a check, not a stop
    if at is None:  # "Do not prescribe testosterone", "No NSAIDs", "Avoid codeine"
        lead = WITHHOLD_CUES.starting_at(list(words), 1 if words[:1] == ("do",) else 0)
        if lead is None:
            return None
        at = (1 if words[:1] == ("do",) else 0) + len(lead) - 1
        if at + 1 < len(words) and words[at + 1] in GIVE_VERBS:
            at += 1
    part = []
    for word in words[at + 1 :]:
        if word in WITHHOLD_END:
            break
        if word not in WITHHOLD_MODIFIERS:
            part.append(word)
    return tuple(part) or None


WAIT_ENDS = word_list("withhold_wait_ends")


def waits_for_something(words: tuple[str, ...]) -> bool:
    """The withholding item holds its treatment back until something ("Withhold hydrocortisone until cortisol
    results"): an answer that makes the treatment wait for a result still to come is that withholding."""
    return bool(WAIT_ENDS.intersection(words))


CONTINUATION = "more of a treatment begun"
CONTINUATION_ITEM_WORDS = word_list("continuation_item_words")
CONTINUATION_ITEM_ENDS = word_list("continuation_item_ends")
CONTINUATION_WORDS = word_list("continuation_words")
CONTINUATION_THEN = cue_list("continuation_then")
CONTINUATION_REACH = 2
"""How many words may stand between a continuing word and the treatment ("further IV fluids")."""
NEXT_DOSE_WORDS = 6
"""How long the next dose after "then" may be ("then 1 L 8-hourly"): a dose and its rate, no other action."""


RESTART_ITEM_WORDS = word_list("restart_item_words")
RESTART_WORDS = word_list("restart_words")
RESTART_ITEM_QUALIFIERS = word_list("restart_item_qualifiers")
RESUMING_WORDS = RESTART_WORDS | word_list("continue_words")
"""Words right before a drug that go back to the patient's own regimen ("restart LEV 1 g BD", "continue
levetiracetam"): never a dose given now (``actions.resumed_is_not_now``)."""


def resumed(doc: Document, hit: Hit) -> bool:
    """A restarting or continuing word stands shortly before ``hit`` in its clause ("restart levetiracetam 500 mg
    BD", "continue her levetiracetam")."""
    low, clause = doc.lows, doc.clause[hit.first]
    return any(low[k] in RESUMING_WORDS and doc.clause[k] == clause
               for k in range(max(0, hit.first - CONTINUATION_REACH - 1), hit.first))


def resumes_text(text: str) -> bool:
    """The text opens with a restarting or continuing word before its treatment ("restart levetiracetam 500 mg
    BD")."""
    words = text.lower().replace("*", " ").split()
    return any(w.strip(".,;:-") in RESUMING_WORDS for w in words[: CONTINUATION_REACH + 1])


def continuation_parts(words: tuple[str, ...], restart: bool = False) -> tuple[str, ...] | None:
    """The treatment words of a reference phrase about more of a treatment already begun ("Further IV fluids
    guided by response and sodium" -> IV fluids), or, ``restart``, about restarting one ("Restart regular
    levetiracetam"), or None."""
    if not words or words[0] not in (RESTART_ITEM_WORDS if restart else CONTINUATION_ITEM_WORDS):
        return None
    if restart:  # only a restart of one drug and nothing more ("restart apixaban after surgery" keeps its time)
        rest = " ".join(w for w in words[1:] if w not in RESTART_ITEM_QUALIFIERS)
        return (rest,) if len(read_vocabulary().lookup(rest, "drug")) == 1 else None
    part: list[str] = []
    for word in words[1:]:
        if word in CONTINUATION_ITEM_ENDS:
            break
        part.append(word)
    return tuple(part) or None


def continued(doc: Document, hit: Hit, restart: bool = False) -> Hit | None:
    """Where the answer gives more of the treatment named at ``hit``: a continuing word shortly before it in its
    clause ("further saline", "ongoing IV fluids"), or a next dose after "then" in its clause ("0.9% saline 1 L
    over 1 hour, then 1 L 8-hourly", in a unit of its dose before): the words from the one to the other, or None.
    ``restart``: where it restarts it, a restarting word shortly before it ("restart LEV 1 g BD")."""
    low, clause = doc.lows, doc.clause[hit.first]
    for k in range(max(0, hit.first - CONTINUATION_REACH - 1), hit.first):
        if low[k] in (RESTART_WORDS if restart else CONTINUATION_WORDS) and doc.clause[k] == clause:
            return Hit(k, hit.last)
    if restart:
        return restarted_after_hold(doc, hit)
    k = hit.last + 1
    while k < len(low) and doc.clause[k] == clause:
        then = CONTINUATION_THEN.starting_at(low, k)
        dose = k + len(then) if then is not None else k
        units = {low[j + 1] for j in range(hit.first, k) if low[j].isdigit()}  # the doses' units given before it
        if (then is not None and dose + 1 < len(low) and low[dose].isdigit() and low[dose + 1] in units
                and doc.clause[dose + 1] == clause):  # the same unit again: more of it ("then 2 units of blood" is not)
            end = dose
            while end + 1 < len(low) and doc.clause[end + 1] == clause and not doc.comma_before[end + 1]:
                end += 1
            return Hit(hit.first, end) if end - dose < NEXT_DOSE_WORDS else None
        k += 1
    return None


def restarted_after_hold(doc: Document, hit: Hit) -> Hit | None:
    """Where a drug held at ``hit`` is restarted later in its clause by a restart with no drug of its own ("withhold
    methotrexate while on antibiotics, then restart at 15 mg weekly", "hold lamotrigine and resume it once healed"):
    only the drug held can be restarted, so the plan goes back to it: the words from the hold to the restart, or None
    without a hold, where the restart names its drug ("hold warfarin, restart apixaban") or is denied ("never
    restart")."""
    hold = withheld(doc, hit.first)
    if hold is None:
        return None
    clause, vocabulary = doc.clause[hit.first], read_vocabulary()
    within = [k for k in range(hit.last + 1, len(doc.lows)) if doc.clause[k] == clause]
    for k in within:
        if doc.lows[k] in RESTART_WORDS and not NEGATORS & set(doc.lows[max(hit.last + 1, k - 2): k]):
            named = any(vocabulary.lookup(doc.lows[j], "drug") or vocabulary.lookup(doc.lows[j], "drug_class")
                        for j in within if j > k)
            return None if named else Hit(hold, k)
    return None


INCREASE = "a dose increase"
INCREASE_ITEM_WORDS = word_list("increase_item_words")
INCREASE_ITEM_QUALIFIERS = word_list("increase_item_qualifiers")
INCREASE_WORDS = word_list("increase_words")
INCREASE_TO_LEADS = word_list("increase_to_lead_words")
INCREASE_TO = word_list("increase_to_words")
INCREASE_ARROWS = word_list("increase_arrows")
DOSE_COUNT_WORDS = word_list("dose_count_words")
INCREASE_REACH = 6
"""How many words after the drug its raise may stand ("levetiracetam 500 mg bd -> 750 mg bd")."""
INCREASE_GRAMMAR = ("lead to number", "number arrow higher number")
"""How an answer raises a dose after the drug: an increase word, "to" and the new dose ("LTG up to 150 bd",
"increase to 150 mg bd"), or the old dose, an arrow and a higher new one ("Atorva 20 -> 80"); a number followed by
a word of a count is no dose ("up to 4 times a day")."""


def increase_parts(words: tuple[str, ...]) -> str | None:
    """The one drug of a treatment item that raises its dose ("Increase lamotrigine dose" -> lamotrigine), or None."""
    if not words or words[0] not in INCREASE_ITEM_WORDS:
        return None
    rest = " ".join(w for w in words[1:] if w not in INCREASE_ITEM_QUALIFIERS)
    return rest if rest and len(read_vocabulary().lookup(rest, "drug")) == 1 else None


def _plain_number(word: str) -> float | None:
    try:
        return float(word)
    except ValueError:
        return None


def _value_at(doc: Document, k: int) -> tuple[float, int] | None:
    """The number that starts at token ``k`` and its last token ("3.75" is two tokens), or None."""
    whole = _plain_number(doc.lows[k])
    if whole is None:
        return None
    if (k + 1 < len(doc.lows) and doc.lows[k + 1].isdigit()
            and doc.text[doc.tokens[k].end: doc.tokens[k + 1].start] == "."):
        return float(f"{doc.lows[k]}.{doc.lows[k + 1]}"), k + 1
    return whole, k


def _a_dose(doc: Document, k: int) -> bool:
    """Token ``k`` starts a number that is a dose: not followed in its clause by a word of a count ("4 times")."""
    value = _value_at(doc, k)
    if value is None:
        return False
    nxt = value[1] + 1
    return not (nxt < len(doc.lows) and doc.clause[nxt] == doc.clause[k] and doc.lows[nxt] in DOSE_COUNT_WORDS)


def increased(doc: Document, hit: Hit) -> Hit | None:
    """Where the answer raises the dose of the drug named at ``hit``: an increase word shortly before it in its
    clause ("uptitrate bisoprolol"), or after it, in its clause or the one its label opens ("bisoprolol: increase
    to 3.75 mg"), by :data:`INCREASE_GRAMMAR`; the words from the one to the other, or None."""
    low, clause = doc.lows, doc.clause[hit.first]
    for k in range(max(0, hit.first - CONTINUATION_REACH - 1), hit.first):
        if low[k] in INCREASE_WORDS and doc.clause[k] == clause:
            return Hit(k, hit.last)
    if (hit.last + 1 < len(low) and doc.clause[hit.last + 1] != clause
            and doc.text[doc.tokens[hit.last].end: doc.tokens[hit.last + 1].start].strip() == ":"):
        clause = doc.clause[hit.last + 1]  # the drug as a label: what follows is said of it
    end = min(len(low), hit.last + 1 + INCREASE_REACH)
    k = hit.last + 1
    while k < end and doc.clause[k] == clause:
        if (low[k] in INCREASE_TO_LEADS and k + 2 < len(low) and low[k + 1] in INCREASE_TO
                and doc.clause[k + 2] == clause and _a_dose(doc, k + 2)):
            return Hit(hit.first, k + 2)  # "up to 150", "increase to 150 mg"
        old = _value_at(doc, k) if _a_dose(doc, k) else None
        if old is None:
            k += 1
            continue
        for j in range(old[1] + 1, min(end + 2, len(low))):
            if doc.clause[j] != clause:
                break
            new = _value_at(doc, j)
            if new is None:
                continue
            between = doc.text[doc.tokens[j - 1].end: doc.tokens[j].start].strip()
            if between in INCREASE_ARROWS and new[0] > old[0] and _a_dose(doc, j):
                return Hit(hit.first, new[1])  # "20 -> 80", "500 mg bd -> 750 mg bd"
            break
        k = old[1] + 1
    return None


ADJUST = "a dose adjustment"
ADJUST_ITEM_WORDS = word_list("adjust_item_words")
ADJUST_ITEM_ENDS = word_list("adjust_item_ends")
ADJUST_WORDS = word_list("adjust_words") | INCREASE_WORDS


def adjust_parts(words: tuple[str, ...]) -> str | None:
    """The one drug or drug class of a treatment item that adjusts its dose ("Insulin adjustment for
    hyperglycaemia" -> insulin, "Titrate levothyroxine dose" -> levothyroxine), its indication left out; or None."""
    at = next((k for k, w in enumerate(words) if w in ADJUST_ITEM_WORDS), None)
    if at is None:
        return None
    end = next((k for k, w in enumerate(words) if k > at and w in ADJUST_ITEM_ENDS), len(words))
    rest = [w for w in (words[:at] if at else words[1:end]) if w not in INCREASE_ITEM_QUALIFIERS]
    vocabulary = read_vocabulary()
    for size in range(len(rest), 0, -1):  # the drug first, its indication after it ("titrate levothyroxine to TSH")
        drug = " ".join(rest[:size])
        if at and size < len(rest):
            break  # before the adjust word: the drug is all of it ("insulin dose adjustment")
        if len(vocabulary.lookup(drug, "drug") + vocabulary.lookup(drug, "drug_class")) == 1:
            return drug
    return None


def adjusted(doc: Document, hit: Hit) -> Hit | None:
    """Where the answer adjusts the dose of the drug named at ``hit``: an adjust word shortly before it in its
    clause ("titrate insulin to CBG", "increase glargine") or just after it ("glargine dose reduced"), or a raise
    (:func:`increased`); the words from the one to the other, or None."""
    low, clause = doc.lows, doc.clause[hit.first]
    for k in range(max(0, hit.first - CONTINUATION_REACH - 1), hit.first):
        if low[k] in ADJUST_WORDS and doc.clause[k] == clause:
            return Hit(k, hit.last)
    for k in range(hit.last + 1, min(len(low), hit.last + 1 + CONTINUATION_REACH + 1)):
        if doc.clause[k] != clause:
            break
        if low[k] in ADJUST_WORDS:
            return Hit(hit.first, k)
    return increased(doc, hit)


LEVEL_AFTER_CHANGE = "the drug's level rechecked after its dose change"


def level_after_change_parts(words: tuple[str, ...]) -> str | None:
    """The one drug of an item that rechecks its level ("Repeat lamotrigine level after the dose change" ->
    lamotrigine): a repeat word, the drug, a level word; or None."""
    if not words or words[0] not in LEVEL_REPEATS:
        return None
    at = next((k for k, w in enumerate(words) if w in LEVEL_WORDS), None)
    drug = " ".join(words[1:at]) if at is not None else ""
    return drug if drug and len(read_vocabulary().lookup(drug, "drug")) == 1 else None


def levels_rechecked_after(doc: Document, raised: list[Hit]) -> list[Hit]:
    """Where the answer rechecks a level with no analyte of its own ("recheck level 2/52") later on the line of a
    dose change of the drug (``raised``: "LTG up to 150 bd from today; recheck level 2/52"): that drug's level."""
    out = []
    norms = [t.norm for t in doc.tokens]
    for k in range(len(norms) - 1):
        if norms[k] not in LEVEL_REPEATS or norms[k + 1] not in LEVEL_WORDS:
            continue
        start = doc.tokens[k].start
        if any(r.last < k and "\n" not in doc.text[doc.tokens[r.last].end: start] for r in raised):
            out.append(Hit(k, k + 1))
    return out


EXPLAIN_WORDS = word_list("explain_words")
EXPLAIN_END = word_list("explain_end")
EXPLAIN_SKIP = word_list("explain_skip")
EXPLAIN_MARKS = word_list("explain_marks")
DECLINE_REASONS = cue_list("decline_reasons")


def explain_parts(words: tuple[str, ...]) -> tuple[str, ...] | None:
    """The treatment or test of a reference phrase about explaining why it is not needed ("Explain
    that antibiotics are not needed and why" -> antibiotics), or None."""
    if not words or words[0] not in EXPLAIN_WORDS or not EXPLAIN_MARKS & set(words):
        return None
    part: list[str] = []
    for word in words[1:]:
        if word in EXPLAIN_END:
            break
        if part or word not in EXPLAIN_SKIP:
            part.append(word)
    return tuple(part) or None


def declined_with_reason(doc: Document, hit: Hit, cue: str) -> Hit | None:
    """Where the answer declines the treatment or test at ``hit`` (with the negation ``cue``) and gives
    a reason on the same line ("no antibiotic - this is almost certainly viral", "CT not indicated;
    explained rationale"): the words from the decline to the nearest reason, or None."""
    line_end = doc.text.find("\n", doc.tokens[hit.last].end)
    line_end = len(doc.text) if line_end < 0 else line_end
    line_start = doc.text.rfind("\n", 0, doc.tokens[hit.first].start) + 1
    on_line = [k for k, token in enumerate(doc.tokens) if line_start <= token.start < line_end]
    reasons = [(k, k + len(found) - 1) for k in on_line
               if (found := DECLINE_REASONS.starting_at(doc.lows, k)) is not None and not hit.first <= k <= hit.last]
    if not reasons:
        return None
    first, last = min(reasons, key=lambda r: min(abs(r[0] - hit.last), abs(hit.first - r[1])))
    words = tuple(cue.lower().split())
    said = [k for k in on_line if tuple(doc.lows[k: k + len(words)]) == words] if words else []
    cue_at = min(said, key=lambda k: abs(k - hit.first), default=hit.first)
    return Hit(min(hit.first, first, cue_at), max(hit.last, last, cue_at + max(len(words), 1) - 1))


def stopped_after(doc: Document, last: int) -> int | None:
    """Where a passive stop right after token ``last`` ends ("sertraline should be stopped",
    "the pill is to be discontinued", "acetylcysteine is not required"), in its clause, also after the rest of
    a list it heads ("Ibuprofen, ramipril, BFZ, metformin all stopped"); none when negated ("must not be
    stopped")."""
    low = doc.lows
    words, k = 0, last + 1
    while k < len(low) and words <= STOPPED_REACH and doc.clause[k] == doc.clause[last]:
        declined = DECLINED_AFTER.starting_at(low, k)
        if low[k] in STOPPED or declined is not None:
            end = k + len(declined) - 1 if declined is not None else k
            return None if NEGATORS & set(low[last + 1 : k]) else end
        if not (doc.comma_before[k] or low[k] in LIST_LINKS):  # the list's next entry does not count
            words += 1
        k += 1
    return None


NEGATORS = word_list("withhold_negators")
DENIED_OBJECTIONS = word_list("withhold_denied_objections")
"""Words between a negation and a treatment that make it theirs ("not a CI to LMWH"): no withholding."""
PERMANENT = cue_list("withhold_permanent")
TEMPORARY = cue_list("withhold_temporary")


def permanent_stop(words: tuple[str, ...] | list[str]) -> bool:
    """The words (of a reference item's name) make its stop permanent ("Stop lamotrigine ... permanently")."""
    low = list(words)
    return any(PERMANENT.starting_at(low, k) is not None for k in range(len(low)))


def held_for_now(doc: Document, hit: Hit) -> bool:
    """The clause of a stop at ``hit`` says the stop ends ("hold it for now", "until the skin heals", "and restart it
    at a lower dose"), not negated ("never to be restarted"): a hold, no permanent stop."""
    clause = doc.clause[hit.first]
    k = hit.first
    while k > 0 and doc.clause[k - 1] == clause:
        k -= 1
    while k < len(doc.tokens) and doc.clause[k] == clause:
        if TEMPORARY.starting_at(doc.lows, k) is not None and not NEGATORS.intersection(
                doc.lows[j] for j in range(max(0, k - HELD_NEGATOR_REACH), k) if doc.clause[j] == clause):
            return True
        k += 1
    return False


HELD_NEGATOR_REACH = 3
"""How far before a word that ends a stop a negator takes it back ("never to be restarted", "must not be
resumed")."""
LIST_LINKS = word_list("span_links")
"""Words that join the entries of a list ("and", "or")."""


RESULT_PLACES = frozenset(tuple(p.split()) for p in word_list("result_places"))
RESULT_PLACE_WORDS = max(len(p) for p in RESULT_PLACES)
NOT_A_FINDING = word_list("result_places_not_after") | word_list("span_negations") | ACTION_VERBS | FILLER
"""Words before a result place that are no finding ("decide on CT", "no on ECG", "check on")."""


def finding_seen_on(doc: Document, first: int) -> bool:
    """A test named as where a finding was looked for, after a word of that finding in its clause ("no
    arrhythmia on the ECG", "no free fluid in the scan"): the test was done, a negation is the finding's."""
    for n in range(RESULT_PLACE_WORDS, 0, -1):
        at = first - n
        if at >= 1 and tuple(doc.lows[at:first]) in RESULT_PLACES and doc.clause[at - 1] == doc.clause[first]:
            return doc.lows[at - 1] not in NOT_A_FINDING
    return False


def finding_within(doc: Document, first: int, last: int) -> bool:
    """A test's name said the other way round around where a finding was looked for, the finding first ("no
    retained products on ultrasound" of "ultrasound for retained products"): a word of the finding, then a
    result place, then the rest of the name, all in the mention at tokens ``first..last``. The test was done; a
    negation before it is the finding's."""
    for k in range(first + 1, last):
        for n in range(RESULT_PLACE_WORDS, 0, -1):
            if k + n <= last and tuple(doc.lows[k : k + n]) in RESULT_PLACES:
                return doc.lows[k - 1] not in NOT_A_FINDING
    return False


def withheld(doc: Document, first: int) -> int | None:
    """Where a withholding instruction starts shortly before token ``first`` in its clause; none
    where the withholding is itself negated ("do not hold analgesia back": give it), and none where the
    treatment is where a finding was looked for ("no free gas on CT" is the CT's result, not a refusal of it)."""
    low = doc.lows
    if finding_seen_on(doc, first):
        return None
    same_clause = first > 0 and doc.clause[first - 1] == doc.clause[first]
    shorthand = WITHHOLD_NEXT.ending_at(low, first - 1) if same_clause else None
    if shorthand is not None:
        return first - len(shorthand)
    start, words = first, 0
    while start > 0 and words < WITHHOLD_REACH:  # small words do not count ("stop the SSRI and the thiazide")
        start -= 1
        words += low[start] not in FILLER
    for k in range(start, first):
        cue = WITHHOLD_CUES.ending_at(low, k) if doc.clause[k] == doc.clause[first] else None
        if cue is not None:
            if cue[-1] in NEGATORS and k + 1 < first and low[k + 1] in WITHHOLD_WORDS:
                return None  # "not hold", "don't delay"
            if cue[0] in WITHHOLD_WORDS and NEGATORS & set(low[max(0, k - len(cue) - 1) : k - len(cue) + 1]):
                return None
            if WITHHOLD_END & set(low[k + 1 : first]):
                return None  # "hold while on hydrocortisone": what follows its end word is its time, not its object
            if DENIED_OBJECTIONS & set(low[k + 1 : first]):
                return None  # "not a CI to VTE prophylaxis": the objection is denied, the treatment is not withheld
            start = k - len(cue) + 1
            while start > 0 and doc.tokens[start - 1].start == doc.tokens[start].start:
                start -= 1  # from the first word of an expanded abbreviation ("don't" = do not)
            return start
    return None


RESUSCITATION_ITEM_WORDS = word_list("resuscitation_item_words")
MAINTENANCE_HOURS = 4.0
"""A volume run over this many hours or more is a maintenance rate: resuscitation runs a litre within an hour or
two, a bolus in minutes ("1 L over 8 h" is 125 mL/h, the maintenance rate of an adult)."""
SPAN_LEADS = frozenset({"over"})
"""Grammar: the word that opens the span a volume runs over ("1 L over 8 h")."""


def resuscitation_item(name: str) -> bool:
    """The reference item gives fluid fast ("Intravenous fluid resuscitation", "Fluid bolus")."""
    return bool(RESUSCITATION_ITEM_WORDS.intersection(w.lower() for w in name.split()))


def maintenance_rate(text: str) -> bool:
    """The answer runs its fluid over hours ("0.9% saline 1 L over 8 h"): a maintenance rate, no resuscitation."""
    norms = [t.norm for t in tokenize(text)]
    return any(norms[k] in SPAN_LEADS and norms[k + 1].replace(".", "", 1).isdigit() and norms[k + 2] in UNIT_HOURS
               and float(norms[k + 1]) * UNIT_HOURS[norms[k + 2]] >= MAINTENANCE_HOURS for k in range(len(norms) - 2))


BOLUS = "a one-off dose"
ELIDED_REPEAT = "a repeat of the drug before"
ELIDED_REPEAT_WORDS = word_list("elided_repeat_words")
"""Words that open a piece repeating the drug of the piece before ("..., repeat once at 10 minutes")."""
BOLUS_ITEM_WORDS = word_list("bolus_item_words")
BOLUS_MARKS = cue_list("bolus_marks")
BOLUS_INFUSION = cue_list("bolus_infusion_words")
BOLUS_ENDS = word_list("clause_words") | word_list("links") | word_list("temporal") | {"before"}
"""Words that end a one-off dose's piece: what follows is another action or its circumstance ("NovoRapid 10 units
SC stat while the infusion is made up", "insulin 0.1 units/kg stat then an infusion", "... before the drip")."""
TIME_UNITS = frozenset(key for unit in read_vocabulary().units for key in unit.say)
UNIT_HOURS = {key: unit.hours for unit in read_vocabulary().units for key in unit.say}
"""Hours in one of each time unit the vocabulary says ("h": 1, "min": 1/60)."""
RATE_LEADS = frozenset({"per"})
"""A time unit after "/" or "per" makes a dose a rate ("0.1 units/kg/h"): grammar of units."""


def without_bolus_words(text: str) -> str:
    """The words of a one-off dose item other than those that make it one ("Insulin bolus" -> "insulin")."""
    return " ".join(w for w in text.split() if w.lower() not in BOLUS_ITEM_WORDS)


def bolus_item(words: tuple[str, ...]) -> bool:
    """The reference phrase is a one-off dose of its drug or class ("Insulin bolus", "loading dose of aspirin")."""
    return bool(BOLUS_ITEM_WORDS.intersection(words))


def one_off_doses(doc: Document) -> list[Hit]:
    """The pieces of the answer (up to a word that ends them: :data:`BOLUS_ENDS`) that give something once, at
    once ("Actrapid 0.1 units/kg IV stat", "Plasma-Lyte 148 10ml/kg stat"): a one-off word and no word or rate of
    a running infusion. What they give is read by the table (a drug of the item's class)."""
    known = doc.found.get(BOLUS)
    if known is not None:
        return list(known)
    out: list[Hit] = []
    low = doc.lows
    for piece in doc.pieces():
        last = next((k - 1 for k in range(piece.first + 1, piece.last + 1) if low[k] in BOLUS_ENDS), piece.last)
        marked = infusion = False
        for k in range(piece.first, last + 1):
            marked = marked or BOLUS_MARKS.starting_at(low, k) is not None
            infusion = infusion or BOLUS_INFUSION.starting_at(low, k) is not None or _rate(doc, k)
        if marked and not infusion:
            out.append(Hit(piece.first, last))
    doc.found[BOLUS] = out
    return out


def _rate(doc: Document, k: int) -> bool:
    """Token ``k`` is a time unit of a rate ("/h", "per hour")."""
    if k == 0 or doc.lows[k] not in TIME_UNITS:
        return False
    return doc.lows[k - 1] in RATE_LEADS or doc.text[doc.tokens[k - 1].end : doc.tokens[k].start].strip() == "/"


SWITCHING = "switching to a treatment"
SWITCH_WORDS = word_list("switch_words")
SWITCH_TARGETS = frozenset({"to", "for", "with"})
"""The words after which a switch names what it gives ("switch X to Y", "swap X for Y", "replace X with Y"): grammar."""


def switch_target(text: str) -> tuple[bool, str] | None:
    """What a reference phrase that opens with a switch gives: the words after its target word ("Switch to
    carbamazepine or phenytoin": True, "carbamazepine or phenytoin"), or, with none, what it switches within
    ("switch antidepressant": False, "antidepressant")."""
    words = re.findall(r"[a-z0-9%]+", text.lower())
    if not words or words[0] not in SWITCH_WORDS:
        return None
    at = next((k for k, w in enumerate(words) if w in SWITCH_TARGETS), None)
    rest = words[at + 1 :] if at is not None else words[1:]
    return (at is not None, " ".join(rest)) if rest else None


SWITCH_FROM = frozenset({"from", "off"})
"""The words after a switch verb that name what it stops ("switch from chloramphenicol to fusidic acid"): grammar."""


def switched_from(doc: Document) -> list[tuple[Hit, Hit]]:
    """Where the answer switches away from something: each switch, from its verb to its target word (or, after a
    "from", the end of its piece), and the words it leaves: between the verb (and the "from" after it) and the
    target word ("Switch from chloramphenicol to fusidic acid drops": "chloramphenicol"; "swap zopiclone for
    temazepam": "zopiclone"; "switch from chloramphenicol": "chloramphenicol"). What a switch leaves is stopped."""
    known = doc.found.get("switched from")
    if known is not None:
        return list(known)
    out: list[tuple[Hit, Hit]] = []
    for k, low in enumerate(doc.lows):
        if low not in SWITCH_WORDS or k + 1 >= len(doc.lows):
            continue
        piece = doc.piece_of(k)
        leaving = doc.lows[k + 1] in SWITCH_FROM and k + 1 <= piece.last
        first = k + 1 + leaving
        at = next((j for j in range(first, piece.last + 1) if doc.lows[j] in SWITCH_TARGETS), None)
        last = at - 1 if at is not None else piece.last if leaving else -1  # "switch to X" leaves nothing named
        if first <= last:
            out.append((Hit(k, at if at is not None else last), Hit(first, last)))
    doc.found["switched from"] = out
    return out


def switches(doc: Document) -> list[tuple[int, Hit]]:
    """Where the answer switches to something: each switch verb and the words its target word leads to in its
    piece ("Switch sertraline to mirtazapine 15 mg at night": "mirtazapine 15 mg at night")."""
    known = doc.found.get(SWITCHING)
    if known is not None:
        return list(known)
    out: list[tuple[int, Hit]] = []
    for k, low in enumerate(doc.lows):
        if low not in SWITCH_WORDS:
            continue
        piece = doc.piece_of(k)
        at = next((j for j in range(k + 1, piece.last) if doc.lows[j] in SWITCH_TARGETS), None)
        if at is not None:
            out.append((k, Hit(at + 1, piece.last)))
    doc.found[SWITCHING] = out
    return out


ECG_NAMES = word_list("ecg_names")
ECG_WORDS = ECG_NAMES | word_list("ecg_plain_words")
"""The words of a reference phrase that is the plain ECG."""
ECG_FINDINGS = cue_list("ecg_findings")
ECG_AIMS = word_list("ecg_aims")
"""Words before a rhythm that make it an aim of treatment ("cardioversion to restore sinus rhythm"), not a finding."""


def is_plain_ecg(words: tuple[str, ...]) -> bool:
    """The reference phrase names the 12-lead ECG and nothing more."""
    return bool(ECG_NAMES.intersection(words)) and set(words) <= ECG_WORDS


def ecg_readings(doc: Document) -> list[Hit]:
    """Every ECG finding of the document (see the module documentation)."""
    out: list[Hit] = []
    for k in range(len(doc.tokens)):
        found = ECG_FINDINGS.starting_at(doc.lows, k)
        aim = k > 0 and doc.lows[k - 1] in ECG_AIMS
        if found is not None and not aim and not (out and out[-1].last >= k):
            out.append(Hit(k, k + len(found) - 1))
    return out


DOSE_UNITS = word_list("result_dose_units")
"""After a number these make it a dose (a count of tablets too: "co-codamol 30/500 two tablets")."""
FREQUENCY_UNITS = word_list("result_frequency_units")
"""After a number these make it a frequency ("glucose monitoring 4-hourly", "co-codamol 30/500 QDS"), not a
result."""


def _analyte_words(label: str) -> tuple[str, ...]:
    """A result label as normalised words ("C-reactive protein": c reactive protein; "Hb": hemoglobin)."""
    return tuple(t.norm for t in key_tokens(tokenize(label)))


ANALYTE_PHRASES = frozenset(
    words for w in (*word_list("result_analytes"), *(r for test in read_vocabulary().of_kind("test")
                                                      for r in test.reports))
    if (words := _analyte_words(w)))
"""What a laboratory measures (``result_analytes`` and the panels' analytes), each as its normalised words."""
ANALYTES = frozenset(word for words in ANALYTE_PHRASES for word in words)
"""Words of what a laboratory measures: the words of :data:`ANALYTE_PHRASES`."""
_ANALYTE_LONGEST = max(len(words) for words in ANALYTE_PHRASES)


def names_analyte(doc: Document, first: int, last: int) -> bool:
    """Tokens ``first..last`` name something a laboratory measures, all its words ("uric acid", not the "acid" of
    "valproic acid"): a number after them may be its result; after any other drug it is a dose ("ASA 325")."""
    norms = [doc.tokens[k].norm for k in range(first, last + 1)]
    return any(tuple(norms[k : k + n]) in ANALYTE_PHRASES
               for k in range(len(norms)) for n in range(1, min(_ANALYTE_LONGEST, len(norms) - k) + 1))


RESULT_TRENDS = word_list("result_trend_words")
RESULT_CHECK_VERBS = word_list("result_check_verbs")
TREND_LINKS = word_list("result_trend_links")
CHECK_REACH = 6
"""How many words a verb of checking may stand before the measured thing it checks ("check pH, K+ and bicarbonate")."""


def followed(doc: Document, first: int, last: int) -> bool:
    """Tokens ``first..last`` name something a laboratory measures that the answer follows, not gives: a trend
    after it ("pH and bicarbonate are improving", "glucose falling") or a verb of checking before it, in its piece,
    with only other measured things between ("repeat the gas to check pH and bicarbonate", "monitor the glucose")."""
    if not names_analyte(doc, first, last):
        return False
    k = last + 1
    while k < len(doc.tokens) and doc.clause[k] == doc.clause[last] and not doc.comma_before[k]:
        if doc.lows[k] in RESULT_TRENDS:
            return True
        if doc.lows[k] not in TREND_LINKS:
            break
        k += 1
    piece = doc.piece_of(first)
    for k in range(first - 1, max(piece.first, first - CHECK_REACH) - 1, -1):
        if doc.lows[k] in RESULT_CHECK_VERBS:
            return True
        token = doc.tokens[k]
        if not (token.norm in ANALYTES or token.norm in NOT_ANALYTES or token.norm in FILLER
                or doc.lows[k] in LIST_LINKS):
            return False
    return False


EMPHASIS = "*_"
"""Markdown emphasis around a name or its value ("Lithium **2.9 mmol/L**"): layout, not words between them."""


def a_result(doc: Document, last: int) -> bool:
    """A value follows token ``last`` without a dose unit, a strength in per cent or a frequency: a
    laboratory result ("bicarbonate 6", "potassium 2.9", "K+ 2.9")."""
    return result_end(doc, last) is not None


def result_end(doc: Document, last: int, *, lab: bool = False,
               analyte: tuple[str, ...] = ()) -> int | None:
    """The last token of the result value that follows token ``last`` (see :func:`a_result`), if one does;
    ``lab``: a laboratory value as a panel reports it, also in the next cell of a table row and with a
    concentration unit ("| Albumin, Na | 32 g/L, 142 mmol/L |"), after a link word or two ("her potassium is
    2.9", "sodium level was 128": ``value_links``) or a mark ("CRP <5", "UO ~20 ml/h": ``result_value_marks``),
    as a sign ("urine blood +++") and in the units of ``analyte`` (the normalised words of what is measured): a per
    cent, a rate or a fraction only where it measures in them ("sats 92%", "UO 20 ml/h", "VA L 6/12")."""
    marks = f" :+{EMPHASIS}|{VALUE_MARK_CHARACTERS}" if lab else f" :+{EMPHASIS}"
    bracket_end = _short_bracket_after(doc, last) if lab else None
    if bracket_end is not None:
        last, marks = bracket_end, marks + ")"  # "Salicylate (4 h) | 620 mg/L": the bracket says when or in what
    k = last + 1
    ratio = lab and analyte in RATIO_ANALYTES
    if lab:
        if _signed(doc, last):
            return last  # "urine blood +++": the signs are the result
        while (k < len(doc.tokens) and k - last <= RESULT_LINK_REACH + ratio and doc.clause[k] == doc.clause[last]
               and (doc.lows[k] in VALUE_LINKS or doc.lows[k] in VALUE_MARKS or (ratio and doc.lows[k] in SIDES))
               and not doc.comma_before[k]):
            if doc.lows[k] in COMPARATORS and _in_a_condition(doc, last):
                return None  # "ICU if lactate > 4": a threshold, no result
            k += 1
        if k > last + 1 and (k >= len(doc.tokens) or not doc.lows[k][:1].isdigit()):
            k = last + 1  # no value after the links: "potassium level to be checked"
        last = k - 1
    qualitative = QUALITATIVE.starting_at(doc.lows, k) if lab and k < len(doc.tokens) else None
    if qualitative is not None and doc.clause[k + len(qualitative) - 1] == doc.clause[last]:
        return k + len(qualitative) - 1  # "troponin negative", "TSH nl", "PCM not detected"
    if k >= len(doc.tokens) or doc.clause[k] != doc.clause[last] or not doc.lows[k][:1].isdigit():
        return None
    gap = doc.text[doc.tokens[last].end : doc.tokens[k].start]
    if gap.strip(marks) not in ("", "="):
        return None
    j = k + 1
    while j < len(doc.tokens) and doc.lows[j].isdigit() and doc.tokens[j].start - doc.tokens[j - 1].end <= 1:
        j += 1  # "2.9", "7.02"
    if j == k + 2 and doc.text[doc.tokens[k].end : doc.tokens[k + 1].start] == "/":
        if ratio:
            return j - 1  # "VA R 6/9 L 6/12": the fraction is the result, the side after it is the next one's
        if int(doc.lows[k + 1]) in DURATION_SHORTHAND:
            return None  # "PO 7/7": seven days, a duration ("2/52", "3/12"), not a result
    if doc.text[doc.tokens[j - 1].end : doc.tokens[j - 1].end + 1] == "%":
        return j - 1 if lab and analyte in PERCENT_ANALYTES else None  # a strength ("glucose 10%"), not a result
    rate_end = _rate_end(doc, j - 1 if doc.lows[j - 1][:1].isdigit() and not doc.lows[j - 1].isdigit() else j) \
        if lab and analyte in RATE_ANALYTES else None
    if rate_end is not None:
        return rate_end  # "UO 20 ml/h", "PEFR 150 L/min": a rate of what is measured, read with its unit
    if doc.lows[j - 1].lstrip("0123456789.,") in DOSE_UNITS - {"mmol", "l"}:
        return None  # "labetalol 20mg": the unit written onto the number is a dose
    # a unit is written right after its number: after a comma it is the next result's label ("K 3.1, Mg 0.66")
    unit = doc.lows[j] if j < len(doc.tokens) and doc.clause[j] == doc.clause[last] and not doc.comma_before[j] else ""
    if lab and unit and _per_litre(doc, j):
        return j - 1
    return None if unit in DOSE_UNITS or unit in FREQUENCY_UNITS else j - 1


COMPARATORS = word_list("condition_above") | word_list("condition_below")
"""The marks of a threshold ("> 4", "<5"): a value after one in a condition is its threshold ("if lactate > 4")."""


def _in_a_condition(doc: Document, last: int) -> bool:
    """A condition word stands before token ``last`` in its clause ("ICU if lactate > 4")."""
    k = last
    while k >= 0 and doc.clause[k] == doc.clause[last]:
        if doc.lows[k] in CONDITION_LEADS:
            return True
        k -= 1
    return False


VALUE_MARKS = word_list("result_value_marks")
"""Marks and words between a label and its value that keep it a value ("CRP <5", "K approx 6")."""
VALUE_MARK_CHARACTERS = "".join(m for m in VALUE_MARKS if len(m) == 1 and not m.isalnum())
"""Those marks that are no word of the text, only characters between words ("~20 ml/h")."""
PERCENT_ANALYTES = frozenset(_analyte_words(w) for w in word_list("result_percent_analytes"))
RATE_ANALYTES = frozenset(_analyte_words(w) for w in word_list("result_rate_analytes"))
RATIO_ANALYTES = frozenset(_analyte_words(w) for w in word_list("result_ratio_analytes"))
SIDES = word_list("result_side_words")
SIGNS = word_list("result_signs")
PER_TIME = word_list("result_rate_denominators")
"""The denominators of a rate ("ml/h", "L/min", "ml/kg/h")."""


def _rate_end(doc: Document, unit: int) -> int | None:
    """The last token of a rate whose unit is token ``unit`` (or written onto its number, "20ml/h"): a slash and a
    unit of time or weight follow it, as often as written ("ml/kg/h"); None if it is no rate."""
    end = unit
    while (end >= 0 and end + 1 < len(doc.tokens) and doc.lows[end + 1] in PER_TIME
           and doc.text[doc.tokens[end].end : doc.tokens[end + 1].start] == "/"):
        end += 1
    return end if end > unit else None


def _signed(doc: Document, last: int) -> bool:
    """Signs of a result follow token ``last`` before the next word or the end of its line ("blood +++")."""
    return bool(signs_after(doc, last))


def signs_after(doc: Document, last: int) -> str:
    """The signs of a result right after token ``last``, with the space before them ("blood +++": " +++"), or "";
    a slash after them parts the next result ("stx2+/O157")."""
    end = doc.tokens[last + 1].start if last + 1 < len(doc.tokens) else len(doc.text)
    gap = doc.text[doc.tokens[last].end : end].split("\n", 1)[0]
    signs = gap.strip().rstrip(",;./").strip()
    return gap[: gap.index(signs) + len(signs)] if signs in SIGNS else ""


CORRECTING_VERBS = word_list("analyte_correcting_verbs")
ANALYTE_STATES = word_list("analyte_state_words")
CORRECTING_REACH = 3
"""How many words a verb of correcting may stand before the measured thing it corrects ("correct the low calcium")."""


def treatments_analyte(doc: Document, first: int, last: int) -> bool:
    """Tokens ``first..last`` name only something a laboratory measures, with no result after it, where a treatment
    has it: a drug or fluid of a strength or dose ("50 mL of 50% glucose", "20 mmol potassium") or what a verb of
    correcting treats, said with its state ("to correct the low calcium": ``analyte_correcting_verbs``,
    ``analyte_state_words``; "correct calcium as needed" checks it). No test."""
    norms = [doc.tokens[k].norm for k in range(first, last + 1)]
    if not names_analyte(doc, first, last) or any(
            w not in ANALYTES and w not in NOT_ANALYTES and w not in LEVEL_WORDS for w in norms):
        return False
    if result_end(doc, _written_end(doc, last), lab=True) is not None:
        return False
    before = doc.text[: doc.tokens[first].start]
    if _DOSED.search(before) or _in_a_drugs_name(doc, first, last):
        return True
    clause = doc.clause[first]
    if not (first and doc.clause[first - 1] == clause and doc.lows[first - 1] in ANALYTE_STATES):
        return False  # "correct calcium as needed" checks it first; "correct the low calcium" treats a known result
    return any(doc.clause[k] == clause and doc.lows[k] in CORRECTING_VERBS
               for k in range(max(0, first - 1 - CORRECTING_REACH), first - 1))


DRUG_NAME_REACH = 2
"""How many words a drug's name may hold around what a laboratory measures ("compound sodium lactate")."""


def _in_a_drugs_name(doc: Document, first: int, last: int) -> bool:
    """Tokens ``first..last`` are words of a longer name of a drug ("Calcium gluconate", "potassium chloride",
    "compound sodium lactate")."""
    vocabulary = read_vocabulary()
    for start in range(max(0, first - DRUG_NAME_REACH), first + 1):
        for end in range(last, min(len(doc.tokens) - 1, last + DRUG_NAME_REACH) + 1):
            if (start, end) != (first, last) and all(doc.clause[k] == doc.clause[first] for k in (start, end)) \
                    and vocabulary.lookup(doc.text[doc.tokens[start].start : doc.tokens[end].end], "drug"):
                return True
    return False


_DOSED = re.compile(r"\d\s*(%|mmol|mg|g|ml|l|units?)\s*(of\s*)?$", re.IGNORECASE)
"""Grammar: a number with a strength or dose unit right before a word ("50% glucose", "20 mmol potassium",
"50 mL of glucose")."""


def reported(doc: Document, first: int, last: int) -> bool:
    """The mention at tokens ``first..last`` is a result reported: it ends with the value or finding word of what
    it measures ("lactate 4.1", "LDH nl"), or one follows it ("no peritonism, lactate only 4.1", "no hypopyon,
    pupils normal": the negation before it is another finding's)."""
    after = _written_end(doc, last) + 1
    if after < len(doc.tokens) and doc.clause[after] == doc.clause[last] and not doc.comma_before[after] \
            and QUALITATIVE.starting_at(doc.lows, after) is not None:
        return True  # "no hypopyon, pupils normal": a finding word reports any test or examination
    if not names_analyte(doc, first, last):
        return False
    if doc.lows[last][:1].isdigit() or QUALITATIVE.ending_at(doc.lows, last) is not None:
        return True
    return result_end(doc, _written_end(doc, last), lab=True) is not None


TARGET_WORDS = word_list("result_target_words")
TARGET_REACH = 4
"""How many words a word of a target may stand before the label it sets ("titrate oxygen to sats 94-98%")."""


def a_target(doc: Document, first: int, end: int) -> bool:
    """The label at ``first`` with its value ending at ``end`` is a target set, not a result reported: a word of
    ``result_target_words`` shortly before it in its clause or right after the value ("keep K > 4", "aim glucose
    6-10", "sats 88-92% target")."""
    clause = doc.clause[first]
    before = range(max(0, first - TARGET_REACH), first)
    if any(doc.clause[k] == clause and doc.lows[k] in TARGET_WORDS for k in before):
        return True
    after = end + 1
    while after < len(doc.tokens) and doc.lows[after].isdigit() and doc.clause[after] == clause:
        after += 1  # the rest of a range ("88-92")
    return after < len(doc.tokens) and doc.clause[after] == clause and doc.lows[after] in TARGET_WORDS


SHORT_BRACKET_WORDS = 3
"""Words a bracket between an analyte and its value may hold ("(4 h)", "(mmol/L)")."""


def _short_bracket_after(doc: Document, last: int) -> int | None:
    """The last token of a short bracket that opens right after token ``last`` and closes on its line, if one does."""
    k = last + 1
    if k >= len(doc.tokens) or doc.text[doc.tokens[last].end : doc.tokens[k].start].strip() != "(":
        return None
    close = doc.text.find(")", doc.tokens[k].start)
    line_end = doc.text.find("\n", doc.tokens[k].start)
    if close < 0 or 0 <= line_end < close:
        return None
    j = k
    while j + 1 < len(doc.tokens) and doc.tokens[j + 1].start < close:
        j += 1
    return j if j - k < SHORT_BRACKET_WORDS else None


RESULT_LINK_REACH = 2
"""Link words ("level", "was") a panel's analyte may have before its value in an answer."""
VALUE_LINKS = word_list("value_links")
"""The words between a test's name and its value ("potassium level was 7.4")."""


DURATION_SHORTHAND = frozenset(unit.shorthand for unit in read_vocabulary().units if unit.shorthand)
"""The denominators of written durations ("7/7" days, "2/52" weeks, "3/12" months)."""
PER_LITRE = word_list("result_per_litre")
QUALITATIVE = cue_list("result_qualitative")


def _per_litre(doc: Document, unit: int) -> bool:
    """The unit at token ``unit`` is a concentration ("g/L", "mmol/L", "mg/dL")."""
    after = unit + 1
    return (after < len(doc.tokens) and doc.lows[after] in PER_LITRE
            and doc.text[doc.tokens[unit].end : doc.tokens[after].start] == "/")


def _panel_words(name: str) -> tuple[str, ...]:
    """A panel's name as normalised words, a word repeated by a written-out abbreviation once
    ("coagulation" is itself short for "coagulation screen")."""
    words = [t.norm for t in key_tokens(tokenize(name))]
    return tuple(w for k, w in enumerate(words) if not k or w != words[k - 1])


_PANEL_TESTS = [t for t in read_vocabulary().of_kind("test") if t.reports]
PANELS: dict[tuple[str, ...], tuple[str, ...]] = {
    _panel_words(name): test.reports for test in _PANEL_TESTS for name in test.names
}
"""A standard blood panel (its normalised words) and the analytes whose results report it done (the
tests of ``tests.yaml`` and their ``reports``)."""
PANEL_ORGANS: dict[tuple[str, ...], str] = {
    _panel_words(name): test.lay[0] for test in _PANEL_TESTS if test.lay for name in test.names
}
"""The organ whose blood tests a panel is, in lay words ("blood tests for your liver and kidneys")."""


def _measures() -> dict[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """Each name of a measure of the record (``record_measures`` in tests.yaml: temperature, heart rate, ...) and of
    every test of ``tests.yaml``, with all the names of its test (normalised words)."""
    table: dict[tuple[str, ...], tuple[tuple[str, ...], ...]] = {}
    for term in read_vocabulary().of_kind("test"):
        names = tuple(dict.fromkeys(w for name in term.names if (w := _analyte_words(name))))
        for words in names:
            table.setdefault(words, names)
    for measure in read_vocabulary().phrases("record_measures"):
        words = _analyte_words(measure)
        table.setdefault(words, (words,))
    return table


MEASURE_NAMES = _measures()


def measure_names(words: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """Every name of the measure or test ``words`` names (its normalised words), none if it names none."""
    return MEASURE_NAMES.get(words, ())


def measure_values(doc: Document, names: tuple[tuple[str, ...], ...]) -> list[Hit]:
    """Every value of a measure the document reports by one of its ``names`` ("HR 152", "CRT 2s")."""
    return _panel_results(doc, names)


def _finding_words(text: str) -> tuple[str, ...]:
    """A finding as the normalised words a document holds for it, small words kept ("dot and blot haemorrhage")."""
    return tuple(t.norm for t in tokenize(text))


def _examination_findings() -> dict[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """Each name of an examination (its normalised words) with the findings that report it done: its own
    ``findings`` and those of every narrower examination (a cranial nerve palsy reports the neurological
    examination)."""
    vocabulary = read_vocabulary()
    table: dict[tuple[str, ...], list[tuple[str, ...]]] = {}
    for term in vocabulary.of_kind("test"):
        if not term.findings:
            continue
        for owner in (term, *vocabulary.broader(term)):
            for name in owner.names:
                table.setdefault(_panel_words(name), []).extend(w for f in term.findings if (w := _finding_words(f)))
    return {name: tuple(dict.fromkeys(found)) for name, found in table.items()}


EXAMINATION_FINDINGS = _examination_findings()
"""An examination (its normalised words) and the findings whose report says it was done (``findings`` of the tests
of ``tests.yaml``): "disc swelling" of fundoscopy, "VI palsy" of the cranial nerves."""


def examination_findings_of(words: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """The findings that report the examination a reference phrase names, if it names one."""
    return EXAMINATION_FINDINGS.get(words, ())


def findings_reported(doc: Document, findings: tuple[tuple[str, ...], ...]) -> list[Hit]:
    """Every place the document reports one of ``findings`` (normalised words, the longest where two start
    together), ending where a written word ends (not the "retinopathy" of a longer word written out)."""
    norms, where = _norms(doc)
    firsts = _first_words(findings)
    if firsts.isdisjoint(where):
        return []
    longest = sorted(findings, key=len, reverse=True)
    out: list[Hit] = []
    for k in sorted(k for word in firsts for k in where.get(word, ())):
        if out and out[-1].last >= k:
            continue
        for words in longest:
            last = k + len(words) - 1
            if tuple(norms[k : last + 1]) == words and (
                    last + 1 >= len(doc.tokens) or doc.tokens[last + 1].start != doc.tokens[last].start):
                out.append(Hit(k, last))
                break
    return out


def panel_analytes(words: tuple[str, ...]) -> tuple[tuple[str, ...], ...] | None:
    """The analytes (normalised words) of the panel a reference phrase names, if it names one; the
    panel's organ is one more, read only in a clause about blood tests (:func:`panel_results`)."""
    analytes = PANELS.get(words)
    if analytes is None:
        return None
    organ = PANEL_ORGANS.get(words)
    labels = tuple(dict.fromkeys(w for a in analytes if (w := _analyte_words(a))))
    return labels + (((organ,),) if organ else ())


LEVEL_WORDS = frozenset(t.norm for w in word_list("level_words") for t in tokenize(w))
NOT_ANALYTES = frozenset(t.norm for w in word_list("level_not_analytes") for t in tokenize(w))
ANALYTE_MIN_LETTERS = 4
LEVEL_REPEATS = frozenset(t.norm for w in word_list("level_repeat_words") for t in tokenize(w))
"""Words of a level item that make it repeated measurement ("serial lithium levels"): one result is not it."""


def level_analytes(words: tuple[str, ...]) -> tuple[tuple[str, ...], ...] | None:
    """What a test item that is a level measures ("ethanol" of "Blood alcohol level" read as "alcohol", each of
    "Paracetamol and salicylate levels"): its words before the level word, if it ends with one."""
    if len(words) < 2 or words[-1] not in LEVEL_WORDS or not LEVEL_REPEATS.isdisjoint(words):
        return None
    if not SERIAL_FREQUENCY.isdisjoint(words):
        return None  # "2-hourly salicylate levels" repeats: one result is not it
    measured = tuple((w,) for w in words[:-1]
                     if w.isalpha() and len(w) >= ANALYTE_MIN_LETTERS and w not in NOT_ANALYTES)
    return measured or None


def drug_other_names(measured: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, ...], ...]:
    """The other names of a measured drug in ``drugs.yaml`` ("LTG" of "lamotrigine"): its level is reported by any
    ("LTG trough 1.4"); a name of the vocabulary is a drug's, whatever its length."""
    out: dict[tuple[str, ...], None] = {}
    for (word,) in measured:
        for term in read_vocabulary().lookup(word, "drug"):
            for name in term.names:
                if (norms := tuple(t.norm for t in tokenize(name))) and norms != (word,):
                    out[norms] = None
    return tuple(out)


SERIAL_PHRASES = frozenset(words for w in word_list("serial_frequency_words") if (words := tuple(
    t.norm for t in tokenize(w))))
SERIAL_FREQUENCY = frozenset(words[0] for words in SERIAL_PHRASES if len(words) == 1)
"""The one-word repeating frequencies ("hourly", "daily"); the longer ones ("times a day") follow a number only."""
SERIAL = "a measure with a repeating frequency"


MONITORED = frozenset(t.norm for w in word_list("monitoring_item_words") for t in tokenize(w))
ONGOING_MONITORING = frozenset(t.norm for w in word_list("ongoing_monitoring_words") for t in tokenize(w))


def ongoing_monitoring(name: str) -> bool:
    """The item is monitoring that goes on ("Continuous cardiac and oxygen saturation monitoring", "Hourly urine
    output", "Glucose every 2 hours"; a word of ``ongoing_monitoring_words`` in its name, "monitoring" alone not
    one): a result the answer reports with its value ("SpO2 86%") is one reading, not it."""
    return not ONGOING_MONITORING.isdisjoint(t.norm for t in tokenize(name))


def one_reading(doc: Document, hit: Hit, name: str, *, result: bool = False) -> bool:
    """The mention ``hit`` of the item ``name`` is one reading reported ("SpO2 86%") where the item is monitoring
    that goes on (:func:`ongoing_monitoring`) and no word of monitoring or of a repeating frequency stands in its
    clause ("sats 86%, continuous monitoring", "UO 20 mL/h, hourly" still monitor); ``result``: the hit is a
    result with its value already (:func:`panel_results`)."""
    if not _ongoing_item(name):
        return False
    if result:
        return _unmonitored(doc, hit)
    measured = tuple(doc.tokens[k].norm for k in range(hit.first, hit.last + 1))
    if not reported(doc, hit.first, hit.last) and (not names_analyte(doc, hit.first, hit.last) or result_end(
            doc, _written_end(doc, hit.last), lab=True, analyte=measured) is None):
        return False  # "sats 86%": a per cent is the reading of a measure in per cent
    return _unmonitored(doc, hit)


def _unmonitored(doc: Document, hit: Hit) -> bool:
    """No word of monitoring or of a repeating frequency in the clause of ``hit``."""
    clause = doc.clause[hit.first]
    return not any(doc.clause[k] == clause and (t.norm in ONGOING_MONITORING or t.norm in SERIAL_FREQUENCY)
                   for k, t in enumerate(doc.tokens))


@functools.cache
def _ongoing_item(name: str) -> bool:
    return ongoing_monitoring(name)
MONITORING_QUALIFIERS = frozenset(t.norm for w in word_list("monitoring_qualifiers") for t in tokenize(w))
MONITORED_JOINS = frozenset({"and", "or"})
"""Grammar: the words that join the things a monitoring item measures."""


GRADUAL_WORDS = frozenset(t.norm for w in word_list("gradual_item_words") for t in tokenize(w))
CHANGE_WORDS = frozenset(t.norm for w in word_list("gradual_change_words") for t in tokenize(w))
GRADUAL_PERIODS = frozenset(tuple(t.norm for t in tokenize(w)) for w in word_list("gradual_rate_periods"))
RAPID_WORDS = frozenset(t.norm for w in word_list("gradual_rapid_words") for t in tokenize(w))
GRADUAL = "a measure changed gradually"
GRADUAL_BEFORE = 4
"""How many words before its measure a change may begin ("lower the BP by 20 mmHg a day")."""
GRADUAL_AFTER = 10
"""How many words after its measure a change may end ("SBP down ~20/day, no rapid drop")."""
RATE_REACH = 3
"""Words between a rate's number and its period (a unit, "per", "a": "20 mmHg per 24 h")."""


def gradual_measure(name: str) -> tuple[str, ...] | None:
    """What an item of gradual change changes ("blood pressure" of "Gradual blood pressure reduction (about 20/10
    mmHg per 24 hours)"): its name's words before a bracket, less those of gradualness and change; None unless the
    name has both."""
    words = [t.norm for t in key_tokens(tokenize(name.split("(")[0]))]
    if GRADUAL_WORDS.isdisjoint(words) or CHANGE_WORDS.isdisjoint(words):
        return None
    measure = tuple(w for w in words if w not in GRADUAL_WORDS and w not in CHANGE_WORDS)
    return measure or None


SPECIMEN_WORDS = frozenset(t.norm for w in word_list("specimen_blood") for t in tokenize(w))


def _measure_forms(measure: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """The ways an answer names a measure: as the item does, or without the sample it is measured in when the
    rest is what a laboratory measures ("sodium" of "serum sodium"; "blood pressure" keeps its "blood")."""
    rest = measure[1:]
    return (measure, rest) if len(measure) > 1 and measure[0] in SPECIMEN_WORDS and rest in ANALYTE_PHRASES \
        else (measure,)


def gradual_changes(doc: Document, measure: tuple[str, ...]) -> list[Hit]:
    """Where the answer changes ``measure`` gradually, on the measure's line near it: a word of change with a rate
    per day ("SBP down ~20/day"), a word of gradualness ("reduce the BP slowly") or a rapid change declined with a
    bare negation ("no rapid drop"). The hit runs from the measure to the words that say so."""
    norms = [t.norm for t in doc.tokens]
    n = len(norms)
    forms = _measure_forms(measure)
    out: list[Hit] = []
    for k in range(n):
        size = next((len(f) for f in forms if tuple(norms[k : k + len(f)]) == f), 0)
        if not size or (out and out[-1].last >= k):
            continue
        first, last = k, k + size - 1
        window = [j for j in range(max(0, first - GRADUAL_BEFORE), min(n, last + GRADUAL_AFTER + 1))
                  if _same_line(doc, j, first)]
        said = [j for j in window if norms[j] in GRADUAL_WORDS or _rapid_declined(doc, j) is not None
                or (norms[j] in CHANGE_WORDS and _daily_rate(doc, j, window[-1]) is not None)]
        said += [neg for j in said if (neg := _rapid_declined(doc, j)) is not None]  # the hit holds its negation
        if said:
            end = max(said)
            end = max(end, _daily_rate(doc, end, window[-1]) or end)
            if end + 1 <= window[-1] and norms[end] in RAPID_WORDS and norms[end + 1] in CHANGE_WORDS:
                end += 1  # "no rapid drop": the change declined
            out.append(Hit(min(first, *said), max(last, end)))
    return out


def _same_line(doc: Document, j: int, k: int) -> bool:
    a, b = sorted((doc.tokens[j].start, doc.tokens[k].start))
    return "\n" not in doc.text[a:b]


def _daily_rate(doc: Document, k: int, end: int) -> int | None:
    """The last token of a rate per day after token ``k`` (a number, up to :data:`RATE_REACH` words, a period of
    :data:`GRADUAL_PERIODS`), within ``end``; None if none."""
    norms = [t.norm for t in doc.tokens[: end + 1]]
    for j in range(k + 1, end + 1):
        if not norms[j][:1].isdigit():
            continue
        for skip in range(RATE_REACH + 1):
            at = j + 1 + skip
            period = next((p for p in GRADUAL_PERIODS if tuple(norms[at : at + len(p)]) == p), None)
            if period is not None:
                return at + len(period) - 1
        return None
    return None


def _rapid_declined(doc: Document, j: int) -> int | None:
    """The negation right before token ``j`` when that is a word of rapid change declined ("no rapid drop", "avoid
    a precipitous fall", "not too quickly"), else None."""
    if doc.tokens[j].norm not in RAPID_WORDS:
        return None
    k = j - 1
    while k >= 0 and doc.lows[k] in RAPID_LEADS:
        k -= 1
    return k if k >= 0 and doc.lows[k] in RAPID_NEGATIONS else None


RAPID_LEADS = frozenset({"a", "an", "any", "too", "very", "the"})
"""Small words between a negation and a word of rapid change ("not too quickly", "avoid a rapid fall"): grammar."""
RAPID_NEGATIONS = word_list("gradual_rapid_negations")
"""A bare negation ("no", "not") or a verb of avoiding before a word of rapid change."""


DAY_UNITS = frozenset(t.norm for unit in read_vocabulary().units if unit.hours >= 24 for w in unit.say
                      for t in tokenize(w))
"""Units of time of a day or longer ("days", "weeks"): a check at such a time is a later check, not a frequency."""
DURATION_LEADS = frozenset({"for", "over"})
"""Grammar: words before a number of days that make it how long a measure goes on ("monitoring for 3 days")."""


def _checked_later(words: tuple[str, ...]) -> bool:
    """The words after an item's monitoring word time its one check days or weeks on ("5-10 days after surgery",
    "at day 7"), not how long it goes on ("for 3 days")."""
    for k, w in enumerate(words):
        if not w.isdigit():
            continue
        start = k
        while start and (words[start - 1].isdigit() or words[start - 1] in DAY_UNITS):
            start -= 1
        unit = (k + 1 < len(words) and words[k + 1] in DAY_UNITS) or (k and words[k - 1] in DAY_UNITS)
        if unit and not (start and words[start - 1] in DURATION_LEADS):
            return True
    return False


def serial_things(name: str) -> tuple[tuple[str, ...], ...] | None:
    """What an item of repeated measurement measures: each measured thing after a first word of repetition, less
    sample words ("sodium" of "Serial serum sodium"), or each thing before its monitoring word, less words of how
    ("urine output" and "fluid balance" of "Fluid balance and urine output monitoring"); None for any other item."""
    said = [t.norm for t in tokenize(name)]
    words = tuple(w for k, w in enumerate(said) if not k or said[k - 1] != w)  # "closer blood [blood glucose ...]"
    if len(words) >= 2 and words[0] in LEVEL_REPEATS:
        measured = tuple(w for w in words[1:] if w not in NOT_ANALYTES)
        return tuple((w,) for w in measured) if measured and all(w in ANALYTES for w in measured) else None
    at = next((k for k, w in enumerate(words) if w in MONITORED), 0)
    if at and _checked_later(words[at + 1 :]):
        return None  # "Sodium check 5-10 days after surgery": one check then, not a measure repeated from now
    parts: list[tuple[str, ...]] = [()]
    for word in words[:at]:
        if word in MONITORED_JOINS:
            parts.append(())
        elif word not in MONITORING_QUALIFIERS:
            parts[-1] += (word,)
    kept = tuple(p for p in parts if p)
    return (kept + _test_other_names(kept)) or None


def _test_other_names(things: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, ...], ...]:
    """The other names in ``tests.yaml`` of each measured thing that is a test ("urea electrolytes" of "renal
    function"): a repeating frequency after any ("U&E daily") measures it (g77); the joins of a name are dropped."""
    out: dict[tuple[str, ...], None] = {}
    for thing in things:
        for term in read_vocabulary().lookup(" ".join(thing), "test"):
            for name in term.names:
                words = tuple(t.norm for t in tokenize(name) if t.norm not in MONITORED_JOINS)
                if words and words not in things:
                    out[words] = None
    return tuple(out)


def serial_measures(doc: Document, things: tuple[tuple[str, ...], ...]) -> list[Hit]:
    """Where the answer measures one of ``things`` with a repeating frequency ("Na 2-4 hrly", "hourly UO", "CBGs
    bd-qds", "sodium every 2 hours"): the thing and its frequency."""
    norms, where = _norms(doc)
    firsts = _first_words(things)
    out: list[Hit] = []
    for k in sorted(k for word in firsts if word in where for k in where[word]):  # where a thing's first word is
        part = next((p for p in things if tuple(norms[k : k + len(p)]) == p), None)
        if part is None or (k and doc.tokens[k - 1].start == doc.tokens[k].start):
            continue
        last = k + len(part) - 1
        j = last + 1
        while j < len(norms) and doc.tokens[j].start == doc.tokens[last].start:
            j += 1  # the rest of an expanded abbreviation ("UO" = urine output)
        while j < len(norms) and norms[j].isdigit() and doc.clause[j] == doc.clause[k]:
            j += 1
        if j < len(norms) and norms[j] in SERIAL_FREQUENCY and doc.clause[j] == doc.clause[k]:
            out.append(Hit(k, j))
        elif j > last + 1 and (end := _serial_phrase_end(norms, j)) and doc.clause[end] == doc.clause[k]:
            out.append(Hit(k, end))  # "capillary glucose 4 times a day"
        elif k and norms[k - 1] in SERIAL_FREQUENCY and doc.clause[k - 1] == doc.clause[k]:
            out.append(Hit(k - 1, last))
    return out


def _serial_phrase_end(norms: list[str], j: int) -> int | None:
    """The last word of a frequency of more than one word (``serial_frequency_words``) that begins at ``j``."""
    return next((j + len(p) - 1 for p in SERIAL_PHRASES if len(p) > 1 and tuple(norms[j : j + len(p)]) == p), None)


SHARED_ANALYTES = frozenset(words for w in word_list("panel_shared_analytes") if (words := _analyte_words(w)))
"""Analytes a panel shares with another (a bicarbonate: a gas and a chemistry profile): they report the panel only
beside another of its analytes or names on their line."""


def panel_results(doc: Document, analytes: tuple[tuple[str, ...], ...],
                  names: tuple[tuple[str, ...], ...] = ()) -> list[Hit]:
    """Every result of one of ``analytes`` the document reports, with its value ("Hb 146", "creatinine 96"); a
    shared analyte (``panel_shared_analytes``) only beside another of ``analytes`` on its line ("pH 7.28, bicarb 15")
    or in an answer that names the panel (one of ``names``: "venous gas"); "Cr 210, K 5.8, bicarb 15" reports no
    gas."""
    hits = _panel_results(doc, analytes)
    shared = {k for k, hit in enumerate(hits) if _analyte_at(doc, hit.first, analytes) in SHARED_ANALYTES}
    if not shared:
        return hits
    norms, _ = _norms(doc)
    own = [hit for k, hit in enumerate(hits) if k not in shared]
    named = [k for words in names if words for k in range(len(norms) - len(words) + 1)
             if tuple(norms[k : k + len(words)]) == words]
    return hits if named else [hit for k, hit in enumerate(hits) if k not in shared
                               or any(_same_line(doc, other.first, hit.first) for other in own)]


def _analyte_at(doc: Document, k: int, analytes: tuple[tuple[str, ...], ...]) -> tuple[str, ...] | None:
    """The analyte of ``analytes`` whose words start at token ``k``."""
    norms, _ = _norms(doc)
    return next((words for words in analytes if tuple(norms[k : k + len(words)]) == words), None)


def _panel_results(doc: Document, analytes: tuple[tuple[str, ...], ...]) -> list[Hit]:
    norms, where = _norms(doc)
    firsts = _first_words(analytes)
    if firsts.isdisjoint(where):
        return []  # the usual answer: no analyte of this item named at all
    out: list[Hit] = []
    for k in sorted(k for word in firsts for k in where.get(word, ())):  # where an analyte's first word is
        if k and doc.tokens[k - 1].start == doc.tokens[k].start:
            continue  # inside an expanded abbreviation
        for words in analytes:
            last = k + len(words) - 1
            if tuple(norms[k : last + 1]) != words or not _whole_word(doc, k, last):
                continue
            blood = _blood_tests_before(doc, k) if words[0] in PANEL_ORGANS.values() else None
            end = result_end(doc, _written_end(doc, last), lab=True, analyte=words) if blood is None else last
            if end is not None and not (blood is None and a_target(doc, k, end)):
                out.append(Hit(k if blood is None else blood, end))
                break
    return out


@batch_cache(maxsize=4096)
def _first_words(analytes: tuple[tuple[str, ...], ...]) -> frozenset[str]:
    """The first word of each analyte: made once per panel item, not for every answer."""
    return frozenset(words[0] for words in analytes)


def _norms(doc: Document) -> tuple[list[str], dict[str, list[int]]]:
    """The document's normalised words and where each is (in order), read once per document: every panel
    item of a case looks for its analytes in them."""
    known = doc.found.get("norms")
    if known is None:
        norms = [t.norm for t in doc.tokens]
        where: dict[str, list[int]] = {}
        for k, word in enumerate(norms):
            where.setdefault(word, []).append(k)
        known = doc.found["norms"] = (norms, where)
    return known


BLOOD_TESTS = tuple(tuple(p.split()) for p in read_vocabulary().phrases("panel_blood_tests"))
"""Words that name blood tests: the first as written ("bloods"), the rest normalised ("blood tests")."""


def _blood_tests_before(doc: Document, k: int) -> int | None:
    """Where blood tests ("bloods", "blood tests") are named before token ``k`` in its clause, if they are."""
    j = k - 1
    while j >= 0 and doc.clause[j] == doc.clause[k]:
        for words in BLOOD_TESTS:
            last = j + len(words) - 1
            if (doc.lows[j] == words[0] and last < k
                    and all(doc.tokens[j + i].norm == word for i, word in enumerate(words[1:], 1))):
                return j
        j -= 1
    return None


NOT_AFTER = word_list("analyte_not_after")
"""A word before an analyte's label that makes it something else ("vitamin K")."""


def _whole_word(doc: Document, first: int, last: int) -> bool:
    """Tokens ``first..last`` are all the tokens of what was written there (not "K" of "vitamin K"), but for link
    words a written-out abbreviation adds ("HCO3" is "bicarbonate level": ``value_links``)."""
    end = _written_end(doc, last)
    ends_word = end + 1 >= len(doc.tokens) or doc.tokens[end + 1].start != doc.tokens[end].start
    return ends_word and not (first and doc.lows[first - 1] in NOT_AFTER)


def _written_end(doc: Document, last: int) -> int:
    """The last token of the abbreviation written out at token ``last`` when the rest of it is link words
    ("HCO3 7": "bicarbonate level 7"), else ``last``."""
    end = last
    while (end + 1 < len(doc.tokens) and doc.tokens[end + 1].start == doc.tokens[last].start
           and doc.tokens[end + 1].norm in VALUE_LINKS):
        end += 1
    return end


REVERSAL_WORDS = frozenset(t.norm for w in word_list("reversal_words") for t in tokenize(w))


@functools.cache
def _drug_names() -> tuple[dict[tuple[str, ...], tuple[str, ...]], int]:
    """Each name of a drug or drug class of ``drugs.yaml`` as its words -> the canonical names it names, and the
    longest name's length in words."""
    out: dict[tuple[str, ...], tuple[str, ...]] = {}
    for term in read_vocabulary().of_kind("drug", "drug_class"):
        for name in term.names:
            if norms := tuple(t.norm for t in tokenize(name)):
                out[norms] = (*out.get(norms, ()), term.name)
    return out, max((len(n) for n in out), default=1)


def _drugs_in(norms: list[str]) -> list[str]:
    """The canonical names of the drugs and classes named in a run of words (longest name first at each place)."""
    names, longest = _drug_names()
    found: list[str] = []
    k = 0
    while k < len(norms):
        for n in range(min(longest, len(norms) - k), 0, -1):
            if (hit := names.get(tuple(norms[k : k + n]))) is not None:
                found += hit
                k += n
                break
        else:
            k += 1
    return found


def reversed_drugs(name: str) -> frozenset[str] | None:
    """The drugs an item reverses: its name has a word of ``reversal_words`` and names a drug ("Reversal of apixaban
    (andexanet alfa or prothrombin complex concentrate)": apixaban); None for any other item. The drug is the one
    no named agent reverses in the vocabulary (``reverses``), not an agent."""
    norms = [t.norm for t in tokenize(name)]
    if REVERSAL_WORDS.isdisjoint(norms):
        return None
    vocabulary = read_vocabulary()
    drugs = frozenset(d for d in _drugs_in(norms)
                      if not any(t.reverses for t in vocabulary.lookup(d, "drug")))
    return drugs or None


def _reverses(agent: str, drug: str) -> bool:
    """Does ``agent`` reverse ``drug`` (the drug, or a class it belongs to, in the agent's ``reverses``)?"""
    vocabulary = read_vocabulary()
    covered = {name.casefold() for t in vocabulary.lookup(agent, "drug") for name in t.reverses}
    for term in vocabulary.lookup(drug):
        if {term.name.casefold(), *(b.name.casefold() for b in vocabulary.broader(term))} & covered:
            return True
    return False


def wrong_reversal(doc: Document, hit: Hit, drugs: frozenset[str]) -> bool:
    """A reversal said with an agent that reverses none of the item's drugs: the clause of the mention names a drug
    with ``reverses`` (a reversal agent) and none of its agents reverses the item's drug ("Vitamin K 10 mg IV to
    reverse the anticoagulation" is no reversal of apixaban; "PCC 50 units/kg to reverse the apixaban" is)."""
    clause = Hit(doc.clause_of(hit.first).first, doc.clause_of(hit.last).last)
    vocabulary = read_vocabulary()
    agents = [d for d in _drugs_in([t.norm for t in doc.tokens[clause.first : clause.last + 1]])
              if any(t.reverses for t in vocabulary.lookup(d, "drug"))]
    return bool(agents) and not any(_reverses(a, d) for a in agents for d in drugs)

"""The words around a mention that change what it means, and how far they reach.

All cue words are compared with the words as written (lower case, apostrophes dropped:
``don't`` -> ``dont``), never with the normalised forms.

Scope, for a mention (a reference item's name or alias found in the final text):

* A cue *before* the mention counts when it is within ``BEFORE_WINDOW`` words and in
  the same clause (a clause ends at ``. ; : ! ?``, a line break or a bullet). A clause
  word such as "but", "however", "unless" or "if" ends the reach too, and so does an
  action verb that follows a comma or "and"/"or"/"then" ("no CT, start amoxicillin",
  "avoid NSAIDs and give paracetamol": amoxicillin and paracetamol are not negated),
  whereas "I would not give antibiotics" and "avoid NSAIDs, aspirin and opioids" are
  negated throughout.
* A cue *after* the mention counts within ``AFTER_WINDOW`` words, in the same clause,
  and not past a comma ("CT is not needed", "NSAIDs are contraindicated", but not
  "start amoxicillin, not levofloxacin" for amoxicillin); a spaced dash right after the
  mention may open its verdict ("sputum cytology - not needed").
* Pseudo-negations are not negations: "cannot rule out", "cannot exclude", "not ruled
  out", "no improvement", "not only", "if not"...
* An exclusion inside a temporal clause is that clause's condition, not a negation of
  the mention: "aspirin 300 mg once haemorrhage excluded", "once a bleed is ruled out,
  aspirin" (a "once", "after", "when", "as soon as", "provided" before "excluded" or
  "ruled out", in the same clause) give aspirin.

What each kind of cue does:

* NEGATION ("no", "not", "don't", "do not", "never", "avoid", "without", "no need
  for", "no evidence of", "stop", "discontinue", "withhold", "instead of", "rather
  than", "unlikely", "contraindicated", "not needed", "doesn't need", "ruled out", ...): a negated
  workup or treatment mention is not a recommendation; it is not scored as given, and
  it never violates a ``must_not_include`` critical condition ("do not give NSAIDs"
  passes), nor satisfies a ``must_include`` one. A negated diagnosis mention is not a
  diagnosis. Everything in a section headed "Avoid:" (or "Do not:", "Contraindicated:",
  "Not recommended:") is negated. "Rule out X", "exclude X" and "to be excluded" are
  NOT negations: they put X on the differential.
* HEDGE ("unlikely", "less likely"): a negation for a workup or treatment; for a
  diagnosis it means "considered, not concluded": a differential.
* DIFFERENTIAL, strong ("differential", "DDx", "consider", "rule out", "exclude",
  "versus", "alternatively", "cannot exclude") and weak ("possible", "possibly",
  "could be", "may be", "query", "?"): a diagnosis mention outside a Diagnosis or
  Differential section with either is a differential. Inside a Diagnosis section only
  a strong cue moves a mention to the differential ("Diagnosis: possible colon
  cancer" stays the working diagnosis). ``DIFFERENTIAL_WINDOW`` words reach further,
  because a differential is often a list ("the differential includes A, B and C").
* BACKGROUND: a mention of what was done or taken before this consultation, or of a
  drug as part of a condition, is not a recommendation: a workup item after
  "previous", "prior", "previously" or "last" ("previous colonoscopy was normal"); a
  treatment after "already", "currently", "previously", "takes" or "is on" ("currently
  on ramipril"; "continue ramipril" is a recommendation); any item after "allergic
  to", "allergy to", "intolerant of", "overdose of" or followed by "induced",
  "related", "allergy", "toxicity", "overdose", "intolerance", "resistance",
  "withdrawal", "misuse" ("NSAID-induced gastritis", "penicillin allergy"). A result
  reported in the final ("the CXR showed consolidation",
  "ferritin 6") does count as that test being part of the work-up: in a consultation,
  results are released on request, so the doctor asked for it.
"""

from __future__ import annotations

from medbench_tui.core.scoring.document import EMPHASIS_MARKS, Document
from medbench_tui.core.vocabulary import read_vocabulary

AVOID_HEADING = "listed under an Avoid heading"
"""The cue of every mention in a section headed "Avoid:", "Do not:", "Contraindicated:"."""

BEFORE_WINDOW = 5
AFTER_WINDOW = 5
DIFFERENTIAL_WINDOW = 12
BACKGROUND_WINDOW = 3


class Cues:
    """A set of cue phrases, indexed by their first and last words."""

    def __init__(self, *items: str) -> None:
        self.phrases = tuple(sorted((tuple(i.split()) for i in items), key=len, reverse=True))
        self.by_last: dict[str, list[tuple[str, ...]]] = {}
        self.by_first: dict[str, list[tuple[str, ...]]] = {}
        for phrase in self.phrases:
            self.by_last.setdefault(phrase[-1], []).append(phrase)
            self.by_first.setdefault(phrase[0], []).append(phrase)

    def __add__(self, other: Cues) -> Cues:
        return Cues(*(" ".join(p) for p in (*self.phrases, *other.phrases)))

    def __contains__(self, phrase: tuple[str, ...]) -> bool:
        return phrase in self.by_first.get(phrase[0], ())

    def ending_at(self, low: list[str], k: int) -> tuple[str, ...] | None:
        for phrase in self.by_last.get(low[k], ()):
            n = len(phrase)
            if k - n + 1 >= 0 and tuple(low[k - n + 1 : k + 1]) == phrase:
                return phrase
        return None

    def starting_at(self, low: list[str], k: int) -> tuple[str, ...] | None:
        for phrase in self.by_first.get(low[k], ()):
            if tuple(low[k : k + len(phrase)]) == phrase:
                return phrase
        return None


_WORDS = read_vocabulary()
"""The shipped vocabulary: every cue list below is a named phrase list of ``cues.yaml``."""


def cue_list(name: str) -> Cues:
    return Cues(*_WORDS.phrases(name))


def word_list(name: str) -> frozenset[str]:
    return frozenset(_WORDS.phrases(name))


NEGATION_BEFORE = cue_list("negation_before")
AVOID_ALTERNATIVE_AFTER = word_list("avoid_alternative_after")
"""A word that ends a clause under an Avoid heading on the alternative given ("paracetamol instead")."""


def avoid_alternative(doc: Document, last: int) -> bool:
    """A treatment under an Avoid heading that is the alternative given in the place of what is avoided: a word
    of ``avoid_alternative_after`` ends its clause after it ("no NSAIDs; paracetamol for the knee instead")."""
    clause = doc.clause_of(last)
    return clause.last > last and doc.lows[clause.last] in AVOID_ALTERNATIVE_AFTER

VERDICT_ARTICLES = ("", "a ", "an ", "the ")
"""The article a negated verdict may put before its verdict word, as it names what the action is ("EPDS is not an
appropriate tool", "a CT is not a useful test here"): grammar."""
NEGATION_AFTER = Cues(
    *_WORDS.phrases("negation_after"),
    *(f"{lead} {article}{adverb}{verdict}" for lead in _WORDS.phrases("negation_verdict_leads")
      for article in VERDICT_ARTICLES
      for adverb in ("", *(f"{a} " for a in _WORDS.phrases("negation_verdict_adverbs")))
      for verdict in _WORDS.phrases("negation_verdicts")),
    *(f"{lead} be {verb}" for lead in _WORDS.phrases("negation_passive_leads")
      for verb in _WORDS.phrases("negation_passive_verbs")),
)
DEFERRAL_AFTER = cue_list("deferral_after")
INTERACTION_WORDS = word_list("interaction_words")
FORECAST_LEADS = cue_list("forecast_leads")
FORECAST_REACH = 4
"""How many words may stand between a team's forecast and the action it names ("will almost certainly start
nadolol"): a verb and a determiner, no more."""
TEAM_NAME_WORDS = 3
TEAM_ARTICLES = frozenset({"the", "her", "his", "their", "your"})
"""Words before a team's name that only say whose it is ("the cardiologists", "her surgeons"; grammar)."""
"""The longest team name read before a forecast ("the liver unit", "on-call cardiology registrar")."""
NOT_DONE_AFTER = cue_list("not_done_after")
PERMISSION_AFTER = cue_list("permission_after")
"""Words right after an action that allow it ("calpol ok"): the very next words, closing what is said of it."""
"""Words right after an action that report it not done ("Speculum: not done"): only as the very next words and
closing what is said of it, so "bloods not done yet" is still to come."""
"""Words after an action that put it off for now ("acetazolamide not yet", "steroids later if needed"): a negation
only where they close what is said of it (:func:`_closes`), so "the CT is not yet back" is a result to come."""
HARM = cue_list("harm")
"""A harm said of an action as its very next words ("undiluted IV adrenaline risks arrhythmia"): the answer
warns against it; not a harm further on ("involve Mum - explain the risks")."""
EXCLUSION = cue_list("exclusion")
TEMPORAL = cue_list("temporal")
"""Words that open a temporal clause: an exclusion after one is a condition."""
TEMPORAL_REACH = 6
HEDGE = cue_list("hedge")
PSEUDO_NEGATION = cue_list("pseudo_negation")
DIFFERENTIAL_STRONG = cue_list("differential_strong")
DIFFERENTIAL_WEAK = cue_list("differential_weak")
DIFFERENTIAL_PREDICATES = cue_list("differential_predicates")
"""Said after a diagnosis, these put it on the differential even where it opens its line ("Gastric malignancy to
be excluded"); other cues after a leading name ("X vs Y") speak of the next one."""
REACTION_ARTICLES = ("", "a ", "an ")
REACTION_PREPOSITIONS = ("with", "to", "on", "after", "from")
"""Grammar of a past reaction before the drug it was to: lead, article, reaction, preposition ("had a rash with")."""
REACTION_OBJECTS = ("", "her ", "him ", "them ", "me ", "you ", "the patient ")
"""Grammar of a reaction a drug caused, said after it: verb, object, article, reaction ("gave her a rash")."""
REACTION_BEFORE = tuple(
    f"{lead} {article}{word} {preposition}"
    for lead in _WORDS.phrases("reaction_leads")
    for article in REACTION_ARTICLES
    for word in _WORDS.phrases("reaction_words")
    for preposition in REACTION_PREPOSITIONS
)
"""A drug as the object of a past reaction is history ("she had a rash with trimethoprim")."""
REACTION_AFTER = tuple(
    f"{verb} {obj}{article}{word}"
    for verb in _WORDS.phrases("reaction_causes")
    for obj in REACTION_OBJECTS
    for article in REACTION_ARTICLES
    for word in _WORDS.phrases("reaction_words")
)
"""A drug said to have caused a reaction is history ("trimethoprim gave her a rash")."""
CHANGE_BEFORE = tuple(
    f"{word} {preposition}"
    for word in _WORDS.phrases("history_change_words")
    for preposition in _WORDS.phrases("history_change_prepositions")
)
"""A treatment or procedure right after a change of the illness and its time ("worse post-debridement", "enlarged
after sharp debridement") was done before today: history."""
CONDITION_BEFORE = (*_WORDS.phrases("history_condition_before"), *REACTION_BEFORE,
                    *_WORDS.phrases("history_response_leads"), *CHANGE_BEFORE)
BACKGROUND_BEFORE = {
    "workup": Cues(*_WORDS.phrases("history_before_workup"), *CONDITION_BEFORE),
    "treatment": Cues(*_WORDS.phrases("history_before_treatment"), *CONDITION_BEFORE),
}
BACKGROUND_AFTER = Cues(*_WORDS.phrases("history_after"), *REACTION_AFTER)
NEGATION_OR_HEDGE_BEFORE = NEGATION_BEFORE + HEDGE
WITHHOLDING_WORDS = word_list("withhold_words")
CONDITION_NEGATION_OR_HEDGE_BEFORE = Cues(
    *(" ".join(p) for p in NEGATION_BEFORE.phrases if p[0] not in WITHHOLDING_WORDS)) + HEDGE
"""The negations before a condition: a withholding verb ("stop", "hold") is said of a treatment, never of a
condition ("after a binge and then stopping, with AKI from vomiting" rejects no AKI)."""
NEGATION_OR_HEDGE_AFTER = NEGATION_AFTER + HEDGE
DIFFERENTIAL_ANY = DIFFERENTIAL_STRONG + DIFFERENTIAL_WEAK
CLAUSE_WORDS = word_list("clause_words")
ACTION_VERBS = word_list("action_verbs")
LINKS = word_list("links")


def _in_pseudo(low: list[str], first: int, last: int) -> bool:
    """Tokens ``first..last`` lie inside a pseudo-negation."""
    for k in range(last, min(len(low), first + 5)):
        for phrase in PSEUDO_NEGATION.by_last.get(low[k], ()):
            start = k - len(phrase) + 1
            if 0 <= start <= first and tuple(low[start : k + 1]) == phrase:
                return True
    return False


def _temporal(low: list[str], clause: list[int], start: int, stop: int) -> bool:
    """A temporal word opens a clause between token ``stop`` and the exclusion cue at
    ``start`` (same clause, at most TEMPORAL_REACH words back)."""
    k = start - 1
    while k >= max(stop, start - TEMPORAL_REACH) and clause[k] == clause[start]:
        if TEMPORAL.ending_at(low, k) is not None:
            return True
        k -= 1
    return False


def _before(
    doc: Document, i: int, phrases: Cues, window: int, *, negation: bool = True, phrase_only: bool = False,
    in_bracket: bool = False, reasons: bool = False,
) -> str | None:
    """A cue of ``phrases`` ending before token ``i``, within reach (see module doc);
    for negation cues, not one inside a pseudo-negation. ``phrase_only``: the cue
    must be in the mention's own phrase (no comma or "and"/"or" between). ``in_bracket``: the cue must be
    inside the bracket the mention is in (not before its opening "("). ``reasons`` (a condition's cues): a
    judgement (a negation or hedge) before a reason word is said of what the reason follows, not of what the
    reason names ("Herpes is less likely as the cold sore has crusted": the cold sore is no rejection)."""
    low = doc.lows
    clause = doc.clause[i]
    if _new_action(doc, i):
        return None  # "stop bisoprolol, discharge home": the mention is an instruction of its own
    k = i - 1
    stop = max(0, i - window)
    past_reason = False
    while k >= stop and doc.clause[k] == clause:
        if negation:
            k = _bracket_back(doc, k)
            if k < stop or doc.clause[k] != clause:
                return None
        word = low[k]
        if phrase_only and (word in LINKS or doc.comma_before[k + 1]):
            return None
        if word in CLAUSE_WORDS:
            return None
        if in_bracket and "(" in doc.text[doc.tokens[k].end : doc.tokens[k + 1].start]:
            return None
        if word in ACTION_VERBS and (doc.comma_before[k] or (k > 0 and low[k - 1] in LINKS)):
            return None
        if reasons and word in REASON_WORDS:
            past_reason = True
        phrase = phrases.ending_at(low, k)
        if phrase is not None and not (negation and _in_pseudo(low, k - len(phrase) + 1, k)):
            if past_reason and (phrase in NEGATION_BEFORE or phrase in HEDGE or phrase in DIFFERENTIAL_ANY):
                return None  # "seizure is the main differential given her background of epilepsy": no query of it
            start = k - len(phrase) + 1
            if negation and phrase in DETERMINER_NEGATIONS and _comma_list_past(doc, k, i):
                return None  # "no debridement/sharp cleaning, non-adherent dressings": the dressings are given
            if not (negation and phrase in EXCLUSION and _temporal(low, doc.clause, start, 0)):
                return " ".join(phrase)
        k -= 1
    return None


NEGATION_EXAMPLE_LEADS = cue_list("negation_example_leads")
"""Words after a comma that give examples of what a bare negation before it denies ("no NSAIDs, e.g. ibuprofen"):
the negation reaches them."""


def _comma_list_past(doc: Document, k: int, i: int) -> bool:
    """A comma stands between a bare negation ending at token ``k`` ("no", "without") and the mention at ``i``, and
    the words after the last such comma give no examples of what it denies: the negation ends at the comma (a list
    closed by "or" it negates throughout, :func:`_before_list`)."""
    commas = [j for j in range(k + 1, i + 1) if doc.comma_before[j]]
    return bool(commas) and NEGATION_EXAMPLE_LEADS.starting_at(doc.lows, commas[-1]) is None


def _bracket_back(doc: Document, k: int) -> int:
    """Scanning back from token ``k + 1``: when a closing bracket stands between tokens ``k`` and ``k + 1``, the
    last token before its opening bracket (a cue inside brackets is said of the word before them and reaches no
    further: "ketones (0.4 - no ketosis), U&E"); else ``k``."""
    tokens = doc.tokens
    if ")" not in doc.text[tokens[k].end : tokens[k + 1].start]:
        return k
    depth = 0
    at = tokens[k + 1].start - 1
    while at >= 0:
        char = doc.text[at]
        if char == ")":
            depth += 1
        elif char == "(":
            depth -= 1
            if depth == 0:
                break
        at -= 1
    while k >= 0 and tokens[k].start >= at:
        k -= 1
    return k


def _new_action(doc: Document, i: int) -> bool:
    """Token ``i`` is an action verb that opens a new piece of a list (after a comma or
    "and"/"or"/"then" in the same clause)."""
    return (
        i > 0 and doc.lows[i] in ACTION_VERBS and doc.clause[i - 1] == doc.clause[i]
        and (doc.comma_before[i] or doc.lows[i - 1] in LINKS)
    )


def _after(
    doc: Document, j: int, phrases: Cues, window: int = AFTER_WINDOW, *, negation: bool = True, closing: bool = False
) -> str | None:
    """A cue of ``phrases`` starting after token ``j`` (the mention's last), within reach; ``closing``: only one
    that closes what is said of the mention (:func:`_closes`)."""
    low = doc.lows
    n = len(low)
    clause = doc.clause[j]
    first_start = doc.tokens[j].start
    k = j + 1
    while k < n and doc.tokens[k].start == first_start:  # tokens of one expanded abbreviation
        k += 1
    for step in range(window):
        at = k + step
        if at < n and doc.clause[at] != clause and negation and step == 0 and _colon_before(doc, at):
            clause = doc.clause[at]  # "Sputum culture: not routinely": a label's verdict after its colon
            withheld = LABEL_WITHHOLDS.starting_at(low, at)
            if withheld is not None:
                return " ".join(withheld)  # "Fludrocortisone: hold while ...", "NSAIDs: avoid"
        if at >= n or doc.clause[at] != clause or low[at] in CLAUSE_WORDS:
            return None
        if doc.comma_before[at] and not (negation and step == 0 and _dash_before(doc, at)):
            return None  # a dash right after the mention may open its verdict: "sputum cytology - not needed"
        if "(" in doc.text[doc.tokens[at - 1].end : doc.tokens[at].start]:
            return None  # "hypercholesterolaemia (stopped his statin)": an explanation
        phrase = phrases.starting_at(low, at)
        if phrase is not None and not (negation and _in_pseudo(low, at, at + len(phrase) - 1)):
            if negation and phrase in EXCLUSION and _temporal(low, doc.clause, at, 0):
                return None  # "aspirin once haemorrhage excluded", "once a CT head has excluded": a condition
            if closing and not _closes(doc, at + len(phrase)):
                continue  # "the CT is not yet back", "not yet reviewed": the words go on about a result
            return " ".join(phrase)
    return None


def _closes(doc: Document, k: int) -> bool:
    """Token ``k`` starts nothing more said of the words before it: the text or the clause ends, punctuation
    stands between, or a clause word or link follows ("acetazolamide not yet, U&E first", "not yet and ...")."""
    if k >= len(doc.lows) or doc.clause[k] != doc.clause[k - 1]:
        return True
    if doc.text[doc.tokens[k - 1].end : doc.tokens[k].start].strip():
        return True
    return doc.lows[k] in CLAUSE_WORDS or doc.lows[k] in LINKS


LABEL_MAX_WORDS = 8
LABEL_WITHHOLDS = cue_list("label_withholds")
"""A label's verdict right after its colon that withholds it: only there, as a verb further on is another action."""


def _colon_before(doc: Document, k: int) -> bool:
    """A colon (with spaces or emphasis marks) is all that stands between token ``k`` and the one before it, and
    what comes before it on its line is a label ("6. Sputum culture:"), not a clause ("ethanol negative: unlikely")."""
    end = doc.tokens[k - 1].end
    gap = doc.text[end : doc.tokens[k].start]
    if gap.count(":") != 1 or gap.replace(":", "").strip(" \t*_"):
        return False
    label = doc.text[doc.text.rfind("\n", 0, end) + 1 : end]
    return "," not in label and " - " not in label and len(label.split()) <= LABEL_MAX_WORDS


def label_colon_after(doc: Document, j: int) -> bool:
    """Is the mention ending at token ``j`` a label: only its colon stands before the next token ("Antibiotics:")?"""
    return doc.clause[j + 1] != doc.clause[j] and _colon_before(doc, j + 1)


def _dash_before(doc: Document, k: int) -> bool:
    """A spaced dash (not a comma) stands between token ``k`` and the one before it."""
    gap = doc.text[doc.tokens[k - 1].end : doc.tokens[k].start]
    return "," not in gap and any(dash in gap for dash in "-\u2013\u2014")


THRESHOLD_NOUNS = cue_list("threshold_nouns")


def names_threshold(doc: Document, last: int) -> bool:
    """The mention ending at token ``last`` names the threshold of its treatment, a threshold noun right after it
    ("620 mg/L is below the dialysis threshold", "Hb above the transfusion trigger"): no action is given."""
    k = last + 1
    while k < len(doc.tokens) and doc.tokens[k].start == doc.tokens[last].start:
        k += 1  # the tokens of one expanded abbreviation
    if k >= len(doc.tokens) or doc.clause[k] != doc.clause[last]:
        return False
    return not doc.text[doc.tokens[k - 1].end : doc.tokens[k].start].strip() and (
        THRESHOLD_NOUNS.starting_at(doc.lows, k) is not None)


DETERMINER_NEGATIONS = cue_list("determiner_negations")
"""A list after these must close with "or" to be negated throughout ("no A, B or C"): "no
penicillin allergy, amoxicillin 500 mg" negates no amoxicillin."""
REASON_WORDS = word_list("reason_words")
PLURAL_LEADS = word_list("plural_leads")
"""A predicate for several coordinated items ("X and Y are contraindicated")."""
LIST_REACH = 14
"""How far a negation reaches over a coordinated list ("no A, B, C or D"; "A, B and C are not indicated")."""


def negation(doc: Document, first: int, last: int, *, of_condition: bool = False, inside: bool = False) -> str | None:
    """The negation cue of the mention at tokens ``first..last``, or None. A mention whose words go on into a
    new action of their own ("lamotrigine for now and restart it at a lower dose") is that action: a cue before
    its first word is the earlier action's ("hold"). ``of_condition``: the mention is a condition, which no
    withholding verb negates and no judgement before a reason word reaches (:data:`CONDITION_NEGATION_OR_HEDGE_BEFORE`,
    :func:`_before`). ``inside``: a verdict inside the mention's own words counts too (:func:`_inside`): asked for
    an item's mention whose own name neither withholds nor judges it (``assertion.states_verdict``: "acetylcysteine
    is not required" states "Withholding acetylcysteine ...")."""
    own_action = any(_new_action(doc, k) for k in range(first + 1, last + 1))
    before = CONDITION_NEGATION_OR_HEDGE_BEFORE if of_condition else NEGATION_OR_HEDGE_BEFORE
    if _after(doc, last, PERMISSION_AFTER, 1, negation=False, closing=True) is not None:
        return None  # "stop Nurofen, calpol ok": allowed, the plan gives it
    return (
        (None if own_action else _before(doc, first, before, BEFORE_WINDOW, reasons=of_condition))
        or _after(doc, last, NEGATION_OR_HEDGE_AFTER)
        or _after(doc, last, DEFERRAL_AFTER, closing=True)
        or _after(doc, last, NOT_DONE_AFTER, 1, closing=True)
        or _harm(doc, last)
        or (None if own_action else _before_list(doc, first, of_condition=of_condition))
        or _after_list(doc, last)
        or _subject_verdict(doc, first, last)
        or _bracket_of_negated(doc, first)
        or _after_apposition(doc, last)
        or (None if of_condition else _forecast_before(doc, first))
        or (_inside(doc, first, last) if inside else None)
        or (None if of_condition else _label_verdict(doc, first, last))
    )


LABEL_LIST_REACH = 12
"""How many words a label's list of items may span before its verdict ("Carbamazepine, oxcarbazepine and
phenytoin:")."""
VERDICT_TAILS = frozenset({"at", "in", "with", "while", "until", "because", "as", "due", "given", "since", "here",
                           "now", "for", "entirely", "altogether", "completely", "owing"})
"""Words that may follow a withholding verb that ends a label's verdict ("Colchicine - avoid at eGFR 27"): they
say when or why, not what else to withhold (grammar)."""


def _label_verdict(doc: Document, first: int, last: int) -> str | None:
    """The verdict after a label the mention is part of, behind a colon or a spaced dash, bold or not (g43):
    "**Sodium valproate: not offered.**", "Carbamazepine, oxcarbazepine and phenytoin: avoid", "Colchicine - avoid
    at eGFR 27", "NSAIDs (including COX-2 inhibitors): no - eGFR 27". The label opens its line and is a list (no
    clause word, action verb or stop); the verdict withholds (``label_withholds``, ending there or followed by when
    or why: "avoid aspirin" withholds aspirin), is a ``negation_after`` cue, or is ``label_refusals`` alone."""
    low, tokens, text = doc.lows, doc.tokens, doc.text
    line_start = text.rfind("\n", 0, tokens[first].start) + 1
    depth = 0
    k = first - 1
    while k >= 0 and tokens[k].start >= line_start:
        if low[k] in CLAUSE_WORDS or low[k] in ACTION_VERBS or _label_separator(
                text[tokens[k].end : tokens[k + 1].start]):
            return None
        k -= 1
    if text[line_start : tokens[k + 1].start].strip(f" \t-*+0123456789.){EMPHASIS_MARKS}"):
        return None  # the line opens on something other than the label's list
    j = last + 1
    while j < len(tokens) and tokens[j].start == tokens[last].start:
        j += 1
    while j < len(tokens) and j - first <= LABEL_LIST_REACH:
        gap = text[tokens[j - 1].end : tokens[j].start]
        if "\n" in gap or any(c in gap for c in ".;"):
            return None
        depth += gap.count("(") - gap.count(")")
        if depth <= 0 and _label_separator(gap):
            return _verdict_at(doc, j) or _declined_by_pronoun(doc, j) or _verdict_closing_line(doc, j)
        if depth <= 0 and (low[j] in CLAUSE_WORDS or low[j] in ACTION_VERBS):
            return None
        j += 1
    return None


LABEL_GIVE_VERBS = word_list("withhold_give_verbs")
LABEL_PRONOUNS = frozenset({"it", "them", "these", "this", "those", "either", "one", "any"})
"""Grammar: the pronouns by which a label's line declines the label ("IV steroids: evidence weak; I would not give
them routinely")."""
LABEL_PRONOUN_TAILS = frozenset({*word_list("negation_verdict_adverbs"), "here", "now", "today", "at", "all", "in",
                                 "this", "case", "setting", "present"})
"""Grammar: what may follow such a pronoun to the end of its sentence ("routinely here", "at present")."""


def _declined_by_pronoun(doc: Document, k: int) -> str | None:
    """A label's line that declines it later by a pronoun, after its reason ("IV corticosteroids: evidence weak; I
    would not give them routinely here"; g64): a negation, a verb of giving and a pronoun, closing its sentence with
    nothing but a time, a place or an adverb of routine ("not give them too fast" is a manner, no refusal)."""
    low, tokens, text = doc.lows, doc.tokens, doc.text
    line_end = text.find("\n", tokens[k].start)
    line_end = len(text) if line_end < 0 else line_end
    for i in range(k, len(tokens) - 2):
        if tokens[i + 2].start >= line_end:
            return None
        if not (NEGATION_BEFORE.starting_at(low, i) == (low[i],) and low[i + 1] in LABEL_GIVE_VERBS
                and low[i + 2] in LABEL_PRONOUNS):
            continue
        j = i + 3
        while j < len(tokens) and tokens[j].start < line_end and not any(
                c in text[tokens[j - 1].end : tokens[j].start] for c in ".;") and low[j] in LABEL_PRONOUN_TAILS:
            j += 1
        if j >= len(tokens) or tokens[j].start >= line_end or any(
                c in text[tokens[j - 1].end : tokens[j].start] for c in ".;,"):
            return " ".join(low[i : i + 3])
    return None


def _verdict_closing_line(doc: Document, k: int) -> str | None:
    """A label's line that gives its reason first and its verdict last, after a spaced dash ("Thiamine: no history
    of alcohol excess - not needed."; g85): the verdict closes the line."""
    tokens, text = doc.tokens, doc.text
    line_end = text.find("\n", tokens[k].start)
    line_end = len(text) if line_end < 0 else line_end
    for i in range(k + 1, len(tokens)):
        if tokens[i].start >= line_end:
            return None
        gap = text[tokens[i - 1].end : tokens[i].start]
        if not (_label_separator(gap) and ":" not in gap):
            continue
        verdict = _verdict_at(doc, i)
        if verdict is not None:
            after = i + len(verdict.split())
            closes = after >= len(tokens) or tokens[after].start >= line_end
            if closes and not text[tokens[after - 1].end : line_end].strip(f" .;!{EMPHASIS_MARKS}"):
                return verdict
    return None


def _label_separator(gap: str) -> bool:
    """The text between two tokens is a label's colon or a spaced dash (with emphasis marks or a closing bracket)."""
    bare = gap.strip(f" \t){EMPHASIS_MARKS}")
    if bare == ":":
        return True
    return bare in ("-", "\u2013", "\u2014") and " " in gap


LABEL_REFUSALS = cue_list("label_refusals")


def team_forecast_at(low: list[str], k: int) -> str | None:
    """Another team's name ends at token ``k``-1 or earlier and a ``forecast_leads`` phrase starts right after it
    ("cardiology will almost certainly", "the surgeons are likely to"): the words of that forecast."""
    vocabulary = read_vocabulary()
    if k < len(low) and low[k] in TEAM_ARTICLES:
        k += 1  # "the cardiologists are likely to"
    for n in range(1, TEAM_NAME_WORDS + 1):
        if k + n >= len(low) or not vocabulary.lookup(" ".join(low[k : k + n]), "team"):
            continue
        lead = FORECAST_LEADS.starting_at(low, k + n)
        if lead is not None:
            return " ".join((*low[k : k + n], *lead))
    return None


def _forecast_before(doc: Document, first: int) -> str | None:
    """The mention is what another team is forecast to do, in its own clause ("cardiology will almost certainly
    start nadolol"; the team's name, a ``forecast_leads`` phrase, then at most :data:`FORECAST_REACH` words): not
    given by the answer. "I will start nadolol" and "cardiology advised nadolol" are no forecast; nor is a condition
    said after one ("the dermatologists will probably confirm pemphigoid" keeps the answer's diagnosis)."""
    low = doc.lows
    for k in range(max(0, first - FORECAST_REACH - TEAM_NAME_WORDS - 4), first):
        if doc.clause[k] != doc.clause[first]:
            continue
        cue = team_forecast_at(low, k)
        if cue is not None and k + len(cue.split()) <= first <= k + len(cue.split()) + FORECAST_REACH:
            return cue
    return None


def _verdict_at(doc: Document, k: int) -> str | None:
    low = doc.lows
    forecast = team_forecast_at(low, k)  # "Beta-blocker: cardiology will almost certainly start one"
    if forecast is not None:
        return forecast
    withheld = LABEL_WITHHOLDS.starting_at(low, k)
    if withheld is not None:
        after = k + len(withheld)
        if after >= len(low) or _closes(doc, after) or low[after] in VERDICT_TAILS:
            return " ".join(withheld)
        return None
    phrase = NEGATION_AFTER.starting_at(low, k)
    if phrase is not None and not _in_pseudo(low, k, k + len(phrase) - 1):
        return " ".join(phrase)
    phrase = NOT_DONE_AFTER.starting_at(low, k)  # closing it: "ECG: not done yet" is still to come
    if phrase is not None and (k + len(phrase) >= len(low) or _closes(doc, k + len(phrase))):
        return " ".join(phrase)
    refusal = LABEL_REFUSALS.starting_at(low, k)
    if refusal is not None and (k + len(refusal) >= len(low) or _closes(doc, k + len(refusal))):
        return " ".join(refusal)
    return None


def _inside(doc: Document, first: int, last: int) -> str | None:
    """A verdict said inside the words a mention spans ("ciclosporin is contraindicated while his renal function is
    impaired" of "Ciclosporin while renal function is impaired"): a ``negation_after`` cue (or a hedge) that starts
    after the mention's first word, with no comma, bracket, clause word or new action before it, governs that word
    as if said right after it. A cue after a comma is another piece's ("ciclosporin, not methotrexate, while")."""
    low = doc.lows
    for k in range(first + 1, last + 1):
        if doc.clause[k] != doc.clause[first] or doc.comma_before[k] or low[k] in CLAUSE_WORDS:
            return None
        if low[k] in ACTION_VERBS or "(" in doc.text[doc.tokens[k - 1].end : doc.tokens[k].start]:
            return None
        phrase = NEGATION_OR_HEDGE_AFTER.starting_at(low, k)
        if phrase is not None and not _in_pseudo(low, k, k + len(phrase) - 1):
            if phrase in EXCLUSION and _temporal(low, doc.clause, k, 0):
                return None  # "aspirin once a bleed is excluded": a condition
            return " ".join(phrase)
    return None


def _after_apposition(doc: Document, last: int) -> str | None:
    """A negation (or a deferral) after a bracket that says what the mention is ("metronidazole (a nitroimidazole)
    is no longer first line", "pegfilgrastim (Neulasta) prophylaxis with future cycles"), as if the bracket were not
    there."""
    k = last + 1
    while k < len(doc.lows) and doc.tokens[k].start == doc.tokens[last].start:
        k += 1
    past = _past_apposition(doc, last, k)
    if past == k or past >= len(doc.lows) or doc.clause[past] != doc.clause[last]:
        return None
    return _after(doc, past - 1, NEGATION_OR_HEDGE_AFTER) or _after(doc, past - 1, DEFERRAL_AFTER, closing=True)


def _bracket_of_negated(doc: Document, first: int) -> str | None:
    """The negation of the words a bracket the mention stands in gives examples of ("no anti-reflux
    medication (Gaviscon, omeprazole)", "avoid antimotility drugs (loperamide, codeine)"): the bracket opens
    on the mention's line right after a word, and no bracket closes between it and the mention."""
    start = doc.tokens[first].start
    line_start = doc.text.rfind("\n", 0, start) + 1
    opened = doc.text.rfind("(", line_start, start)
    if opened < 0 or ")" in doc.text[opened:start] or doc.text[line_start:opened].strip() == "":
        return None
    head = first - 1
    while head >= 0 and doc.tokens[head].end > opened:
        head -= 1
    if head < 0 or doc.tokens[head].start < line_start or doc.text[doc.tokens[head].end : opened].strip(
            f" \t{EMPHASIS_MARKS}"):
        return None  # the bracket follows punctuation, not a word it gives examples of (emphasis marks are layout)
    if doc.lows[head] in INTERACTION_WORDS:
        return doc.lows[head]  # "lithium interactions (NSAIDs, diuretics)": what to keep away from
    return negation(doc, head, head)


SUBJECT_REACH = 10
"""How far after a clause's subject its negated verdict may come ("needle drainage in general practice without
imaging is not safe")."""
SUBJECT_LEADS = frozenset({"the", "a", "an", "any", "her", "his", "their", "this", "that"})
"""Words a clause's subject may open with (grammar)."""
COPULAS = frozenset({"is", "are", "isnt", "arent", "was", "were"})
"""The verbs of a verdict said of a clause's subject (grammar)."""
RELATIVES = frozenset({"who", "which", "that", "whose", "where", "when", "whom"})
"""Words that open a clause inside the subject: a verdict after one is not the subject's (grammar)."""


def _subject_verdict(doc: Document, first: int, last: int) -> str | None:
    """A negated verdict on the mention as its clause's subject, after words that qualify it ("needle drainage in
    general practice without imaging is not safe"): the mention opens its clause, and its clause's first verb
    (a copula, no comma, clause word, action verb or relative word before it) opens a ``negation_after`` cue."""
    low = doc.lows
    clause = doc.clause[first]
    j = first - 1
    while j >= 0 and doc.clause[j] == clause:
        if low[j] not in SUBJECT_LEADS:
            return None
        j -= 1
    k = last + 1
    while k < len(low) and doc.tokens[k].start == doc.tokens[last].start:
        k += 1
    while k < len(low) and k - last <= SUBJECT_REACH and doc.clause[k] == clause:
        word = low[k]
        if doc.comma_before[k] or word in CLAUSE_WORDS or word in ACTION_VERBS or word in RELATIVES:
            return None
        if "(" in doc.text[doc.tokens[k - 1].end : doc.tokens[k].start]:
            return None
        if word in COPULAS or word in AUXILIARIES:
            for at in (k, k + 1) if k > last + 1 else (k,):  # a later predicate: "... and is contraindicated"
                phrase = NEGATION_AFTER.starting_at(low, at)
                if phrase is not None and not _in_pseudo(low, at, at + len(phrase) - 1):
                    return " ".join(phrase)
            following = _next_predicate(doc, k)  # "IV vancomycin does not reach the colon and must not be used"
            if following is None:
                return None
            k = following
            continue
        k += 1
    return None


def _past_apposition(doc: Document, last: int, k: int) -> int:
    """The first token after a bracket that opens right after the subject and closes on its line ("Metronidazole
    (a nitroimidazole) is no longer first line"): what it says of the subject is no predicate; else ``k``."""
    if k >= len(doc.lows) or not doc.text[doc.tokens[last].end : doc.tokens[k].start].strip().startswith("("):
        return k
    closed = doc.text.find(")", doc.tokens[last].end)
    line_end = doc.text.find("\n", doc.tokens[last].end)
    if closed < 0 or (0 <= line_end < closed):
        return k
    while k < len(doc.lows) and doc.tokens[k].start < closed:
        k += 1
    return k


SEEMS = frozenset({"seems", "seem", "appears", "appear", "looks", "look"})
"""Verbs of how a thing seems, before a verdict on it ("torsion seems unlikely"; grammar)."""
AUXILIARIES = frozenset({"do", "does", "did", "must", "should", "can", "cannot", "will", "would", "may"})
"""Verbs that open a predicate of the subject, as a copula does (grammar)."""


def _next_predicate(doc: Document, k: int) -> int | None:
    """The first word of the predicate coordinated by "and" after the one at ``k`` (a copula or auxiliary
    follows "and" straight away), in the same clause with no comma or clause word between; else None."""
    low = doc.lows
    j = k + 1
    while j < len(low) and doc.clause[j] == doc.clause[k] and j - k <= SUBJECT_REACH:
        if doc.comma_before[j] or low[j] in CLAUSE_WORDS:
            return None
        if low[j] == "and":
            after = j + 1
            ok = after < len(low) and doc.clause[after] == doc.clause[k] and (
                low[after] in COPULAS or low[after] in AUXILIARIES)
            return after if ok else None
        j += 1
    return None


def _harm(doc: Document, last: int) -> str | None:
    """A :data:`HARM` predicate right after the mention (no comma, dash or bracket between)."""
    k = last + 1
    while k < len(doc.tokens) and doc.tokens[k].start == doc.tokens[last].start:
        k += 1
    if k >= len(doc.tokens) or doc.clause[k] != doc.clause[last]:
        return None
    if doc.text[doc.tokens[k - 1].end : doc.tokens[k].start].strip():
        return None
    phrase = HARM.starting_at(doc.lows, k)
    if phrase is None or _in_pseudo(doc.lows, k, k + len(phrase) - 1):
        return None
    return " ".join(phrase)


def _list_words(doc: Document, start: int, stop: int) -> bool:
    """Tokens ``start..stop`` are a coordinated list: no clause word, no action verb."""
    return all(doc.lows[k] not in CLAUSE_WORDS and doc.lows[k] not in ACTION_VERBS for k in range(start, stop + 1))


def _before_list(doc: Document, first: int, *, of_condition: bool = False) -> str | None:
    """A negation cue before a closed list that the mention is part of ("no salbutamol,
    adrenaline nebs, steroids or antibiotics"): the list must end with "or"/"nor". Of a condition, not a
    withholding verb."""
    low = doc.lows
    clause = doc.clause[first]
    if _new_action(doc, first):
        return None  # "stop bisoprolol and discharge home"
    k = first - 1
    while k >= max(0, first - LIST_REACH) and doc.clause[k] == clause:
        k = _bracket_back(doc, k)
        if k < 0 or doc.clause[k] != clause:
            return None
        phrase = NEGATION_BEFORE.ending_at(low, k)
        if of_condition and phrase is not None and phrase[0] in WITHHOLDING_WORDS:
            phrase = None
        if phrase is not None and phrase not in HEDGE and not _in_pseudo(low, k - len(phrase) + 1, k):
            start = k + 1 if k + 1 < first and low[k + 1] in ACTION_VERBS else k  # "don't use any X, or Y"
            if not _list_words(doc, start + 1, first - 1):
                return None
            closers = ("or", "nor") if phrase in DETERMINER_NEGATIONS else ("or", "nor", "and")
            j = start + 1
            while j < len(low) and doc.clause[j] == clause and j - k <= LIST_REACH:
                if low[j] in closers and j > k + 1:
                    return " ".join(phrase)
                if low[j] in CLAUSE_WORDS or low[j] in ACTION_VERBS:
                    return None
                j += 1
            return None
        k -= 1
    return None


def _after_list(doc: Document, last: int) -> str | None:
    """A plural negated predicate after a coordinated list the mention is part of ("A and B
    are contraindicated", "antibiotics, steroids and inhalers don't help"). A spaced dash ends the list: what follows
    it is the reason's own list ("Admit today - resting SpO2 and desaturation are not safe for home")."""
    low = doc.lows
    clause = doc.clause[last]
    k = last + 1
    while k < len(low) and doc.clause[k] == clause and k - last <= LIST_REACH:
        if low[k] in CLAUSE_WORDS or low[k] in ACTION_VERBS or low[k] in REASON_WORDS or (
                doc.comma_before[k] and _dash_before(doc, k)):
            return None
        phrase = NEGATION_OR_HEDGE_AFTER.starting_at(low, k)  # "A and B (x, y) are unlikely": hedged, both
        plural = phrase is not None and (low[k] in PLURAL_LEADS or low[k - 1] in PLURAL_LEADS)
        if phrase is not None and plural and not _in_pseudo(low, k, k + len(phrase) - 1):
            return " ".join(phrase)
        k += 1
    return None


def hard_negation(doc: Document, first: int, last: int) -> str | None:
    """A negation that is not a hedge: for diagnoses ("not X", "no evidence of X")."""
    cue = negation(doc, first, last, of_condition=True)
    if cue is None or tuple(cue.split()) in HEDGE:
        return None
    return cue


def differential_cue(
    doc: Document, first: int, last: int, *, strong_only: bool = False, before_only: bool = False,
    in_bracket: bool = False,
) -> str | None:
    """A differential cue before the mention (or after it, unless ``before_only``: in
    "threatened miscarriage vs early ectopic" the "vs" puts the second on the differential);
    ``in_bracket``: a cue before the bracket the mention opens is not its own."""
    phrases = DIFFERENTIAL_STRONG if strong_only else DIFFERENTIAL_ANY
    cue = _before(doc, first, phrases, DIFFERENTIAL_WINDOW, negation=False, in_bracket=in_bracket,
                  reasons=True) or _after(
        doc, last, DIFFERENTIAL_PREDICATES if before_only else phrases, negation=False
    )
    if cue is None and not strong_only and _query_mark(doc, first):
        return "?"
    return cue


QUERIED_QUALIFIERS = word_list("diagnosis_item_hedges")
QUERY_QUALIFIER_REACH = 2
"""Words of a condition's qualifier ("early", "acute") a query mark may stand before: ``?early X`` queries X."""


def _query_mark(doc: Document, first: int) -> bool:
    """``?X``: the clinical shorthand for a query, also written before the condition's qualifier (``?early X``,
    ``?acute X``; ``diagnosis_item_hedges``), no comma between."""
    k = first
    while True:
        start = doc.tokens[k].start
        if start > 0 and doc.text[start - 1] == "?":
            return True
        k -= 1
        if (first - k > QUERY_QUALIFIER_REACH or k < 0 or doc.clause[k] != doc.clause[first]
                or doc.comma_before[k + 1] or doc.lows[k] not in QUERIED_QUALIFIERS
                or doc.text[doc.tokens[k].end : doc.tokens[k + 1].start].strip()):
            return False


CONDITION_CUES = Cues(*CONDITION_BEFORE)
CONDITION_JOINS = frozenset({"and", "or"})
"""Grammar of a second object of one allergy or reaction ("allergic to penicillin and trimethoprim")."""
CONDITION_LIST_REACH = 4
"""Words of the first object at most, between the cue and the join."""


def _condition_list(doc: Document, first: int) -> bool:
    """The mention is the second object of an allergy or reaction cue, joined by "and"/"or" right before it,
    with no comma, clause word or action verb between ("allergic to co-amoxiclav and trimethoprim"; not
    "allergic to penicillin and give trimethoprim")."""
    low = doc.lows
    join = first - 1
    if join < 1 or low[join] not in CONDITION_JOINS or doc.clause[join] != doc.clause[first]:
        return False
    for k in range(join - 1, max(-1, join - 1 - CONDITION_LIST_REACH), -1):
        if doc.clause[k] != doc.clause[first] or doc.comma_before[k + 1]:
            return False
        if CONDITION_CUES.ending_at(low, k) is not None:
            return k < join - 1
        if low[k] in CLAUSE_WORDS or low[k] in ACTION_VERBS or low[k] in LINKS:
            return False
    return False


HISTORY_CLAUSE_LEADS = word_list("history_clause_leads")


def _history_clause(doc: Document, first: int) -> bool:
    """The mention's clause opens with a word of the patient's background, no action verb between ("Known
    metastatic prostate cancer, PSA rising": a result of the past, no test asked for; not "known asthmatic, give
    salbutamol")."""
    start = first
    while start > 0 and doc.clause[start - 1] == doc.clause[first]:
        start -= 1
    return (start < first and doc.lows[start] in HISTORY_CLAUSE_LEADS
            and not any(doc.lows[k] in ACTION_VERBS for k in range(start + 1, first)))


PAST_TEST_TIMES = cue_list("history_after_workup")
PAST_TEST_WINDOW = 3
"""How far after a test its past time may stand ("FBC 2 weeks ago")."""
PAST_DRUG_WINDOW = 2
"""A drug's past time stands right after it, a count aside ("ibuprofen last wk", "naproxen 2 wks ago"); further on
it may be another word's ("restart lamotrigine (missed doses last week)")."""


GIVEN_BEFORE_AFTER = cue_list("history_after_treatment")
GIVEN_BEFORE_WINDOW = 6
"""How far after a drug who gave it, or where, before this visit may stand: a short list or a dose between
("Paracetamol and ibuprofen given at home", "IM adrenaline 0.3 mg by the ambulance crew")."""


def background(doc: Document, first: int, last: int, kind: str) -> bool:
    """The workup or treatment mention is history (a test done at a past time: "CT head last year"), or part of a
    condition's name."""
    return (
        _history_clause(doc, first) or
        _before(doc, first, BACKGROUND_BEFORE[kind], BACKGROUND_WINDOW, negation=False, phrase_only=True) is not None
        or _after(doc, last, BACKGROUND_AFTER, 1, negation=False) is not None
        or _after(doc, last, PAST_TEST_TIMES, PAST_TEST_WINDOW if kind == "workup" else PAST_DRUG_WINDOW,
                  negation=False) is not None
        or (kind == "treatment" and _after(doc, last, GIVEN_BEFORE_AFTER, GIVEN_BEFORE_WINDOW, negation=False)
            is not None)
        or _condition_list(doc, first)
    )


def said_alone(doc: Document, first: int, last: int) -> bool:
    """Tokens ``first..last`` are a noun phrase of their own: no word of another name runs into them ("herpes
    zoster", "labial herpes", "herpes serology"). Before them stands the clause's start, a comma, a link, a
    subject's lead ("the"), a verb "to be" ("unlikely to be torsion") or a cue that ends there ("less likely",
    "no", "?"); after them the clause's end, punctuation, a clause or reason word, a verb "to be", an auxiliary
    or a verb of seeming ("seems unlikely"), or a cue that starts there ("unlikely", "vs"), not a link ("group and
    save"). Grammar only: what the words are is the caller's."""
    low = doc.lows
    clause = doc.clause[first]
    k = first - 1
    if k >= 0 and doc.clause[k] == clause and not doc.comma_before[first]:
        gap = doc.text[doc.tokens[k].end : doc.tokens[first].start]
        if doc.tokens[k].start == doc.tokens[first].start or (gap.strip() and not gap.strip(" -")):
            return False  # inside an expanded abbreviation, or one word with the one before ("non-torsion")
        if "?" not in gap and not (
                low[k] in SUBJECT_LEADS or low[k] in LINKS or low[k] in COPULAS or low[k] == "be"
                or NEGATION_OR_HEDGE_BEFORE.ending_at(low, k) is not None
                or DIFFERENTIAL_ANY.ending_at(low, k) is not None):
            return False
    j = last + 1
    if j < len(low) and doc.tokens[j].start == doc.tokens[last].start:
        return False
    if j < len(low) and doc.clause[j] == clause and not doc.comma_before[j]:
        gap = doc.text[doc.tokens[last].end : doc.tokens[j].start]
        word = low[j]
        if not gap.strip(" -") and not (
                word in COPULAS or word in AUXILIARIES or word in SEEMS or word in CLAUSE_WORDS or word in REASON_WORDS
                or NEGATION_OR_HEDGE_AFTER.starting_at(low, j) is not None
                or DIFFERENTIAL_ANY.starting_at(low, j) is not None
                or DIFFERENTIAL_PREDICATES.starting_at(low, j) is not None):
            return False
    return True

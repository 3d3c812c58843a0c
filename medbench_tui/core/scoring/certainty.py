"""How sure the grader is of each decision: the doubts that make an item decision or a
critical-condition verdict ``uncertain``.

Every grader makes mistakes; a reader of a run needs to know which decisions to check. A
decision is uncertain when the reading that made it rests on something a physician could read
the other way, named by the rules below (``medbench vocabulary rules`` lists them with the
grader's other rules). The rules look only at what the extractor and matcher already found and
at the words of the answer; they never change a decision, they say which ones to review first.

They were chosen by where the grader disagrees with physicians' labels (``benchmarks/
scoring_agreement.py`` prints, per rule, how many decisions it flags and how many of those
disagree): an item left out although its words are in the answer, or in a part of it where
nothing was read, or a required item left out of a terse plan. Rules tried on the found side and
left out, as the decisions they flagged were wrong hardly more often than the rest (3-10%
against about 3%): an item met through a team; given from a line that says little of its name
(its time, route or dose); from one word for a long name ("bloods"); with a negation or
condition word a few words away. Errors on the found side therefore stay mostly unflagged, and
the found-side doubts that stay hold in short answers only: a long answer spells out what it
means (round 13, measured per labelled set by ``benchmarks/certainty_calibration.py``). Round 16
added found-side doubts that read the words around the mention rather than the match: a time
tomorrow or later ("put off"), the other branch of a contingency, a hedge or query mark before an
action, a hedge in the clause of a diagnosis read as the answer's own. Round 19 added a bare "no" in shorthand
(which often reports a finding) and an acceptable item a terse plan leaves in words it did not read.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Literal

from medbench_tui.core.batch_caches import batch_cache
from medbench_tui.core.scoring import cues
from medbench_tui.core.scoring.actions import DRUG_OF_CLASS, DRUG_OF_CLASS_ROUTE_UNSAID, SAME_DRUG_ROUTE_UNSAID
from medbench_tui.core.scoring.concepts import SAFETY_NET
from medbench_tui.core.scoring.document import document
from medbench_tui.core.scoring.extraction_model import Entity, Extraction, Span
from medbench_tui.core.scoring.match import CREDIT, GROUP_RULE, Candidate, Pairing
from medbench_tui.core.scoring.reference import EXAM_FINDING, MOST_WORDS_RULE
from medbench_tui.core.scoring.text_extractor import ALTERNATIVE, rejected_by
from medbench_tui.core.text import key_tokens, normalise
from medbench_tui.core.vocabulary.reading import timing_of

Certainty = Literal["certain", "uncertain"]

CLOSE_SCORE = 5.0
"""Two candidates within this many points of each other compete for one mention."""
PRESENT_SHARE = 0.75
"""The share of a missing item's words (its name or an alias) that the whole answer must hold."""
NEAR_SHARE = 0.6
"""The share of a missing item's words that a part of the answer where nothing was read must hold."""
CLIP_LENGTH = 4
"""The shortest clipped word read as the start of a longer one ("psych", "para")."""
TERSE_READ = 3
"""A terse plan still says what to do: at least this many mentions read (an answer that offers no plan,
such as the checklist baseline's, leaves nothing implied)."""
TERSE_WORDS = 80
"""An answer of fewer words is a terse plan: it leaves things implied ("XM 4u, vasc reg"), which
the grader reads less well (the labelled sets' terse answers are under 100 words, their thorough
ones over 300)."""
DENSE_READS = 0.15
"""An answer from which at least this many mentions per word were read is a terse plan too, however long
its history: shorthand packs an item into every few words ("3% NaCl 150 ml IV -> recheck Na", "Max up 8
mmol/L in first 24h"); the labelled sets' terse answers mostly read more than 0.15 per word, their flawed
short ones and their thorough ones mostly less."""


@dataclass(frozen=True)
class AnswerWords:
    """The answer's words as the doubt rules read them (normalised, filler left out)."""

    whole: frozenset[str]  # every word of the answer
    unread: frozenset[str]  # the words of its pieces where the extractor read nothing
    count: int = 0  # how many words the answer has (a bullet, arrow or plus sign is none: ``_is_word``)
    read: int = 0  # how many mentions the extractor read in it
    texts: tuple[tuple[str, str], ...] = ()  # each span field with its text, to read a mention's piece

    @property
    def shorthand(self) -> bool:
        """Read at ``DENSE_READS`` mentions per word or more: a plan in shorthand, however long."""
        return self.read >= DENSE_READS * self.count


@dataclass(frozen=True)
class ItemFacts:
    """What a doubt rule reads about one scorecard row."""

    row: Pairing
    candidates: list[Candidate]  # the answer item's candidates, best first (empty for a missing item)
    unsaid: Entity | None  # the first mention of the reference item that the answer did not recommend
    words: AnswerWords
    read_elsewhere: bool = False  # a diagnosis left out of the diagnoses that the answer names as a differential
    as_final: Entity | None = None  # the answer's diagnosis that names a differential left out of the differentials

    @property
    def missing(self) -> bool:
        return self.row.entity is None and self.row.ref is not None

    @property
    def harmful(self) -> bool:
        """A workup or treatment item that gives no credit (unexpected, contraindicated, not indicated)."""
        return self.row.ref is not None and not self.row.ref.is_diagnosis and self.row.ref.klass not in CREDIT

    @property
    def short(self) -> bool:
        return self.words.count < SHORT_ANSWER_WORDS


@dataclass(frozen=True)
class DoubtRule:
    name: str
    says: str
    applies: Callable[[ItemFacts], bool] = field(repr=False)


def _words_present(f: ItemFacts) -> bool:
    if (not f.missing or f.unsaid is not None or f.row.ref is None or (f.harmful and not f.short) or f.read_elsewhere
            or f.as_final is not None):
        return False
    return _holds(f.row.ref.word_sets, f.words.whole, PRESENT_SHARE)


def _near_words(f: ItemFacts) -> bool:
    if not f.missing or f.unsaid is not None or f.row.ref is None or (f.harmful and not f.short):
        return False
    return _holds(f.row.ref.word_sets, f.words.unread, NEAR_SHARE)


def _holds(word_sets: tuple[frozenset[str], ...], within: frozenset[str], share: float) -> bool:
    """Whether ``within`` holds ``share`` (above 0) of the words of one of an item's names. Words that hold no
    form of any of its words are passed over at once, as most answers are for most items left out."""
    if not within or within.isdisjoint(_all_forms(word_sets)):
        return False
    return any(_share(words, within) >= share for words in word_sets)


def _terse_plan(f: ItemFacts) -> bool:
    ref = f.row.ref
    return (
        f.missing and f.unsaid is None and ref is not None and not ref.is_diagnosis and ref.klass == "required"
        and f.words.read >= TERSE_READ and _holds(ref.word_sets, f.words.whole, PART_SHARE)
        and (f.words.count < TERSE_WORDS or f.words.shorthand)
    )


def _implied_acceptable(f: ItemFacts) -> bool:
    ref = f.row.ref
    return (
        f.missing and f.unsaid is None and ref is not None and not ref.is_diagnosis and ref.klass == "acceptable"
        and f.words.read >= TERSE_READ and (f.words.count < TERSE_WORDS or f.words.shorthand) and f.short
        and _holds(ref.word_sets, f.words.unread, PART_SHARE)
    )


def _bare_negation(f: ItemFacts) -> bool:
    ref = f.row.ref
    return (f.missing and f.unsaid is not None and f.unsaid.status == "negated" and f.unsaid.negated in BARE_NEGATIONS
            and ref is not None and not ref.is_diagnosis and ref.klass in CREDIT and f.words.shorthand)


def _only_conditional(f: ItemFacts) -> bool:
    return (f.missing and f.unsaid is not None and f.unsaid.status == "conditional"
            and (f.unsaid.negated or "") in OPEN_CONDITIONS)


def _said_both_ways(f: ItemFacts) -> bool:
    return (f.row.entity is not None and f.harmful and f.unsaid is not None
            and f.unsaid.status in ("negated", "historical"))


INFERRED_READINGS = frozenset({SAFETY_NET, EXAM_FINDING})
"""Matching rules that infer an item from another act the answer names: a return-if sentence read as the
safety-netting item, a finding reported read as the examination done."""
DRUG_READINGS = frozenset({GROUP_RULE, SAME_DRUG_ROUTE_UNSAID, DRUG_OF_CLASS, DRUG_OF_CLASS_ROUTE_UNSAID})
"""Matching rules that read a drug item from another form of it: a drug of the required item's group, the same
drug with the item's route unsaid, another drug of the item's class ("co-codamol" for a strong opioid).
Physicians' labels part from these readings and the inferred ones about one time in four in short answers on
the labelled sets (against about one in forty for an item named), hardly ever in long ones."""
BARE_NEGATIONS = cues.word_list("bare_negations")
"""The one-word negations ("no", "not"), which in shorthand often report a finding or a past result ("no peritonism,
lactate 4.1", "no bone mets Sept") rather than withhold an act or reject a diagnosis: of the credited items left out
of a plan in shorthand as negated by one, 4 of 7 disagreed on the labelled sets (1 of 13 in prose),
of the differentials read from one in an answer of fewer than ``SHORT_ANSWER_WORDS`` words 3 of 5 (none of the 4
rejected by a longer phrase: "excluded", "rather than")."""
BARE_REJECTIONS = frozenset(rejected_by(word) for word in BARE_NEGATIONS)
"""Diagnosis readings from a name rejected by a bare negation only ("no PE")."""
SHORT_ANSWER_WORDS = 130
"""An answer of fewer words names its main problem and leaves comorbidities implied; a secondary
diagnosis left out of one is a guess about what the author meant (the labelled sets' terse answers). A
longer answer spells out what it means: the readings of what it gives (inferred, advice, close wording)
stand (0 to 6% of them disagree, against 15 to 78% in shorter ones), and the harms it names it names to
rule out (none of 47 harmful items left out of one disagreed although their words were there)."""
PART_SHARE = 0.5
"""The share of an item's words a terse plan or a short answer must hold for its absence to be doubted:
an item none of whose words are there was left out (4 of 72 such terse-plan doubts disagreed, 1 of 65
secondary diagnoses)."""
DIAGNOSIS_SECTIONS = frozenset({"diagnosis", "differential"})
"""The answer's sections that state diagnoses; a comorbidity named elsewhere is named in passing."""
LATER_HOURS = 18.0
"""A mention whose piece gives only times starting this many hours from now or later ("tomorrow", "next-day",
"outpatient", "GP to arrange", ``timing.yaml``) puts the act off beyond the consultation."""
OPEN_CONDITIONS = cues.word_list("open_conditions")
OTHER_BRANCHES = cues.cue_list("other_branches")
HEDGES = cues.cue_list("differential_weak")
ACTION_HEDGES = cues.word_list("action_hedges")
QUERY_REACH = 3
"""How many words before an action a hedge of it may stand ("consider IV morphine", "?DDAVP clamp")."""
"""The condition triggers of a plan's own contingencies ("X if Y", "unless", "on standby"): an item said only
under one was left out by the grader, and physicians part on it one time in five; under a restriction ("only
if", "reserved for") they agree."""


def _inferred(f: ItemFacts) -> bool:
    return f.row.entity is not None and f.short and f.row.via in INFERRED_READINGS


def _another_form(f: ItemFacts) -> bool:
    return f.row.entity is not None and f.short and f.row.via in DRUG_READINGS


def _advice_only(f: ItemFacts) -> bool:
    return f.row.entity is not None and f.short and f.row.entity.section == "advice"


def _weak_differential(f: ItemFacts) -> bool:
    entity = f.row.entity
    if entity is None or entity.kind != "differential":
        return False
    reason = entity.reason or ""
    return (f.words.count < TERSE_WORDS and reason.startswith(ALTERNATIVE)) or (f.short and reason in BARE_REJECTIONS)


def _secondary_in_short_answer(f: ItemFacts) -> bool:
    ref = f.row.ref
    return f.missing and f.unsaid is None and ref is not None and ref.klass == "secondary" and f.short and (
        _holds(ref.word_sets, f.words.whole, PART_SHARE))


def _secondary_in_passing(f: ItemFacts) -> bool:
    entity, ref = f.row.entity, f.row.ref
    if entity is None or ref is None or ref.kind != "secondary" or not f.short or entity.kind != "diagnosis":
        return False
    if entity.section in DIAGNOSIS_SECTIONS or not ref.word_sets:
        return False
    said = entity.evidence.text if isinstance(entity.evidence, Span) else entity.text
    return _share(ref.word_sets[0], _words(said)) < PART_SHARE


def _primary_half_named(f: ItemFacts) -> bool:
    ref = f.row.ref
    return (f.missing and f.unsaid is None and ref is not None and ref.kind == "primary"
            and _holds(ref.word_sets, f.words.whole, PART_SHARE)
            and not _holds(ref.word_sets, f.words.whole, PRESENT_SHARE))


def _most_words(f: ItemFacts) -> bool:
    return f.row.entity is not None and f.short and f.row.via == MOST_WORDS_RULE


def _competing(f: ItemFacts) -> bool:
    if f.row.entity is None or len(f.candidates) < 2 or not f.short:
        return False
    first, second = f.candidates[0], f.candidates[1]
    return first.ref is not second.ref and first.score - second.score <= CLOSE_SCORE


def _put_off(f: ItemFacts) -> bool:
    entity, ref = f.row.entity, f.row.ref
    if entity is None or ref is None or ref.klass not in CREDIT or not f.short:
        return False
    if not isinstance(entity.evidence, Span):
        return False
    windows = timing_of(_piece(dict(f.words.texts).get(entity.evidence.field, ""), entity.evidence.start))
    return bool(windows) and min(w[0] for w in windows) >= LATER_HOURS


def _other_branch(f: ItemFacts) -> bool:
    entity, ref = f.row.entity, f.row.ref
    if entity is None or ref is None or ref.is_diagnosis or not f.short or not isinstance(entity.evidence, Span):
        return False
    low = _WORD_RE.findall(_piece(dict(f.words.texts).get(entity.evidence.field, ""), entity.evidence.start).lower())
    return any(OTHER_BRANCHES.starting_at(low, k) for k in range(len(low)))


def _hedged_final(f: ItemFacts) -> bool:
    entity, ref = f.row.entity or f.as_final, f.row.ref
    if entity is None or ref is None or not ref.is_diagnosis or entity.kind != "diagnosis":
        return False
    if not isinstance(entity.evidence, Span):
        return False
    text = dict(f.words.texts).get(entity.evidence.field, "")
    low = _WORD_RE.findall(_piece(text, entity.evidence.start, _CLAUSE_BREAK).lower())
    return any(HEDGES.starting_at(low, k) for k in range(len(low)))


def _queried(f: ItemFacts) -> bool:
    entity, ref = f.row.entity, f.row.ref
    if entity is None or ref is None or ref.is_diagnosis or not f.short or not isinstance(entity.evidence, Span):
        return False
    before = dict(f.words.texts).get(entity.evidence.field, "")[: entity.evidence.start].lower()
    line = before[before.rfind("\n") + 1:]  # a line break ends a break: the last piece is the line's
    return not ACTION_HEDGES.isdisjoint(_TOKEN_RE.findall(_piece(line, len(line)))[-QUERY_REACH:])


def _piece(text: str, at: int, breaks: re.Pattern[str] | None = None) -> str:
    """The piece of ``text`` (between breaks: a line, a clause, a bracket) that holds the character ``at``."""
    starts, ends = _cuts(text, breaks or _PIECE_BREAK)
    k = bisect_right(starts, at)  # the first break that starts after ``at``
    return text[ends[k - 1] if k else 0:starts[k] if k < len(starts) else len(text)]


@batch_cache(maxsize=64)
def _cuts(text: str, breaks: re.Pattern[str]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Where the breaks of ``text`` start and end, found once per text: every item of an answer looks up its
    piece in the same text (scanning it from the start for each was quadratic in a long answer)."""
    found = list(breaks.finditer(text))
    return tuple(cut.start() for cut in found), tuple(cut.end() for cut in found)


def _close_to_an_item(f: ItemFacts) -> bool:
    return f.row.ref is None and f.row.entity is not None and any(c.ref.klass in CREDIT for c in f.candidates)


def _share(words: frozenset[str], within: frozenset[str]) -> float:
    """The share of ``words`` the answer holds, a word also held by its clipped form ("psych" for
    psychiatry, "para" for paracetamol): terse answers clip words the grader does not expand."""
    if not within:  # an empty answer (or no unread part) holds nothing
        return 0.0
    forms = _forms(words)
    if not forms:
        return 0.0
    return (len(forms) - sum(map(within.isdisjoint, forms))) / len(forms)


@batch_cache(maxsize=65536)
def _forms(words: frozenset[str]) -> tuple[frozenset[str], ...]:
    """Each word with the clipped forms that hold it, made once per name (every missing item of
    every answer is weighed by them)."""
    return tuple(frozenset([w, *(w[:k] for k in range(CLIP_LENGTH, len(w)))]) for w in words)


@batch_cache(maxsize=65536)
def _all_forms(word_sets: tuple[frozenset[str], ...]) -> frozenset[str]:
    """Every form of every word of an item's names, made once per item."""
    return frozenset(form for words in word_sets for forms in _forms(words) for form in forms)


DOUBTS: tuple[DoubtRule, ...] = (
    DoubtRule("words present", "left out, though the words of its name or of an alias are in the answer, "
              "and no mention of it was read as negated or conditional (a harmful item: in an answer of fewer "
              f"than {SHORT_ANSWER_WORDS} words)", _words_present),
    DoubtRule("near words", "left out, though most of its words are in a part of the answer where nothing "
              "was read: a wording the grader may not know (a harmful item: in an answer of fewer than "
              f"{SHORT_ANSWER_WORDS} words)", _near_words),
    DoubtRule("terse plan", f"a required item left out of an answer of fewer than {TERSE_WORDS} words (or read at "
              f"{DENSE_READS} mentions per word or more) that holds half its words: a terse plan leaves things "
              "implied that the grader may not read", _terse_plan),
    DoubtRule("implied in a terse plan", f"an acceptable item left out of a terse plan (fewer than {TERSE_WORDS} "
              f"words, or read at {DENSE_READS} mentions per word or more, and fewer than {SHORT_ANSWER_WORDS}) "
              "half of whose words are in a part of the answer where nothing was read (\"Dex 8 mg IV\")",
              _implied_acceptable),
    DoubtRule("bare negation", "a credited action left out of a plan in shorthand as its only mention is negated by "
              "a bare \"no\" or \"not\" (``bare_negations``), which in shorthand often reports a finding (\"no "
              "peritonism, lactate 4.1\") rather than withholds the act", _bare_negation),
    DoubtRule("only as a condition", "left out, as its only mention is under a contingency of the plan (\"if\", "
              "\"unless\", \"on standby\"), which a physician may read as the plan", _only_conditional),
    DoubtRule("said both ways", "a harmful item given, though another mention of it is negated or background: "
              "the answer may be advising against it", _said_both_ways),
    DoubtRule("all but one word", "given from all but one word of its name or alias, close together: a "
              f"looser reading than its own words (in an answer of fewer than {SHORT_ANSWER_WORDS} words)",
              _most_words),
    DoubtRule("competing items", "the answer's words fit another reference item nearly as well (in an answer of "
              f"fewer than {SHORT_ANSWER_WORDS} words)", _competing),
    DoubtRule("inferred", "given by inference, not by its name: a return-if sentence as safety-netting, a reported "
              f"finding as the examination (in an answer of fewer than {SHORT_ANSWER_WORDS} words)", _inferred),
    DoubtRule("another form of the drug", "given as a drug of the item's group or class, or as the same drug with "
              f"its route unsaid (in an answer of fewer than {SHORT_ANSWER_WORDS} words)", _another_form),
    DoubtRule("advice only", "given only in advice to the patient (\"go to A&E, they will do bloods\"), which a "
              f"physician may read as telling, not doing (in an answer of fewer than {SHORT_ANSWER_WORDS} words)",
              _advice_only),
    DoubtRule("weak differential", "read as a differential from a name said in passing, with no heading or firm "
              f"word around it: beside another, in an answer of fewer than {TERSE_WORDS} words, or rejected by a bare "
              f"negation (\"no bone mets\"), in one of fewer than {SHORT_ANSWER_WORDS}", _weak_differential),
    DoubtRule("secondary in a short answer", f"a secondary diagnosis left out of an answer of fewer than "
              f"{SHORT_ANSWER_WORDS} words that holds half its words, which leaves comorbidities implied",
              _secondary_in_short_answer),
    DoubtRule("secondary in passing", f"a secondary diagnosis given from a mention outside the diagnoses of an "
              f"answer of fewer than {SHORT_ANSWER_WORDS} words, in fewer than half the words of its name (\"smoker\" "
              "for tobacco dependence syndrome, \"diabetes\" for diabetes with renal complications)",
              _secondary_in_passing),
    DoubtRule("primary half named", "the primary diagnosis left out, though half the words of its name or of an "
              "alias are in the answer: the whole diagnosis metric turns on it", _primary_half_named),
    DoubtRule("put off", "given from a piece of the answer that times it tomorrow or later (\"outpatient echo\", "
              "\"next-day review\"), a time the item's own may still overlap: a physician may read it as not done "
              f"now (in an answer of fewer than {SHORT_ANSWER_WORDS} words)", _put_off),
    DoubtRule("other branch", "an action given from a piece of the answer that opens the other branch of a contingency "
              "(\"methotrexate if the hCG is low; otherwise salpingectomy\", ``other_branches``): the plan may not be "
              f"doing it now (in an answer of fewer than {SHORT_ANSWER_WORDS} words)", _other_branch),
    DoubtRule("hedged final", "a diagnosis read as the answer's diagnosis from a clause that hedges it (\"early "
              "pre-eclampsia is possible\", \"this could be\": the vocabulary's ``differential_weak``), which a "
              "physician may read as a differential", _hedged_final),
    DoubtRule("queried", "an action given from a mention a hedge or shorthand's query mark stands just before "
              "(\"?DDAVP clamp\", \"consider IV morphine\": ``action_hedges``), which only weighs it (in an answer "
              f"of fewer than {SHORT_ANSWER_WORDS} words)", _queried),
    DoubtRule("close to an item", "counted as extra although it comes close to a credited reference item",
              _close_to_an_item),
)
"""The doubt rules of item decisions, each named, in the order a reason lists them."""

CONDITION_DOUBTS: tuple[tuple[str, str], ...] = (
    ("rests on an uncertain item", "an item the verdict rests on is itself an uncertain decision (every item, "
     "when it was met by items given)"),
    ("bare phrase", "decided by a phrase of the condition that names no item (no aliases, timing or meaning)"),
)
"""The doubt rules of critical-condition verdicts (``condition_doubts``)."""


_OF_ITEMS_LEFT_OUT = frozenset({_words_present, _near_words, _terse_plan, _implied_acceptable, _bare_negation,
                                _only_conditional, _secondary_in_short_answer, _primary_half_named})
"""The rules that doubt only a reference item left out (each is false for an answer's item)."""
_OF_ITEMS_GIVEN = frozenset({_said_both_ways, _most_words, _competing, _inferred, _another_form, _advice_only,
                             _weak_differential, _secondary_in_passing, _put_off, _other_branch, _queried,
                             _close_to_an_item})
"""The rules that doubt only an answer's item (each is false for a row with no answer)."""
_OF_SHORT_ANSWERS = frozenset({_inferred, _another_form, _advice_only, _weak_differential, _secondary_in_short_answer,
                               _secondary_in_passing, _most_words, _competing, _put_off, _other_branch, _queried,
                               _implied_acceptable})
"""The rules that doubt a row of an answer of fewer than ``SHORT_ANSWER_WORDS`` words only (each is false for a
longer one: ``TERSE_WORDS`` is fewer)."""
assert TERSE_WORDS <= SHORT_ANSWER_WORDS
DOUBTS_OF_MISSING = tuple(rule for rule in DOUBTS if rule.applies not in _OF_ITEMS_GIVEN)
DOUBTS_OF_GIVEN = tuple(rule for rule in DOUBTS if rule.applies not in _OF_ITEMS_LEFT_OUT)
DOUBTS_OF_MISSING_LONG = tuple(rule for rule in DOUBTS_OF_MISSING if rule.applies not in _OF_SHORT_ANSWERS)
DOUBTS_OF_GIVEN_LONG = tuple(rule for rule in DOUBTS_OF_GIVEN if rule.applies not in _OF_SHORT_ANSWERS)
"""The rules each kind of row is weighed by, in the order of ``DOUBTS``: a row is read by those that can apply to
it only (every row of every answer asked each rule, most of them only to be told no)."""


def item_doubts(facts: ItemFacts) -> list[str]:
    """The names of the doubt rules that apply to one row; empty when the decision is certain."""
    short = facts.short
    if facts.missing:
        rules = DOUBTS_OF_MISSING if short else DOUBTS_OF_MISSING_LONG
    elif facts.row.entity is not None:
        rules = DOUBTS_OF_GIVEN if short else DOUBTS_OF_GIVEN_LONG
    else:
        rules = DOUBTS
    return [rule.name for rule in rules if rule.applies(facts)]


WORDING_DOUBTS = frozenset({"all but one word", "competing items", "another form of the drug"})
"""Doubts of which close wording or form of a drug an item given is, not of whether the answer gives it: a verdict
met by such an item stands (measured on the labelled sets: none of those verdicts disagreed, must-include or
must-not; of the verdicts met by a drug in another form, none of 5 disagreed, while 2 of 6 met by a return-if
sentence as the safety-netting did)."""
TELLING_DOUBTS = frozenset({"advice only"})
"""A harmful action told to the patient is still recommended: a must-not verdict met by it stands (a must-include
verdict may turn on it: telling is not doing)."""
CONTINGENT_DOUBTS = frozenset({"only as a condition"})
"""A required action said only under a contingency is not the action a must-include condition asks for now:
its verdict read from the items left out stands (none of 11 such verdicts disagreed on the labelled sets)."""
PROSE_DOUBTS = frozenset({"terse plan", "words present"})
"""A short answer in prose (read at fewer than ``DENSE_READS`` mentions per word) that leaves out a required action
left it out, though it holds the action's words (named for another purpose: the history, the risk): the item stays
in doubt, but a must-include verdict read from it stands (on the labelled sets 20 of the 21 verdicts this leaves
certain agreed; the 3 verdicts resting on a terse plan alone that disagreed were shorthand)."""


def condition_doubts(items: list[str], item_doubts_of: dict[str, list[str]], by_phrase: bool, *,
                     given: bool = False, required: bool = False, shorthand: bool = True) -> list[str]:
    """The doubts of one critical-condition verdict, from the items it rests on (``item_doubts_of``: each
    uncertain item's doubts, by its name casefolded) and how it was met. A verdict met by items given stands
    while any one of them is given beyond a doubt of its wording (``WORDING_DOUBTS``; for a harmful action, nor
    of its being told: ``TELLING_DOUBTS``); one read from items left out turns if any of them was given after
    all (for a required action, not by its being said under a contingency, ``CONTINGENT_DOUBTS``, nor, in an answer
    not in ``shorthand``, by a terse plan's leaving it implied or by its words alone, ``PROSE_DOUBTS``)."""
    out = []
    doubts = [set(item_doubts_of.get(name.casefold(), [])) for name in items]
    standing = (WORDING_DOUBTS if required else WORDING_DOUBTS | TELLING_DOUBTS) if given else (
        (CONTINGENT_DOUBTS if shorthand else CONTINGENT_DOUBTS | PROSE_DOUBTS) if required else frozenset())
    doubtful = [bool(d - standing) for d in doubts]
    if doubtful and (all(doubtful) if given else any(doubtful)):
        out.append(CONDITION_DOUBTS[0][0])
    if by_phrase:
        out.append(CONDITION_DOUBTS[1][0])
    return out


def certainty_of(doubts: list[str]) -> Certainty:
    return "uncertain" if doubts else "certain"


_WORD_RE = re.compile(r"[a-z]+")
_TOKEN_RE = re.compile(r"[a-z]+|\?")
_CLAUSE_BREAK = re.compile(  # a clause of prose: a line wrapped inside a sentence does not end it
    r"[.;,:!?](?:\s|$)|\n\s*\n|\n\s*(?:[-*+\u2022]|\d{1,2}[.)])\s|\(|\)")
_PIECE_BREAK = re.compile(r"\n|[.;,:](?:\s|$)|\s[-\u2013\u2014]\s|\(|\)")


def _words(text: str) -> frozenset[str]:
    """The words of ``text`` as extraction read them (normalised, filler left out)."""
    return frozenset(w for t in key_tokens(document(text).tokens) for w in t.norm.split())


def _is_word(token: str) -> bool:
    """A token that holds a letter or digit: shorthand's bullets, arrows and plus signs ("- 3% NaCl -> recheck
    Na") say no word, and counting them made a plan in shorthand look longer and sparser than it is."""
    return any(c.isalnum() for c in token)


def answer_words(texts: dict[str, str], extraction: Extraction) -> AnswerWords:
    """Read the answer's words once for every row: ``texts`` maps a span field to its text."""
    read: dict[str, list[tuple[int, int]]] = {}
    for entity in extraction.entities:
        if isinstance(entity.evidence, Span):
            read.setdefault(entity.evidence.field, []).append((entity.evidence.start, entity.evidence.end))
    whole: set[str] = set()
    unread: set[str] = set()
    count = 0
    for name, text in texts.items():
        count += sum(map(_is_word, text.split()))
        whole.update(_words(text))
        spans = sorted(read.get(name, []))
        starts = [a for a, _ in spans]
        reach = list(accumulate((b for _, b in spans), max))  # the furthest end of the spans up to each
        start = 0
        for cut in [*_PIECE_BREAK.finditer(text), None]:
            stop = cut.start() if cut is not None else len(text)
            before = bisect_left(starts, stop)  # the spans that start before the piece ends
            if not (before and reach[before - 1] > start):  # none of them ends inside or after its start
                unread.update(normalise(text[start:stop]).split())
            start = cut.end() if cut is not None else stop
    return AnswerWords(frozenset(whole), frozenset(unread), count, len(extraction.entities), tuple(texts.items()))

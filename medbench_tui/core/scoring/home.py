"""Harmful home management (a named rule, not an alias): an item "<treatment> at home (with a review later)"
("Oral antibiotics at home with review in 48 hours", "Manage at home (paracetamol, review tomorrow)") is met by
an answer that gives that treatment, admits or refers the patient nowhere today and sets a review or a recheck
for a later day. A plan that admits or refers the same day is never it, whatever it gives: its oral drug and its
review are the hospital's step-down."""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

from medbench_tui.core.batch_caches import batch_cache
from medbench_tui.core.scoring import actions, concepts
from medbench_tui.core.scoring.assertion import condition_of
from medbench_tui.core.scoring.cues import Cues, negation, word_list
from medbench_tui.core.scoring.document import Document, Hit
from medbench_tui.core.text import Token, key_tokens, tokenize
from medbench_tui.core.vocabulary import read_vocabulary
from medbench_tui.core.vocabulary.reading import own_part, replaced_part, timing_of

HOME_MANAGEMENT = "a home plan its harmful item names"
ROUTINE_MANAGEMENT = "a routine plan its harmful item names"
ROUTINE_WORDS = word_list("home_item_routine_words")
"""Words of an item of routine care ("Routine outpatient management without same-day referral")."""
MANAGE_WORDS = word_list("home_item_manage_words")
TEAM_PROCEDURES = word_list("home_item_team_procedures")
"""Procedures a team does the day it is called: going without one of today is going without today's referral."""
"""Words of the item before "at home" that name no treatment ("Manage at home (...)")."""
REVIEW_WORDS = Cues(*(" ".join(t.norm for t in tokenize(w)) for w in word_list("home_review_words")))
AT = "at"
"""The grammar word before "home" that makes an item's treatment a home one."""
NOW_HOURS = max(w[1] for w in timing_of("same day"))
"""An admission or referral that may start within this many hours is today's."""
TODAY_LATEST = max(w[1] for w in timing_of("within 24 hours"))
"""An admission or referral whose time may run on past this many hours ("2-week wait", "within a week") is not
today's, though it may start today."""
LATER_DAYS = 1.0
"""A review this many days or more ahead is a later one (not the same day's reassessment)."""


class HomePlan(NamedTuple):
    """What a home-management item gives: its action reading and, for a treatment no drug or class names
    ("oral fluids"), the words an answer's clause must hold."""

    reading: actions.ActionReading
    words: frozenset[str]


@batch_cache(maxsize=4096)
def home_management(name: str) -> HomePlan | None:
    """The treatment of an item named "<treatment> at home ...", or None for an item of another kind. When the
    words before "at home" name no treatment ("Manage at home (paracetamol, ...)"), the rest names it."""
    tokens = tokenize(name)
    home = next((i for i, t in enumerate(tokens) if (t.norm,) == concepts.HOME and _at_home(tokens, i)), None)
    if home is None:
        return None
    start = home - 1 if home and tokens[home - 1].low == AT else next(  # a shorthand: "manage at home"
        i for i, t in enumerate(tokens) if t.low == tokens[home].low)
    before = [t for t in key_tokens(tokens[:start]) if t.low.split()[0] not in MANAGE_WORDS]
    said = before or key_tokens(tokens[home + 1 :])
    text = " ".join(name[t.start : t.end] for t in said)
    reading = replace(actions.read_action(text), windows=())
    if reading.drugs or reading.classes:
        return HomePlan(reading, frozenset())
    return HomePlan(reading, frozenset(t.norm for t in before)) if before else None


@batch_cache(maxsize=4096)
def replaces_today(name: str) -> bool:
    """The item's name says it goes without an admission or referral of today ("... without same-day referral",
    "... instead of admission"): an answer that admits or refers today is never it."""
    replaced = replaced_part(name)
    if replaced is None:
        return False
    reading = actions.read_action(replaced)
    acts = reading.acts or any(t.low in TEAM_PROCEDURES for t in tokenize(replaced))
    return bool(acts and reading.windows and not (reading.drugs or reading.classes)
                and all(_today(w) for w in reading.windows))


ROUTINE_ONLY = HomePlan(actions.read_action(""), frozenset())
"""The plan of an item of routine care that names no treatment: a later review is all of it."""


@batch_cache(maxsize=4096)
def routine_management(name: str) -> HomePlan | None:
    """The plan of an item of routine care in place of today's admission or referral: its own words are words of
    routine care, of management, and a drug or class ("Outpatient oral prednisolone without admission": its
    treatment) or none ("Routine outpatient management without same-day referral": ``ROUTINE_ONLY``)."""
    if not replaces_today(name):
        return None
    own = own_part(name)
    tokens = key_tokens(tokenize(own))
    if not any(routine_word(t) for t in tokens):
        return None
    rest = [t for t in tokens if not routine_word(t) and t.low not in MANAGE_WORDS]
    if not rest:
        return ROUTINE_ONLY if any(t.low in MANAGE_WORDS for t in tokens) else None
    reading = replace(actions.read_action(" ".join(own[t.start : t.end] for t in rest)), windows=())
    return HomePlan(reading, frozenset()) if reading.drugs or reading.classes else None


def routine_word(token: Token) -> bool:
    """The token is a word of routine care ("routine", "outpatient", "clinic")."""
    return token.low in ROUTINE_WORDS or token.low.split()[0] in ROUTINE_WORDS


def routinely_managed(doc: Document, plan: HomePlan) -> list[Hit]:
    """The routine plan of an answer that admits or refers nowhere today: its treatment given, if the plan names
    one, and its reviews or rechecks on a later day."""
    if plan is not ROUTINE_ONLY:
        return home_managed(doc, plan)
    if admits_now(doc) or concepts.sends_home_only_later(doc):
        return []
    return _later_reviews(doc)


def _today(window: tuple[float, float]) -> bool:
    return window[0] < NOW_HOURS and window[1] <= TODAY_LATEST


def _at_home(tokens: list[Token], i: int) -> bool:
    """The "home" at ``i`` is said "at home" (the word before, or a shorthand ending so: "manage at home")."""
    return (i > 0 and tokens[i - 1].low == AT) or tokens[i].low.split()[-2:] == [AT, *concepts.HOME]


def home_managed(doc: Document, plan: HomePlan) -> list[Hit]:
    """The clauses where the document gives the plan's treatment, in an answer that admits or refers nowhere
    today, and those of its reviews or rechecks on a later day: the plan is all of them."""
    if admits_now(doc) or concepts.sends_home_only_later(doc):
        return []
    reviews = _later_reviews(doc)
    given = [hit for hit in clauses(doc) if _gives(doc, hit, plan)] if reviews else []
    return sorted([*given, *reviews]) if given else []


def clauses(doc: Document) -> list[Hit]:
    """The document's clauses, remembered on it."""
    known: list[Hit] | None = doc.found.get((HOME_MANAGEMENT, "clauses"))
    if known is None:
        bounds: dict[int, list[int]] = {}
        for k, clause in enumerate(doc.clause):
            bounds.setdefault(clause, [k, k])[1] = k
        known = [Hit(first, last) for first, last in bounds.values()]
        doc.found[(HOME_MANAGEMENT, "clauses")] = known
    return known


def _gives(doc: Document, hit: Hit, plan: HomePlan) -> bool:
    """The clause gives the plan's treatment, neither negated nor on a condition: a drug of its drugs or class by
    no other route, or, for a treatment of words, all its words."""
    if negation(doc, hit.first, hit.last) is not None or condition_of(doc, hit.first, hit.last) is not None:
        return False
    if plan.words:
        return plan.words <= {doc.tokens[k].norm for k in range(hit.first, hit.last + 1)}
    given = actions.read_action(doc.quote(hit))
    if given.routes and plan.reading.routes and actions.contradiction(given, plan.reading) is not None:
        return False
    broader = read_vocabulary().broader
    return bool(given.drugs & plan.reading.drugs or given.classes & plan.reading.classes) or any(
        cls in broader(drug) for drug in given.drugs for cls in plan.reading.classes)


def admits_now(doc: Document) -> bool:
    """A clause admits or refers today: an action word not negated, a time from today, no condition."""
    known: bool | None = doc.found.get((HOME_MANAGEMENT, "now"))
    if known is None:
        known = any(_admits(doc, hit) for hit in clauses(doc))
        doc.found[(HOME_MANAGEMENT, "now")] = known
    return known


def admits_now_elsewhere(doc: Document, hit: Hit) -> bool:
    """A clause other than the one of ``hit`` admits or refers today (:func:`admits_now`): the untimed referral a
    harmful item of routine care names itself ("Refer to physiotherapy for neck exercises" for "Routine referral
    instead of same-day assessment") is that item's mention, not the same-day referral it goes without."""
    if not admits_now(doc):
        return False
    own = doc.clause[hit.first], doc.clause[hit.last]
    return any(_admits(doc, c) for c in clauses(doc) if not own[0] <= doc.clause[c.first] <= own[1])


def sends_today(doc: Document) -> bool:
    """A clause admits or refers today (:func:`admits_now`), or names a team with a time of today, on no condition
    and not negated ("eye casualty today", "on-call surgeons within the hour")."""
    return admits_now(doc) or any(_team_today(doc, hit) for hit in clauses(doc))


def _team_today(doc: Document, hit: Hit) -> bool:
    reading = actions.read_action(doc.quote(hit))
    return (bool(reading.teams) and bool(reading.windows) and all(_today(w) for w in reading.windows)
            and condition_of(doc, hit.first, hit.last) is None and negation(doc, hit.first, hit.last) is None)


def _admits(doc: Document, hit: Hit) -> bool:
    """An admission or referral to a team with no time of its own is today's, as the grader reads an untimed
    referral for a same-day item ("Refer to paediatrics"); an action of several words ("send to hospital now") is
    negated only as a whole."""
    reading = actions.read_action(doc.quote(hit))
    if not reading.acts or (reading.windows and not any(_today(w) for w in reading.windows)):
        return False  # "2-week-wait ophthalmology referral" may start today but is no referral of today
    if not reading.windows and (not reading.teams or _later(doc, hit)):
        return False  # untimed, only a team's ("refer to ENT"), not "she is alert" nor "see her in 3 days"
    if condition_of(doc, hit.first, hit.last) is not None:
        return False
    words = [k for k in range(hit.first, hit.last + 1) if actions.read_action(doc.lows[k]).acts]
    if not words:
        return negation(doc, hit.first, hit.last) is None
    acting = [k for k in words if not (k > hit.first and doc.lows[k - 1] in COPULAS)]
    return any(negation(doc, k, k) is None for k in acting)


COPULAS = frozenset({"is", "are", "was", "were", "remains", "seems", "looks", "appears"})
"""Grammar: a word of a team's action right after one of these is the patient's state ("he is alert", "she is
aware of the plan"), no contact or admission."""


def _later_reviews(doc: Document) -> list[Hit]:
    """The clauses that name a review or a recheck with a time on a later day ("review in 48 h", "repeat in one
    week", "come in tomorrow for review"), remembered on the document."""
    known: list[Hit] | None = doc.found.get((HOME_MANAGEMENT, "reviews"))
    if known is None:
        norms = [t.norm for t in doc.tokens]
        known = [hit for hit in clauses(doc)
                 if any(REVIEW_WORDS.starting_at(norms, k) for k in range(hit.first, hit.last + 1))
                 and _later(doc, hit)]
        doc.found[(HOME_MANAGEMENT, "reviews")] = known
    return known


def _later(doc: Document, hit: Hit) -> bool:
    """The clause gives a time on a later day."""
    if any(w[0] >= NOW_HOURS for w in actions.read_action(doc.quote(hit)).windows):
        return True
    return any((found := concepts.interval_at(doc, k)) is not None and found[0][0] >= LATER_DAYS
               for k in range(hit.first, hit.last + 1))

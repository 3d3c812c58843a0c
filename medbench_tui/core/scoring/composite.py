"""A harmful composite plan (a named rule, not an alias): an item "<treatment> with review <by a team>" ("Topical
antibiotic drops with review in primary care") is met by an answer that does every part in other words: it gives
the treatment (its drug, or a drug of its class, by the item's route when that route is a local one: "chloramphenicol
ointment" for topical antibiotic drops) and sets a review by that team ("review her in the surgery in 48 hours"),
each neither negated nor on a condition, in an answer that admits or refers nobody today. One part alone is not the
plan ("chloramphenicol drops" with a same-day eye referral, a GP review with no antibiotic)."""

from __future__ import annotations

from typing import NamedTuple

from medbench_tui.core.batch_caches import batch_cache
from medbench_tui.core.scoring import actions, home
from medbench_tui.core.scoring.assertion import condition_of
from medbench_tui.core.scoring.cues import negation
from medbench_tui.core.scoring.document import Document, Hit
from medbench_tui.core.text import tokenize
from medbench_tui.core.vocabulary import Term, read_vocabulary
from medbench_tui.core.vocabulary.reading import own_part

COMPOSITE_PLAN = "every part of its harmful composite plan"
PLAN_LINKS = frozenset({"with", "and"})
"""Grammar: the words that join an item's treatment to the review that goes with it ("... drops with review in
primary care", "... and GP review")."""


class CompositePlan(NamedTuple):
    """What a composite item gives: its treatment read as an action, and the teams of its review."""

    treatment: actions.ActionReading
    teams: frozenset[Term]


@batch_cache(maxsize=4096)
def composite_plan(name: str) -> CompositePlan | None:
    """The treatment and the reviewing team of an item "<treatment> with review <by a team>", or None: the words
    before the link name a drug or class and no team, those after it a team's action and no drug."""
    own = own_part(name)
    tokens = tokenize(own)
    for k, token in enumerate(tokens):
        if token.low not in PLAN_LINKS or k == 0 or k == len(tokens) - 1:
            continue
        before = actions.read_action(own[: token.start])
        after = actions.read_action(own[token.end :])
        if ((before.drugs or before.classes) and not before.teams and after.teams and after.acts
                and not (after.drugs or after.classes)):
            return CompositePlan(before, after.teams)
    return None


def composite_given(doc: Document, plan: CompositePlan) -> list[Hit]:
    """The clauses that give the plan's treatment and those that set its review, when the answer does both and
    admits or refers nobody today."""
    if home.admits_now(doc):
        return []
    clauses = home.clauses(doc)
    given = [hit for hit in clauses if _treats(doc, hit, plan)]
    reviews = [hit for hit in clauses if _reviews(doc, hit, plan)] if given else []
    return sorted({*given, *reviews}) if reviews else []


def _said(doc: Document, hit: Hit, words: list[int]) -> bool:
    """The clause is on no condition, and one of its ``words`` (the drug's, the review's) is not negated ("no
    antibiotic cream": the cue stands before the word, inside the clause)."""
    return condition_of(doc, hit.first, hit.last) is None and any(negation(doc, k, k) is None for k in words)


def _treats(doc: Document, hit: Hit, plan: CompositePlan) -> bool:
    """The clause gives the treatment: its drug or a drug of its class, by its route when the item's is a local one
    (a drug named without its route is systemic), never by another route."""
    given = actions.read_action(doc.quote(hit))
    item = plan.treatment
    if item.routes and (given.routes or actions.local_routes(item.routes)) and (
            not given.routes or actions.contradiction(given, item) is not None):
        return False
    broader = read_vocabulary().broader
    named = bool(given.drugs & item.drugs or given.classes & item.classes) or any(
        cls in broader(drug) for drug in given.drugs for cls in item.classes)
    if not named:
        return False
    words = [k for k in range(hit.first, hit.last + 1)
             if (word := actions.read_action(doc.lows[k])).drugs or word.classes]
    return _said(doc, hit, words or [hit.first])


def _reviews(doc: Document, hit: Hit, plan: CompositePlan) -> bool:
    """The clause sets a review by the plan's team (or a team under it): "review her in the surgery in 48 hours",
    "GP review in 2 days"."""
    given = actions.read_action(doc.quote(hit))
    broader = read_vocabulary().broader
    if not (given.acts and given.contacts and any(t == team or team in broader(t) for t in given.teams
                                                   for team in plan.teams)):
        return False
    words = [k for k in range(hit.first, hit.last + 1) if actions.read_action(doc.lows[k]).acts]
    return _said(doc, hit, words or [hit.first])

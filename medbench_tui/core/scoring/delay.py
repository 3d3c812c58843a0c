"""Delayed reassessment in an emergency (a named rule, not an alias): a harmful item that puts off the emergency
action for a later look ("Observation with delayed reassessment before decompression") is met by an answer that
sets a recheck, review or referral for a time from now hours or days ahead ("neurovascular obs in 4 hours", "review
tomorrow"), said without a condition, when nothing but a drug is done today. A recheck at a frequency ("hourly
obs", "obs every 4 hours"), after an act ("obs 4 hours after the fasciotomy") or in a plan that acts now ("fasciotomy
now; review the wound in 24 hours") is monitoring beside the action, never the delay."""

from __future__ import annotations

from medbench_tui.core.scoring import actions, concepts
from medbench_tui.core.scoring.actions import ActionReading
from medbench_tui.core.scoring.assertion import Record, condition_of
from medbench_tui.core.scoring.cues import Cues, negation, word_list
from medbench_tui.core.scoring.document import Document, Hit
from medbench_tui.core.scoring.home import NOW_HOURS, clauses
from medbench_tui.core.text import tokenize
from medbench_tui.core.vocabulary import read_vocabulary

DELAYED_RECHECK = "a later recheck its harmful item puts before the emergency action"
ITEM_DELAY_WORDS = word_list("delay_item_words")
ITEM_RECHECK_WORDS = word_list("delay_item_recheck_words")
ITEM_BEFORE_WORDS = word_list("delay_item_before_words")
WAITED_ACTION = "the emergency action its harmful item observes before, made to wait or set later"
RECHECK_WORDS = Cues(*(" ".join(t.norm for t in tokenize(w)) for w in word_list("delay_recheck_words")))
FROM_NOW = frozenset({"in"})
"""The grammar word before an interval that counts it from now ("in 4 hours"), not from an act nor as a frequency."""
DELAY_HOURS = 2.0
"""A recheck this many hours or more from now puts the emergency action off (one within the hour does not)."""
HOURS_PER_DAY = 24.0


def delay_item(name: str) -> bool:
    """The item names a delayed recheck ("Observation with delayed reassessment ...", "Review delayed until ..."):
    a word of delay and one of a recheck."""
    words = {t.low for t in tokenize(name)}
    return bool(words & ITEM_DELAY_WORDS) and bool(words & ITEM_RECHECK_WORDS)


def delayed_rechecks(doc: Document) -> list[Hit]:
    """The clauses that set a recheck (its word not negated: "not review in 4 hours") for hours or days from now,
    not on a condition, in an answer that does nothing but give drugs today (:func:`_acts_now`)."""
    known: list[Hit] | None = doc.found.get((DELAYED_RECHECK, "hits"))
    if known is None:
        norms = [t.norm for t in doc.tokens]
        known = [] if _acts_now(doc) else [hit for hit in clauses(doc)
            if any(RECHECK_WORDS.starting_at(norms, k) and negation(doc, k, k) is None
                   for k in range(hit.first, hit.last + 1))
            and _from_now_later(doc, hit) and condition_of(doc, hit.first, hit.last) is None]
        doc.found[(DELAYED_RECHECK, "hits")] = known
    return known


def _acts_now(doc: Document) -> bool:
    """A clause acts today on something other than a drug ("fasciotomy now", "ortho to see now", "emergency
    decompression"), neither negated nor on a condition: a recheck later is then monitoring after the act ("review
    the wound in 24 hours"). A drug given now ("oral morphine now") is no such act."""
    for hit in clauses(doc):
        reading = actions.read_action(doc.quote(hit))
        if (any(w[0] == 0 and w[1] <= NOW_HOURS for w in reading.windows) and not reading.drugs
                and not reading.classes and negation(doc, hit.first, hit.last) is None
                and condition_of(doc, hit.first, hit.last) is None):
            return True
    return False


def _from_now_later(doc: Document, hit: Hit) -> bool:
    """The clause gives a time hours or days from now: a later time of ``timing.yaml`` ("tomorrow") or an interval
    counted from now ("in 4 hours")."""
    if any(w[0] >= DELAY_HOURS for w in actions.read_action(doc.quote(hit)).windows):
        return True
    return any(doc.lows[k - 1] in FROM_NOW and (found := concepts.interval_at(doc, k)) is not None
               and found[0][0] * HOURS_PER_DAY >= DELAY_HOURS for k in range(max(hit.first, 1), hit.last + 1))


def wait_item(name: str) -> ActionReading | None:
    """The harmful item observes before the emergency action ("Observation on the postnatal ward before surgical
    referral", "Observe pending cardiology review"): a word of a recheck, then one of ``delay_item_before_words``,
    then an action that reaches a team or gives a drug; that action's reading."""
    words = [t.low for t in tokenize(name)]
    for k, word in enumerate(words):
        if word in ITEM_BEFORE_WORDS and ITEM_RECHECK_WORDS.intersection(words[:k]):
            action = actions.read_action(" ".join(words[k + 1:]))
            return action if action.teams or action.drugs or action.classes else None
    return None


def _same_action(reading: ActionReading, action: ActionReading) -> bool:
    """The clause's reading reaches the item's team (or one of its family: "surgical referral" and "the paediatric
    surgeons") or gives its drug, its class or a member of its class."""
    if reading.drugs & action.drugs or reading.classes & action.classes:
        return True
    vocabulary = read_vocabulary()  # a drug of the item's class ("cefotaxime" for "IV antibiotics")
    if any(action.classes & vocabulary.broader(kind) for kind in (*reading.drugs, *reading.classes)):
        return True
    return any(a.name == b.name or a.name in b.broader or b.name in a.broader or set(a.broader) & set(b.broader)
               for a in reading.teams for b in action.teams)


def waited_actions(doc: Document, action: ActionReading, record: Record) -> list[Hit]:
    """The clauses of an answer that observes (a word of ``delay_item_recheck_words``, not negated) and makes the
    item's action wait on a condition the record does not settle ("refer to the surgeons if the contrast is
    abnormal") or sets it hours or days ahead ("surgical review tomorrow"); none when a clause does that action now
    without a condition ("observe on the unit while the surgeons come now", "refer now; observe meanwhile")."""
    waits: list[Hit] = []
    for hit in clauses(doc):
        reading = actions.read_action(doc.quote(hit))
        if not reading.contacts and not reading.drugs and not reading.classes or not _same_action(reading, action):
            continue
        if negation(doc, hit.first, hit.last) is not None:
            continue
        scope = condition_of(doc, hit.first, hit.last)
        later = bool(reading.windows) and all(w[0] >= DELAY_HOURS for w in reading.windows)
        if scope is None and not later:
            return []  # the action is done now: an observation beside it is no wait
        if later or scope is not None and not record.holds(scope):
            waits.append(hit)
    return waits

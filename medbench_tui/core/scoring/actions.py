"""A work-up or treatment text read as a clinical action: the teams, drugs, drug classes and
routes it names and the time it gives, each from the clinical vocabulary (``core/vocabulary``).

Matching compares these parts, so a referral matches its item whatever the word order, a
drug meets an item that names its class, and a timing or route that contradicts the item
does not satisfy it:

* **the same team**: "refer to general surgery", "general surgical review", "discuss with
  the on-call surgeons" and "admit under the surgeons" all name the general surgical team
  (or its broader team, surgery), and meet an item that names it in any words;
* **a drug of the item's class**: "warfarin" and "enoxaparin" meet "anticoagulation"; the
  class itself ("anticoagulate") meets an item for a class directly under it (a direct oral
  anticoagulant), never a single drug ("antibiotics" is not amoxicillin);
* **a timing that cannot meet the item's** (windows in hours, ``timing.yaml``): an answer whose
  latest time is later than the item's latest ("ophthalmology outpatients next week" for a
  same-day assessment), or sooner than its earliest (same-day for a routine review), is not
  the item;
* **another route**: "adrenaline 0.5 mg IV" is not intramuscular adrenaline.

The readings are made once per text and cached; an item's reading is made once per case.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from medbench_tui.core.scoring.constants import (
    MATCH_SCORE_CLASS,
    MATCH_SCORE_DRUG,
    MATCH_SCORE_DRUG_OF_CLASS,
    MATCH_SCORE_DRUG_ROUTE,
    MATCH_SCORE_TEAM,
)
from medbench_tui.core.vocabulary import Term, read_vocabulary
from medbench_tui.core.vocabulary.reading import (
    ABOUT_DRUG,
    ActionReading,
    item_reading_of,
    read_action,
    replaced_reading,
)

__all__ = ["ACTION_RULES", "SAME_TEAM", "ActionReading", "ActionRule", "contradiction", "first_rule", "item_reading_of",
           "read_action", "replaced_reading", "rule_for", "rules_out", "same_route"]

SAME_DRUG_ROUTE_UNSAID = "the same drug, its route unsaid"
"""The rule that credits a drug named without the route its item asks for."""
SAME_TEAM = "the same team"
"""The rule that meets a team's item by a referral, review or contact of that team in other words."""
ADMITTED_UNDER_A_TEAM = "an admission under a team"
"""The rule that meets an item of admission to hospital by an admission under any team."""
DRUG_OF_CLASS = "a drug of its class"
"""The rule that gives an item of a drug class by another drug of that class."""
DRUG_OF_CLASS_ROUTE_UNSAID = "a drug of its class, its route unsaid"
"""The rule that credits a drug of the item's class named without the route its item asks for."""


LATER = "later than the item asks"
SOONER = "sooner than the item asks"


def contradiction(answer: ActionReading, item: ActionReading) -> str | None:
    """Why ``answer`` cannot be ``item`` (a timing or route it contradicts), or None. The item's
    time is the window all its timings allow; the answer meets it with any time it gives that
    overlaps that window ("emergency" meets "immediate"; "next week" never meets "same day"),
    more than at its last moment ("routine" does not meet "within 2 weeks"), and, for a deadline
    ("within 7 days", "this week"), not by allowing far longer than the item ("within 7 days"
    is no same-day referral: :func:`_meets`). Timings of the item that cannot all hold are
    alternatives ("routine or 7-day referral"): its window is then any of them."""
    if answer.windows and item.windows:
        earliest, latest = max(w[0] for w in item.windows), min(w[1] for w in item.windows)
        if earliest > latest:
            earliest, latest = min(w[0] for w in item.windows), max(w[1] for w in item.windows)
        if not any(_meets(w, earliest, latest) for w in answer.windows):
            late = any(w[1] > latest for w in answer.windows)
            return LATER if late else SOONER
    if answer.routes and item.routes and not same_route(answer.routes, item.routes):
        return f"by another route ({', '.join(sorted(r.name for r in answer.routes))})"
    return None


DEADLINE_SLACK_HOURS = 24.0
"""A deadline may run this much (or the item's own span, if longer) past the item's last hour and still
meet it: "today" meets "within the hour", "within 48 hours" does not meet "same day"."""


def _meets(window: tuple[float, float], earliest: float, latest: float) -> bool:
    """The answer's time ``window`` meets the item's window ``earliest..latest``."""
    start, end = window
    if end < earliest or start > latest:
        return False
    if start == latest and end > start:
        return False  # it only touches the item's last moment ("routine" against "within 2 weeks")
    if end == earliest and end > start:
        return False  # or its first ("two-week wait" against "routine referral")
    return not (start == 0 and end - latest >= max(latest, DEADLINE_SLACK_HOURS))


def dose_differs(answer: ActionReading, item: ActionReading) -> bool:
    """The answer gives the item's one drug at a dose outside the item's ("prednisolone 60 mg" for
    "low-dose prednisolone (15-20 mg)"). It rules out a harmful item only: a drug an item asks for,
    given at another dose, is still given (its dose is the plan's to get right, not another action)."""
    one_drug = len(item.drugs) == 1 and answer.drugs == item.drugs  # a dose is its drug's only when there is one
    return bool(answer.doses and item.doses and one_drug) and not any(
        a[0] <= i[1] * DOSE_TOLERANCE and i[0] <= a[1] * DOSE_TOLERANCE for a in answer.doses for i in item.doses
    )


def dose_below(answer: ActionReading, item: ActionReading) -> bool:
    """The answer gives the one drug of an item that names its dose only below that dose ("continue atorvastatin
    20 mg" for "High-intensity statin (atorvastatin 80 mg)"): another, lesser treatment of the item's kind, not the
    item. A dose unsaid ("atorva 80 nocte" gives no unit) or within :data:`DOSE_TOLERANCE` of the item's is it."""
    one_drug = len(item.drugs) == 1 and answer.drugs == item.drugs
    return bool(answer.doses and item.doses and one_drug) and all(
        a[1] * DOSE_TOLERANCE < min(i[0] for i in item.doses) for a in answer.doses)


DOSE_TOLERANCE = 1.25
"""A dose within a quarter of the item's range is that dose (rounding, a tablet's strength)."""


def same_route(mine: frozenset[Term], theirs: frozenset[Term]) -> bool:
    """A route in common, or one under the other (eye drops are topical)."""
    vocabulary = read_vocabulary()
    return any(a == b or b in vocabulary.broader(a) or a in vocabulary.broader(b) for a in mine for b in theirs)


def same_team(answer: ActionReading, item: ActionReading) -> bool:
    """The item is about a team, and the answer refers to, discusses with or admits under it or a
    team under it (the general surgeons for surgery), never a broader one (the medical team is not
    cardiology). An admission alone does not give an item's review by a grade ("Senior paediatric review";
    :attr:`ActionReading.graded`). A team named with its time alone ("Cardiology today") or as its involvement
    ("Renal + ITU") is a contact of it, never an admission under it."""
    if not (item.about_team() and (answer.acts or ((answer.team_at_time() or answer.involves) and item.contacts))):
        return False
    if item.graded and item.contacts and answer.acts and not answer.contacts:
        return False  # "Admit to the paediatric ward" is no "Senior paediatric review": an admission names no grade
    vocabulary = read_vocabulary()
    return any(mine == theirs or theirs in vocabulary.broader(mine) for mine in answer.teams for theirs in item.teams)


def bare_admission(reading: ActionReading) -> bool:
    """The reading is an admission and nothing else: no team, drug, class or route, no contact word ("Hospital
    admission", "Admit to hospital")."""
    return (reading.acts and not reading.contacts and not (reading.teams or reading.drugs or reading.classes
                                                             or reading.routes) and reading.covered >= ABOUT_DRUG)


def admitted_under_a_team(answer: ActionReading, item: ActionReading) -> bool:
    """An admission under a team ("Admit under ID", "admit under the medical team") is an admission to hospital,
    an item's that names no team; a team's item is only its own team's (the same team)."""
    return bare_admission(item) and answer.acts and not answer.contacts and bool(answer.teams) \
        and not (answer.drugs or answer.classes)


def same_drug_by_route(answer: ActionReading, item: ActionReading) -> bool:
    """The item is about a drug by a route ("intravenous adrenaline bolus"), and the answer gives
    that drug by that route in other words ("adrenaline 0.5 mg IV")."""
    return (bool(item.drugs and item.routes and answer.routes) and not item.teams
            and item.covered >= ABOUT_DRUG and bool(answer.drugs & item.drugs)
            and same_route(answer.routes, item.routes))


def same_drug(answer: ActionReading, item: ActionReading) -> bool:
    """The item is about one drug, and the answer names it by another name ("0.9% NaCl" for
    "Intravenous 0.9% sodium chloride", a brand for the generic); a route the answer gives must
    be the item's (a contradiction is ruled out before any rule)."""
    return item.about_drug() and bool(answer.drugs & item.drugs)


def same_drug_route_given(answer: ActionReading, item: ActionReading) -> bool:
    """The item is about one drug, and the answer names it by another name with a route when the
    item has one ("adrenaline 500 micrograms" alone is no intravenous bolus)."""
    return same_drug(answer, item) and (not item.routes or bool(answer.routes))


def drug_of_class(answer: ActionReading, item: ActionReading) -> bool:
    """The item is about a class, and the answer names a drug of it ("warfarin" for
    "anticoagulation")."""
    if not item.about_class():
        return False
    vocabulary = read_vocabulary()
    return any(cls in vocabulary.broader(drug) for drug in answer.drugs for cls in item.classes)


def drug_of_class_route_given(answer: ActionReading, item: ActionReading) -> bool:
    """A drug of the item's class, with a route when the item's is local (``local_routes``): a drug named
    without its route is systemic, "amoxicillin" alone no topical antibiotic (nor "metronidazole" beside IV
    ceftriaxone), so it never meets a harmful item of such a route."""
    return drug_of_class(answer, item) and (bool(answer.routes) or not _local(item.routes))


def local_routes(routes: frozenset[Term]) -> bool:
    """Every one of the routes is a local one (``local_routes``) or under one."""
    return _local(routes)


def _local(routes: frozenset[Term]) -> bool:
    """Every one of the routes is a local one or under one (eye drops are topical)."""
    vocabulary = read_vocabulary()
    local = {term for name in vocabulary.phrases("local_routes") for term in vocabulary.lookup(name)}
    return bool(routes) and all(r in local or local & vocabulary.broader(r) for r in routes)


def class_of_item(answer: ActionReading, item: ActionReading) -> bool:
    """The item is about a class, and the answer names the class directly above it
    ("anticoagulate" for a direct oral anticoagulant); never a drug by its class alone."""
    if not item.about_class():
        return False
    vocabulary = read_vocabulary()
    return any(
        cls in {parent for name in theirs.broader for parent in vocabulary.lookup(name)}
        for cls in answer.classes for theirs in item.classes
    )


def named_in_item(answer: ActionReading, item: ActionReading) -> bool:
    """The answer names a class or a drug the item names, and nothing else of its kind ("no antibiotics"
    for "Antibiotics for the cold", "avoid carbamazepine" for "Switch to carbamazepine or phenytoin")."""
    if answer.drugs:
        return answer.drugs <= item.drugs and not answer.classes - item.classes
    return bool(answer.classes) and answer.classes <= item.classes and not item.drugs


@dataclass(frozen=True)
class ActionRule:
    """A way an answer's action meets a reference item in other words than the item's."""

    name: str
    score: float
    applies: Callable[[ActionReading, ActionReading], bool]
    credit_only: bool = False
    """Only for items that give credit: a class never makes a harmful single drug."""
    declined_only: bool = False
    """Only for what the answer declines: naming a class or drug declines every item that names it, but
    gives none."""
    route_said_for_harm: bool = False
    """Of an item that costs the answer and has a route, only with a route said: a drug named without one
    ("co-amoxiclav") may be given by any route, so it is no harmful "oral antibiotics instead of IV"."""


ACTION_RULES: tuple[ActionRule, ...] = (
    ActionRule(SAME_TEAM, MATCH_SCORE_TEAM, same_team),
    ActionRule(ADMITTED_UNDER_A_TEAM, MATCH_SCORE_TEAM, admitted_under_a_team),
    ActionRule("the same drug by its route", MATCH_SCORE_DRUG_ROUTE, same_drug_by_route),
    ActionRule("the same drug", MATCH_SCORE_DRUG, same_drug_route_given),
    ActionRule(SAME_DRUG_ROUTE_UNSAID, MATCH_SCORE_DRUG, same_drug, credit_only=True),
    ActionRule(DRUG_OF_CLASS, MATCH_SCORE_DRUG_OF_CLASS, drug_of_class_route_given, route_said_for_harm=True),
    ActionRule(DRUG_OF_CLASS_ROUTE_UNSAID, MATCH_SCORE_DRUG_OF_CLASS, drug_of_class, credit_only=True),
    ActionRule("its class", MATCH_SCORE_CLASS, class_of_item, credit_only=True),
    ActionRule("a drug or class it names", MATCH_SCORE_CLASS, named_in_item, declined_only=True),
)
"""The rules, strongest first; the first that applies decides (``medbench vocabulary rules``)."""


def rules_out(answer: ActionReading, item: ActionReading, gives_credit: bool, *, in_other_words: bool = False
              ) -> str | None:
    """Why ``answer`` is not ``item`` (:func:`contradiction`), except that a harmful action done sooner
    than its item says is still done ("discharge ... with a next-day review"). Met in other words (an
    action rule, not the item's own names), only a plan that sends the patient home is: an admission or
    a same-day referral to the team of a harmful outpatient plan is not that plan."""
    why = contradiction(answer, item)
    return None if why == SOONER and not gives_credit and (answer.sends_home or not in_other_words
                                                           or later_team_contact(answer, item)) else why


LATER_THAN_TODAY_HOURS = 16.0
"""A time that starts after this many hours from now is a later day's ("tomorrow", "next week"): no longer
today's ("today", "same day" run to this hour)."""


def later_team_contact(answer: ActionReading, item: ActionReading) -> bool:
    """A harmful referral or review of a team put off to a later day ("Routine ophthalmology referral", "ophthalmology
    outpatients next week": every time it gives starts after today) is met by a referral, letter or appointment of
    that team at any time later than today, however much sooner than the item ("letter to the eye clinic to bring the
    appointment forward to next week"): the harm is the day lost, not the day chosen. A same-day time, or none, is
    not such a contact by this rule."""
    return (item.about_team() and answer.acts and _later_day(item) and _later_day(answer)
            and same_team(answer, item))


def _later_day(reading: ActionReading) -> bool:
    return bool(reading.windows) and all(w[0] > LATER_THAN_TODAY_HOURS for w in reading.windows)


def _not_sent_home(answer: ActionReading, item: ActionReading) -> bool:
    """A harmful plan that sends the patient home ("outpatient neurology referral instead of admission") is not
    met in other words by a contact of its team that says neither home, outpatients nor a time ("phone the
    neuro on call"): the contact of a terse plan is no outpatient plan unless it says so."""
    return item.sends_home and not answer.sends_home and not answer.windows


NOW_HOURS = 1.0
"""An item timed within this many hours from now gives its drug now ("Second-line IV antiseizure drug now")."""


def resumed_is_not_now(answer: ActionReading, item: ActionReading) -> bool:
    """The answer restarts or continues the patient's own drug ("restart levetiracetam 500 mg BD", "continue LEV";
    :attr:`ActionReading.resumes`), and the item gives a drug now ("Second-line IV antiseizure drug now
    (levetiracetam 60 mg/kg up to 4500 mg)") and is no restart itself: going back to the patient's regimen is no
    dose given now, whatever drug, route or dose the answer says."""
    return (answer.resumes and not item.resumes and bool(item.drugs) and bool(item.windows)
            and all(w[1] <= NOW_HOURS for w in item.windows))


def maintenance_is_no_loading(answer: ActionReading, item: ActionReading) -> bool:
    """The answer gives its drug at a regular frequency with no route and no time within the hour ("levetiracetam
    500 mg BD"; :attr:`ActionReading.regular`), and the item is a loading dose given now ("Second-line IV antiseizure
    drug now (levetiracetam 60 mg/kg up to 4500 mg)"; :attr:`ActionReading.loads`): a maintenance regimen is no
    loading dose. A route ("levetiracetam 1 g IV BD") or a time of now ("stat") leaves the dose to the drug rule."""
    return (answer.regular and not answer.routes and item.loads and bool(item.windows)
            and all(w[1] <= NOW_HOURS for w in item.windows)
            and not any(w[1] <= NOW_HOURS for w in answer.windows))


def rule_for(answer: ActionReading, item: ActionReading, gives_credit: bool, *, declined: bool = False
             ) -> ActionRule | None:
    """The first rule by which ``answer`` is ``item``, unless its timing or route contradicts it. What the
    answer declines ("no antibiotics", "avoid carbamazepine") is read as widely as what earns credit: it
    gives nothing, so a harmful item it names is only ever declined. A restart of the patient's own drug never
    earns an item that gives a drug now (:func:`resumed_is_not_now`)."""
    wide = gives_credit or declined
    if answer.empty or rules_out(answer, item, wide, in_other_words=True) is not None or (
            not wide and (dose_differs(answer, item) or _not_sent_home(answer, item))):
        return None
    if gives_credit and not declined and (resumed_is_not_now(answer, item) or maintenance_is_no_loading(answer, item)
                                          or dose_below(answer, item)):
        return None
    return next((r for r in ACTION_RULES if (wide or not r.credit_only) and (declined or not r.declined_only)
                 and (wide or not r.route_said_for_harm or not item.routes or answer.routes)
                 and r.applies(answer, item)), None)


def first_rule(answer: ActionReading, items: tuple[ActionReading, ...], gives_credit: bool, *, declined: bool = False
               ) -> ActionRule | None:
    """The first rule by which ``answer`` is the item read any of its ways: its name, then each alias that
    gives an action with its own time ("febuxostat now"), which only an answer that gives a time from now
    meeting it can be ("start febuxostat today"; not "discuss allopurinol at review", nor an insulin
    infusion "after 1 hour of fluids" for "stat insulin")."""
    rule = rule_for(answer, items[0], gives_credit, declined=declined) if items else None
    if rule is not None or len(items) < 2:
        return rule
    if not (gives_credit or declined) and rules_out(answer, items[0], False, in_other_words=True) == SOONER:
        return None  # sooner than a harmful plan's own time: an alias's wider time ("two-week-wait") does not
        # make a same-day referral that plan (aliases name the item, they do not give it other timings)
    windows = tuple(w for w in answer.windows if w[0] == 0)
    if not windows:
        return None
    from_now = replace(answer, windows=windows)  # made only when an alias is left to try
    return next((rule for item in items[1:]
                 if (rule := rule_for(from_now, item, gives_credit, declined=declined)) is not None), None)

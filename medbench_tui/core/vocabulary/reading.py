"""A work-up or treatment text read as a clinical action: the teams, drugs, drug classes and
routes it names and the time it gives, each in the vocabulary's canonical names.

The scorer compares these readings (``core/scoring/actions.py``); the validator reads a case's
structured item fields (``within``, ``route``, ``target``) with the same functions. The
readings are made once per text and cached.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from medbench_tui.core.text import FILLER as TEXT_FILLER
from medbench_tui.core.vocabulary.load import Vocabulary, key, read_vocabulary
from medbench_tui.core.vocabulary.model import Term

ABOUT_TEAM = 0.7
"""An item is about a team when the team, its action and its time are at least this share of its words."""
ABOUT_CLASS = 0.75
"""An item is about a class when the class, its route and timing are at least this share of its words."""
ABOUT_DRUG = 0.6
"""An item is about a drug by a route when the drug, the route and the timing are at least this share of its words."""
CLIP_LETTERS = 4
"""The fewest letters of a clipped drug name ("doxy", "amox")."""
SMALL_WORDS = TEXT_FILLER | {"a", "or", "as", "by", "if", "e", "g"}
"""Words that count neither way when the share of an item's words is worked out."""
MAX_WORDS = 8
"""The longest vocabulary name looked for, in words."""
NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9, "ten": 10, "twelve": 12, "twenty": 20, "fortnight": 2}
_INTERVAL = re.compile(r"\b(within|in|after|next|by)\s+(?:the\s+next\s+|about\s+|around\s+)?"
                       r"(\d+(?:\.\d+)?|[a-z]+)\s*(?:(?:[-–]|to)\s*(\d+(?:\.\d+)?)\s*)?([a-z]+)\b")
"""A time from now: "within 4 hours", "in 2 weeks", "after 48 h" (never a duration: "for 7 days")."""
_SHORTHAND = re.compile(r"\b(?:in|review|r/v)\s+(\d+)\s*/\s*(7|52|12)\b")
_AMOUNT_WORDS = "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))
_BARE_TIME = re.compile(r"(?<![\w/.])(?:(\d+(?:\.\d+)?|(?:" + _AMOUNT_WORDS
                        + r")\b)\s*(?:(?:[-–]|to)\s*(\d+(?:\.\d+)?)\s*)?([a-z]+)\b|(\d+)\s*/\s*(7|52|12)\b)")
"""An amount of time with no lead word ("6 weeks", "6-8 weeks", "6/52"): a contact's time only right beside it."""
_BESIDE = r"[\s,:(\-–]*"
"""What may stand between a contact and its bare time ("review - 6 weeks", "review (6/52)", "review: 6 weeks")."""
_CLAUSE_START = re.compile(r"(?:^|[\n.;:,(\-–•*])\s*$")
_CLAUSE_GOES_ON = frozenset(TEXT_FILLER - {"of", "per", "mellitus"}) | {"then", "or"}
"""Grammar words after which a bare time still ends its phrase ("review 6 weeks and repeat echo"); any other word
after it makes the amount something else's ("6 weeks pregnant", "2 days of pain")."""
_SHORT_CAPS = re.compile(r"^[A-Z&]{2,3}$")
"""A short name in capitals (IV, IM, IN, ED): matched only in capitals ("in" is no route)."""

Window = tuple[float, float]

_DOSE = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s*(?:(?:-|\u2013|to)\s*(\d+(?:\.\d+)?)\s*)?"
                   r"(mg|milligrams?|g|grams?|mcg|micrograms?)\b(?!\s*/)", re.IGNORECASE)
"""A dose by weight ("60 mg", "15-20 mg", "500 micrograms"); not a rate or a dose per kilogram ("mg/kg")."""
_MILLIGRAMS = {"mg": 1.0, "milligram": 1.0, "milligrams": 1.0, "g": 1000.0, "gram": 1000.0, "grams": 1000.0,
               "mcg": 0.001, "microgram": 0.001, "micrograms": 0.001}


def _doses(text: str) -> tuple[Window, ...]:
    return tuple(
        (float(low) * _MILLIGRAMS[unit.lower()], float(high or low) * _MILLIGRAMS[unit.lower()])
        for low, high, unit in _DOSE.findall(text)
    )


@dataclass(frozen=True)
class ActionReading:
    """What a text names, in the vocabulary's canonical names."""

    teams: frozenset[Term] = frozenset()
    drugs: frozenset[Term] = frozenset()
    classes: frozenset[Term] = frozenset()
    routes: frozenset[Term] = frozenset()
    windows: tuple[Window, ...] = ()
    """Every time the text gives (from now, in hours)."""
    acts: bool = False
    """A referral, review, discussion or admission word is said (``team_actions``)."""
    contacts: bool = False
    """One of those words other than an admission's is said (``team_admissions``: "admit", "under")."""
    covered: float = 0.0
    """The share of the text's words that name a team, drug, class, route or time."""
    doses: tuple[Window, ...] = ()
    """Every dose the text gives, as a range in milligrams ("15-20 mg", "500 micrograms")."""
    sends_home: bool = False
    """A word that sends the patient home is said (``home_dispositions``: "discharge", "outpatient")."""
    involves: bool = False
    """A team is named alone as its involvement in a terse plan ("Renal + ITU now"): a contact of the team, as
    :meth:`team_at_time` is, never an admission under it (set by the scorer from the words around it)."""
    loads: bool = False
    """Of an item: its name gives a loading dose ("levetiracetam 60 mg/kg", "loading dose"; ``loading_item_words``)."""
    regular: bool = False
    """Of an answer: it gives the drug at a regular frequency ("levetiracetam 500 mg BD", "twice daily";
    ``maintenance_frequency_words``): a maintenance regimen (set by the scorer from the text)."""
    graded: bool = False
    """A grade of doctor is named ("Senior paediatric review", "consultant"; ``team_grades``): of an item, a review by
    that grade, which an admission alone ("Admit to the paediatric ward") does not give."""
    resumes: bool = False
    """The text restarts or continues the patient's own drug ("restart levetiracetam 500 mg BD", "continue LEV";
    ``restart_words``, ``continue_words``; set by the scorer from the words before the drug), or, of an item, its
    name opens with such a word ("Restart regular levetiracetam"; ``restart_item_words``, ``continue_words``)."""

    @property
    def empty(self) -> bool:
        return not (self.teams or self.drugs or self.classes or self.routes or self.windows)

    def about_team(self) -> bool:
        """The text is about a team: it names one, no drug or class, and little besides the team,
        its action and its time ("nil by mouth until surgical review" is about nil by mouth)."""
        return bool(self.teams) and not (self.drugs or self.classes) and self.covered >= ABOUT_TEAM

    def team_at_time(self) -> bool:
        """The text is a team and its time, nothing else ("Cardiology today", "ortho now"): a terse plan's
        line naming whom to involve and when is the team contacted, as "cardiology to see today" is (not an
        admission under it: :attr:`contacts`)."""
        return (bool(self.teams and self.windows) and not (self.drugs or self.classes or self.routes)
                and self.covered >= 1.0)

    def about_drug(self) -> bool:
        """The text is about one drug (it names it and nothing much besides, a route and a time
        aside: "Intravenous 0.9% sodium chloride"; not "Stop lithium", "Serum lithium level")."""
        if len(self.drugs) != 1 or self.teams or self.covered < ABOUT_DRUG:
            return False
        (drug,) = self.drugs  # a class named beside its own drug is the drug's ("statin (atorvastatin 80 mg)")
        return all(c in read_vocabulary().broader(drug) for c in self.classes)

    def about_class(self) -> bool:
        """The text is about a class of drugs (it names one and nothing much besides)."""
        return bool(self.classes) and not (self.drugs or self.teams) and self.covered >= ABOUT_CLASS


class _Index:
    """The vocabulary's names (of the kinds an action names) and timing expressions, by key."""

    def __init__(self, vocabulary: Vocabulary) -> None:
        self.vocabulary = vocabulary
        # "Empirical IV antibiotics", "Broad-spectrum IV antibiotics": beside a route, words that say how a drug is
        # chosen, not what else the item is about, count neither way
        self.loose_words = {w for p in vocabulary.phrases("drug_item_loose_words") for w in key(p).split()}
        self.terms: dict[str, list[Term]] = {}
        self.caps_only: dict[str, set[str]] = {}
        for term in vocabulary.of_kind("team", "drug", "drug_class", "route"):
            for name in (*term.names, *(term.lay if term.kind == "route" else ())):
                self.terms.setdefault(key(name), []).append(term)
                if _SHORT_CAPS.match(name):
                    self.caps_only.setdefault(key(name), set()).add(name)
        # (g62) a test's name that holds a drug's ("factor VIII level", "lithium level") names the test, not the
        # drug: its words are passed over, so an item to measure a drug is never about giving it
        self.shadows = {key(name) for test in vocabulary.of_kind("test") for name in test.names
                        if self._holds_drug(key(name).split())}
        self.timing: dict[str, Window] = {}
        for timing in vocabulary.timing:
            for said in timing.say:
                self.timing.setdefault(key(said), (timing.earliest, timing.latest))
        self.units: dict[str, tuple[float, int | None]] = {}
        for unit in vocabulary.units:
            for said in unit.say:
                self.units[key(said)] = (unit.hours, unit.shorthand)
        self.shorthand = {u.shorthand: u.hours for u in vocabulary.units if u.shorthand}
        self.generics: dict[str, Term] = {}  # one-word generic drug names, for clipped forms ("atorva 80")
        for term in vocabulary.of_kind("drug"):
            if " " not in key(term.name) and key(term.name).isalpha():
                self.generics[key(term.name)] = term
        self.generic_names = sorted(self.generics)  # in order: the names a clipped word begins are one stretch
        self.acts = {key(p) for p in vocabulary.phrases("team_actions")}
        self.admissions = {key(p) for p in vocabulary.phrases("team_admissions")}
        self.qualifiers = {key(p) for p in vocabulary.phrases("team_qualifiers")}
        self.grades = {key(p) for p in vocabulary.phrases("team_grades")}
        self.doses = {key(p) for p in vocabulary.phrases("dose_words")}
        self.home = {key(p) for p in vocabulary.phrases("home_dispositions")}
        self.visits = {key(p) for p in vocabulary.phrases("contact_visit_words")}
        teams = {name for name, found in self.terms.items() if any(t.kind == "team" for t in found)}
        self.contacts = teams | self.acts | self.home | self.visits  # what a bare time beside it is the time of
        self.named_lengths = _lengths([*self.terms, *self.timing, *self.shadows])
        self.timing_lengths = _lengths(self.timing)
        self.act_lengths = _lengths(self.acts)
        self.home_lengths = _lengths(self.home)

    def _holds_drug(self, words: list[str]) -> bool:
        """Some words of a test's name, fewer than all, name a drug or a drug class ("factor VIII level")."""
        parts = (" ".join(words[i:j]) for i in range(len(words)) for j in range(i + 1, len(words) + 1)
                 if (i, j) != (0, len(words)))
        return any(t.kind in ("drug", "drug_class") for part in parts for t in self.terms.get(part, ()))

    def read(self, text: str) -> ActionReading:
        words = key(text).split()
        written = set(re.findall(r"[A-Za-z&]+", text))
        content = [w for w in words if w not in SMALL_WORDS]
        covered = 0
        dosing = 0
        acting = [i for i in range(len(words)) if words[i] in self.acts]
        several = any(" ".join(words[i:i + n]) in self.acts for i in range(len(words))
                      for n in self.act_lengths.get(words[i], ()) if n in (2, 3) and i + n <= len(words))
        acts = bool(acting) or several
        contacts = several or any(words[i] not in self.admissions for i in acting)
        home = any(" ".join(words[i:i + n]) in self.home for i in range(len(words))
                   for n in self.home_lengths.get(words[i], ()) if n <= 2 and i + n <= len(words))
        teams: set[Term] = set()
        drugs: set[Term] = set()
        classes: set[Term] = set()
        routes: set[Term] = set()
        windows: list[Window] = []
        admitting: list[Window] = []  # the time an admission's own word gives ("admit": today)
        i = 0
        qualifier: tuple[int, set[Term]] | None = None  # where a qualifying word ended, and the team only it named
        while i < len(words):
            for size in self.named_lengths.get(words[i], ()):  # the lengths of the names that begin here
                if i + size > len(words):
                    continue
                phrase = " ".join(words[i:i + size])
                if phrase in self.shadows:
                    i += size  # "factor VIII level": a test, not the drug given
                    break
                found = self.terms.get(phrase)
                if found and phrase in self.caps_only and not self.caps_only[phrase] & written:
                    found = None  # "in", "im": words, not the routes IN and IM
                window = self.timing.get(phrase)
                if found or window:
                    named = {t for t in found or () if t.kind == "team"}
                    if qualifier is not None and qualifier[0] == i and named:
                        teams.difference_update(qualifier[1] - named)  # "paediatric burns service": the burns team's
                    new = named - teams  # a team named before stays named ("paediatrics ... paediatric ENT")
                    qualifier = (i + size, new) if phrase in self.qualifiers and new else None
                    for term in found or ():
                        {"team": teams, "drug": drugs, "drug_class": classes}.get(term.kind, set()).add(term)
                        if term.kind == "route":
                            routes.add(term)
                    if window:
                        (admitting if set(words[i:i + size]) <= self.admissions else windows).append(window)
                    covered += sum(1 for w in words[i:i + size] if w not in SMALL_WORDS)
                    i += size
                    break
            else:
                clipped = self._clipped(words, i)
                if clipped is not None:
                    drugs.add(clipped)
                    covered += 1
                    i += 1
                    continue
                if words[i] in self.doses or words[i][:1].isdigit():
                    dosing += words[i] not in SMALL_WORDS  # "30 mg once daily for 5 days": the drug's dose
                i += 1
        windows += self._intervals(text.casefold())
        windows += self._bare_times(text.casefold())
        if not any(w[0] >= a[1] for w in windows for a in admitting):
            windows += admitting  # a later time written ("admit under cardiology in 6 weeks") is the admission's
        if routes:  # "Empirical IV antibiotics": the route says what is given; "Empirical antibiotics" stays loose
            content = [w for w in content if w not in self.loose_words]
        covered += sum(1 for i in acting if words[i] not in SMALL_WORDS)
        if covered + dosing >= len(content):
            covered += dosing  # a drug and its dose, nothing else ("Prednisolone 30 mg once daily for 5 days")
        return ActionReading(frozenset(teams), frozenset(drugs), frozenset(_most_specific(classes)), frozenset(routes),
                             tuple(windows), acts, contacts, min(1.0, covered / len(content)) if content else 0.0,
                             _doses(text), home, graded=any(w in self.grades for w in words))

    def without_timing(self, text: str) -> str:
        """``text`` with its timing expressions left out ("DC cardioversion now" -> "dc cardioversion")."""
        words = key(text).split()
        kept: list[str] = []
        i = 0
        while i < len(words):
            size = next((n for n in self.timing_lengths.get(words[i], ())
                         if i + n <= len(words) and " ".join(words[i:i + n]) in self.timing), 0)
            if size:
                i += size
                continue
            kept.append(words[i])
            i += 1
        return " ".join(kept)

    def _clipped(self, words: list[str], i: int) -> Term | None:
        """The one drug whose generic name starts with ``words[i]``, written clipped before a dose
        ("atorva 80", "doxy 200 mg", "amox 500"): terse plans clip names the vocabulary spells in
        full. Only before a number (a dose, or any number when the word opens the text), at least
        CLIP_LETTERS letters, and only when one drug fits."""
        word = words[i]
        if len(word) < CLIP_LETTERS or not word.isalpha() or i + 1 >= len(words) or not words[i + 1][:1].isdigit():
            return None
        if i > 0 and (i + 2 >= len(words) or words[i + 2] not in self.doses):
            return None  # mid-sentence, a number with no unit: "ICD code 5" is no codeine
        names = self.generic_names
        fits: set[Term] = set()
        for at in range(bisect_left(names, word), len(names)):
            if not names[at].startswith(word):
                break
            if len(names[at]) >= len(word) + 2:
                fits.add(self.generics[names[at]])
        return next(iter(fits)) if len(fits) == 1 else None

    def _intervals(self, text: str) -> list[Window]:
        """Written intervals: "within 4 hours", "in 2 weeks", "next 48 h", "2/52". Words after a lead that give no
        time ("in clinic", "by cardiology") are read on, so the time after them is found ("in clinic in 6 weeks")."""
        found: list[Window] = []
        at = 0
        while (interval := _INTERVAL.search(text, at)) is not None:
            lead, amount, upper, unit = interval.groups()
            hours = self.units.get(key(unit))
            number = float(upper or amount) if amount[:1].isdigit() else NUMBER_WORDS.get(amount)
            if hours is None or number is None:
                at = interval.start(2)  # "in clinic in 6 weeks", "by cardiology in 3 months": no time, read on
                continue
            at = interval.end()
            span = number * hours[0]
            found.append((0.0, span) if lead in ("within", "next", "by") else (span, span))
        for amount, denominator in _SHORTHAND.findall(text):
            hours_each = self.shorthand.get(int(denominator))
            if hours_each:
                span = int(amount) * hours_each
                found.append((span, span))
        return found

    def _bare_times(self, text: str) -> list[Window]:
        """An amount of time written with no lead word right after a contact ("review by cardiology 6/52",
        "vascular review - 6 weeks", "review (6 weeks)") and ending its phrase, or opening its clause right before
        one ("6/52 cardiology review"), is that contact's time; one that goes on into other words ("6 weeks
        pregnant", "2 days of pain") or stands beside no contact ("symptoms for 6 weeks") is not."""
        found: list[Window] = []
        for bare in _BARE_TIME.finditer(text):
            amount, upper, unit, short, denominator = bare.groups()
            if short:
                each = self.shorthand.get(int(denominator))
                low = high = float(short) * each if each else None
            else:
                hours = self.units.get(key(unit))
                number = float(amount) if amount[:1].isdigit() else NUMBER_WORDS.get(amount)
                if hours is None or number is None:
                    continue
                low, high = number * hours[0], float(upper or number) * hours[0]
            if low is None or high is None:
                continue
            before = re.sub(_BESIDE + "$", "", text[:bare.start()])
            after = text[bare.end():]
            beside_after = self._ends_contact(before) and self._ends_phrase(after)  # "cardiology review 6/52"
            beside_before = bool(_CLAUSE_START.search(text[:bare.start()])) and self._opens_contact(
                re.sub("^" + _BESIDE, "", after))  # "6/52 cardiology review"
            if beside_after or beside_before:
                found.append((low, high))
        return found

    def _ends_contact(self, text: str) -> bool:
        words = key(text[-200:]).split()
        return any(" ".join(words[-n:]) in self.contacts for n in range(1, min(MAX_WORDS, len(words)) + 1))

    def _opens_contact(self, text: str) -> bool:
        words = key(text[:200]).split()
        return any(" ".join(words[:n]) in self.contacts for n in range(1, min(MAX_WORDS, len(words)) + 1))

    @staticmethod
    def _ends_phrase(text: str) -> bool:
        """Nothing but punctuation, the text's end or a grammar word follows (``_CLAUSE_GOES_ON``)."""
        rest = text.lstrip(" \t")
        if not rest or not rest[0].isalnum():
            return True
        word = re.match(r"[a-z]+", rest)
        return word is not None and word.group() in _CLAUSE_GOES_ON


def _lengths(names: Iterable[str]) -> dict[str, tuple[int, ...]]:
    """The word counts of the names (keys) that begin with each word, longest first, up to MAX_WORDS: a reader
    tries only these at a word of the text, in one pass over it, not every length at every word."""
    sizes: dict[str, set[int]] = {}
    for name in names:
        words = name.split()
        if words and len(words) <= MAX_WORDS:
            sizes.setdefault(words[0], set()).add(len(words))
    return {word: tuple(sorted(counts, reverse=True)) for word, counts in sizes.items()}


def _most_specific(classes: set[Term]) -> set[Term]:
    """The classes no other of them is under ("opioid analgesia" is about opioids, not analgesics)."""
    vocabulary = read_vocabulary()
    return {c for c in classes if not any(c in vocabulary.broader(other) for other in classes if other != c)}


@lru_cache(maxsize=4)
def _index(vocabulary: Vocabulary) -> _Index:
    return _Index(vocabulary)


@lru_cache(maxsize=65536)
def read_action(text: str) -> ActionReading:
    """The reading of ``text`` with the shipped vocabulary (cached)."""
    return _index(read_vocabulary()).read(text)


def without_timing(text: str) -> str:
    """``text`` without its timing expressions, in key words (the shipped vocabulary's timing)."""
    return _index(read_vocabulary()).without_timing(text)


def item_reading_of(name: str, *, within: str | None = None, route: str | None = None,
                    target: str | None = None) -> ActionReading:
    """A reference item read as an action, from its name and its structured fields: what it is
    about (a team, a drug, a class of drugs), the time it asks for and its route. The fields win
    over what the name says; aliases are other ways of naming the item, not other timings. A time
    the item gives as a point ("review in 2 weeks") is a deadline: sooner meets it. What the item
    replaces ("routine referral instead of the suspected cancer pathway") does not give its time, nor what it is
    about: "Oral antibiotics instead of IV" is about oral antibiotics (:func:`replaced_part` is the rest)."""
    own = _own_part(name)
    reading = read_action(own)
    if reading.teams and not (reading.drugs or reading.classes):
        # a team's review on its own condition is about the team; a drug's item keeps its whole name (its
        # condition may name another drug or route)
        reading = read_action(without_own_condition(own))
    windows = within_window(within) if within else reading.windows
    windows = tuple((0.0, w[1]) if w[0] == w[1] else w for w in windows)
    routes = frozenset(found for found in (route_named(route),) if found) if route else reading.routes
    teams, drugs, classes, covered, acts = reading.teams, reading.drugs, reading.classes, reading.covered, reading.acts
    covered = max(covered, _covered_before_purpose(own, reading))
    dosed = _dosed_bracket(own)
    if dosed is not None and covered < ABOUT_DRUG and not teams and dosed.drugs <= drugs:
        # "Second-line IV antiseizure drug now (levetiracetam 60 mg/kg up to 4500 mg)": the bracket names the
        # one drug the item gives, with its dose; the name outside it says its route and time
        covered, classes = 1.0, frozenset()
    contacts = reading.contacts
    named = target_named(target) if target else None
    if named is not None:
        covered = 1.0
        teams, drugs, classes = (frozenset({named}) if named.kind == kind else frozenset()
                                 for kind in ("team", "drug", "drug_class"))
        contacts = contacts or (named.kind == "team" and not acts)  # a team to involve, how unsaid
        acts = acts or named.kind == "team"
    first = own.split(maxsplit=1)[0].lower() if own.strip() else ""
    resumes = first in _RESUMING_ITEM_WORDS
    loads = not _LOADING_ITEM_WORDS.isdisjoint(w.strip(".,;:()[]") for w in own.lower().split())
    return ActionReading(teams, drugs, classes, routes, windows, acts, contacts, covered, reading.doses,
                         reading.sends_home, resumes=resumes, loads=loads, graded=reading.graded)


_LOADING_ITEM_WORDS = frozenset(w.lower() for w in read_vocabulary().phrases("loading_item_words"))
_MAINTENANCE = re.compile(r"(?<!\w)(?:" + "|".join(
    re.escape(w.lower()).replace(r"\ ", r"\s+") for w in read_vocabulary().phrases("maintenance_frequency_words"))
    + r")(?!\w)")


def regular_frequency(text: str) -> bool:
    """The text gives a regular frequency ("500 mg BD", "twice daily"; ``maintenance_frequency_words``)."""
    return _MAINTENANCE.search(text.lower()) is not None


_RESUMING_ITEM_WORDS = frozenset(w.lower() for name in ("restart_item_words", "continue_words")
                                 for w in read_vocabulary().phrases(name))
"""The first words of an item that restarts or continues the patient's own drug ("Restart regular levetiracetam")."""


OWN_CONDITION_RE = re.compile(
    r"\b(" + "|".join(re.escape(w) for w in read_vocabulary().phrases("item_condition_words")) + r")\b", re.IGNORECASE
)
"""Words by which a reference item states its own condition ("IV mannitol if IOP does not respond"); timing
words ("after maternal stabilisation", "once safe after birth") do not make an item conditional (scoring.md)."""


_BRACKETED_RE = re.compile(r"\([^()]*\)")


def states_own_condition(name: str) -> bool:
    """The item states its own condition outside brackets ("IV mannitol if IOP does not respond"); a condition in a
    bracket qualifies the bracket's own action ("Early critical care involvement (RSI and general anaesthesia if
    refractory)": the involvement is early, only the anaesthesia waits), not the item."""
    return OWN_CONDITION_RE.search(_BRACKETED_RE.sub(" ", name)) is not None


def without_own_condition(name: str) -> str:
    """The item's name before its own condition ("Critical care review" of "Critical care review if hypotension
    persists after fluids"); the whole name when it states none."""
    found = OWN_CONDITION_RE.search(name)
    head = name[: found.start()].strip(" ,;:-") if found is not None else ""
    return head or name


ITEM_PURPOSE_RE = re.compile(r"\s+(?:for|covering|to cover)\s+", re.IGNORECASE)
"""Grammar: the words that open a drug item's own purpose ("Ibuprofen or other NSAID for pain", "IV antibiotics
covering Gram-negative organisms")."""


def _covered_before_purpose(name: str, reading: ActionReading) -> float:
    """The share of a drug item's words its drugs, classes, route and time cover before its own purpose ("for pain"
    of "Ibuprofen or other NSAID for pain"): the purpose says why the drug is given, it does not make the item about
    something else, so the drug named in any words is the item (a contraindicated drug is harmful whatever it is
    given for). Only when the purpose names no drug, class or team of its own; 0 otherwise."""
    found = ITEM_PURPOSE_RE.search(name)
    if found is None or reading.teams or not (reading.drugs or reading.classes):
        return 0.0
    head = read_action(name[: found.start()])
    same = head.drugs == reading.drugs and head.classes == reading.classes and not head.teams
    return head.covered if same else 0.0


DOSE_CEILING_RE = re.compile(r"\b(?:up to|max(?:imum)?|capped at)\b", re.IGNORECASE)
"""Grammar: the words that cap a dose ("60 mg/kg up to 4500 mg", "max 4.5 g"): part of the dose."""


def _dosed_bracket(name: str) -> ActionReading | None:
    """The reading of a bracket in an item's name that is one drug with its dose and nothing else
    ("(levetiracetam 60 mg/kg up to 4500 mg)"); None when there is no such bracket. A drug named alone
    ("Antiseizure drug level (lamotrigine)") is what the item is about, not the drug it gives."""
    for inner in _BRACKETED_RE.findall(name):
        reading = read_action(DOSE_CEILING_RE.sub(" ", inner.strip("()")))
        if len(reading.drugs) == 1 and reading.doses and reading.covered >= 1.0 and not reading.teams:
            return reading
    return None


def _own_part(name: str) -> str:
    """The item's name before the action it replaces ("instead of", "rather than", "without": ``item_replaces``),
    as written (a route's capitals kept: "IV fluids instead of oral")."""
    found = _replaces(name)
    return name[: found.start()].strip(" ,;:-") if found is not None else name


def own_part(name: str) -> str:
    """The item's name before the action it replaces (``item_replaces``), as written."""
    return _own_part(name)


def replaced_part(name: str) -> str | None:
    """What the item's action replaces: its name after "instead of" ("IV as initial treatment" of "Oral antibiotics
    instead of IV as initial treatment"), or None."""
    found = _replaces(name)
    return (name[found.end() :].strip() or None) if found is not None else None


_REPLACES_RE = re.compile(
    r"\b(?:" + "|".join(re.escape(p) for p in read_vocabulary().phrases("item_replaces")) + r")\b", re.IGNORECASE
)
OPTION_LEAD = re.compile(r"\bwith\s+or\s+$", re.IGNORECASE)
"""Grammar: "with or without" offers an option ("detorsion with or without cystectomy"), it replaces nothing."""


def _replaces(name: str) -> re.Match[str] | None:
    """Where the item's name says what its action replaces, after words of its own and outside brackets (a
    bracket's "without" qualifies a word in it: "glucose without saline")."""
    return next((m for m in _REPLACES_RE.finditer(name)
                 if name[: m.start()].strip(" ,;:-(") and not OPTION_LEAD.search(name[: m.start()])
                 and name.count("(", 0, m.start()) <= name.count(")", 0, m.start())), None)


def replaced_reading(name: str, own: ActionReading) -> ActionReading | None:
    """What an item's action replaces, read as an action, when it is another route of the item's own drugs or
    classes (``own``): "Oral antibiotics instead of IV" replaces antibiotics by the intravenous route; with no
    route the vocabulary knows ("Oral hydrocortisone only, without parenteral hydrocortisone"), the routes are
    left empty: any route other than the item's own. None for any other replacement ("instead of admission",
    "dexamethasone instead of hydrocortisone")."""
    rest = replaced_part(name)
    if rest is None:
        return None
    reading = read_action(rest)
    if goes_without_cover(name, own, reading):  # "Levothyroxine without glucocorticoid cover": the cover it needs
        return ActionReading(drugs=reading.drugs, classes=reading.classes)
    if reading.teams or not (own.drugs or own.classes) or not (reading.routes or own.routes) or not (
            reading.drugs <= own.drugs and reading.classes <= own.classes):
        return None  # "instead of admission", "dexamethasone instead of hydrocortisone": no other route of its own
    return ActionReading(drugs=own.drugs, classes=own.classes, routes=reading.routes)


_GOES_WITHOUT = frozenset(key(p) for p in read_vocabulary().phrases("item_goes_without"))


def goes_without_cover(name: str, own: ActionReading, other: ActionReading) -> bool:
    """The item gives its drug without another drug or class it needs ("Levothyroxine without glucocorticoid
    cover", "Beta-blocker without alpha-blockade"; ``item_goes_without``): the other part names drugs or classes
    and no team, none of them the item's own (another route of its own drug is a replacement, not a cover)."""
    found = _replaces(name)
    return bool(found is not None and key(found.group(0)) in _GOES_WITHOUT and (own.drugs or own.classes)
                and (other.drugs or other.classes) and not other.teams
                and not (other.drugs & own.drugs or other.classes & own.classes))


def timing_of(text: str) -> tuple[Window, ...]:
    """The windows a timing expression gives ("same day", "within 4 hours"); empty if none."""
    return read_action(text).windows


def within_window(text: str) -> tuple[Window, ...]:
    """The windows of an item's ``within`` field. The field's name already says "within", so a bare
    duration is a deadline ("within: 2 weeks", "within: 48 hours" as a physician writes them), as is
    any timing expression the vocabulary knows ("same day", "next week"); empty if neither."""
    return timing_of(text) or timing_of(f"within {text}")


def route_named(text: str) -> Term | None:
    """The route ``text`` names, by any of its names."""
    return next(iter(read_vocabulary().lookup(text, "route")), None)


def target_named(text: str) -> Term | None:
    """The team, drug or drug class ``text`` names, by any of its names."""
    vocabulary = read_vocabulary()
    return next((t for kind in ("team", "drug", "drug_class") for t in vocabulary.lookup(text, kind)), None)

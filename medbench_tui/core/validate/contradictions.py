"""A record that contradicts itself: a patient fact and an attachment that disagree about a state.

The states are the vocabulary's (``states.yaml``): what a record gives as present or absent
("she isn't stiff" against "lead-pipe rigidity of all four limbs"), or as one of exclusive
values ("I'm O negative" against "Blood group O RhD positive"). A mention is denied when a
denial of the patient's words stands before it in its clause (``patient_denials``); where both
mentions name a body part and they share none ("no neck stiffness" and a stiff knee), they are
about different things and do not disagree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from medbench_tui.core.validate.leaks import HISTORY_REACH, Term, history_cues, spelling

_WORD = re.compile(r"[^\W_]+")
_CLAUSE_END = re.compile(r"[.;:!?()\u2014]|\s[-\u2013]\s|\s(?:but|and|although|though)\s")
"""A clause ends here; a comma does not end one, so a denial covers its list ("no rash, spots or blisters")."""


@dataclass(frozen=True)
class Statement:
    """A state said in one text: which, whether denied, where (offset), and the words as written."""

    state: str
    choice: str | None
    """The exclusive choice it is a value of (``rhesus status``), or None for present/absent."""
    denied: bool
    offset: int
    words: str
    sites: frozenset[str]


@dataclass(frozen=True)
class Disagreement:
    fact: Statement
    record: Statement

    def why(self) -> str:
        if self.fact.state != self.record.state:
            return f"`{self.fact.words}` and `{self.record.words}` are different values of {self.fact.choice}"
        said, found = ("denies", "finds") if self.fact.denied else ("says", "denies")
        return f"the patient {said} `{self.fact.words}` where the record {found} it (`{self.record.words}`)"


@lru_cache(maxsize=1)
def _states() -> tuple[tuple[str, str | None, tuple[Term, ...]], ...]:
    """(state, its choice, its names as terms), for the states no other state is a value of."""
    from medbench_tui.core.vocabulary import read_vocabulary

    vocabulary = read_vocabulary()
    terms = vocabulary.of_kind("state")
    choices = {parent for term in terms for parent in term.broader}
    return tuple(
        (term.name, term.broader[0] if term.broader else None,
         tuple(t for t in (Term.of(name) for name in term.names) if t))
        for term in terms if term.name not in choices
    )


@lru_cache(maxsize=1)
def _body_words() -> frozenset[str]:
    from medbench_tui.core.vocabulary import read_vocabulary

    return frozenset(spelling(w) for term in read_vocabulary().of_kind("body_part") for name in term.names
                     for w in _WORD.findall(name.casefold()))


def statements(text: str) -> list[Statement]:
    """Every state the text gives, denied or not."""
    found = list(_WORD.finditer(text))
    words = [m.group() for m in found]
    normalised = [spelling(w) for w in words]
    vocabulary = {*words, *normalised}
    cues = history_cues()
    out = []
    for state, choice, terms in _states():
        for term in terms:
            for start in term.matches(words, normalised, vocabulary):
                first, last = found[start], found[start + len(term.words) - 1]
                before = _CLAUSE_END.split(text[: first.start()].casefold().replace("'", "").replace("\u2019", ""))[-1]
                after = _CLAUSE_END.split(text[last.end():].casefold())[0]
                lead = _WORD.findall(before)[-HISTORY_REACH:]
                denied = any(tuple(lead[k: k + len(p)]) == p for p in cues.denials for k in range(len(lead)))
                sites = frozenset(spelling(w) for w in _WORD.findall(before + " " + after)) & _body_words()
                out.append(Statement(state, choice, denied, first.start(), text[first.start(): last.end()], sites))
                break
    return out


def disagreements(facts: list[Statement], record: list[Statement]) -> list[Disagreement]:
    """The pairs of a fact's and the record's statements that cannot both be true: the patient
    denies what the record finds (at no body part, or at one the record names too), or they give
    different values of one choice. A symptom the patient had may be gone when examined, so a
    finding the record denies is no disagreement."""
    out = []
    for fact in facts:
        for found in record:
            if fact.sites and not fact.sites & found.sites:
                continue
            same = fact.state == found.state and fact.denied and not found.denied
            other_value = (fact.choice is not None and fact.choice == found.choice and fact.state != found.state
                           and not fact.denied and not found.denied)
            if same or other_value:
                out.append(Disagreement(fact, found))
    return out

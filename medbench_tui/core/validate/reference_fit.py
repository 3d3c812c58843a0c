"""Checks that the reference means what it says: aliases narrow enough to mean their item,
and required workup a clinician can do in the case's setting.

Both lists are short and documented on purpose: they catch the failure classes the
2026-12 physician review found (a correct plan scored as a contraindicated one because
an alias was one common word; hospital tests required of a GP) without second-guessing
authors on every phrase.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from medbench_tui.core.text import singular
from medbench_tui.core.vocabulary import Term, read_vocabulary, reading

# A single common word as an alias matches every plan that uses it for something else:
# "oxygen" is both controlled and high-flow oxygen, "admit" both "admit for observation"
# and "admit under surgery", "potassium" both the serum test and the replacement. Each
# word maps to an example of a narrower phrase.
BROAD_WORDS: dict[str, str] = {
    "oxygen": "high-flow oxygen via non-rebreather",
    "admit": "admit under the medical team",
    "admission": "hospital admission",
    "potassium": "potassium replacement",
    "magnesium": "serum magnesium",
    "phosphate": "serum phosphate",
    "discharge": "discharge without observation",
    "referral": "referral to cardiology",
    "refer": "refer to paediatrics",
    "monitoring": "hourly glucose monitoring",
    "observation": "observation for 6-12 hours",
    "observations": "hourly observations",
    "surgery": "emergency surgery",
    "sedation": "benzodiazepine sedation",
    "inhaler": "salbutamol inhaler",
    "fluids": "encourage oral fluids",
    "home": "send home now",
    "review": "review in 48 hours",
    "follow-up": "follow-up in 2 weeks",
}

# Disposition phrases on a contraindicated or not-indicated item: a correct plan uses the
# same words with another timing ("after PCI, discharge home"), so the alias must carry
# the wrong timing or reason ("discharge from ED now", "treat as gastroenteritis at home").
DISPOSITION_PHRASES: frozenset[str] = frozenset({
    "discharge home", "send home", "go home", "home with advice", "discharge with advice",
    "outpatient follow-up", "routine follow-up", "routine review", "follow-up",
})
HARMFUL_CLASSES = ("contraindicated", "not_indicated")

# Tests done only in hospital (or by a specialist service): a consultation in these
# settings refers for them, so the reference must not *require* them (make them
# `acceptable` and require the referral instead).
HOSPITAL_ONLY_TESTS: tuple[str, ...] = (
    "CT", "computed tomography", "MRI", "PET", "arterial blood gas", "lumbar puncture",
    "colonoscopy", "gastroscopy", "oesophagogastroduodenoscopy", "endoscopy", "bronchoscopy",
    "endobronchial", "biopsy", "mammography", "angiography", "cardiotocography",
)
# At a home visit or by video, the clinician has no imaging or scanner either.
NO_EQUIPMENT_TESTS: tuple[str, ...] = ("bladder scan", "ultrasound", "X-ray", "radiograph")
OUT_OF_HOSPITAL_TESTS: dict[str, tuple[str, ...]] = {
    "primary_care": HOSPITAL_ONLY_TESTS,
    "home_visit": HOSPITAL_ONLY_TESTS + NO_EQUIPMENT_TESTS,
    "telehealth": HOSPITAL_ONLY_TESTS + NO_EQUIPMENT_TESTS,
}

_SPACE = re.compile(r"\s+")
_WORDS = re.compile(r"[^\W_]+")


def _plain(text: str) -> str:
    return _SPACE.sub(" ", text.strip().casefold().strip(".;:,"))


def broad_alias(alias: str, item_class: str | None) -> tuple[str, str] | None:
    """(the too-broad words, a narrower phrase to suggest), or None when the alias is fine.

    This is the alias alone; :func:`broad_alias_risk` judges it against its item and the case."""
    plain = _plain(alias)
    if plain in BROAD_WORDS:
        return plain, BROAD_WORDS[plain]
    if item_class in HARMFUL_CLASSES and plain in DISPOSITION_PHRASES:
        return plain, f"{plain} now, with the wrong timing or reason named (e.g. 'discharge from ED now')"
    return None


# Classes whose items cost the answer (a harmful treatment, an unexpected test), and those that
# give it credit: a bare word shared across the two sides lets one plan pass as the other.
PENALISED_CLASSES = (*HARMFUL_CLASSES, "unexpected")


@dataclass(frozen=True)
class CaseItem:
    """A work-up or treatment item as the reference-fit checks see it."""

    list_name: str
    index: int
    name: str
    klass: str | None
    names: tuple[str, ...]  # its name and its aliases

    @property
    def penalised(self) -> bool:
        return self.klass in PENALISED_CLASSES

    def words(self) -> set[str]:
        return {singular(w) for n in self.names for w in _WORDS.findall(n.casefold())}


@dataclass(frozen=True)
class BroadAlias:
    words: str
    narrower: str
    why: str


def broad_alias_risk(alias: str, item: CaseItem, others: list[CaseItem]) -> BroadAlias | None:
    """Why a too-broad alias (:func:`broad_alias`) lets a wrong plan pass here, or None where it
    names what the item is and nothing else in the case: "magnesium" on a serum magnesium test
    names the test, unless the case also gives magnesium. It is risky

    * on an item that costs the answer: a correct plan saying the words for another reason counts
      as the harmful action;
    * where another item of the case says the words too: a plan doing that one counts as this one;
    * on a treatment, or where the item's own name does not hold the words: the words say less than
      the item (no route, no timing, no reason), so another way of doing them counts as it.
    """
    found = broad_alias(alias, item.klass)
    if found is None:
        return None
    words, narrower = found
    own = {singular(w) for w in _WORDS.findall(words)}
    if item.penalised:
        return BroadAlias(words, narrower, f"on a `{item.klass}` item, a correct plan that says \"{words}\" "
                          "for another reason or at another time counts as doing this harmful thing")
    sharing = [o for o in others if o is not item and own <= o.words()]
    sharing.sort(key=lambda o: not o.penalised)
    if sharing:
        other = sharing[0]
        return BroadAlias(words, narrower, f"`{other.name}` ({other.klass}) also says \"{words}\", so a plan "
                          f"that does that counts as this item{' and escapes the penalty' if other.penalised else ''}")
    names_it = own <= {singular(w) for w in _WORDS.findall(item.name.casefold())}
    if item.list_name == "workup" and names_it:
        return None  # the test the item is ("magnesium" for "Serum magnesium"), and nothing else here
    return BroadAlias(words, narrower, f"a correct plan uses the words \"{words}\" with another route, "
                      "timing or reason, and would count as this item")


def related_terms(a: Term, b: Term) -> bool:
    """The same team, drug or class, or one under the other (ibuprofen and NSAIDs)."""
    vocabulary = read_vocabulary()
    return a == b or b in vocabulary.broader(a) or a in vocabulary.broader(b)


ABOUT_SHARE = 0.25
"""The share of an item's name that must name its one team, drug or class for the item to be about it
("High-dose prednisolone 60 mg started today" is; "Discharge home with analgesia and outpatient
review" is a discharge)."""


def covers(alias: Term, other: Term) -> bool:
    """A mention of ``alias`` is a mention of ``other``: the same term, or one above it ("NSAID" covers
    ibuprofen; "vancomycin" does not cover "antibiotics", which another item may name for another
    route or setting)."""
    return alias == other or alias in read_vocabulary().broader(other)


def targets_of(text: str) -> frozenset[Term]:
    found = reading.read_action(text)
    return found.teams | found.drugs | found.classes


def bare_target_risk(alias_targets: frozenset[Term], item: CaseItem, others: list[CaseItem]) -> CaseItem | None:
    """The item on the other side (it costs where this one credits, or the reverse) that names a team,
    drug or class of an alias that names only that; None when there is none.

    Such an alias is any mention of its target. Where nothing on the other side names it, that is what
    the item asks for anyway: the grader reads "refer to X", "X review" as the item by its same-team
    rule, and a drug by its name. An item with a time (``within:``, or a time in its name) is
    protected against another time: the grader drops an alias mention whose timing contradicts its
    item's (``reference.contradicted``, ``actions.contradiction``). Only an item on the other side
    naming the target makes the bare name let a wrong plan pass ("NSAID" on aspirin, with ibuprofen
    contraindicated), or a right one fail ("prednisolone" on the harmful low dose, with the high dose
    required)."""
    for other in others:
        if other is item or other.penalised == item.penalised:
            continue
        said = reading.read_action(other.name)
        named = said.teams | said.drugs | said.classes
        if len(named) != 1 or said.covered < ABOUT_SHARE:
            continue  # another action that names it by the way ("Discharge home with analgesia")
        if any(covers(a, b) for b in named for a in alias_targets):
            return other
    return None


def hospital_only_test(item: str, setting: str) -> str | None:
    """The hospital-only test a required workup ``item`` names in ``setting``, if any."""
    for term in OUT_OF_HOSPITAL_TESTS.get(setting, ()):
        # capitals-only terms (CT, MRI, PET) match as written; the others in any case
        flags = 0 if term.isupper() else re.IGNORECASE
        if re.search(rf"(?<![\w-]){re.escape(term)}(?![\w-])", item, flags):
            return term
    return None

"""Checks that the reference means what it says: aliases narrow enough to mean their item,
and required workup a clinician can do in the case's setting.

Both lists are short and documented on purpose: they catch the failure classes the
2026-12 physician review found (a correct plan scored as a contraindicated one because
an alias was one common word; hospital tests required of a GP) without second-guessing
authors on every phrase.
"""

from __future__ import annotations

import re

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


def _plain(text: str) -> str:
    return _SPACE.sub(" ", text.strip().casefold().strip(".;:,"))


def broad_alias(alias: str, item_class: str | None) -> tuple[str, str] | None:
    """(the too-broad words, a narrower phrase to suggest), or None when the alias is fine."""
    plain = _plain(alias)
    if plain in BROAD_WORDS:
        return plain, BROAD_WORDS[plain]
    if item_class in HARMFUL_CLASSES and plain in DISPOSITION_PHRASES:
        return plain, f"{plain} now, with the wrong timing or reason named (e.g. 'discharge from ED now')"
    return None


def hospital_only_test(item: str, setting: str) -> str | None:
    """The hospital-only test a required workup ``item`` names in ``setting``, if any."""
    for term in OUT_OF_HOSPITAL_TESTS.get(setting, ()):
        # capitals-only terms (CT, MRI, PET) match as written; the others in any case
        flags = 0 if term.isupper() else re.IGNORECASE
        if re.search(rf"(?<![\w-]){re.escape(term)}(?![\w-])", item, flags):
            return term
    return None

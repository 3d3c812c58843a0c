"""Grader classes of set W (g68, product issue 32): a poisoning named by its drug class written short, and terse
shorthand of tests and replacements, each tested on wording of its own on other topics."""

from __future__ import annotations

import pytest

from medbench_tui.core.scoring.reference import _diagnosis_drug_forms
from medbench_tui.core.text import tokenize


def norms(text: str) -> list[str]:
    return [t.norm for t in tokenize(text)]


def test_a_poisoning_by_a_drug_class_is_named_by_the_class_short_name():
    forms = _diagnosis_drug_forms(("Opioid toxicity", "Benzodiazepine dependence"))
    assert "opiate toxicity" in forms
    assert "benzo dependence" in forms
    assert not _diagnosis_drug_forms(("Alcohol withdrawal", "Community-acquired pneumonia"))


@pytest.mark.parametrize(("text", "words"), [
    ("para/sal at 4 h", ["paracetamol", "and", "salicylate", "level"]),
    ("urine Cu pending", ["urine", "copper"]),
    ("24h urine protein", ["24", "hour", "urine", "protein"]),
    ("replace K+ and PO4 IV", ["potassium", "and", "phosphate", "replacement"]),
    ("replace PO4", ["phosphate", "replacement"]),
])
def test_terse_shorthand_of_tests_and_replacements(text: str, words: list[str]):
    assert " ".join(words) in " ".join(norms(text))


@pytest.mark.parametrize(("text", "absent"), [
    ("Cu 14", "copper"),              # a bare symbol stays unread
    ("K 3.1, PO4 0.5", "replacement"),  # results are no replacement
    ("vitamin K 10 mg IV", "potassium"),
])
def test_bare_symbols_and_results_stay_unread(text: str, absent: str):
    assert absent not in norms(text)

"""Grader classes of set V (g60, product issue 32): clinicians' shorthand for a fracture and a coagulation screen,
each tested on wording of its own on other topics."""

from __future__ import annotations

import pytest

from medbench_tui.core.text import tokenize
from tests.test_scoring_regressions import card, rows

GOUT_TOE = "Fracture of the great toe"
SKULL = "Skull vault fracture"


def norms(text: str) -> list[str]:
    return [t.norm for t in tokenize(text)]


@pytest.mark.parametrize(("text", "fracture"), [
    ("DDx: toe #, cellulitis", True),
    ("Differentials:\n- # great toe (kicked the door?)\n- septic arthritis", True),
    ("DDx: L NOF #. ", True),
    ("#NOF R", True),
    ("Dispensed: # of tablets 28", False),
    ("#1 gout\n#2 CKD 3a", False),
    ("Admit to ward #3", False),
    ("## Plan\n# Differential\nseptic arthritis", False),
])
def test_a_hash_beside_a_word_is_a_fracture(text: str, fracture: bool):
    """"#" standing alone beside a word ('toe #', '# great toe') is a fracture; a count ('# of tablets'), a list or
    ward number ('#1', 'ward #3') or a markdown heading's mark is not."""
    assert ("fracture" in norms(text)) is fracture


def test_a_fracture_written_as_a_hash_meets_the_differential():
    c = card("im-gout-001", "Imp: acute gout R 1st MTPJ.\nDDx: septic arthritis, great toe #.\nPlan: naproxen.")
    assert GOUT_TOE in rows(c, "differential")
    skull = card("em-head-injury-001", "Imp: minor head injury, concussion.\nDDx: skull vault # (no boggy swelling).")
    assert SKULL in rows(skull, "differential")


def test_a_count_or_a_heading_is_no_fracture_differential():
    c = card("im-gout-001", "# Impression\nAcute gout R 1st MTPJ.\n# Plan\nNaproxen, # of tablets 14.")
    assert GOUT_TOE not in rows(c, "differential")


@pytest.mark.parametrize("written", ["clotting", "coag", "coag screen", "clotting screen", "coagulation screen"])
def test_a_clotting_screen_written_short_is_the_coagulation_screen(written: str):
    """'clotting' alone in a list of bloods is the coagulation screen, as a case's 'Coagulation screen' reads (the
    screen's own word after the short form is not said twice)."""
    assert norms(written) == norms("Coagulation screen") == ["coagulation", "screen"]


def test_clotting_in_a_list_of_bloods_meets_a_coagulation_screen_item_and_no_other():
    c = card("em-aortic-dissection-001", "Plan: bloods - FBC, U&E, clotting, G&S")
    assert "Coagulation screen" in rows(c, "workup")
    none = card("em-aortic-dissection-001", "Plan: bloods - FBC, U&E, G&S")
    assert "Coagulation screen" not in rows(none, "workup")


PARKINSON = "Parkinson disease"


@pytest.mark.parametrize(("text", "considered"), [
    ("Imp: recurrent falls, multifactorial.\nDDx: Parkinson's, postural hypotension.", True),
    ("Imp: recurrent falls, multifactorial.\nPlan: gait assessment - no tremor or rigidity, not Parkinson's.", True),
    ("Imp: recurrent falls, multifactorial.\nDDx: postural hypotension, cerebellar disease.", False),
    ("Imp: recurrent falls, multifactorial.\nDDx: postural hypotension. Discussed with Dr Parkinson.", False),
])
def test_a_possessive_eponym_alone_names_its_condition(text: str, considered: bool):
    """"Parkinson's" alone (in a differential list, or rejected in a plan line: a condition named and judged
    absent is considered) is Parkinson disease; the surname alone, without the possessive, is not."""
    c = card("im-falls-001", text)
    assert (PARKINSON in rows(c, "differential")) is considered


def test_a_possessive_eponym_reads_as_its_condition_with_or_without_its_noun():
    assert norms("Crohn's") == norms("Crohn's disease") == norms("Crohn disease") == ["crohn", "disease"]
    assert norms("not Bell's") == ["not", "bell", "palsy"] and norms("Bell's palsy") == norms("Bell palsy")
    assert norms("Dr Bell") == ["dr", "bell"]
    c = card("onc-colorectal-001", "Imp: caecal carcinoma.\nDDx: Crohn's, TB.")
    assert "Crohn disease" in rows(c, "differential")

"""Terse answers the grader read wrongly (product issue 32, second round): a heading whose value reports the act
not done, and the British spelling rule kept to the words it is about. Each class in wording of its own."""

from __future__ import annotations

import pytest

from medbench_tui.core.text import normalise
from tests.test_scoring_regressions import card, condition


@pytest.mark.parametrize(("line", "done"), [
    ("ECG: not done.", False),
    ("ECG - not performed", False),
    ("12-lead ECG not carried out, pt left", False),
    ("ECG: not done yet", True),
    ("ECG: sinus rhythm, normal intervals", True),
])
def test_a_heading_whose_value_reports_the_act_not_done_is_no_act(line: str, done: bool):
    """"ECG: not done" reports that the act was not done: its name as a label is no credit; "not done yet" is
    still to come and a finding after the label is the act done."""
    c = card("em-syncope-001", f"Vasovagal syncope.\n{line}\n- safety net: return if chest pain\n")
    assert (condition(c, "cc-ecg") == "OK") is done, line


@pytest.mark.parametrize(("british", "american"), [
    ("hospitalised", "hospitalized"),
    ("nebulise", "nebulize"),
    ("characterise", "characterize"),
    ("otherwise", "otherwise"),
    ("clockwise", "clockwise"),
    ("rising", "rising"),
    ("arise", "arise"),
    ("bruising", "bruising"),
    ("exercise", "exercise"),
    ("immunocompromised", "immunocompromised"),
    ("unsupervised", "unsupervised"),
    ("crises", "crisis"),
])
def test_the_british_ise_ending_is_spelled_american_only_where_it_is_one(british: str, american: str):
    """The -ise rule is about British verbs ("hospitalise"); a word whose -ise is written the same in American
    ("otherwise", "rise", "exercise") keeps its spelling, and "crises" is the plural of crisis again."""
    assert normalise(british) == american


@pytest.mark.parametrize(("said", "adjusted"), [
    ("adj Ca 2.95", True),
    ("corr Ca 2.95", True),
    ("Corrected Ca 2.95", True),
    ("colon Ca", False),
    ("Ca 2.95", False),
])
def test_calcium_adjusted_for_albumin_written_short_is_the_adjusted_calcium(said: str, adjusted: bool):
    """"adj Ca" and "corr Ca" are the adjusted calcium: with its qualifier "Ca" is the calcium, never a cancer; a
    bare "Ca" stays as written (a cancer beside an organ's word)."""
    assert ("adjusted calcium" in normalise(said)) is adjusted, said

"""The doubt rules find an answer's pieces from break positions found once per text: the same pieces as a
scan from the start of the text for each item."""

from __future__ import annotations

import random
import re

import pytest

from medbench_tui.core.scoring import certainty


def _scanned(text: str, at: int, breaks: re.Pattern[str]) -> str:
    """The piece holding ``at``, by a scan of the whole text (the reading before the cached breaks)."""
    start = 0
    for cut in breaks.finditer(text):
        if cut.start() > at:
            return text[start:cut.start()]
        start = cut.end()
    return text[start:]


LETTERS = "ab .;,:\n-()\u2013\u2014 ?\t"


@pytest.mark.parametrize("breaks", [certainty._PIECE_BREAK, certainty._CLAUSE_BREAK])
def test_the_piece_of_every_character_is_the_scanned_piece(breaks: re.Pattern[str]) -> None:
    rnd = random.Random(18)
    for _ in range(2000):
        text = "".join(rnd.choice(LETTERS) for _ in range(rnd.randint(0, 30)))
        for at in range(-1, len(text) + 2):
            assert certainty._piece(text, at, breaks) == _scanned(text, at, breaks), (text, at)


def test_the_last_piece_before_a_mention_is_that_of_its_line() -> None:
    rnd = random.Random(81)
    for _ in range(5000):
        before = "".join(rnd.choice(LETTERS) for _ in range(rnd.randint(0, 30)))
        line = before[before.rfind("\n") + 1:]
        assert certainty._piece(line, len(line)) == _scanned(before, len(before), certainty._PIECE_BREAK), before


def test_pieces_of_a_plan() -> None:
    plan = "Admit. IV fluids, then review (tomorrow)\n- ?CT abdomen - urgent"
    assert certainty._piece(plan, plan.index("fluids")) == "IV fluids"
    assert certainty._piece(plan, plan.index("tomorrow")) == "tomorrow"
    assert certainty._piece(plan, plan.index("CT")) == "- ?CT abdomen"
    assert certainty._piece(plan, plan.index("urgent"), certainty._CLAUSE_BREAK) == "?CT abdomen - urgent"

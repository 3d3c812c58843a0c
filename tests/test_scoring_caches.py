"""What scoring keeps between answers (a case's reference table and what it read of repeated entries)
is keyed by the case's content and bounded: an edited case is never scored with the readings of its
old text, and a long batch over a large bank cannot grow them without limit."""

from __future__ import annotations

from collections import OrderedDict

import pytest

from medbench_tui.core.cases.model import Case
from medbench_tui.core.scoring import certainty, reference, score
from medbench_tui.core.scoring.reference import reference_table
from medbench_tui.core.transcript import FinalResponse, Transcript
from medbench_tui.core.validate import load_valid_case
from tests.test_scoring_regressions import CASES

ITEM = "Intramuscular adrenaline 0.5 mg"
WORDING = "quuxadrenal thigh jab"  # no word of the case or the vocabulary


def fresh_case() -> Case:
    return load_valid_case(CASES / "em-anaphylaxis-001.yaml")


def given(case: Case, *treatment: str) -> tuple[str, str]:
    """The item's status and the verdict of its critical condition, for a structured answer."""
    card = score(case, Transcript(case_id=case.id, final=FinalResponse(treatment=list(treatment))))
    status = next(e.status for e in card.items.treatment if e.reference == ITEM)
    return status, next(c.status for c in card.critical_conditions if c.id == "cc-im-adrenaline")


def test_an_edited_case_is_read_anew_not_from_the_readings_of_its_old_text():
    case = fresh_case()
    assert given(case, WORDING) == ("missing", "FAIL")
    assert given(case, WORDING) == ("missing", "FAIL")  # the second time from what was kept
    next(t for t in case.treatment if t.item == ITEM).aliases.append(WORDING)  # edited in place
    assert given(case, WORDING) == ("matched", "OK")
    next(t for t in case.treatment if t.item == ITEM).aliases.remove(WORDING)
    assert given(case, WORDING) == ("missing", "FAIL")


def test_tables_and_their_readings_are_bounded(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(reference, "_CACHE", OrderedDict())
    monkeypatch.setattr(reference, "CACHE_SIZE", 2)
    monkeypatch.setattr(reference, "MEMO_SIZE", 8)
    case = fresh_case()
    for n in range(20):  # twenty distinct entries, each read and kept
        given(case, f"{WORDING} {n}")
    assert len(reference_table(case)._memo) <= 8
    for n in range(4):  # four distinct cases
        case.intro = f"{case.intro} ({n})"
        reference_table(case)
    assert len(reference._CACHE) <= 2
    assert certainty._forms.cache_info().maxsize is not None

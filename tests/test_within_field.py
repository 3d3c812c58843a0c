"""An item's ``within`` field as physicians write it: a bare duration ("2 weeks") is a deadline, since the
field's name already says "within"; a word the vocabulary does not know is still an error at its line."""

from __future__ import annotations

from pathlib import Path

import pytest

from medbench_tui.core.vocabulary.reading import item_reading_of, within_window


@pytest.mark.parametrize(("text", "latest"), [("2 weeks", 336.0), ("within 2 weeks", 336.0), ("48 hours", 48.0),
                                              ("same day", 16.0), ("two weeks", 336.0)])
def test_a_bare_duration_is_a_deadline(text: str, latest: float) -> None:
    assert within_window(text) == ((0.0, latest),)


def test_a_timing_word_keeps_its_own_window() -> None:
    assert within_window("next week") == ((96.0, 336.0),)


def test_the_item_reads_the_bare_duration() -> None:
    assert item_reading_of("Urgent referral to ophthalmology", within="2 weeks").windows == ((0.0, 336.0),)


def test_an_unknown_timing_is_still_an_error() -> None:
    from medbench_tui.core.validate import validate_text

    case = Path(__file__).parent / "data" / "newcases-u" / "cases" / "u-pyelo-gp-001.yaml"
    text = case.read_text(encoding="utf-8")
    assert "  - item: " in text
    first = text.index("treatment:")
    at = text.index("  - item: ", first)
    end = text.index("\n", at)
    for within, bad in (("2 weeks", False), ("fortnightish", True)):
        report = validate_text(text[: end + 1] + f"    within: {within}\n" + text[end + 1 :])
        found = [d for d in report.diagnostics if d.code == "item.unknown_timing"]
        assert bool(found) is bad
        if found:
            assert found[0].line == text[: end + 1].count("\n") + 1

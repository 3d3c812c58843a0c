"""The reference table built faster (issue 41, bundled bank): what it holds is unchanged. No timed assertions."""

from __future__ import annotations

from medbench_tui.core.scoring.reference import Ref, _examinations, _phrases


def _workup(*names: str) -> list[Ref]:
    return [Ref("workup", i, name, "required", _phrases(name)) for i, name in enumerate(names)]


def test_examination_findings_are_every_word_after_the_first_own_word() -> None:
    """A finding is any word after the item's own word in one finding of the record, however often its own
    words come back in that finding; a denied word and another item's word are left out."""
    workup = _workup("Knee examination", "Serum urate")
    findings = "Knee: swollen knee, effusion, knee warmth; no crepitus. Ankle: normal."
    [(_, ref, keys, found)] = _examinations(workup, findings, "My knee hurts.")
    assert ref is workup[0] and "knee" in keys
    assert {"swollen", "effusion", "warmth"} <= found
    assert "crepitus" not in found  # the record denies it
    assert "urate" not in found and "normal" not in found  # another item's word; another finding


def test_examination_record_not_read_without_an_examination_item() -> None:
    assert _examinations(_workup("Serum urate", "Plain radiograph"), "Knee: swollen.", "") == []


def test_patient_words_are_no_findings() -> None:
    workup = _workup("Abdominal examination")
    [(_, _, _, found)] = _examinations(workup, "Abdominal exam: guarding present, rigidity.", "I have guarding.")
    assert "guarding" not in found and "rigidity" in found

"""Issue 41, the harness's CPU per turn (brief perfp): what a part of a doctor's message is, read once per text
(``intent.kind_of`` is kept per part: the patient reads each part, the consultation reads it again for the
attachments asked, and a batch's doctors ask the same parts of many cases), is what reading it anew gives."""

from __future__ import annotations

from medbench_tui.core.simulators import intent

PARTS = [
    "When did the ringing in your ears start?",
    "can I see the audiogram",
    "I'd like to look in your ears",
    "so it's Meniere's then?",
    "any dizziness or vomiting",
    "Occupation?",
    "we'll send some bloods.",
    "what's your temp now?",
    "your dad - what does he take for it?",
    "do you think you've had a stroke?",
]


def test_a_kept_kind_is_the_kind_worked_out_anew() -> None:
    """Every part gets, asked again, the kind a reading that never saw it gives, and the kinds are not all one."""
    fresh = [intent.kind_of.__wrapped__(p) for p in PARTS]  # type: ignore[attr-defined]
    for _ in range(2):  # the second round is served from what the first kept
        assert [intent.kind_of(p) for p in PARTS] == fresh
    assert len(set(fresh)) >= 4


def test_the_kept_kinds_are_bounded_and_keyed_on_the_text() -> None:
    """The cache is bounded, and two parts that differ only in their words are read apart."""
    info = intent.kind_of.cache_info()  # type: ignore[attr-defined]
    assert info.maxsize is not None and info.maxsize <= 65536
    assert intent.kind_of("can I see the audiogram") == "request"
    assert intent.kind_of("have you had an audiogram before?") != "request"

"""Issue 41, the harness's CPU per turn (brief perfh): a case without attachments has nothing to hand over, so
neither the consultation (``intent.attachments_asked``) nor the patient's hand-over rule
(``planner._attachments_wanted``) reads the doctor's message for a request; a case with attachments still does."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from medbench_tui.core.cases.model import Attachment
from medbench_tui.core.simulators import intent, planner

REQUESTS = [
    "can I see the spirometry report please?",
    "could you send me the photo of the ankle rash",
    "did the thyroid bloods come back?",
    "I'd like to listen to your chest now",
]

SPIROMETRY = Attachment(id="spiro", kind="lab_report", title="Spirometry report",
                        content="FEV1 2.1 L (68% predicted), FEV1/FVC 0.62.", available="on_request")


def _unread(*_: object, **__: object) -> list[str]:
    raise AssertionError("the message was read for a case with nothing to hand over")


def test_no_attachments_nothing_asked_and_the_message_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(intent, "split_questions", _unread)
    for message in REQUESTS:
        assert intent.attachments_asked([], message) == []
        assert intent.attachments_asked([], message, remote=True) == []


def test_the_hand_over_rule_wants_nothing_of_a_case_without_attachments(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(intent, "split_questions", _unread)
    for setting in ("clinic", "telehealth"):
        patient = SimpleNamespace(record=SimpleNamespace(attachments=[], setting=setting))
        for message in REQUESTS:
            question = SimpleNamespace(act="request", read=message, written=message)
            asking = SimpleNamespace(question=question, before="")
            assert planner._attachments_wanted(patient, asking) == []  # type: ignore[arg-type]


def test_a_case_with_attachments_still_hands_over_what_is_asked() -> None:
    """Negative: the short cut is for an empty list only; a named report is still handed over, and a question
    that asks for no report gets none."""
    assert intent.attachments_asked([SPIROMETRY], "can I see the spirometry report please?") == [SPIROMETRY]
    assert intent.attachments_asked([SPIROMETRY], "how long have you had the cough?") == []

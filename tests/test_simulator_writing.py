"""The leak guard judges every script: a patient reply in a script or language the
record is not written in, or with characters the checks cannot read, is replaced by the
grounded answer, and the event says why (against the local test server)."""

from __future__ import annotations

import pytest

from medbench_tui.core.cases.model import patient_record
from medbench_tui.core.simulators.guard import unfamiliar_writing
from tests.test_consultation import fixture_case
from tests.test_simulator_llm import key, llm_consultation  # noqa: F401  (the key fixture)

GROUNDED_ONSET = "It started three days ago with shaking chills, then the cough got worse."


def record_text() -> str:
    record = patient_record(fixture_case())
    return " ".join([record.intro, *(a.answer for a in record.additional_answers)])


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ("Это пневмония.", "foreign_script"),                       # "it's pneumonia"
        ("Это не простуда, доктор, это воспаление лёгких.", "foreign_script"),
        ("肺炎です。", "foreign_script"),
        ("ครับ ผม ไม่ ครับ ครับ", "foreign_script"),                  # junk Thai tokens
        ("ｐｎｅｕｍｏｎｉａ", "foreign_script"),                        # fullwidth letters
        ("pneu\u200bmonia", "uncheckable_characters"),               # a zero-width space inside a word
        ("It started three days ago \U0001F637", "uncheckable_characters"),
        ("It started three days ago\ufffd", "uncheckable_characters"),
        ("Es una neumonía.", "uncheckable_characters"),              # a letter the record never uses
        ("C'est une pneumonie, je pense.", "foreign_language"),
        ("Ich habe seit drei Tagen Husten.", "foreign_language"),
    ],
)
def test_writing_the_record_does_not_use_is_named(reply, reason):
    found = unfamiliar_writing(reply, record_text())
    assert found is not None and found[0] == reason and found[1]


@pytest.mark.parametrize(
    "reply",
    [
        "It started three days ago with shaking chills.",
        "No, I have not been abroad.",
        "About a pack a day for thirty years.",
        "It’s been “bad” – really… since Monday.",   # typographic punctuation is fine
        "Yes.\nNo.",
    ],
)
def test_english_replies_in_the_records_writing_pass(reply):
    assert unfamiliar_writing(reply, record_text()) is None


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize(
    ("reply", "reason"),
    [("Это пневмония.", "foreign_script"), ("肺炎です。", "foreign_script"),
     ("ครับ ผม ไม่ ครับ", "foreign_script"), ("C'est une pneumonie, je pense.", "foreign_language")],
)
async def test_a_non_latin_or_foreign_reply_is_replaced_with_the_reason(fake_openai, tmp_path, key, stream,  # noqa: F811
                                                                         reply, reason):
    fake_openai.add_reply(reply)
    c = llm_consultation(fake_openai, tmp_path, stream=stream)
    shown: list[str] = []
    answer = await c.ask("When did it start?", on_text=shown.append)
    assert answer.text == GROUNDED_ONSET and shown == []
    event = next(e for e in c.transcript.events if e.kind == "simulator_replaced")
    assert event.reason == reason and event.detail["why"]
    assert event.detail["reply"] == reply  # the raw reply behind the replacement is kept for audit

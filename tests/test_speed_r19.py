"""Round 19 (issue 41, the harness's CPU per turn): the run store remembers the redacted JSON of a
small document it had to walk (a system's configuration, stored with every run), and what it
stores is the same as a walk would write, for the secrets and credential header names known when
it is written."""

from __future__ import annotations

from medbench_tui.core import redact
from medbench_tui.core.runs.store import REDACTED_MEMO_SIZE, RunStore

SECRET = "sk-r19-SECRET-0123456789"
CONFIG = {"name": "doctor-a", "model": "m", "api_key_env": "OPENAI_API_KEY", "note": f"key is {SECRET}"}
"""A system's configuration as a run stores it: ``api_key_env`` makes every one a redaction walk."""


def test_a_remembered_document_is_stored_as_the_walk_stores_it(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    with RunStore(tmp_path / "runs.sqlite") as store, RunStore(tmp_path / "fresh.sqlite") as fresh:
        first = store._json(CONFIG)
        again = store._json(dict(CONFIG))
        assert first == again == fresh._json(CONFIG)
        assert SECRET not in (first or "") and "[redacted]" in (first or "")


def test_a_secret_known_later_is_redacted_in_a_document_remembered_before(tmp_path):
    config = {**CONFIG, "note": "the key is sk-later-0123456789abcdef"}
    with RunStore(tmp_path / "runs.sqlite") as store:
        before = store._json(config) or ""
        assert "sk-later-0123456789abcdef" in before  # not a secret yet: kept as written
        redact.remember_value("sk-later-0123456789abcdef")
        after = store._json(config) or ""
    assert "sk-later-0123456789abcdef" not in after and "[redacted]" in after


def test_a_header_configured_later_is_masked_in_a_document_remembered_before(tmp_path):
    config = {**CONFIG, "note": "X-Gateway-Pass: hunter2hunter2"}
    with RunStore(tmp_path / "runs.sqlite") as store:
        assert "hunter2hunter2" in (store._json(config) or "")
        redact.remember_headers({"X-Gateway-Pass": "another-value-0123"})
        assert "hunter2hunter2" not in (store._json(config) or "")


def test_the_memory_keeps_a_bounded_number_of_documents(tmp_path):
    with RunStore(tmp_path / "runs.sqlite") as store:
        stored = [store._json({**CONFIG, "name": f"doctor-{i}"}) for i in range(REDACTED_MEMO_SIZE + 10)]
        assert len(store._redacted) == REDACTED_MEMO_SIZE
        assert all(text is not None and f'"doctor-{i}"' in text for i, text in enumerate(stored))
        assert store._json({**CONFIG, "name": "doctor-0"}) == stored[0]  # forgotten, walked again: the same


def test_a_large_document_is_walked_every_time_and_not_remembered(tmp_path):
    big = {**CONFIG, "prompt": "words " * 5000}
    with RunStore(tmp_path / "runs.sqlite") as store:
        assert store._json(big) == store._json(big)
        assert not store._redacted

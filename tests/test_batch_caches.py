"""The caches of one batch of play and scoring can be let go before a run's summary."""

from __future__ import annotations

from medbench_tui.core import batch_caches
from medbench_tui.core.scoring.document import document


def test_release_empties_every_batch_cache_and_they_fill_again():
    calls: list[str] = []

    @batch_caches.batch_cache(maxsize=8)
    def shout(word: str) -> str:
        calls.append(word)
        return word.upper()

    assert shout("a") == shout("a") == "A" and calls == ["a"]
    batch_caches.release()
    assert shout("a") == "A" and calls == ["a", "a"]


def test_the_scored_documents_are_a_batch_cache():
    first = document("Admit to the ward.")
    assert document("Admit to the ward.") is first
    batch_caches.release()
    assert document("Admit to the ward.") is not first

"""How the mode screens hear of the bank the app holds (:attr:`MedbenchApp.bank`).

The app reads the bank in a worker (configuration, index, every case checked) and
announces each step to every mode screen: :class:`BankLoading` while the cases are
checked, :class:`BankChanged` when the bank, or one of its cases, was read anew. A
screen that is not open yet reads the app's state when it mounts. Neither message
bubbles: each is addressed to one screen.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from textual.message import Message

from medbench_tui.core.authoring.library import CaseEntry, read_entry
from medbench_tui.core.cases.bank import Bank, iter_case_files

PROGRESS_EVERY = 5
"""Report loading progress every this many cases (fewer messages, same bar)."""
ROWS_EVERY_AT_MOST = 100
ROWS_AFTER_SECONDS = 0.5
"""The cases checked so far go to the table when their number has doubled since it was last
drawn, or grown by ROWS_EVERY_AT_MOST, and ROWS_AFTER_SECONDS have passed: few redraws for any
bank (each makes every row again, and draws the rows in view: 1-2 ms a row), none for a bank
checked in half a second, and rows within a second of a large bank's start."""


@dataclass
class BankLoading(Message, bubble=False):
    """The bank's cases are being checked: ``done`` of ``total`` so far."""

    done: int
    total: int
    checked: tuple[CaseEntry, ...] = ()
    """The cases checked so far, when a batch of them is ready for the table (else empty)."""


@dataclass
class BankChanged(Message, bubble=False):
    """The app holds a new value of the bank, and its cases as last checked."""

    bank: Bank
    cases: list[CaseEntry]
    changed: Path | None = None
    """The one case file that was read again (None: the whole bank was)."""


def read_bank(
    bank: Bank, progress: Callable[[int, int, tuple[CaseEntry, ...]], object], cancelled: Callable[[], bool]
) -> tuple[Bank, list[CaseEntry]] | None:
    """The bank read anew and each of its cases checked as `medbench validate` checks it (None
    when cancelled); ``progress`` hears how many are done, with the cases checked so far in
    batches (see ROWS_EVERY_AT_MOST) for the table to show before the last is checked."""
    fresh = bank.reloaded()
    files = iter_case_files(fresh.cases_folder)
    progress(0, len(files), ())
    fresh.index.index_near_duplicates()  # every case is checked: each pair of intros scored once, as `validate` does
    cases: list[CaseEntry] = []
    drawn, drawn_at = 0, time.monotonic()
    for done, path in enumerate(files, 1):
        if cancelled():
            return None
        cases.append(read_entry(path, fresh.index))
        if done % PROGRESS_EVERY == 0 or done == len(files):
            rows = (done < len(files) and done - drawn >= min(max(drawn, PROGRESS_EVERY), ROWS_EVERY_AT_MOST)
                    and time.monotonic() - drawn_at >= ROWS_AFTER_SECONDS)
            progress(done, len(files), tuple(cases) if rows else ())
            if rows:
                drawn, drawn_at = done, time.monotonic()
    return fresh, cases


def read_case(bank: Bank, path: Path) -> tuple[Bank, CaseEntry | None]:
    """The bank indexed again after ``path`` was saved, created or deleted, and the case
    as now checked (None: it is gone)."""
    fresh = bank.reloaded()
    return fresh, read_entry(path, fresh.index) if path.exists() else None


@dataclass
class BankFailed(Message, bubble=False):
    """The bank could not be read."""

    reason: str

"""A batch run off the caller's event loop, and its progress as a coalesced feed.

A front end with an event loop of its own (the TUI) must not play runs on it: the
grounded patient, the text scorer and SQLite are synchronous, and a batch of offline
runs would hold that loop for as long as it lasts. :class:`BackgroundRun` plays a
:class:`Runner` on a fresh loop in the calling thread (a worker thread) and can be
cancelled from any thread. :class:`ProgressFeed` folds the runner's events, arriving on
that thread, into a :class:`Tally`; the front end is woken at most once per batch of
events and takes the tally and the events it has not shown yet.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace

from medbench_tui.core.runs.runner import (
    CANCELLED,
    GroupFinished,
    GroupResult,
    GroupStarted,
    ProgressEvent,
    RequestRetried,
    RunFinished,
    Runner,
)


class BackgroundRun:
    """One batch run played in the thread that calls :meth:`play`, on a loop of its own."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._runner: Runner | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ended = threading.Event()
        self._started = False
        self.cancelled = False

    def play(self, runner: Runner) -> GroupResult:
        """Play ``runner`` to its end (blocks). Cancelled before it starts, it plays nothing."""
        self._started = True
        try:
            with asyncio.Runner() as loop_runner:
                with self._lock:
                    if self.cancelled:
                        runner.cancel()
                    self._runner, self._loop = runner, loop_runner.get_loop()
                try:
                    return loop_runner.run(runner.run())
                finally:
                    with self._lock:
                        self._runner = self._loop = None
        finally:
            self._ended.set()

    def wait_recorded(self, timeout: float) -> bool:
        """Wait (at most ``timeout`` seconds) until the runs are recorded: the app waits for a
        cancelled consultation's record before it exits, so that the record is not lost with it."""
        return not self._started or self._ended.wait(timeout)

    def cancel(self) -> None:
        """From any thread: no new runs; the runs in flight end incomplete (cancelled)."""
        with self._lock:
            self.cancelled = True
            if self._loop is not None and self._runner is not None:
                self._loop.call_soon_threadsafe(self._runner.cancel)


@dataclass(frozen=True)
class Tally:
    """Where a batch run stands."""

    group_id: str | None = None
    to_play: int | None = None
    """None until the runner has started (the group is being planned)."""
    finished: int = 0
    complete: int = 0
    incomplete: int = 0
    cancelled: int = 0
    """Runs in flight when the run was cancelled (recorded incomplete)."""
    retries: int = 0
    over: GroupFinished | None = None


def fold(tally: Tally, event: ProgressEvent) -> Tally:
    """The tally after ``event``."""
    if isinstance(event, GroupStarted):
        return replace(tally, group_id=event.group_id, to_play=event.to_play)
    if isinstance(event, RequestRetried):
        return replace(tally, retries=tally.retries + 1)
    if isinstance(event, RunFinished):
        complete = event.status == "complete"
        return replace(
            tally,
            finished=tally.finished + 1,
            complete=tally.complete + complete,
            incomplete=tally.incomplete + (not complete),
            cancelled=tally.cancelled + (event.reason == CANCELLED),
        )
    if isinstance(event, GroupFinished):
        return replace(tally, over=event)
    return tally


class ProgressFeed:
    """Runner events from any thread, kept for one reader; ``wake`` is called when the
    first event after a :meth:`take` arrives, so a busy reader gets one wake-up, not
    one per event."""

    def __init__(self, wake: Callable[[], object]) -> None:
        self._wake = wake
        self._lock = threading.Lock()
        self._tally = Tally()
        self._unseen: list[ProgressEvent] = []

    def __call__(self, event: ProgressEvent) -> None:
        with self._lock:
            self._tally = fold(self._tally, event)
            self._unseen.append(event)
            first = len(self._unseen) == 1
        if first:
            self._wake()

    def take(self) -> tuple[Tally, list[ProgressEvent]]:
        """The tally now, and the events since the last call."""
        with self._lock:
            unseen, self._unseen = self._unseen, []
            return self._tally, unseen

"""A batch run off the caller's event loop, and its progress as a coalesced feed.

A front end with an event loop of its own (the TUI) must not play runs on it: the
grounded patient, the text scorer and SQLite are synchronous, and a batch of offline
runs would hold that loop for as long as it lasts. :class:`BackgroundRun` plays a
:class:`Runner` on a fresh loop in the calling thread (a worker thread) and can be
cancelled from any thread. :class:`BatchProcess` plays a whole batch job in a child
process instead: a thread still shares the interpreter with the screen, whose frames
then wait for it. :class:`ProgressFeed` folds the runner's events, arriving on the
worker thread, into a :class:`Tally`; the front end is woken at most once per batch of
events and takes the tally and the events it has not shown yet.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pickle
import subprocess
import sys
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import BinaryIO, Protocol, TypeVar

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

News = TypeVar("News", covariant=True)
Result = TypeVar("Result", covariant=True)
N = TypeVar("N")
R = TypeVar("R")


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


class BatchJob(Protocol[News, Result]):
    """What a child process plays: a picklable callable (a module-level dataclass, say)
    given the child's :class:`BackgroundRun` and ``tell``, which sends picklable news
    (runner events, say) back to the caller."""

    def __call__(self, batch: BackgroundRun, tell: Callable[[News], None]) -> Result: ...


class BatchFailed(Exception):
    """The batch process failed on an error that is not the user's to fix (a bug): the
    message is its traceback, as the child printed it."""


_NEWS, _RESULT, _REFUSED, _FAILED = "news", "result", "refused", "failed"
_CHILD = "from medbench_tui.core.runs.background import play_in_child; play_in_child()"


class BatchProcess:
    """One batch job played in a child process; the calling thread (a worker thread)
    relays its news in order and returns its result. Measured beside the TUI, a batch in
    a thread made frames of 5-17 ms of CPU take 25-40 ms, waiting for the interpreter;
    a process of its own leaves the screen's interpreter to the screen.

    The child is a plain ``python`` (not :mod:`multiprocessing`, whose start-up needs a
    real ``sys.stderr``, which a running Textual app has replaced): the job goes in
    pickled on its stdin, where a later byte (or the end) is the word to cancel; the news
    come back pickled on its stdout. Refusals the user can act on (:class:`MedbenchError`
    in the child) are raised again here with their message; anything else is
    :class:`BatchFailed`. Cancelled, the job's runs in flight end incomplete (cancelled)
    and are recorded before the child exits; a caller that closes (the app quits) is the
    same word, so its runs are never lost with it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._child: subprocess.Popen[bytes] | None = None
        self.cancelled = False

    def play(self, job: BatchJob[N, R], on_news: Callable[[N], None]) -> R:
        """Play ``job`` in a fresh child process to its end (blocks)."""
        from medbench_tui.core.errors import MedbenchError

        package_home = str(Path(__file__).resolve().parents[3])
        paths = [package_home, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
        with self._lock:
            child = subprocess.Popen(
                [sys.executable, "-c", _CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, start_new_session=True,  # no signal from the screen's terminal
                env={**os.environ, "PYTHONPATH": os.pathsep.join(paths)},
            )
            self._child = child
            assert child.stdin is not None and child.stdout is not None
            with contextlib.suppress(OSError):  # a child that died at once: its end says why
                pickle.dump(job, child.stdin)
                if self.cancelled:
                    child.stdin.write(b"c")
                child.stdin.flush()
        try:
            while True:
                try:
                    kind, value = pickle.load(child.stdout)
                except EOFError:
                    child.wait()
                    raise BatchFailed(f"the batch process ended without a result (exit code {child.returncode})") \
                        from None
                if kind == _NEWS:
                    on_news(value)
                elif kind == _RESULT:
                    return value
                elif kind == _REFUSED:
                    raise MedbenchError(value)
                else:
                    raise BatchFailed(value)
        finally:
            with self._lock:
                self._child = None
                with contextlib.suppress(OSError):
                    child.stdin.close()
            child.stdout.close()
            child.wait()

    def cancel(self) -> None:
        """From any thread: no new runs; the runs in flight end incomplete (cancelled)."""
        with self._lock:
            self.cancelled = True
            if self._child is not None and self._child.stdin is not None:
                with contextlib.suppress(OSError, ValueError):  # the child has ended
                    self._child.stdin.write(b"c")
                    self._child.stdin.flush()


def play_in_child() -> None:
    """The child process (see :class:`BatchProcess`): play the job read from stdin, send
    its news and its end on stdout, stop when told (or when the caller is gone)."""
    from medbench_tui.core.errors import MedbenchError

    orders, news = sys.stdin.buffer, os.fdopen(os.dup(1), "wb")
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # a print anywhere in the job must not land among the news
    os.close(devnull)
    batch = BackgroundRun()
    lock = threading.Lock()

    def send(kind: str, value: object) -> None:
        with lock:
            try:
                pickle.dump((kind, value), news)
                news.flush()
            except OSError:
                batch.cancel()  # nobody reads the news any more: stop playing

    try:
        job: BatchJob[object, object] = pickle.load(orders)
        threading.Thread(target=_cancel_when_told, args=(orders, batch), daemon=True).start()
        send(_RESULT, job(batch, lambda value: send(_NEWS, value)))
    except MedbenchError as exc:
        send(_REFUSED, str(exc))
    except BaseException:
        send(_FAILED, traceback.format_exc())
    finally:
        with contextlib.suppress(OSError):
            news.close()
    os._exit(0)  # everything is recorded and sent: tearing down the interpreter would only cost time


def _cancel_when_told(orders: BinaryIO, batch: BackgroundRun) -> None:
    with contextlib.suppress(OSError):  # a byte, or the end: the caller is gone, or the job is over
        orders.read(1)
    batch.cancel()


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

"""Support for the play, compare and results tests: waiting for the app while a
consultation (a long-lived worker) waits for the player (the clinic bank is a fixture
of ``conftest.py``)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

LONG_LIVED = {"play-session"}
"""Worker groups that wait for the player: never waited for."""
WORKER_WAIT = 0.05
"""Longest wait for busy workers before looking again (a worker may be waiting on a dialog)."""


def busy(app) -> list:
    return [w for w in app.workers if not w.is_finished and w.group not in LONG_LIVED]


def _seen(waited: asyncio.Future) -> None:
    """A wait for workers that ended by a worker's failure: the test sees that failure itself."""
    if not waited.cancelled():
        waited.exception()


async def until(pilot, condition: Callable[[], bool] = lambda: True, *, idle: bool = True, rounds: int = 400) -> None:
    """Let messages and workers run until ``condition()`` holds and (with ``idle``) no
    worker but a consultation is busy. Without ``idle``, a worker may wait on a dialog."""
    app = pilot.app
    for _ in range(rounds):
        await pilot.pause()
        running = busy(app)
        if condition() and not (idle and running):
            return
        if running:
            # Not cancelled when the wait is over: cancelling a wait for a worker cancels the worker.
            done = asyncio.ensure_future(app.workers.wait_for_complete(running))
            done.add_done_callback(_seen)
            await asyncio.wait([done], timeout=WORKER_WAIT)
    raise AssertionError("the app did not get there")


async def type_in(pilot, selector: str, text: str, *, keys: bool = False) -> None:
    """Put ``text`` into the input at ``selector`` (``keys``: typed key by key) and press Enter."""
    field = pilot.app.screen.query_one(selector)
    field.focus()
    await pilot.pause()
    if keys:
        await pilot.press(*text)
    else:
        field.value = text
    await pilot.press("enter")


async def ask(pilot, question: str, *, keys: bool = False) -> None:
    """Ask the patient one question and wait for the whole reply."""
    screen = pilot.app.screen
    await type_in(pilot, "#play-question", question, keys=keys)
    await until(pilot, lambda: not screen.waiting)


def shown(widget) -> str:
    """The text a Static shows (its Content, or its Rich renderable drawn 200 wide)."""
    import io

    from rich.console import Console
    from textual.content import Content

    content = widget.content
    if isinstance(content, (str, Content)):
        return str(content) if isinstance(content, str) else content.plain
    console = Console(width=200, file=io.StringIO(), color_system=None, record=True)
    console.print(content)
    return console.export_text()


def shown_in(screen, selector: str) -> str:
    return "\n".join(shown(w) for w in screen.query(selector))

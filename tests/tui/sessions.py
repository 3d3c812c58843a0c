"""Support for the play, compare and results tests: the clinic fixture bank, and waiting
for the app while a consultation (a long-lived worker) waits for the player."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

CLINIC = Path(__file__).parent / "fixtures" / "clinic"
LONG_LIVED = {"play-session"}
"""Worker groups that wait for the player: never waited for."""


@pytest.fixture
def clinic(tmp_path: Path) -> Path:
    """A copy of the clinic bank (two small cases, replays), at a path ending in ``bank``."""
    target = tmp_path / "bank"
    shutil.copytree(CLINIC, target)
    return target


def busy(app) -> list:
    return [w for w in app.workers if not w.is_finished and w.group not in LONG_LIVED]


async def until(pilot, condition: Callable[[], bool] = lambda: True, rounds: int = 400) -> None:
    """Let messages and workers run until nothing but a consultation is busy and ``condition()`` holds."""
    app = pilot.app
    for _ in range(rounds):
        await pilot.pause()
        running = busy(app)
        if running:
            await app.workers.wait_for_complete(running)
            await pilot.pause()
        if not busy(app) and condition():
            return
    raise AssertionError("the app did not get there")

"""Fixtures of the TUI tests: a private copy of a small bank, and an app that tests can drive."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from itertools import count
from pathlib import Path
from typing import Any

import pytest

from medbench_tui.core.settings import Settings
from medbench_tui.tui.app import MedbenchApp

FIXTURE_BANK = Path(__file__).parent / "fixtures" / "bank"
CLINIC = Path(__file__).parent / "fixtures" / "clinic"
SIZE = (120, 36)


@pytest.fixture
def bank(tmp_path: Path) -> Path:
    """A copy of the fixture bank, at a path whose last part is always ``bank``."""
    target = tmp_path / "bank"
    shutil.copytree(FIXTURE_BANK, target)
    return target


@pytest.fixture
def clinic(tmp_path: Path) -> Path:
    """A copy of the clinic bank (two small cases, replays), at a path ending in ``bank``."""
    target = tmp_path / "bank"
    shutil.copytree(CLINIC, target)
    return target


@pytest.fixture
def fixed_group_ids(monkeypatch) -> None:
    """Run group ids carry the time (and notifications show them): fixed ones keep pictures still."""
    numbers = count(1)
    monkeypatch.setattr("medbench_tui.core.runs.store.new_group_id", lambda: f"group-{next(numbers)}")


def test_settings(**tui: Any) -> Settings:
    """Settings for tests: validation without delay, autosave only when a test asks."""
    values: dict[str, Any] = {"validation_debounce_ms": 0, "autosave_seconds": 3600}
    values.update(tui)
    return Settings(tui=values)


test_settings.__test__ = False  # type: ignore[attr-defined]  # a factory, not a test


class Notes:
    """The notifications an app showed (toasts are not drawn in tests)."""

    def __init__(self) -> None:
        self.messages: list[tuple[str, str, str]] = []

    def __call__(self, message: str, *, title: str = "", severity: str = "information", **_: Any) -> None:
        self.messages.append((str(message), str(title), severity))

    def text(self) -> str:
        return "\n".join(f"{title} {message}" for message, title, _ in self.messages)


@pytest.fixture
def make_app(monkeypatch) -> Callable[..., MedbenchApp]:
    def make(bank: Path, *, settings: Settings | None = None, **kwargs: Any) -> MedbenchApp:
        app = MedbenchApp(bank, settings=settings or test_settings(), cursor_blink=False, **kwargs)
        notes = Notes()
        original = app.notify

        def notify(message, *args, **options):
            notes(message, **options)
            return original(message, *args, **options)

        monkeypatch.setattr(app, "notify", notify)
        app.notes = notes  # type: ignore[attr-defined]
        return app

    return make


INTERACTIVE_GROUPS = {"editor-open", "quit", "open-case", "palette"}
"""Workers that may be waiting for an answer in a dialog: never waited for."""


async def settle(pilot, until: Callable[[], bool] = lambda: True, rounds: int = 100) -> None:
    """Let messages, timers and workers run until nothing is left to do and ``until()`` holds."""
    app = pilot.app
    for _ in range(rounds):
        await pilot.pause()
        working = [w for w in app.workers if w.group not in INTERACTIVE_GROUPS and not w.is_finished]
        if working:
            await app.workers.wait_for_complete(working)
            continue
        editor = app.editor_screen()
        checking = editor is not None and editor.path is not None and not editor.up_to_date
        if not checking and until():
            return
    raise AssertionError("the app did not settle")


async def open_case(pilot, path: Path) -> Any:
    """Open a case in the editor and wait until it is checked; returns the editor screen."""
    app = pilot.app
    await settle(pilot, lambda: not app.bank_loading)
    await app.open_case(path)
    await settle(pilot, lambda: app.editor_screen() is not None and app.editor_screen().path == path)
    return app.editor_screen()

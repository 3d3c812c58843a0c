"""Fixtures of the TUI tests: a private copy of a small bank, and an app that tests can drive."""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Callable, Iterator
from itertools import count
from pathlib import Path
from typing import Any

import pytest
from textual.worker import WorkerCancelled

from medbench_tui.core.paths import run_store_for
from medbench_tui.core.runs.store import RunStore
from medbench_tui.core.settings import Settings
from medbench_tui.tui.app import MedbenchApp
from medbench_tui.tui.screens.run_group import GroupReportScreen
from medbench_tui.tui.widgets.group_report import GroupReport
from tests.support.user_dirs import isolate_user_dirs

from .sessions import until

FIXTURE_BANK = Path(__file__).parent / "fixtures" / "bank"
CLINIC = Path(__file__).parent / "fixtures" / "clinic"
SIZE = (120, 36)
REPLAY = "replay:replays"
"""The clinic bank's recorded transcripts, as a system to compare."""


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
            # a worker cancelled has ended: a newer one of its group took its place (the editor's checks)
            with contextlib.suppress(WorkerCancelled):
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


@pytest.fixture(scope="module")
def _stored_comparison(tmp_path_factory, _stored_icd_index) -> Iterator[tuple[Path, str]]:
    """The clinic bank and the group of checklist against replay over its cases, played once
    for the module by the job Compare plays (here in this process, not a child of its own):
    a report shows a stored group as it shows one just played (``GroupReport.load``)."""
    from medbench_tui.core.comparison.job import ComparisonJob
    from medbench_tui.core.runs.background import BackgroundRun
    from medbench_tui.core.runs.store import new_group_id

    root = tmp_path_factory.mktemp("compared")
    bank = root / "bank"
    shutil.copytree(CLINIC, bank)
    with pytest.MonkeyPatch.context() as monkeypatch:
        isolate_user_dirs(monkeypatch, root / "home", _stored_icd_index)
        job = ComparisonJob(bank_root=bank, run_store=run_store_for(bank), machines=["checklist", REPLAY], files=None,
                            simulator="grounded", player=test_settings().player_name, with_player=False,
                            group_id=new_group_id(), runner=test_settings().runner)
        result = job(BackgroundRun(), lambda news: None)
        yield bank, result.group_id


@pytest.fixture
def compared_clinic(_stored_comparison, tmp_path) -> tuple[Path, str]:
    """A copy of the compared clinic bank, its store with it (what one test does, no other sees)."""
    bank, group_id = _stored_comparison
    target = tmp_path / "bank"
    shutil.copytree(bank, target)
    return target, group_id


async def stored(pilot, group_id: str) -> GroupReport:
    """The stored comparison's report, opened as from Results, its statistics computed."""
    app = pilot.app
    await until(pilot, lambda: not app.bank_loading)
    screen = GroupReportScreen(RunStore(run_store_for(app.bank.root)), group_id)
    await app.push_screen(screen)
    report = screen.query_one(GroupReport)
    await until(pilot, lambda: report.report is not None)
    return report

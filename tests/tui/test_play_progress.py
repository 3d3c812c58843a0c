"""Play as a student lives it: the picker offers only clinical cases; back from a
scorecard the filter is cleared and Enter does not start the same case again unasked;
Enter in the filter starts a case; the attachments title is the case's own; and every
case played is gathered in one practice group, shown in "my progress" and by
``medbench report``."""

from __future__ import annotations

import shutil
from pathlib import Path

from textual.widgets import DataTable, Input, OptionList

from medbench_tui.cli import main
from medbench_tui.core.paths import run_store_for
from medbench_tui.core.practice.label import practice_number
from medbench_tui.core.practice.progress import practice_group, progress
from medbench_tui.core.runs.store import RunStore
from medbench_tui.tui.screens.dialogs import ConfirmDialog
from medbench_tui.tui.screens.play import PlayScreen
from medbench_tui.tui.widgets.attachments_panel import AttachmentsPanel

from .conftest import SIZE
from .sessions import ask, until
from .test_play import PLAYER, give_final_response, settings, start

REPO = Path(__file__).resolve().parents[2]


def listed(screen: PlayScreen) -> list[str]:
    options = screen.query_one("#play-case-list", OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


def highlighted_id(screen: PlayScreen) -> str:
    options = screen.query_one("#play-case-list", OptionList)
    return Path(str(options.get_option_at_index(options.highlighted).id)).stem


async def finish_a_case(pilot, case_id: str = "fx-chest-001") -> PlayScreen:
    """From the library (``p``), a consultation to its scorecard."""
    await pilot.press("f2")
    await until(pilot, lambda: pilot.app.current_mode == "library")
    screen = await start(pilot, case_id)
    await ask(pilot, "Can I see the x-ray?")
    await give_final_response(pilot)
    await until(pilot, lambda: screen.pane == "play-card")
    return screen


async def test_the_picker_leaves_out_the_harness_tests(clinic, make_app):
    shutil.copy(REPO / "cases" / "err-wrong-code-001.yaml", clinic)
    app = make_app(clinic, settings=settings())
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: not app.bank_loading)
        await pilot.press("f4")
        await until(pilot, lambda: isinstance(app.screen, PlayScreen))
        assert any(e.id == "err-wrong-code-001" for e in app.cases)  # the library lists it
        labels = listed(app.screen)
        assert len(labels) == 2 and not any("error testing" in label for label in labels)


async def test_back_from_a_scorecard_the_filter_is_cleared_and_enter_asks_before_the_same_case(clinic, make_app):
    app = make_app(clinic, settings=settings())
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot, "fx-chest-001")
        attachments = screen.query_one(AttachmentsPanel)
        await ask(pilot, "Can I see the x-ray?")
        assert attachments.border_title == "Attachments (2)"
        screen.query_one("#play-filter", Input).value = str(practice_number("fx-chest-001"))
        await give_final_response(pilot)
        await until(pilot, lambda: screen.pane == "play-card" and "fx-chest-001" in screen.played)
        await pilot.press("ctrl+o")
        await until(pilot)
        assert screen.query_one("#play-filter", Input).value == ""
        assert len(listed(screen)) == 2 and highlighted_id(screen) == "fx-throat-002"
        assert any("played 1×" in label for label in listed(screen))
        # the case just played, chosen again: asked first, and 'no' starts nothing
        screen.query_one("#play-case-list", OptionList).highlighted = next(
            i for i, label in enumerate(listed(screen)) if "played" in label)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog), idle=False)
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, PlayScreen))
        assert not screen.live and screen.pane == "play-cases"
        # Enter in the filter starts the case it leaves highlighted
        await pilot.click("#play-filter")
        screen.query_one("#play-filter", Input).value = str(practice_number("fx-throat-002"))
        await pilot.press("enter")
        await until(pilot, lambda: screen.live and not screen.waiting)
        assert screen.case.id == "fx-throat-002"
        assert attachments.border_title == "Attachments" or "(2)" not in str(attachments.border_title)


async def test_every_case_played_is_in_my_progress_and_in_the_report(clinic, make_app, capsys):
    app = make_app(clinic, settings=settings())
    async with app.run_test(size=SIZE) as pilot:
        screen = await finish_a_case(pilot, "fx-chest-001")
        first_group = screen.result.group_id
        await pilot.press("ctrl+o")
        screen = await finish_a_case(pilot, "fx-throat-002")
        assert screen.result.group_id == first_group  # one practice group, not a group per case
        await pilot.press("ctrl+o")
        await until(pilot)
        screen.query_one("#play-case-list", OptionList).highlighted = next(
            i for i, label in enumerate(listed(screen)) if practice_number("fx-chest-001") == int(label.split()[1]))
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog), idle=False)
        await pilot.press("y")
        await until(pilot, lambda: screen.live and not screen.waiting)
        await give_final_response(pilot)
        await until(pilot, lambda: screen.pane == "play-card")
        assert screen.result.repeat_number == 2
        await pilot.press("ctrl+l")
        await until(pilot, lambda: screen.pane == "play-progress" and len(screen.played) == 2)
        cases = screen.query_one("#progress-cases", DataTable)
        sessions = screen.query_one("#progress-sessions", DataTable)
        assert cases.row_count == 2 and sessions.row_count == 3
        chest = cases.get_row("fx-chest-001")
        assert chest[1] == "2" and "→" in chest[3]  # diagnosis, from the first session to the latest
        assert str(chest[0]).startswith(f"Case {practice_number('fx-chest-001')}")
    with RunStore(run_store_for(clinic)) as store:
        group = practice_group(store, PLAYER)
        assert group is not None and group.id == first_group
        assert [c.case_id for c in progress(store, PLAYER)][0] == "fx-chest-001"
    assert main(["report", "--bank", str(clinic), "--format", "md"]) == 0
    report = capsys.readouterr().out
    assert f"Practice of {PLAYER}: every case played" in report
    assert "## Sessions over time (3)" in report
    assert "| Runs complete / incomplete / not run | 2 / 0 / 0 |" in report

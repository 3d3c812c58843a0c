"""A class served in a browser, as one session sees it: the student gives a name first (their
runs are stored under it, never in the settings file), sees only the modes the tutor chose,
and is offered only the chosen cases."""

from __future__ import annotations

from medbench_tui.core.practice.classroom import EVERY_MODE, PLAY_ONLY, Classroom, name_problem
from medbench_tui.tui.app import PlayOnlyApp, app_for
from medbench_tui.tui.screens.dialogs import NameDialog
from medbench_tui.tui.screens.play import PlayScreen
from tests.tui.conftest import SIZE, settle, test_settings


def test_a_name_must_be_something_a_report_can_show():
    assert name_problem("  ") == "Type your name: your runs are stored under it."
    assert name_problem("x" * 61) == "At most 60 characters."
    assert name_problem("Sam\x1b[2J") == "Letters, digits, spaces and punctuation only."
    assert name_problem("Sam Patel") is None


async def test_a_student_names_themselves_and_sees_only_play_and_the_chosen_case(clinic):
    chosen = clinic / "fx-throat-002.yaml"
    settings = test_settings()
    app = app_for(clinic, settings=settings, cursor_blink=False, classroom=Classroom(PLAY_ONLY, frozenset({chosen})))
    assert isinstance(app, PlayOnlyApp)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, NameDialog))
        await pilot.press("enter")
        assert isinstance(app.screen, NameDialog), "an empty name is refused"
        await pilot.press(*"Sam Patel", "enter")
        await settle(pilot, lambda: isinstance(app.screen, PlayScreen) and not app.bank_loading)
        assert app.settings.player_name == "Sam Patel"
        assert settings.player_name != "Sam Patel", "the name is this session's, not the settings file's"
        await pilot.press("f2")
        await settle(pilot)
        assert app.current_mode == "play" and [mode for mode, _, _ in app.mode_keys()] == ["play"]
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        listed = [str(screen.query_one("#play-case-list").get_option_at_index(i).id)
                  for i in range(screen.query_one("#play-case-list").option_count)]
        assert listed == [str(chosen)]


async def test_a_tutor_session_shows_every_mode_after_the_name(clinic):
    app = app_for(clinic, settings=test_settings(), cursor_blink=False, classroom=Classroom(EVERY_MODE))
    assert not isinstance(app, PlayOnlyApp)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, NameDialog))
        await pilot.press(*"Dr Tutor", "enter")
        await settle(pilot, lambda: not app.bank_loading)
        assert app.settings.player_name == "Dr Tutor"
        assert [mode for mode, _, _ in app.mode_keys()] == list(EVERY_MODE)

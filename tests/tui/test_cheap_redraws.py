"""Widgets that keep the screen responsive while a batch plays: the run log repaints only its
new rows and turns a page when full; the footer is rebuilt only when its keys change."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from medbench_tui.tui.widgets.key_footer import KeyFooter
from medbench_tui.tui.widgets.run_log import RunLog


class LogApp(App[None]):
    CSS = "RunLog { height: 4; }"

    def compose(self) -> ComposeResult:
        yield RunLog(id="log")


def shown(log: RunLog) -> list[str]:
    return [log.render_line(y).text.rstrip() for y in range(log.size.height)]


async def test_the_run_log_fills_down_then_keeps_the_latest_half_page():
    app = LogApp()
    async with app.run_test(size=(40, 6)) as pilot:
        log = app.query_one(RunLog)
        log.write_lines(["started a", "complete a"])
        await pilot.pause()
        assert shown(log) == ["started a", "complete a", "", ""]
        log.write_lines(["started b", "complete b", "started c"])
        await pilot.pause()
        assert shown(log) == ["complete b", "started c", "", ""]
        assert log.lines == ["started a", "complete a", "started b", "complete b", "started c"]
        log.clear()
        await pilot.pause()
        assert shown(log) == ["", "", "", ""] and log.lines == []


async def test_a_run_log_line_wider_than_the_log_is_cut_with_an_ellipsis():
    app = LogApp()
    async with app.run_test(size=(12, 6)) as pilot:
        log = app.query_one(RunLog)
        log.write_lines(["INCOMPLETE im-cap-001 × doctor: 401"])
        await pilot.pause()
        assert shown(log)[0] == "INCOMPLETE …"


class KeysScreen(Screen[None]):
    BINDINGS = [Binding("r", "run", "Run"), Binding("x", "cancel", "Cancel")]
    running = False

    def compose(self) -> ComposeResult:
        yield Static("keys")
        yield KeyFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cancel":
            return self.running
        return True

    def action_run(self) -> None: ...
    def action_cancel(self) -> None: ...


class KeysApp(App[None]):
    def on_mount(self) -> None:
        self.push_screen(KeysScreen())


async def test_the_footer_is_rebuilt_only_when_its_keys_change(monkeypatch):
    rebuilt: list[int] = []
    original = KeyFooter.recompose

    async def counted(self: KeyFooter) -> None:
        rebuilt.append(1)
        await original(self)

    monkeypatch.setattr(KeyFooter, "recompose", counted)
    app = KeysApp()
    async with app.run_test(size=(60, 6)) as pilot:
        await pilot.pause()
        settled = -1
        while settled != len(rebuilt):  # the footer's first composition may land a few frames late
            settled = len(rebuilt)
            await pilot.pause(0.05)
        screen = app.screen
        assert isinstance(screen, KeysScreen)
        before = len(rebuilt)
        for _ in range(3):
            screen.refresh_bindings()
            await pilot.pause()
        assert len(rebuilt) == before
        screen.running = True
        screen.refresh_bindings()
        await pilot.pause()
        assert len(rebuilt) == before + 1
        footer = screen.query_one(KeyFooter)
        disabled = {key.key: key.disabled for key in footer.query("FooterKey")}
        assert disabled["r"] is False and disabled["x"] is False

"""The top line of every mode: the modes and their keys, where you are, which bank is open."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Label

from medbench_tui.tui.typed_app import medbench_app


class TitleBar(Horizontal):
    DEFAULT_CSS = """
    TitleBar {
        height: 1;
        dock: top;
        background: $panel;
        color: $foreground;
        padding: 0 1;
    }
    TitleBar > .title-bar--app { color: $primary; text-style: bold; width: auto; padding-right: 2; }
    TitleBar > .title-bar--mode { width: auto; padding: 0 1; color: $text-muted; }
    TitleBar > .title-bar--mode.-current { background: $primary; color: $background; text-style: bold; }
    TitleBar > .title-bar--where { width: 1fr; padding-left: 2; text-wrap: nowrap; text-overflow: ellipsis; }
    TitleBar > .title-bar--bank { width: auto; color: $text-muted; margin-left: 1; }
    """

    def __init__(self, mode: str, where: str = "") -> None:
        super().__init__()
        self._mode = mode
        self._where = where

    def compose(self) -> ComposeResult:
        yield Label("medbench", classes="title-bar--app")
        for mode, title, keys in medbench_app(self).mode_keys():
            current = " -current" if mode == self._mode else ""
            yield Label(f"{keys} {title}", classes=f"title-bar--mode{current}", markup=False)
        yield Label(self._where, classes="title-bar--where", id="title-where", markup=False)
        yield Label(f"bank: {medbench_app(self).bank_label}", classes="title-bar--bank", markup=False)

    def set_where(self, where: str) -> None:
        self.query_one("#title-where", Label).update(where)

"""Every key of every screen, generated from the binding declarations and the keymap."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Label, Static

from medbench_tui.tui.keymap import binding_reference
from medbench_tui.tui.typed_app import medbench_app


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,f1,q", "dismiss", "Close help", id="help.close")]

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box"):
            yield Label("Keys", classes="dialog-title")
            yield Static(
                "Give any binding other keys in the settings file "
                f"({medbench_app(self).settings_location}) under tui.keymap, by its id, e.g. "
                "library.new_case: ctrl+n",
                id="help-intro",
                markup=False,
            )
            yield DataTable(id="help-table", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        table = self.query_one("#help-table", DataTable)
        # The id is what the settings file takes: it comes before the description, whole, so a
        # long description never pushes it out of sight.
        table.add_columns("Where", "Keys", "Binding id", "What it does")
        rows = binding_reference(
            medbench_app(self).binding_sections(), medbench_app(self).keymap, self.app.get_key_display
        )
        previous = None
        for row in rows:
            where = Text(row.section if row.section != previous else "", style="bold")
            previous = row.section
            table.add_row(where, Text(row.keys, style="bold"), Text(row.binding_id), Text(row.description))
        table.focus()

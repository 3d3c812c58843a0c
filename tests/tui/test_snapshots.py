"""How the authoring screens look, at a fixed size, on the fixture bank.

Regenerate after an intended change with ``pytest tests/tui/test_snapshots.py --snapshot-update``
and look at the pictures (``tests/tui/__snapshots__``) before committing them.
"""

from __future__ import annotations

from medbench_tui.tui.app import MedbenchApp

from .conftest import SIZE, open_case, settle, test_settings
from .test_editor import CAP, line_of, replace_on_line


def app_on(bank) -> MedbenchApp:
    return MedbenchApp(bank, settings=test_settings(), cursor_blink=False)


def test_library(bank, snap_compare):
    async def loaded(pilot):
        await settle(pilot, lambda: not pilot.app.bank_loading)

    assert snap_compare(app_on(bank), terminal_size=SIZE, run_before=loaded)


def test_editor_with_errors(bank, snap_compare):
    async def broken(pilot):
        editor = await open_case(pilot, bank / CAP)
        await replace_on_line(pilot, editor, "complexity: basic", "complexity: basik")
        await replace_on_line(pilot, editor, "icd10: J18.1", "icd10: E11.65")
        await settle(pilot)
        editor.text_area.move_cursor((line_of(editor.text_area.text, "complexity:"), 14))
        await settle(pilot)

    assert snap_compare(app_on(bank), terminal_size=SIZE, run_before=broken)


def test_icd_panel_search_and_code_under_cursor(bank, snap_compare):
    async def searching(pilot):
        editor = await open_case(pilot, bank / CAP)
        editor.text_area.move_cursor((line_of(editor.text_area.text, "icd10: J18.1"), 11))
        await pilot.press("ctrl+f", *"pneumonia")
        await settle(pilot, lambda: len(editor.query_one("IcdPanel").hits) > 0)

    assert snap_compare(app_on(bank), terminal_size=SIZE, run_before=searching)


def test_preview(bank, snap_compare):
    async def preview(pilot):
        await open_case(pilot, bank / CAP)
        await pilot.press("ctrl+t")
        await settle(pilot)

    assert snap_compare(app_on(bank), terminal_size=SIZE, run_before=preview)


def test_help_screen(bank, snap_compare):
    async def help_open(pilot):
        await settle(pilot)
        await pilot.press("f1")
        await settle(pilot)

    assert snap_compare(app_on(bank), terminal_size=SIZE, run_before=help_open)

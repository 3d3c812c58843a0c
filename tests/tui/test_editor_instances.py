"""Two editors on one case each keep their own autosave: one saving never drops the other's
unsaved text; the second is told the case is open elsewhere; work a crashed editor left is
offered back with the process that wrote it."""

from __future__ import annotations

import subprocess
import sys

from medbench_tui.core.authoring import autosave
from medbench_tui.tui.screens.dialogs import SwapRecoveryDialog

from .conftest import SIZE, open_case, settle
from .test_editor import CAP, own_swap, replace_on_line


async def test_two_editors_of_one_case_keep_their_own_unsaved_work(bank, make_app):
    path = bank / CAP
    first, second = make_app(bank), make_app(bank)
    async with first.run_test(size=SIZE) as pilot_1, second.run_test(size=SIZE) as pilot_2:
        editor_1 = await open_case(pilot_1, path)
        await replace_on_line(pilot_1, editor_1, "max_turns: 20", "max_turns: 25")
        editor_1.autosave()
        await settle(pilot_1)
        editor_2 = await open_case(pilot_2, path)
        assert "open in another editor too" in second.notes.text() and "with unsaved changes" in second.notes.text()
        assert f"process {editor_1.editor_id.pid}" in second.notes.text()
        await replace_on_line(pilot_2, editor_2, "complexity: basic", "complexity: advanced")
        editor_2.autosave()
        await settle(pilot_2)
        await pilot_1.press("ctrl+s")  # the first saves: the second's autosave stays
        await settle(pilot_1, lambda: not editor_1.modified)
        swap_2 = own_swap(editor_2)
        assert swap_2 is not None and swap_2.text is not None and "complexity: advanced" in swap_2.text
        assert own_swap(editor_1) is not None and own_swap(editor_1).text is None
        assert editor_2.modified and "complexity: advanced" in editor_2.text_area.text


async def test_work_left_by_an_editor_that_crashed_is_offered_with_its_process(bank, make_app):
    path = bank / CAP
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    crashed = autosave.Editor(autosave.Editor.here().host, int(gone.stdout), "crashed-1", 1_700_000_000.0)
    recovered = path.read_text().replace("max_turns: 20", "max_turns: 27")
    autosave.write(path, crashed, recovered)
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, lambda: not app.bank_loading)
        await app.open_case(path)
        await settle(pilot, lambda: isinstance(app.screen, SwapRecoveryDialog))
        question = str(app.screen.query_one(".dialog-question").render())
        assert f"process {crashed.pid}" in question and "never saved" in question
        await pilot.press("r")
        editor = app.editor_screen()
        await settle(pilot, lambda: editor.path == path and own_swap(editor) is not None
                     and own_swap(editor).text == recovered)
        assert editor.text_area.text == recovered and editor.modified
        assert not autosave.swap_path(path, crashed).exists(), "taken over by this editor's own autosave"
        assert "open in another editor" not in app.notes.text()

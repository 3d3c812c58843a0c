"""ICD-10 in the editor: checks as you type, search and insert, the code under the cursor explained."""

from __future__ import annotations

from textual.widgets import DataTable, Input

from medbench_tui.tui.widgets.icd_panel import IcdPanel

from .conftest import SIZE, open_case, settle
from .test_editor import CAP, line_of, replace_on_line


def info_text(editor) -> str:
    return str(editor.query_one("#icd-info").render())


async def test_an_unknown_code_is_reported_at_its_line(bank, make_app):
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_case(pilot, bank / CAP)
        row = await replace_on_line(pilot, editor, "icd10: J18.1", "icd10: E11.65")
        await settle(pilot)
        problems = [(d.code, d.line, d.column) for d in editor.diagnostics if d.severity == "error"]
        assert problems == [("icd10.not_who", row + 1, 12)]
        message = next(d.message for d in editor.diagnostics if d.code == "icd10.not_who")
        assert "E11.6" in message


async def test_the_code_under_the_cursor_is_explained(bank, make_app):
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_case(pilot, bank / CAP)
        assert "Put the cursor on an icd10: value" in info_text(editor)
        row = line_of(editor.text_area.text, "icd10: J18.1")
        editor.text_area.move_cursor((row, 4))
        await settle(pilot, lambda: "J18.1" in info_text(editor))
        assert "Lobar pneumonia, unspecified" in info_text(editor)
        assert "subcategory" in info_text(editor)
        await replace_on_line(pilot, editor, "icd10: J18.1", "icd10: E11.65")
        await settle(pilot, lambda: "E11.65" in info_text(editor))
        assert "ICD-10-CM only" in info_text(editor)
        assert "Use WHO: E11.6 Type 2 diabetes mellitus" in info_text(editor)
        editor.text_area.move_cursor((0, 0))
        await settle(pilot, lambda: "Put the cursor" in info_text(editor))


async def test_search_and_replace_the_code_under_the_cursor(bank, make_app):
    path = bank / CAP
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_case(pilot, path)
        row = line_of(editor.text_area.text, "icd10: J18.1")
        editor.text_area.move_cursor((row, 2))
        await pilot.press("ctrl+f")
        panel = editor.query_one(IcdPanel)
        assert app.focused is panel.query_one(Input)
        await pilot.press(*"pneumon")
        await settle(pilot, lambda: bool(panel.hits))
        hits = panel.query_one("#icd-hits", DataTable)
        assert hits.row_count == len(panel.hits) and hits.row_count > 3
        assert any(hit.code == "J18.9" for hit in panel.hits)
        wanted = next(i for i, hit in enumerate(panel.hits) if hit.code == "J18.9")
        await pilot.press("down")
        assert app.focused is hits
        hits.move_cursor(row=wanted)
        await pilot.press("enter")
        await settle(pilot)
        assert app.focused is editor.text_area
        assert editor.text_area.document.get_line(row) == "    icd10: J18.9   # the code the tests change"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert "    icd10: J18.9   # the code the tests change\n" in path.read_text()


async def test_enter_in_the_search_box_inserts_the_best_hit_at_the_cursor(bank, make_app):
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_case(pilot, bank / CAP)
        row = line_of(editor.text_area.text, "icd10: J20.9")
        area = editor.text_area
        area.move_cursor((row + 1, 0))
        area.insert("  - name: Viral pneumonia\n    icd10: \n")
        area.move_cursor((row + 2, len("    icd10: ")))
        await pilot.press("ctrl+f")
        await pilot.press(*"J12.9")
        panel = editor.query_one(IcdPanel)
        await settle(pilot, lambda: bool(panel.hits))
        assert panel.hits[0].code == "J12.9"
        await pilot.press("enter")
        await settle(pilot)
        assert area.document.get_line(row + 2) == "    icd10: J12.9"
        assert [d for d in editor.diagnostics if d.severity == "error"] == []


async def test_a_code_goes_in_at_the_cursor_elsewhere(bank, make_app):
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_case(pilot, bank / CAP)
        row = line_of(editor.text_area.text, "name: Acute bronchitis")
        line = editor.text_area.document.get_line(row)
        editor.text_area.move_cursor((row, len(line)))
        editor.insert_code("J20.9")
        assert editor.text_area.document.get_line(row) == line + "J20.9"


async def test_a_tumour_type_says_to_choose_the_code_of_the_site(bank, make_app):
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_case(pilot, bank / CAP)
        await pilot.press("ctrl+f")
        panel = editor.query_one(IcdPanel)
        await pilot.press(*"medulloblastoma")
        await settle(pilot, lambda: bool(panel.hits))
        assert panel.hits[0].code == "C71.6"
        title = panel.query_one("#icd-hits", DataTable).get_cell_at((0, 2))
        assert "choose the code of the site" in str(title)

"""The editor as a physician meets it in the first hour: an empty case file is an open, empty
case (not "no case open"), a binary file is refused in plain words, a closed case takes its
rehearsal with it, and an empty value is a problem at its line."""

from __future__ import annotations

from textual.widgets import ContentSwitcher

from medbench_tui.tui.screens.editor import NO_CASE
from medbench_tui.tui.widgets.rehearsal_panel import WAITING, RehearsalPanel
from medbench_tui.tui.widgets.title_bar import TitleBar

from .conftest import SIZE, open_case, settle

CAP = "fx-cap-001.yaml"


async def test_an_empty_case_file_is_open_and_empty_not_no_case(bank, make_app):
    empty = bank / "fx-new-004.yaml"
    empty.write_text("", encoding="utf-8")
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_case(pilot, empty)
        assert "fx-new-004.yaml" in str(editor.query_one(TitleBar).query_one("#title-where").render())
        assert editor.text_area.placeholder != NO_CASE and "empty" in str(editor.text_area.placeholder)
        assert any(d.code == "yaml.empty" for d in editor.diagnostics)
        await pilot.press("ctrl+w")
        await settle(pilot)
        assert editor.path is None and editor.text_area.placeholder == NO_CASE


async def test_a_binary_file_is_refused_in_plain_words(bank, make_app):
    binary = bank / "fx-scan-005.yaml"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe")
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, lambda: not app.bank_loading)
        await app.open_case(binary)
        await settle(pilot)
        said = app.notes.text()
        assert "Cannot open" in said and "not UTF-8 text" in said
        assert "codec" not in said and "decode" not in said


async def test_closing_a_case_takes_its_rehearsal_with_it(bank, make_app):
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_case(pilot, bank / CAP)
        await pilot.press("ctrl+r")
        await settle(pilot)
        panel = editor.query_one(RehearsalPanel)
        assert str(panel.query_one("#rehearsal-text").render()).startswith("Rehearsal of ")
        await pilot.press("ctrl+w")
        await settle(pilot)
        assert editor.path is None
        assert editor.query_one(ContentSwitcher).current != "rehearsal"
        assert str(panel.query_one("#rehearsal-text").render()) == WAITING


async def test_an_empty_age_is_a_problem_at_its_line(bank, make_app):
    case = bank / CAP
    text = case.read_text(encoding="utf-8")
    age = next(line for line in text.splitlines() if line.strip().startswith("age:"))
    case.write_text(text.replace(age, "  age:"), encoding="utf-8")
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_case(pilot, case)
        (problem,) = [d for d in editor.diagnostics if d.code == "value.empty"]
        assert problem.path == "patient.age" and problem.severity == "error"
        assert problem.line == text.splitlines().index(age) + 1

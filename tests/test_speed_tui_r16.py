"""The library's check path made cheaper (issue 41): the same findings and rows as before.

The TUI checks each case as `medbench validate` does (``validate_file``) and streams the rows
checked so far into the table in batches; the vocabulary key of ASCII text skips its
per-letter loop; an image is decoded once per version of its file. None of it may change
what is shown or found.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from medbench_tui.core.authoring.library import entry_from_report, read_entry
from medbench_tui.core.cases.bank import load_bank, scan_bank
from medbench_tui.core.validate import validate_text
from medbench_tui.core.validate.images import placeholder_reason
from medbench_tui.core.vocabulary.load import key
from medbench_tui.tui import bank_state
from medbench_tui.tui.widgets.case_table import CaseTable
from tests.tui.conftest import SIZE, bank, make_app, settle  # noqa: F401  (fixtures used by name)

REPO = Path(__file__).resolve().parent.parent
ASCII = st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=127), max_size=30)


@given(ASCII)
def test_the_ascii_key_is_the_key_the_unicode_path_makes(text: str) -> None:
    """An accented letter sends the text down the general path: it must agree with the ASCII one."""
    assert key(f"{text} \u00e9") == key(f"{text} e")
    assert key(f"\u00c9{text}") == key(f"E{text}")


def test_the_ascii_key_ignores_case_hyphens_and_punctuation() -> None:
    assert key("X-ray") == key("x ray") == key("  X ray. ") == "x ray"
    assert key("co-amoxiclav 625mg, PO!") == "co amoxiclav 625mg po"
    assert key("\t\x1f-\n") == ""


def test_the_library_rows_of_the_bundled_bank_are_those_of_checking_each_text() -> None:
    """Each row as the library made it before (the file's text checked against the bank's index)."""
    index = scan_bank(REPO / "cases")
    index.index_near_duplicates()
    for entry in index.entries:
        text = entry.path.read_text(encoding="utf-8")
        assert read_entry(entry.path, index) == entry_from_report(
            entry.path, text, validate_text(text, entry.path, bank=index)), entry.path


def test_rows_of_unreadable_invalid_and_rubric_files_are_unchanged(tmp_path: Path) -> None:
    found = [REPO / "tests" / "data" / "rubric" / "rb-panel-001.yaml"]
    (tmp_path / "broken.yaml").write_text("id: broken\ntitle: [unclosed\n", encoding="utf-8")
    (tmp_path / "partial.yaml").write_text("id: partial\ntitle: Half a case\nstatus: draft\n", encoding="utf-8")
    (tmp_path / "latin.yaml").write_bytes("id: latin\ntitle: caf\xe9\n".encode("latin-1"))
    for source in found:
        (tmp_path / source.name).write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    index = scan_bank(tmp_path)
    rows = {entry.path.stem: read_entry(entry.path, index) for entry in index.entries}
    assert rows["rb-panel-001"].kind == "rubric" and rows["broken"].errors and rows["partial"].errors
    for entry in index.entries:
        path = entry.path
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            assert read_entry(path, index).title == "(file cannot be read)"
            assert read_entry(path, index).errors == 1
            continue
        assert read_entry(path, index) == entry_from_report(path, text, validate_text(text, path, bank=index))


def _png(path: Path, colours: list[tuple[int, int, int]], mode: str = "RGB") -> None:
    image = Image.new("RGB", (64, 64), colours[0])
    for i, colour in enumerate(colours[1:], 1):
        image.putpixel((i, i), colour)
    (image if mode == "RGB" else image.convert(mode)).save(path)


def test_an_image_is_checked_again_when_its_file_changes(tmp_path: Path) -> None:
    path = tmp_path / "ecg.png"
    _png(path, [(200, 200, 200)])
    assert "same colour" in (placeholder_reason(path) or "")
    assert "same colour" in (placeholder_reason(path) or "")  # from the cache
    _png(path, [(200, 200, 200), (0, 0, 0), (10, 10, 10)])
    assert placeholder_reason(path) is None


@pytest.mark.parametrize("mode", ["RGB", "L", "P", "RGBA"])
def test_images_of_every_mode_read_as_before(tmp_path: Path, mode: str) -> None:
    uniform, drawn = tmp_path / f"u-{mode}.png", tmp_path / f"d-{mode}.png"
    _png(uniform, [(102, 102, 102)], mode)  # a colour of the web palette: "P" keeps it undithered
    _png(drawn, [(102, 102, 102), (0, 0, 0)], mode)
    assert "same colour" in (placeholder_reason(uniform) or "")
    assert placeholder_reason(drawn) is None
    (tmp_path / "not.png").write_text("no picture", encoding="utf-8")
    assert "cannot be read" in (placeholder_reason(tmp_path / "not.png") or "")


def test_the_rows_come_in_growing_batches_and_end_as_the_bank(monkeypatch) -> None:
    monkeypatch.setattr(bank_state, "ROWS_AFTER_SECONDS", 0.0)
    heard: list[tuple[int, int, tuple[object, ...]]] = []
    read = bank_state.read_bank(load_bank(REPO, strict=False), lambda *news: heard.append(news), lambda: False)
    assert read is not None
    _, cases = read
    batches = [checked for _, _, checked in heard if checked]
    assert [len(b) for b in batches] == [5, 10, 20, 40]  # 71 cases: doubling, the last rows come with the bank
    assert all(list(b) == cases[: len(b)] for b in batches)
    assert heard[0][:2] == (0, len(cases)) and heard[-1] == (len(cases), len(cases), ())


def test_no_rows_before_the_bank_for_a_bank_checked_at_once(monkeypatch) -> None:
    monkeypatch.setattr(bank_state, "ROWS_AFTER_SECONDS", 3600.0)
    heard: list[tuple[int, int, tuple[object, ...]]] = []
    assert bank_state.read_bank(load_bank(REPO, strict=False), lambda *news: heard.append(news), lambda: False)
    assert not any(checked for _, _, checked in heard)


async def test_the_library_shows_the_cases_checked_so_far(bank, make_app, monkeypatch) -> None:  # noqa: F811
    monkeypatch.setattr(bank_state, "ROWS_AFTER_SECONDS", 0.0)
    monkeypatch.setattr(bank_state, "PROGRESS_EVERY", 1)
    release = threading.Event()
    original = bank_state.read_entry

    def last_waits(path, index):
        if path.stem == "fx-uti-002":
            release.wait(timeout=30)
        return original(path, index)

    monkeypatch.setattr(bank_state, "read_entry", last_waits)
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        table = app.library_screen().query_one(CaseTable)
        for _ in range(200):
            await pilot.pause(0.01)
            if table.row_count == 2:
                break
        assert app.bank_loading
        assert [str(table.get_row_at(i)[0]) for i in range(table.row_count)] == ["fx-app-003", "fx-cap-001"]
        release.set()
        await settle(pilot, lambda: not app.bank_loading)
        assert [str(table.get_row_at(i)[0]) for i in range(table.row_count)] == [
            "fx-app-003", "fx-cap-001", "fx-uti-002"]
        summary = str(app.library_screen().query_one("#library-summary").render())
        assert "3 of 3 cases shown" in summary

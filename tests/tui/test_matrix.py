"""The case x system matrix as a reader uses it: the cursor moves by key and by click, the
detail below follows it, a second click or Enter opens the case side by side, a filter keeps
the cursor on its case, and what each line shows."""

from __future__ import annotations

from medbench_tui.tui.screens.run_group import CaseComparisonScreen
from medbench_tui.tui.widgets.matrix import HEADER_HEIGHT, MetricMatrix

from .conftest import SIZE, stored
from .sessions import shown_in, until


def line_text(matrix: MetricMatrix, y: int) -> str:
    return matrix.render_line(y).text


async def test_the_cursor_moves_by_key_and_the_detail_follows(compared_clinic, make_app):
    bank, group_id = compared_clinic
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        report = await stored(pilot, group_id)
        matrix = report.matrix
        assert matrix.has_focus and matrix.selected_case == "fx-chest-001"
        await pilot.press("down")
        await until(pilot)
        assert matrix.selected_case == "fx-throat-002"
        assert shown_in(report, "#group-detail").startswith("fx-throat-002")
        await pilot.press("down")  # the last case: the cursor stays
        assert matrix.selected_case == "fx-throat-002"
        await pilot.press("home")
        assert matrix.selected_case == "fx-chest-001"
        await pilot.press("end")
        assert matrix.selected_case == "fx-throat-002"
        await pilot.press("up")
        await until(pilot)
        assert matrix.selected_case == "fx-chest-001"
        assert shown_in(report, "#group-detail").startswith("fx-chest-001")


async def test_a_click_highlights_a_case_and_a_second_click_opens_it(compared_clinic, make_app):
    bank, group_id = compared_clinic
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        report = await stored(pilot, group_id)
        matrix = report.matrix
        second = (2, HEADER_HEIGHT + 1)
        await pilot.click(MetricMatrix, offset=(2, 0))  # a heading: nothing happens
        assert matrix.selected_case == "fx-chest-001"
        await pilot.click(MetricMatrix, offset=second)
        await until(pilot)
        assert matrix.selected_case == "fx-throat-002"
        assert not isinstance(app.screen, CaseComparisonScreen)
        await pilot.click(MetricMatrix, offset=second)
        await until(pilot, lambda: isinstance(app.screen, CaseComparisonScreen))
        assert "fx-throat-002" in app.screen.heading


async def test_a_filter_keeps_the_cursor_on_its_case(compared_clinic, make_app):
    bank, group_id = compared_clinic
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        report = await stored(pilot, group_id)
        await pilot.press("down")
        report.refresh_matrix()  # the rows shown again, as a filter that keeps both does
        await until(pilot)
        assert report.matrix.selected_case == "fx-throat-002"
        report.matrix.show([r for r in report.rows if r.case_id == "fx-chest-001"], report.systems)
        assert report.matrix.selected_case == "fx-chest-001"  # its case gone: the first


async def test_each_line_shows_its_case_and_the_headings_stay_on_top(compared_clinic, make_app):
    bank, group_id = compared_clinic
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        report = await stored(pilot, group_id)
        matrix = report.matrix
        heading, fields = line_text(matrix, 0), line_text(matrix, 1)
        assert heading.split() == ["case", *report.systems, "differ"]
        assert fields.split()[:3] == ["Dx", "Ddx", "Workup"]
        first = line_text(matrix, HEADER_HEIGHT).split()
        assert first[0] == "fx-chest-001" and first[-1] == "≠"
        assert len(first) == 1 + 2 * 7 + 1  # seven fields per system, and the difference mark
        assert line_text(matrix, HEADER_HEIGHT + 2).strip() == ""  # below the last case
        width = matrix.size.width
        assert all(len(line_text(matrix, y)) == width for y in range(4))
        # the cursor's line is drawn in the cursor's colours, the others not
        cursor = list(matrix.render_line(HEADER_HEIGHT))[0].style
        other = list(matrix.render_line(HEADER_HEIGHT + 1))[0].style
        assert cursor is not None and other is not None and cursor.bgcolor != other.bgcolor


async def test_a_narrow_matrix_scrolls_sideways_under_its_headings(compared_clinic, make_app):
    bank, group_id = compared_clinic
    app = make_app(bank)
    async with app.run_test(size=(60, 30)) as pilot:
        report = await stored(pilot, group_id)
        matrix = report.matrix
        assert matrix.virtual_size.width > matrix.size.width
        assert line_text(matrix, HEADER_HEIGHT).startswith(" fx-chest-001")
        matrix.scroll_to(x=20, animate=False)
        await until(pilot)
        assert not line_text(matrix, HEADER_HEIGHT).startswith(" fx-chest-001")
        assert "fx-chest-001" not in line_text(matrix, HEADER_HEIGHT)
        assert "case" not in line_text(matrix, 0).split()[:1]


async def test_an_empty_matrix_draws_blank_and_chooses_nothing(compared_clinic, make_app):
    bank, group_id = compared_clinic
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        report = await stored(pilot, group_id)
        report.matrix.show([], [])
        await until(pilot)
        matrix = report.matrix
        assert matrix.row_count == 0 and matrix.selected_case is None
        assert line_text(matrix, 0).split() == ["case"]  # the headings, over no case
        assert line_text(matrix, HEADER_HEIGHT).strip() == ""
        await pilot.press("enter", "down")
        assert not isinstance(app.screen, CaseComparisonScreen)


async def test_a_group_on_its_way_shows_no_rows_of_the_last_one(compared_clinic, make_app):
    bank, group_id = compared_clinic
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        report = await stored(pilot, group_id)
        group_id = report.group.id
        report.waiting()
        await until(pilot)
        assert report.matrix.row_count == 0 and report.report is None
        assert "Reading the runs" in shown_in(report, "#group-summary")
        assert not report.query_one("#group-tabs").display  # the bar is drawn first, the tabs after
        report.load(report.store, group_id)
        await until(pilot, lambda: report.report is not None)
        assert report.query_one("#group-tabs").display and report.matrix.row_count == 2

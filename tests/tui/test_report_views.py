"""The group report's charts and failure taxonomy, and the compare set-up a newcomer finds:
ticking a case switches the scope, ticked and unticked boxes differ, and a system without
a run of the case says so."""

from __future__ import annotations

import pytest
from textual.geometry import Region
from textual.widgets import Select, SelectionList, TabbedContent

from medbench_tui.core.paths import run_store_for
from medbench_tui.core.reports.report import report_tables
from medbench_tui.core.runs.store import RunStore
from medbench_tui.tui.screens.run_group import NOT_RUN, case_sides
from medbench_tui.tui.widgets.failure_table import FailureTable
from medbench_tui.tui.widgets.report_charts import ReportCharts
from medbench_tui.tui.widgets.report_plots import BarChartView, ForestPlot, bar_value

from .conftest import SIZE, stored
from .sessions import shown_in, until
from .test_compare import REPLAY, compare, open_compare


async def test_a_failure_count_opens_the_cases_that_failed_that_way(compared_clinic, make_app):
    bank, group_id = compared_clinic
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        report = await stored(pilot, group_id)
        await pilot.press("t", "t", "t")  # cases -> statistics -> charts -> failures
        assert report.query_one("#group-tabs", TabbedContent).active == "tab-failures"
        table = report.query_one(FailureTable)
        assert table.has_focus
        keys = list(table.chosen)
        missed = keys.index("checklist|missed_diagnosis")
        label, case_ids = table.chosen["checklist|missed_diagnosis"]
        assert case_ids == ["fx-chest-001", "fx-throat-002"]
        table.move_cursor(row=missed)
        await pilot.press("enter")
        await until(pilot)
        assert report.query_one("#group-tabs", TabbedContent).active == "tab-cases"
        assert report.matrix.row_count == len(case_ids)
        summary = str(report.query_one("#group-summary").render())
        assert "cases with Missed diagnosis (checklist)" in summary
        # a kind nobody failed opens nothing
        await pilot.press("f")  # back to every case
        assert report.only is None and report.matrix.row_count == 2


async def test_charts_draw_the_forest_plot_and_the_bars(compared_clinic, make_app):
    bank, group_id = compared_clinic
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        report = await stored(pilot, group_id)
        report.query_one("#group-tabs", TabbedContent).active = "tab-charts"
        await until(pilot)
        forest = report.query_one(ForestPlot).render().plain
        assert "Paired differences, replay:replays − checklist (n=2)" in forest
        assert "Diagnosis Accuracy" in forest and "●" in forest
        bars = drawn(report.query_one(".figure-headline", BarChartView))
        assert "Key metrics per system" in bars[0] and any("checklist" in line for line in bars)
        charts = report.query_one(ReportCharts)
        assert report.report.subgroups.field == "category"
        charts.query_one("#subgroup-field", Select).value = "urgency"
        await until(pilot, lambda: report.report.subgroups.field == "urgency")
        subgroup = drawn(report.query_one("#subgroup-bars", BarChartView))
        assert subgroup[0] == "Diagnosis Accuracy by urgency"


def drawn(view: BarChartView) -> list[str]:
    """The lines the widget draws on screen."""
    return [strip.text.rstrip() for strip in view.render_lines(Region(0, 0, view.size.width, view.size.height))]


async def test_each_bar_draws_the_value_of_its_table_cell(compared_clinic, make_app):
    """Read off the screen: each bar's length is the mean its table shows (a diagnosis
    accuracy of 0 is an empty bar), and its label is the table's cell."""
    bank, group_id = compared_clinic
    app = make_app(bank)
    async with app.run_test(size=SIZE) as pilot:
        report = await stored(pilot, group_id)
        report.query_one("#group-tabs", TabbedContent).active = "tab-charts"
        await until(pilot)
        (table,) = [t for t in report_tables(report.report) if t.key == "headline"]
        cells = {row[0]: dict(zip(report.report.systems, row[1:], strict=False)) for row in table.rows}
        lines = drawn(report.query_one(".figure-headline", BarChartView))
        checked = 0
        metric = None
        for line in lines[1:]:
            if line in cells:
                metric = line
                continue
            if "│" not in line or metric is None:
                continue
            name, bar, shown = line.split("│")
            cell = cells[metric][name.strip()]
            assert shown.strip() == cell
            width = len(bar)
            assert bar_value(bar, width) == pytest.approx(float(cell.split()[0]), abs=100 / width / 8 + 1e-9)
            checked += 1
        assert checked == 2 * len(table.figures[0].groups) and checked >= 4
        zero = next(line for line in lines if line.strip().startswith("checklist"))
        assert "█" not in zero.split("│")[1]  # the checklist names no diagnosis: an empty bar


async def test_ticking_a_case_switches_the_scope_and_ticked_boxes_look_different(clinic, make_app):
    app = make_app(clinic)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_compare(pilot)
        await until(pilot, lambda: screen.query_one("#compare-case-list", SelectionList).option_count == 2)
        cases = screen.query_one("#compare-case-list", SelectionList)
        scope = screen.query_one("#compare-scope", Select)
        assert scope.value == "all"
        cases.select(str(app.bank.root / "fx-chest-001.yaml"))
        await until(pilot)
        assert scope.value == "chosen"
        assert [e.id for e in screen.chosen_entries()] == ["fx-chest-001"]
        assert "1 case" in str(screen.query_one("#compare-plan").render())
        cases.deselect(str(app.bank.root / "fx-chest-001.yaml"))
        await until(pilot)
        assert scope.value == "all"
        ticked = cases.get_component_rich_style("selection-list--button-selected")
        unticked = cases.get_component_rich_style("selection-list--button")
        assert ticked.bgcolor != unticked.bgcolor and ticked.color != unticked.color


async def test_a_system_without_a_run_of_the_case_says_so(clinic, make_app):
    app = make_app(clinic)
    async with app.run_test(size=SIZE) as pilot:
        screen = await compare(pilot, ["checklist", REPLAY], ["fx-chest-001"])
        with RunStore(run_store_for(clinic)) as store:
            with store.transaction() as db:
                db.execute("DELETE FROM runs WHERE group_id = ? AND system = ?", (screen.group_id, REPLAY))
            sides, _, heading = case_sides(store, clinic, screen.group_id, "fx-chest-001")
        assert [s.label for s in sides] == ["checklist", REPLAY]
        assert sides[1].status == NOT_RUN and "no run of this case" in sides[1].reason
        assert f"{REPLAY} has no run of this case" in heading
        screen._load_case(screen.group_id, "fx-chest-001", push=False)
        await until(pilot)
        columns = shown_in(screen, "#transcript-columns")
        assert "not run" in columns and REPLAY in columns

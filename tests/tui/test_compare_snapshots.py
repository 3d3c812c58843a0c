"""How compare mode looks: one case side by side (transcripts, items) and the matrix (120 x 36)."""

from __future__ import annotations

import pytest

from medbench_tui.tui.widgets.group_report import GroupReport

from .conftest import SIZE
from .sessions import until
from .test_compare import REPLAY, compare, open_compare

pytestmark = pytest.mark.usefixtures("fixed_group_ids")


def test_one_case_side_by_side(clinic, make_app, snap_compare):
    async def run_before(pilot) -> None:
        await compare(pilot, ["checklist", REPLAY], ["fx-chest-001"])

    assert snap_compare(make_app(clinic), terminal_size=SIZE, run_before=run_before)


def test_the_per_item_diff(clinic, make_app, snap_compare):
    async def run_before(pilot) -> None:
        screen = await compare(pilot, ["checklist", REPLAY], ["fx-chest-001"])
        screen.query_one("#comparison-tabs").active = "tab-items"
        await until(pilot)

    assert snap_compare(make_app(clinic), terminal_size=SIZE, run_before=run_before)


def test_the_matrix(clinic, make_app, snap_compare):
    async def run_before(pilot) -> None:
        screen = await compare(pilot, ["checklist", REPLAY])
        await until(pilot, lambda: screen.query_one(GroupReport).report is not None)

    assert snap_compare(make_app(clinic), terminal_size=SIZE, run_before=run_before)


def test_the_charts(clinic, make_app, snap_compare):
    async def run_before(pilot) -> None:
        screen = await compare(pilot, ["checklist", REPLAY])
        report = screen.query_one(GroupReport)
        await until(pilot, lambda: report.report is not None)
        report.query_one("#group-tabs").active = "tab-charts"
        await until(pilot)

    assert snap_compare(make_app(clinic), terminal_size=SIZE, run_before=run_before)


def test_the_setup_with_a_ticked_case(clinic, make_app, snap_compare):
    async def run_before(pilot) -> None:
        screen = await open_compare(pilot)
        screen.query_one("#compare-system-list").select("checklist")
        await until(pilot, lambda: screen.query_one("#compare-case-list").option_count == 2)
        screen.query_one("#compare-case-list").select(str(pilot.app.bank.root / "fx-chest-001.yaml"))
        await until(pilot)

    assert snap_compare(make_app(clinic), terminal_size=SIZE, run_before=run_before)

"""Results mode: stored groups and runs, a run's scorecard and consultation, two runs of
one case side by side, a group as matrix and statistics."""

from __future__ import annotations

from textual.widgets import DataTable

from medbench_tui.core.cases.bank import load_bank
from medbench_tui.core.paths import run_store_for
from medbench_tui.core.runs.runner import Runner, plan_run
from medbench_tui.core.runs.store import RunStore
from medbench_tui.tui.screens.results import ResultsScreen, RunScreen
from medbench_tui.tui.screens.run_group import CaseComparisonScreen, GroupReportScreen
from medbench_tui.tui.widgets.group_report import GroupReport
from medbench_tui.tui.widgets.run_view import RunView

from .conftest import SIZE
from .sessions import shown_in, until


async def stored_group(bank) -> str:
    """Checklist and replay over the clinic bank, stored as the command line would."""
    with RunStore(run_store_for(bank)) as store:
        result = await Runner(store, plan_run(load_bank(bank), ["checklist", "replay:replays"])).run()
    return result.group_id


async def open_results(pilot) -> ResultsScreen:
    app = pilot.app
    await until(pilot, lambda: not app.bank_loading)
    await pilot.press("f6")
    await until(pilot, lambda: isinstance(app.screen, ResultsScreen) and bool(app.screen.runs))
    return app.screen


async def test_the_browser_opens_a_run(clinic, make_app):
    group_id = await stored_group(clinic)
    app = make_app(clinic)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_results(pilot)
        groups = screen.query_one("#results-groups", DataTable)
        assert groups.row_count == 1 and str(groups.get_row_at(0)[1]) == group_id
        assert [r.case_id for r in screen.runs] == ["fx-chest-001", "fx-chest-001", "fx-throat-002", "fx-throat-002"]
        await pilot.press("enter")  # from the groups into its runs
        await until(pilot)
        await pilot.press("down", "enter")  # the replay's run of fx-chest-001
        await until(pilot, lambda: isinstance(app.screen, RunScreen))
        run_screen = app.screen
        assert run_screen.side.label == "replay:replays" and run_screen.side.card is not None
        assert "Lobar pneumonia" in shown_in(run_screen, "#card-items")
        assert "The reference answer" not in shown_in(run_screen, "#card-items")
        assert "amoxicillin, not a quinolone" in shown_in(run_screen, "#card-reference")
        run_screen.query_one(RunView).query_one("#run-tabs").active = "tab-consultation"
        await until(pilot)
        assert "Can I see the x-ray?" in shown_in(run_screen, "#transcript-columns")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen)


async def test_two_marked_runs_of_one_case_side_by_side(clinic, make_app):
    await stored_group(clinic)
    app = make_app(clinic)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_results(pilot)
        screen.query_one("#results-runs").focus()
        await pilot.press("space", "down", "down", "space")  # runs of two different cases
        await until(pilot)
        await pilot.press("c")
        await until(pilot)
        assert "different cases" in app.notes.text()
        await pilot.press("space", "up", "space")  # unmark fx-throat-002, mark the replay of fx-chest-001
        await until(pilot)
        assert sorted(r.case_id for r in screen.marked.values()) == ["fx-chest-001", "fx-chest-001"]
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, CaseComparisonScreen))
        assert [s.label for s in app.screen.sides] == ["checklist", "replay:replays"]
        assert "replay:replays only" in shown_in(app.screen, "#item-diff")


async def test_a_group_as_matrix_and_statistics(clinic, make_app):
    await stored_group(clinic)
    app = make_app(clinic)
    async with app.run_test(size=SIZE) as pilot:
        await open_results(pilot)
        await pilot.press("g")
        await until(pilot, lambda: isinstance(app.screen, GroupReportScreen))
        report = app.screen.query_one(GroupReport)
        await until(pilot, lambda: report.report is not None)
        assert report.matrix.row_count == 2
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, CaseComparisonScreen))


async def test_no_runs_yet_says_where_they_come_from(clinic, make_app):
    app = make_app(clinic)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: not app.bank_loading)
        await pilot.press("f6")
        await until(pilot, lambda: isinstance(app.screen, ResultsScreen))
        await until(pilot)
        assert "No runs stored yet" in shown_in(app.screen, "#results-hint")
    assert not run_store_for(clinic).exists()  # browsing never creates a store


async def test_a_run_of_a_case_changed_since_says_so(clinic, make_app):
    await stored_group(clinic)
    case = clinic / "fx-chest-001.yaml"
    case.write_text(case.read_text(encoding="utf-8") + "# edited after the runs\n", encoding="utf-8")
    app = make_app(clinic)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_results(pilot)
        screen.query_one("#results-runs").focus()
        await pilot.press("o")
        await until(pilot, lambda: isinstance(app.screen, RunScreen))
        assert "case file has changed" in app.screen.heading


DOUBTED = ("Streptococcal tonsillitis. The throat is red and sore; swab the tonsils later. "
           "Phenoxymethylpenicillin for 10 days.")
"""A final the grader doubts: 'Throat swab' left out of a plan whose words say 'swab'."""


async def stored_doubted_group(bank) -> str:
    """As ``stored_group``, with the replay of fx-throat-002 ending in ``DOUBTED``."""
    replay = bank / "replays" / "fx-throat-002.yaml"
    text = replay.read_text(encoding="utf-8")
    replay.write_text(text[: text.index("final:")] + f'final:\n  text: "{DOUBTED}"\n', encoding="utf-8")
    return await stored_group(bank)


async def test_a_run_shows_where_the_grader_is_unsure(clinic, make_app):
    await stored_doubted_group(clinic)
    app = make_app(clinic)
    async with app.run_test(size=SIZE) as pilot:
        await open_results(pilot)
        await pilot.press("enter")
        await until(pilot)
        await pilot.press("down", "down", "down", "enter")  # the replay's run of fx-throat-002
        await until(pilot, lambda: isinstance(app.screen, RunScreen))
        assert "unsure: words present" in shown_in(app.screen, "#card-items")

"""Review mode: a physician confirms or corrects the evaluator's decisions, blinded, with
every verdict saved as it is made and the review resumed where it stopped."""

from __future__ import annotations

from textual.widgets import DataTable, Input

from medbench_tui.core.paths import run_store_for
from medbench_tui.core.review.adjudication import AdjudicationBook
from medbench_tui.core.runs.store import RunStore
from medbench_tui.tui.screens.review import ReviewScreen

from .conftest import SIZE, test_settings
from .sessions import shown_in, until
from .test_results import stored_doubted_group, stored_group


async def open_review(pilot) -> ReviewScreen:
    app = pilot.app
    await until(pilot, lambda: not app.bank_loading)
    await pilot.press("f7")
    await until(pilot, lambda: isinstance(app.screen, ReviewScreen))
    screen = app.screen
    assert isinstance(screen, ReviewScreen)
    await until(pilot, lambda: screen.query_one("#review-group").value is not None)
    return screen


async def start(pilot, screen: ReviewScreen, size: str = "") -> None:
    screen.query_one("#review-size", Input).value = size
    await pilot.click("#review-start")
    await until(pilot, lambda: bool(screen.runs))


def stored(bank, rater: str):
    with RunStore(run_store_for(bank)) as store:
        return AdjudicationBook(store).records(rater=rater)


async def test_a_physician_reviews_blinded_runs_and_every_verdict_is_saved(clinic, make_app):
    await stored_group(clinic)
    settings = test_settings()
    settings.player_name = "Dr Reviewer"
    app = make_app(clinic, settings=settings)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        await start(pilot, screen, "2")
        assert len(screen.runs) == 2
        table = screen.query_one("#review-decisions", DataTable)
        cells = " ".join(str(c) for i in range(table.row_count) for c in table.get_row_at(i))
        # no system name anywhere but in what the system itself wrote
        shown = shown_in(screen, "Label") + shown_in(screen, "#review-reason") + cells
        assert "checklist" not in shown and "replay" not in shown
        first = screen.current
        assert first is not None and table.row_count == len(first.decisions)
        decision = screen.selected()
        assert decision is not None
        await pilot.press("y")  # agree with the first decision
        await pilot.press("n" if decision.section == "critical" else "x")  # a label that does not fit is refused
        await until(pilot)
        records = stored(clinic, "Dr Reviewer")
        assert [(r.section, r.reference, r.physician) for r in records] == [
            (decision.section, decision.reference, decision.evaluator)]
        assert table.cursor_row == 1
        second = screen.selected()
        assert second is not None
        corrected = "FAIL" if second.section == "critical" else ("not_found" if second.evaluator != "not_found"
                                                                  else "found")
        await pilot.press({"FAIL": "x", "not_found": "n", "found": "f"}[corrected])
        await until(pilot)
        assert any(r.reference == second.reference and r.physician == corrected and r.evaluator == second.evaluator
                   for r in stored(clinic, "Dr Reviewer"))
        assert "2/" in str(screen.query_one("#review-progress").render())


async def test_the_review_resumes_where_it_stopped(clinic, make_app):
    await stored_group(clinic)
    app = make_app(clinic)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        await start(pilot, screen)
        first = screen.current
        assert first is not None
        for _ in first.decisions:
            await pilot.press("y")
        await until(pilot)
        assert screen.index == 1
        sample = [r.run_id for r in screen.runs]
    app = make_app(clinic)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        await start(pilot, screen, "1")  # the rater's earlier sample is kept, whatever is typed
        assert [r.run_id for r in screen.runs] == sample
        assert screen.index == 1
        assert any("Resuming your review" in m for m, _, _ in app.notes.messages)


async def test_a_note_is_kept_with_the_verdict(clinic, make_app):
    await stored_group(clinic)
    app = make_app(clinic)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        await start(pilot, screen)
        decision = screen.selected()
        assert decision is not None
        await pilot.press("e")
        await until(pilot, lambda: app.screen.query("#review-note-input"), idle=False)
        await pilot.press(*"hedged", "enter")
        await until(pilot)
        (record,) = stored(clinic, "player")
        assert record.note == "hedged" and record.physician == decision.evaluator


async def test_the_verdict_columns_are_on_screen_at_160_columns(clinic, make_app):
    """Long reference names (as the bundled cases have) used to push the evaluator's and the
    physician's columns past the edge."""
    case = clinic / "fx-chest-001.yaml"
    case.write_text(case.read_text(encoding="utf-8").replace(
        "  - item: C-reactive protein\n",
        "  - item: C-reactive protein with full blood count, urea and electrolytes and a venous blood gas "
        "if the oxygen saturation is below the target range on air\n"), encoding="utf-8")
    await stored_group(clinic)
    app = make_app(clinic)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await open_review(pilot)
        await start(pilot, screen)
        while screen.current is not None and screen.current.case_id != "fx-chest-001":
            screen.action_next_run()
        await until(pilot)
        table = screen.query_one("#review-decisions", DataTable)
        columns = table.ordered_columns
        labels = [str(c.label) for c in columns]
        seen = table.scrollable_content_region.width
        for wanted in ("evaluator", "yours"):
            at = labels.index(wanted)
            right_edge = sum(c.get_render_width(table) for c in columns[: at + 1])
            assert right_edge <= seen, f"{wanted} ends at {right_edge}; the table shows {seen} columns"


async def test_uncertain_decisions_come_first_and_say_why(clinic, make_app):
    """The grader doubts 'Throat swab' left out of a plan that says 'swab the tonsils': with the
    default order that run comes first, the doubted decision on top, marked, with its doubt."""
    await stored_doubted_group(clinic)
    app = make_app(clinic)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        assert screen.query_one("#review-order").value == "uncertain"
        await start(pilot, screen)
        first = screen.current
        assert first is not None and first.case_id == "fx-throat-002"
        decision = screen.selected()
        assert decision is not None and decision.reference == "Throat swab" and decision.uncertain
        table = screen.query_one("#review-decisions", DataTable)
        assert str(table.get_row_at(0)[1]).endswith("?")
        assert "the grader is unsure: words present" in shown_in(screen, "#review-reason")
        doubted = [d.uncertain for d in first.decisions]
        assert doubted == sorted(doubted, reverse=True)  # uncertain ones before the certain ones

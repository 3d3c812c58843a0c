"""How play mode looks: the chat, the final-response form, the scorecard (120 x 36)."""

from __future__ import annotations

import pytest

from .conftest import SIZE
from .sessions import ask, type_in, until
from .test_play import give_final_response, settings, start

pytestmark = pytest.mark.usefixtures("fixed_group_ids")


async def consult(pilot) -> None:
    screen = await start(pilot)
    for question in ("When did it start?", "Do you smoke?", "Can I see the x-ray?"):
        await ask(pilot, question)
    screen.query_one("#play-notes").insert("Rusty sputum, smoker: think lobar pneumonia.")
    screen.query_one("#play-question").focus()
    await until(pilot)


def test_the_chat(clinic, make_app, snap_compare):
    assert snap_compare(make_app(clinic, settings=settings()), terminal_size=SIZE, run_before=consult)


def test_the_final_response_form(clinic, make_app, snap_compare):
    async def fill(pilot) -> None:
        await consult(pilot)
        screen = pilot.app.screen
        await pilot.press("ctrl+f")
        await type_in(pilot, "#final-diagnoses .entry-input", "Lobar pneumonia (J18.1)")
        for item in ("Pulmonary embolism", "Lung cancer"):
            await type_in(pilot, "#final-differential .entry-input", item)
        await type_in(pilot, "#final-workup .entry-input", "Chest X-ray")
        await type_in(pilot, "#final-treatment .entry-input", "Amoxicillin 500 mg three times a day")
        screen.query_one("#final-advice").insert("Come back at once if you get more breathless.")
        screen.query_one("#final-differential .entry-input").focus()
        await pilot.press(*"bronchitis")
        entries = screen.query_one("#final-differential")
        await until(pilot, lambda: bool(entries._hits))

    assert snap_compare(make_app(clinic, settings=settings()), terminal_size=SIZE, run_before=fill)


def test_the_scorecard(clinic, make_app, snap_compare):
    async def finish(pilot) -> None:
        await consult(pilot)
        await give_final_response(pilot)

    assert snap_compare(make_app(clinic, settings=settings()), terminal_size=SIZE, run_before=finish)

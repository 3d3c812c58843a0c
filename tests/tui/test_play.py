"""Play mode: a whole consultation by keystrokes, streaming, the autosave and resume,
abandoning, the turn limit, and the final-response form."""

from __future__ import annotations

import pytest
from textual import events
from textual.widgets import Input

from medbench_tui.core.paths import play_swap_file, run_store_for
from medbench_tui.core.practice.label import practice_number
from medbench_tui.core.practice.session import ABANDONED, PLAYER_SYSTEM, SessionState, SessionSwap
from medbench_tui.core.runs.store import RunStore
from medbench_tui.tui.screens.dialogs import ConfirmDialog, SwapRecoveryDialog
from medbench_tui.tui.screens.play import PlayScreen
from medbench_tui.tui.widgets.attachments_panel import AttachmentsPanel
from medbench_tui.tui.widgets.chat_log import ChatLog
from medbench_tui.tui.widgets.final_form import EntryList, FinalResponseForm

from .conftest import SIZE, test_settings
from .sessions import ask, shown_in, type_in, until

PLAYER = "Dr Test"


def settings(**values):
    base = test_settings()
    return base.model_copy(update={"player_name": PLAYER, **values})


async def start(pilot, case_id: str = "fx-chest-001") -> PlayScreen:
    """Open the case in play mode from the library, with `p`."""
    app = pilot.app
    await until(pilot, lambda: not app.bank_loading)
    library = app.library_screen()
    library.table.move_cursor(row=library.table.get_row_index(str(app.bank.root / f"{case_id}.yaml")))
    await pilot.press("p")
    await until(pilot, lambda: isinstance(app.screen, PlayScreen) and app.screen.live and not app.screen.waiting)
    return app.screen


async def open_final_form(pilot, screen: PlayScreen) -> None:
    """Ctrl+F, and wait for the final-response form."""
    await pilot.press("ctrl+f")
    await until(pilot, lambda: screen.pane == "play-final")


async def give_final_response(pilot) -> None:
    """Fill the form by keystrokes: a diagnosis picked from the ICD-10 matches, a
    differential, workup, treatment and advice; then Ctrl+S."""
    screen = pilot.app.screen
    await pilot.press("ctrl+f")
    await until(pilot, lambda: screen.pane == "play-final")
    await pilot.press(*"lobar pneumonia")
    entries = screen.query_one("#final-diagnoses", EntryList)
    await until(pilot, lambda: bool(entries._hits))
    await pilot.press("down", "down", "enter")
    await until(pilot, lambda: entries.items)
    await type_in(pilot, "#final-differential .entry-input", "Acute bronchitis")
    await type_in(pilot, "#final-differential .entry-input", "Asthma")
    await type_in(pilot, "#final-workup .entry-input", "Chest X-ray")
    await type_in(pilot, "#final-workup .entry-input", "CRP")
    await type_in(pilot, "#final-treatment .entry-input", "Amoxicillin")
    screen.query_one("#final-advice").insert("Safety net: seek urgent care if worse.")
    await pilot.press("ctrl+s")
    await until(pilot, lambda: not screen.live)


async def test_a_whole_consultation_by_keystrokes_ends_in_the_scorecard(clinic, make_app):
    app = make_app(clinic, settings=settings())
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        chat = screen.query_one(ChatLog)
        assert "cough and a temperature" in shown_in(chat, "Static")
        assert [v.title for v in screen.query_one(AttachmentsPanel).views] == ["Observations"]
        await ask(pilot, "When did it start?", keys=True)
        for question in ("Do you smoke?", "Any allergies?", "Can I see the x-ray?"):
            await ask(pilot, question)
        assert [v.title for v in screen.query_one(AttachmentsPanel).views] == ["Observations", "Chest radiograph"]
        assert screen.steps == 4
        await give_final_response(pilot)

        assert screen.pane == "play-card"
        run = screen.result
        assert run.complete and run.system == PLAYER_SYSTEM and run.system_config["player"] == PLAYER
        assert run.metrics["diagnosis_accuracy"] == 100
        assert run.labels["primary_icd10"] == "exact"
        assert run.metrics["workup_score"] == 100
        assert run.metrics["treatment_accuracy"] == 100
        assert run.metrics["critical_conditions_passed"] == 100
        assert run.metrics["question_coverage"] == 100
        assert run.metrics["differential_accuracy"] == 50
        assert run.steps == 4 and run.outside_soft_range is False
        assert "Missed differential: Pulmonary embolism" in shown_in(screen, "#card-lessons")
        assert "extra" in shown_in(screen, "#card-items")  # asthma matches nothing in the reference
        assert "amoxicillin, not a quinolone" in shown_in(screen, "#card-reference")

    with RunStore(run_store_for(clinic)) as store:
        stored = store.run(run.id)
        assert stored.transcript["final"]["diagnoses"] == [{"name": "Lobar pneumonia, unspecified", "icd10": "J18.1"}]
        assert store.group(run.group_id).config["play"] == {"player": PLAYER, "practice": True}
    assert not play_swap_file(run_store_for(clinic), PLAYER, "fx-chest-001").exists()


async def test_an_unfinished_consultation_is_resumed(clinic, make_app):
    app = make_app(clinic, settings=settings())
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await ask(pilot, "When did it start?")
        await ask(pilot, "Can I see the x-ray?")
        screen.query_one("#play-notes").insert("think pneumonia")
        await pilot.press("ctrl+f")
        await type_in(pilot, "#final-workup .entry-input", "Chest X-ray")
        await pilot.press("escape")  # back to the consultation
        await until(pilot)
        group_id = screen.swap.group_id  # leaving the app autosaves the notes and the draft
    swap = SessionSwap.load(play_swap_file(run_store_for(clinic), PLAYER, "fx-chest-001"))
    assert swap.questions == ["When did it start?", "Can I see the x-ray?"]
    assert swap.notes == "think pneumonia" and swap.draft.workup == ["Chest X-ray"]
    with RunStore(run_store_for(clinic)) as store:
        left = store.runs(group_id)
        assert [(r.status, r.reason) for r in left] == [("incomplete", "cancelled")]

    app = make_app(clinic, settings=settings())
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: not app.bank_loading)
        await pilot.press("p")
        await until(pilot, lambda: isinstance(app.screen, SwapRecoveryDialog), idle=False)
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, PlayScreen) and app.screen.state is SessionState.ASKING)
        screen = app.screen
        assert screen.steps == 2
        assert screen.query_one("#play-notes").text == "think pneumonia"
        assert [v.title for v in screen.query_one(AttachmentsPanel).views] == ["Observations", "Chest radiograph"]
        assert screen.query_one("#final-workup", EntryList).items == ["Chest X-ray"]
        await ask(pilot, "Do you smoke?")
        await give_final_response(pilot)
        run = screen.result
        assert run.complete and run.group_id == group_id and run.steps == 3
    with RunStore(run_store_for(clinic)) as store:
        assert [r.status for r in store.runs(group_id)] == ["complete"]  # the incomplete run was replaced


async def test_abandoning_records_an_incomplete_run(clinic, make_app):
    app = make_app(clinic, settings=settings())
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await ask(pilot, "When did it start?")
        await pilot.press("ctrl+g")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog), idle=False)
        await pilot.press("y")
        await until(pilot, lambda: not screen.live)
        assert screen.pane == "play-cases"
        assert screen.result.status == "incomplete" and screen.result.reason == ABANDONED
        assert "abandoned" in app.notes.text()
    assert not play_swap_file(run_store_for(clinic), PLAYER, "fx-chest-001").exists()


async def test_the_last_question_the_case_allows_closes_the_question_box(clinic, make_app):
    app = make_app(clinic, settings=settings())
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot, "fx-throat-002")
        for n in range(6):
            await ask(pilot, f"Question {n}: any fever?")
        assert screen.query_one("#play-question", Input).disabled
        assert "last question" in shown_in(screen.query_one(ChatLog), "Static")
        await open_final_form(pilot, screen)


async def test_an_empty_final_response_asks_first(clinic, make_app):
    app = make_app(clinic, settings=settings())
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await open_final_form(pilot, screen)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog), idle=False)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen)
        assert screen.live and screen.pane == "play-final"


async def test_the_form_edits_its_lists(clinic, make_app):
    app = make_app(clinic, settings=settings())
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await open_final_form(pilot, screen)
        for text in ("Pneumonia (J18.9)", "J20.9", "Pulmonary embolism"):
            await type_in(pilot, "#final-differential .entry-input", text)
        differential = screen.query_one("#final-differential", EntryList)
        assert [(d.name, d.icd10) for d in differential.items] == [
            ("Pneumonia", "J18.9"), ("Acute bronchitis, unspecified", "J20.9"), ("Pulmonary embolism", None),
        ]
        differential.listed.focus()
        await pilot.press("ctrl+up")  # the last one moves up
        await until(pilot)
        assert [d.name for d in differential.items][1:] == ["Pulmonary embolism", "Acute bronchitis, unspecified"]
        await pilot.press("delete")
        await until(pilot)
        assert [d.name for d in differential.items] == ["Pneumonia", "Acute bronchitis, unspecified"]
        assert screen.query_one(FinalResponseForm).value().differential == differential.items


async def test_a_streaming_patient_shows_the_reply_as_it_comes(clinic, make_app, fake_openai):
    (clinic / "medbench.yaml").write_text(
        "simulators:\n"
        "  llm-patient:\n"
        "    kind: llm\n"
        f"    base_url: {fake_openai.base_url}\n"
        "    model: fake-model\n"
        "    stream: true\n",
        encoding="utf-8",
    )
    fake_openai.responder = lambda body: "It started four days ago with shivers. I'm bringing up rusty brown phlegm."
    seen: list[str] = []

    def hook(message) -> None:
        if isinstance(message, (PlayScreen.Streamed, PlayScreen.Replied)):
            seen.append(type(message).__name__)

    app = make_app(clinic, settings=settings(default_simulator="llm-patient"))
    async with app.run_test(size=SIZE, message_hook=hook) as pilot:
        screen = await start(pilot)
        await ask(pilot, "When did it start, and what are you coughing up?")
        assert seen[:2] == ["Streamed", "Streamed"] and seen[-1] == "Replied"
        assert fake_openai.chat_requests[-1].body["stream"] is True
        assert "four days ago" in shown_in(screen.query_one(ChatLog), ".-patient")
        assert screen.swap.simulator == "llm-patient"


async def test_a_case_with_errors_cannot_be_played(clinic, make_app):
    (clinic / "fx-broken-003.yaml").write_text("id: fx-broken-003\ntitle: Broken\n", encoding="utf-8")
    app = make_app(clinic, settings=settings())
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: not app.bank_loading)
        await app.play_case(clinic / "fx-broken-003.yaml")
        await until(pilot)
        assert isinstance(app.screen, PlayScreen) and not app.screen.live
        assert "Cannot play this case" in app.notes.text()
        options = app.screen.query_one("#play-case-list")
        assert any(options.get_option_at_index(i).disabled for i in range(options.option_count))


async def test_leaving_a_consultation_for_another_case_keeps_it(clinic, make_app):
    app = make_app(clinic, settings=settings())
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await ask(pilot, "When did it start?")
        await pilot.press("ctrl+o")
        await until(pilot, lambda: screen.pane == "play-cases")
        assert screen.live  # still going on: picking it again goes back to it
        screen.request_play(clinic / "fx-throat-002.yaml")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog), idle=False)
        await pilot.press("y")
        await until(pilot, lambda: screen.live and screen.case.id == "fx-throat-002" and not screen.waiting)
    assert play_swap_file(run_store_for(clinic), PLAYER, "fx-chest-001").exists()


async def test_the_palette_plays_a_case_and_finishes_the_consultation(clinic, make_app):
    app = make_app(clinic, settings=settings())
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: not app.bank_loading)
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*f"play case {practice_number('fx-throat-002')}")  # blind: by number, not id
        await until(pilot)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, PlayScreen) and app.screen.live and not app.screen.waiting)
        screen = app.screen
        assert screen.case.id == "fx-throat-002"
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"finish the consultation")
        await until(pilot)
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is screen and screen.pane == "play-final")


async def test_tab_in_the_final_form_adds_what_was_typed_and_goes_to_the_next_list(clinic, make_app):
    """Tab never sends typing into a list where it is lost: the text is added, focus moves on."""
    app = make_app(clinic, settings=settings())
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await open_final_form(pilot, screen)
        diagnoses = screen.query_one("#final-diagnoses", EntryList)
        differential = screen.query_one("#final-differential", EntryList)
        diagnoses.input.focus()
        await pilot.press(*"Pulmonary embolism", "tab")
        await until(pilot)
        assert [d.name for d in diagnoses.items] == ["Pulmonary embolism"] and diagnoses.input.value == ""
        assert app.focused is differential.input
        await pilot.press(*"Pneumothorax", "tab", *"Pleurisy")
        await until(pilot)
        assert [d.name for d in differential.items] == ["Pneumothorax"]
        await pilot.press("shift+tab")
        await until(pilot)
        assert app.focused is differential.input
        workup = screen.query_one("#final-workup", EntryList)
        assert workup.items == ["Pleurisy"]
        await pilot.press(*"Aortic dissection")
        screen.query_one(FinalResponseForm).submit()  # typed but not added: still part of the answer
        await until(pilot)
        assert [d.name for d in differential.items] == ["Pneumothorax", "Aortic dissection"]


async def test_items_entered_in_a_quick_burst_are_each_their_own(clinic, make_app):
    """Keys that come faster than the screen handles them (a paste, a quick typist, a macro) are
    taken in order: each Enter adds what was typed before it, nothing more."""
    app = make_app(clinic, settings=settings())
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await open_final_form(pilot, screen)
        workup = screen.query_one("#final-workup", EntryList)
        workup.input.focus()
        await until(pilot)
        for key in [*"Chest X-ray", "enter", *"CRP", "enter", *"ECG"]:  # all queued at once, as a terminal sends them
            app.post_message(events.Key(key, key if len(key) == 1 else None))
        await until(pilot, lambda: workup.input.value == "ECG")
        assert workup.items == ["Chest X-ray", "CRP"]


async def test_every_open_mode_hears_of_a_changed_bank(clinic, make_app):
    app = make_app(clinic)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: not app.bank_loading)
        await pilot.press("f4")
        await until(pilot, lambda: isinstance(app.screen, PlayScreen))
        play = app.screen
        await pilot.press("f5")
        await until(pilot, lambda: app.screen is not play)
        text = (clinic / "fx-chest-001.yaml").read_text(encoding="utf-8").replace("fx-chest-001", "fx-chest-009")
        (clinic / "fx-chest-009.yaml").write_text(text, encoding="utf-8")
        app.case_file_changed(clinic / "fx-chest-009.yaml")
        await until(pilot, lambda: any(e.id == "fx-chest-009" for e in app.cases))
        listed = play.query_one("#play-case-list")
        await until(pilot, lambda: listed.option_count == len(app.cases))
        assert app.bank_index is not None and app.bank_index.has_case("fx-chest-009")


async def test_practice_shows_no_id_or_title(clinic, make_app):
    """Picker, header, palette and attachments while practising: practice labels only."""
    from textual.widgets import Label, Static

    from medbench_tui.tui.commands import CaseCommands, PlayCommands

    app = make_app(clinic, settings=settings())
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        secrets = [(e.id, e.title) for e in app.cases]
        await ask(pilot, "Can I see your chest x-ray?")
        options = screen.query_one("#play-case-list")
        picker = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        header = str(screen.query_one("#title-where", Label).render())
        panel = screen.query_one(AttachmentsPanel)
        attachments = [str(w.render()) + str(w.border_title) for w in panel.query(Static)]
        providers = (CaseCommands(screen, None), PlayCommands(screen, None))
        palette = [text for provider in providers for text, _, _ in provider._commands()]
        assert all(text.startswith("Case ") for text in [*picker, header])
        assert palette and all(text.startswith("Play Case ") for text in palette)
        assert any("Chest" in text for text in attachments)
        for text in [*picker, header, *attachments, *palette]:
            for case_id, title in secrets:
                assert case_id not in text and title not in text, text


@pytest.mark.parametrize("graphics", [False, True])
async def test_an_image_is_drawn_where_the_terminal_shows_pictures_and_described_elsewhere(clinic, make_app,
                                                                                         monkeypatch, graphics):
    """A terminal with a graphics protocol gets the picture under its description; anywhere else (a
    browser tab, these tests) the description and the file's name are the text fallback."""
    from medbench_tui.tui.widgets import attachment_image

    monkeypatch.setattr(attachment_image, "GRAPHICS", graphics)
    app = make_app(clinic, settings=settings())
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot)
        await ask(pilot, "Can I see the x-ray?")
        panel = screen.query_one(AttachmentsPanel)
        described = [str(w.render()) for w in panel.query(".attachment")]
        assert any("Right lower zone consolidation" in text and "cxr.png" in text for text in described)
        assert len(panel.query(".attachment--image")) == (1 if graphics else 0)


async def test_a_play_request_made_before_the_screen_is_built_waits_for_it(clinic, make_app):
    """A mode switch may hand back a play screen that has not composed its panes yet (a slow
    machine): the request must wait for them rather than fail on the missing panes."""
    app = make_app(clinic, settings=settings())
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: not app.bank_loading)
        screen = PlayScreen()
        assert not screen.is_mounted
        screen.request_play(clinic / "fx-chest-001.yaml")
        await app.push_screen(screen)
        await until(pilot, lambda: screen.live and not screen.waiting)
        assert screen.case.id == "fx-chest-001"

"""Command palette providers: cases, modes, actions and ICD-10 codes, aware of what is on screen."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from functools import partial
from typing import ParamSpec, cast

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content

from medbench_tui.tui.modes import MODE_TITLES
from medbench_tui.tui.typed_app import MedbenchApi, mode_screen

ICD_MIN_QUERY = 3
ICD_SCORE_SCALE = 0.5
"""ICD hits rank below commands that match as well."""

Command = tuple[str, Callable[[], object], str]
"""(text, callback, help) of a command the palette offers; the callback's result is ignored."""

P = ParamSpec("P")


class _MedbenchProvider(Provider):
    @property
    def medbench(self) -> MedbenchApi:
        return cast("MedbenchApi", self.app)

    def _run(self, coroutine_function: Callable[P, Awaitable[object]], *args: P.args, **kwargs: P.kwargs) -> None:
        self.app.run_worker(coroutine_function(*args, **kwargs), exclusive=True, group="palette", exit_on_error=False)

    def _matches(self, query: str, commands: list[Command]) -> Iterator[Hit]:
        matcher = self.matcher(query)
        for text, command, help_text in commands:
            score = matcher.match(text)
            if score > 0:
                display = Content(text) if "[" in text else matcher.highlight(text)
                yield Hit(score, display, command, text=text, help=help_text)

    def _commands(self) -> list[Command]:
        """(text, callback, help) of each command this provider offers now."""
        return []

    async def search(self, query: str) -> Hits:
        for hit in self._matches(query, self._commands()):
            yield hit


class _ListedProvider(_MedbenchProvider):
    """A provider whose commands are also listed when the palette opens empty."""

    async def discover(self) -> Hits:
        for text, command, help_text in self._commands():
            yield DiscoveryHit(text, command, help=help_text)


class CaseCommands(_MedbenchProvider):
    """Open any case of the bank by its id or title: for authors, so not while practising
    (ids and titles name the diagnosis; Play offers its cases by their practice labels)."""

    def _commands(self) -> list[Command]:
        if self.medbench.current_mode == "play":
            return []
        return [
            (f"Open {e.id}: {e.title}", partial(self._run, self.medbench.open_case, e.path),
             self.medbench.display_path(e.path))
            for e in sorted(self.medbench.cases, key=lambda e: e.id)
        ]


class ModeCommands(_ListedProvider):
    """Go to another mode."""

    def _commands(self) -> list[Command]:
        return [
            (f"Go to {title}", partial(self.app.switch_mode, mode), f"switch to the {title.lower()} mode")
            for mode, title in MODE_TITLES.items()
            if mode != self.medbench.current_mode and self.medbench.allows_mode(mode)
        ]


class ActionCommands(_ListedProvider):
    """What can be done now: new case, check the bank, ICD search, and on the case in view."""

    def _commands(self) -> list[Command]:
        app = self.medbench
        commands: list[Command] = [
            ("New case", partial(self._run, app.new_case), "a new case from the template"),
            ("Check the whole bank", partial(self._run, app.check_bank), "validate every case again"),
            ("ICD-10 search", partial(self._run, app.icd_search), "search WHO ICD-10 2019 beside the case"),
        ]
        open_case = app.open_case_in_editor()
        if open_case is not None:
            name = app.display_path(open_case.path)
            commands += [
                (f"Save {name}", partial(self._run, app.edit_open_case, "save"), "save the open case"),
                (f"Close {name}", partial(self._run, app.edit_open_case, "close"), "close the open case"),
                ("Toggle preview", partial(self._run, app.edit_open_case, "preview"),
                 "what the doctor sees and the patient knows"),
                ("Rehearse the case", partial(self._run, app.edit_open_case, "rehearse"),
                 "history questions to the patient: what they reach"),
            ]
        from medbench_tui.tui.screens.library import LibraryScreen

        library = mode_screen(self.app, "library", LibraryScreen)
        if library is not None and self.screen is library:
            entry = library.selected_entry()
            if entry is not None:
                commands += [
                    (f"New variant of {entry.id}", library.action_new_variant,
                     "a copy with a new id and parent_id set"),
                    (f"Delete {entry.id}", library.action_delete_case, "move the case file to the bank's .trash"),
                ]
        return commands


class IcdCommands(_MedbenchProvider):
    """WHO ICD-10 2019 codes by title or code: puts the chosen code into the open case."""

    async def search(self, query: str) -> Hits:
        query = query.strip()
        if len(query) < ICD_MIN_QUERY:
            return
        from medbench_tui.core import icd10
        from medbench_tui.core.errors import MedbenchError

        try:
            hits = await asyncio.to_thread(icd10.search, query, 8)
        except MedbenchError:  # ICD-10 data missing or damaged: the editor's panel says why
            return
        into_case = self.medbench.open_case_in_editor() is not None
        for hit in hits:
            text = f"ICD-10 {hit.code} {hit.title}"
            yield Hit(
                hit.score / 100 * ICD_SCORE_SCALE,
                Content(text),
                partial(self._use_code, hit.code, hit.title),
                text=text,
                help="put the code into the open case" if into_case else "show the code",
            )

    def _use_code(self, code: str, title: str) -> None:
        self._run(self._put_code, code, title)

    async def _put_code(self, code: str, title: str) -> None:
        if not await self.medbench.use_icd_code(code):
            self.app.notify(f"{code}: {title}", title="ICD-10 (WHO 2019)", markup=False)


class PlayCommands(_MedbenchProvider):
    """Play any valid case of the bank as its doctor."""

    def _commands(self) -> list[Command]:
        return [
            (f"Play {e.practice}", partial(self._run, self.medbench.play_case, e.path),
             "consult the case as its doctor")
            for e in sorted(self.medbench.cases, key=lambda e: e.practice)
            if not e.errors
        ]


class SessionCommands(_ListedProvider):
    """What can be done now in play, compare and results: finish, cancel, export, compare."""

    def _commands(self) -> list[Command]:
        from medbench_tui.tui.screens.compare import CompareScreen
        from medbench_tui.tui.screens.play import PlayScreen
        from medbench_tui.tui.screens.results import ResultsScreen

        screen = self.screen
        commands: list[Command] = []
        if isinstance(screen, PlayScreen) and screen.live:
            commands += [
                ("Finish the consultation", screen.action_finish, "give your final response"),
                ("Abandon the consultation", screen.action_abandon, "end it without a final response (incomplete)"),
            ]
        if isinstance(screen, CompareScreen):
            if screen.running:
                commands.append(("Cancel the running comparison", screen.action_cancel, "runs in flight end cancelled"))
            elif screen.group_id is not None:
                commands.append(("Export the comparison report", screen.action_export,
                                 "Markdown, CSV and JSON into the bank's reports folder"))
        if isinstance(screen, ResultsScreen) and len(screen.marked) >= 2:
            commands.append(("Compare the marked runs", screen.action_compare, "side by side"))
        return commands

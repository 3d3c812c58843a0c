"""The case file open in an editor, apart from any screen: the text on disk, whether the
author's text differs from it, this editor's autosave (:mod:`.autosave`) and the changes
other programs make to the file.

The editor screen holds one :class:`CaseFile` and does the showing and the asking; what
is read, written, kept or dropped is decided here, so that a test (or another front end)
can drive a case file without a terminal.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

from medbench_tui.core.authoring import autosave
from medbench_tui.core.files import FileStamp, is_read_only

if TYPE_CHECKING:
    from medbench_tui.core.cases.bank import BankIndex
    from medbench_tui.core.validate import CaseReport


@dataclass(frozen=True)
class Opened:
    """A case file read for editing, its left-behind autosaves settled."""

    path: Path
    on_disk: str
    text: str
    """What the author edits: the file's text, or the unsaved work recovered."""
    settled: list[Path]
    """Autosaves to remove: nothing unsaved in them, or their work was discarded."""
    elsewhere: list[autosave.Autosave]
    """Autosaves of editors that have the case open now (or may: on another machine)."""

    @property
    def unsaved_elsewhere(self) -> bool:
        return any(swap.text is not None and swap.text != self.on_disk for swap in self.elsewhere)


@dataclass(frozen=True)
class Saved:
    """What saving found: the report of the text, and whether it was written (a final case
    with errors is not)."""

    report: CaseReport
    errors: int
    written: bool


@dataclass(frozen=True)
class DiskChange:
    """The file on disk is not what the editor read or wrote: its stamp now (None: removed)
    and its text (None: removed or unreadable)."""

    path: Path
    stamp: FileStamp | None
    text: str | None


class DiskNews(Enum):
    """What a change on disk means for the editor."""

    NONE = "none"
    """Not news: another file, the same content, or a change already told about."""
    RELOAD = "reload"
    """Nothing unsaved here: take the new text."""
    WARN = "warn"
    """Unsaved text here too: say so once; saving will ask."""


class CaseFile:
    """The case file an editor has open (or none) and this editor's autosave of it."""

    def __init__(self, editor: autosave.Editor | None = None) -> None:
        self.editor = editor or autosave.Editor.here()
        """This editor, as its swap files name it (another editor may have the same case open)."""
        self.path: Path | None = None
        self.saved_text = ""
        """The text on disk as this editor last read or wrote it."""
        self.disk: FileStamp | None = None
        """The file as this editor last read or wrote it."""
        self.announced: FileStamp | None = None
        """The change on disk already told about."""
        self.swap_text: str | None = None
        """The unsaved text the autosave holds (None: nothing unsaved in it)."""
        self.swap_failure_said = False
        self.inherited: Path | None = None
        """A recovered autosave of an editor that crashed: removed once this editor's own holds the text."""

    # Opening and closing ------------------------------------------------------------------

    async def open(self, path: Path, recover: Callable[[autosave.Autosave], Awaitable[str]]) -> Opened | None:
        """Read ``path`` and settle the unsaved work crashed editors left beside it, newest first:
        ``recover`` answers ``recover``, ``discard`` or ``cancel`` (None: do not open). One
        recovered, the others are offered next time. OSError or UnicodeDecodeError: unreadable."""
        text = path.read_text(encoding="utf-8")
        others = await asyncio.to_thread(autosave.others_of, path, self.editor)
        left_behind = [swap for swap in others if swap.editor.running() is False]
        settled = [swap.path for swap in left_behind if swap.text is None or swap.text == text]
        buffer = text
        for swap in left_behind:
            if swap.text is None or swap.text == text:
                continue
            answer = await recover(swap)
            if answer == "cancel":
                return None
            if answer == "recover":
                buffer = swap.text
                self.inherited = swap.path
                break
            settled.append(swap.path)
        elsewhere = [swap for swap in others if swap.editor.running() is not False]
        return Opened(path, text, buffer, settled, elsewhere)

    def load(self, path: Path, on_disk: str, text: str) -> None:
        """``path`` is open with ``text`` (``on_disk`` is the file's own text)."""
        self.path = path
        self.disk, self.announced = FileStamp.of(path), None
        self.saved_text = on_disk
        self.swap_text = text if text != on_disk else None

    def close(self) -> None:
        self.path = None
        self.disk = self.announced = None
        self.saved_text = ""

    def read(self) -> str:
        """The file's text now (OSError or UnicodeDecodeError when it cannot be read)."""
        assert self.path is not None
        return self.path.read_text(encoding="utf-8")

    def differs(self, text: str) -> bool:
        """Whether ``text`` is unsaved: a case is open and its file holds other text."""
        return self.path is not None and text != self.saved_text

    # Saving -----------------------------------------------------------------------------------

    @property
    def read_only(self) -> bool:
        """The file may not be replaced (the author saves as a new case instead)."""
        return self.path is not None and is_read_only(self.path)

    def changed_on_disk(self) -> bool:
        """Another program changed the file since this editor read or wrote it (reads it)."""
        return self.path is not None and self.disk is not None and not self.disk.still(self.path)

    def move_to(self, path: Path) -> None:
        """The case is now ``path`` (saved as a new case, or back when that failed)."""
        self.path, self.disk = path, FileStamp.of(path)

    def save(self, text: str, bank: BankIndex | None) -> Saved:
        """Write ``text`` as typed (comments and all), unless the case is final with errors.
        OSError or MedbenchError when it cannot be written."""
        from medbench_tui.core.cases.yamlio import save_case_text
        from medbench_tui.core.diagnostics import count
        from medbench_tui.core.validate import validate_text

        assert self.path is not None
        report = validate_text(text, self.path, bank=bank)
        errors = count(report.diagnostics, "error")
        if errors and _status_of(text, report) == "final":
            return Saved(report, errors, written=False)
        save_case_text(self.path, text)
        self.saved_text = text
        self.disk, self.announced = FileStamp.of(self.path), None
        return Saved(report, errors, written=True)

    # The autosave -------------------------------------------------------------------------------

    @property
    def own_swap(self) -> Path | None:
        """This editor's swap file of the open case."""
        return autosave.swap_path(self.path, self.editor) if self.path is not None else None

    def autosave_due(self, text: str, *, modified: bool) -> bool:
        """Unsaved text the autosave does not hold yet."""
        return self.path is not None and modified and text != self.swap_text

    def write_swap(self, path: Path, text: str | None) -> None:
        """Write this editor's swap file of ``path``: the unsaved text, or None (open here,
        nothing unsaved). OSError when it cannot be written; safe in a worker thread."""
        autosave.write(path, self.editor, text)

    def swap_failed(self, text: str | None) -> bool:
        """Whether to tell the author the autosave failed: once (it keeps trying quietly),
        and only when there is unsaved text to protect (a read-only folder can still be read)."""
        if self.swap_failure_said or text is None:
            return False
        self.swap_failure_said = True
        return True

    def swap_kept(self, path: Path, text: str | None) -> Path | None:
        """This editor's autosave of the open case now holds ``text``; the recovered autosave
        it replaces, to remove (None: none)."""
        self.swap_text = text
        if text is not None:
            self.swap_failure_said = False
        if self.inherited is not None and self.inherited.parent == path.parent:
            inherited, self.inherited = self.inherited, None
            return inherited
        return None

    # Changes made by other programs ---------------------------------------------------------------

    @staticmethod
    def look(path: Path, read: FileStamp) -> DiskChange | None:
        """The change to ``path`` since it was ``read`` (None: none); reads the file."""
        if read.still(path):
            return None
        stamp = FileStamp.of(path)
        try:
            text = path.read_text(encoding="utf-8") if stamp is not None else None
        except (OSError, UnicodeDecodeError):
            text = None
        return DiskChange(path, stamp, text)

    def news(self, change: DiskChange, *, modified: bool) -> DiskNews:
        """What ``change`` means: reload (nothing unsaved here), warn once (unsaved text here),
        or nothing."""
        if change.path != self.path or self.disk is None or change.stamp == self.announced:
            return DiskNews.NONE
        if change.stamp is not None and change.stamp.sha256 == self.disk.sha256:
            return DiskNews.NONE
        if not modified and change.text is not None:
            return DiskNews.RELOAD
        self.announced = change.stamp
        return DiskNews.WARN


def _status_of(text: str, report: CaseReport) -> object:
    """The ``status`` the text declares, also when the case does not validate."""
    if report.case is not None:
        return report.case.status
    from medbench_tui.core.cases.yamlio import parse_case_text

    data = parse_case_text(text).data
    return data.get("status") if isinstance(data, dict) else None

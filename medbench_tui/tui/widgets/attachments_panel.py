"""The attachments the doctor has been given so far: text in full, an image as its
description and the name of its file, and the picture itself where the terminal can draw it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.containers import VerticalScroll
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Static

from medbench_tui.tui.widgets.attachment_image import image_of

if TYPE_CHECKING:
    from medbench_tui.core.cases.attachment_view import AttachmentView

NONE_YET = "Nothing yet. Ask for a result, report or image by name."


class AttachmentsPanel(VerticalScroll):
    DEFAULT_CSS = """
    AttachmentsPanel { height: 1fr; }
    AttachmentsPanel > .attachment { height: auto; padding: 0 1; margin-bottom: 1;
                                     border-top: solid $accent 50%; border-title-color: $accent; }
    AttachmentsPanel > .attachments--none { color: $text-muted; padding: 0 1; }
    AttachmentsPanel > .attachment--image { height: 18; width: 100%; margin-bottom: 1; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.views: list[AttachmentView] = []

    def on_mount(self) -> None:
        self.clear_attachments()

    def _title(self) -> None:
        """The title counts what is shown now (a new case starts again from none)."""
        self.border_title = f"Attachments ({len(self.views)})" if self.views else "Attachments"

    def clear_attachments(self) -> None:
        self.views = []
        self.remove_children()
        self.mount(Static(NONE_YET, classes="attachments--none"))
        self._title()

    def add(self, views: list[AttachmentView]) -> None:
        shown_ids = {v.id for v in self.views}
        views = [v for v in views if v.id not in shown_ids]  # asked for again: it is already here
        if not views:
            return
        if not self.views:
            self.remove_children()
        added: list[Widget] = []
        for view in views:
            self.views.append(view)
            shown = Static(describe_attachment(view), classes="attachment")
            shown.border_title = Content(f"{view.title} ({view.kind.replace('_', ' ')})")
            added.append(shown)
            picture = image_of(view.image_path)
            if picture is not None:
                added.append(picture)
        self.mount_all(added)
        self.call_after_refresh(added[0].scroll_visible, animate=False, top=True)
        self._title()


def describe_attachment(view: AttachmentView) -> Content:
    """What the doctor can read of an attachment: its text or description, and the name of an
    image file (not its folder, which is named after the case and so often the diagnosis)."""
    parts: list[Content] = []
    if view.text:
        parts.append(Content(view.text.rstrip()))
    elif view.description:
        parts.append(Content.assemble(("Description: ", "italic"), view.description.strip()))
    if view.image_path is not None:
        parts.append(Content.assemble(("Image file: ", "italic"), Path(view.image_path).name))
    if view.missing_file:
        parts.append(Content.assemble(("File not found: ", "italic"), Path(view.missing_file).name))
    return Content("\n").join(parts) if parts else Content("(empty)")

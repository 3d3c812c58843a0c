"""The consultation as a chat: the doctor's questions, the patient's replies as they
stream in, and a line for each attachment handed over. Anchored to the bottom."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from medbench_tui.core.comparison.view import prose

if TYPE_CHECKING:
    from medbench_tui.core.cases.attachment_view import AttachmentView

WAITING = "…"


class ChatLog(VerticalScroll):
    DEFAULT_CSS = """
    ChatLog { height: 1fr; padding: 0 1; }
    ChatLog > .bubble { height: auto; padding: 0 1; margin-bottom: 1; border-title-style: bold; }
    ChatLog > .-patient { margin-right: 10; border: round $secondary 70%; border-title-color: $secondary; }
    ChatLog > .-doctor { margin-left: 10; border: round $primary 70%; border-title-color: $primary;
                         border-title-align: right; }
    ChatLog > .-waiting { color: $text-muted; }
    ChatLog > .-attachment { margin: 0 10 1 2; color: $accent; height: auto; }
    ChatLog > .-notice { margin: 0 2 1 2; color: $warning; height: auto; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._reply: Static | None = None
        self._streamed: list[str] = []

    def on_mount(self) -> None:
        self.anchor()

    def clear_log(self) -> None:
        self._reply = None
        self._streamed = []
        self.remove_children()

    def _bubble(self, who: str, text: str, kind: str) -> Static:
        bubble = Static(Content(text.strip()), classes=f"bubble -{kind}")
        bubble.border_title = Content(who)
        self.mount(bubble)
        return bubble

    def add_opening(self, intro: str, attachments: list[AttachmentView]) -> None:
        """The patient's opening words and the attachments the doctor has from the start."""
        self._bubble("Patient", prose(intro), "patient")
        self.add_attachments(attachments)

    def add_question(self, text: str) -> None:
        self._bubble("You", text, "doctor")

    def begin_reply(self) -> None:
        """A reply bubble that waits for the patient's words."""
        self._streamed = []
        self._reply = self._bubble("Patient", WAITING, "patient")
        self._reply.add_class("-waiting")

    def stream(self, text: str) -> None:
        """More of the reply, as the simulator lets it through."""
        if self._reply is None:
            self.begin_reply()
        assert self._reply is not None
        self._streamed.append(text.strip())
        self._reply.remove_class("-waiting")
        self._reply.update(Content(" ".join(self._streamed)))

    def end_reply(self, text: str, attachments: list[AttachmentView]) -> None:
        """The whole reply (it supersedes what was streamed) and what it released."""
        if self._reply is None:
            self.begin_reply()
        assert self._reply is not None
        self._reply.remove_class("-waiting")
        self._reply.update(Content(text.strip()))
        self._reply = None
        self._streamed = []
        self.add_attachments(attachments)

    def drop_reply(self) -> None:
        """The reply will not come (the run ended): remove its waiting bubble."""
        if self._reply is not None:
            self._reply.remove()
            self._reply = None

    def add_attachments(self, attachments: list[AttachmentView]) -> None:
        for view in attachments:
            line = Content.assemble(
                ("Handed over: ", "bold"), view.title, f" ({view.kind.replace('_', ' ')}), in Attachments"
            )
            self.mount(Static(line, classes="-attachment"))

    def add_notice(self, text: str) -> None:
        self.mount(Static(Content(text), classes="-notice"))

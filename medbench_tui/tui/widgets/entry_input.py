"""A box whose every line goes where it was typed, however fast it comes.

Textual's Input submits on Enter through a key binding, which runs once the key has bubbled
up to the app: what was typed or sent right after Enter is in the box by then, so each Enter
of a quick burst submitted all of it ("tonometrygonioscopy", twice). This box submits on the
Enter key itself, in turn with the other keys, and empties itself at once.
"""

from __future__ import annotations

from textual import events
from textual.widgets import Input


class EntryInput(Input):
    async def _on_key(self, event: events.Key) -> None:
        if event.key != "enter":
            await super()._on_key(event)
            return
        event.stop()
        event.prevent_default()
        line, self.value = self.value, ""
        self.post_message(self.Submitted(self, line))

"""The keys of the screen, along its foot: Textual's footer, rebuilt only when they change.

Textual's footer rebuilds all its keys (a widget each, styled anew) whenever the bindings
may have changed: every change of focus, every ``refresh_bindings``, once per call. On
these machines a rebuild costs about 10 ms of the screen's loop, and opening a comparison's
results asked for eleven, most of them showing the same keys. This one looks once per
refresh and rebuilds only when the keys it would show differ.
"""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer

Shown = tuple[tuple[str, str, str, bool, str], ...]


def shown_keys(screen: Screen[object]) -> Shown:
    """What the footer would show for ``screen``: each key, its action and label, whether it
    is enabled, its tooltip."""
    return tuple(
        (binding.key, binding.action, binding.description, enabled, tooltip)
        for _, binding, enabled, tooltip in screen.active_bindings.values()
        if binding.show
    )


class KeyFooter(Footer):
    def __init__(self) -> None:
        super().__init__()
        self._shown: Shown | None = None
        self._due = False

    def bindings_changed(self, screen: Screen[object]) -> None:
        if not screen.app.app_focus or not self.is_attached or screen is not self.screen:
            super().bindings_changed(screen)  # nothing is rebuilt: nothing to remember
            return
        if not self._due:  # every change before the next refresh is looked at once
            self._due = True
            self.call_after_refresh(self._keys_may_have_changed, screen)

    def _keys_may_have_changed(self, screen: Screen[object]) -> None:
        self._due = False
        shown = shown_keys(screen)
        if shown != self._shown:
            self._shown = shown
            super().bindings_changed(screen)

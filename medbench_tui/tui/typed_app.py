"""The app as screens and widgets reach it: typed, so that a renamed attribute fails
the type check rather than the user (``self.app`` is only a ``textual.app.App``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from textual.message_pump import MessagePump
from textual.screen import Screen

if TYPE_CHECKING:
    from medbench_tui.tui.app import MedbenchApp


def medbench_app(node: MessagePump) -> MedbenchApp:
    """The :class:`MedbenchApp` that ``node`` belongs to."""
    return cast("MedbenchApp", node.app)


class MedbenchScreen(Screen[Any]):
    """A screen of the app, with the app typed as :attr:`medbench`."""

    @property
    def medbench(self) -> MedbenchApp:
        return medbench_app(self)

"""An attachment's image drawn in the terminal, where the terminal can show pictures (Sixel or the
kitty graphics protocol, asked once before the TUI starts); elsewhere, in a browser tab and in
tests, the description and the file's name stand in for it (the text fallback)."""

from __future__ import annotations

from pathlib import Path

from textual.widget import Widget
from textual_image import renderable
from textual_image.widget import Image

GRAPHICS: bool = renderable.Image in (renderable.SixelImage, renderable.TGPImage)
"""Whether this terminal shows pictures: colour blocks would draw an ECG's trace illegibly, so
anything less than a graphics protocol gets the text."""


def image_of(path: str | Path | None) -> Widget | None:
    """The picture of the image file at ``path``, or None where it cannot be shown (no graphics,
    no file): the caller shows the text instead."""
    if not GRAPHICS or path is None or not Path(path).is_file():
        return None
    return Image(path, classes="attachment--image")

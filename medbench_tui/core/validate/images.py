"""Is an attachment image a real picture or a placeholder?

A system that takes images is sent the file instead of reading its description, so a
blank or uniform picture (the bank once shipped an 8x8 grey PNG as a chest radiograph)
leaves it nothing to see. The test is deliberately plain: one colour everywhere, or
too small to show a finding.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp"})
# Below this many pixels on a side no clinical finding can be drawn legibly.
MIN_SIDE_PIXELS = 32


def placeholder_reason(path: Path) -> str | None:
    """Why the image at ``path`` is a placeholder (None: it is a real picture, or no image)."""
    if path.suffix.casefold() not in IMAGE_SUFFIXES:
        return None
    try:
        stat = path.stat()
    except OSError:
        stat = None
    if stat is None:
        return _placeholder_reason(path, None)
    return _placeholder_reason(path, (stat.st_mtime_ns, stat.st_size))


@lru_cache(maxsize=256)
def _placeholder_reason(path: Path, version: tuple[int, int] | None) -> str | None:
    """:func:`placeholder_reason` of the file as it is at ``version`` (its modification time and
    size): decoding a 2,000-pixel ECG takes 30 ms, and the library and the editor check the same
    files again on every reload and keystroke."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as image:
            width, height = image.size
            rgb = image if image.mode == "RGB" else image.convert("RGB")  # RGB already: no copy
            colours = rgb.getcolors(maxcolors=1)  # None: more than one colour
    except (UnidentifiedImageError, OSError) as exc:
        return f"it cannot be read as an image ({exc})"
    if min(width, height) < MIN_SIDE_PIXELS:
        return f"it is only {width}x{height} pixels (a finding needs at least {MIN_SIDE_PIXELS} on each side)"
    if colours is not None:
        return "every pixel has the same colour (a blank, uniform picture)"
    return None

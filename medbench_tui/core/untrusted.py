"""Text from outside (a case file, an endpoint's reply or error, a stored run) is made valid
Unicode before it is kept, and visible before a terminal sees it.

Valid: a lone surrogate (JSON may carry ``"\\ud800"``) cannot be encoded as UTF-8, so one
would fail the write of a transcript, a run or a line of output; :func:`valid_text` replaces
each with U+FFFD, and :func:`valid_data` does it through a document.

Visible: a case id, a patient reply or an endpoint's error may hold an escape sequence (an OSC 52
clipboard write, a colour that hides the rest of the line, a bidirectional override that
reorders it). :func:`visible` writes every such character as its escape (``\\x1b``,
``\\u202e``), keeping line breaks and tabs; :class:`VisibleStream` does it to everything a
command prints. Standard library only: the CLI's error path uses it.
"""

from __future__ import annotations

import re
from typing import TextIO

from medbench_tui.core.jsondata import JSONValue

_SURROGATE = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"

_HIDDEN = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f"  # C0 controls but tab and line feed, DEL, C1 controls
    "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"  # bidirectional marks, embeddings, overrides, isolates
    "\ud800-\udfff]"  # lone surrogates: no terminal can print them
)


def valid_text(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD: encodable as UTF-8."""
    return _SURROGATE.sub(REPLACEMENT, text) if _SURROGATE.search(text) else text


def has_surrogate(text: str) -> bool:
    """Whether ``text`` holds a lone surrogate (it cannot be written as UTF-8)."""
    return _SURROGATE.search(text) is not None


def valid_data(value: JSONValue) -> JSONValue:
    """A document (mappings, lists, texts) with :func:`valid_text` applied to every text."""
    if isinstance(value, str):
        return valid_text(value)
    if isinstance(value, dict):
        return {valid_data(k): valid_data(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [valid_data(v) for v in value]
    return value


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` with every control character (but line feed and tab), every bidirectional
    control and every lone surrogate written out as its escape: ``\\x1b]52;...``."""
    return _HIDDEN.sub(_escape, text) if _HIDDEN.search(text) else text


def json_visible(text: str) -> str:
    """JSON text with those characters written as JSON escapes (``\\u001b``): still the same
    JSON, and safe to print (they can only stand inside its strings)."""
    return _HIDDEN.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def has_hidden(text: str) -> bool:
    """Whether :func:`visible` would change ``text``."""
    return _HIDDEN.search(text) is not None


class VisibleStream:
    """A text stream that writes what it is given through :func:`visible` (a command's
    stdout and stderr): no text a command prints can move the cursor, set the title or write
    the clipboard. Styled output (a progress bar) writes to :attr:`raw` instead."""

    def __init__(self, raw: TextIO) -> None:
        self.raw = raw

    def write(self, text: str) -> int:
        self.raw.write(visible(text))
        return len(text)

    def writelines(self, lines: list[str]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        self.raw.flush()

    def isatty(self) -> bool:
        return self.raw.isatty()

    def fileno(self) -> int:
        return self.raw.fileno()

    def __getattr__(self, name: str) -> object:
        return getattr(self.raw, name)

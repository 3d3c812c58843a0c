"""A class served in a browser: which modes the students see, which cases they may play,
and the name each student gives (stored as the player of their runs).

The tutor chooses with ``medbench serve``; every browser tab is its own app process, so the
name lives with that session and is never written to the machine's settings file.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from pathlib import Path

PLAY_ONLY = ("play",)
EVERY_MODE = ("library", "editor", "play", "compare", "results", "review")
NAME_LIMIT = 60


@dataclass(frozen=True)
class Classroom:
    """What a served session may do."""

    modes: tuple[str, ...] = PLAY_ONLY
    cases: frozenset[Path] | None = None
    """The case files students may play (resolved paths); None: every case of the bank."""

    def allows_mode(self, mode: str) -> bool:
        return mode in self.modes

    def allows_case(self, path: Path) -> bool:
        return self.cases is None or Path(path).resolve() in self.cases

    @property
    def first_mode(self) -> str:
        return "play" if "play" in self.modes else self.modes[0]


def name_problem(name: str) -> str | None:
    """What is wrong with a student's name, or None: it names their runs in the tutor's reports."""
    name = name.strip()
    if not name:
        return "Type your name: your runs are stored under it."
    if len(name) > NAME_LIMIT:
        return f"At most {NAME_LIMIT} characters."
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs") for ch in name):
        return "Letters, digits, spaces and punctuation only."
    return None

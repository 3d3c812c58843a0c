"""Open the TUI on a case bank: the one given, the current folder if it is one, else the bundled cases."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from medbench_tui.core.practice.classroom import Classroom


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bank", default=argparse.SUPPRESS, help="case bank folder")
    parser.add_argument("--classroom", choices=("play", "all"),
                        help="a session of a served class (see `medbench serve`): ask the student's name, show "
                             "only Play or every mode")
    parser.add_argument("--classroom-case", action="append", metavar="CASE_FILE",
                        help="with --classroom: a case file students may play (repeat; default: every case)")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from medbench_tui.core.errors import UsageError
    from medbench_tui.core.paths import bank_root, default_bank

    bank = getattr(args, "bank", None)
    if bank is not None:
        path = Path(bank).expanduser()
        if not path.is_dir():
            raise UsageError(f"--bank {bank}: no such folder; give the folder that holds your cases")
        path = bank_root(path)
    else:
        path = default_bank()
    from medbench_tui.tui.app import run_app

    return run_app(path, _classroom(args))


def _classroom(args: argparse.Namespace) -> Classroom | None:
    """The served class this session belongs to, or None."""
    if args.classroom is None:
        if args.classroom_case:
            from medbench_tui.core.errors import UsageError

            raise UsageError("--classroom-case needs --classroom")
        return None
    from pathlib import Path

    from medbench_tui.core.practice.classroom import EVERY_MODE, PLAY_ONLY, Classroom

    cases = frozenset(Path(c).resolve() for c in args.classroom_case) if args.classroom_case else None
    return Classroom(PLAY_ONLY if args.classroom == "play" else EVERY_MODE, cases)

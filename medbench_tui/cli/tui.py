"""Open the TUI on a case bank: the one given, the current folder if it is one, else the bundled cases."""

from __future__ import annotations

import argparse


def configure(parser) -> None:
    parser.add_argument("--bank", default=argparse.SUPPRESS, help="case bank folder")


def run(args) -> int:
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

    return run_app(path)

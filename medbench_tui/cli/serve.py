"""Serve medbench to a room of students in their browsers: each browser tab is its own
session, a student gives their name on first open (their runs are stored under it), and
every session writes to the bank's one run store (the ``run_store`` setting, else the
bank's own), where the tutor's Results and `medbench report` read them.

By default students see only Play, over every case of the bank; `--modes all` shows every
mode, `--cases` offers only the cases named. The server listens on this machine only
(127.0.0.1) unless `--host` says otherwise: there is no password, so give `--host 0.0.0.0`
only on a network you trust.

  medbench serve --bank teaching-bank --cases cases/im-cap-001.yaml cases/em-pe-001.yaml
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

    from medbench_tui.core.cases.bank import Bank

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bank", default=argparse.SUPPRESS,
                        help="case bank folder (default: the current folder if it is a bank, else the bundled cases)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    parser.add_argument("--modes", choices=("play", "all"), default="play",
                        help="what students see: only Play (default) or every mode")
    parser.add_argument("--cases", nargs="+", metavar="CASE", help="case files or ids students may play (default: all)")
    parser.add_argument("--title", default="medbench", help="the browser tab's title")


def run(args: argparse.Namespace) -> int:
    import shlex
    import sys

    from medbench_tui.cli._output import say
    from medbench_tui.core.cases.bank import load_bank
    from medbench_tui.core.errors import UsageError

    # places: sessions read medbench.yaml; the store: the one each session resolves from the settings
    served = load_bank(_bank(getattr(args, "bank", None)), run_store=_run_store_setting(), strict=False)
    bank = served.root
    cases = [_case(served, given) for given in args.cases or []]
    store = _writable_store(served)
    if not 1 <= args.port <= 65535:
        raise UsageError(f"--port {args.port}: give a port between 1 and 65535")
    _free(args.host, args.port)
    command = [sys.executable, "-m", "medbench_tui", "tui", "--bank", str(bank), "--classroom", args.modes]
    for case in cases:
        command += ["--classroom-case", str(case)]
    shown = "only Play" if args.modes == "play" else "every mode"
    offered = f"{len(cases)} chosen case{'s' if len(cases) != 1 else ''}" if cases else "every case of the bank"
    say(f"Serving {bank} to a class: students see {shown}, over {offered}.")
    say(f"Open http://{_url_host(args.host)}:{args.port} in a browser (one tab per student).")
    say(f"Runs are stored in {store}: read them in Results, or with `medbench report --bank {bank}`.")
    if args.host not in LOOPBACK:
        say(f"Warning: listening on {args.host}: anyone who can reach this machine on port {args.port} can use "
            "it; there is no password.")
    say("Ctrl+C stops the server.")
    from textual_serve.server import Server

    Server(shlex.join(command), host=args.host, port=args.port, title=args.title).serve()
    return 0


def _bank(given: str | None) -> Path:
    from pathlib import Path

    from medbench_tui.core.errors import UsageError
    from medbench_tui.core.paths import bank_root, default_bank

    if given is None:
        return default_bank()
    path = Path(given).expanduser()
    if not path.is_dir():
        raise UsageError(f"--bank {given}: no such folder; give the folder that holds your cases")
    return bank_root(path).resolve()


def _run_store_setting() -> Path | None:
    """The ``run_store`` setting, as each session reads it. A settings file that cannot be read
    is refused now (:class:`SettingsError`): every session would open with its problem, on the
    default store."""
    from medbench_tui.core.settings import load_settings

    return load_settings().run_store


def _case(bank: Bank, given: str) -> Path:
    from pathlib import Path

    from medbench_tui.core.cases.bank import consultation_files
    from medbench_tui.core.errors import UsageError

    path = Path(given).expanduser()
    if path.is_file():
        return path.resolve()
    for candidate in consultation_files(bank.cases_folder):
        if candidate.stem == given:
            return candidate.resolve()
    raise UsageError(f"--cases {given}: no such case file, and no case with that id in {bank.root}")


def _writable_store(bank: Bank) -> Path:
    """The sessions' run store, opened once: a class whose runs cannot be stored is refused now."""
    from medbench_tui.core.errors import MedbenchError, UsageError
    from medbench_tui.core.runs.store import RunStore

    path = bank.run_store
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with RunStore(path) as store:
            store.check_writable()
    except (OSError, MedbenchError) as exc:
        raise UsageError(f"cannot store runs in {path} ({exc}): serve a copy of the bank in a folder you can "
                         "write to, or set run_store in the settings") from None
    return path


def _free(host: str, port: int) -> None:
    import socket

    from medbench_tui.core.errors import UsageError

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise UsageError(f"cannot listen on {host}:{port} ({exc.strerror or exc}): choose another --port") from None


def _url_host(host: str) -> str:
    return "127.0.0.1" if host in ("0.0.0.0", "::") else f"[{host}]" if ":" in host else host

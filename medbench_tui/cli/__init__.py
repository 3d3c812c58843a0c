"""The ``medbench`` command line.

Each sub-command lives in its own module with ``configure(parser)`` and
``run(args) -> int``. Modules import only the standard library at top level and load
the core inside ``run``, so ``medbench --help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

# name -> (module, one-line help); the order is the order of `medbench --help`.
COMMANDS: dict[str, tuple[str, str]] = {
    "tui": ("tui", "open the TUI (the default without a sub-command)"),
    "validate": ("validate", "validate case files or folders"),
    "icd": ("icd", "WHO ICD-10 2019 look-up and title search"),
    "play": ("play", "a consultation at the plain terminal"),
    "score": ("score", "score a recorded transcript against a case"),
    "run": ("run", "run systems over cases and store every run"),
    "report": ("report", "aggregate and paired comparison of stored runs"),
    "systems": ("systems", "the configured systems and simulators, and whether each can run"),
    "serve": ("serve", "serve medbench to a class in their browsers"),
    "schema": ("schema", "print the JSON Schema of the case format"),
    "ecg": ("ecg", "draw a synthetic 12-lead ECG for a case attachment"),
    "prices": ("prices", "check the price table work-ups are costed with, price a test"),
    "vocabulary": ("vocabulary", "check the clinical vocabulary files, look a word up"),
    "rehearse": ("rehearse", "standard history questions to a case's patient; what nothing reaches"),
    "freeze": ("freeze", "pin every case and attachment of a bank in bank-manifest.json"),
    "agreement": ("agreement", "evaluator-physician agreement: adjudication records, or rubric labels"),
    "adjudication": ("adjudication", "adjudication records in and out as JSONL"),
    "import": ("import_", "import a published rubric benchmark as rubric cases"),
}


def build_parser() -> argparse.ArgumentParser:
    from medbench_tui import __version__

    parser = argparse.ArgumentParser(
        prog="medbench",
        description="Clinical consultation benchmarks: author cases, practise, compare systems.",
    )
    parser.add_argument("--version", action="version", version=f"medbench {__version__}")
    parser.add_argument("--bank", help="case bank folder for the TUI (default: current folder, else the bundled cases)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in COMMANDS.items():
        module = importlib.import_module(f"medbench_tui.cli.{module_name}")
        child = sub.add_parser(name, help=help_text, description=(module.__doc__ or help_text).strip())
        module.configure(child)
        child.set_defaults(_module=module)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command. Everything it prints passes :class:`VisibleStream`: no text from a
    case or an endpoint can drive the terminal (the TUI draws its own screen)."""
    from medbench_tui.core.untrusted import VisibleStream

    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = VisibleStream(out), VisibleStream(err)
    try:
        given = sys.argv[1:] if argv is None else argv
        problem = next((why for word in given if (why := _unusable(word))), None)
        if problem:
            print(f"medbench: error: an argument holds {problem}: remove it", file=sys.stderr)
            return 2
        parser = build_parser()
        args = parser.parse_args(argv)
        if args.command is None:
            args = parser.parse_args(["tui", *(sys.argv[1:] if argv is None else argv)])
        if args.command == "tui":  # the screen writes its own escape sequences
            sys.stdout, sys.stderr = out, err
        return _run(args)
    finally:
        sys.stdout, sys.stderr = out, err


def _unusable(word: str) -> str | None:
    """What in an argument no path or name can hold (a NUL, a lone surrogate that is not an
    undecodable byte): the system refuses them, so they are refused here, once, for every command."""
    if "\x00" in word:
        return "a NUL character (\\x00)"
    try:
        os.fsencode(word)
    except UnicodeEncodeError:
        return "a character no file name can hold (a lone surrogate)"
    return None


def _run(args: argparse.Namespace) -> int:
    from medbench_tui.core.errors import MedbenchError
    from medbench_tui.core.redact import redact

    try:
        return int(args._module.run(args) or 0)
    except MedbenchError as exc:
        print(redact(f"medbench: error: {exc}"), file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("medbench: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:  # a path the system refuses (too long, not allowed, a full disk): the user's to fix
        print(redact(f"medbench: error: {_os_problem(exc)}"), file=sys.stderr)
        return 1
    except Exception as exc:  # a bug of ours: say so plainly, keep the trace for debugging
        if os.environ.get("MEDBENCH_DEBUG"):
            raise
        print(
            redact(f"medbench: internal error: {type(exc).__name__}: {exc}\n"
                   "  This is a bug in medbench; set MEDBENCH_DEBUG=1 to see the traceback."),
            file=sys.stderr,
        )
        return 1


def _os_problem(exc: OSError) -> str:
    """What the system refused, with the file named (a long name shortened)."""
    reason = exc.strerror or str(exc)
    if exc.filename is None:
        return reason
    name = str(exc.filename)
    return f"{name if len(name) <= 200 else name[:200] + '…'}: {reason}"

"""Shared output helpers: JSON on stdout and nothing else; messages on stderr."""

from __future__ import annotations

import argparse
import json
import sys

from medbench_tui.core.jsondata import JSONValue

FORMATS_TEXT_JSON = ("text", "json")


def name_text(value: str) -> str:
    """An argparse ``type`` for a name or label (a run group, a rater, a freeze label): bytes
    that are not UTF-8 (a shell passes them as lone surrogates) can name nothing stored and
    cannot be written, so they are a usage error here rather than a failure deep down."""
    import argparse

    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        shown = value.encode("utf-8", "backslashreplace").decode()
        raise argparse.ArgumentTypeError(f"'{shown}' holds bytes that are not UTF-8 text: type it again") from None
    return value


def add_format(parser: argparse.ArgumentParser, choices: tuple[str, ...] = FORMATS_TEXT_JSON) -> None:
    parser.add_argument("--format", choices=choices, default="text", help="output format (default: text)")


def emit_json(document: JSONValue) -> None:
    """The document on stdout, secrets redacted in every text (numbers untouched, so it stays
    the same JSON) and control characters written as JSON escapes."""
    from medbench_tui.core.redact import redact_data
    from medbench_tui.core.untrusted import json_visible

    sys.stdout.write(json_visible(json.dumps(redact_data(document), indent=2, ensure_ascii=False)) + "\n")


def say(message: str) -> None:
    """A human message: always stderr, so JSON on stdout stays clean."""
    print(message, file=sys.stderr)

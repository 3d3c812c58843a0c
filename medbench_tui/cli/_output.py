"""Shared output helpers: JSON on stdout and nothing else; messages on stderr."""

from __future__ import annotations

import json
import sys
from typing import Any

FORMATS_TEXT_JSON = ("text", "json")


def add_format(parser, choices=FORMATS_TEXT_JSON) -> None:
    parser.add_argument("--format", choices=choices, default="text", help="output format (default: text)")


def emit_json(document: Any) -> None:
    from medbench_tui.core.redact import redact

    sys.stdout.write(redact(json.dumps(document, indent=2, ensure_ascii=False)) + "\n")


def say(message: str) -> None:
    """A human message: always stderr, so JSON on stdout stays clean."""
    print(message, file=sys.stderr)

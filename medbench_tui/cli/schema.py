"""Print the JSON Schema of the case format (version 1).

Editors validate cases with it: in VS Code (yaml-language-server) start a case with
`# yaml-language-server: $schema=<path or URL of case.schema.json>`.
"""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser) -> None:
    pass


def run(args: argparse.Namespace) -> int:
    from medbench_tui.cli._output import emit_json
    from medbench_tui.core.validate import case_json_schema

    emit_json(case_json_schema())
    return 0

"""Not built yet."""

from __future__ import annotations


def configure(parser) -> None:
    pass


def run(args) -> int:
    from medbench_tui.core.errors import MedbenchError

    raise MedbenchError("'medbench run' is not available yet")

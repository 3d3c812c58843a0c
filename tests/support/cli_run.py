"""`medbench ...` run in the test's own process, with the streams a user's pipes give it.

A child process costs a second of CPU, nearly all of it imports; what a test of the command's
output checks is the same in process. The streams are real text streams over bytes, as a pipe's
are: stdout encodes strictly to UTF-8 (``PYTHONIOENCODING=utf-8``: a lone surrogate cannot be
written), stderr with backslash escapes, as Python's own. What only a real process shows (the
installed entry point, stdin decoding by the locale) keeps a subprocess test of its own.
"""

from __future__ import annotations

import io
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest


def run_medbench(*args: str, stdin: str | bytes = "", env: Mapping[str, str] | None = None,
                 cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The command's status and its output (decoded, undecodable bytes replaced), as
    ``subprocess.run([sys.executable, "-m", "medbench_tui", *args], ...)`` would give them;
    the environment, folder and streams are the test's own again afterwards."""
    from medbench_tui.cli import main

    given = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    out, err = io.BytesIO(), io.BytesIO()
    stdout = io.TextIOWrapper(out, encoding="utf-8", errors="strict", write_through=True)
    stderr = io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace", write_through=True)
    with pytest.MonkeyPatch.context() as patch:
        for name, value in (env or {}).items():
            patch.setenv(name, value)
        if cwd is not None:
            patch.chdir(cwd)
        patch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(given), encoding="utf-8"))
        patch.setattr(sys, "stdout", stdout)
        patch.setattr(sys, "stderr", stderr)
        try:
            code = main(list(args))
        except SystemExit as exit_:  # argparse's usage errors
            code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    return subprocess.CompletedProcess(list(args), code, out.getvalue().decode("utf-8", "replace"),
                                       err.getvalue().decode("utf-8", "replace"))

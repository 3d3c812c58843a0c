"""The benchmark scripts keep working as the code under them moves.

They are run by hand, so nothing else would notice a name that moved, a step whose
signature changed or a generated bank that validation has come to reject. Each runs here
in its quick mode (``--quick``: a few cases, one round), and CI also type-checks them
(``.ci/run``).
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from medbench_tui.core.validate import validate_paths

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
SCRIPTS = sorted(BENCHMARKS.glob("*.py"))
OURS = ("medbench_tui", "tests")
RUN_ELSEWHERE = {
    # its quick mode takes a minute: a smaller run is a test of its own, below
    "fuzz_faults.py": "test_the_fuzz_and_fault_benchmark_finds_nothing_in_a_small_run",
}


def _load(script: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(script.stem, script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses and spawned processes look their module up
    spec.loader.exec_module(module)
    return module


def _imports(script: Path) -> list[tuple[str, str]]:
    """(module, name) of every ``from medbench_tui... import name`` in the script, lazy ones included."""
    tree = ast.parse(script.read_text(encoding="utf-8"))
    return [
        (node.module, alias.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in OURS
        for alias in node.names
    ]


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.name for s in SCRIPTS])
def test_every_name_a_benchmark_imports_exists(script):
    missing = [
        f"{module}.{name}" for module, name in _imports(script)
        if not hasattr(importlib.import_module(module), name) and importlib.util.find_spec(f"{module}.{name}") is None
    ]
    assert not missing, f"{script.name} imports names that are gone: {missing}"


QUICK = [s for s in SCRIPTS if s.name not in RUN_ELSEWHERE]


@pytest.mark.parametrize("script", QUICK, ids=[s.name for s in QUICK])
def test_every_benchmark_runs_in_its_quick_mode(script, capsys):
    """Its quick mode end to end, printing its figures, in seconds (a missed target, status 1, is a
    figure: what fails here is a script that no longer runs)."""
    assert "--quick" in script.read_text(encoding="utf-8")
    status = _load(script).main(["--quick"])
    out = capsys.readouterr().out
    assert status in (None, 0, 1), out
    assert out.strip(), f"{script.name} --quick printed nothing"


def test_a_benchmark_not_run_in_its_quick_mode_is_run_by_a_named_test():
    tests = {name for name in globals() if name.startswith("test_")}
    assert set(RUN_ELSEWHERE.values()) <= tests
    assert set(RUN_ELSEWHERE) <= {s.name for s in SCRIPTS}


def test_the_generated_bank_is_valid(tmp_path):
    spec = importlib.util.spec_from_file_location("make_bank", BENCHMARKS / "make_bank.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    bank = module.make_bank(tmp_path / "bank", 3)
    problems = [d.message for report in validate_paths([bank / "cases"]) for d in report.diagnostics]
    assert problems == []


def test_the_fuzz_and_fault_benchmark_finds_nothing_in_a_small_run(tmp_path, monkeypatch):
    """A few dozen bad inputs and endpoint faults: no internal error, no secret shown, no run lost
    (the benchmark itself throws thousands: ``python benchmarks/fuzz_faults.py``)."""
    import random

    spec = importlib.util.spec_from_file_location("fuzz_faults", BENCHMARKS / "fuzz_faults.py")
    assert spec is not None and spec.loader is not None
    fuzz = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fuzz)
    monkeypatch.setenv("OPENAI_API_KEY", "placeholder")  # restored after the benchmark plants its own
    tally = fuzz.Tally()
    fuzz.bad_inputs(30, random.Random(3), tmp_path, tally)
    planned, recorded, served = fuzz.endpoint_faults(6, 3, tmp_path, tally)
    assert served >= 6
    assert tally.internal == [] and tally.secrets == []
    assert recorded >= planned > 0

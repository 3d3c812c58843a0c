"""The benchmark scripts keep working as the code under them moves.

They are run by hand, so nothing else would notice a name that moved or a generated
bank that validation has come to reject. CI also type-checks them (``.ci/run``).
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
from pathlib import Path

import pytest

from medbench_tui.core.validate import validate_paths

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
SCRIPTS = sorted(BENCHMARKS.glob("*.py"))
OURS = ("medbench_tui", "tests")


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

"""The labelled consultations of ``tests/data/questions/consultations/`` played by
``benchmarks/patient_fidelity.py``: the figures may not fall below what the patient
reaches now (targets and figures: the benchmark and the report)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _benchmark():
    spec = importlib.util.spec_from_file_location("patient_fidelity", REPO / "benchmarks" / "patient_fidelity.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_development_set_is_large_enough():
    from ruamel.yaml import YAML

    files = sorted((REPO / "tests" / "data" / "questions" / "consultations").glob("*.yaml"))
    assert len(files) >= 12
    for path in files:
        turns = YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))["turns"]
        assert len(turns) >= 25, path.name
        assert sum(1 for t in turns if "uncovered" in (t.get("tags") or [])) >= 5, path.name


def test_the_patient_converses_faithfully():
    bench = _benchmark()
    _, total = bench.run(sorted(bench.CONSULTATIONS.glob("*.yaml")))
    figures = total.figures() + "\n" + "\n".join(total.misses)
    assert total.facts_given >= 0.97 * total.facts, figures
    assert total.false_denials == 0 and total.leaks == 0 and total.cut_short == 0, figures
    assert total.asked_ok >= 0.97 * total.asked and total.unasked == 0, figures
    assert total.unrequested <= 0.02 * total.replies, figures
    assert total.defaults_ok >= 0.95 * total.defaults, figures

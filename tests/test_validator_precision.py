"""The validator's precision on correct cases written outside the bundled bank, and its recall on
a labelled broken set (``benchmarks/validator_precision.py``): the targets it reaches stay reached."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARK = Path(__file__).resolve().parent.parent / "benchmarks" / "validator_precision.py"


@pytest.fixture(scope="module")
def benchmark() -> ModuleType:
    spec = importlib.util.spec_from_file_location("validator_precision", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_correct_cases_get_at_most_one_warning_per_five_and_none_absurd(benchmark, capsys):
    figures = benchmark.run(benchmark.CORRECT, None, quick=True, show=True)
    shown = capsys.readouterr().out
    assert figures["cases"] >= 30
    assert figures["per5"] <= benchmark.FALSE_PER_5_TARGET, shown
    assert figures["absurd"] == 0, shown


CAUGHT_REACHED = 20
"""Defects of the broken set caught now (of 23; 12 at its first run). The target is every one:
the two record contradictions (an attachment against a fact) and the lay-name leak are not caught yet."""


def test_the_labelled_defects_caught_stay_caught(benchmark, capsys):
    figures = benchmark.run([], benchmark.BROKEN, quick=True, show=True)
    assert figures["labelled"] == 23
    assert figures["caught"] >= CAUGHT_REACHED, capsys.readouterr().out


def test_an_absurd_suggestion_is_recognised(benchmark):
    from medbench_tui.core.diagnostics import Diagnostic

    absurd = Diagnostic(severity="warning", code="icd10.title_mismatch", message=(
        "R79.8 is 'Other specified abnormal findings of blood chemistry' in WHO ICD-10 2019, which does not "
        "look like 'Spurious hyperkalaemia': is this the right code? WHO codes for it: T80.3 'ABO "
        "incompatibility reaction'."))
    assert benchmark.absurd(absurd)
    fair = absurd.model_copy(update={"message": absurd.message.replace("T80.3 'ABO incompatibility reaction'",
                                                                       "E87.5 'Hyperkalaemia'")})
    assert benchmark.absurd(fair) is None

"""Synthetic 12-lead ECGs for attachments: the leads agree as real ones do, each rhythm shows
its finding where a clinician looks for it, and the picture is a real image (never a
placeholder) that says it is synthetic."""

from __future__ import annotations

import numpy as np
import pytest

from medbench_tui.cli import main
from medbench_tui.core.authoring.ecg import SAMPLE_RATE, simulate
from medbench_tui.core.validate.images import placeholder_reason


def _st(ecg, lead: str, after_qrs: float = 0.12) -> float:
    """Mean ST level (mV) just after the QRS of every beat, from the R peaks of lead II."""
    trace, ii = ecg.leads[lead], ecg.leads["II"]
    peaks = [i for i in range(1, ii.size - 1) if ii[i] > 0.5 and ii[i] >= ii[i - 1] and ii[i] > ii[i + 1]]
    at = [p + int(after_qrs * SAMPLE_RATE) for p in peaks if p + int(after_qrs * SAMPLE_RATE) < ii.size]
    return float(np.mean(trace[at]))


def test_the_leads_agree_as_einthoven_says():
    ecg = simulate("sinus", seed=2)
    assert np.allclose(ecg.leads["II"], ecg.leads["I"] + ecg.leads["III"])
    assert np.allclose(ecg.leads["aVR"] + ecg.leads["aVL"] + ecg.leads["aVF"], 0, atol=1e-9)


def test_an_inferior_stemi_raises_st_in_ii_iii_avf_and_depresses_it_in_avl():
    ecg = simulate("inferior-stemi", seed=3)
    for lead in ("II", "III", "aVF"):
        assert _st(ecg, lead) > 0.1, lead
    assert _st(ecg, "aVL") < -0.08
    normal = simulate("sinus", seed=3)
    assert abs(_st(normal, "III")) < 0.08


def test_atrial_fibrillation_is_irregularly_irregular():
    def rr(rhythm: str) -> float:
        ii = simulate(rhythm, seed=4).leads["II"]
        peaks = np.array([i for i in range(1, ii.size - 1) if ii[i] > 0.5 and ii[i] >= ii[i - 1] and ii[i] > ii[i + 1]])
        intervals = np.diff(peaks) / SAMPLE_RATE
        return float(np.std(intervals) / np.mean(intervals))

    assert rr("atrial-fibrillation") > 0.12 > 0.03 > rr("sinus")


def test_the_same_rhythm_rate_and_seed_draw_the_same_picture(tmp_path):
    first, second = tmp_path / "a.png", tmp_path / "b.png"
    assert main(["ecg", "complete-heart-block", str(first), "--seed", "5"]) == 0
    assert main(["ecg", "complete-heart-block", str(second), "--seed", "5"]) == 0
    assert first.read_bytes() == second.read_bytes()
    assert placeholder_reason(first) is None


@pytest.mark.parametrize("args", [["sinus", "x.jpg"], ["sinus", "x.png", "--rate", "400"]])
def test_bad_requests_say_what_to_change(tmp_path, args, capsys):
    args[1] = str(tmp_path / args[1])
    assert main(["ecg", *args]) == 2
    assert "medbench: error:" in capsys.readouterr().err

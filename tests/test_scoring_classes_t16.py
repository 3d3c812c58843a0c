"""Terse answers whose safety verdicts the grader lost (product issue 32): the ways terse clinicians write
an action, each in wording of its own, with the wrong plans that must still fail."""

from __future__ import annotations

import pytest

from tests.test_scoring_regressions import card, condition


@pytest.mark.parametrize(("plan", "netted"), [
    ("SN: drooling, stridor or can't swallow -> ED", True),
    ("SN given re stridor", True),
    ("999 if drooling, stridor or unable to swallow", True),
    ("999 ambulance to ED now", False),
    ("SNOMED coded", False),
])
def test_a_safety_net_written_short_is_safety_netting(plan: str, netted: bool):
    """"SN" is safety-netting written short, and an emergency number with its condition right after it ("999 if
    ...") a safety net with its verb left out; an emergency number sent now is no safety net."""
    c = card("im-sore-throat-001", f"Viral pharyngitis, Centor 1.\n- paracetamol, fluids\n- {plan}\n")
    assert (condition(c, "cc-safety-net") == "OK") is netted, plan

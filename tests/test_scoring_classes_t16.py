"""Terse answers whose safety verdicts the grader lost (product issue 32): the ways terse clinicians write
an action, each in wording of its own, with the wrong plans that must still fail."""

from __future__ import annotations

import pytest

from medbench_tui.core.scoring.document import document
from medbench_tui.core.text import normalise
from medbench_tui.core.vocabulary.reading import read_action
from tests.test_scoring_regressions import card, condition, rows


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


@pytest.mark.parametrize(("plan", "referred"), [
    ("General surgeons now", True),
    ("Surgeons today", True),
    ("General surgeons next week", False),
    ("General surgery clinic next week", False),
])
def test_a_team_named_with_its_time_is_the_team_contacted(plan: str, referred: bool):
    """A terse plan's line that names a team and when, nothing else ("Cardiology today"), is the team contacted
    then, as "cardiology to see today" is; its time must still meet the item's."""
    c = card("sur-appendicitis-001", f"Acute appendicitis.\n- NBM, IV fluids, analgesia\n- {plan}\n")
    assert (condition(c, "cc-surgical-referral") == "OK") is referred, plan


def test_ct_surgeons_are_the_cardiothoracic_team_and_a_ct_scan_is_not():
    assert {t.name for t in read_action("CT surgeons now").teams} == {"cardiothoracic surgery"}
    assert not read_action("CT chest then surgery").teams


def test_an_arrow_before_a_word_parts_two_actions_and_between_numbers_does_not():
    """"Surgeons today -> lap appy": two actions, the referral's time its own; "trop 16->17" one result."""
    c = card("sur-appendicitis-001", "Acute appendicitis.\n- NBM, IV fluids\n- Surgeons today -> lap appy\n")
    assert condition(c, "cc-surgical-referral") == "OK"
    assert len(document("Surgeons today -> lap appendicectomy").pieces()) == 2
    assert len(document("Surgeons today \u2192 lap appendicectomy").pieces()) == 2
    assert len(document("trop 16->17").pieces()) == 1


@pytest.mark.parametrize(("short", "written_out"), [
    ("activate MOH protocol", "activate major obstetric haemorrhage call"),
    ("cavernosal blood gas", "corpora blood gas"),
    ("aspirate corpus cavernosum", "aspirate corpora"),
])
def test_clinical_shorthand_reads_as_its_words(short: str, written_out: str):
    """Shorthand of terse plans read as the words it stands for: a major obstetric haemorrhage call, the erectile
    bodies by their adjectives and Latin names."""
    assert normalise(short) == normalise(written_out)


def test_moh_alone_stays_ambiguous():
    """"MOH" alone is also medication overuse headache: only the call, protocol or alert is the haemorrhage call."""
    assert normalise("MOH") != normalise("major obstetric haemorrhage")


@pytest.mark.parametrize(("plan", "told"), [
    ("Explained: not a stroke, settles in weeks", True),
    ("Told pt: benign inner ear problem", True),
    ("Explained: may be a stroke, needs MRI", False),
    ("Reassuring Dix-Hallpike", False),
])
def test_points_under_a_heading_of_telling_are_what_was_told(plan: str, told: bool):
    """The verb of a heading of telling ("Explained:", "Told pt:") is each listed point's, so a point that says what
    an explanation item tells ("not a stroke") is that item; "reassuring" describes a finding."""
    c = card("im-vertigo-001", f"BPPV, R posterior canal.\n- Epley manoeuvre\n- {plan}\n")
    assert ("Explanation and reassurance about BPPV" in rows(c, "treatment")) is told, plan


@pytest.mark.parametrize("plan", ["Reassured: simple faint", "reassured him it was a simple faint"])
def test_reassured_is_reassurance(plan: str):
    c = card("em-syncope-001", f"Vasovagal syncope.\n- ECG normal\n- {plan}\n")
    assert "Explanation and reassurance that this was a vasovagal (reflex) faint" in rows(c, "treatment"), plan


@pytest.mark.parametrize(("line", "examined"), [
    ("Spec: cx friable, mucopurulent discharge.", True),
    ("Speculum: cx friable, mucopurulent discharge.", True),
    ("Spec: not done.", False),
    ("Spe: cx friable.", False),
])
def test_a_clipped_heading_of_an_examination_heads_its_findings(line: str, examined: bool):
    """"Spec: cx friable" is the speculum examination done and its result: a one-word heading clipped from the
    examination's word (four letters or more) heads its findings as the whole word does."""
    c = card("obg-pid-001", f"PID.\n{line}\n- ceftriaxone 1 g IM, doxycycline, metronidazole\n")
    assert ("Speculum and bimanual examination" in rows(c, "workup")) is examined, line

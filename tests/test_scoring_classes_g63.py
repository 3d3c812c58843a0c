"""Grader classes of set X (g63, product issue 32): differentials written as new authors write them, each tested on
wording of its own on other topics."""

from __future__ import annotations

import pytest

from medbench_tui.core.scoring import score
from medbench_tui.core.scoring.reference import _diagnosis_name_forms
from medbench_tui.core.text import tokenize
from medbench_tui.core.transcript import FinalResponse, Transcript
from tests.test_scoring_regressions import case, rows


def norms(text: str) -> list[str]:
    return [t.norm for t in tokenize(text)]


def with_differential(case_id: str, name: str, aliases: list[str] | None = None):
    """A bundled case whose first differential is renamed (no aliases unless given): the name alone must carry it."""
    c = case(case_id)
    first = c.differential[0].model_copy(update={"name": name, "aliases": aliases or []})
    return c.model_copy(update={"differential": [first, *c.differential[1:]]})


def diff_rows(c, text: str) -> dict[str, str]:
    return rows(score(c, Transcript(case_id=c.id, final=FinalResponse(text=text))), "differential")


@pytest.mark.parametrize(("name", "forms"), [
    ("Oesophageal atresia or stenosis", ["Oesophageal atresia", "Oesophageal stenosis"]),
    ("Viral or bacterial meningitis", ["Viral meningitis", "bacterial meningitis"]),
    ("Pyloric stenosis or gastro-oesophageal reflux", ["Pyloric stenosis", "gastro-oesophageal reflux"]),
    ("Juvenile idiopathic arthritis", ["idiopathic arthritis"]),
    ("Neonatal abstinence syndrome", ["abstinence syndrome"]),
    ("Septic arthritis", []),
    ("Fracture (or dislocation) of the elbow", []),
])
def test_a_name_of_either_condition_or_with_an_age_prefix_has_its_other_forms(name: str, forms: list[str]):
    """"X or Y" offers each part (a one-word part shares the other's words); an age-group word that opens the name
    may be left out. A bracketed "or" and a plain name give nothing."""
    assert _diagnosis_name_forms((name,)) == forms


def test_either_part_of_an_or_name_meets_the_differential_and_another_does_not():
    c = with_differential("em-quinsy-001", "Oesophageal atresia or stenosis")
    assert "Oesophageal atresia or stenosis" in diff_rows(c, "Imp: quinsy.\nDDx: oesophageal stenosis, epiglottitis.")
    assert "Oesophageal atresia or stenosis" in diff_rows(c, "Imp: quinsy.\nDDx: oesophageal atresia.")
    assert "Oesophageal atresia or stenosis" not in diff_rows(c, "Imp: quinsy.\nDDx: pyloric stenosis, epiglottitis.")


def test_an_age_prefix_left_out_still_names_the_condition_and_a_wrong_condition_does_not():
    c = with_differential("em-quinsy-001", "Juvenile idiopathic arthritis")
    assert "Juvenile idiopathic arthritis" in diff_rows(c, "Imp: quinsy.\nDDx: idiopathic arthritis (unlikely).")
    assert "Juvenile idiopathic arthritis" not in diff_rows(c, "Imp: quinsy.\nDDx: reactive arthritis.")


@pytest.mark.parametrize(("written", "means"), [
    ("SJS", "Stevens-Johnson syndrome"),
    ("Stevens-Johnson", "Stevens-Johnson syndrome"),
    ("TEN", "toxic epidermal necrolysis"),
    ("NAI", "non-accidental injury"),
    ("inflicted burns", "non-accidental burns"),
    ("SLE", "systemic lupus erythematosus"),
    ("MCTD", "mixed connective tissue disease"),
])
def test_a_differential_written_short_reads_as_its_name(written: str, means: str):
    assert norms(written) == norms(means)


@pytest.mark.parametrize("written", ["ten days", "self-inflicted burns", "Nai"])
def test_a_number_or_a_self_inflicted_injury_is_no_such_diagnosis(written: str):
    assert "necrolysis" not in norms(written) and "accidental" not in norms(written)


def test_a_diagnosis_said_to_need_considering_is_on_the_differential():
    c = with_differential("em-quinsy-001", "Kawasaki disease", ["Kawasaki"])
    assert "Kawasaki disease" in diff_rows(c, "Imp: quinsy. Kawasaki disease needs to be considered.")
    assert "Kawasaki disease" not in diff_rows(c, "Imp: quinsy. Epiglottitis needs to be considered.")

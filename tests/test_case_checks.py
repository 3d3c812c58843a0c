"""Cases that test themselves: a case's `checks:` (example answers and questions with what must
follow) run by `medbench validate`, each failure at its line with what the grader or patient
did instead; names a check uses must be the case's; `review:` sign-offs."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from medbench_tui.cli import main
from medbench_tui.core.authoring.case_checks import run_checks
from medbench_tui.core.authoring.library import read_entry, review_summary
from medbench_tui.core.cases.bank import iter_case_files
from medbench_tui.core.cases.model import Review
from medbench_tui.core.validate import validate_text

REPO = Path(__file__).resolve().parents[1]
CASE = REPO / "cases" / "im-cap-001.yaml"

CHECKS = """
checks:
  answers:
    - id: right-terse
      note: a terse right plan
      text: |
        Dx: community-acquired pneumonia (J18.9). CXR, FBC, CRP. Amoxicillin 500 mg tds for 5 days.
      expect:
        diagnosis: correct
        items: {Amoxicillin 500 mg three times daily for 5 days: found}
    - id: wrong-diagnosis
      text: |
        Diagnosis: acute bronchitis. No antibiotics needed.
      expect:
        diagnosis: wrong
        items: {Amoxicillin 500 mg three times daily for 5 days: not_found}
    - id: says-the-opposite
      note: written to fail
      text: |
        Diagnosis: acute bronchitis.
      expect:
        diagnosis: correct
  questions:
    - ask: "How long have you been coughing?"
      facts: [onset]
    - ask: "Do you keep any pets?"
      default: true
"""


def _case_with(tmp_path: Path, extra: str) -> Path:
    bank = tmp_path / "bank"
    bank.mkdir(exist_ok=True)
    path = bank / CASE.name
    case_text = CASE.read_text(encoding="utf-8")
    own = re.search(r"^(# .*\n)*checks:", case_text, re.MULTILINE)  # the case's own checks give way to the test's
    path.write_text(case_text[: own.start() if own else None].rstrip("\n") + "\n" + extra, encoding="utf-8")
    return path


def _line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


def test_validate_runs_the_checks_and_reports_a_failed_one_at_its_line(tmp_path, capsys):
    path = _case_with(tmp_path, CHECKS)
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    failed = [line for line in out.splitlines() if "check.failed" in line]
    assert len(failed) == 1, out
    assert failed[0].startswith(f"{path}:{_line_of(path, 'id: says-the-opposite')}:")
    assert "answer check `says-the-opposite` (written to fail): the diagnosis should be correct, the grader " \
           "scored it wrong (final diagnoses read: acute bronchitis)" in failed[0]
    assert main(["validate", "--no-checks", str(path)]) == 0


def test_each_check_passes_or_says_what_the_grader_and_the_patient_did(tmp_path):
    from medbench_tui.core.validate import load_valid_case

    case = load_valid_case(_case_with(tmp_path, CHECKS))
    outcomes = {o.label.split(" (")[0]: o for o in run_checks(case, tmp_path / "bank")}
    assert outcomes["answer check `right-terse`"].passed
    assert outcomes["answer check `wrong-diagnosis`"].passed
    assert outcomes['question check "How long have you been coughing?"'].passed
    assert outcomes['question check "Do you keep any pets?"'].passed


def test_a_question_check_that_fails_quotes_the_reply(tmp_path):
    from medbench_tui.core.validate import load_valid_case

    wrong = CHECKS.replace("facts: [onset]", "facts: [smoking]")
    case = load_valid_case(_case_with(tmp_path, wrong))
    (outcome,) = [o for o in run_checks(case, tmp_path / "bank") if o.kind == "question" and not o.passed]
    assert outcome.problems[0] == "the patient should give smoking"
    assert "the patient also gave onset, which was not asked for" in outcome.problems
    assert outcome.problems[-1].startswith('the reply was: "')


def test_an_item_expectation_says_how_the_grader_decided(tmp_path):
    from medbench_tui.core.validate import load_valid_case

    checks = """
checks:
  answers:
    - id: avoid-amoxicillin
      text: |
        Diagnosis: pneumonia. Avoid amoxicillin and any other antibiotic.
      expect:
        items: {Amoxicillin 500 mg three times daily for 5 days: found}
"""
    case = load_valid_case(_case_with(tmp_path, checks))
    (outcome,) = run_checks(case, tmp_path / "bank")
    assert not outcome.passed
    assert outcome.problems[0].startswith(
        "`Amoxicillin 500 mg three times daily for 5 days` should be found, the grader has it ")


@pytest.mark.parametrize(("checks", "code", "words"), [
    ("checks:\n  answers:\n    - id: a\n      text: x\n      expect: {items: {Chest Xray: found}}\n",
     "check.unknown_item", "Did you mean `Chest X-ray`?"),
    ("checks:\n  answers:\n    - id: a\n      text: x\n      expect: {conditions: {cc-nope: OK}}\n",
     "check.unknown_condition", "not a critical condition"),
    ("checks:\n  questions:\n    - ask: x\n      facts: [onsett]\n", "check.unknown_reference",
     "Did you mean `onset`?"),
    ("checks:\n  questions:\n    - ask: x\n      attachments: [nope]\n", "check.unknown_reference", "attachment id"),
    ("checks:\n  questions:\n    - ask: x\n      default: true\n      facts: [onset]\n",
     "check.default_with_facts", ""),
    ("checks:\n  answers:\n    - {id: a, text: x, expect: {}}\n    - {id: a, text: y, expect: {}}\n",
     "check.duplicate_id", "used twice"),
    ("checks:\n  answers:\n    - id: a\n      text: x\n      expect: {items: {Chest X-ray: given}}\n", "schema.enum",
     "found"),
    ("review:\n  - {reviewer: Dr X, date: 4 Dec, verdict: sign}\n", "schema.pattern", ""),
    ("review:\n  - {reviewer: Dr X, date: 2026-12-04, verdict: approved}\n", "schema.enum", "sign"),
    ("review:\n  - {reviewer: Dr X, date: 2026-13-45, verdict: sign}\n", "schema.value", "not a date"),
])
def test_a_check_that_names_what_the_case_does_not_have_is_an_error_at_its_line(tmp_path, checks, code, words):
    path = _case_with(tmp_path, checks)
    report = validate_text(path.read_text(), path)
    found = [d for d in report.diagnostics if d.code == code]
    assert found, [(d.code, d.message) for d in report.diagnostics]
    assert words in found[0].message
    assert found[0].line is not None and found[0].line > _line_of(path, "checks:" if "checks" in checks else "review:")


def test_the_library_shows_the_latest_review_verdict(tmp_path):
    path = _case_with(tmp_path, "review:\n  - {reviewer: Dr A, date: 2026-12-01, verdict: major}\n"
                                "  - {reviewer: Dr B, date: 2026-12-04, verdict: sign}\n")
    assert read_entry(path).review == "sign (1 signed)"
    assert review_summary([Review(reviewer="Dr A", date="2026-12-01", verdict="minor")]) == "minor"
    assert read_entry(CASE).review in ("", "sign") or read_entry(CASE).review.startswith(("sign", "minor", "major"))


def test_rehearse_writes_a_checks_block_that_validates_and_passes(tmp_path, capsys):
    assert main(["rehearse", str(CASE), "--checks"]) == 0
    block = capsys.readouterr().out
    assert block.splitlines()[3] == "checks:"
    path = _case_with(tmp_path, "\n".join(line for line in block.splitlines() if not line.startswith("#")) + "\n")
    assert main(["validate", str(path), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["summary"]["errors"] == 0


def test_the_committed_schema_knows_checks_and_review():
    schema = json.loads((REPO / "medbench_tui" / "schema" / "case.schema.json").read_text())
    assert {"checks", "review"} <= set(schema["$defs"]["Case"]["properties"])


@pytest.fixture(scope="module")
def _bundled_bank_copy(tmp_path_factory) -> Path:
    """One copy of the bundled bank per module (per xdist worker), as `medbench validate cases/` sees it."""
    bank = tmp_path_factory.mktemp("bundled") / "cases"
    shutil.copytree(REPO / "cases", bank, symlinks=True)
    return bank


_BUNDLED_FILES = [path.name for path in iter_case_files(REPO / "cases")]
_CHUNKS = 8  # a command per chunk: each builds the folder's bank index once (~0.1 s), not once per case


@pytest.mark.parametrize("chunk", range(_CHUNKS), ids=lambda chunk: f"{chunk + 1}-of-{_CHUNKS}")
def test_every_bundled_case_passes_its_own_checks(_bundled_bank_copy, chunk, capsys):
    """`medbench validate cases/` runs every check of every case: the bank as shipped passes (with no
    other error either: this is also the bundled bank's validation test). The folder's command checks
    each file against its folder's bank, one report per file; the files are validated in chunks, each
    against the whole bank as the folder is, so xdist spreads them (every file is in one chunk)."""
    names = _BUNDLED_FILES[chunk::_CHUNKS]
    assert names and len(_BUNDLED_FILES) == len(set(_BUNDLED_FILES))
    assert main(["validate", *(str(_bundled_bank_copy / name) for name in names), "--format", "json"]) == 0, \
        capsys.readouterr().out


def test_a_harmful_item_advised_against_is_negated_not_missing(tmp_path):
    """An item the answer advises against has no row of its own when it is harmful (nothing
    given to score): the check still reads the mention and calls it negated."""
    from medbench_tui.core.validate import load_valid_case

    checks = """
checks:
  answers:
    - id: no-steroids
      text: |
        Diagnosis: community-acquired pneumonia. Amoxicillin 500 mg tds for 5 days. No corticosteroids.
      expect:
        items: {Corticosteroids: negated, Fluoroquinolone as first-line antibiotic: not_found}
"""
    case = load_valid_case(_case_with(tmp_path, checks))
    (outcome,) = run_checks(case, tmp_path / "bank")
    assert outcome.passed, outcome.problems


def test_a_known_defect_warns_while_it_fails_and_asks_to_be_removed_once_it_passes(tmp_path, capsys):
    """A check kept for a grader defect says so: a warning, not an error, until the grader is fixed."""
    wrong = CHECKS.replace("      note: written to fail\n", "      note: written to fail\n"
                           "      known_defect: the expectation is wrong on purpose\n")
    path = _case_with(tmp_path, wrong)
    assert main(["validate", str(path)]) == 0
    out = capsys.readouterr().out
    assert "check.failed" not in out and "warning check.known_defect: answer check `says-the-opposite`" in out
    assert "still fails, a known defect (the expectation is wrong on purpose)" in out
    fixed = wrong.replace("        diagnosis: correct\n  questions:", "        diagnosis: wrong\n  questions:")
    path = _case_with(tmp_path, fixed)
    assert main(["validate", str(path)]) == 0
    assert "warning check.defect_fixed: answer check `says-the-opposite`" in capsys.readouterr().out


def test_a_question_check_may_ask_first_so_a_delayed_fact_is_reached(tmp_path):
    """A fact told only at the second asking is checked by asking once in `before:` and again in `ask`."""
    from medbench_tui.core.validate import load_valid_case

    source = (REPO / "cases" / "em-sah-001.yaml").read_text()
    fact = next(a for a in load_valid_case(REPO / "cases" / "em-sah-001.yaml").additional_answers if a.delayed)
    once = f'    - ask: "What were you doing when it started?"\n      facts: [{fact.id}]\n'
    twice = f'    - before: ["What were you doing when it started?"]\n      ask: "And exactly then?"\n' \
            f'      facts: [{fact.id}]\n'
    for added, passes in ((once, False), (twice, True)):
        text = source.replace("  questions:\n", "  questions:\n" + added, 1)
        path = tmp_path / "em-sah-001.yaml"
        path.write_text(text)
        case = load_valid_case(path)
        first = ("checks", "questions", 0)
        (outcome,) = [o for o in run_checks(case, REPO) if o.kind == "question" and o.path == first]
        assert outcome.passed is passes, outcome.problems

"""One broken case per kind of problem: the right code, severity, YAML path, line and column.

Each fixture in ``tests/data/broken`` states what it must produce in its header:
``# expect: <severity> <code> <path or -> <line>:<column>``. Every expected finding
must be reported exactly there, and no error may be reported that is not expected
(so a fixture cannot be broken by accident in a second way).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from medbench_tui.core.cases.bank import BankIndex
from medbench_tui.core.validate import validate_file, validate_paths

BROKEN = Path(__file__).parent / "data" / "broken"
EXPECT = re.compile(r"^# expect: (\w+) (\S+) (\S+) (\d+):(\d+)$", re.M)


def _expected(path: Path) -> set[tuple]:
    header = path.read_bytes().decode("latin-1")
    return {
        (severity, code, "" if where == "-" else where, int(line), int(column))
        for severity, code, where, line, column in EXPECT.findall(header)
    }


def _found(report) -> set[tuple]:
    return {(d.severity, d.code, d.path, d.line, d.column) for d in report.diagnostics}


def _check(path: Path, report) -> None:
    expected, found = _expected(path), _found(report)
    assert expected, f"{path.name} states no expectation"
    assert expected <= found, f"missing: {sorted(expected - found)}\nfound: {sorted(found)}"
    unexpected_errors = {f for f in found - expected if f[0] == "error"}
    assert not unexpected_errors, f"unexpected errors: {sorted(unexpected_errors)}"


SINGLE = sorted(BROKEN.glob("*.yaml"))


@pytest.mark.parametrize("path", SINGLE, ids=[p.stem for p in SINGLE])
def test_broken_case(path: Path):
    # An empty bank: these cases share one intro, which is not what they test.
    _check(path, validate_file(path, bank=BankIndex(BROKEN, [])))


def test_broken_bank():
    reports = validate_paths([BROKEN / "bank"])
    assert [r.path.name for r in reports] == sorted(p.name for p in (BROKEN / "bank").glob("*.yaml"))
    for report in reports:
        _check(report.path, report)
    by_stem = {r.path.stem: r for r in reports}
    # A declared variant may share its parent's intro; the unlinked copy may not.
    assert not any("bank-original" in d.message for d in by_stem["bank-variant"].diagnostics)
    assert not any("bank-variant" in d.message for d in by_stem["bank-original"].diagnostics)
    [copy] = [d for d in by_stem["bank-copy"].diagnostics if d.code == "bank.near_duplicate"]
    assert "bank-original" in copy.message and "bank-variant" in copy.message


def test_every_contract_error_and_warning_has_a_fixture():
    codes = {code for path in BROKEN.rglob("*.yaml") for _, code, *_ in _expected(path)}
    contract = {
        "yaml.syntax", "yaml.duplicate_key", "yaml.not_mapping", "yaml.empty", "schema.type",
        "schema.unknown_key", "schema.missing", "schema.enum", "schema.too_short",
        "icd10.not_who", "icd10.not_a_code", "icd10.unspecific", "icd10.title_mismatch",
        "ref.unknown_answer", "ref.unknown_item", "ref.duplicate_id", "case.id_mismatch",
        "ref.unknown_parent", "attachment.missing_file", "attachment.after_turn_missing",
        "attachment.no_content", "value.not_positive", "case.final_reviewers",
        "case.no_required_item", "case.num_steps_missing", "ref.unanswered_question",
        "leak.diagnosis", "bank.near_duplicate", "bank.duplicate_id", "case.final_with_errors",
    }
    assert contract <= codes, sorted(contract - codes)

"""Finding the icd10: value under the cursor on one line of a case."""

from __future__ import annotations

import pytest

from medbench_tui.tui.yaml_lines import icd_value_at


@pytest.mark.parametrize(
    ("line", "column", "expected"),
    [
        ("    icd10: J18.9   # a comment", 2, (11, 16, "J18.9")),
        ("    icd10: J18.9", 16, (11, 16, "J18.9")),
        ("  - icd10: E11.65", 0, (11, 17, "E11.65")),
        ("    icd10: 'E11.65'", 5, (11, 19, "E11.65")),
        ('    icd10: "J20.9"', 5, (11, 18, "J20.9")),
        ("    icd10:", 4, (10, 10, "")),
        ("  - {name: Acute bronchitis, icd10: J20.9}", 30, (36, 41, "J20.9")),
    ],
)
def test_icd_value_under_the_cursor(line, column, expected):
    value = icd_value_at(line, column)
    assert value is not None
    assert (value.start, value.end, value.code) == expected


def test_flow_mapping_needs_the_cursor_on_the_icd_key():
    assert icd_value_at("  - {name: Acute bronchitis, icd10: J20.9}", 8) is None


def test_other_lines_have_no_icd_value():
    assert icd_value_at("    name: Pneumonia", 5) is None
    assert icd_value_at("notes: see icd10 codes", 3) is None


def test_an_empty_value_right_after_the_colon_needs_a_space():
    assert icd_value_at("    icd10:", 4).needs_space
    assert not icd_value_at("    icd10: ", 4).needs_space


@pytest.mark.parametrize(
    ("line", "column", "result"),
    [
        # the template's empty value with its comment: the comment stays a comment
        ("    icd10:                     # FILL IN: WHO ICD-10 2019 code", 4,
         "    icd10:                     N30.0 # FILL IN: WHO ICD-10 2019 code"),
        ("    icd10:# note", 4, "    icd10: N30.0 # note"),
        # the cursor at the end of a flow mapping: its only code is replaced
        ("  - {name: Acute pyelonephritis, icd10: N10}", 44, "  - {name: Acute pyelonephritis, icd10: N30.0}"),
        ("  - {name: Acute pyelonephritis, icd10: N10}", 0, "  - {name: Acute pyelonephritis, icd10: N30.0}"),
        ("    icd10:", 10, "    icd10: N30.0"),
        ("    icd10: J18.9  # old", 2, "    icd10: N30.0  # old"),
    ],
)
def test_an_inserted_code_never_breaks_the_line(line, column, result):
    from medbench_tui.core.cases.yamlio import parse_case_text
    from medbench_tui.tui.yaml_lines import icd_insertion

    insertion = icd_insertion(line, column, "N30.0")
    assert insertion is not None
    written = line[: insertion.start] + insertion.text + line[insertion.end :]
    assert written == result
    parsed = parse_case_text("x:\n" + written)
    assert parsed.diagnostics == [], parsed.diagnostics


def test_a_line_with_several_codes_needs_the_cursor_on_one():
    from medbench_tui.tui.yaml_lines import icd_insertion

    line = "  - {a: {icd10: J18.9}, b: {icd10: J20.9}}"
    assert icd_insertion(line, 0, "N30.0") is None
    insertion = icd_insertion(line, line.index("J20.9"), "N30.0")
    assert insertion is not None and (insertion.start, insertion.end) == (line.index("J20.9"), line.index("J20.9") + 5)

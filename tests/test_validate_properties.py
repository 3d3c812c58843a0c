"""Validation never raises: whatever the text, the outcome is a list of diagnostics."""

from __future__ import annotations

from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from medbench_tui.core.cases.yamlio import parse_case_text
from medbench_tui.core.diagnostics import Diagnostic
from medbench_tui.core.validate import validate_text
from tests.valid_case import VALID

BROKEN = Path(__file__).parent / "data" / "broken"
LINES = VALID.splitlines(keepends=True)
PATH = BROKEN / "ref-unknown-answer.yaml"

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_well_formed(text: str) -> None:
    report = validate_text(text, PATH)
    assert isinstance(report.diagnostics, list)
    for d in report.diagnostics:
        assert isinstance(d, Diagnostic) and d.message
        assert d.code != "internal.error", d.message
        assert d.line is None or d.line >= 1
        assert d.column is None or d.column >= 1
    if report.case is None:
        assert report.errors, "no case and no error"
    parsed = parse_case_text(text)
    for d in parsed.diagnostics:
        assert d.code.startswith("yaml.")


@SETTINGS
@given(st.text(max_size=400))
def test_random_text(text):
    assert_well_formed(text)


@SETTINGS
@given(st.text(alphabet=" \t\n:-[]{}#&*!|>'\"%@`,?0123456789abcxyz.~<", max_size=200))
def test_yaml_punctuation_soup(text):
    assert_well_formed(text)


scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=20),
    st.sampled_from(["yes", "no", "on", "~", "1.10", "E11.65", "2020-01-01", "0x1F", ".inf", "<<"]),
)
KEYS = ["id", "title", "intro", "status", "metadata", "category", "additional_answers", "answer",
        "diagnosis", "primary", "icd10", "name", "workup", "class", "weight", "attachments",
        "file", "available", "after_turn", "answered_by", "control_questions", "applies_if"]
documents = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(st.one_of(st.sampled_from(KEYS), st.text(max_size=8)), children, max_size=5),
    ),
    max_leaves=25,
)


@SETTINGS
@given(documents, st.sampled_from([None, False, True]))
def test_random_yaml_documents(document, flow):
    assert_well_formed(yaml.safe_dump(document, default_flow_style=flow, allow_unicode=True))


@SETTINGS
@given(st.data())
def test_mutations_of_a_valid_case(data):
    lines = list(LINES)
    for _ in range(data.draw(st.integers(1, 4))):
        if not lines:
            break
        at = data.draw(st.integers(0, len(lines) - 1))
        action = data.draw(st.sampled_from(["delete", "duplicate", "retype", "indent", "truncate", "swap"]))
        if action == "delete":
            del lines[at]
        elif action == "duplicate":
            lines.insert(at, lines[at])
        elif action == "retype" and ":" in lines[at]:
            key = lines[at].split(":", 1)[0]
            value = data.draw(st.sampled_from(["[]", "{}", "~", "42", "-1", "true", "'x'", "[a, b]", "{a: 1}", "0.0"]))
            lines[at] = f"{key}: {value}\n"
        elif action == "indent":
            lines[at] = data.draw(st.sampled_from([" ", "  ", "\t", "    "])) + lines[at]
        elif action == "truncate":
            text = "".join(lines)
            lines = [text[: data.draw(st.integers(0, len(text)))]]
        elif action == "swap" and at + 1 < len(lines):
            lines[at], lines[at + 1] = lines[at + 1], lines[at]
    assert_well_formed("".join(lines))


@SETTINGS
@given(st.sampled_from(LINES), st.text(max_size=30))
def test_any_value_in_any_field(line, value):
    if ":" not in line:
        return
    key = line.split(":", 1)[0]
    assert_well_formed(VALID.replace(line, f"{key}: {yaml.safe_dump(value, width=4096).splitlines()[0]}\n", 1))

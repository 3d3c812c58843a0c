"""Reading and writing case files: YAML 1.2 values, positions, round trip, safe saves."""

from __future__ import annotations

import datetime
import functools
import importlib.util
import math
import os
from pathlib import Path

import pytest

from medbench_tui.core.cases.yamlio import CaseDocument, parse_case_text, save_case_text
from medbench_tui.core.errors import MedbenchError
from medbench_tui.core.files import backup_path

REPO = Path(__file__).resolve().parent.parent
BASE_CASE = REPO / "tests" / "data" / "broken" / "ref-unknown-answer.yaml"


def _make_bank_module():
    spec = importlib.util.spec_from_file_location("make_bank", REPO / "benchmarks" / "make_bank.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _plain(value):
    """ruamel's scalar and container subclasses as plain Python, for comparison."""
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return "nan" if math.isnan(value) else float(value)
    if isinstance(value, str):
        return str(value)
    return value


def _ruamel_data(text: str):
    return _plain(CaseDocument.from_text(text).data)


# --- values: YAML 1.2 as the writer reads it ----------------------------------------------

SCALARS = {
    "yes": "yes", "No": "No", "on": "on", "off": "off", "y": "y",
    "true": True, "False": False, "TRUE": True, "tRUE": "tRUE",
    "~": None, "null": None, "Null": None, "NULL": None, "": None, "nULL": "nULL",
    "0x1F": 31, "0o17": 15, "017": 17, "0": 0, "-0": 0, "+1": 1, "1_000": 1000, "0b101": 5,
    "1.10": 1.1, "1e3": 1000.0, "1.": 1.0, ".5": 0.5, "-.5": -0.5,
    ".inf": math.inf, "-.Inf": -math.inf, ".NaN": "nan",
    "E11.65": "E11.65", "J18.9": "J18.9", "1.0.0": "1.0.0", "12:30": "12:30", "0o8": "0o8",
    "_1": "_1", "1,000": "1,000", ".5e3": ".5e3",
    "2020-01-01": datetime.date(2020, 1, 1),
    "'5'": "5", '"yes"': "yes", "'null'": "null", '"1.10"': "1.10",
}


@pytest.mark.parametrize("written", list(SCALARS), ids=[repr(s) for s in SCALARS])
def test_scalar_values_follow_yaml_1_2_like_the_writer(written):
    text = f"k: {written}\n"
    value = _plain(parse_case_text(text).data["k"])
    assert value == SCALARS[written]
    assert value == _ruamel_data(text)["k"]


def test_block_scalars_and_quoting():
    data = parse_case_text("a: |\n  one\n  two\nb: >\n  one\n  two\nc: 'it''s'\nd: \"tab\\t\"\n").data
    assert data == {"a": "one\ntwo\n", "b": "one two\n", "c": "it's", "d": "tab\t"}


def test_anchors_aliases_and_merge_keys():
    text = "base: &b {weight: 2, class: required}\nitem:\n  <<: *b\n  item: CXR\n  weight: 3\nagain: *b\n"
    parsed = parse_case_text(text)
    assert not parsed.diagnostics
    assert parsed.data["item"] == {"item": "CXR", "weight": 3, "class": "required"}
    assert parsed.data["again"] == {"weight": 2, "class": "required"}
    assert parsed.data == _ruamel_data(text)


@pytest.mark.parametrize(
    "text, code",
    [
        ("a: &x [1, *x]\n", "yaml.recursive_alias"),
        ("a: 1\nb: {<<: [1, 2]}\n", "yaml.merge"),
        ("? [a, b]\n: c\n", "yaml.complex_key"),
        ("a: !!int 5\n", "yaml.tag"),
        ("a: !custom x\n", "yaml.tag"),
        ("a: " + "[" * 70 + "]" * 70 + "\n", "yaml.too_deep"),
    ],
)
def test_odd_yaml_is_reported_not_raised(text, code):
    assert code in [d.code for d in parse_case_text(text).diagnostics]


# --- positions ------------------------------------------------------------------------------

def test_positions_of_keys_values_and_list_items_are_one_based():
    text = "id: x\nworkup:\n  - item: CXR\n    class: required\n  - item: FBC\n    aliases: [CBC, full blood count]\n"
    positions = parse_case_text(text).positions
    assert positions.locate(("id",)) == (1, 5)
    assert positions.locate_key(("id",)) == (1, 1)
    assert positions.locate(("workup", 0)) == (3, 5)
    assert positions.locate(("workup", 0, "class")) == (4, 12)
    assert positions.locate_key(("workup", 0, "class")) == (4, 5)
    assert positions.locate(("workup", 1, "aliases", 1)) == (6, 20)
    # nothing there: the nearest ancestor that is
    assert positions.locate(("workup", 1, "weight")) == (5, 5)
    assert positions.locate(("nothing", "here")) == (1, 1)
    assert positions.span(("workup", 1, "aliases", 1)) == ((6, 20), (6, 36))


def test_duplicate_key_is_reported_at_the_second_naming_the_first():
    parsed = parse_case_text("id: a\ntitle: One\nid: b\n")
    [dup] = parsed.diagnostics
    assert (dup.code, dup.path, dup.line, dup.column) == ("yaml.duplicate_key", "id", 3, 1)
    assert "line 1" in dup.message
    assert parsed.data["id"] == "a"


@pytest.mark.parametrize(
    "text, line, column, words",
    [
        ("a: 1\nb:\n\t- x\n", 3, 1, "tab"),
        ("title: \"Unclosed\nid: x\n", 1, 8, "quote"),
        ("a: [1, 2\nb: 3\n", None, None, "not closed"),
        ("a: b: c\n", 1, 5, "quotes"),
        ("a: 1\n---\nb: 2\n", 2, 1, "one case"),
        ("a: *missing\n", 1, 4, "anchor"),
        ("a: \x07\n", 1, 4, "control character"),
        ("  a: 1\n b: 2\n", None, None, None),
    ],
)
def test_syntax_errors_have_position_and_plain_words(text, line, column, words):
    [problem] = parse_case_text(text).diagnostics
    assert problem.code == "yaml.syntax" and problem.severity == "error"
    assert problem.line and problem.column
    if line is not None:
        assert (problem.line, problem.column) == (line, column)
    if words is not None:
        assert words in problem.message


@pytest.mark.parametrize("text, code", [("", "yaml.empty"), ("# only a comment\n", "yaml.empty"),
                                        ("- a list\n", "yaml.not_mapping"), ("just text\n", "yaml.not_mapping")])
def test_empty_and_non_mapping_files(text, code):
    parsed = parse_case_text(text)
    assert [d.code for d in parsed.diagnostics] == [code]
    assert not parsed.ok


def test_schema_comment_on_the_first_line_is_just_a_comment():
    text = "# yaml-language-server: $schema=../medbench_tui/schema/case.schema.json\nid: x\n"
    assert parse_case_text(text).data == {"id": "x"}
    assert CaseDocument.from_text(text).dump() == text


# --- both parsers agree -------------------------------------------------------------------------

def _bundled_cases() -> list[Path]:
    return sorted(p for p in (REPO / "cases").glob("*.yaml") if p.name != "medbench.yaml")


@functools.cache
def _document(path: Path) -> CaseDocument:
    """A case file read by the writer once for both of the module's checks of it (reading a
    bundled case takes ruamel some 0.2 s)."""
    return CaseDocument.from_text(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", _bundled_cases(), ids=lambda p: p.stem)
def test_parsers_agree_on_bundled_cases(path):
    text = path.read_text(encoding="utf-8")
    assert _plain(parse_case_text(text).data) == _plain(_document(path).data)


def test_parsers_agree_on_generated_cases():
    make_bank = _make_bank_module()
    for index in range(0, 40, 3):
        text = make_bank.case_text(index, answers=12 + index % 9)
        assert _plain(parse_case_text(text).data) == _ruamel_data(text)


# --- round trip --------------------------------------------------------------------------------

STYLES = {
    "offset list": "a:\n  - x\n  - y\nb: null\nc:\n",
    "flush list": "a:\n- x\n- y\nb: ~\n",
    "four spaces": "a:\n    b: 1\n    c:\n        - x\n        - y\n",
    "document start": "---\nid: x\n",
    "windows line ends": "a: 1\r\nb:\r\n  - 2\r\n",
    "no final newline": "a: 1",
    "aligned values": "id:     x\ntitle:  y   # aligned\nlist: [a,b]\n",
    "block scalars": "intro: |\n  one\n\n  two\nnotes: >-\n  folded\n  text\nempty: |\nkeep: |+\n  x\n\n",
    "quotes": "a: 'single'\nb: \"double\"\nc: '1.10'\n",
    "anchors": "a: &x {k: 1}\nb: *x\nc:\n  <<: *x\n  z: 2\n",
    "byte order mark": "\ufeffid: x\n",
}


@pytest.mark.parametrize("text", list(STYLES.values()), ids=list(STYLES))
def test_unchanged_document_dumps_byte_identical(text):
    assert CaseDocument.from_text(text).dump() == text


@pytest.mark.parametrize("path", _bundled_cases() + [BASE_CASE], ids=lambda p: p.stem)
def test_real_cases_round_trip_byte_identical(path):
    text = path.read_text(encoding="utf-8")
    assert _document(path).dump() == text


def test_edit_keeps_comments_order_quotes_and_layout():
    text = BASE_CASE.read_text(encoding="utf-8")
    document = CaseDocument.from_text(text)
    document.data["status"] = "review"
    document.data["workup"][0]["weight"] = 3
    out = document.dump()
    changed = [(a, b) for a, b in zip(text.splitlines(), out.splitlines(), strict=False) if a != b]
    assert changed == [("status: draft", "status: review"), ("    weight: 2", "    weight: 3")]
    assert len(out.splitlines()) == len(text.splitlines())


def test_edit_in_a_four_space_file_keeps_four_spaces():
    document = CaseDocument.from_text(STYLES["four spaces"])
    document.data["a"]["c"].append("z")
    assert document.dump() == "a:\n    b: 1\n    c:\n        - x\n        - y\n        - z\n"


def test_from_text_reports_position_of_bad_yaml():
    with pytest.raises(MedbenchError, match=r"case\.yaml:2:"):
        CaseDocument.from_text("a: 1\n\tb: 2\n", path=Path("case.yaml"))
    with pytest.raises(MedbenchError):
        CaseDocument.from_text("k: 0o_\n")  # ruamel itself fails on this one


# --- saving --------------------------------------------------------------------------------------

def test_save_is_atomic_with_a_backup(tmp_path):
    path = tmp_path / "case.yaml"
    path.write_text("id: case  # mine\nstatus: draft\n", encoding="utf-8")
    document = CaseDocument.load(path)
    document.data["status"] = "review"
    document.save()
    assert path.read_text(encoding="utf-8") == "id: case  # mine\nstatus: review\n"
    assert backup_path(path).read_text(encoding="utf-8") == "id: case  # mine\nstatus: draft\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["case.yaml", "case.yaml.bak"]


def test_failed_save_leaves_the_original_intact(tmp_path, monkeypatch):
    path = tmp_path / "case.yaml"
    original = "id: case\nstatus: draft\n"
    path.write_text(original, encoding="utf-8")
    document = CaseDocument.load(path)
    document.data["status"] = "final"

    def disk_full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(OSError):
        document.save()
    with pytest.raises(OSError):
        save_case_text(path, "garbage")
    monkeypatch.undo()
    assert path.read_text(encoding="utf-8") == original
    assert [p.name for p in tmp_path.iterdir()] == ["case.yaml"]  # no temp file left behind


def test_save_case_text_writes_the_buffer_as_is(tmp_path):
    path = tmp_path / "case.yaml"
    save_case_text(path, "id: case\r\n# odd: spacing   \r\n")
    assert path.read_bytes() == b"id: case\r\n# odd: spacing   \r\n"


def test_save_without_a_path_says_so():
    with pytest.raises(MedbenchError, match="where to save"):
        CaseDocument.from_text("id: x\n").save()

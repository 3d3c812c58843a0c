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


def shipped_prices_file() -> Path:
    """The default price table (relative prices) that comes with medbench."""
    return PACKAGE_DIR / "prices" / "default.yaml"


def bank_prices_file(bank: Path) -> Path:
    """A bank's own price table, beside its ``medbench.yaml``."""
    return Path(bank) / "prices.yaml"


def case_template_file() -> Path:
    """The template a new case starts from (commented, with the fields to fill in)."""
    return PACKAGE_DIR / "templates" / "new_case.yaml"


def is_bank(path: Path) -> bool:
    """A case bank is a folder with a ``medbench.yaml`` or a ``cases/`` folder or YAML cases."""
    path = Path(path)
    if not path.is_dir():
        return False
    if (path / BANK_CONFIG_NAME).is_file() or (path / "cases").is_dir():
        return True
    return any(path.glob("*.yaml"))


def bank_root(folder: Path) -> Path:
    """The root of the bank a user points at: the folder itself, or its ``cases/``
    folder when that is where the ``medbench.yaml`` is (as in the bundled bank).

    Every command maps a ``--bank`` folder through this, so the run store, the bank
    configuration and attachment paths agree with :func:`bank_root_of`.
    """
    folder = Path(folder).expanduser().resolve()
    if not (folder / BANK_CONFIG_NAME).is_file() and (folder / "cases" / BANK_CONFIG_NAME).is_file():
        return folder / "cases"
    return folder


def default_bank() -> Path:
    """The bank a command works on when none is given: the current folder if it is one,
    else the bundled cases."""
    return bank_root(Path.cwd() if is_bank(Path.cwd()) else bundled_cases_dir())


def cases_dir(bank: Path) -> Path:
    """The folder holding a bank's case files: ``bank/cases`` if present, else the bank."""
    bank = Path(bank)
    return bank / "cases" if (bank / "cases").is_dir() else bank


def bank_root_of(case_file: Path) -> Path:
    """The bank root of a case file: attachment ``file:`` paths are relative to it.

    The nearest of the case's folder and its parent that holds a ``medbench.yaml``;
    failing that, the parent of a folder named ``cases``; else the case's folder.
    The folders are those the path names, not where links lead: a case file that is a link
    to a file elsewhere still belongs to the bank it sits in (and :func:`is_inside` then
    says it is outside that bank).
    """
    import os

    folder = Path(os.path.abspath(case_file)).parent
    for candidate in (folder, folder.parent):
        if (candidate / BANK_CONFIG_NAME).is_file():
            return candidate.resolve()
    return (folder.parent if folder.name == "cases" else folder).resolve()


def is_inside(path: Path, root: Path) -> bool:
    """Whether the real ``path`` (every link followed) lies inside the real ``root``: a link
    in a bank may not hand a file from elsewhere to a reader, a model or an export."""
    try:
        return Path(path).resolve().is_relative_to(Path(root).resolve())
    except (OSError, RuntimeError):  # a link loop
        return False


def bank_config_file(bank: Path) -> Path:
    return Path(bank) / BANK_CONFIG_NAME


def default_run_store(bank: Path) -> Path:
    return Path(bank) / RUN_STORE_NAME


def user_run_store(bank: Path) -> Path:
    """The run store of a bank we may not write to (the bundled one inside
    site-packages): in the user's state folder, one file per bank."""
    import hashlib

    bank = Path(bank).resolve()
    digest = hashlib.sha256(str(bank).encode("utf-8")).hexdigest()[:10]
    return user_state_dir() / "runs" / f"{bank.name or 'bank'}-{digest}.sqlite"


def run_store_for(bank: Path, override: Path | None = None, *, reading: bool = False) -> Path:
    """Where the runs of ``bank`` live: ``override`` (``--store`` or the ``run_store``
    setting) if given, else :func:`default_run_store` when the bank is writable, else
    :func:`user_run_store`. ``reading`` (a report, an export): the bank's own store
    whenever it exists, writable or not (a bank copied read-only keeps its runs there)."""
    import os

    if override is not None:
        return Path(override).expanduser()
    store = default_run_store(bank)
    if reading and store.is_file():
        return store
    folder = store.parent if store.parent.is_dir() else Path(bank)
    writable = os.access(folder, os.W_OK) and (not store.exists() or os.access(store, os.W_OK))
    return store if writable else user_run_store(bank)


def user_config_dir() -> Path:
    from platformdirs import user_config_path

    return user_config_path(APP_NAME, appauthor=False)


def user_state_dir() -> Path:
    from platformdirs import user_state_path

    return user_state_path(APP_NAME, appauthor=False)


def icd10_index_cache_file() -> Path:
    """The WHO tables and ICD-10 search index built once for every command-line call: one
    file per version and per install (its folder), so two installs of one user (a release
    and a development checkout, two virtualenvs) each keep their own instead of rebuilding
    each other's on every call."""
    import hashlib
    import sys

    from platformdirs import user_cache_path

    from medbench_tui import __version__

    install = Path(__file__).resolve().parent.parent
    python = sys.implementation.cache_tag  # pickles of one Python are read by that Python
    digest = hashlib.sha256(f"{install}\0{python}".encode()).hexdigest()[:16]
    folder = user_cache_path(APP_NAME, appauthor=False, version=__version__)
    return folder / f"icd10-index-{digest}.pickle"


def settings_file() -> Path:
    return user_config_dir() / "settings.yaml"


def swap_file_for(case_file: Path, editor: str | None = None) -> Path:
    """An editor's autosave of an open case, beside it (``.name.yaml.<editor>.swp``); without
    an editor, the one swap file of earlier versions (``.name.yaml.swp``)."""
    case_file = Path(case_file)
    return case_file.with_name(f".{case_file.name}.{editor}.swp" if editor else f".{case_file.name}.swp")


def trash_dir(case_folder: Path) -> Path:
    """Where deleted case files of a folder are kept (``.trash`` beside them)."""
    return Path(case_folder) / ".trash"


def play_swap_file(run_store: Path, player: str, case_id: str) -> Path:
    """The unfinished play session of ``player`` on a case (questions asked, notes, the
    final response being written), beside the run store: ``play/<player>--<case-id>.json``."""
    import re

    slug = re.sub(r"[^a-z0-9]+", "-", player.casefold()).strip("-") or "player"
    return Path(run_store).parent / "play" / f"{slug}--{case_id}.json"


def run_case_file(root: Path, stored: str) -> Path:
    """A run's case file as its group recorded it: relative to the bank's root (so that the
    bank can move), or absolute."""
    return Path(root) / stored


def reports_dir(bank: Path) -> Path:
    """Where the TUI exports comparison reports: ``reports/`` in the bank."""
    return Path(bank) / "reports"

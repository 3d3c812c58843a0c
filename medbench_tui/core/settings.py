"""One typed settings object for the whole application.

Read from the user's ``settings.yaml`` (see :func:`medbench_tui.core.paths.settings_file`)
and ``MEDBENCH_*`` environment variables (nested with ``__``). Tests build their own
through :func:`load_settings` with an explicit file.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, Field
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from medbench_tui.core.errors import MedbenchError
from medbench_tui.core.jsondata import JSONObject, JSONValue


class TuiSettings(BaseModel):
    theme: str = "medbench"
    keymap: dict[str, str] = Field(
        default_factory=dict,
        description="Binding id -> keys, e.g. {'library.new_case': 'ctrl+n'}.",
    )
    autosave_seconds: float = 5.0
    validation_debounce_ms: int = 40


class RunnerSettings(BaseModel):
    """Defaults of ``medbench run`` (each has a command-line flag too)."""

    concurrency: int = Field(default=8, ge=1, description="Runs played at the same time.")
    endpoint_concurrency: int | None = Field(
        default=None, ge=1, description="Requests in flight per endpoint (base_url) at most; default: concurrency."
    )
    retry_attempts: int = Field(default=6, ge=1, description="Tries per request, the first included.")
    max_retry_after: float = Field(default=300.0, gt=0, description="Longest Retry-After honoured (seconds).")
    unreachable_seconds: float = Field(
        default=120.0, gt=0, description="How long a server that cannot be reached is retried (seconds)."
    )


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="MEDBENCH_", env_nested_delimiter="__", extra="ignore")

    player_name: str = "player"
    default_simulator: str = "grounded"
    run_store: Path | None = Field(
        default=None, description="SQLite run store; default: <bank>/.medbench/runs.sqlite"
    )
    runner: RunnerSettings = Field(default_factory=RunnerSettings)
    endpoint_keys: dict[str, list[str]] = Field(
        default_factory=dict,
        description="Host -> the key variables whose values may be sent there without asking, e.g. "
        "{'api.openai.com': ['OPENAI_API_KEY']} (a bank's medbench.yaml names both; this machine needs none).",
    )
    tui: TuiSettings = Field(default_factory=TuiSettings)

    settings_path: Path | None = Field(default=None, exclude=True)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings, env_settings)


class SettingsError(MedbenchError):
    """The settings file could not be read; the message says what to fix."""


def _read_yaml(path: Path) -> JSONObject:
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    try:
        data = YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))
    except YAMLError as exc:
        raise SettingsError(f"{path}: not valid YAML: {exc}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise SettingsError(f"{path}: the settings file must be a mapping of keys to values")
    return data


def _merged(base: JSONObject, top: JSONObject) -> JSONObject:
    """``top`` over ``base``, nested mappings merged key by key."""
    merged = dict(base)
    for key, value in top.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merged(merged[key], value)
        else:
            merged[key] = value
    return merged


def load_settings(path: Path | None = None, **overrides: JSONValue) -> Settings:
    """Build the settings: the file, then ``MEDBENCH_*`` variables, then ``overrides``."""
    from pydantic import ValidationError
    from pydantic_settings import EnvSettingsSource

    from medbench_tui.core.paths import settings_file

    path = Path(path) if path is not None else settings_file()
    values: JSONObject = _read_yaml(path) if path.is_file() else {}
    values = _merged(_merged(values, EnvSettingsSource(Settings)()), overrides)
    try:
        settings = Settings(**values)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in error['loc'])}: {error['msg']}" for error in exc.errors()
        )
        raise SettingsError(f"{path}: {problems}") from None
    settings.settings_path = path
    return settings


def allow_endpoint_key(host: str, variable: str, path: Path | None = None) -> Path:
    """Add ``variable`` to the key variables ``host`` may be sent (``endpoint_keys``) in the
    settings file, keeping its comments; returns the file written."""
    import io

    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    from medbench_tui.core.files import write_atomic
    from medbench_tui.core.paths import settings_file

    path = Path(path) if path is not None else settings_file()
    yaml = YAML()
    try:
        data = yaml.load(path.read_text(encoding="utf-8")) if path.is_file() else None
    except (OSError, UnicodeError, YAMLError) as exc:
        raise SettingsError(f"{path}: cannot be read: {exc}") from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise SettingsError(f"{path}: the settings file must be a mapping of keys to values")
    keys = data.setdefault("endpoint_keys", {})
    if not isinstance(keys, dict):
        raise SettingsError(f"{path}: endpoint_keys must be a mapping of hosts to lists of variable names")
    listed = keys.setdefault(host, [])
    if not isinstance(listed, list):
        raise SettingsError(f"{path}: endpoint_keys.{host} must be a list of variable names")
    if variable not in listed:
        listed.append(variable)
    buffer = io.StringIO()
    yaml.dump(data, buffer)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, buffer.getvalue(), backup=False)
    except OSError as exc:
        raise SettingsError(f"{path}: cannot be written: {exc.strerror or exc}") from None
    return path

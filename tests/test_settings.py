"""One typed settings object: file, then environment, then explicit overrides."""

import pytest

from medbench_tui.core.settings import SettingsError, load_settings


def test_defaults_without_a_file(tmp_path):
    settings = load_settings(tmp_path / "missing.yaml")
    assert settings.player_name == "player"
    assert settings.tui.theme == "medbench"


def test_file_then_environment_then_overrides(tmp_path, monkeypatch):
    path = tmp_path / "settings.yaml"
    path.write_text("player_name: Dr File\ntui:\n  theme: dark\n  autosave_seconds: 9\n")
    assert load_settings(path).player_name == "Dr File"
    monkeypatch.setenv("MEDBENCH_TUI__THEME", "light")
    settings = load_settings(path)
    assert settings.tui.theme == "light"
    assert settings.tui.autosave_seconds == 9
    assert load_settings(path, player_name="Dr Override").player_name == "Dr Override"


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("- a list\n", "mapping"),
        ("player_name: [unclosed\n", "not valid YAML"),
        ("tui:\n  autosave_seconds: soon\n", "tui.autosave_seconds"),
    ],
)
def test_a_bad_file_says_what_to_fix(tmp_path, text, fragment):
    path = tmp_path / "settings.yaml"
    path.write_text(text)
    with pytest.raises(SettingsError, match=fragment):
        load_settings(path)

"""``forumbot console-password``: the hash lands in the console file, never the password."""

from __future__ import annotations

from typer.testing import CliRunner

from forumbot.cli import app
from forumbot.console.console_file import FILE_NAME, ConsoleFile
from forumbot.console.passwords import verify_password

SEASON = '''name = "S1"
ruleset = "sunlight"
locale = "en"
organisers = ["Org"]
players = ["A", "B", "C", "D", "E", "F", "G"]
[forum]
engine = "flaskbb"
base_url = "http://127.0.0.1:1"
username = "judge"
password_env = "X"
thread_id = 1
'''


def test_a_password_from_standard_input_is_stored_as_its_hash(tmp_path):
    (tmp_path / "s1.toml").write_text(SEASON, encoding="utf-8")
    res = CliRunner().invoke(app, ["console-password", str(tmp_path), "Org", "--password-stdin"],
                             input="a long enough secret\n")
    assert res.exit_code == 0, res.output
    assert "console password set" in res.output and "warning" not in res.output
    text = (tmp_path / FILE_NAME).read_text(encoding="utf-8")
    assert "a long enough secret" not in text
    assert verify_password(ConsoleFile(tmp_path).password_hash("Org"), "a long enough secret")


def test_the_prompt_asks_twice_and_a_season_file_means_its_folder(tmp_path):
    season = tmp_path / "s1.toml"
    season.write_text(SEASON, encoding="utf-8")
    res = CliRunner().invoke(app, ["console-password", str(season), "Org"],
                             input="a long enough secret\na long enough secret\n")
    assert res.exit_code == 0, res.output
    assert verify_password(ConsoleFile(tmp_path).password_hash("Org"), "a long enough secret")


def test_a_short_password_is_refused_and_nothing_is_stored(tmp_path):
    res = CliRunner().invoke(app, ["console-password", str(tmp_path), "Org", "--password-stdin"], input="short\n")
    assert res.exit_code == 2 and "at least 10 characters" in res.output
    assert ConsoleFile(tmp_path).password_hash("Org") is None


def test_a_name_that_organises_nothing_is_warned_about_and_remove_removes(tmp_path):
    (tmp_path / "s1.toml").write_text(SEASON, encoding="utf-8")
    res = CliRunner().invoke(app, ["console-password", str(tmp_path), "Stranger", "--password-stdin"],
                             input="a long enough secret\n")
    assert res.exit_code == 0 and "not among the organisers" in res.output
    res = CliRunner().invoke(app, ["console-password", str(tmp_path), "Stranger", "--remove"])
    assert res.exit_code == 0 and ConsoleFile(tmp_path).password_hash("Stranger") is None


def test_a_missing_place_is_one_line(tmp_path):
    res = CliRunner().invoke(app, ["console-password", str(tmp_path / "nowhere"), "Org"])
    assert res.exit_code == 2 and res.output.count("\n") == 1 and "neither a season file" in res.output


def test_a_directory_that_cannot_hold_the_console_file_is_one_line(tmp_path, monkeypatch):
    """The console's file (its session secret) cannot be written: `run --web` stops with one line, exit 2."""
    import os

    from forumbot.console import console_file

    monkeypatch.delenv("FORUMBOT_CONSOLE_SECRET", raising=False)
    season = tmp_path / "s1.toml"
    season.write_text(SEASON, encoding="utf-8")

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(console_file.tempfile, "mkstemp", refuse)
    res = CliRunner().invoke(app, ["run", str(season), "--web", "--web-port", "0"], env={"X": "pw"})
    assert res.exit_code == 2, res.output
    assert "the console cannot start" in res.output and "cannot be written: Permission denied" in res.output
    assert "Traceback" not in res.output
    assert not os.path.exists(tmp_path / FILE_NAME)

"""The [forum] settings: validation, where the password comes from, and the adapter factory."""

from __future__ import annotations

from pathlib import Path

import pytest

from forumbot.forums.flaskbb import FlaskBBForum
from forumbot.forums.settings import ForumSettings, SettingsError, load_forum_settings, make_forum

BASE = {"base_url": "http://127.0.0.1:8080/", "username": "法官", "password_env": "TEST_FORUM_PW"}


def _season(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "season.toml"
    path.write_text(body, "utf-8")
    return path


def test_defaults_and_normalised_url():
    settings = ForumSettings.model_validate(BASE)
    assert settings.engine == "flaskbb"
    assert settings.base_url == "http://127.0.0.1:8080"
    assert settings.min_write_interval_seconds == 0 and settings.timeout_seconds == 20


def test_password_in_the_season_file_is_refused(tmp_path):
    path = _season(tmp_path, '[forum]\nbase_url = "http://h"\nusername = "u"\npassword = "hunter2"\n')
    with pytest.raises(SettingsError) as caught:
        load_forum_settings(path)
    assert "must not hold the password" in str(caught.value)
    assert "hunter2" not in str(caught.value)


def test_exactly_one_password_source():
    with pytest.raises(ValueError, match="exactly one"):
        ForumSettings.model_validate({**BASE, "password_file": "s.toml"})
    with pytest.raises(ValueError, match="exactly one"):
        ForumSettings.model_validate({"base_url": "http://h", "username": "u"})


def test_password_from_environment(monkeypatch):
    settings = ForumSettings.model_validate(BASE)
    monkeypatch.setenv("TEST_FORUM_PW", "s3cret")
    assert settings.password() == "s3cret"
    monkeypatch.delenv("TEST_FORUM_PW")
    with pytest.raises(SettingsError, match="TEST_FORUM_PW"):
        settings.password()


def test_password_from_secrets_files_relative_to_the_season(tmp_path):
    (tmp_path / "secrets.toml").write_text('[forum]\npassword = "from toml"\n', "utf-8")
    (tmp_path / "password.txt").write_text("from text\nignored\n", "utf-8")
    path = _season(tmp_path, '[forum]\nbase_url = "http://h"\nusername = "u"\npassword_file = "secrets.toml"\n')
    settings, base_dir = load_forum_settings(path)
    assert settings.password(base_dir) == "from toml"
    other = settings.model_copy(update={"password_file": Path("password.txt")})
    assert other.password(base_dir) == "from text"
    missing = settings.model_copy(update={"password_file": Path("nope.toml")})
    with pytest.raises(SettingsError, match="cannot read the secrets file"):
        missing.password(base_dir)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("[forum\n", "line 1: a table header must end with ']'"),
        ("[season]\nname = 'x'\n", "no [forum] table"),
        ('[forum]\nbase_url = "ftp://h"\nusername = "u"\npassword_env = "X"\n', "forum.base_url"),
        ('[forum]\nbase_url = "http://h"\nusername = "u"\npassword_env = "X"\nthread_id = -3\n', "forum.thread_id"),
        ('[forum]\nbase_url = "http://h"\nusername = "u"\npassword_env = "X"\ncolour = 1\n', "forum.colour"),
        ('[forum]\nengine = "mybb"\nbase_url = "http://h"\nusername = "u"\npassword_env = "X"\n', "forum.engine"),
    ],
)
def test_invalid_settings_are_explained(tmp_path, body, expected):
    with pytest.raises(SettingsError) as caught:
        load_forum_settings(_season(tmp_path, body))
    assert expected in str(caught.value)


def test_make_forum_builds_the_flaskbb_adapter(monkeypatch):
    monkeypatch.setenv("TEST_FORUM_PW", "pw")
    settings = ForumSettings.model_validate({**BASE, "min_write_interval_seconds": 15, "timeout_seconds": 7})
    forum = make_forum(settings)
    assert isinstance(forum, FlaskBBForum)
    assert forum.http.min_write_interval_seconds == 15
    assert forum.http.client.timeout.read == 7
    assert "pw" not in repr(forum)
    forum.close()


def test_make_forum_builds_the_phpbb_adapter_paced_by_its_flood_interval(monkeypatch):
    from forumbot.forums.phpbb import PhpBBForum

    monkeypatch.setenv("TEST_FORUM_PW", "pw")
    forum = make_forum(ForumSettings.model_validate({**BASE, "engine": "phpbb"}))
    assert isinstance(forum, PhpBBForum)
    assert forum.http.min_write_interval_seconds == 15  # phpBB's default flood interval
    forum.close()
    spared = make_forum(ForumSettings.model_validate({**BASE, "engine": "phpbb", "min_write_interval_seconds": 0}))
    assert spared.http.min_write_interval_seconds == 0
    spared.close()

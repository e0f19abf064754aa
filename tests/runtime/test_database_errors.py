"""A database the command line cannot open, reach or write gets one clear line and a non-zero exit, never
SQLAlchemy's traceback (issue 24): a read-only SQLite file or folder, a folder that does not exist, a
server that does not answer; and `status` of a season that never ran says so and creates nothing."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from bot_helpers import cli_season
from sqlalchemy import select
from typer.testing import CliRunner

import forumbot.cli.season as season_cli
import forumbot.runtime.runner as runner_module
from forumbot.cli import app
from forumbot.config import load_config
from forumbot.forums.memory import MemoryForum
from forumbot.runtime.bot import Bot
from forumbot.runtime.store import SeasonRow, make_engine

SEASON = cli_season("dbs", ["A", "B", "C", "D", "E"])


@contextlib.contextmanager
def read_only(*paths: Path):
    """``paths`` read-only for this process, root included (``chattr +i``: root ignores file modes)."""
    if os.geteuid() == 0:
        if shutil.which("chattr") is None:
            pytest.skip("running as root without chattr: nothing is read-only for root")
        for p in paths:
            if subprocess.run(["chattr", "+i", str(p)], capture_output=True).returncode:
                pytest.skip(f"chattr +i is not supported on {p}'s file system")
        try:
            yield
        finally:
            for p in paths:
                subprocess.run(["chattr", "-i", str(p)], check=False)
        return
    modes = {p: p.stat().st_mode for p in paths}
    for p in paths:
        os.chmod(p, 0o555 if p.is_dir() else 0o444)
    try:
        yield
    finally:
        for p, mode in modes.items():
            os.chmod(p, mode)


def _season(folder: Path, extra: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "season.toml"
    path.write_text(SEASON.replace('organisers = ["Org"]\n', f'organisers = ["Org"]\n{extra}'), encoding="utf-8")
    return path


@pytest.fixture
def no_forum(monkeypatch):
    """No forum and no runner: these commands must stop before either matters."""
    forum = MemoryForum("judge")
    monkeypatch.setattr(season_cli, "_forum", lambda config: forum)
    monkeypatch.setattr(season_cli, "make_forum", lambda settings, base_dir=None: forum)
    ran: list = []
    monkeypatch.setattr(runner_module, "run_bot", lambda bot, **_: ran.append(bot))
    return ran


def _one_line(result, *words: str) -> str:
    assert result.exit_code not in (0, None), result.output
    assert "Traceback" not in result.output and "sqlalchemy" not in result.output.lower(), result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    for word in words:
        assert word in lines[0], result.output
    return lines[0]


def test_run_in_a_read_only_folder(tmp_path, no_forum):
    path = _season(tmp_path / "ro")
    with read_only(tmp_path / "ro"):
        result = CliRunner().invoke(app, ["run", str(path)])
    _one_line(result, "error: season 'dbs'", "read-only", str(tmp_path / "ro"))
    assert no_forum == []


def test_run_and_status_of_a_read_only_database_file(tmp_path, no_forum):
    path = _season(tmp_path)
    Bot(load_config(path), MemoryForum("judge")).db.dispose()  # the database exists (not started)
    db = tmp_path / "season.db"
    with read_only(db):
        result = CliRunner().invoke(app, ["run", str(path)])
        _one_line(result, "error: season 'dbs'", "read-only", str(db))
        status = CliRunner().invoke(app, ["status", str(path)])
    assert "Traceback" not in status.output, status.output
    assert (status.exit_code == 0 and "not started" in status.output) or \
        _one_line(status, "read-only", str(db))  # reading may work; a failure is one line
    assert no_forum == []


def test_run_and_status_in_a_folder_that_does_not_exist(tmp_path, no_forum):
    path = _season(tmp_path, f'database = "sqlite:///{tmp_path}/gone/season.db"\n')
    for command in ("run", "status", "organiser"):
        args = [command, str(path)] + (["pause"] if command == "organiser" else [])
        result = CliRunner().invoke(app, args)
        if command == "run":
            _one_line(result, "error: season 'dbs'", f"no folder {tmp_path}/gone")
        else:  # no file: the season never ran, and looking creates nothing
            assert "not started" in result.output or "has not started" in result.output, result.output
    assert not (tmp_path / "gone").exists()


@pytest.mark.parametrize("command", ["run", "status", "organiser", "report"])
def test_a_database_server_that_does_not_answer(tmp_path, no_forum, command):
    pytest.importorskip("psycopg")
    path = _season(tmp_path, 'database = "postgresql+psycopg://judge:s3cret@127.0.0.1:1/forumbot"\n')
    args = [command, str(path)] + {"organiser": ["pause"], "report": ["-o", str(tmp_path / "out")]}.get(command, [])
    result = CliRunner().invoke(app, args)
    line = _one_line(result, "error: season 'dbs'", "cannot reach the database", "127.0.0.1:1")
    assert "s3cret" not in line  # the password is not printed
    assert no_forum == []


@pytest.mark.parametrize("command", ["status", "organiser", "report"])
def test_a_season_never_run_in_a_shared_database_is_not_started_and_nothing_is_created(tmp_path, command):
    shared = tmp_path / "shared.db"
    other = _season(tmp_path / "other", f'database = "sqlite:///{shared}"\n')
    Bot(load_config(other), MemoryForum("judge")).db.dispose()  # another season lives in that database
    path = _season(tmp_path / "mine", f'database = "sqlite:///{shared}"\n')
    text = path.read_text(encoding="utf-8").replace('name = "dbs"', 'name = "never run"')
    path.write_text(text, encoding="utf-8")
    args = [command, str(path)] + {"organiser": ["pause"], "report": ["-o", str(tmp_path / "out")]}.get(command, [])
    result = CliRunner().invoke(app, args)
    assert result.exit_code == (0 if command == "status" else 2), result.output
    assert "not started" in result.output, result.output
    with make_engine(f"sqlite:///{shared}").connect() as c:
        names = c.execute(select(SeasonRow.name)).scalars().all()
    assert names == ["dbs"]  # no row for the season looked at

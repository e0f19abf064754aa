"""`forumbot run` asks the forum whether every player's and organiser's account exists before it draws
the roles (issue 24): the check of `forumbot check --forum`; missing accounts stop it with their names and
the spelling to fix, no draw stored; a forum that cannot be asked is asked again, as for the login; a
season already started is not checked again."""

from __future__ import annotations

from bot_helpers import cli_season
from sqlalchemy import func, select
from typer.testing import CliRunner

import forumbot.cli.season as season_cli
import forumbot.runtime.runner as runner_module
from forumbot.cli import app
from forumbot.config import load_config
from forumbot.forums.errors import ForumDown
from forumbot.forums.memory import MemoryForum
from forumbot.runtime.bot import Bot
from forumbot.runtime.store import InputRow, make_engine

PLAYERS = ["张三", "李四", "王五", "趙六", "Alice"]
SEASON = cli_season("accounts", PLAYERS)


class CountingForum(MemoryForum):
    """The in-memory forum, counting look-ups; ``down_for`` logins fail first (the forum is down)."""

    def __init__(self, users: set[str], down_for: int = 0) -> None:
        super().__init__("judge", users=users)
        self.down_for = down_for
        self.lookups: list[str] = []

    def login(self) -> None:
        if self.down_for:
            self.down_for -= 1
            raise ForumDown("the forum at http://forum.test is not answering (503)")
        super().login()

    def find_user(self, name: str) -> str | None:
        self.lookups.append(name)
        return super().find_user(name)


def _setup(tmp_path, monkeypatch, forum):
    path = tmp_path / "season.toml"
    path.write_text(SEASON, encoding="utf-8")
    monkeypatch.setattr(season_cli, "_forum", lambda config: forum)
    monkeypatch.setattr(season_cli, "make_forum", lambda settings, base_dir=None: forum)
    ran: list = []
    monkeypatch.setattr(runner_module, "run_bot", lambda bot, **_: ran.append(bot))
    return path, ran


def _inputs(path) -> int:
    with make_engine(load_config(path).database_url).connect() as c:
        return c.execute(select(func.count()).select_from(InputRow)).scalar_one()


EVERYONE = {"judge", "张三", "李四", "王五", "趙六", "Alice", "Org"}


def test_a_player_without_an_account_stops_run_before_the_draw(tmp_path, monkeypatch):
    forum = CountingForum((EVERYONE - {"趙六", "Alice"}) | {"赵六"})  # the file writes 趙六 for 赵六; no Alice
    path, ran = _setup(tmp_path, monkeypatch, forum)
    result = CliRunner().invoke(app, ["run", str(path)])
    assert result.exit_code == 1, result.output
    assert ran == []  # the season was not run
    assert _inputs(path) == 0  # no start, no draw stored
    lines = [line for line in result.output.splitlines() if not line.startswith("WARNING: schedule.start")]
    assert lines[0].startswith("error: season 'accounts' does not start (no role is drawn)")
    zhao = [line for line in lines if "趙六" in line]
    assert len(zhao) == 1 and "赵六 exists" in zhao[0]  # one line each, with the spelling to write
    assert any("Alice" in line and "no account" in line for line in lines)
    assert any("Fix players / organisers in the season file" in line for line in lines)
    assert "Traceback" not in result.output


def test_an_organiser_without_an_account_stops_run(tmp_path, monkeypatch):
    path, ran = _setup(tmp_path, monkeypatch, CountingForum(EVERYONE - {"Org"}))
    result = CliRunner().invoke(app, ["run", str(path)])
    assert result.exit_code == 1 and ran == []
    assert any("organiser Org" in line for line in result.output.splitlines()), result.output


def test_every_account_found_runs_the_season(tmp_path, monkeypatch):
    forum = CountingForum(EVERYONE)
    path, ran = _setup(tmp_path, monkeypatch, forum)
    result = CliRunner().invoke(app, ["run", str(path)])
    assert result.exit_code == 0, result.output
    assert len(ran) == 1
    assert set(forum.lookups) >= {"张三", "趙六", "Org"}


def test_a_forum_that_cannot_be_asked_is_asked_again_not_taken_for_missing(tmp_path, monkeypatch):
    forum = CountingForum(EVERYONE, down_for=2)
    path, ran = _setup(tmp_path, monkeypatch, forum)
    import forumbot.cli.run_guard as run_guard

    waits: list[float] = []
    monkeypatch.setattr(run_guard, "_wait", lambda stop, seconds: waits.append(seconds))
    result = CliRunner().invoke(app, ["run", str(path)])
    assert result.exit_code == 0, result.output
    assert waits == [60.0, 60.0]  # asked again after the poll interval, as the login before the start is
    assert len(ran) == 1


def test_a_season_already_started_is_not_checked_again(tmp_path, monkeypatch):
    forum = CountingForum(EVERYONE)
    path, ran = _setup(tmp_path, monkeypatch, forum)
    bot = Bot(load_config(path), forum)
    bot.cycle()  # started (T0 is past): roles drawn
    assert bot.started
    bot.db.dispose()
    forum.users.discard("张三")  # the account went away since: the running game deals with it
    forum.lookups.clear()
    result = CliRunner().invoke(app, ["run", str(path)])
    assert result.exit_code == 0, result.output
    assert len(ran) == 1 and forum.lookups == []

"""`forumbot standings`: a season that has not started is left out without creating its database, and the
[params.series] line for the next game is printed only for a ruleset that reads it (killer_club)."""

from __future__ import annotations

from bot_helpers import Clock
from test_runtime_cli import SEASON
from typer.testing import CliRunner

from forumbot.cli import app
from forumbot.config import load_config
from forumbot.forums.memory import MemoryForum
from forumbot.runtime.bot import Bot


def test_standings_of_a_season_not_started_creates_nothing(tmp_path):
    path = tmp_path / "season.toml"
    path.write_text(SEASON, encoding="utf-8")
    out = CliRunner().invoke(app, ["standings", str(path)])
    assert out.exit_code == 1 and "Traceback" not in out.output
    assert "has not started, no games played yet" in out.output and "no finished game yet" in out.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["season.toml"]


def test_standings_give_the_series_line_for_killer_club(tmp_path):
    path = tmp_path / "game1.toml"
    path.write_text(SEASON.replace('"sunlight"', '"killer_club"').replace('roles = { "C" = "killer" }\n', "")
                    .replace('"E"]', '"E", "F"]'),
                    encoding="utf-8")
    clock = Clock()
    bot = Bot(load_config(path), MemoryForum("judge", clock), clock)
    bot.cycle()
    bot.organiser_command("end")
    clock.advance(1)
    bot.cycle()
    assert bot.game.finished
    out = CliRunner().invoke(app, ["standings", str(path)])
    assert out.exit_code == 0, out.output
    assert '[params.series]\nprevious_first_victims = [""]' in out.output

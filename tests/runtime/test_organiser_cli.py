"""`forumbot organiser` refuses, before storing anything, what the bot would never apply: a command for a
season that is over (no bot runs it any more), a replacement by the same account."""

from __future__ import annotations

from bot_helpers import Clock, Season, example_phases, play_phases
from test_runtime_cli import SEASON
from typer.testing import CliRunner

from forumbot.cli import app
from forumbot.config import load_config
from forumbot.forums.memory import MemoryForum
from forumbot.runtime.bot import Bot


def _inbound(path) -> int:
    """How many commands the command line has stored for the season at ``path``."""
    return Bot(load_config(path), None).store.next_cli_id() - 1


def test_organiser_refuses_a_finished_season_and_stores_nothing(tmp_path):
    path = tmp_path / "season.toml"
    path.write_text(SEASON.replace('["A", "B", "C", "D", "E"]', '["A", "B", "C", "D", "E", "F", "G"]'),
                    encoding="utf-8")
    config = load_config(path)
    clock = Clock()
    season = Season(config, MemoryForum("judge", clock), clock, config.database_url)
    play_phases(season, example_phases())
    assert season.bot.game.finished
    before = _inbound(path)
    for command in (["extend", "2h"], ["pause"], ["penalty", "A", "lurking"]):
        refused = CliRunner().invoke(app, ["organiser", str(path), *command])
        assert refused.exit_code == 2, refused.output
        assert "is over" in refused.output and len(refused.output.strip().splitlines()) == 1, refused.output
    assert _inbound(path) == before


def test_organiser_refuses_replacing_a_player_by_a_player(tmp_path):
    path = tmp_path / "season.toml"
    path.write_text(SEASON, encoding="utf-8")
    clock = Clock()
    bot = Bot(load_config(path), MemoryForum("judge", clock), clock)
    bot.cycle()
    before = _inbound(path)
    for new, words in (("A", "same player"), ("B", "already plays"), ("Org", "organiser"), ("", "new account's name")):
        refused = CliRunner().invoke(app, ["organiser", str(path), "replace", "A", *([new] if new else [])])
        assert refused.exit_code == 2 and words in refused.output, refused.output
        assert len(refused.output.strip().splitlines()) == 1, refused.output
    assert _inbound(path) == before

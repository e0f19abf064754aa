"""`forumbot status` as a terminal shows it (trial 2026-12-01, findings 16 and 21): plain text, not the
forum's markup, and a finished season whose file was edited is called over, not running."""

from __future__ import annotations

import pytest
from bot_helpers import Clock, cli_season
from typer.testing import CliRunner

from forumbot.cli import app
from forumbot.cli.text import plain
from forumbot.config import ConfigError, load_config
from forumbot.forums.memory import MemoryForum
from forumbot.render import escape
from forumbot.runtime.bot import Bot

SEASON = cli_season("terminal", ["A_1", "B", "C", "D", "E"])


def _season(tmp_path, monkeypatch):
    path = tmp_path / "season.toml"
    path.write_text(SEASON, encoding="utf-8")
    clock = Clock()
    bot = Bot(load_config(path), MemoryForum("judge", clock), clock)

    class SeasonClockBot(Bot):  # the command line's bot, on the season's test clock
        def __init__(self, config, forum=None, accept_new_rules=False, engine=None):
            super().__init__(config, forum, clock, engine=engine, accept_new_rules=accept_new_rules)

    monkeypatch.setattr("forumbot.runtime.bot.Bot", SeasonClockBot)
    bot.cycle()
    clock.advance(62)
    bot.cycle()
    return path, bot, clock


def test_status_shows_the_answer_to_the_command_line_without_markdown_escapes(tmp_path, monkeypatch):
    path, bot, clock = _season(tmp_path, monkeypatch)
    bot.organiser_command("penalty A_1 lurking")
    clock.advance(1)
    bot.cycle()
    out = CliRunner().invoke(app, ["status", str(path)]).output
    assert "answer to the command line" in out and "A_1" in out, out
    assert "\\" not in out and "**" not in out, out


@pytest.mark.parametrize("markup,text", [("markdown", "nobody_here *x* [b] \\ #1"), ("bbcode", "a[b]c[/b] [url]")])
def test_plain_takes_out_the_markup_of_an_escaped_name(markup, text):
    bold = "**{}**" if markup == "markdown" else "[b]{}[/b]"
    assert plain("Done: " + bold.format(escape(text, markup)), markup) == "Done: " + text


def test_a_finished_season_whose_file_was_edited_is_called_over(tmp_path, monkeypatch):
    path, bot, clock = _season(tmp_path, monkeypatch)
    bot.organiser_command("end")
    clock.advance(1)
    bot.cycle()
    assert bot.game.finished
    path.write_text(SEASON.replace('"E"]', '"F"]'), encoding="utf-8")
    out = CliRunner().invoke(app, ["status", str(path)]).output
    assert "is over and its file does not match it" in out and "running" not in out and "replace" not in out, out
    path.write_text(SEASON.replace('organisers = ["Org"]', 'organisers = ["Org", "Org2"]'), encoding="utf-8")
    with pytest.raises(ConfigError) as e:
        Bot(load_config(path), MemoryForum("judge", clock), clock)
    assert "is over and its file changed" in str(e.value) and "running" not in str(e.value), str(e.value)

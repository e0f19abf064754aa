"""`forumbot status` and `forumbot organiser` against a season's database."""

from __future__ import annotations

from bot_helpers import Clock, cli_season
from typer.testing import CliRunner

from forumbot.cli import app
from forumbot.config import load_config
from forumbot.forums.memory import MemoryForum
from forumbot.runtime.bot import Bot

SEASON = cli_season("cli", ["A", "B", "C", "D", "E"])


def test_status_and_organiser_commands(tmp_path, monkeypatch):
    path = tmp_path / "season.toml"
    path.write_text(SEASON, encoding="utf-8")
    runner = CliRunner()
    assert "not started" in runner.invoke(app, ["status", str(path)]).output
    assert not (tmp_path / "season.db").exists()  # looking does not create the database
    early = runner.invoke(app, ["organiser", str(path), "pause"])
    assert early.exit_code == 2 and "has not started" in early.output
    clock = Clock()
    forum = MemoryForum("judge", clock)
    bot = Bot(load_config(path), forum, clock)
    # The command line stamps an organiser command with its own clock: the season's test clock here, as
    # on a machine where both run (a wall-clock stamp would lie after T0 and wait for a later read).
    import forumbot.cli.season as season_cli
    monkeypatch.setattr(season_cli, "_bot", lambda config, forum=None, accept_new_rules=False: Bot(config, forum, clock, accept_new_rules=accept_new_rules))
    bot.cycle()
    clock.advance(62)
    bot.cycle()
    forum.player_pm("A", "投 B")
    clock.advance(1)
    bot.cycle()
    out = runner.invoke(app, ["status", str(path)]).output
    assert "vote round 1" in out and "to act: B, C, D, E" in out and "done:   A" in out and "sent" in out
    assert "killer" not in out
    for bad, words in ((["dance"], "not an organiser command"), (["extend", "30"], "with its unit"),
                       (["penalty", "Zed", "lurking"], "no player 'Zed'"), (["投", "A"], "player's command"),
                       (["extend", "99999999999h"], "at most 30 days")):
        refused = runner.invoke(app, ["organiser", str(path), *bad])
        assert refused.exit_code == 2 and words in refused.output, refused.output
    done = runner.invoke(app, ["organiser", str(path), "penalty", "E", "lurking"])
    assert done.exit_code == 0
    clock.advance(1)
    bot.cycle()
    assert bot.game.player(5).out_reason == "penalty"
    out = runner.invoke(app, ["status", str(path)]).output
    assert "answer to the command line" in out and "E" in out
    bad = runner.invoke(app, ["status", str(tmp_path / "missing.toml")])
    assert bad.exit_code == 2 and "cannot read" in bad.output


def test_standings_across_a_series(tmp_path):
    from bot_helpers import Season, example_phases, play_phases

    paths = []
    for number in (1, 2):
        path = tmp_path / f"game{number}.toml"
        path.write_text(SEASON.replace('name = "cli"', f'name = "game {number}"')
                        .replace('["A", "B", "C", "D", "E"]', '["A", "B", "C", "D", "E", "F", "G"]'), encoding="utf-8")
        config = load_config(path)
        clock = Clock()
        season = Season(config, MemoryForum("judge", clock), clock, config.database_url)
        play_phases(season, example_phases())
        assert season.bot.game.finished
        paths.append(str(path))
    out = CliRunner().invoke(app, ["standings", *paths])
    assert out.exit_code == 0, out.output
    lines = {line.split()[1]: line for line in out.output.splitlines() if line[:4].strip().isdigit()}
    assert lines["A"].split()[2:4] == ["2", "2"] and "good 2/2" in lines["A"]
    assert lines["C"].split()[2:4] == ["2", "0"] and "killer 0/2" in lines["C"]
    assert "[params.series]" not in out.output  # sunlight does not look back at earlier games

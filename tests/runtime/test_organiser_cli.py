"""`forumbot organiser` refuses, before storing anything, what the bot would never apply: a command for a
season that is over (no bot runs it any more), a replacement by the same account."""

from __future__ import annotations

import pytest
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


def _running(tmp_path, players='["A", "B", "C", "D", "E"]'):
    """A started season (the judge has read the forum once) on the memory forum, and its file."""
    path = tmp_path / "season.toml"
    path.write_text(SEASON.replace('["A", "B", "C", "D", "E"]', players).replace('"C" = "killer"', '"Carol" = "killer"')
                    if "Carol" in players else SEASON, encoding="utf-8")
    clock = Clock()
    bot = Bot(load_config(path), MemoryForum("judge", clock), clock)
    bot.cycle()
    return path


@pytest.mark.parametrize("command,words", [
    (["penalty", "Alicee", "lurking"], "did you mean Alice?"),
    (["replace", "Alic", "Zed"], "did you mean Alice?"),
    (["penalty", "Alice"], "penalty needs a reason: lurking or flooding"),
    (["penalty", "Alice", "sleeping"], "penalty needs a reason: lurking or flooding"),
])
def test_organiser_penalty_and_replace_need_the_exact_name_and_a_reason(tmp_path, command, words):
    path = _running(tmp_path, '["Alice", "Bob", "Carol", "Dave", "Erin"]')
    before = _inbound(path)
    refused = CliRunner().invoke(app, ["organiser", str(path), *command])
    assert refused.exit_code == 2 and words in refused.output, refused.output
    assert len(refused.output.strip().splitlines()) == 1, refused.output
    assert "not an organiser command" not in refused.output
    assert _inbound(path) == before


def _forum_with(monkeypatch, users=None, down=False):
    import forumbot.cli.season as season_cli
    from forumbot.forums.errors import ForumDown

    forum = MemoryForum("judge", Clock())
    forum.users = set(users or ())
    if down:
        def fail():
            raise ForumDown("connection refused")
        forum.login = fail
    monkeypatch.setattr(season_cli, "_forum", lambda config: forum)


def test_organiser_replace_refuses_an_account_the_forum_does_not_have(tmp_path, monkeypatch):
    path = _running(tmp_path)
    _forum_with(monkeypatch, users={"judge", "A", "B", "C", "D", "E", "Org", "Newbie", "赵六"})
    before = _inbound(path)
    for new, words in (("nobody_here", "no account 'nobody_here' on the forum"), ("趙六", "the account 赵六 exists")):
        refused = CliRunner().invoke(app, ["organiser", str(path), "replace", "A", new])
        assert refused.exit_code == 2 and words in refused.output, refused.output
        assert len(refused.output.strip().splitlines()) == 1, refused.output
    assert _inbound(path) == before
    done = CliRunner().invoke(app, ["organiser", str(path), "replace", "A", "Newbie"])
    assert done.exit_code == 0, done.output
    assert _inbound(path) == before + 1


def test_organiser_replace_when_the_forum_cannot_be_asked_says_how_to_force_it(tmp_path, monkeypatch):
    path = _running(tmp_path)
    _forum_with(monkeypatch, down=True)
    before = _inbound(path)
    refused = CliRunner().invoke(app, ["organiser", str(path), "replace", "A", "Newbie"])
    assert refused.exit_code == 2 and "could not ask the forum" in refused.output and "--no-check" in refused.output
    assert len(refused.output.strip().splitlines()) == 1, refused.output
    assert _inbound(path) == before
    forced = CliRunner().invoke(app, ["organiser", str(path), "replace", "A", "Newbie", "--no-check"])
    assert forced.exit_code == 0, forced.output
    assert _inbound(path) == before + 1


def test_organiser_status_by_pm_shows_the_deadline_and_who_still_has_to_act(tmp_path):
    from bot_helpers import make_season

    from forumbot.runtime.schedule import format_local

    s = make_season(tmp_path, list("ABCDEFG"), {"C": "killer"})
    s.bot.cycle()
    s.clock.advance(62)
    s.bot.cycle()
    s.forum.player_pm("A", "投 B")
    s.forum.player_pm("Org", "状态")
    s.forum.player_pm("Org", "罚分 G 潜水")
    s.clock.advance(1)
    s.bot.cycle()
    s.bot.cycle()
    deadline = format_local(s.bot.deadline(), s.bot.config.tz, "en")
    (status,) = [body for to, _, body in s.pms() if to == "Org" and "Still to act" in body]
    assert deadline in status and "Still to act (6): B, C, D, E, F, G." in status, status
    assert "killer" not in status
    told = [body for to, _, body in s.pms() if to == "G" and "penalty" in body]
    assert told and "lurking" in told[0] and "-30" in told[0], s.pms()


def test_organiser_refuses_a_second_penalty_of_the_same_player(tmp_path):
    """The newcomer's trial (2026-12-04): a second penalty was stored and announced "out" in the thread again."""
    path = tmp_path / "season.toml"
    path.write_text(SEASON, encoding="utf-8")
    clock = Clock()
    bot = Bot(load_config(path), MemoryForum("judge", clock), clock)
    bot.cycle()
    clock.advance(62)
    bot.cycle()
    bot.organiser_command("penalty A lurking")
    clock.advance(1)
    bot.cycle()
    assert bot.game.penalties == {1: "lurking"}
    before = _inbound(path)
    refused = CliRunner().invoke(app, ["organiser", str(path), "penalty", "A", "flooding"])
    assert refused.exit_code == 2 and "A has already been penalised (lurking)" in refused.output, refused.output
    assert len(refused.output.strip().splitlines()) == 1, refused.output
    assert _inbound(path) == before

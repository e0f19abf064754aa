"""What `forumbot status` tells the organiser (issue 27): a reason for every row not delivered ("after 1 attempt",
never an empty reason), `done:` lists only those who owed something this phase, one language a line, and a
forum that does not answer is shown rather than a bare "not started" (`status FILE` and `status DIR`)."""

from __future__ import annotations

from bot_helpers import Clock, cli_season
from typer.testing import CliRunner

import forumbot.cli.season as season_cli
from forumbot.cli import app
from forumbot.config import load_config
from forumbot.forums.memory import MemoryForum
from forumbot.runtime.bot import Bot

PLAYERS = ["A", "B", "C", "D", "E"]  # C is the killer (cli_season)


def _season(tmp_path, monkeypatch, name: str = "cli"):
    path = tmp_path / "season.toml"
    path.write_text(cli_season(name, PLAYERS), encoding="utf-8")
    clock = Clock()
    forum = MemoryForum("judge", clock)
    bot = Bot(load_config(path), forum, clock)
    monkeypatch.setattr(season_cli, "_bot", lambda config, forum=None, accept_new_rules=False:
                        Bot(config, forum, clock, accept_new_rules=accept_new_rules))
    return path, clock, forum, bot


def _status(path) -> str:
    done = CliRunner().invoke(app, ["status", str(path)])
    assert done.exit_code == 0, done.output
    return done.output


def test_a_row_in_flight_says_why_and_counts_its_attempt_in_the_singular(tmp_path, monkeypatch):
    path, _clock, _forum, bot = _season(tmp_path, monkeypatch)
    bot.cycle()
    row = next(r for r in bot.store.outbox() if r.kind == "pm")
    bot.store.update_outbox(row.id, status="sending", attempts=1)  # claimed, the request out, no answer stored
    out = _status(path)
    line = next(x for x in out.splitlines() if x.strip().startswith("sending:"))
    assert "after 1 attempt:" in line and "attempts" not in line
    assert line.rstrip().endswith("no answer from the forum yet (the bot looks for it on the forum before sending it again)")


def test_a_failure_without_text_is_named_by_its_kind(tmp_path, monkeypatch):
    path, clock, forum, bot = _season(tmp_path, monkeypatch)
    from forumbot.forums.errors import SendFailed

    send_pm = forum.send_pm

    def silent(user, subject, body, conversation_id=None):
        if user == "B":
            raise SendFailed("")  # a refusal whose exception has no text
        return send_pm(user, subject, body, conversation_id)

    forum.send_pm = silent  # type: ignore[method-assign]
    bot.cycle()
    clock.advance(1)
    bot.cycle()
    line = next(x for x in _status(path).splitlines() if "failed: private message to B" in x)
    assert line.rstrip().endswith("after 1 attempt: SendFailed"), line


def test_done_in_a_kill_round_lists_only_the_killer(tmp_path, monkeypatch):
    path, clock, forum, bot = _season(tmp_path, monkeypatch)
    bot.cycle()
    clock.advance(62)
    bot.cycle()
    for voter in ("A", "B", "C", "D"):
        forum.player_pm(voter, "投 E")
    for _ in range(6):  # the vote round ends (E is out), on to the kill round
        clock.advance(70)
        bot.cycle()
        clock.advance(5)
        bot.cycle()
        if bot.game.phase.kind == "kill":
            break
    assert bot.game.phase.kind == "kill", bot.game.phase.kind
    out = _status(path)
    assert "to act: C" in out and "done:   nobody" in out, out
    forum.player_pm("C", "杀 A")
    clock.advance(1)
    bot.cycle()
    out = _status(path)
    assert "to act: nobody" in out and "done:   C\n" in out, out  # not "A, B, C, D": they owed nothing


def test_a_forum_that_does_not_answer_is_shown_instead_of_not_started(tmp_path, monkeypatch):
    path, _clock, forum, bot = _season(tmp_path, monkeypatch, name="无人应答")
    forum.down = True
    bot.cycle()
    bot.cycle()
    out = _status(path)
    assert "season '无人应答': not started: the forum has not answered as it should since" in out, out
    assert "the forum is down (memory forum)" in out
    listing = CliRunner().invoke(app, ["status", str(tmp_path)]).output
    assert "无人应答: not started: the forum has not answered as it should since" in listing, listing
    forum.down = False
    bot.cycle()
    assert "not started" not in _status(path)
    assert "the forum has not answered" not in _status(path)  # cleared once it answers


def test_each_line_is_in_plain_words(tmp_path, monkeypatch):
    path = tmp_path / "season.toml"
    path.write_text(cli_season("新季", PLAYERS), encoding="utf-8")
    never = _status(path)
    assert never == f"season '新季': not started (no database yet): `forumbot run {path}` starts it\n"
    path, clock, _forum, bot = _season(tmp_path, monkeypatch)
    bot.cycle()
    out = _status(path)
    assert "prologue (before round 1)" in out and "round 0" not in out and "(phase 0)" not in out, out
    assert "  posts and private messages: 6 sent\n" in out and "outbox" not in out, out
    assert "  to act: nobody (no player has anything to do in this phase)\n" in out and "done:" not in out, out
    bot.store.update_outbox(next(r for r in bot.store.outbox() if r.kind == "pm").id, status="pending")
    clock.advance(62)
    bot.cycle()
    out = _status(path)
    assert "vote round 1 (the season's 2nd phase)" in out, out
    listing = CliRunner().invoke(app, ["status", str(tmp_path)]).output
    assert "cli: vote round 1 (the season's 2nd phase), deadline" in listing, listing
    assert "· posts and private messages: " in listing and "outbox" not in listing, listing


def test_outbox_words_name_every_state_in_words():
    from forumbot.cli.season import outbox_words

    assert outbox_words({"sent": 12, "pending": 2, "failed": 1, "note": 1}) == \
        "12 sent, 2 waiting to be sent, 1 failed (tried again later), 1 answers to the command line"
    assert outbox_words({"note": 1}, notes=False) == "none yet"


def test_the_deadline_says_how_far_it_is(tmp_path, monkeypatch):
    from datetime import timedelta

    from forumbot.cli.season import until_words

    path, clock, _forum, bot = _season(tmp_path, monkeypatch)
    bot.cycle()
    clock.advance(35)
    assert "UTC (in 25 s)" in _status(path)
    clock.advance(40)
    assert "(passed 15 s ago: the phase closes at the bot's next read of the forum)" in _status(path)
    now = clock.now
    assert until_words(now + timedelta(hours=2, minutes=5), now) == "in 2 h 05 min"
    assert until_words(now + timedelta(days=1, hours=3), now) == "in 1 d 3 h"

"""`forumbot init` asks for the season (issue 27): the ruleset, the roster, the time zone, the phase length and
deadline and the forum, each with a default (Enter keeps it) and an option for scripts (`--no-input`); a bad
answer is asked again, a bad option ends the command; the file written is the example with the answers, and
it checks (a file that would not is not written)."""

from __future__ import annotations

from datetime import time

from typer.testing import CliRunner

from forumbot.cli import app
from forumbot.config import load_config

#: the answers in the order asked: ruleset, name, locale, players, organisers, time zone (a wrong one first),
#: phase length, daily deadline, engine, address, judge, thread id, board id
ANSWERS = ["killer_club", "夏季杀", "en", "A, B，C、D, E, F, G, H", "Org", "Europe/Mars", "Europe/Berlin", "20h", "21:30",
           "phpbb", "https://bbs.example.com/", "Judge", "", "5"]


def test_init_asks_and_writes_the_answers_into_a_file_that_checks(tmp_path) -> None:
    path = tmp_path / "s.toml"
    done = CliRunner().invoke(app, ["init", str(path)], input="\n".join(ANSWERS) + "\n")
    assert done.exit_code == 0, done.output
    assert "Players' forum user names, in seat order" in done.output and "Time zone of the deadlines" in done.output
    assert "'Europe/Mars' is not a time zone name" in done.output  # asked again
    c = load_config(path)
    assert (c.ruleset, c.name, c.locale, c.time_zone) == ("killer_club", "夏季杀", "en", "Europe/Berlin")
    assert c.players == ["A", "B", "C", "D", "E", "F", "G", "H"] and c.organisers == ["Org"]
    assert c.schedule.default == "20h" and c.schedule.daily_deadline == time(21, 30)
    assert (c.forum.engine, c.forum.base_url, c.forum.username) == ("phpbb", "https://bbs.example.com", "Judge")
    assert c.forum.thread_id is None and c.forum.forum_id == 5
    assert c.forum.min_write_interval_seconds == 15  # phpBB's own default, not the FlaskBB example's 0
    text = path.read_text(encoding="utf-8")
    assert "# Forum accounts whose private messages are obeyed as organiser commands" in text  # comments kept
    assert c.aliases == {}  # the example's aliases named players who are not in this season
    assert "14 players" not in text  # the example's comment on its own roster
    assert "# The players' forum user names, in seat order (seat 1 first)" in text
    assert CliRunner().invoke(app, ["check", str(path)]).exit_code == 0


def test_init_for_scripts_takes_options_and_asks_nothing(tmp_path) -> None:
    path = tmp_path / "t.toml"
    done = CliRunner().invoke(app, ["init", str(path), "--players", "a,b,c,d,e", "--timezone", "Asia/Shanghai",
                                    "--forum-url", "https://x.example", "--thread-id", "12", "--forum-id", "none",
                                    "--daily-deadline", "none", "--judge", "法官2", "--no-input"])
    assert done.exit_code == 0, done.output
    assert "Time zone of the deadlines" not in done.output  # nothing asked
    c = load_config(path)
    assert c.ruleset == "sunlight" and c.players == ["a", "b", "c", "d", "e"] and c.time_zone == "Asia/Shanghai"
    assert (c.forum.thread_id, c.forum.forum_id, c.forum.username) == (12, None, "法官2")
    assert c.schedule.daily_deadline is None
    assert "thread_id = 12            # an existing game thread" in path.read_text(encoding="utf-8")


def test_enter_keeps_the_examples_values(tmp_path) -> None:
    path = tmp_path / "u.toml"
    done = CliRunner().invoke(app, ["init", str(path), "--ruleset", "human_kill"], input="\n" * 12)
    assert done.exit_code == 0, done.output
    c = load_config(path)
    assert c.ruleset == "human_kill" and c.name == "人类杀 第1局" and len(c.players) == 10


def test_a_bad_option_or_a_file_that_would_not_check_is_not_written(tmp_path) -> None:
    path = tmp_path / "v.toml"
    bad = CliRunner().invoke(app, ["init", str(path), "--timezone", "Mars/Base", "--no-input"])
    assert bad.exit_code == 2 and "--timezone: 'Mars/Base' is not a time zone name" in bad.output
    too_few = CliRunner().invoke(app, ["init", str(path), "--players", "a", "--no-input"])
    assert too_few.exit_code == 2 and "needs at least 4 players" in too_few.output
    assert f"{path} was not written" in too_few.output and "Traceback" not in too_few.output
    assert not path.exists() and list(tmp_path.iterdir()) == []  # no temporary file left either

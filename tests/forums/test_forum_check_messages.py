"""The words of ``forumbot check --forum`` / ``forum-check`` (issue 27): a missing thread does not stop the check (the
inbox and the accounts are still checked, every problem reported in one run); the accounts line counts players
and organisers each against its own whole; the forum's message keeps one full stop; the judge's own private
messages are not counted as received; phpBB's advice on a group's PM limit is right for 3.3 (0 is the board's
default, not unlimited); NodeBB's warnings quote no post delay the forum did not give."""

from __future__ import annotations

import sys
from pathlib import Path

from typer.testing import CliRunner

import forumbot.cli.season as season_cli
from forumbot.cli import app
from forumbot.forums.check import _report, account_report, diagnose
from forumbot.forums.errors import AuthFailed
from forumbot.forums.memory import MemoryForum
from forumbot.forums.settings import ForumSettings

SETTINGS = ForumSettings(engine="flaskbb", base_url="http://x", username="judge", password_env="X", thread_id=77)


def test_a_missing_thread_is_an_error_line_and_the_inbox_and_accounts_are_still_checked(tmp_path, monkeypatch):
    forum = MemoryForum("judge", users={"judge", "A", "B", "C", "D", "Org"})
    forum.player_pm("A", "hello", subject="hi judge")
    monkeypatch.setattr(season_cli, "make_forum", lambda settings, base_dir: forum)
    monkeypatch.setenv("FC_PW", "x")
    season = tmp_path / "season.toml"
    season.write_text('name = "s"\nruleset = "sunlight"\nplayers = ["A", "B", "C", "D", "Zed"]\n'
                      'organisers = ["Org"]\n[forum]\nbase_url = "http://x"\nusername = "judge"\n'
                      'password_env = "FC_PW"\nthread_id = 77\n', "utf-8")
    done = CliRunner().invoke(app, ["check", str(season), "--forum"])
    assert done.exit_code == 1, done.output
    assert "  ERROR: Not found: thread 77 does not exist. Check forum.thread_id (77)" in done.output
    assert "Inbox: 1 private message received from 1 user:" in done.output  # read after the thread failed
    assert "Accounts: 1 of the 5 players has no account of that exact name on the forum:" in done.output
    assert "player Zed: no account of this name" in done.output


def test_accounts_count_players_and_organisers_each_of_its_own():
    forum = MemoryForum("judge", users={"A", "B", "C"})
    lines, missing = account_report(forum, ["A", "B", "C", "Dee"], ["Org"])
    assert missing == 2
    assert lines[0] == ("Accounts: 1 of the 4 players and the organiser have no account of that exact name "
                        "on the forum:")  # was "2 of the 4 players and 1 organiser", listing 1 player
    assert sum(line.startswith("  ERROR: player ") for line in lines) == 1
    assert sum(line.startswith("  ERROR: organiser ") for line in lines) == 1
    lines, missing = account_report(forum, ["A", "X", "Y", "C"], [])
    assert lines[0].startswith("Accounts: 2 of the 4 players have no account")


def test_the_forums_full_stop_is_not_doubled():
    said = diagnose(AuthFailed("Wrong username or password."), SETTINGS)
    assert said.startswith("Login failed: Wrong username or password. Check forum.username")
    assert ".." not in said
    assert diagnose(AuthFailed(""), SETTINGS).startswith("Login failed: AuthFailed. Check")


def test_the_judges_own_private_messages_are_not_counted_as_received():
    forum = MemoryForum("judge")
    forum.player_pm("alice", "a command", subject="from alice")
    forum.player_pm("judge", "the role message, seen in its conversation", subject="your role")
    lines = list(_report(forum, SETTINGS.model_copy(update={"thread_id": None})))
    start = next(i for i, line in enumerate(lines) if line.startswith("Inbox:"))
    assert lines[start] == ("Inbox: 1 private message received from 1 user (and 1 of the judge's own, not counted):")
    assert lines[start + 1].endswith("from alice at " + lines[start + 1].split(" at ")[1])
    assert not any("from judge" in line for line in lines)


def test_phpbb_advice_on_the_groups_pm_limit_says_that_0_is_the_boards_default():
    sys.path.insert(0, str(Path(__file__).parent / "phpbb"))
    from test_phpbb_recorded import check_reports

    _, good, _ = check_reports()
    advice = next(line for line in good if "holds new messages back" in line)
    assert "0 = unlimited" not in advice
    assert "0 there is not unlimited but the board's default" in advice
    assert "to at least 115" in advice  # 3 stored + 14 × 8 expected


def test_nodebb_warnings_quote_no_stock_post_delay_as_the_forums():
    sys.path.insert(0, str(Path(__file__).parent / "nodebb"))
    from test_nodebb_recorded import replay

    result, _ = replay("forum-check")
    stock = "\n".join(result["stock"])
    assert "newbiePostDelay (120 s)" not in stock  # /api/config has no post delays: 120 s is only the stock one
    assert "newbiePostDelay (which the forum does not show the judge: 120 s in a stock NodeBB" in stock


def test_nodebb_warning_quotes_the_forums_own_delay_when_it_gives_one():
    from forumbot.forums.nodebb import _newbie_delay

    assert _newbie_delay({"newbiePostDelay": 30}) == "newbiePostDelay (30 s on this forum)"


def test_a_missing_phpbb_thread_does_not_stop_the_board_checks():
    from forumbot.forums.errors import NotFound
    from forumbot.forums.phpbb_check import phpbb_report

    class Board:
        def judge_groups(self):
            return ["Registered users"]

        def inbox_folder_usage(self):
            return 0, None

        def moderates(self, thread_id):
            raise NotFound(f"topic {thread_id} does not exist")

    settings = ForumSettings(engine="phpbb", base_url="http://x", username="judge", password_env="X", thread_id=77)
    lines = list(phpbb_report(Board(), settings, 5))
    assert lines[-1].startswith("Board settings to check with the administrator")
    assert not any("cannot lock the thread" in line for line in lines)

"""``forumbot forum-check`` against the real FlaskBB, run as the organiser would (a subprocess)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.e2e


def _check(tmp_path, forum_table: str, env: dict[str, str] | None = None):
    season = tmp_path / "season.toml"
    season.write_text('[season]\nname = "test"\n\n[forum]\n' + forum_table, "utf-8")
    return subprocess.run(
        [sys.executable, "-m", "forumbot", "forum-check", str(season)],
        capture_output=True, text=True, env={**os.environ, **(env or {})},
    )


def _table(forum, **extra) -> str:
    lines = [f'base_url = "{forum.base_url}"', f'username = "{forum.judge.name}"', 'password_env = "FC_PW"']
    lines += [f"{k} = {v!r}" if isinstance(v, str) else f"{k} = {v}" for k, v in extra.items()]
    return "\n".join(lines) + "\n"


def test_reports_thread_and_inbox_without_posting(forum, judge, player, tmp_path):
    thread = judge.create_thread(forum.forum_id, "检查", "opening post")
    player("小明").reply(thread, "我是好人")
    player("alice").send_pm("法官", "check me", "hello judge")
    before = judge.thread_posts(thread)
    done = _check(tmp_path, _table(forum, thread_id=thread, forum_id=forum.forum_id), {"FC_PW": forum.judge.password})
    assert done.returncode == 0, done.stderr
    assert "as 法官" in done.stdout
    assert f"Thread {thread}: 2 posts by 2 users" in done.stdout
    assert "我是好人" in done.stdout
    assert "from alice" in done.stdout
    assert "Mailbox:" in done.stdout
    assert judge.thread_posts(thread) == before  # nothing posted


def test_wrong_password_is_one_paragraph_without_traceback(forum, tmp_path):
    done = _check(tmp_path, _table(forum, thread_id=1), {"FC_PW": "wrong-password-123"})
    assert done.returncode == 1
    assert done.stderr.startswith("Login failed:") and "FC_PW" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert "wrong-password-123" not in done.stderr + done.stdout


def test_unknown_thread_is_explained(forum, tmp_path):
    done = _check(tmp_path, _table(forum, thread_id=99999), {"FC_PW": forum.judge.password})
    assert done.returncode == 1
    # an ERROR line of the report, and the check goes on to the inbox (issue 27)
    assert "  ERROR: Not found:" in done.stdout and "thread_id (99999)" in done.stdout
    assert "Inbox:" in done.stdout.split("ERROR: Not found:")[1]
    assert "Traceback" not in done.stderr


def test_forum_not_running_is_explained(tmp_path):
    table = 'base_url = "http://127.0.0.1:9"\nusername = "u"\npassword_env = "FC_PW"\nretries = 0\n'
    done = _check(tmp_path, table, {"FC_PW": "x"})
    assert done.returncode == 1
    assert done.stderr.startswith("Cannot reach the forum:") and "127.0.0.1:9" in done.stderr


def test_missing_password_variable_is_a_settings_problem(forum, tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "FC_PW"}
    season = tmp_path / "season.toml"
    season.write_text("[forum]\n" + _table(forum), "utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "forumbot", "forum-check", str(season)],
        capture_output=True, text=True, env=env,
    )
    assert done.returncode == 2
    assert "FC_PW" in done.stderr and "Traceback" not in done.stderr


def _season_check(tmp_path, forum, players: list[str], organisers: list[str]):
    season = tmp_path / "season.toml"
    names = ", ".join(f'"{p}"' for p in players)
    orgs = ", ".join(f'"{o}"' for o in organisers)
    season.write_text(f'name = "账号检查"\nruleset = "sunlight"\nplayers = [{names}]\norganisers = [{orgs}]\n'
                      f'[forum]\nforum_id = {forum.forum_id}\n' + _table(forum), "utf-8")
    return subprocess.run(
        [sys.executable, "-m", "forumbot", "check", str(season), "--forum"],
        capture_output=True, text=True, env={**os.environ, "FC_PW": forum.judge.password},
    )


def test_season_check_finds_every_account(forum, judge, tmp_path):
    assert judge.find_user("小红") == "小红" and judge.find_user("小紅") is None
    done = _season_check(tmp_path, forum, ["小明", "小红", "alice", "bob", "王大锤"], ["bob"])
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Accounts: the 5 players all have an account on the forum." in done.stdout


def test_season_check_names_a_player_without_an_account(forum, tmp_path):
    # 小紅 is the traditional spelling of the account 小红; 主持人 has no account at all.
    done = _season_check(tmp_path, forum, ["小明", "小紅", "alice", "bob", "王大锤"], ["主持人"])
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Accounts: 1 of the 5 players and the organiser have no account of that exact name" in done.stdout
    assert "player 小紅: no account of this name on the forum; the account 小红 exists" in done.stdout
    assert "organiser 主持人: no account of this name" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr


def test_organiser_replace_asks_flaskbb_whether_the_new_account_exists(forum, tmp_path, monkeypatch):
    """What `forumbot organiser SEASON replace OLD NEW` asks the forum before storing the replacement,
    against the real FlaskBB: an account that exists passes; one that does not (or is spelt in the other
    script) is refused in one line; a forum that does not answer is refused with the way to force it."""
    from forumbot.cli.season import _no_account
    from forumbot.config import load_config

    monkeypatch.setenv("FC_PW", forum.judge.password)
    season = tmp_path / "season.toml"
    season.write_text(f'name = "替换"\nruleset = "sunlight"\nplayers = ["小明", "alice", "bob", "王大锤", "小红"]\n'
                      f'[forum]\nforum_id = {forum.forum_id}\n' + _table(forum, retries=0), "utf-8")
    config = load_config(season)
    assert _no_account(config, "bob") is None
    assert "no account 'nobody_here' on the forum" in (_no_account(config, "nobody_here") or "")
    assert "the account 小红 exists" in (_no_account(config, "小紅") or "")
    down = load_config(season).model_copy(
        update={"forum": config.forum.model_copy(update={"base_url": "http://127.0.0.1:9"})})
    refusal = _no_account(down, "bob") or ""
    assert "could not ask the forum" in refusal and "--no-check" in refusal

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
        capture_output=True, text=True, timeout=120, env={**os.environ, **(env or {})},
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
    assert done.stderr.startswith("Not found:") and "thread_id (99999)" in done.stderr
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
        capture_output=True, text=True, timeout=120, env=env,
    )
    assert done.returncode == 2
    assert "FC_PW" in done.stderr and "Traceback" not in done.stderr

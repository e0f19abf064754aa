"""`forumbot run` checks every account on the real FlaskBB before it draws the roles (issue 24): the
traditional spelling 小紅 of the account 小红 stops it with the name and the spelling to write, and no
role is drawn; run as the organiser would (a subprocess)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys

import pytest

pytestmark = pytest.mark.e2e


def test_run_refuses_a_season_whose_player_has_no_account(forum, tmp_path):
    season = tmp_path / "season.toml"
    season.write_text(
        'name = "账号检查"\nruleset = "sunlight"\nplayers = ["小明", "小紅", "alice", "bob", "王大锤"]\n'
        f'organisers = ["bob"]\n[forum]\nforum_id = {forum.forum_id}\nbase_url = "{forum.base_url}"\n'
        f'username = "{forum.judge.name}"\npassword_env = "FC_PW"\n', "utf-8")
    done = subprocess.run([sys.executable, "-m", "forumbot", "run", str(season)], capture_output=True, text=True,
                          timeout=300, env={**os.environ, "FC_PW": forum.judge.password})
    assert done.returncode == 1, done.stdout + done.stderr
    assert "does not start (no role is drawn)" in done.stderr
    assert "player 小紅: no account of this name on the forum; the account 小红 exists" in done.stderr
    assert "Traceback" not in done.stderr
    with sqlite3.connect(tmp_path / "season.db") as db:
        assert db.execute("SELECT count(*) FROM game_input").fetchone() == (0,)  # nothing started, nothing drawn

"""The README's first command: `forumbot demo` (a rehearsal of the sunlight example) plays a whole season on a local
FlaskBB, every player simulated, and no command of theirs comes after the deadline of the phase it was played in."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from season_driver import file_signs, wait_for

pytestmark = pytest.mark.e2e


def test_demo_plays_a_whole_season(tmp_path):
    out, err = tmp_path / "stdout", tmp_path / "stderr"
    with open(out, "wb") as o, open(err, "wb") as e:
        demo = subprocess.Popen(
            [sys.executable, "-m", "forumbot", "demo", "--no-wait", "--players", "5", "--speed", "100000",
             "--locale", "en"],
            stdout=o, stderr=e, stdin=subprocess.DEVNULL,
        )
    try:  # as long as it takes while the demo logs what it does (a busy machine is slow, not stuck)
        wait_for(lambda: demo.poll() is not None, "the demo to end", lambda: file_signs(out, err),
                 tail=lambda: err.read_text("utf-8", "replace")[-3000:])
    finally:
        if demo.poll() is None:
            demo.kill()
            demo.wait()
    stdout, stderr = out.read_text("utf-8"), err.read_text("utf-8")
    assert demo.returncode == 0, stdout + stderr
    assert re.search(r"The game thread: http://127\.0\.0\.1:\d+/topic/\d+", stdout)
    assert "Winner: " in stdout and "Traceback" not in stdout + stderr
    ranks = re.findall(r"^\s+\d+\. ", stdout, flags=re.M)
    assert len(ranks) == 5
    assert re.search(r"^The season report: .*index\.html$", stdout, flags=re.M), stdout
    assert "Note:" not in stdout, stdout  # the bot read every command in its phase, in the order it was played

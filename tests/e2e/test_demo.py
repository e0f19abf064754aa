"""The README's first command: `forumbot demo` plays a whole season on a local FlaskBB."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

pytestmark = pytest.mark.e2e


def test_demo_plays_a_whole_season():
    done = subprocess.run(
        [sys.executable, "-m", "forumbot", "demo", "--no-wait", "--players", "5", "--phase-seconds", "5", "--locale", "en"],
        capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"The game thread: http://127\.0\.0\.1:\d+/topic/\d+", done.stdout)
    assert "Winner: " in done.stdout and "Traceback" not in done.stdout + done.stderr
    ranks = re.findall(r"^\s+\d+\. ", done.stdout, flags=re.M)
    assert len(ranks) == 5

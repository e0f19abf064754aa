"""SIGTERM or SIGHUP to the process that started a test forum (``forumbot demo``, ``scripts/demo``, a test
run) stops the forum and removes its folders, as Ctrl-C does: the forum runs in its own session, so the
signal never reaches it, and by default those signals end the owner before any cleanup runs.

A stand-in server (plain Python, no FlaskBB) plays the forum: it is started and stopped the way FlaskBB is.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from stand_in_forum import stand_in_forum

FAKE_FORUM = stand_in_forum('''
(instance / "pid").write_text(str(os.getpid()))
if os.environ["FAKE_FORUM_ANSWERS"] == "0":  # stuck at start
    time.sleep(600)
''')

# The harness with the stand-in server, then: the real `forumbot demo`, whose forum never answers (the
# signal comes while it starts); a started forum and a demo folder held open, as the demo does while the
# forum stays up for a browser; or a started forum while SIGTERM has its own handler, as while run_bot runs.
OWNER = '''
import sys, time
from pathlib import Path
import forumbot.testforum.harness as harness
harness.ensure_forum_python = lambda: Path(sys.executable)
harness.ensure_template_db = lambda: Path(sys.argv[1])
harness.FORUM_MAIN = Path(sys.argv[2])
if sys.argv[3] == "demo":
    from forumbot.cli import app
    app(["demo", "--players", "4"])
elif sys.argv[3] == "running":  # a bot runs: run_bot stops on SIGTERM after its cycle
    import signal, threading
    stop = threading.Event()
    with harness.start_forum(players=["a"]) as forum:
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
        print("up", flush=True)
        stop.wait()
        print("stopping the forum")
else:
    from forumbot.cli.demo import demo_folder
    with harness.start_forum(players=["a"]) as forum, demo_folder(keep=False) as folder:
        try:
            print("up", flush=True)  # in the try: a signal the moment "up" is read is caught as the demo's wait catches it
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            print("stopping the forum")
'''


def _wait_for(what, seconds: float = 60.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if found := what():
            return found
        time.sleep(0.05)
    raise AssertionError("timed out waiting")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.parametrize(("when", "sig"), [("starting", signal.SIGTERM), ("up", signal.SIGTERM), ("up", signal.SIGHUP),
                                          ("running", signal.SIGHUP)])
def test_a_termination_signal_stops_the_forum_and_removes_its_folders(tmp_path: Path, when: str, sig: int) -> None:
    (tmp_path / "fake_forum.py").write_text(FAKE_FORUM, encoding="utf-8")
    (tmp_path / "template.sqlite").write_bytes(b"")
    temp = tmp_path / "temp"
    temp.mkdir()
    env = {**os.environ, "TMPDIR": str(temp), "FAKE_FORUM_ANSWERS": "0" if when == "starting" else "1"}
    owner = subprocess.Popen(
        [sys.executable, "-c", OWNER, str(tmp_path / "template.sqlite"), str(tmp_path / "fake_forum.py"),
         {"starting": "demo", "up": "hold"}.get(when, when)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        pid_file = _wait_for(lambda: next(temp.glob("forumbot-forum-*/pid"), None))
        server = int(_wait_for(pid_file.read_text))
        if when != "starting":
            assert owner.stdout is not None and owner.stdout.readline() == "up\n"
        if when == "up":
            assert len(list(temp.glob("forumbot-demo-*"))) == 1
        owner.send_signal(sig)
        out, _ = owner.communicate(timeout=60)
    finally:
        if owner.poll() is None:
            owner.kill()
    try:
        if when == "starting":
            assert owner.returncode == 130, out  # as after Ctrl-C
        else:
            assert "stopping the forum" in out, out
        _wait_for(lambda: not _alive(server), 30)
        assert "Traceback" not in out, out
        assert list(temp.iterdir()) == [], out  # the forum's and the demo's folders are gone
    finally:
        if _alive(server):
            os.kill(server, signal.SIGKILL)

"""The test forum's start waits as long as the forum makes progress (issue 24: on a busy machine FlaskBB took
more than the old fixed 60 s to start), and a stuck or dead forum still fails with its log's tail.

A stand-in server (plain Python, no FlaskBB) plays the forum, started the way FlaskBB is; its start is made
slow on purpose (steps logged, CPU burnt) and the stall limit short, so nothing here depends on the machine's
speed: a step of the stand-in takes a fraction of the limit at most while it progresses."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from stand_in_forum import stand_in_forum

from forumbot.testforum import HarnessError, RunningForum, harness

FAKE_FORUM = stand_in_forum('''
how = os.environ["FAKE_FORUM_START"]
if how == "dead":
    print("starting: importing FlaskBB", flush=True)
    sys.exit("ImportError: no FlaskBB here")
if how == "stuck":  # a step that never ends and uses no CPU (a lock never released)
    print("starting: waiting for a lock", flush=True)
    time.sleep(600)
if how == "slow-steps":  # one step logged every 0.3 s, for 3 s in all
    for i in range(10):
        print(f"starting: step {i}", flush=True)
        time.sleep(0.3)
if how == "busy":  # 3 s of work without a word (importing a big package on a busy machine)
    end = time.monotonic() + 3
    while time.monotonic() < end:
        pass
''')


@pytest.fixture
def fake_forum(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    script = tmp_path / "fake_forum.py"
    script.write_text(FAKE_FORUM, encoding="utf-8")
    monkeypatch.setattr(harness, "FORUM_MAIN", script)
    made: list[RunningForum] = []

    def make(how: str) -> RunningForum:
        monkeypatch.setenv("FAKE_FORUM_START", how)
        instance = tmp_path / f"forum-{how}"
        instance.mkdir()
        spec = {"port": harness.free_port(), "judge": {"name": "j", "password": "p"}, "players": []}
        forum = RunningForum(instance, spec, Path(sys.executable), keep=True)
        made.append(forum)
        return forum

    yield make
    for forum in made:
        forum.close()


@pytest.mark.parametrize("how", ["slow-steps", "busy"])
def test_a_start_longer_than_the_stall_limit_waits_while_the_forum_progresses(fake_forum, how):
    forum = fake_forum(how)
    forum.start(stall_seconds=1.5)  # the start takes about 3 s: twice the limit, progressing all along
    assert forum.running and forum.forum_id == 1
    assert "serving" in forum.log_tail()


def test_a_stuck_forum_fails_with_its_log_tail_and_is_stopped(fake_forum):
    forum = fake_forum("stuck")
    with pytest.raises(HarnessError) as caught:
        forum.start(stall_seconds=1.5)
    assert "no progress" in str(caught.value) and "waiting for a lock" in str(caught.value)
    assert not forum.running


def test_a_forum_that_exits_at_start_fails_with_its_log_tail(fake_forum):
    forum = fake_forum("dead")
    with pytest.raises(HarnessError) as caught:
        forum.start(stall_seconds=60)
    assert "exited at start" in str(caught.value) and "no FlaskBB here" in str(caught.value)


def test_a_forum_busy_forever_is_given_up_in_the_end(fake_forum, monkeypatch):
    forum = fake_forum("slow-steps")
    monkeypatch.setattr(RunningForum, "give_up_seconds", 1.0)
    with pytest.raises(HarnessError) as caught:
        forum.start(stall_seconds=60)
    assert "still starting after 1 s" in str(caught.value) and "step" in str(caught.value)

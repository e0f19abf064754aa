"""The report of ``forumbot check --forum`` / ``forum-check`` says how many private messages it lists when it
lists only the newest of them (it said "4 private messages" and listed 3)."""

from __future__ import annotations

import pytest

from forumbot.forums.check import _report
from forumbot.forums.memory import MemoryForum
from forumbot.forums.settings import ForumSettings


@pytest.mark.parametrize(("count", "heading"), [
    (0, "Inbox: 0 private messages received from 0 users."),
    (2, "Inbox: 2 private messages received from 2 users:"),
    (4, "Inbox: 4 private messages received from 2 users; the last 3:"),
])
def test_inbox_heading_says_how_many_it_lists(count: int, heading: str) -> None:
    forum = MemoryForum("judge")
    for i in range(count):
        forum.player_pm(["alice", "bob"][i % 2], f"message {i}", subject=f"subject {i}")
    settings = ForumSettings(engine="flaskbb", base_url="http://x", username="judge", password_env="X")
    lines = list(_report(forum, settings))
    start = next(i for i, line in enumerate(lines) if line.startswith("Inbox:"))
    assert lines[start] == heading
    listed = [line for line in lines[start + 1:] if line.startswith("  ") and " from " in line]
    assert len(listed) == min(count, 3)
    assert count == 0 or listed[-1].endswith(f"subject {count - 1}")

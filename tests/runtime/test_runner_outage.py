"""The runner during an outage: a due instant the bot cannot act on (the forum down) does not make it
run cycle after cycle without pause (seen: a bot at 35% CPU for an hour after its forum went away)."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

from bot_helpers import make_config

from forumbot.forums.memory import MemoryForum
from forumbot.runtime.bot import Bot
from forumbot.runtime.runner import run_bot
from forumbot.runtime.store import make_engine


def test_a_due_start_with_the_forum_down_waits_for_the_next_poll_instead_of_spinning(tmp_path):
    start = datetime.now(UTC) - timedelta(minutes=5)
    config = make_config(tmp_path, ["A", "B", "C", "D"], schedule={"start": start.replace(tzinfo=None).isoformat(),
                                                                    "poll_interval": "1s"})
    forum = MemoryForum("judge")
    forum.down = True
    bot = Bot(config, forum, engine=make_engine(f"sqlite:///{tmp_path / 'season.db'}"))
    cycles: list[int] = []
    stop = threading.Event()
    timer = threading.Timer(2.5, stop.set)
    timer.start()
    try:
        run_bot(bot, stop=stop, on_cycle=lambda _: cycles.append(1))
    finally:
        timer.cancel()
    # one cycle a poll interval (2-4 in 2.5 s, and the last one that sees the stop), never hundreds
    assert 1 <= len(cycles) <= 8 and not bot.started

"""Running vote counts on a real FlaskBB (issue 13): killer_club with votes in the thread; after two votes
the judge posts the count, after two more it edits that post in place — counts, voters in order and
"counted through post #N" as the forum shows them. Each step waits for what the bot posts (issue 24)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from season_driver import BotProcess, bot_state, phase_posts, thread_of, wait_for, write_season

from forumbot.testforum import start_forum

pytestmark = pytest.mark.e2e

PLAYERS = ["張三", "李四", "王五", "趙六", "孫七", "周八", "吳九", "鄭十", "小明", "小華", "阿珍", "阿強", "Alice", "Bob"]
ROLES = {"張三": "killer", "李四": "killer", "王五": "killer", "趙六": "police", "孫七": "police", "周八": "police",
         "吳九": "helper", "鄭十": "nurse"}
LENGTH = 20.0


def count_posts(forum, thread_id):
    client = forum.client()
    try:
        return [p for p in client.thread_posts(thread_id) if p.author == forum.judge.name and "Vote count" in p.text]
    finally:
        client.close()


def test_vote_count_posted_then_edited_in_place_on_flaskbb(tmp_path):
    with start_forum(players=[*PLAYERS, "裁判"], judge="法官") as forum:
        start = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=5)
        config = write_season(tmp_path, forum, PLAYERS, start, LENGTH, ROLES, ["裁判"], ruleset="killer_club",
                              params={"vote_in_thread": True}, name="count")
        text = config.read_text(encoding="utf-8")
        config.write_text(text.replace("reminders = []", 'reminders = []\nvote_count_every = 2\nvote_count_before = []'),
                          encoding="utf-8")
        bot = BotProcess(config, forum, tmp_path / "bot.log")
        bot.start()
        try:
            thread_id = wait_for(lambda: thread_of(config), "the game thread", bot.signs, tail=bot.log_tail)
            clients = {name: forum.client(name) for name in ("趙六", "孫七", "周八", "吳九")}
            # prologue, night 1 (nobody acts): the vote opens with phase 2's post
            wait_for(lambda: len(phase_posts(clients["趙六"].thread_posts(thread_id), forum.judge.name)) >= 2,
                     "the post opening the vote", bot.signs, tail=bot.log_tail)
            assert bot_state(config, forum.judge.password).game.phase.kind == "vote"
            ids = [clients["趙六"].reply(thread_id, "投 張三"), clients["孫七"].reply(thread_id, "投 張三")]
            [first] = wait_for(lambda: count_posts(forum, thread_id), "the vote count", bot.signs, tail=bot.log_tail)
            assert "趙六, 孫七" in first.text and f"post #{ids[-1]}" in first.text
            assert "Not voted (12 of 14)" in first.text
            ids += [clients["周八"].reply(thread_id, "投 李四"), clients["吳九"].reply(thread_id, "投 張三")]
            edited = wait_for(lambda: [p for p in count_posts(forum, thread_id) if f"post #{ids[-1]}" in p.text],
                              "the vote count edited", bot.signs, tail=bot.log_tail)
            assert [p.post_id for p in count_posts(forum, thread_id)] == [first.post_id]  # edited, not posted anew
            [after] = edited
            assert "趙六, 孫七, 吳九" in after.text and "周八" in after.text and "Not voted (10 of 14)" in after.text
            assert after.text.index("張三") < after.text.index("李四")  # most votes first
            for c in clients.values():
                c.close()
        finally:
            bot.stop()
        rows = [r for r in bot_state(config, forum.judge.password).store.outbox() if ":count:" in r.key]
        assert [(r.kind, r.status) for r in rows] == [("post", "sent"), ("edit", "sent")]

"""A full 14-player killer_club game on a real FlaskBB, run by the bot: the same outcome as the
transcript's replay, every command answered, no role in a public post before the final one. The players
act on each phase's post as they read it in the thread (issue 24), not on the clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import yaml
from season_driver import (
    BotProcess,
    Players,
    bot_state,
    inboxes,
    judge_posts,
    runaway,
    thread_of,
    wait_for,
    write_season,
)

from forumbot.replay import load_transcript, replay
from forumbot.testforum import start_forum

pytestmark = pytest.mark.e2e

TRANSCRIPT = Path(__file__).parent.parent / "transcripts" / "killer_club_full_game.yaml"
LENGTH = 25.0  # seconds a phase: fourteen players writing one after another fit in it on a loaded machine


def test_fourteen_player_club_game_on_flaskbb(tmp_path):
    t = yaml.safe_load(TRANSCRIPT.read_text(encoding="utf-8"))
    players, organisers = t["players"], t.get("organisers", [])
    phases = [[tuple(m) for m in p.get("messages", [])] for p in t["phases"]]
    posts = [[tuple(m) for m in p.get("posts", [])] for p in t["phases"]]
    assert not any(p.get("organiser") for p in t["phases"])
    expected = replay(load_transcript(TRANSCRIPT)).game
    with start_forum(players=[*players, *organisers], judge="法官") as forum:
        start = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=5)
        config = write_season(tmp_path, forum, players, start, LENGTH, t["roles"], organisers, ruleset="killer_club",
                              locale=t.get("locale", "zh-Hant"), params=t.get("params"), name="club")
        bot = BotProcess(config, forum, tmp_path / "bot.log")
        bot.start()
        driver = Players(forum, phases, posts=posts, thread_id=lambda: thread_of(config), over=bot.finished,
                         progress=bot.signs, tail=bot.log_tail)
        sender = driver.thread()
        try:
            assert bot.wait(abort=runaway(bot, driver, len(phases))) == 0, bot.log_tail()
            wait_for(lambda: not sender.is_alive(), "the players to finish", bot.signs)
        finally:
            bot.stop()
        assert not driver.errors, driver.errors
        state = bot_state(config, forum.judge.password)
        g = state.game
        assert g.finished and g.winner == expected.winner == "police"
        assert [(p.name, p.alive, p.out_reason) for p in g.players] == [(p.name, p.alive, p.out_reason) for p in expected.players]
        outbox = state.store.outbox()
        for row, inbound in state.store.inputs():
            if row.kind == "message" and inbound.source == "pm":  # every command answered to its sender
                prefix = f"{state.store.season_id}:{row.seq}:"
                answers = [r for r in outbox if r.key.startswith(prefix) and r.recipient == inbound.sender]
                assert answers and all(r.status == "sent" for r in answers), (inbound.sender, inbound.text)
        texts = judge_posts(forum, state.thread_id)
        roles = ("殺手", "警察", "護士", "殺助", "水民", "killer", "police", "nurse", "helper")
        for text in texts[:-1]:
            for name in players:
                for role in roles:
                    assert f"{name}是{role}" not in text and f"{name}：{role}" not in text
        assert any(role in texts[-1] for role in ("殺手", "警察"))
        boxes = inboxes(forum, players[:3])
        assert all(len(box) >= 2 for box in boxes.values())

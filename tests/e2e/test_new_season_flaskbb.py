"""A second season on a judge account that still holds a finished game's mail, on a real FlaskBB (issue 9,
point 1): 0 replies to old mail, 0 old commands applied; mail sent after the season's first run is
answered as usual."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest
from season_driver import write_season

from forumbot.config import load_config
from forumbot.runtime.bot import Bot
from forumbot.testforum import start_forum

pytestmark = pytest.mark.e2e

PLAYERS = list("ABCDEFG")
OLD_MAIL = [("A", "投 B"), ("B", "投 C"), ("C", "杀 D"), ("D", "投 A"), ("Org", "延长 2小时"), ("Org", "暂停"),
            ("Org", "继续"), ("Stranger", "你好，法官"), ("E", "帮助")]


def test_second_season_takes_none_of_the_old_mail(tmp_path, monkeypatch):
    with start_forum(players=[*PLAYERS, "Org", "Stranger"], judge="法官") as forum:
        judge = forum.client(retries=0)
        judge.send_pm("A", "上一季 · 法官", "上一季的身份")  # the finished game's conversations
        for sender, text in OLD_MAIL:
            client = forum.client(sender)
            client.send_pm("法官", "上一季", text)
            client.close()
        time.sleep(1.1)
        start = datetime.now(UTC) - timedelta(hours=1)  # a start in the past: old votes would land in round 1
        path = write_season(tmp_path, forum, PLAYERS, start, 7200, {"C": "killer"}, ["Org"], name="第二季")
        monkeypatch.setenv("FORUMBOT_E2E_PASSWORD", forum.judge.password)
        bot = Bot(load_config(path), judge)
        bot.cycle()  # the first run: the season starts, the role PMs and the thread go out
        deadline = bot.deadline()
        time.sleep(1.1)
        bot.cycle()
        assert [row.kind for row, _ in bot.store.inputs()] == ["start"]  # 0 old commands applied
        assert bot.deadline() == deadline and not bot.timing.paused_since  # no old 延长 or 暂停
        pms = [r for r in bot.store.outbox() if r.kind == "pm"]
        assert sorted(r.recipient for r in pms) == PLAYERS and all(r.template == "sunlight/role" for r in pms)
        stranger = forum.client("Stranger")
        assert [m for m in stranger.private_messages() if m.sender == "法官"] == []  # 0 replies to old mail
        stranger.close()
        new = forum.client("E")
        new.send_pm("法官", "第二季", "帮助")  # mail after the first run is answered
        new.close()
        time.sleep(1.1)
        bot.cycle()
        time.sleep(1.1)
        bot.cycle()
        assert [r.recipient for r in bot.store.outbox() if r.template == "sunlight/help"] == ["E"]
        judge.close()

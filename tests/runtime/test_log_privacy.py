"""The INFO log is safe to share: nothing in it depends on who holds which role (issue 9, point 10).
DEBUG names the recipients and counts the replies."""

from __future__ import annotations

import logging
from datetime import timedelta

from bot_helpers import make_season, no_answer_for

PLAYERS = ["張三", "李四", "王五", "趙六", "孫七", "周八", "吳九", "鄭十", "小明", "小華", "阿珍", "阿強", "Alice", "Bob"]
ROLES = {"張三": "killer", "李四": "killer", "王五": "killer", "趙六": "police", "孫七": "police", "周八": "police",
         "吳九": "helper", "鄭十": "nurse"}
# The same cards dealt to other seats: the killers are now 小明, 小華 and 阿珍.
SWAPPED = {"小明": "killer", "小華": "killer", "阿珍": "killer", "阿強": "police", "Alice": "police", "Bob": "police",
           "張三": "helper", "李四": "nurse"}
NIGHT_1 = [("吳九", "驗 趙六"), ("張三", "殺 小明"), ("李四", "殺 小華"), ("趙六", "驗 李四"), ("孫七", "查 王五"),
           ("鄭十", "問 趙六"), ("小明", "殺 張三"), ("阿強", "驗 小華"), ("Bob", "hello")]


def _night_log(tmp_path, roles, caplog, level=logging.INFO):
    tmp_path.mkdir(exist_ok=True)
    s = make_season(tmp_path, PLAYERS, roles, ruleset="killer_club", organisers=["裁判"],
                    schedule={"default": "1h"})
    caplog.clear()
    with caplog.at_level(level, logger="forumbot"):
        s.bot.cycle()
        for sender, text in NIGHT_1:
            s.clock.advance(5)
            s.forum.player_pm(sender, text)
            s.clock.advance(1)
            s.bot.cycle()
    records = [r for r in caplog.records if r.name == "forumbot"]
    return s, records


def test_info_log_is_the_same_whoever_holds_the_roles(tmp_path, caplog):
    _, first = _night_log(tmp_path / "a", ROLES, caplog)
    second_season, second = _night_log(tmp_path / "b", SWAPPED, caplog)
    info_a = [r.getMessage() for r in first if r.levelno >= logging.INFO]
    info_b = [r.getMessage() for r in second if r.levelno >= logging.INFO]
    assert info_a and info_a == info_b
    # while the private messages really differed: the killers' orders were relayed to other players
    assert "小華" in {to for to, _, body in second_season.pms() if "張三" in body}


def test_info_log_names_no_recipient_and_counts_no_replies(tmp_path, caplog):
    _, records = _night_log(tmp_path, ROLES, caplog)
    info = "\n".join(r.getMessage() for r in records if r.levelno >= logging.INFO)
    assert "private message to" not in info and "replies" not in info and "private messages and" not in info
    for sender, _ in NIGHT_1:  # who sent the judge a PM at night is not shown either
        assert sender not in info, info


def test_debug_log_names_recipients(tmp_path, caplog):
    _, records = _night_log(tmp_path, ROLES, caplog, level=logging.DEBUG)
    debug = "\n".join(r.getMessage() for r in records)
    assert "private message to 李四" in debug and "from 張三" in debug and "replies" in debug


def test_info_log_does_not_tell_whether_anyone_still_has_to_act_at_a_reminder(tmp_path, caplog, monkeypatch):
    """At a reminder of a night, who has not acted yet is private, and so is whether anyone has not: the INFO
    line is the same whether the night's roles have all acted or not."""
    lines = []
    for acted in (False, True):
        (tmp_path / str(acted)).mkdir()
        s = make_season(tmp_path / str(acted), PLAYERS, ROLES, ruleset="killer_club", schedule={"default": "1h"})
        s.bot.cycle()
        s.clock.now = s.bot.deadline() + timedelta(seconds=2)
        s.bot.cycle()  # the first night (killer_club opens with it after the prologue)
        assert s.bot.game.phase.kind == "night"
        pending = [] if acted else list(s.bot.game.ruleset.pending())[:1]
        monkeypatch.setattr(s.bot.game.ruleset, "pending", lambda pending=pending: pending)
        caplog.clear()
        with caplog.at_level(logging.INFO, logger="forumbot"):
            s.bot._remind(s.bot.game.phase.id, 0, s.bot.deadline())
        lines.append([r.getMessage() for r in caplog.records if r.name == "forumbot" and r.levelno >= logging.INFO])
    assert lines[0] and lines[0] == lines[1]


def test_delivery_warnings_name_no_outbox_row(tmp_path, caplog):
    """Outbox ids count every private message queued, so two in the shared log tell how many went between
    them (at night: how many the night's roles were sent). A line at INFO or above says what the row is, not
    its id; DEBUG has the id."""
    import re

    s = make_season(tmp_path, list("ABCDEFG"), {"C": "killer"}, schedule={"default": "1h"})
    s.forum.request_horizon_seconds = 60
    no_answer_for(s, "D")
    s.forum.full_mailboxes.add("E")
    with caplog.at_level(logging.DEBUG, logger="forumbot"):
        s.bot.cycle()
        s.clock.advance(90)
        s.bot.cycle()
    shared = [r.getMessage() for r in caplog.records if r.name == "forumbot" and r.levelno >= logging.INFO]
    assert any("may or may not have been written" in m for m in shared)
    assert any("private message" in m and "failed" in m for m in shared)
    assert [m for m in shared if re.search(r"row \d", m)] == []
    assert any(re.search(r"row \d", r.getMessage()) for r in caplog.records if r.levelno == logging.DEBUG)

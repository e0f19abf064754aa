"""Delivery on a misbehaving forum: late writes never doubled, refused rows looked for before a retry,
rows that never can be delivered settled, one conversation a player, reading and deadlines never held
up by the outbox, writes spaced by the forum's own rule (issues 9.6-9.9, 15.1, 15.2)."""

from __future__ import annotations

from datetime import timedelta

from bot_helpers import PacedForum, example_phases, make_season, play_phases

from forumbot.forums.errors import ForumDown, SendFailed
from forumbot.forums.memory import MemoryForum

PLAYERS = list("ABCDEFG")


def hold_writes(season, count: int, seconds: float) -> list[str]:
    """The next ``count`` writes get no answer (a timeout) and the forum performs them ``seconds`` later,
    like an overloaded forum working through its queue. Returns a log of what was held."""
    forum, clock = season.forum, season.clock
    late: list = []
    held: list[str] = []
    left = {"n": count}

    def catch_up():
        for item in [x for x in late if x[0] <= clock.now]:
            late.remove(item)
            item[1]()

    for name in ("send_pm", "reply", "create_thread", "private_messages", "thread_posts", "find_sent_pm",
                 "find_thread"):
        original = getattr(forum, name)

        def wrapped(*a, _original=original, _name=name, **k):
            catch_up()
            if _name in ("send_pm", "reply", "create_thread") and left["n"] > 0:
                left["n"] -= 1
                held.append(_name)
                late.append((clock.now + timedelta(seconds=seconds), lambda: _original(*a, **k)))
                raise ForumDown("the forum did not answer the write in time (held)")
            return _original(*a, **k)

        setattr(forum, name, wrapped)
    return held


def drive(season, seconds: float, step: float = 1.0) -> None:
    end = season.clock.now + timedelta(seconds=seconds)
    while season.clock.now < end:
        season.bot.cycle()
        season.clock.advance(step)


# --- 9.6 a write the forum performs late is never sent twice -------------------------------------------
def test_a_write_performed_late_is_looked_for_after_the_horizon_not_sent_twice(tmp_path):
    s = make_season(tmp_path, PLAYERS, {"C": "killer"})
    s.forum.request_horizon_seconds = 10
    held = hold_writes(s, count=4, seconds=8)  # the forum does them 8 s after the bot gave up
    drive(s, 60)
    assert len(held) == 4
    roles = [m.recipient for m in s.forum.sent if "welcome to" in m.body]
    assert sorted(roles) == PLAYERS  # each role PM once
    assert len(s.forum.threads) == 1 and len(s.forum.posts_by_judge(s.thread)) == 1
    assert not s.bot.store.outbox(("pending", "sending", "failed"))


def test_a_refused_row_is_looked_for_before_it_is_retried(tmp_path):
    s = make_season(tmp_path, PLAYERS, {"C": "killer"})
    original = s.forum.send_pm
    said = {"n": 0}

    def stored_but_said_refused(user, subject, body, *a, **k):
        result = original(user, subject, body, *a, **k)
        if user == "D" and said["n"] == 0:
            said["n"] += 1
            raise SendFailed("the forum said it was not sent", "refused")  # yet it was stored
        return result

    s.forum.send_pm = stored_but_said_refused
    s.bot.cycle()
    assert [r.recipient for r in s.bot.store.outbox(("failed",))] == ["D"]
    s.clock.advance(11 * 60)
    s.bot.cycle()
    assert sum("welcome to" in m.body for m in s.forum.pms_to("D")) == 1  # found on the forum, not sent again
    assert not s.bot.store.outbox(("failed", "pending", "sending"))


def test_memory_forum_late_writes_are_uncertain_and_found_after_the_horizon(tmp_path):
    forum = MemoryForum(username="judge", late_writes=3, late_write_seconds=5, request_horizon_seconds=6)
    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, forum=forum)
    drive(s, 40)
    assert sorted(m.recipient for m in s.forum.sent if "welcome to" in m.body) == PLAYERS
    assert len(s.forum.posts_by_judge(s.thread)) == 1


# --- 9.8 a row that cannot be delivered is settled; run exits after the game ---------------------------
def test_a_pm_to_an_account_that_does_not_exist_is_settled_and_the_season_ends(tmp_path):
    s = make_season(tmp_path, PLAYERS, {"C": "killer"})
    s.forum.users = {*PLAYERS, "Org"} - {"G"}  # the roster says G; the forum has no such account
    s.bot.cycle()
    s.bot.cycle()
    settled = s.bot.store.outbox(("undeliverable",))
    assert [r.recipient for r in settled] == ["G"]
    told = [m.body for m in s.forum.pms_to("Org") if "could not deliver" in m.body]
    assert len(told) == 1 and "not be tried again" in told[0]
    s.forum.player_pm("Org", "结束游戏")
    s.clock.advance(1)
    s.bot.cycle()
    s.clock.advance(1)
    s.bot.cycle()
    assert s.bot.game.finished and s.bot.done()  # nothing left to wait for
    assert [r.recipient for r in s.bot.undelivered()] == ["G"]
    s.clock.advance(3 * 3600)
    s.bot.cycle()
    assert sum("could not deliver" in m.body for m in s.forum.pms_to("Org")) == 1  # told once


def test_rows_still_failing_at_game_over_are_settled(tmp_path):
    s = make_season(tmp_path, PLAYERS, {"C": "killer"})
    s.forum.full_mailboxes.add("E")
    s.bot.cycle()
    s.forum.player_pm("Org", "结束游戏")
    s.clock.advance(1)
    s.bot.cycle()
    s.bot.cycle()
    assert s.bot.game.finished and s.bot.done()
    assert "E" in {r.recipient for r in s.bot.undelivered()}


def test_a_replaced_players_queued_pms_are_cancelled(tmp_path):
    s = make_season(tmp_path, PLAYERS, {"C": "killer"})
    s.forum.full_mailboxes.add("G")
    s.bot.cycle()
    assert [r.recipient for r in s.bot.store.outbox(("failed",))] == ["G"]
    s.forum.player_pm("Org", "替换 G H")
    s.clock.advance(1)
    s.bot.cycle()
    s.forum.full_mailboxes.clear()  # someone registers or frees the old name later
    s.clock.advance(3600)
    s.bot.cycle()
    assert s.forum.pms_to("G") == []  # nobody under the old name receives the role
    assert any("welcome to" in m.body for m in s.forum.pms_to("H"))
    assert [r.recipient for r in s.bot.store.outbox(("cancelled",))] == ["G"]


# --- 9.9 one conversation per player per season, a readable subject ------------------------------------
def test_one_conversation_per_player_with_a_readable_subject(tmp_path):
    s = make_season(tmp_path, PLAYERS, {"C": "killer"})
    play_phases(s, example_phases())
    for name in PLAYERS:
        assert len(s.forum.pms_to(name)) > 1
        assert len(s.forum.conversations_with(name)) == 1, name
    assert {m.subject for m in s.forum.sent} == {"测试赛季 · Judge"}


def test_a_restarted_bot_keeps_writing_in_the_same_conversation(tmp_path):
    s = make_season(tmp_path, PLAYERS, {"C": "killer"})
    s.bot.cycle()
    s.restart()
    s.forum.player_pm("A", "投 B")
    s.clock.advance(62)
    s.bot.cycle()
    assert len(s.forum.pms_to("A")) >= 2 and len(s.forum.conversations_with("A")) == 1


# --- 15.1 reading and deadlines never wait for the outbox ----------------------------------------------
def run_like_the_runner(season, seconds: float, interval: float) -> None:
    """Cycles as ``run`` makes them: one every poll interval, or at once when one overran it."""
    end = season.clock.now + timedelta(seconds=seconds)
    tick = season.clock.now
    while season.clock.now < end:
        season.bot.cycle()
        tick += timedelta(seconds=interval)
        season.clock.now = max(season.clock.now, tick)
        tick = season.clock.now


def test_a_deadline_is_handled_in_time_with_fifty_messages_queued(tmp_path):
    forum = PacedForum(username="judge", latency=2.0, write_interval_seconds=16)
    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, forum=forum,
                    schedule={"default": "20m", "poll_interval": "10s", "grace": "1s"})
    handled = []
    original = type(s.bot)._apply_deadline

    def spy(self, dl):
        handled.append((dl, self.clock()))
        return original(self, dl)

    type(s.bot)._apply_deadline = spy
    try:
        run_like_the_runner(s, 200, 10)  # the role PMs and the thread (the prologue's clock starts with them)
        deadline = s.bot.deadline()
        s.clock.now = deadline - timedelta(seconds=30)
        for i in range(50):  # fifty commands just before the deadline: fifty replies to send
            s.forum.player_pm(PLAYERS[i % 7], "投 B" if i % 2 else "hello judge")
        run_like_the_runner(s, 120, 10)
    finally:
        type(s.bot)._apply_deadline = original
    assert len(s.bot.store.outbox(("pending",))) > 20  # the outbox is still full...
    late = [(at - dl).total_seconds() for dl, at in handled if dl == deadline]
    assert late and late[0] <= 10 + 1 + 2  # ...yet the deadline was handled within a poll interval + grace
    assert forum.flood_refusals == 0


# --- 15.2 writes spaced by the forum's real rule, counted from the answer --------------------------------
def test_nineteen_role_pms_go_out_without_one_flood_refusal(tmp_path):
    players = [f"P{i:02d}" for i in range(1, 20)]
    forum = PacedForum(username="judge", latency=1.5, write_interval_seconds=16)
    s = make_season(tmp_path, players, {"P03": "killer"}, forum=forum,
                    schedule={"default": "1h", "poll_interval": "30s", "grace": "1s"})
    start = s.clock.now
    run_like_the_runner(s, 19 * 20, 30)
    roles = [m for m in forum.sent if "welcome to" in m.body]
    assert sorted(m.recipient for m in roles) == players
    assert forum.flood_refusals == 0
    last = max(m.time_utc for m in roles)
    assert (last - start).total_seconds() <= 18 * 16 * 1.25  # close to the floor of 18 × 16 s


# --- 9.7 a steady fault rate does not stall the game ---------------------------------------------------
def test_what_a_poll_read_before_a_failure_is_kept(tmp_path):
    s = make_season(tmp_path, PLAYERS, {"C": "killer"})
    s.bot.cycle()
    s.clock.advance(62)
    s.bot.cycle()  # vote round open
    def failing(*a, **k):
        raise ForumDown("HTTP 500 on the thread page")

    s.forum.thread_posts = failing
    s.forum.player_pm("A", "投 B")
    s.clock.advance(1)
    s.bot.cycle()
    applied = [inbound for _, inbound in s.bot.store.inputs() if inbound is not None]
    stored = [r for r in [*applied, *s.bot.store.unapplied()] if r.sender == "A"]
    assert stored, "the inbox read before the thread failed is stored, not thrown away"


def test_a_partial_inbox_read_is_kept(tmp_path):
    from forumbot.forums.base import PrivateMessage

    s = make_season(tmp_path, PLAYERS, {"C": "killer"})
    s.bot.cycle()
    s.clock.advance(62)
    s.bot.cycle()

    def part(after=None):
        exc = ForumDown("HTTP 500 on the third conversation")
        exc.partial = [PrivateMessage(900, "A", s.clock.now, "", "投 B")]
        raise exc

    s.forum.private_messages = part
    s.clock.advance(1)
    s.bot.cycle()
    assert [r.forum_id for r in s.bot.store.unapplied()] == [900]
    assert s.bot.store.cursor("pm_after") is None  # the inbox is not read past: the rest is read next time


def test_the_poller_backs_off_while_the_forum_fails_and_honours_retry_after(tmp_path):
    from forumbot.forums.errors import RateLimited

    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, schedule={"poll_interval": "2s"})
    s.bot.cycle()
    s.forum.down = True
    before = s.forum.requests
    drive(s, 120)  # a cycle every second for two minutes
    polls = s.forum.requests - before
    assert polls <= 10  # 1, 2, 4, 8, 16, 32, 64 s apart: not one request every second
    s.forum.down = False
    original = s.forum.private_messages

    def limited(after=None):
        raise RateLimited("slow down (HTTP 503, retry after 300 s)", 300)

    s.forum.private_messages = limited
    s.clock.advance(300)
    s.bot.cycle()  # told to wait 300 s
    s.forum.private_messages = original
    before = s.forum.requests
    drive(s, 200)
    assert s.forum.requests == before  # not polled again before the forum's Retry-After
    drive(s, 120)
    assert s.forum.requests > before

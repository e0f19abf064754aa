"""Delivery on a misbehaving forum: late writes never doubled, refused rows looked for before a retry,
rows that never can be delivered settled, one conversation a player, reading and deadlines never held
up by the outbox, writes spaced by the forum's own rule (issues 9.6-9.9, 15.1, 15.2); the thread first, one stuck row
holding only its destination, the request horizon counted from the timeout, fenced claims (issue 24)."""

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
    # nobody under the old name receives the role: G is told only that he was replaced
    assert [m.body.split(" ")[:3] for m in s.forum.pms_to("G")] == [["The", "organiser", "has"]]
    assert all("in your seat" in m.body and "killer" not in m.body.lower() for m in s.forum.pms_to("G"))
    assert any("in place of" in m.body for m in s.forum.pms_to("H"))  # the substitute's PM, his role in it
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


# --- 24.5 the thread first: a result post does not wait behind the replies queued before it ------------
def to_vote_round(season) -> None:
    """Run the runner's way until the first vote round is open and its post is out."""
    for _ in range(200):
        if season.bot.started and season.bot.game.phase.kind == "vote" and not season.bot.store.outbox(("pending",)):
            return
        run_like_the_runner(season, 10, 10)
    raise AssertionError("the vote round never opened")


def test_the_result_post_goes_before_replies_queued_earlier(tmp_path):
    forum = PacedForum(username="judge", latency=1.0, write_interval_seconds=16)
    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, forum=forum,
                    schedule={"default": "10m", "poll_interval": "10s", "grace": "1s"})
    to_vote_round(s)
    deadline = s.bot.deadline()
    s.clock.now = deadline - timedelta(seconds=30)
    for i in range(21):  # three messages a player just before the deadline: 21 replies to send
        s.forum.player_pm(PLAYERS[i % 7], "投 B" if i < 7 else f"hello judge {i}")
    run_like_the_runner(s, 60, 10)
    assert len(s.bot.store.outbox(("pending",))) > 10  # the replies still wait...
    result = [p for p in forum.posts_by_judge(s.thread) if p.time_utc > deadline]
    assert result, "the result post is not on the forum"
    lag = (result[0].time_utc - deadline).total_seconds()
    assert lag <= 10 + 1 + 16 + 1  # ...the result post did not: poll + grace + one write interval (+ the write)
    assert forum.flood_refusals == 0
    run_like_the_runner(s, 25 * 18, 10)
    for name in PLAYERS:  # each player's private messages in the order they were queued
        queued = [r.body for r in s.bot.store.outbox(("sent",)) if r.kind == "pm" and r.recipient == name]
        assert [m.body for m in forum.pms_to(name)] == queued


def test_a_row_let_go_by_the_rows_just_sent_goes_in_the_same_run(tmp_path):
    s = make_season(tmp_path, PLAYERS, {"C": "killer"})
    store = s.bot.store

    def held(row):  # A's role PM waits for G's (the clock's rules hold the thread for the role PMs so)
        return row.kind == "pm" and row.recipient == "A" and any(
            r.recipient == "G" for r in store.outbox(("pending", "sending")))

    s.bot.held = held
    s.bot.cycle()  # one cycle: one delivery run
    assert sorted(m.recipient for m in s.forum.sent) == PLAYERS
    assert [m.recipient for m in s.forum.sent][-1] == "A"  # after G's, in the same run
    assert s.bot.thread_id is not None


# --- 24.2 one stuck row holds only its own destination ---------------------------------------------------
def test_a_check_that_keeps_failing_holds_only_its_destination(tmp_path):
    """The new thread's write got no answer and every look for it times out (25 s each): private messages
    still go, and the thread is looked for ever more rarely, not at every cycle."""
    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, schedule={"default": "20m"})
    s.forum.request_horizon_seconds = 10
    create, checks = s.forum.create_thread, []

    def unanswered(*a, **k):
        s.forum.create_thread = create
        raise ForumDown("the forum did not answer the write in time")

    def slow_failing_check(*a, **k):
        checks.append(s.clock.now)
        s.clock.advance(25)
        raise ForumDown("the forum did not answer in time")

    s.forum.create_thread, s.forum.find_thread = unanswered, slow_failing_check
    s.bot.cycle()
    asked: list = []
    end = s.clock.now + timedelta(minutes=11)
    while s.clock.now < end:
        if len(asked) < 60 and (not asked or s.clock.now >= asked[-1][1] + timedelta(seconds=10)):
            who = PLAYERS[len(asked) % 7]
            s.forum.player_pm(who, f"hello judge {len(asked)}")
            asked.append((who, s.clock.now))
        s.bot.cycle()
        s.clock.advance(1)
    replied = [m for m in s.forum.sent if "hello judge" not in m.body and "welcome to" not in m.body]
    assert len(replied) >= len(asked) - 2  # every message answered (the last ones perhaps still queued)
    assert 3 <= len(checks) <= 10  # backing off: 10 s, 20 s, 40 s ... 5 min, not every cycle
    assert not s.forum.threads


def test_stuck_recipients_do_not_hold_the_others(tmp_path):
    """The role PMs to A, B and C got no answer, and every look for them fails: D's reply still goes at
    once, cycle after cycle (three stuck rows once ended every run before it)."""
    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, schedule={"default": "20m"})
    s.forum.request_horizon_seconds = 10
    send, unanswered = s.forum.send_pm, {"A", "B", "C"}

    def send_pm(user, *a, **k):
        if user in unanswered:
            unanswered.discard(user)
            raise ForumDown("the forum did not answer the write in time")
        return send(user, *a, **k)

    def find_sent_pm(user, *a, **k):
        raise ForumDown("HTTP 500 on the sent box")

    s.forum.send_pm, s.forum.find_sent_pm = send_pm, find_sent_pm
    for minute in range(6):
        s.clock.advance(20)
        s.bot.cycle()
        s.forum.player_pm("D", f"hello judge {minute}")
        s.clock.advance(1)
        s.bot.cycle()
        s.clock.advance(1)
        s.bot.cycle()
        assert len(s.forum.pms_to("D")) == 2 + minute, minute  # the role PM and a reply to each message
    assert {r.recipient for r in s.bot.store.outbox(("sending",))} == {"A", "B", "C"}


# --- 24.3 the request horizon runs from the moment the bot gave up ---------------------------------------
def late_write(season, user: str, took: float, performed_after: float, then=ForumDown):
    """The first private message to ``user`` takes ``took`` seconds, then raises ``then`` (a timeout: the
    bot gives up; or a crash); the forum performs it ``performed_after`` seconds after it was asked."""
    forum, clock = season.forum, season.clock
    send, late = forum.send_pm, []

    def send_pm(u, *a, **k):
        if u == user and not late:
            asked = clock.now
            late.append(asked)
            forum._late.append((asked + timedelta(seconds=performed_after), lambda: send(u, *a, **k)))
            clock.advance(took)
            raise then("the forum did not answer the write in time")
        return send(u, *a, **k)

    forum.send_pm = send_pm


def test_a_write_performed_late_within_the_horizon_after_the_timeout_is_not_sent_twice(tmp_path):
    s = make_season(tmp_path, PLAYERS, {"C": "killer"})
    s.forum.request_horizon_seconds = 60
    s.forum.request_timeout_seconds = 20
    late_write(s, "D", took=20, performed_after=20 + 50)  # 50 s after the bot gave up: within the horizon
    drive(s, 150)
    assert sum("welcome to" in m.body for m in s.forum.pms_to("D")) == 1
    assert not s.bot.store.outbox(("pending", "sending", "failed"))


class Crash(BaseException):
    """The process dies here (SIGKILL)."""


def test_a_row_found_sending_after_a_crash_waits_the_timeout_and_the_horizon(tmp_path):
    import pytest

    s = make_season(tmp_path, PLAYERS, {"C": "killer"})
    s.forum.request_horizon_seconds = 60
    s.forum.request_timeout_seconds = 20
    late_write(s, "D", took=5, performed_after=75, then=Crash)  # within the timeout plus the horizon
    with pytest.raises(Crash):
        s.bot.cycle()
    s.restart()
    drive(s, 150)
    assert sum("welcome to" in m.body for m in s.forum.pms_to("D")) == 1
    assert not s.bot.store.outbox(("pending", "sending", "failed"))


def test_a_send_that_outlasted_the_timeout_before_a_crash_is_looked_for_a_horizon_after_the_restart(tmp_path):
    """One send can be several requests (Discuz! sends again after a stale formhash, a lost login or its
    flood control, sleeping in between): here it ran 100 s, five request timeouts, before the process died
    in its last request, which the forum performs 50 s later (within the horizon). The restarted bot cannot
    know when that request began, but it knows the request ended (the process died) before the restart:
    it looks for the row no sooner than a horizon after the restart, and finds it."""
    import pytest

    s = make_season(tmp_path, PLAYERS, {"C": "killer"})
    s.forum.request_horizon_seconds = 60
    s.forum.request_timeout_seconds = 20
    late_write(s, "D", took=100, performed_after=100 + 50, then=Crash)
    with pytest.raises(Crash):
        s.bot.cycle()
    s.restart()
    drive(s, 200)
    assert sum("welcome to" in m.body for m in s.forum.pms_to("D")) == 1
    assert not s.bot.store.outbox(("pending", "sending", "failed"))


def test_the_request_timeout_is_the_adapters():
    from types import SimpleNamespace

    from forumbot.forums.flaskbb import FlaskBBForum
    from forumbot.runtime.delivery import Delivery

    def timeout(forum) -> float:
        return Delivery(SimpleNamespace(forum=forum)).request_timeout()  # type: ignore[arg-type]

    assert timeout(FlaskBBForum("http://forum.test", "judge", "pw", timeout_seconds=7)) == 7
    assert timeout(MemoryForum()) == 0  # no HTTP: nothing outlives the call


# --- 24.6 the outbox claim is fenced: two processes never both send a row --------------------------------
def test_a_row_another_process_sent_is_not_claimed_again(tmp_path, db_url):
    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, db_url=db_url)
    s.bot.delivery.run = lambda until=None: None  # the start is committed, nothing delivered yet
    s.bot.cycle()
    del s.bot.delivery.run
    other = s.new_bot()  # a second bot on the same season and database
    other.held = lambda row: False
    interleaved: list[int] = []

    def held(row):
        if not interleaved:  # between this bot's read of the outbox and its claim...
            interleaved.append(row.id)
            other.delivery.run()  # ...the other one sends everything
        return False

    s.bot.held = held
    s.bot.delivery.run()
    assert interleaved
    assert sorted(m.recipient for m in s.forum.sent) == PLAYERS  # each role PM once
    assert len(s.forum.threads) == 1
    assert not s.bot.store.outbox(("pending", "sending", "failed"))


def test_a_look_answered_slow_down_holds_every_destination(tmp_path):
    from forumbot.forums.errors import RateLimited

    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, schedule={"default": "20m"})
    s.forum.request_horizon_seconds = 10
    send, find, limited = s.forum.send_pm, s.forum.find_sent_pm, {"n": 0}

    def send_pm(user, *a, **k):
        if user == "A" and not limited["n"]:
            limited["n"] = 1
            raise ForumDown("the forum did not answer the write in time")
        return send(user, *a, **k)

    def find_sent_pm(user, *a, **k):
        if limited["n"] == 1:
            limited["n"] = 2
            raise RateLimited("HTTP 429, retry after 120 s", 120)
        return find(user, *a, **k)

    s.forum.send_pm, s.forum.find_sent_pm = send_pm, find_sent_pm
    s.bot.cycle()
    s.clock.advance(11)
    s.bot.cycle()  # A's role PM looked for: "slow down"
    assert limited["n"] == 2
    told = s.clock.now
    s.forum.player_pm("B", "hello judge")
    drive(s, 100)
    assert len(s.forum.pms_to("B")) == 1  # no write while the forum asked to wait
    drive(s, 40)
    assert len(s.forum.pms_to("B")) == 2 and s.forum.pms_to("B")[-1].time_utc >= told + timedelta(seconds=120)
    assert sum("welcome to" in m.body for m in s.forum.pms_to("A")) == 1


def test_a_claim_is_a_compare_and_set_under_the_stores_guard(tmp_path, db_url):
    import pytest

    from forumbot.serve.lease import LeaseLost

    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, db_url=db_url)
    s.bot.delivery.run = lambda until=None: None
    s.bot.cycle()  # the start's rows queued, none sent
    store = s.bot.store
    row = store.outbox(("pending",))[0]
    as_read = store.outbox(("pending",))[0]
    assert store.claim_outbox(row, s.clock.now)
    assert not store.claim_outbox(as_read, s.clock.now)  # claimed since it was read: refused
    claimed = store.outbox(("sending",))
    assert [(r.id, r.attempts) for r in claimed] == [(row.id, 1)]

    def lost(session):
        raise LeaseLost("this worker no longer holds the lease")

    store.guard = lost
    second = store.outbox(("pending",))[0]
    with pytest.raises(LeaseLost):
        store.claim_outbox(second, s.clock.now)
    store.guard = None
    assert store.outbox(("pending",))[0].id == second.id  # nothing written


def test_a_bot_restarted_more_often_than_the_horizon_still_looks_for_a_dead_claim(tmp_path):
    """A claim of a process that died is looked for a horizon after the first restart, not after the latest:
    the instant its request had surely ended is stored (``gave_up_at``), so a bot killed again every 30 s
    (less than the 60 s horizon) still finds the row and delivers what waits behind it."""
    import pytest

    s = make_season(tmp_path, PLAYERS, {"C": "killer"})
    s.forum.request_horizon_seconds = 60
    s.forum.request_timeout_seconds = 20
    late_write(s, "D", took=5, performed_after=10, then=Crash)
    with pytest.raises(Crash):
        s.bot.cycle()
    for _ in range(4):  # killed every 30 s
        s.restart()
        drive(s, 30)
    assert sum("welcome to" in m.body for m in s.forum.pms_to("D")) == 1
    assert not [r for r in s.bot.store.outbox(("sending",)) if r.recipient == "D"]

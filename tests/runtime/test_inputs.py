"""The input side of the runtime (issue 9, points 1, 2 and 4; issue 15, points 1 and 6): what counts as a
season's input, in which order inputs are applied, and when a message is late."""

from __future__ import annotations

from datetime import timedelta

from bot_helpers import T0, Clock, Season, make_config, make_season
from typer.testing import CliRunner

from forumbot.cli import app
from forumbot.cli import season as season_cli
from forumbot.forums.discuz_time import parse_relative
from forumbot.forums.memory import MemoryForum
from forumbot.runtime.arrival import Interval, Stated, intervals

PLAYERS = list("ABCDEFG")
KC = list("ABCDEFGHIJKLMN")
KC_ROLES = {"A": "killer", "B": "killer", "C": "killer", "D": "police", "E": "police", "F": "police",
            "G": "helper", "H": "nurse"}


def _to_vote_round(s, length: float = 60) -> None:
    s.bot.cycle()  # start
    s.clock.advance(length + 2)
    s.bot.cycle()  # the prologue closes
    s.clock.advance(1)
    s.bot.cycle()  # the thread is read once


# --- 9.1: a new season never takes old mail as input ------------------------------------------------------
def test_old_mail_and_old_thread_posts_are_never_input(tmp_path):
    clock = Clock()
    forum = MemoryForum("judge", clock)
    old = T0 - timedelta(minutes=30)  # after the new season's (past) start, before its first run
    forum.player_post(500, "A", "the organiser's thread, from an older game", at=old - timedelta(days=1))
    for sender, text in [("A", "投 B"), ("B", "投 C"), ("Org", "延长 2小时"), ("Org", "继续"), ("Stranger", "hello"),
                         ("D", "帮助")]:
        forum.player_pm(sender, text, at=old)
    forum.player_post(500, "E", "投 A", at=old)
    forum.player_post(500, "F", "状态", at=old)
    config = make_config(tmp_path, PLAYERS, {"C": "killer"}, forum={"thread_id": 500},
                         schedule={"start": (T0 - timedelta(hours=1)).replace(tzinfo=None).isoformat(),
                                   "default": "2h"})
    s = Season(config, forum, clock, f"sqlite:///{tmp_path / 'season.db'}")
    s.bot.cycle()  # first run: the season starts (an hour late) and reads the forum
    s.clock.advance(1)
    s.bot.cycle()
    assert [i.kind for i, _ in s.bot.store.inputs()] == ["start"]
    assert s.forum.pms_to("Stranger") == [] and s.forum.pms_to("Org") == []
    assert all("welcome" in m.body for m in s.forum.sent)  # the role PMs, nothing else
    assert s.bot.deadline() == T0 + timedelta(hours=2)  # no old extension (the prologue counts from its post)
    s.forum.player_pm("D", "帮助")  # mail after the first run is answered
    s.clock.advance(1)
    s.bot.cycle()
    assert [m for m in s.forum.pms_to("D") if "welcome" not in m.body]


# --- 9.2: one order by forum time across sources ------------------------------------------------------------
def test_pm_arriving_between_inbox_and_thread_reads_is_applied_in_time_order(tmp_path):
    s = make_season(tmp_path, KC, KC_ROLES, ruleset="killer_club", params={"vote_in_thread": True})
    s.bot.cycle()
    for _ in range(2):  # prologue, then night 1 (nobody killed): the day's vote opens
        s.clock.now = s.bot.deadline() + timedelta(seconds=2)
        s.bot.cycle()
    assert s.bot.game.phase.kind == "vote"
    thread_posts = s.forum.thread_posts

    def read_thread(tid, after=None):  # the organiser's PM and the substitute's vote arrive during the poll
        if not getattr(read_thread, "done", False):
            read_thread.done = True
            s.forum.player_pm("Org", "替换 I Zed")
            s.clock.advance(0.3)
            s.forum.player_post(tid, "Zed", "投 A")
            s.clock.advance(0.3)
        return thread_posts(tid, after)

    s.forum.thread_posts = read_thread
    s.clock.advance(1)
    s.bot.cycle()
    s.clock.advance(1)
    s.bot.cycle()
    assert s.bot.game.name(9) == "Zed"
    step_events = [e for e in _events(s) if e.kind == "ballot"]
    assert [e.data["voter"] for e in step_events] == [9]  # Zed's vote counted, after the replacement


def _events(s):
    """Every event of the season's game, rebuilt from its inputs."""
    from forumbot.runtime.bot import Bot
    from forumbot.runtime.store import make_engine

    bot = Bot(s.config, s.forum, clock=s.clock, engine=make_engine(s.db_url))
    events = []
    original = bot._step

    def spy(*a, **k):
        step = original(*a, **k)
        events.extend(step.events)
        return step

    bot._step = spy
    bot._rebuild()
    return events


# --- 15.6: within a source the forum's order ---------------------------------------------------------------
def test_pms_of_one_second_are_applied_in_pmid_order(tmp_path):
    s = make_season(tmp_path, PLAYERS, {"C": "killer"})
    _to_vote_round(s)
    base = s.clock.now
    # Discuz!-style estimates: each conversation was opened a little later, so a later pmid gets an earlier
    # estimate of the same second.
    for i, voter in enumerate("GFEDBA"):
        s.forum.player_pm(voter, "投 C", at=base - timedelta(seconds=0.1 * i), precision=1.0)
    s.clock.advance(2)
    s.bot.cycle()
    s.clock.now = s.bot.deadline() + timedelta(seconds=2)
    s.bot.cycle()
    ballots = s.bot.game.ruleset.s.votes[0].ballots
    assert [s.bot.game.name(b.voter) for b in ballots] == list("GFEDBA")


def test_intervals_follow_the_reads_the_forum_time_and_its_order():
    t = T0
    got = intervals([Stated(t - timedelta(seconds=150), 60), Stated(t - timedelta(seconds=5), 1)],
                    read_began_before=t - timedelta(seconds=100), read_ended=t + timedelta(seconds=1))
    assert got[0] == Interval(t - timedelta(seconds=100), t - timedelta(seconds=90))  # 「2 分钟前」 after the last read
    assert got[1] == Interval(t - timedelta(seconds=5), t - timedelta(seconds=4))
    # pmid order: a later message with an earlier estimate was sent no earlier than the one before it
    got = intervals([Stated(t - timedelta(seconds=95), 1), Stated(t - timedelta(seconds=97), 1)],
                    read_began_before=t - timedelta(seconds=100), read_ended=t)
    assert got == [Interval(t - timedelta(seconds=95), t - timedelta(seconds=95))] * 2
    # the forum and the reads disagree (another clock): the forum's time wins
    [lone] = intervals([Stated(t - timedelta(hours=1))], read_began_before=t, read_ended=t)
    assert lone == Interval(t - timedelta(hours=1), t - timedelta(hours=1))
    assert Interval(t, t + timedelta(seconds=60)).verdict(t + timedelta(seconds=5)) == "straddles"
    assert not Interval(t, t + timedelta(seconds=60)).counts_for(t + timedelta(seconds=5))
    assert Interval(t, t + timedelta(seconds=60)).counts_for(t + timedelta(seconds=5), "on_time")


# --- 15.1 / 9.4: a message read late as 「2 分钟前」 is late, and told so ---------------------------------------
def _late_ballot(tmp_path, **schedule):
    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, locale="zh-Hans", schedule=schedule)
    _to_vote_round(s)
    for voter in "ABDF":
        s.forum.player_pm(voter, "投 E")
    s.forum.player_pm("E", "投 A")
    s.clock.advance(1)
    s.bot.cycle()  # the last read before the deadline
    dl = s.bot.deadline()
    sent = dl + timedelta(seconds=5)  # G votes 5 s late ...
    s.clock.now = sent + timedelta(seconds=138)  # ... and the bot reads the inbox 138 s later (busy sending)
    window = parse_relative("2 分钟前", s.clock.now, s.clock.now + timedelta(seconds=0.2), s.config.tz)
    s.forum.player_pm("G", "投 A", at=window.earliest, precision=window.precision_seconds)
    s.bot.cycle()
    return s, dl


def test_ballot_read_as_two_minutes_ago_after_the_deadline_is_late(tmp_path):
    s, dl = _late_ballot(tmp_path)
    vote = s.bot.game.ruleset.s.votes[0]
    assert 7 not in {b.voter for b in vote.ballots}  # not counted
    [reply] = [m.body for m in s.forum.pms_to("G") if "已逾期" in m.body]
    assert "第 1 轮投票已于" in reply and dl.strftime("%H:%M:%S") in reply
    assert s.bot.straddled()[0]["counted"] == "late" and s.bot.straddled()[0]["sender"] == "G"


def test_benefit_of_the_doubt_when_the_season_says_so(tmp_path):
    s, _ = _late_ballot(tmp_path, straddling="on_time")
    assert 7 in {b.voter for b in s.bot.game.ruleset.s.votes[0].ballots}
    assert s.bot.straddled()[0]["counted"] == "on time"


def test_late_vote_in_killer_club_is_told_the_round_closed_and_when(tmp_path):
    s = make_season(tmp_path, KC, KC_ROLES, ruleset="killer_club")
    s.bot.cycle()
    for _ in range(2):
        s.clock.now = s.bot.deadline() + timedelta(seconds=2)
        s.bot.cycle()
    dl = s.bot.deadline()
    s.clock.now = dl + timedelta(seconds=5)
    s.forum.player_pm("J", "投 A")
    s.clock.advance(2)
    s.bot.cycle()
    [reply] = [m.body for m in s.forum.pms_to("J") if "late" in m.body]
    assert "closed at" in reply and dl.strftime("%H:%M:%S") in reply and "vote" in reply
    s.clock.advance(20)  # well into the night, after its post: a refusal is not called late
    s.forum.player_pm("K", "投 A")
    s.clock.advance(2)
    s.bot.cycle()
    [refusal] = [m.body for m in s.forum.pms_to("K") if "not" in m.body.lower() and "welcome" not in m.body.lower()]
    assert "late" not in refusal


def test_a_new_phase_command_refused_for_its_own_reason_just_after_a_deadline_is_not_called_late(tmp_path):
    """A killer's night order refused for its own reason seconds after the day closed belongs to the night:
    it gets the refusal alone, while a late ballot in the same instant is still told it was late."""
    s = make_season(tmp_path, KC, KC_ROLES, ruleset="killer_club")
    s.bot.cycle()
    for _ in range(2):
        s.clock.now = s.bot.deadline() + timedelta(seconds=2)
        s.bot.cycle()
    s.clock.now = s.bot.deadline() + timedelta(seconds=5)
    s.forum.player_pm("A", "杀 D E")  # the night has just opened; its post may not be on the forum yet
    s.forum.player_pm("J", "投 A")
    s.clock.advance(2)
    s.bot.cycle()
    refusal = s.forum.pms_to("A")[-1].body
    assert "late" not in refusal.lower() and "one" in refusal, refusal
    assert [m.body for m in s.forum.pms_to("J") if "late" in m.body]


def test_a_dead_players_late_command_gets_one_reply_that_he_is_out(tmp_path):
    """Killed in the night, J votes just after the night's deadline: he is told he is out, not also that the
    night closed (findings of a newcomer's trial, item 20)."""
    s = make_season(tmp_path, KC, KC_ROLES, ruleset="killer_club")
    s.bot.cycle()
    s.clock.now = s.bot.deadline() + timedelta(seconds=2)
    s.bot.cycle()  # the prologue closes: night 1
    s.forum.player_pm("A", "kill J")
    s.clock.advance(2)
    s.bot.cycle()
    s.clock.now = s.bot.deadline() + timedelta(seconds=5)
    s.forum.player_pm("J", "vote A")
    s.clock.advance(2)
    s.bot.cycle()
    assert not s.bot.game.player(10).alive
    [reply] = [m.body for m in s.forum.pms_to("J") if "vote" in m.body and "welcome" not in m.body.lower()]
    assert "out" in reply and "late" not in reply and "closed" not in reply, reply


# --- the organiser sees thread commands and straddling messages in `forumbot status` (9.5, 15.1) -------------
def test_status_lists_thread_commands_and_messages_around_a_deadline(tmp_path, monkeypatch):
    s, _ = _late_ballot(tmp_path)
    s.forum.player_post(s.thread, "B", "投 C")
    s.clock.advance(1)
    s.bot.cycle()
    s.clock.advance(1)
    s.bot.cycle()
    assert [m.body for m in s.forum.pms_to("B") if "帖子里的指令不算数" in m.body]
    monkeypatch.setattr(season_cli, "_load", lambda path: s.config)
    monkeypatch.setattr(season_cli, "_bot", lambda config, forum=None, accept_new_rules=False: s.restart())
    monkeypatch.setattr(season_cli, "_no_database", lambda config: False)
    out = CliRunner().invoke(app, ["status", "season.toml"]).output
    assert "commands posted in the thread" in out and "B: vote (poll round 1)" in out, out
    assert "sent around a deadline" in out and "from G" in out and "counted late" in out, out


# --- 15.3: a phase gets its full length after its opening post reaches the forum ---------------------------
def test_opening_post_sent_late_moves_the_deadline_and_shows_it(tmp_path):
    from forumbot.forums.errors import ForumDown
    from forumbot.runtime.schedule import format_local

    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, schedule={"default": "10m"})
    s.bot.cycle()
    scheduled = s.bot.deadline() + timedelta(minutes=10)  # the vote round's deadline by the schedule
    reply = s.forum.reply
    writes_down = True

    def backlog(tid, body):  # the forum refuses writes (or the judge's outbox is behind): reads still work
        if writes_down:
            raise ForumDown("busy")
        return reply(tid, body)

    s.forum.reply = backlog
    s.clock.now = s.bot.deadline() + timedelta(seconds=2)
    s.bot.cycle()  # the prologue closes; the vote round's opening post cannot go out
    assert s.bot.game.phase.kind == "vote"
    s.clock.now = scheduled + timedelta(minutes=5)
    s.bot.cycle()  # past the scheduled deadline, but nobody has seen the round open: it does not close
    assert s.bot.game.phase.kind == "vote" and s.bot.deadline() is None  # its clock has not started
    writes_down = False
    sent_at = s.clock.now
    s.bot.cycle()  # the opening post goes out 15 minutes late
    moved = s.bot.deadline()
    assert moved == scheduled + (sent_at - (scheduled - timedelta(minutes=10)))
    opening = s.posts()[-1]
    assert format_local(moved, s.config.tz, s.config.locale) in opening
    assert format_local(scheduled, s.config.tz, s.config.locale) not in opening
    assert s.restart().deadline() == moved  # the same after a restart
    s.clock.now = moved - timedelta(seconds=5)
    s.bot.cycle()
    assert s.bot.game.phase.kind == "vote"
    s.clock.now = moved + timedelta(seconds=2)
    s.bot.cycle()
    assert s.bot.game.phase.kind == "kill"  # nobody voted: the vote round closed at the moved deadline


def test_opening_post_sent_seconds_late_gives_the_phase_its_whole_length_after_it(tmp_path):
    """Issue 24.4: a post 20 s late no longer keeps the schedule (the old ``post_delay`` of 30 s did)."""
    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, schedule={"default": "10m"})
    s.bot.cycle()
    s.clock.now = s.bot.deadline() + timedelta(seconds=20)  # handled 20 s late; its post goes out now
    s.bot.cycle()
    assert s.bot.deadline() == s.clock.now + timedelta(minutes=10)


def test_message_between_first_run_and_start_is_kept_though_its_forum_time_is_coarse(tmp_path):
    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, locale="zh-Hans")
    s.forum.player_pm("D", "投 A", at=T0 - timedelta(days=2))  # old mail
    s.clock.now = T0 - timedelta(hours=1)
    s.bot.cycle()  # the organiser runs the bot an hour before the start: a baseline read
    s.clock.now = T0 - timedelta(minutes=25)
    sent = s.clock.now
    s.clock.now = T0
    # at the start the forum shows it only as 「半小时前」: a window reaching back before the first run
    window = parse_relative("半小时前", s.clock.now, s.clock.now, s.config.tz)
    assert window.earliest < T0 - timedelta(hours=1) + timedelta(minutes=1) and window.earliest <= sent
    s.forum.player_pm("D", "帮助", at=window.earliest, precision=window.precision_seconds)
    s.bot.cycle()
    s.clock.advance(1)
    s.bot.cycle()
    inputs = [(row.kind, i.text if i else None) for row, i in s.bot.store.inputs()]
    assert inputs[:2] == [("start", None), ("message", "帮助")]

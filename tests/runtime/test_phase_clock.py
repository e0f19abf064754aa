"""A phase's clock starts when players can see it (issue 24.4): its deadline is counted from the instant its
opening post was written, the prologue's from the thread and every role PM; nothing names a deadline before
the thread shows it. On the in-memory forum with the test clock: no wall-clock timing."""

from __future__ import annotations

from datetime import timedelta

from bot_helpers import T0, make_season, no_answer_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forumbot.forums.errors import ForumDown
from forumbot.runtime.schedule import format_local
from forumbot.runtime.store import aware

PLAYERS = list("ABCDEFG")
KC = list("ABCDEFGHIJKLMN")
KC_ROLES = {"A": "killer", "B": "killer", "C": "killer", "D": "police", "E": "police", "F": "police",
            "G": "helper", "H": "nurse"}


def _shown(s, when) -> str:
    return format_local(when, s.config.tz, s.config.locale)


def _no_placeholder(s) -> None:
    texts = [m.body for m in s.forum.sent] + [p.text for posts in s.forum.threads.values() for p in posts]
    assert not [t for t in texts if "⟦" in t]


class ThreadWrites:
    """The forum refuses the judge's thread replies while ``down`` (the judge's thread queue is behind); private
    messages and reads go on."""

    def __init__(self, s) -> None:
        self.down = False
        self._reply = s.forum.reply
        s.forum.reply = self

    def __call__(self, tid, body):
        if self.down:
            raise ForumDown("busy")
        return self._reply(tid, body)


def _vote_round_post_refused(tmp_path):
    """A season of 10 min phases whose prologue closed 2 s after its deadline; the vote round opened but the
    forum refuses its opening post (``writes.down``, on until the test lifts it)."""
    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, schedule={"default": "10m"})
    writes = ThreadWrites(s)
    s.bot.cycle()
    s.clock.now = s.bot.deadline() + timedelta(seconds=2)
    writes.down = True
    s.bot.cycle()
    return s, writes


def _ballot_just_after_the_deadline(s, voter: str, text: str):
    """``voter`` posts ``text`` in the thread 1 s after the open round's deadline; the bot cycles at 2 s and
    4 s after it. The deadline."""
    dl = s.bot.deadline()
    s.clock.now = dl + timedelta(seconds=1)
    s.forum.player_post(s.thread, voter, text)
    s.clock.now = dl + timedelta(seconds=2)
    s.bot.cycle()
    s.clock.advance(2)
    s.bot.cycle()
    return dl


def test_a_post_seconds_late_gives_the_phase_its_whole_length_after_it(tmp_path):
    """The demo's 8 s phases: the vote round's post goes out 5 s after the round opened. Its deadline is 8 s
    after the post (the old rule kept the schedule within 30 s: the round closed 3 s after its post)."""
    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, schedule={"default": "8s", "grace": "1s"})
    writes = ThreadWrites(s)
    s.bot.cycle()
    s.clock.now = s.bot.deadline() + timedelta(seconds=1)
    writes.down = True
    s.bot.cycle()  # the prologue closes at its deadline; the round's post cannot go yet
    assert s.bot.game.phase.kind == "vote" and s.bot.deadline() is None
    opened = s.bot.timing.opened_at[s.bot.game.phase.id]
    s.clock.now = opened + timedelta(seconds=5)
    writes.down = False
    s.bot.cycle()  # the post goes out
    posted = s.clock.now
    assert s.bot.deadline() == posted + timedelta(seconds=8)
    assert _shown(s, posted + timedelta(seconds=8)) in s.posts()[-1]
    assert s.restart().deadline() == posted + timedelta(seconds=8)  # the same after a restart
    s.clock.now = posted + timedelta(seconds=6)
    s.bot.cycle()
    assert s.bot.game.phase.kind == "vote"  # the old rule closed it here (the schedule: opened + 8 s)
    _no_placeholder(s)


def test_a_deadline_is_a_whole_second_counted_from_the_attempt_at_the_post(tmp_path):
    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, schedule={"default": "10m"})
    s.clock.now = T0 + timedelta(seconds=0.3)  # the first run, 0.3 s after the start
    s.bot.cycle()
    assert s.bot.deadline() == T0 + timedelta(seconds=1, minutes=10)  # the thread at 0.3 s: counted from 1 s
    assert _shown(s, s.bot.deadline()) in s.posts()[0]


def test_a_daily_deadline_stays_when_the_post_is_seconds_late(tmp_path):
    """Every day at 22:00, at least the phase's length after its post: a post 7 s late keeps the day's 22:00."""
    s = make_season(tmp_path, PLAYERS, {"C": "killer"},
                    schedule={"default": "2h", "daily_deadline": "22:00", "exact_kinds": []})
    writes = ThreadWrites(s)
    s.bot.cycle()
    first = s.bot.deadline()
    assert first == T0.replace(hour=22)
    s.clock.now = first + timedelta(seconds=2)
    writes.down = True
    s.bot.cycle()
    s.clock.now = first + timedelta(seconds=7)
    writes.down = False
    s.bot.cycle()
    assert s.bot.deadline() == first + timedelta(days=1)  # 22:00 the next day, not 22:00:07
    assert _shown(s, first + timedelta(days=1)) in s.posts()[-1]


def test_while_the_opening_post_is_not_out_the_deadline_cannot_pass(tmp_path):
    s, writes = _vote_round_post_refused(tmp_path)
    s.clock.advance(3600)  # an hour: six times the round's length
    s.bot.cycle()
    assert s.bot.game.phase.kind == "vote" and s.bot.deadline() is None and s.bot.next_wakeup() is None
    writes.down = False
    s.bot.cycle()
    assert s.bot.deadline() == s.clock.now + timedelta(minutes=10)


def test_the_prologue_starts_when_the_thread_and_every_role_pm_are_out(tmp_path):
    """A role PM without an answer (the forum may still write it) holds the thread until it is found or sent
    again; the thread's text then names the prologue's true deadline."""
    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, schedule={"default": "1h"})
    s.forum.request_horizon_seconds = 60
    send_pm = no_answer_for(s, "D")
    s.bot.cycle()
    assert s.bot.thread_id is None and s.bot.deadline() is None  # the thread waits for D's role PM
    [thread] = [r for r in s.bot.store.outbox() if r.kind == "thread"]
    assert s.bot.held(thread)
    s.forum.send_pm = send_pm
    s.clock.advance(30)
    s.bot.cycle()
    assert s.bot.thread_id is None  # D's PM may still be written by the forum: not looked for before 60 s
    s.clock.advance(40)
    s.bot.cycle()  # D's PM is looked for, not found, sent again; then the thread
    assert [m.recipient for m in s.forum.sent].count("D") == 1 and s.bot.thread_id is not None
    assert s.bot.deadline() == s.clock.now + timedelta(hours=1)
    assert _shown(s, s.clock.now + timedelta(hours=1)) in s.posts()[0]
    _no_placeholder(s)


def test_a_refused_role_pm_does_not_hold_the_thread(tmp_path):
    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, schedule={"default": "1h"})
    s.forum.full_mailboxes.add("D")
    s.bot.cycle()
    assert s.bot.thread_id is not None and s.bot.deadline() == T0 + timedelta(hours=1)
    s.clock.advance(1)
    s.bot.cycle()
    assert [m for m in s.forum.pms_to("Org") if "D" in m.body]  # the organiser is told, as before


def test_a_reply_naming_the_deadline_waits_for_the_phase_post_and_names_its_deadline(tmp_path):
    s, writes = _vote_round_post_refused(tmp_path)
    s.clock.advance(2)
    s.forum.player_pm("A", "status")
    s.clock.advance(2)
    s.bot.cycle()
    s.clock.advance(2)
    s.bot.cycle()
    assert [m for m in s.forum.pms_to("A") if "welcome" not in m.body] == []  # held: it names the deadline
    s.clock.advance(40)
    writes.down = False
    s.bot.cycle()
    [status] = [m.body for m in s.forum.pms_to("A") if "welcome" not in m.body]
    assert _shown(s, s.bot.deadline()) in status and s.bot.deadline() == s.clock.now + timedelta(minutes=10)
    _no_placeholder(s)


def test_reminders_wait_for_the_phase_post_and_count_from_its_deadline(tmp_path):
    """A reminder 9 min 50 s before a 10 min round's deadline: due 10 s after the round opened by the schedule.
    Its post goes out 20 s late: the reminder comes 10 s after the post and names the deadline it shows."""
    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, schedule={"default": "10m", "reminders": ["590s"]})
    writes = ThreadWrites(s)
    s.bot.cycle()
    s.clock.now = s.bot.deadline() + timedelta(seconds=1)
    writes.down = True
    s.bot.cycle()
    opened = s.bot.timing.opened_at[s.bot.game.phase.id]
    for t in (12, 16):
        s.clock.now = opened + timedelta(seconds=t)
        s.bot.cycle()
    assert not [m for m in s.forum.sent if "Reminder" in m.body]  # the old rule reminded here, before the post
    s.clock.now = opened + timedelta(seconds=20)
    writes.down = False
    s.bot.cycle()
    dl = s.bot.deadline()
    assert dl == opened + timedelta(seconds=20, minutes=10)
    s.clock.now = opened + timedelta(seconds=25)
    s.bot.cycle()
    assert not [m for m in s.forum.sent if "Reminder" in m.body]
    s.clock.now = opened + timedelta(seconds=32)
    s.bot.cycle()
    s.clock.advance(1)
    s.bot.cycle()
    reminders = [m.body for m in s.forum.sent if "Reminder" in m.body]
    assert reminders and all(_shown(s, dl) in r for r in reminders)


def test_a_player_voted_out_whose_vote_comes_just_after_the_deadline_gets_the_late_reply(tmp_path):
    """J, voted out, posts his vote 1 s after the deadline, before the result post reached the thread: he is
    told it was late (common/late) and that he is out; the organiser is not asked to check a dead player's
    post."""
    s = make_season(tmp_path, KC, KC_ROLES, ruleset="killer_club", params={"vote_in_thread": True, "last_words": 0})
    s.bot.cycle()
    for _ in range(2):  # prologue, then night 1 (nobody killed): the day's vote opens
        s.clock.now = s.bot.deadline() + timedelta(seconds=2)
        s.bot.cycle()
    assert s.bot.game.phase.kind == "vote"
    for voter in "ABCDEFGHI":
        s.forum.player_post(s.thread, voter, "投 J")
        s.clock.advance(1)
    s.bot.cycle()
    dl = _ballot_just_after_the_deadline(s, "J", "投 A")
    assert not s.bot.game.player(s.bot.game.seat_of("J")).alive
    assert not [m for m in s.forum.pms_to("Org") if "J" in m.body]
    [reply] = [m.body for m in s.forum.pms_to("J") if "welcome" not in m.body]
    assert "late" in reply and _shown(s, dl) in reply and "out of the game" in reply, reply


def test_a_late_notice_waits_until_the_thread_shows_the_round_closed(tmp_path):
    """A ballot 3 s after the deadline, while the next round's post cannot reach the forum: the voter is told
    it was late only once the thread shows the round closed."""
    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, schedule={"default": "10m"})
    writes = ThreadWrites(s)
    s.bot.cycle()
    s.clock.now = s.bot.deadline() + timedelta(seconds=2)
    s.bot.cycle()  # the vote round
    dl = s.bot.deadline()
    s.clock.now = dl + timedelta(seconds=3)
    s.forum.player_pm("A", "投 B")
    writes.down = True
    s.clock.advance(2)
    s.bot.cycle()  # the vote closes; its result and the next round's post cannot go out
    s.clock.advance(2)
    s.bot.cycle()
    assert s.bot.game.phase.kind != "vote" and not [m for m in s.forum.pms_to("A") if "late" in m.body]
    writes.down = False
    s.bot.cycle()
    [late] = [m.body for m in s.forum.pms_to("A") if "late" in m.body]
    assert late.startswith("Your message was late") and _shown(s, dl) in late
    _no_placeholder(s)


def test_a_post_written_without_an_answer_keeps_the_deadline_fixed_at_its_attempt_after_a_restart(tmp_path):
    """The round's post reaches the forum but the answer is lost (then the bot is restarted): after the request
    horizon it is found by its text, and the deadline is the one that text shows, counted from that attempt."""
    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, schedule={"default": "10m"})
    s.forum.request_horizon_seconds = 60
    s.bot.cycle()
    s.clock.now = s.bot.deadline() + timedelta(seconds=2)
    s.forum.fail_after_write = True
    s.bot.cycle()  # the prologue closes; the round's post is written, its answer lost
    attempt = s.clock.now
    s.forum.fail_after_write = False
    assert s.bot.deadline() is None and _shown(s, attempt + timedelta(minutes=10)) in s.posts()[-1]
    s.clock.advance(30)
    s.restart().cycle()
    assert s.bot.deadline() is None  # not looked for before the horizon: it may still be on its way
    s.clock.advance(40)
    s.bot.cycle()  # found by its text: not written again
    assert len(s.posts()) == 2 and s.bot.deadline() == attempt + timedelta(minutes=10)
    assert s.restart().deadline() == attempt + timedelta(minutes=10)


def test_a_phase_posted_by_an_earlier_release_keeps_the_deadline_it_was_posted_with(tmp_path):
    """Seasons judged before this rule stored ``post_delay`` (phase id -> seconds its deadline moved): a phase
    found there keeps the schedule from its opening moved by that delay, the deadline its post showed."""
    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, schedule={"default": "10m"})
    s.bot.cycle()
    s.clock.now = s.bot.deadline() + timedelta(seconds=20)
    s.bot.cycle()
    pid = s.bot.game.phase.id
    opened = s.bot.timing.opened_at[pid]
    visible = s.bot.store.cursor("visible")
    del visible[str(pid)]
    s.bot.store.set_cursor("visible", visible)
    s.bot.store.set_cursor("post_delay", {str(pid): 0})  # posted 20 s late: the old rule kept the schedule
    assert s.restart().deadline() == opened + timedelta(minutes=10)


def test_a_player_out_before_the_round_who_posts_a_vote_just_after_it_is_still_the_organisers_to_check(tmp_path):
    s = make_season(tmp_path, KC, KC_ROLES, ruleset="killer_club", params={"vote_in_thread": True, "last_words": 0})
    s.bot.cycle()
    s.clock.now = s.bot.deadline() + timedelta(seconds=2)
    s.bot.cycle()  # night 1
    s.forum.player_pm("A", "kill J")
    s.clock.advance(2)
    s.bot.cycle()
    s.clock.now = s.bot.deadline() + timedelta(seconds=2)
    s.bot.cycle()  # J is killed: the day's vote opens
    _ballot_just_after_the_deadline(s, "J", "投 A")
    assert [m for m in s.forum.pms_to("Org") if "J, who is out of the game" in m.body]
    assert not [m for m in s.forum.pms_to("J") if "late" in m.body]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.booleans(), st.integers(1, 40)), min_size=10, max_size=40))
def test_no_phase_closes_less_than_its_length_after_its_post_whatever_the_forum_does(tmp_path_factory, steps):
    """Thread writes refused at random moments, cycles at random intervals: every deadline applied lies at least
    the phase's length after the last of its opening posts was written, and no text sent names a placeholder."""
    tmp_path = tmp_path_factory.mktemp("clock")
    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, schedule={"default": "30s", "grace": "1s"})
    writes = ThreadWrites(s)
    for down, seconds in steps:
        writes.down = down
        s.bot.cycle()
        s.clock.advance(seconds)
    bot = s.bot
    for row, _ in bot.store.inputs():
        if row.kind != "deadline":
            continue
        prefix = f"{bot.store.season_id}:{bot.opened_by[row.phase_id]}:"
        rows = [r for r in bot.store.outbox() if r.key.startswith(prefix) and r.kind in ("post", "thread")]
        assert rows and all(r.status == "sent" for r in rows)
        assert aware(row.at) >= max(aware(r.sent_at) for r in rows) + timedelta(seconds=30)
    _no_placeholder(s)


def test_an_organiser_command_typed_while_the_post_is_not_out_is_acknowledged_without_a_placeholder(tmp_path):
    s, writes = _vote_round_post_refused(tmp_path)
    s.bot.organiser_command("extend 2h")
    s.clock.advance(2)
    s.bot.cycle()
    [note] = [r.body for r in s.bot.store.outbox() if r.status == "note"]
    assert "extend" in note and "⟦" not in note
    writes.down = False
    s.bot.cycle()
    assert s.bot.deadline() == s.clock.now + timedelta(hours=2, minutes=10)
    _no_placeholder(s)


def test_status_says_the_deadline_waits_for_the_phase_post(tmp_path, monkeypatch):
    """While a phase's opening post is not on the forum its deadline is not known; the organiser's ``status``
    says so instead of leaving the line out (it used to print no deadline line at all)."""
    from typer.testing import CliRunner

    from forumbot.cli import app
    from forumbot.cli import season as season_cli

    s, writes = _vote_round_post_refused(tmp_path)
    monkeypatch.setattr(season_cli, "_load", lambda path: s.config)
    monkeypatch.setattr(season_cli, "_bot", lambda config, forum=None, accept_new_rules=False, engine=None: s.restart())
    monkeypatch.setattr(season_cli, "_no_database", lambda config: False)
    monkeypatch.setattr(season_cli, "_never_run", lambda config: None)
    out = CliRunner().invoke(app, ["status", "season.toml"]).output
    assert "deadline: set when the phase's opening post is on the forum" in out, out
    writes.down = False
    s.clock.now += timedelta(minutes=2)  # past the request horizon of the refused attempt
    s.bot.cycle()
    out = CliRunner().invoke(app, ["status", "season.toml"]).output
    assert f"deadline: {format_local(s.bot.deadline(), s.config.tz, 'en')}" in out, out


def test_an_organiser_asking_by_pm_while_the_post_is_not_out_is_answered_at_once(tmp_path):
    """The organiser is who must act when a phase's post cannot go out: his status (by private message) is
    answered at once, without the deadline the thread does not show yet, not held until the post is out."""
    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, schedule={"default": "10m"})
    writes = ThreadWrites(s)
    s.bot.cycle()
    s.clock.now = s.bot.deadline() + timedelta(seconds=2)
    writes.down = True
    s.bot.cycle()  # the vote round opened; its post cannot go out
    s.clock.advance(2)
    s.forum.player_pm("Org", "status")
    s.clock.advance(2)
    s.bot.cycle()
    s.clock.advance(2)
    s.bot.cycle()
    [status] = [m.body for m in s.forum.pms_to("Org") if "Still to act" in m.body]
    assert "Deadline" not in status
    _no_placeholder(s)


def test_a_private_message_queued_before_the_start_does_not_keep_the_thread_from_opening(tmp_path):
    """A PM in the outbox before the season's first cycle (an organiser's console sign-in link) is not the thread:
    the start still opens the game thread, and the season's first post is that thread."""
    from forumbot.runtime.store import OutboxRow

    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, schedule={"default": "1h"})
    s.bot.store.queue([OutboxRow(season_id=s.bot.store.season_id, key="early-pm", kind="pm", template="t",
                                 recipient="A", subject="hello", body="hello")])
    s.bot.cycle()
    assert [r.kind for r in s.bot.store.outbox()].count("thread") == 1
    assert s.bot.thread_id is not None and s.bot.deadline() == T0 + timedelta(hours=1)

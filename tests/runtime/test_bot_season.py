"""The bot on the in-memory forum: a whole season, crash safety, deadlines by forum time."""

from __future__ import annotations

import random
from datetime import timedelta

from bot_helpers import example_phases, make_season, play_phases

PLAYERS = list("ABCDEFG")


def test_worked_example_through_the_bot(tmp_path, db_url):
    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, db_url=db_url)
    play_phases(s, example_phases())
    bot = s.bot
    assert bot.game.finished and bot.game.winner == "good"
    scores = bot.game.ruleset.scores()
    assert {bot.game.name(k): v for k, v in scores.items()} == {"A": 11, "B": 8, "C": 1.5, "D": 6, "E": 0, "F": 0, "G": 5}
    posts = s.posts()
    assert "final results" in posts[-1] and "27 / 73" in posts[-1]
    # each player got exactly one role PM; every command got its reply
    roles = [m for m in s.forum.sent if "welcome to" in m.body]
    assert sorted(m.recipient for m in roles) == PLAYERS
    inputs = [(row, inbound) for row, inbound in bot.store.inputs() if row.kind == "message"]
    assert len(inputs) == sum(len(p) for p in example_phases())
    outbox = {r.key: r for r in bot.store.outbox()}
    for row, inbound in inputs:
        first = outbox[f"{bot.store.season_id}:{row.seq}:0"]
        assert first.kind == "pm" and first.recipient == inbound.sender and first.status == "sent"
    assert bot.done()


def test_same_posts_and_pms_with_crashes(tmp_path):
    (tmp_path / "calm").mkdir()
    (tmp_path / "crashy").mkdir()
    calm = make_season(tmp_path / "calm", PLAYERS, {"C": "killer"})
    play_phases(calm, example_phases())

    rng = random.Random(5)
    crashes = []

    def crash(season, step):
        if rng.random() < 0.7:
            crashes.append(step)
            season.restart()

    crashy = make_season(tmp_path / "crashy", PLAYERS, {"C": "killer"})
    play_phases(crashy, example_phases(), crash=crash)
    assert len(crashes) >= 20
    assert crashy.posts() == calm.posts()
    assert crashy.pms() == calm.pms()


def test_interrupted_send_is_verified_not_doubled(tmp_path):
    s = make_season(tmp_path, PLAYERS, {"C": "killer"})
    s.forum.fail_after_write = True  # the first write reaches the forum, the answer is lost
    s.bot.cycle()
    s.restart().cycle()
    assert len(s.forum.sent) == len(PLAYERS)  # role PMs, none doubled
    assert len(s.posts()) == 1
    assert len(s.forum.threads) == 1  # the thread whose creation was interrupted was found, not opened again


def test_vote_before_deadline_counts_even_if_read_after_it(tmp_path):
    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, schedule={"default": "1h"})
    s.bot.cycle()
    s.clock.advance(3602)
    s.bot.cycle()  # vote round 1 open
    dl = s.bot.deadline()
    s.forum.down = True
    s.clock.now = dl - timedelta(seconds=1)
    s.forum.player_pm("A", "投 B")
    s.clock.now = dl + timedelta(minutes=5)
    s.bot.cycle()  # forum down across the deadline: the round must not close
    assert s.bot.game.phase.kind == "vote"
    s.forum.down = False
    s.forum.player_pm("D", "投 A")  # sent after the deadline
    s.bot.cycle()
    sl = s.bot.game.ruleset
    assert sl.s.votes[0].received == {2: 3}  # A's vote counted, D's did not
    assert 1 not in sl.s.votes[0].warned and 4 in sl.s.votes[0].warned
    late = [m.body for m in s.forum.pms_to("D") if "late" in m.body]
    assert late, "the late voter is told the vote was late"


def test_full_mailbox_is_reported_not_lost(tmp_path):
    s = make_season(tmp_path, PLAYERS, {"C": "killer"})
    s.forum.full_mailboxes.add("D")
    s.bot.cycle()
    s.bot.cycle()
    failed = s.bot.store.outbox(("failed",))
    assert [r.recipient for r in failed] == ["D"]
    assert any("could not deliver" in m.body and "D" in m.body for m in s.forum.pms_to("Org"))
    s.forum.full_mailboxes.clear()
    s.clock.advance(11 * 60)
    s.bot.cycle()
    assert any("welcome" in m.body for m in s.forum.pms_to("D"))


def test_reminders_go_to_players_who_have_not_acted(tmp_path):
    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, schedule={"reminders": ["20s"]})
    s.bot.cycle()
    s.clock.advance(62)
    s.bot.cycle()
    s.forum.player_pm("A", "投 B")
    s.clock.advance(1)
    s.bot.cycle()
    s.clock.now = s.bot.deadline() - timedelta(seconds=15)
    s.bot.cycle()
    s.restart().cycle()
    reminded = sorted(m.recipient for m in s.forum.sent if m.body.startswith("Reminder"))
    assert reminded == ["B", "C", "D", "E", "F", "G"]


def test_organiser_commands_by_pm_and_cli(tmp_path):
    s = make_season(tmp_path, PLAYERS, {"C": "killer"})
    s.bot.cycle()
    s.clock.advance(62)
    s.bot.cycle()
    dl = s.bot.deadline()
    s.forum.player_pm("Org", "延长 30分钟")
    s.clock.advance(1)
    s.bot.cycle()
    assert s.bot.deadline() == dl + timedelta(minutes=30)
    s.bot.organiser_command("罚分 F 潜水")
    s.clock.advance(1)
    s.bot.cycle()
    assert s.bot.game.player(6).out_reason == "penalty"
    notes = s.bot.store.outbox(("note",))
    assert (notes and "penalty" in notes[-1].body.lower()) or "F" in notes[-1].body


def test_pause_moves_the_deadline(tmp_path):
    s = make_season(tmp_path, PLAYERS, {"C": "killer"})
    s.bot.cycle()
    s.clock.advance(62)
    s.bot.cycle()
    dl = s.bot.deadline()
    s.forum.player_pm("Org", "暂停")
    s.clock.advance(1)
    s.bot.cycle()
    assert s.bot.deadline() is None
    s.clock.advance(600)
    s.forum.player_pm("Org", "继续")
    s.clock.advance(1)
    s.bot.cycle()
    assert s.bot.deadline() == dl + timedelta(seconds=601)  # paused from the pause message to the resume message


def test_long_outage_opens_the_next_phase_when_handled(tmp_path):
    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, schedule={"default": "1h"})
    s.bot.cycle()
    s.clock.advance(3602)
    s.bot.cycle()
    dl = s.bot.deadline()
    s.clock.now = dl + timedelta(hours=5)  # the bot was down for five hours
    s.bot.cycle()
    assert s.bot.game.phase.kind == "kill"  # one phase closed, not five
    assert s.bot.deadline() == s.clock.now + timedelta(hours=1)
    s.restart()
    assert s.bot.deadline() == s.clock.now + timedelta(hours=1)


class Crash(BaseException):
    """The process dies here (SIGKILL): nothing after this line runs."""


def test_same_posts_and_pms_with_crashes_inside_operations(tmp_path, monkeypatch, db_url):
    """Crashes at random instants inside a cycle: before or after a forum write takes effect, before
    or after a database commit. Restarted each time, the season sends exactly what a calm one sends."""
    from forumbot.runtime import store as store_mod

    (tmp_path / "calm").mkdir()
    (tmp_path / "crashy").mkdir()
    calm = make_season(tmp_path / "calm", PLAYERS, {"C": "killer"})
    play_phases(calm, example_phases())

    rng = random.Random(11)
    crashes = []
    crashy = make_season(tmp_path / "crashy", PLAYERS, {"C": "killer"}, db_url=db_url)
    forum = crashy.forum

    def maybe(where):
        if rng.random() < 0.08:
            crashes.append(where)
            raise Crash(where)

    for name in ("send_pm", "reply", "create_thread", "private_messages", "thread_posts", "find_sent_pm"):
        original = getattr(forum, name)

        def wrapped(*a, _original=original, _name=name, **k):
            maybe(f"before {_name}")
            result = _original(*a, **k)
            maybe(f"after {_name}")
            return result

        monkeypatch.setattr(forum, name, wrapped)
    for name in ("commit_input", "store_inbound", "update_outbox", "claim_outbox", "queue", "set_cursor"):
        original = getattr(store_mod.Store, name)

        def wrapped(self, *a, _original=original, _name=name, **k):
            maybe(f"before {_name}")
            result = _original(self, *a, **k)
            maybe(f"after {_name}")
            return result

        monkeypatch.setattr(store_mod.Store, name, wrapped)

    def crash_safe_cycle(season, step):
        pass

    original_cycle = crashy.bot.cycle.__func__

    def cycle_until_done(self):
        while True:
            try:
                original_cycle(self)
                return
            except Crash:
                crashy.restart()
                self = crashy.bot

    monkeypatch.setattr(type(crashy.bot), "cycle", cycle_until_done)
    play_phases(crashy, example_phases())
    assert len(crashes) >= 20, crashes
    assert crashy.posts() == calm.posts()
    assert crashy.pms() == calm.pms()


def test_quota_refusal_is_retried_after_its_wait_and_organiser_told_once(tmp_path):
    from forumbot.forums.errors import SendFailed

    s = make_season(tmp_path, PLAYERS, {"C": "killer"})
    original = s.forum.send_pm
    refused = {"n": 0}

    def limited(user, subject, body, conversation_id=None):
        if user == "E" and refused["n"] < 3:
            refused["n"] += 1
            raise SendFailed("conversation limit reached", "limit", retry_after_seconds=3600)
        return original(user, subject, body, conversation_id)

    s.forum.send_pm = limited
    s.bot.cycle()
    for _ in range(3):
        s.clock.advance(3601)
        s.bot.cycle()
    assert any("welcome" in m.body for m in s.forum.pms_to("E"))
    assert refused["n"] == 3
    assert sum("could not deliver" in m.body for m in s.forum.pms_to("Org")) == 1


def test_season_does_not_start_while_the_forum_is_down(tmp_path):
    s = make_season(tmp_path, PLAYERS, {"C": "killer"})
    s.forum.down = True
    s.bot.cycle()
    assert not s.bot.started and s.bot.store.inputs() == []
    s.forum.down = False
    s.bot.cycle()
    assert s.bot.started and len(s.forum.sent) == len(PLAYERS)

"""Write pacing shared by the seasons of one judge account on one forum (``forumbot serve``), and only by
them: seasons on another forum never wait on it; the account's conversations-a-day limit holds every
season's private messages."""

from __future__ import annotations

import itertools
import threading
from datetime import timedelta

from serve_helpers import soon, wait_for, write_season

from forumbot.config import SeasonConfig
from forumbot.forums.errors import SendFailed
from forumbot.forums.memory import MemoryForum
from forumbot.serve.pacing import ForumPace, Pacing
from forumbot.serve.service import ServeOptions, Service


class OwnForums:
    """A separate adapter per season (as ``forumbot serve`` makes them), so only the shared pace can space
    the writes of two seasons on one forum."""

    def __init__(self) -> None:
        self.by_season: dict[str, MemoryForum] = {}

    def __call__(self, config: SeasonConfig) -> MemoryForum:
        f = self.by_season[config.name] = MemoryForum(username=config.forum.username)
        f.write_interval_seconds = config.forum.min_write_interval_seconds
        return f


def write_times(forum: MemoryForum):
    return sorted([m.time_utc for m in forum.sent] + [p.time_utc for posts in forum.threads.values() for p in posts])


def test_seasons_of_one_account_share_its_write_spacing_and_other_forums_do_not_wait(tmp_path):
    start = soon()
    write_season(tmp_path, "one", start, base_url="http://slow.test", write_interval=0.25)
    write_season(tmp_path, "two", start, base_url="http://slow.test", write_interval=0.25)
    write_season(tmp_path, "other", start, base_url="http://fast.test", write_interval=0)
    forums = OwnForums()
    service = Service(ServeOptions(tmp_path, scan_seconds=0.2, forum_factory=forums))
    runner = threading.Thread(target=service.run, daemon=True)
    runner.start()
    try:
        expected = 7 + 1  # the role PMs and the new thread (with the opening post)
        wait_for(lambda: all(name in forums.by_season and len(write_times(forums.by_season[name])) >= expected
                             for name in ("one", "two", "other")), timeout=60, what="the start writes")
    finally:
        service.stop()
        runner.join(timeout=60)
    slow = sorted(write_times(forums.by_season["one"]) + write_times(forums.by_season["two"]))
    gaps = [(b - a).total_seconds() for a, b in itertools.pairwise(slow)]
    assert min(gaps) >= 0.24, gaps  # one account on one forum: writes spaced across both seasons
    fast = write_times(forums.by_season["other"])
    # the other forum's season did not queue behind the slow forum's 16 start writes (≥ 3.75 s)
    assert slow[2 * expected - 1] - slow[0] >= timedelta(seconds=0.25 * (2 * expected - 1))
    assert fast[expected - 1] - fast[0] < timedelta(seconds=1), fast


def test_a_quota_refusal_holds_private_messages_of_every_season_on_the_account():
    pacing = Pacing()
    a = pacing.pace("http://d.test/", "judge", 16)
    b = pacing.pace("http://d.test", "judge", 0)
    other = pacing.pace("http://d.test", "someone", 16)
    assert a is b and a is not other and a.interval == 16  # the largest interval asked for
    assert a.acquire(timeout=1)
    assert a.wait_seconds() == 0  # nothing written yet
    a.hold_pms(3600)
    a.release(wrote=True)
    assert b.pms_held() and not other.pms_held()
    assert b.acquire(timeout=1)
    assert 15 < b.wait_seconds() <= 16
    b.release(wrote=False)


def test_delivery_under_a_held_quota_sends_posts_but_not_private_messages(tmp_path):
    from bot_helpers import Clock, Season, make_config

    clock = Clock()
    config = make_config(tmp_path, list("ABCDEFG"), {"C": "killer"})
    forum = MemoryForum(clock=clock)
    season = Season(config, forum, clock, f"sqlite:///{tmp_path / 's.db'}")
    pace = ForumPace("http://x|judge", 0)
    season.bot.pace = pace
    season.bot.cycle()  # the start: role PMs, then the thread (the prologue's clock starts with both)
    assert len(forum.sent) == 7
    forum.player_pm("A", "help")
    clock.now = season.bot.deadline() + timedelta(seconds=2)
    pace.hold_pms(3600)  # the forum refused a conversation for the day limit (another season)
    season.bot.cycle()  # the prologue closes: the vote round's post goes out, the reply to A waits
    assert len(forum.posts_by_judge(season.bot.thread_id)) == 2 and len(forum.sent) == 7
    pace._pm_hold = None
    clock.advance(1)
    season.bot.cycle()
    assert len(forum.sent) == 8


def test_the_forum_refusing_for_its_daily_limit_holds_the_account(tmp_path):
    from bot_helpers import Clock, Season, make_config

    class Quota(MemoryForum):
        def send_pm(self, user, subject, body, conversation_id=None):
            exc = SendFailed("privatepmthreadlimit")
            exc.retry_after_seconds = 3600  # type: ignore[attr-defined]
            raise exc

    clock = Clock()
    forum = Quota(clock=clock)
    season = Season(make_config(tmp_path, list("ABCDEFG"), {"C": "killer"}), forum, clock, f"sqlite:///{tmp_path / 's.db'}")
    pace = ForumPace("http://x|judge", 0)
    season.bot.pace = pace
    season.bot.cycle()
    assert pace.pms_held()
    assert len(season.bot.store.outbox(("failed",))) == 1  # one refusal, the other six wait without trying


def test_a_forum_that_is_down_holds_only_its_own_seasons(tmp_path):
    start = soon()
    write_season(tmp_path, "down", start, base_url="http://down.test")
    write_season(tmp_path, "up", start, base_url="http://up.test")

    class Forums(OwnForums):
        def __call__(self, config: SeasonConfig) -> MemoryForum:
            f = super().__call__(config)
            f.down = config.name == "down"
            return f

    forums = Forums()
    service = Service(ServeOptions(tmp_path, scan_seconds=0.2, forum_factory=forums))
    runner = threading.Thread(target=service.run, daemon=True)
    runner.start()
    try:
        wait_for(lambda: "up" in forums.by_season and len(write_times(forums.by_season["up"])) >= 8, timeout=60,
                 what="the season on the forum that is up")
        assert not write_times(forums.by_season["down"])
        forums.by_season["down"].down = False  # back: it starts as `forumbot run` would
        wait_for(lambda: len(write_times(forums.by_season["down"])) >= 8, timeout=60, what="the season after the outage")
    finally:
        service.stop()
        runner.join(timeout=60)

"""Two seasons judged by one account on one forum read one inbox: each private message is stored, applied and
answered by exactly one of them (forumbot.runtime.inbox_routing), also across a restart, and `forumbot serve`
tells each season which seasons share its inbox."""

from __future__ import annotations

import threading
from datetime import datetime, timedelta
from typing import Any

from bot_helpers import T0, Clock, make_config
from serve_helpers import Forums, soon, wait_for, write_season

from forumbot.forums.memory import MemoryForum
from forumbot.runtime.bot import Bot
from forumbot.runtime.inbox_routing import InboxSeason
from forumbot.runtime.store import make_engine
from forumbot.serve.service import ServeOptions, Service

SPRING, SUMMER = "春季杀", "夏季杀"  # 夏 sorts before 春: 夏季杀 is "the first season by name"
SPRING_PLAYERS = ["A", "B", "C", "D", "E", "F", "G"]
SUMMER_PLAYERS = ["H", "I", "J", "K", "L", "M", "A"]  # A plays in both


class Pair:
    """Both seasons on one memory forum and one clock, in one database; :meth:`restart` rebuilds the bots."""

    def __init__(self, tmp_path: Any, summer_start: datetime = T0, **overrides: Any) -> None:
        tmp_path.mkdir(exist_ok=True)
        self.clock = Clock()
        self.forum = MemoryForum(username="judge", clock=self.clock)
        self.configs = {
            SPRING: make_config(tmp_path, SPRING_PLAYERS, {"C": "killer"}, name=SPRING, locale="zh-Hans", **overrides),
            SUMMER: make_config(tmp_path, SUMMER_PLAYERS, {"J": "killer"}, name=SUMMER, locale="zh-Hans",
                                schedule={"start": summer_start.replace(tzinfo=None).isoformat()}, **overrides),
        }
        self.db_url = f"sqlite:///{tmp_path / 'seasons.db'}"
        self.bots: dict[str, Bot] = {}
        self.mark = 0  # how many PMs the judge had sent when the votes opened
        self.restart()

    def restart(self, *names: str) -> None:
        shared = [InboxSeason(c.name, tuple(c.players), tuple(c.organisers), c.start_utc())
                  for c in self.configs.values()]
        for name in names or tuple(self.configs):
            bot = Bot(self.configs[name], self.forum, clock=self.clock, engine=make_engine(self.db_url),
                      sleep=self.clock.advance)
            bot.inbox_seasons = list(shared)
            self.bots[name] = bot

    def cycle(self) -> None:
        for name in (SPRING, SUMMER):
            self.bots[name].cycle()

    def applied(self, name: str) -> list[tuple[str, str]]:
        return [(inbound.sender, inbound.text) for row, inbound in self.bots[name].store.inputs() if inbound is not None]


MESSAGES = [  # (sender, subject, body)
    ("H", "", "投 I"),  # a player of 夏季杀 only
    ("B", "", "投 C"),  # a player of 春季杀 only
    ("A", "", "投 C"),  # a player of both, naming no season: asked, nothing applied
    ("A", "", "春季杀：投 D"),  # ... naming 春季杀 at the start of the body
    ("A", "Re: 夏季殺 · 法官", "投 I"),  # ... replying to 夏季杀's PM (traditional form of the name)
    ("Zed", "", "投 A"),  # a stranger: only the first season by name answers
]


def play(tmp_path: Any, restarts: frozenset[int] = frozenset(), poll_only: frozenset[int] = frozenset()) -> Pair:
    """Both seasons to their vote, then each message of MESSAGES, a cycle after each. ``restarts``: the
    message indexes after which the bots are rebuilt (one, then both); ``poll_only``: after which the bots
    only read the inbox (messages stored, nothing applied or sent) and are rebuilt at once (a crash between
    storing and acting)."""
    p = Pair(tmp_path)
    p.cycle()  # both start
    p.clock.advance(62)
    p.cycle()  # the prologues close: the votes open
    p.clock.advance(1)
    p.cycle()
    p.mark = len(p.forum.sent)
    for i, (sender, subject, body) in enumerate(MESSAGES):
        p.clock.advance(2)
        p.forum.player_pm(sender, body, subject=subject)
        p.clock.advance(0.5)
        if i in poll_only:
            for bot in p.bots.values():
                bot._poll()
            p.restart()
        p.cycle()
        if i in restarts:
            p.restart(SUMMER if i % 2 else SPRING)
            p.cycle()
            p.restart()
    p.clock.advance(5)
    p.cycle()
    p.cycle()
    return p


def test_each_message_is_applied_once_in_its_season_and_each_sender_answered_as_he_should(tmp_path):
    p = play(tmp_path)
    assert p.applied(SPRING) == [("B", "投 C"), ("A", "投 D")]
    assert p.applied(SUMMER) == [("H", "投 I"), ("A", "投 I"), ("Zed", "投 A")]
    answers = [(m.recipient, m.subject) for m in p.forum.sent[p.mark:]]
    assert sorted(answers) == sorted([
        ("H", f"{SUMMER} · 法官"), ("B", f"{SPRING} · 法官"),
        ("A", f"{SUMMER} / {SPRING} · 法官"), ("A", f"{SPRING} · 法官"), ("A", f"{SUMMER} · 法官"),
        ("Zed", f"{SUMMER} · 法官")])
    [ask] = [m.body for m in p.forum.sent[p.mark:] if " / " in m.subject]
    assert SPRING in ask and SUMMER in ask and "「投 C」" in ask and "没有记录" in ask
    [stranger] = p.forum.pms_to("Zed")
    assert "不是本局的玩家" in stranger.body


def test_a_restart_in_the_middle_changes_nothing(tmp_path):
    calm = play(tmp_path / "calm")
    calm_pms = [(m.recipient, m.subject, m.body) for m in calm.forum.sent]
    for restarts, poll_only in ((frozenset({1, 2, 4}), frozenset()), (frozenset(), frozenset({0, 2, 3, 5}))):
        run = play(tmp_path / f"r{len(restarts)}", restarts, poll_only)
        assert run.applied(SPRING) == calm.applied(SPRING)
        assert run.applied(SUMMER) == calm.applied(SUMMER)
        assert [(m.recipient, m.subject, m.body) for m in run.forum.sent] == calm_pms


def test_on_discuz_the_conversations_subject_names_no_season(tmp_path):
    # Discuz!: one conversation per pair of accounts, every message in it under the subject it began with
    p = Pair(tmp_path, forum={"engine": "discuz"})
    p.cycle()
    p.clock.advance(63)
    p.cycle()
    mark = len(p.forum.sent)
    p.forum.player_pm("A", "投 C", subject=f"{SUMMER} · 法官")  # the conversation 夏季杀 began: no season named
    p.forum.player_pm("A", "春季杀：投 D", subject=f"{SUMMER} · 法官")  # the name he typed decides
    p.clock.advance(1)
    p.cycle()
    p.cycle()
    assert p.applied(SPRING) == [("A", "投 D")] and p.applied(SUMMER) == []
    assert sorted(m.subject for m in p.forum.sent[mark:]) == [f"{SUMMER} / {SPRING} · 法官", f"{SPRING} · 法官"]
    [ask] = [m.body for m in p.forum.sent[mark:] if " / " in m.subject]
    assert "标题" not in ask and f"{SUMMER}：你的指令" in ask  # only the way that works on Discuz!


def test_a_season_that_starts_later_takes_nothing_from_the_running_one(tmp_path):
    p = Pair(tmp_path, summer_start=T0 + timedelta(days=30))
    p.cycle()
    p.clock.advance(63)
    p.cycle()
    mark = len(p.forum.sent)
    p.forum.player_pm("A", "投 C")  # in both, but 夏季杀 starts in a month: 春季杀's
    p.forum.player_pm("Zed", "帮助")  # a stranger is answered now, by the running season
    p.forum.player_pm("H", "夏季杀：帮助")  # named: kept for 夏季杀, answered when it starts
    p.clock.advance(1)
    p.cycle()
    p.cycle()
    assert p.applied(SPRING) == [("A", "投 C"), ("Zed", "帮助")] and p.applied(SUMMER) == []
    assert sorted((m.recipient, m.subject) for m in p.forum.sent[mark:]) == [("A", f"{SPRING} · 法官"),
                                                                            ("Zed", f"{SPRING} · 法官")]
    p.clock.advance(30 * 86400)
    p.cycle()
    assert p.applied(SUMMER) == [("H", "帮助")]


def test_a_season_read_alone_answers_every_private_message_as_before(tmp_path):
    clock = Clock()
    forum = MemoryForum(username="judge", clock=clock)
    config = make_config(tmp_path, SPRING_PLAYERS, {"C": "killer"}, name=SPRING, locale="zh-Hans")
    bot = Bot(config, forum, clock=clock, engine=make_engine(f"sqlite:///{tmp_path / 'one.db'}"), sleep=clock.advance)
    bot.inbox_seasons = [InboxSeason(SPRING, tuple(config.players), tuple(config.organisers))]  # alone on its account
    bot.cycle()
    clock.advance(63)
    bot.cycle()
    for sender, subject, body in MESSAGES:
        forum.player_pm(sender, body, subject=subject)
        clock.advance(1)
        bot.cycle()
    # nothing routed away, no prefix taken off: the season parses what was written
    assert [s for s, _ in [(i.sender, i.text) for _, i in bot.store.inputs() if i is not None]] == [m[0] for m in MESSAGES]
    assert ("A", "春季杀：投 D") in [(i.sender, i.text) for _, i in bot.store.inputs() if i is not None]


def test_serve_tells_each_season_the_seasons_sharing_its_inbox(tmp_path):
    start = soon()
    write_season(tmp_path, "one", start, length=30)
    write_season(tmp_path, "two", start, length=30)
    write_season(tmp_path, "elsewhere", start, length=30, base_url="http://other.test")
    forums = Forums()  # one memory forum per base URL: "one" and "two" read the same inbox
    service = Service(ServeOptions(tmp_path, scan_seconds=0.2, forum_factory=forums))
    runner = threading.Thread(target=service.run, daemon=True)
    runner.start()
    try:
        wait_for(lambda: all(n in service.threads and service.threads[n].bot is not None
                             and service.threads[n].bot.started for n in ("one", "two", "elsewhere")),
                 timeout=60, what="the seasons to start")
        assert [s.name for s in service.threads["one"].bot.inbox_seasons] == ["one", "two"]
        assert [s.name for s in service.threads["two"].bot.inbox_seasons] == ["one", "two"]
        assert [s.name for s in service.threads["elsewhere"].bot.inbox_seasons] == ["elsewhere"]
        forum = forums.by_url["http://forum.test"]
        wait_for(lambda: len(forum.sent) >= 2 * 7 and not any(th.bot.store.outbox(("pending", "sending"))
                                                               for th in service.threads.values()),
                 timeout=60, what="the role PMs of both seasons to go out")
        before = len(forum.sent)
        forum.player_pm("A", "help")  # in both seasons (same roster): asked once, by "one"
        forum.player_pm("Stranger", "help")  # in neither: answered once, by "one"
        forum.player_pm("A", "help", subject="Re: two · Judge")  # for "two" only
        wait_for(lambda: len(forum.sent) >= before + 3, timeout=30, what="three answers")
        wait_for(lambda: all(th.bot.polls >= 3 for th in service.threads.values() if th.bot), timeout=30,
                 what="more polls")
    finally:
        service.stop()
        runner.join(timeout=60)
    new = forum.sent[before:]
    assert sorted((m.recipient, m.subject) for m in new) == [("A", "one / two · Judge"), ("A", "two · Judge"),
                                                             ("Stranger", "one · Judge")]

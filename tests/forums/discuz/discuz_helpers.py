"""A fake Discuz! site, a clock the test moves (sleeping advances it) and adapters logged in as anyone."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from fake_discuz import FakeDiscuz

from forumbot.forums.discuz import DiscuzForum

T0 = datetime(2026, 12, 1, 12, 0, 0, tzinfo=UTC)
PLAYERS = ("小明", "小红", "alice", "王大锤")


@dataclass
class Clock:
    """UTC now for the adapter and the fake; ``sleep`` advances it (no real waiting in tests)."""

    now: datetime = T0
    slept: list[float] = field(default_factory=list)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.advance(seconds)

    def epoch(self) -> float:
        return self.now.timestamp()


class Site:
    """A fake site with a judge (法官) and players, and a factory of adapters on it."""

    def __init__(self, **fake_kwargs):
        self.clock = Clock()
        self.fake = FakeDiscuz(clock=self.clock.epoch, **fake_kwargs)
        self.fake.add_user("法官", "秘密")
        for name in PLAYERS:
            self.fake.add_user(name, "pw")
        self.made: list[DiscuzForum] = []

    def client(self, name: str = "法官", password: str | None = None, **kwargs) -> DiscuzForum:
        kwargs.setdefault("retries", 0)
        forum = DiscuzForum(self.fake.base, name, password or ("秘密" if name == "法官" else "pw"),
                            transport=self.fake.transport, sleep=self.clock.sleep, monotonic=self.clock.epoch,
                            clock=self.clock, **kwargs)
        self.made.append(forum)
        return forum

    def close(self) -> None:
        for forum in self.made:
            forum.close()


def replay(cassette, name: str = "法官", password: str = "pw", **kwargs) -> tuple[DiscuzForum, Clock]:
    """An adapter logged in as ``name`` whose HTTP answers come from ``cassette`` (recorded real ones)."""
    clock = Clock()
    kwargs.setdefault("retries", 0)
    forum = DiscuzForum("http://127.0.0.1:18765", name, password, transport=cassette.transport, sleep=clock.sleep,
                        monotonic=clock.epoch, clock=clock, **kwargs)
    return forum, clock

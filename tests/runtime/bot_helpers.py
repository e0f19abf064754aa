"""A season on the in-memory forum with a clock the test moves."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import yaml

from forumbot.config import SeasonConfig
from forumbot.forums.errors import ForumDown, RateLimited
from forumbot.forums.memory import MemoryForum
from forumbot.runtime.bot import Bot
from forumbot.runtime.store import make_engine

T0 = datetime(2026, 12, 1, 12, 0, 0, tzinfo=UTC)


def cli_season(name: str, players: list[str]) -> str:
    """A sunlight season file for the command-line tests: ``players`` (the third is the killer), organiser
    "Org", an unreachable forum, starting at :data:`T0` with 60 s phases."""
    roster = ", ".join(f'"{p}"' for p in players)
    return f'''name = "{name}"
ruleset = "sunlight"
locale = "en"
time_zone = "UTC"
players = [{roster}]
roles = {{ "{players[2]}" = "killer" }}
organisers = ["Org"]
[forum]
base_url = "http://127.0.0.1:1"
username = "judge"
password_env = "NOPE"
forum_id = 1
[schedule]
start = {T0.replace(tzinfo=None).isoformat()}
default = "60s"
grace = "1s"
reminders = []
'''


EXAMPLE = Path(__file__).parent.parent / "transcripts" / "sunlight_worked_example.yaml"


@dataclass
class Clock:
    now: datetime = T0

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@dataclass
class Season:
    """A bot, its forum and clock; :meth:`restart` builds a new Bot on the same database (a crash)."""

    config: SeasonConfig
    forum: MemoryForum
    clock: Clock
    db_url: str
    bot: Bot = field(init=False)

    def __post_init__(self) -> None:
        self.bot = self.new_bot()

    def new_bot(self) -> Bot:
        return Bot(self.config, self.forum, clock=self.clock, engine=make_engine(self.db_url), sleep=self.clock.advance)

    def restart(self) -> Bot:
        self.bot = self.new_bot()
        return self.bot

    @property
    def thread(self) -> int:
        return self.bot.thread_id

    def posts(self) -> list[str]:
        return [p.text for p in self.forum.posts_by_judge(self.thread)]

    def pms(self) -> list[tuple[str, str, str]]:
        return [(m.recipient, m.subject, m.body) for m in self.forum.sent]


def make_config(tmp_path: Path, players: list[str], roles: dict[str, str] | None = None, **overrides: Any) -> SeasonConfig:
    data: dict[str, Any] = {
        "name": "测试赛季",
        "ruleset": "sunlight",
        "locale": "en",
        "players": players,
        "roles": roles,
        "organisers": ["Org"],
        "forum": {"engine": "flaskbb", "base_url": "http://127.0.0.1:1", "username": "judge",
                  "password_env": "X", "forum_id": 1},
        "schedule": {"start": T0.replace(tzinfo=None).isoformat(), "default": "60s", "grace": "1s", "reminders": [],
                     "poll_interval": "1s"},
        "time_zone": "UTC",
        "seed": 7,
        "path": tmp_path / "season.toml",
    }
    for k, v in overrides.items():
        if isinstance(v, dict) and isinstance(data.get(k), dict):
            data[k] = {**data[k], **v}
        else:
            data[k] = v
    return SeasonConfig.model_validate(data)


@dataclass
class PacedForum(MemoryForum):
    """A memory forum that behaves like a busy Discuz!: each write takes ``latency`` seconds of the test
    clock, is stamped by the forum halfway through, and is refused (RateLimited, counted in
    ``flood_refusals``) when its stamp is at most ``flood_seconds`` whole seconds after the previous
    write's stamp — Discuz!'s flood check, which lets through only writes 16 s apart."""

    advance: Any = None
    latency: float = 1.0
    flood_seconds: int = 15
    flood_refusals: int = 0
    _stamp: int | None = None

    def _write(self, perform):  # type: ignore[override]
        self.advance(self.latency / 2)
        stamp = math.floor(self.clock().timestamp())
        try:
            if self._stamp is not None and stamp - self._stamp <= self.flood_seconds:
                self.flood_refusals += 1
                raise RateLimited("flood control: wait before writing again (paced forum)", self.flood_seconds + 1)
            self._stamp = stamp
            return super()._write(perform)
        finally:
            self.advance(self.latency / 2)
            self._last_answer = self.clock()


def make_season(tmp_path: Path, players: list[str], roles: dict[str, str] | None = None, db_url: str | None = None,
                forum: MemoryForum | None = None, **overrides: Any) -> Season:
    config = make_config(tmp_path, players, roles, **overrides)
    clock = Clock()
    if forum is None:
        forum = MemoryForum(username="judge", clock=clock)
    else:
        forum.clock = clock
        if isinstance(forum, PacedForum):
            forum.advance = clock.advance
    return Season(config, forum, clock, db_url or f"sqlite:///{tmp_path / 'season.db'}")


def no_answer_for(season: Season, recipient: str) -> Any:
    """Private messages to ``recipient`` get no answer (a timeout: the forum may still write them); the others
    go as usual. Returns the forum's own ``send_pm``, to put back."""
    send_pm = season.forum.send_pm

    def send(user, subject, body, conversation_id=None):
        if user == recipient:
            raise ForumDown("timed out")
        return send_pm(user, subject, body, conversation_id)

    season.forum.send_pm = send  # type: ignore[method-assign]
    return send_pm


def example_phases() -> list[list[tuple[str, str]]]:
    t = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    return [[tuple(m) for m in p.get("messages", [])] for p in t["phases"]]


def play_phases(season: Season, phases: list[list[tuple[str, str]]], length: float = 60, crash: Any = None) -> None:
    """Start the season, then in each phase send its messages a few seconds in and run the bot to the
    deadline. ``crash(season, step)``, if given, is called between cycles and may restart the bot."""
    clock = season.clock
    step = 0

    def cycle() -> None:
        nonlocal step
        step += 1
        if crash:
            crash(season, step)
        season.bot.cycle()

    cycle()  # start
    clock.advance(length + 2)
    cycle()  # prologue closes
    for messages in phases:
        clock.advance(3)
        for sender, text in messages:
            season.forum.player_pm(sender, text)
            clock.advance(0.5)
            cycle()
        clock.now = season.bot.deadline() + timedelta(seconds=2) if season.bot.deadline() else clock.now
        cycle()
    for _ in range(3):
        cycle()

"""Result-post lag after a deadline with replies queued, at Discuz!'s write pacing, in simulated time.

    .venv/bin/python benchmarks/bench_result_lag.py [--players 19] [--interval 16] [--latency 1.5]
        [--poll 30] [--grace 5] [--rounds 3] [--compare]

A sunlight season of ``--players`` players on the in-memory forum, whose writes take ``--latency`` seconds
of the simulated clock and may start only ``--interval`` seconds after the answer to the previous one
(Discuz!'s flood check: 16 s), judged by a bot with an injected clock, cycled as ``forumbot run`` cycles
it (every poll interval from the start of the previous cycle, and at each deadline plus grace). In each
vote round every player sends a ballot in the last minute before the deadline, so one reply a player is
queued before the round's result post. Measured, per round: from the deadline to the instant the first
post after it (the result) is on the forum. ``--compare`` also runs the outbox in creation order (as
delivery did before issue 24). Prints the figures (docs/runtime.md § Reading never waits for the outbox
keeps the latest); asserts nothing. No wall clock is involved: the figures do not depend on the machine.
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from forumbot.config import SeasonConfig
from forumbot.forums.memory import MemoryForum
from forumbot.runtime.bot import Bot
from forumbot.runtime.store import make_engine

# The tests' clock (a datetime the caller moves), not a copy of it.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "runtime"))
from bot_helpers import Clock

T0 = datetime(2026, 12, 1, 20, 0, 0, tzinfo=UTC)


@dataclass
class PacedForum(MemoryForum):
    """The in-memory forum whose writes take ``latency`` seconds of the simulated clock (performed halfway),
    the write spacing counted from the answer (:meth:`MemoryForum.write_wait_seconds`)."""

    latency: float = 1.5
    advance: Any = None

    def _write(self, perform):  # type: ignore[override]
        self.advance(self.latency / 2)
        try:
            return super()._write(perform)
        finally:
            self.advance(self.latency / 2)
            self._last_answer = self.clock()


def season(folder: Path, players: list[str], poll: float, grace: float) -> SeasonConfig:
    return SeasonConfig.model_validate({
        "name": "bench", "ruleset": "sunlight", "locale": "en", "players": players, "roles": {players[2]: "killer"},
        "organisers": ["Org"], "time_zone": "UTC", "seed": 7, "path": folder / "season.toml",
        "forum": {"engine": "discuz", "base_url": "http://127.0.0.1:1", "username": "judge", "password_env": "X",
                  "forum_id": 1},
        "schedule": {"start": T0.replace(tzinfo=None).isoformat(), "default": "15m", "grace": f"{grace:g}s",
                     "reminders": [], "poll_interval": f"{poll:g}s"},
    })


def run(args: argparse.Namespace, creation_order: bool) -> list[float]:
    """The lag of each vote round's result post, in seconds."""
    players = [f"P{i:02d}" for i in range(1, args.players + 1)]
    clock = Clock(T0)
    forum = PacedForum(username="judge", clock=clock, write_interval_seconds=args.interval, latency=args.latency,
                       advance=clock.advance)
    folder = Path(tempfile.mkdtemp(prefix="bench-result-lag-"))
    bot = Bot(season(folder, players, args.poll, args.grace), forum, clock=clock,
              engine=make_engine(f"sqlite:///{folder / 'season.db'}"), sleep=clock.advance)
    if creation_order:  # one queue in creation order, per destination (as before issue 24)
        thread_first = bot.delivery._queue
        bot.delivery._queue = lambda stuck: sorted(thread_first(stuck), key=lambda r: r.id)  # type: ignore[method-assign]
    lags: list[float] = []
    balloted: set[datetime] = set()
    measuring: tuple[datetime, int] | None = None  # a deadline whose result post is awaited; judge posts before it
    while len(lags) < args.rounds and clock.now < T0 + timedelta(days=1):
        began = clock.now
        deadline = bot.deadline() if bot.started else None
        if (deadline is not None and bot.game.phase.kind == "vote" and deadline not in balloted
                and deadline - timedelta(seconds=60) <= clock.now < deadline):
            balloted.add(deadline)  # every player's ballot in the last minute: one reply each, queued first
            for i, name in enumerate(players):
                forum.player_pm(name, f"投 {players[(i + 1) % len(players)]}")
            measuring = (deadline, len(forum.posts_by_judge(bot.thread_id)))
        bot.cycle()
        if measuring is not None:
            dl, before = measuring
            after = [p for p in forum.posts_by_judge(bot.thread_id)[before:] if p.time_utc > dl]
            if after:
                lags.append((after[0].time_utc - dl).total_seconds())
                measuring = None
        if bot.game.finished:
            break
        # as the runner: the next cycle at the next instant the game needs, at most a poll interval later
        wake = [began + timedelta(seconds=args.poll)]
        if (w := bot.next_wakeup()) is not None and w > began:
            wake.append(w)
        clock.now = max(clock.now, min(wake))
    return lags


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=19)
    parser.add_argument("--interval", type=float, default=16.0, help="write spacing, seconds (Discuz!: 16)")
    parser.add_argument("--latency", type=float, default=1.5, help="seconds a write takes")
    parser.add_argument("--poll", type=float, default=30.0)
    parser.add_argument("--grace", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--compare", action="store_true", help="also run the outbox in creation order")
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    goal = args.poll + args.grace + args.interval
    print(f"{args.players} players, writes {args.interval:g} s apart taking {args.latency:g} s, poll {args.poll:g} s, "
          f"grace {args.grace:g} s; a ballot from every player in the minute before each vote deadline")
    for name, creation in (("thread first", False), *((("creation order", True),) if args.compare else ())):
        lags = run(args, creation)
        shown = ", ".join(f"{lag:.1f}" for lag in lags)
        print(f"{name:15s} result-post lag per round: {shown} s (max {max(lags):.1f} s; goal <= {goal:g} s)")


if __name__ == "__main__":
    main()

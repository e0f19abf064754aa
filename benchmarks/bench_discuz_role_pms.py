"""Day 1 on a real Discuz!: time from a season's start to the last role PM, against the 16 s floor.

    FORUMBOT_DZ_PASSWORD=... .venv/bin/python benchmarks/bench_discuz_role_pms.py \\
        --base-url http://127.0.0.1:18765 --username 法官 --forum-id 2 --players 张三,李四,...(19 names)

Starts a sunlight season (a throw-away SQLite file) with the given players, who must be accounts of the
site, and runs the bot until every player has its role PM. Prints the time from the start to the last role
PM, the floor ((players - 1) × the write spacing: 18 × 16 s ≈ 4.8 min for 19), their ratio, and how many
writes the forum refused by flood control (the goal is 0). Posts a thread and sends real PMs; asserts
nothing.
"""

from __future__ import annotations

import argparse
import logging
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from forumbot.config import SeasonConfig
from forumbot.forums.base import Forum
from forumbot.forums.settings import make_forum
from forumbot.runtime.bot import Bot
from forumbot.runtime.store import make_engine


class _FloodCount(logging.Handler):
    """Counts the adapter's "flood control of the forum" log lines (one per refused write)."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        if "flood control" in record.getMessage():
            self.count += 1


def season(base_url: str, username: str, forum_id: int, players: list[str], folder: Path,
           password_env: str = "FORUMBOT_DZ_PASSWORD") -> SeasonConfig:
    """A sunlight season starting now on the Discuz! at ``base_url`` (the first player is the killer)."""
    return SeasonConfig.model_validate({
        "name": f"benchmark {datetime.now(UTC):%H%M%S}", "ruleset": "sunlight", "locale": "zh-Hans",
        "players": players, "roles": {players[0]: "killer"},
        "forum": {"engine": "discuz", "base_url": base_url, "username": username, "password_env": password_env,
                  "forum_id": forum_id},
        "schedule": {"start": datetime.now(UTC).replace(tzinfo=None, microsecond=0).isoformat(), "default": "2h",
                     "grace": "5s", "reminders": [], "poll_interval": "60s"},
        "time_zone": "UTC", "seed": 1, "path": folder / "season.toml"})


def run(config: SeasonConfig, forum: Forum, clock: Callable[[], datetime], sleep: Callable[[float], None],
        database: str, max_cycles: int = 500) -> dict[str, float]:
    """Runs the bot until every player has a sent role PM; the figures as a dict (seconds)."""
    flood = _FloodCount()
    logging.getLogger("forumbot").addHandler(flood)
    bot = Bot(config, forum, clock=clock, engine=make_engine(database), sleep=sleep)
    began = clock()
    players = set(config.players)
    last = began
    for _ in range(max_cycles):
        bot.cycle()
        sent = [r for r in bot.store.outbox(("sent",)) if r.kind == "pm" and r.recipient in players]
        first_per_player: dict[str, datetime] = {}
        for r in sent:
            if r.sent_at is not None and r.recipient not in first_per_player:
                first_per_player[r.recipient] = r.sent_at
        if set(first_per_player) == players:
            last = max(first_per_player.values())
            break
        sleep(1.0)
    spacing = getattr(forum, "flood_seconds", config.forum.min_write_interval_seconds)
    elapsed = (last.replace(tzinfo=UTC) if last.tzinfo is None else last) - began
    floor = (len(players) - 1) * spacing
    return {"elapsed": elapsed.total_seconds(), "floor": floor, "ratio": elapsed.total_seconds() / floor,
            "flood_refusals": float(flood.count)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--username", required=True)
    parser.add_argument("--forum-id", type=int, required=True)
    parser.add_argument("--players", required=True, help="comma-separated account names (19 for the issue's figure)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    with tempfile.TemporaryDirectory() as folder:
        config = season(args.base_url, args.username, args.forum_id, args.players.split(","), Path(folder))
        figures = run(config, make_forum(config.forum), lambda: datetime.now(UTC), time.sleep,
                      f"sqlite:///{Path(folder) / 'season.db'}")
    print(f"last role PM {figures['elapsed']:.0f} s after the start; floor {figures['floor']:.0f} s; "
          f"ratio {figures['ratio']:.2f}; flood refusals {figures['flood_refusals']:.0f}")


if __name__ == "__main__":
    main()

"""``forumbot serve`` with many seasons in one process, against the in-memory forum: CPU per poll cycle,
resident memory (10 seasons, then 100: growth per season) and deadline lag.

    .venv/bin/python benchmarks/bench_serve.py [--seasons 100] [--first 10] [--length 20] [--poll 5] [--database URL]

Each season is the sunlight worked example (7 players, their messages a few seconds into each phase) on
its own in-memory forum, with its own SQLite file (serve's default), all judged by one Service. The first
``--first`` seasons start together; RSS is measured once they run, then the rest are added to the
directory (picked up by the scan) and RSS is measured again. CPU per cycle = the process's CPU time
(user + system, every thread) ÷ the cycles run; deadline lag = from each deadline to its application
(at least the schedule's grace, here 0.2 s). Metrics are not served (no ``--metrics-port``), as in a
service without one. Prints the figures (docs/runtime.md § Operations keeps the latest); asserts nothing.
"""

from __future__ import annotations

import argparse
import logging
import resource
import statistics
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import yaml

from forumbot.config import SeasonConfig
from forumbot.forums.memory import MemoryForum
from forumbot.runtime.bot import Bot
from forumbot.serve.service import ServeOptions, Service

EXAMPLE = Path(__file__).resolve().parent.parent / "tests" / "transcripts" / "sunlight_worked_example.yaml"
PLAYERS = list("ABCDEFG")


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def season_file(folder: Path, k: int, start: datetime, length: float, poll: float) -> None:
    (folder / f"s{k:03d}.toml").write_text(f'''name = "s{k:03d}"
ruleset = "sunlight"
locale = "en"
time_zone = "UTC"
seed = {k}
organisers = ["Org"]
players = [{", ".join(f'"{p}"' for p in PLAYERS)}]
roles = {{ "C" = "killer" }}

[forum]
engine = "flaskbb"
base_url = "http://forum{k}.test"
username = "judge"
password_env = "NOT_USED"
forum_id = 1

[schedule]
start = {start.replace(tzinfo=None, microsecond=0).isoformat()}
default = "{length}s"
reminders = []
poll_interval = "{poll}s"
grace = "0.2s"
vote_count_every = 0
vote_count_before = []
''', encoding="utf-8")


class Players:
    """Sends each season's example messages two seconds into each phase, on its in-memory forum."""

    def __init__(self, length: float) -> None:
        t = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
        self.phases = [[tuple(m) for m in p.get("messages", [])] for p in t["phases"]]
        self.length = length
        self.forums: dict[str, tuple[MemoryForum, datetime]] = {}
        self.lock = threading.Lock()

    def forum(self, config: SeasonConfig) -> MemoryForum:
        f = MemoryForum(username=config.forum.username)
        start = config.start_utc()
        assert start is not None
        with self.lock:
            self.forums[config.name] = (f, start)
        return f

    def run(self, stop: threading.Event) -> None:
        sent: dict[str, int] = {}
        while not stop.wait(0.2):
            now = datetime.now(UTC)
            with self.lock:
                items = list(self.forums.items())
            for name, (f, start) in items:
                k = sent.get(name, 0)
                if k < len(self.phases) and now >= start + timedelta(seconds=(k + 1) * self.length + 2):
                    for sender, text in self.phases[k]:
                        f.player_pm(sender, text)
                    sent[name] = k + 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seasons", type=int, default=100)
    parser.add_argument("--first", type=int, default=10)
    parser.add_argument("--length", type=float, default=20.0, help="seconds a phase")
    parser.add_argument("--poll", type=float, default=5.0, help="poll interval, seconds")
    parser.add_argument("--database", help="one SQLAlchemy URL for every season (serve --database); default: a "
                                           "SQLite file a season")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    logging.getLogger("apscheduler").setLevel(logging.ERROR)
    folder = Path(tempfile.mkdtemp(prefix="forumbot-bench-serve-"))
    players = Players(args.length)
    lags: list[float] = []
    cycles = [0]
    service = Service(ServeOptions(folder, database=args.database, scan_seconds=1.0, forum_factory=players.forum))
    observe = service.metrics.observe

    def counting(bot: Bot) -> None:
        lags.extend(bot.deadline_lags)
        cycles[0] += 1
        observe(bot)

    service.metrics.observe = counting  # type: ignore[method-assign]
    base = rss_mb()
    print(f"{args.seasons} seasons (first {args.first}), phases of {args.length:g} s, poll every {args.poll:g} s, "
          f"database: {args.database or 'a SQLite file a season'}")
    print(f"RSS before any season: {base:.1f} MB")
    stop = threading.Event()
    threading.Thread(target=players.run, args=(stop,), daemon=True).start()
    start = datetime.now(UTC) + timedelta(seconds=3)
    for k in range(args.first):
        season_file(folder, k, start, args.length, args.poll)
    runner = threading.Thread(target=service.run, daemon=True)
    runner.start()
    time.sleep(3 + args.length * 1.5)  # started, role messages sent, first phase running
    first = rss_mb()
    print(f"RSS with {args.first} seasons running: {first:.1f} MB")
    start = datetime.now(UTC) + timedelta(seconds=5)
    for k in range(args.first, args.seasons):
        season_file(folder, k, start, args.length, args.poll)
    time.sleep(5 + args.length * 1.5)
    full = rss_mb()
    print(f"RSS with {args.seasons} seasons running: {full:.1f} MB "
          f"({(full - first) / max(1, args.seasons - args.first):.2f} MB per season)")
    cpu0, cycles0, lags0 = cpu_seconds(), cycles[0], len(lags)
    t0 = time.monotonic()
    end = t0 + args.length * (len(players.phases) + 3)
    while time.monotonic() < end and len(service.archived) < args.seasons:
        time.sleep(1)
    cpu, n = cpu_seconds() - cpu0, cycles[0] - cycles0
    wall = time.monotonic() - t0
    print(f"steady run: {wall:.0f} s wall, {n} cycles ({n / wall:.1f}/s), CPU {cpu:.1f} s "
          f"({cpu / wall * 100:.0f}% of one core): {cpu / max(1, n) * 1000:.2f} ms CPU per poll cycle")
    done = sorted(lags[lags0:] or lags)
    if done:
        q = statistics.quantiles(done, n=100) if len(done) > 1 else [done[0]] * 99
        print(f"deadline lag over {len(done)} deadlines: p50 {q[49]:.2f} s, p99 {q[98]:.2f} s, max {done[-1]:.2f} s "
              f"(poll interval {args.poll:g} s; grace 0.2 s included)")
    print(f"seasons archived: {len(service.archived)} of {args.seasons}")
    stop.set()
    service.stop()
    runner.join(timeout=120)


if __name__ == "__main__":
    main()

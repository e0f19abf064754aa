"""Benchmark: the organiser's page of a 19-player sunlight season with 2,000 inbound messages (issue 31: ≤ 100 ms).

Run: ``.venv/bin/python benchmarks/bench_console.py`` (building the season takes a few minutes). Builds the season on the in-memory forum (votes, status
requests, misspelt commands by private message, talk in the thread: about 2,000 rows read and applied by the bot),
then asks the console for ``/seasons/{name}`` through Starlette's test client and prints the CPU time (this
process, every thread) of:

- the first page (the bot built from its 2,000 stored inputs, each message's reading and answers worked out once);
- the page again while the season is unchanged (the budget: ≤ 100 ms), and with a search of the inbound log;
- the page after each new message (the console applies the new input to the season it holds).
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from markupsafe import Markup
from starlette.testclient import TestClient

from forumbot.config import load_config
from forumbot.console.app import create_app
from forumbot.console.auth import ConsoleAuth
from forumbot.console.source import SeasonSource
from forumbot.forums.memory import MemoryForum
from forumbot.runtime.bot import Bot

PLAYERS = [f"玩家{i:02d}" for i in range(1, 20)]
MESSAGES = 2000
BUDGET_MS = 100.0
T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


class Organiser(ConsoleAuth):
    """Every request is the organiser "Org" (no session, no login pages): the pages' own cost is measured."""

    def __init__(self) -> None:  # ConsoleAuth's console file and sessions are not measured here
        pass

    def middleware(self):  # type: ignore[no-untyped-def]
        return []

    def routes(self):  # type: ignore[no-untyped-def]
        return []

    def organiser(self, request):  # type: ignore[no-untyped-def]
        return "Org"

    def csrf_field(self, request):  # type: ignore[no-untyped-def]
        return Markup('<input type="hidden" name="csrf" value="x">')


def season_file(folder: Path) -> Path:
    roster = ", ".join(f'"{p}"' for p in PLAYERS)
    path = folder / "bench.toml"
    path.write_text(f'''name = "控制台基准"
ruleset = "sunlight"
locale = "zh-Hans"
time_zone = "Asia/Shanghai"
seed = 7
players = [{roster}]
organisers = ["Org"]
[forum]
engine = "flaskbb"
base_url = "http://127.0.0.1:1"
username = "judge"
password_env = "NOPE"
forum_id = 1
[schedule]
start = 2026-12-01T20:00:00
default = "12h"
grace = "1s"
reminders = []
poll_interval = "1s"
''', encoding="utf-8")
    return path


def build(path: Path) -> tuple[Bot, MemoryForum, Clock]:
    """Play the season's first vote round with :data:`MESSAGES` messages; returns the judging bot, its forum and
    clock."""
    config = load_config(path)
    clock = Clock()
    forum = MemoryForum("judge", clock=clock)
    bot = Bot(config, forum, clock=clock, sleep=lambda s: None)
    bot.cycle()
    clock.now += timedelta(hours=12, seconds=5)
    bot.cycle()  # the prologue closes: the first vote is open for 12 hours
    rng = random.Random(1)
    for n in range(MESSAGES):
        who = rng.choice(PLAYERS)
        kind = n % 4
        if kind == 0:
            forum.player_pm(who, "投 " + rng.choice([p for p in PLAYERS if p != who]))
        elif kind == 1:
            forum.player_pm(who, rng.choice(["状态", "帮助", "投 某某某", "我觉得3号有问题"]))
        else:
            forum.player_post(bot.thread_id, who, f"第{n}楼：我觉得{rng.choice(PLAYERS)}很可疑，大家怎么看？")
        if n % 100 == 99:
            clock.now += timedelta(seconds=5)
            bot.cycle()
    clock.now += timedelta(seconds=5)
    for _ in range(3):
        bot.cycle()
    return bot, forum, clock


def cpu_ms(client: TestClient, url: str) -> float:
    start = time.process_time()
    page = client.get(url)
    spent = (time.process_time() - start) * 1000
    assert page.status_code == 200, page.text[:500]
    return spent


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        path = season_file(Path(tmp))
        t = time.perf_counter()
        bot, forum, clock = build(path)
        print(f"season built: 19 players, {len(bot.store.inputs())} inputs stored ({time.perf_counter() - t:.1f} s)")
        client = TestClient(create_app(SeasonSource(files=[path]), auth=Organiser()))
        url = "/seasons/控制台基准"
        cold = cpu_ms(client, url)
        warm = [cpu_ms(client, url) for _ in range(15)]
        search = [cpu_ms(client, url + "?q=可疑&player=玩家03") for _ in range(5)]
        changed = []
        for n in range(5):  # a new message each time: the console applies it to the season it holds
            forum.player_pm(PLAYERS[n], "状态")
            clock.now += timedelta(seconds=5)
            bot.cycle()
            changed.append(cpu_ms(client, url))
        median = statistics.median(warm)
        print(f"first page (the bot built from the stored inputs, readings worked out): {cold:.0f} ms CPU")
        print(f"season page, unchanged season: median {median:.1f} ms CPU (best {min(warm):.1f}, worst {max(warm):.1f}); "
              f"budget {BUDGET_MS:.0f} ms")
        print(f"season page after one new message (caught up, not rebuilt): median {statistics.median(changed):.1f} ms CPU")
        print(f"season page with a search of the inbound log: median {statistics.median(search):.1f} ms CPU")
        return 0 if median <= BUDGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())

"""On a live Discuz! X3.5: the time 19 role PMs take against the forum's pacing floor, and how late a vote
deadline is handled while the outbox is full. Not for CI: it needs a Discuz! you run, with the judge's and
the players' accounts (captcha off, newbie span 0; docs/discuz.md).

Run:
    FORUMBOT_PASSWORD=judge-password .venv/bin/python benchmarks/bench_discuz_live.py \\
        --base-url http://127.0.0.1:8081 --forum-id 2 --judge 法官 --player-password player-password \\
        --players 张三,李四,王五,...   (19 accounts)  [--organiser 主持人] [--folder /tmp/bench-discuz]

It starts a sunlight season (``forumbot run`` in a subprocess, start in 20 s), waits for the role PMs, then
has every player vote by PM 40 s before the vote deadline (19 confirmations queued: 5 minutes of sending at
one write per 16 s) and one player send another ballot 5 s after it. Prints:

- role PMs: the time from the season's start to the last role PM, the floor ((N - 1) × 16 s after the first
  write), the ratio of the two, and how many writes the forum refused by flood control (goal: 0);
- the deadline: when the vote round was closed (the results queued) after its deadline, in seconds, and how
  many rows were waiting in the outbox then (goal: within ``poll_interval`` + ``grace``);
- the late ballot: whether its sender was told the round had closed (``common/late``) and it was not counted.
"""

from __future__ import annotations

import argparse
import os
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx

PHONE = ("Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) "
         "Chrome/120.0 Mobile Safari/537.36")
WRITE_SPACING = 16.0  # seconds: Discuz!'s whole-second flood checks (docs/discuz.md)
POLL, GRACE = 10, 5


class Player:
    """A player's phone: the mobile API, logged in with the player's own account."""

    def __init__(self, base_url: str, name: str, password: str) -> None:
        self.base_url, self.name, self.password = base_url, name, password
        self.http = httpx.Client(headers={"User-Agent": PHONE}, timeout=30)
        self.formhash = ""

    def call(self, method: str, module: str, version: int = 4, params: dict | None = None,
             form: dict | None = None) -> dict:
        query = {"version": str(version), "module": module, **(params or {})}
        answer = self.http.request(method, f"{self.base_url}/api/mobile/index.php", params=query, data=form).json()
        self.formhash = answer.get("Variables", {}).get("formhash") or self.formhash
        return answer

    def login(self) -> None:
        self.call("GET", "login", 3)
        answer = self.call("POST", "login", 3, {"loginsubmit": "yes", "loginfield": "username"},
                           {"username": self.name, "password": self.password, "formhash": self.formhash,
                            "questionid": "0", "answer": "", "cookietime": "2592000"})
        if answer.get("Message", {}).get("messageval") != "login_succeed":
            sys.exit(f"{self.name} could not log in: {answer.get('Message')}")
        self.call("GET", "forumindex")

    def pm(self, to: str, text: str) -> str:
        answer = self.call("POST", "sendpm", 4, {"pmsubmit": "yes"},
                           {"formhash": self.formhash, "message": text, "username": to})
        return answer.get("Message", {}).get("messageval", "?")


def season_file(folder: Path, a: argparse.Namespace, start: datetime, prologue: int, vote: int) -> Path:
    local = (start + timedelta(hours=8)).replace(tzinfo=None)
    players = ", ".join(f'"{p}"' for p in a.players)
    path = folder / "season.toml"
    path.write_text(f'''name = "bench {start:%H%M%S}"
ruleset = "sunlight"
locale = "zh-Hans"
time_zone = "Asia/Shanghai"
organisers = ["{a.organiser}"]
players = [{players}]
database = "sqlite:///{folder}/season.db"

[forum]
engine = "discuz"
base_url = "{a.base_url}"
username = "{a.judge}"
password_env = "FORUMBOT_PASSWORD"
forum_id = {a.forum_id}
site_time_zone = "Asia/Shanghai"

[schedule]
start = {local.isoformat()}
default = "{vote}s"
reminders = []
poll_interval = "{POLL}s"
grace = "{GRACE}s"

[schedule.lengths]
prologue = "{prologue}s"
vote = "{vote}s"
''', encoding="utf-8")
    return path


def rows(db: Path, sql: str) -> list[tuple]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as c:
        return c.execute(sql).fetchall()


def stamp(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--base-url", required=True)
    p.add_argument("--forum-id", type=int, required=True)
    p.add_argument("--judge", required=True)
    p.add_argument("--organiser", default="主持人")
    p.add_argument("--player-password", required=True)
    p.add_argument("--players", required=True, type=lambda s: [x for x in s.split(",") if x])
    p.add_argument("--folder", type=Path, default=Path("/tmp/bench-discuz"))
    a = p.parse_args()
    a.folder.mkdir(parents=True, exist_ok=True)
    n = len(a.players)  # one role PM each
    prologue = int(n * WRITE_SPACING + 120)
    vote = 120
    start = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=20)
    config = season_file(a.folder, a, start, prologue, vote)
    phones = {name: Player(a.base_url, name, a.player_password) for name in a.players}
    for phone in phones.values():
        phone.login()
    with open(a.folder / "bot.log", "ab") as log:  # the child keeps its own copy of the descriptor
        bot = subprocess.Popen([sys.executable, "-m", "forumbot", "run", str(config)], start_new_session=True,
                               stdout=log, stderr=subprocess.STDOUT)
    db = a.folder / "season.db"
    deadline = start + timedelta(seconds=prologue + vote)
    try:
        time.sleep(max(0.0, (deadline - timedelta(seconds=40) - datetime.now(UTC)).total_seconds()))
        for name, phone in phones.items():
            phone.pm(a.judge, f"投 {a.players[(a.players.index(name) + 1) % len(a.players)]}")
        time.sleep(max(0.0, (deadline + timedelta(seconds=5) - datetime.now(UTC)).total_seconds()))
        late_sender = a.players[0]
        phones[late_sender].pm(a.judge, f"投 {a.players[2]}")
        time.sleep(POLL + GRACE + 60)
        roles = rows(db, "select sent_at from outbox where template like '%/role%' and status = 'sent' order by sent_at")
        first_write = rows(db, "select min(sent_at) from outbox where sent_at is not null")[0][0]
        closing = rows(db, f"select min(created_at) from outbox where template like '%result%' "
                           f"and created_at > '{deadline.replace(tzinfo=None)}'")[0][0]
        queued = rows(db, f"select count(*) from outbox where created_at <= '{(closing or '9999')}' "
                          f"and (sent_at is null or sent_at > '{(closing or '9999')}') and kind != 'note'")[0][0]
        late = rows(db, f"select count(*) from outbox where recipient = '{late_sender}' and body like '%逾期%' "
                        f"and created_at > '{deadline.replace(tzinfo=None)}'")[0][0]
    finally:
        os.killpg(bot.pid, signal.SIGTERM)
        bot.wait(timeout=30)
    last = stamp(roles[-1][0])
    took = (last - start).total_seconds()
    floor = (len(roles) - 1) * WRITE_SPACING
    print(f"role PMs: {len(roles)} sent; last {took:.0f} s after the start "
          f"({(last - stamp(first_write)).total_seconds():.0f} s after the first write); "
          f"floor {floor:.0f} s; ratio {(last - stamp(first_write)).total_seconds() / floor:.2f}; "
          f"flood refusals {(a.folder / 'bot.log').read_text('utf-8').count('flood control')}")
    if closing:
        lag = (stamp(closing) - deadline).total_seconds()
        print(f"vote deadline handled {lag:.1f} s after it, {queued} rows in the outbox "
              f"(goal: <= {POLL + GRACE} s)")
    else:
        print("vote deadline: no result queued in time")
    print(f"late ballot 5 s after the deadline: {'told late' if late else 'NOT told late'}")


if __name__ == "__main__":
    main()

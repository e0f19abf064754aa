"""Driving a real season on a real FlaskBB: the bot as a subprocess (`forumbot run`), players sending
private messages from their own accounts on a schedule, and readers of what the bot posted and sent."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from forumbot.config import load_config
from forumbot.forums.flaskbb_pages import parse_inbox
from forumbot.runtime.bot import Bot
from forumbot.testforum import RunningForum

TIME = re.compile(r"\w{3} \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} \w+")


def write_season(folder: Path, forum: RunningForum, players: list[str], start: datetime, length: float,
                 roles: dict[str, str], organisers: list[str], name: str = "e2e", ruleset: str = "sunlight",
                 locale: str = "en", params: dict | None = None, base_url: str | None = None,
                 forum_extra: str = "", poll_interval: str = "0.5s", timeout: float = 5, retries: int = 1) -> Path:
    """A season file for ``forum`` (reached at ``base_url`` when given: a proxy in front of it);
    ``forum_extra``: more lines of the ``[forum]`` table."""
    path = folder / "season.toml"
    roles_toml = ", ".join(f'"{k}" = "{v}"' for k, v in roles.items())
    params_toml = "\n".join(f"{k} = {json.dumps(v)}" for k, v in (params or {}).items())
    path.write_text(f'''name = "{name}"
ruleset = "{ruleset}"
locale = "{locale}"
time_zone = "UTC"
seed = 3
organisers = [{", ".join(f'"{o}"' for o in organisers)}]
players = [{", ".join(f'"{p}"' for p in players)}]
roles = {{ {roles_toml} }}

[forum]
engine = "flaskbb"
base_url = "{base_url or forum.base_url}"
username = "{forum.judge.name}"
password_env = "FORUMBOT_E2E_PASSWORD"
forum_id = {forum.forum_id}
retries = {retries}
backoff_seconds = 0.2
timeout_seconds = {timeout}
{forum_extra or "request_horizon_seconds = 3"}

[schedule]
start = {start.replace(tzinfo=None, microsecond=0).isoformat()}
default = "{length}s"
reminders = []
poll_interval = "{poll_interval}"
grace = "1s"
outage = "60s"

[params]
{params_toml}
''', encoding="utf-8")
    return path


#: every bot started and not yet stopped: the e2e tests' teardown stops them (conftest.py), so a failed
#: test never leaves its bot polling a stopped forum after it
RUNNING: set[BotProcess] = set()


@dataclass(eq=False)
class BotProcess:
    """``forumbot run`` in a subprocess, which can be killed with SIGKILL and started again."""

    config: Path
    forum: RunningForum
    log: Path
    proc: subprocess.Popen | None = None
    kills: int = 0

    def start(self) -> None:
        """Starts ``forumbot run`` and returns once it has run for the season at least once: nothing a
        player sends before the season's first run is its input (issue 9), and a loaded machine can take
        seconds to start Python."""
        env = {**os.environ, "FORUMBOT_E2E_PASSWORD": self.forum.judge.password}
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", "forumbot", "run", str(self.config)],
                                         stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        RUNNING.add(self)
        database = self.config.with_name("season.db")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and self.proc.poll() is None:
            try:
                with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=1) as db:
                    if db.execute("SELECT 1 FROM cursor WHERE name = 'first_run'").fetchone():
                        return
            except sqlite3.Error:
                pass  # not created yet
            time.sleep(0.1)

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
            self.kills += 1

    def finished(self) -> bool:
        return self.proc is not None and self.proc.poll() == 0

    def wait(self, timeout: float) -> int:
        assert self.proc is not None
        return self.proc.wait(timeout=timeout)

    def stop(self) -> None:
        RUNNING.discard(self)
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


@dataclass
class Players:
    """Sends each phase's messages ``offset`` seconds after the phase opens, from the players' accounts."""

    forum: RunningForum
    start: datetime
    length: float
    phases: list[list[tuple[str, str]]]
    offset: float = 1.5
    errors: list[str] = field(default_factory=list)
    posts: list[list[tuple[str, str]]] = field(default_factory=list)  # thread posts per phase, sent after the PMs
    thread_id: Callable[[], int | None] | None = None
    season: str = "e2e"
    reply_in_conversation: bool = False  # players answer inside the judge's conversation of this season
    wait_for_judge: float = 0.0  # seconds a player waits for the judge's first message before writing
    wait_for_post: float = 0.0  # seconds players wait for the post opening a phase before writing in it

    def wait_for_phase_post(self, client, judge: str, opened: datetime) -> None:
        """Players act on the post opening the phase: wait (at most ``wait_for_post`` s) until the judge's
        post of that phase is in the thread."""
        until = time.monotonic() + self.wait_for_post
        tid = None
        while time.monotonic() < until:
            tid = tid or (self.thread_id() if self.thread_id else None)
            if tid and any(p.author == judge and p.time_utc >= opened for p in client.thread_posts(tid)):
                return
            time.sleep(0.5)

    def conversation(self, client, judge: str) -> int | None:
        """The player's conversation with the judge this season, if the judge has written (remembered)."""
        known = self.__dict__.setdefault("_conversations", {})
        if client in known:
            return known[client]
        inbox = client._page("/conversations/inbox", parse_inbox)  # one request: the conversation list
        for row in inbox.rows:
            if judge in (row.from_user, row.to_user) and row.subject.startswith(f"{self.season} ·"):
                known[client] = row.conversation_id
        return known.get(client)

    def send(self, client, judge: str, text: str) -> None:
        """A private message to the judge: inside the judge's conversation with this player when there is
        one (a reply), else a new conversation."""
        cid = self.conversation(client, judge) if self.reply_in_conversation else None
        client.send_pm(judge, "judge", text, conversation_id=cid)

    def wait_for_role_pms(self, clients: dict, judge: str, senders: set[str]) -> None:
        """Players answer the judge's role PM: wait (at most ``wait_for_judge`` s) until it reached them."""
        until = time.monotonic() + self.wait_for_judge
        waiting = set(senders)
        while waiting and time.monotonic() < until:
            waiting = {s for s in waiting if self.conversation(clients[s], judge) is None}
            if waiting:
                time.sleep(0.5)

    def run(self) -> None:
        judge = self.forum.judge.name
        senders = {s for phase in [*self.phases, *self.posts] for s, _ in phase}
        clients = {s: self.forum.client(s) for s in senders}
        for client in clients.values():  # log in before the game, so a phase's sends are quick
            client.login()
        for k, messages in enumerate(self.phases, start=1):
            at = self.start + timedelta(seconds=k * self.length + self.offset)
            wait_until(at)
            if self.wait_for_judge:
                self.wait_for_role_pms(clients, judge, {s for s, _ in messages if s in clients})
            if self.wait_for_post and clients:
                opened = self.start + timedelta(seconds=k * self.length)
                self.wait_for_phase_post(next(iter(clients.values())), judge, opened)
            for sender, text in messages:
                client = clients.get(sender) or clients.setdefault(sender, self.forum.client(sender))
                try:
                    self.send(client, judge, text)
                except Exception as exc:
                    self.errors.append(f"{sender}: {exc}")
            for sender, text in (self.posts[k - 1] if k - 1 < len(self.posts) else []):
                client = clients.get(sender) or clients.setdefault(sender, self.forum.client(sender))
                try:
                    client.reply(self.thread_id(), text)
                except Exception as exc:
                    self.errors.append(f"{sender} (post): {exc}")

    def thread(self) -> threading.Thread:
        t = threading.Thread(target=self.run, daemon=True)
        t.start()
        return t


def wait_until(at: datetime) -> None:
    delay = (at - datetime.now(UTC)).total_seconds()
    if delay > 0:
        time.sleep(delay)


def bot_state(config: Path, password: str) -> Bot:
    """The season as stored: a Bot on the same database, without a forum."""
    os.environ["FORUMBOT_E2E_PASSWORD"] = password
    return Bot(load_config(config), None)


def judge_posts(forum: RunningForum, thread_id: int) -> list[str]:
    client = forum.client()
    try:
        return [p.text for p in client.thread_posts(thread_id) if p.author == forum.judge.name]
    finally:
        client.close()


def inboxes(forum: RunningForum, names: list[str]) -> dict[str, list[tuple[str, str]]]:
    out = {}
    for name in names:
        client = forum.client(name)
        try:
            out[name] = [(m.subject, m.body) for m in client.private_messages() if m.sender == forum.judge.name]
        finally:
            client.close()
    return out


def conversations_with_judge(forum: RunningForum, names: list[str], season: str) -> dict[str, dict[str, set[int]]]:
    """For each of ``names`` and the judge: the conversations (ids) of ``season`` in which each other user
    wrote to them."""
    out: dict[str, dict[str, set[int]]] = {}
    for name in [*names, forum.judge.name]:
        client = forum.client(name) if name != forum.judge.name else forum.client()
        try:
            seen: dict[str, set[int]] = {}
            for m in client.private_messages():
                if m.subject.startswith(f"{season} ·"):
                    seen.setdefault(m.sender, set()).add(m.conversation_id)
            out[name] = seen
        finally:
            client.close()
    return out


def mask_times(text: str) -> str:
    return TIME.sub("<time>", text)

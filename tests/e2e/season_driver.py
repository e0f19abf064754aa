"""Driving a real season on a real FlaskBB: the bot as a subprocess (`forumbot run`), players sending
private messages from their own accounts as each phase's post reaches the thread, and readers of what the
bot posted and sent.

Nothing here assumes the machine's speed (issue 24): a wait lasts as long as what it waits for makes
progress (:func:`wait_for`: the bot's log and database change, the thread grows) and fails, with what it
saw, only after :data:`PATIENCE` seconds without any; players act on the posts they read, not on the clock,
so a bot that moves a deadline because its post reached the forum late never gets a message in the wrong
phase."""

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
from typing import Any

from forumbot.config import load_config
from forumbot.forums.flaskbb_pages import parse_inbox
from forumbot.runtime.bot import Bot
from forumbot.testforum import RunningForum

TIME = re.compile(r"\w{3} \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} \w+")
#: a deadline as the bot writes it in a post (schedule.format_local; the e2e seasons are in UTC), any locale
DEADLINE = re.compile(r"(?:\w{3} (\d{2}) (\w{3}) (\d{4}) |(\d{4})-(\d{2})-(\d{2})（\w+）\s*)(\d{2}):(\d{2}):(\d{2}) UTC")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
#: seconds a wait goes on without any sign of progress before it fails (generous: a loaded machine is slow,
#: not stuck; a phase of the e2e seasons lasts 10-20 s)
PATIENCE = 300.0


class Stalled(AssertionError):
    """A wait saw no progress for its patience."""


def wait_for(check: Callable[[], Any], what: str, progress: Callable[[], Any] = lambda: None,
             patience: float = PATIENCE, every: float = 0.3, tail: Callable[[], str] = lambda: "",
             abort: Callable[[], str | None] = lambda: None) -> Any:
    """Calls ``check`` until it returns something true, and returns that. There is no time limit while
    ``progress()`` (any comparable snapshot: sizes, counts) keeps changing; after ``patience`` seconds with
    no change it raises :class:`Stalled` saying ``what`` was awaited, with ``tail()`` (e.g. the bot's log).
    ``abort()`` returning a sentence (e.g. the game ran past its last phase: progress that never ends)
    raises :class:`Stalled` at once."""
    seen, since = progress(), time.monotonic()
    while True:
        found = check()
        if found:
            return found
        if reason := abort():
            raise Stalled(f"gave up waiting for {what}: {reason}\n{tail()}")
        now_seen = progress()
        if now_seen != seen:
            seen, since = now_seen, time.monotonic()
        elif time.monotonic() - since > patience:
            raise Stalled(f"no progress for {patience:.0f} s waiting for {what}\n{tail()}")
        time.sleep(every)


def file_signs(*paths: Path) -> tuple:
    """Sizes and modification times of ``paths`` (absent: None): a snapshot for :func:`wait_for`."""
    out = []
    for path in paths:
        try:
            st = path.stat()
            out.append((st.st_size, st.st_mtime_ns))
        except OSError:
            out.append(None)
    return tuple(out)


def deadline_in(text: str) -> datetime | None:
    """The deadline a post of the bot shows (the last time in it), in UTC; None when it shows none."""
    found = DEADLINE.findall(text)
    if not found:
        return None
    day, month, year, y2, m2, d2, hh, mm, ss = found[-1]
    if day:
        return datetime(int(year), MONTHS.index(month) + 1, int(day), int(hh), int(mm), int(ss), tzinfo=UTC)
    return datetime(int(y2), int(m2), int(d2), int(hh), int(mm), int(ss), tzinfo=UTC)


def phase_posts(posts, judge: str) -> list:
    """The posts of ``posts`` (a thread, oldest first) that open a phase: the judge's posts after the
    thread's first one (the prologue's) that show a deadline. Phase k (1 = the first after the prologue)
    is open once the k-th of them is in the thread."""
    mine = [p for p in posts if p.author == judge]
    return [p for p in mine[1:] if deadline_in(p.text)]


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
{post_delay_line()}

[params]
{params_toml}
''', encoding="utf-8")
    return path


def post_delay_line() -> str:
    """A phase's clock starts when its post is on the forum, however late (issue 24): where the runtime
    still has ``schedule.post_delay`` (a delay under it kept the schedule), it is set to 0.1 s so that a late
    post always moves its deadline, as players see it."""
    from forumbot.config import Schedule

    return 'post_delay = "0.1s"' if "post_delay" in Schedule.model_fields else ""


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
        """Starts ``forumbot run`` and returns once it is up: it has run for the season at least once
        (nothing a player sends before the season's first run is its input, issue 9) and written to its
        log; or once it has exited. However long a loaded machine takes to start Python, while it makes
        progress (CPU time, log)."""
        from forumbot.testforum.harness import StartWatch

        env = {**os.environ, "FORUMBOT_E2E_PASSWORD": self.forum.judge.password}
        before = self.log.stat().st_size if self.log.exists() else 0
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", "forumbot", "run", str(self.config)],
                                         stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        RUNNING.add(self)
        watch = StartWatch(self.proc.pid, self.log, PATIENCE, give_up_seconds=4 * PATIENCE)
        while self.proc.poll() is None:
            if self.log.stat().st_size > before and self.first_run():
                return
            if problem := watch.stuck():
                raise Stalled(f"the bot did not start: {problem}\n{self.log_tail()}")
            time.sleep(0.1)

    @property
    def database(self) -> Path:
        return self.config.with_name("season.db")

    def first_run(self) -> bool:
        """Whether the bot has run for the season once (its first_run cursor is stored)."""
        try:
            with sqlite3.connect(f"file:{self.database}?mode=ro", uri=True, timeout=1) as db:
                return db.execute("SELECT 1 FROM cursor WHERE name = 'first_run'").fetchone() is not None
        except sqlite3.Error:
            return False  # not created yet

    def signs(self) -> tuple:
        """A snapshot that changes whenever the bot does something (its log, its database)."""
        db = self.database
        return file_signs(self.log, db, db.with_name(db.name + "-wal"))

    def log_tail(self, lines: int = 60) -> str:
        try:
            return "\n".join(self.log.read_text("utf-8", "replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
            self.kills += 1

    def finished(self) -> bool:
        return self.proc is not None and self.proc.poll() == 0

    def exited(self) -> bool:
        return self.proc is not None and self.proc.poll() is not None

    def deadlines(self) -> int:
        """How many deadlines the bot has handled (phases closed), from its database."""
        try:
            with sqlite3.connect(f"file:{self.database}?mode=ro", uri=True, timeout=5) as db:
                return db.execute("SELECT count(*) FROM game_input WHERE kind = 'deadline'").fetchone()[0]
        except sqlite3.Error:
            return 0

    def wait(self, patience: float = PATIENCE, abort: Callable[[], str | None] = lambda: None) -> int:
        """Waits until the bot exits (the season is over and delivered) and returns its exit code: as long
        as it takes while the bot keeps doing something (:meth:`signs`), unless ``abort()`` says why not
        (see :func:`runaway`)."""
        assert self.proc is not None
        wait_for(self.exited, "the bot to finish the season", self.signs, patience, tail=self.log_tail, abort=abort)
        return self.proc.returncode

    def stop(self) -> None:
        RUNNING.discard(self)
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=60)  # after its cycle under way (a slow forum: a few requests)
            except subprocess.TimeoutExpired:
                self.kill()


@dataclass
class Players:
    """The players of a season, from their own accounts: phase k's private messages (``phases[k - 1]``),
    then its thread posts (``posts[k - 1]``), sent once a player reading the thread sees phase k's opening
    post (:func:`phase_posts`) — whenever that is, however late the bot posted it.

    ``errors`` collects what went wrong: a failed send, and what would make the season's outcome
    legitimately different from a calm run's (the test cannot conclude): a phase already over when its post
    was read, a message that reached the forum after the deadline its phase's post shows, the game over
    before a phase with messages. ``progress`` (e.g. :meth:`BotProcess.signs`) tells a slow bot from a
    stuck one while players wait for a post; ``over`` says the game is over (no more posts to wait for)."""

    forum: RunningForum
    phases: list[list[tuple[str, str]]]
    thread_id: Callable[[], int | None]
    over: Callable[[], bool] = lambda: False
    progress: Callable[[], Any] = lambda: None
    tail: Callable[[], str] = lambda: ""
    errors: list[str] = field(default_factory=list)
    posts: list[list[tuple[str, str]]] = field(default_factory=list)  # thread posts per phase, sent after the PMs
    season: str = "e2e"
    reply_in_conversation: bool = False  # players answer inside the judge's conversation of this season
    wait_for_judge: bool = False  # a player writes only once the judge's first message (the role PM) reached him
    sent: list[tuple[int, str, str, datetime]] = field(default_factory=list)  # (phase, sender, text, forum's time)

    def read_phase_posts(self, client, judge: str) -> list:
        """The phase posts in the thread so far; each read asks only for the posts after the last one seen
        (one request when nothing is new: a loaded forum answers slowly)."""
        tid = self.__dict__.get("_thread") or self.thread_id()
        if not tid:
            return []
        self.__dict__["_thread"] = tid
        seen: list = self.__dict__.setdefault("_posts", [])
        seen += client.thread_posts(tid, seen[-1].post_id if seen else None)
        return phase_posts(seen, judge)

    def wait_for_phase(self, reader, judge: str, k: int):
        """Phase k's opening post, once a player reading the thread sees it; None when the game ended first."""
        seen: list = []

        def check():
            if self.over():
                return "over"
            seen[:] = self.read_phase_posts(reader, judge)
            return len(seen) >= k

        def progress():
            return self.progress(), len(seen)

        if wait_for(check, f"the post opening phase {k}", progress, every=0.5, tail=self.tail) == "over":
            seen[:] = self.read_phase_posts(reader, judge)  # the last posts may be out just before the end
            if len(seen) < k:
                return None
        if len(seen) > k:
            self.errors.append(f"phase {k} was over when its players read the thread (phase {len(seen)} had opened)")
        return seen[k - 1]

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

    def send(self, client, judge: str, text: str):
        """A private message to the judge: inside the judge's conversation with this player when there is
        one (a reply), else a new conversation. Returns the forum's proof."""
        cid = self.conversation(client, judge) if self.reply_in_conversation else None
        return client.send_pm(judge, "judge", text, conversation_id=cid)

    def wait_for_role_pms(self, clients: dict, judge: str, senders: set[str]) -> None:
        """Players answer the judge's role PM: wait until it reached each of ``senders``."""
        waiting = set(senders)

        def check():
            waiting.difference_update({s for s in waiting if self.conversation(clients[s], judge) is not None})
            return not waiting

        wait_for(check, f"the role PMs of {sorted(waiting)}", self.progress, tail=self.tail)

    def run(self) -> None:
        judge = self.forum.judge.name
        senders = {s for phase in [*self.phases, *self.posts] for s, _ in phase}
        clients = {s: self.forum.client(s) for s in senders}
        for client in clients.values():  # log in before the game, so a phase's sends are quick
            client.login()
        reader = self.forum.client(next(iter(clients))) if clients else self.forum.client()
        try:
            for k, messages in enumerate(self.phases, start=1):
                thread_posts = self.posts[k - 1] if k - 1 < len(self.posts) else []
                if not messages and not thread_posts:
                    continue
                post = self.wait_for_phase(reader, judge, k)
                if post is None:
                    self.errors.append(f"the game was over before phase {k}'s post; its messages were not sent")
                    return
                deadline = deadline_in(post.text)
                if self.wait_for_judge:
                    self.wait_for_role_pms(clients, judge, {s for s, _ in messages})
                for sender, text in messages:
                    try:
                        proof = self.send(clients[sender], judge, text)
                    except Exception as exc:
                        self.errors.append(f"{sender}: {exc}")
                        continue
                    self.sent.append((k, sender, text, proof.time_utc))
                    # the post shows the deadline to the second, truncated: later than a second after it is late
                    if deadline and proof.time_utc >= deadline + timedelta(seconds=1):
                        self.errors.append(f"{sender}'s {text!r} reached the forum at {proof.time_utc}, after phase {k}'s "
                                           f"deadline {deadline} (the players were too slow for the test)")
                for sender, text in thread_posts:
                    try:
                        clients[sender].reply(self.thread_id(), text)
                    except Exception as exc:
                        self.errors.append(f"{sender} (post): {exc}")
        except Exception as exc:  # a stalled wait, a forum error: the test reports it (the thread ends here)
            self.errors.append(f"{type(exc).__name__}: {exc}")
        finally:
            for client in [*clients.values(), reader]:
                client.close()

    def thread(self) -> threading.Thread:
        t = threading.Thread(target=self.run, daemon=True)
        t.start()
        return t


def runaway(bot: BotProcess, players: Players | None, phases: int) -> Callable[[], str | None]:
    """For :meth:`BotProcess.wait`: why to stop waiting although the bot progresses — the players have
    reported errors (the season can no longer be the expected one), or the game has closed more than
    ``phases`` + 2 phases (it runs past the transcript's end: players whose messages never came)."""

    def check() -> str | None:
        if players is not None and players.errors:
            return f"the players failed: {players.errors}"
        if (closed := bot.deadlines()) > phases + 2:
            return f"{closed} phases closed, the season has {phases} after its prologue"
        return None

    return check


def wait_until(at: datetime) -> None:
    delay = (at - datetime.now(UTC)).total_seconds()
    if delay > 0:
        time.sleep(delay)


def thread_of(config: Path) -> int | None:
    """The season's thread once the bot opened it, read from its database (SQLite beside ``config``)."""
    try:
        with sqlite3.connect(f"file:{config.with_name('season.db')}?mode=ro", uri=True, timeout=5) as db:
            row = db.execute("SELECT thread_id FROM season").fetchone()
    except sqlite3.Error:
        return None  # not created yet
    return row[0] if row else None


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

"""Start and stop a real FlaskBB forum on 127.0.0.1 for the end-to-end tests and ``forumbot demo``.

>>> with start_forum(players=["小明", "alice"]) as forum:          # doctest: +SKIP
...     bot = forum.client()                                     # the judge's FlaskBBForum
...     thread = bot.create_thread(forum.forum_id, "Day 1", "...")

One forum = one server process (waitress, 4 threads) in the FlaskBB venv, one SQLite file copied from the
cached template, a temporary instance directory (removed by :meth:`RunningForum.close`).

The server runs in its own session, so a signal sent to the owning process never reaches it: the owner
closes it. Ctrl-C unwinds the owner's ``with`` blocks; SIGTERM and SIGHUP do the same once a forum is
started (:func:`interrupt_on_termination`), and what is still open at exit is closed then.
"""

from __future__ import annotations

import atexit
import json
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from forumbot.testforum.venv import FORUM_MAIN, HarnessError, ensure_forum_python, ensure_template_db

DEFAULT_PLAYERS = ("小明", "小红", "alice", "bob")
_OPEN: set[RunningForum] = set()  # made and not closed yet


@dataclass(frozen=True)
class Account:
    """A forum account: user name and password."""

    name: str
    password: str


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class RunningForum:
    """A started test forum. Use as a context manager, or call :meth:`close`.

    Attributes: ``base_url`` (``http://127.0.0.1:PORT``), ``judge`` (:class:`Account`, an administrator),
    ``players`` (name → :class:`Account`), ``forum_id`` (the game board), ``instance`` (its directory),
    ``log_path`` (the server's output).
    """

    def __init__(self, instance: Path, spec: dict[str, Any], python: Path, keep: bool = False):
        self.instance = instance
        self._spec = spec
        self._python = python
        self._keep = keep
        self._proc: subprocess.Popen[bytes] | None = None
        self.port: int = spec["port"]
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.judge = Account(spec["judge"]["name"], spec["judge"]["password"])
        self.players = {p["name"]: Account(p["name"], p["password"]) for p in spec["players"]}
        self.log_path = instance / "server.log"
        self.forum_id = 0
        self.user_ids: dict[str, int] = {}
        _OPEN.add(self)

    #: seconds without any progress after which a starting forum is stuck (see :meth:`start`)
    stall_seconds: float = 120.0
    #: seconds after which a forum still starting (progressing all the while) is given up
    give_up_seconds: float = 1800.0
    #: seconds one readiness probe may take (a slower answer counts as progress, and it is asked again)
    probe_seconds: float = 10.0

    # -- process ---------------------------------------------------------------------------------------

    def start(self, stall_seconds: float | None = None) -> None:
        """Starts the server (setting the forum up on the first start) and waits until it answers.

        There is no fixed time limit: on a busy machine FlaskBB can take minutes to import and set up. It
        waits as long as the forum makes progress (:class:`StartWatch`: its startup steps in the log, CPU
        time used, a probe the server accepted but is still answering) and raises HarnessError, with the
        log's tail, when the process exits, when nothing progressed for ``stall_seconds`` (default
        :attr:`stall_seconds`), or after :attr:`give_up_seconds` in all (a server busy forever)."""
        if self.running:
            return
        (self.instance / "harness.json").write_text(json.dumps(self._spec, ensure_ascii=False), "utf-8")
        with open(self.log_path, "ab") as log:  # the child keeps its own copy of the descriptor
            self._proc = subprocess.Popen(
                [str(self._python), str(FORUM_MAIN), "serve", str(self.instance)],
                stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True,
            )
        stall = self.stall_seconds if stall_seconds is None else stall_seconds
        watch = StartWatch(self._proc.pid, self.log_path, stall, self.give_up_seconds)
        while True:
            if self._proc.poll() is not None:
                raise HarnessError(f"the test forum exited at start (code {self._proc.returncode}):\n{self.log_tail()}")
            try:
                if httpx.get(self.base_url + "/", timeout=self.probe_seconds).status_code == 200:
                    break
            except httpx.TimeoutException:
                watch.progressed()  # the server took the request and is working on it
            except httpx.HTTPError:
                pass
            if problem := watch.stuck():
                self.stop()
                raise HarnessError(f"the test forum did not start: {problem}:\n{self.log_tail()}")
            time.sleep(0.2)
        setup = json.loads((self.instance / "setup.json").read_text("utf-8"))
        self.forum_id = setup["forum_id"]
        self.user_ids = setup["users"]

    def stop(self) -> None:
        """Stops the server (the data stays; :meth:`start` serves it again on the same port)."""
        proc, self._proc = self._proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)

    def restart(self, *, drop_sessions: bool = False) -> None:
        """Stops and starts again; ``drop_sessions`` changes the secret key, which logs everybody out."""
        self.stop()
        if drop_sessions:
            self._spec["secret_key"] = secrets.token_hex(16)
        self.start()

    @property
    def running(self) -> bool:
        """Whether the server process is alive."""
        return self._proc is not None and self._proc.poll() is None

    def close(self) -> None:
        """Stops the server and removes the instance directory (unless started with ``keep=True``)."""
        _OPEN.discard(self)
        self.stop()
        if not self._keep:
            shutil.rmtree(self.instance, ignore_errors=True)

    def __enter__(self) -> RunningForum:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def log_tail(self, lines: int = 30) -> str:
        """The last lines of the server's output."""
        try:
            return "\n".join(self.log_path.read_text("utf-8", "replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    # -- helpers for tests and the demo ----------------------------------------------------------------

    def client(self, name: str | None = None, **options: Any):
        """A :class:`~forumbot.forums.flaskbb.FlaskBBForum` logged in lazily as the judge or player ``name``."""
        from forumbot.forums.flaskbb import FlaskBBForum

        account = self.judge if name is None or name == self.judge.name else self.players[name]
        return FlaskBBForum(self.base_url, account.name, account.password, **options)

    def _harness(self, path: str, payload: dict[str, Any]) -> dict[str, Any]:
        answer = httpx.post(  # no read limit: seeding hundreds of rows on a busy machine takes what it takes
            f"{self.base_url}/_harness/{path}", json=payload, timeout=httpx.Timeout(30, read=None),
            headers={"X-Harness-Token": self._spec["harness_token"]},
        )
        if answer.status_code != 200:
            raise HarnessError(f"seeding /_harness/{path} failed: HTTP {answer.status_code}\n{self.log_tail()}")
        return answer.json()

    def seed_posts(self, thread_id: int, posts: Sequence[tuple[str, str]]) -> list[int]:
        """Adds posts ``(author, markdown)`` to a thread directly in the forum (fast); returns their ids."""
        return self._harness("posts", {"topic_id": int(thread_id), "posts": [list(p) for p in posts]})["post_ids"]

    def seed_conversations(self, sender: str, recipient: str, subject: str, message: str, count: int = 1) -> None:
        """Stores ``count`` conversations from ``sender`` to ``recipient`` in both boxes (fills a quota fast)."""
        self._harness(
            "conversations",
            {"from": sender, "to": recipient, "subject": subject, "message": message, "count": count},
        )


class StartWatch:
    """Whether a starting server process still makes progress: its log grew, it used CPU time (Linux:
    ``/proc/PID/stat``), or :meth:`progressed` was called (a probe it accepted but did not answer yet).

    :meth:`stuck` says why it gave up (a sentence) once nothing progressed for ``stall_seconds``, or once
    ``give_up_seconds`` passed in all; else None. Times are seconds of ``time.monotonic``."""

    def __init__(self, pid: int, log_path: Path, stall_seconds: float, give_up_seconds: float) -> None:
        self.pid, self.log_path = pid, log_path
        self.stall_seconds, self.give_up_seconds = stall_seconds, give_up_seconds
        self.began = self.last_progress = time.monotonic()
        self.seen = self._signs()

    def _signs(self) -> tuple[int, int]:
        try:
            size = self.log_path.stat().st_size
        except OSError:
            size = -1
        return size, cpu_ticks(self.pid)

    def progressed(self) -> None:
        """Something outside the log and the CPU time shows progress."""
        self.last_progress = time.monotonic()

    def stuck(self) -> str | None:
        """None while the process progresses; else why it is taken to be stuck."""
        now, signs = time.monotonic(), self._signs()
        if signs != self.seen:
            self.seen, self.last_progress = signs, now
        if now - self.last_progress > self.stall_seconds:
            return f"no progress (log, CPU time) for {self.stall_seconds:.0f} s"
        if now - self.began > self.give_up_seconds:
            return f"still starting after {self.give_up_seconds:.0f} s"
        return None


def cpu_ticks(pid: int) -> int:
    """CPU time (user + system, in clock ticks) the process ``pid`` has used; -1 when unknown (not Linux,
    or the process is gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return -1
    fields = stat[stat.rindex(")") + 2:].split()  # after "pid (comm) ": state is fields[0]
    return int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of proc(5))


def start_forum(
    players: Sequence[str] = DEFAULT_PLAYERS,
    *,
    judge: str = "法官",
    quota: bool = False,
    quota_size: int = 50,
    posts_per_page: int = 10,
    forum_title: str = "版杀",
    port: int | None = None,
    signatures: dict[str, str] | None = None,
    keep: bool = False,
) -> RunningForum:
    """Creates and starts a fresh FlaskBB forum; returns it running (a context manager).

    ``players``: user names (CJK welcome) of member accounts; ``judge``: the administrator account the bot
    uses; ``quota``: whether the conversations plugin enforces ``quota_size`` conversations per box;
    ``signatures``: player name → signature (Markdown) shown under their posts; ``keep``: leave the
    instance directory on close.
    Passwords are random (see ``RunningForum.judge`` / ``.players``). The first call on a machine builds
    the FlaskBB venv (about 20 s, needs Python 3.12 and pip). Raises HarnessError.
    """
    interrupt_on_termination()
    python = ensure_forum_python()
    template = ensure_template_db()
    instance = Path(tempfile.mkdtemp(prefix="forumbot-forum-"))
    shutil.copyfile(template, instance / "forum.sqlite")
    spec = {
        "port": port or free_port(),
        "secret_key": secrets.token_hex(16),
        "harness_token": secrets.token_hex(16),
        "quota": quota,
        "quota_size": quota_size,
        "posts_per_page": posts_per_page,
        "judge": {"name": judge, "password": secrets.token_urlsafe(12), "email": "judge@example.org"},
        "players": [
            {
                "name": name,
                "password": secrets.token_urlsafe(12),
                "email": f"player{i}@example.org",
                "signature": (signatures or {}).get(name, ""),
            }
            for i, name in enumerate(players, 1)
        ],
        "category_title": "Games",
        "forum_title": forum_title,
    }
    forum = RunningForum(instance, spec, python, keep=keep)
    try:
        forum.start()
    except BaseException:
        forum.close()
        raise
    return forum


def _interrupt(signum: int, frame: Any) -> None:
    on_term = signal.getsignal(signal.SIGTERM)
    if signum != signal.SIGTERM and callable(on_term) and on_term is not _interrupt:
        on_term(signal.SIGTERM, frame)  # SIGHUP stops as SIGTERM does (a running bot: after its cycle)
        return
    raise KeyboardInterrupt(f"stopped by {signal.Signals(signum).name}")


def interrupt_on_termination() -> None:
    """Make SIGTERM and SIGHUP stop this process the way Ctrl-C does (a KeyboardInterrupt in the main
    thread), so that ``with`` blocks and ``finally`` clauses close the forums it started and remove their
    folders; by default those signals end the process at once, and the forum, in its own session, would
    run on. Only where nobody handles them yet (the default action), and only from the main thread (the
    only one that may set handlers). While someone else handles SIGTERM (``run_bot`` stops its bot after
    the cycle under way), SIGHUP goes to that handler."""
    if threading.current_thread() is not threading.main_thread():
        return
    for sig in (signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(sig) == signal.SIG_DFL:
            signal.signal(sig, _interrupt)


@atexit.register
def _close_all() -> None:
    for forum in list(_OPEN):
        forum.close()

"""Write pacing shared by every season that writes with one judge account on one forum.

A forum's write spacing (Discuz! 16 s, phpBB 15 s, NodeBB 10 s: ``min_write_interval_seconds``) and its
conversations-a-day limit belong to the *account*, not to a season: two seasons judged by the same
account on the same forum must space their writes together. A :class:`ForumPace` is one account on one
forum (key: base URL and username); delivery takes its slot before a write and gives it back after the
answer, so writes of that account never overlap and start at least the interval after the previous answer.
Seasons on other forums (or other accounts) have their own pace and never wait on this one; a forum that
is down holds only the seasons writing to it.

On PostgreSQL the pace is also shared between workers: the slot is the ``forum_pacing`` row, locked
``FOR UPDATE`` for the duration of the write (a worker that dies releases it with its connection), and it
holds the time the next write may start and until when private messages wait (the account's
conversations-a-day limit was reached: the forum said how long). In one process a lock does the same.
"""

from __future__ import annotations

import contextlib
import threading
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine


def forum_key(base_url: str, username: str) -> str:
    """The pacing key of judge account ``username`` on the forum at ``base_url``."""
    return f"{base_url.rstrip('/')}|{username}"


class ForumPace:
    """The shared write slot of one account on one forum. ``interval``: seconds from the answer to one
    write to the start of the next; ``engine``: a PostgreSQL engine to share it with other workers (None:
    this process only). Used by :class:`forumbot.runtime.delivery.Delivery` as ``bot.pace``."""

    def __init__(self, key: str, interval: float, engine: Engine | None = None) -> None:
        self.key = key
        self.interval = interval
        self.engine = engine
        self._lock = threading.Lock()
        self._next: datetime | None = None
        self._pm_hold: datetime | None = None
        self._conn: Connection | None = None
        self._pm_hold_changed = False

    def acquire(self, timeout: float | None) -> bool:
        """Take the slot, waiting at most ``timeout`` seconds (None: as long as it takes); False: not taken."""
        if not self._lock.acquire(timeout=-1 if timeout is None else max(0.0, timeout)):
            return False
        if self.engine is None or self.interval <= 0:
            return True  # nothing to space (a forum without flood control): no database row held
        try:
            conn = self.engine.connect()
            if timeout is not None:
                conn.execute(text(f"SET LOCAL lock_timeout = '{max(1, int(timeout * 1000))}ms'"))
            conn.execute(text("INSERT INTO forum_pacing (forum) VALUES (:k) ON CONFLICT DO NOTHING"), {"k": self.key})
            conn.commit()
            if timeout is not None:
                conn.execute(text(f"SET LOCAL lock_timeout = '{max(1, int(timeout * 1000))}ms'"))
            row = conn.execute(text("SELECT next_write_at, pm_hold_until, clock_timestamp() FROM forum_pacing "
                                    "WHERE forum = :k FOR UPDATE"), {"k": self.key}).one()
        except Exception:
            self._lock.release()
            with contextlib.suppress(Exception):
                conn.close()
            return False
        self._conn = conn
        self._next, self._pm_hold = row[0], row[1]
        self._db_skew = row[2] - datetime.now(UTC)
        return True

    def _now(self) -> datetime:
        return datetime.now(UTC) + (getattr(self, "_db_skew", None) or timedelta(0)) if self._conn else datetime.now(UTC)

    def wait_seconds(self) -> float:
        """With the slot taken: seconds until the next write may start."""
        if self._next is None:
            return 0.0
        return max(0.0, (self._next - self._now()).total_seconds())

    def release(self, wrote: bool) -> None:
        """Give the slot back; ``wrote``: a write was attempted, so the next one waits the interval."""
        try:
            if wrote:
                self._next = self._now() + timedelta(seconds=self.interval)
            if self._conn is None and self.engine is not None and self._pm_hold_changed:
                with self.engine.begin() as c:  # a quota reached on a forum without spacing: tell the others
                    c.execute(text("INSERT INTO forum_pacing (forum, pm_hold_until) VALUES (:k, :h) ON CONFLICT (forum) "
                                   "DO UPDATE SET pm_hold_until = EXCLUDED.pm_hold_until"),
                              {"k": self.key, "h": self._pm_hold})
            self._pm_hold_changed = False
            if self._conn is not None:
                try:
                    self._conn.execute(text("UPDATE forum_pacing SET next_write_at = :n, pm_hold_until = :h "
                                            "WHERE forum = :k"), {"n": self._next, "h": self._pm_hold, "k": self.key})
                    self._conn.commit()
                finally:
                    self._conn.close()
                    self._conn = None
        finally:
            self._lock.release()

    def hold_pms(self, seconds: float) -> None:
        """The forum refused a private message for the account's daily limit: every season's private
        messages on this account wait ``seconds`` (called with the slot taken)."""
        self._pm_hold = self._now() + timedelta(seconds=seconds)
        self._pm_hold_changed = True

    def pms_held(self) -> bool:
        """Whether private messages of this account must wait (the daily limit), as last seen."""
        if self.engine is not None and self._conn is None:
            with self.engine.connect() as conn:
                row = conn.execute(text("SELECT pm_hold_until, clock_timestamp() FROM forum_pacing WHERE forum = :k"),
                                   {"k": self.key}).first()
            return bool(row and row[0] is not None and row[0] > row[1])
        return self._pm_hold is not None and self._pm_hold > self._now()


class Pacing:
    """The paces of one process, one per account and forum (shared across seasons)."""

    def __init__(self, engine: Engine | None = None) -> None:
        self.engine = engine
        self._paces: dict[str, ForumPace] = {}
        self._lock = threading.Lock()

    def pace(self, base_url: str, username: str, interval: float) -> ForumPace:
        """The pace of ``username`` on ``base_url`` (its interval: the largest any season asked for)."""
        key = forum_key(base_url, username)
        with self._lock:
            pace = self._paces.get(key)
            if pace is None:
                pace = self._paces[key] = ForumPace(key, interval, self.engine)
            pace.interval = max(pace.interval, interval)
            return pace

    def snapshot(self) -> dict[str, Any]:
        return {k: {"interval": p.interval} for k, p in self._paces.items()}

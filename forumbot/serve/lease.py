"""Season leases: several ``forumbot serve`` workers on one PostgreSQL database judge each season with
exactly one worker at a time, and a worker that dies has its seasons taken over within a lease time.
``forumbot run`` takes its season's lease the same way, on SQLite too (:class:`Renewal` keeps it), so a
second ``run`` of the season, or a ``run`` of a season a worker judges, is refused (:func:`held_message`).

- A lease is a row of ``season_lease`` (season name, worker, epoch, expires_at). A worker takes a season
  whose row is free or expired (``SELECT … FOR UPDATE SKIP LOCKED``: two workers never wait on each other
  for one row, and only one of them changes it); taking it from another worker adds one to ``epoch``.
  Every time is the database's clock, so workers' clocks do not matter (SQLite: the machine's clock,
  which every process of one SQLite file shares; there every lease write takes the database's write lock,
  which does what ``FOR UPDATE`` does on PostgreSQL).
- The holder renews it every ``lease_seconds``/3 (:meth:`Leases.renew`); a renewal that finds the row
  changed or expired means the lease is lost and the worker stops the season.
- **Fencing.** Every write of a season's store (inbound rows, inputs, outbox claims and results,
  cursors) checks the lease in the same transaction (:meth:`Leases.guard`: the row must name this worker
  and epoch and still be valid for at least ``margin_seconds``), holding it ``FOR SHARE`` until the commit,
  so a takeover cannot slip between the check and the write. A worker that lost its lease therefore
  cannot claim an outbox row, and an outbox row is only ever sent after its claim (``sending``) commits:
  two workers never send the same row. A claim made by a worker that then dies is an uncertain write
  for the next holder, looked for on the forum once the claim, the adapter's request timeout and its request
  horizon have passed, before it is sent again (:mod:`forumbot.runtime.delivery`), exactly as after a crash of ``forumbot run``.
- Workers share the seasons: each heartbeats a ``serve_worker`` row and takes new seasons only while it
  holds fewer than its share (seasons ÷ live workers, rounded up), so seasons spread over the workers and
  move to the survivors when one dies.
"""

from __future__ import annotations

import logging
import math
import os
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import select, text, update
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Engine
from sqlmodel import Session

from forumbot.runtime.store import SeasonLeaseRow, aware

log = logging.getLogger("forumbot")


class LeaseLost(RuntimeError):
    """This worker no longer holds the season's lease: the write is refused (another worker judges it)."""


@dataclass
class Lease:
    season: str
    worker: str
    epoch: int


@dataclass
class Holder:
    """Who holds a season's lease: ``worker`` (``host:pid`` unless named), ``since`` (when this holding
    began, UTC; None for a lease taken before this was recorded), ``expires_at`` (UTC) and
    ``seconds_left`` until then by the database's clock (0 or less: expired), ``archived``."""

    worker: str
    since: datetime | None
    expires_at: datetime
    seconds_left: float
    archived: bool

    @property
    def valid(self) -> bool:
        return self.seconds_left > 0 and not self.archived


_LEASE = SeasonLeaseRow.__table__  # type: ignore[attr-defined]


def _utcnow() -> datetime:
    return datetime.now(UTC)


_INIT_PID_NAMESPACE = "pid:[4026531836]"  # Linux's first pid namespace (PROC_PID_INIT_INO)


def _pid_namespace() -> str:
    try:
        return os.readlink("/proc/self/ns/pid")
    except OSError:
        return _INIT_PID_NAMESPACE


def worker_id() -> str:
    """This process as a lease holder: ``host:pid``, with the pid namespace when it is not the machine's
    (a container): two processes with one host name in two namespaces are never taken for each other."""
    ns = _pid_namespace()
    host = socket.gethostname() if ns == _INIT_PID_NAMESPACE else f"{socket.gethostname()}/{ns}"
    return f"{host}:{os.getpid()}"


def died_here(worker: str) -> bool:
    """True when ``worker`` (a :func:`worker_id`) was a process of this machine and namespace that no longer
    exists (:meth:`Leases.take` uses it on SQLite only: on PostgreSQL two machines may have one host name,
    and there a dead holder's lease always runs its length). A reused pid only makes the taker wait for
    the lease."""
    host, _, pid = worker.rpartition(":")
    here = worker_id().rpartition(":")[0]
    if host != here or not pid.isdigit() or int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False  # it exists (another user's)
    try:  # a zombie (killed, not yet reaped by its parent) is dead too
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] in ("Z", "X")
    except (OSError, IndexError):
        return False


class Leases:
    """The leases of worker ``worker`` on the database of ``engine`` (PostgreSQL: ``forumbot serve``'s
    workers and ``forumbot run``; SQLite: ``forumbot run``, one season file's processes). ``lease_seconds``:
    how long a lease lasts without renewal (a dead worker's seasons move after at most this long);
    ``margin_seconds``: a write needs the lease valid at least this much longer (default a third of it);
    ``clock``: SQLite's "now" (UTC; tests give their own). Sharing (:meth:`heartbeat`, :meth:`leave`) is
    PostgreSQL's only. Raises ValueError for another database."""

    def __init__(self, engine: Engine, worker: str, lease_seconds: float = 60.0,
                 margin_seconds: float | None = None, clock: Callable[[], datetime] = _utcnow) -> None:
        if engine.dialect.name not in ("postgresql", "sqlite"):
            raise ValueError(f"season leases need PostgreSQL or SQLite, not {engine.dialect.name}")
        self.engine = engine
        self.sqlite = engine.dialect.name == "sqlite"
        self.clock = clock
        self.worker = worker
        self.lease_seconds = float(lease_seconds)
        self.margin_seconds = self.lease_seconds / 3 if margin_seconds is None else float(margin_seconds)

    def _now(self) -> datetime:
        return self.clock().astimezone(UTC).replace(tzinfo=None)  # SQLite keeps naive UTC times

    def _interval(self, seconds: float) -> str:
        return f"{seconds:.3f} seconds"

    def heartbeat(self) -> int:
        """Record this worker alive for a lease time; returns how many workers are alive (itself included)."""
        with self.engine.begin() as c:
            c.execute(text("INSERT INTO serve_worker (worker, expires_at) VALUES (:w, now() + CAST(:d AS interval)) "
                           "ON CONFLICT (worker) DO UPDATE SET expires_at = EXCLUDED.expires_at"),
                      {"w": self.worker, "d": self._interval(self.lease_seconds)})
            c.execute(text("DELETE FROM serve_worker WHERE expires_at < now() - interval '1 day'"))
            return int(c.execute(text("SELECT count(*) FROM serve_worker WHERE expires_at > now()")).scalar_one())

    def leave(self) -> None:
        """A clean stop: this worker's leases and heartbeat end now, so others take its seasons at once."""
        with self.engine.begin() as c:
            c.execute(text("UPDATE season_lease SET expires_at = now() WHERE worker = :w AND NOT archived"),
                      {"w": self.worker})
            c.execute(text("DELETE FROM serve_worker WHERE worker = :w"), {"w": self.worker})

    def share(self, seasons: int, alive: int) -> int:
        """How many seasons this worker may hold: ``seasons`` ÷ ``alive`` workers, rounded up."""
        return max(1, math.ceil(seasons / max(1, alive)))

    def try_acquire(self, season: str) -> Lease | None:
        """Take ``season``'s lease if it is free, expired or already ours; None when another worker holds
        it (or holds its row right now) or the season is archived."""
        if self.sqlite:
            return self._try_acquire_sqlite(season)
        with self.engine.begin() as c:
            c.execute(text("INSERT INTO season_lease (season, worker, epoch, expires_at, archived) "
                           "VALUES (:s, '', 0, now(), false) ON CONFLICT DO NOTHING"), {"s": season})
        with self.engine.begin() as c:
            row = c.execute(text("SELECT worker, epoch, expires_at > now(), archived FROM season_lease "
                                 "WHERE season = :s FOR UPDATE SKIP LOCKED"), {"s": season}).first()
            if row is None or row[3]:
                return None
            worker, epoch, valid = row[0], int(row[1]), bool(row[2])
            if valid and worker != self.worker:
                return None
            new = worker != self.worker or not valid
            if new:
                epoch += 1  # a new holding: writes of any earlier one are refused
            c.execute(text("UPDATE season_lease SET worker = :w, epoch = :e, expires_at = now() + CAST(:d AS interval)"
                           + (", since = now()" if new else "") + " WHERE season = :s"),
                      {"w": self.worker, "e": epoch, "d": self._interval(self.lease_seconds), "s": season})
        if worker and worker != self.worker:
            log.info("season %s: taken over from worker %s (lease epoch %d)", season, worker, epoch)
        return Lease(season, self.worker, epoch)

    def _try_acquire_sqlite(self, season: str) -> Lease | None:
        # The INSERT takes SQLite's write lock for the whole transaction: the read and the change below
        # cannot interleave with another process's.
        now = self._now()
        with self.engine.begin() as c:
            c.execute(sqlite_insert(_LEASE).values(season=season, worker="", epoch=0, expires_at=now, archived=False)
                      .on_conflict_do_nothing())
            row = c.execute(select(_LEASE.c.worker, _LEASE.c.epoch, _LEASE.c.expires_at, _LEASE.c.archived)
                            .where(_LEASE.c.season == season)).one()
            if row.archived:
                return None
            worker, epoch, valid = row.worker, int(row.epoch), row.expires_at > now
            if valid and worker != self.worker:
                return None
            new = worker != self.worker or not valid
            values: dict[str, object] = {"worker": self.worker, "expires_at": now + timedelta(seconds=self.lease_seconds)}
            if new:
                epoch += 1
                values.update(epoch=epoch, since=now)
            c.execute(update(_LEASE).where(_LEASE.c.season == season).values(**values))
        if worker and worker != self.worker:
            log.info("season %s: taken over from %s (lease epoch %d)", season, worker, epoch)
        return Lease(season, self.worker, epoch)

    def take(self, season: str) -> Lease | None:
        """:meth:`try_acquire`, and on SQLite (a local file: its processes share the machine) also a lease whose
        holder was a process of this machine that no longer exists (:func:`died_here`: killed by SIGKILL or
        the out-of-memory killer), which is ended at once instead of after its length."""
        lease = self.try_acquire(season)
        if lease is None and self.sqlite:
            holder = self.holder(season)
            if holder is not None and holder.valid and died_here(holder.worker):
                log.warning("season %s: the process %s that held it has died: its lease is taken over now",
                            season, holder.worker)
                self.end(season, holder.worker)
                lease = self.try_acquire(season)
        return lease

    def holder(self, season: str) -> Holder | None:
        """Who holds (or last held) ``season``'s lease; None when nobody ever did."""
        if self.sqlite:
            now = self._now()
            with self.engine.connect() as c:
                row = c.execute(select(_LEASE).where(_LEASE.c.season == season)).first()
            if row is None or not row.worker:
                return None
            left = (row.expires_at - now).total_seconds()
        else:
            with self.engine.connect() as c:
                row = c.execute(text("SELECT worker, since, expires_at, archived, "
                                     "EXTRACT(EPOCH FROM expires_at - now()) AS left FROM season_lease "
                                     "WHERE season = :s"), {"s": season}).first()
            if row is None or not row.worker:
                return None
            left = float(row.left)
        return Holder(row.worker, aware(row.since) if row.since is not None else None, aware(row.expires_at),
                      left, bool(row.archived))

    def renew(self, lease: Lease) -> bool:
        """Extend ``lease`` by a lease time; False when it was lost (expired, or taken by another worker)."""
        if self.sqlite:
            now = self._now()
            with self.engine.begin() as c:
                n = c.execute(update(_LEASE).where(*self._ours(lease), _LEASE.c.expires_at > now)
                              .values(expires_at=now + timedelta(seconds=self.lease_seconds))).rowcount
            return n == 1
        with self.engine.begin() as c:
            n = c.execute(text("UPDATE season_lease SET expires_at = now() + CAST(:d AS interval) "
                               "WHERE season = :s AND worker = :w AND epoch = :e AND expires_at > now()"),
                          {"d": self._interval(self.lease_seconds), "s": lease.season, "w": lease.worker,
                           "e": lease.epoch}).rowcount
        return n == 1

    def release(self, lease: Lease, archived: bool = False) -> None:
        """End ``lease`` now (``archived``: the season is over and delivered; nobody takes it again)."""
        if self.sqlite:
            with self.engine.begin() as c:
                c.execute(update(_LEASE).where(*self._ours(lease))
                          .values(expires_at=self._now(), archived=_LEASE.c.archived | archived))
            return
        with self.engine.begin() as c:
            c.execute(text("UPDATE season_lease SET expires_at = now(), archived = archived OR :a "
                           "WHERE season = :s AND worker = :w AND epoch = :e"),
                      {"a": archived, "s": lease.season, "w": lease.worker, "e": lease.epoch})

    def end(self, season: str, worker: str) -> None:
        """End ``worker``'s lease on ``season`` now, whoever we are: ``worker`` is known to have died (a
        process of this machine that no longer exists). Nothing happens if another holds it by then."""
        with self.engine.begin() as c:
            if self.sqlite:
                c.execute(update(_LEASE).where(_LEASE.c.season == season, _LEASE.c.worker == worker)
                          .values(expires_at=self._now()))
            else:
                c.execute(text("UPDATE season_lease SET expires_at = now() WHERE season = :s AND worker = :w"),
                          {"s": season, "w": worker})

    def _ours(self, lease: Lease) -> tuple:
        return (_LEASE.c.season == lease.season, _LEASE.c.worker == lease.worker, _LEASE.c.epoch == lease.epoch)

    def archived(self, season: str) -> bool:
        with self.engine.connect() as c:
            return bool(c.execute(text("SELECT archived FROM season_lease WHERE season = :s"), {"s": season}).scalar())

    def holders(self) -> dict[str, tuple[str, bool, bool]]:
        """Season -> (worker, lease valid now, archived), for ``forumbot status``."""
        if self.sqlite:
            now = self._now()
            with self.engine.connect() as c:
                got = c.execute(select(_LEASE.c.season, _LEASE.c.worker, _LEASE.c.expires_at, _LEASE.c.archived)).all()
            return {r.season: (r.worker, r.expires_at > now, bool(r.archived)) for r in got}
        with self.engine.connect() as c:
            rows = c.execute(text("SELECT season, worker, expires_at > now(), archived FROM season_lease")).all()
        return {r[0]: (r[1], bool(r[2]), bool(r[3])) for r in rows}

    def guard(self, lease: Lease):
        """A :attr:`forumbot.runtime.store.Store.guard` for ``lease``: raises :class:`LeaseLost` inside
        the write's transaction unless the lease is still ours for at least the margin. On SQLite the
        check is an UPDATE of the lease row: it takes the write lock, held until the commit, so no
        takeover (itself a write) can slip between the check and the write."""

        def check_sqlite(s: Session) -> None:
            until = self._now() + timedelta(seconds=self.margin_seconds)
            n = s.connection().execute(update(_LEASE).where(*self._ours(lease), _LEASE.c.expires_at > until)
                                       .values(epoch=_LEASE.c.epoch)).rowcount
            if n != 1:
                s.rollback()
                raise LeaseLost(f"season {lease.season}: this process ({lease.worker}) no longer holds its lease")

        if self.sqlite:
            return check_sqlite

        def check(s: Session) -> None:
            ok = s.connection().execute(
                text("SELECT 1 FROM season_lease WHERE season = :s AND worker = :w AND epoch = :e "
                     "AND expires_at > clock_timestamp() + CAST(:m AS interval) FOR SHARE"),
                {"s": lease.season, "w": lease.worker, "e": lease.epoch, "m": self._interval(self.margin_seconds)},
            ).first()
            if ok is None:
                s.rollback()
                raise LeaseLost(f"season {lease.season}: this worker ({lease.worker}) no longer holds its lease")

        return check


class Renewal(threading.Thread):
    """Renews ``lease`` every third of its length until :meth:`stop`; when a renewal finds it lost (it
    expired: the process was paused longer than a lease, and another took the season), logs it and
    calls ``on_lost`` once. A database that cannot be reached is logged and tried again: the lease may
    lapse meanwhile, and then the store's guard refuses every write (``forumbot run``'s lease)."""

    def __init__(self, leases: Leases, lease: Lease, on_lost: Callable[[], None]) -> None:
        super().__init__(name=f"lease-{lease.season}", daemon=True)
        self.leases, self.lease, self.on_lost = leases, lease, on_lost
        self.lost = False
        self._stop = threading.Event()

    def run(self) -> None:
        while not self._stop.wait(self.leases.lease_seconds / 3):
            try:
                kept = self.leases.renew(self.lease)
            except Exception as exc:
                log.error("season %s: lease renewal failed: %s", self.lease.season, exc)
                continue
            if not kept:
                self.lost = True
                log.error("season %s: this process lost its lease (another process judges the season now): it stops",
                          self.lease.season)
                self.on_lost()
                return

    def stop(self) -> None:
        self._stop.set()


def held_message(season: str, holder: Holder, local: Callable[[datetime], str]) -> str:
    """One line saying that ``holder`` judges ``season``, since when (``local`` formats a UTC time) and,
    should it have died without ending its lease, in how many seconds the lease lapses (a lease lasts
    its length after the holder's last renewal; a clean stop ends it at once) and a new ``forumbot run``
    may take it."""
    since = f" since {local(holder.since)}" if holder.since is not None else ""
    left = max(0, math.ceil(holder.seconds_left))
    return (f"season {season!r} is already being judged by {holder.worker} (host:pid){since}: one process judges a "
            f"season at a time. If that process has died, its lease expires in {left} s "
            f"(at {local(holder.expires_at)}): run this again then.")

"""Season leases: several ``forumbot serve`` workers on one PostgreSQL database judge each season with
exactly one worker at a time, and a worker that dies has its seasons taken over within a lease time.

- A lease is a row of ``season_lease`` (season name, worker, epoch, expires_at). A worker takes a season
  whose row is free or expired (``SELECT … FOR UPDATE SKIP LOCKED``: two workers never wait on each other
  for one row, and only one of them changes it); taking it from another worker adds one to ``epoch``.
  Every time is the database's clock, so workers' clocks do not matter.
- The holder renews it every ``lease_seconds``/3 (:meth:`Leases.renew`); a renewal that finds the row
  changed or expired means the lease is lost and the worker stops the season.
- **Fencing.** Every write of a season's store (inbound rows, inputs, outbox claims and results,
  cursors) checks the lease in the same transaction (:meth:`Leases.guard`: the row must name this worker
  and epoch and still be valid for at least ``margin_seconds``), holding it ``FOR SHARE`` until the commit,
  so a takeover cannot slip between the check and the write. A worker that lost its lease therefore
  cannot claim an outbox row, and an outbox row is only ever sent after its claim (``sending``) commits:
  two workers never send the same row. A claim made by a worker that then dies is an uncertain write
  for the next holder, looked for on the forum after the adapter's request horizon before it is sent
  again (:mod:`forumbot.runtime.delivery`), exactly as after a crash of ``forumbot run``.
- Workers share the seasons: each heartbeats a ``serve_worker`` row and takes new seasons only while it
  holds fewer than its share (seasons ÷ live workers, rounded up), so seasons spread over the workers and
  move to the survivors when one dies.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass

from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlmodel import Session

log = logging.getLogger("forumbot")


class LeaseLost(RuntimeError):
    """This worker no longer holds the season's lease: the write is refused (another worker judges it)."""


@dataclass
class Lease:
    season: str
    worker: str
    epoch: int


class Leases:
    """The leases of worker ``worker`` on the PostgreSQL database of ``engine``. ``lease_seconds``: how
    long a lease lasts without renewal (a dead worker's seasons move after at most this long);
    ``margin_seconds``: a write needs the lease valid at least this much longer (default a third of it)."""

    def __init__(self, engine: Engine, worker: str, lease_seconds: float = 60.0,
                 margin_seconds: float | None = None) -> None:
        if engine.dialect.name != "postgresql":
            raise ValueError("leases between workers need PostgreSQL; SQLite serves one process")
        self.engine = engine
        self.worker = worker
        self.lease_seconds = float(lease_seconds)
        self.margin_seconds = self.lease_seconds / 3 if margin_seconds is None else float(margin_seconds)

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
            if worker != self.worker or not valid:
                epoch += 1  # a new holding: writes of any earlier one are refused
            c.execute(text("UPDATE season_lease SET worker = :w, epoch = :e, expires_at = now() + CAST(:d AS interval) "
                           "WHERE season = :s"), {"w": self.worker, "e": epoch, "d": self._interval(self.lease_seconds),
                                                  "s": season})
        if worker and worker != self.worker:
            log.info("season %s: taken over from worker %s (lease epoch %d)", season, worker, epoch)
        return Lease(season, self.worker, epoch)

    def renew(self, lease: Lease) -> bool:
        """Extend ``lease`` by a lease time; False when it was lost (expired, or taken by another worker)."""
        with self.engine.begin() as c:
            n = c.execute(text("UPDATE season_lease SET expires_at = now() + CAST(:d AS interval) "
                               "WHERE season = :s AND worker = :w AND epoch = :e AND expires_at > now()"),
                          {"d": self._interval(self.lease_seconds), "s": lease.season, "w": lease.worker,
                           "e": lease.epoch}).rowcount
        return n == 1

    def release(self, lease: Lease, archived: bool = False) -> None:
        """End ``lease`` now (``archived``: the season is over and delivered; nobody takes it again)."""
        with self.engine.begin() as c:
            c.execute(text("UPDATE season_lease SET expires_at = now(), archived = archived OR :a "
                           "WHERE season = :s AND worker = :w AND epoch = :e"),
                      {"a": archived, "s": lease.season, "w": lease.worker, "e": lease.epoch})

    def archived(self, season: str) -> bool:
        with self.engine.connect() as c:
            return bool(c.execute(text("SELECT archived FROM season_lease WHERE season = :s"), {"s": season}).scalar())

    def holders(self) -> dict[str, tuple[str, bool, bool]]:
        """Season -> (worker, lease valid now, archived), for ``forumbot status``."""
        with self.engine.connect() as c:
            rows = c.execute(text("SELECT season, worker, expires_at > now(), archived FROM season_lease")).all()
        return {r[0]: (r[1], bool(r[2]), bool(r[3])) for r in rows}

    def guard(self, lease: Lease):
        """A :attr:`forumbot.runtime.store.Store.guard` for ``lease``: raises :class:`LeaseLost` inside
        the write's transaction unless the lease is still ours for at least the margin."""

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

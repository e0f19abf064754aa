"""The season's database (SQLModel over SQLAlchemy: a SQLite file by default, any SQLAlchemy URL).

Tables: ``season`` (one row a season), ``inbound`` (every private message and thread post read, stored
before it is acted on), ``game_input`` (the ordered inputs the game is a function of), ``outbox`` (every
post and private message to send, with an idempotency key) and ``cursor`` (polling positions); for
``forumbot serve`` with several workers: ``season_lease``, ``serve_worker`` and ``forum_pacing``
(:mod:`forumbot.serve`). An input
and the outbox rows it produced are written in one transaction, so a crash leaves either both or
neither. The schema is created and upgraded by Alembic (:mod:`forumbot.migrations`).
"""

from __future__ import annotations

import json
import logging
import os
import stat
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import BigInteger, DateTime, Text, UniqueConstraint, event
from sqlalchemy.engine import Engine, make_url
from sqlmodel import Field, Session, SQLModel, col, create_engine, select

log = logging.getLogger("forumbot")


def utcnow() -> datetime:
    return datetime.now(UTC)


def aware(value: datetime) -> datetime:
    """SQLite gives back naive datetimes: they are UTC."""
    return value if value.tzinfo else value.replace(tzinfo=UTC)


class SeasonRow(SQLModel, table=True):
    __tablename__ = "season"
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True)
    seed: str
    thread_id: int | None = None
    setup_json: str = Field(default="{}", sa_type=Text)
    created_at: datetime = Field(default_factory=utcnow, sa_type=DateTime(timezone=True))


class InboundRow(SQLModel, table=True):
    """A message or post as read from the forum (or an organiser command from the CLI)."""

    __tablename__ = "inbound"
    __table_args__ = (UniqueConstraint("season_id", "source", "forum_id"),)
    id: int | None = Field(default=None, primary_key=True)
    season_id: int = Field(index=True)
    source: str  # "pm" | "thread" | "cli"
    forum_id: int = Field(sa_type=BigInteger)
    sender: str
    sent_at: datetime = Field(sa_type=DateTime(timezone=True))  # the time the forum states
    # when it was sent, as far as the reads and the forum tell (runtime.arrival); None in rows older
    # than this column: sent_at then
    earliest: datetime | None = Field(default=None, sa_type=DateTime(timezone=True))
    latest: datetime | None = Field(default=None, sa_type=DateTime(timezone=True))
    subject: str = ""
    text: str = Field(sa_type=Text)
    edited: bool = False
    stored_at: datetime = Field(default_factory=utcnow, sa_type=DateTime(timezone=True))
    input_seq: int | None = Field(default=None, index=True)  # the input that applied it; -1: never one (bot.NOT_AN_INPUT)


class InputRow(SQLModel, table=True):
    """One input of the game, in order: "start", "message" (an inbound row) or "deadline"."""

    __tablename__ = "game_input"
    season_id: int = Field(primary_key=True)
    seq: int = Field(primary_key=True)
    kind: str
    at: datetime = Field(sa_type=DateTime(timezone=True))
    inbound_id: int | None = None
    phase_id: int | None = None
    opened_at: datetime | None = Field(default=None, sa_type=DateTime(timezone=True))  # a deadline handled after an outage: when the next phase opened


class OutboxRow(SQLModel, table=True):
    """A post, private message or new thread to send. ``status``: pending, sending (an attempt may or
    may not have reached the forum: verify before retrying, after the forum's request horizon), sent,
    failed (refused; ``next_attempt_at`` is its retry), undeliverable (settled: it never will be, e.g. no
    such account), cancelled (its recipient was replaced before it went out), note (not for the forum),
    superseded (a refused edit replaced by a newer one). ``kind`` "edit": new text for the judge's post
    ``forum_ref`` (a running vote count).
    ``conversation_id``: the forum's conversation a sent private message is in.
    ``last_attempt_at``: when the last attempt was claimed (just before its request); ``gave_up_at``: when
    the bot gave up on that attempt (its request timed out, or the answer was neither the result nor a
    refusal; None while it runs, after an answer, and when the process died during it): the forum's
    request horizon counts from it (:mod:`forumbot.runtime.delivery`).
    ``image_json``: a picture to attach to the post (a vote round's chart data, drawn when it is sent;
    None: text only); ``image_ref``: the forum's id of the uploaded picture, stored before the post is
    written so an attempt after a crash names the same upload (0: the post goes without the picture)."""

    __tablename__ = "outbox"
    id: int | None = Field(default=None, primary_key=True)
    season_id: int = Field(index=True)
    key: str = Field(unique=True)
    kind: str  # "post" | "pm" | "thread" | "note" | "edit"
    template: str = ""
    recipient: str | None = None
    subject: str = ""
    body: str = Field(sa_type=Text)
    status: str = Field(default="pending", index=True)
    forum_ref: int | None = Field(default=None, sa_type=BigInteger)
    conversation_id: int | None = Field(default=None, sa_type=BigInteger)
    attempts: int = 0
    last_error: str | None = Field(default=None, sa_type=Text)
    created_at: datetime = Field(default_factory=utcnow, sa_type=DateTime(timezone=True))
    last_attempt_at: datetime | None = Field(default=None, sa_type=DateTime(timezone=True))
    gave_up_at: datetime | None = Field(default=None, sa_type=DateTime(timezone=True))
    next_attempt_at: datetime | None = Field(default=None, sa_type=DateTime(timezone=True))  # a failed row's retry
    sent_at: datetime | None = Field(default=None, sa_type=DateTime(timezone=True))
    image_json: str | None = Field(default=None, sa_type=Text)
    image_ref: int | None = Field(default=None, sa_type=BigInteger)


class CursorRow(SQLModel, table=True):
    __tablename__ = "cursor"
    season_id: int = Field(primary_key=True)
    name: str = Field(primary_key=True)
    value: str = Field(sa_type=Text)


class SeasonLeaseRow(SQLModel, table=True):
    """Which ``forumbot serve`` worker or ``forumbot run`` process judges season ``season`` (its name) until
    ``expires_at`` (database time), since ``since``. ``epoch`` grows at each change of worker: a write under an older epoch is refused."""

    __tablename__ = "season_lease"
    season: str = Field(primary_key=True)
    worker: str
    epoch: int = Field(default=0, sa_type=BigInteger)
    expires_at: datetime = Field(sa_type=DateTime(timezone=True))
    archived: bool = False  # the season is over and delivered: no worker takes it again
    since: datetime | None = Field(default=None, sa_type=DateTime(timezone=True))  # when this holding began


class ServeWorkerRow(SQLModel, table=True):
    """A ``forumbot serve`` worker alive until ``expires_at`` (its heartbeat), for sharing the seasons."""

    __tablename__ = "serve_worker"
    worker: str = Field(primary_key=True)
    expires_at: datetime = Field(sa_type=DateTime(timezone=True))


class ForumPacingRow(SQLModel, table=True):
    """The write pacing of one judge account on one forum (``forum``: "base URL|username"), shared by the
    seasons and workers that write with it: the next write may start at ``next_write_at``; private
    messages wait until ``pm_hold_until`` (the forum's conversations-a-day limit was reached)."""

    __tablename__ = "forum_pacing"
    forum: str = Field(primary_key=True)
    next_write_at: datetime | None = Field(default=None, sa_type=DateTime(timezone=True))
    pm_hold_until: datetime | None = Field(default=None, sa_type=DateTime(timezone=True))


def make_engine(url: str) -> Engine:
    """An SQLAlchemy engine for ``url``; SQLite files get WAL and a busy timeout so the CLI can
    write organiser commands while the bot runs."""
    if url.startswith("sqlite"):
        private_sqlite_file(url)
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(conn, _record):  # pragma: no cover - trivial
            cur = conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")
            cur.close()

        return engine
    # A pool for a `forumbot serve` worker's season threads (each holds one connection at a time, two
    # while it writes to a paced forum): 50 at most, half PostgreSQL's default max_connections.
    return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=40)


def private_sqlite_file(url: str) -> None:
    """Make the SQLite file of ``url`` readable by its owner only (mode 0600): it holds the seed, the draw
    and every role PM. A new file is created 0600 before SQLite opens it (SQLite gives its -wal and -shm
    files the database file's mode); an existing file readable by others is tightened, with a warning,
    or a warning says to do it when the file is not ours to change."""
    database = make_url(url).database
    if not database or database == ":memory:" or database.startswith("file:"):
        return
    path = Path(database)
    if not path.exists():
        try:
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
        except OSError:
            return  # SQLite will say what is wrong with the path
        return
    for file in (path, Path(f"{path}-wal"), Path(f"{path}-shm"), Path(f"{path}-journal")):
        try:
            mode = stat.S_IMODE(file.stat().st_mode)
        except OSError:
            continue
        if not mode & 0o077:
            continue
        try:
            os.chmod(file, 0o600)
            log.warning("%s was readable by other users (mode %o): now 0600 (it holds the draw and the role PMs)",
                        file, mode)
        except OSError as exc:
            log.warning("%s is readable by other users (mode %o) and cannot be changed (%s): run chmod 600 on it; "
                        "it holds the draw and the role PMs", file, mode, exc.strerror)


def _aware_times(row: InboundRow) -> InboundRow:
    row.sent_at = aware(row.sent_at)
    row.earliest = aware(row.earliest) if row.earliest is not None else row.sent_at
    row.latest = aware(row.latest) if row.latest is not None else row.sent_at
    return row


class Store:
    """Access to one season's rows. Methods that write commit before they return."""

    def __init__(self, engine: Engine, season_id: int) -> None:
        self.engine = engine
        self.season_id = season_id
        #: called with the session before every commit of a write (``forumbot serve``: the worker's lease
        #: on the season is checked in the same transaction, and a lost lease raises there)
        self.guard: Callable[[Session], None] | None = None
        # The season's cursors as committed (name -> JSON text), read once: this store is the only writer of
        # its season's cursors (one bot a season; under `forumbot serve`, the lease holder's), and a poll
        # cycle reads them a dozen times. Written through at each commit, from the committing session's own
        # record (Session.info), so a write that fails before its commit leaves nothing behind in the cache.
        self._cursors: dict[str, str] | None = None

    def _commit(self, s: Session) -> None:
        if self.guard is not None:
            self.guard(s)
        s.commit()
        if self._cursors is not None:
            self._cursors.update(s.info.pop("cursors", {}))

    # --- season ---------------------------------------------------------------------------------------
    @staticmethod
    def open_season(engine: Engine, name: str, seed: str, setup: dict[str, Any]) -> Store:
        """The store of season ``name``, created with ``seed`` and ``setup`` if new."""
        with Session(engine, expire_on_commit=False) as s:
            row = s.exec(select(SeasonRow).where(SeasonRow.name == name)).first()
            if row is None:
                row = SeasonRow(name=name, seed=seed, setup_json=json.dumps(setup, ensure_ascii=False, sort_keys=True))
                s.add(row)
                s.commit()
                s.refresh(row)
            assert row.id is not None  # the database gave it one on commit
            return Store(engine, row.id)

    @staticmethod
    def find_season(engine: Engine, name: str) -> Store | None:
        with Session(engine, expire_on_commit=False) as s:
            row = s.exec(select(SeasonRow).where(SeasonRow.name == name)).first()
            return Store(engine, row.id) if row and row.id is not None else None

    def season(self) -> SeasonRow:
        with Session(self.engine, expire_on_commit=False) as s:
            row = s.get(SeasonRow, self.season_id)
            assert row is not None  # a Store is made for a stored season only
            return row

    def set_setup(self, setup: dict[str, Any]) -> None:
        """Replace the stored setup (players, draw, ...) of a season that has not started."""
        with Session(self.engine, expire_on_commit=False) as s:
            row = s.get(SeasonRow, self.season_id)
            assert row is not None
            row.setup_json = json.dumps(setup, ensure_ascii=False, sort_keys=True)
            s.add(row)
            self._commit(s)

    def set_thread(self, thread_id: int) -> None:
        with Session(self.engine, expire_on_commit=False) as s:
            row = s.get(SeasonRow, self.season_id)
            assert row is not None
            row.thread_id = thread_id
            s.add(row)
            self._commit(s)

    # --- inbound --------------------------------------------------------------------------------------
    def store_inbound(self, rows: Iterable[InboundRow], cursors: dict[str, Any], outbox: Iterable[OutboxRow] = ()) -> int:
        """Store newly read messages (duplicates by (source, forum_id) are skipped), the polling cursors and
        answers made as they are read (``outbox``: keys already queued are skipped), in one transaction;
        returns how many messages were new."""
        new = 0
        with Session(self.engine, expire_on_commit=False) as s:
            for o in outbox:
                if s.exec(select(OutboxRow.id).where(OutboxRow.key == o.key)).first() is None:
                    o.season_id = self.season_id
                    s.add(o)
            for row in rows:
                exists = s.exec(
                    select(InboundRow.id).where(
                        InboundRow.season_id == self.season_id, InboundRow.source == row.source,
                        InboundRow.forum_id == row.forum_id,
                    )
                ).first()
                if exists is None:
                    row.season_id = self.season_id
                    s.add(row)
                    new += 1
            for name, value in cursors.items():
                self._put_cursor(s, name, value)
            self._commit(s)
        return new

    def next_cli_id(self) -> int:
        with Session(self.engine, expire_on_commit=False) as s:
            rows = s.exec(select(InboundRow.forum_id).where(InboundRow.season_id == self.season_id, InboundRow.source == "cli")).all()
            return max(rows, default=0) + 1

    def unapplied(self) -> list[InboundRow]:
        """Inbound rows not yet applied, in the order they are applied: forum time, then id."""
        with Session(self.engine, expire_on_commit=False) as s:
            rows = s.exec(
                select(InboundRow).where(InboundRow.season_id == self.season_id, InboundRow.input_seq == None)  # noqa: E711
            ).all()
        for r in rows:
            _aware_times(r)
        return sorted(rows, key=lambda r: (r.earliest, r.id))

    def inbound(self, inbound_id: int) -> InboundRow:
        with Session(self.engine, expire_on_commit=False) as s:
            row = s.get(InboundRow, inbound_id)
            assert row is not None, f"no inbound row {inbound_id}"
            return _aware_times(row)

    def last_earliest(self, source: str) -> datetime | None:
        """The earliest instant of the newest stored item of ``source`` (by forum id), or None."""
        with Session(self.engine, expire_on_commit=False) as s:
            row = s.exec(
                select(InboundRow).where(InboundRow.season_id == self.season_id, InboundRow.source == source)
                .order_by(col(InboundRow.forum_id).desc())
            ).first()
        return _aware_times(row).earliest if row is not None else None

    # --- inputs ---------------------------------------------------------------------------------------
    def inputs(self) -> list[tuple[InputRow, InboundRow | None]]:
        """Every input in order, with its inbound row."""
        with Session(self.engine, expire_on_commit=False) as s:
            rows = s.exec(select(InputRow).where(InputRow.season_id == self.season_id).order_by(col(InputRow.seq))).all()
            out = []
            for r in rows:
                r.at = aware(r.at)
                inbound = s.get(InboundRow, r.inbound_id) if r.inbound_id is not None else None
                if inbound is not None:
                    _aware_times(inbound)
                out.append((r, inbound))
            return out

    def commit_input(self, row: InputRow, outbox: list[OutboxRow], cursors: dict[str, Any] | None = None,
                     cancel_to: Iterable[str] = ()) -> None:
        """Append one input, mark its inbound row applied, and queue its outbox rows: one transaction.
        Private messages still waiting for recipients in ``cancel_to`` (players replaced by this input)
        are cancelled in the same transaction."""
        with Session(self.engine, expire_on_commit=False) as s:
            for name in cancel_to:
                waiting = s.exec(select(OutboxRow).where(
                    OutboxRow.season_id == self.season_id, OutboxRow.kind == "pm", OutboxRow.recipient == name,
                    col(OutboxRow.status).in_(("pending", "failed")))).all()
                for o in waiting:
                    o.status, o.next_attempt_at = "cancelled", None
                    o.last_error = "the player was replaced before it was delivered"
                    s.add(o)
            row.season_id = self.season_id
            s.add(row)
            if row.inbound_id is not None:
                inbound = s.get(InboundRow, row.inbound_id)
                assert inbound is not None  # stored before it was acted on
                inbound.input_seq = row.seq
                s.add(inbound)
            for o in outbox:
                o.season_id = self.season_id
                s.add(o)
            for name, value in (cursors or {}).items():
                self._put_cursor(s, name, value)
            self._commit(s)

    # --- outbox ---------------------------------------------------------------------------------------
    def queue(self, rows: list[OutboxRow], cursors: dict[str, Any] | None = None) -> None:
        """Queue rows not tied to an input (reminders, delivery reports); keys already queued are skipped."""
        with Session(self.engine, expire_on_commit=False) as s:
            for o in rows:
                if s.exec(select(OutboxRow.id).where(OutboxRow.key == o.key)).first() is None:
                    o.season_id = self.season_id
                    s.add(o)
            for name, value in (cursors or {}).items():
                self._put_cursor(s, name, value)
            self._commit(s)

    def outbox(self, statuses: tuple[str, ...] | None = None) -> list[OutboxRow]:
        """Outbox rows in delivery order (optionally only those with one of ``statuses``)."""
        with Session(self.engine, expire_on_commit=False) as s:
            q = select(OutboxRow).where(OutboxRow.season_id == self.season_id)
            if statuses:
                q = q.where(col(OutboxRow.status).in_(statuses))
            return list(s.exec(q.order_by(col(OutboxRow.id))).all())

    def outbox_counts(self) -> dict[str, int]:
        """How many outbox rows have each status."""
        from sqlalchemy import func

        with Session(self.engine) as s:
            rows = s.exec(select(OutboxRow.status, func.count()).where(OutboxRow.season_id == self.season_id)
                          .group_by(col(OutboxRow.status))).all()
            return {status: int(n) for status, n in rows}

    def update_outbox(self, row_id: int, **values: Any) -> None:
        with Session(self.engine, expire_on_commit=False) as s:
            row = s.get(OutboxRow, row_id)
            for k, v in values.items():
                setattr(row, k, v)
            s.add(row)
            self._commit(s)

    def claim_outbox(self, row: OutboxRow, at: datetime) -> bool:
        """Claim ``row`` for an attempt at ``at`` (status ``sending``, one attempt more, ``last_attempt_at``
        ``at``, ``gave_up_at`` cleared), only if it is still as it was read: the same status and number of
        attempts (a compare-and-set, with the store's :attr:`guard` in the same transaction). False, and
        nothing written, when another process claimed, sent or settled it since: the caller must not send
        it. Raises what the guard raises (``forumbot serve``: a lost lease)."""
        from sqlalchemy import update

        assert row.id is not None  # a stored outbox row
        with Session(self.engine, expire_on_commit=False) as s:
            changed = s.connection().execute(
                update(OutboxRow).where(col(OutboxRow.id) == row.id, col(OutboxRow.status) == row.status,
                                        col(OutboxRow.attempts) == row.attempts)
                .values(status="sending", attempts=row.attempts + 1, last_attempt_at=at, gave_up_at=None)
            ).rowcount
            if changed != 1:
                s.rollback()
                return False
            self._commit(s)
        return True

    def set_body_and_cursor(self, row_id: int, body: str, name: str, value: Any) -> None:
        """Store the text an outbox row is about to be sent with, and a cursor, in one transaction."""
        with Session(self.engine, expire_on_commit=False) as s:
            row = s.get(OutboxRow, row_id)
            assert row is not None
            row.body = body
            s.add(row)
            self._put_cursor(s, name, value)
            self._commit(s)

    # --- cursors --------------------------------------------------------------------------------------
    def cursor(self, name: str, default: Any = None) -> Any:
        """Cursor ``name`` (a fresh copy: callers may change it), or ``default``."""
        if self._cursors is None:
            with Session(self.engine, expire_on_commit=False) as s:
                rows = s.exec(select(CursorRow).where(CursorRow.season_id == self.season_id)).all()
                self._cursors = {r.name: r.value for r in rows}
        text = self._cursors.get(name)
        return json.loads(text) if text is not None else default

    def set_cursor(self, name: str, value: Any) -> None:
        with Session(self.engine, expire_on_commit=False) as s:
            self._put_cursor(s, name, value)
            self._commit(s)

    def _put_cursor(self, s: Session, name: str, value: Any) -> None:
        text = json.dumps(value, ensure_ascii=False, default=str)
        if self._cursors is not None and self._cursors.get(name) == text and name not in s.info.get("cursors", {}):
            return  # committed already with this value (the cache holds what is committed)
        row = s.get(CursorRow, (self.season_id, name))
        s.info.setdefault("cursors", {})[name] = text
        if row is None:
            s.add(CursorRow(season_id=self.season_id, name=name, value=text))
        else:
            row.value = text
            s.add(row)

"""A season as the console holds it between pages: its read-only bot, the game replayed with every step kept (the
report's :class:`~forumbot.report.log.GameLog`), and what the pages worked out from them, brought up to date with
the database at each page.

The judging process appends inputs; the console applies the new ones to the bot it holds, exactly as
:meth:`forumbot.runtime.bot.Bot._rebuild` applies each stored input (the bot's own step, kept as the log's
record), instead of replaying 2,000 inputs at every new message. A change that is not an input (a post sent, a poll
time) only refreshes what is read from the store. Anything unexpected (inputs rewritten, fewer than before) builds
the bot anew.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session, col, select

from forumbot.report.log import GameLog, Record
from forumbot.runtime.store import InboundRow, InputRow, OutboxRow, Store, aware


@dataclass
class Loaded:
    """``bot`` (no forum), ``log`` (its game's steps, one record an input), ``mark`` (the database's
    :func:`~forumbot.console.source.fingerprint` they are up to date with) and ``views``: what pages computed
    for a mark (name -> (mark, value)); ``readings``: inbound id -> how it was read (fixed once applied)."""

    bot: Any
    log: GameLog
    mark: tuple[Any, ...]
    views: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    readings: dict[int, Any] = field(default_factory=dict)

    def derived(self, name: str, compute: Callable[[Loaded], Any]) -> Any:
        """``compute(self)``, once per mark."""
        held = self.views.get(name)
        if held is None or held[0] != self.mark:
            held = self.views[name] = (self.mark, compute(self))
        return held[1]


def inputs_from(store: Store, start: int) -> list[tuple[InputRow, InboundRow | None]]:
    """The season's inputs from seq ``start`` on, with their inbound rows, in one query."""
    with Session(store.engine, expire_on_commit=False) as s:
        rows = s.exec(select(InputRow, InboundRow).join(InboundRow, col(InboundRow.id) == col(InputRow.inbound_id), isouter=True)
                      .where(InputRow.season_id == store.season_id, col(InputRow.seq) >= start)
                      .order_by(col(InputRow.seq))).all()
    out: list[tuple[InputRow, InboundRow | None]] = []
    for row, inbound in rows:
        row.at = aware(row.at)
        if inbound is not None:
            inbound.sent_at = aware(inbound.sent_at)
            inbound.earliest = aware(inbound.earliest) if inbound.earliest is not None else inbound.sent_at
            inbound.latest = aware(inbound.latest) if inbound.latest is not None else inbound.sent_at
        out.append((row, inbound))
    return out


def load(bot: Any, mark: tuple[Any, ...]) -> Loaded:
    """A season freshly opened (``bot`` just built), its steps replayed once (:func:`forumbot.report.log.from_bot`'s
    replay, reading the inputs in one query)."""
    from forumbot.report.log import replayed

    _, records = replayed(bot, inputs_from(bot.store, 0))
    loaded = Loaded(bot, GameLog(bot.game, records, bot.config.locale, bot.config.name, tz=bot.config.tz,
                                  time_zone_label=bot.config.time_zone_label), mark)
    _times(loaded)
    return loaded


def catch_up(loaded: Loaded, mark: tuple[Any, ...]) -> bool:
    """Apply the inputs stored since ``loaded`` was up to date to its bot (its steps kept in its log) and read the
    store afresh; False (nothing changed) when the inputs are not the ones it had plus new ones: build it anew."""
    bot = loaded.bot
    have = len(loaded.log.records)
    if mark[0] < have or bot.seq != have:
        return False
    for row, inbound in inputs_from(bot.store, have):
        if row.seq != bot.seq:
            return False
        step = bot._step(row.kind, row.at, inbound, row.phase_id, aware(row.opened_at) if row.opened_at else None,
                         seq=row.seq)
        bot.seq = row.seq + 1
        loaded.log.records.append(Record(bot.step_phase, step))
    # the cursors (poll times, reminders) are read once a store: a fresh one reads what the judge wrote since
    bot.store = Store(bot.store.engine, bot.store.season_id)
    loaded.mark = mark
    _times(loaded)
    return True


def _times(loaded: Loaded) -> None:
    """Each phase's opening and deadline, as :func:`forumbot.report.log.from_bot` gives them."""
    import contextlib

    bot = loaded.bot
    loaded.log.opened_at = dict(bot.timing.opened_at)
    deadlines = {}
    for pid in loaded.log.opened_at:
        if pid < len(bot.game.phases):
            with contextlib.suppress(KeyError, ValueError):
                deadlines[pid] = bot._scheduled_deadline(pid)
    loaded.log.deadlines = deadlines


#: the outbox columns the pages show
_OUTBOX = (OutboxRow.id, OutboxRow.key, OutboxRow.kind, OutboxRow.template, OutboxRow.recipient, OutboxRow.subject,
           OutboxRow.body, OutboxRow.status, OutboxRow.attempts, OutboxRow.last_error, OutboxRow.sent_at)
_INBOUND = (InboundRow.id, InboundRow.source, InboundRow.forum_id, InboundRow.sender, InboundRow.sent_at,
            InboundRow.subject, InboundRow.text, InboundRow.input_seq)


def outbox(loaded: Loaded) -> list[Any]:
    """The season's outbox rows (the columns pages show, as plain rows: no ORM objects for 4,000 rows), in
    delivery order; once per change of the database."""
    def read(held: Loaded) -> list[Any]:
        store = held.bot.store
        with Session(store.engine) as s:
            return list(s.exec(select(*_OUTBOX).where(OutboxRow.season_id == store.season_id)  # type: ignore[call-overload]
                               .order_by(col(OutboxRow.id))).all())
    rows: list[Any] = loaded.derived("outbox", read)
    return rows


def inbound(loaded: Loaded) -> list[Any]:
    """The season's inbound rows (plain rows), newest first; once per change of the database."""
    def read(held: Loaded) -> list[Any]:
        store = held.bot.store
        with Session(store.engine) as s:
            return list(s.exec(select(*_INBOUND).where(InboundRow.season_id == store.season_id)  # type: ignore[call-overload]
                               .order_by(col(InboundRow.id).desc())).all())
    rows: list[Any] = loaded.derived("inbound", read)
    return rows

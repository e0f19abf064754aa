"""What the organiser's page of one season shows besides its overview: the players with their roles, who still owes
an action (:meth:`forumbot.engine.ruleset.Ruleset.pending`, which an organiser may know), warnings and penalties,
the bot's thread posts, the outbox and the answers to organiser commands. The inbound log is
:mod:`forumbot.console.inbound_log`'s."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from forumbot.console.loaded import outbox
from forumbot.plain_text import plain

#: how many sent rows the outbox part shows (every row not sent is shown)
SENT_SHOWN = 50


@dataclass
class PlayerRow:
    seat: int
    name: str
    role: str
    alive: bool
    out_reason: str | None
    pending: bool


@dataclass
class Details:
    """The season's players, ``warnings`` (name, what: "warning" or "penalty", round or reason), ``posts`` (the
    bot's thread posts, newest first), ``outbox`` (rows not sent, then the newest :data:`SENT_SHOWN` sent ones;
    rows of :func:`forumbot.console.loaded.outbox`, their text as the forum takes it: pages show it with
    :func:`forumbot.plain_text.plain`), ``notes`` (answers to organiser commands, plain text, newest first)."""

    players: list[PlayerRow] = field(default_factory=list)
    warnings: list[tuple[str, str, str]] = field(default_factory=list)
    posts: list[Any] = field(default_factory=list)
    outbox: list[Any] = field(default_factory=list)
    outbox_total: int = 0
    notes: list[str] = field(default_factory=list)


def details(loaded: Any) -> Details:
    """The details of the season (a :class:`~forumbot.console.loaded.Loaded`), once per change of the database."""
    result: Details = loaded.derived("details", _build)
    return result


def _build(loaded: Any) -> Details:
    bot = loaded.bot
    g = bot.game
    d = Details()
    pending = set(g.ruleset.pending()) if bot.started and not g.finished else set()
    d.players = [PlayerRow(p.seat, p.name, p.role, p.alive, p.out_reason, p.seat in pending) for p in g.players]
    if bot.started:
        for record in loaded.log.records:
            phase = g.phases[record.phase_id] if record.phase_id < len(g.phases) else None
            for e in record.step.events:
                data = e.data
                if e.kind == "organiser_penalty":
                    d.warnings.append((g.name(data["seat"]), "penalty", str(data.get("reason", ""))))
                elif isinstance(data.get("warned"), list):
                    d.warnings += [(g.name(s), "warning", str(phase.round if phase else "")) for s in data["warned"]]
    markup = bot.config.effective_markup
    rows = outbox(loaded)
    d.posts = [o for o in reversed(rows) if o.kind in ("thread", "post", "edit")]
    d.notes = [plain(o.body, markup) for o in reversed(rows) if o.status == "note"][:20]
    real = [o for o in rows if o.status != "note"]
    d.outbox_total = len(real)
    unsent = [o for o in real if o.status != "sent"]
    sent = [o for o in real if o.status == "sent"][-SENT_SHOWN:]
    d.outbox = unsent + list(reversed(sent))
    return d

"""A phase's clock starts when players can see it (issue 24): when the post(s) opening it are on the forum.

- **The visible instant.** The deadline of a phase is the schedule's rule (:func:`phase_deadline`: its length,
  ``daily_deadline``, extensions, time paused) counted from the instant the last post of the input that opened
  it was written — the attempt at it, rounded up to a whole second (posts show whole seconds). The instant is
  fixed right before each attempt (:meth:`PhaseClock.body_for`) and stored with the text sent (cursor
  ``visible``), so a restart gives the same deadline and a post found after a crash is recognised by its text.
  A phase whose input made no post is visible when it opened. Until every opening post is out (sent, or given
  up: refused for good), the phase has no deadline: it cannot pass and no reminder is due.
- **The prologue** is visible when its thread (or opening post) *and* every role private message of the start
  are out: the start's posts are held (:meth:`PhaseClock.held`) while one of its private messages is pending
  or being sent. A refused one does not hold them (the organiser is told by the failure path).
- **Nothing names a deadline before the thread shows it.** A text rendered while its phase is not visible
  names the deadline by a placeholder (:func:`placeholder`); a row holding one waits (held) until the phase is
  visible, and the placeholder is replaced by the deadline the thread shows right before its attempt.

Seasons started before this rule stored ``post_delay`` (phase id -> seconds the deadline moved): a phase
found there keeps the deadline it was posted with.
"""

from __future__ import annotations

import logging
import re
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from forumbot.language.numbers import parse_duration
from forumbot.runtime.schedule import phase_deadline
from forumbot.runtime.store import OutboxRow

if TYPE_CHECKING:
    from forumbot.runtime.bot import Bot

log = logging.getLogger("forumbot")

#: the cursor holding each phase's visible instant: ``{pid: {"at": ISO, "row": outbox id, "text": deadline shown}}``
CURSOR = "visible"
#: the cursor of seasons judged before (phase id -> seconds its deadline moved): kept as it was posted
LEGACY_CURSOR = "post_delay"
#: statuses of a row still on its way (an opening post not yet on the forum; a role PM not yet out)
ON_ITS_WAY = ("pending", "sending")
_PLACEHOLDER = re.compile(r"⟦deadline:(\d+)⟧")
_AFTER = re.compile(r"⟦after:(\d+)⟧")


def placeholder(pid: int) -> str:
    """What a text rendered before phase ``pid`` is visible says in place of its deadline (never sent: it
    is replaced right before the row's attempt)."""
    return f"⟦deadline:{pid}⟧"


def placeholders(body: str) -> set[int]:
    """The phase ids whose deadline ``body`` names by placeholder."""
    return {int(m) for m in _PLACEHOLDER.findall(body)}


def after(pid: int) -> str:
    """A mark at the head of a text that must not reach anyone before phase ``pid`` is visible (a late notice:
    the round it names closed, which the thread shows with the next phase's post); removed before sending."""
    return f"⟦after:{pid}⟧"


def whole_second(when: datetime) -> datetime:
    """``when`` rounded up to a whole second (a deadline as posts show it, never before the post)."""
    return when if not when.microsecond else when.replace(microsecond=0) + timedelta(seconds=1)


def _seq_of(row: OutboxRow) -> int | None:
    """The input (seq) whose step queued ``row`` (keys ``season:seq:index``), else None (reminders...)."""
    parts = row.key.split(":")
    return int(parts[1]) if len(parts) == 3 and parts[1].isdigit() else None


class PhaseClock:
    """The visible instants and deadlines of ``bot``'s phases, and the two delivery hooks built on them."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self._settled: set[int] = set()  # phases whose opening posts are all out (final: cached)

    # --- which rows open a phase ----------------------------------------------------------------------
    def opening_rows(self, seq: int, statuses: tuple[str, ...] | None = None) -> list[OutboxRow]:
        """The posts (and new thread) queued by input ``seq``, in order."""
        prefix = f"{self.bot.store.season_id}:{seq}:"
        return [r for r in self.bot.store.outbox(statuses) if r.key.startswith(prefix) and r.kind in ("post", "thread")]

    def _phase_opened_by(self, seq: int) -> int | None:
        """The phase input ``seq`` left open (the last it opened), if it opened one."""
        phases = [pid for pid, s in self.bot.opened_by.items() if s == seq]
        return max(phases) if phases else None

    def _out(self, row: OutboxRow) -> bool:
        """Whether ``row`` is out: sent, or given up (refused with no retry left, undeliverable, cancelled)."""
        if row.status in ON_ITS_WAY:
            return False
        return not (row.status == "failed" and row.next_attempt_at is not None)

    # --- the visible instant and the deadline -----------------------------------------------------------
    def visible_at(self, pid: int) -> datetime | None:
        """When phase ``pid`` became visible (UTC, whole seconds for a post), or None while its opening posts
        are not all out (or its input is being committed)."""
        bot = self.bot
        seq = bot.opened_by.get(pid)
        if seq is None:
            return bot.timing.opened_at.get(pid)
        if seq >= bot.seq:
            return None  # its input is being applied: its posts are not even queued yet
        entry = bot.store.cursor(CURSOR, {}).get(str(pid))
        if pid not in self._settled:
            rows = self.opening_rows(seq)
            if any(not self._out(r) for r in rows):
                return None
            self._settled.add(pid)
            if not rows:
                return bot.timing.opened_at[pid]
        if entry is not None:
            return datetime.fromisoformat(entry["at"])
        legacy = bot.store.cursor(LEGACY_CURSOR, {}).get(str(pid))
        if legacy is not None:
            return bot.timing.opened_at[pid] + timedelta(seconds=legacy)
        rows = self.opening_rows(seq)
        sent = [r.sent_at for r in rows if r.sent_at is not None]
        return whole_second(max(sent)) if sent else bot.timing.opened_at[pid]

    def deadline_of(self, pid: int, visible: datetime | None = None) -> datetime | None:
        """Phase ``pid``'s deadline by the schedule counted from ``visible`` (default: its visible instant;
        None while it is not visible). Legacy phases (``post_delay``) keep the deadline they were posted with:
        the schedule from their opening, moved by the stored delay."""
        bot = self.bot
        if visible is None:
            visible = self.visible_at(pid)
            if visible is None:
                return None
        sch, t = bot.config.schedule, bot.timing
        kind = bot.game.phases[pid].kind
        extra = t.extra.get(pid, timedelta(0))
        legacy = bot.store.cursor(LEGACY_CURSOR, {}).get(str(pid))
        if legacy is not None and str(pid) not in bot.store.cursor(CURSOR, {}):
            opened = t.opened_at[pid]
            return phase_deadline(opened, sch.length(kind), bot.config.tz, sch.daily_at(kind), extra) + \
                timedelta(seconds=legacy)
        return phase_deadline(visible, sch.length(kind), bot.config.tz, sch.daily_at(kind), extra)

    def _shown(self, when: datetime) -> str:
        return self.bot.config.shown_time(when)

    # --- the delivery hooks ---------------------------------------------------------------------------
    def held(self, row: OutboxRow) -> bool:
        """Whether ``row`` waits for the game's clock: a post of the start while one of its private messages
        is on its way (the prologue starts when both are out), or a text naming the deadline of a phase that is
        not visible yet (other than that phase's own opening posts) or marked to wait for it (:func:`after`)."""
        bot = self.bot
        seq = _seq_of(row)
        if row.kind in ("post", "thread") and seq == 0:
            prefix = f"{bot.store.season_id}:0:"
            if any(r.kind == "pm" and r.key.startswith(prefix) for r in bot.store.outbox(ON_ITS_WAY)):
                return True
        if any(self.visible_at(int(p)) is None for p in _AFTER.findall(row.body)):
            return True
        for pid in placeholders(row.body):
            own = row.kind in ("post", "thread") and seq is not None and bot.opened_by.get(pid) == seq
            if not own and self.visible_at(pid) is None:
                return True
        return False

    def body_for(self, row: OutboxRow) -> str:
        """The text to send for ``row``, fixed right before an attempt: an opening post fixes its phase's
        visible instant (now) when it is the last post opening it, or the first to name the deadline; every
        placeholder is replaced by the deadline the thread shows. What changed is stored before the attempt
        (the text with the instant, in one transaction)."""
        bot = self.bot
        body = _AFTER.sub("", row.body)
        visible = dict(bot.store.cursor(CURSOR, {}))
        changed = False
        seq = _seq_of(row)
        pid = self._phase_opened_by(seq) if seq is not None and row.kind in ("post", "thread") else None
        if pid is not None and not (str(pid) not in visible and str(pid) in bot.store.cursor(LEGACY_CURSOR, {})):
            # (a phase posted by a release before this rule keeps the deadline it was posted with)
            rows = self.opening_rows(seq)  # type: ignore[arg-type]  # seq is set when pid is
            entry = visible.get(str(pid))
            mine = entry is not None and entry.get("row") == row.id
            earlier = entry is not None and not mine and int(entry.get("row") or 0) < (row.id or 0)
            last = bool(rows) and rows[-1].id == row.id
            if (last or mine or pid in placeholders(body)) and not earlier:
                at = whole_second(bot.clock())
                dl = self.deadline_of(pid, at)
                assert dl is not None  # counted from a given instant
                text = self._shown(dl)
                if mine and entry is not None and entry.get("text") and entry["text"] != text:
                    body = body.replace(entry["text"], text)  # the text of an earlier attempt
                elif entry is None and pid not in placeholders(body):
                    # a body rendered by a release before this rule names the deadline by the schedule
                    old = self.deadline_of(pid, bot.timing.opened_at[pid])
                    if old is not None and old != dl:
                        body = body.replace(self._shown(old), text)
                visible[str(pid)] = {"at": at.isoformat(), "row": row.id, "text": text}
                changed = True
                late = (at - bot.timing.opened_at[pid]).total_seconds()
                usual = (parse_duration(bot.config.schedule.poll_interval) + parse_duration(bot.config.schedule.grace))
                # later than a poll and grace (a backlog, a forum refusing writes) is worth a line at INFO
                log.log(logging.INFO if late > usual.total_seconds() else logging.DEBUG,
                        "the post opening phase %d goes out %.0f s after the phase opened: its deadline is counted "
                        "from the post", pid, late)
        for p in sorted(placeholders(body)):
            dl = self.deadline_of(p) if p != pid else self.deadline_of(p, datetime.fromisoformat(visible[str(p)]["at"])
                                                                       if str(p) in visible else None)
            if dl is None:  # not visible (a caller that did not ask held()): the earliest it can be
                dl = self.deadline_of(p, whole_second(bot.clock()))
            assert dl is not None
            body = body.replace(placeholder(p), self._shown(dl))
        if body != row.body or changed:
            assert row.id is not None  # a stored outbox row
            bot.store.set_body_and_cursor(row.id, body, CURSOR, visible)
            row.body = body
        return body

    def context_deadline(self) -> dict[str, Any]:
        """What templates see as ``deadline`` now: the current phase's deadline as the thread shows it, its
        placeholder while the phase is not visible (replaced before the row's attempt), or nothing (over,
        paused, not started)."""
        bot = self.bot
        g = bot.game
        if not bot.started or g.finished or bot.timing.paused_since is not None:
            return {}
        dl = self.deadline_of(g.phase.id)
        return {"deadline": self._shown(dl) if dl is not None else placeholder(g.phase.id)}

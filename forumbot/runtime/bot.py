"""The bot: one season on one forum, run as a human judge would, with nothing lost and nothing doubled.

One :meth:`Bot.cycle` reads the forum (new private messages and thread posts are stored before
anything is done with them), applies every input that is due in order — messages by the forum's own
timestamp, a phase's deadline only after a read of the forum that began after it — queues what the
game produced in the outbox in the same transaction as the input, and delivers the outbox in order.
The game is rebuilt from the stored inputs on start, so a crash at any instant followed by a restart
gives the same game and the same posts as a run without the crash.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from forumbot.config import SeasonConfig
from forumbot.engine.game import Game
from forumbot.engine.types import Deadline, Message, Post, Reply, Step
from forumbot.forums.base import Forum
from forumbot.forums.errors import ForumError
from forumbot.migrations import upgrade
from forumbot.render import Renderer
from forumbot.runtime.schedule import format_local, parse_duration, phase_deadline
from forumbot.runtime.store import InboundRow, InputRow, OutboxRow, Store, aware, make_engine
from forumbot.runtime.delivery import Delivery
from forumbot.runtime.season_edits import as_started, check_after_replacements
from forumbot.runtime.timing import Timing

log = logging.getLogger("forumbot")

CLI = "@cli"


def utcnow() -> datetime:
    return datetime.now(UTC)


class Bot:
    """One season. ``forum``: a logged-in-on-demand adapter; ``clock``: UTC now (tests inject one)."""

    def __init__(self, config: SeasonConfig, forum: Forum, clock: Callable[[], datetime] = utcnow, engine: Any = None) -> None:
        self.config = config
        self.forum = forum
        self.clock = clock
        self.db = engine if engine is not None else make_engine(config.database_url)
        upgrade(self.db)
        self.renderer = Renderer(config.locale, config.effective_markup, config.template_dir)
        seed = str(config.seed) if config.seed is not None else secrets.token_hex(8)
        fingerprint_ = self._setup_fingerprint()
        self.store = Store.open_season(self.db, config.name, seed, fingerprint_)
        season = self.store.season()
        stored = json.loads(season.setup_json)
        if stored != fingerprint_:
            if self.store.inputs():
                self.config = as_started(config, stored, fingerprint_)  # the game replays as it started
            else:
                self.store.set_setup(fingerprint_)  # not started yet: the file may still change
        self.seed = season.seed
        self.thread_id = season.thread_id or config.forum.thread_id
        self.delivery = Delivery(self)
        self._rebuild()
        if self.config is not config:
            check_after_replacements(config, stored, [p.name for p in self.game.players])

    def _setup_fingerprint(self) -> dict[str, Any]:
        c = self.config
        return {"ruleset": c.ruleset, "players": c.players, "params": c.params, "roles": c.roles,
                "organisers": c.organisers, "aliases": c.aliases}

    # --- the game, rebuilt from stored inputs ------------------------------------------------------
    def _rebuild(self) -> None:
        self.game = Game(self.config.setup(self.seed))
        self.timing = Timing()
        self.seq = 0
        self.started = False
        for row, inbound in self.store.inputs():
            self._step(row.kind, aware(row.at), inbound, row.phase_id, aware(row.opened_at) if row.opened_at else None)
            self.seq = row.seq + 1

    def _step(self, kind: str, at: datetime, inbound: InboundRow | None = None, phase_id: int | None = None,
              opened_at: datetime | None = None) -> Step:
        if kind == "start":
            step = self.game.start()
            self.started = True
        elif kind == "deadline":
            step = self.game.apply(Deadline(phase_id))
        else:
            assert inbound is not None
            channel = "thread" if inbound.source == "thread" else "pm"
            sender = CLI if inbound.source == "cli" else inbound.sender
            step = self.game.apply(Message(sender, inbound.text, channel))
        self.timing.observe(kind, at, step, self.game, opened_at)
        return step

    def deadline(self) -> datetime | None:
        """The current phase's deadline (UTC), or None when the game is over, paused or not started."""
        g, t = self.game, self.timing
        if not self.started or g.finished or t.paused_since is not None:
            return None
        sch = self.config.schedule
        return phase_deadline(
            t.opened_at[g.phase.id], sch.length(g.phase.kind), self.config.tz, sch.daily_at(g.phase.kind),
            t.extra.get(g.phase.id, timedelta(0)),
        )

    def start_time(self) -> datetime:
        """When the season starts (the configured start, else the first time the bot runs)."""
        configured = self.config.start_utc()
        if configured is not None:
            return configured
        first = self.store.cursor("first_run")
        return datetime.fromisoformat(first) if first else self.clock()

    # --- one cycle ---------------------------------------------------------------------------------
    def cycle(self) -> None:
        """Read the forum, apply what is due, deliver the outbox. Forum errors are logged and the
        work left for the next cycle; nothing is lost."""
        now = self.clock()
        if not self.started:
            if self.store.cursor("first_run") is None:
                self.store.set_cursor("first_run", now.isoformat())
            if now < self.start_time():
                return
            try:
                self.forum.login()  # draw no roles and promise no deadline before the forum answers
            except ForumError as exc:
                log.error("the season cannot start yet: %s", exc)
                return
            self._start()
        self._poll()
        self._advance()
        self._deliver()

    def _start(self) -> None:
        at = self.start_time()
        step = self._step("start", at)
        rows = self._outbox_rows(step, 0)
        self._commit(InputRow(seq=0, kind="start", at=at), rows)
        # INFO is shared with players: how many private messages a step makes can tell the teams.
        log.info("season %s started: %d players, %d posts queued", self.config.name, len(self.game.players), len(step.posts))
        log.debug("season %s started: %d private messages queued", self.config.name, len(step.replies))

    def _commit(self, row: InputRow, rows: list[OutboxRow], cursors: dict[str, Any] | None = None) -> None:
        try:
            self.store.commit_input(row, rows, cursors)
        except Exception:
            self._rebuild()  # the game in memory ran ahead of the database: take it back
            raise
        self.seq = row.seq + 1

    def _poll(self) -> bool:
        began = self.clock()
        try:
            pm_after = self.store.cursor("pm_after")
            post_after = self.store.cursor("post_after")
            cursor = self.store.cursor("forum_cursor")
            if cursor:
                self.forum.import_cursor(cursor)
            pms = self.forum.private_messages(pm_after)
            posts = self.forum.thread_posts(self.thread_id, post_after) if self.thread_id else []
        except ForumError as exc:
            log.warning("poll failed: %s", exc)
            return False
        judge = self.config.forum.username
        rows = [InboundRow(season_id=0, source="pm", forum_id=m.message_id, sender=m.sender, sent_at=m.time_utc,
                           subject=m.subject, text=m.body) for m in pms if m.sender != judge]
        rows += [InboundRow(season_id=0, source="thread", forum_id=p.post_id, sender=p.author, sent_at=p.time_utc,
                            text=p.text, edited=p.edited) for p in posts if p.author != judge]
        cursors: dict[str, Any] = {"polled_at": began.isoformat(), "forum_cursor": self.forum.export_cursor()}
        if pms:
            cursors["pm_after"] = max(m.message_id for m in pms)
        if posts:
            cursors["post_after"] = max(p.post_id for p in posts)
        new = self.store.store_inbound(rows, cursors)
        if new:
            log.info("poll: %d new (%d private messages, %d thread posts)", new,
                     sum(r.source == "pm" for r in rows), sum(r.source == "thread" for r in rows))
        return True

    def polled_at(self) -> datetime | None:
        value = self.store.cursor("polled_at")
        return datetime.fromisoformat(value) if value else None

    # --- applying inputs in order ------------------------------------------------------------------
    def _advance(self) -> None:
        grace = parse_duration(self.config.schedule.grace)
        while self.started:
            now, polled = self.clock(), self.polled_at()
            pending = self.store.unapplied()
            nxt = pending[0] if pending else None
            dl = self.deadline()
            tick = self._next_reminder(dl)
            events: list[tuple[datetime, int, str]] = []
            if nxt is not None:
                events.append((nxt.sent_at, 1, "message"))
            if tick is not None:
                events.append((tick[0], 0, "reminder"))
            if dl is not None:
                events.append((dl, 2, "deadline"))
            if not events:
                return
            at, _, what = min(events)
            if what == "message":
                self._apply_message(nxt)
                continue
            if now < at or polled is None or polled < at + grace:
                return  # the forum has not been read since this instant: wait
            if what == "reminder":
                self._remind(tick[1], tick[2], dl)
            else:
                self._apply_deadline(dl)

    def _apply_message(self, inbound: InboundRow) -> None:
        seq = self.seq
        step = self._step("message", inbound.sent_at, inbound)
        rows = self._outbox_rows(step, seq, inbound)
        self._commit(InputRow(seq=seq, kind="message", at=inbound.sent_at, inbound_id=inbound.id), rows)
        where = {"pm": "private message", "thread": "thread post", "cli": "organiser command (CLI)"}[inbound.source]
        # INFO names no private message's sender or forum id (ids grow with every PM the judge sends) and
        # counts no replies: at night they would tell the teams. DEBUG has them.
        if inbound.source == "thread":
            log.info("input #%d: thread post %d from %s: %d posts", seq, inbound.forum_id, inbound.sender, len(step.posts))
        else:
            log.info("input #%d: %s: %d posts", seq, where, len(step.posts))
        log.debug("input #%d: %s %d from %s: %d replies (to %s), %d posts", seq, where, inbound.forum_id,
                  inbound.sender, len(step.replies), ", ".join(r.to for r in step.replies) or "nobody", len(step.posts))

    def _apply_deadline(self, dl: datetime) -> None:
        seq, phase, now = self.seq, self.game.phase, self.clock()
        # After an outage the next phase opens now, so players get its whole length after its post
        # (instead of the bot closing phase after phase nobody could see); short delays keep the schedule.
        opened = now if now - dl > parse_duration(self.config.schedule.outage) else None
        step = self._step("deadline", dl, phase_id=phase.id, opened_at=opened)
        rows = self._outbox_rows(step, seq)
        self._commit(InputRow(seq=seq, kind="deadline", at=dl, phase_id=phase.id, opened_at=opened), rows)
        if opened is not None:
            log.warning("deadline of phase %d handled %s late (outage): the next phase opens now", phase.id, now - dl)
        after = self.game.phase
        log.info("input #%d: deadline of %s (round %d) at %s; %s", seq, phase.kind, phase.round, dl.isoformat(),
                 "game over" if self.game.finished else f"now {after.kind} round {after.round}")

    # --- reminders ---------------------------------------------------------------------------------
    def _next_reminder(self, dl: datetime | None) -> tuple[datetime, int, int] | None:
        """(time, phase id, reminder index) of the next reminder of the current phase not yet done."""
        if dl is None:
            return None
        done = self.store.cursor("reminded", {})
        pid = self.game.phase.id
        opened = self.timing.opened_at[pid]
        for i, offset in enumerate(self.config.schedule.reminder_offsets()):
            at = dl - offset
            if i in done.get(str(pid), []) or at <= opened:
                continue
            return at, pid, i
        return None

    def _remind(self, pid: int, index: int, dl: datetime) -> None:
        done = self.store.cursor("reminded", {})
        done.setdefault(str(pid), []).append(index)
        rows = []
        if self.clock() < dl:  # a reminder only makes sense before the deadline
            phase = self.game.phase
            for seat in self.game.ruleset.pending():
                name = self.game.name(seat)
                ref = f"r{pid}.{index}.{seat}"
                rows.append(self._pm_row(f"{self.store.season_id}:remind:{pid}:{index}:{seat}", name, ref,
                                         "common/reminder", {"phase": phase.kind, "round": phase.round}))
        self.store.queue(rows, {"reminded": done})
        if rows:
            log.info("reminders queued (phase %d)", pid)  # who has not acted yet is private: DEBUG only
            log.debug("reminders queued for %s (phase %d)", ", ".join(r.recipient or "" for r in rows), pid)

    # --- the outbox ----------------------------------------------------------------------------------
    def context(self) -> dict[str, Any]:
        """What templates may show besides the engine's data: the current deadline, the season."""
        sch = self.config.schedule
        ctx: dict[str, Any] = {
            "season": self.config.name,
            "schedule": {
                "lengths": {k: int(sch.length(k).total_seconds()) for k in sch.lengths},
                "default": int(sch.length("").total_seconds()),
                "daily_deadline": sch.daily_deadline.strftime("%H:%M") if sch.daily_deadline else None,
                "time_zone": self.config.time_zone,
            },
        }
        dl = self.deadline()
        if dl is not None:
            ctx["deadline"] = format_local(dl, self.config.tz, self.config.locale)
        return ctx

    def _render(self, key: str, data: dict[str, Any], extra: dict[str, Any] | None = None) -> str:
        return self.renderer.render(key, data, **{**self.context(), **(extra or {})})

    def _pm_row(self, key: str, to: str, ref: str, template: str, data: dict[str, Any], extra: dict[str, Any] | None = None) -> OutboxRow:
        subject = self._render("common/pm_subject", {"ref": ref}).strip()
        return OutboxRow(season_id=0, key=key, kind="pm", template=template, recipient=to, subject=subject,
                         body=self._render(template, data, extra))

    def _outbox_rows(self, step: Step, seq: int, inbound: InboundRow | None = None) -> list[OutboxRow]:
        extra: dict[str, Any] = {}
        if inbound is not None:
            extra["sent_at"] = format_local(inbound.sent_at, self.config.tz, self.config.locale)
            if self.timing.last_deadline is not None and inbound.sent_at > self.timing.last_deadline:
                extra["closed_at"] = format_local(self.timing.last_deadline, self.config.tz, self.config.locale)
        rows: list[OutboxRow] = []
        need_thread = self.thread_id is None and not self.store.outbox()
        for i, out in enumerate(step.outputs):
            key = f"{self.store.season_id}:{seq}:{i}"
            if isinstance(out, Reply):
                if out.to == CLI:
                    rows.append(OutboxRow(season_id=0, key=key, kind="note", template=out.key, recipient=CLI,
                                          body=self._render(out.key, out.data, extra), status="note"))
                else:
                    rows.append(self._pm_row(key, out.to, f"{seq}.{i}", out.key, out.data, extra))
            elif isinstance(out, Post):
                kind = "thread" if need_thread and not any(r.kind == "thread" for r in rows) else "post"
                subject = (self.config.thread_subject or self.config.name) if kind == "thread" else ""
                rows.append(OutboxRow(season_id=0, key=key, kind=kind, template=out.key, subject=subject,
                                      body=self._render(out.key, out.data, extra)))
        return rows

    def _deliver(self) -> None:
        self.delivery.run()

    def notify_failure(self, row: OutboxRow, exc: Exception, max_attempts: int) -> None:
        """Tell the organisers that ``row`` could not be delivered (queued like any private message)."""
        attempt = row.attempts + 1
        notes = [
            self._pm_row(f"{self.store.season_id}:failed:{row.id}:{attempt}:{org}", org, f"f{row.id}.{attempt}",
                         "common/delivery_failed",
                         {"recipient": row.recipient or "", "kind": row.kind, "error": str(exc)[:300],
                          "attempt": attempt, "max_attempts": max_attempts})
            for org in self.config.organisers
        ]
        self.store.queue(notes)

    # --- organiser commands from the command line -------------------------------------------------
    def organiser_command(self, text: str) -> None:
        """Store an organiser command typed on the command line; the running bot applies it in order."""
        row = InboundRow(season_id=0, source="cli", forum_id=self.store.next_cli_id(), sender=CLI,
                         sent_at=self.clock(), text=text)
        self.store.store_inbound([row], {})

    # --- waking up -------------------------------------------------------------------------------------
    def next_wakeup(self) -> datetime | None:
        """The next instant the bot must act besides polling: start, a reminder or a deadline (+ grace)."""
        grace = parse_duration(self.config.schedule.grace)
        if not self.started:
            return self.start_time()
        dl = self.deadline()
        tick = self._next_reminder(dl)
        times = [t + grace for t in ([tick[0]] if tick else []) + ([dl] if dl else [])]
        return min(times) if times else None

    def done(self) -> bool:
        """The game is over and everything is delivered (or has failed for good)."""
        if not self.game.finished:
            return False
        return not self.store.outbox(("pending", "sending")) and all(
            r.next_attempt_at is None for r in self.store.outbox(("failed",))
        )

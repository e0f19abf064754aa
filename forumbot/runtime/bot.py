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
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from forumbot.config import SeasonConfig
from forumbot.engine.game import Game
from forumbot.engine.types import Deadline, Message, Post, Reply, Step
from forumbot.forums.base import Forum
from forumbot.forums.errors import ForumError, failure_cause
from forumbot.language.numbers import parse_duration
from forumbot.language.types import Command
from forumbot.local_time import zone_label
from forumbot.migrations import upgrade
from forumbot.render import renderer
from forumbot.runtime.arrival import Interval, Stated, intervals
from forumbot.runtime.delivery import Delivery
from forumbot.runtime.inbox_routing import INHERITED_SUBJECTS, InboxSeason, route
from forumbot.runtime.phase_clock import PhaseClock, after, placeholders
from forumbot.runtime.season_edits import (
    as_started,
    check_after_replacements,
    check_unchanged,
    check_versions,
    judging_versions,
)
from forumbot.runtime.store import InboundRow, InputRow, OutboxRow, Store, aware, make_engine
from forumbot.runtime.timing import Timing
from forumbot.runtime.votecount import VoteCounts

log = logging.getLogger("forumbot")

# Refusal reasons that mean "this phase's window is shut" in some ruleset (see each ruleset's rejected
# templates): a late command refused for one of them was meant for the phase that just closed.
_WINDOW_REASONS = frozenset({"wrong_phase", "no_clue_poll", "no_successor_due", "no_crime_vote", "not_your_window",
                             "withdraw_closed"})

CLI = "@cli"
#: the ``input_seq`` of a stored private message that is never an input (its sender was asked to name a season)
NOT_AN_INPUT = -1
#: the longest the poller waits after failed polls in a row (seconds), unless the forum asks for longer
MAX_POLL_BACKOFF = 300.0
#: the least time (seconds) delivery may use between two reads when no deadline or reminder comes first
DELIVERY_WINDOW = 5.0


def utcnow() -> datetime:
    return datetime.now(UTC)


def _interval(row: InboundRow) -> Interval:
    """When ``row`` was sent (rows stored before intervals existed: their forum time)."""
    return Interval(row.earliest or row.sent_at, row.latest or row.sent_at)


class Bot:
    """One season. ``forum``: a logged-in-on-demand adapter; ``clock``: UTC now and ``sleep(seconds)``
    (tests inject both). ``accept_new_rules``: resume a running season judged by other versions of the parser or
    the ruleset with this forumbot's (recorded in the season); without it that raises
    :class:`~forumbot.runtime.season_edits.VersionsChanged` (a :class:`ConfigError`)."""

    def __init__(self, config: SeasonConfig, forum: Forum, clock: Callable[[], datetime] = utcnow, engine: Any = None,
                 sleep: Callable[[float], None] = time.sleep, accept_new_rules: bool = False) -> None:
        self.config = config
        self.forum = forum
        self.clock = clock
        self.sleep = sleep
        self._poll_failures = 0
        self._poll_held_until: datetime | None = None
        #: the write pacing shared with other seasons of the same account (``forumbot serve``), else None
        self.pace: Any = None
        #: the seasons reading this judge account's inbox, this one included (``forumbot serve`` sets them; see
        #: :mod:`forumbot.runtime.inbox_routing`); fewer than two: every private message is this season's
        self.inbox_seasons: list[InboxSeason] = []
        #: seconds each deadline was applied after it fell (drained by ``forumbot serve``'s metrics)
        self.deadline_lags: list[float] = []
        self.polls = 0  # complete reads of the forum since start
        self.last_cycle_seconds: float | None = None  # set by the runner
        self.db = engine if engine is not None else make_engine(config.database_url)
        upgrade(self.db)
        self.renderer = renderer(config.locale, config.effective_markup, config.template_dir,
                                 charset=config.forum.charset if config.forum.engine == "discuz" else None,
                                 tables=config.forum.engine != "phpbb")  # phpBB 3.3 has no [table] BBCode
        seed = str(config.seed) if config.seed is not None else secrets.token_hex(8)
        fingerprint_ = self._setup_fingerprint()
        self.store = Store.open_season(self.db, config.name, seed, fingerprint_)
        season = self.store.season()
        stored = json.loads(season.setup_json)
        if stored != fingerprint_:
            if inputs := len(self.store.inputs()):
                accepted = check_versions(config, stored, fingerprint_["versions"], accept_new_rules, inputs,
                                          clock().isoformat())
                if accepted is not None:
                    log.warning("season %r: now judged by parser %s, rules %s (accepted by the organiser; was %s)",
                                config.name, fingerprint_["versions"]["parser"], fingerprint_["versions"]["rules"],
                                stored.get("versions"))
                    self.store.set_setup(accepted)
                    stored = accepted
                self.config = as_started(config, stored)  # the game replays as it started
            else:
                self.store.set_setup(fingerprint_)  # not started yet: the file may still change
        self.seed = season.seed
        self.thread_id = season.thread_id or config.forum.thread_id
        self.delivery = Delivery(self)
        self.vote_counts = VoteCounts(self)
        self._rebuild()
        if self.config is not config:  # the file was edited: the replayed game tells whether the season is over
            check_unchanged(config, stored, fingerprint_, self.game.finished)
            check_after_replacements(config, stored, [p.name for p in self.game.players], self.game.finished)

    def _setup_fingerprint(self) -> dict[str, Any]:
        c = self.config
        return {"ruleset": c.ruleset, "players": c.players, "params": c.params, "roles": c.roles,
                "organisers": c.organisers, "aliases": c.aliases, "versions": judging_versions(c.ruleset)}

    # --- the game, rebuilt from stored inputs ------------------------------------------------------
    def _rebuild(self) -> None:
        self.game = Game(self.config.setup(self.seed))
        self.timing = Timing()
        self.thread_commands: list[tuple[int, str, str]] = []  # (phase id, player, verb) answered by PM
        self.opened_by: dict[int, int] = {}  # phase id -> the input (seq) whose posts open it
        self.phase_clock = PhaseClock(self)  # when each phase became visible, its deadline (issue 24)
        self.vote_actions: dict[int, int] = {}  # phase id -> votes and unvotes recorded (the vote count's rhythm)
        self.last_thread_post: int | None = None  # forum id of the last thread post applied ("counted through")
        self.alive_now = [p.name for p in self.game.players]  # as the thread showed it so far
        self.alive_at_open: dict[int, list[str]] = {0: list(self.alive_now)}  # phase id -> names alive at its opening
        self.step_phase = 0  # the phase current when the latest input arrived (its vote-result posts' round)
        self.seq = 0
        self.started = False
        for row, inbound in self.store.inputs():
            self._step(row.kind, aware(row.at), inbound, row.phase_id, aware(row.opened_at) if row.opened_at else None,
                       seq=row.seq)
            self.seq = row.seq + 1

    def _step(self, kind: str, at: datetime, inbound: InboundRow | None = None, phase_id: int | None = None,
              opened_at: datetime | None = None, seq: int | None = None) -> Step:
        self.step_phase = self.game.phase.id if self.started else 0
        if kind == "start":
            step = self.game.start()
            self.started = True
            if seq is not None:
                self.opened_by[0] = seq  # the prologue opens with the thread (and the role PMs)
        elif kind == "deadline":
            assert phase_id is not None  # a deadline input names its phase
            step = self.game.apply(Deadline(phase_id))
        else:
            assert inbound is not None
            channel: Literal["pm", "thread"] = "thread" if inbound.source == "thread" else "pm"
            sender = CLI if inbound.source == "cli" else inbound.sender
            step = self.game.apply(Message(sender, inbound.text, channel))
        self.timing.observe(kind, at, step, self.game, opened_at)
        self._note_alive(step)
        if inbound is not None and inbound.source == "thread":
            self.last_thread_post = inbound.forum_id
        acted = sum(e.kind in ("ballot", "unvote") for e in step.events)
        if acted:
            self.vote_actions[self.game.phase.id] = self.vote_actions.get(self.game.phase.id, 0) + acted
        self.thread_commands += [(self.game.phase.id, e.data["name"], e.data["verb"])
                                 for e in step.events if e.kind == "command_in_thread"]
        if seq is not None and any(e.kind == "phase_opened" for e in step.events):
            self.opened_by[self.game.phase.id] = seq
        return step

    def _note_alive(self, step: Step) -> None:
        """Who was alive when each phase opened, as the thread showed it (a vote round's non-voters)."""
        for e in step.events:
            if e.kind == "player_out" and e.data["name"] in self.alive_now:
                self.alive_now.remove(e.data["name"])
            elif e.kind == "phase_opened":
                self.alive_at_open[e.data["phase_id"]] = list(self.alive_now)

    def deadline(self) -> datetime | None:
        """The current phase's deadline (UTC), or None when the game is over, paused or not started, or while
        the current phase's opening posts are not all on the forum (its clock has not started:
        :mod:`forumbot.runtime.phase_clock`)."""
        g, t = self.game, self.timing
        if not self.started or g.finished or t.paused_since is not None:
            return None
        return self.phase_clock.deadline_of(g.phase.id)

    def _scheduled_deadline(self, pid: int) -> datetime:
        """Phase ``pid``'s deadline as it was (or is) shown: counted from its visible instant, else (its posts not
        out yet) from when it opened (the report's deadlines, :func:`forumbot.report.log.from_bot`)."""
        dl = self.phase_clock.deadline_of(pid)
        if dl is None:
            dl = self.phase_clock.deadline_of(pid, self.timing.opened_at[pid])
        assert dl is not None  # counted from a given instant
        return dl

    def held(self, row: OutboxRow) -> bool:
        """Whether outbox ``row`` must wait before its next attempt for a reason of the game's clock (not of the
        forum): delivery skips it, and the rows behind it to the same destination, in this pass. False: it may go.
        Held: the start's posts while one of its role PMs is on its way; a text naming the deadline of a phase
        whose opening posts are not out (:meth:`PhaseClock.held <forumbot.runtime.phase_clock.PhaseClock.held>`)."""
        return self.phase_clock.held(row)

    def body_for(self, row: OutboxRow) -> str:
        """The text to send for outbox ``row``, fixed by delivery right before each attempt (and stored): a post
        that opens a phase fixes the instant its clock starts, and every deadline named is the one the thread
        shows (:meth:`PhaseClock.body_for <forumbot.runtime.phase_clock.PhaseClock.body_for>`)."""
        return self.phase_clock.body_for(row)

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
                    # A baseline read: what is there now is older than the season and is skipped, and
                    # anything sent before the start is bounded by this read, not only by the forum's
                    # (possibly coarse: 「半小时前」) time.
                    self._poll()
            if now < self.start_time():
                return
            try:
                self.forum.login()  # draw no roles and promise no deadline before the forum answers
            except ForumError as exc:
                log.error("the season cannot start yet: %s", exc)
                self._forum_problem(exc)
                return
            self._start()
        self._poll()
        self._advance()
        self.vote_counts.run()
        self._deliver()
        if self.game.finished:
            self.delivery.settle_at_game_over()

    def next_read(self) -> datetime:
        """When the forum must be read next: a deadline or a reminder plus grace (now, when one is due
        already), else one poll interval from now — or :data:`DELIVERY_WINDOW` when the interval is
        shorter, so that a very short interval does not starve delivery (reading sooner would only answer
        commands sooner, which a backlog delays anyway). Delivery stops before it, so reading and deadlines
        never wait for the outbox."""
        now = self.clock()
        interval = parse_duration(self.config.schedule.poll_interval).total_seconds()
        due = [now + timedelta(seconds=max(interval, DELIVERY_WINDOW))]
        wake = self.next_wakeup() if self.started else None
        if wake is not None:
            due.append(max(wake, now))
        return min(due)

    def _start(self) -> None:
        at = self.start_time()
        step = self._step("start", at, seq=0)
        rows = self._outbox_rows(step, 0)
        self._commit(InputRow(season_id=self.store.season_id, seq=0, kind="start", at=at), rows)
        # INFO is shared with players: how many private messages a step makes can tell the teams.
        log.info("season %s started: %d players, %d posts queued", self.config.name, len(self.game.players), len(step.posts))
        log.debug("season %s started: %d private messages queued", self.config.name, len(step.replies))

    def _commit(self, row: InputRow, rows: list[OutboxRow], cursors: dict[str, Any] | None = None,
                cancel_to: list[str] | None = None) -> None:
        try:
            self.store.commit_input(row, rows, cursors, cancel_to or [])
        except Exception:
            self._rebuild()  # the game in memory ran ahead of the database: take it back
            raise
        self.seq = row.seq + 1

    def _poll(self) -> bool:
        """Read the judge's inbox, then the thread, storing each source as soon as it is read (a failure
        of the next read keeps it). True when every source was read. After a failed poll the poller
        backs off (as praw does): after n ≥ 2 failures in a row the next poll waits ``poll_interval`` × 2ⁿ⁻²
        (at most :data:`MAX_POLL_BACKOFF`), or as long as the forum asked (``Retry-After``)."""
        began = self.clock()
        if self._poll_held_until is not None and began < self._poll_held_until:
            return False
        cursor = self.store.cursor("forum_cursor")
        if cursor:
            self.forum.import_cursor(cursor)
        sources = ["pm"] + (["thread"] if self.thread_id else [])
        for source in sources:
            start = self.clock()
            try:
                if source == "pm":
                    items: list[Any] = self.forum.private_messages(self.store.cursor("pm_after"))
                else:
                    assert self.thread_id is not None  # "thread" is polled only once there is one
                    items = self.forum.thread_posts(self.thread_id, self.store.cursor("post_after"))
            except ForumError as exc:
                partial = list(getattr(exc, "partial", None) or [])
                if partial:  # what was read before the failure is kept; the source counts as not read
                    self._store_read(source, partial, (start, self.clock()), complete=False)
                self._poll_failed(exc)
                return False
            # an inbox read that saw a message listed but not yet readable has not seen the inbox up to its start
            seen_all = source != "pm" or not getattr(self.forum, "inbox_incomplete", False)
            self._store_read(source, items, (start, self.clock()), complete=seen_all)
        self._poll_failures, self._poll_held_until = 0, None
        self._forum_problem(None)
        self.store.set_cursor("polled_at", began.isoformat())
        self.polls += 1
        return True

    @property
    def poll_held_until(self) -> datetime | None:
        """When the poller's back-off after failed polls ends (None: not backing off)."""
        return self._poll_held_until

    def forum_problem(self) -> dict[str, str] | None:
        """What the forum last answered wrongly and since when, while it lasts: ``{"since": ISO UTC instant,
        "error": text}``, or None when the last read or login worked. Kept in the database for
        ``forumbot status``, which runs in another process than the bot (``serve`` only logged it)."""
        return self.store.cursor("forum_problem")

    def _forum_problem(self, exc: ForumError | None) -> None:
        """Record ``exc`` (a failed login or read) for :meth:`forum_problem`, or clear it (None); the
        database is written only when the text changes, not at every failed poll."""
        old = self.store.cursor("forum_problem")
        if exc is None:
            if old is not None:
                self.store.set_cursor("forum_problem", None)
            return
        text = str(exc) or type(exc).__name__
        if old is None or old.get("error") != text:
            since = old["since"] if old else self.clock().isoformat()
            self.store.set_cursor("forum_problem", {"since": since, "error": text})

    def _poll_failed(self, exc: ForumError) -> None:
        self._forum_problem(exc)
        self._poll_failures += 1
        interval = parse_duration(self.config.schedule.poll_interval).total_seconds()
        wait = min(interval * 2 ** (self._poll_failures - 2), MAX_POLL_BACKOFF) if self._poll_failures > 1 else 0.0
        wait = max(wait, float(getattr(exc, "wait_seconds", 0.0) or 0.0))
        self._poll_held_until = self.clock() + timedelta(seconds=wait)
        log.warning("poll failed (%d in a row): %s; next poll in %.0f s", self._poll_failures, exc, wait)

    def _store_read(self, source: str, items: list[Any], times: tuple[datetime, datetime], complete: bool) -> None:
        """Store the items of one read of ``source`` with its cursors, in one transaction. A partial read
        (``complete`` false) stores its items and the adapter's memory, but moves neither the source's
        id cursor nor its read time: the next poll reads the rest."""
        judge = self.config.forum.username
        read = dict(self.store.cursor("read_began", {}))
        if source == "pm":
            spans = self._intervals("pm", [Stated(m.time_utc, m.time_precision_seconds) for m in items], read,
                                    {"pm": times})
            rows = [InboundRow(season_id=0, source="pm", forum_id=m.message_id, sender=m.sender, sent_at=m.time_utc,
                               earliest=t.earliest, latest=t.latest, subject=m.subject, text=m.body)
                    for m, t in zip(items, spans, strict=False) if m.sender != judge]
        else:
            spans = self._intervals("thread", [Stated(p.time_utc, p.time_precision_seconds)
                                               for p in items], read, {"thread": times})
            rows = [InboundRow(season_id=0, source="thread", forum_id=p.post_id, sender=p.author, sent_at=p.time_utc,
                               earliest=t.earliest, latest=t.latest, text=p.text, edited=p.edited)
                    for p, t in zip(items, spans, strict=False) if p.author != judge]
        rows = self._since_first_run(rows)
        asks: list[OutboxRow] = []
        if source == "pm" and len(self.inbox_seasons) > 1 and any(s.name == self.config.name for s in self.inbox_seasons):
            rows, asks = self._route(rows)
        cursors: dict[str, Any] = {"forum_cursor": self.forum.export_cursor()}
        if complete:
            read[source] = times[0].isoformat()
            cursors["read_began"] = read
            if items:
                key, ids = ("pm_after", [m.message_id for m in items]) if source == "pm" else \
                    ("post_after", [p.post_id for p in items])
                cursors[key] = max(ids)
        new = self.store.store_inbound(rows, cursors, asks)
        if new:
            what = "private messages" if source == "pm" else "thread posts"
            log.info("poll: %d new %s%s", new, what, "" if complete else " (read in part)")

    def _route(self, rows: list[InboundRow]) -> tuple[list[InboundRow], list[OutboxRow]]:
        """The private messages of ``rows`` that are this season's among the seasons sharing the inbox
        (:func:`~forumbot.runtime.inbox_routing.route`; a season prefix is taken off the text the game parses),
        and the answers asking senders in several of the seasons to name one. Such a message is stored (so that it
        is answered once) but is never an input (``input_seq`` :data:`NOT_AN_INPUT`); its answer is queued in the
        same transaction, with an idempotency key."""
        mine: list[InboundRow] = []
        asks: list[OutboxRow] = []
        subjects = self.config.forum.engine not in INHERITED_SUBJECTS
        for row in rows:
            r = route(row.sender, row.subject if subjects else "", row.text, self.inbox_seasons, row.sent_at)
            if r.season != self.config.name:
                continue
            row.text = r.text
            mine.append(row)
            if r.rule == "ask":
                row.input_seq = NOT_AN_INPUT
                lines = row.text.strip().splitlines()
                excerpt = lines[0][:60] if lines else ""
                ref = f"w{row.forum_id}"
                subject = self._render("common/pm_subject", {"ref": ref}, {"season": " / ".join(r.choices)}).strip()
                asks.append(OutboxRow(season_id=0, key=f"{self.store.season_id}:which:{row.forum_id}", kind="pm",
                                      template="common/which_season", recipient=row.sender, subject=subject,
                                      body=self._render("common/which_season",
                                                        {"seasons": list(r.choices), "text": excerpt, "subjects": subjects})))
        if len(mine) < len(rows):
            log.debug("poll: %d private messages for other seasons of this judge account left to them",
                      len(rows) - len(mine))
        if asks:
            log.info("poll: %d private messages name no season and their senders are in several: asked which",
                     len(asks))
        return mine, asks

    def _intervals(self, source: str, stated: list[Stated], read: dict[str, str],
                   times: dict[str, tuple[datetime, datetime]]) -> list[Interval]:
        """When each item of one read of ``source`` was sent (see :mod:`forumbot.runtime.arrival`)."""
        if not stated:
            return []
        before = datetime.fromisoformat(read[source]) if source in read else None
        return intervals(stated, before, times[source][1], self.store.last_earliest(source))

    def _since_first_run(self, rows: list[InboundRow]) -> list[InboundRow]:
        """Drop what was sent before the season's first run (a judge account's old mail, old posts in a
        reused thread): it is never an input, and never answered. An item counts only when its
        earliest possible sending time is at or after the first run."""
        first = self.store.cursor("first_run")
        if first is None:
            return rows
        since = datetime.fromisoformat(first)
        kept = [r for r in rows if r.earliest is None or r.earliest >= since]
        if len(kept) < len(rows):
            old = [r for r in rows if r not in kept]
            log.info("poll: %d items sent before this season's first run ignored (old mail, old thread posts)", len(old))
        return kept

    def read_past(self) -> datetime | None:
        """The instant every source has been read past: the start of the latest read of the source read
        least recently (None until each has been read). Nothing sent before it is still unseen."""
        read = self.store.cursor("read_began", {})
        sources = ["pm"] + (["thread"] if self.thread_id else [])
        if any(src not in read for src in sources):
            return None
        return min(datetime.fromisoformat(read[src]) for src in sources)

    def straddled(self) -> list[dict[str, Any]]:
        """Messages whose possible sending times straddled a deadline, for the organiser: source,
        forum_id, sender, deadline, earliest, latest (ISO times) and how they were counted."""
        return list(self.store.cursor("straddled", {}).values())

    def polled_at(self) -> datetime | None:
        value = self.store.cursor("polled_at")
        return datetime.fromisoformat(value) if value else None

    # --- applying inputs in order ------------------------------------------------------------------
    def _advance(self) -> None:
        grace = parse_duration(self.config.schedule.grace)
        rule = self.config.schedule.straddling
        while self.started:
            now, read = self.clock(), self.read_past()
            dl = self.deadline()
            # The first message in order that counts for the current deadline (all of them when there is
            # none); a message late for it waits until the deadline is applied.
            nxt = next((m for m in self.store.unapplied() if dl is None or _interval(m).counts_for(dl, rule)), None)
            tick = self._next_reminder(dl)
            events: list[tuple[datetime, int, str]] = []
            if nxt is not None:
                events.append((nxt.earliest or nxt.sent_at, 1, "message"))
            if tick is not None:
                events.append((tick[0], 0, "reminder"))
            if dl is not None:
                events.append((dl, 2, "deadline"))
            if not events:
                return
            at, _, what = min(events)
            if what == "message":
                if read is None or read < at:
                    return  # a source has not been read past this message's time: an earlier one may be unseen
                assert nxt is not None
                self._apply_message(nxt, dl)
                continue
            if now < at or read is None or read < at + grace:
                return  # the forum has not been read since this instant: wait
            if what == "reminder":
                assert tick is not None and dl is not None
                self._remind(tick[1], tick[2], dl)
            else:
                assert dl is not None
                self._apply_deadline(dl)

    def _apply_message(self, inbound: InboundRow, dl: datetime | None = None) -> None:
        seq = self.seq
        span, rule = _interval(inbound), self.config.schedule.straddling
        closed = self.timing.last_deadline
        missed = closed is not None and not span.counts_for(closed, rule)
        # A message after a deadline acts (a pause, an extension) from that deadline, never before it.
        at = max(span.earliest, closed) if missed and closed is not None else span.earliest
        late = missed and self._before_phase_seen(span)
        notes = dict(self.store.cursor("straddled", {}))
        for when in (dl, closed):
            if when is not None and span.verdict(when) == "straddles" and str(inbound.id) not in notes:
                notes[str(inbound.id)] = {"source": inbound.source, "forum_id": inbound.forum_id,
                                          "sender": inbound.sender, "deadline": when.isoformat(),
                                          "earliest": span.earliest.isoformat(), "latest": span.latest.isoformat(),
                                          "counted": "on time" if span.counts_for(when, rule) else "late"}
        step = self._step("message", at, inbound, seq=seq)
        rows = self._outbox_rows(step, seq, inbound, late=late, straddled=str(inbound.id) in notes)
        cursors = {"straddled": notes} if str(inbound.id) in notes else None
        replaced = [e.data["old"] for e in step.events if e.kind == "organiser_replace"]
        self._commit(InputRow(season_id=self.store.season_id, seq=seq, kind="message", at=at, inbound_id=inbound.id), rows, cursors,
                     cancel_to=replaced)
        where = {"pm": "private message", "thread": "thread post", "cli": "organiser command (CLI)"}[inbound.source]
        # INFO names no private message's sender or forum id (ids grow with every PM the judge sends) and
        # counts no replies: at night they would tell the teams. DEBUG has them.
        if inbound.source == "thread":
            log.info("input #%d: thread post %d from %s: %d posts", seq, inbound.forum_id, inbound.sender, len(step.posts))
        else:
            log.info("input #%d: %s: %d posts", seq, where, len(step.posts))
        log.debug("input #%d: %s %d from %s: %d replies (to %s), %d posts%s", seq, where, inbound.forum_id,
                  inbound.sender, len(step.replies), ", ".join(r.to for r in step.replies) or "nobody", len(step.posts),
                  " (late)" if late else "")

    def _before_phase_seen(self, span: Interval) -> bool:
        """Whether a message that missed the last deadline may have been sent before the current phase
        (the one that deadline opened) was visible: before all of its opening posts reached the forum.
        Such a message was meant for the round that closed, and its sender is told it was late."""
        pid = self.game.phase.id
        seq = self.opened_by.get(pid)
        if self.timing.last_closed != pid - 1 or seq is None:
            return False
        rows = self.phase_clock.opening_rows(seq)
        sent = [aware(r.sent_at) for r in rows if r.status == "sent" and r.sent_at is not None]
        if not rows or len(sent) < len(rows):
            return True
        return span.earliest < max(sent)

    def _apply_deadline(self, dl: datetime) -> None:
        seq, phase, now = self.seq, self.game.phase, self.clock()
        # After an outage the next phase opens now, so players get its whole length after its post
        # (instead of the bot closing phase after phase nobody could see); short delays keep the schedule.
        opened = now if now - dl > parse_duration(self.config.schedule.outage) else None
        step = self._step("deadline", dl, phase_id=phase.id, opened_at=opened, seq=seq)
        rows = self._outbox_rows(step, seq)
        self._commit(InputRow(season_id=self.store.season_id, seq=seq, kind="deadline", at=dl, phase_id=phase.id, opened_at=opened), rows)
        self.deadline_lags.append((now - dl).total_seconds())
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
        opened = self.phase_clock.visible_at(pid)  # a deadline is known only once the phase is visible
        if opened is None:
            return None
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
                                         "common/reminder", {"phase": phase.kind, "round": phase.round,
                                                             "day_rounds": self.game.ruleset.day_rounds}))
        self.store.queue(rows, {"reminded": done})
        # who has not acted yet is private, and so is whether anyone has not (at night: whether the night's
        # roles have all acted): INFO says the same either way, DEBUG names them
        log.info("reminders due (phase %d)", pid)
        log.debug("reminders queued for %s (phase %d)", ", ".join(r.recipient or "" for r in rows) or "nobody", pid)

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
                # every phase of the ruleset with its length, in the rulebook's order (an opening post says each
                # plainly, not "every phase 1 min (prologue 40 s, ...)": issue 28)
                "phases": [{"kind": k, "seconds": int(sch.length(k).total_seconds())}
                           for k in getattr(self.game.ruleset, "phase_kinds", ())],
                "zone": zone_label(self.clock(), self.config.tz, self.config.locale, self.config.time_zone_label),
            },
        }
        # the deadline the thread shows, or a placeholder while the phase is not visible: body_for fills it in
        ctx.update(self.phase_clock.context_deadline())
        return ctx

    def _render(self, key: str, data: dict[str, Any], extra: dict[str, Any] | None = None) -> str:
        ctx = {**self.context(), **(extra or {})}
        if ctx.get("deadline") is None:  # extra {"deadline": None}: a text that must not name it
            ctx.pop("deadline", None)
        return self.renderer.render(key, data, **ctx)

    def _pm_row(self, key: str, to: str, ref: str, template: str, data: dict[str, Any], extra: dict[str, Any] | None = None) -> OutboxRow:
        subject = self._render("common/pm_subject", {"ref": ref}).strip()
        return OutboxRow(season_id=0, key=key, kind="pm", template=template, recipient=to, subject=subject,
                         body=self._render(template, data, extra))

    def _outbox_rows(self, step: Step, seq: int, inbound: InboundRow | None = None, late: bool = False,
                     straddled: bool = False) -> list[OutboxRow]:
        extra: dict[str, Any] = {}
        if inbound is not None:
            extra["sent_at"] = self.config.shown_time(inbound.sent_at)
        late_note = ""
        if late and inbound is not None and self.timing.last_deadline is not None and self.timing.last_closed is not None:
            closed = self.game.phases[self.timing.last_closed]
            late_note = self._render("common/late", {
                "closed_phase": closed.kind, "closed_round": closed.round, "straddled": straddled,
                "day_rounds": self.game.ruleset.day_rounds,
                "closed_at": self.config.shown_time(self.timing.last_deadline)}).strip()
        rows: list[OutboxRow] = []
        # the first post opens the thread unless a thread post is already queued; a private message queued
        # before the start (a console sign-in link) must not turn the opening post into a reply to no thread
        need_thread = self.thread_id is None and not any(r.kind == "thread" for r in self.store.outbox())
        late_vote = self._late_thread_command(step, inbound) if late_note and inbound is not None else None
        for i, out in enumerate(step.outputs):
            key = f"{self.store.season_id}:{seq}:{i}"
            if late_vote is not None and isinstance(out, Reply) and out.key == "common/dead_player_post" \
                    and inbound is not None and out.data.get("player") == inbound.sender:
                # a vote of the round that just closed, sent before its result reached the thread by a player it
                # put out: the late reply is due to him (docs/commands.md), not a report to the organiser
                if not any(r.recipient == inbound.sender and r.template == "common/late" for r in rows):
                    refusal = self._render(f"{self.game.ruleset.id}/rejected", {
                        "verb": late_vote, "reason": "you_are_out", "phase": self.game.phase.kind,
                        "round": self.game.phase.round, "day_rounds": self.game.ruleset.day_rounds}, extra)
                    rows.append(OutboxRow(season_id=0, key=key, kind="pm", template="common/late",
                                          recipient=inbound.sender,
                                          subject=self._render("common/pm_subject", {"ref": f"{seq}.{i}"}).strip(),
                                          body=f"{after(self.game.phase.id)}{late_note}\n\n{refusal}"))
                continue
            if isinstance(out, Reply):
                if out.to == CLI:  # never sent, so never filled in: a deadline not shown yet is left out
                    unseen = placeholders(self.phase_clock.context_deadline().get("deadline", ""))
                    rows.append(OutboxRow(season_id=0, key=key, kind="note", template=out.key, recipient=CLI,
                                          body=self._render(out.key, out.data, {**extra, "deadline": None} if unseen
                                                            else extra), status="note"))
                else:
                    # the start's private messages go before the thread, whose post starts the prologue's clock:
                    # they cannot name its deadline (the thread does)
                    # an organiser's reply is not held for a deadline the thread does not show yet (he is who
                    # must act when a phase's post cannot go out): it leaves that deadline out, as a CLI note
                    hidden = seq != 0 and out.to in self.config.organisers and \
                        bool(placeholders(self.phase_clock.context_deadline().get("deadline", "")))
                    rows.append(self._pm_row(key, out.to, f"{seq}.{i}", out.key, out.data,
                                             {**extra, "deadline": None} if seq == 0 or hidden else extra))
                    if late_note and inbound is not None and out.to == inbound.sender and self._meant_for_closed(out.to, out.data):
                        # refused after the round it was meant for closed: say so first, then why
                        # (not before the thread shows the round closed: the next phase's post)
                        rows[-1].body = f"{after(self.game.phase.id)}{late_note}\n\n{rows[-1].body}"
            elif isinstance(out, Post):
                kind = "thread" if need_thread and not any(r.kind == "thread" for r in rows) else "post"
                subject = (self.config.thread_subject or self.config.name) if kind == "thread" else ""
                rows.append(OutboxRow(season_id=0, key=key, kind=kind, template=out.key, subject=subject,
                                      body=self._render(out.key, out.data, extra), image_json=self._chart(out)))
        return rows

    def _late_thread_command(self, step: Step, inbound: InboundRow) -> str | None:
        """The verb of a late thread post that reads as a command of the phase the last deadline closed, by a
        player that round put out and whom the game reported to the organiser as a dead
        player posting (:meth:`~forumbot.engine.game.Game.dead_player_post`); else None. Reading the post is pure
        (the game's parser); the game's decision is unchanged, only who is told and how. A player out before that
        round could not vote in it: his post stays the organiser's to check."""
        closed = self.timing.last_closed
        if inbound.source != "thread" or closed is None:
            return None
        seat = self.game.seat_of(inbound.sender)
        if seat is None or self.game.player(seat).out_phase != closed or not any(e.kind == "dead_player_post" and e.data.get("seat") == seat for e in step.events):
            return None
        parsed = self.game.read_thread(seat, inbound.text, self.game.ruleset.thread_command_verbs() or None)
        if not isinstance(parsed, Command):
            return None
        kind = self.game.phases[closed].kind
        if any(parsed.verb in a.verbs and (a.phases is None or kind in a.phases) for a in self.game.ruleset.actions):
            return parsed.verb
        return None

    def _meant_for_closed(self, sender: str, reply: dict[str, Any]) -> bool:
        """Whether a refusal (reply data with a ``reason``) of ``sender``'s message that missed the last deadline
        is about the phase that deadline closed: refused because a phase's window is shut, refused in a phase of
        the same kind (a run-off after a vote), or a command the sender cannot give in the new phase (a ballot
        after the vote closed, whatever the refusal says). A command of the new phase refused for its own reason
        (a night kill naming two players seconds after the day closed) is about the new phase: calling it late
        would mislead. A player out of the game is told only that unless his command was one of the closed
        phase (a ballot sent just after the vote that put him out): a day vote from a player killed in the
        night just closed gets one reply, that he is out."""
        reason = reply.get("reason")
        if not reason:
            return False
        closed = self.timing.last_closed
        if reason == "you_are_out":
            kind = self.game.phases[closed].kind if closed is not None else None
            return any(reply.get("verb") in a.verbs and (a.phases is None or kind in a.phases)
                       for a in self.game.ruleset.actions)
        if reason in _WINDOW_REASONS or (closed is not None and self.game.phases[closed].kind == self.game.phase.kind):
            return True
        verb, seat = reply.get("verb"), self.game.seat_of(sender)
        if verb is None or seat is None:
            return True
        # help verbs name a command verb, sometimes with a channel or a variant after "_" (vote_thread, suck_criminal)
        now = {v for h in self.game.ruleset.help_data(seat).get("verbs", []) for v in (h, h.split("_")[0])}
        return verb not in now and not (verb == "kill" and "choose" in now)

    def _chart(self, post: Post) -> str | None:
        """The chart data (JSON) of a vote-result post when the season attaches vote charts
        (``vote_chart_images``): the report's round (:func:`forumbot.vote_chart.vote_round`), public facts
        only (the post's own data and who was alive when the phase opened). None: text only."""
        if not self.config.vote_chart_images or "ballots" not in post.data:
            return None
        from forumbot.vote_chart import vote_round

        pid = self.step_phase
        round_ = vote_round(self.game, pid, post, self.alive_at_open.get(pid, []))
        return json.dumps(round_, ensure_ascii=False, sort_keys=True)

    def vote_chart(self, row: OutboxRow) -> bytes:
        """The PNG picture of outbox ``row``'s vote round (drawn anew at each attempt: the same bytes for the
        same data). Raises :class:`forumbot.vote_chart.ChartUnavailable` (no matplotlib, no CJK font)."""
        from forumbot.vote_chart import vote_png

        assert row.image_json is not None  # only rows with a chart are drawn
        return vote_png(json.loads(row.image_json), self.config.locale)

    def _deliver(self) -> None:
        self.delivery.run(until=self.next_read())

    def notify_failure(self, row: OutboxRow, exc: Exception, max_attempts: int, final: bool = False) -> None:
        """Tell the organisers that ``row`` could not be delivered (queued like any private message);
        ``final``: it never will be (no such account) and is not retried."""
        attempt = row.attempts + 1
        notes = [
            self._pm_row(f"{self.store.season_id}:failed:{row.id}:{attempt}:{org}", org, f"f{row.id}.{attempt}",
                         "common/delivery_failed",
                         {"recipient": row.recipient or "", "kind": row.kind, "error": str(exc)[:300],
                          "cause": failure_cause(exc), "attempt": attempt, "max_attempts": max_attempts,
                          "final": final})
            for org in self.config.organisers
        ]
        self.store.queue(notes)

    def undelivered(self) -> list[OutboxRow]:
        """Rows that were not delivered and never will be: undeliverable (no such account, still failing
        at game over) or cancelled (the player was replaced)."""
        return self.store.outbox(("undeliverable", "cancelled"))

    # --- organiser commands from the command line -------------------------------------------------
    def organiser_command(self, text: str) -> None:
        """Store an organiser command typed on the command line; the running bot applies it in order."""
        row = InboundRow(season_id=0, source="cli", forum_id=self.store.next_cli_id(), sender=CLI,
                         sent_at=self.clock(), text=text)
        self.store.store_inbound([row], {})

    # --- waking up -------------------------------------------------------------------------------------
    def next_wakeup(self) -> datetime | None:
        """The next instant the bot must act besides polling: start, a reminder or a deadline (+ grace), a
        vote count at a fixed time."""
        grace = parse_duration(self.config.schedule.grace)
        if not self.started:
            return self.start_time()
        dl = self.deadline()
        tick = self._next_reminder(dl)
        count = self.vote_counts.next_time()
        times = [t + grace for t in ([tick[0]] if tick else []) + ([dl] if dl else [])] + ([count] if count else [])
        return min(times) if times else None

    def done(self) -> bool:
        """The game is over and everything is delivered or settled (see :meth:`undelivered`)."""
        if not self.game.finished:
            return False
        return not self.store.outbox(("pending", "sending")) and all(
            r.next_attempt_at is None for r in self.store.outbox(("failed",))
        )

"""What the console's pages show of a season, read from its bot (:meth:`forumbot.console.source.SeasonSource.bot`):
plain data for the templates, with word keys (``problem``/``todo``: keys of ``<locale>/console/words.html``) rather
than sentences, so every page reads in the season's locale."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from forumbot.console.source import SeasonEntry
from forumbot.language.numbers import parse_duration
from forumbot.runtime.schedule import format_local


@dataclass
class Problem:
    """Something the organiser must look at: ``key`` names the words (problem and what to do) of
    ``console/words.html``'s ``problems``; ``detail``: the file's, database's or forum's own words (shown as
    they are)."""

    key: str
    detail: str = ""


@dataclass
class Overview:
    """One season as the seasons list (and the head of its page) shows it. ``state``: not_started, running,
    paused, over, broken (no season file or database to read); ``deadline``: UTC, None when none is set (see
    :meth:`forumbot.runtime.bot.Bot.deadline`); ``outbox``: rows by status (notes left out)."""

    key: str
    name: str
    file: str
    ruleset: str = ""
    locale: str = "en"
    state: str = "not_started"
    phase: str = ""
    round: int = 0
    deadline: datetime | None = None
    deadline_text: str = ""
    deadline_waits: bool = False  # running, but the phase's post is not on the forum yet
    winner: Any = None
    outbox: dict[str, int] = field(default_factory=dict)
    polled_at: datetime | None = None
    problems: list[Problem] = field(default_factory=list)
    organisers: list[str] = field(default_factory=list)

    @property
    def healthy(self) -> bool:
        """No problem, and nothing failed or undeliverable in the outbox."""
        return not self.problems


#: a season is "not answering" when its forum has not been read for this many poll intervals (at least a minute)
STALE_POLLS = 5


def overview(entry: SeasonEntry, bot: Any, now: datetime | None = None, unavailable: str | None = None) -> Overview:
    """The season of ``entry`` as the list shows it; ``bot`` None: it never ran; ``unavailable``: why its
    database cannot be read."""
    now = now or datetime.now(UTC)
    c = entry.config
    if c is None:
        return Overview(entry.key, entry.key, entry.path.name, state="broken",
                        problems=[Problem("not_a_season_file", entry.error or "")])
    o = Overview(entry.key, c.name, entry.path.name, ruleset=c.ruleset, locale=c.locale, organisers=list(c.organisers))
    if entry.blocked:
        o.problems.append(Problem("blocked", entry.blocked))
    if unavailable is not None:
        o.state = "broken"
        o.problems.append(Problem("database", unavailable))
        return o
    if bot is None or not bot.started:
        return o
    g = bot.game
    o.phase, o.round = g.phase.kind, g.phase.round
    o.state = "over" if g.finished else ("paused" if bot.timing.paused_since else "running")
    o.winner = g.winner if g.finished else None
    o.deadline = bot.deadline()
    if o.deadline is not None:
        o.deadline_text = format_local(o.deadline, c.tz, c.locale)
    o.deadline_waits = o.state == "running" and o.deadline is None
    counts = bot.store.outbox_counts()
    o.outbox = {k: v for k, v in sorted(counts.items()) if k != "note"}
    o.polled_at = bot.polled_at()
    o.problems += delivery_problems(bot, o, now, entry.done)
    return o


def delivery_problems(bot: Any, o: Overview, now: datetime, done: bool) -> list[Problem]:
    """A forum not answering (no complete read for :data:`STALE_POLLS` poll intervals, or writes refused and
    waiting for their retry), and rows that will never be delivered."""
    out: list[Problem] = []
    if o.state in ("running", "paused") and not done:
        interval = parse_duration(bot.config.schedule.poll_interval).total_seconds()
        stale = timedelta(seconds=max(60.0, STALE_POLLS * interval))
        if o.polled_at is None or now - o.polled_at > stale:
            when = format_local(o.polled_at, bot.config.tz, bot.config.locale) if o.polled_at else "—"
            out.append(Problem("not_read", when))
    # refused (failed, retried later) or unanswered (sending, its attempt given up on: it is being looked for)
    failed = [r for r in bot.store.outbox(("failed", "sending")) if r.status == "failed" or r.gave_up_at is not None]
    if failed:
        why = next((r.last_error for r in reversed(failed) if r.last_error), None) or "no answer"
        out.append(Problem("failing", f"{len(failed)} · {why}"[:300]))
    undelivered = bot.undelivered()
    gone = [r for r in undelivered if r.status == "undeliverable"]
    if gone:
        out.append(Problem("undeliverable", ", ".join(sorted({r.recipient or "thread" for r in gone}))))
    return out


def local(when: datetime | None, bot: Any) -> str:
    """``when`` in the season's zone and words ("" for None)."""
    if when is None:
        return ""
    return format_local(when if when.tzinfo else when.replace(tzinfo=UTC), bot.config.tz, bot.config.locale)

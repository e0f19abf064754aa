"""Running a season: APScheduler calls :meth:`Bot.cycle` once every poll interval, sooner when an instant
the game needs comes first (start, reminders, deadlines), one cycle at a time. There is one job: each cycle
schedules the next (one date job, replaced), so an idle bot reads the forum once per poll interval. The next
cycle is worked out from the game's state after every cycle, so after a restart it is where it should be; a
cycle for a phase already over finds nothing to do."""

from __future__ import annotations

import itertools
import logging
import queue
import signal
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.schedulers.blocking import BlockingScheduler

from forumbot.language.numbers import parse_duration
from forumbot.runtime.bot import Bot
from forumbot.runtime.logcontext import SEASON

log = logging.getLogger("forumbot")


def _now() -> datetime:
    """The scheduler's clock (UTC; tests drive a fake scheduler on a fake clock)."""
    return datetime.now(UTC)


def run_bot(bot: Bot, *, stop_when_done: bool = True, stop: threading.Event | None = None,
            on_cycle: Callable[[Bot], None] | None = None) -> Bot:
    """Run ``bot`` until the game is over and delivered (``stop_when_done``), ``stop`` is set, or
    SIGINT/SIGTERM (then it returns normally; the signal handlers are restored). Errors in a cycle
    are logged in one line and the next cycle tries again."""
    scheduler = BlockingScheduler(timezone=UTC, executors={"default": ThreadPoolExecutor(1)},
                                  job_defaults={"coalesce": True, "max_instances": 1, "misfire_grace_time": None})
    interval = parse_duration(bot.config.schedule.poll_interval).total_seconds()
    stopping = threading.Event()
    halting = threading.Lock()

    def halt(reason: str) -> None:
        """Stop the scheduler; never from the main thread (see ``on_signal``)."""
        with halting:
            if not stopping.is_set():
                stopping.set()
                log.info("season %s: %s", bot.config.name, reason)
            if scheduler.running:  # not yet when a signal came before the start: the first job stops it
                scheduler.shutdown(wait=False)

    def job() -> None:
        if stopping.is_set():
            halt("stopped")
            return
        SEASON.set(bot.config.name)
        began = _now()
        try:
            bot.cycle()
        except Exception as exc:  # one bad cycle must not stop the season
            log.error("cycle failed: %s: %s", type(exc).__name__, exc)
            log.debug("cycle failure", exc_info=True)
            try:
                bot._rebuild()
            except Exception as again:  # pragma: no cover - database gone
                log.error("rebuild failed: %s", again)
        bot.last_cycle_seconds = (_now() - began).total_seconds()
        wake = began + timedelta(seconds=interval)  # the next cycle, whatever fails below
        try:
            if on_cycle:
                on_cycle(bot)
            if stop_when_done and bot.done():
                summarise(bot)
                halt("over and delivered")
                return
            if stop is not None and stop.is_set():
                halt("stopped")
                return
            # The next read: at the next instant the game needs, and never more than a poll interval after
            # this cycle began (a cycle that delivered until its end would otherwise miss the interval).
            wake = min(t for t in (bot.next_wakeup(), wake) if t is not None)
            if wake <= began:
                # Due before this cycle began and still due: the cycle could not act on it (the forum is down
                # or the poller is backing off). Running again at once would only spin; the next read is due
                # after the poll interval, or when the poller's back-off ends.
                wake = max(began + timedelta(seconds=interval), bot.poll_held_until or _now())
        except Exception as exc:  # the season goes on: the next cycle comes after the poll interval
            log.error("after a cycle: %s: %s", type(exc).__name__, exc)
            log.debug("after a cycle", exc_info=True)
        finally:
            if not stopping.is_set():
                schedule_next(max(wake, _now()))

    ticks = itertools.count()

    def schedule_next(when: datetime) -> None:
        """One date job a cycle, added by the cycle before (a repeating job beside it made 1.6-1.7 cycles an
        interval). Each has its own id: a job due while the one adding it still runs is queued behind it, where
        one id would be skipped by APScheduler as a second instance of a running job and never run again."""
        scheduler.add_job(job, "date", run_date=when, id=f"tick-{next(ticks)}")

    def summarise(done: Bot) -> None:
        missing = done.undelivered()
        if not missing:
            log.info("season %s: every post and private message was delivered", done.config.name)
            return
        log.warning("season %s: %d not delivered:", done.config.name, len(missing))
        for r in missing:  # the game is over: naming recipients reveals nothing any more
            what = {"pm": f"private message to {r.recipient}", "post": "post", "thread": "new thread"}.get(r.kind, r.kind)
            log.warning("  %s %s: %s", r.status, what, r.last_error or "")

    # A signal's handler runs in the main thread, where the scheduler's loop may hold the executor's lock
    # (handing a job over): a shutdown there would wait for that lock forever. The handler only passes
    # the signal on (SimpleQueue.put may be called from a signal handler); this thread stops the scheduler.
    signals: queue.SimpleQueue[int | None] = queue.SimpleQueue()

    def on_signal(signum: int, _frame: object) -> None:
        signals.put(signum)

    def stop_on_signal() -> None:
        if signals.get() is not None:
            halt("stopped by a signal")

    schedule_next(_now())
    previous = {}
    if threading.current_thread() is threading.main_thread():
        threading.Thread(target=stop_on_signal, name="signals", daemon=True).start()
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):  # a closed terminal stops it as cleanly
            previous[sig] = signal.signal(sig, on_signal)
    log.info("season %s: running (poll every %gs)", bot.config.name, interval)
    try:
        scheduler.start()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        signals.put(None)  # ends the signals thread if no signal came
    return bot

"""Running a season: APScheduler calls :meth:`Bot.cycle` every poll interval and at each instant the
game needs (start, reminders, deadlines), one job at a time. The jobs are rebuilt from the game's
state after every cycle, so after a restart they are where they should be; a job for a phase already
over finds nothing to do."""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Callable
from datetime import UTC, datetime

from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.schedulers.blocking import BlockingScheduler

from forumbot.runtime.bot import Bot
from forumbot.runtime.schedule import parse_duration

log = logging.getLogger("forumbot")


def run_bot(bot: Bot, *, stop_when_done: bool = True, stop: threading.Event | None = None,
            on_cycle: Callable[[Bot], None] | None = None) -> Bot:
    """Run ``bot`` until the game is over and delivered (``stop_when_done``), ``stop`` is set, or
    SIGINT/SIGTERM. Errors in a cycle are logged in one line and the next cycle tries again."""
    scheduler = BlockingScheduler(timezone=UTC, executors={"default": ThreadPoolExecutor(1)},
                                  job_defaults={"coalesce": True, "max_instances": 1, "misfire_grace_time": None})
    interval = parse_duration(bot.config.schedule.poll_interval).total_seconds()

    def job() -> None:
        try:
            bot.cycle()
        except Exception as exc:  # one bad cycle must not stop the season
            log.error("cycle failed: %s: %s", type(exc).__name__, exc)
            log.debug("cycle failure", exc_info=True)
            try:
                bot._rebuild()
            except Exception as again:  # pragma: no cover - database gone
                log.error("rebuild failed: %s", again)
        if on_cycle:
            on_cycle(bot)
        if (stop_when_done and bot.done()) or (stop is not None and stop.is_set()):
            log.info("season %s: %s", bot.config.name, "over and delivered" if bot.done() else "stopped")
            scheduler.shutdown(wait=False)
            return
        wake = bot.next_wakeup()
        if wake is not None and wake > datetime.now(UTC):
            scheduler.add_job(job, "date", run_date=wake, id="tick", replace_existing=True)

    scheduler.add_job(job, "interval", seconds=interval, next_run_time=datetime.now(UTC), id="poll")
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: scheduler.shutdown(wait=False))
    log.info("season %s: running (poll every %gs)", bot.config.name, interval)
    scheduler.start()
    return bot

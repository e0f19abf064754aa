"""What ``forumbot run`` does around the runner: one process a season (the season's lease in its database,
as ``forumbot serve`` takes it, renewed while it runs and fencing its writes), and no draw before every
player's and organiser's forum account is known to exist (the check of ``forumbot check --forum``)."""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Callable
from typing import Any

import typer

from forumbot.cli.database import database_errors, open_database
from forumbot.config import SeasonConfig
from forumbot.forums.errors import ForumError
from forumbot.language.numbers import parse_duration
from forumbot.runtime.schedule import format_local

log = logging.getLogger("forumbot")

#: how ``run`` waits before asking the forum again (tests replace it): ``stop`` set ends the wait early
def _wait(stop: threading.Event, seconds: float) -> None:
    stop.wait(seconds)


def accounts_ready(config: SeasonConfig, forum: Any, stop: threading.Event) -> bool:
    """Before a season's draw: True when the forum has an account of exactly each player's and organiser's
    name (:func:`forumbot.forums.check.account_report`). A forum that cannot be asked (down, refusing the
    login) is asked again every poll interval, as the bot tries its login before the start, until it
    answers or ``stop`` is set (False). When accounts are missing, prints the names, one line each with the
    fix, and returns False."""
    from forumbot.forums.check import account_report

    interval = parse_duration(config.schedule.poll_interval).total_seconds()
    while not stop.is_set():
        try:
            forum.login()
            lines, missing = account_report(forum, list(config.players), list(config.organisers))
        except ForumError as exc:
            log.error("season %s cannot start yet: the forum could not say whether every account exists (%s); "
                      "asking again in %g s", config.name, exc, interval)
            _wait(stop, interval)
            continue
        if not missing:
            log.info("season %s: %s", config.name, lines[0])
            return True
        typer.echo(f"error: season {config.name!r} does not start (no role is drawn): " + lines[0], err=True)
        for line in lines[1:]:
            typer.echo(line, err=True)
        return False
    return False


def _release(leases: Any, lease: Any) -> None:
    try:
        leases.release(lease)
    except Exception as exc:  # the database is gone: the lease lapses after its length instead
        log.error("season %s: could not end its lease (%s): it lapses in %g s", lease.season, exc, leases.lease_seconds)


def run_season(config: SeasonConfig, forum: Any, lease_seconds: float, make_bot: Callable[[Any], Any],
               warning: str | None = None) -> None:
    """``forumbot run``: take the season's lease (exit 2 with one line naming the holder when another process
    has it), open the bot (``make_bot(engine)``), check the accounts of a season not started yet (exit 1
    when some are missing), run it, and end the lease when it stops (the game over and delivered, or
    SIGTERM, SIGINT, SIGHUP). A lease lost while running (this process was paused longer than the lease and
    another took the season) stops it: exit 1. ``warning`` (a start in the past) is printed once the lease
    is ours: a second ``run`` says one line only."""
    from forumbot.runtime.runner import run_bot
    from forumbot.serve.lease import Leases, Renewal, held_message, worker_id

    with database_errors(config):
        engine = open_database(config)
        try:
            leases = Leases(engine, worker_id(), lease_seconds)
        except ValueError as exc:
            typer.echo(f"error: season {config.name!r}: {exc}", err=True)
            raise typer.Exit(2) from None
        lease = leases.take(config.name)
        if lease is None:
            holder = leases.holder(config.name)
            if holder is not None and holder.archived:
                typer.echo(f"error: season {config.name!r} is over: `forumbot serve` ({holder.worker}) archived it",
                           err=True)
            elif holder is not None:
                typer.echo("error: " + held_message(config.name, holder, lambda t: format_local(t, config.tz, "en")),
                           err=True)
            else:
                typer.echo(f"error: season {config.name!r} is being taken by another process right now", err=True)
            raise typer.Exit(2)
    if warning:
        typer.echo(warning, err=True)
    stop = threading.Event()
    renewal = Renewal(leases, lease, stop.set)
    previous: dict[signal.Signals, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):  # until the runner has its own handlers
            previous[sig] = signal.signal(sig, lambda *_: stop.set())
    renewal.start()
    try:
        bot = make_bot(engine)
        bot.store.guard = leases.guard(lease)  # every write checks, in its transaction, that the lease is ours
        if not bot.started and not accounts_ready(bot.config, forum, stop):
            if not stop.is_set():
                raise typer.Exit(1)
            return
        if not stop.is_set():
            run_bot(bot, stop=stop)
    finally:
        renewal.stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if not renewal.lost:
            _release(leases, lease)
    if renewal.lost:
        typer.echo(f"error: season {config.name!r}: this process lost its lease (it was held up longer than "
                   f"{lease_seconds:g} s) and another process judges the season now; nothing was written after that",
                   err=True)
        raise typer.Exit(1)


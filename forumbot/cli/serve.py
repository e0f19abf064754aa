"""``forumbot serve``: every season of a directory from one service (see docs/runtime.md)."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import sys
import threading
from pathlib import Path
from typing import Any

import typer

from forumbot.cli.outcome import outcome
from forumbot.cli.root import app
from forumbot.config import ConfigError, SeasonConfig, load_config
from forumbot.language.numbers import parse_duration
from forumbot.runtime.logcontext import JsonFormatter, SeasonFilter
from forumbot.runtime.schedule import format_local


def setup_serve_logging(level: str, fmt: str) -> None:
    """One line a record on stderr with the season's name: ``text`` or ``json`` (one object a line)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(SeasonFilter())
    if fmt == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s [%(season)s] %(message)s", "%Y-%m-%d %H:%M:%S"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(getattr(logging, level.upper(), logging.INFO))
    for noisy in ("httpx", "httpcore", "alembic"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    logging.getLogger("apscheduler").setLevel(logging.ERROR)


@app.command("serve")
def serve(
    seasons_dir: Path = typer.Argument(..., help="the directory of season files (*.toml)"),
    database: str = typer.Option(None, envvar="FORUMBOT_DATABASE",
                                 help="one SQLAlchemy URL for every season (PostgreSQL: several workers share the "
                                      "seasons); default: each season's own database"),
    worker: str = typer.Option(None, help="this worker's name among the workers of one database (default host:pid)"),
    lease: str = typer.Option("60s", help="how long a dead worker's seasons wait before another takes them"),
    scan: str = typer.Option("10s", help="how often the directory is read again for new season files"),
    metrics_port: int = typer.Option(None, help="serve /healthz and /metrics on this port (Prometheus)"),
    metrics_host: str = typer.Option("127.0.0.1", help="the address of /healthz and /metrics"),
    log_level: str = typer.Option("INFO", help="DEBUG shows more (including private details); INFO is safe to share"),
    log_format: str = typer.Option("text", help="text, or json: one JSON object a line"),
    console_port: int = typer.Option(None, help="serve the organiser's web console on this port (docs/console.md)"),
    console_host: str = typer.Option("127.0.0.1", help="the address of the console (behind a reverse proxy for others)"),
    console_public: bool = typer.Option(False, "--console-public",
                                        help="the console also serves read-only public pages (/public), without a login"),
) -> None:
    """Judge every season in SEASONS_DIR: start those due, pick up new files, archive those over to done/."""
    from forumbot.serve.service import ServeError, ServeOptions, Service, default_worker_id

    setup_serve_logging(log_level, log_format)
    if not seasons_dir.is_dir():
        typer.echo(f"error: {seasons_dir} is not a directory of season files", err=True)
        raise typer.Exit(2)
    try:
        options = ServeOptions(seasons_dir, database=database, worker=worker or default_worker_id(),
                               lease_seconds=parse_duration(lease).total_seconds(),
                               scan_seconds=parse_duration(scan).total_seconds(), metrics_port=metrics_port,
                               metrics_host=metrics_host)
        service = Service(options)
    except (ValueError, ServeError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    except Exception as exc:  # the database cannot be reached
        typer.echo(f"error: the database cannot be opened: {type(exc).__name__}: {exc}", err=True)
        raise typer.Exit(1) from None
    console = _console(seasons_dir, database, console_host, console_port, console_public)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):  # a closed terminal stops it as cleanly
        signal.signal(sig, lambda *_: service.stop())
    logging.getLogger("forumbot").info("serving %s as worker %s%s", seasons_dir, options.worker,
                                       f" on {database.split('@')[-1]}" if database else "")
    failure: list[BaseException] = []

    def run() -> None:
        try:
            service.run()
        except BaseException as exc:  # reported by the main thread: a message and an exit code, no traceback
            failure.append(exc)

    runner = threading.Thread(target=run, name="forumbot-serve")
    runner.start()
    while runner.is_alive():
        runner.join(timeout=0.5)
    if console is not None:
        console.stop()
    if failure:
        failed = failure[0]
        if isinstance(failed, ServeError):
            typer.echo(f"error: {failed}", err=True)
            raise typer.Exit(2)
        typer.echo(f"error: forumbot serve stopped: {type(failed).__name__}: {failed}", err=True)
        raise typer.Exit(1)


def _console(seasons_dir: Path, database: str | None, host: str, port: int | None, public: bool) -> Any:
    """The organiser's console of the directory, started (None without ``--console-port``); a port in use ends
    the command with one line (exit 2)."""
    if port is None:
        return None
    from forumbot.console.server import ConsoleError, directory_console

    try:
        return directory_console(seasons_dir, database, host, port, public).start()
    except ConsoleError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None


def status_all(seasons_dir: Path, database: str | None) -> None:
    """``forumbot status SEASONS_DIR``: one line per season of the directory (and ``done/``): its phase,
    deadline, outbox and (on a shared database) the worker judging it."""
    from forumbot.cli.season import outbox_words, phase_words, problem_words
    from forumbot.runtime.bot import Bot
    from forumbot.runtime.store import Store, make_engine
    from forumbot.serve.service import BLOCKED_FILE, DONE

    database = database or os.environ.get("FORUMBOT_DATABASE")
    engine = make_engine(database) if database else None
    holders: dict[str, tuple[str, bool, bool]] = {}
    if engine is not None and engine.dialect.name == "postgresql":
        from forumbot.serve.lease import Leases

        with contextlib.suppress(Exception):
            holders = Leases(engine, "status").holders()
    files = sorted(seasons_dir.glob("*.toml")) + sorted((seasons_dir / DONE).glob("*.toml"))
    if not files:
        typer.echo(f"{seasons_dir}: no season files")
        return
    blocked = _blocked(seasons_dir / BLOCKED_FILE)
    for path in files:
        try:
            c: SeasonConfig = load_config(path)
        except ConfigError as exc:
            typer.echo(f"{path.name}: not a season file: {str(exc).splitlines()[0]}")
            continue
        why = blocked.get(path.name)
        if why is not None and path.parent == seasons_dir and path.stat().st_mtime == why.get("mtime"):
            block = f"blocked: {why.get('reason')}"
        else:
            block = ""
        db = engine
        if db is None:
            url = c.database_url
            if url.startswith("sqlite:///") and not Path(url.removeprefix("sqlite:///")).exists():
                typer.echo(f"{c.name}: {block or 'not started'} ({path.name})")
                continue
            db = make_engine(url)
        if Store.find_season(db, c.name) is None:
            typer.echo(f"{c.name}: {block or 'not started'} ({path.name})")
            continue
        bot = Bot(c, _NoForum(), engine=db)  # type: ignore[arg-type]
        g = bot.game
        problem = problem_words(bot.forum_problem(), c)
        if not bot.started:
            state = "not started" + (f": {problem}" if problem else "")
        elif g.finished:
            state = outcome(g.winner, c.locale)
        else:
            state = phase_words(g.phase) + (" — PAUSED" if bot.timing.paused_since else "") \
                + (f" — {problem}" if problem else "")
        if block:
            state += f" — {block}"
        dl = bot.deadline()
        counts = bot.store.outbox_counts()
        outbox = outbox_words(counts, notes=False)
        holder = holders.get(c.name)
        who = ""
        if holder is not None:
            who = " · archived" if holder[2] else (f" · worker {holder[0]}" if holder[1] else " · no worker (lease expired)")
        where = f"{DONE}/{path.name}" if path.parent.name == DONE else path.name
        waiting = bot.started and not g.finished and not bot.timing.paused_since
        when = f", deadline {format_local(dl, c.tz, 'en')}" if dl else (", deadline when its post is out" if waiting else "")
        typer.echo(f"{c.name}: {state}" + when
                   + f" · posts and private messages: {outbox}{who} ({where})")


def _blocked(path: Path) -> dict[str, dict[str, Any]]:
    """What ``forumbot serve`` wrote of the seasons it cannot run (file name -> season, mtime, reason);
    nothing when it wrote nothing or the file cannot be read."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {k: v for k, v in data.items() if isinstance(v, dict)} if isinstance(data, dict) else {}


class _NoForum:
    """``status`` reads the database only."""

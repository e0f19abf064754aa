"""Many seasons judged by one service: ``forumbot serve SEASONS_DIR``.

Each season file (``*.toml``) of the directory is judged exactly as ``forumbot run`` judges it: one
:class:`~forumbot.runtime.bot.Bot` driven by :func:`~forumbot.runtime.runner.run_bot` in its own thread
(the same exactly-once machinery), so a season whose forum is down or slow holds up only itself. The
directory is scanned every ``scan_seconds``: a new file is picked up (a file that is not a valid season
is reported once, until it changes); a season over and delivered is **archived**: its file (and its
default SQLite database next to it) moves to ``SEASONS_DIR/done/``, and on a shared database its lease
row is marked archived so that no worker takes it again.

Databases: without ``database`` each season keeps its own (its file's ``database``, by default a SQLite
file next to it) and one process serves the directory (a lock file stops a second one). With
``database`` (a SQLAlchemy URL) every season of the directory lives in that one database; on PostgreSQL
several workers may serve the same directory and share the seasons through leases
(:mod:`forumbot.serve.lease`). Writes of one judge account on one forum are paced together across seasons
(and workers) by :mod:`forumbot.serve.pacing`.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import json
import logging
import os
import random
import shutil
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine

from forumbot.config import ConfigError, SeasonConfig, load_config
from forumbot.forums.base import Forum
from forumbot.forums.settings import SettingsError, make_forum
from forumbot.migrations import upgrade
from forumbot.runtime.inbox_routing import InboxSeason
from forumbot.runtime.logcontext import SEASON
from forumbot.runtime.store import make_engine
from forumbot.serve.lease import Lease, LeaseLost, Leases, worker_id
from forumbot.serve.metrics import HealthServer, Metrics
from forumbot.serve.pacing import Pacing, forum_key

log = logging.getLogger("forumbot")

DONE = "done"
BLOCKED_FILE = ".forumbot-serve-blocked.json"


def fewer_malloc_arenas(arenas: int = 2) -> None:
    """Limit glibc's malloc to ``arenas`` arenas (unless ``MALLOC_ARENA_MAX`` is set). glibc gives each new
    thread that allocates an arena of its own, up to 8 a core, and each keeps its freed memory: with a
    thread a season that is about 0.7 MB of resident memory a season for nothing (the seasons' threads
    take turns on the GIL anyway). Elsewhere than glibc this does nothing."""
    if os.environ.get("MALLOC_ARENA_MAX"):
        return
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).mallopt(-8, arenas)  # -8: M_ARENA_MAX in glibc's malloc.h


def default_worker_id() -> str:
    """host name and process id (:func:`forumbot.serve.lease.worker_id`): unique among the workers of one
    database, and the form ``forumbot run`` uses (so either can tell that a holder on this machine died)."""
    return worker_id()


@dataclass
class ServeOptions:
    """``seasons_dir``: the directory of season files; ``database``: one SQLAlchemy URL for every season
    (None: each season's own); ``lease_seconds``: how long a dead worker's seasons wait before another
    worker takes them (PostgreSQL); ``scan_seconds``: how often the directory is read again;
    ``metrics_port``: the port of ``/healthz`` and ``/metrics`` (None: not served; 0: any free port);
    ``forum_factory``: builds a season's forum adapter (tests and benchmarks give in-memory forums)."""

    seasons_dir: Path
    database: str | None = None
    worker: str = field(default_factory=default_worker_id)
    lease_seconds: float = 60.0
    scan_seconds: float = 10.0
    metrics_port: int | None = None
    metrics_host: str = "127.0.0.1"
    forum_factory: Callable[[SeasonConfig], Forum] | None = None
    startup_seconds: float | None = None  # PostgreSQL: wait this long for other workers before taking seasons


class SeasonThread(threading.Thread):
    """One season, run by :func:`run_bot` in its own thread until it is over and delivered or stopped."""

    def __init__(self, service: Service, path: Path, config: SeasonConfig, lease: Lease | None) -> None:
        super().__init__(name=f"season-{config.name}", daemon=True)
        self.service, self.path, self.config, self.lease = service, path, config, lease
        #: the leases of the season's own database (SQLite: taken by this thread), else None: the service's
        self.leases: Leases | None = None
        self.stop_event = threading.Event()
        self.bot: Any = None
        self.done = False
        self.error: str | None = None
        self.broken = False  # the file cannot run as it is (read again when it changes)

    def run(self) -> None:
        from forumbot.runtime.bot import Bot
        from forumbot.runtime.runner import run_bot

        SEASON.set(self.config.name)
        svc = self.service
        try:
            forum = svc.make_forum(self.config)
            engine = svc.engine_for(self.config)
            if self.lease is None:  # no shared leases: take the season's lease in its own database, as `run` does
                engine = engine or make_engine(self.config.database_url)
                upgrade(engine)
                if not self._own_lease(engine):
                    if svc.engine_for(self.config) is None:
                        engine.dispose()
                    return
            bot = Bot(self.config, forum, engine=engine)
        except (ConfigError, SettingsError, ValueError) as exc:
            self.error, self.broken = str(exc), True
            log.error("season %s cannot run (the file is read again when it changes): %s", self.config.name, exc)
            return
        except Exception as exc:  # the database is down: the next scan tries again
            self.error = f"{type(exc).__name__}: {exc}"
            log.error("season %s could not be opened: %s", self.config.name, self.error)
            return
        leases = self.leases or svc.leases
        if self.lease is not None and leases is not None:
            bot.store.guard = leases.guard(self.lease)
        f = self.config.forum
        bot.pace = svc.pacing.pace(f.base_url, f.username, float(f.min_write_interval_seconds))
        bot.inbox_seasons = svc.inbox_seasons(self.config)
        self.bot = bot
        try:
            run_bot(bot, stop=self.stop_event, on_cycle=svc.metrics.observe)
            self.done = not self.stop_event.is_set() and bot.done()
        except LeaseLost as exc:
            log.warning("%s", exc)
        except Exception as exc:  # pragma: no cover - the runner keeps cycle errors to itself
            self.error = f"{type(exc).__name__}: {exc}"
            log.error("season %s stopped: %s", self.config.name, self.error)

    def _own_lease(self, engine: Engine) -> bool:
        """Take the season's lease in ``engine`` (its own database): False, with the holder logged once, when
        another process judges it (a `forumbot run` of the same file); the next scan tries again."""
        svc = self.service
        leases = Leases(engine, svc.options.worker, svc.options.lease_seconds)
        lease = leases.take(self.config.name)
        if lease is None:
            holder = leases.holder(self.config.name)
            said = f"judged by another process ({holder.worker})" if holder is not None else "being taken"
            self.error = said
            if svc._held_elsewhere.get(self.config.name) != said:
                svc._held_elsewhere[self.config.name] = said
                log.warning("season %s is %s: this service judges it when that process stops", self.config.name,
                            said)
            return False
        svc._held_elsewhere.pop(self.config.name, None)
        self.leases, self.lease = leases, lease
        return True


class Service:
    """Serves the seasons of ``options.seasons_dir`` until :meth:`stop` (see the module's description)."""

    def __init__(self, options: ServeOptions) -> None:
        self.options = options
        self.dir = options.seasons_dir
        self.metrics = Metrics(served=options.metrics_port is not None)
        self.engine: Engine | None = make_engine(options.database) if options.database else None
        self.leases: Leases | None = None
        if self.engine is not None:
            self._upgrade_once(self.engine)
            if self.engine.dialect.name == "postgresql":
                # leases on their own small pool: seasons busy with the database never delay a renewal
                lease_engine = create_engine(self.engine.url, pool_pre_ping=True, pool_size=2, max_overflow=2)
                self.leases = Leases(lease_engine, options.worker, options.lease_seconds)
        self.pacing = Pacing(self.engine if self.leases is not None else None)
        self.threads: dict[str, SeasonThread] = {}
        self._files: dict[Path, tuple[float, SeasonConfig | None]] = {}  # path -> (mtime, config or None: invalid)
        self._stop = threading.Event()
        self._lock_file: Any = None
        self.last_step = time.monotonic()
        self.health_server: HealthServer | None = None
        self._started = time.monotonic()
        self.archived: list[str] = []
        # season files that cannot run, until they change: path -> (mtime, season name or None, reason)
        self._broken: dict[Path, tuple[float, str | None, str]] = {}
        self._invalid: dict[Path, str] = {}  # why a file is not a season file (its first line)
        self._blocked_written: dict[str, Any] | None = None
        self._inboxes: dict[str, list[InboxSeason]] = {}  # forum_key -> the seasons reading that inbox
        self._held_elsewhere: dict[str, str] = {}  # season -> who else judges it (logged once)

    # --- databases -----------------------------------------------------------------------------------
    def _upgrade_once(self, engine: Engine) -> None:
        """Bring the shared database to the newest schema; on PostgreSQL under an advisory lock, so that
        workers starting together do not create the tables twice."""
        if engine.dialect.name != "postgresql":
            upgrade(engine)
            return
        with engine.connect() as c:
            c.execute(text("SELECT pg_advisory_lock(4711014)"))
            try:
                upgrade(engine)
            finally:
                c.execute(text("SELECT pg_advisory_unlock(4711014)"))
                c.commit()

    def engine_for(self, config: SeasonConfig) -> Engine | None:
        """The shared engine, or None: the season opens its own database."""
        return self.engine

    def make_forum(self, config: SeasonConfig) -> Forum:
        if self.options.forum_factory is not None:
            return self.options.forum_factory(config)
        return make_forum(config.forum, config.base_dir)

    # --- the directory -------------------------------------------------------------------------------
    def scan(self) -> dict[str, tuple[Path, SeasonConfig]]:
        """The valid season files of the directory, by season name (a file whose name is taken by
        another file is reported and left out)."""
        seasons: dict[str, tuple[Path, SeasonConfig]] = {}
        present = set()
        for path in sorted(self.dir.glob("*.toml")):
            present.add(path)
            try:
                mtime = path.stat().st_mtime
            except OSError:
                continue
            known = self._files.get(path)
            if known is None or known[0] != mtime:
                config = self._load(path)
                self._files[path] = (mtime, config)
                known = self._files[path]
            config = known[1]
            if config is None:
                if path not in self._broken or self._broken[path][0] != known[0]:
                    self._broken[path] = (known[0], None, self._invalid.get(path, "not a season file"))
                continue
            if self.engine is not None and config.database and config.database != self.options.database:
                log.warning("%s: its database setting is ignored: every season of `forumbot serve --database` "
                            "lives in that database", path)
            other = seasons.get(config.name)
            if other is not None:
                if known[0] == mtime and path not in getattr(self, "_dupes", set()):
                    self.__dict__.setdefault("_dupes", set()).add(path)
                    log.error("%s: season name %r is already the name of %s; rename one (a season's name is its "
                              "key in the database)", path, config.name, other[0])
                continue
            seasons[config.name] = (path, config)
        for gone in set(self._files) - present:
            del self._files[gone]
        for gone in set(self._broken) - present:
            del self._broken[gone]
        return seasons

    def _load(self, path: Path) -> SeasonConfig | None:
        self._invalid.pop(path, None)
        try:
            config = load_config(path)
        except ConfigError as exc:
            self._invalid[path] = "not a season file: " + str(exc).splitlines()[0]
            log.error("%s is not a season file that can run (it is read again when it changes): %s", path, exc)
            return None
        for warning in config.warnings:  # legal but likely wrong: the season runs (forumbot check tells the same)
            log.warning("%s %s", path, warning)
        return config

    def archive(self, path: Path, config: SeasonConfig) -> None:
        """Move a finished season's file (and its default SQLite database) to ``done/``."""
        target = self.dir / DONE
        target.mkdir(exist_ok=True)
        moves = [path]
        if self.engine is None and not config.database:
            db = path.with_suffix(".db")
            moves += [db, Path(f"{db}-wal"), Path(f"{db}-shm"), Path(f"{db}-journal")]
        for p in moves:
            if p.exists():
                try:
                    shutil.move(str(p), str(target / p.name))
                except OSError as exc:
                    log.error("could not move %s to %s: %s", p, target, exc)
        self._files.pop(path, None)
        self.archived.append(config.name)
        log.info("season %s archived: %s moved to %s/", config.name, path.name, DONE)

    # --- the loop ------------------------------------------------------------------------------------
    def step(self) -> None:
        """One pass: reap finished seasons, renew leases, pick up seasons to judge."""
        self.last_step = time.monotonic()
        for name, th in list(self.threads.items()):
            if th.is_alive():
                continue
            del self.threads[name]
            self.metrics.forget(name, th.config.forum.base_url)
            if th.broken:
                self._broken[th.path] = (self._files.get(th.path, (0.0, None))[0], name, th.error or "cannot run")
                self.metrics.seasons.labels("blocked").set(len(self._broken))  # as /healthz shows it from now
            if th.done:
                if th.lease is not None and th.leases is not None:
                    self._release(th.leases, th.lease)  # its own database: archived with the file
                elif th.lease is not None and self.leases is not None:
                    self.leases.release(th.lease, archived=True)
                self.archive(th.path, th.config)
            elif th.lease is not None and (leases := th.leases or self.leases) is not None:
                self._release(leases, th.lease)
        for name, th in list(self.threads.items()):
            leases = th.leases or self.leases
            if th.lease is not None and leases is not None and not th.stop_event.is_set() \
                    and not self._renew(th.lease, leases):
                log.warning("season %s: lease lost; this worker stops judging it", name)
                self.metrics.leases_lost.inc()
                th.stop_event.set()
        if self._stop.is_set():
            return
        seasons = self.scan()
        self._share_inboxes(seasons)
        candidates = [n for n, (path, _) in seasons.items() if n not in self.threads
                      and self._broken.get(path, (None,))[0] != self._files.get(path, (None, None))[0]]
        if self.leases is None:
            for name in candidates:
                self._start(name, *seasons[name], None)
        else:
            alive = self.leases.heartbeat()
            share = self.leases.share(len(seasons), alive)
            random.shuffle(candidates)
            for name in candidates:
                if len(self.threads) >= share:
                    break
                path, config = seasons[name]
                if self.leases.archived(name):
                    if path.exists():
                        self.archive(path, config)  # archived by another worker: this copy of the file too
                    continue
                lease = self.leases.try_acquire(name)
                if lease is not None:
                    self._start(name, path, config, lease)
        running = sum(1 for th in self.threads.values() if th.bot is not None)
        self.metrics.seasons.labels("running").set(running)
        self.metrics.seasons.labels("starting").set(len(self.threads) - running)
        self.metrics.seasons.labels("blocked").set(len(self._broken))
        self._write_blocked()

    def _share_inboxes(self, seasons: dict[str, tuple[Path, SeasonConfig]]) -> None:
        """Group the seasons of the directory (but those that cannot run) by judge account and forum, and tell
        each running season the seasons it shares its inbox with (:mod:`forumbot.runtime.inbox_routing`)."""
        groups: dict[str, list[InboxSeason]] = {}
        for name, (path, config) in sorted(seasons.items()):
            if path in self._broken and self._broken[path][0] == self._files.get(path, (None, None))[0]:
                continue  # cannot run as the file is: it reads nothing
            groups.setdefault(forum_key(config.forum.base_url, config.forum.username), []).append(
                InboxSeason(name, tuple(config.players), tuple(config.organisers), config.start_utc()))
        self._inboxes = groups
        for th in self.threads.values():
            if th.bot is not None:
                th.bot.inbox_seasons = self.inbox_seasons(th.config)

    def inbox_seasons(self, config: SeasonConfig) -> list[InboxSeason]:
        """The seasons of the directory judged by ``config``'s judge account on its forum, this one included."""
        return list(self._inboxes.get(forum_key(config.forum.base_url, config.forum.username), []))

    def blocked(self) -> dict[str, str]:
        """The seasons that cannot run as their files are, by season name (by file name for a file that
        is not a season file): the reason, e.g. a password variable that is not set. Each is read again
        when its file changes."""
        return {name or path.name: reason for path, (_, name, reason) in sorted(self._broken.items())}

    def _write_blocked(self) -> None:
        """Keep ``SEASONS_DIR/.forumbot-serve-blocked.json`` (file name -> season, mtime, reason) as the
        blocked seasons are, for ``forumbot status SEASONS_DIR`` in another process."""
        body = {path.name: {"season": name, "mtime": mtime, "reason": reason}
                for path, (mtime, name, reason) in sorted(self._broken.items())}
        if body == self._blocked_written:
            return
        target = self.dir / BLOCKED_FILE
        try:
            tmp = target.with_name(f"{target.name}.{os.getpid()}.{threading.get_ident()}.tmp")  # workers share dirs
            tmp.write_text(json.dumps(body, ensure_ascii=False, indent=1), encoding="utf-8")
            os.replace(tmp, target)
            self._blocked_written = body
        except OSError as exc:
            log.error("could not write %s: %s", target, exc)

    def _renew(self, lease: Lease, leases: Leases) -> bool:
        try:
            return leases.renew(lease)
        except Exception as exc:  # the database is unreachable: the lease may lapse; the guard refuses writes
            log.error("lease renewal failed: %s", exc)
            return True

    def _release(self, leases: Leases, lease: Lease) -> None:
        try:
            leases.release(lease)
        except Exception as exc:  # the lease lapses after its length instead
            log.error("season %s: could not end its lease: %s", lease.season, exc)

    def _start(self, name: str, path: Path, config: SeasonConfig, lease: Lease | None) -> None:
        self._broken.pop(path, None)  # read again: changed since it was blocked
        th = SeasonThread(self, path, config, lease)
        self.threads[name] = th
        log.info("season %s: judged by this worker (%s)", name, path.name)
        th.start()

    def run(self) -> None:
        """Serve until :meth:`stop` (then every season stops after its current cycle; leases are ended
        so that other workers take the seasons at once)."""
        self._lock_directory()
        fewer_malloc_arenas()
        if self.options.metrics_port is not None:
            self.health_server = HealthServer(self.metrics, self.health, self.options.metrics_port,
                                              self.options.metrics_host).start()
            log.info("health on http://%s:%d/healthz, metrics on /metrics", self.options.metrics_host,
                     self.health_server.port)
        if self.leases is not None:
            self.leases.heartbeat()
            wait = self.options.startup_seconds
            if wait is None:
                wait = min(self.options.lease_seconds / 3, 10.0)
            self._stop.wait(wait)  # workers started together see each other before sharing the seasons
        every = min(self.options.scan_seconds, self.options.lease_seconds / 3)  # renewals in time
        try:
            while not self._stop.is_set():
                try:
                    self.step()
                except Exception as exc:  # the database is down: keep trying; seasons keep their own loops
                    log.error("serve: %s: %s", type(exc).__name__, exc)
                self._stop.wait(every)
        finally:
            self._shutdown()

    def _shutdown(self) -> None:
        stopping = len(self.threads)
        for th in self.threads.values():
            th.stop_event.set()
        for th in list(self.threads.values()):
            th.join(timeout=60)
        try:
            self.step()  # archive what finished, release the rest
        except Exception as exc:
            log.error("serve: %s", exc)
        if self.leases is not None:
            try:
                self.leases.leave()
            except Exception as exc:
                log.error("serve: %s", exc)
        if self.health_server is not None:
            self.health_server.stop()
        if self._lock_file is not None:
            self._lock_file.close()
        log.info("stopped serving %s (%d season%s stopped; the next start goes on where each stopped)", self.dir,
                 stopping, "" if stopping == 1 else "s")

    def stop(self) -> None:
        self._stop.set()

    def _lock_directory(self) -> None:
        """Without leases one process serves a directory: a second one stops with a clear message."""
        if self.leases is not None:
            return
        self._lock_file = open(self.dir / ".forumbot-serve.lock", "w")  # noqa: SIM115 - held while serving
        try:
            fcntl.flock(self._lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._lock_file.close()
            self._lock_file = None
            raise ServeError(f"another `forumbot serve` already serves {self.dir}; several workers need "
                             "a PostgreSQL database (--database postgresql+psycopg://...)") from None

    def health(self) -> dict[str, Any]:
        """The body of ``/healthz``: ``ok`` while the service loop runs on time."""
        every = min(self.options.scan_seconds, self.options.lease_seconds / 3)
        stalled = time.monotonic() - self.last_step > 3 * every + 5
        seasons = {name: ("running" if th.bot is not None else ("failed: " + th.error if th.error else "starting"))
                   for name, th in self.threads.items()}
        seasons.update({name: "blocked: " + reason for name, reason in self.blocked().items()})
        return {"ok": not stalled and not self._stop.is_set(), "worker": self.options.worker,
                "seasons": seasons, "archived": list(self.archived)}


class ServeError(RuntimeError):
    """A reason ``forumbot serve`` cannot start, for the user."""

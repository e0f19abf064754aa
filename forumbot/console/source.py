"""Where the console finds its seasons: the season files of a ``forumbot serve`` directory (and its ``done/``),
or the one file of ``forumbot run FILE --web``, each read from its database (the season's own, or the one
``--database`` every season of a directory shares).

The console never judges a season: it reads the database the judging process writes, and gives organiser
commands through it (:mod:`forumbot.console.steer`). A season's :class:`~forumbot.runtime.bot.Bot` is rebuilt
from its stored inputs only when the database changed since the last page (:meth:`SeasonSource.bot`).
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import func
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from forumbot.config import ConfigError, SeasonConfig, load_config
from forumbot.runtime.store import CursorRow, InboundRow, InputRow, OutboxRow, Store, make_engine

DONE = "done"  # forumbot.serve.service.DONE (not imported: the console runs without the serve machinery)
BLOCKED_FILE = ".forumbot-serve-blocked.json"  # forumbot.serve.service.BLOCKED_FILE


@dataclass
class SeasonEntry:
    """One season file: ``config`` (None when the file is not a season file: ``error`` says why), ``blocked``
    (why ``forumbot serve`` cannot run it, from its blocked-seasons file; None: not blocked), ``done`` (archived
    in ``done/``)."""

    path: Path
    config: SeasonConfig | None
    error: str | None = None
    blocked: str | None = None
    done: bool = False

    @property
    def key(self) -> str:
        """The season's name in URLs (its file's stem when the file is not a season file)."""
        return self.config.name if self.config is not None else self.path.stem


class SeasonUnavailable(Exception):
    """A season's database cannot be read (unreachable, or its season file no longer matches it: the message
    says which and what to do)."""


class _NoForum:
    """The console reads the database only: the bot it builds never talks to the forum."""


class SeasonSource:
    """The seasons the console shows: ``files`` (season files) or a ``directory`` of them; ``database`` (an
    SQLAlchemy URL) holds every season when given, else each season's own ``database``."""

    def __init__(self, *, directory: Path | None = None, files: list[Path] | None = None,
                 database: str | None = None) -> None:
        if (directory is None) == (files is None):
            raise ValueError("a season source is a directory or a list of files")
        self.directory = directory
        self.files = files
        self.database = database
        self._engines: dict[str, Engine] = {}
        self._bots: dict[str, Any] = {}  # season name -> Loaded
        self._lock = threading.RLock()

    # --- files ----------------------------------------------------------------------------------------
    def entries(self) -> list[SeasonEntry]:
        """Every season file, in file-name order (a directory's running seasons before its ``done/`` ones)."""
        if self.files is not None:
            return [self._entry(p, False, {}) for p in self.files]
        assert self.directory is not None
        blocked = _blocked(self.directory / BLOCKED_FILE)
        paths = [(p, False) for p in sorted(self.directory.glob("*.toml"))]
        paths += [(p, True) for p in sorted((self.directory / DONE).glob("*.toml"))]
        return [self._entry(p, done, blocked) for p, done in paths]

    def entry(self, key: str) -> SeasonEntry | None:
        """The season named ``key`` (see :attr:`SeasonEntry.key`), or None."""
        return next((e for e in self.entries() if e.key == key), None)

    def _entry(self, path: Path, done: bool, blocked: dict[str, dict[str, Any]]) -> SeasonEntry:
        try:
            config = load_config(path)
        except ConfigError as exc:
            return SeasonEntry(path, None, error=str(exc).splitlines()[0], done=done)
        if self.database:
            config = config.model_copy(update={"database": self.database})
        why = blocked.get(path.name)
        reason = None
        try:
            if why is not None and not done and path.stat().st_mtime == why.get("mtime"):
                reason = str(why.get("reason"))
        except OSError:
            reason = None
        return SeasonEntry(path, config, blocked=reason, done=done)

    # --- databases ------------------------------------------------------------------------------------
    def engine(self, config: SeasonConfig) -> Engine | None:
        """The engine of ``config``'s database, or None when its SQLite file does not exist yet (nothing ran;
        the console creates no database)."""
        url = config.database_url
        if url.startswith("sqlite:///") and not Path(url.removeprefix("sqlite:///")).exists():
            return None
        with self._lock:
            if url not in self._engines:
                self._engines[url] = make_engine(url)
            return self._engines[url]

    def store(self, config: SeasonConfig) -> Store | None:
        """The store of ``config``'s season, or None when it never ran in its database."""
        from forumbot.migrations import stored_revision

        engine = self.engine(config)
        if engine is None:
            return None
        try:
            if stored_revision(engine) is None:  # no forumbot tables: nothing ran there (looking creates nothing)
                return None
            return Store.find_season(engine, config.name)
        except Exception as exc:  # the database server does not answer, the file cannot be read
            raise SeasonUnavailable(_explain(exc, config.database_url)) from None

    def season(self, config: SeasonConfig) -> Any:
        """The season as the console holds it (:class:`forumbot.console.loaded.Loaded`: its read-only bot and its
        steps), up to date with the database: new inputs are applied to the bot held, a season never seen (or whose
        inputs were not simply appended to) is built from its stored inputs. None when the season never ran.
        Raises :class:`SeasonUnavailable`."""
        from forumbot.console.loaded import catch_up, load
        from forumbot.runtime.bot import Bot

        store = self.store(config)
        if store is None:
            return None
        with self._lock:  # one page at a time brings a season up to date
            try:
                mark = fingerprint(store)
                held = self._bots.get(config.name)
                if held is not None and held.bot.store.engine is store.engine and \
                        (held.mark == mark or catch_up(held, mark)):
                    return held
                bot = Bot(config, _NoForum(), engine=store.engine)  # type: ignore[arg-type]
                loaded = self._bots[config.name] = load(bot, mark)
                return loaded
            except ConfigError as exc:
                self._bots.pop(config.name, None)
                raise SeasonUnavailable(str(exc).splitlines()[0]) from None
            except Exception as exc:
                self._bots.pop(config.name, None)  # half caught up, maybe: built anew next time
                raise SeasonUnavailable(_explain(exc, config.database_url)) from None

    def bot(self, config: SeasonConfig) -> Any:
        """The season's read-only bot (see :meth:`season`), or None when it never ran."""
        loaded = self.season(config)
        return loaded.bot if loaded is not None else None


def fingerprint(store: Store) -> tuple[Any, ...]:
    """What changes whenever the judging process writes to the season: inputs, inbound rows, the outbox's rows,
    statuses and attempts, and the cursors (poll times, deadlines moved)."""
    sid = store.season_id
    with Session(store.engine) as s:
        inputs = s.exec(select(func.count()).select_from(InputRow).where(InputRow.season_id == sid)).one()
        inbound = s.exec(select(func.max(InboundRow.id), func.count()).where(InboundRow.season_id == sid)).one()
        outbox = s.exec(select(OutboxRow.status, func.count(), func.max(OutboxRow.id), func.sum(OutboxRow.attempts))
                        .where(OutboxRow.season_id == sid).group_by(col(OutboxRow.status))).all()
        cursors = s.exec(select(CursorRow.name, CursorRow.value).where(CursorRow.season_id == sid)).all()
    return (inputs, tuple(inbound), tuple(sorted(tuple(r) for r in outbox)), hash(tuple(sorted(tuple(c) for c in cursors))))


def _explain(exc: BaseException, url: str) -> str:
    """One line on why the database of ``url`` (shown without its password) could not be read."""
    from sqlalchemy.engine import make_url

    try:
        shown = make_url(url).render_as_string(hide_password=True)
    except Exception:
        shown = url.split("@")[-1]
    detail = str(getattr(exc, "orig", None) or exc).strip().splitlines()
    return f"the database {shown} cannot be read ({detail[0] if detail else type(exc).__name__})"


def _blocked(path: Path) -> dict[str, dict[str, Any]]:
    """What ``forumbot serve`` wrote of the seasons it cannot run (file name -> season, mtime, reason)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {k: v for k, v in data.items() if isinstance(v, dict)} if isinstance(data, dict) else {}


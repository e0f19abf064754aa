"""A season's database as the command line opens it: one clear line, never a traceback, when it cannot be
opened, reached or written (a read-only SQLite file or folder, a folder that does not exist, a server that
does not answer, a driver that is not installed)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

import typer
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, OperationalError, SQLAlchemyError

from forumbot.config import SeasonConfig


def shown_url(url: str) -> str:
    """``url`` as it may be printed: without its password."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url.split("@")[-1]


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite ``url``, or None (another database, in memory, a ``file:`` URI)."""
    try:
        u = make_url(url)
    except ArgumentError:
        return None
    if u.get_backend_name() != "sqlite" or not u.database or u.database == ":memory:" or u.database.startswith("file:"):
        return None
    return Path(u.database)


def explain(exc: BaseException, url: str) -> str:
    """One line on why the database of ``url`` could not be used (``exc``: what SQLAlchemy or the driver
    raised), with what to check."""
    detail = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if isinstance(exc, (NoSuchModuleError, ImportError)):
        return (f"the database {shown_url(url)} needs a driver that is not installed ({detail}); "
                "for PostgreSQL: pip install 'psycopg[binary]'")
    path = sqlite_path(url)
    readonly = "readonly" in detail.lower().replace("-", "").replace(" ", "")
    if path is None:
        if readonly:
            return f"the database {shown_url(url)} is read-only ({detail}): forumbot needs to write to it"
        if make_url(url).get_backend_name() == "sqlite":
            return f"cannot open the database {shown_url(url)} ({detail})"
        return f"cannot reach the database {shown_url(url)} ({detail}): is the server running, and the URL right?"
    folder = path.parent
    if not folder.is_dir():
        return f"cannot open the database {path}: there is no folder {folder} (create it, or fix `database` in the season file)"
    if not path.exists() and not os.access(folder, os.W_OK):
        return (f"cannot create the database {path}: its folder {folder} is read-only ({detail}); make it writable "
                "by this user, or set `database` in the season file to a writable place")
    if readonly or not os.access(folder, os.W_OK) or not os.access(path, os.W_OK):
        return (f"the database {path} is read-only ({detail}): forumbot writes to it and to its -wal and -shm files "
                f"beside it; make the file and its folder {folder} writable by this user")
    return f"cannot open the database {path} ({detail})"


@contextlib.contextmanager
def database_errors(config: SeasonConfig) -> Iterator[None]:
    """Turn a database failure in the block into one ``error:`` line on stderr and exit code 1."""
    try:
        yield
    except (SQLAlchemyError, ImportError) as exc:
        typer.echo(f"error: season {config.name!r}: {explain(exc, config.database_url)}", err=True)
        raise typer.Exit(1) from None


def open_database(config: SeasonConfig) -> Engine:
    """The season's database, upgraded to the newest schema (created if new; when two processes create
    it at once, the second completes what the first made). Raises what SQLAlchemy raises (inside
    :func:`database_errors`)."""
    from forumbot.migrations import upgrade
    from forumbot.runtime.store import make_engine

    engine = make_engine(config.database_url)
    try:
        upgrade(engine)
    except OperationalError as exc:
        if "already exists" not in str(exc):
            raise
        upgrade(engine)  # another process created the new database's tables at the same moment: now complete
    return engine


def has_tables(engine: Engine) -> bool:
    """True when the database holds forumbot's tables (some season ran in it): looking creates nothing."""
    from forumbot.migrations import stored_revision

    return stored_revision(engine) is not None

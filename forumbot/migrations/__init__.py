"""Database schema migrations (Alembic). :func:`upgrade` brings any database to the newest schema;
the bot calls it on start, so organisers never run Alembic by hand.

A database already at the newest revision is recognised from its ``alembic_version`` row, and a new
one gets the tables from the models and is stamped with the newest revision (Alembic's documented
"create_all, then stamp" for fresh databases; ``tests/runtime/test_migrations.py`` holds the two
schemas equal). Only an older database imports Alembic and runs the migrations: Alembic, Mako and
Pygments are ≈7 MB of a `forumbot serve` process that would otherwise never use them.
"""

from __future__ import annotations

import threading
import weakref
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Column, MetaData, PrimaryKeyConstraint, String, Table, inspect, select
from sqlalchemy.engine import Engine

if TYPE_CHECKING:
    from alembic.config import Config

HERE = Path(__file__).resolve().parent
#: the newest revision in ``versions/`` (a test holds it equal to Alembic's head)
HEAD = "0009"
# Alembic's command API runs through module-level state: one upgrade at a time in a process (``forumbot
# serve`` opens seasons in several threads), and an engine upgraded to the head once is not asked again.
_LOCK = threading.Lock()
_AT_HEAD: weakref.WeakSet[Engine] = weakref.WeakSet()

# Alembic's own version table, as Alembic creates it
_VERSION = Table("alembic_version", MetaData(), Column("version_num", String(32), nullable=False),
                 PrimaryKeyConstraint("version_num", name="alembic_version_pkc"))


def alembic_config(engine: Engine) -> Config:
    """The Alembic configuration that migrates the database behind ``engine`` (no alembic.ini)."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    cfg.attributes["engine"] = engine
    return cfg


def stored_revision(engine: Engine) -> str | None:
    """The revision the database behind ``engine`` is stamped with, or None (no version table or row)."""
    with engine.connect() as conn:
        if not inspect(conn).has_table(_VERSION.name):
            return None
        return conn.execute(select(_VERSION.c.version_num)).scalar()


def _create_at_head(engine: Engine) -> None:
    """A database with no revision: create the missing tables from the models and stamp it :data:`HEAD`,
    in one transaction where the database has transactional DDL (PostgreSQL); on SQLite a crash part way
    leaves tables but no stamp, and the next start completes them (``create_all`` skips what exists)."""
    from sqlmodel import SQLModel

    from forumbot.runtime import store  # noqa: F401  (the tables' metadata)

    with engine.begin() as conn:
        SQLModel.metadata.create_all(conn)
        _VERSION.create(conn, checkfirst=True)
        conn.execute(_VERSION.delete())
        conn.execute(_VERSION.insert().values(version_num=HEAD))


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Upgrade the database behind ``engine`` to ``revision`` (default: the newest). A new database is
    created at the newest revision; one at the newest is left alone; any other runs the migrations."""
    with _LOCK:
        if revision == "head":
            if engine in _AT_HEAD:
                return
            stored = stored_revision(engine)
            if stored == HEAD:
                _AT_HEAD.add(engine)
                return
            if stored is None:
                _create_at_head(engine)
                _AT_HEAD.add(engine)
                return
        migrate(engine, revision)
        if revision == "head":
            _AT_HEAD.add(engine)


def migrate(engine: Engine, revision: str = "head") -> None:
    """Run Alembic's migrations on the database behind ``engine`` up to ``revision`` (no shortcut)."""
    from alembic import command

    command.upgrade(alembic_config(engine), revision)

"""Database schema migrations (Alembic). :func:`upgrade` brings any database to the newest schema;
the bot calls it on start, so organisers never run Alembic by hand."""

from __future__ import annotations

import threading
import weakref
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Engine

HERE = Path(__file__).resolve().parent
# Alembic's command API runs through module-level state: one upgrade at a time in a process (``forumbot
# serve`` opens seasons in several threads), and an engine upgraded to the head once is not asked again.
_LOCK = threading.Lock()
_AT_HEAD: weakref.WeakSet[Engine] = weakref.WeakSet()


def alembic_config(engine: Engine) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    cfg.attributes["engine"] = engine
    return cfg


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Upgrade the database behind ``engine`` to ``revision`` (default: the newest)."""
    with _LOCK:
        if revision == "head" and engine in _AT_HEAD:
            return
        command.upgrade(alembic_config(engine), revision)
        if revision == "head":
            _AT_HEAD.add(engine)

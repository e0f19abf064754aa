"""The Alembic migrations build exactly the schema the SQLModel tables describe."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlmodel import SQLModel

from forumbot.migrations import upgrade
from forumbot.runtime import store  # noqa: F401  (registers the tables)
from forumbot.runtime.store import make_engine


def test_migrations_match_the_models(db_url):
    engine = make_engine(db_url)
    upgrade(engine)
    upgrade(engine)  # a second run is a no-op
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), SQLModel.metadata)
    relevant = [d for d in diff if not (isinstance(d, tuple) and d[0] in ("add_index", "remove_index"))]
    assert relevant == [], relevant
    engine.dispose()

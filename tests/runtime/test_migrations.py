"""The Alembic migrations build exactly the schema the SQLModel tables describe; a new database is made
from the models and stamped at the newest revision, an older one is migrated, and neither a new database
nor one already at the newest revision imports Alembic (its ≈7 MB count in `forumbot serve`)."""

from __future__ import annotations

import subprocess
import sys

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect
from sqlmodel import SQLModel

from forumbot.migrations import HEAD, alembic_config, migrate, stored_revision, upgrade
from forumbot.runtime import store  # noqa: F401  (registers the tables)
from forumbot.runtime.store import make_engine


def _schema(engine) -> dict:
    """Tables -> columns (as a set: their order differs between ALTER TABLE and CREATE TABLE), primary key,
    indexes, unique constraints and foreign keys."""
    i = inspect(engine)
    return {t: {"columns": {(c["name"], str(c["type"]), c["nullable"]) for c in i.get_columns(t)},
                "pk": i.get_pk_constraint(t)["constrained_columns"],
                "indexes": sorted((x["name"], tuple(x["column_names"]), bool(x["unique"])) for x in i.get_indexes(t)),
                "unique": sorted(tuple(x["column_names"]) for x in i.get_unique_constraints(t)),
                "foreign": sorted((tuple(x["constrained_columns"]), x["referred_table"]) for x in i.get_foreign_keys(t))}
            for t in i.get_table_names()}


def test_head_is_alembics_head():
    assert ScriptDirectory.from_config(alembic_config(make_engine("sqlite://"))).get_current_head() == HEAD


def test_migrations_match_the_models(db_url):
    engine = make_engine(db_url)
    migrate(engine)
    upgrade(engine)  # at the newest revision: nothing to do
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), SQLModel.metadata)
    relevant = [d for d in diff if not (isinstance(d, tuple) and d[0] in ("add_index", "remove_index"))]
    assert relevant == [], relevant
    engine.dispose()


def test_a_new_database_has_the_migrated_schema(tmp_path):
    created, migrated = (make_engine(f"sqlite:///{tmp_path / name}") for name in ("created.db", "migrated.db"))
    upgrade(created)
    migrate(migrated)
    assert stored_revision(created) == stored_revision(migrated) == HEAD
    assert _schema(created) == _schema(migrated)
    assert _schema(created)["outbox"]["indexes"]  # the comparison sees indexes


def test_a_new_database_matches_the_models(db_url):
    engine = make_engine(db_url)
    upgrade(engine)
    assert stored_revision(engine) == HEAD
    with engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), SQLModel.metadata) == []
    engine.dispose()


def test_an_older_database_is_migrated_to_the_newest(db_url):
    engine = make_engine(db_url)
    migrate(engine, "0006")
    assert stored_revision(engine) == "0006"
    upgrade(engine)
    assert stored_revision(engine) == HEAD
    assert "image_json" in {c["name"] for c in inspect(engine).get_columns("outbox")}
    engine.dispose()


def test_tables_without_a_stamp_are_completed(tmp_path):
    """A crash while SQLite created the tables (its DDL is not in the transaction) leaves some tables and no
    stamp: the next start creates the rest and stamps the newest revision."""
    engine = make_engine(f"sqlite:///{tmp_path / 'half.db'}")
    SQLModel.metadata.tables["inbound"].create(engine)
    upgrade(engine)
    assert stored_revision(engine) == HEAD
    assert {"inbound", "outbox", "alembic_version"} <= set(inspect(engine).get_table_names())


def test_neither_a_new_database_nor_one_at_the_newest_revision_imports_alembic(tmp_path):
    url = f"sqlite:///{tmp_path / 'fresh.db'}"
    probe = ("import sys; from forumbot.migrations import upgrade, stored_revision; "
             "from forumbot.runtime.store import make_engine; e = make_engine(sys.argv[1]); upgrade(e); "
             "print(stored_revision(e), sorted(m for m in sys.modules if m.split('.')[0] in ('alembic', 'mako', 'pygments')))")
    for _ in range(2):  # new, then at the newest revision
        out = subprocess.run([sys.executable, "-c", probe, url], capture_output=True, text=True, check=True).stdout
        assert out.split() == [HEAD, "[]"]

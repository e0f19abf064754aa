"""Databases for runtime tests: SQLite always; PostgreSQL when FORUMBOT_TEST_POSTGRES names a server
(``.ci/run`` starts one, so CI always tests both)."""

from __future__ import annotations

import os
import uuid

import pytest
from sqlalchemy import create_engine, text

PG = os.environ.get("FORUMBOT_TEST_POSTGRES")


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request, tmp_path):
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'season.db'}"
        return
    if not PG:
        if os.environ.get("CI"):
            pytest.fail("CI must test PostgreSQL: FORUMBOT_TEST_POSTGRES is not set (see .ci/run)")
        pytest.skip("no PostgreSQL server (set FORUMBOT_TEST_POSTGRES, as .ci/run does)")
    name = f"fb_{uuid.uuid4().hex[:12]}"
    admin = create_engine(PG, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'CREATE DATABASE "{name}"'))
    url = PG.rsplit("/", 1)[0] + "/" + name
    yield url
    from sqlalchemy.pool import NullPool  # noqa: F401

    with admin.connect() as c:
        c.execute(text(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'"))
        c.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
    admin.dispose()

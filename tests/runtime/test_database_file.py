"""The season's SQLite file holds the seed, the draw and every role PM: it is the owner's only (issue 9, point 11)."""

from __future__ import annotations

import logging
import os
import stat

from sqlalchemy import text

from forumbot.runtime.store import make_engine


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_new_database_file_is_created_0600(tmp_path):
    old = os.umask(0o022)
    try:
        path = tmp_path / "season.db"
        engine = make_engine(f"sqlite:///{path}")
        with engine.begin() as c:
            c.execute(text("CREATE TABLE t (x INTEGER)"))
            c.execute(text("INSERT INTO t VALUES (1)"))
        assert _mode(path) == 0o600
        wal = tmp_path / "season.db-wal"
        if wal.exists():  # WAL files take the database file's mode
            assert _mode(wal) == 0o600
        engine.dispose()
    finally:
        os.umask(old)


def test_existing_readable_database_is_tightened_with_a_warning(tmp_path, caplog):
    path = tmp_path / "season.db"
    path.touch()
    os.chmod(path, 0o644)
    with caplog.at_level(logging.WARNING, logger="forumbot"):
        make_engine(f"sqlite:///{path}").dispose()
    assert _mode(path) == 0o600
    assert any("readable by other users" in r.getMessage() and "0600" in r.getMessage() for r in caplog.records)


def test_private_file_stays_quiet(tmp_path, caplog):
    path = tmp_path / "season.db"
    make_engine(f"sqlite:///{path}").dispose()
    with caplog.at_level(logging.WARNING, logger="forumbot"):
        make_engine(f"sqlite:///{path}").dispose()
    assert not caplog.records and _mode(path) == 0o600

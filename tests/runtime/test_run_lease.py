"""`forumbot run` holds its season's lease (issue 24, "two judges at once"): a second `run` of the season,
or a `run` of a season another process judges (`serve` on the same database), stops at once with exit
code 2 and one line naming the holder, since when, and when its lease lapses if it died; the lease fences
run's writes as serve's does, is renewed while it runs, and ends when run stops."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from bot_helpers import cli_season
from sqlalchemy import select, text, update
from sqlalchemy.exc import OperationalError
from typer.testing import CliRunner

import forumbot.cli.season as season_cli
import forumbot.runtime.runner as runner_module
from forumbot.cli import app
from forumbot.config import load_config
from forumbot.forums.memory import MemoryForum
from forumbot.migrations import upgrade
from forumbot.runtime.store import SeasonLeaseRow, make_engine
from forumbot.serve.lease import LeaseLost, Leases

SEASON = cli_season("leased", ["A", "B", "C", "D", "E"])
LEASE = SeasonLeaseRow.__table__


@pytest.fixture
def season(tmp_path, monkeypatch):
    path = tmp_path / "season.toml"
    path.write_text(SEASON, encoding="utf-8")
    forum = MemoryForum("judge")
    monkeypatch.setattr(season_cli, "_forum", lambda config: forum)
    monkeypatch.setattr(season_cli, "make_forum", lambda settings, base_dir=None: forum)
    return path


def _engine(path: Path):
    engine = make_engine(load_config(path).database_url)
    upgrade(engine)
    return engine


def _lease_row(engine):
    with engine.connect() as c:
        return c.execute(select(LEASE).where(LEASE.c.season == "leased")).first()


def _expire(engine, seconds_from_now: float = -1.0) -> None:
    """Move the lease's expiry (a holder that stopped renewing, without sleeping through a lease time)."""
    with engine.begin() as c:
        c.execute(update(LEASE).values(expires_at=datetime.now(UTC).replace(tzinfo=None)
                                       + timedelta(seconds=seconds_from_now)))


def _fake_runner(monkeypatch, body=None):
    """`run_bot` replaced by ``body(bot, stop)`` (default: return at once, as after a SIGTERM); returns the
    list of bots it was given."""
    calls: list = []

    def fake(bot, *, stop=None, **_):
        calls.append(bot)
        if body is not None:
            body(bot, stop)
        return bot

    monkeypatch.setattr(runner_module, "run_bot", fake)
    return calls


def test_a_run_of_a_season_another_process_holds_stops_at_once_naming_it(season, monkeypatch):
    engine = _engine(season)
    other = Leases(engine, "otherhost:4242", lease_seconds=90)
    assert other.try_acquire("leased") is not None  # e.g. `forumbot serve` on another machine, same database
    calls = _fake_runner(monkeypatch)
    result = CliRunner().invoke(app, ["run", str(season)])
    assert result.exit_code == 2, result.output
    assert calls == []  # nothing judged: no bot ran
    lines = result.output.splitlines()
    assert len(lines) == 1, result.output
    line = lines[0]
    assert line.startswith("error: season 'leased' is already being judged by otherhost:4242")
    assert " since " in line and "UTC" in line  # since when, in the season's time zone
    left = int(line.split("expires in ")[1].split(" s")[0])
    assert 0 < left <= 90  # how long until a dead holder's lease lapses
    assert "Traceback" not in result.output
    assert _lease_row(engine).worker == "otherhost:4242"  # untouched


def test_an_expired_lease_is_taken_over_with_a_new_epoch_and_ended_on_a_clean_stop(season, monkeypatch):
    engine = _engine(season)
    other = Leases(engine, "otherhost:4242", lease_seconds=90)
    assert other.try_acquire("leased") is not None
    _expire(engine)  # the holder died 91 s ago (SIGKILL on another machine): its lease ran out
    seen: dict = {}

    def body(bot, stop):
        row = _lease_row(engine)
        seen.update(worker=row.worker, epoch=row.epoch, guarded=bot.store.guard is not None)

    calls = _fake_runner(monkeypatch, body)
    result = CliRunner().invoke(app, ["run", str(season)])
    assert result.exit_code == 0, result.output
    assert len(calls) == 1
    assert seen["worker"] == f"{os.uname().nodename}:{os.getpid()}" and seen["epoch"] == 2 and seen["guarded"]
    row = _lease_row(engine)
    assert row.expires_at <= datetime.now(UTC).replace(tzinfo=None)  # ended at the stop: the next run takes it at once
    again = CliRunner().invoke(app, ["run", str(season)])
    assert again.exit_code == 0, again.output


def test_runs_writes_are_fenced_by_its_lease(season, monkeypatch):
    """A `run` that lost its lease (paused past it, and another process took the season) cannot write: the
    store's guard refuses in the write's own transaction, as serve's does."""
    engine = _engine(season)
    outcome: dict = {}

    def body(bot, stop):
        _expire(engine)
        assert Leases(engine, "otherhost:7", lease_seconds=60).try_acquire("leased") is not None
        try:
            bot.store.set_cursor("probe", 1)
        except LeaseLost as exc:
            outcome["refused"] = str(exc)

    _fake_runner(monkeypatch, body)
    result = CliRunner().invoke(app, ["run", str(season)])
    assert "no longer holds its lease" in outcome.get("refused", ""), result.output
    with engine.connect() as c:
        assert c.execute(text("SELECT count(*) FROM cursor WHERE name = 'probe'")).scalar() == 0
    assert _lease_row(engine).worker == "otherhost:7"  # the stop did not end the new holder's lease


def test_a_run_whose_lease_is_taken_stops_with_one_line(season, monkeypatch):
    engine = _engine(season)

    def body(bot, stop):
        _expire(engine)  # this process was held up longer than its lease; another took the season
        assert Leases(engine, "otherhost:7", lease_seconds=60).try_acquire("leased") is not None
        assert stop.wait(60)  # the next renewal finds it lost and stops the runner

    _fake_runner(monkeypatch, body)
    result = CliRunner().invoke(app, ["run", str(season), "--lease", "0.3s"])
    assert result.exit_code == 1, result.output
    assert "lost its lease" in result.output and "Traceback" not in result.output


def test_a_bad_lease_option_is_a_usage_error(season):
    result = CliRunner().invoke(app, ["run", str(season), "--lease", "soon"])
    assert result.exit_code == 2 and "--lease" in result.output


def _wait_for(predicate, what: str, seconds: float = 120.0):
    """Wait (at most ``seconds``: a bound for a stuck test, not a timing assertion) until ``predicate()``."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        got = predicate()
        if got:
            return got
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def _run(path: Path) -> subprocess.Popen:
    env = {**os.environ, "NOPE": "secret", "PYTHONPATH": os.environ.get("PYTHONPATH", str(Path.cwd()))}
    return subprocess.Popen([sys.executable, "-m", "forumbot", "run", str(path)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_two_run_processes_on_one_season_file(tmp_path):
    """Two real processes on one SQLite file: the first holds the season (its forum is down, so it keeps
    asking before the draw); the second stops at once (exit 2, one line naming the first's pid); after the
    first's SIGTERM the lease is free again; a SIGKILLed run's lease on this machine is taken at once by
    the next run (the pid is gone), and on another machine only when it expires."""
    path = tmp_path / "season.toml"
    path.write_text(SEASON, encoding="utf-8")
    first = _run(path)
    try:
        engine = make_engine(load_config(path).database_url)  # the run creates the tables; the test only reads

        def first_holds() -> bool:
            try:
                row = _lease_row(engine)
            except OperationalError:  # no table yet
                return False
            return row is not None and row.worker.endswith(f":{first.pid}")

        _wait_for(first_holds, "the first run's lease")
        second = _run(path)
        _, err = second.communicate(timeout=120)
        assert second.returncode == 2, err
        errors = err.splitlines()
        assert len(errors) == 1 and f":{first.pid} (host:pid)" in errors[0] and "expires in" in errors[0], err
        assert "IntegrityError" not in err and "Traceback" not in err
        first.send_signal(signal.SIGTERM)
        first.communicate(timeout=120)
        assert first.returncode == 0
        assert _lease_row(engine).expires_at <= datetime.now(UTC).replace(tzinfo=None)
        third = _run(path)
        _wait_for(lambda: _lease_row(engine).worker.endswith(f":{third.pid}"), "the third run's lease")
        third.send_signal(signal.SIGKILL)
        third.communicate(timeout=120)
        fourth = _run(path)
        _wait_for(lambda: _lease_row(engine).worker.endswith(f":{fourth.pid}"), "the fourth run's lease")
        epoch = _lease_row(engine).epoch
        fourth.send_signal(signal.SIGTERM)
        _, err = fourth.communicate(timeout=120)
        assert fourth.returncode == 0, err
        assert epoch == 3  # first, third, fourth: each a new holding
    finally:
        for p in (first,):
            if p.poll() is None:
                p.kill()
                p.communicate()


def test_renewal_keeps_the_lease_on_sqlite(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'x.db'}")
    upgrade(engine)
    now = [datetime(2026, 12, 1, 12, tzinfo=UTC)]
    a = Leases(engine, "a:1", lease_seconds=30, clock=lambda: now[0])
    b = Leases(engine, "b:2", lease_seconds=30, clock=lambda: now[0])
    lease = a.try_acquire("s")
    assert lease is not None and b.try_acquire("s") is None
    now[0] += timedelta(seconds=25)
    assert a.renew(lease)
    now[0] += timedelta(seconds=25)
    assert b.try_acquire("s") is None  # renewed: 5 s left
    holder = b.holder("s")
    assert holder is not None and holder.worker == "a:1" and holder.seconds_left == pytest.approx(5)
    assert holder.since == datetime(2026, 12, 1, 12, tzinfo=UTC)
    now[0] += timedelta(seconds=6)
    taken = b.try_acquire("s")
    assert taken is not None and taken.epoch == 2 and not a.renew(lease)
    assert b.holder("s").since == now[0]


def test_a_takeover_waits_for_the_lock_not_for_a_racing_check(tmp_path):
    """Two processes taking a free lease at the same instant: exactly one gets it (SQLite's write lock)."""
    url = f"sqlite:///{tmp_path / 'x.db'}"
    upgrade(make_engine(url))
    got: list = []
    barrier = threading.Barrier(8)

    def take(n: int) -> None:
        leases = Leases(make_engine(url), f"h:{n}", lease_seconds=30)
        barrier.wait()
        got.append(leases.try_acquire("s"))

    threads = [threading.Thread(target=take, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(1 for lease in got if lease is not None) == 1


def test_run_of_a_season_a_serve_worker_holds_in_the_same_database(db_url, tmp_path, monkeypatch):
    """`forumbot serve --database URL` (a worker's lease on the season) and `forumbot run` of the season's file
    with that database: run stops at once naming the worker; after the worker's clean stop run takes it."""
    path = tmp_path / "season.toml"
    path.write_text(SEASON.replace('organisers = ["Org"]\n', f'organisers = ["Org"]\ndatabase = "{db_url}"\n'),
                    encoding="utf-8")
    forum = MemoryForum("judge")
    monkeypatch.setattr(season_cli, "_forum", lambda config: forum)
    engine = _engine(path)
    worker = Leases(engine, "serve-host:77", lease_seconds=60)
    lease = worker.try_acquire("leased")
    assert lease is not None
    calls = _fake_runner(monkeypatch)
    refused = CliRunner().invoke(app, ["run", str(path)])
    assert refused.exit_code == 2 and calls == [], refused.output
    assert "judged by serve-host:77 (host:pid) since" in refused.output and "expires in" in refused.output
    left = int(refused.output.split("expires in ")[1].split(" s")[0])
    assert 0 < left <= 60
    worker.release(lease)  # the worker stopped (SIGTERM): its lease ends at once
    taken = CliRunner().invoke(app, ["run", str(path)])
    assert taken.exit_code == 0, taken.output
    assert len(calls) == 1
    holder = worker.holder("leased")
    assert holder is not None and holder.worker.endswith(f":{os.getpid()}") and not holder.valid  # ended at its stop

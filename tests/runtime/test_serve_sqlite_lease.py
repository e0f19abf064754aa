"""`forumbot serve` without a shared database takes each season's lease in the season's own (SQLite) database,
as `forumbot run` does (issue 24, "two judges at once"): a `run` of a file the service judges stops at once
naming the service, and the service leaves a season a `run` holds until that run stops."""

from __future__ import annotations

import threading

from serve_helpers import Forums, soon, wait_for, write_season
from typer.testing import CliRunner

import forumbot.cli.season as season_cli
import forumbot.runtime.runner as runner_module
from forumbot.cli import app
from forumbot.config import load_config
from forumbot.forums.memory import MemoryForum
from forumbot.migrations import upgrade
from forumbot.runtime.store import make_engine
from forumbot.serve.lease import Leases
from forumbot.serve.service import ServeOptions, Service


def _serve(folder, worker: str = "serve-host:4711") -> tuple[Service, threading.Thread]:
    service = Service(ServeOptions(folder, worker=worker, scan_seconds=0.2, forum_factory=Forums()))
    runner = threading.Thread(target=service.run, daemon=True)
    runner.start()
    return service, runner


def test_run_of_a_season_serve_judges_is_refused(tmp_path, monkeypatch):
    path = write_season(tmp_path, "alpha", soon(600))  # waits for its start: judged all along
    service, runner = _serve(tmp_path)
    try:
        wait_for(lambda: (th := service.threads.get("alpha")) is not None and th.bot is not None, what="alpha judged")
        monkeypatch.setenv("NOT_USED", "x")
        monkeypatch.setattr(season_cli, "_forum", lambda config: MemoryForum("judge"))
        monkeypatch.setattr(runner_module, "run_bot", lambda bot, **_: bot)  # a second judge would run here
        result = CliRunner().invoke(app, ["run", str(path)])
        assert result.exit_code == 2, result.output
        assert "already being judged by serve-host:4711 (host:pid)" in result.output
        assert len(result.output.splitlines()) == 1
    finally:
        service.stop()
        runner.join(60)
    engine = make_engine(load_config(path).database_url)
    holder = Leases(engine, "x").holder("alpha")
    assert holder is not None and not holder.valid  # the service's stop ended it


def test_serve_leaves_a_season_a_run_holds_until_it_stops(tmp_path):
    path = write_season(tmp_path, "alpha", soon(600))
    engine = make_engine(load_config(path).database_url)
    upgrade(engine)
    run = Leases(engine, "otherhost:99", lease_seconds=60)
    lease = run.try_acquire("alpha")  # `forumbot run alpha.toml`, started first
    assert lease is not None
    service, runner = _serve(tmp_path)
    try:
        wait_for(lambda: "alpha" in service._held_elsewhere, what="the service seeing the run", timeout=10)
        assert "otherhost:99" in service._held_elsewhere["alpha"]
        assert not any(th.bot is not None for th in service.threads.values())
        run.release(lease)  # the run stopped
        wait_for(lambda: (th := service.threads.get("alpha")) is not None and th.bot is not None, what="alpha judged")
        holder = run.holder("alpha")
        assert holder is not None and holder.worker == "serve-host:4711" and holder.valid
    finally:
        service.stop()
        runner.join(60)

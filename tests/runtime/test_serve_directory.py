"""``forumbot serve`` on SQLite in one process: a directory of seasons, a file appearing while it runs,
a season over archived to done/, a restart going on where it stopped, a second process refused."""

from __future__ import annotations

import json
import threading
import urllib.request
from pathlib import Path

import pytest
from serve_helpers import Forums, soon, wait_for, write_season
from typer.testing import CliRunner

from forumbot.cli import app
from forumbot.config import load_config
from forumbot.forums.memory import MemoryForum
from forumbot.runtime.bot import Bot
from forumbot.serve.service import ServeError, ServeOptions, Service


def serve(folder: Path, forums: Forums, **options) -> tuple[Service, threading.Thread]:
    service = Service(ServeOptions(folder, scan_seconds=0.2, forum_factory=forums, **options))
    runner = threading.Thread(target=service.run, daemon=True)
    runner.start()
    return service, runner


def stop(service: Service, runner: threading.Thread) -> None:
    service.stop()
    runner.join(timeout=60)
    assert not runner.is_alive()


def judge_texts(forums: Forums, url: str) -> list[str]:
    """The judge's posts, then a separator, then its private messages, each in order."""
    f = forums.by_url[url]
    return [p.text for posts in f.threads.values() for p in posts if p.author == f.username]


def test_a_directory_of_seasons_new_files_picked_up_and_finished_ones_archived(tmp_path):
    forums = Forums()
    write_season(tmp_path, "alpha", soon(), base_url="http://alpha.test")
    (tmp_path / "notes.toml").write_text("this is not a season\n", encoding="utf-8")
    service, runner = serve(tmp_path, forums, metrics_port=0)
    try:
        wait_for(lambda: "http://alpha.test" in forums.by_url and forums.by_url["http://alpha.test"].threads,
                 what="alpha's thread")
        # a file that appears while serving is picked up
        write_season(tmp_path, "beta", soon(), base_url="http://beta.test")
        wait_for(lambda: "http://beta.test" in forums.by_url and forums.by_url["http://beta.test"].threads,
                 what="beta's thread")
        # alpha's organiser ends it: over, delivered, archived with its database
        alpha = forums.by_url["http://alpha.test"]
        alpha.player_pm("Org", "end")
        wait_for(lambda: (tmp_path / "done" / "alpha.toml").exists(), what="alpha archived")
        assert not (tmp_path / "alpha.toml").exists()
        assert (tmp_path / "done" / "alpha.db").exists() and not (tmp_path / "alpha.db").exists()
        archived = Bot(load_config(tmp_path / "done" / "alpha.toml"), MemoryForum())  # its database moved with it
        assert archived.game.finished and archived.done()
        # health and metrics, with the season's labels
        port = service.health_server.port
        health = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz").read())
        assert health["ok"] and health["archived"] == ["alpha"]
        assert health["seasons"] == {"beta": "running", "notes.toml": health["seasons"]["notes.toml"]}
        assert health["seasons"]["notes.toml"].startswith("blocked: not a season file")
        metrics = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics").read().decode()
        assert 'forumbot_polls_total{forum="http://beta.test",season="beta"}' in metrics
        assert 'forumbot_outbox_rows{forum="http://beta.test",season="beta",status="sent"}' in metrics
        # a second process on the same directory is refused (one SQLite service per directory)
        with pytest.raises(ServeError, match="already serves"):
            Service(ServeOptions(tmp_path, forum_factory=forums)).run()
    finally:
        stop(service, runner)
    assert (tmp_path / "beta.toml").exists()  # not over: stays
    beta = forums.by_url["http://beta.test"]
    before = judge_texts(forums, "http://beta.test")
    # served again: beta goes on where it stopped (no post or private message sent twice)
    service, runner = serve(tmp_path, forums)
    try:
        beta.player_pm("Org", "end")
        wait_for(lambda: (tmp_path / "done" / "beta.toml").exists(), what="beta archived")
    finally:
        stop(service, runner)
    after = judge_texts(forums, "http://beta.test")
    assert after[:len(before)] == before and len(after) > len(before)  # posts went on, none twice
    assert len(beta.threads) == 1
    sent = [(m.recipient, m.body) for m in beta.sent]
    assert len(sent) == len(set(sent)), "a private message was sent twice"
    # `forumbot status DIR`: one line a season, archived ones included
    out = CliRunner().invoke(app, ["status", str(tmp_path)]).output
    # ended before any ballot point was cast: sunlight's win index 0 / 0 decides nothing
    assert "alpha: over: ended by the organiser, no winner" in out
    assert "(done/alpha.toml)" in out and "beta: over" in out and "None" not in out
    assert "notes.toml: not a season file" in out
    (tmp_path / "gamma.toml").write_text((tmp_path / "done" / "beta.toml").read_text().replace('"beta"', '"gamma"'))
    assert "gamma: not started (gamma.toml)" in CliRunner().invoke(app, ["status", str(tmp_path)]).output


def test_serve_refuses_what_is_not_a_directory(tmp_path):
    out = CliRunner().invoke(app, ["serve", str(tmp_path / "missing")])
    assert out.exit_code == 2 and "not a directory of season files" in out.output


@pytest.fixture(autouse=True)
def root_logging(monkeypatch):
    """``forumbot serve`` would point the root logger at the test runner's stderr, closed after the test."""
    monkeypatch.setattr("forumbot.cli.serve.setup_serve_logging", lambda level, fmt: None)


def test_a_second_serve_of_a_directory_ends_at_once_with_one_error_line_and_exit_code_2(tmp_path):
    import fcntl
    import time

    with open(tmp_path / ".forumbot-serve.lock", "w") as held:  # the first `forumbot serve` holds the lock
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        began = time.monotonic()
        out = CliRunner().invoke(app, ["serve", str(tmp_path)])
        took = time.monotonic() - began
    assert out.exit_code == 2, out.output
    assert "Traceback" not in out.output and "Exception in thread" not in out.output
    errors = [line for line in out.output.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1 and "another `forumbot serve` already serves" in errors[0]
    assert took < 3


def test_any_failure_of_the_serve_thread_ends_serve_with_a_message_and_a_non_zero_code(tmp_path,
                                                                                      monkeypatch):
    def broken(self):
        raise ServeError("the seasons directory vanished")

    monkeypatch.setattr(Service, "run", broken)
    out = CliRunner().invoke(app, ["serve", str(tmp_path)])
    assert out.exit_code == 2 and "error: the seasons directory vanished" in out.output
    assert "Traceback" not in out.output

    def crashed(self):
        raise OSError("disk full")

    monkeypatch.setattr(Service, "run", crashed)
    out = CliRunner().invoke(app, ["serve", str(tmp_path)])
    assert out.exit_code == 1 and "error: forumbot serve stopped: OSError: disk full" in out.output


def test_serve_stopped_with_no_season_running_logs_that_it_stopped(tmp_path, caplog):
    caplog.set_level("INFO", logger="forumbot")
    service, runner = serve(tmp_path, Forums())
    wait_for(lambda: service.last_step > service._started, what="a first pass")
    stop(service, runner)
    stopped = [r.getMessage() for r in caplog.records if r.getMessage().startswith("stopped serving")]
    assert stopped == [f"stopped serving {tmp_path} (0 seasons stopped; the next start goes on where each stopped)"]


def test_status_of_a_season_the_organiser_ended_without_winner_says_so_not_none(tmp_path):
    forums = Forums()
    path = write_season(tmp_path, "服务测试C", soon(), base_url="http://c.test", stem="c")
    path.write_text(path.read_text(encoding="utf-8").replace('ruleset = "sunlight"', 'ruleset = "killer_club"')
                    .replace('locale = "en"', 'locale = "zh-Hans"')
                    .replace('roles = { "C" = "killer" }', 'roles = { "C" = "killer", "D" = "police" }'), encoding="utf-8")
    service, runner = serve(tmp_path, forums)
    try:
        wait_for(lambda: "http://c.test" in forums.by_url and forums.by_url["http://c.test"].threads, what="c's thread")
        forums.by_url["http://c.test"].player_pm("Org", "end")
        wait_for(lambda: (tmp_path / "done" / "c.toml").exists(), what="c archived")
    finally:
        stop(service, runner)
    out = CliRunner().invoke(app, ["status", str(tmp_path)]).output
    assert "服务测试C: over: ended by the organiser, no winner" in out and "None" not in out
    one = CliRunner().invoke(app, ["status", str(tmp_path / "done" / "c.toml")]).output
    assert "season '服务测试C': over: ended by the organiser, no winner" in one and "None" not in one


def test_a_winner_is_named_in_the_command_lines_language():
    from forumbot.cli.outcome import outcome

    assert outcome("good", "zh-Hans") == "over: Goods won"  # one language a line (was "over: 好人 won")
    assert outcome("killer", "zh-Hant") == "over: Killers won"
    assert outcome(["human", "vampire"], "en") == "over: Humans + Vampires won"
    assert outcome("draw", "en") == "over: a draw, no winner"
    assert outcome(None, "zh-Hant") == "over: ended by the organiser, no winner"


def test_a_season_that_cannot_run_shows_as_blocked_with_its_reason_until_its_file_changes(tmp_path, monkeypatch):
    import os
    import time

    monkeypatch.setenv("NOT_USED", "secret")
    monkeypatch.delenv("NO_SUCH_PW", raising=False)
    forums = Forums()

    def forum_with_password(config):  # as make_forum does: no password, no forum
        config.forum.password(config.base_dir)
        return forums(config)

    write_season(tmp_path, "alpha", soon(30), base_url="http://alpha.test")
    bad = write_season(tmp_path, "bad", soon(30), base_url="http://bad.test")
    bad.write_text(bad.read_text().replace('"NOT_USED"', '"NO_SUCH_PW"'))
    service = Service(ServeOptions(tmp_path, scan_seconds=0.2, forum_factory=forum_with_password, metrics_port=0))
    runner = threading.Thread(target=service.run, daemon=True)
    runner.start()
    try:
        wait_for(lambda: service.health_server is not None, what="the health server")
        port = service.health_server.port

        def health():
            return json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz").read())

        wait_for(lambda: health()["seasons"].get("bad", "").startswith("blocked")
                 and health()["seasons"].get("alpha") == "running", what="bad blocked, alpha running")
        assert "NO_SUCH_PW" in health()["seasons"]["bad"]
        metrics = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics").read().decode()
        assert 'forumbot_seasons{state="blocked"} 1.0' in metrics
        out = CliRunner().invoke(app, ["status", str(tmp_path)]).output
        line = next(x for x in out.splitlines() if x.startswith("bad:"))
        assert line.startswith("bad: blocked: ") and "NO_SUCH_PW" in line and line.endswith("(bad.toml)")
        # the organiser sets the variable and touches the file: read again, no longer blocked
        monkeypatch.setenv("NO_SUCH_PW", "secret")
        later = time.time() + 2
        os.utime(bad, (later, later))
        wait_for(lambda: health()["seasons"].get("bad") == "running", what="bad running")
        metrics = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics").read().decode()
        assert 'forumbot_seasons{state="blocked"} 0.0' in metrics
        out = CliRunner().invoke(app, ["status", str(tmp_path)]).output
        assert "blocked" not in out and "bad: not started" in out
    finally:
        stop(service, runner)


def test_without_a_metrics_port_prometheus_is_not_loaded_and_lags_are_drained(tmp_path):
    """No ``--metrics-port``: nothing imports prometheus_client (its memory is for nothing) and the deadline lags
    a season collects are still drained each cycle."""
    import subprocess
    import sys

    probe = ("import sys; from pathlib import Path; from types import SimpleNamespace; "
             "from forumbot.serve.service import ServeOptions, Service; "
             "s = Service(ServeOptions(Path(sys.argv[1]))); bot = SimpleNamespace(deadline_lags=[0.4, 1.2]); "
             "s.metrics.observe(bot); s.metrics.leases_lost.inc(); s.metrics.seasons.labels('running').set(3); "
             "print('prometheus_client' in sys.modules, bot.deadline_lags)")
    out = subprocess.run([sys.executable, "-c", probe, str(tmp_path)], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "[]"]

"""The rehearsal's own season file (forumbot/rehearse/season_file.py) and the one-line errors of ``forumbot rehearse``
before any forum starts (a file that does not check, a roster FlaskBB cannot hold, a port in use, a forum that
cannot start)."""

from __future__ import annotations

import socket
import stat
from pathlib import Path

import pytest
import tomlkit
from rehearse_helpers import EXAMPLES, rehearsal_config
from typer.testing import CliRunner

import forumbot.testforum
from forumbot.cli import app
from forumbot.rehearse.season_file import phase_floor, roster_problem, scaled_schedule, speed_for
from forumbot.tomlfile import read_toml_file


def test_phases_reminders_and_vote_counts_are_scaled_and_no_phase_is_under_the_floor() -> None:
    out = scaled_schedule({"start": "x", "daily_deadline": "22:00:00", "default": "24h", "reminders": ["3h", "1h"],
                           "lengths": {"vote": "20h", "poll": "2h"}, "exact_kinds": ["poll"]}, speed=3600, floor=6)
    assert out["default"] == "24s" and out["lengths"] == {"vote": "20s", "poll": "6s"}
    assert out["reminders"] == ["3s", "1s"] and out["vote_count_before"] == ["12s", "1s"]  # the defaults, scaled
    assert "start" not in out and "daily_deadline" not in out and out["exact_kinds"] == ["poll"]
    assert out["poll_interval"] == "1s"
    with pytest.raises(ValueError):
        scaled_schedule({}, speed=0, floor=6)


def test_the_floor_grows_with_the_players_and_the_forum_s_answers() -> None:
    assert phase_floor(10, 0.0) == 6.0
    assert phase_floor(20, 0.5) > phase_floor(10, 0.5) > phase_floor(10, 0.1)


def test_a_duration_gives_the_speed_its_phases_fit_in() -> None:
    schedule = {"default": "24h", "lengths": {"poll": "2h"}}
    assert speed_for(schedule, ["vote", "poll", "vote"], parse("50m")) == pytest.approx(50 * 3600 / 3000)


def parse(text: str):
    from forumbot.language.numbers import parse_duration

    return parse_duration(text)


@pytest.mark.parametrize("example", sorted(EXAMPLES.glob("*.toml")), ids=lambda p: p.stem)
def test_the_rehearsal_file_of_each_example_keeps_the_game_and_points_at_the_local_forum(example: Path,
                                                                                         tmp_path: Path) -> None:
    from forumbot.config import load_config

    original = load_config(example)
    config = rehearsal_config(example, tmp_path, seed=None)
    same = ("name", "ruleset", "params", "locale", "players", "organisers", "aliases", "roles", "time_zone", "seed")
    assert {k: getattr(config, k) for k in same} == {k: getattr(original, k) for k in same}
    assert config.forum.engine == "flaskbb" and config.forum.username == original.forum.username
    assert config.database_url == f"sqlite:///{tmp_path / 'rehearsal.db'}"
    assert config.schedule.daily_deadline is None and config.schedule.start is None
    assert config.forum.password(tmp_path) == "not-used"
    assert stat.S_IMODE((tmp_path / "judge-password.txt").stat().st_mode) == 0o600


def test_templates_of_the_organiser_s_folder_are_found_from_the_rehearsal_s(tmp_path: Path) -> None:
    season = tmp_path / "mine"
    (season / "my-templates").mkdir(parents=True)
    data = read_toml_file(EXAMPLES / "killer_club.example.toml")[1] | {"templates": "my-templates"}
    (season / "s.toml").write_text(tomlkit.dumps(data), encoding="utf-8")
    config = rehearsal_config(season / "s.toml", tmp_path / "rehearsal")
    assert config.template_dir == str((season / "my-templates").resolve())


def test_a_roster_flaskbb_cannot_hold_is_named() -> None:
    assert roster_problem("法官", ["Org"], ["a", "b"]) is None
    assert roster_problem("法官", ["Alice"], ["alice", "b"]) == (
        "organisers and players: 'alice' and 'Alice' are one account on FlaskBB (it ignores case): the rehearsal's "
        "forum needs one account for each name")
    assert roster_problem("Org", ["Org"], ["a"]) == (
        "forum.username and organisers: 'Org' is listed twice: the rehearsal's forum needs one account for each name")
    assert "at most 200" in (roster_problem("j", [], ["x" * 201]) or "")


@pytest.fixture
def no_forum(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    started: list[object] = []
    monkeypatch.setattr(forumbot.testforum, "start_forum", lambda *a, **k: started.append(a) or pytest.fail("started"))
    return started


def _season(tmp_path: Path, **changes: object) -> Path:
    data = read_toml_file(EXAMPLES / "killer_club.example.toml")[1] | changes
    path = tmp_path / "my-season.toml"
    path.write_text(tomlkit.dumps(data), encoding="utf-8")
    return path


def _one_line(res) -> str:
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in res.output, res.output
    return lines[0]


def test_a_file_that_does_not_check_is_one_line(tmp_path: Path, no_forum: list[object]) -> None:
    res = CliRunner().invoke(app, ["rehearse", str(_season(tmp_path, locale="fr"))])
    assert res.exit_code == 2 and not no_forum
    assert _one_line(res).startswith(f"error: {tmp_path / 'my-season.toml'} line ") and "locale: 'fr' is not allowed" in res.output


def test_a_roster_the_forum_cannot_create_is_one_line(tmp_path: Path, no_forum: list[object]) -> None:
    path = _season(tmp_path, organisers=["張三"])  # the first player organises too
    res = CliRunner().invoke(app, ["rehearse", str(path)])
    assert res.exit_code == 2 and not no_forum
    assert _one_line(res) == (f"error: {path}: organisers and players: '張三' is listed twice: the rehearsal's forum "
                              "needs one account for each name")


def test_a_port_in_use_is_one_line(tmp_path: Path, no_forum: list[object]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        port = taken.getsockname()[1]
        res = CliRunner().invoke(app, ["rehearse", str(_season(tmp_path)), "--port", str(port)])
    assert res.exit_code == 2 and not no_forum
    assert _one_line(res) == f"error: port {port} is in use on 127.0.0.1: choose another with --port, or leave --port out"


def test_speed_and_duration_together_are_one_line(tmp_path: Path, no_forum: list[object]) -> None:
    res = CliRunner().invoke(app, ["rehearse", str(_season(tmp_path)), "--speed", "10", "--duration", "5m"])
    assert res.exit_code == 2 and _one_line(res) == "error: --speed and --duration both set the phases' length: give one"


def test_a_forum_that_cannot_start_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise forumbot.testforum.HarnessError("the test forum exited at start (code 1):\nTraceback (most recent call last):")

    monkeypatch.setattr(forumbot.testforum, "start_forum", refuse)
    res = CliRunner().invoke(app, ["rehearse", str(_season(tmp_path))])
    assert res.exit_code == 1
    assert res.output.strip().splitlines()[-1] == "error: could not start the local forum: the test forum exited at start (code 1):"


def test_the_demo_refuses_a_ruleset_without_an_example(no_forum: list[object]) -> None:
    res = CliRunner().invoke(app, ["demo", "--ruleset", "chess", "--no-wait"])
    assert res.exit_code == 2 and _one_line(res).startswith("error: --ruleset: no example season for 'chess'; known: ")

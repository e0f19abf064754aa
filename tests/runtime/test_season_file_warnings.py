"""What a season file may say but probably does not mean (issue 27): `check` warns and exits 0, `run` prints the
warnings and goes on (an error stops it). Player counts outside the rulebook's table, reminders longer than their
phase, local times a daylight-saving change skips or repeats, a password that is not set, a thread vote shorter
than the forum's minimum post length."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from forumbot.cli import app
from forumbot.config import load_config

TWELVE = ["alice", "bob", "carol", "dave", "erin", "frank", "gina", "hal", "ivy", "jon", "kim", "lee"]


def _season(tmp_path, players=TWELVE, ruleset="interview_vampire", forum="", schedule="", top=""):
    path = tmp_path / "season.toml"
    path.write_text(f'''name = "夜访"
ruleset = "{ruleset}"
time_zone = "Europe/Berlin"
players = [{", ".join(f'"{p}"' for p in players)}]
{top}
[forum]
base_url = "http://127.0.0.1:1"
username = "judge"
password_env = "FORUMBOT_TEST_WARN_PASSWORD"
forum_id = 1
{forum}
[schedule]
{schedule}
''', encoding="utf-8")
    return path


def _warnings(path) -> list[str]:
    return load_config(path).warnings


def test_a_player_count_outside_the_rulebooks_table(tmp_path):
    (warning,) = _warnings(_season(tmp_path, TWELVE[:10]))
    assert warning.startswith("line 4: players: 10 players") and "written for 12–13 players" in warning, warning
    assert _warnings(_season(tmp_path, TWELVE)) == []
    assert _warnings(_season(tmp_path, TWELVE[:12] + ["mo"])) == []


def test_human_kill_table_rows_added_by_the_season_widen_the_table(tmp_path):
    names = [f"p{i}" for i in range(17)]
    assert any("written for 6–16 players" in w for w in _warnings(_season(tmp_path, names, "human_kill")))


@pytest.mark.parametrize("reminders,warned", [('["30h"]', True), ('["30h", "2h"]', False), ('["1h"]', False),
                                              ('["20h"]', True)])
def test_reminders_longer_than_their_phase(tmp_path, reminders, warned):
    found = _warnings(_season(tmp_path, schedule=f'default = "20h"\nreminders = {reminders}'))
    assert bool(found) == warned, found
    if warned:
        assert "schedule.reminders:" in found[0] and "night (20h) and day (20h)" in found[0], found
        assert "shorter than 20h" in found[0], found


@pytest.mark.parametrize("written,words", [
    ("start = 2027-03-28T02:30:00", ["schedule.start: 2027-03-28 02:30 does not exist in Europe/Berlin",
                                     "takes 03:30 CEST"]),
    ("start = 2027-10-31T02:30:00", ["schedule.start: 2027-10-31 02:30 happens twice in Europe/Berlin",
                                     "02:30 CEST (UTC+2), then 02:30 CET (UTC+1)"]),
    ("start = 2027-01-02T02:30:00\ndaily_deadline = 02:30:00",
     ["schedule.daily_deadline: the deadline 2027-03-28 02:30 does not exist",
      "schedule.daily_deadline: the deadline 2027-10-31 02:30 happens twice"]),
])
def test_local_times_that_do_not_exist_or_happen_twice(tmp_path, written, words):
    found = "\n".join(_warnings(_season(tmp_path, schedule=written)))
    assert all(w in found for w in words), found


def test_local_times_outside_a_change_are_quiet(tmp_path):
    assert _warnings(_season(tmp_path, schedule="start = 2027-03-28T03:30:00\ndaily_deadline = 22:00:00")) == []


def test_check_warns_that_the_password_is_not_set_and_exits_0(tmp_path, monkeypatch):
    path = _season(tmp_path)
    monkeypatch.delenv("FORUMBOT_TEST_WARN_PASSWORD", raising=False)
    result = CliRunner().invoke(app, ["check", str(path)])
    assert result.exit_code == 0, result.output
    assert "WARNING" in result.output and "FORUMBOT_TEST_WARN_PASSWORD" in result.output, result.output
    monkeypatch.setenv("FORUMBOT_TEST_WARN_PASSWORD", "secret")
    assert "WARNING" not in CliRunner().invoke(app, ["check", str(path)]).output


@pytest.mark.parametrize("engine,extra,vote", [
    ("discuz", "", "«投 carol» (9 bytes in UTF-8), under Discuz!'s minimum post length of 10"),
    ("nodebb", "", "«投 carol» (7 characters), under NodeBB's minimum post length of 8"),
    ("phpbb", "min_post_length = 10", "«投 carol» (7 characters), under phpBB's minimum post length of 10"),
    ("discuz", "min_post_length = 4", None),
    ("phpbb", "", None),
    ("flaskbb", "min_post_length = 20", None),
])
def test_a_thread_vote_shorter_than_the_forums_minimum_post(tmp_path, engine, extra, vote):
    names = ["carol" if p == "bob" else p + "xyz" for p in TWELVE]
    found = _warnings(_season(tmp_path, names, forum=f'engine = "{engine}"\n{extra}'))
    if vote is None:
        assert found == [], found
    else:
        (warning,) = found
        assert vote in warning and "forum." in warning, warning


def test_a_season_voting_by_private_message_is_not_warned_about_short_posts(tmp_path):
    assert _warnings(_season(tmp_path, ["ab", "cd", "ef", "gh", "ij"], "sunlight", forum='engine = "discuz"')) == []


def test_run_prints_the_warnings_and_goes_on_an_error_stops_it(tmp_path, monkeypatch):
    import forumbot.cli.run_guard as run_guard

    started = []
    monkeypatch.setattr(run_guard, "run_season", lambda *args: started.append(args))
    monkeypatch.setenv("FORUMBOT_TEST_WARN_PASSWORD", "secret")
    result = CliRunner().invoke(app, ["run", str(_season(tmp_path, TWELVE[:10]))])
    assert result.exit_code == 0 and started, result.output
    assert "WARNING" in result.output and "written for 12–13 players" in result.output, result.output
    started.clear()
    bad = _season(tmp_path, TWELVE[:10], top='locale = "fr"')
    result = CliRunner().invoke(app, ["run", str(bad)])
    assert result.exit_code == 2 and not started and "error:" in result.output, result.output


def test_serve_logs_a_files_warnings_and_runs_it(tmp_path, caplog):
    from forumbot.serve.service import ServeOptions, Service

    caplog.set_level("WARNING", logger="forumbot")
    path = _season(tmp_path, TWELVE[:10])
    service = Service(ServeOptions(tmp_path))
    assert service._load(path) is not None
    logged = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert any(str(path) in m and "written for 12–13 players" in m for m in logged), logged

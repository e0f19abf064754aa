"""Schedules (daily deadlines across daylight saving) and season files (errors name key and line)."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from typer.testing import CliRunner

from forumbot.cli import app
from forumbot.config import ConfigError, load_config
from forumbot.language.numbers import parse_duration
from forumbot.runtime.schedule import phase_deadline

EXAMPLE = Path(__file__).parent.parent.parent / "forumbot" / "config_examples" / "sunlight.example.toml"


@pytest.mark.parametrize("text,seconds", [("24h", 86400), ("1d12h", 129600), ("30m", 1800), ("90s", 90), ("1h30m", 5400), (5, 5), ("三十分钟", 1800), ("1.5h", 5400), ("2 hours", 7200)])
def test_durations(text, seconds):
    assert parse_duration(text) == timedelta(seconds=seconds)


@pytest.mark.parametrize("text", ["", "abc", "0s", "-5", "10x"])
def test_bad_durations(text):
    with pytest.raises(ValueError):
        parse_duration(text)


def test_daily_deadline_keeps_local_time_across_daylight_saving():
    london = ZoneInfo("Europe/London")
    # 2026-10-25: British Summer Time ends (01:00 UTC). A phase opened on the 24th at 22:00 BST (21:00 UTC).
    opened = datetime(2026, 10, 24, 21, 0, tzinfo=UTC)
    dl = phase_deadline(opened, timedelta(hours=20), london, time(22, 0))
    assert dl.astimezone(london).hour == 22 and dl == datetime(2026, 10, 25, 22, 0, tzinfo=UTC)
    assert dl - opened == timedelta(hours=25)  # a 25-hour day


def test_daily_deadline_at_least_the_length_after_opening():
    tz = ZoneInfo("Asia/Shanghai")
    opened = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)  # 20:00 local
    assert phase_deadline(opened, timedelta(hours=20), tz, time(22, 0)) == datetime(2026, 12, 3, 14, 0, tzinfo=UTC)
    assert phase_deadline(opened, timedelta(hours=1), tz, time(22, 0)) == datetime(2026, 12, 2, 14, 0, tzinfo=UTC)


def test_example_config_is_valid():
    c = load_config(EXAMPLE)
    assert c.ruleset == "sunlight" and len(c.players) == 19
    assert c.schedule.daily_at("poll") is None and c.schedule.daily_at("vote") == time(22, 0)


def write(tmp_path, text):
    p = tmp_path / "s.toml"
    p.write_text(text, encoding="utf-8")
    return p


BASE = '''name = "x"
ruleset = "sunlight"
players = ["A", "B", "C", "D"]
[forum]
base_url = "http://127.0.0.1:1"
username = "j"
password_env = "P"
forum_id = 1
'''


def test_error_names_key_line_and_what_is_allowed(tmp_path):
    with pytest.raises(ConfigError) as e:
        load_config(write(tmp_path, BASE + '[schedule]\ndefault = "soon"\n'))
    assert "line 10" in str(e.value) and "schedule.default" in str(e.value) and "24h" in str(e.value)
    with pytest.raises(ConfigError) as e:
        load_config(write(tmp_path, BASE.replace('ruleset = "sunlight"', 'ruleset = "sunlight"\nlocale = "fr"')))
    assert "line 3" in str(e.value) and "locale" in str(e.value) and "zh-Hans" in str(e.value)
    with pytest.raises(ConfigError) as e:
        load_config(write(tmp_path, BASE + "[params]\nwin_threshold = 3\n"))
    assert "win_threshold" in str(e.value)
    with pytest.raises(ConfigError) as e:
        load_config(write(tmp_path, BASE.replace('password_env = "P"', 'password = "hunter2"')))
    assert "hunter2" not in str(e.value) and "password_env" in str(e.value)
    with pytest.raises(ConfigError) as e:
        load_config(write(tmp_path, BASE + 'time_zone = "Mars/Base"\n'.replace("time_zone", "[x]\ny")))
    assert "unknown key" in str(e.value)


def test_cli_check_and_init(tmp_path):
    runner = CliRunner()
    ok = runner.invoke(app, ["check", str(EXAMPLE)])
    assert ok.exit_code == 0 and "ruleset sunlight" in ok.output
    bad = runner.invoke(app, ["check", str(write(tmp_path, BASE + "[schedule]\nbogus = 1\n"))])
    assert bad.exit_code == 2 and "schedule.bogus" in bad.output and "Traceback" not in bad.output
    target = tmp_path / "new.toml"
    made = runner.invoke(app, ["init", str(target), "--ruleset", "sunlight"])
    assert made.exit_code == 0 and f"forumbot check {target} --forum" in target.read_text(encoding="utf-8")
    assert load_config(target).ruleset == "sunlight"
    for ruleset in ("killer_club", "vampire_village", "human_kill", "interview_vampire"):
        other = tmp_path / f"{ruleset}.toml"
        assert runner.invoke(app, ["init", str(other), "--ruleset", ruleset]).exit_code == 0
        assert load_config(other).ruleset == ruleset
    assert runner.invoke(app, ["init", str(tmp_path / "x.toml"), "--ruleset", "chess"]).exit_code == 2


@pytest.mark.parametrize("extra,where,words", [
    ('players = ["张三", "張三", "C", "D"]', "players", "one player listed twice"),
    ('players = ["alice", "ＡＬＩＣＥ", "C", "D"]', "players", "one player listed twice"),
    ('players = ["", "B", "C", "D"]', "players", "not empty"),
    ('[aliases]\n"A" = ["小A", "B"]', "aliases.A", "the name of the player B"),
    ('[aliases]\n"A" = ["阿"]\n"B" = ["阿"]', "aliases.B", "an alias of A"),
    ('[aliases]\n"Z" = ["zz"]', "aliases.Z", "not in players"),
    ('[schedule.lengths]\npol = "2h"', "schedule.lengths", "prologue, vote, poll, kill"),
    ('[schedule.lengths]\nvote = "1h"\nnight = "0m"', "schedule.lengths.night", "must be positive"),
    ('[schedule.lengths]\nvote = "two hours"', "schedule.lengths.vote", "is not a duration"),
    ('roles = { "A" = "killer", "B" = "killer" }', "roles", "exactly one killer"),
    ('[params]\nwin_treshold = 0.3', "params.win_treshold", "win_threshold"),
    ('templates = "nowhere"', "templates", "does not exist"),
    ('[schedule]\ndaily_deadline = "25:00"', "schedule.daily_deadline", "22:00:00"),
])
def test_config_mistakes_are_caught_with_key_and_line(tmp_path, extra, where, words):
    text = BASE
    if extra.startswith("players"):
        text = text.replace('players = ["A", "B", "C", "D"]', extra)
    elif extra.startswith(("roles", "templates")):
        text = text.replace('players = ["A", "B", "C", "D"]', 'players = ["A", "B", "C", "D"]\n' + extra)
    else:
        text += extra + "\n"
    with pytest.raises(ConfigError) as e:
        load_config(write(tmp_path, text))
    message = str(e.value)
    assert f": {where}:" in message and words in message and " line " in message, message


def test_judge_listed_as_player_and_missing_forum(tmp_path):
    with pytest.raises(ConfigError, match="judge's account 'j'"):
        load_config(write(tmp_path, BASE.replace('"D"]', '"j"]')))
    with pytest.raises(ConfigError, match=r"forum: missing: add a \[forum\] table"):
        load_config(write(tmp_path, BASE.split("[forum]")[0]))


# --- misleading season-file errors (trial 2026-12-01, finding 15) ---------------------------------------------

def test_an_alias_reading_as_another_player_is_reported_at_the_alias_naming_both(tmp_path):
    text = BASE.replace('"D"]', '"D", "张三"]') + '[aliases]\n"A" = ["小A"]\n"D" = ["dd", "張三"]\n'
    with pytest.raises(ConfigError) as e:
        load_config(write(tmp_path, text))
    message = str(e.value)
    assert "line 11: aliases.D:" in message and "'張三', an alias of D" in message and "player 张三" in message, message
    assert "simplified" in message and "out of D's aliases" in message and "rename" not in message, message


def test_one_name_listed_twice_in_both_scripts_is_called_so(tmp_path):
    with pytest.raises(ConfigError) as e:
        load_config(write(tmp_path, BASE.replace('"D"]', '"张三", "張三"]')))
    message = str(e.value)
    assert "line 3: players:" in message and "'张三' and '張三'" in message, message
    assert "simplified" in message and "traditional" in message and "listed twice" in message, message
    assert "alias" not in message, message


def test_a_role_count_parameter_is_reported_at_its_own_line(tmp_path):
    text = BASE.replace('"sunlight"', '"killer_club"').replace('"D"]', '"E", "F", "G"]') + "[params]\nkillers = 9\n"
    with pytest.raises(ConfigError) as e:
        load_config(write(tmp_path, text))
    message = str(e.value)
    assert "line 10: params.killers:" in message and "need more than 6 players" in message, message


def test_check_a_folder_checks_every_season_file_in_it(tmp_path):
    """`forumbot check seasons/` as `status` and `serve` take a folder (trial 2026-12-01, finding 19)."""
    folder = tmp_path / "seasons"
    folder.mkdir()
    (folder / "a.toml").write_text(BASE, encoding="utf-8")
    (folder / "b.toml").write_text(BASE.replace('name = "x"', 'name = "y"') + "[schedule]\nstart = 2026-12-03 20:00\n",
                                   encoding="utf-8")
    (folder / "notes.txt").write_text("not a season", encoding="utf-8")
    runner = CliRunner()
    both = runner.invoke(app, ["check", str(folder)])
    assert both.exit_code == 2 and "is a directory" not in both.output.lower(), both.output
    assert f"{folder / 'a.toml'}: ok" in both.output and f"{folder / 'b.toml'} line 10: schedule.start" in both.output
    assert "2 season files, 1 ok, 1 failed: b.toml" in both.output and "notes" not in both.output, both.output
    (folder / "b.toml").unlink()
    assert runner.invoke(app, ["check", str(folder)]).exit_code == 0
    (folder / "a.toml").unlink()
    empty = runner.invoke(app, ["check", str(folder)])
    assert empty.exit_code == 2 and "no season file" in empty.output

"""The organiser's path through a season file: encodings and full-width punctuation (issue 9, points 15-16),
a start in the past (14), the players list tidied after `replace` (13)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from bot_helpers import make_config, make_season
from typer.testing import CliRunner

from forumbot.cli import app
from forumbot.cli.season import EXAMPLES, future_start
from forumbot.config import ConfigError, load_config
from forumbot.engine.ruleset import ruleset_ids
from forumbot.forums.settings import SettingsError, load_forum_settings

SEASON = '''# 第一季
name = "版杀第一季"
ruleset = "sunlight"
players = ["張三", "李四", "王五", "趙六"]
[forum]
base_url = "http://127.0.0.1:1"
username = "法官"
password_env = "P"
forum_id = 1
'''


def _write(tmp_path, data: bytes, name: str = "season.toml"):
    path = tmp_path / name
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("command", ["check", "run", "status"])
def test_gbk_file_says_it_must_be_utf8(tmp_path, command):
    path = _write(tmp_path, SEASON.encode("gbk"))
    result = CliRunner().invoke(app, [command, str(path)])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "UnicodeDecodeError" not in result.output
    assert "must be saved as UTF-8" in result.output and "GBK" in result.output and "line 1" in result.output


def test_gbk_file_in_forum_check(tmp_path):
    path = _write(tmp_path, SEASON.encode("gbk"))
    with pytest.raises(SettingsError, match="must be saved as UTF-8"):
        load_forum_settings(path)
    result = CliRunner().invoke(app, ["forum-check", str(path)])
    assert result.exit_code == 2 and "UTF-8" in result.output and "Traceback" not in result.output


def test_byte_order_mark_is_read(tmp_path):
    path = _write(tmp_path, SEASON.encode("utf-8-sig"))
    assert load_config(path).players == ["張三", "李四", "王五", "趙六"]
    assert load_forum_settings(path)[0].username == "法官"
    result = CliRunner().invoke(app, ["check", str(path)])
    assert result.exit_code == 0 and "ok" in result.output, result.output


@pytest.mark.parametrize("written,char,line,fix", [
    ('players = ["張三"，"李四", "王五", "趙六"]', "，", 4, "','"),
    ('players = ["張三", "李四", “王五”, "趙六"]', "“", 4, "'\"'"),
    ('players = ［"張三", "李四", "王五", "趙六"]', "［", 4, "'['"),
    ('players = ["張三", "李四", "王五", "趙六"]\nseed　= 3', "\u3000", 5, "ordinary space"),
])
def test_full_width_punctuation_is_named_with_line_and_fix(tmp_path, written, char, line, fix):
    text = SEASON.replace('players = ["張三", "李四", "王五", "趙六"]', written)
    path = _write(tmp_path, text.encode("utf-8"))
    with pytest.raises(ConfigError) as e:
        load_config(path)
    message = str(e.value)
    assert f"line {line}," in message and f"U+{ord(char):04X}" in message and fix in message, message
    assert "Unclosed array" not in message
    result = CliRunner().invoke(app, ["check", str(path)])
    assert result.exit_code == 2 and f"line {line}" in result.output


def test_full_width_comma_inside_a_string_is_not_blamed(tmp_path):
    # A full-width comma inside quotes is part of a name; the real mistake (a missing comma) is reported.
    text = SEASON.replace('name = "版杀第一季"', 'name = "版杀，第一季"').replace('"李四", "王五"', '"李四" "王五"')
    with pytest.raises(ConfigError) as e:
        load_config(_write(tmp_path, text.encode("utf-8")))
    assert "U+FF0C" not in str(e.value) and "line 4: players: a comma is missing" in str(e.value), str(e.value)


# --- point 14: a start in the past ------------------------------------------------------------------------

def test_check_warns_about_a_start_in_the_past(tmp_path):
    path = _write(tmp_path, (SEASON + "[schedule]\nstart = 2020-03-01T20:00:00\n").encode("utf-8"))
    result = CliRunner().invoke(app, ["check", str(path)])
    assert result.exit_code == 0
    assert "WARNING: schedule.start" in result.output and "in the past" in result.output, result.output
    future = _write(tmp_path, (SEASON + "[schedule]\nstart = 2099-03-01T20:00:00\n").encode("utf-8"), "later.toml")
    assert "in the past" not in CliRunner().invoke(app, ["check", str(future)]).output


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_init_writes_no_start_in_the_past(tmp_path, ruleset, monkeypatch):
    later = datetime(2027, 6, 1, 12, 0, tzinfo=UTC)  # the examples were written in 2026
    monkeypatch.setattr("forumbot.cli.season._now", lambda: later)
    path = tmp_path / f"{ruleset}.toml"
    result = CliRunner().invoke(app, ["init", str(path), "--ruleset", ruleset])
    assert result.exit_code == 0, result.output
    config = load_config(path)
    start = config.start_utc()
    assert start is None or start > later
    checked = CliRunner().invoke(app, ["check", str(path)])
    assert checked.exit_code == 0 and "in the past" not in checked.output, checked.output


def test_init_refuses_a_ruleset_name_as_the_path(tmp_path, monkeypatch) -> None:
    """``forumbot init killer_club`` wrote a sunlight season into a file named killer_club."""
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["init", "killer_club"])
    assert result.exit_code == 2 and not (tmp_path / "killer_club").exists()
    assert "did you mean `forumbot init --ruleset killer_club killer_club.toml`?" in result.output
    helped = CliRunner().invoke(app, ["init", "--help"], env={"COLUMNS": "200"})
    assert "--ruleset" in " ".join(helped.output.split()).split("Options")[0]  # the help line names the option


def test_init_into_a_missing_folder_says_so_without_a_traceback(tmp_path) -> None:
    result = CliRunner().invoke(app, ["init", str(tmp_path / "no" / "such" / "season.toml")])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"there is no folder {tmp_path / 'no' / 'such'}" in result.output


def test_init_start_hint_is_tomorrow_evening_in_the_season_zone():
    text = 'time_zone = "Asia/Taipei"\n[schedule]\nstart = 2020-01-01T20:00:00  # why\n'
    written = future_start(text, now=datetime(2027, 5, 3, 17, 0, tzinfo=UTC))  # 01:00 on the 4th in Taipei
    assert written == 'time_zone = "Asia/Taipei"\n[schedule]\n# start = 2027-05-05T20:00:00  # why\n'


# --- point 13: the players list tidied after `replace` -------------------------------------------------------

PLAYERS = ["A", "B", "C", "D", "E", "F"]


def _replaced_season(tmp_path):
    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, aliases={"C": ["小C"], "A": ["阿A"]})
    s.bot.cycle()
    s.clock.advance(62)
    s.bot.cycle()
    s.bot.organiser_command("replace C Z")
    s.clock.advance(1)
    s.bot.cycle()
    assert [p.name for p in s.bot.game.players] == ["A", "B", "Z", "D", "E", "F"]
    s.forum.player_pm("Z", "投 A")
    s.clock.advance(1)
    s.bot.cycle()
    return s


def _reopen(s, **changes):
    s.config = make_config(s.config.path.parent, changes.pop("players", PLAYERS), changes.pop("roles", {"C": "killer"}),
                           **{"aliases": {"C": ["小C"], "A": ["阿A"]}, **changes})
    return s.restart()


def test_players_list_edited_after_replace_is_accepted(tmp_path):
    s = _replaced_season(tmp_path)
    assert 3 not in s.bot.game.ruleset.pending()  # Z has voted
    bot = _reopen(s, players=["A", "B", "Z", "D", "E", "F"], roles={"Z": "killer"}, aliases={"A": ["阿A"]})
    assert [p.name for p in bot.game.players] == ["A", "B", "Z", "D", "E", "F"]
    assert bot.game.player(3).role == s.bot.game.player(3).role
    assert 3 not in bot.game.ruleset.pending() and set(bot.game.ruleset.pending()) == set(s.bot.game.ruleset.pending())
    s.clock.advance(1)
    bot.cycle()  # and it runs on
    # the file as the season started is still accepted, and so are the renamed aliases
    _reopen(s)
    _reopen(s, players=["A", "B", "Z", "D", "E", "F"], roles={"Z": "killer"}, aliases={"A": ["阿A"], "Z": ["小C"]})


@pytest.mark.parametrize("players,words", [
    (["A", "B", "Y", "D", "E", "F"], ["players:", "after replace C → Z", "lists Y, not in the season", "leaves out Z"]),
    (["A", "B", "Z", "D", "E"], ["players:", "leaves out F"]),
    (["B", "A", "Z", "D", "E", "F"], ["players:", "another order", "seat order"]),
])
def test_players_list_that_does_not_match_names_the_field_and_difference(tmp_path, players, words):
    s = _replaced_season(tmp_path)
    with pytest.raises(ConfigError) as e:
        _reopen(s, players=players, roles={"Z": "killer"}, aliases={"A": ["阿A"]})
    message = str(e.value)
    assert all(w in message for w in words), message
    assert "new season" not in message and "another name" not in message


def test_changed_parameters_name_the_field_and_never_advise_a_new_season(tmp_path):
    s = _replaced_season(tmp_path)
    with pytest.raises(ConfigError) as e:
        _reopen(s, players=["A", "B", "Z", "D", "E", "F"], roles={"Z": "killer"}, aliases={"A": ["阿A"]},
                organisers=["Org", "Org2"])
    message = str(e.value)
    assert "organisers:" in message and '["Org", "Org2"]' in message and '["Org"]' in message, message
    assert "new season" not in message and "another name" not in message


def test_players_edited_before_the_season_starts_are_taken(tmp_path):
    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, schedule={"start": "2099-01-01T00:00:00"})
    s.bot.cycle()  # waiting for its start
    assert not s.bot.started
    s.config = make_config(tmp_path, ["A", "B", "C", "D", "E", "G"], {"C": "killer"}, schedule={"start": "2099-01-01T00:00:00"})
    assert [p.name for p in s.restart().game.players][-1] == "G"


def test_names_joined_by_a_full_width_comma_inside_quotes(tmp_path):
    text = SEASON.replace('"張三", "李四"', '"張三，李四"')
    with pytest.raises(ConfigError) as e:
        load_config(_write(tmp_path, text.encode("utf-8")))
    message = str(e.value)
    assert "line 4" in message and "players" in message and '["張三", "李四"]' in message, message


def test_full_width_digit_outside_quotes(tmp_path):
    with pytest.raises(ConfigError) as e:
        load_config(_write(tmp_path, (SEASON.replace("# 第一季\n", "seed = ３\n")).encode("utf-8")))
    assert "line 1, column 8" in str(e.value) and "'3'" in str(e.value), str(e.value)


# --- a date or time TOML cannot read (trial 2026-12-01, finding 5) --------------------------------------------

@pytest.mark.parametrize("written,where,words", [
    ("[schedule]\nstart = 2026-13-03T20:00:00", "line 11: schedule.start:", ["not a valid date-time", "no month 13",
                                                                             "start = 2026-12-03T20:00:00"]),
    ("[schedule]\nstart = 2026-12-03 20:00", "line 11: schedule.start:", ["not a valid date-time", "seconds are missing",
                                                                          "2026-12-03T20:00:00"]),
    ("[schedule]\ndaily_deadline = 25:00:00", "line 11: schedule.daily_deadline:", ["not a valid time", "no hour 25",
                                                                                    "daily_deadline = 22:00:00"]),
    ("[schedule]\nstart = 2026-02-30", "line 11: schedule.start:", ["not a valid date-time", "no day 30"]),
    ("[schedule]\ngrace = 5 秒", "line 11: schedule.grace:", ["'5 秒' is not a TOML value", "in quotes"]),
])
def test_a_value_toml_cannot_read_names_its_key_and_line(tmp_path, written, where, words):
    with pytest.raises(ConfigError) as e:
        load_config(_write(tmp_path, (SEASON + written + "\n").encode("utf-8")))
    message = str(e.value)
    assert where in message and all(w in message for w in words), message
    assert "Expected newline" not in message, message


# --- the example files' comments (trial 2026-12-01, finding 17) -------------------------------------------------

_COMMENTED_KEY = re.compile(r'^#\s?(?:\[[A-Za-z0-9_."]+\]|"?([A-Za-z_][A-Za-z0-9_.]*)"?\s*=)')


def _misplaced_comments(text: str) -> list[tuple[int, str, str]]:
    """(line, key, comment): a comment written as prose, directly above a commented-out key line whose key it
    never names: the prose was meant for another key (a comment block is about the key just below it)."""
    lines = text.splitlines()
    found = []
    start = None
    for number, line in enumerate(lines, start=1):
        prose = line.startswith("#") and not line.startswith("#  ") and not _COMMENTED_KEY.match(line)
        if prose:
            start = start or number
            continue
        key_line = _COMMENTED_KEY.match(line)
        if start is not None and key_line and key_line.group(1):
            key = key_line.group(1).split(".")[-1]
            block = " ".join(lines[start - 1: number - 1]).lower()
            if not any(word.rstrip("s") in block for word in key.lower().split("_") if len(word) > 2):
                found.append((number, key, lines[start - 1]))
        start = None
    return found


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.iterdir() if p.name.endswith(".example.toml")))
def test_example_comments_sit_above_their_keys(example):
    lines = (EXAMPLES / example).read_text(encoding="utf-8").splitlines()
    assert _misplaced_comments("\n".join(lines)) == []
    # the aliases table comes right under the comment that says what aliases are (`forumbot init` copies the file)
    assert "[aliases]" in lines and "Nicknames" in lines[lines.index("[aliases]") - 1]


def test_misplaced_comment_is_found():
    assert _misplaced_comments("# Nicknames players may use.\n# vote_chart_images = true\n\n[aliases]\n") == [
        (2, "vote_chart_images", "# Nicknames players may use.")]
    assert _misplaced_comments("# The seed of the draw.\n# seed = 21\n") == []


def test_the_substitute_and_the_replaced_player_are_told_by_private_message(tmp_path):
    """Issue 28: Z is told he replaces C (the killer), with the round's deadline as the thread shows it; C is told
    he was replaced (his message is not cancelled with the ones still waiting for him)."""
    from forumbot.runtime.schedule import format_local

    s = _replaced_season(tmp_path)
    [to_z] = [m.body for m in s.forum.pms_to("Z")][:1]
    assert "in place of" in to_z and "**C**" in to_z and "seat 3" in to_z, to_z
    assert "What C was sent in the prologue" in to_z and "the killer" in to_z
    assert "welcome" not in to_z.splitlines()[0]
    assert format_local(s.bot.deadline(), s.config.tz, "en") in to_z
    [to_c] = [m.body for m in s.forum.pms_to("C") if "**Z**" in m.body]
    assert "no longer play" in to_c

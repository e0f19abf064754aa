"""Every mistake of a season file in one run, each with its key, its line and the fix in plain words (issue 27):
TOML syntax told where the mistake is, the shapes of `players` and `organisers`, UTF-16 files, and no
wording of the parser or the validation library."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from forumbot.cli import app
from forumbot.config import ConfigError, load_config

SEASON = '''name = "第一季"
ruleset = "sunlight"
time_zone = "Europe/Berlin"
organisers = ["主持"]

players = ["甲", "乙", "丙", "丁", "戊"]

[forum]
base_url = "http://127.0.0.1:1"
username = "法官"
password_env = "P"
forum_id = 1
'''

#: what the parser or pydantic would say; none of it reaches an organiser
RAW = ("Input should be", "Value error", "valid list", "valid string", "Cannot overwrite", "Unclosed array",
       "Cannot declare", "Expected newline", "at line", "column 1)")


def _mistakes(tmp_path, text: str | bytes) -> str:
    path = tmp_path / "season.toml"
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(text)
    with pytest.raises(ConfigError) as e:
        load_config(path)
    message = str(e.value)
    assert not [raw for raw in RAW if raw in message], message
    assert not re.search(r"\bplayers\.\d|organisers\.\d", message), message
    return message


def test_an_unclosed_list_is_reported_where_it_opens(tmp_path):
    text = SEASON.replace('players = ["甲", "乙", "丙", "丁", "戊"]', 'players = ["甲", "乙", "丙",\n  "丁", "戊"\n')
    message = _mistakes(tmp_path, text)
    assert "line 6: players:" in message and "opened with '[' on line 6 is never closed" in message, message


def test_a_missing_comma_in_a_list_is_named(tmp_path):
    message = _mistakes(tmp_path, SEASON.replace('"乙", "丙"', '"乙" "丙"'))
    assert "line 6: players: a comma is missing" in message, message


@pytest.mark.parametrize("extra,key,first,second", [
    ('name = "第二季"\n', "name", 1, 2),
    ('[forum]\nthread_id = 3\n', "forum", 8, 13),
    ('[schedule]\ndefault = "20h"\ndefault = "24h"\n', "schedule.default", 14, 15),
])
def test_a_key_written_twice_names_the_key_and_both_lines(tmp_path, extra, key, first, second):
    text = SEASON.replace("ruleset", extra + "ruleset") if extra.startswith("name") else SEASON + extra
    message = _mistakes(tmp_path, text)
    assert f"line {second}: {key}:" in message and f"on line {first} and on line {second}" in message, message


def test_players_written_as_one_text_are_told_to_be_a_list(tmp_path):
    message = _mistakes(tmp_path, SEASON.replace('["甲", "乙", "丙", "丁", "戊"]', '"a,b"'))
    assert 'line 6: players: write players as a list, each name in quotes: players = ["a", "b"]' in message, message


@pytest.mark.parametrize("key,written,words", [
    ("players", '["甲", "乙", "丙", "丁", "戊", 6]', "the 6th player, 6, is a number"),
    ("organisers", '["主持", 42]', "the 2nd organiser, 42, is a number"),
])
def test_a_number_among_the_names_names_the_entry(tmp_path, key, written, words):
    text = re.sub(rf"^{key} = .*$", f"{key} = {written}", SEASON, flags=re.MULTILINE)
    message = _mistakes(tmp_path, text)
    assert f": {key}: {words}" in message and '"' + words.split(", ")[1] + '"' in message, message


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_utf16_file_is_told_to_be_saved_as_utf8(tmp_path, encoding):
    message = _mistakes(tmp_path, SEASON.encode(encoding))
    assert "UTF-16" in message and "Unicode" in message and "saved as UTF-8" in message, message
    assert "GB18030" not in message and "GBK" not in message, message


def test_every_mistake_of_a_file_in_one_run(tmp_path):
    text = (SEASON.replace('locale', 'x').replace('time_zone = "Europe/Berlin"', 'time_zone = "Europe/Berlin"\nlocale = "fr"')
            .replace('players = ["甲", "乙", "丙", "丁", "戊"]', 'players = ["甲", "乙", "丙"]\nvote_chart_image = true')
            + '[schedule]\ndefault = "a day"\nvote_count_every = -1\n[aliases]\n"张三" = ["老张"]\n')
    message = _mistakes(tmp_path, text)
    lines = message.splitlines()
    expected = ["line 4: locale: 'fr' is not allowed: write one of 'zh-Hans', 'zh-Hant' or 'en'",
                "line 8: vote_chart_image: unknown key: did you mean vote_chart_images?",
                "line 16: schedule.default: 'a day' is not a duration",
                "line 17: schedule.vote_count_every: -1 is too small: it must be at least 0",
                "line 19: aliases.张三: '张三' is not in players",
                "line 7: players: ruleset 'sunlight' needs at least 4 players, got 3"]
    for words in expected:
        assert any(words in line for line in lines), (words, message)
    assert len(lines) == len(expected), message


def test_a_stale_alias_does_not_hide_the_mistake_behind_it(tmp_path):
    text = SEASON.replace('["甲", "乙", "丙", "丁", "戊"]', '["甲", "乙", "丙"]') + '[aliases]\n"张三" = ["老张"]\n'
    message = _mistakes(tmp_path, text)
    assert "aliases.张三: '张三' is not in players" in message and "needs at least 4 players" in message, message


def test_a_broken_forum_table_does_not_hide_the_players(tmp_path):
    text = SEASON.replace('password_env = "P"\n', "").replace('["甲", "乙", "丙", "丁", "戊"]', '["甲", "法官", "丙", "丁"]')
    message = _mistakes(tmp_path, text)
    assert "forum: give exactly one of password_env" in message and "the judge's account '法官'" in message, message


def test_check_prints_each_mistake_on_its_own_error_line(tmp_path):
    path = tmp_path / "season.toml"
    path.write_text(SEASON.replace('"zh', '"x').replace('players = ["甲", "乙", "丙", "丁", "戊"]',
                                                          'players = "甲、乙"\nseed = 1.5'), encoding="utf-8")
    result = CliRunner().invoke(app, ["check", str(path)])
    assert result.exit_code == 2, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("error: ")]
    assert len(errors) == 3 and "Traceback" not in result.output, result.output
    assert 'players = ["甲", "乙"]' in errors[0] and "needs at least 4 players, got 2" in errors[1]
    assert "line 7: seed: 1.5 cannot be used here: write a whole number" in errors[2]


@pytest.mark.parametrize("old,new,words", [
    ("forum_id = 1", "forum_id = 0", ["line 12: forum.forum_id: 0 is too small: it must be more than 0"]),
    ("forum_id = 1", 'forum_id = "one"', ["'one' is not a whole number: write digits without quotes"]),
    ('name = "第一季"', "name = 3", ['line 1: name: 3 is not text: write it in quotes, "3"']),
    ("forum_id = 1", 'forum_id = 1\nengine = "mybb"\nretries = 99',
     ["forum.engine: 'mybb' is not allowed: write one of 'flaskbb', 'discuz', 'nodebb' or 'phpbb'",
      "forum.retries: 99 is too large: it must be at most 10"]),
    # one line: the misspelt table's, not also "forum: missing"
    ("[forum]", "[forums]", ["forums: unknown key: did you mean forum?"]),
    ('password_env = "P"\nforum_id = 1', 'forum_id = 1', ["line 8: forum: give exactly one of password_env"]),
    ('base_url = "http://127.0.0.1:1"\nusername = "法官"\npassword_env = "P"\nforum_id = 1', 'base_url = "x"',
     ["line 9: forum.base_url: base_url must start with http:// or https://", "forum.username: missing: add username",
      "line 8: forum: give exactly one of password_env", "line 8: forum: needs thread_id"]),
    ("forum_id = 1", "forum_id = 1\n[params]\npoints = 3", ["params.points: write points as a list"]),
    ("forum_id = 1", 'forum_id = 1\n[schedule]\nreminders = ["1h", 2]',
     ['schedule.reminders: the 2nd reminder: 2 is a number without its unit: write a duration in quotes, e.g. "2h"']),
    ("forum_id = 1", 'forum_id = 1\n[aliases]\n"甲" = "小甲"', ['aliases.甲: write the aliases of 甲 as a list: "甲" = ["小甲"]']),
])
def test_each_mistake_in_plain_words(tmp_path, old, new, words):
    message = _mistakes(tmp_path, SEASON.replace(old, new))
    assert all(w in message for w in words), message
    assert len(message.splitlines()) == len(words), message  # nothing told twice or as a consequence


@pytest.mark.parametrize("players,words", [
    ('["甲", "乙", 丙, "丁", "戊"]', "line 6: players: '丙' is not in quotes: every name or text in a list goes in "
                                   'quotes, e.g. "丙"'),
    ('["甲", "乙",, "丁", "戊"]', "line 6: players: a comma with no value before it"),
    ('["甲", "乙", "丙", "丁", "戊"]\n[players]\nx = 1', "line 7: players: written as a key on line 6 and as a table on line 7"),
])
def test_a_list_toml_cannot_read_says_why(tmp_path, players, words):
    message = _mistakes(tmp_path, SEASON.replace('["甲", "乙", "丙", "丁", "戊"]', players))
    assert words in message, message


def test_a_player_listed_twice_is_told_once(tmp_path):
    message = _mistakes(tmp_path, SEASON.replace('"乙", "丙"', '"乙", "乙"'))
    assert len(message.splitlines()) == 1 and "one player listed twice" in message, message

"""A new organiser's mistakes, each made in a season file `forumbot init` writes (issue 27): every one told on
one line that names the key and its line, says what is wrong and what to write, in plain words; the mistakes a
first round of trying found told badly (a number read as a time, a unit missing, True for true, keys below the
wrong table header, seat numbers, ...) are here with the rest of what was tried. Also: no warning on any file
`init` writes or on any shipped example, and `run` on a file with mistakes writes nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from forumbot.cli import app
from forumbot.cli.season import EXAMPLES
from forumbot.config import ConfigError, load_config
from forumbot.engine.ruleset import ruleset_ids

#: what the parser or pydantic would say; none of it reaches an organiser
RAW = ("Input should be", "Value error", "valid list", "valid string", "Cannot overwrite", "Unclosed array",
       "Cannot declare", "Expected newline", "Invalid statement", "invalid statement", "at line", "Traceback",
       "validation error", "Field required", "Extra inputs")

SUNLIGHT_PLAYERS = ('players = [\n  "张三", "李四", "王五", "赵六", "孙七", "周八", "吴九", "郑十", "冯十一", "陈十二",\n'
                    '  "褚十三", "卫十四", "蒋十五", "沈十六", "韩十七", "杨十八", "朱十九", "秦二十", "尤廿一",\n]')


@pytest.fixture(scope="module")
def written() -> dict[str, str]:
    """The shipped example of each ruleset (what `forumbot init` starts from; its output's layout may change
    with the answers it asks for, the examples' lines are what the cases below name)."""
    return {ruleset: (EXAMPLES / f"{ruleset}.example.toml").read_text(encoding="utf-8") for ruleset in ruleset_ids()}


@pytest.fixture(scope="module")
def initialised(tmp_path_factory) -> dict[str, str]:
    """The text `forumbot init` writes for each ruleset."""
    folder = tmp_path_factory.mktemp("init")
    texts = {}
    for ruleset in ruleset_ids():
        path = folder / f"{ruleset}.toml"
        result = CliRunner().invoke(app, ["init", str(path), "--ruleset", ruleset], input="\n" * 40)
        assert result.exit_code == 0, result.output
        texts[ruleset] = path.read_text(encoding="utf-8")
    return texts


def _told(tmp_path: Path, data: str | bytes) -> list[str]:
    path = tmp_path / "season.toml"
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    with pytest.raises(ConfigError) as e:
        load_config(path)
    message = str(e.value)
    assert not [raw for raw in RAW if raw in message], message
    assert not re.search(r"\b(?:players|organisers|reminders)\.\d", message), message  # no 0-based index
    return message.splitlines()


#: (ruleset, what is written, what is written instead, the words of the one line told)
MISTAKES = [
    # keys misspelt or in the wrong place
    ("sunlight", "players = [", "playres = [", "line 23: playres: unknown key: did you mean players?"),
    ("sunlight", "time_zone =", "timezone =", "line 13: timezone: unknown key: did you mean time_zone?"),
    ("sunlight", 'username = "法官"', 'user_name = "法官"', "forum.user_name: unknown key: did you mean username?"),
    ("sunlight", "reminders =", "reminder =", "schedule.reminder: unknown key: did you mean reminders?"),
    ("sunlight", "[params]", "[param]", "line 36: param: unknown key: did you mean params?"),
    ("sunlight", "[schedule.lengths]", "[schedule.length]", "schedule.length: unknown key: did you mean lengths?"),
    ("sunlight", "[schedule]\n", "", "line 55: forum.default: default is a key of [schedule], not of [forum]: is the "
     "[schedule] header missing above it? (daily_deadline, exact_kinds, reminders, poll_interval, grace, outage "
     "below it belong to [schedule] too)"),
    ("sunlight", 'locale = "zh-Hans"', 'locale = "zh-Hans"\nreminders = ["2h"]',
     "line 12: reminders: reminders is a key of [schedule], not of the top level: is the [schedule] header missing"),
    ("sunlight", "min_write_interval_seconds = 0", 'min_write_interval_seconds = 0\nplayers = ["张三", "李四"]',
     "forum.players: players is a key of the top level, not of [forum]: move it above the first [table] header"),
    ("sunlight", "forum_id = 2", "论坛 = 2", "line 50: '论坛' cannot be a key as written: a key is made of English letters"),
    ("sunlight", "forum_id = 2", "forum_id: 2", "line 50: a key must be followed by = and its value"),
    # values misspelt
    ("sunlight", 'ruleset = "sunlight"', 'ruleset = "sunligt"', "line 8: ruleset: unknown ruleset 'sunligt': did you "
     'mean ruleset = "sunlight"? (known: human_kill,'),
    ("sunlight", 'ruleset = "sunlight"', 'ruleset = "阳光下的罪恶"', 'did you mean ruleset = "sunlight"?'),
    ("killer_club", 'ruleset = "killer_club"', 'ruleset = "Killer Club"', 'did you mean ruleset = "killer_club"?'),
    ("sunlight", "win_threshold = 0.35", "win_threshold = 0.35\nkillers = 3", "params.killers: unknown key (check its "
     "spelling and its table; docs/config.md lists the keys allowed); sunlight's parameters are win_threshold, "),
    ("sunlight", "win_threshold = 0.35", "win_threshold = 0.35\nkillers = 3", "(killers is a parameter of killer_club: "
     "a file copied from another game? delete it)"),
    ("sunlight", 'locale = "zh-Hans"', 'locale = "zh-CN"', "line 11: locale: 'zh-CN' is not allowed: did you mean "
     "locale = \"zh-Hans\"? write one of 'zh-Hans', 'zh-Hant' or 'en'"),
    ("sunlight", 'locale = "zh-Hans"', 'locale = "zh-tw"', 'did you mean locale = "zh-Hant"?'),
    ("sunlight", 'locale = "zh-Hans"', 'locale = "fr"', "locale: 'fr' is not allowed: write one of"),
    ("sunlight", 'engine = "flaskbb"', 'engine = "FlaskBB"', 'did you mean engine = "flaskbb"?'),
    ("vampire_village", 'team_order = "last"', 'team_order = "Last"', 'did you mean team_order = "last"?'),
    ("sunlight", "outage =", 'straddling = "ontime"\noutage =', 'did you mean straddling = "on_time"?'),
    ("sunlight", 'organisers = ["组织者"]', 'organisers = [""]', 'line 20: organisers: an empty name "": write the '),
    ("sunlight", '"张三" = ["小张", "三哥"]', '"张三" = ["小张", ""]', 'line 33: aliases.张三: an empty alias "": write'),
    ("sunlight", 'password_env = "FORUMBOT_PASSWORD"', 'password_env = "hunter2!"', "line 48: forum.password_env: the "
     "name of an environment variable has only letters, digits and _ (e.g. FORUMBOT_PASSWORD): if this is the "
     "password itself, delete it"),
    ("sunlight", "daily_deadline = 22:00:00", "daily_deadline = 22点", "schedule.daily_deadline: not a valid time: "
     "write e.g. daily_deadline = 22:00:00"),
    ("sunlight", "daily_deadline = 22:00:00", "daily_deadline = 晚上10点", "schedule.daily_deadline: not a valid time"),
    ("sunlight", 'poll = "2h"', "poll = 120", 'schedule.lengths.poll: 120 is a number without its unit: write a '
     'duration in quotes, e.g. "120m"'),
    ("sunlight", '"Asia/Shanghai"', '"Beijing"', "time_zone: 'Beijing' is not a time zone name; write time_zone = "
     '"Asia/Shanghai"'),
    ("sunlight", '"Asia/Shanghai"', '"北京时间"', 'write time_zone = "Asia/Shanghai"'),
    ("sunlight", '"Asia/Shanghai"', '"asia/shanghai"', 'write time_zone = "Asia/Shanghai" (the names are written with'),
    ("sunlight", '"Asia/Shanghai"', '"Asia/Shangai"', 'did you mean time_zone = "Asia/Shanghai"?'),
    ("sunlight", '"Asia/Shanghai"', '"UTC+8"', 'write the zone of a place, e.g. time_zone = "Asia/Shanghai" (or '
     '"Asia/Taipei"), which follows its daylight saving; a fixed UTC+8 is time_zone = "Etc/GMT-8"'),
    ("sunlight", 'engine = "flaskbb"', 'engine = "Discuz"', "forum.engine: 'Discuz' is not allowed: did you mean engine = \"discuz\"?"),
    ("sunlight", '"http://127.0.0.1:8080"', '"127.0.0.1:8080"', "forum.base_url: base_url must start with http://"),
    ("sunlight", 'forum_id = 2', 'thread_id = "http://127.0.0.1:8080/topic/12"',
     "forum.thread_id: 'http://127.0.0.1:8080/topic/12' is the address, not the number: write thread_id = 12"),
    ("sunlight", 'forum_id = 2', 'thread_id = "https://bbs.example.com/forum.php?mod=viewthread&tid=1234&extra=page%3D1"',
     "is the address, not the number: write thread_id = 1234 (the thread's number in its address, without quotes)"),
    ("sunlight", 'forum_id = 2', 'forum_id = "https://bbs.example.com/viewforum.php?f=7"', "write forum_id = 7"),
    ("sunlight", 'password_env = "FORUMBOT_PASSWORD"', 'password = "secret"', "forum: the [forum] table must not hold"),
    ("sunlight", '# markup = "markdown"', 'markup = "html"', "markup: 'html' is not allowed"),
    ("sunlight", "# seed = 21", "seed = 2.5", "seed: 2.5 cannot be used here: write a whole number"),
    ("killer_club", 'vote_in_thread = false', 'vote_in_thread = False',
     "params.vote_in_thread: 'False' is not true or false as TOML writes them: write vote_in_thread = true or"),
    ("killer_club", 'vote_in_thread = false', 'vote_in_thread = 否', "'否' is not true or false as TOML writes them"),
    ("killer_club", 'tie_fallback = "nobody"', 'tie_fallback = "none"', "params.tie_fallback: 'none' is not allowed"),
    ("vampire_village", 'team_order = "last"', 'team_order = "Last"', "params.team_order: 'Last' is not allowed: did"),
    ("human_kill", 'distribution = "standard"', 'distribution = "thirdss"', "params.distribution: 'thirdss' is not"),
    ("interview_vampire", 'vampire_rule = "final"', 'vampire_rule = "finals"', "params.vampire_rule: 'finals' is not"),
    # parameters
    ("sunlight", "win_threshold = 0.35", "win_treshold = 0.35", "params.win_treshold: unknown key: did you mean"),
    ("sunlight", "win_threshold = 0.35", 'win_threshold = "35%"', "'35%' is not a number: write digits without "
     "quotes, e.g. win_threshold = 0.35"),
    ("sunlight", "win_threshold = 0.35", "win_threshold = 35%", "params.win_threshold: a percentage is written as a "
     "fraction, without %: win_threshold = 0.35"),
    ("sunlight", "[aliases]", '[[players]]\nname = "x"\n[aliases]', "line 32: players: written as a key on line 23 and "
     "as a table on line 32"),
    ("human_kill", "kyokkou_chance = 0.05", 'kyokkou_chance = "5%"', "e.g. kyokkou_chance = 0.05"),
    ("sunlight", "win_threshold = 0.35", "win_threshold = 35", "params.win_threshold: 35 is too large"),
    ("killer_club", "# killers = 3", "killers = 9", "params.killers: killer_club needs fewer killers"),
    ("vampire_village", "# counts = { vampire = 5 }", "counts = { vampires = 5 }", "unknown role 'vampires'"),
    ("vampire_village", 'runoff = "6h"', 'run_off = "6h"', "schedule.lengths: names run_off, not a phase of"),
    # punctuation of a Chinese keyboard
    ("sunlight", '"张三", "李四"', '"张三"，"李四"', "line 24, column 7: a full-width comma"),
    ("sunlight", '"张三", "李四"', '"张三"、"李四"', "line 24, column 7: an ideographic comma"),
    ("sunlight", '"张三", "李四"', '"张三"；"李四"', "line 24, column 7: a full-width semicolon"),
    ("sunlight", '"张三", "李四"', '"张三"; "李四"', "line 24: players: ';' between values in the list: values in a"),
    ("sunlight", 'name = "版杀', 'name ＝ "版杀', "line 7, column 6: a full-width equals sign"),
    ("sunlight", 'name = "版杀21 阳光下的罪恶"', 'name = “版杀21 阳光下的罪恶”', "line 7, column 8: a curly quotation mark"),
    ("sunlight", "[forum]", "【forum】", "line 44, column 1: a full-width bracket"),
    ("sunlight", "forum_id = 2", "forum_id = ２", "line 50, column 12: a full-width digit"),
    ("sunlight", "forum_id = 2", "forum_id =\u30002", "line 50, column 11: a full-width space"),
    ("sunlight", 'engine = "flaskbb"', "engine = ‘flaskbb’", "line 45, column 10: a curly quotation mark"),
    ("sunlight", '"李四", "王五"', '"李四, "王五"', "line 24: players: a quotation mark is missing before column 15"),
    ("sunlight", '"秦二十", "尤廿一",\n]', '"秦二十", "尤廿一",\n', "line 23: players: the list opened with '[' on line"),
    # times, dates and durations
    ("sunlight", "daily_deadline = 22:00:00", 'daily_deadline = "晚上10点"', "schedule.daily_deadline: '晚上10点' is not "
     "a valid time; write e.g. daily_deadline = 22:00:00"),
    ("sunlight", "daily_deadline = 22:00:00", "daily_deadline = 22：00", "line 57, column 20: a full-width colon"),
    ("sunlight", "daily_deadline = 22:00:00", "daily_deadline = 25:00:00", "(there is no hour 25: hours go from 00"),
    ("sunlight", "daily_deadline = 22:00:00", "daily_deadline = 22:00", "not a valid time (the seconds are missing)"),
    ("sunlight", "daily_deadline = 22:00:00", 'daily_deadline = "10pm"', "'10pm' is not a valid time"),
    ("sunlight", "daily_deadline = 22:00:00", "daily_deadline = 22", "line 57: schedule.daily_deadline: 22 is a "
     "number, not a time: write e.g. daily_deadline = 22:00:00"),
    ("sunlight", "# start = 20", "start = 20261206 #", "schedule.start: 20261206 is a number, not a time: write e.g. "
     "start = 2026-12-03T20:00:00"),
    ("sunlight", "# start = 20", "start = 2026-12-06 20:00 #", "not a valid date-time (the seconds are missing)"),
    ("sunlight", "# start = 20", "start = 2026/12/06 20:00 #", "schedule.start: not a valid date-time: write e.g. "
     "start = 2026-12-03T20:00:00 (year-month-day with '-'"),
    ("sunlight", "# start = 20", "start = 2026年12月6日 #", "schedule.start: not a valid date-time: write e.g."),
    ("sunlight", "# start = 20", 'start = "12月6日晚8点" #', "schedule.start: '12月6日晚8点' is not a valid date-time"),
    ("sunlight", 'kill = "20h"', 'kill = "1h30"', "schedule.lengths.kill: '1h30': the minutes need their unit too: "
     'write "1h30m"'),
    ("sunlight", 'kill = "20h"', "kill = 20", 'schedule.lengths.kill: 20 is a number without its unit: write a '
     'duration in quotes, e.g. "20h"'),
    ("sunlight", 'default = "24h"', 'default = "24"', "schedule.default: '24' has no unit: write e.g. \"24h\""),
    ("sunlight", 'reminders = ["3h", "1h"]', 'reminders = "3h"', "schedule.reminders: write reminders as a list"),
    ("sunlight", 'exact_kinds = ["poll"]', 'exact_kinds = "poll"', "schedule.exact_kinds: write exact_kinds as a list"),
    # the roster
    ("sunlight", '"李四", "王五"', '"李四", "ＬＩ", "li"', "'ＬＩ' and 'li' are the same name, once in full-width"),
    ("sunlight", '"李四", "王五"', '"李四", "Alice", "alice"', "the same name but for upper and lower case"),
    ("sunlight", '"李四", "王五"', '"李四", "李四"', "players: '李四' and '李四' are the same name: one player listed"),
    ("sunlight", '"李四", "王五"', '"李四", ""', "players: '': a player name must be a forum user name, not empty"),
    ("sunlight", '"李四", "王五"', '"李四", " 王五"', "without spaces around it"),
    ("sunlight", '"李四", "王五"', '"李四", "@王五"', "players: '@王五' starts with '@', as a mention does: write the "
     'user name without it, "王五"'),
    ("sunlight", '"李四", "王五"', '"李四", "王五\u200b"', "players: '王五\\u200b' holds an invisible character (U+200B"),
    ("sunlight", '"李四", "王五"', '"李四", "法官"', "players: the judge's account '法官' is listed among the players"),
    ("sunlight", '"张三", "李四", "王五"', '"1号 张三", "2号 李四", "3. 王五"', "line 23: players: '1号 张三', '2号 李四', "
     "'3. 王五' start with a seat number: the list is in seat order already (seat 1 first); write only the forum "
     'user names, "张三", "李四", "王五"'),
    ("sunlight", '"张三", "李四", "王五"', '"张三", "2. 李四", "3、王五"', "'2. 李四', '3、王五' start with a seat number"),
    ("sunlight", '"张三", "李四"', '"张三,李四"', "players: '张三,李四' holds ',': several names in one pair of quotes?"),
    ("sunlight", SUNLIGHT_PLAYERS, "players = []", "players: the list is empty"),
    ("sunlight", SUNLIGHT_PLAYERS, '[players]\n1 = "张三"', "players: write players as a list, in brackets"),
    ("sunlight", '"张三" = ["小张", "三哥"]', '"张三" = ["李四"]', "'李四', an alias of 张三, reads as the name of"),
    ("sunlight", "[aliases]", '[roles]\n"张三" = "杀手"\n\n[aliases]', "roles: unknown role '杀手' for ruleset"),
    ("sunlight", 'name = "版杀21 阳光下的罪恶"', 'name = ""', "line 7: name: must not be empty"),
]


@pytest.mark.parametrize("ruleset,old,new,words", MISTAKES, ids=[f"{m[0]}:{m[2][:30]}" for m in MISTAKES])
def test_a_mistake_is_told_on_one_line_with_its_key_and_fix(tmp_path, written, ruleset, old, new, words):
    text = written[ruleset]
    if old.startswith("# start = 20"):  # init writes a start hint for tomorrow evening: any date
        old = re.search(r"# start = \S+ *#?", text).group(0)  # type: ignore[union-attr]
    assert old in text, old
    lines = _told(tmp_path, text.replace(old, new, 1))
    assert len(lines) == 1 and words in lines[0], lines


def test_a_wrong_parameter_is_told_when_the_players_are_wrong_too(tmp_path, written):
    text = (written["sunlight"].replace('"李四", "王五"', '"李四", "@王五"')
            .replace("win_threshold = 0.35", "win_threshold = 1.35").replace('engine = "flaskbb"', 'engine = "Flaskbb"'))
    lines = _told(tmp_path, text)
    assert len(lines) == 3 and "line 37: params.win_threshold: 1.35 is too large" in lines[1], lines


def test_several_mistakes_are_told_at_once(tmp_path, written):
    text = (written["sunlight"].replace("time_zone =", "timezone =").replace('"李四", "王五"', '"李四", "李四"')
            .replace('locale = "zh-Hans"', 'locale = "cn"').replace('kill = "20h"', "kill = 20")
            .replace("daily_deadline = 22:00:00", "daily_deadline = 22"))
    lines = _told(tmp_path, text)
    for words in ("line 11: locale:", "line 13: timezone: unknown key", "line 23: players: '李四' and '李四'",
                  "line 57: schedule.daily_deadline: 22 is a number", "line 67: schedule.lengths.kill: 20 is a number"):
        assert sum(words in line for line in lines) == 1, (words, lines)
    assert len(lines) == 5, lines


def test_every_full_width_mark_is_told_at_once(tmp_path, written):
    text = (written["sunlight"].replace('"张三", "李四"', '"张三"，"李四"').replace("daily_deadline = 22:00:00",
            "daily_deadline = 22：00：00").replace('name = "版杀21 阳光下的罪恶"', 'name = “版杀21 阳光下的罪恶”'))
    lines = _told(tmp_path, text)
    assert [re.search(r"line \d+, columns? [\d, and]+: [^']*", line).group(0) for line in lines] == [  # type: ignore[union-attr]
        "line 7, column 8: a curly quotation mark ", "line 24, column 7: a full-width comma ",
        "line 57, columns 20 and 23: full-width colons "], lines
    assert "type each ':' instead" in lines[2] and "(and '\"' for its closing '”')" in lines[0], lines


@pytest.mark.parametrize("encoding,words", [("gbk", "GBK/GB18030"), ("utf-16", "UTF-16")])
def test_a_file_not_in_utf8_is_told_so(tmp_path, written, encoding, words):
    (line,) = _told(tmp_path, written["sunlight"].encode(encoding))
    assert words in line and "saved as UTF-8" in line, line


@pytest.mark.parametrize("change", [
    lambda t: "\ufeff" + t,                                                  # Notepad's byte order mark
    lambda t: t.replace("\n", "\r\n"),                                       # Windows line ends
    lambda t: t.replace('\nengine = "flaskbb"', '\n\tengine =\t"flaskbb"'),  # tabs
    lambda t: t.replace('vote = "20h"', 'vote = "20小时"').replace('kill = "20h"', 'kill = "90 minutes"'),
])
def test_what_is_written_differently_but_right_is_accepted(tmp_path, written, change):
    path = tmp_path / "season.toml"
    path.write_text(change(written["sunlight"]), encoding="utf-8")
    assert load_config(path).warnings == []


def test_a_player_who_is_an_organiser_too_is_warned_about(tmp_path, written):
    path = tmp_path / "season.toml"
    path.write_text(written["sunlight"].replace('organisers = ["组织者"]', 'organisers = ["张三"]'), encoding="utf-8")
    (warning,) = load_config(path).warnings
    assert warning.startswith("line 20: organisers: 张三 is also among the players"), warning
    assert "take him out of organisers" in warning, warning


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*.toml")))
def test_no_warning_on_a_shipped_example(name):
    assert load_config(EXAMPLES / name).warnings == []


def test_no_warning_on_what_init_writes(tmp_path, initialised):
    for ruleset, text in initialised.items():
        path = tmp_path / f"{ruleset}.toml"
        path.write_text(text, encoding="utf-8")
        assert load_config(path).warnings == [], ruleset
        checked = CliRunner().invoke(app, ["check", str(path)], env={"FORUMBOT_PASSWORD": "secret"})
        assert checked.exit_code == 0 and "WARNING" not in checked.output, checked.output


@pytest.mark.parametrize("old,new", [('ruleset = "sunlight"', 'ruleset = "sunligt"'), ('"张三", "李四"', '"张三"，"李四"'),
                                     ("daily_deadline = 22:00:00", "daily_deadline = 22")])
def test_run_on_a_file_with_mistakes_writes_nothing(tmp_path, written, old, new):
    path = tmp_path / "season.toml"
    path.write_text(written["sunlight"].replace(old, new), encoding="utf-8")
    result = CliRunner().invoke(app, ["run", str(path)], env={"FORUMBOT_PASSWORD": "secret"})
    assert result.exit_code == 2 and "error:" in result.output, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["season.toml"], list(tmp_path.iterdir())

"""`forumbot init` asks for the season (issue 27): the ruleset, the roster, the time zone, the phase length and
deadline and the forum, each with a default (Enter keeps it) and an option for scripts (`--no-input`); a bad
answer is asked again, a bad option ends the command; the file written is the example with the answers, and
it checks (a file that would not is not written)."""

from __future__ import annotations

from datetime import time

from typer.testing import CliRunner

from forumbot.cli import app
from forumbot.config import load_config

#: the answers in the order asked: ruleset, name, locale, players, organisers, time zone (a wrong one first),
#: phase length, daily deadline, engine, address, judge, thread id, board id
ANSWERS = ["killer_club", "夏季杀", "en", "A, B，C、D, E, F, G, H", "Org", "Europe/Mars", "Europe/Berlin", "20h", "21:30",
           "phpbb", "https://bbs.example.com/", "Judge", "", "5"]


def test_init_asks_and_writes_the_answers_into_a_file_that_checks(tmp_path) -> None:
    path = tmp_path / "s.toml"
    done = CliRunner().invoke(app, ["init", str(path)], input="\n".join(ANSWERS) + "\n")
    assert done.exit_code == 0, done.output
    assert "Players' forum user names, in seat order" in done.output and "Time zone of the deadlines" in done.output
    assert "'Europe/Mars' is not a time zone name" in done.output  # asked again
    c = load_config(path)
    assert (c.ruleset, c.name, c.locale, c.time_zone) == ("killer_club", "夏季杀", "en", "Europe/Berlin")
    assert c.players == ["A", "B", "C", "D", "E", "F", "G", "H"] and c.organisers == ["Org"]
    assert c.schedule.default == "20h" and c.schedule.daily_deadline == time(21, 30)
    assert (c.forum.engine, c.forum.base_url, c.forum.username) == ("phpbb", "https://bbs.example.com", "Judge")
    assert c.forum.thread_id is None and c.forum.forum_id == 5
    assert c.forum.min_write_interval_seconds == 15  # phpBB's own default, not the FlaskBB example's 0
    text = path.read_text(encoding="utf-8")
    assert "# Forum accounts whose private messages are obeyed as organiser commands" in text  # comments kept
    assert c.aliases == {}  # the example's aliases named players who are not in this season
    assert "14 players" not in text  # the example's comment on its own roster
    assert "# The players' forum user names, in seat order (seat 1 first)" in text
    assert CliRunner().invoke(app, ["check", str(path)]).exit_code == 0


def test_init_for_scripts_takes_options_and_asks_nothing(tmp_path) -> None:
    path = tmp_path / "t.toml"
    done = CliRunner().invoke(app, ["init", str(path), "--players", "a,b,c,d,e", "--timezone", "Asia/Shanghai",
                                    "--forum-url", "https://x.example", "--thread-id", "12", "--forum-id", "none",
                                    "--daily-deadline", "none", "--judge", "法官2", "--no-input"])
    assert done.exit_code == 0, done.output
    assert "Time zone of the deadlines" not in done.output  # nothing asked
    c = load_config(path)
    assert c.ruleset == "sunlight" and c.players == ["a", "b", "c", "d", "e"] and c.time_zone == "Asia/Shanghai"
    assert (c.forum.thread_id, c.forum.forum_id, c.forum.username) == (12, None, "法官2")
    assert c.schedule.daily_deadline is None
    assert "thread_id = 12            # an existing game thread" in path.read_text(encoding="utf-8")


def test_enter_keeps_the_examples_values(tmp_path) -> None:
    path = tmp_path / "u.toml"
    done = CliRunner().invoke(app, ["init", str(path), "--ruleset", "human_kill"], input="\n" * 12)
    assert done.exit_code == 0, done.output
    assert done.output.count("Phase lengths") == 1 and "write a kind and its length" not in done.output  # taken at once
    c = load_config(path)
    assert c.ruleset == "human_kill" and c.name == "人类杀 第1局" and len(c.players) == 10


def test_a_bad_option_or_a_file_that_would_not_check_is_not_written(tmp_path) -> None:
    path = tmp_path / "v.toml"
    bad = CliRunner().invoke(app, ["init", str(path), "--timezone", "Mars/Base", "--no-input"])
    assert bad.exit_code == 2 and "--timezone: 'Mars/Base' is not a time zone name" in bad.output
    too_few = CliRunner().invoke(app, ["init", str(path), "--players", "a", "--no-input"])
    assert too_few.exit_code == 2 and "--players: 1 name: this ruleset needs at least 4 players" in too_few.output
    no_place = CliRunner().invoke(app, ["init", str(path), "--thread-id", "none", "--forum-id", "none", "--no-input"])
    assert no_place.exit_code == 2 and "--forum-id: without a game thread the bot opens one in a board" in no_place.output
    assert "Traceback" not in too_few.output + no_place.output
    assert not path.exists() and list(tmp_path.iterdir()) == []  # no temporary file left either


def test_answers_an_organiser_writes_are_understood_or_answered_with_the_fix() -> None:
    from forumbot.cli import init_answers as q

    assert q.zone("UTC+8") == q.zone("GMT+8") == q.zone("utc +8") == "Etc/GMT-8"  # the zone database's sign
    assert q.zone("UTC-5") == "Etc/GMT+5" and q.zone("UTC+0") == "UTC" and q.zone("asia/shanghai") == "Asia/Shanghai"
    assert "UTC+8" in (q.offset_note("Etc/GMT-8") or "") and q.offset_note("Asia/Shanghai") is None
    for place in ("北京", "Beijing", "北京时间", "shanghai"):
        try:
            q.zone(place)
        except q.BadAnswer as exc:
            assert exc.suggestion == "Asia/Shanghai" and "Asia/Shanghai" in str(exc)
        else:
            raise AssertionError(f"{place} taken as a zone name")
    assert q.clock_time("22：00") == q.clock_time("晚上10点") == q.clock_time("10pm") == q.clock_time("22点") == time(22)
    assert q.clock_time("下午3点半") == time(15, 30) and q.clock_time("晚上十点三十分") == time(22, 30)
    assert q.clock_time("晚上12点") == time(0) and q.clock_time("上午9点") == time(9)
    for wrong in ("25:00", "晚上25点", "13pm", "24h"):
        try:
            q.clock_time(wrong)
        except q.BadAnswer as exc:
            assert "晚上10点" in str(exc)
        else:
            raise AssertionError(wrong)
    ruleset = q.ruleset_choice(("killer_club", "sunlight"))
    assert ruleset("杀人游戏") == "killer_club" and ruleset("阳光下的罪恶") == ruleset("Sunlight") == "sunlight"
    locale = q.QUESTIONS[1].check
    assert locale("简体") == "zh-Hans" and locale("繁體") == "zh-Hant" and locale("English") == "en"
    try:
        locale("中文")
    except q.BadAnswer as exc:
        assert "zh-Hans or zh-Hant" in str(exc)
    else:
        raise AssertionError("中文 taken")
    assert q.QUESTIONS[7].check("Discuz!") == "discuz"
    assert q.QUESTIONS[3].check("无") == q.QUESTIONS[3].check("none") == [] and q.QUESTIONS[3].check("老王、小李") == ["老王", "小李"]


def test_a_place_for_a_time_zone_offers_its_zone_and_enter_takes_it(tmp_path) -> None:
    path = tmp_path / "s.toml"
    answers = ["杀人游戏", "", "简体", "张三，李四，王五，赵六，钱七，孙八，周九，吴十", "老王", "北京", "", "", "晚上10点"]
    done = CliRunner().invoke(app, ["init", str(path)], input="\n".join(answers) + "\n")
    assert done.exit_code == 0, done.output
    assert "'北京' is a place, not a time zone name: its time zone is Asia/Shanghai" in done.output
    assert "[Asia/Shanghai]" in done.output  # offered as the default when asked again
    c = load_config(path)
    assert (c.ruleset, c.locale, c.time_zone, c.schedule.daily_deadline) == ("killer_club", "zh-Hans", "Asia/Shanghai",
                                                                             time(22))
    assert c.players[:3] == ["张三", "李四", "王五"]
    assert "kind by kind" in done.output and "[prologue 12h, night 12h, vote 24h, runoff 6h, choice 2h]" in done.output


def test_init_tells_the_warnings_of_the_file_it_wrote_and_a_fixed_offset(tmp_path) -> None:
    path = tmp_path / "w.toml"
    done = CliRunner().invoke(app, ["init", str(path), "--ruleset", "killer_club", "--players", "a，b，c，d，e，f",
                                    "--timezone", "UTC+8", "--no-input"])
    assert done.exit_code == 0, done.output
    assert load_config(path).time_zone == "Etc/GMT-8"
    assert "time zone UTC+8 is written Etc/GMT-8" in done.output
    assert "WARNING:" in done.output and "6 players" in done.output  # as `forumbot check` would say


def test_an_existing_file_is_replaced_only_when_the_organiser_says_so(tmp_path) -> None:
    path = tmp_path / "x.toml"
    path.write_text("# mine\n", encoding="utf-8")
    kept = CliRunner().invoke(app, ["init", str(path)], input="n\n")
    assert kept.exit_code == 2 and "replace it with a new season file?" in kept.output
    assert path.read_text(encoding="utf-8") == "# mine\n"
    scripted = CliRunner().invoke(app, ["init", str(path), "--no-input"])
    assert scripted.exit_code == 2 and path.read_text(encoding="utf-8") == "# mine\n"
    replaced = CliRunner().invoke(app, ["init", str(path)], input="y\n" + "\n" * 13)
    assert replaced.exit_code == 0, replaced.output
    assert load_config(path).ruleset == "sunlight"


def test_ctrl_c_halfway_writes_nothing_and_says_so(tmp_path, monkeypatch) -> None:
    import click

    path = tmp_path / "y.toml"
    asked: list[str] = []

    def prompt(text, default=None, **kwargs):
        asked.append(text)
        if len(asked) == 3:
            raise click.exceptions.Abort()
        return default

    monkeypatch.setattr("typer.prompt", prompt)
    monkeypatch.setattr("forumbot.cli.season._at_terminal", lambda: True)
    done = CliRunner().invoke(app, ["init", str(path)])
    assert done.exit_code == 1 and f"stopped: {path} was not written" in done.output
    assert "Traceback" not in done.output and isinstance(done.exception, SystemExit)
    assert list(tmp_path.iterdir()) == []


def test_a_short_roster_or_a_player_as_judge_is_asked_again_not_refused_at_the_end(tmp_path) -> None:
    path = tmp_path / "z.toml"
    answers = ["sunlight", "", "", "张三 李四 王五 赵六", "张三，李四，王五，赵六", "", "", "", "", "", "",
               "李四", "法官", "none", "none", "3"]
    done = CliRunner().invoke(app, ["init", str(path)], input="\n".join(answers) + "\n")
    assert done.exit_code == 0, done.output
    assert "1 name: this ruleset needs at least 4 players; separate the names by commas" in done.output
    assert "'李四' plays in this season: the judge needs a forum account of its own" in done.output
    c = load_config(path)
    assert "without a game thread the bot opens one in a board" in done.output
    assert c.players == ["张三", "李四", "王五", "赵六"] and c.forum.username == "法官" and c.forum.forum_id == 3


def test_a_place_given_as_an_option_names_its_zone_without_offering_enter(tmp_path) -> None:
    done = CliRunner().invoke(app, ["init", str(tmp_path / "p.toml"), "--timezone", "Beijing", "--no-input"])
    assert done.exit_code == 2
    assert "--timezone: 'Beijing' is a place, not a time zone name: its time zone is Asia/Shanghai" in done.output
    assert "Enter" not in done.output and list(tmp_path.iterdir()) == []


def test_a_roster_the_ruleset_cannot_deal_is_asked_again(tmp_path) -> None:
    twelve = "，".join(f"玩家{i}" for i in range(1, 13))
    path = tmp_path / "vv.toml"
    done = CliRunner().invoke(app, ["init", str(path), "--ruleset", "vampire_village"],
                              input=f"\n\n{twelve}\n{twelve}，玩家13\n" + "\n" * 10)
    assert done.exit_code == 0, done.output
    assert "vampire_village has presets for 13-18 players, not 12" in done.output
    assert len(load_config(path).players) == 13


def test_phase_lengths_are_the_ones_the_phases_use(tmp_path) -> None:
    one = tmp_path / "one.toml"
    done = CliRunner().invoke(app, ["init", str(one), "--phase-length", "48小时", "--no-input"])
    assert done.exit_code == 0, done.output
    c = load_config(one)  # sunlight: every kind has its own length; one length sets all but the poll's window
    assert c.schedule.lengths == {"prologue": "48小时", "vote": "48小时", "kill": "48小时", "poll": "2h"}
    kinds = tmp_path / "kinds.toml"
    answers = ["killer_club", "", "", "", "", "", "night 12h, vote：30h", ""]
    done = CliRunner().invoke(app, ["init", str(kinds)], input="\n".join(answers) + "\n" * 8)
    assert done.exit_code == 0, done.output
    lengths = load_config(kinds).schedule.lengths
    assert (lengths["night"], lengths["vote"], lengths["runoff"]) == ("12h", "30h", "6h")
    bad = CliRunner().invoke(app, ["init", str(tmp_path / "bad.toml"), "--phase-length", "day 24h", "--no-input"])
    assert bad.exit_code == 2 and "'day 24h': write a kind and its length" in bad.output and "kinds: prologue" in bad.output


def test_a_folder_is_no_season_file(tmp_path) -> None:
    done = CliRunner().invoke(app, ["init", str(tmp_path)], input="y\n")
    assert done.exit_code == 2 and f"{tmp_path} is a folder; name the season file in it, e.g. {tmp_path / 'season.toml'}" \
        in done.output and "replace it" not in done.output


def test_the_file_is_made_as_an_editor_would(tmp_path) -> None:
    import os

    path = tmp_path / "m.toml"
    assert CliRunner().invoke(app, ["init", str(path), "--no-input"]).exit_code == 0
    umask = os.umask(0)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask


def test_a_scripts_bad_last_answer_is_not_replaced_by_the_examples(tmp_path) -> None:
    path = tmp_path / "piped.toml"
    done = CliRunner().invoke(app, ["init", str(path)], input="sunlight\n\n\na b\n")
    assert done.exit_code == 2, done.output
    assert "error: players: 1 name: this ruleset needs at least 4 players" in done.output
    assert "the input ended before a good answer" in done.output and not path.exists()

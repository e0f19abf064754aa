"""`forumbot forum-check` / `forumbot check --forum` on a Discuz! season: version, charset, the judge's
uid and group, the mobile API, test reads, and the conversations-a-day warning."""

from __future__ import annotations

import pytest
from discuz_helpers import Site
from typer.testing import CliRunner

from forumbot.forums.check import _report, diagnose
from forumbot.forums.discuz_api import MobileApiClosed
from forumbot.forums.settings import ForumSettings


@pytest.fixture
def site():
    s = Site()
    yield s
    s.close()


def settings(site: Site, **extra) -> ForumSettings:
    return ForumSettings(engine="discuz", base_url=site.fake.base, username="法官", password_env="X", **extra)


def test_report_lines(site):
    tid = site.fake.new_thread("小明", 3, "局", "开始").tid
    site.fake.player_pm("小红", "法官", "投 小明")
    site.clock.advance(2)
    lines = list(_report(site.client(), settings(site, thread_id=tid), recipients=8))
    text = "\n".join(lines)
    assert "Discuz! X3.5, charset UTF-8" in text and "mobile API on" in text
    assert f"uid {site.fake.user('法官').uid}, group 新手上路 (groupid 10)" in text
    assert f"Thread {tid}: 1 posts" in text and "Inbox: 1 private message received" in text
    assert "WARNING" not in text


def test_warns_when_day_one_exceeds_the_conversation_limit(site):
    lines = "\n".join(_report(site.client(), settings(site), recipients=30))
    assert "WARNING: day 1 needs private messages to 30" in lines and "privatepmthreadlimit" in lines
    lines = "\n".join(_report(site.client(), settings(site, pm_conversation_limit=50), recipients=30))
    assert "day 1 needs" not in lines


def test_warns_when_writes_are_faster_than_flood_control(site):
    lines = "\n".join(_report(site.client(), settings(site, min_write_interval_seconds=2)))
    assert "flood" in lines and "WARNING" in lines


def test_closed_mobile_api_is_diagnosed(site):
    site.fake.mobile_closed = True
    with pytest.raises(MobileApiClosed) as caught:
        list(_report(site.client(), settings(site)))
    assert "mobile" in diagnose(caught.value, settings(site))


def test_check_cli_passes_the_season_size(site, tmp_path, monkeypatch):
    from forumbot.cli import app
    from forumbot.cli import season as season_cli

    players = [f"玩家{i}" for i in range(25)]  # + 2 organisers = 27 > 25 + 1 (a real X3.5 lets N+1 through)
    config = tmp_path / "season.toml"
    config.write_text(
        'name = "测试"\nruleset = "sunlight"\nplayers = [' + ", ".join(f'"{p}"' for p in players) + ']\n'
        'organisers = ["主持人", "副主持"]\n'
        f'[forum]\nengine = "discuz"\nbase_url = "{site.fake.base}"\nusername = "法官"\npassword_env = "DZ_PW"\n'
        "forum_id = 3\n", encoding="utf-8")
    for name in [*players, "主持人", "副主持"]:
        site.fake.add_user(name)
    monkeypatch.setenv("DZ_PW", "秘密")
    monkeypatch.setattr(season_cli, "make_forum", lambda settings, base_dir: site.client())
    result = CliRunner().invoke(app, ["check", str(config), "--forum"])
    assert result.exit_code == 0, result.output
    assert "Accounts: the 25 players and 2 organisers all have an account on the forum." in result.output
    assert "markup bbcode" in result.output
    assert "day 1 needs private messages to 27 players and organisers" in result.output


def test_example_season_and_settings(monkeypatch):
    from pathlib import Path

    from forumbot.config import load_config
    from forumbot.forums.discuz import DiscuzForum
    from forumbot.forums.settings import make_forum

    config = load_config(Path(__file__).parents[3] / "forumbot" / "config_examples" / "discuz.example.toml")
    assert config.forum.engine == "discuz" and config.effective_markup == "bbcode"
    assert config.forum.min_write_interval_seconds == 16 and config.forum.pm_conversation_limit == 25
    monkeypatch.setenv("FORUMBOT_PASSWORD", "x")
    forum = make_forum(config.forum)
    try:
        assert isinstance(forum, DiscuzForum) and forum.flood_seconds == 16
    finally:
        forum.close()
    with pytest.raises(ValueError, match="time zone"):
        ForumSettings(engine="discuz", base_url="http://h", username="u", password_env="X", site_time_zone="Mars/Base")


def test_check_cli_names_players_without_an_account(site, tmp_path, monkeypatch):
    from forumbot.cli import app
    from forumbot.cli import season as season_cli

    site.fake.add_user("赵六")  # 小明, 小红 and alice have accounts too
    config = tmp_path / "season.toml"
    config.write_text(
        'name = "测试"\nruleset = "sunlight"\nplayers = ["小明", "小红", "趙六", "ALICE"]\norganisers = ["主持人"]\n'
        f'[forum]\nengine = "discuz"\nbase_url = "{site.fake.base}"\nusername = "法官"\npassword_env = "DZ_PW"\n'
        "forum_id = 3\n", encoding="utf-8")
    monkeypatch.setenv("DZ_PW", "秘密")
    monkeypatch.setattr(season_cli, "make_forum", lambda settings, base_dir: site.client())
    result = CliRunner().invoke(app, ["check", str(config), "--forum"])
    assert result.exit_code == 1, result.output
    out = result.output
    assert "Accounts: 2 of the 4 players and the organiser have no account of that exact name" in out
    assert "player 趙六: no account of this name on the forum; the account 赵六 exists" in out
    assert "player ALICE: the forum spells this account alice" in out
    assert "organiser 主持人: no account" in out
    assert "小明" not in out.split("Accounts:")[1]


def test_a_gbk_site_with_charset_auto_is_told_to_set_gbk():
    gbk = Site(charset="GBK")
    try:
        text = "\n".join(_report(gbk.client(), settings(gbk), recipients=5))
        assert 'set forum.charset = "gbk"' in text and "charset GBK" in text
        text = "\n".join(_report(gbk.client(charset="gbk"), settings(gbk, charset="gbk"), recipients=5))
        assert "NOTE" not in text
    finally:
        gbk.close()


def chart_season(site: Site, tmp_path, engine: str = "discuz", **forum):
    from forumbot.config import SeasonConfig

    return SeasonConfig.model_validate({
        "name": "图", "ruleset": "sunlight", "players": list("ABCDEFG"), "vote_chart_images": True,
        "forum": {"engine": engine, "base_url": site.fake.base, "username": "法官", "password_env": "X", **forum},
        "path": tmp_path / "s.toml"})


def test_check_says_whether_the_judge_may_upload_vote_charts(site, tmp_path):
    from forumbot.cli.season import vote_chart_lines

    tid = site.fake.new_thread("小明", 3, "局", "开始").tid
    config = chart_season(site, tmp_path, thread_id=tid)
    judge = site.client()
    judge.login()
    assert vote_chart_lines(config, judge) == ["Vote charts: the judge may upload PNG pictures in board 3 (up to the "
                                               "group's size limit)."]
    site.fake.attach_allowed = False
    (line,) = vote_chart_lines(config.model_copy(update={"forum": config.forum.model_copy(
        update={"thread_id": None, "forum_id": 2})}), judge)
    assert line.startswith("WARNING: vote_chart_images is on, but the judge's user group may not upload PNG") and "board 2" in line
    assert vote_chart_lines(config.model_copy(update={"vote_chart_images": False}), judge) == []


def test_check_warns_when_the_forum_takes_no_pictures(site, tmp_path):
    from forumbot.cli import app

    path = tmp_path / "s.toml"
    path.write_text('name = "图"\nruleset = "sunlight"\nplayers = ["A", "B", "C", "D", "E", "F", "G"]\n'
                    'vote_chart_images = true\n[forum]\nengine = "phpbb"\nbase_url = "http://127.0.0.1:1"\n'
                    'username = "judge"\npassword_env = "X"\nforum_id = 1\n', encoding="utf-8")
    out = CliRunner().invoke(app, ["check", str(path)]).output
    assert "WARNING: vote_chart_images is on, but phpbb forums take no pictures with a post" in out

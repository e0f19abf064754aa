"""The organiser's page of one season, read from the real store of a season on the in-memory forum."""

from __future__ import annotations

import html
from datetime import timedelta

from console_helpers import client, running_season


def _played(tmp_path):
    path, season = running_season(tmp_path)
    season.clock.advance(62)
    season.bot.cycle()  # the prologue closes: the first vote opens
    season.forum.player_pm("Alice", "vote Bob")
    season.forum.player_pm("Bob", "vote Nobodyhere")
    season.forum.player_post(season.thread, "Dave", "I think it is <b>Carol</b>")
    season.clock.advance(2)
    season.bot.cycle()
    return path, season


def test_the_season_page_shows_roles_who_owes_a_vote_and_the_inbound_log(tmp_path):
    path, _ = _played(tmp_path)
    page = client([path]).get("/seasons/春季赛")
    assert page.status_code == 200, page.text
    text = html.unescape(page.text)
    assert "for the organisers' eyes only" in text
    assert "Killer" in text  # Carol's role, for the organiser
    assert "Still owes an action" in text
    assert "vote Bob" in text and "command: vote Bob" in text
    assert "not understood: no such player · Nobodyhere" in text and "unknown_name" not in text
    assert "I think it is &lt;b&gt;Carol&lt;/b&gt;" in page.text and "<b>Carol</b>" not in page.text  # escaped
    assert "Outbox" in text and "The bot's thread posts" in text


def test_the_inbound_log_is_searched_and_filtered_by_player(tmp_path):
    path, _ = _played(tmp_path)
    c = client([path])
    by_bob = c.get("/seasons/春季赛", params={"player": "Bob"}).text
    assert "vote Nobodyhere" in by_bob and "vote Bob" not in by_bob
    found = c.get("/seasons/春季赛", params={"q": "carol"}).text
    assert "I think it is" in found and "vote Nobodyhere" not in found
    threads = c.get("/seasons/春季赛", params={"source": "thread"}).text
    assert "I think it is" in threads and "vote Bob" not in threads


def test_the_season_page_in_each_locale(tmp_path):
    path, _ = _played(tmp_path)
    c = client([path])
    assert "收件记录" in c.get("/seasons/春季赛?lang=zh-Hans").text
    assert "收件記錄" in c.get("/seasons/春季赛?lang=zh-Hant").text


def test_bad_input_gets_a_message_not_a_traceback(tmp_path):
    path, _ = _played(tmp_path)
    c = client([path])
    page = c.get("/seasons/春季赛", params={"page": "x"})
    assert page.status_code == 400 and "Not a page number: x" in page.text and "Traceback" not in page.text
    missing = c.get("/seasons/nosuch")
    assert missing.status_code == 404 and "No season nosuch here" in missing.text
    assert c.get("/no/such/page").status_code == 404


def test_the_reports_so_far(tmp_path):
    path, _ = _played(tmp_path)
    c = client([path])
    full = c.get("/seasons/春季赛/report/full/")
    assert full.status_code == 200 and "Carol" in full.text
    public = c.get("/seasons/春季赛/report/public/")
    assert public.status_code == 200
    assert c.get("/seasons/春季赛/report/full/assets/report.css").status_code == 200


def test_the_season_held_catches_up_with_new_inputs_as_a_fresh_bot_would(tmp_path):
    from forumbot.config import load_config
    from forumbot.console.source import SeasonSource
    from forumbot.runtime.bot import Bot

    path, season = _played(tmp_path)
    source = SeasonSource(files=[path])
    config = load_config(path)
    held = source.season(config)
    before = len(held.log.records)
    season.forum.player_pm("Carol", "vote Dave")
    season.forum.player_pm("Erin", "vote Dave")
    season.clock.advance(2)
    season.bot.cycle()
    season.clock.now = season.bot.deadline() + timedelta(seconds=2)
    season.bot.cycle()  # the vote closes: a deadline input
    again = source.season(config)
    assert again is held and len(held.log.records) > before + 2  # caught up, not rebuilt
    fresh = Bot(config, None)
    assert held.bot.game.phase == fresh.game.phase and held.bot.deadline() == fresh.deadline()
    assert [p.alive for p in held.bot.game.players] == [p.alive for p in fresh.game.players]
    assert len(held.log.records) == len(fresh.store.inputs())
    page = html.unescape(client([path]).get("/seasons/春季赛", params={"player": "Erin"}).text)
    assert "command: vote Dave" in page

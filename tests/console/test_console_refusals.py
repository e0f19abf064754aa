"""A refused steering command says why in the page's locale (templates/<locale>/console/refusals.html), under a
headline in the same locale; bad input (an empty field, a huge one, a duration that is no duration, an extension
past any deadline's arithmetic, a form that is not UTF-8) gets such a message, never a traceback or a 500."""

from __future__ import annotations

import html
import re

import pytest
from console_helpers import TOKEN, client, running_season

from forumbot.runtime import organiser_checks

URL = "/seasons/春季赛"


def _reason(page) -> str:
    found = re.search(r'<p id="refusal">(.*?)</p>', page.text, re.S)
    assert found, page.text
    return html.unescape(found.group(1))


@pytest.mark.parametrize(("lang", "headline", "words"), [
    ("zh-Hans", "指令未被接受", "本赛季没有玩家「Nobody」"),
    ("zh-Hant", "指令未被接受", "本賽季沒有玩家「Nobody」"),
    ("en", "The command was not taken", "no player 'Nobody' in this season"),
])
def test_a_refusal_reads_in_the_pages_locale(tmp_path, lang, headline, words):
    path, season = running_season(tmp_path)
    c = client([path], clock=season.clock)
    page = c.post(f"{URL}/steer?lang={lang}", data={"csrf": TOKEN, "action": "penalty", "player": "Nobody",
                                                    "reason": "lurking"})
    assert page.status_code == 400 and headline in html.unescape(page.text)
    reason = _reason(page)
    assert words in reason
    if lang != "en":  # no English sentence under a Chinese headline (the names are the players')
        assert not re.search(r"[a-z]{3,} [a-z]{3,}", reason.replace("Nobody", "")), reason


def test_every_refusal_has_a_sentence_in_every_locale():
    keys = set(re.findall(r"{% macro (\w+)\(v\)", (organiser_checks_template("en"))))
    assert {"unknown_name", "bad_duration", "already_plays", "empty_field", "extend_too_long"} <= keys
    for locale in ("zh-Hans", "zh-Hant"):
        assert set(re.findall(r"{% macro (\w+)\(v\)", organiser_checks_template(locale))) == keys, locale


def organiser_checks_template(locale: str) -> str:
    from forumbot.render import TEMPLATES

    return (TEMPLATES / locale / "console" / "refusals.html").read_text(encoding="utf-8")


def test_the_command_line_keeps_its_english_sentence():
    refusal = organiser_checks.OrganiserRefusal("unknown_name", {"written": "Zed", "players": ["A", "B"]})
    assert str(refusal) == "no player 'Zed' in this season; players: A, B"
    assert organiser_checks.sentence(refusal, "zh-Hans") == "本赛季没有玩家「Zed」；玩家有：A、B"


@pytest.mark.parametrize(("form", "en", "zh"), [
    ({"action": "extend", "duration": "-5m"}, "extend needs a duration", "延长需要带单位的时长"),
    ({"action": "extend", "duration": "soon"}, "extend needs a duration", "延长需要带单位的时长"),
    ({"action": "extend", "duration": ""}, 'the field "duration" is empty', "“延长时长”一栏是空的"),
    ({"action": "extend", "duration": "99999999999h"}, "at most 30 days", "一次最多延长 30 天"),
    ({"action": "penalty", "player": "", "reason": "lurking"}, 'the field "player" is empty', "“玩家”一栏是空的"),
    ({"action": "replace", "player": "Bob", "new": " ", "no_check": "1"}, 'the field "new account" is empty',
     "“新账号”一栏是空的"),
    ({"action": "replace", "player": "Bob", "new": "x" * 100_000, "no_check": "1"}, "longer than 200 characters",
     "超过了 200 个字符"),
    ({"action": "fly"}, "no such organiser command", "没有这个组织者指令"),
])
def test_bad_input_gets_a_clear_message_in_the_pages_locale(tmp_path, form, en, zh):
    path, season = running_season(tmp_path)
    c = client([path], clock=season.clock)
    for lang, words in (("en", en), ("zh-Hans", zh)):
        page = c.post(f"{URL}/steer?lang={lang}", data={"csrf": TOKEN, **form})
        assert page.status_code == 400 and words in _reason(page), (lang, page.text)


def test_an_extension_too_long_is_refused_on_the_confirmation_too(tmp_path):
    path, season = running_season(tmp_path)
    c = client([path], clock=season.clock)
    page = c.post(f"{URL}/steer/confirm", data={"csrf": TOKEN, "command": "extend 99999999999h", "token": "t" * 20})
    assert page.status_code == 400 and "at most 30 days" in _reason(page)
    forged = c.post(f"{URL}/steer/confirm", data={"csrf": TOKEN, "command": "extend " + "9" * 5000, "token": "t" * 20})
    assert forged.status_code == 400 and "Traceback" not in forged.text


def test_a_form_not_in_utf8_gets_a_message_not_a_500(tmp_path):
    path, season = running_season(tmp_path)
    c = client([path], clock=season.clock)
    urlencoded = c.post(f"{URL}/steer?lang=zh-Hans", content=b"csrf=test-csrf-token&action=extend&duration=\xff\xfe1h",
                        headers={"content-type": "application/x-www-form-urlencoded"})
    assert urlencoded.status_code == 400 and "延长需要带单位的时长" in _reason(urlencoded)
    multipart = c.post(f"{URL}/steer?lang=zh-Hans", content=b"\xff" * 10,
                       headers={"content-type": "multipart/form-data; boundary=b"})
    assert multipart.status_code == 400 and "Traceback" not in multipart.text


def test_a_bad_url_is_answered_in_a_few_words(tmp_path):
    path, season = running_season(tmp_path)
    c = client([path], clock=season.clock, public=True)
    huge = c.get("/seasons/" + "x" * 20_000)
    headline = re.search(r"<h2[^>]*>(.*?)</h2>", huge.text, re.S).group(1)
    assert huge.status_code == 404 and "x" * 81 not in headline and "x" * 80 + "…" in headline
    page = c.get("/seasons/春季赛", params={"page": "9" * 5000, "lang": "zh-Hans"})
    headline = re.search(r"<h2[^>]*>(.*?)</h2>", page.text, re.S).group(1)
    assert page.status_code == 400 and "9" * 81 not in headline and 'lang="zh-Hans"' in page.text
    public = c.get("/public/nope")  # a visitor of the public pages is sent back to them, not to a login
    assert public.status_code == 404 and 'href="/public"' in public.text


def test_the_report_is_in_the_pages_locale(tmp_path):
    path, season = running_season(tmp_path)
    c = client([path], clock=season.clock)
    english = c.get("/seasons/春季赛/report/public/")
    chinese = c.get("/seasons/春季赛/report/public/", params={"lang": "zh-Hans"})
    assert english.status_code == chinese.status_code == 200
    assert 'lang="zh-Hans"' in chinese.text and 'lang="zh-Hans"' not in english.text


def test_the_replace_form_can_skip_the_forums_check(tmp_path, monkeypatch):
    from forumbot.forums.errors import ForumError
    from forumbot.forums.memory import MemoryForum

    path, season = running_season(tmp_path)
    c = client([path], clock=season.clock)
    page = c.get(URL).text
    assert 'name="no_check"' in page and "do not ask the forum whether it exists" in page

    def down(self):
        raise ForumError("the forum is down")

    monkeypatch.setattr(MemoryForum, "login", down)
    asked = c.post(f"{URL}/steer?lang=zh-Hans", data={"csrf": TOKEN, "action": "replace", "player": "Bob", "new": "Bobby"})
    assert asked.status_code == 400 and "勾选“不向论坛查询账号是否存在”" in _reason(asked)
    skipped = c.post(f"{URL}/steer", data={"csrf": TOKEN, "action": "replace", "player": "Bob", "new": "Bobby",
                                           "no_check": "1"})
    assert skipped.status_code == 200 and "replace Bob Bobby" in skipped.text

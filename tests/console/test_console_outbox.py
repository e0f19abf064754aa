"""The outbox part of a season's page hides the text of a console sign-in link (whoever reads the page must not
be able to log in as the organiser it was sent to), in each locale."""

from __future__ import annotations

import html

import pytest
from console_helpers import client, running_season

from forumbot.config import load_config
from forumbot.console.login_link import sign_in_pm

LINK = "http://console.example/login/link/SECRET-TOKEN-123"


@pytest.mark.parametrize(("lang", "words"), [("en", "sign-in link (hidden)"), ("zh-Hans", "登录链接（已隐藏）"),
                                             ("zh-Hant", "登入連結（已隱藏）")])
def test_a_sign_in_links_text_is_hidden_in_the_outbox(tmp_path, lang, words):
    path, season = running_season(tmp_path)
    sign_in_pm(season.bot.store, load_config(path), "Org", LINK, "console:link:1")
    page = client([path]).get("/seasons/春季赛", params={"lang": lang})
    assert page.status_code == 200
    text = html.unescape(page.text)
    assert words in text
    assert "SECRET-TOKEN-123" not in text and "/login/link/" not in text
    assert "Org" in text  # the row itself is listed: to whom, its status

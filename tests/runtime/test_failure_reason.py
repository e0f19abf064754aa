"""A private message that cannot be delivered is explained to the organisers by its real reason, wholly in
their language (issue 9, point 12): no such account is not "mailbox full", and no English adapter text
is pasted into a Chinese message."""

from __future__ import annotations

import re

import pytest
from bot_helpers import make_season

from forumbot.forums import discuz_api as api
from forumbot.forums.errors import (
    NoSuchUser,
    NotAllowed,
    NotFound,
    RateLimited,
    SendFailed,
    failure_cause,
)
from forumbot.render import Renderer

PLAYERS = ["张三", "李四", "王五", "赵六", "孙七", "周八"]
NO_ACCOUNT = {"zh-Hans": "论坛上没有这个用户名", "zh-Hant": "論壇上沒有這個帳號", "en": "the forum has no account of that name"}
BOX_FULL = {"zh-Hans": "短消息箱", "zh-Hant": "短訊息信箱", "en": "box is full"}


def _latin_words(text: str, allowed: set[str]) -> list[str]:
    return [w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in allowed]


@pytest.mark.parametrize("locale", ["zh-Hans", "zh-Hant", "en"])
def test_no_such_account_is_told_as_such_in_the_organisers_language(tmp_path, locale):
    s = make_season(tmp_path, PLAYERS, {"王五": "killer"}, locale=locale, organisers=["主持人"])
    s.forum.users = {*PLAYERS, "主持人"} - {"赵六"}  # the roster says 赵六; the account is 趙六
    s.bot.cycle()
    s.bot.cycle()
    told = [m.body for m in s.forum.pms_to("主持人") if "赵六" in m.body]
    assert len(told) == 1, [m.body for m in s.forum.pms_to("主持人")]
    body = told[0]
    assert NO_ACCOUNT[locale] in body
    assert BOX_FULL[locale] not in body and "mailbox" not in body
    assert "no such user" not in body and "was not sent" not in body  # the adapter's English stays out
    if locale != "en":
        assert _latin_words(body, {"forumbot", "status", "b", "FlaskBB"}) == [], body


@pytest.mark.parametrize("exc,cause", [
    (NoSuchUser("x", "The username you entered does not exist."), "no_account"),
    (api.refusal(api.Answer(200, True, messageval="message_bad_touser"), "the private message", flood_wait=16),
     "no_account"),
    (SendFailed("x", "You cannot send any messages anymore because you have reached your message limit."),
     "mailbox_full"),
    (api.refusal(api.Answer(200, True, messageval="message_can_not_send_1"), "the private message", flood_wait=16),
     "quota"),
    (RateLimited("slow down", 16), "flood"),
    (NotFound("thread 3"), "not_found"),
    (NotAllowed("locked"), "not_allowed"),
    (SendFailed("x", "something else"), "refused"),
])
def test_failure_causes(exc, cause):
    assert failure_cause(exc) == cause


@pytest.mark.parametrize("locale", ["zh-Hans", "zh-Hant", "en"])
@pytest.mark.parametrize("cause", ["no_account", "quota", "mailbox_full", "flood", "not_found", "not_allowed", "refused"])
def test_every_cause_has_its_own_sentence_and_no_raw_error(locale, cause):
    text = Renderer(locale, "bbcode").render("common/delivery_failed", {
        "recipient": "赵六", "kind": "pm", "error": "the private message to '赵六' was not sent: boom",
        "cause": cause, "attempt": 1, "max_attempts": 5, "final": cause == "no_account"})
    assert "boom" not in text and "was not sent" not in text
    if locale != "en":
        assert _latin_words(text, {"forumbot", "status", "b", "FlaskBB"}) == [], text
    others = {c: Renderer(locale, "bbcode").render("common/delivery_failed", {
        "recipient": "赵六", "kind": "pm", "error": "", "cause": c, "attempt": 1, "max_attempts": 5})
        for c in ("no_account", "quota", "mailbox_full", "flood", "not_found", "not_allowed", "refused")}
    assert len(set(others.values())) == 7  # a sentence per cause

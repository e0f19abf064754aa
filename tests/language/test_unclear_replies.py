"""The judge's reply to a command its clause does not mean (issue 25): it quotes what it read, never offers
back the opposite of what was written (我不投阿强 is not answered "did you mean 投票 阿强?"), and a ballot
whose last character a GBK forum replaced by "?" gets a hint instead of only "that is a question"."""

from __future__ import annotations

import pytest

from forumbot.language.parse import parse
from forumbot.language.types import ParseError, Roster
from forumbot.render import LOCALES, Renderer

ROSTER = Roster.of(["张三", "李四", "阿强", "alice", "Bob"])


def _reply(locale: str, text: str) -> str:
    err = parse(text, ROSTER, sender_seat=2)
    assert err.code == "unclear", err
    meant = err.meant
    return Renderer(locale, "markdown").render("common/parse_error", {
        "code": err.code, "verb": err.verb, "written": err.written, "candidates": [], "organiser": False,
        "frame": err.frame, "meant_targets": [ROSTER.name(t) for t in meant.targets] if meant else [],
        "meant_number": meant.number if meant else None})


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("text", ["我不投阿强", "投阿强是不可能的", "投阿强（误）", "谁投阿强谁是狼", "I won't vote Bob"])
def test_a_negated_command_is_quoted_never_offered_back(locale, text):
    reply = _reply(locale, text)
    assert text in reply  # what it read
    rest = reply.replace(text, "")
    for offer in ("阿强", "阿強", "Bob"):
        assert offer not in rest, reply


@pytest.mark.parametrize("locale", LOCALES)
def test_a_comparison_offers_the_preferred_name(locale):
    reply = _reply(locale, "投张三不如投李四")
    assert "李四" in reply.replace("投张三不如投李四", "").replace("投張三不如投李四", "")
    assert "投票 张三" not in reply and "vote 张三" not in reply


@pytest.mark.parametrize(("locale", "hint"), [("zh-Hans", "换成「?」"), ("zh-Hant", "換成「?」"), ("en", 'by "?"')])
def test_a_question_mark_glued_to_a_name_gets_the_dropped_character_hint(locale, hint):
    assert hint in _reply(locale, "投 李四?")
    assert hint not in _reply(locale, "投李四吗？")


@pytest.mark.parametrize(("locale", "hint"), [("zh-Hans", "换成「?」"), ("zh-Hant", "換成「?」"), ("en", 'by "?"')])
def test_a_name_whose_last_character_a_gbk_forum_dropped_is_asked_about_with_the_hint(locale, hint):
    roster = Roster.of(["王喆", "李四", "张三"])
    err = parse("投 王?", roster, sender_seat=2)
    assert err.code == "unclear" and err.frame == "question" and err.meant.targets == (1,)
    reply = Renderer(locale, "markdown").render("common/parse_error", {
        "code": err.code, "verb": err.verb, "written": err.written, "candidates": [], "organiser": False,
        "frame": err.frame, "meant_targets": ["王喆"], "meant_number": None})
    assert hint in reply and "王喆" in reply
    assert parse("投 王?", roster, sender_seat=2, channel="thread") == ParseError("no_command")

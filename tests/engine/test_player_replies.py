"""The replies a player gets to a message with no command in it (findings of a newcomer's trial, item 9): a
misspelled question is answered "did you mean …?", and the example shown is a command he can use now."""

from __future__ import annotations

from typing import Any

import pytest

from forumbot.render import Renderer
from tests.engine import killer_club_helpers as kc
from tests.engine import sunlight_helpers as sun


def _last(result: Any, name: str, key: str = "common/parse_error") -> Any:
    replies = [r for r in sun.replies_to(result, name) if r.key == key]
    assert replies, f"no {key} reply to {name}"
    return replies[-1]


def _text(reply: Any, locale: str) -> str:
    return Renderer(locale, "markdown").render(reply.key, reply.data)


@pytest.mark.parametrize("written, verb", [("stauts", "status"), ("statsu", "status"), ("状 态", "status"),
                                           ("狀態查詢", "status"), ("hlep", "help")])
def test_a_misspelled_question_is_answered_did_you_mean(written: str, verb: str) -> None:
    result = sun.play([{"phase": "vote", "messages": [["A", written]]}])
    reply = _last(result, "A")
    assert reply.data["code"] == "did_you_mean" and reply.data["verb"] == verb
    word = {"status": "status", "help": "help"}[verb]
    assert f'Did you mean "{word}"?' in _text(reply, "en")
    assert {"status": "「状态」", "help": "「帮助」"}[verb] in _text(reply, "zh-Hans")
    assert {"status": "「狀態」", "help": "「幫助」"}[verb] in _text(reply, "zh-Hant")


def test_the_example_after_no_command_is_a_command_he_can_use_now() -> None:
    # killer_club night 1: A is a killer, D police, I a civilian with nothing to do at night
    result = kc.play([{"phase": "night", "messages": [["A", "嗯嗯"], ["D", "嗯嗯"], ["I", "嗯嗯"]]}])
    killer, police, civilian = (_last(result, n) for n in "ADI")
    assert killer.data["example"]["verb"] == "kill" and police.data["example"]["verb"] == "check"
    assert civilian.data["example"] is None
    assert 'Write for example "kill NAME"' in _text(killer, "en")
    assert "例如写「验人 某人」" in _text(police, "zh-Hans")
    civilian_text = _text(civilian, "en")
    assert "vote" not in civilian_text and "nothing to do now" in civilian_text


def test_a_dead_players_question_is_told_only_that_he_is_out() -> None:
    votes = [[v, "投 B"] for v in "ACDEFG"] + [["B", "投 A"]]
    result = sun.play([{"phase": "vote", "messages": votes}, {"phase": "poll", "messages": [["B", "为什么我出局了？"]]}])
    reply = _last(result, "B")
    assert reply.data["code"] == "no_command" and reply.data["gone"] and reply.data["example"] is None
    for locale, words in (("en", "You are out of the game"), ("zh-Hans", "你已经出局"), ("zh-Hant", "你已經出局")):
        text = _text(reply, locale)
        assert words in text and "vote" not in text and "投" not in text


def test_status_shows_the_deadline_and_that_he_has_nothing_to_do() -> None:
    # killer_club night 1: I is a civilian (nothing to do at night), D police (a check to send)
    result = kc.play([{"phase": "night", "messages": [["I", "状态"], ["D", "状态"]]}])
    civilian, police = _last(result, "I", "killer_club/status"), _last(result, "D", "killer_club/status")
    when = {"en": "Dec 3 20:00", "zh-Hans": "12月3日 20:00", "zh-Hant": "12月3日 20:00"}
    lines = {"en": ("Nothing for you to do now.", "Deadline: **Dec 3 20:00**."),
             "zh-Hans": ("你现在没有要做的事。", "截止时间：**12月3日 20:00**。"),
             "zh-Hant": ("你現在沒有要做的事。", "截止時間：**12月3日 20:00**。")}
    for locale, (idle, deadline) in lines.items():
        renderer = Renderer(locale, "markdown")
        text = renderer.render(civilian.key, civilian.data, deadline=when[locale])
        assert idle in text and deadline in text
        text = renderer.render(police.key, police.data, deadline=when[locale])
        assert idle not in text and deadline in text
        assert idle in renderer.render(civilian.key, civilian.data)  # no deadline known: still the idle line


def test_a_thread_vote_after_a_first_vote_that_stands_is_not_sent_to_the_pm() -> None:
    """A ``##vote`` in the thread by a player whose first vote stands (findings, item 23): no advice to send it
    by private message, which would change nothing; a player who has not voted yet is still advised to."""
    result = sun.play([{"phase": "vote", "messages": [["A", "投 B"]], "posts": [["A", "##vote D"], ["E", "##vote D"]]}])
    voted, fresh = _last(result, "A", "common/command_in_thread"), _last(result, "E", "common/command_in_thread")
    assert voted.data["vote_stands"] and not fresh.data["vote_stands"]
    for locale, advice, stands in (("en", "by private message if you meant it", "Your first vote stands"),
                                   ("zh-Hans", "请用短消息重新发送", "不能改票"), ("zh-Hant", "請用短訊息重新發送", "不能改票")):
        text = _text(voted, locale)
        assert stands in text and advice not in text
        assert advice in _text(fresh, locale)


def test_the_english_witch_prompt_wording() -> None:
    """vampire_village's witch prompt in English (findings of a newcomer's trial, item 14): "save judy" to save
    them (whoever the victim is), and how many of each potion are left."""
    text = Renderer("en", "markdown").render("vampire_village/prompt", {
        "kind": "witch", "round": 1, "victim": "judy", "save": True, "poison": True})
    assert 'Send "save judy" to save them, or "poison NAME"' in text and "antidote: 1 left, poison: 1 left" in text
    used = Renderer("en", "markdown").render("vampire_village/prompt", {
        "kind": "witch", "round": 2, "victim": None, "save": False, "poison": True})
    assert "antidote: used, poison: 1 left" in used

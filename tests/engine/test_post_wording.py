"""Posts and replies read naturally (issue 28). The sunlight round post says why a suicide with the most points is not the one voted out (issue 28): the
suicides come first, with their points set aside (「自杀者所有相关投票积分从各项集体累计中剔除」: a suicide is
out before the tally), then the top of the others."""

from __future__ import annotations

import pytest

from forumbot.engine.game import Game, Setup
from forumbot.engine.types import Deadline, Message
from forumbot.render import Renderer

PLAYERS = ("张三", "李四", "王五", "alice", "bob", "孙七", "胖虎")


def second_vote_post(ballots: dict[str, str]):
    """Round 1: 张三 voted out, 胖虎 (no ballot) warned; the kill round kills nobody; round 2: ``ballots``,
    胖虎 misses again (a suicide)."""
    g = Game(Setup("sunlight", PLAYERS, roles={"王五": "killer"}))
    g.start()
    g.apply(Deadline(g.phase.id))
    for voter in PLAYERS[:-1]:
        g.apply(Message(voter, "投 李四" if voter == "张三" else "投 张三", "pm"))
    g.apply(Deadline(g.phase.id))
    while g.phase.kind != "vote":
        g.apply(Deadline(g.phase.id))
    for voter, text in ballots.items():
        g.apply(Message(voter, text, "pm"))
    step = g.apply(Deadline(g.phase.id))
    return next(p for p in step.posts if p.key == "sunlight/vote_result")


TIE = {"李四": "投 胖虎，alice", "王五": "投 胖虎，孙七", "bob": "投 胖虎，王五", "alice": "投 bob，孙七", "孙七": "投 李四，alice"}


@pytest.mark.parametrize("locale,suicide,why,result", [
    ("zh-Hans", "胖虎 累计 2 次不投或自投，视同自杀出局。", "胖虎 得的 9 分不决定谁出局", "其余玩家中，alice、孙七 同为最高分（各 4 分），无人出局。"),
    ("zh-Hant", "胖虎 累計 2 次不投或自投，視同自殺出局。", "胖虎 得的 9 分不決定誰出局", "其餘玩家中，alice、孙七 同為最高分（各 4 分），無人出局。"),
    ("en", "Out as suicides (2 missed or self votes): 胖虎.", "胖虎's 9 points decide nobody's exit",
     "Of the others, alice, 孙七 are tied at the top (4 points each): nobody is out."),
])
def test_a_suicide_with_the_most_points_is_explained_before_the_tie(locale, suicide, why, result):
    post = second_vote_post(TIE)
    assert post.data["suicides"] == ["胖虎"] and post.data["tied"] == ["alice", "孙七"] and post.data["out"] is None
    text = Renderer(locale, "bbcode").render(post.key, post.data)
    assert suicide in text and why in text and result in text, text
    assert text.index(suicide) < text.index(why) < text.index(result)
    assert "\n\n" in text[text.index(why):text.index(result)]  # two paragraphs, not one line run together


def test_without_a_suicide_the_result_is_said_as_before():
    post = second_vote_post({**TIE, "胖虎": "投 李四"})
    assert post.data["suicides"] == [] and post.data["suicide_points"] == []
    text = Renderer("zh-Hans", "bbcode").render(post.key, post.data)
    assert "其余玩家" not in text and "自杀" not in text.split("被投分")[1]


@pytest.mark.parametrize("locale", ["zh-Hans", "zh-Hant", "en"])
def test_kill_round_and_clue_poll_read_naturally(locale):
    """Issue 28: 「凶手通过短消息向法官发送杀人信息」 and 「「线索 0」表示本轮请勿提供线索」 were stiff; the posts say who does what."""
    r = Renderer(locale, "markdown")
    kill = r.render("sunlight/kill_open", {"round": 2, "clues": [], "alive": ["a", "b"]})
    poll = r.render("sunlight/clue_poll", {"round": 1, "options": [1, 2, 3]})
    none = r.render("sunlight/clue_recorded", {"number": 0, "replaced": None})
    stiff = ("发送杀人信息", "發送殺人指令", "请勿提供线索", "請勿提供線索", "chooses a victim", "anonymous table")
    assert not any(w in t for w in stiff for t in (kill, poll, none)), (kill, poll, none)
    assert {"zh-Hans": "凶手请给法官发短消息「杀 某人」", "zh-Hant": "兇手請給法官發短訊息「殺 某人」",
            "en": 'The killer sends the judge "kill NAME"'}[locale] in kill
    assert {"zh-Hans": "不想要线索就发「线索 0」或「不要线索」", "zh-Hant": "不想要線索就發「線索 0」或「不要線索」",
            "en": '"clue 0" (or "no clue") if you want none'}[locale] in poll
    assert {"zh-Hans": "你的选择已记录：不要线索。", "zh-Hant": "你的選擇已記錄：不要線索。", "en": "no clue"}[locale] in none


@pytest.mark.parametrize("key,data,locale,said", [
    ("killer_club/check_result", {"read_as": [], "round": 1, "role": "police", "by": "D", "target": "A", "is_killer": True},
     "zh-Hans", "今晚警察不能再验了。"),
    ("killer_club/order_relayed", {"verb": "kill", "actor": "A", "target": "B", "replaced": "C"}, "zh-Hant", "（之前的 C 作廢）"),
    ("common/late", {"closed_phase": "vote", "closed_round": 1, "closed_at": "20:00", "straddled": False}, "zh-Hans",
     "你的消息在那之后才到"),
    ("vampire_village/night_open", {"stage": "night", "round": 1, "guard": True, "seer": True, "selfkill": False,
                                    "piper": False, "alive": ["A"]}, "en", "Send your commands to the judge by private message."),
])
def test_other_replies_read_naturally(key, data, locale, said):
    assert said in Renderer(locale, "markdown").render(key, data)


@pytest.mark.parametrize("locale,said", [("zh-Hans", "暂停期间发来的指令不会记录"), ("zh-Hant", "暫停期間發來的指令不會記錄")])
def test_the_pause_post_is_plain(locale, said):
    text = Renderer(locale, "markdown").render("common/game_paused", {})
    assert said in text and "不予" not in text

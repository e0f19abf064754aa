"""Organiser commands by private message (the newcomer's trial, findings 2, 3, 4 and 8): a penalty or a
replacement names the player exactly, a penalty needs its reason, the penalised player is told, and an
organiser's ``help``/``status`` answer him as an organiser."""

from __future__ import annotations

import pytest
from sunlight_helpers import play, replies_to

from forumbot.engine.game import Game, Setup
from forumbot.engine.types import Message
from forumbot.render import Renderer

PLAYERS = ["张三", "李四", "王五", "alice", "bob", "carol", "dave"]


def game(*organiser_messages, locale="zh-Hans", aliases=None, messages=None):
    """A sunlight game whose first vote round gets ``messages`` from players, then the organiser's."""
    phase = {"messages": messages or [], "organiser": [["Judge", t] for t in organiser_messages]}
    return play([phase], players=PLAYERS, killer="王五", organisers=["Judge"], locale=locale, aliases=aliases or {})


def rendered(reply, locale):
    return Renderer(locale, "markdown").render(reply.key, reply.data)


@pytest.mark.parametrize("text,written,meant", [("罚分 张叁 潜水", "张叁", "张三"), ("penalty alicee lurking", "alicee", "alice"),
                                                ("替换 张叁 新账号", "张叁", "张三"), ("replace alic newbie", "alic", "alice")])
def test_penalty_and_replace_refuse_a_name_not_written_exactly(text, written, meant):
    r = game(text)
    (reply,) = replies_to(r, "Judge")
    assert reply.key == "common/organiser_refused" and reply.data["reason"] == "inexact_name"
    assert (reply.data["player"], reply.data["meant"]) == (written, meant)
    assert all(p.alive for p in r.game.players) and not r.game.penalties
    assert [p.name for p in r.game.players] == PLAYERS
    assert f"你是指 {meant} 吗" in rendered(reply, "zh-Hans")
    assert f"did you mean {meant}?" in rendered(reply, "en") and "exact name" in rendered(reply, "en")


@pytest.mark.parametrize("text", ["罚分 张三 潜水", "罚分 1 潜水", "罚分 小张 潜水", "penalty 張三 lurking"])
def test_penalty_by_exact_name_seat_number_or_declared_alias_applies(text):
    r = game(text, aliases={"张三": ["小张"]})
    assert r.game.player(1).out_reason == "penalty"
    assert [x.key for x in replies_to(r, "Judge")] == ["common/organiser_done"]


@pytest.mark.parametrize("text,written", [("罚分 李四", None), ("penalty 李四 sleeping", "sleeping"), ("罚分 李四 睡觉", "睡觉")])
def test_penalty_without_a_valid_reason_says_it_needs_one(text, written):
    r = game(text)
    (reply,) = replies_to(r, "Judge")
    assert reply.key == "common/organiser_refused" and reply.data["reason"] == "no_reason"
    assert reply.data["written"] == written
    assert r.game.player(2).alive
    assert "penalty needs a reason: lurking or flooding" in rendered(reply, "en").lower()
    assert "罚分需要写明理由：潜水或恶意灌水" in rendered(reply, "zh-Hans")


def test_flooding_as_the_templates_word_it_is_read():
    r = game("罚分 李四 恶意灌水")
    assert r.game.penalties == {2: "flooding"}


@pytest.mark.parametrize("locale", ["zh-Hans", "zh-Hant", "en"])
def test_penalised_player_is_told_by_pm_why_and_what_it_means(locale):
    r = game("罚分 张三 潜水", locale=locale)
    (told,) = [x for x in replies_to(r, "张三") if x.key == "common/penalised"]
    assert told.data == {"reason": "lurking", "was_alive": True, "score": -30}
    text = rendered(told, locale)
    assert {"zh-Hans": "潜水", "zh-Hant": "潛水", "en": "lurking"}[locale] in text and "-30" in text


def test_organiser_help_by_pm_lists_the_organiser_commands_with_examples():
    for text, locale, words in (("帮助", "zh-Hans", "罚分 张三 潜水"), ("幫助", "zh-Hant", "罰分 张三 潛水"),
                                ("help", "en", 'penalty 张三 lurking')):
        r = game(text, locale=locale)
        (reply,) = replies_to(r, "Judge")
        assert reply.key == "common/organiser_help", reply
        for markup in ("markdown", "bbcode"):
            body = Renderer(locale, markup).render(reply.key, reply.data)
            assert words in body, body
            assert ("[*]" in body) == (markup == "bbcode")


def test_organiser_status_by_pm_gives_phase_and_who_still_has_to_act_never_roles():
    r = game("状态", messages=[["张三", "投 李四"], ["李四", "投 张三"]])
    (reply,) = replies_to(r, "Judge")
    assert reply.key == "common/organiser_status"
    assert reply.data["phase"] == "vote" and reply.data["round"] == 1
    assert reply.data["pending"] == ["王五", "alice", "bob", "carol", "dave"]
    body = Renderer("zh-Hans", "markdown").render(reply.key, {**reply.data}, deadline="12月3日 20:00")
    assert "还没行动的人（5）" in body and "12月3日 20:00" in body and "凶手" not in body
    assert "killer" not in str(reply.data)


@pytest.mark.parametrize("ruleset_status,locale,words", [("sunlight/status", "zh-Hans", "你已经出局（组织者判罚：潜水）"),
                                                         ("sunlight/status", "en", "out of the game (a penalty by the organiser: lurking)")])
def test_penalised_players_status_says_why_he_is_out(ruleset_status, locale, words):
    r = game("罚分 张三 潜水", locale=locale, messages=[])
    status = r.game.ruleset.status_data(1)
    assert status["penalty"] == "lurking"
    assert words in Renderer(locale, "markdown").render(ruleset_status, status)
    assert r.game.ruleset.status_data(2)["penalty"] is None


@pytest.mark.parametrize("ruleset", ["killer_club", "human_kill", "interview_vampire", "vampire_village"])
@pytest.mark.parametrize("locale", ["zh-Hans", "zh-Hant", "en"])
def test_every_rulesets_status_names_the_penalty(ruleset, locale):
    g = Game(Setup(ruleset=ruleset, players=tuple(f"P{i}" for i in range(1, 14)), organisers=("Judge",), seed=1))
    g.start()
    g.apply(Message("Judge", "penalty P1 flooding", "pm"))
    body = Renderer(locale, "bbcode").render(f"{ruleset}/status", g.ruleset.status_data(1))
    assert {"zh-Hans": "组织者判罚：恶意灌水", "zh-Hant": "組織者判罰：惡意灌水", "en": "penalty by the organiser: flooding"}[locale] in body


@pytest.mark.parametrize("locale,words", [("en", "No winner"), ("zh-Hans", "无人获胜"), ("zh-Hant", "無人獲勝")])
def test_sunlight_ended_before_any_ballot_has_no_winner(locale, words):
    """Before any ballot point was cast the win index is 0 / 0: it decides nothing, so the organiser's ``end``
    declares no winner (it used to give the killers the game, counted as a win in the standings)."""
    r = game("结束游戏", locale=locale)
    g = r.game
    assert g.finished and g.winner is None and not any(g.ruleset.won(p.seat) for p in g.players)
    final = next(p for ph in r.phases for p in ph.step.posts if p.key == "sunlight/final")
    assert words in rendered(final, locale)


def test_sunlight_ended_after_a_vote_round_is_decided_by_the_index_so_far():
    r = play([{"messages": [["张三", "投 王五"], ["李四", "投 王五 alice"]]}, {"organiser": [["Judge", "结束游戏"]]}],
             players=PLAYERS, killer="王五", organisers=["Judge"])
    assert r.game.finished and r.game.winner == "good"  # 6 of 8 ballot points on the killer


@pytest.mark.parametrize("ruleset", ["killer_club", "human_kill", "interview_vampire"])
@pytest.mark.parametrize("locale,lost", [("en", "lost"), ("zh-Hans", "负"), ("zh-Hant", "負")])
def test_a_game_ended_without_a_winner_calls_nobody_lost(ruleset, locale, lost):
    """The organiser's ``end`` mid-game gives no winner in these rulesets: the final table says "—", not that
    every player lost."""
    g = Game(Setup(ruleset=ruleset, players=tuple(f"P{i}" for i in range(1, 14)), organisers=("Judge",), seed=1))
    g.start()
    step = g.apply(Message("Judge", "end", "pm"))
    final = next(p for p in step.posts if p.key == f"{ruleset}/final")
    assert g.finished and g.winner is None
    table = Renderer(locale, "markdown").render(final.key, final.data)
    assert "| —" in table and f"| {lost} |" not in table


@pytest.mark.parametrize("text", ["延长 99999999999小时", "extend 99999999999h", "延長 31天"])
def test_an_extension_longer_than_thirty_days_is_refused_and_moves_no_deadline(text):
    """``延长 99999999999h`` by private message made the bot's cycle fail (the deadline's arithmetic overflowed):
    the game refuses an extension over 30 days, says the most it gives, and records none."""
    r = game(text)
    (reply,) = replies_to(r, "Judge")
    assert reply.key == "common/organiser_refused" and reply.data["reason"] == "extend_too_long"
    assert not r.game.extensions
    assert "一次最多延长 30 天" in rendered(reply, "zh-Hans") and "at most 30 days" in rendered(reply, "en")
    assert "{{" not in Renderer("zh-Hant", "bbcode").render(reply.key, reply.data)


def test_an_extension_of_thirty_days_is_given():
    r = game("延长 30天")
    assert [x.key for x in replies_to(r, "Judge")] == ["common/organiser_done"] and sum(r.game.extensions.values()) == 30 * 86400


@pytest.mark.parametrize("second", ["罚分 张三 潜水", "penalty 张三 flooding", "罚分 1 恶意灌水"])
def test_a_second_penalty_of_the_same_player_is_refused_not_announced_again(second):
    """The newcomer's trial (2026-12-04): `penalty 小明 lurk` then `罚分 小明 潜水` posted "小明 潜水，出局" twice."""
    from sunlight_helpers import posts

    r = game("罚分 张三 潜水", second)
    assert r.game.penalties == {1: "lurking"}
    assert [p.key for p in posts(r)].count("common/penalty") == 1
    assert [x.key for x in replies_to(r, "张三")].count("common/penalised") == 1
    done, refused = replies_to(r, "Judge")
    assert done.key == "common/organiser_done"
    assert refused.key == "common/organiser_refused" and refused.data["reason"] == "already_penalised"
    assert refused.data["player"] == "张三"
    assert "已经被罚分" in rendered(refused, "zh-Hans") and "already been penalised" in rendered(refused, "en")

"""Iku (永江衣玖) in human_kill: human_kill-roles.md, Great youkai ("before the weather is announced she
either cancels today's weather, losing her ability for good, or learns tomorrow's") and the daily order
("Day N begins; Iku acts; the weather is announced; ..."); decisions in docs/human_kill.md § Iku."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from pydantic import ValidationError

from forumbot.replay import TranscriptError, load_transcript, parse_transcript, replay
from forumbot.rulesets.human_kill.roles import Row

T = Path(__file__).parent.parent / "transcripts"
ROLES = {"A": "human", "B": "human", "C": "youkai", "D": "youkai", "E": "remilia", "F": "iku"}
WEATHER = {"weather": True, "kyokkou_chance": 0}


def play(phases, players="ABCDEF", roles=ROLES, **extra):
    entries = [p if isinstance(p, dict) else {"messages": p} for p in phases]
    raw = {"ruleset": "human_kill", "players": list(players), "phases": entries, **extra}
    if roles is not None:
        raw["roles"] = roles
    return replay(parse_transcript(raw))


def events(r, kind):
    return [e.data for ph in r.phases for e in ph.step.events if e.kind == kind]


def posts(r, key):
    return [p for ph in r.phases for p in ph.step.posts if p.key == f"human_kill/{key}"]


def replies(r, key):
    return [m for ph in r.phases for m in ph.step.replies if m.key == f"human_kill/{key}"]


def public(r):
    return [(p.key, p.data) for ph in r.phases for p in ph.step.posts]


# one round with Iku: iku, remilia, exorcism, banish
ROUND = 4


def test_iku_transcript():
    r = replay(load_transcript(T / "human_kill_iku.yaml"))
    assert [e["choice"] for e in events(r, "iku")] == ["foresee", "cancel"]
    assert [e["reason"] for e in events(r, "rejected")] == ["not_your_role", "not_your_role", "wrong_phase", "iku_spent"]
    (told,) = replies(r, "foresight")
    assert told.to == "己" and told.data["round"] == 1 and told.data["weather"] == "kirisame"
    firsts = [p.data for p in posts(r, "window") if p.data["first"]]
    # each day: Iku's window without the weather, then the weather with the next window
    assert [(d["kind"], d["weather"], d.get("cancelled", False)) for d in firsts] == [
        ("iku", None, False), ("remilia", "noumu", False), ("iku", None, False), ("remilia", None, True),
        ("iku", None, False)]
    assert r.game.ruleset.weathers == [{"round": 1, "weather": "noumu", "hidden": False},
                                       {"round": 2, "weather": None, "cancelled": True}]
    # the last help lists no weather command: her power is gone
    last_help = [m for ph in r.phases for m in ph.step.replies if m.key == "human_kill/help" and m.to == "己"][-1]
    assert not {"cancel_weather", "foresee"} & set(last_help.data["verbs"])


@pytest.mark.parametrize("seed", range(8))
def test_foreseen_weather_is_the_weather_that_comes(seed):
    r = play([[["F", "预知天气"]], [], [], [], []], seed=seed, params=WEATHER)
    (told,) = replies(r, "foresight")
    assert r.game.ruleset.weathers[1]["round"] == 2
    assert told.data["weather"] == r.game.ruleset.weathers[1]["weather"]


@pytest.mark.parametrize("seed", range(4))
def test_foresight_leaves_no_public_trace(seed):
    """Iku's foresight is private: the thread reads the same whether or not she foresaw."""
    foresaw = play([[["F", "foresee weather"]], [], [], [], [], [], [], []], seed=seed, params=WEATHER)
    idle = play([[], [], [], [], [], [], [], []], seed=seed, params=WEATHER)
    assert public(foresaw) == public(idle)


def test_cancelled_weather_has_no_effect_and_the_power_is_gone():
    # 浓雾 every day: after a cancel, a long post is not reported that day; the next day it is again
    long = "这是一段超过十个字的发言内容"
    r = play([{"messages": [["F", "cancel weather"]]}, {"posts": [["A", long]]}, [], [],
              {"messages": [["F", "取消天气"], ["F", "预知天气"]]}, {"posts": [["A", long]]}, [], []],
             seed=1, params={**WEATHER, "weather_weights": {"noumu": 1}})
    long_posts = [(ph.phase, ph.round) for ph in r.phases if any(e.kind == "long_post" for e in ph.step.events)]
    assert long_posts == [("remilia", 2)]
    assert [e["reason"] for e in events(r, "rejected")] == ["iku_spent", "iku_spent"]
    assert [w.get("cancelled", False) for w in r.game.ruleset.weathers] == [True, False]
    assert r.game.phase.kind == "iku" and r.game.ruleset.pending() == []  # no reminder for a spent Iku


def test_no_choice_means_the_weather_stands():
    r = play([[], [], [], []], seed=2, params={**WEATHER, "weather_weights": {"noumu": 1}})
    assert events(r, "iku") == [] and r.game.ruleset.weathers[0]["weather"] == "noumu"


def test_out_iku_window_still_opens_and_nothing_happens():
    # the humans exorcise Iku on day 1; day 2 still opens with her window; her cancel is refused
    r = play([[], [], [["A", "退治 F"], ["B", "退治 F"]], [], [["F", "取消天气"]], []], seed=3,
             params={**WEATHER, "weather_weights": {"noumu": 1}})
    assert not r.game.player(6).alive
    firsts = [p.data for p in posts(r, "window") if p.data["first"]]
    assert [d["kind"] for d in firsts] == ["iku", "remilia", "iku", "remilia"]
    assert firsts[3]["weather"] == "noumu" and "cancelled" not in firsts[3]
    assert [e["reason"] for e in events(r, "rejected")] == ["you_are_out"]


def test_last_choice_before_the_deadline_stands():
    r = play([[["F", "取消天气"], ["F", "预知"]], []], seed=4, params=WEATHER)
    assert [e["choice"] for e in events(r, "iku")] == ["foresee"]
    assert replies(r, "recorded")[-1].data["replaced"] == "cancel"


@pytest.mark.parametrize("n", range(6, 17))
def test_extra_great_deals_iku_in_an_ordinary_youkai_place(n):
    players = [f"P{i}" for i in range(1, n + 1)]
    plain = play([], players=players, roles=None, seed=n, params=WEATHER)
    with_iku = play([], players=players, roles=None, seed=n, params={**WEATHER, "extra_great": ["iku"]})
    before = Counter(p.role for p in plain.game.players)
    after = Counter(p.role for p in with_iku.game.players)
    assert after == before - Counter(youkai=1) + Counter(iku=1)
    assert with_iku.game.ruleset.windows[0] == "iku"


def test_iku_needs_the_weather_and_known_extras():
    with pytest.raises(TranscriptError, match="weather"):
        play([], params={"weather": False})
    with pytest.raises(Exception, match="extra_great"):
        play([], roles=None, params={**WEATHER, "extra_great": ["tenshi"]})
    with pytest.raises(ValidationError, match="unknown human_kill role"):
        Row(humans=2, youkai=2, fixed=("remilia", "ikku"))
    assert Row(humans=2, youkai=2, fixed=("remilia", "iku")).fixed == ("remilia", "iku")


def test_great_out_needs_iku_out_too():
    """From 8 players the humans win when every great youkai is out: Iku is one."""
    players = "ABCDEFGH"
    roles = {"A": "human", "B": "human", "C": "youkai", "D": "youkai", "E": "youkai", "F": "remilia",
             "G": "iku", "H": "human"}
    # day 1: the humans exorcise Remilia; Iku lives: no win
    r = play([[], [], [["A", "退治 F"], ["B", "退治 F"], ["H", "退治 F"]], []], players=players, roles=roles,
             seed=1, params=WEATHER)
    assert not r.game.finished
    r = play([[], [], [["A", "退治 F"], ["B", "退治 F"], ["H", "退治 F"]], [],
              [], [], [["A", "退治 G"], ["B", "退治 G"], ["H", "退治 G"]]], players=players, roles=roles,
             seed=1, params=WEATHER)
    assert r.game.finished and r.game.winner == "human" and r.game.ruleset.win_reason == "great_out"

"""human_kill: the rulings of shared/seeds/README.md § human_kill marked 2026-12 and the rule bugs of
issue 10 (banished Utsuho and the win checks, the sage's order choice, succession, run-off,
last words, 苍天, the organiser's reports)."""

from __future__ import annotations

import re

from forumbot.render import renderer
from forumbot.replay import parse_transcript, replay

ROLES6 = {"A": "human", "B": "human", "C": "youkai", "D": "youkai", "E": "remilia", "F": "yukari"}


def play(phases, players, roles, **extra):
    entries = [p if isinstance(p, dict) else {"messages": p} for p in phases]
    return replay(parse_transcript({"ruleset": "human_kill", "players": list(players), "roles": roles,
                                    "phases": entries, **extra}))


def events(r, kind):
    return [e.data for ph in r.phases for e in ph.step.events if e.kind == kind]


def posts(r, key):
    return [p for ph in r.phases for p in ph.step.posts if p.key == f"human_kill/{key}"]


def kinds(r):
    return [e["kind"] for e in events(r, "phase_opened")]


# --- 5. a banished Utsuho counts as alive for every win condition ------------------------------------
def test_parsee_does_not_win_while_a_banished_utsuho_is_in_the_game():
    roles = {"A": "human", "B": "human", "C": "youkai", "D": "utsuho", "E": "parsee", "F": "remilia"}
    r = play([{"phase": "remilia"}, {"phase": "exorcism"},
              {"phase": "banish", "messages": [[x, "放逐 D"] for x in "ABCEF"]},   # D: Utsuho, sealed
              {"phase": "remilia"}, {"phase": "exorcism"},
              {"phase": "banish", "messages": [[x, "放逐 E"] for x in "ABCF"]}],    # Parsee takes her voters
             "ABCDEF", roles)
    assert r.game.player(4).alive and not any(r.game.player(s).alive for s in (1, 2, 3, 5, 6))
    assert r.game.winner == "youkai"  # every human out; Utsuho is still in the game, so Parsee has not won


# --- 6. the sage's speaking-order choice holds for the night it is made, by the sage in office --------
SAGE_DAY1 = [{"phase": "remilia"}, {"phase": "exorcism"}, {"phase": "yukari"},
             {"phase": "election", "messages": [[x, "退选"] for x in "ABCD"]},
             {"phase": "sage_vote", "messages": [[x, "投 E"] for x in "ABCD"]}]


def test_a_banished_sages_order_choice_does_not_outlive_him():
    r = play(SAGE_DAY1 + [
        {"phase": "order", "messages": [["E", "逆时针 自己"]]},
        {"phase": "banish", "messages": [[x, "放逐 E"] for x in "ABCDF"]},     # the sage is banished
        {"phase": "remilia"}, {"phase": "exorcism"}, {"phase": "yukari"}, {"phase": "banish"}],
        "ABCDEF", ROLES6, params={"sage": True})
    first, second = [p.data for p in posts(r, "nightfall") if p.data["order"] is not None]
    assert first["by_sage"] and first["order"] == ["F", "A", "B", "C", "D", "E"]
    assert not second["by_sage"] and second["sage"] is None
    assert second["order"] == ["A", "B", "C", "D", "F"]  # the rulebook's default: nobody out, from the lowest
    for locale in ("zh-Hans", "zh-Hant", "en"):  # the post names no sage and no "chosen by the sage"
        text = renderer(locale).render("human_kill/nightfall", second)
        assert "贤者" not in text and "賢者" not in text and not re.search(r"\bsage\b", text, re.I)


def test_under_tenkiame_the_default_order_applies_not_the_sages_old_choice():
    # seed 7 with these weights: 雾雨 on day 1, 太阳雨 on day 2
    r = play(SAGE_DAY1 + [
        {"phase": "order", "messages": [["E", "顺时针 自己"]]},
        {"phase": "banish"},                                                  # nobody votes: nobody out
        {"phase": "remilia"}, {"phase": "exorcism"}, {"phase": "yukari"}, {"phase": "banish"}],
        "ABCDEF", ROLES6, seed=7,
        params={"sage": True, "weather": True, "weather_weights": {"kirisame": 1, "tenkiame": 1}, "kyokkou_chance": 0})
    assert [w["chosen"] for w in events(r, "modifier_drawn")][:2] == ["kirisame", "tenkiame"]
    first, second = [p.data for p in posts(r, "nightfall") if p.data["order"] is not None]
    assert first["by_sage"] and first["order"] == ["D", "C", "B", "A", "F", "E"]
    assert kinds(r).count("order") == 1  # no order phase under 太阳雨
    assert not second["by_sage"] and second["order"] == ["A", "B", "C", "D", "E", "F"]

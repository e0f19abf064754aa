"""A series of killer_club games with the same roster: standings across games, and the rule that the
first-night victim may not be the same player three games running (rulebook 「也不允許連續三次或三次以上
第一輪殺掉同一個人」)."""

from __future__ import annotations

import pytest
from killer_club_helpers import PLAYERS, play, posts, reasons, votes

from forumbot.engine.series import game_result, merge_standings, ranked, repeated_victim
from forumbot.replay import TranscriptError


@pytest.mark.parametrize("previous,limit,banned", [
    ((), 3, None), (("I",), 3, None), (("I", "I"), 3, "I"), (("J", "I", "I"), 3, "I"), (("I", "J"), 3, None),
    ((None, None), 3, None), (("I", None), 3, None), (("", ""), 3, None), (("I", "", "I"), 3, None), (("I",), 2, "I"), (("I", "I"), 4, None), (("I", "I", "I"), 4, "I"),
])
def test_repeated_victim(previous, limit, banned):
    assert repeated_victim(previous, limit) == banned


def test_first_night_victim_may_not_be_the_same_three_games_running():
    series = {"previous_first_victims": ["I", "I"]}
    r = play([[["A", "殺 I"], ["A", "殺 J"]], [], [["A", "殺 I"]]], params={"series": series})
    assert reasons(r, "A") == ["series_victim"]
    assert [n for ph in r.phases for n in ph.out] == ["J", "I"]  # night 2: I may be killed
    assert posts(r, "night_open")[0].data["banned"] == "I" and posts(r, "night_open")[1].data["banned"] is None
    assert posts(r, "opening")[0].data["banned"] == "I"


def test_example_config_is_a_valid_season():
    from pathlib import Path

    from forumbot.config import load_config
    from forumbot.engine.game import Game

    config = load_config(Path(__file__).parents[2] / "forumbot" / "config_examples" / "killer_club.example.toml")
    game = Game(config.setup(7))
    game.start()
    assert config.ruleset == "killer_club" and len(game.players) == 14


def test_two_games_running_are_allowed():
    r = play([[["A", "殺 I"]]], params={"series": {"previous_first_victims": ["J", "I"]}})
    assert reasons(r, "A") == [] and r.game.ruleset.summary()["first_night_victim"] == "I"


def test_a_banned_player_not_in_this_game_changes_nothing():
    r = play([[["A", "殺 I"]]], params={"series": {"previous_first_victims": ["Zed", "Zed"]}})
    assert r.game.ruleset.banned is None and reasons(r, "A") == []


def test_bad_series_param_is_a_setup_error():
    with pytest.raises(TranscriptError, match="series"):
        play([], params={"series": {"previous": ["I"]}})
    with pytest.raises(TranscriptError, match="series"):
        play([], params={"series": {"limit": 1}})


def _game(victim: str, winner_side: str):
    """A short game: night 1 kills ``victim``; then the police side wins (all killers voted out) or
    the killer side wins (all police dead)."""
    if winner_side == "police":
        left = [p for p in PLAYERS if p != victim]
        return play([[["A", f"殺 {victim}"]], votes("A", [p for p in left if p != "A"]), [],
                     votes("B", [p for p in left if p not in "AB"]), [], votes("C", [p for p in left if p not in "ABC"])])
    return play([[["A", "殺 D"]], votes("E", [p for p in PLAYERS if p not in "DE"]), [["A", "殺 F"]]])


def test_standings_across_games():
    g1 = game_result(_game("I", "police").game)
    g2 = game_result(_game("D", "killer").game)
    assert g1["winner"] == "police" and g1["first_night_victim"] == "I"
    assert g2["winner"] == "killer" and g2["first_night_victim"] == "D"
    standings = merge_standings({}, g1)
    before = {k: dict(v) for k, v in standings.items()}
    standings2 = merge_standings(standings, g2)
    assert {k: dict(v) for k, v in standings.items()} == before  # pure: the old standings are unchanged
    a, h, i = standings2["A"], standings2["H"], standings2["I"]
    assert a == {"played": 2, "won": 1, "roles": {"killer": {"played": 2, "won": 1}}}
    assert h == {"played": 2, "won": 1, "roles": {"nurse": {"played": 2, "won": 1}}}
    assert i["won"] == 1 and standings2["G"]["won"] == 1  # the helper wins with the killers
    rows = ranked(standings2)
    assert [r["rank"] for r in rows] == [1] * len(rows)  # everyone won one of two


def test_series_params_carry_the_first_night_victims():
    """The runtime builds the next game's ``series`` param from the results so far."""
    history: list[str | None] = []
    for _ in range(2):
        r = play([[["A", "殺 I"]]], params={"series": {"previous_first_victims": history}})
        history.append(game_result(r.game)["first_night_victim"])
    assert history == ["I", "I"]
    r = play([[["A", "殺 I"]]], params={"series": {"previous_first_victims": history}})
    assert reasons(r, "A") == ["series_victim"] and game_result(r.game)["first_night_victim"] is None


def test_ranked_shares_ranks():
    standings = {"x": {"played": 2, "won": 2, "roles": {}}, "y": {"played": 2, "won": 1, "roles": {}},
                 "z": {"played": 2, "won": 1, "roles": {}}, "w": {"played": 1, "won": 0, "roles": {}}}
    assert [(r["name"], r["rank"]) for r in ranked(standings)] == [("x", 1), ("y", 2), ("z", 2), ("w", 4)]


def test_a_game_without_winner_counts_as_played():
    r = play([{"organiser": [["Org", "結束遊戲"]]}])
    s = merge_standings({}, game_result(r.game))
    assert s["A"] == {"played": 1, "won": 0, "roles": {"killer": {"played": 1, "won": 0}}}

"""A simulated game, written as a replay transcript and replayed by the bot's replay path, ends the
same way: the simulator and the bot judge alike (issue 12)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forumbot.replay import parse_transcript, replay
from forumbot.simulate.play import play_game, winners_of
from forumbot.simulate.policies import make_policy

GAMES = [("interview_vampire", 12), ("sunlight", 19), ("killer_club", 10), ("vampire_village", 13),
         ("human_kill", 9)]


@pytest.mark.parametrize("policy", ["random", "heuristic"])
@pytest.mark.parametrize(("ruleset", "players"), GAMES)
def test_replayed_transcript_gives_the_same_result(ruleset: str, players: int, policy: str) -> None:
    for seed in (3, 4):
        check(ruleset, players, {}, seed, policy)


@settings(max_examples=8, deadline=None)
@given(game=st.sampled_from(GAMES), extra=st.integers(0, 4), seed=st.integers(0, 2**31),
       policy=st.sampled_from(["random", "heuristic"]), skill=st.floats(0, 1))
def test_any_simulated_game_replays_alike(game: tuple[str, int], extra: int, seed: int, policy: str, skill: float) -> None:
    """Other table sizes and seeds: the judge and the simulator still agree."""
    ruleset, players = game
    check(ruleset, players + extra, {}, seed, policy, skill)


def check(ruleset: str, players: int, params: dict, seed: int, policy: str, skill: float = 0.5) -> None:
    """Simulate, replay the transcript, compare winner, length and deaths by cause."""
    sim = play_game(ruleset, players, params, seed, make_policy(policy, ruleset, skill), record=True)
    assert sim.transcript is not None and sim.finished
    g = replay(parse_transcript(sim.transcript)).game
    assert g.finished
    assert winners_of(g.winner) == sim.winners
    assert len(g.phases) - 1 == sim.phases and g.phase.round == sim.rounds
    deaths: dict[str, int] = {}
    for p in g.players:
        if not p.alive and p.out_reason:
            deaths[p.out_reason] = deaths.get(p.out_reason, 0) + 1
    assert deaths == sim.deaths

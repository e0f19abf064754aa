"""The per-ruleset heuristics (forumbot/simulate/heuristics/): they read only their player's view, the
table-talk skill helps the village, and the informed camp plays better with them than at random.

The statistical tests are seeded (deterministic); their margins are several standard errors wide at
the game counts used, so a change of heuristic that keeps the claim true does not make them flake."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

import forumbot.simulate.play as play_module
from forumbot.engine.types import Reply
from forumbot.simulate.actions import Action, Option
from forumbot.simulate.play import play_game
from forumbot.simulate.policies import HEURISTICS, RandomPolicy, make_policy
from forumbot.simulate.run import Spec, game_seed, run, summarise
from forumbot.simulate.view import View

SIZES = {"interview_vampire": 12, "sunlight": 19, "killer_club": 10, "vampire_village": 13, "human_kill": 9}



@pytest.mark.parametrize("ruleset", sorted(SIZES))
def test_every_ruleset_has_its_own_documented_heuristic(ruleset: str) -> None:
    import importlib

    module = importlib.import_module(f"forumbot.simulate.heuristics.{ruleset}")
    assert HEURISTICS[ruleset] is module.heuristic
    assert module.__doc__ and any(c in module.__doc__ for c in "「（(")  # cites its rulebook's words


def _clone(view: View) -> View:
    """A fresh view holding only what ``view`` holds: its own messages, the thread, its memory."""
    fresh = View(view.seat, view.name, view.ruleset, posts=list(view.posts), phase=view.phase, alive=view.alive,
                 scratch=copy.deepcopy(view.scratch), memory=copy.deepcopy(view.memory), _hunch=view._hunch)
    for reply in view.inbox:
        fresh.receive(reply)
    return fresh


def _rng_copy(rng: random.Random) -> random.Random:
    r = random.Random()
    r.setstate(rng.getstate())
    return r


class _Checked:
    """The heuristic, asked each decision twice more on copies of the player's view: once as things
    are, once with every other player's private messages perturbed (each other player sent a forged
    check result, role PM and relayed order naming this player, and his memory scrambled). The
    decisions and the random draws must be the same."""

    def __init__(self, ruleset: str, skill: float, views: list[View]) -> None:
        self.inner = make_policy("heuristic", ruleset, skill)
        self.views = views
        self.decisions = 0

    def choose(self, view: View, legal_actions: list[Option], rng: random.Random) -> Action | None:
        r1 = _rng_copy(rng)
        first = self.inner.choose(_clone(view), legal_actions, r1)
        saved = [(v.inbox, v._by_key, v.memory, v.scratch) for v in self.views if v is not view]
        try:
            for v in self.views:
                if v is view:
                    continue
                v.inbox, v._by_key, v.memory, v.scratch = list(v.inbox), copy.deepcopy(v._by_key), {"junk": 1}, {"junk": 2}
                for key in ("check_result", "seer_result", "role", "order_relayed", "relayed", "dawn_report"):
                    v.receive(Reply(v.name, f"{view.ruleset}/{key}", {
                        "target": view.name, "is_killer": True, "role": "vampire", "seen": "youkai", "round": view.phase[1],
                        "verb": "kill", "actor": view.name, "fed": False, "teammates": [view.name], "players": [],
                    }))
            r2 = _rng_copy(rng)
            second = self.inner.choose(_clone(view), legal_actions, r2)
        finally:
            others = [v for v in self.views if v is not view]
            for v, (inbox, by_key, memory, scratch) in zip(others, saved, strict=True):
                v.inbox, v._by_key, v.memory, v.scratch = inbox, by_key, memory, scratch
        assert first == second and r1.getstate() == r2.getstate(), (view.ruleset, view.seat, view.phase)
        self.decisions += 1
        return self.inner.choose(view, legal_actions, rng)


@pytest.mark.parametrize("ruleset", sorted(SIZES))
def test_a_heuristic_never_reads_another_players_private_messages(ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    views: list[View] = []

    class Recorded(View):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            views.append(self)

    monkeypatch.setattr(play_module, "View", Recorded)
    for seed in range(2):
        plain = play_game(ruleset, SIZES[ruleset], {}, seed, make_policy("heuristic", ruleset, 0.5))
        views.clear()
        policy = _Checked(ruleset, 0.5, views)
        checked = play_game(ruleset, SIZES[ruleset], {}, seed, policy)
        assert policy.decisions > 0 and len(views) == SIZES[ruleset]
        # the checks themselves change nothing: the same game as without them
        assert (checked.winner, checked.phases, checked.deaths) == (plain.winner, plain.phases, plain.deaths)


def _rate(ruleset: str, results: list[Any], camp: str) -> float:
    return summarise(ruleset, results).camps[camp].rate


#: ruleset -> (players, parameters, the camp that reads the game by the talk, games per skill)
VILLAGE: dict[str, tuple[int, dict[str, Any], str, int]] = {
    "interview_vampire": (13, {"starve_nights": 3, "vampire_rule": "text"}, "human", 300),
    "sunlight": (19, {}, "good", 80), "killer_club": (10, {}, "police", 300),
    "vampire_village": (13, {}, "villagers", 200), "human_kill": (9, {}, "youkai", 300)}


@pytest.mark.parametrize("ruleset", sorted(VILLAGE))
def test_skill_helps_the_village(ruleset: str) -> None:
    """With skill 1 (the talk always points at a real enemy) the camp that reads the game wins more often
    than with skill 0 (it never does)."""
    players, params, camp, games = VILLAGE[ruleset]
    rates = {}
    for skill in (0.0, 1.0):
        results = run(Spec(ruleset, players, tuple(params.items()), policy="heuristic", skill=skill), games, seed=7)
        rates[skill] = _rate(ruleset, results, camp)
    assert rates[1.0] - rates[0.0] > 0.1, rates


class _Mixed:
    """The heuristic for the players whose role is in ``roles``, random play for everyone else."""

    def __init__(self, ruleset: str, roles: set[str]) -> None:
        self.heuristic, self.random, self.roles = make_policy("heuristic", ruleset, 0.5), RandomPolicy(), roles

    def choose(self, view: View, legal_actions: list[Option], rng: random.Random) -> Action | None:
        return (self.heuristic if view.role in self.roles else self.random).choose(view, legal_actions, rng)


#: ruleset -> (players, the informed camp's roles, its camp, the least gain over random play)
INFORMED = {"killer_club": (10, {"killer"}, "killer", 0.1), "vampire_village": (13, {"vampire"}, "vampires", 0.2),
            "human_kill": (9, {"human", "reimu"}, "human", 0.1), "interview_vampire": (12, {"vampire", "criminal"}, "vampire", 0.03)}


@pytest.mark.parametrize("ruleset", sorted(INFORMED))
def test_the_heuristic_beats_random_play_for_the_informed_camp(ruleset: str) -> None:
    """Against random opponents, the camp that knows its team (killers, vampires, the humans of 人类杀)
    wins more often playing its heuristic than playing at random (300 games each, the same seeds)."""
    players, roles, camp, gain = INFORMED[ruleset]
    seeds = [game_seed(7, i) for i in range(300)]
    rates = []
    for policy in (RandomPolicy(), _Mixed(ruleset, roles)):
        results = [play_game(ruleset, players, {}, s, policy) for s in seeds]
        rates.append(sum(camp in r.winners for r in results) / len(results))
    assert rates[1] - rates[0] > gain, rates

"""Policies: how a simulated player chooses among his legal actions.

The interface (:class:`Policy`)::

    choose(view, legal_actions, rng) -> Action | None

``view`` (:class:`~forumbot.simulate.view.View`) is only what that player knows (his private
messages, the thread, the living seats, the table-talk :meth:`~forumbot.simulate.view.View.hunch`);
``legal_actions`` is :func:`~forumbot.simulate.actions.legal_actions` for him now, less the choices he
already made this phase (:data:`~forumbot.simulate.play.EXCLUSIVE`); ``rng`` is the game's policy
random source (seeded from the game's seed; draw from nothing else). Return one
:class:`~forumbot.simulate.actions.Action` (usually ``option.action(...)`` or ``option.sample(rng)``)
or None to do nothing more this phase. The simulator calls ``choose`` again after each action (a
vampire sucks, then converts, then votes) until it returns None or nothing is left. ``view.scratch``
is the player's memory for the current phase (emptied when a phase opens); ``view.memory`` lasts the
game.

Policies are made per game by :func:`make_policy` (name, ruleset, ``skill`` in 0..1: how well the
village reads the table talk). ``random`` plays uniformly random legal actions; ``heuristic`` is a
simple per-ruleset play in which each role uses what it knows (:data:`HEURISTICS`; rulesets without
their own fall back to :func:`generic_heuristic`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from forumbot.simulate.actions import Action, Option
from forumbot.simulate.view import View


class Policy(Protocol):
    """See the module docstring."""

    def choose(self, view: View, legal_actions: list[Option], rng: random.Random) -> Action | None:
        """One action of the player whose ``view`` this is, or None."""
        ...


class RandomPolicy:
    """Uniformly random legal play: a random option, filled at random (:meth:`Option.sample`); it
    acts on everything it may."""

    def choose(self, view: View, legal_actions: list[Option], rng: random.Random) -> Action | None:
        if not legal_actions:
            return None
        return rng.choice(legal_actions).sample(rng)


Heuristic = Callable[[View, list[Option], random.Random, float], Action | None]


def _named(view: View, names: list[str] | None) -> set[int]:
    players: list[str] = (view.last(f"{view.ruleset}/role") or {}).get("players", [])
    return {players.index(n) + 1 for n in names or () if n in players}


def teammates(view: View) -> set[int]:
    """Seats the viewer's role PM names as teammates (killers, police, vampires who know each other)."""
    return _named(view, (view.last(f"{view.ruleset}/role") or {}).get("teammates"))


def generic_heuristic(view: View, options: list[Option], rng: random.Random, skill: float) -> Action | None:
    """Each role uses what it knows, and no more: a night/role action never names a teammate; a vote
    goes to the table talk's :meth:`View.hunch` when it names someone votable, else to a random
    non-teammate; abstaining, withdrawing and self-harm are never chosen while anything else is."""
    if not options:
        return None
    mates = teammates(view)
    active = [o for o in options if o.key not in ("abstain", "withdraw", "selfkill", "cancel_weather")] or options
    o = active[0] if any(x.key.startswith("vote") for x in active[:1]) else rng.choice(active)
    if o.most == 0:
        return o.sample(rng)
    pool = [t for t in o.targets if t not in mates and t != view.seat] or list(o.targets)
    if o.key in ("vote", "vote_thread", "exorcise"):
        h = view.hunch(rng, skill)
        if h is not None and h in pool:
            return o.action((h,))
    if o.key in ("save", "guard"):
        pool = [t for t in o.targets if t == view.seat or t in mates] or list(o.targets)
    k = max(o.least, 1)
    if len(pool) < k:
        return o.sample(rng)
    return o.action(tuple(rng.sample(pool, k)))


def interview_vampire_heuristic(view: View, options: list[Option], rng: random.Random, skill: float) -> Action | None:
    """夜访吸血鬼: the play of the former ``interview_vampire_sim`` model. By night a vampire who may
    convert does so 60% of the time (one of last night's victims still alive), then sucks as many as
    he may among the living (never a player he converted), then, when the criminal vote is held,
    votes for one of them; a criminal sucks and votes the same way. By day a human votes for
    :meth:`View.hunch` (skill = the former ``accuracy``), everyone else for a random other player
    (never one he converted)."""
    by = {o.key: o for o in options}
    mine = {t for d in view.received("interview_vampire/convert_recorded") if not d.get("withdrawn")
            for t in _named(view, [d["target"]])}
    alive = view.alive
    s = view.scratch
    if "vote_thread" in by:
        if view.role == "human":
            h = view.hunch(rng, skill)
            if h is not None:
                return by["vote_thread"].action((h,))
        pool = [t for t in alive if t != view.seat and t not in mine] or [view.seat]
        return by["vote_thread"].action((rng.choice(pool),))
    converting = s.get("converting")
    if "convert" in by and "convert_decided" not in s:
        s["convert_decided"] = True
        if rng.random() < 0.6:
            pool = [t for t in by["convert"].targets if t not in mine]
            if pool:
                s["converting"] = converting = rng.choice(pool)
                return by["convert"].action((converting,))
    others = [t for t in alive if t != view.seat and t not in mine and t != converting]
    if "sucked" not in s and ("suck" in by or "suck_criminal" in by):
        s["sucked"] = True
        o = by.get("suck") or by["suck_criminal"]
        most = 1 if o.key == "suck_criminal" else 3 if converting else 2
        picks = rng.sample(others, min(most, len(others)))
        if picks:
            return o.action(tuple(picks))
    vote = by.get("crime_vote") or by.get("crime_vote_criminal")
    if vote is not None and others and "voted" not in s:
        s["voted"] = True
        return vote.action((rng.choice(others),))
    return None


#: ruleset id -> its heuristic
HEURISTICS: dict[str, Heuristic] = {"interview_vampire": interview_vampire_heuristic}


class HeuristicPolicy:
    """The ruleset's heuristic (:data:`HEURISTICS`, else :func:`generic_heuristic`) at ``skill``."""

    def __init__(self, ruleset: str, skill: float) -> None:
        self.skill = skill
        self.play = HEURISTICS.get(ruleset, generic_heuristic)

    def choose(self, view: View, legal_actions: list[Option], rng: random.Random) -> Action | None:
        return self.play(view, legal_actions, rng, self.skill)


#: policy name -> factory(ruleset, skill)
POLICIES: dict[str, Callable[[str, float], Policy]] = {
    "random": lambda ruleset, skill: RandomPolicy(),
    "heuristic": HeuristicPolicy,
}


def make_policy(name: str, ruleset: str, skill: float = 0.5) -> Policy:
    """The policy ``name`` for ``ruleset``; ValueError naming the known ones for an unknown name."""
    try:
        factory = POLICIES[name]
    except KeyError:
        raise ValueError(f"unknown policy {name!r}; known: {', '.join(POLICIES)}") from None
    return factory(ruleset, skill)

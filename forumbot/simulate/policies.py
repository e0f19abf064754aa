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

import functools
import random
from collections.abc import Callable
from typing import Any, Protocol

from forumbot.engine.ruleset import get_ruleset
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


@functools.cache
def _roles(ruleset: str) -> dict[str, str]:
    return get_ruleset(ruleset).roles


def _faction_of_check(ruleset: str, data: dict[str, Any]) -> str | None:
    """The camp a check result (a private message) shows, in the ruleset's faction ids, or None."""
    roles = _roles(ruleset)
    if "is_killer" in data:  # killer_club: killer or not (a helper shows "not", as the rulebook has it)
        return "killer" if data["is_killer"] else "police"
    shown = data.get("role") or data.get("seen")  # vampire_village: the role; human_kill: the camp
    if shown is None:
        return None
    return roles.get(str(shown), str(shown))


#: ruleset id -> the template keys of the private check results its roles receive
CHECK_RESULTS = {"killer_club": ("killer_club/check_result",), "vampire_village": ("vampire_village/seer_result",),
                 "human_kill": ("human_kill/check_result",)}


def known_camps(view: View) -> dict[int, str]:
    """Seat -> camp for every player whose camp the viewer has learnt from a check result sent to him
    (a police team's results go to every policeman) and for his teammates."""
    cached = view.memory.get("known_camps")
    if cached is not None and cached[0] == len(view.inbox):
        return cached[1]
    roles = _roles(view.ruleset)
    known: dict[int, str] = {}
    own = roles.get(view.role or "", view.role or "")
    for seat in teammates(view):
        known[seat] = own
    for key in CHECK_RESULTS.get(view.ruleset, ()):
        for data in view.received(key):
            camp = _faction_of_check(view.ruleset, data)
            for seat in _named(view, [data.get("target", "")]):
                if camp is not None:
                    known[seat] = camp
    view.memory["known_camps"] = (len(view.inbox), known)
    return known


def generic_heuristic(view: View, options: list[Option], rng: random.Random, skill: float) -> Action | None:
    """Each role uses what it knows, and no more (:func:`known_camps`: teammates and check results):

    - a vote goes to a living player known to be of a hostile camp, else to the table talk's
      :meth:`View.hunch` when votable, else to a random player not known to be a friend;
    - a check names a player whose camp he does not know yet; a kill, poison or shot names a known
      enemy when he knows one, else a random player not known to be a friend; a save or guard names
      himself or a known friend, else anyone;
    - abstaining, withdrawing and self-harm are never chosen while anything else is.
    """
    if not options:
        return None
    roles = _roles(view.ruleset)
    own = roles.get(view.role or "", view.role or "")
    known = known_camps(view)
    friends = {t for t, c in known.items() if c == own} | {view.seat}
    enemies = [t for t, c in known.items() if c != own and t in view.alive]
    active = [o for o in options if o.key not in ("abstain", "withdraw", "selfkill", "cancel_weather")] or options
    votes = [o for o in active if o.key in ("vote", "vote_thread", "exorcise")]
    o = votes[0] if votes else rng.choice(active)
    if o.most == 0:
        return o.sample(rng)
    k = max(o.least, 1)
    strangers = [t for t in o.targets if t not in friends]
    if o.key in ("vote", "vote_thread", "exorcise", "kill", "poison", "shoot", "choose", "take"):
        targets = [t for t in enemies if t in o.targets]
        if targets and k == 1:
            return o.action((rng.choice(targets),))
        if o.key in ("vote", "vote_thread", "exorcise"):
            h = view.hunch(rng, skill)
            if h is not None and h in o.targets and h not in friends:
                return o.action((h,))
        pool = strangers
    elif o.key == "check":
        pool = [t for t in o.targets if t not in known and t != view.seat]
    elif o.key in ("save", "guard", "successor", "link"):
        pool = [t for t in o.targets if t in friends] if o.key != "link" else list(o.targets)
    else:
        pool = strangers
    if len(pool) < k:
        pool = list(o.targets)
        if len(pool) < k:
            return None
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
    # a human bitten into a criminal is told so in his dawn report (no new role PM)
    criminal = any(d.get("criminal") for d in view.received("interview_vampire/dawn_report"))
    if "vote_thread" in by:
        if view.role == "human" and not criminal:
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

# the per-ruleset heuristics register themselves in HEURISTICS (imported last: they use this module)
import forumbot.simulate.heuristics  # noqa: E402,F401

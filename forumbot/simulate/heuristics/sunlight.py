"""sunlight (阳光下的罪恶): the choices that move the win index and the personal scores.

The rulebook's sums (阳光下的罪恶 as ``docs/sunlight.md`` implements it): a ballot names one or two living players, 3 points to the
first and 2 to the second; a good's score for a round is the points he gave the killer minus the points
he gave others; the killer's is 1.5·n minus the points he received; the win index is the goods' points
on the killer over all ballot points, and the goods win at or above the threshold (35%).

- A good who reads the killer (the table talk, :meth:`View.hunch`, with probability ``--skill``) names
  him alone: 3 points on the killer and none to anyone else, the best his score and the index can get.
  Without a read he names two living players at random (two chances to hit the killer; a wrong name
  costs him points but a single random name would hit less often).
- The killer always names two goods (five points in the denominator of the index every round), first
  the goods who have given him the most points in the public ballots (「公布投票时按照先后次序」: every
  ballot is posted), so that his readers are voted out.
- Kill round (「每次杀人轮杀1人」): the killer kills the good who has given him the most points (his best
  reader), at random among equals.
- A voted-out killer names as successor the good who has received the fewest points so far (the least
  suspected, so the killers' camp lasts).
- Clue poll: the killer votes "no clue"; a good votes for clue 1 (whether the player just voted out was
  the killer), else the lowest clue offered.

A good made killer (「如果凶手被投死，必须立即在幸存好人中指定一名接任凶手」: ``sunlight/you_are_killer``) plays as the killer from then on.
"""

from __future__ import annotations

import random
from collections import Counter

from forumbot.simulate.actions import Action, Option
from forumbot.simulate.heuristics.common import by_key, seat, seats
from forumbot.simulate.view import View


def _points(view: View) -> tuple[Counter[int], dict[int, Counter[int]]]:
    """From the public ballots: points received by each player, and for each player who gave points
    the points he gave each other player (3 to a first name, 2 to a second). The thread only grows: the
    sums are kept in ``view.memory`` and only the posts since the last call are read (do not modify them)."""
    empty: tuple[int, Counter[int], dict[int, Counter[int]]] = (0, Counter(), {})
    read, received, given = view.memory.get("_points") or empty
    if read == len(view.posts):
        return received, given
    for post in view.posts[read:]:
        if post.key != "sunlight/vote_result":
            continue
        for b in post.data.get("ballots") or ():
            if b.get("void"):
                continue
            voter = seat(view, b.get("voter"))
            for chosen, pts in zip(seats(view, b.get("choices") or []), (3, 2), strict=False):
                received[chosen] += pts
                if voter is not None:
                    given.setdefault(voter, Counter())[chosen] += pts
    view.memory["_points"] = (len(view.posts), received, given)
    return received, given


def is_killer(view: View) -> bool:
    """Is the viewer the killer now (dealt the role, or told he succeeded)?"""
    return view.role == "killer" or bool(view.received("sunlight/you_are_killer"))


def _readers(view: View, pool: list[int]) -> list[int]:
    """``pool`` ordered by the points each gave the viewer, most first (ties in seat order)."""
    _, given = _points(view)
    return sorted(pool, key=lambda t: -given.get(t, Counter())[view.seat])


def heuristic(view: View, options: list[Option], rng: random.Random, skill: float) -> Action | None:
    """One action of a sunlight player (see the module docstring); None when he is done."""
    by = by_key(options)
    killer = is_killer(view)
    if "successor" in by:
        received, _ = _points(view)
        pool = list(by["successor"].targets)
        low = min(received[t] for t in pool)
        return by["successor"].action((rng.choice([t for t in pool if received[t] == low]),))
    if "clue" in by:
        o = by["clue"]
        choices = [n for n in o.numbers if n]
        number = 0 if killer or not choices else (1 if 1 in choices else min(choices))
        return o.action((), number)
    if "kill" in by:
        pool = list(by["kill"].targets)
        _, given = _points(view)
        top = max(given.get(t, Counter())[view.seat] for t in pool)
        return by["kill"].action((rng.choice([t for t in pool if given.get(t, Counter())[view.seat] == top]),))
    if "vote" in by:
        o = by["vote"]
        pool = [t for t in o.targets if t != view.seat]
        if not pool:
            return None
        if killer:
            _, given = _points(view)
            rng.shuffle(pool)
            ranked = sorted(pool, key=lambda t: -given.get(t, Counter())[view.seat])
            return o.action(tuple(ranked[:max(o.most, 1)]))
        h = view.hunch(rng, skill)
        if h is not None and h in pool:
            return o.action((h,))
        return o.action(tuple(rng.sample(pool, min(max(o.most, 1), len(pool)))))
    return None

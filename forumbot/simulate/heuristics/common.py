"""What the per-ruleset heuristics share: reading names in messages, the noisy suspicion, and the
public ballots.

Everything here reads only a player's :class:`~forumbot.simulate.view.View` (his own private messages and
the thread) and the table-talk model :meth:`~forumbot.simulate.view.View.hunch`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from typing import Any

from forumbot.simulate.actions import Action, Option
from forumbot.simulate.policies import known_camps
from forumbot.simulate.view import View


def seats(view: View, names: Iterable[str | None]) -> list[int]:
    """The seats of ``names`` (player names as the judge wrote them), by the roster of the player's role
    PM (``<ruleset>/role``'s ``players``); unknown names are left out."""
    roster = view.memory.get("_roster")
    if roster is None:
        players = (view.last(f"{view.ruleset}/role") or {}).get("players") or []
        roster = view.memory["_roster"] = {n: i + 1 for i, n in enumerate(players)}
    return [roster[n] for n in names if n is not None and n in roster]


def seat(view: View, name: str | None) -> int | None:
    """The seat of one name, or None."""
    found = seats(view, [name])
    return found[0] if found else None


def camp_of_role(view: View, role: str | None) -> str:
    """The camp (faction id) of ``role`` in the view's ruleset."""
    from forumbot.simulate.policies import _roles

    return _roles(view.ruleset).get(role or "", role or "")


def friends_and_enemies(view: View, own_camp: str | None = None) -> tuple[set[int], list[int]]:
    """(friends, living enemies) by what the player knows (:func:`~forumbot.simulate.policies.known_camps`:
    teammates named in his role PM and check results sent to him). Friends include himself."""
    own = own_camp or camp_of_role(view, view.role)
    known = known_camps(view)
    friends = {t for t, c in known.items() if c == own} | {view.seat}
    enemies = [t for t, c in known.items() if c != own and t in view.alive]
    return friends, enemies


def suspect(view: View, targets: Iterable[int], rng: random.Random, skill: float, *,
            friends: set[int] | frozenset[int] = frozenset(), enemies: Iterable[int] = (), prefer: Iterable[int] = ()) -> int | None:
    """The noisy suspicion a vote follows: a known enemy among ``targets`` (what his checks or his team
    told him), else the first of ``prefer`` that is a target (the heuristic's own reading of public
    facts), else the table talk (:meth:`View.hunch`: a real enemy with probability ``skill``), else a
    random target not known to be a friend. None when ``targets`` is empty."""
    pool = [t for t in targets]
    if not pool:
        return None
    known = [t for t in enemies if t in pool]
    if known:
        return rng.choice(known)
    for t in prefer:
        if t in pool and t not in friends:
            return t
    h = view.hunch(rng, skill)
    if h is not None and h in pool and h not in friends:
        return h
    strangers = [t for t in pool if t not in friends]
    return rng.choice(strangers or pool)


def public_ballots(view: View, key: str, *, field: str = "choice") -> list[tuple[int, list[int]]]:
    """Every ballot of the thread's posts ``key`` (a vote result), oldest first, as (voter, chosen seats).
    ``field``: the ballot's name field ("choice" for one name, "choices" for a list, "target"). Read
    once a post: the thread only grows, so the ballots of the posts already read are kept in ``view.memory``
    (do not modify the list returned)."""
    seen = view.memory.setdefault(f"_ballots:{key}:{field}", [0, []])
    read, out = seen
    if read == len(view.posts):
        return out
    seen[0] = len(view.posts)
    for post in view.posts[read:]:
        if post.key != key:
            continue
        for b in post.data.get("ballots") or ():
            voter = seat(view, b.get("voter"))
            value: Any = b.get(field)
            chosen = seats(view, value if isinstance(value, list) else [value])
            if voter is not None and chosen:
                out.append((voter, chosen))
    return out


def accusers(view: View, key: str, accused: set[int], *, field: str = "choice") -> Counter[int]:
    """How often each player voted, in the public ballots of ``key``, for one of ``accused``."""
    c: Counter[int] = Counter()
    for voter, chosen in public_ballots(view, key, field=field):
        if voter not in accused and set(chosen) & accused:
            c[voter] += 1
    return c


def by_key(options: list[Option]) -> dict[str, Option]:
    """Options by help entry key."""
    return {o.key: o for o in options}


def one(option: Option, target: int | None) -> Action | None:
    """``option`` naming ``target`` (None: no action)."""
    return None if target is None else option.action((target,))

"""vampire_village (吸血鬼村莊): each role's powers, used on what that player knows.

- Vampires (「商討之后選擇任意一個玩家將其殺死」: they know each other) agree on one kill a night — the first vampire to act orders, the others
  see the relayed order and leave it — never a teammate (lovers never target each other: the
  simulator's legal actions), and avoid likely saves: the guard protects one player a night, not the
  same player two nights running (「不能連續兩晚守護同一個人」), and the witch's antidote is good once, so a player the vampires
  attacked last night who did not die was protected and cannot be guarded again tonight: they strike
  him again. Otherwise they leave the sheriff alone (the guard's likely charge) and take first the
  player who has voted most often for a vampire in the public ballots (a likely seer), else anyone.
  They never kill themselves (自殺 is a last resort the heuristic does not play).
- The seer (預言家, 「每晚可以確認一個人的真實身份」) checks a player whose role she does not know; she and every
  villager vote for a known vampire, never a known villager, else follow the table talk
  (:func:`~forumbot.simulate.heuristics.common.suspect`, ``--skill``).
- The witch (女巫, 「有一瓶毒藥和一瓶解藥」, each once, 「一個晚上只能最多使用一次藥」) saves the victim she is told of; she poisons only a player the
  table talk names (she knows no one), from night 2.
- The guard (守衛) protects the sheriff when the rule allows (not two nights running), else himself.
- The hunter (獵人) shoots, when he dies, a known vampire or the table talk's pick; with no read he
  holds his shot (a random shot hits the village more often than not).
- Cupid (丘比特) links himself and a random player; the piper (吹笛者) charms players not yet charmed by
  him; a dead sheriff (警長) passes the badge to a known friend, else to a player he does not suspect.
"""

from __future__ import annotations

import random
from collections import Counter

from forumbot.simulate.actions import Action, Option
from forumbot.simulate.heuristics.common import accusers, by_key, friends_and_enemies, one, seat, seats, suspect
from forumbot.simulate.view import View

VOTE_RESULT = "vampire_village/vote_result"


def _sheriff(view: View) -> int | None:
    for post in reversed(view.posts):
        if "sheriff" in post.data:
            return seat(view, post.data.get("sheriff"))
    return None


def _orders(view: View) -> dict[int, int]:
    """round -> the vampires' standing kill order, as this vampire was told."""
    out: dict[int, int] = {}
    for msg in view.inbox:
        d = msg.data
        if msg.key == "vampire_village/relayed" and d.get("verb") == "kill":
            t = seat(view, d.get("target"))
        elif msg.key == "vampire_village/recorded" and d.get("verb") == "kill":
            t = next(iter(seats(view, d.get("targets") or [])), None)
        else:
            continue
        if t is not None and d.get("round") is not None:
            out[int(d["round"])] = t
    return out


def _dead_by_round(view: View) -> dict[int, set[int]]:
    return {int(p.data["round"]): set(seats(view, [x.get("name") for x in p.data.get("dead") or ()]))
            for p in view.posts if p.key == "vampire_village/day_open"}


def _kill(view: View, o: Option, rng: random.Random, friends: set[int]) -> Action | None:
    orders = _orders(view)
    rnd = view.phase[1]
    if rnd in orders:
        return None
    pool = [t for t in o.targets if t not in friends]
    if not pool:
        return None
    last = orders.get(rnd - 1)
    dead = _dead_by_round(view)
    if last is not None and last in pool and rnd - 1 in dead and last not in dead[rnd - 1]:
        return o.action((last,))  # protected last night: the guard may not repeat, the antidote is spent or used
    sheriff = _sheriff(view)
    pool = [t for t in pool if t != sheriff] or pool
    accusing = accusers(view, VOTE_RESULT, friends)
    top = max((accusing[t] for t in pool), default=0)
    if top:
        pool = [t for t in pool if accusing[t] == top]
    return o.action((rng.choice(pool),))


def heuristic(view: View, options: list[Option], rng: random.Random, skill: float) -> Action | None:
    """One action of a vampire_village player (see the module docstring); None when he is done."""
    by = by_key(options)
    role = view.role
    friends, enemies = friends_and_enemies(view)
    s = view.scratch
    if "link" in by:
        others = [t for t in by["link"].targets if t != view.seat]
        return by["link"].action((view.seat, rng.choice(others))) if others else None
    if "kill" in by:
        return _kill(view, by["kill"], rng, friends)
    if "check" in by:
        known = friends | {t for t, _ in Counter(seats(view, [d.get("target") for d in
                                                             view.received("vampire_village/seer_result")])).items()}
        pool = [t for t in by["check"].targets if t not in known]
        return one(by["check"], rng.choice(pool)) if pool else None
    if "guard" in by:
        targets = by["guard"].targets
        sheriff = _sheriff(view)
        pick = sheriff if sheriff in targets else view.seat if view.seat in targets else None
        return one(by["guard"], pick if pick is not None else rng.choice(targets))
    if "save" in by or "poison" in by:
        if "save" in by and by["save"].targets:
            return one(by["save"], by["save"].targets[0])
        if "poison" in by and view.phase[1] >= 2 and "poison_thought" not in s:
            s["poison_thought"] = True
            pool = [t for t in by["poison"].targets if t not in friends]
            h = view.hunch(rng, skill)
            target = next((t for t in enemies if t in pool), h if h in pool else None)
            return one(by["poison"], target)
        return None
    if "shoot" in by:
        pool = [t for t in by["shoot"].targets if t not in friends]
        h = view.hunch(rng, skill)
        return one(by["shoot"], next((t for t in enemies if t in pool), h if h in pool else None))
    if "charm" in by:
        charmed = set(view.memory.setdefault("charmed", set()))
        pool = [t for t in by["charm"].targets if t not in charmed and t != view.seat]
        if not pool:
            return None
        picks = tuple(rng.sample(pool, min(2, len(pool))))
        view.memory["charmed"] = charmed | set(picks)
        return by["charm"].action(picks)
    if "successor" in by:
        targets = by["successor"].targets
        pool = [t for t in targets if t in friends and t != view.seat]
        if not pool:
            suspected = view.hunch(rng, skill) if role != "vampire" else None
            pool = [t for t in targets if t != suspected]
        return one(by["successor"], rng.choice(pool or list(targets)))
    if "vote" in by:
        o = by["vote"]
        prefer: list[int] = []
        if role == "vampire":
            prefer = [t for t, _ in accusers(view, VOTE_RESULT, friends).most_common()]
        return one(o, suspect(view, o.targets, rng, skill, friends=friends, enemies=enemies, prefer=prefer))
    return None

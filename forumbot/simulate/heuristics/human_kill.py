"""human_kill (人类杀, a reverse werewolf): the informed minority is the humans.

- Humans (普通人类 and 博丽灵梦: 「所有该阵营玩家可以互相确认彼此身份，然后进行讨论」, then
  「人类阵营玩家共同投票选出一名任意未出局玩家并将其退治」) exorcise by day with their team: the first to ballot
  picks a living player outside the team — the table talk's pick (:meth:`View.hunch`) when it gives one,
  else at random — and the others follow the ballot relayed to them (the bot relays each ballot to the
  other humans, ``docs/human_kill.md``), so the team's votes never split. At night's banishment every
  human votes for the player the team named that day while he lives, else for the lowest-numbered
  living player outside the team (a convention a team that knows itself can keep). Reimu names for her take (带走) a player outside the team.
- 森近霖之助 (Rinnosuke, a human no one knows) and every youkai follow the noisy suspicion
  (:func:`~forumbot.simulate.heuristics.common.suspect`, ``--skill``); no one ever abstains.
- 蕾米莉亚 (Remilia) checks a player whose side she does not know and votes for the humans she found.
- 八云紫 (Yukari), told the day's exorcism target when it would succeed, saves him with her one save (the
  humans' target is most likely a youkai); her one border of death (境界) takes the table talk's pick when
  it gives one.
- 二岩猯藏 (Mamizou) disguises a random other player (not the same two days running: the legal actions).
- 风见幽香 (Yuuka) names for her take the table talk's pick, else a random other player, once.
- Nobody votes for a banished Utsuho (revealed, she counts as alive but cannot be voted for:
  ``docs/human_kill.md`` § Roles).
- 哆来咪 (Doremy) dreams players not yet in a nightmare; 水桥帕露西 (Parsee) votes at random.
"""

from __future__ import annotations

import random
from dataclasses import replace

from forumbot.simulate.actions import Action, Option
from forumbot.simulate.heuristics.common import by_key, friends_and_enemies, one, seat, seats, suspect
from forumbot.simulate.view import View

TEAM = ("human", "reimu")


def _team_target(view: View) -> int | None:
    """Today's exorcism target of the human team: the result if told, else the first relayed or own ballot."""
    rnd = view.phase[1]
    for d in view.received("human_kill/exorcise_result"):
        if d.get("round") == rnd and d.get("target"):
            return seat(view, d["target"])
    for msg in view.inbox:
        if msg.data.get("round") != rnd:
            continue
        if msg.key == "human_kill/relayed" or (msg.key == "human_kill/recorded" and msg.data.get("action") == "exorcise"):
            t = seat(view, msg.data.get("target"))
            if t is not None:
                return t
    return None


def _sealed(view: View) -> set[int]:
    """A banished 灵乌路空 (Utsuho) stays in the game but may not be voted for: the banish post reveals her."""
    return {t for p in view.posts if p.key == "human_kill/banish_result" and p.data.get("utsuho")
            for t in seats(view, [p.data.get("chosen")])}


def heuristic(view: View, options: list[Option], rng: random.Random, skill: float) -> Action | None:
    """One action of a human_kill player (see the module docstring); None when he is done."""
    by = by_key(options)
    role = view.role
    friends, enemies = friends_and_enemies(view)
    team = role in TEAM
    s = view.scratch
    if "take" in by and "took" not in view.memory:
        view.memory["took"] = True
        pool = [t for t in by["take"].targets if t not in friends]
        h = None if team else view.hunch(rng, skill)
        return one(by["take"], h if h in pool else rng.choice(pool) if pool else None)
    if "exorcise" in by:
        o = by["exorcise"]
        t = _team_target(view)
        if t is None or t not in o.targets:
            pool = [x for x in o.targets if x not in friends]
            h = view.hunch(rng, skill)
            t = h if h in pool else rng.choice(pool) if pool else None
        return one(o, t)
    if "check" in by:
        known = friends | set(seats(view, [d.get("target") for d in view.received("human_kill/check_result")]))
        pool = [t for t in by["check"].targets if t not in known]
        return one(by["check"], rng.choice(pool or list(by["check"].targets)))
    if "save" in by or "kill" in by:  # Yukari's phase
        if "save" in by and by["save"].targets and "yukari" not in s:
            s["yukari"] = True
            return one(by["save"], by["save"].targets[0])
        if "kill" in by and "yukari" not in s:
            s["yukari"] = True
            h = view.hunch(rng, skill)
            return one(by["kill"], next((t for t in enemies if t in by["kill"].targets), h if h in by["kill"].targets else None))
        return None
    if "disguise" in by:
        pool = [t for t in by["disguise"].targets if t != view.seat]
        return one(by["disguise"], rng.choice(pool)) if pool else None
    if "dream" in by:
        dreamt = view.memory.setdefault("dreamt", set())
        pool = [t for t in by["dream"].targets if t not in dreamt and t != view.seat] or \
            [t for t in by["dream"].targets if t != view.seat]
        picks = tuple(rng.sample(pool, min(2, len(pool))))
        dreamt.update(picks)
        return by["dream"].action(picks) if picks else None
    if "vote" in by:
        o = by["vote"]
        sealed = _sealed(view)
        if sealed:
            o = replace(o, targets=tuple(t for t in o.targets if t not in sealed))
            if not o.targets:
                return None
        if team and view.phase[0] in ("banish", "banish_runoff"):
            t = _team_target(view)
            if t is None or t not in o.targets:
                outside = sorted(x for x in o.targets if x not in friends)
                t = outside[0] if outside else None
            if t is not None:
                return one(o, t)
        return one(o, suspect(view, o.targets, rng, skill, friends=friends, enemies=enemies))
    # anything else (a sage's order, Iku's weather, a successor): the first option, filled at random
    active = [o for o in options if o.key not in ("abstain", "withdraw")]
    return rng.choice(active).sample(rng) if active else None

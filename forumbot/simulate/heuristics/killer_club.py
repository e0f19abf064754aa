"""killer_club (club 殺人遊戲: 殺手 / 警察 / 護士 / 殺助 / 水民): each role plays what the rulebook gives it.

- Killers (「殺手互相知道身份」): the team agrees on one kill a night — the first killer to act orders, the
  others see the relayed order and leave it. The target is never a teammate nor last night's target
  (the rule against the same target two nights running), and avoids likely saves: a player the killers
  ordered before and who survived that night was saved by the nurse (「若暗殺的人被護士所救，則此人不死」), who
  saves him again when she may, so he is left alone while another is available. Among the rest the
  killers take first the player who has voted most often for a killer in the public ballots (he is
  likely police: 「警察殺殺手還是要靠投票」), else anyone. By day they vote for a non-killer (the player
  who voted for killers most, else the table talk's pick, else at random).
- Police (「警察每輪…指認一個人，法官會告訴警察此人是不是殺手」): the team's check names a player whose side
  it does not know; by day they vote for a known killer, never for a known non-killer, else follow the
  table talk.
- The helper (「殺助…指認一人，法官會…告訴此人是不是殺手」) checks unknown players and then votes as a
  killer would, never for one he found to be a killer.
- The nurse (「護士也可以救自己」; not the same player two nights running) asks whether one player is
  police, then saves a policeman she has found, else herself, else the player she asked about.
- Civilians vote by the noisy suspicion (:func:`~forumbot.simulate.heuristics.common.suspect`:
  ``--skill``). A night's victim choosing among the tied (the third tie) names the one he suspects.
"""

from __future__ import annotations

import random

from forumbot.simulate.actions import Action, Option
from forumbot.simulate.heuristics.common import accusers, by_key, friends_and_enemies, one, seat, suspect
from forumbot.simulate.policies import known_camps
from forumbot.simulate.view import View

VOTE_RESULT = "killer_club/vote_result"


def _orders(view: View) -> dict[int, int]:
    """round -> the killers' standing order of that round, as the killer was told (his own orders and
    his teammates' relayed ones, the last of a round standing)."""
    out: dict[int, int] = {}
    for msg in view.inbox:
        if msg.key in ("killer_club/order_recorded", "killer_club/order_relayed") and msg.data.get("verb") == "kill":
            target = seat(view, msg.data.get("target"))
            if target is not None and msg.data.get("round") is not None:
                out[int(msg.data["round"])] = target
    return out


def _saved(view: View, orders: dict[int, int]) -> set[int]:
    """Players the killers ordered and who did not die that night (the day post names the victim)."""
    victims = {int(p.data["round"]): p.data.get("victim") for p in view.posts if p.key == "killer_club/day_open"}
    return {t for r, t in orders.items() if r in victims and victims[r] is None}


def _kill(view: View, o: Option, rng: random.Random, friends: set[int]) -> Action | None:
    orders = _orders(view)
    rnd = view.phase[1]
    if rnd in orders:
        return None  # the team's order stands
    banned = {orders.get(rnd - 1)}
    pool = [t for t in o.targets if t not in friends and t not in banned]
    if not pool:
        return None
    saved = _saved(view, orders)
    pool = [t for t in pool if t not in saved] or pool
    accusing = accusers(view, VOTE_RESULT, friends)
    top = max((accusing[t] for t in pool), default=0)
    if top:
        pool = [t for t in pool if accusing[t] == top]
    return o.action((rng.choice(pool),))


def _nurse(view: View, by: dict[str, Option], rng: random.Random) -> Action | None:
    police = [seat(view, d.get("target")) for d in view.received("killer_club/ask_result") if d.get("is_police")]
    asked = {seat(view, d.get("target")) for d in view.received("killer_club/ask_result")}
    s = view.scratch
    if "ask" in by and "asked" not in s:
        s["asked"] = True
        pool = [t for t in by["ask"].targets if t not in asked and t != view.seat]
        if pool:
            return by["ask"].action((rng.choice(pool),))
    if "save" in by and "saved" not in s:
        s["saved"] = True
        last = view.memory.get("last_save")
        rnd = view.phase[1]
        allowed = [t for t in by["save"].targets if not (last and last[0] == rnd - 1 and last[1] == t)]
        today = [d for d in view.received("killer_club/ask_result") if d.get("round") == rnd]
        pick = next((t for t in police if t in allowed), None)
        if pick is None and view.seat in allowed:
            pick = view.seat
        if pick is None and today and seat(view, today[-1].get("target")) in allowed:
            pick = seat(view, today[-1].get("target"))
        if pick is None and allowed:
            pick = rng.choice(allowed)
        if pick is not None:
            view.memory["last_save"] = (rnd, pick)
            return by["save"].action((pick,))
    return None


def heuristic(view: View, options: list[Option], rng: random.Random, skill: float) -> Action | None:
    """One action of a killer_club player (see the module docstring); None when he is done."""
    by = by_key(options)
    role = view.role
    friends, enemies = friends_and_enemies(view)
    if role == "nurse":
        return _nurse(view, by, rng)
    if "check" in by:
        known = set(friends) | set(known_camps(view))
        pool = [t for t in by["check"].targets if t not in known]
        return by["check"].action((rng.choice(pool or list(by["check"].targets)),))
    if "kill" in by:
        return _kill(view, by["kill"], rng, friends)
    vote = by.get("vote") or by.get("choose")
    if vote is None:
        return None
    if role in ("killer", "helper"):
        prefer = [t for t, _ in accusers(view, VOTE_RESULT, friends).most_common()]
        return one(vote, suspect(view, vote.targets, rng, skill, friends=friends, enemies=enemies, prefer=prefer))
    return one(vote, suspect(view, vote.targets, rng, skill, friends=friends, enemies=enemies))

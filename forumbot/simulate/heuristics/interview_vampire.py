"""interview_vampire (夜访吸血鬼): vampires who feed, kill and convert on purpose; humans who vote by the
table talk.

The rulebook's night (夜访吸血鬼 as ``docs/interview_vampire.md`` implements it): a
vampire needs two successful sucks a night (three when converting), hungry ``starve_nights`` nights
running he starves; a target named by two biters fails for both; a biter whose names tonight and last
night share exactly one player, sucked successfully both nights, kills him; sucking a vampire is a
crime (he turns criminal); a conversion names one of last night's victims.

- A vampire knows the players he converted (``convert_recorded``): he never sucks them (a crime) nor
  votes for them. When he fed last night (``dawn_report``: both sucks took) and one of last night's
  names still lives, he repeats exactly that one and adds a fresh name — a kill
  (「同一个吸血鬼连续两夜吸同一个人的血成功，就可以杀死这个人」, 「如AB-BC，则B将被杀死」). When he did not feed although he named two, another biter hit one of his
  names (「不能和其它吸血鬼…撞车，否则同样视为吸血失败」: the collision he can foresee): that biter may repeat it tonight, so he avoids last night's
  names. He converts when the rules let him (the legal actions) on his first chance, then one chance in
  three, and sucks three others that night.
- A criminal sucks one player, repeating last night's when he fed (a kill), never one he converted.
- The criminal vote (every night once a criminal appears): a random living player he did not convert.
- By day a human votes by the noisy suspicion (:func:`~forumbot.simulate.heuristics.common.suspect`:
  the table talk names a living vampire or criminal with probability ``--skill``); a vampire or a
  criminal votes for a random living player other than himself and his converts.
"""

from __future__ import annotations

import random

from forumbot.simulate.actions import Action, Option
from forumbot.simulate.heuristics.common import by_key, seats, suspect
from forumbot.simulate.view import View


def _converted(view: View) -> set[int]:
    return {t for d in view.received("interview_vampire/convert_recorded") if not d.get("withdrawn")
            for t in seats(view, [d.get("target")])}


def _last_night(view: View) -> tuple[list[int], bool | None]:
    """Last night's sucks as sent (the last ``suck_recorded`` of the previous round) and whether he fed."""
    rnd = view.phase[1]
    names: list[int] = []
    for d in view.received("interview_vampire/suck_recorded"):
        if d.get("round") == rnd - 1:
            names = seats(view, d.get("targets") or [])
    fed = None
    for d in view.received("interview_vampire/dawn_report"):
        if d.get("round") == rnd - 1:
            fed = d.get("fed")
    return names, fed


def heuristic(view: View, options: list[Option], rng: random.Random, skill: float) -> Action | None:
    """One action of an interview_vampire player (see the module docstring); None when he is done."""
    by = by_key(options)
    mine = _converted(view)
    alive = view.alive
    s = view.scratch
    criminal = view.role == "criminal" or any(d.get("criminal") for d in view.received("interview_vampire/dawn_report"))
    if "vote_thread" in by:
        o = by["vote_thread"]
        if view.role == "human" and not criminal:
            return o.action((suspect(view, o.targets, rng, skill, friends={view.seat}) or o.targets[0],))
        pool = [t for t in o.targets if t not in mine] or list(o.targets)
        return o.action((rng.choice(pool),))
    if "convert" in by and "convert_decided" not in s:
        s["convert_decided"] = True
        pool = [t for t in by["convert"].targets if t not in mine]
        if pool and (not mine or rng.random() < 1 / 3):
            s["converting"] = rng.choice(pool)
            return by["convert"].action((s["converting"],))
    converting = s.get("converting")
    suck = by.get("suck") or by.get("suck_criminal")
    if suck is not None and "sucked" not in s:
        s["sucked"] = True
        most = 1 if suck.key == "suck_criminal" else 3 if converting else 2
        last, fed = _last_night(view)
        others = [t for t in suck.targets if t != view.seat and t not in mine and t != converting]
        fresh = [t for t in others if t not in last]
        picks: list[int] = []
        if not converting and fed and last:
            repeat = [t for t in last if t in others]
            if repeat:
                picks.append(rng.choice(repeat))
        elif fed is False and len(last) >= (1 if suck.key == "suck_criminal" else 2):
            others = fresh or others  # someone else bit one of his names: he may come back to it
        pool = [t for t in (fresh if picks else others) if t not in picks]
        picks += rng.sample(pool, min(most - len(picks), len(pool)))
        if picks:
            return suck.action(tuple(picks))
    vote = by.get("crime_vote") or by.get("crime_vote_criminal")
    if vote is not None and "voted" not in s:
        s["voted"] = True
        pool = [t for t in vote.targets if t in alive and t != view.seat and t not in mine and t != converting]
        if pool:
            return vote.action((rng.choice(pool),))
    return None

"""A seeded simulator for interview_vampire's open parameters (the text asks for them to be calculated:
2 or 3 hungry nights, 4 day executions, the 1/4 share): it plays many random games through the real
engine for each parameter choice and reports how often each side wins.

Run it with ``python -m forumbot.rulesets.interview_vampire_sim [--games N] [--seed S]``; the figures in
``docs/interview_vampire.md`` come from it. The play model is deliberately simple (see :class:`Model`), so
the figures compare parameter choices under the same play rather than predict real games.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from forumbot.engine.game import Game, Setup
from forumbot.engine.types import Deadline, Step
from forumbot.language.types import Command
from forumbot.rulesets.interview_vampire import InterviewVampire


@dataclass(frozen=True)
class Model:
    """How the simulated players play.

    ``accuracy``: the chance that a human's day vote goes to a living vampire or criminal (what talk
    and hints give away) rather than to a random other player. ``convert``: the chance that a vampire
    who may convert does. Vampires never suck the players they converted; everyone else is a random
    pick among the living. Criminal votes are random (nobody knows who the criminals are).
    """

    accuracy: float = 0.3
    convert: float = 0.6


def play_one(params: dict[str, Any], seed: int, players: int = 12, model: Model = Model()) -> dict[str, Any]:
    """One game with ``params`` and the draw from ``seed``; returns its result: ``winner``, ``nights``,
    ``criminals`` (ever made), ``conversions``."""
    g = Game(Setup("interview_vampire", tuple(f"p{i}" for i in range(players)), params=params, seed=seed))
    g.start()
    iv = g.ruleset
    assert isinstance(iv, InterviewVampire)
    rnd = random.Random(f"sim:{seed}")
    g.apply(Deadline(g.phase.id))
    while not g.finished:
        out = Step()
        alive = g.alive()
        if g.phase.kind == "night":
            for b in iv.biters():
                mine = set(iv.converted.get(b, []))
                others = [s for s in alive if s != b and s not in mine]
                role = g.player(b).role
                last = iv.last_night.get(b)
                most = 1 if role == "criminal" else 2
                if (role == "vampire" and last and last["round"] == g.phase.round - 1 and last["fed"]
                        and not last["converting"] and rnd.random() < model.convert):
                    pool = [t for t in last["names"] if g.player(t).alive and t not in mine]
                    if pool:
                        target = rnd.choice(pool)
                        iv.on_command(b, Command("convert", (target,)), out)
                        others = [s for s in others if s != target]
                        most = 3
                picks = rnd.sample(others, min(most, len(others)))
                if picks:
                    iv.on_command(b, Command("suck", tuple(picks)), out)
                if iv.crime_vote is not None and others:
                    iv.on_command(b, Command("vote", (rnd.choice(others),)), out)
        elif g.phase.kind == "day":
            biters = [s for s in alive if g.player(s).role in ("vampire", "criminal")]
            for v in alive:
                role = g.player(v).role
                if role == "human" and biters and rnd.random() < model.accuracy:
                    target = rnd.choice(biters)
                else:
                    mine = set(iv.converted.get(v, []))
                    pool = [s for s in alive if s != v and s not in mine] or [v]
                    target = rnd.choice(pool)
                iv._day_vote(v, Command("vote", (target,)), out)
        g.apply(Deadline(g.phase.id))
    winner = g.winner
    return {"winner": "both" if isinstance(winner, list) else winner, "nights": len(iv.nights),
            "criminals": len(iv.ever_criminals), "conversions": sum(len(v) for v in iv.converted.values()),
            "criminals_won": sum(1 for p in g.players if p.role == "criminal" and iv.won(p.seat))}


def simulate(params: dict[str, Any], games: int = 500, seed: int = 0, players: Iterable[int] = (12, 13),
             model: Model = Model()) -> dict[str, Any]:
    """Win rates over ``games`` games for each player count in turn: the share of games won by the humans
    alone, the vampires alone, both, the criminals alone, and drawn; the share of games in which some
    criminal won; the mean number of nights, criminals and conversions."""
    counts: Counter[str] = Counter()
    nights = criminals = conversions = crim_won = 0
    sizes = list(players)
    for i in range(games):
        r = play_one(params, seed * 1_000_003 + i, sizes[i % len(sizes)], model)
        counts[r["winner"]] += 1
        nights += r["nights"]
        criminals += r["criminals"]
        conversions += r["conversions"]
        crim_won += r["criminals_won"] > 0
    share = {k: counts[k] / games for k in ("human", "vampire", "both", "criminal", "draw")}
    return {**share, "criminal_wins_any": crim_won / games, "nights": nights / games,
            "criminals": criminals / games, "conversions": conversions / games}


#: The parameter choices the text leaves open, each against the README's defaults.
CHOICES: list[tuple[str, dict[str, Any]]] = [
    ("default: starve 2, 4 executions, final rule", {}),
    ("starve 3", {"starve_nights": 3}),
    ("3 executions", {"human_executions": 3}),
    ("5 executions", {"human_executions": 5}),
    ("text rule 1/4, 2 dawns, 3 night executions", {"vampire_rule": "text"}),
    ("text rule 1/4, starve 3", {"vampire_rule": "text", "starve_nights": 3}),
    ("text rule 1/5", {"vampire_rule": "text", "vampire_share": 0.2}),
    ("text rule 1/3", {"vampire_rule": "text", "vampire_share": 1 / 3}),
    ("text rule 1/4, 1 dawn", {"vampire_rule": "text", "hold_dawns": 1}),
]


def table(games: int = 500, seed: int = 0, model: Model = Model()) -> str:
    """A Markdown table of :func:`simulate` for every choice in :data:`CHOICES`."""
    lines = ["| parameters | humans | vampires | both | criminals alone | draw | a criminal wins | nights | criminals | conversions |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for label, params in CHOICES:
        r = simulate(params, games, seed, model=model)
        lines.append(f"| {label} | {r['human']:.0%} | {r['vampire']:.0%} | {r['both']:.0%} | {r['criminal']:.0%} | "
                     f"{r['draw']:.0%} | {r['criminal_wins_any']:.0%} | {r['nights']:.1f} | {r['criminals']:.2f} | "
                     f"{r['conversions']:.2f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=500, help="games per parameter choice (12 and 13 players alternately)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--accuracy", type=float, nargs="*", default=[0.2, 0.4],
                    help="humans' day-vote accuracy (one table each)")
    args = ap.parse_args(argv)
    for acc in args.accuracy:
        print(f"\nhumans' day-vote accuracy {acc:.0%}, {args.games} games per row, seed {args.seed}\n")
        print(table(args.games, args.seed, Model(accuracy=acc)))


if __name__ == "__main__":
    main()

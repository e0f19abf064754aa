"""The table of ``docs/interview_vampire.md`` (夜访吸血鬼's open parameters: 2 or 3 hungry nights, 4 day
executions, the 1/4 share), played by the simulator with the former ``interview_vampire_sim`` model
(:func:`~forumbot.simulate.policies.interview_vampire_heuristic`; the humans' day-vote *accuracy* is its
skill), kept so that the table stays as documented; the ``heuristic`` policy of interview_vampire is the
refined play of :mod:`forumbot.simulate.heuristics.interview_vampire`.

Game ``i`` of a row has seed ``S × 1,000,003 + i`` and 12 or 13 players alternately, as before. Run it
with ``python -m forumbot.simulate.interview_vampire_table [--games N] [--seed S] [--accuracy A ...]``.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Iterable
from typing import Any

from forumbot.simulate.play import play_game
from forumbot.simulate.policies import HeuristicPolicy, interview_vampire_heuristic
from forumbot.simulate.run import game_seed


def simulate(params: dict[str, Any], games: int = 500, seed: int = 0, players: Iterable[int] = (12, 13),
             accuracy: float = 0.3) -> dict[str, Any]:
    """Shares over ``games`` games (player counts in turn) won by the humans alone, the vampires alone,
    both, the criminals alone, and none ("draw"); the share in which some criminal won; the mean
    number of nights, criminals made and conversions."""
    counts: Counter[str] = Counter()
    sums: Counter[str] = Counter()
    sizes = list(players)
    policy = HeuristicPolicy("interview_vampire", accuracy)
    policy.play = interview_vampire_heuristic  # the table's model, not the ruleset's refined heuristic
    for i in range(games):
        r = play_game("interview_vampire", sizes[i % len(sizes)], params, game_seed(seed, i), policy)
        counts["both" if len(r.winners) > 1 else r.winners[0] if r.winners else "draw"] += 1
        sums.update({k: r.extra[k] for k in ("nights", "criminals", "conversions")})
        sums["criminal_wins_any"] += r.extra["criminals_won"] > 0
    share = {k: counts[k] / games for k in ("human", "vampire", "both", "criminal", "draw")}
    return {**share, **{k: sums[k] / games for k in ("criminal_wins_any", "nights", "criminals", "conversions")}}


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


def table(games: int = 500, seed: int = 0, accuracy: float = 0.3) -> str:
    """A Markdown table of :func:`simulate` for every choice in :data:`CHOICES`."""
    lines = ["| parameters | humans | vampires | both | criminals alone | draw | a criminal wins | nights | criminals | conversions |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for label, params in CHOICES:
        r = simulate(params, games, seed, accuracy=accuracy)
        lines.append(f"| {label} | {r['human']:.0%} | {r['vampire']:.0%} | {r['both']:.0%} | {r['criminal']:.0%} | "
                     f"{r['draw']:.0%} | {r['criminal_wins_any']:.0%} | {r['nights']:.1f} | {r['criminals']:.2f} | "
                     f"{r['conversions']:.2f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    """The command line: one table per accuracy."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--games", type=int, default=500, help="games per parameter choice (12 and 13 players alternately)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--accuracy", type=float, nargs="*", default=[0.2, 0.4],
                    help="humans' day-vote accuracy (one table each)")
    args = ap.parse_args(argv)
    for acc in args.accuracy:
        print(f"\nhumans' day-vote accuracy {acc:.0%}, {args.games} games per row, seed {args.seed}\n")
        print(table(args.games, args.seed, acc))


if __name__ == "__main__":
    main()

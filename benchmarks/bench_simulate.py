"""Simulator speed: games per second per core for each ruleset, and the speed-up with ``--jobs 2``.

Goal (issue 12): at least 10,000 interview_vampire games a minute on one core with the random policy.

Run:
    .venv/bin/python benchmarks/bench_simulate.py [--games 600] [--policy random] [--jobs 2] [--only RULESET]

Each ruleset plays ``--games`` games at its usual table size in one process (after a warm-up of 20 games
that fills the parse memo and imports everything), then the same games on ``--jobs`` worker processes already
started and warmed (what a long sweep sees). It prints games per CPU second and CPU minute of the one
process (the per-core figure, which other load on the machine does not lower), games per wall-clock second
with 1 and with ``--jobs`` processes, and the speed-up. Timings depend on the machine and on what
else runs on it; the figures are for comparing, not asserting.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

from forumbot.simulate.run import Spec, process_pool, run

SIZES = {"interview_vampire": 12, "sunlight": 19, "killer_club": 10, "vampire_village": 13, "human_kill": 9}


def rate(spec: Spec, games: int, jobs: int, pool: ProcessPoolExecutor | None = None) -> tuple[float, float]:
    """Games per wall-clock second and per CPU second of this process, for ``games`` games of ``spec`` on
    ``jobs`` processes (``pool``: already started)."""
    start, cpu = time.perf_counter(), time.process_time()
    run(spec, games, seed=1, jobs=jobs, pool=pool)
    return games / (time.perf_counter() - start), games / max(time.process_time() - cpu, 1e-9)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--games", type=int, default=600)
    ap.add_argument("--policy", default="random")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default=None, help="one ruleset")
    args = ap.parse_args()
    print(f"{'ruleset':<18} {'players':>7} {'games/CPU-s':>12} {'games/CPU-min':>14} {'games/s (jobs 1)':>17} "
          f"{f'games/s (jobs {args.jobs})':>18} {'speed-up':>9}")
    for ruleset, n in SIZES.items():
        if args.only and ruleset != args.only:
            continue
        spec = Spec(ruleset, n, policy=args.policy, skill=0.5)
        run(spec, 20, seed=99)  # warm-up
        one, per_cpu = rate(spec, args.games, 1)
        with process_pool(args.jobs) as pool:
            run(spec, 20 * args.jobs, seed=98, pool=pool)  # starts and warms the workers
            many, _ = rate(spec, args.games, args.jobs, pool)
        print(f"{ruleset:<18} {n:>7} {per_cpu:>12.0f} {per_cpu * 60:>14.0f} {one:>17.0f} {many:>18.0f} {many / one:>8.2f}x")


if __name__ == "__main__":
    main()

"""Simulator speed: games per CPU-minute of one core for each ruleset at its rulebook's table size, the speed-up
with ``--jobs``, and the ratio to another commit.

Goal (issue 30): at least 10,000 games per CPU-minute for every ruleset with the random policy, and the heuristic
policy within 1.5x of the random one.

Run (from a checkout, with its code first on the path):
    PYTHONPATH=$PWD .venv/bin/python benchmarks/bench_simulate.py [--games 300] [--policy random] [--jobs 2]
        [--only RULESET] [--repeat 3] [--against REV]

Each ruleset plays ``--games`` games at its rulebook's table size (:data:`SIZES`) in one process, after a warm-up of
20 games that fills the parse memo and imports everything, ``--repeat`` times; it prints the best and the worst
games per CPU-minute (``time.process_time``: other load on the machine lowers it little). With ``--jobs`` N > 1 it
also plays the games on N worker processes already started and warmed (what a long sweep sees) and prints the
wall-clock speed-up.

``--against REV`` checks out ``REV`` (a commit, branch or tag of this repository) into a temporary directory
(``git worktree add --detach``, removed at the end) and measures both checkouts in turns, each in a fresh
interpreter with its own code on the path (``--repeat`` rounds, alternating, so that load on the machine hits
both alike), then prints each checkout's best figure and the ratio this/REV. Timings depend on the machine; the
figures are for comparing, not asserting.

Figures (games per CPU-minute, 300 games, best of 2 alternating runs, ``--against c0d92ab``, the shared 2-core machine
loaded by other work; more in docs/benchmarks.md):

=================  =======  ================  ================
ruleset            players  random          heuristic
=================  =======  ================  ================
sunlight           19       3,050 -> 7,413  2,403 -> 6,002
killer_club        14       5,244 -> 11,577 5,606 -> 15,072
vampire_village    15       3,377 -> 9,711  2,470 -> 7,731
human_kill         9        4,458 -> 14,104 6,403 -> 17,621
interview_vampire  12       6,831 -> 13,173 30,960 -> 52,436
=================  =======  ================  ================
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: each ruleset's table size in its rulebook
SIZES = {"sunlight": 19, "killer_club": 14, "vampire_village": 15, "human_kill": 9, "interview_vampire": 12}


def cpu_rate(ruleset: str, players: int, policy: str, games: int) -> float:
    """Games per CPU-minute of this process for ``games`` games (seeds from 1) after a warm-up of 20."""
    from forumbot.simulate.run import Spec, run

    spec = Spec(ruleset, players, policy=policy, skill=0.5)
    run(spec, 20, seed=99)  # warm-up: imports, the parse memo
    cpu = time.process_time()
    run(spec, games, seed=1)
    return games * 60 / max(time.process_time() - cpu, 1e-9)


def wall_speedup(ruleset: str, players: int, policy: str, games: int, jobs: int) -> float:
    """Wall-clock games per second on ``jobs`` warmed worker processes over one process."""
    from forumbot.simulate.run import Spec, process_pool, run

    spec = Spec(ruleset, players, policy=policy, skill=0.5)
    start = time.perf_counter()
    run(spec, games, seed=1)
    one = games / (time.perf_counter() - start)
    with process_pool(jobs) as pool:
        run(spec, 20 * jobs, seed=98, pool=pool)
        start = time.perf_counter()
        run(spec, games, seed=1, pool=pool)
        many = games / (time.perf_counter() - start)
    return many / one


def _child(root: Path, args: argparse.Namespace, rulesets: list[str]) -> dict[str, float]:
    """The figures of the checkout at ``root``, measured in a fresh interpreter with its code on the path."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", "--games", str(args.games),
           "--policy", args.policy, *[x for r in rulesets for x in ("--only", r)]]
    out = subprocess.run(cmd, env=env, cwd=root, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def against(args: argparse.Namespace, rulesets: list[str]) -> None:
    """Measure this checkout and ``args.against`` in turns and print the ratio."""
    here = Path(__file__).resolve().parent.parent
    rev = subprocess.run(["git", "-C", str(here), "rev-parse", "--short", args.against], check=True,
                         capture_output=True, text=True).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="bench-simulate-") as tmp:
        other = Path(tmp) / rev
        subprocess.run(["git", "-C", str(here), "worktree", "add", "--detach", "--quiet", str(other), rev], check=True)
        try:
            best: dict[str, dict[str, float]] = {"this": {}, rev: {}}
            for _ in range(args.repeat):
                for label, root in (("this", here), (rev, other)):
                    for r, v in _child(root, args, rulesets).items():
                        best[label][r] = max(best[label].get(r, 0.0), v)
        finally:
            subprocess.run(["git", "-C", str(here), "worktree", "remove", "--force", str(other)], check=False)
    print(f"games per CPU-minute, {args.policy} policy, {args.games} games, best of {args.repeat}")
    print(f"{'ruleset':<18} {'players':>7} {rev:>10} {'this':>10} {'ratio':>7}")
    for r in rulesets:
        print(f"{r:<18} {SIZES[r]:>7} {best[rev][r]:>10,.0f} {best['this'][r]:>10,.0f} "
              f"{best['this'][r] / best[rev][r]:>6.2f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--policy", default="random")
    ap.add_argument("--jobs", type=int, default=1, help="also time this many worker processes (wall clock)")
    ap.add_argument("--only", action="append", default=None, help="a ruleset (repeatable)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--against", default=None, metavar="REV", help="also time this commit's checkout; print the ratio")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    rulesets = [r for r in SIZES if not args.only or r in args.only]
    if args.child:
        print(json.dumps({r: cpu_rate(r, SIZES[r], args.policy, args.games) for r in rulesets}))
        return
    if args.against:
        against(args, rulesets)
        return
    print(f"games per CPU-minute, {args.policy} policy, {args.games} games, {args.repeat} runs")
    print(f"{'ruleset':<18} {'players':>7} {'best':>9} {'worst':>9}"
          + (f" {f'speed-up (jobs {args.jobs})':>20}" if args.jobs > 1 else ""))
    for r in rulesets:
        rates = [cpu_rate(r, SIZES[r], args.policy, args.games) for _ in range(args.repeat)]
        line = f"{r:<18} {SIZES[r]:>7} {max(rates):>9,.0f} {min(rates):>9,.0f}"
        if args.jobs > 1:
            line += f" {wall_speedup(r, SIZES[r], args.policy, args.games, args.jobs):>19.2f}x"
        print(line, flush=True)


if __name__ == "__main__":
    main()

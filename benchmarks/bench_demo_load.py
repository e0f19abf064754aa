"""The README's demo (`forumbot demo`) on a quiet machine and on a busy one: standings, warnings, suicides.

    .venv/bin/python benchmarks/bench_demo_load.py [--load 6] [--players 8] [--speed 7200] [--seed 21]

Runs the demo twice with the same seed (a local FlaskBB each time, simulated players): calm, then with
``--load`` CPU-bound processes running beside it (e.g. 6 on 2 cores). For each run it prints the standings
as the demo prints them, the warnings and suicides the judge sent (from the demo's database, kept for the
purpose), the deadline lags and how late each phase's post reached the forum (from the bot's log). Issue 24's
goal: the busy run has no warning or suicide that the calm run does not have (a phase decided before its
post reached the players makes them). Prints the figures and the verdict; asserts nothing, exits 0.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

KEPT = re.compile(r"The season files, database and report are kept in (\S+)")
MOVED = re.compile(r"the post opening phase (\d+) reached the forum (\S+) after it opened")
STANDINGS = re.compile(r"^(Winner: .*|Killers: .*|\s*\d+\. .*)$", re.M)


def burners(count: int) -> list[subprocess.Popen]:
    """``count`` processes that use a CPU each until killed."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]


def run_demo(args: argparse.Namespace) -> dict:
    """One demo, to its end; what it printed and what its database holds."""
    began = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "forumbot", "demo", "--no-wait", "--keep", "--locale", "en",
         "--players", str(args.players), "--speed", str(args.speed), "--seed", str(args.seed)],
        capture_output=True, text=True, stdin=subprocess.DEVNULL,
    )
    seconds = time.monotonic() - began
    out = {"code": done.returncode, "seconds": seconds, "standings": STANDINGS.findall(done.stdout),
           "warnings": Counter(), "suicides": Counter(), "lags": [], "moved": MOVED.findall(done.stderr),
           "log_warnings": [line for line in done.stderr.splitlines() if " WARNING " in line]}
    kept = KEPT.search(done.stdout)
    if done.returncode != 0 or kept is None:
        out["error"] = (done.stdout + done.stderr)[-2000:]
        return out
    folder = Path(kept.group(1))
    try:
        from forumbot.config import load_config
        from forumbot.runtime.bot import Bot
        from forumbot.runtime.store import aware

        os.environ.setdefault("FORUMBOT_DEMO_PASSWORD", "unused")  # the stored season, no forum
        bot = Bot(load_config(folder / "rehearsal.toml"), None)  # type: ignore[arg-type]
        for row in bot.store.outbox():
            if row.template.endswith("/warning"):
                out["warnings"][row.recipient] += 1
            elif row.template.endswith("/suicide"):
                out["suicides"][row.recipient] += 1
        made: dict[int, list] = {}
        for row in bot.store.outbox():
            parts = row.key.split(":")
            if len(parts) == 3 and parts[1].isdigit():
                made.setdefault(int(parts[1]), []).append(aware(row.created_at))
        out["lags"] = [round((min(made[r.seq]) - aware(r.at)).total_seconds(), 2)
                       for r, _ in bot.store.inputs() if r.kind == "deadline" and r.seq in made]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return out


def show(label: str, run: dict) -> None:
    print(f"\n== {label}: exit {run['code']}, {run['seconds']:.0f} s")
    if "error" in run:
        print(run["error"])
        return
    for line in run["standings"]:
        print("  " + line)
    print(f"  warnings sent: {sum(run['warnings'].values())} {dict(run['warnings'])}")
    print(f"  suicides: {sum(run['suicides'].values())} {dict(run['suicides'])}")
    print(f"  deadline lags (s): {run['lags']}")
    print(f"  phases whose post reached the forum late (deadline moved): {run['moved'] or 'none'}")
    print(f"  WARNING lines in the bot's log: {len(run['log_warnings'])}")
    for line in run["log_warnings"][:5]:
        print("    " + line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--load", type=int, default=6, help="CPU-bound processes beside the busy run")
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--speed", type=float, default=7200.0, help="the demo's --speed")
    parser.add_argument("--seed", type=int, default=21)
    args = parser.parse_args()
    calm = run_demo(args)
    show("calm", calm)
    procs = burners(args.load)
    try:
        time.sleep(2)  # the load is there before the demo starts
        busy = run_demo(args)
    finally:
        for proc in procs:
            proc.kill()
        for proc in procs:
            proc.wait()
    show(f"busy ({args.load} CPU-bound processes on {os.cpu_count()} cores)", busy)
    extra_warnings = busy["warnings"] - calm["warnings"]
    extra_suicides = busy["suicides"] - calm["suicides"]
    same = busy["standings"] == calm["standings"]
    print(f"\nsame standings: {'yes' if same else 'no'}")
    print(f"warnings the calm demo does not have: {dict(extra_warnings) or 'none'}")
    print(f"suicides the calm demo does not have: {dict(extra_suicides) or 'none'}")
    met = not extra_warnings and not extra_suicides and "error" not in busy and "error" not in calm
    print(f"goal (no warning or suicide the calm demo does not have): {'met' if met else 'NOT met'}")


if __name__ == "__main__":
    main()

"""Figures of issue 26 (rehearsals and the demo): prints them, asserts nothing.

    .venv/bin/python benchmarks/bench_rehearse.py demo [--ruleset sunlight] [--players N] [--speed 7200]
    .venv/bin/python benchmarks/bench_rehearse.py install
    .venv/bin/python benchmarks/bench_rehearse.py phases SEASON.toml [--speed 3600]

- ``demo``: the seconds from starting ``forumbot demo --no-wait`` to its standings on stdout (the first run on a
  fresh machine includes FlaskBB's install into ``~/.cache/forumbot``: clear it to measure that), then the
  demo's wall time per phase (below).
- ``install``: ``pip install -c constraints.txt .`` of this checkout into a fresh venv (what the README's plain
  path installs): seconds and megabytes, and the size of FlaskBB's venv in ``~/.cache/forumbot`` if it is there.
- ``phases``: a rehearsal of SEASON.toml (``--keep --no-wait``), then each phase's wall time from the rehearsal's
  database (from one deadline input to the next), beside its scaled length: the difference is what reading the
  forum, the grace and posting the round cost.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KEPT = re.compile(r"The season files, database and report are kept in (\S+)")


def megabytes(path: Path) -> float:
    """The size of the files under ``path``, MB."""
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink()) / 1e6


def timed_run(args: list[str]) -> tuple[float | None, float, str]:
    """Run ``forumbot ARGS``: (seconds until a standings line appeared, seconds in all, its stdout)."""
    began = time.monotonic()
    standings_at = None
    lines = []
    with subprocess.Popen([sys.executable, "-m", "forumbot", *args], stdout=subprocess.PIPE, text=True,
                          stdin=subprocess.DEVNULL) as proc:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            if standings_at is None and re.match(r"(Winner: |over: )", line.strip()):
                standings_at = time.monotonic() - began
    return standings_at, time.monotonic() - began, "".join(lines)


def phase_times(folder: Path) -> None:
    """Each phase's wall time in the rehearsal kept in ``folder``, beside its scaled length."""
    from forumbot.config import load_config
    from forumbot.engine.game import Game
    from forumbot.rehearse.players import apply_input
    from forumbot.runtime.store import Store, make_engine

    config = load_config(folder / "rehearsal.toml")
    store = Store.find_season(make_engine(config.database_url), config.name)
    assert store is not None
    game = Game(config.setup(store.season().seed))
    opened = None
    walls = []
    for row, inbound in store.inputs():
        kind, pid = (game.phase.kind, game.phase.id) if opened is not None else ("", -1)
        if row.kind == "deadline" and opened is not None:
            wall = (row.at - opened).total_seconds()
            walls.append(wall)
            print(f"  phase {pid:>3} {kind:<14} {wall:6.1f} s  (scaled length {config.schedule.length(kind).total_seconds():g} s)")
        apply_input(game, row, inbound)
        if row.kind in ("start", "deadline"):
            opened = row.at
    if walls:
        print(f"  {len(walls)} phases: median {sorted(walls)[len(walls) // 2]:.1f} s, longest {max(walls):.1f} s, "
              f"{sum(walls) / 60:.1f} minutes in all")


def demo(args: argparse.Namespace) -> None:
    extra = ["--players", str(args.players)] if args.players else []
    standings, total, out = timed_run(["demo", "--no-wait", "--keep", "--ruleset", args.ruleset, "--speed",
                                       str(args.speed), *extra])
    print(f"forumbot demo --ruleset {args.ruleset}: standings after {standings or float('nan'):.1f} s; "
          f"ended after {total:.1f} s")
    if kept := KEPT.search(out):
        phase_times(Path(kept.group(1)))
        shutil.rmtree(kept.group(1), ignore_errors=True)


def install(_: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="forumbot-bench-install-") as where:
        venv = Path(where) / "venv"
        began = time.monotonic()
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                        "-c", str(ROOT / "constraints.txt"), str(ROOT)], check=True)
        seconds = time.monotonic() - began
        print(f"pip install . into a fresh venv: {seconds:.1f} s, {megabytes(venv):.0f} MB")
    flaskbb = Path.home() / ".cache" / "forumbot" / "flaskbb-venv"
    if flaskbb.is_dir():
        print(f"FlaskBB's venv ({flaskbb}): {megabytes(flaskbb):.0f} MB")


def phases(args: argparse.Namespace) -> None:
    _, total, out = timed_run(["rehearse", str(args.season), "--no-wait", "--keep", "--speed", str(args.speed),
                               "--log-level", "WARNING"])
    print(f"forumbot rehearse {args.season}: {total:.1f} s in all")
    if kept := KEPT.search(out):
        phase_times(Path(kept.group(1)))
        shutil.rmtree(kept.group(1), ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    d = sub.add_parser("demo")
    d.add_argument("--ruleset", default="sunlight")
    d.add_argument("--players", type=int, default=None)
    d.add_argument("--speed", type=float, default=7200.0)
    sub.add_parser("install")
    p = sub.add_parser("phases")
    p.add_argument("season", type=Path)
    p.add_argument("--speed", type=float, default=3600.0)
    args = parser.parse_args()
    {"demo": demo, "install": install, "phases": phases}[args.what](args)


if __name__ == "__main__":
    main()

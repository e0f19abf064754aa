"""What the engine, the simulator and the renderer produce, dumped to files, to check that a speed change changes
no behaviour: run it before the change and after, and compare the two folders (``diff -r``).

Run:
    PYTHONPATH=$PWD .venv/bin/python benchmarks/outputs_digest.py OUT_DIR [--games 60]

Writes, into ``OUT_DIR``:

- ``transcripts/<name>.<locale>.<markup>.json``: every transcript of ``tests/transcripts`` replayed and
  rendered (:meth:`forumbot.replay.ReplayResult.to_json`) in each locale and markup;
- ``simulate/<ruleset>.<policy>.json``: ``--games`` simulated games of each ruleset at its rulebook's table
  size (:data:`SIZES`) with each policy, every :class:`~forumbot.simulate.play.GameResult` field but the
  transcript;
- ``simulated/<ruleset>.<policy>.<locale>.json``: the first few of those games recorded as transcripts and
  replayed with every reply and post rendered (refusals, help and status replies included), and the
  ``help_data``/``status_data`` of every seat at every phase of the replay.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from pathlib import Path

from forumbot.engine.types import Deadline
from forumbot.render import LOCALES, MARKUPS, Renderer
from forumbot.replay import load_transcript, parse_transcript, replay
from forumbot.simulate.run import Spec, play_seeds, transcript

#: each ruleset's table size in its rulebook
SIZES = {"sunlight": 19, "killer_club": 14, "vampire_village": 15, "human_kill": 9, "interview_vampire": 12}
ROOT = Path(__file__).resolve().parent.parent


def _dump(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True, default=str) + "\n", encoding="utf-8")


def _states(t: dict) -> list:
    """``help_data`` and ``status_data`` of every seat before each deadline of the recorded game ``t``."""
    from forumbot.engine.game import Game
    from forumbot.engine.types import Message

    tr = parse_transcript(t)
    g = Game(tr.setup())
    g.start()
    out = []
    g.apply(Deadline(g.phase.id))
    for entry in tr.phases:
        if g.finished:
            break
        for s, x in entry.messages:
            g.apply(Message(s, x, "pm"))
        for s, x in entry.posts:
            g.apply(Message(s, x, "thread"))
        out.append([[g.ruleset.help_data(p.seat), g.ruleset.status_data(p.seat)] for p in g.players])
        out.append(g.ruleset.pending())
        g.apply(Deadline(g.phase.id))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--recorded", type=int, default=3, help="games per ruleset and policy replayed and rendered")
    args = ap.parse_args()
    for path in sorted((ROOT / "tests" / "transcripts").glob("*.yaml")):
        result = replay(load_transcript(path))
        for locale in LOCALES:
            for markup in MARKUPS:
                _dump(args.out / "transcripts" / f"{path.stem}.{locale}.{markup}.json",
                      result.to_json(Renderer(locale, markup)))
    for ruleset, n in SIZES.items():
        for policy in ("random", "heuristic"):
            spec = Spec(ruleset, n, policy=policy)
            games = play_seeds(spec, list(range(args.games)))
            _dump(args.out / "simulate" / f"{ruleset}.{policy}.json",
                  [{k: v for k, v in dataclasses.asdict(r).items() if k != "transcript"} for r in games])
            recorded = [transcript(spec, seed) for seed in range(args.recorded)]
            _dump(args.out / "simulated" / f"{ruleset}.{policy}.states.json", [_states(t) for t in recorded])
            for locale in LOCALES:
                _dump(args.out / "simulated" / f"{ruleset}.{policy}.{locale}.json",
                      [replay(parse_transcript(t)).to_json(Renderer(locale, "bbcode")) for t in recorded])


if __name__ == "__main__":
    main()

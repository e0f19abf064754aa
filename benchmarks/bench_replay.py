"""Benchmark: replay a whole 19-player sunlight season (the rulebook's size) through the engine.

Run: ``PYTHONPATH=$PWD .venv/bin/python benchmarks/bench_replay.py``. Prints the season's length and the CPU time
(``time.process_time``) of one replay (best and median of 15 runs, after one), with and without rendering every post
and PM.

Goal (issue 30): at most 20 ms of CPU with rendering. Figures on the shared 2-core machine (loaded by other work),
best of 15, engine only / with rendering: c0d92ab 10.5 / 26.2 ms (the search for ``KEY.markdown.j2`` missed on
every render; each text parsed again in each replay); after issue 30 3.9 / 16.7 ms (the resolved template name kept;
the parser's memo is the engine's, so a replay after the first reads no text again).
"""

from __future__ import annotations

import random
import statistics
import time

from forumbot.engine.game import Game, Setup
from forumbot.engine.types import Deadline, Message
from forumbot.render import Renderer

PLAYERS = [f"玩家{i:02d}" for i in range(1, 20)]


def season_inputs(seed: int = 1) -> tuple[Setup, list]:
    """A legal season: everyone alive votes one or two living players; the killer kills; survivors
    choose clues; a voted-out killer names a successor."""
    rng = random.Random(seed)
    setup = Setup("sunlight", tuple(PLAYERS), seed=seed)
    game = Game(setup)
    game.start()
    inputs: list = [Deadline(0)]
    game.apply(Deadline(0))
    while not game.finished:
        phase = game.phase
        alive = game.alive()
        msgs: list[Message] = []
        if phase.kind == "vote":
            for seat in alive:
                others = [s for s in alive if s != seat]
                pick = rng.sample(others, k=min(len(others), rng.choice([1, 2])))
                msgs.append(Message(game.name(seat), "投 " + " ".join(game.name(s) for s in pick)))
        elif phase.kind == "kill":
            killer = game.ruleset.killer
            victims = [s for s in alive if s != killer]
            msgs.append(Message(game.name(killer), f"杀 {game.name(rng.choice(victims))}"))
        elif phase.kind == "poll":
            pending = game.ruleset.s.successor_pending
            if pending is not None:
                goods = [s for s in alive if s != pending]
                msgs.append(Message(game.name(pending), f"接任 {game.name(rng.choice(goods))}"))
            for seat in alive:
                msgs.append(Message(game.name(seat), f"线索 {rng.choice([0, *game.ruleset.s.clue_options])}"))
        for m in msgs:
            game.apply(m)
        inputs += msgs + [Deadline(phase.id)]
        game.apply(Deadline(phase.id))
    return setup, inputs


def replay_once(setup: Setup, inputs: list, renderer: Renderer | None) -> int:
    game = Game(setup)
    steps = [game.start()] + [game.apply(i) for i in inputs]
    texts = 0
    if renderer:
        for s in steps:
            texts += sum(len(renderer.render(r.key, r.data)) for r in s.replies)
            texts += sum(len(renderer.render(p.key, p.data)) for p in s.posts)
    assert game.finished
    return texts


def main() -> None:
    setup, inputs = season_inputs()
    game = Game(setup)
    game.start()
    for i in inputs:
        game.apply(i)
    print(f"19-player season: {len(inputs)} inputs, {len(game.phases)} phases, "
          f"{sum(1 for i in inputs if isinstance(i, Message))} messages, winner {game.winner}")
    for label, renderer in (("engine only", None), ("engine + rendering (zh-Hans)", Renderer("zh-Hans"))):
        replay_once(setup, inputs, renderer)  # imports, the compiled templates
        times = []
        for _ in range(15):
            t0 = time.process_time()
            replay_once(setup, inputs, renderer)
            times.append(time.process_time() - t0)
        print(f"{label}: best {min(times) * 1000:.1f} ms, median {statistics.median(times) * 1000:.1f} ms of CPU per replay")


if __name__ == "__main__":
    main()

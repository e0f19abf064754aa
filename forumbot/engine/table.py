"""Going round the table in either direction, from any seat, over a seating that may have been
reshuffled (human_kill: counter-clockwise from the lowest-numbered player out; the sage's choice of
start and direction; seats reshuffled by the weather).

``seating`` lists the seat numbers in counter-clockwise order round the table (the deal's order is
1, 2, 3...: counter-clockwise goes up the seat numbers, clockwise goes down).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from forumbot.engine.events import SeatsReshuffled
from forumbot.engine.types import Step

if TYPE_CHECKING:
    from forumbot.engine.game import Game


def round_table(seating: list[int], alive: list[int], start: int, clockwise: bool = False,
                include_start: bool = True) -> list[int]:
    """The living seats in table order from ``start`` (itself first when alive and
    ``include_start``), going ``clockwise`` or counter-clockwise round ``seating``."""
    order = list(reversed(seating)) if clockwise else list(seating)
    if start not in order:
        return [s for s in order if s in set(alive)]
    i = order.index(start)
    ring = order[i:] + order[:i]
    if not include_start:
        ring = ring[1:]
    living = set(alive)
    return [s for s in ring if s in living]


def reshuffle(game: Game, seating: list[int], purpose: str, out: Step) -> list[int]:
    """A seeded reshuffle of ``seating``, recorded as an event."""
    new = list(seating)
    game.rng(purpose).shuffle(new)
    out.events.append(SeatsReshuffled(purpose, new))
    return new

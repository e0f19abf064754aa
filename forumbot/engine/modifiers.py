"""Daily modifiers: one rule change drawn at random each day from a weighted table (human_kill's
weather). The draw uses the game's seeded randomness and is recorded as an event, so a replay
rebuilds it; a modifier may be excluded on some days (``exclude``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from forumbot.engine.events import Chance, ModifierDrawn
from forumbot.engine.types import Step

if TYPE_CHECKING:
    from forumbot.engine.game import Game


def draw_modifier(game: Game, table: dict[str, float], day: int, out: Step, exclude: Iterable[str] = (),
                  purpose: str = "modifier") -> str | None:
    """One key of ``table`` (key -> weight) for ``day``, leaving out ``exclude``; None when nothing
    is left. Recorded as a ``modifier_drawn`` event."""
    banned = set(exclude)
    pool = [(k, w) for k, w in table.items() if k not in banned and w > 0]
    if not pool:
        return None
    rng = game.rng(f"{purpose}:{day}")
    total = sum(w for _, w in pool)
    x = rng.random() * total
    chosen = pool[-1][0]
    for k, w in pool:
        if x < w:
            chosen = k
            break
        x -= w
    out.events.append(ModifierDrawn(purpose, day, chosen))
    return chosen


def chance(game: Game, p: float, purpose: str, out: Step) -> bool:
    """A seeded coin with probability ``p`` for ``purpose``, recorded as a ``chance`` event."""
    hit = game.rng(purpose).random() < p
    out.events.append(Chance(purpose, p, hit))
    return hit

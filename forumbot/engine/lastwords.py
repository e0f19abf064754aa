"""Last words for the first N deaths of a game, shared by every ruleset with such a rule (killer_club:
N = the killers at the start; human_kill: those out in the first two rounds, by round).

A ruleset records each death that counts with :meth:`FirstDeaths.record` and answers the engine's
``may_leave_will(seat)`` hook with :meth:`FirstDeaths.allowed`; the window and the reporting of other
posts by the dead are :meth:`forumbot.engine.game.Game.dead_player_post`'s.
"""

from __future__ import annotations


class FirstDeaths:
    """The first ``limit`` players to die (in the order they died) may leave last words."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.order: list[int] = []

    def record(self, seat: int) -> bool:
        """Count ``seat``'s death; True when it is one of the first ``limit``."""
        if seat not in self.order:
            self.order.append(seat)
        return self.allowed(seat)

    def allowed(self, seat: int) -> bool:
        """May ``seat`` leave last words?"""
        return seat in self.order[: self.limit]

"""An elected title with a vote weight and succession, shared by every ruleset that has one
(vampire_village's sheriff: elected on day 1, his vote counts double, he names a successor at death;
human_kill's sage: weight 1.5).

The election itself is a vote like any other (:mod:`forumbot.engine.votes`; vampire_village's
``ELECTION`` rule: a tie goes to a revote, a last tie or nobody voting to a seeded draw).
"""

from __future__ import annotations

from forumbot.engine.events import TitleGiven
from forumbot.engine.types import Step


class Title:
    """A title held by at most one seat. ``weight``: the holder's vote weight (others have 1)."""

    def __init__(self, name: str, weight: float = 1.0) -> None:
        self.name = name
        self.weight = weight
        self.holder: int | None = None
        self.history: list[tuple[int, str]] = []

    def give(self, seat: int, how: str, out: Step) -> None:
        """Make ``seat`` the holder (``how``: "elected", "drawn", "named"...), recorded as an event."""
        self.holder = seat
        self.history.append((seat, how))
        out.events.append(TitleGiven(self.name, seat, how))

    def vacate(self) -> None:
        """Nobody holds the title (its holder died and no successor is known yet)."""
        self.holder = None

    def weight_of(self, seat: int) -> float:
        """The vote weight of ``seat``."""
        return self.weight if seat == self.holder else 1.0

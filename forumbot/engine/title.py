"""An elected title with a vote weight and succession, shared by every ruleset that has one
(vampire_village's sheriff: elected on day 1, his vote counts double, he names a successor at death;
human_kill's sage: weight 1.5).

:func:`settle_election` applies the usual rule for a title that must exist: the top of the vote wins; a
tie goes to a revote among the tied (``"runoff"``); a tie at the last vote, or nobody voting, is settled
by a seeded draw (recorded as an event) among the tied, or among ``pool`` when nobody voted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from forumbot.engine.runoff import VoteOutcome, seeded_draw
from forumbot.engine.types import Event, Step

if TYPE_CHECKING:
    from forumbot.engine.game import Game


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
        out.events.append(Event("title", {"title": self.name, "seat": seat, "how": how}))

    def vacate(self) -> None:
        """Nobody holds the title (its holder died and no successor is known yet)."""
        self.holder = None

    def weight_of(self, seat: int) -> float:
        """The vote weight of ``seat``."""
        return self.weight if seat == self.holder else 1.0


def settle_election(
    game: Game, outcome: VoteOutcome, pool: list[int], purpose: str, out: Step
) -> tuple[str, int | None]:
    """What a title election's vote decides: ("elected", seat), ("runoff", None) when the tied vote
    again, or ("drawn", seat) after a last tie (among the tied) or when nobody voted (among ``pool``,
    or among the candidates of a revote)."""
    if outcome.kind == "decided":
        return "elected", outcome.chosen
    if outcome.kind == "runoff":
        return "runoff", None
    among = list(outcome.tied) if outcome.tied else list(pool)
    if not among:
        return "drawn", None
    return "drawn", seeded_draw(game, among, purpose, out)

"""Ballots and tallies, shared by every ruleset.

A :class:`BallotBox` collects the ballots of one vote (a day vote, a run-off, a sheriff election, a clue
poll). A ballot names one or more choices in ranked order; the i-th choice receives ``points[i]`` times
the voter's weight (sunlight: points (3, 2); a plain vote: (1,); a sheriff's weight is 2, a sage's 1.5).
Choices are seats, or option numbers for polls.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Ballot:
    """One ballot: ``voter`` seat, ``choices`` in ranked order, ``void`` when it counts for nothing
    (a sunlight self-vote), ``weight`` the voter's weight when cast."""

    voter: int
    choices: tuple[int, ...]
    void: bool = False
    weight: float = 1.0


class BallotBox:
    """The ballots of one vote, in the order received.

    ``points``: the points of the 1st, 2nd, ... choice. ``allow_change``: a later ballot replaces the
    voter's earlier one (it keeps its place in the order received only when ``keep_place``); otherwise
    the first ballot stands and :meth:`cast` returns False for a later one.
    """

    def __init__(self, points: tuple[float, ...] = (1,), allow_change: bool = False) -> None:
        self.points = points
        self.allow_change = allow_change
        self._ballots: dict[int, Ballot] = {}

    @property
    def ballots(self) -> list[Ballot]:
        """Ballots in the order received (a changed ballot moves to the end)."""
        return list(self._ballots.values())

    def ballot_of(self, voter: int) -> Ballot | None:
        """The standing ballot of ``voter``, or None."""
        return self._ballots.get(voter)

    def cast(self, ballot: Ballot) -> bool:
        """Record ``ballot``; False (and nothing recorded) when the voter already has one that may
        not be changed."""
        if ballot.voter in self._ballots:
            if not self.allow_change:
                return False
            del self._ballots[ballot.voter]
        self._ballots[ballot.voter] = ballot
        return True

    def withdraw(self, voter: int) -> Ballot | None:
        """Remove ``voter``'s standing ballot (an unvote) and return it; None (nothing changed) when
        there is none or ballots may not be changed (the first ballot stands)."""
        if not self.allow_change or voter not in self._ballots:
            return None
        return self._ballots.pop(voter)

    def valid(self) -> list[Ballot]:
        """The ballots that count (not void), in order."""
        return [b for b in self._ballots.values() if not b.void]

    def points_of(self, ballot: Ballot) -> list[tuple[int, float]]:
        """``(choice, points)`` pairs that ``ballot`` gives (nothing for a void ballot)."""
        if ballot.void:
            return []
        return [(c, self.points[i] * ballot.weight) for i, c in enumerate(ballot.choices)]

    def received(self) -> dict[int, float]:
        """Points received by each choice named on a valid ballot."""
        got: dict[int, float] = {}
        for b in self.valid():
            for choice, pts in self.points_of(b):
                got[choice] = got.get(choice, 0) + pts
        return got


def top(received: dict[int, float], among: set[int] | None = None) -> list[int]:
    """The choices with the most points (ties all returned, sorted), over ``among`` when given;
    empty when nobody received a point."""
    pool = {c: p for c, p in received.items() if (among is None or c in among) and p > 0}
    if not pool:
        return []
    best = max(pool.values())
    return sorted(c for c, p in pool.items() if p == best)

"""A vote with weights and abstention, with run-offs among the tied: :class:`WeightedVote` is a
:class:`~forumbot.engine.runoff.RunoffVote` whose ballots carry the voter's weight (human_kill's sage
counts 1.5, a sheriff 2) and may be empty (an abstention, which counts as having voted). Only
``voters`` (None: anybody the ruleset lets through) may vote. A top of 0 points is "none"; ties at the
top go to a run-off or are "exhausted" at the last vote, exactly as in ``RunoffVote``.
"""

from __future__ import annotations

from dataclasses import dataclass

from forumbot.engine.runoff import RunoffVote
from forumbot.engine.votes import Ballot, BallotBox


@dataclass
class WeightedVote(RunoffVote):
    """See the module docstring. ``voters``: seats allowed to vote in the current vote (None: any)."""

    voters: tuple[int, ...] | None = None

    def may_vote(self, seat: int) -> bool:
        """May ``seat`` vote in the current vote?"""
        return self.voters is None or seat in self.voters

    def cast_weighted(self, voter: int, target: int | None, weight: float = 1.0) -> bool:
        """Record ``voter``'s ballot for ``target`` (None: abstain) with ``weight``; False when he
        already voted and may not change."""
        return self.box.cast(Ballot(voter, () if target is None else (target,), weight=weight))

    def next(self, tied: tuple[int, ...], voters: tuple[int, ...] | None = None) -> None:
        """Open the next run-off among ``tied``; ``voters`` are the run-off's voters (None: any)."""
        self.number += 1
        self.candidates = tuple(tied)
        self.voters = voters
        self.box = BallotBox(points=(1,), allow_change=self.allow_change)

"""A team vote by private message with plurality, shared by every ruleset where a team picks one
target together by voting (human_kill's exorcism; any "the team votes, most votes wins" rule).

Each member may vote for a target or abstain; a later ballot replaces the earlier one (the team
discusses until the deadline) unless ``allow_change`` is False. At the deadline :meth:`TeamVote.close`
gives the plurality: one target with the most votes, or nobody when every member abstained, nobody
voted, or the top is tied (``tie`` "nobody"; "draw" makes a seeded draw among the tied, recorded).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from forumbot.engine.types import Step
from forumbot.engine.votes import Ballot, BallotBox, top

if TYPE_CHECKING:
    from forumbot.engine.game import Game


@dataclass(frozen=True)
class TeamVoteResult:
    """``chosen``: the target, or None. ``how``: "plurality", "drawn", "tie", "abstained" (every
    ballot an abstention) or "no_votes". ``tied``: the tied targets; ``received``: votes per target."""

    chosen: int | None
    how: str
    tied: tuple[int, ...]
    received: dict[int, float]
    ballots: tuple[Ballot, ...]


@dataclass
class TeamVote:
    """One team vote. ``voters``: the seats that may vote."""

    voters: tuple[int, ...]
    allow_change: bool = True
    tie: str = "nobody"
    box: BallotBox = field(init=False)

    def __post_init__(self) -> None:
        self.box = BallotBox(points=(1,), allow_change=self.allow_change)

    def may_vote(self, seat: int) -> bool:
        """Is ``seat`` one of the voters?"""
        return seat in self.voters

    def cast(self, voter: int, target: int | None) -> bool:
        """``voter`` votes for ``target`` (None: abstains). False when he may not change his ballot."""
        return self.box.cast(Ballot(voter, () if target is None else (target,)))

    def choice_of(self, voter: int) -> tuple[bool, int | None]:
        """(has voted, target or None for an abstention)."""
        b = self.box.ballot_of(voter)
        if b is None:
            return False, None
        return True, (b.choices[0] if b.choices else None)

    def close(self, game: Game, eligible: list[int], purpose: str, out: Step) -> TeamVoteResult:
        """The plurality among ``eligible`` targets (votes for others are ignored)."""
        from forumbot.engine.runoff import seeded_draw

        ballots = tuple(b for b in self.box.ballots if b.voter in self.voters)
        received = self.box.received()
        leaders = top(received, among=set(eligible))
        if not leaders:
            how = "abstained" if ballots else "no_votes"
            return TeamVoteResult(None, how, (), received, ballots)
        if len(leaders) == 1:
            return TeamVoteResult(leaders[0], "plurality", (), received, ballots)
        if self.tie == "draw":
            return TeamVoteResult(seeded_draw(game, leaders, purpose, out), "drawn", tuple(leaders), received, ballots)
        return TeamVoteResult(None, "tie", tuple(leaders), received, ballots)

"""Plurality votes with run-offs among the tied, shared by every ruleset (killer_club's day vote,
vampire_village's sheriff election and day vote, human_kill's banishment).

A :class:`RunoffVote` is one decision taken by up to ``max_votes`` votes: the first among every living
player (or given candidates), each later one among the players tied at the top of the one before.
After each vote's deadline :meth:`RunoffVote.close` says what happened; the ruleset opens the next
run-off (its own phase, deadline and post) with :meth:`RunoffVote.next`, or applies its own rule when
the last vote ties too (``exhausted``). :func:`seeded_draw` is the recorded random draw some rulebooks
use to break a final tie.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from forumbot.engine.types import Event, Step
from forumbot.engine.votes import Ballot, BallotBox, top

if TYPE_CHECKING:
    from forumbot.engine.game import Game


@dataclass(frozen=True)
class VoteOutcome:
    """The result of one vote. ``kind``: "decided" (``chosen`` has the most votes), "none" (nobody
    received a vote), "runoff" (``tied`` go to a run-off) or "exhausted" (tied at the last vote)."""

    number: int
    kind: str
    chosen: int | None
    tied: tuple[int, ...]
    received: dict[int, float]
    ballots: tuple[Ballot, ...]


@dataclass
class RunoffVote:
    """One decision by vote with run-offs. ``number``: 1 for the first vote, 2 for the first run-off...
    ``candidates``: who may be voted for (None: any living player). One ballot per voter; the first
    stands unless ``allow_change``."""

    max_votes: int = 3
    allow_change: bool = False
    number: int = 1
    candidates: tuple[int, ...] | None = None
    box: BallotBox = field(default_factory=BallotBox)
    history: list[VoteOutcome] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.box = BallotBox(points=(1,), allow_change=self.allow_change)

    @property
    def is_runoff(self) -> bool:
        """True from the second vote on."""
        return self.number > 1

    @property
    def runoffs_left(self) -> int:
        """Run-offs still possible after this vote."""
        return self.max_votes - self.number

    def eligible(self, target: int) -> bool:
        """May ``target`` be voted for in this vote (the game checks that he is alive)?"""
        return self.candidates is None or target in self.candidates

    def cast(self, voter: int, target: int) -> bool:
        """Record ``voter``'s ballot for ``target``; False when he already voted and may not change."""
        return self.box.cast(Ballot(voter, (target,)))

    def withdraw(self, voter: int) -> Ballot | None:
        """Withdraw ``voter``'s ballot (see :meth:`BallotBox.withdraw`)."""
        return self.box.withdraw(voter)

    def ballot_of(self, voter: int) -> Ballot | None:
        """``voter``'s standing ballot, or None."""
        return self.box.ballot_of(voter)

    def close(self, alive: list[int]) -> VoteOutcome:
        """Tally this vote among the living candidates (votes for the dead are ignored)."""
        pool = set(alive) if self.candidates is None else set(self.candidates) & set(alive)
        received = self.box.received()
        leaders = top(received, among=pool)
        tied: tuple[int, ...]
        if not leaders:
            kind, chosen, tied = "none", None, ()
        elif len(leaders) == 1:
            kind, chosen, tied = "decided", leaders[0], ()
        else:
            kind, chosen, tied = ("runoff" if self.number < self.max_votes else "exhausted"), None, tuple(leaders)
        outcome = VoteOutcome(self.number, kind, chosen, tied, received, tuple(self.box.ballots))
        self.history.append(outcome)
        return outcome

    def next(self, tied: tuple[int, ...]) -> None:
        """Open the next run-off among ``tied``: a new ballot box, the counter one up."""
        self.number += 1
        self.candidates = tuple(tied)
        self.box = BallotBox(points=(1,), allow_change=self.allow_change)


def seeded_draw(game: Game, among: list[int] | tuple[int, ...], purpose: str, out: Step) -> int:
    """One of ``among`` drawn with the game's seeded randomness for ``purpose``, recorded as an event."""
    pool = sorted(among)
    chosen = game.rng(purpose).choice(pool)
    out.events.append(Event("draw", {"purpose": purpose, "among": pool, "chosen": chosen}))
    return chosen

"""An election with withdrawals, shared by rulesets that elect a title holder this way (human_kill's
sage): everybody is a candidate unless they withdraw; a withdrawal is final. The vote is a
:class:`~forumbot.engine.weighted.WeightedVote` among the candidates, whose voters the ruleset
chooses (human_kill: only those who withdrew; in the run-off, everyone but the tied).

:meth:`Election.state` says whether there is anything to vote on: "vote" (at least one candidate and
at least one voter), or "nobody" when everyone withdrew or nobody did (no voters), or "unopposed"
when exactly one candidate is left in a run-off.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from forumbot.engine.weighted import WeightedVote


@dataclass
class Election:
    """The candidates still standing and who withdrew, in the order they did."""

    seats: tuple[int, ...]
    withdrawn: list[int] = field(default_factory=list)
    vote: WeightedVote = field(default_factory=lambda: WeightedVote(max_votes=2))

    @property
    def candidates(self) -> tuple[int, ...]:
        """Who still stands (seat order)."""
        return tuple(s for s in self.seats if s not in self.withdrawn)

    def withdraw(self, seat: int) -> bool:
        """``seat`` withdraws; False when he already had (or is not in the election)."""
        if seat not in self.seats or seat in self.withdrawn:
            return False
        self.withdrawn.append(seat)
        if self.vote.candidates is not None:
            self.vote.candidates = tuple(c for c in self.vote.candidates if c != seat)
        return True

    def state(self, alive: list[int]) -> str:
        """"vote", "nobody" (no candidate or no voter left) or "unopposed" (one candidate left in a run-off)."""
        pool = [c for c in (self.vote.candidates if self.vote.candidates is not None else self.candidates) if c in alive]
        voters = [v for v in (self.vote.voters or ()) if v in alive]
        if not pool:
            return "nobody"
        if self.vote.is_runoff and len(pool) == 1:
            return "unopposed"
        if not voters:
            return "nobody"
        return "vote"

"""A vote in which each voter holds several votes (interview_vampire's night vote: a vampire 2, a
criminal vampire 1), which he may put on one name or spread over several; shared by every ruleset with
weighted multi-vote ballots.

A :class:`MultiVote` keeps each voter's standing ballot (a later ballot replaces the earlier one), the
tally, the single top name (a tie at the top decides nothing) and the names in the top ``n`` places
(ties at the last place all included) for rules that publish "the top three" without counts.
"""

from __future__ import annotations

from dataclasses import dataclass


class BallotError(ValueError):
    """A ballot a voter may not cast: ``reason`` "too_many" (more names than votes) or "no_votes"."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class MultiBallot:
    """``voter`` puts ``votes[i]`` votes on ``choices[i]``."""

    voter: int
    choices: tuple[int, ...]
    votes: tuple[int, ...]


class MultiVote:
    """One multi-vote ballot box. ``weights``: voter -> number of votes (voters not listed hold none)."""

    def __init__(self, weights: dict[int, int]) -> None:
        self.weights = dict(weights)
        self._ballots: dict[int, MultiBallot] = {}

    def spread(self, voter: int, names: tuple[int, ...] | list[int]) -> MultiBallot:
        """The ballot ``voter`` casts by naming ``names``: his votes shared out over the distinct names
        in order, as evenly as they go, the first names getting the remainder (2 votes and one name: 2
        on it; 2 votes and two names: 1 each; a name written twice counts once). Raises
        :class:`BallotError` when he has no votes or names more players than he has votes."""
        weight = self.weights.get(voter, 0)
        if weight <= 0:
            raise BallotError("no_votes")
        distinct = tuple(dict.fromkeys(names))
        if not distinct or len(distinct) > weight:
            raise BallotError("too_many")
        base, extra = divmod(weight, len(distinct))
        return MultiBallot(voter, distinct, tuple(base + (1 if i < extra else 0) for i in range(len(distinct))))

    def cast(self, voter: int, names: tuple[int, ...] | list[int]) -> MultiBallot:
        """Record ``voter``'s ballot (replacing any earlier one); see :meth:`spread`."""
        ballot = self.spread(voter, names)
        self._ballots.pop(voter, None)
        self._ballots[voter] = ballot
        return ballot

    def ballot_of(self, voter: int) -> MultiBallot | None:
        """``voter``'s standing ballot, or None."""
        return self._ballots.get(voter)

    @property
    def ballots(self) -> list[MultiBallot]:
        """Standing ballots, in the order cast (a replaced ballot moves to the end)."""
        return list(self._ballots.values())

    def tally(self, among: set[int] | None = None) -> dict[int, int]:
        """Votes received by each name (only names in ``among`` when given)."""
        got: dict[int, int] = {}
        for b in self._ballots.values():
            for c, v in zip(b.choices, b.votes, strict=False):
                if among is None or c in among:
                    got[c] = got.get(c, 0) + v
        return got

    def top(self, among: set[int] | None = None) -> int | None:
        """The single name with the most votes; None when nobody got a vote or the top is tied."""
        got = self.tally(among)
        if not got:
            return None
        best = max(got.values())
        leaders = [c for c, v in got.items() if v == best]
        return leaders[0] if len(leaders) == 1 else None

    def leading(self, n: int = 3, among: set[int] | None = None) -> list[int]:
        """The names in the top ``n`` places by votes, every name tied with the ``n``-th included;
        sorted by name (seat), so the order says nothing about the counts."""
        got = self.tally(among)
        if not got:
            return []
        ranked = sorted(got.values(), reverse=True)
        cut = ranked[min(n, len(ranked)) - 1]
        return sorted(c for c, v in got.items() if v >= cut)

"""The one vote mechanism of every ruleset: a vote declared as data, one tally, one tie rule, one run-off.

A ruleset declares each of its votes once as a :class:`VoteRule` (who may change a ballot, whether an
abstention is a ballot, how many votes the decision takes, what a tie at the last one does, what
happens when nobody receives a vote, ranked points or votes spread over several names) and keeps the
ballots of the vote now open in a :class:`Vote` (the voters, the candidates, each voter's weight).
:meth:`Vote.close` tallies the ballots (:class:`VoteOutcome`); :meth:`Vote.decide` applies the rule's
tie and no-vote policies (:class:`Decision`), drawing with the game's seeded randomness when the rule
says so; :meth:`Vote.next` opens the run-off among the tied (the ruleset opens its phase and post).

The vocabulary, one name per concept:

- ``voters``: the seats that may vote (None: whoever the ruleset lets through); ``candidates``: who
  may be voted for (None: any living player, or any option of a poll).
- ``weight``: what one voter's ballot counts (vampire_village's sheriff 2, human_kill's sage 1.5);
  ``points``: what the 1st, 2nd... name of a ranked ballot receives (sunlight: 3 and 2);
  ``split="spread"``: a voter holds ``weight`` whole votes and shares them out over the names he
  writes (interview_vampire's criminal vote: a vampire 2, a criminal 1).
- ``abstain``: a ballot naming nobody is allowed (it counts as having voted, for nobody);
  ``self_vote="void"``: a ballot naming the voter counts for nothing (sunlight), else it counts.
- ``change``: ``"first_stands"`` (a later ballot is refused), ``"replace"`` (a later ballot replaces
  the earlier one and counts as received last) or ``"replace_in_place"`` (it keeps the earlier one's
  place in the order received).
- ``votes``: how many votes the decision may take: the first, then run-offs among those tied at the
  top (``votes=3``: a run-off and a second run-off).
- ``last_tie``, the tie policy at the last vote: ``"nobody"`` (nobody is chosen), ``"draw"`` (a
  seeded draw among the tied, recorded as a ``draw`` event), ``"chooser"`` (a named player chooses
  among the tied: the ruleset runs that choice, :meth:`Vote.named`; ``no_choice`` says what happens
  when he names nobody in time: ``"nobody"`` or ``"draw"``) or ``"all"`` (every tied choice wins: a poll).
- ``no_votes``, when nobody receives a vote: ``"nobody"``, ``"draw"`` (a seeded draw among the
  candidates) or ``"tie"`` (as a tie of every living candidate: a run-off, or the tie policy).

Outcomes keep the tally's own words (:attr:`VoteOutcome.kind`: "decided", "none", "runoff",
"exhausted"), which the rulesets' events and posts carry; a :class:`Decision` says what the vote
decides (:attr:`Decision.how`: "decided", "runoff", "drawn", "chooser", "named", "all", "nobody",
"none").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

from forumbot.engine.events import Draw
from forumbot.engine.types import Step

if TYPE_CHECKING:
    from forumbot.engine.game import Game

Change = Literal["first_stands", "replace", "replace_in_place"]
TiePolicy = Literal["nobody", "draw", "chooser", "all"]
NoVotesPolicy = Literal["nobody", "draw", "tie"]


@dataclass(frozen=True)
class VoteRule:
    """The declaration of one vote of a ruleset (see the module docstring for each word); the ruleset's
    comment on it quotes the rulebook clause it implements. ``name``: what the vote is ("day vote",
    "sheriff election"...); ``points``: the points of the 1st, 2nd... ranked name (one name: ``(1,)``).
    """

    name: str
    votes: int = 1
    last_tie: TiePolicy = "nobody"
    no_votes: NoVotesPolicy = "nobody"
    change: Change = "first_stands"
    abstain: bool = False
    self_vote: Literal["counts", "void"] = "counts"
    no_choice: Literal["nobody", "draw"] = "nobody"
    points: tuple[float, ...] = (1,)
    split: Literal["ranked", "spread"] = "ranked"


class BallotError(ValueError):
    """A ballot a voter may not cast: ``reason`` "too_many" (a spread ballot with more names than
    votes, or none), "no_votes" (he holds none) or "no_abstention" (an empty ballot where the rule
    allows no abstention)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Ballot:
    """One ballot: ``voter`` seat, ``choices`` in ranked order (empty: an abstention), ``void`` when it
    counts for nothing (a sunlight self-vote, a ballot the typhoon blew away), ``weight`` the voter's
    weight when cast; ``shares``: for a spread ballot, the votes on each choice."""

    voter: int
    choices: tuple[int, ...]
    void: bool = False
    weight: float = 1.0
    shares: tuple[int, ...] = ()


@dataclass(frozen=True)
class VoteOutcome:
    """The tally of one vote. ``kind``: "decided" (``chosen`` has the most), "none" (nobody received a
    vote), "runoff" (``tied`` go to a run-off) or "exhausted" (tied at the last vote). ``number``: 1 for
    the first vote, 2 for the first run-off...; ``received``: points per choice (every choice named on
    a valid ballot); ``ballots``: in the order received; ``pool``: the living candidates, seat order."""

    number: int
    kind: str
    chosen: int | None
    tied: tuple[int, ...]
    received: dict[int, float]
    ballots: tuple[Ballot, ...]
    pool: tuple[int, ...] = ()

    @property
    def counts(self) -> list[tuple[int, float]]:
        """``(choice, points)`` pairs, the most points first, then by seat: the order vote tables show."""
        return sorted(self.received.items(), key=lambda kv: (-kv[1], kv[0]))


@dataclass(frozen=True)
class Decision:
    """What a closed vote decides under its rule. ``how``: "decided" (``chosen`` had the most votes),
    "runoff" (``among`` vote again), "drawn" (``chosen`` drawn among ``among``), "chooser" (a named
    player chooses among ``among``), "named" (he chose ``chosen``), "all" (every one of ``among``
    wins), "nobody" (a tie decides nothing) or "none" (nobody received a vote)."""

    how: str
    chosen: int | None = None
    among: tuple[int, ...] = ()

    @property
    def winners(self) -> tuple[int, ...]:
        """The chosen, or every tied choice under the "all" policy; empty when nobody is chosen."""
        if self.how == "all":
            return self.among
        return () if self.chosen is None else (self.chosen,)


def top(received: Mapping[int, float], among: Iterable[int] | None = None) -> list[int]:
    """The choices with the most points (ties all returned, sorted), over ``among`` when given;
    empty when nobody received a point."""
    pool_set = None if among is None else set(among)
    pool = {c: p for c, p in received.items() if (pool_set is None or c in pool_set) and p > 0}
    if not pool:
        return []
    best = max(pool.values())
    return sorted(c for c, p in pool.items() if p == best)


def seeded_draw(game: Game, among: Iterable[int], purpose: str, out: Step) -> int:
    """One of ``among`` drawn with the game's seeded randomness for ``purpose`` (its own stream, so
    a draw never shifts another), recorded as a ``draw`` event."""
    pool = sorted(among)
    chosen = game.rng(purpose).choice(pool)
    out.events.append(Draw(purpose, pool, chosen))
    return chosen


@dataclass
class Vote:
    """The ballots of the vote now open under ``rule``.

    ``voters``: seats allowed to vote (None: whoever the ruleset lets through); ``candidates``: who
    may be voted for (None: anyone); ``weights``: a voter's weight by seat, seats not listed holding
    none (None: 1.0 each; a ruleset whose weights change during the vote, as a sheriff's may, passes
    the weight to :meth:`cast` instead). ``number``: 1 for the first vote, 2 for the first
    run-off...; ``history``: the outcomes closed so far; ``withdrawn``: candidates who withdrew, in
    order (an election in which everybody stands unless they withdraw).
    """

    rule: VoteRule
    candidates: tuple[int, ...] | None = None
    voters: tuple[int, ...] | None = None
    weights: Mapping[int, float] | None = None
    number: int = 1
    history: list[VoteOutcome] = field(default_factory=list)
    withdrawn: list[int] = field(default_factory=list)
    _ballots: dict[int, Ballot] = field(default_factory=dict, init=False, repr=False)

    # --- who and what -----------------------------------------------------------------------------
    @property
    def allow_change(self) -> bool:
        """May a voter replace his ballot?"""
        return self.rule.change != "first_stands"

    @property
    def is_runoff(self) -> bool:
        """True from the second vote on."""
        return self.number > 1

    @property
    def runoffs_left(self) -> int:
        """Run-offs still possible after this vote."""
        return self.rule.votes - self.number

    def may_vote(self, seat: int) -> bool:
        """May ``seat`` vote in this vote?"""
        return self.voters is None or seat in self.voters

    def eligible(self, target: int) -> bool:
        """May ``target`` be voted for in this vote (the ruleset checks that he is alive)?"""
        return self.candidates is None or target in self.candidates

    def weight_of(self, seat: int) -> float:
        """``seat``'s weight in this vote (1.0 unless ``weights`` says otherwise)."""
        return 1.0 if self.weights is None else self.weights.get(seat, 0)

    def withdraw_candidate(self, seat: int) -> bool:
        """``seat`` stands down (a withdrawal is final); False when he is no candidate (any more)."""
        if self.candidates is None or seat not in self.candidates:
            return False
        self.withdrawn.append(seat)
        self.candidates = tuple(c for c in self.candidates if c != seat)
        return True

    # --- ballots ----------------------------------------------------------------------------------
    @property
    def ballots(self) -> list[Ballot]:
        """Standing ballots in the order received (see the rule's ``change``)."""
        return list(self._ballots.values())

    def ballot_of(self, voter: int) -> Ballot | None:
        """The standing ballot of ``voter``, or None."""
        return self._ballots.get(voter)

    def spread(self, voter: int, names: Iterable[int]) -> Ballot:
        """The spread ballot ``voter`` casts by naming ``names``: his votes shared out over the distinct
        names in order, as evenly as they go, the first names getting the remainder (2 votes and one
        name: 2 on it; 2 votes and two names: 1 each; a name written twice counts once). Raises
        :class:`BallotError` when he has no votes or names more players than he has votes."""
        votes = int(self.weight_of(voter))
        if votes <= 0:
            raise BallotError("no_votes")
        distinct = tuple(dict.fromkeys(names))
        if not distinct or len(distinct) > votes:
            raise BallotError("too_many")
        base, extra = divmod(votes, len(distinct))
        return Ballot(voter, distinct, shares=tuple(base + (1 if i < extra else 0) for i in range(len(distinct))))

    def cast(self, voter: int, choices: Iterable[int], void: bool = False, weight: float | None = None) -> Ballot | None:
        """Record ``voter``'s ballot for ``choices`` (ranked; empty: an abstention) and return it; None
        (nothing recorded) when he already has one and the first ballot stands. ``weight``: his weight
        (default :meth:`weight_of`); ``void``: the ballot counts for nothing (also a self-vote under
        ``self_vote="void"``). A spread rule shares his votes out (:meth:`spread`, which may raise
        :class:`BallotError`); an empty ballot where the rule allows no abstention raises
        :class:`BallotError` ("no_abstention")."""
        if self.rule.split == "spread":
            ballot = self.spread(voter, choices)
        else:
            names = tuple(choices)
            if not names and not self.rule.abstain:
                raise BallotError("no_abstention")
            void = void or (self.rule.self_vote == "void" and voter in names)
            ballot = Ballot(voter, names, void=void, weight=self.weight_of(voter) if weight is None else weight)
        if voter in self._ballots:
            if not self.allow_change:
                return None
            if self.rule.change == "replace":
                del self._ballots[voter]
        self._ballots[voter] = ballot
        return ballot

    def withdraw(self, voter: int) -> Ballot | None:
        """Remove ``voter``'s standing ballot (an unvote) and return it; None (nothing changed) when
        there is none or the first ballot stands."""
        if not self.allow_change or voter not in self._ballots:
            return None
        return self._ballots.pop(voter)

    def void_ballots(self, blown: Callable[[Ballot], bool]) -> None:
        """Make void every standing ballot for which ``blown`` is true (asked in the order received);
        the order received is kept."""
        self._ballots = {v: replace(b, void=blown(b)) for v, b in self._ballots.items()}

    # --- the tally --------------------------------------------------------------------------------
    def valid(self) -> list[Ballot]:
        """The ballots that count (not void), in the order received."""
        return [b for b in self._ballots.values() if not b.void]

    def points_of(self, ballot: Ballot) -> list[tuple[int, float]]:
        """``(choice, points)`` pairs that ``ballot`` gives (nothing for a void ballot)."""
        if ballot.void:
            return []
        if ballot.shares:
            return list(zip(ballot.choices, ballot.shares, strict=True))
        return [(c, self.rule.points[i] * ballot.weight) for i, c in enumerate(ballot.choices)]

    def received(self) -> dict[int, float]:
        """Points received by each choice named on a valid ballot, in the order first named."""
        got: dict[int, float] = {}
        for b in self.valid():
            for choice, pts in self.points_of(b):
                got[choice] = got.get(choice, 0) + pts
        return got

    def leading(self, n: int = 3) -> list[int]:
        """The choices in the top ``n`` places by points, every choice tied with the ``n``-th included;
        sorted by seat, so the order says nothing about the counts."""
        got = self.received()
        if not got:
            return []
        ranked = sorted(got.values(), reverse=True)
        cut = ranked[min(n, len(ranked)) - 1]
        return sorted(c for c, v in got.items() if v >= cut)

    def close(self, alive: Iterable[int] | None) -> VoteOutcome:
        """Tally this vote among the living candidates (``alive``; None: among every choice named):
        points for anyone else are ignored. Recorded in :attr:`history`."""
        if alive is None:
            pool: tuple[int, ...] = tuple(self.candidates) if self.candidates is not None else ()
            among: Iterable[int] | None = self.candidates
        else:
            living = list(alive)
            pool = tuple(s for s in living if self.candidates is None or s in self.candidates)
            among = pool
        received = self.received()
        leaders = top(received, among=among)
        tied: tuple[int, ...] = ()
        chosen: int | None = None
        if not leaders:
            kind = "none"
        elif len(leaders) == 1:
            kind, chosen = "decided", leaders[0]
        else:
            kind, tied = ("runoff" if self.number < self.rule.votes else "exhausted"), tuple(leaders)
        outcome = VoteOutcome(self.number, kind, chosen, tied, received, tuple(self.ballots), pool)
        self.history.append(outcome)
        return outcome

    def decide(self, game: Game, outcome: VoteOutcome, purpose: str, out: Step) -> Decision:
        """What ``outcome`` decides under the rule's tie and no-vote policies. A seeded draw uses the
        game's stream ``purpose`` (recorded as a ``draw`` event); a draw among nobody chooses nobody."""
        if outcome.kind == "decided":
            return Decision("decided", outcome.chosen)
        if outcome.kind == "runoff":
            return Decision("runoff", None, outcome.tied)
        tied = outcome.tied
        if outcome.kind == "none":
            if self.rule.no_votes == "nobody":
                return Decision("none")
            if self.rule.no_votes == "draw":
                return self._draw(game, outcome.pool, purpose, out)
            tied = outcome.pool
            if self.number < self.rule.votes:
                return Decision("runoff", None, tied)
        policy = self.rule.last_tie
        if policy == "draw":
            return self._draw(game, tied, purpose, out)
        if policy in ("chooser", "all"):
            return Decision(policy, None, tied)
        return Decision("nobody", None, tied)

    def named(self, game: Game, choice: int | None, among: Iterable[int], purpose: str, out: Step) -> Decision:
        """The chooser's answer after a tie under the "chooser" policy: ``choice`` (None: he named
        nobody in time, or one no longer among the living ``among``) stands; otherwise the rule's
        ``no_choice``: a seeded draw among the living ``among`` (``purpose``), or nobody."""
        pool = tuple(among)
        if choice is not None:
            return Decision("named", choice, pool)
        if self.rule.no_choice == "draw" and pool:
            return self._draw(game, pool, purpose, out)
        return Decision("nobody", None, pool)

    @staticmethod
    def _draw(game: Game, among: tuple[int, ...], purpose: str, out: Step) -> Decision:
        if not among:
            return Decision("drawn", None, ())
        return Decision("drawn", seeded_draw(game, among, purpose, out), among)

    def next(self, tied: Iterable[int], voters: Iterable[int] | None = None) -> None:
        """Open the next run-off among ``tied``: no ballots yet, the number one up; ``voters``: the
        run-off's voters (None: whoever the ruleset lets through)."""
        self.number += 1
        self.candidates = tuple(tied)
        self.voters = None if voters is None else tuple(voters)
        self._ballots = {}

"""The facts of the sunlight ruleset (阳光下的罪恶; :class:`~forumbot.engine.types.Event` subclasses, one per
kind). Seats are ints; points are floats (halves possible)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from forumbot.engine.types import Event


@dataclass(frozen=True)
class Ballot(Event):
    """``voter``'s ballot in vote round ``round``: one or two names ranked (「3 points for the first, 2 for
    the second」); ``void`` when it names the voter (a self-vote: counts like a missed vote)."""

    kind: ClassVar[str] = "ballot"
    round: int
    voter: int
    choices: list[int]
    void: bool


@dataclass(frozen=True)
class KillOrder(Event):
    """The killer's order to kill ``target`` in kill round ``round`` (「每次杀人轮杀1人」; a later order
    replaces it)."""

    kind: ClassVar[str] = "kill_order"
    round: int
    killer: int
    target: int


@dataclass(frozen=True)
class ClueVote(Event):
    """``voter``'s choice in the clue poll after vote round ``round``: clue 1, 2 or 3, or 0 for "no clue"
    (a later choice replaces it)."""

    kind: ClassVar[str] = "clue_vote"
    round: int
    voter: int
    clue: int


@dataclass(frozen=True)
class VoteClosed(Event):
    """Vote round ``round`` closed: ``out`` has the most points received (None: a tie at the top or no
    ballots); ``suicides`` had their second missed or self vote and are out, ``warned`` their first."""

    kind: ClassVar[str] = "vote_closed"
    round: int
    out: int | None
    suicides: list[int]
    warned: list[int]


@dataclass(frozen=True)
class KillClosed(Event):
    """Kill round ``round`` closed: ``victim`` killed (None: no kill by the deadline, nobody dies)."""

    kind: ClassVar[str] = "kill_closed"
    round: int
    victim: int | None


@dataclass(frozen=True)
class SuccessorDrawn(Event):
    """The killer's successor ``seat`` drawn (seeded) among the living goods ``among``: the voted-out
    killer named none in time, or the killer left by suicide or penalty."""

    kind: ClassVar[str] = "successor_drawn"
    seat: int
    among: list[int]


@dataclass(frozen=True)
class Successor(Event):
    """``seat`` is the killer now, ``how`` "named" (by the voted-out killer) or "drawn"; only he is told
    (nothing public reveals that the killer changed)."""

    kind: ClassVar[str] = "successor"
    seat: int
    name: str
    how: str


@dataclass(frozen=True)
class CluePollClosed(Event):
    """The clue poll after vote round ``round`` closed: ``counts`` (option -> votes, 0 = "no clue") and the
    clues ``published`` (the clue(s) on top, "no clue" left out; none when it alone is on top)."""

    kind: ClassVar[str] = "clue_poll_closed"
    round: int
    counts: dict[int, float]
    published: list[int]

"""The facts of the sunlight ruleset (:class:`~forumbot.engine.types.Event` subclasses, one per kind)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from forumbot.engine.types import Event


@dataclass(frozen=True)
class Ballot(Event):
    """A ballot cast."""

    kind: ClassVar[str] = "ballot"
    round: int
    voter: int
    choices: list[Any]
    void: bool


@dataclass(frozen=True)
class KillOrder(Event):
    """The killer's kill order."""

    kind: ClassVar[str] = "kill_order"
    round: int
    killer: int
    target: int | None


@dataclass(frozen=True)
class ClueVote(Event):
    """A choice in the clue poll."""

    kind: ClassVar[str] = "clue_vote"
    round: int
    voter: int
    clue: Any


@dataclass(frozen=True)
class VoteClosed(Event):
    """The vote closed."""

    kind: ClassVar[str] = "vote_closed"
    round: int
    out: int | None
    suicides: list[Any]
    warned: list[Any]


@dataclass(frozen=True)
class KillClosed(Event):
    """The kill phase closed."""

    kind: ClassVar[str] = "kill_closed"
    round: int
    victim: int | None


@dataclass(frozen=True)
class SuccessorDrawn(Event):
    """A successor drawn among the goods."""

    kind: ClassVar[str] = "successor_drawn"
    seat: int
    among: list[Any]


@dataclass(frozen=True)
class Successor(Event):
    """The new killer, named or drawn."""

    kind: ClassVar[str] = "successor"
    seat: int
    name: str
    how: str


@dataclass(frozen=True)
class CluePollClosed(Event):
    """The clue poll closed."""

    kind: ClassVar[str] = "clue_poll_closed"
    round: int
    counts: dict[Any, Any]
    published: list[Any]

"""The facts of the interview_vampire ruleset (:class:`~forumbot.engine.types.Event` subclasses, one per kind)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from forumbot.engine.types import Event


@dataclass(frozen=True)
class Setup(Event):
    """What the set-up drew, for the log."""

    kind: ClassVar[str] = "setup"
    vampires: int
    criminals: int


@dataclass(frozen=True)
class SuckPlan(Event):
    """A vampire's plan to suck blood tonight."""

    kind: ClassVar[str] = "suck_plan"
    seat: int
    targets: list[Any]
    round: int


@dataclass(frozen=True)
class ConvertPlan(Event):
    """A vampire's plan to convert tonight."""

    kind: ClassVar[str] = "convert_plan"
    seat: int
    target: int | None
    round: int


@dataclass(frozen=True)
class ConvertWithdrawn(Event):
    """A vampire withdrew his plan to convert."""

    kind: ClassVar[str] = "convert_withdrawn"
    seat: int
    target: int | None
    round: int


@dataclass(frozen=True)
class CrimeBallot(Event):
    """A ballot in the criminal vote, with its shares."""

    kind: ClassVar[str] = "crime_ballot"
    voter: int
    choices: list[Any]
    votes: list[Any]
    round: int


@dataclass(frozen=True)
class Ballot(Event):
    """A ballot cast."""

    kind: ClassVar[str] = "ballot"
    round: int
    voter: int
    choice: int | None


@dataclass(frozen=True)
class Dawn(Event):
    """What the dawn decided."""

    kind: ClassVar[str] = "dawn"
    round: int
    fed: dict[Any, Any]
    converted: dict[Any, Any]
    criminals: list[Any]
    kills: dict[Any, Any]
    starved: list[Any]
    executed: int | None
    dead: list[Any]


@dataclass(frozen=True)
class VoteClosed(Event):
    """The vote closed."""

    kind: ClassVar[str] = "vote_closed"
    keys: ClassVar[dict[str, str]] = {"vote_kind": "kind"}
    round: int
    vote_kind: str
    chosen: int | None
    tied: list[Any]
    burns: bool
